"""The independent restatement (``restatement/model.py``) against the rulebooks' own examples.

These tests check the model alone, from the sources' sentences and worked examples; the
differential run against the engine is further down (phase 2).
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from restatement.model import (
    Bottle,
    Card,
    Config,
    Gives,
    ModelError,
    RoundState,
    classic_deck,
    coins,
    deal_sizes,
    end_round,
    eye_legal_plays,
    eye_split,
    legal_plays,
    matagot_deck,
    resolve_setup,
    resolve_trick,
    round_scores,
    setup_shape,
    winners,
)

CLASSIC = {card.rank: card for card in classic_deck()}


def c(rank: float) -> Card:
    """A classic card by rank."""
    return CLASSIC[rank]


def test_rulebook_example_highest_card_below_the_price_buys_the_bottle() -> None:
    # English rulebook: "Adam: 24, Betty: 15, Christian: 17, Doris: 32" at the start (price 19):
    # Christian's 17 wins the trick and the bottle; 17 becomes the price; the 19 is never taken.
    plays = ((0, c(24)), (1, c(15)), (2, c(17)), (3, c(32)))
    outcome = resolve_trick(4, (Bottle(),), plays)
    assert outcome.winner == 2
    assert outcome.bottles == (Bottle(owner=2, price_card=c(17)),)
    assert outcome.bottles[0].price == 17
    assert sorted(outcome.captured[2]) == [c(15), c(24), c(32)]
    assert outcome.returned is None and outcome.returned_to is None
    assert outcome.captured[0] == outcome.captured[1] == outcome.captured[3] == ()


def test_all_cards_above_the_price_highest_wins_and_the_bottle_stays() -> None:
    bottle = Bottle(owner=1, price_card=c(12))
    plays = ((0, c(24)), (1, c(15)), (2, c(17)), (3, c(32)))
    outcome = resolve_trick(4, (bottle,), plays)
    assert outcome.winner == 3
    assert outcome.bottles == (bottle,)
    assert sorted(outcome.captured[3]) == [c(15), c(17), c(24), c(32)]
    assert outcome.bought is None


def test_a_resale_returns_the_old_price_card_to_the_former_owner() -> None:
    bottle = Bottle(owner=1, price_card=c(17))
    plays = ((2, c(25)), (0, c(12)), (1, c(22)))
    outcome = resolve_trick(3, (bottle,), plays)
    assert outcome.winner == 0
    assert outcome.bottles == (Bottle(owner=0, price_card=c(12)),)
    assert outcome.returned == c(17) and outcome.returned_to == 1
    assert outcome.captured[1] == (c(17),)
    assert sorted(outcome.captured[0]) == [c(22), c(25)]


def test_the_new_and_former_owner_may_be_the_same_player() -> None:
    # English rulebook: "It is possible that the new and former owners of the Bottle Imp are
    # identical."
    bottle = Bottle(owner=0, price_card=c(17))
    outcome = resolve_trick(3, (bottle,), ((0, c(15)), (1, c(28)), (2, c(36))))
    assert outcome.winner == 0 and outcome.bottles[0].owner == 0
    assert sorted(outcome.captured[0]) == [c(17), c(28), c(36)]


def test_colour_never_decides_the_winner() -> None:
    # Led yellow 28; a red 37 off-suit still wins when nothing is below the price.
    outcome = resolve_trick(3, (Bottle(0, c(5)),), ((1, c(28)), (2, c(37)), (0, c(22))))
    assert outcome.winner == 2


def test_follow_suit_if_possible_otherwise_any_card() -> None:
    hand = (c(1), c(4), c(11))  # yellow, blue, red
    assert legal_plays(hand, ()) == frozenset(hand)
    assert legal_plays(hand, (c(6),)) == {c(4)}  # blue led
    assert legal_plays((c(1), c(11)), (c(6),)) == {c(1), c(11)}


def test_devils_eye_face_up_cards_follow_hidden_cards_are_free() -> None:
    face_up = (c(1), c(4))
    hidden = (c(2), c(11))
    # blue led: the face-up blue 4 must be chosen over the face-up yellow 1; hidden cards free
    assert eye_legal_plays(face_up, hidden, (c(6),)) == {c(4), c(2), c(11)}
    # red led: no face-up red, any face-up card
    assert eye_legal_plays(face_up, hidden, (c(14),)) == {c(1), c(4), c(2), c(11)}


def test_two_bottles_first_buyer_takes_one_then_only_the_higher_can_be_claimed() -> None:
    deck = {card.rank: card for card in matagot_deck(5)}
    outcome = resolve_trick(5, (Bottle(), Bottle()),
                            tuple((s, deck[r]) for s, r in enumerate((30, 18.5, 2, 25, 9))))
    assert outcome.winner == 1 and outcome.bought == 0
    assert outcome.bottles == (Bottle(1, deck[18.5]), Bottle())
    # Now the unsold bottle (19) is the higher: an 18 buys it, not the one at 18.5.
    outcome = resolve_trick(5, outcome.bottles,
                            tuple((s, deck[r]) for s, r in enumerate((18, 30, 31, 33, 34))))
    assert outcome.winner == 0 and outcome.bought == 1
    assert outcome.bottles == (Bottle(1, deck[18.5]), Bottle(0, deck[18]))
    # Both below 19: the higher price (18.5) is the one claimed; 12.5 buys it back from seat 1.
    outcome = resolve_trick(5, outcome.bottles,
                            tuple((s, deck[r]) for s, r in enumerate((12.5, 30, 31, 33, 34))))
    assert outcome.bought == 0 and outcome.returned == deck[18.5] and outcome.returned_to == 1
    # A card between the two prices is below the higher one and buys it.
    two = (Bottle(1, deck[12.5]), Bottle(0, deck[18]))
    outcome = resolve_trick(5, two, tuple((s, deck[r]) for s, r in enumerate((15, 30, 31, 33, 34))))
    assert outcome.bought == 1 and outcome.winner == 0 and outcome.returned_to == 0


def test_owner_scores_minus_the_devils_trick_others_their_captured_coins() -> None:
    config = Config(players=3, deck=classic_deck())
    devils_trick = (c(37), c(1), c(20))  # 6 + 1 + 4
    captured = ((c(36), c(35)), (c(34),), (c(33), c(2)))
    scores = round_scores(config, captured, (Bottle(2, c(9)),), devils_trick)
    assert scores == (11, 6, -11)


def test_two_bottles_owned_by_one_player_pay_twice_and_unsold_pays_nothing() -> None:
    config = Config(players=5, deck=matagot_deck(5), bottles=2)
    d = {card.rank: card for card in config.deck}
    devils_trick = (d[1], d[3], d[37], d[36.5])  # 1 + 1 + 6 + 6
    captured = ((d[30],), (), (d[31],), (), ())
    assert round_scores(config, captured, (Bottle(0, d[5]), Bottle(0, d[7])), devils_trick) == (
        -28, 0, 4, 0, 0)
    assert round_scores(config, captured, (Bottle(0, d[5]), Bottle()), devils_trick) == (
        -14, 0, 4, 0, 0)
    assert round_scores(config, captured, (Bottle(), Bottle()), devils_trick) == (5, 0, 4, 0, 0)


def test_teams_combine_share_the_penalty_and_single_players_double() -> None:
    config = Config(players=5, deck=matagot_deck(5), teams=((0, 3), (1, 4), (2,)))
    d = {card.rank: card for card in config.deck}
    devils_trick = (d[1], d[2], d[3], d[4])  # 1 + 1 + 1 + 2 = 5
    captured = ((d[30],), (d[31],), (d[33],), (d[34],), (d[37],))  # 5, 4, 5, 5, 6
    # seat 3 owns the bottle: seats 0 and 3 both get -5; 1 and 4 pool 4 + 6; 2 doubles 5.
    scores = round_scores(config, captured, (Bottle(3, d[5]),), devils_trick)
    assert scores == (-5, 10, 10, -5, 10)
    # the single player owns it: doubled penalty.
    assert round_scores(config, captured, (Bottle(2, d[5]),), devils_trick) == (
        10, 10, -10, 10, 10)


def test_setup_shapes_and_deal_sizes_per_player_count() -> None:
    assert deal_sizes(Config(3, classic_deck()), 0) == (12, 12, 12)
    assert deal_sizes(Config(4, classic_deck()), 0) == (9, 9, 9, 9)
    assert deal_sizes(Config(5, matagot_deck(5)), 2) == (11, 11, 10, 11, 11)
    assert deal_sizes(Config(6, matagot_deck(6)), 0) == (9,) * 6
    assert setup_shape(Config(5, matagot_deck(5)), 2, 2).discards == 0
    assert setup_shape(Config(5, matagot_deck(5)), 2, 3).discards == 1
    assert eye_split(Config(2, classic_deck())) == (12, 6)
    assert setup_shape(Config(2, classic_deck()), 0, 1).discards == 2


def test_setup_moves_discards_to_the_devils_trick_and_passes_left_and_right() -> None:
    config = Config(3, classic_deck())
    deck = classic_deck()
    hands = (deck[0:12], deck[12:24], deck[24:36])
    gives = tuple(Gives(discards=(h[0],), left=h[1], right=h[2]) for h in hands)
    result = resolve_setup(config, 0, hands, (), gives)
    assert result.devils_trick == (deck[0], deck[12], deck[24])
    # seat 1 receives seat 0's left pass and seat 2's right pass
    assert deck[1] in result.hands[1] and deck[26] in result.hands[1]
    assert all(len(h) == 11 for h in result.hands)
    with pytest.raises(ModelError):
        resolve_setup(config, 0, hands, (), (Gives((deck[13],), deck[1], deck[2]), *gives[1:]))


def _random_round(config: Config, dealer: int, rng: random.Random) -> RoundState:
    deck = list(config.deck)
    rng.shuffle(deck)
    sizes = deal_sizes(config, dealer)
    dealt, start = [], 0
    for size in sizes:
        dealt.append(tuple(deck[start:start + size]))
        start += size
    face_up: tuple[tuple[Card, ...], ...] = ()
    if config.devils_eye:
        hidden, _ = eye_split(config)
        face_up = tuple(h[hidden:] for h in dealt)
        dealt = [h[:hidden] for h in dealt]
    gives = []
    for seat in range(config.players):
        shape = setup_shape(config, dealer, seat)
        chosen = rng.sample(dealt[seat], shape.discards + 2)
        gives.append(Gives(tuple(chosen[:shape.discards]), chosen[-2], chosen[-1]))
    setup = resolve_setup(config, dealer, tuple(dealt), face_up, tuple(gives))
    state = RoundState.start(config, dealer, setup)
    while not state.over:
        state = state.play(rng.choice(sorted(state.legal())))
    return state


@pytest.mark.parametrize("config", [
    Config(2, classic_deck()), Config(3, classic_deck()), Config(4, classic_deck()),
    Config(4, matagot_deck(4), teams=((0, 2), (1, 3))), Config(5, matagot_deck(5)),
    Config(5, matagot_deck(5), bottles=2), Config(6, matagot_deck(6), bottles=2),
], ids=lambda config: f"{config.players}p-{config.bottles}b-{len(config.teams)}t")
def test_random_rounds_conserve_every_card(config: Config) -> None:
    rng = random.Random(config.players * 10 + config.bottles)
    for dealer in range(config.players):
        state = _random_round(config, dealer, rng)
        under = [b.price_card for b in state.bottles if b.price_card is not None]
        cards = [*state.devils_trick, *under, *(card for pile in state.captured for card in pile)]
        assert sorted(cards) == sorted(config.deck)
        assert all(b.owner is not None for b in state.bottles)  # standard decks always sell
        end = end_round(state, (0,) * config.players, 1)
        if not config.teams:
            owners = [b.owner for b in state.bottles]
            expected = sum(coins(pile) for seat, pile in enumerate(state.captured)
                           if seat not in owners) - len(owners) * coins(state.devils_trick)
            assert sum(end.scores) == expected


def test_game_end_by_rounds_and_by_target_and_tied_winners() -> None:
    assert winners((10, 30, 30)) == {1, 2}
    by_target = Config(3, classic_deck(), target=40)
    state = _random_round(by_target, 0, random.Random(1))
    end = end_round(state, (0, 0, 0), 1)
    assert end.game_over == (max(end.totals) >= 40)
    end = end_round(state, (100, 0, 0), 1)
    assert end.game_over and 0 in end.winners
    by_rounds = replace(state, config=Config(3, classic_deck(), rounds=2))
    assert not end_round(by_rounds, (100, 0, 0), 1).game_over
    assert end_round(by_rounds, (0, 0, 0), 2).game_over
    assert Config(3, classic_deck()).total_rounds == 9
    assert Config(5, matagot_deck(5)).total_rounds == 5


# -- phase 2: the model against the engine (restatement/differential.py) ----------------------

from restatement.differential import (  # noqa: E402
    MODEL_PLANTS,
    Differential,
    caught_by_walk,
    model_planted,
    run_endgames,
    run_fuzz,
    run_random,
    run_walk,
    variants,
)


def test_the_engine_agrees_with_the_restatement_on_three_exhaustive_walks() -> None:
    # Every state and transition of three CI walks of scripts/exhaustive.py: a whole 3-player
    # round from the deal (every setup choice, every play), Devil's Eye trick play, and the last
    # two tricks of a two-bottle game (both bottles bought, changing hands, price cards returned).
    # The way from each deal to a walk's start is compared too (1, 18 and 50 states), and so is
    # the seeded deal of each walk's game.
    diff = Differential()
    for name in ("3p-8cards", "2p-devils-eye", "5p-24cards-2bottles"):
        resolutions = diff.compared["setup resolutions"]
        run_walk(name, differential=diff)
        assert diff.compared["setup resolutions"] > resolutions, name
    assert diff.disagreements == 0, diff.report()
    assert diff.states == 1858 + 1744 + 234 + 1 + 18 + 50
    assert diff.compared["deals from the seed"] >= 3
    assert diff.compared["legal plays"] > 2500 and diff.compared["legal gives"] > 100
    assert diff.compared["price cards returned (bottle 1)"] > 0
    assert diff.compared["bottle 1 changed hands"] > 0
    assert diff.compared["setup resolutions"] > 0 and diff.compared["round scores"] > 300


def test_the_engine_agrees_with_the_restatement_on_random_games_of_every_variant() -> None:
    diff, per_variant, rounds = run_random(64, seed=2026)
    assert diff.disagreements == 0, diff.report()
    assert len(per_variant) == len(variants(random.Random(0))) == 32
    assert rounds > 100
    for event in ("round ends with an unsold bottle",
                  "round ends with both bottles owned by one seat",
                  "round ends with a bottle owned by a 1-seat team",
                  "round ends with a bottle owned by a 2-seat team", "game ends at a target score",
                  "half ranks played", "bottle 1 changed hands", "price cards returned (bottle 1)",
                  "tricks with every card above the price"):
        assert diff.compared[event] > 0, event


def test_the_engine_agrees_with_the_restatement_on_every_state_of_random_endgames() -> None:
    # One game of each variant, played at random to the last two cards a seat, then every state
    # of the rest of the round walked.
    diff, walked = run_endgames(32, seed=2026)
    assert diff.disagreements == 0, diff.report()
    assert walked >= 30 and diff.compared["round scores"] > 100


def test_the_engine_agrees_with_the_restatement_on_random_configurations() -> None:
    # Custom decks of random sizes, colours, coins and half ranks; random team shapes.
    diff, shapes = run_fuzz(30, seed=2026)
    assert diff.disagreements == 0, diff.report()
    assert len(shapes) >= 10 and diff.compared["round scores"] >= 30


def test_a_planted_engine_bug_is_caught_by_the_differential() -> None:
    # Monkeypatches an engine rule function: not run against the compiled build (.ci/run).
    found = caught_by_walk("play: the second bottle's old price card is never returned",
                           "5p-24cards-2bottles")
    assert found is not None and found.startswith("captured piles")


@pytest.mark.parametrize(("plant", "walk", "what"), [
    ("deal: splitmix64 without its first mask", "3p-8cards", "the seeded deal"),
    ("deal: the cards are dealt counter-clockwise", "3p-8cards", "the seeded deal"),
    ("deal: the shuffle is mirrored (j = i - draw mod (i + 1))", "3p-8cards", "the seeded deal"),
    ("setup: a Devil's Eye face-up pass lands in the giver's own row", "2p-devils-eye", ""),
    ("play: at a tie of the two prices the last bottle is bought", "5p-24cards-2bottles", ""),
])
def test_planted_deal_setup_and_tie_bugs_are_caught_by_the_differential(
        plant: str, walk: str, what: str) -> None:
    """Bugs of the deal (the restatement has its own seeded deal), of the setup and of the first
    trick (compared on the way to a walk's start)."""
    found = caught_by_walk(plant, walk)
    assert found is not None and found.startswith(what), found


def test_a_disagreement_about_the_game_end_is_reported_not_a_crash() -> None:
    """An engine that plays a round too many: the model says the game is over where the engine
    goes on, and the differential reports it (it never asks the engine for winners then)."""
    found = caught_by_walk("game: the game ends a round late", "3p-8cards-2rounds")
    assert found is not None and found.startswith("game over"), found


@pytest.mark.parametrize("plant, walk", [
    ("model: two bottles are judged against the lower price", "5p-24cards-2bottles"),
    ("model: the dealer dealt one card short discards too", "3p-8cards"),
])
def test_a_rule_flipped_in_the_model_makes_the_differential_disagree(plant: str, walk: str) -> None:
    assert plant in MODEL_PLANTS
    diff = Differential()
    with model_planted(plant):
        run_walk(walk, differential=diff)
    assert diff.disagreements > 0

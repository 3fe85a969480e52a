"""Example tests for the variants (seed 000): the deal and setup counts of every player count,
Devil's Eye, the Second Bottle and team mode, each named after the rule ID it exercises."""

from __future__ import annotations

import pytest

from bottleimp import (
    Bottle,
    Config,
    GameState,
    IllegalActionError,
    Phase,
    Play,
    apply,
    default_teams,
    legal_actions,
    new_game,
)
from helpers import card, deck, play, position, ranks_of

@pytest.mark.parametrize(
    ("config", "hidden", "face_up", "devils_trick"),
    [
        (Config(players=2), 9, 7, 4),
        (Config(players=2, edition="matagot-2024"), 9, 7, 4),
        (Config(players=3), 11, None, 3),
        (Config(players=4, edition="matagot-2024"), 8, None, 4),
        (Config(players=5, edition="matagot-2024"), 10, None, 4),
        (Config(players=5, edition="matagot-2024", bottles=2), 10, None, 4),
        (Config(players=6, edition="matagot-2024"), 8, None, 6),
    ],
    ids=["2p-classic", "2p-matagot", "3p", "4p", "5p", "5p-two-bottles", "6p"],
)
def test_hands_and_devils_trick_after_the_setup_SETUP_RESOLVE(
    config: Config, hidden: int, face_up: int | None, devils_trick: int
) -> None:
    state = new_game(config, 21)
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[-1])
    assert [len(hand) for hand in state.round.hands] == [hidden] * config.players
    assert (None if state.round.face_up is None else [len(r) for r in state.round.face_up]) == (
        None if face_up is None else [face_up] * config.players
    )
    assert len(state.round.devils_trick) == devils_trick


def test_devils_eye_counts_twelve_and_six_dealt_nine_and_seven_kept_DEAL_COUNTS() -> None:
    state = new_game(Config(players=2), 30)
    assert state.round.dealt_face_up is not None
    assert [(len(h), len(u)) for h, u in zip(state.round.dealt, state.round.dealt_face_up)] == [
        (12, 6),
        (12, 6),
    ]
    assert state.round.leader == 1


# -- Devil's Eye -------------------------------------------------------------------------------

EYE = Config(players=2)
A, B = 1, 0  # seat 1 (left of the dealer) leads the first trick


def eye_position() -> GameState:
    """Seat 1 (A) and seat 0 (B) after the setup, classic deck. B's face-up cards hold blue and
    yellow but no red; its hidden hand holds two reds."""
    return position(
        EYE,
        hands=[
            [4, 6, 8, 10, 13, 17, 20, 31, 33],  # B hidden
            [5, 7, 9, 12, 16, 21, 23, 26, 29],  # A hidden
        ],
        face_up=[
            [15, 18, 22, 25, 28, 30, 32],  # B face up: yellow and blue
            [1, 2, 3, 11, 14, 24, 27],  # A face up
        ],
    )


def playable_ranks(state: GameState) -> set[float]:
    return {a.card.rank for a in legal_actions(state) if isinstance(a, Play)}


def refused(state: GameState, action: Play, rule_id: str) -> None:
    before = state
    with pytest.raises(IllegalActionError) as error:
        apply(state, action)
    assert error.value.rule_id == rule_id, error.value
    assert state == before


def test_devils_eye_face_up_cards_must_follow_EYE_FOLLOW_SUIT() -> None:
    state = play(eye_position(), 24)  # A leads blue from the face-up cards
    assert playable_ranks(state) == {4, 6, 8, 10, 13, 17, 20, 31, 33, 30, 32}
    refused(state, Play(B, card(EYE, 15)), "EYE-FOLLOW-SUIT")


def test_devils_eye_hidden_cards_are_free_EYE_FOLLOW_SUIT() -> None:
    """B still holds face-up blue, yet may play its hidden red 33; so may A its hidden 12."""
    state = play(eye_position(), 24, 33)
    assert state.to_act == A
    assert 12 in playable_ranks(state) and 1 not in playable_ranks(state)
    refused(state, Play(A, card(EYE, 1)), "EYE-FOLLOW-SUIT")
    state = play(state, 12, 30)
    assert len(state.round.tricks) == 1


def test_devils_eye_face_up_off_colour_when_none_of_it_face_up_EYE_FOLLOW_SUIT() -> None:
    state = play(eye_position(), 24, 33, 12, 30, 11)  # A won the trick and leads red
    assert state.to_act == B
    face_up = {15, 18, 22, 25, 28, 32}
    assert face_up <= playable_ranks(state)  # no red face up: any face-up card
    state = play(state, 15)
    assert state.to_act == A
    assert 1 not in playable_ranks(state) and 14 in playable_ranks(state)


def test_devils_eye_turns_alternate_a_b_a_b_TURN_ORDER() -> None:
    state = eye_position()
    order = []
    for rank in (24, 33, 12, 30):
        order.append(state.to_act)
        state = play(state, rank)
    assert order == [A, B, A, B]
    refused(play(eye_position(), 24), Play(A, card(EYE, 12)), "TURN-ORDER")


def test_devils_eye_trick_of_four_cards_is_judged_as_usual_TRICK_WINNER() -> None:
    state = play(eye_position(), 24, 33, 12, 30)
    result = state.round.tricks[0]
    assert (result.winner, result.winning_card.rank, result.bottle) == (A, 12, 0)
    assert sorted(ranks_of(state.round.captured[A])) == [24, 30, 33]
    assert state.to_act == A
    assert state.round.face_up is not None
    assert [len(state.round.hands[s]) + len(state.round.face_up[s]) for s in (0, 1)] == [14, 14]
    state = play(state, 11, 15, 14, 31)  # A buys its own bottle back with 11
    assert state.round.bottles == (Bottle(price_card=card(EYE, 11), owner=A),)
    assert 12 in ranks_of(state.round.captured[A])


# -- the Second Bottle -------------------------------------------------------------------------

# All red, so following suit never binds; the Devil's Trick will be 1, 2, 3, 33, 34 (14 coins).
TWO_BOTTLES = deck(
    "1R1 2R1 3R2 5R2 8R2 10R2 12R4 15R4 18R5 20R4 21R2 22R5 25R6 26R3 27R5 28R6 30R5 31R4 33R5 34R5"
)


def test_first_purchase_takes_the_first_bottle_on_a_tie_TRICK_PRICE() -> None:
    config = Config(players=5, edition="matagot-2024", bottles=2)
    state = position(config, [[28.5], [12], [22], [25], [28]], fill=True)  # all red
    state = play(state, 12, 22, 25, 28, 28.5)
    assert state.round.tricks[0].price_before == 19
    assert state.round.bottles == (Bottle(price_card=card(config, 12), owner=1), Bottle())


def test_one_player_owning_both_bottles_is_penalised_twice_SCORE_BOTTLE_PENALTY() -> None:
    """Seat 1's 10 buys the first bottle; next trick is judged against the other bottle's 19,
    so its 18 (not seat 3's 5) wins and buys that one too: seat 1 scores -14 twice."""
    cards = tuple(c for c in TWO_BOTTLES if c.rank not in (8, 15, 20, 21, 22))
    config = Config(players=5, bottles=2, deck=cards)
    state = position(config, [[28, 31], [10, 18], [25, 12], [26, 5], [27, 30]])
    state = play(state, 10, 25, 26, 27, 28)
    state = play(state, 18, 12, 5, 30, 31)
    assert state.round.tricks[1].price_before == 19 and state.round.tricks[1].bottle == 1
    assert [b.owner for b in state.round.bottles] == [1, 1]
    assert [b.price for b in state.round.bottles] == [10, 18]
    assert state.round.scores == (0, -28, 0, 0, 0)


def test_a_trick_is_judged_against_the_higher_of_two_prices_TRICK_PRICE() -> None:
    """Prices 10 (seat 1) and 18 (seat 1): the third trick is judged against 18, so seat 2's
    15 wins (against 10, seat 0's 8 would have) and buys the 18 bottle; the 18 goes back to
    seat 1, who keeps the 10 bottle. Each owner takes the penalty once."""
    config = Config(players=5, bottles=2, deck=TWO_BOTTLES)
    state = position(
        config, [[28, 31, 8], [10, 18, 20], [25, 12, 15], [26, 5, 21], [27, 30, 22]]
    )
    state = play(state, 10, 25, 26, 27, 28, 18, 12, 5, 30, 31)
    assert [b.price for b in state.round.bottles] == [10, 18]
    state = play(state, 20, 15, 21, 22, 8)
    result = state.round.tricks[-1]
    assert (result.price_before, result.winner, result.winning_card.rank, result.bottle) == (
        18,
        2,
        15,
        1,
    )
    assert state.round.bottles == (
        Bottle(price_card=card(config, 10), owner=1),
        Bottle(price_card=card(config, 15), owner=2),
    )
    assert 18 in ranks_of(state.round.captured[1])
    assert state.round.scores == (0, -14, -14, 0, 0)


def test_second_bottle_with_the_54_card_deck_SCORE_INDIVIDUAL() -> None:
    """Six players, two bottles, a whole round of random legal play: every owner scores minus
    the Devil's Trick once per bottle, everyone else their captured coins."""
    state = new_game(Config(players=6, edition="matagot-2024", bottles=2, rounds=1), 17)
    while not state.is_over:
        state = apply(state, legal_actions(state)[len(legal_actions(state)) // 2])
    penalty = sum(c.coins for c in state.round.devils_trick)
    owners = [b.owner for b in state.round.bottles]
    assert state.round.scores is not None
    for seat, score in enumerate(state.round.scores):
        owned = owners.count(seat)
        expected = -penalty * owned if owned else sum(c.coins for c in state.round.captured[seat])
        assert score == expected


# -- team mode ---------------------------------------------------------------------------------


def test_six_player_default_teams_share_one_result_SCORE_TEAMS() -> None:
    config = Config(players=6, edition="matagot-2024", teams=default_teams(6), rounds=1)
    state = new_game(config, 8)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    scores = state.round.scores
    assert scores is not None
    owner = state.round.bottles[0].owner
    penalty = -sum(c.coins for c in state.round.devils_trick)
    for first, second in default_teams(6):
        assert scores[first] == scores[second]
        if owner in (first, second):
            assert scores[first] == penalty
        else:
            captured = state.round.captured
            assert scores[first] == sum(c.coins for c in captured[first] + captured[second])
    assert state.phase is Phase.GAME_OVER

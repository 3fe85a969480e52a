"""Deals given from outside (``with_deal``, used by every record replay) are checked as
thoroughly as seeded ones: every legal count by every dealer, every wrong count, extra and
missing hands and face-up rows, sorted rows; the legality cache of ``apply`` against the actions
of other states; and the shuffle's rejection branch (rules DEAL-COUNTS, DEAL-SHUFFLE)."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bottleimp import (
    MATAGOT_2024_54,
    Card,
    Colour,
    Config,
    GameState,
    IllegalActionError,
    ArgumentError,
    Phase,
    apply,
    is_legal,
    legal_actions,
    new_game,
    with_deal,
)
from bottleimp.formats._state_json import state_dumps as dumps, state_loads as loads
from bottleimp.rules.deal import shuffle
from bottleimp.perft import deal_at, deal_count, deals
from depth import scaled
from invariants import (
    REJECTING_SEED,
    _splitmix64,
    expected_dealt_counts,
    expected_shuffle,
    first_draw_rejected,
    is_devils_eye,
    splitmix64_seed_for_output,
)

Rows = tuple[tuple[Card, ...], ...]

_SMALL = tuple(
    Card(rank, (Colour.YELLOW, Colour.BLUE, Colour.RED)[i % 3], 1 + i % 3)
    for i, rank in enumerate([3, 21, 7, 12, 26, 5, 16, 9, 30, 14, 2, 11, 18, 24, 6, 10, 33])
)

CONFIGS = [
    pytest.param(Config(players=2, deck=_SMALL[:12], rounds=2), id="2p-12cards"),
    pytest.param(Config(players=2, rounds=2), id="2p-classic"),
    pytest.param(Config(players=3, deck=_SMALL[:8], rounds=3), id="3p-8cards"),
    pytest.param(Config(players=3, rounds=3), id="3p-classic"),
    pytest.param(Config(players=4, deck=_SMALL[:11], rounds=4), id="4p-11cards"),
    pytest.param(Config(players=4, edition="matagot-2024", rounds=4), id="4p-matagot"),
    pytest.param(Config(players=5, edition="matagot-2024", rounds=5), id="5p-54cards"),
    pytest.param(Config(players=5, edition="matagot-2024", bottles=2, rounds=5), id="5p-2bottles"),
    pytest.param(Config(players=5, deck=_SMALL[:14], rounds=5), id="5p-14cards"),
    pytest.param(Config(players=6, edition="matagot-2024", rounds=6, teams=((0, 3), (1, 4), (2, 5))),
                 id="6p-teams"),
    pytest.param(Config(players=6, deck=_SMALL[:17], rounds=6), id="6p-17cards"),
]


def before_each_deal(config: Config) -> Iterator[GameState]:
    """For every dealer in turn: the state in which ``with_deal`` deals that dealer's round (the
    first round before any setup, then each state between rounds), rounds played out quickly."""
    state = new_game(config, 5)
    for dealer in range(config.players):
        yield state
        if dealer == config.players - 1:
            return
        while state.phase is not Phase.ROUND_OVER:
            state = apply(state, legal_actions(state)[0])


def upcoming_dealer(state: GameState) -> int:
    if state.phase is Phase.ROUND_OVER:
        return (state.round.dealer + 1) % state.config.players
    return state.round.dealer


def refusal(state: GameState, hands: object, face_up: object, names: str = "") -> str:
    """The rule ID ``with_deal`` raises for this deal (fails if it accepts it); the message must
    name the first fault, ``names`` (check_deal names it, seats in order)."""
    with pytest.raises(IllegalActionError) as refused:
        with_deal(state, hands, face_up)  # type: ignore[arg-type]
    assert names in str(refused.value), (names, str(refused.value))
    return refused.value.rule_id


def shuffled_deal(config: Config, dealer: int, rng: random.Random) -> tuple[Rows, Rows | None]:
    """A random legal deal by ``dealer``, its rows in random order (not sorted)."""
    index = rng.randrange(deal_count(config, dealer))
    hands, face_up = deal_at(config, dealer, index)

    def mix(rows: Rows) -> Rows:
        return tuple(tuple(rng.sample(row, len(row))) for row in rows)

    return mix(hands), (None if face_up is None else mix(face_up))


@pytest.mark.parametrize("config", CONFIGS)
def test_every_dealer_deals_the_counts_of_the_rules_and_only_those_DEAL_COUNTS(
    config: Config,
) -> None:
    rng = random.Random(config.players * 7 + len(config.cards))
    for state in before_each_deal(config):
        dealer = upcoming_dealer(state)
        counts = expected_dealt_counts(config, dealer)
        hands, face_up = shuffled_deal(config, dealer, rng)
        assert [len(h) for h in hands] == [hidden for hidden, _ in counts]
        dealt = with_deal(state, hands, face_up)
        assert dealt.round.dealer == dealer and dealt.phase is Phase.SETUP
        assert dealt.round.index == (state.round.index + (state.phase is Phase.ROUND_OVER))
        assert [[c.rank for c in h] for h in dealt.round.dealt] == [
            sorted(c.rank for c in h) for h in hands
        ]
        assert dealt.round.hands == dealt.round.dealt
        if face_up is not None:
            assert dealt.round.face_up == dealt.round.dealt_face_up
            assert [[c.rank for c in r] for r in dealt.round.dealt_face_up or ()] == [
                sorted(c.rank for c in r) for r in face_up
            ]
        # Moving any one card from one seat to another breaks the counts.
        for giver in range(config.players):
            for taker in range(config.players):
                if giver == taker or not hands[giver]:
                    continue
                moved = [list(h) for h in hands]
                moved[taker].append(moved[giver].pop())
                first = min(giver, taker)
                size = len(moved[first])
                fault = f"seat {first}'s hand has {size} cards, not {len(hands[first])}"
                assert refusal(state, tuple(map(tuple, moved)), face_up, fault) == "DEAL-COUNTS"
        # An extra empty hand, a missing hand, a hand split in two.
        players = config.players
        assert refusal(state, hands + ((),), face_up,
                       f"has {players + 1} hands for {players} players") == "DEAL-COUNTS"
        assert refusal(state, hands[:-1], face_up,
                       f"has {players - 1} hand") == "DEAL-COUNTS"
        assert refusal(state, hands[:-1] + (hands[-1][:1], hands[-1][1:]), face_up) == "DEAL-COUNTS"
        # A card twice (in place of another), a card left out, a card of no deck.
        twice = (hands[0][:-1] + (hands[1][0],),) + hands[1:]
        assert refusal(state, twice, face_up, f"{hands[1][0]} is dealt twice") == "DEAL-COUNTS"
        stranger = Card(19.5, Colour.GREEN, 9)
        assert refusal(state, ((stranger,) + hands[0][1:],) + hands[1:], face_up,
                       f"{stranger} is not a card of this deck") == "DEAL-COUNTS"
        if face_up is None:
            # Face-up rows exist only in Devil's Eye.
            rows: Rows = ((),) * config.players
            assert refusal(state, hands, rows, "has no face-up cards") == "DEAL-COUNTS"
            continue
        assert refusal(state, hands, None, "needs face-up cards") == "DEAL-COUNTS"
        assert refusal(state, hands, face_up + ((),), "3 face-up rows") == "DEAL-COUNTS"
        assert refusal(state, hands, face_up[:1], "1 face-up rows") == "DEAL-COUNTS"
        # A card from a hand to a face-up row and back, between face-up rows.
        for seat in range(2):
            more_up = list(face_up)
            fewer = list(hands)
            more_up[seat] = face_up[seat] + (hands[seat][0],)
            fewer[seat] = hands[seat][1:]
            assert refusal(state, tuple(fewer), tuple(more_up)) == "DEAL-COUNTS"
            more_hidden = list(hands)
            fewer_up = list(face_up)
            more_hidden[seat] = hands[seat] + (face_up[seat][0],)
            fewer_up[seat] = face_up[seat][1:]
            assert refusal(state, tuple(more_hidden), tuple(fewer_up)) == "DEAL-COUNTS"
            across = list(face_up)
            across[seat] = face_up[seat] + (face_up[1 - seat][0],)
            across[1 - seat] = face_up[1 - seat][1:]
            assert refusal(state, hands, tuple(across), "face-up cards has") == "DEAL-COUNTS"


def test_the_54_card_split_for_five_players_gives_the_dealer_one_card_fewer_DEAL_COUNTS() -> None:
    config = Config(players=5, edition="matagot-2024", rounds=5)
    for state in before_each_deal(config):
        dealer = upcoming_dealer(state)
        counts = [hidden for hidden, _ in expected_dealt_counts(config, dealer)]
        assert counts == [10 if seat == dealer else 11 for seat in range(5)]
        cards = list(MATAGOT_2024_54)
        # The same 10/11 split with the short hand at another seat is refused...
        for short in range(5):
            hands, start = [], 0
            for seat in range(5):
                size = 10 if seat == short else 11
                hands.append(tuple(cards[start : start + size]))
                start += size
            if short == dealer:
                assert with_deal(state, tuple(hands)).round.dealer == dealer
            else:
                assert refusal(state, tuple(hands), None) == "DEAL-COUNTS"
        # ... and so is an even-looking split that leaves a card out or gives the dealer 11.
        even = tuple(tuple(cards[i * 10 : i * 10 + 10]) for i in range(5))
        assert refusal(state, even, None, "cards, not 11") == "DEAL-COUNTS"


def test_a_deal_with_every_count_right_but_a_card_swapped_for_a_foreign_one_names_it() -> None:
    config = Config(players=3, deck=_SMALL[:8])
    state = new_game(config, 2)
    hands, _ = next(deals(config, 0))
    # check_deal's last fault: a card of the deck left out while counts are right cannot happen
    # without a card twice or a foreign card, which are named first.
    stranger = Card(40, Colour.RED, 1)
    swapped = (hands[0],) + (hands[1][:-1] + (stranger,),) + hands[2:]
    assert refusal(state, swapped, None, f"{stranger} is not a card of this deck") == "DEAL-COUNTS"


@pytest.mark.parametrize("config", [Config(players=2, rounds=2), Config(players=2, deck=_SMALL[:12])],
                         ids=["classic", "12cards"])
def test_face_up_rows_are_sorted_so_equal_games_compare_equal(config: Config) -> None:
    rng = random.Random(3)
    state = new_game(config, 1)
    hands, face_up = deal_at(config, 0, rng.randrange(deal_count(config, 0)))
    assert face_up is not None
    orders = []
    for _ in range(4):
        mixed_hands = tuple(tuple(rng.sample(h, len(h))) for h in hands)
        mixed_up = tuple(tuple(rng.sample(r, len(r))) for r in face_up)
        orders.append(with_deal(state, mixed_hands, mixed_up))
    reference = with_deal(state, hands, face_up)
    for dealt in orders:
        assert dealt == reference and hash(dealt) == hash(reference)
        assert dealt.round.face_up == reference.round.face_up
        for row in dealt.round.face_up or ():
            assert [c.rank for c in row] == sorted(c.rank for c in row)
        for row in dealt.round.dealt_face_up or ():
            assert [c.rank for c in row] == sorted(c.rank for c in row)
        assert loads(dumps(dealt)) == dealt


def test_a_deal_is_refused_once_the_setup_has_begun_DEAL() -> None:
    config = Config(players=3, deck=_SMALL[:8])
    state = new_game(config, 2)
    hands, face_up = next(deals(config, 0))
    state = apply(state, legal_actions(state)[0])
    with pytest.raises(IllegalActionError) as refused:
        with_deal(state, hands, face_up)
    assert refused.value.rule_id == "DEAL"


def test_deal_enumeration_is_every_partition_once() -> None:
    """Every dealer's deals of a 3-player deck (560 each) and of a 2-player deck (207,900 each;
    ``dev``: dealer 0's only)."""
    for config, dealers in ((Config(players=3, deck=_SMALL[:8]), 3),
                            (Config(players=2, deck=_SMALL[:12]), scaled(ci=2, dev=1))):
        for dealer in range(dealers):
            every = list(deals(config, dealer))
            assert len(every) == len(set(every)) == deal_count(config, dealer)
            assert [deal_at(config, dealer, i) for i in range(0, len(every), 101)] == every[::101]
            assert list(deals(config, dealer, 101)) == every[::101]


# -- the legality cache of apply -------------------------------------------------------------


def game_states(config: Config, seed: int) -> list[GameState]:
    rng = random.Random(seed)
    state = new_game(config, seed)
    states = [state]
    while not state.is_over:
        state = apply(state, rng.choice(legal_actions(state)))
        states.append(state)
    return states


@pytest.mark.parametrize("config", [Config(players=2, rounds=1), Config(players=4, rounds=1),
                                    Config(players=5, edition="matagot-2024", bottles=2, rounds=1)],
                         ids=["2p", "4p", "5p-2bottles"])
def test_apply_refuses_the_actions_of_other_states_whatever_was_asked_last(config: Config) -> None:
    states = game_states(config, 9)
    rng = random.Random(4)
    pairs = [(states[i], states[i + 1]) for i in range(len(states) - 1)]
    pairs += [(rng.choice(states), rng.choice(states)) for _ in range(60)]
    tried = 0
    for first, second in pairs:
        legal_first, legal_second = legal_actions(first), legal_actions(second)
        for target, action in [(second, a) for a in legal_first if a not in legal_second] + [
            (first, a) for a in legal_second if a not in legal_first
        ]:
            for asked in ((first, second), (second, first), (first,), (second,)):
                for other in asked:
                    legal_actions(other)
                with pytest.raises(IllegalActionError):
                    apply(target, action)
                assert not is_legal(target, action)
                tried += 1
    assert tried > 100


def test_apply_trusts_the_cache_only_for_the_very_state_it_was_asked_about() -> None:
    state = new_game(Config(players=4), 3)
    twin = loads(dumps(state))
    assert twin == state and twin is not state
    legal = legal_actions(state)
    for action in legal:
        assert apply(twin, action) == apply(state, action)  # an equal state: legal there too
    # The next seat's actions, shared objects from the tables, are refused in this state.
    after = apply(state, legal[0])
    while after.to_act == state.to_act:
        after = apply(after, legal_actions(after)[0])
    for action in legal_actions(after):
        legal_actions(after)
        with pytest.raises(IllegalActionError):
            apply(state, action)


# -- the shuffle's rejection branch ----------------------------------------------------------


@pytest.mark.parametrize("config", [Config(players=4), Config(players=5, edition="matagot-2024"),
                                    Config(players=2, edition="matagot-2024")],
                         ids=["36", "54", "2p"])
def test_a_rejected_draw_is_discarded_and_the_next_one_used_DEAL_SHUFFLE(config: Config) -> None:
    size = len(config.cards)
    assert _splitmix64(REJECTING_SEED)[1] == 2**64 - 1
    assert first_draw_rejected(size, REJECTING_SEED)
    state = new_game(config, REJECTING_SEED)
    order = expected_shuffle(config.cards, REJECTING_SEED, 0)
    players = config.players
    hidden = size * 2 // 3 if is_devils_eye(config) else size
    expected: list[list[float]] = [[] for _ in range(players)]
    for k, card in enumerate(order[:hidden]):
        expected[(1 + k) % players].append(card.rank)
    assert [[c.rank for c in hand] for hand in state.round.dealt] == [sorted(h) for h in expected]
    # The rejected draw matters: using it (2**64 - 1 mod size) would have dealt otherwise.
    assert (2**64 - 1) % size != _splitmix64(_splitmix64(REJECTING_SEED)[0])[1] % size


def _fifteen_cards() -> Config:
    """A custom 15-card deck for 3 players: its first draw is below 15, and 2**64 leaves
    remainder 1 when divided by 15, so the largest acceptable draw is exactly 2**64 - 2."""
    colours = (Colour.YELLOW, Colour.BLUE, Colour.RED)
    return Config(players=3, deck=[Card(rank, colours[rank % 3], 1) for rank in range(1, 16)])


@pytest.mark.parametrize("output, rejected", [(2**64 - 1, True), (2**64 - 2, False)],
                         ids=["the first draw at the limit", "the largest acceptable draw"])
def test_the_rejection_limit_is_exact_DEAL_SHUFFLE(output: int, rejected: bool) -> None:
    """Draws at or above the largest multiple of the bound below 2**64 are discarded: with 15
    cards that multiple is 2**64 - 1, so 2**64 - 1 is discarded and 2**64 - 2 is used."""
    config = _fifteen_cards()
    assert (1 << 64) % 15 == 1
    seed = splitmix64_seed_for_output(output)
    assert _splitmix64(seed)[1] == output
    assert first_draw_rejected(15, seed) is rejected
    state = new_game(config, seed)
    order = expected_shuffle(config.cards, seed, 0)
    expected: list[list[float]] = [[] for _ in range(3)]
    for k, card in enumerate(order):
        expected[(1 + k) % 3].append(card.rank)
    assert [[c.rank for c in hand] for hand in state.round.dealt] == [sorted(h) for h in expected]


@pytest.mark.parametrize("position", [2, 10, 34])
def test_a_draw_rejected_later_in_the_shuffle_moves_the_later_draws_on_DEAL_SHUFFLE(
    position: int,
) -> None:
    """A rejected draw at any position, the one before last included, shifts every later draw
    by one step of the stream."""
    config = Config(players=4)
    # The seed whose draw number ``position`` (from 1) is 2**64 - 1.
    seed = (REJECTING_SEED - (position - 1) * 0x9E3779B97F4A7C15) & (2**64 - 1)
    state = seed
    for _ in range(position):
        state, draw = _splitmix64(state)
    assert draw == 2**64 - 1
    bound = len(config.cards) - position + 1
    assert (1 << 64) % bound  # not a power of two, so 2**64 - 1 is rejected for this bound
    assert shuffle(config.cards, seed, 0) == tuple(expected_shuffle(config.cards, seed, 0))


# -- the first dealer --------------------------------------------------------------------------


def test_seat_0_deals_first_unless_another_seat_is_named_FIRST_DEALER() -> None:
    config = Config(players=4)
    assert new_game(config, 3).round.dealer == 0
    for seat in range(4):
        state = new_game(config, 3, first_dealer=seat)
        assert state.round.dealer == seat and state.to_act == (seat + 1) % 4


@pytest.mark.parametrize("seat", [-1, 4, 9, True, 1.0, None])
def test_a_first_dealer_the_game_does_not_have_is_refused_FIRST_DEALER(seat: object) -> None:
    with pytest.raises(ArgumentError):
        new_game(Config(players=4), 3, first_dealer=seat)  # type: ignore[arg-type]


@pytest.mark.parametrize("rows", [5, "abc", (1, 2, 3), ((), 7), None])
def test_a_deal_that_is_not_one_tuple_of_cards_per_seat_is_an_argument_error(rows: object) -> None:
    """``with_deal`` names its argument for rows that are no sequence, or a sequence holding
    something that is no row, before any rule is consulted."""
    from bottleimp._engine import with_deal
    from bottleimp._errors import ArgumentError

    state = new_game(Config(players=3), seed=1)
    with pytest.raises(ArgumentError, match=r"with_deal\(hands\)"):
        with_deal(state, rows)  # type: ignore[arg-type]

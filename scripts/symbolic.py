"""A symbolic pass over the rule functions: each property checked for every input within bounds.

For each pure function of ``bottleimp/rules/`` this script states a property and bounds on its
inputs and checks it for every input within them, by one of three methods (the ``method``
column):

- ``crosshair``: CrossHair (symbolic execution over the Z3 SMT solver) explores every execution
  path of the property. Integers are symbolic (every value in the bounds at once, not samples);
  colours and destinations are symbolic choices among the enum's members. When the exploration is
  exhausted, the property holds for every input within the bounds; when the time bound runs out
  first, it is reported as not completed, with the paths explored so far.
- ``enumeration``: the same kind of property run on every input of a stated finite domain (the
  functions whose lists of symbolic colours or many branches CrossHair could not exhaust in its
  time bound). ``cases`` counts the inputs run.
- ``z3``: ``splitmix64`` run with Python's integer arithmetic on a symbolic state (Z3 bit-vectors
  too wide to wrap, so a dropped mask shows) and proved equal to the published 64-bit step for
  all 2^64 states, each stage proved a bijection (``cases`` counts the claims proved).

Cards are stand-ins (``C``: rank, colour, coins) with symbolic fields: the rule functions read
only those three attributes, compare ranks and test colours by identity, and a stand-in leaves
each field symbolic where the real ``Card``'s converters would check it. Configurations are stand-ins with the fields the rules
read. Each property begins with ``assert`` statements that bound the inputs (CrossHair's
``asserts`` mode treats the leading run of asserts as preconditions; an assert after any other
statement is part of the property).

Run from the repository root (one function at a time, each bounded in time):
``python scripts/symbolic.py`` (every property by its own method; CrossHair 60 s each),
``--timeout 30``, ``NAME ...``, ``--method crosshair`` (CrossHair for every property).
"""

# The properties pass stand-in cards and configurations to the rules on purpose (see above).
# mypy: disable-error-code="arg-type"

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from itertools import permutations, product
from math import factorial
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple, cast

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bottleimp.actions import Destination, Give, Play, StartRound  # noqa: E402
from bottleimp.cards import Colour  # noqa: E402
from bottleimp.errors import IllegalActionError, ArgumentError# noqa: E402
from bottleimp.rules import deal, game, play, scoring, setup  # noqa: E402
from bottleimp.state import Bottle, Phase  # noqa: E402


class _Card(NamedTuple):
    """A card stand-in: the three attributes the rules read."""

    rank: int
    colour: Colour
    coins: int


C: Any = _Card
"""Cards of the properties (typed ``Any``: the rules' signatures name ``Card``)."""


class _Played(NamedTuple):
    """A play stand-in: the seat and the card the rules read."""

    seat: int
    card: Any


class Cfg(NamedTuple):
    """A configuration stand-in: the fields the rules read."""

    players: int
    cards: tuple[Any, ...]
    devils_eye: bool
    teams: tuple[tuple[int, ...], ...] | None = None
    target_score: int | None = None
    round_limit: int | None = None


def _rank(card: Any) -> Any:
    return card.rank


def _deck(size: int) -> tuple[int, ...]:
    return tuple(range(size))  # only the deck's length is read by these rules


# -- deal.py -----------------------------------------------------------------------------------


def p_next_dealer(players: int, dealer: int) -> None:
    """DEALER-ROTATION: the next dealer is the seat to the dealer's left."""
    assert 2 <= players <= 6 and 0 <= dealer < players
    nxt = deal.next_dealer(Cfg(players, (), players == 2), dealer)
    assert 0 <= nxt < players and nxt == (dealer + 1) % players


def p_first_dealer(players: int, chosen: int) -> None:
    """FIRST-DEALER: any seat of the game may deal first; any other number is refused."""
    assert 2 <= players <= 6 and -8 <= chosen <= 8
    try:
        assert deal.first_dealer(Cfg(players, (), False), chosen) == chosen
        assert 0 <= chosen < players
    except ArgumentError:
        assert not 0 <= chosen < players


def p_dealt_counts(players: int, size: int, dealer: int) -> None:
    """DEAL-COUNTS: the deal gives out the whole deck; every seat the same number of cards, or
    every seat but the dealer one more; Devil's Eye deals a third face up, evenly."""
    assert 2 <= players <= 6 and 0 <= dealer < players and 1 <= size <= 240
    assert (players == 2 and size % 12 == 0) or (
        players > 2 and size % players in (0, players - 1) and size // players >= 2)
    config = Cfg(players, _deck(size), players == 2)
    hidden, face_up = deal.dealt_counts(config, dealer)
    assert len(hidden) == players and sum(hidden) + sum(face_up or ()) == size
    if players == 2:
        assert face_up is not None and hidden[0] == hidden[1] == size // 3
        assert face_up[0] == face_up[1] == size // 6
    else:
        assert face_up is None
        others = [hidden[s] for s in range(players) if s != dealer]
        assert min(others) == max(others)
        assert hidden[dealer] == others[0] - (1 if size % players else 0)


def p_splitmix64(state: int) -> None:
    """DEAL-SHUFFLE: one SplitMix64 step, restated from its published definition."""
    assert 0 <= state < 2**64
    mask = 2**64 - 1
    nxt = (state + 0x9E3779B97F4A7C15) & mask
    z = ((nxt ^ (nxt >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    assert deal.splitmix64(state) == (nxt, z ^ (z >> 31))


def p_shuffle_paths(size: int) -> int:
    """DEAL-SHUFFLE, every path of the shuffle of ``size`` cards: the shuffle reads each draw only
    through ``draw >= limit`` and ``draw % (i + 1)``, so one draw per class decides every path.
    With the generator replaced by a script of draws (each index ``j`` in ``0..i`` accepted at
    once, or after one rejected draw where the limit is below 2^64), every script gives the
    documented order (position ``i``, from the last down, swapped with the accepted draw mod
    ``i + 1``; a rejected draw is skipped), a permutation of the cards, and the ``size!`` index
    sequences give ``size!`` different orders (the Fisher-Yates bijection: no order is
    favoured). Returns the paths run."""
    assert 1 <= size <= 7
    limits = deal._rejection_limits(size)
    assert all(limits[i] % (i + 1) == 0 and 0 <= 2**64 - limits[i] < i + 1 for i in range(size))
    cards = tuple(C(rank, Colour.RED, 1) for rank in range(1, size + 1))
    positions = range(size - 1, 0, -1)
    per_position = [[(j, r) for j in range(i + 1) for r in range(2 if limits[i] < 2**64 else 1)]
                    for i in positions]
    orders: dict[tuple[int, ...], tuple[Any, ...]] = {}
    paths = 0
    for script in product(*per_position):
        draws: list[int] = []
        for i, (j, rejected) in zip(positions, script):
            draws += [limits[i] + j, j] if rejected else [j]
        real = deal.splitmix64
        deal.splitmix64 = lambda state: (state + 1, draws[state])
        try:
            shuffled = deal.shuffle(cards, 0, 0)
        finally:
            deal.splitmix64 = real
        assert sorted(shuffled, key=_rank) == list(cards)
        indices = tuple(j for j, _ in script)
        # The documented permutation (rule DEAL-SHUFFLE): from the last position down, position
        # i swaps with the accepted draw mod (i + 1).
        documented = list(cards)
        for i, j in zip(positions, indices):
            documented[i], documented[j] = documented[j], documented[i]
        assert shuffled == tuple(documented)
        assert orders.setdefault(indices, shuffled) == shuffled
        paths += 1
    assert len(set(orders.values())) == len(orders) == factorial(size)
    return paths


def _real_deck(size: int) -> tuple[Any, ...]:
    """A custom deck of real cards for the properties that build real configurations."""
    from bottleimp.cards import Card

    colours = (Colour.YELLOW, Colour.BLUE, Colour.RED)
    ranks = [r for r in range(1, size + 2) if r != 19][:size]
    return tuple(Card(rank, colours[rank % 3], rank % 4) for rank in ranks)


def p_deal(players: int, size: int, seed: int, round_index: int, dealer: int) -> None:
    """DEAL: "the dealer deals the whole shuffled deck, one card at a time, clockwise, starting
    with the player on their left; in Devil's Eye the first two thirds as the hidden hands and the
    last third as the face-up cards": each seat's cards are those of the shuffled order (rule
    DEAL-SHUFFLE's ``shuffle``) at the positions the deal's turn gives it, sorted by rank."""
    from bottleimp import Config

    config = Config(players=players, deck=_real_deck(size))
    order = deal.shuffle(config.cards, seed, round_index)
    hidden_count = len(order) * 2 // 3 if players == 2 else len(order)
    expected: list[list[Any]] = [[] for _ in range(players)]
    expected_up: list[list[Any]] = [[] for _ in range(players)]
    seat = dealer
    for position, card in enumerate(order):
        if position == hidden_count:
            seat = dealer  # the face-up third is dealt from the dealer's left again
        seat = (seat + 1) % players
        (expected if position < hidden_count else expected_up)[seat].append(card)
    hands, face_up = deal.deal(config, seed, round_index, dealer)
    assert [list(hand) for hand in hands] == [sorted(h, key=_rank) for h in expected]
    if players == 2:
        assert face_up is not None
        assert [list(row) for row in face_up] == [sorted(u, key=_rank) for u in expected_up]
    else:
        assert face_up is None


def d_deal() -> Iterator[tuple[Any, ...]]:
    for players, sizes in ((2, (12, 24)), (3, (8, 9, 11)), (4, (11, 12)), (5, (14, 15)),
                           (6, (17, 18))):
        for size in sizes:
            for seed in (0, 1, 7, 2**63 + 5):
                for round_index in (0, 1, 5):
                    for dealer in range(players):
                        yield players, size, seed, round_index, dealer


def p_check_deal(players: int, size: int, dealer: int, seats: tuple[int, ...],
                 fault: str) -> None:
    """DEAL-COUNTS: "the deal gives out the whole deck exactly once, each seat the same number of
    cards, or every seat but the dealer one card more when the deck is one short of a multiple
    of the players": a deal of the deck's cards to ``seats`` (card k to seat ``seats[k]``) is
    accepted exactly when every seat's count is that, and a deal with a card twice, a card of
    another deck, or a hand too many or too few is refused."""
    from bottleimp import Config

    config = Config(players=players, deck=_real_deck(size))
    cards = list(config.cards)
    hands: list[list[Any]] = [[] for _ in range(players)]
    for card, seat in zip(cards, seats):
        hands[seat].append(card)
    short = size % players == players - 1
    counts_right = all(len(hands[seat]) == size // players + (1 if short and seat != dealer else 0)
                       for seat in range(players))
    rows = [tuple(hand) for hand in hands]
    if fault == "twice" and rows[0]:
        rows[1] = rows[1] + (rows[0][0],)
    elif fault == "foreign" and rows[0]:
        from bottleimp.cards import Card

        rows[0] = rows[0][1:] + (Card(99, Colour.RED, 1),)
    elif fault == "hands":
        rows = rows + [()]
    try:
        deal.check_deal(config, dealer, tuple(rows), None)
        accepted = True
    except IllegalActionError as error:
        assert error.rule_id == "DEAL-COUNTS"
        accepted = False
    assert accepted == (counts_right and (fault == "" or (fault != "hands" and not rows[0])))


def d_check_deal() -> Iterator[tuple[Any, ...]]:
    for players, size in ((3, 8), (3, 9)):
        for dealer in range(players):
            for seats in product(range(players), repeat=size):
                for fault in ("", "twice", "foreign", "hands"):
                    if fault and seats[0] != 0:
                        continue  # the faults on one seat assignment in a few
                    yield players, size, dealer, seats, fault


# -- setup.py ----------------------------------------------------------------------------------


def p_setup_steps(players: int, size: int, dealer: int, seat: int) -> None:
    """SETUP-STEPS: Devil's Eye two to the Devil's Trick, one to the opponent's face-up cards, one
    to their hidden hand; else one to the Devil's Trick, left, right, and a short dealer only
    left and right."""
    assert 2 <= players <= 6 and 1 <= size <= 240 and 0 <= dealer < players and 0 <= seat < players
    steps = setup.setup_steps(Cfg(players, _deck(size), players == 2), dealer, seat)
    d = Destination
    if players == 2:
        assert steps == (d.DEVILS_TRICK, d.DEVILS_TRICK, d.OPPONENT_FACE_UP, d.OPPONENT_HIDDEN)
    elif seat == dealer and size % players:
        assert steps == (d.LEFT, d.RIGHT)
    else:
        assert steps == (d.DEVILS_TRICK, d.LEFT, d.RIGHT)


def p_setup_to_act(players: int, size: int, dealer: int, given: list[int]) -> None:
    """SETUP-ORDER: the first seat from the dealer's left whose setup is not complete chooses
    next; ``None`` once every seat has given its whole setup."""
    assert 3 <= players <= 6 and 0 <= dealer < players and len(given) == players
    assert size % players in (0, players - 1)
    assert all(0 <= given[s] <= (2 if s == dealer and size % players else 3)
               for s in range(players))
    config = Cfg(players, _deck(size), False)
    wanted = [len(setup.setup_steps(config, dealer, s)) for s in range(players)]
    chosen = tuple(("g",) * given[s] for s in range(players))
    seat = setup.setup_to_act(config, dealer, chosen)
    order = [(dealer + k) % players for k in range(1, players + 1)]
    missing = [s for s in order if given[s] < wanted[s]]
    assert seat == (missing[0] if missing else None)


def p_can_give(a: int, b: int, c: int) -> None:
    """SETUP-FROM-DEALT: a seat gives only a card it was dealt and has not given."""
    assert 0 < a < 40 and 0 < b < 40 and 0 < c < 40
    hand = (C(a, Colour.RED, 1), C(b, Colour.BLUE, 1))
    card = C(c, Colour.RED, 1)
    assert setup.can_give(hand, card) == (c == a)


def p_resolve_setup(players: int, tos: list[Destination]) -> None:
    """SETUP-RESOLVE: every seat giving its whole setup to the steps' destinations in any order
    (3-6 players three cards each; Devil's Eye four), every card lands where its destination says,
    every zone comes out in rank order, and no card is lost or added."""
    assert 2 <= players <= 6
    steps = _EYE_STEPS if players == 2 else _THREE_STEPS
    width = len(steps)
    assert len(tos) == width * players and all(
        Counter(tos[width * seat: width * seat + width]) == Counter(steps)
        for seat in range(players))
    cards = [C(rank, Colour.RED, 1) for rank in range(width * players, 0, -1)]
    held = tuple((C(100 + seat, Colour.RED, 1),) for seat in range(players))
    up = tuple((C(200 + seat, Colour.RED, 1),) for seat in range(players)) if players == 2 else None
    stand_ins = tuple(
        tuple(_G(seat, cards[width * seat + k], tos[width * seat + k]) for k in range(width))
        for seat in range(players)
    )
    config = Cfg(players, _deck(len(cards) + players), players == 2)
    hands, face_up_after, trick = setup.resolve_setup(config, held, up, stand_ins)
    face_up: Any = face_up_after
    for seat in range(players):
        assert held[seat][0] in hands[seat] and (up is None or up[seat][0] in face_up[seat])
        for k in range(width):
            card, to = cards[width * seat + k], tos[width * seat + k]
            if to is Destination.DEVILS_TRICK:
                assert card in trick
            elif to is Destination.LEFT:
                assert card in hands[(seat + 1) % players]
            elif to is Destination.RIGHT:
                assert card in hands[(seat - 1) % players]
            elif to is Destination.OPPONENT_FACE_UP:
                assert card in face_up[1 - seat]
            else:
                assert card in hands[1 - seat]
    zones = (*hands, *(face_up or ()), trick)
    assert all([c.rank for c in z] == sorted(c.rank for c in z) for z in zones)
    assert sorted(c.rank for z in zones for c in z) == sorted(
        c.rank for c in (*cards, *(c for h in held for c in h), *(c for u in up or () for c in u)))


_THREE_STEPS = (Destination.DEVILS_TRICK, Destination.LEFT, Destination.RIGHT)
_EYE_STEPS = (Destination.DEVILS_TRICK, Destination.DEVILS_TRICK, Destination.OPPONENT_FACE_UP,
              Destination.OPPONENT_HIDDEN)


class _G(NamedTuple):
    seat: int
    card: Any
    to: Destination


# -- play.py -----------------------------------------------------------------------------------


def p_first_leader(players: int, dealer: int) -> None:
    """FIRST-LEADER: the seat to the dealer's left leads."""
    assert 2 <= players <= 6 and 0 <= dealer < players
    assert play.first_leader(Cfg(players, (), False), dealer) == (dealer + 1) % players


def p_next_to_play(players: int, seat: int) -> None:
    """TURN-ORDER: play goes clockwise."""
    assert 2 <= players <= 6 and 0 <= seat < players
    assert play.next_to_play(Cfg(players, (), False), seat) == (seat + 1) % players


def p_led_colour(n: int, c0: Colour, c1: Colour) -> None:
    """FOLLOW-SUIT: the led colour is the first card's; none while the trick is empty."""
    assert 0 <= n <= 2
    trick = (_Played(0, C(1, c0, 1)), _Played(1, C(2, c1, 1)))[:n]
    assert play.led_colour(trick) == (c0 if n else None)


def p_holds(a: int, b: int, c: int) -> None:
    """CARD-HELD: a card is held if it is in the hand or among the face-up cards."""
    assert 0 < a < 40 and 0 < b < 40 and 0 < c < 40
    card = C(c, Colour.RED, 1)
    result = play.holds((C(a, Colour.RED, 1),), (C(b, Colour.RED, 1),), card)
    assert result == (c == a or c == b)


def _hand(colours: Sequence[Colour]) -> tuple[Any, ...]:
    return tuple(C(rank, colour, 1) for rank, colour in enumerate(colours, 1))


def p_follow_suit(colours: list[Colour], led: Colour | None) -> None:
    """FOLLOW-SUIT: the cards of the led colour if the hand has any, else the whole hand (and the
    whole hand to a leader); for hands of up to six cards of any colours."""
    assert 0 <= len(colours) <= 6
    hand = _hand(colours)
    result = play.follow_suit(hand, led)
    following = tuple(card for card in hand if card.colour is led)
    assert result == (following if led is not None and following else hand)


def p_follows_suit(colours: list[Colour], led: Colour | None, index: int) -> None:
    """FOLLOW-SUIT: playing a card follows suit exactly when ``follow_suit`` allows it."""
    assert 1 <= len(colours) <= 6 and 0 <= index < len(colours)
    hand = _hand(colours)
    allowed = play.follow_suit(hand, led)
    assert play.follows_suit(hand, led, hand[index]) == (hand[index] in allowed)


def p_devils_eye_playable(hidden: list[Colour], face_up: list[Colour], led: Colour | None) -> None:
    """EYE-FOLLOW-SUIT: every hidden card, and the face-up cards ``follow_suit`` allows, in rank
    order; for up to four hidden and four face-up cards, their ranks interleaved."""
    assert len(hidden) <= 4 and len(face_up) <= 4
    hand, up = _eye_cards(hidden, face_up)
    result = play.devils_eye_playable(hand, up, led)
    allowed = hand + play.follow_suit(up, led)
    assert sorted(result, key=_rank) == sorted(allowed, key=_rank)
    assert [c.rank for c in result] == sorted(c.rank for c in result)


def p_devils_eye_follows_suit(hidden: list[Colour], face_up: list[Colour], led: Colour | None,
                              index: int) -> None:
    """EYE-FOLLOW-SUIT: playing a card follows the rule exactly when ``devils_eye_playable``
    lists it."""
    assert len(hidden) <= 3 and 1 <= len(face_up) <= 4
    assert 0 <= index < len(hidden) + len(face_up)
    hand, up = _eye_cards(hidden, face_up)
    card = (hand + up)[index]
    allowed = play.devils_eye_playable(hand, up, led)
    assert play.devils_eye_follows_suit(hand, up, led, card) == (card in allowed)


def _eye_cards(hidden: Sequence[Colour], face_up: Sequence[Colour]
               ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Hidden cards of odd ranks 1, 3, ..., face-up cards of even ranks 2, 4, ...: interleaved, so
    that the rank order of the playable cards mixes both rows."""
    return (tuple(C(2 * k + 1, colour, 1) for k, colour in enumerate(hidden)),
            tuple(C(2 * k + 2, colour, 1) for k, colour in enumerate(face_up)))


def _bottle(price: int, owner: int) -> Bottle:
    return Bottle(None if price == 19 else C(price, Colour.RED, 1), None if price == 19 else owner)


def p_trick_price(n: int, p0: int, p1: int) -> None:
    """TRICK-PRICE: the highest price; with two bottles at the same price, the first."""
    assert 1 <= n <= 2 and 1 <= p0 <= 19 and 1 <= p1 <= 19
    bottles = (_bottle(p0, 0), _bottle(p1, 1))[:n]
    price, index = play.trick_price(bottles)
    assert price == max(p0, p1 if n == 2 else 0)
    assert index == (1 if n == 2 and p1 > p0 else 0)


def p_trick_winner(ranks: list[int], price: int) -> None:
    """TRICK-WINNER: "the highest card below the price wins; if none is below it, the highest
    card wins; colour never matters": for tricks of one to four cards of distinct ranks 1-60
    (never the 19, which is no card) and any price 1-19, the ranks symbolic, and each trick tried
    in every colouring of its cards by the three colours of a deck (concrete: the paths come from
    the ranks alone, so the colourings do not multiply them)."""
    assert 1 <= len(ranks) <= 4 and 1 <= price <= 19
    assert all(1 <= r <= 60 and r != 19 for r in ranks) and len(set(ranks)) == len(ranks)
    below = [r for r in ranks if r < price]
    expected = max(below) if below else max(ranks)
    for colours in product((Colour.YELLOW, Colour.BLUE, Colour.RED), repeat=len(ranks)):
        cards = tuple(C(r, colour, 1) for r, colour in zip(ranks, colours))
        assert ranks[play.trick_winner(cards, price)] == expected


def p_buys_bottle(rank: int, price: int) -> None:
    """BOTTLE-PURCHASE: a winning card below the price buys the bottle."""
    assert 1 <= rank <= 60 and 1 <= price <= 19
    assert play.buys_bottle(C(rank, Colour.RED, 1), price) == (rank < price)


def p_bottle_after_purchase(winner: int, rank: int) -> None:
    """BOTTLE-PURCHASE: the buyer owns the bottle and the winning card is its price card."""
    assert 0 <= winner <= 5 and 1 <= rank <= 18
    card = C(rank, Colour.RED, 1)
    bottle = play.bottle_after_purchase(winner, card)
    assert bottle.owner == winner and bottle.price_card is card


def p_returned_price_card(price: int, owner: int) -> None:
    """PRICE-CARD-RETURN: a bought bottle's price card goes to its former owner; the 19 to no one."""
    assert 1 <= price <= 19 and 0 <= owner <= 5
    bottle = _bottle(price, owner)
    returned = play.returned_price_card(bottle)
    assert returned == (None if price == 19 else (owner, bottle.price_card))


def p_captured_by_winner(n: int, winning: int, bought: bool) -> None:
    """TRICK-CAPTURE: the winner takes every card of the trick but a winning card that bought."""
    assert 1 <= n <= 4 and 0 <= winning < n
    cards = tuple(C(r, Colour.RED, 1) for r in range(1, n + 1))
    taken = play.captured_by_winner(cards, winning, bought)
    assert taken == (tuple(c for k, c in enumerate(cards) if k != winning) if bought else cards)


def p_next_leader(winner: int) -> None:
    """NEXT-LEADER: the trick's winner leads the next trick."""
    assert 0 <= winner <= 5
    assert play.next_leader(winner) == winner


def p_resolve_trick(ranks: list[int], colours: list[Colour], seats: list[int], p0: int,
                    p1: int, owners: list[int], n_bottles: int) -> None:
    """The trick resolution, every field of its outcome against the rules' text: the price is the
    highest bottle price, the first bottle on a tie (TRICK-PRICE); the highest card below it wins,
    else the highest card, whatever the colours (TRICK-WINNER); a winning card below the price
    buys that bottle for the seat that played it and becomes its price card, and the other bottle
    is unchanged (BOTTLE-PURCHASE); the old price card goes back to the bottle's former owner, the
    19 to no one (PRICE-CARD-RETURN); the winner captures every other card of the trick, and the
    winning card too when it bought nothing (TRICK-CAPTURE). Three cards of distinct ranks 1-40
    (never 19 nor a price card), any colours, played by three distinct seats of 0-5 in any order,
    one or two bottles at prices 1-19 owned by any seat (unowned at 19)."""
    assert len(ranks) == 3 and all(1 <= r <= 40 and r != 19 for r in ranks)
    assert len(set(ranks)) == 3 and len(colours) == 3
    assert len(seats) == 3 and len(set(seats)) == 3 and all(0 <= seat <= 5 for seat in seats)
    assert 1 <= n_bottles <= 2 and 1 <= p0 <= 19 and 1 <= p1 <= 19 and len(owners) == 2
    assert all(0 <= owner <= 5 for owner in owners)
    assert p0 not in ranks and p1 not in ranks and (n_bottles == 1 or p0 != p1 or p0 == 19)
    cards = tuple(C(r, colour, 1) for r, colour in zip(ranks, colours))
    bottles = (_bottle(p0, owners[0]), _bottle(p1, owners[1]))[:n_bottles]
    out = play.resolve_trick(cards, tuple(seats), bottles)
    prices = [p0, p1][:n_bottles]
    price = max(prices)
    below = [r for r in ranks if r < price]
    winning = ranks.index(max(below) if below else max(ranks))
    assert out.winning == winning and out.price_before == price
    if below:
        index = prices.index(price)  # the first bottle at the highest price
        old = bottles[index]
        assert out.bottle == index and out.price_after == ranks[winning]
        assert out.bottles[index].owner == seats[winning]
        assert out.bottles[index].price_card is cards[winning]
        assert all(out.bottles[k] == bottles[k] for k in range(n_bottles) if k != index)
        assert out.returned == (None if old.price_card is None else (old.owner, old.price_card))
        assert out.captured == tuple(c for k, c in enumerate(cards) if k != winning)
    else:
        assert out.bottle is None and out.price_after == price
        assert out.bottles == bottles and out.returned is None
        assert out.captured == cards


# -- scoring.py --------------------------------------------------------------------------------


def p_captured_points(coins: list[int]) -> None:
    """SCORE-CAPTURED: the coins of the captured cards."""
    assert len(coins) <= 4 and all(0 <= c <= 3 for c in coins)
    pile = tuple(C(k, Colour.RED, c) for k, c in enumerate(coins))
    assert scoring.captured_points(pile) == sum(coins)


def p_bottle_penalty(coins: list[int], owned: int) -> None:
    """SCORE-BOTTLE-PENALTY: minus the Devil's Trick's coins, once per bottle owned."""
    assert len(coins) <= 4 and all(0 <= c <= 3 for c in coins) and 0 <= owned <= 2
    trick = tuple(C(k, Colour.RED, c) for k, c in enumerate(coins))
    assert scoring.bottle_penalty(trick, owned) == -sum(coins) * owned


def p_individual_scores(owners: list[int], coins: list[int], penalty: int) -> None:
    """SCORE-INDIVIDUAL: 3 seats, 1-2 bottles owned by anyone or no one: an owner scores minus the
    Devil's Trick per bottle, every other seat its captured coins."""
    assert 1 <= len(owners) <= 2 and all(-1 <= o <= 2 for o in owners)
    assert len(coins) == 3 and all(0 <= c <= 9 for c in coins) and 0 <= penalty <= 9
    bottles = tuple(Bottle(None if o < 0 else C(5, Colour.RED, 1), None if o < 0 else o)
                    for o in owners)
    captured = tuple((C(s, Colour.RED, coins[s]),) for s in range(3))
    trick = (C(9, Colour.RED, penalty),)
    scores = scoring.individual_scores(3, captured, bottles, trick)
    for seat in range(3):
        owned = sum(1 for o in owners if o == seat)
        assert scores[seat] == (-penalty * owned if owned else coins[seat])


def p_team_scores(owner: int, coins: list[int], penalty: int) -> None:
    """SCORE-TEAMS: 5 seats in teams {0,3}{1,4}{2}: partners pool their coins unless either owns
    the bottle (then both take the penalty); the single doubles its result."""
    assert -1 <= owner <= 4 and len(coins) == 5 and all(0 <= c <= 9 for c in coins)
    assert 0 <= penalty <= 9
    teams = ((0, 3), (1, 4), (2,))
    bottles = (Bottle(None if owner < 0 else C(5, Colour.RED, 1), None if owner < 0 else owner),)
    captured = tuple((C(s, Colour.RED, coins[s]),) for s in range(5))
    trick = (C(9, Colour.RED, penalty),)
    scores = scoring.team_scores(teams, captured, bottles, trick)
    for team in teams:
        result = -penalty if owner in team else sum(coins[s] for s in team)
        for seat in team:
            assert scores[seat] == result * (2 if len(team) == 1 else 1)


def p_round_scores(teams: bool, owner: int) -> None:
    """SCORE-ROUND: team scores in team mode, individual scores otherwise (4 seats)."""
    assert 0 <= owner <= 3
    pairs = ((0, 2), (1, 3))
    config = Cfg(4, (), False, pairs if teams else None)
    bottles = (Bottle(C(5, Colour.RED, 1), owner),)
    captured = tuple((C(s, Colour.RED, 1),) for s in range(4))
    trick = (C(9, Colour.RED, 2),)
    expected = (scoring.team_scores(pairs, captured, bottles, trick) if teams
                else scoring.individual_scores(4, captured, bottles, trick))
    assert scoring.round_scores(config, captured, bottles, trick) == expected


def p_round_is_over(sizes: list[int], up: list[int], eye: bool) -> None:
    """ROUND-END: the round is over when no hand and no face-up row holds a card."""
    assert len(sizes) == 2 and len(up) == 2 and all(0 <= n <= 2 for n in sizes + up)
    hands = [tuple(range(n)) for n in sizes]
    face_up = [tuple(range(n)) for n in up] if eye else None
    expected = sum(sizes) == 0 and (not eye or sum(up) == 0)
    assert scoring.round_is_over(hands, face_up) == expected


# -- game.py -----------------------------------------------------------------------------------


def p_check_not_over(phase: Phase) -> None:
    """GAME-OVER: no action once the game is over; every other phase passes."""
    assert isinstance(phase, Phase)  # CrossHair's asserts mode needs a leading assert
    try:
        game.check_not_over(phase)
        assert phase is not Phase.GAME_OVER
    except IllegalActionError as error:
        assert phase is Phase.GAME_OVER and error.rule_id == "GAME-OVER"


def p_check_phase_admits(phase: Phase, kind: int) -> None:
    """PHASE: setup admits gives, trick play plays, between rounds the next deal; nothing else."""
    assert phase is not Phase.GAME_OVER and 0 <= kind <= 3
    card = C(3, Colour.RED, 1)
    action: object = (Give.__new__(Give), Play.__new__(Play), StartRound.__new__(StartRound),
                      card)[kind]
    del card
    admitted = {Phase.SETUP: 0, Phase.PLAY: 1, Phase.ROUND_OVER: 2}[phase]
    try:
        game.check_phase_admits(phase, action)
        assert kind == admitted
    except IllegalActionError as error:
        assert kind != admitted and error.rule_id == "PHASE"


def p_add_totals(totals: list[int], scores: list[int]) -> None:
    """GAME-TOTALS: each total plus the seat's round score."""
    assert 2 <= len(totals) <= 6 and len(scores) == len(totals)
    assert game.add_totals(tuple(totals), tuple(scores)) == tuple(
        t + s for t, s in zip(totals, scores))


def p_game_is_over(rounds: int, limit: int, target: int, use_target: bool,
                   totals: list[int]) -> None:
    """GAME-END: after the round limit, or once a total reaches the target score."""
    assert 1 <= rounds <= 20 and 1 <= limit <= 20 and 1 <= target <= 200 and len(totals) == 3
    config = Cfg(3, (), False, None, target if use_target else None,
                 None if use_target else limit)
    over = game.game_is_over(config, rounds, tuple(totals))
    assert over == (max(totals) >= target if use_target else rounds >= limit)


def p_winners(totals: list[int]) -> None:
    """WINNERS: every seat with the highest total, in seat order."""
    assert 2 <= len(totals) <= 6
    best = max(totals)
    assert game.winners(tuple(totals)) == tuple(s for s, t in enumerate(totals) if t == best)


# -- finite domains: every input within the bounds, enumerated ----------------------------------


def _colour_rows(low: int, high: int) -> list[tuple[Colour, ...]]:
    """Every sequence of ``low`` to ``high`` colours."""
    return [row for n in range(low, high + 1) for row in product(tuple(Colour), repeat=n)]


_LEDS: tuple[Colour | None, ...] = (None, *Colour)


def d_dealt_counts() -> Iterator[tuple[Any, ...]]:
    for players in range(2, 7):
        for size in range(1, 241):
            if (players == 2 and size % 12 == 0) or (
                    players > 2 and size % players in (0, players - 1) and size // players >= 2):
                for dealer in range(players):
                    yield players, size, dealer


def d_setup_steps() -> Iterator[tuple[Any, ...]]:
    for players in range(2, 7):
        for size in range(1, 241):
            for dealer in range(players):
                for seat in range(players):
                    yield players, size, dealer, seat


def d_setup_to_act() -> Iterator[tuple[Any, ...]]:
    for players in range(3, 7):
        for size in (3 * players - 1, 3 * players, 4 * players - 1, 4 * players):
            for dealer in range(players):
                short = size % players != 0
                ranges = [range(3 if s == dealer and short else 4) for s in range(players)]
                for given in product(*ranges):
                    yield players, size, dealer, list(given)


def d_resolve_setup() -> Iterator[tuple[Any, ...]]:
    for players in range(2, 7):
        steps = _EYE_STEPS if players == 2 else _THREE_STEPS
        orders = sorted(set(permutations(steps)), key=str)
        for per_seat in product(orders, repeat=players):
            yield players, [to for order in per_seat for to in order]


def d_follow_suit() -> Iterator[tuple[Any, ...]]:
    for hand in _colour_rows(0, 6):
        for led in _LEDS:
            yield list(hand), led


def d_follows_suit() -> Iterator[tuple[Any, ...]]:
    for hand in _colour_rows(1, 6):
        for led in _LEDS:
            for index in range(len(hand)):
                yield list(hand), led, index


def d_devils_eye_playable() -> Iterator[tuple[Any, ...]]:
    ups = _colour_rows(0, 4)
    for hidden in _colour_rows(0, 4):
        for up in ups:
            for led in _LEDS:
                yield list(hidden), list(up), led


def d_devils_eye_follows_suit() -> Iterator[tuple[Any, ...]]:
    ups = _colour_rows(1, 4)
    for hidden in _colour_rows(0, 3):
        for up in ups:
            for led in _LEDS:
                for index in range(len(hidden) + len(up)):
                    yield list(hidden), list(up), led, index


def d_resolve_trick() -> Iterator[tuple[Any, ...]]:
    """Every rank triple of 1-21 but 19 in every order, each price pair, seats and colours and
    owners varied together with the ranks (a rotating choice per case, so every colour, seat
    order and owner appears with every winning position)."""
    colour_rows = list(product(list(Colour)[:3], repeat=3))
    seat_rows = list(permutations(range(6), 3))
    case = 0
    for ranks in permutations([r for r in range(1, 22) if r != 19], 3):
        for n_bottles in (1, 2):
            for p0 in range(1, 20):
                if p0 in ranks:
                    continue
                for p1 in (range(1, 20) if n_bottles == 2 else (19,)):
                    if p1 not in ranks and (n_bottles == 1 or p0 != p1 or p0 == 19):
                        case += 1
                        owners = [case % 6, (case // 6) % 6]
                        yield (list(ranks), list(colour_rows[case % len(colour_rows)]),
                               list(seat_rows[case % len(seat_rows)]), p0, p1, owners, n_bottles)


def d_shuffle_paths() -> Iterator[tuple[Any, ...]]:
    for size in range(1, 8):
        yield (size,)


@dataclass(frozen=True)
class Property:
    """A rule function, the property that checks it and how it is checked: CrossHair's symbolic
    exploration, every input of a finite domain (``domain``, described by ``bounds``), or a
    proof by the Z3 solver over 64-bit vectors (``proof``)."""

    module: str
    function: str
    check: Callable[..., Any]
    domain: Callable[[], Iterable[tuple[Any, ...]]] | None = None
    bounds: str = ""
    proof: Callable[[], Outcome] | None = None

    @property
    def name(self) -> str:
        return f"{self.module}.{self.function}"

    @property
    def method(self) -> str:
        return "z3" if self.proof else ("enumeration" if self.domain else "crosshair")


@dataclass
class Outcome:
    """What CrossHair found for one property."""

    name: str
    status: str
    paths: int
    completed: bool
    counterexample: str
    seconds: float


def explore(prop: Property, timeout: float) -> Outcome:
    """Explore every path of ``prop`` for at most ``timeout`` seconds."""
    import crosshair.core as core
    import crosshair.core_and_libs  # noqa: F401  (registers the standard library patches)
    from crosshair.core import analyze_function
    from crosshair.options import AnalysisKind, AnalysisOptionSet

    found: dict[str, Any] = {}
    explore_loop, analyze_calltree = core.explore_loop, core.analyze_calltree

    def counting_loop(*args: Any, **kwargs: Any) -> Any:
        result = explore_loop(*args, **kwargs)
        found["paths"] = found.get("paths", 0) + result.iterations
        found["exhausted"] = result.exhausted
        return result

    core.explore_loop = counting_loop
    started = time.perf_counter()
    messages: list[Any] = []
    try:
        options = AnalysisOptionSet(analysis_kind=[AnalysisKind.asserts],
                                    per_condition_timeout=timeout, per_path_timeout=timeout / 4,
                                    max_uninteresting_iterations=sys.maxsize)
        for checkable in analyze_function(prop.check, options):
            messages.extend(checkable.analyze())
    finally:
        core.explore_loop, core.analyze_calltree = explore_loop, analyze_calltree
    failures = [m for m in messages if m.state.name in _REFUTED]
    counterexample = "; ".join(m.message for m in failures)[:200]
    completed = bool(found.get("exhausted")) and not failures
    status = "refuted" if failures else ("verified" if completed else "not completed")
    return Outcome(prop.name, status, found.get("paths", 0), completed, counterexample,
                   time.perf_counter() - started)


_REFUTED = {"POST_FAIL", "POST_ERR", "EXEC_ERR", "PRE_UNSAT", "SYNTAX_ERR", "IMPORT_ERR"}
"""CrossHair's message kinds that report a counterexample or a property that cannot run
(``CANNOT_CONFIRM`` only says the exploration stopped before it was complete)."""


_WIDE = 256
"""The width of the bit-vectors that stand for Python integers in the proof of ``splitmix64``.
From a state below 2^64, no value the function computes reaches 2^194 even with every one of its
masks dropped (a sum below 2^65, two products by constants below 2^64), so at 256 bits nothing
wraps: the bit-vector computes what Python's unbounded integers compute, and a dropped mask shows
as a value of 64 bits or more instead of vanishing in a wrap-around."""


class _PyInt:
    """A non-negative Python integer below 2^``_WIDE`` as a Z3 bit-vector of that width, with the
    operators ``splitmix64`` uses: ``+``, ``*``, ``^``, ``&`` and ``>>`` (logical: the values are
    non-negative), each exact because nothing reaches the width (see ``_WIDE``)."""

    def __init__(self, term: Any) -> None:
        self.term = term

    @staticmethod
    def _of(other: Any) -> Any:
        import z3  # type: ignore[import-untyped,unused-ignore]

        if isinstance(other, _PyInt):
            return other.term
        assert 0 <= other < 2**_WIDE
        return z3.BitVecVal(other, _WIDE)

    def __add__(self, other: Any) -> _PyInt:
        return _PyInt(self.term + self._of(other))

    def __mul__(self, other: Any) -> _PyInt:
        return _PyInt(self.term * self._of(other))

    def __xor__(self, other: Any) -> _PyInt:
        return _PyInt(self.term ^ self._of(other))

    def __and__(self, other: Any) -> _PyInt:
        return _PyInt(self.term & self._of(other))

    def __rshift__(self, bits: int) -> _PyInt:
        import z3  # type: ignore[import-untyped,unused-ignore]

        return _PyInt(z3.LShR(self.term, bits))


def prove_splitmix64() -> Outcome:
    """Run the library's ``splitmix64`` on a symbolic state, every value below 2^64 at once, with
    Python's integer arithmetic (``_PyInt``: bit-vectors too wide to wrap), and ask Z3 whether any
    state gives another next state or output than the published SplitMix64 step, written here from
    its definition in 64-bit arithmetic (Z3's own 64-bit operators, which wrap) and widened; then
    prove each of the step's six stages a bijection of the 64-bit numbers by its inverse
    (subtracting the increment; a product by the odd constant's inverse mod 2^64; ``x ^ x>>k``
    undone by ``x ^ x>>k ^ x>>2k ...``), so that the state update and the output mixing are
    bijections. Each claim is proved by finding its negation unsatisfiable."""
    import z3  # type: ignore[import-untyped,unused-ignore]

    started = time.perf_counter()
    x, y = z3.BitVec("state", 64), z3.BitVec("y", 64)
    nxt, out = cast(Any, deal.splitmix64)(_PyInt(z3.ZeroExt(_WIDE - 64, x)))
    spec_next = x + 0x9E3779B97F4A7C15
    z = (spec_next ^ z3.LShR(spec_next, 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ z3.LShR(z, 27)) * 0x94D049BB133111EB
    spec_out = z ^ z3.LShR(z, 31)

    def unshift(value: Any, bits: int) -> Any:
        result = value
        for k in range(bits, 64, bits):
            result = result ^ z3.LShR(value, k)
        return result

    def widened(term: Any) -> Any:
        return z3.ZeroExt(_WIDE - 64, term)

    claims = [nxt.term == widened(spec_next), out.term == widened(spec_out),
              (y + 0x9E3779B97F4A7C15) - 0x9E3779B97F4A7C15 == y]
    claims += [unshift(y ^ z3.LShR(y, bits), bits) == y for bits in (30, 27, 31)]
    claims += [(y * odd) * pow(odd, -1, 2**64) == y
               for odd in (0xBF58476D1CE4E5B9, 0x94D049BB133111EB)]
    failed = ""
    for number, claim in enumerate(claims):
        solver = z3.Solver()
        solver.add(z3.Not(claim))
        verdict = solver.check()
        if verdict != z3.unsat:
            shown = ""
            if verdict == z3.sat:
                state = solver.model().eval(x, model_completion=True).as_long()
                shown = f" at state {state}: splitmix64 gives {deal.splitmix64(state)}"
            failed = f"claim {number}: {verdict}{shown}"
            break
    status = "refuted" if failed else "verified"
    return Outcome("deal.splitmix64", status, len(claims), not failed, failed,
                   time.perf_counter() - started)


def enumerate_domain(prop: Property) -> Outcome:
    """Run ``prop`` on every input of its finite domain; the first failing input is the
    counterexample. A property may return how many cases one input stands for (the paths of
    ``p_shuffle_paths``)."""
    assert prop.domain is not None
    started = time.perf_counter()
    cases = 0
    for args in prop.domain():
        try:
            ran = prop.check(*args)
        except Exception as error:  # noqa: BLE001 - any failure is the property's counterexample
            shown = ", ".join(map(repr, args))
            return Outcome(prop.name, "refuted", cases, False,
                           f"{prop.check.__name__}({shown}): {type(error).__name__} {error}"[:300],
                           time.perf_counter() - started)
        cases += ran if isinstance(ran, int) else 1
    return Outcome(prop.name, "verified", cases, True, "", time.perf_counter() - started)


def check(prop: Property, method: str, timeout: float) -> Outcome:
    """Check ``prop`` by ``method`` (its own unless ``crosshair`` is asked for)."""
    if method == "crosshair" or prop.method == "crosshair":
        return explore_in_child(prop, timeout)
    if prop.proof is not None:
        return prop.proof()
    return enumerate_domain(prop)


_EYE = "hidden cards {h}, face-up cards {u}, of any of the 4 colours each, led colour any or none"
PROPERTIES: tuple[Property, ...] = (
    Property("deal", "splitmix64", p_splitmix64, proof=prove_splitmix64,
             bounds="every 64-bit state (2^64), the code run on Z3 bit-vectors"),
    Property("deal", "shuffle", p_shuffle_paths, d_shuffle_paths,
             "decks of 1-7 cards, every path of draws (each index, rejected first or not)"),
    *(Property(module, fn.__name__[2:], fn) for module, fn in [
        ("deal", p_first_dealer), ("deal", p_next_dealer)]),
    Property("deal", "deal", p_deal, d_deal,
             "2-6 players, decks of 8-24 cards, 4 seeds (one above 2^63), rounds 0, 1, 5, every "
             "dealer; the shuffle itself is the property of deal.shuffle"),
    Property("deal", "check_deal", p_check_deal, d_check_deal,
             "3 players with 8 and 9 cards, every dealer, every assignment of the cards "
             "to the seats; a card twice, a foreign card, an extra hand"),
    Property("deal", "dealt_counts", p_dealt_counts, d_dealt_counts,
             "2-6 players, every deck of 1-240 cards Config accepts, every dealer"),
    Property("setup", "setup_steps", p_setup_steps, d_setup_steps,
             "2-6 players, decks of 1-240 cards, every dealer and seat"),
    Property("setup", "setup_to_act", p_setup_to_act, d_setup_to_act,
             "3-6 players, decks of 3p-1, 3p, 4p-1, 4p cards, every dealer, every count of "
             "gives per seat"),
    Property("setup", "can_give", p_can_give),
    Property("setup", "resolve_setup", p_resolve_setup, d_resolve_setup,
             "2 players (Devil's Eye) and 3-6 players, every order of every seat's destinations"),
    *(Property("play", fn.__name__[2:], fn) for fn in [
        p_first_leader, p_next_to_play, p_led_colour, p_holds]),
    Property("play", "follow_suit", p_follow_suit, d_follow_suit,
             "hands of 0-6 cards of any of the 4 colours, led colour any or none"),
    Property("play", "follows_suit", p_follows_suit, d_follows_suit,
             "hands of 1-6 cards of any colours, every card of the hand, led any or none"),
    Property("play", "devils_eye_playable", p_devils_eye_playable, d_devils_eye_playable,
             _EYE.format(h="0-4", u="0-4")),
    Property("play", "devils_eye_follows_suit", p_devils_eye_follows_suit,
             d_devils_eye_follows_suit, _EYE.format(h="0-3", u="1-4") + ", every card"),
    *(Property("play", fn.__name__[2:], fn) for fn in [
        p_trick_price, p_trick_winner, p_buys_bottle, p_bottle_after_purchase,
        p_returned_price_card, p_captured_by_winner, p_next_leader]),
    Property("play", "resolve_trick", p_resolve_trick, d_resolve_trick,
             "3 cards of distinct ranks 1-21 but 19 in every order, 1-2 bottles at prices 1-19 "
             "(no card at a price), owned by any seat; seats, colours and owners rotated"),
    *(Property(module, fn.__name__[2:], fn) for module, fn in [
        ("scoring", p_captured_points), ("scoring", p_bottle_penalty),
        ("scoring", p_individual_scores), ("scoring", p_team_scores),
        ("scoring", p_round_scores), ("scoring", p_round_is_over),
        ("game", p_check_not_over), ("game", p_check_phase_admits), ("game", p_add_totals),
        ("game", p_game_is_over), ("game", p_winners)]),
)
"""Not checked here: ``deal.deal`` (a composition of ``shuffle`` and slicing: the shuffle's 64-bit
arithmetic already defeats the solver), ``deal.check_deal`` (sets of cards: frozenset hashing
makes every symbolic card concrete; ``tests/test_deals.py`` tries every wrong count)."""


def explore_in_child(prop: Property, timeout: float) -> Outcome:
    """``explore`` in a child process, killed after five times the time bound: CrossHair's own
    bound counts the process's CPU seconds, which on a loaded machine take longer to pass."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--one", prop.name, "--timeout", str(timeout)],
            capture_output=True, text=True, timeout=5 * timeout + 30, check=False,
        )
    except subprocess.TimeoutExpired:
        return Outcome(prop.name, "not completed (killed at the hard time bound)", 0, False, "",
                       time.perf_counter() - started)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return Outcome(prop.name, "error", 0, False, done.stderr.strip()[-200:],
                       time.perf_counter() - started)
    return Outcome(**json.loads(lines[-1]))


RESTATES_ITS_BODY = frozenset({
    "deal.next_dealer", "deal.first_dealer", "setup.can_give", "play.first_leader",
    "play.next_to_play", "play.led_colour", "play.holds", "play.buys_bottle",
    "play.bottle_after_purchase", "play.next_leader", "scoring.captured_points",
    "scoring.bottle_penalty", "game.check_not_over", "game.add_totals",
})
"""Properties that say what a one-line function's body already says (``next_leader`` is the
identity, ``bottle_after_purchase`` a constructor): they hold trivially and are, in effect, a
check of the types and of the function's name for its rule, not evidence about the rule. The
table marks them ``restates``; the others (``rule``) state the rule from its text in
``spec/rules.toml`` against a body that computes it another way."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="rule functions (module.function; default all)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="CPU seconds of exploration per function (default 60)")
    parser.add_argument("--method", choices=("own", "crosshair"), default="own",
                        help="each function's own method (default), or CrossHair for every one")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        (prop,) = [p for p in PROPERTIES if p.name == args.one]
        print(json.dumps(asdict(explore(prop, args.timeout))))
        return 0
    chosen = [p for p in PROPERTIES if not args.names or p.name in args.names
              or p.function in args.names]
    print(f"{'rule function':32} {'claim':8} {'method':11} {'cases':>9} {'complete':>9} "
          f"{'seconds':>8}  result", flush=True)
    refuted = 0
    for prop in chosen:
        outcome = check(prop, args.method, args.timeout)
        method = "crosshair" if args.method == "crosshair" else prop.method
        refuted += outcome.status == "refuted"
        claim = "restates" if prop.name in RESTATES_ITS_BODY else "rule"
        print(f"{outcome.name:32} {claim:8} {method:11} {outcome.paths:>9} "
              f"{'yes' if outcome.completed else 'no':>9} {outcome.seconds:>8.1f}  "
              f"{outcome.status} {outcome.counterexample}", flush=True)
    return 1 if refuted else 0


if __name__ == "__main__":
    sys.exit(main())

"""The open-hand paranoid solver: the value of a position of trick play with every hand visible.

The value of a position for a seat (rule SCORE-ROUND) is the seat's round score (its team's in
team mode, a partnerless seat's doubled, the penalty counted once per bottle owned) when the
seat, and its teammates, play best and every other seat plays to minimise it. Those other seats
are treated as one opponent (the *paranoid* reduction of a game of several players), so the
value is what the seat's side can guarantee with all the cards face up, whatever the others do.

The search runs compiled, on the batch engine's kernel (``bottleimp.batch._kernel``, the one fast
copy of the rules; the ``batch`` extra, numba: ``pip install 'bottleimp[batch]'``): the position
is loaded into a ``BatchGames`` of one game row per ply, and each move copies the row and calls
the kernel's ``play`` (which ends the trick and scores the round: TRICK-WINNER,
BOTTLE-PURCHASE, SCORE-ROUND, ...), the legal cards come from its ``legal_set`` (FOLLOW-SUIT,
EYE-FOLLOW-SUIT). No verdict of the rules is restated here. The search is alpha-beta with
zero-window tests (MTD(f): each test proves a lower or an upper bound of the root, until they
meet) and:

- a transposition table of positions at trick boundaries (``_trick_key``), keyed on the cards
  in play named by their place in rank order among themselves (the partition search of bridge
  solvers: positions that differ only in cards nothing can tell apart share an entry): every
  hand and face-up row, the colour and coins of each place, each bottle's price (the places
  below it, its price card's coins), owner and place among the prices, the seat to lead, the
  solver's seat and the Devil's Trick's coins; an entry holds a proved lower and upper bound,
  the coins the side had captured when they were proved and the best card found; a position
  whose side captured other coins takes the entry's bounds shifted by the difference
  (``_table_bounds``); the table is kept between the solves of one ``Solver``;
- sure bounds (``_sure_bounds``): a bottle goes only to a seat whose card below its price wins
  a trick (BOTTLE-PURCHASE), and prices only fall, so a bottle the side owns that no other
  seat's card in play is below stays the side's, and a bottle that no card of the side is below
  never comes to it; a side that alone holds cards below the highest price ends owning a
  bottle, and a lone bottle the side owns, that only other seats' cards are below, leaves it
  for good (every card is played), its price card back to the side; no side gains more coins
  than are left in play and under the bottles that can still move (PRICE-CARD-RETURN);
- questions without coins (``_enter``): a window that lies between every owner's score and
  every non-owner's asks only "can the side end owning no bottle?", and with no coin captured
  yet a window from 0 to a card's fewest coins asks "... with a card captured?"; such nodes
  are keyed by colour alone and tabled by their answer (``_question_bounds``), and their
  equivalent cards (below) need not have the same coins (a node that left out cards of other
  coins than a kept one's gives its parent only the bounds its answers prove: the scores of
  the cards it tried bound nothing for the others, ``_close``); a node whose window is above
  every owner's score reads the bottle question's answer too, when the table has it (a "no" puts
  the value below the window);
- equivalent cards (``_equivalent``): of two cards of one seat's hand (or face-up row) of the
  same colour and coins, with no card still in play ranked between them, both at or above every
  bottle's price, only one is searched: nothing can tell them apart for the rest of the round;
- enhanced transposition cutoffs at the last seat of a trick (``_last_seat``): every card is
  played (the kernel ends the trick) and the position after it bounded by its sure bounds and
  the table before any is searched; a bound past the window settles the node, and a card whose
  bound cannot beat the window, or whose value is known, is not searched;
- move ordering: the table's best card first at a trick boundary; for the last seat of a
  trick, first the card whose position after it has the best bound for that seat, then whose
  trick (ended by the kernel) is best for that seat's side (``_last_seat``); then the history
  heuristic.

Past a budget of positions or a deadline the search stops and the value is given as a
``Valuation`` whose lower and upper bounds are the ones the finished tests proved, never as a
wrong exact value. Arguments are checked in Python before the compiled code runs.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from itertools import pairwise
from typing import Any, Final

from attrs import frozen

from .._actions import Play
from .._cards import Card
from .._config import Config
from .._errors import ArgumentError
from .._state import GameState, Phase
from .._transitions import after_play, legal_actions_of
from .._view import expect_state

try:
    import numpy as np
    import numpy.typing as npt

    from ..batch import BatchGames
    from ..batch import _kernel as kernel
    from ..batch._tables import PLAY
except ImportError as missing:
    raise ImportError(
        f"bottleimp.analysis (the open-hand solver) runs on the batch engine's compiled kernel "
        f"and needs numpy and numba ({missing.name} is not installed): "
        f"pip install 'bottleimp[batch]'", name=missing.name) from None

__all__ = [
    "DEFAULT_NODE_BUDGET", "Solver", "Valuation", "card_values", "side_of", "solve",
]

DEFAULT_NODE_BUDGET: Final = 50_000_000
"""Positions one solve visits at most before it settles for bounds."""
TABLE_BITS: Final = 18
"""A ``Solver``'s transposition table holds ``2**TABLE_BITS`` positions."""
_WAYS: Final = 4
"""Entries probed for a position: the slot of its hash and the next three."""

Words = npt.NDArray[np.uint64]
Ints = npt.NDArray[np.int64]

# The cells of a solve's control array (``ctl``).
_NODES, _LIMIT, _DEADLINE, _STOPPED, _SEAT, _MULT, _CLOCK, _CHECK, _PENALTY, _START_BELOW = range(10)
_LEAST_COINS = 10
_CONTROL: Final = 11
# The questions a node's window asks (``_enter``): its score, or one without coins.
_Q_SCORE, _Q_NO_BOTTLE, _Q_CAPTURE = 0, 1, 2
_ZERO: Final = np.uint64(0)
_ONE: Final = np.uint64(1)
_NONE: Final = -(1 << 62)
"""No bound: below every score."""


@frozen
class Valuation:
    """A value for a seat's side: exact when ``lower == upper``, else the bounds the search
    proved before its budget ran out."""

    lower: int
    upper: int

    @property
    def exact(self) -> bool:
        """Whether the value is proved exactly."""
        return self.lower == self.upper

    @property
    def value(self) -> int | None:
        """The exact value, ``None`` for a bound."""
        return self.lower if self.lower == self.upper else None

    def __str__(self) -> str:
        return str(self.lower) if self.exact else f"[{self.lower}, {self.upper}]"


def side_of(config: Config, seat: int) -> tuple[int, ...]:
    """The seats that play for ``seat``'s score: its team in team mode (rule SCORE-TEAMS),
    else the seat alone."""
    return config.team_of(seat)


def _multiplier(config: Config, side: tuple[int, ...]) -> int:
    """A partnerless seat in team mode doubles its score, penalty included (SCORE-TEAMS)."""
    return 2 if config.teams is not None and len(side) == 1 else 1


# -- the clock ------------------------------------------------------------------------------------


def _monotonic_python(clock: int) -> int:
    """Nanoseconds of the monotonic clock (``time.monotonic_ns``)."""
    return time.monotonic_ns()


def _clock_intrinsic() -> Any:
    """``_monotonic_python`` compiled: one call of the C library's ``clock_gettime`` on clock
    ``clock`` (``time.CLOCK_MONOTONIC``), linked by name (so the search stays cached on disk)."""
    from llvmlite import ir
    from numba.core import cgutils as typed_cgutils
    from numba.core import types
    from numba.extending import intrinsic

    cgutils: Any = typed_cgutils

    @intrinsic
    def monotonic(typingctx: Any, clock: Any) -> tuple[Any, Any]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            i64, i32 = ir.IntType(64), ir.IntType(32)
            spec = ir.LiteralStructType([i64, i64])
            function = cgutils.get_or_insert_function(
                builder.module, ir.FunctionType(i32, [i32, spec.as_pointer()]), "clock_gettime")
            cell = cgutils.alloca_once(builder, spec)
            builder.call(function, [builder.trunc(args[0], i32), cell])
            seconds = builder.load(cgutils.gep_inbounds(builder, cell, 0, 0))
            nanos = builder.load(cgutils.gep_inbounds(builder, cell, 0, 1))
            return builder.add(builder.mul(seconds, ir.Constant(i64, 1_000_000_000)), nanos)

        return types.int64(types.int64), codegen

    return monotonic


_monotonic: Any = _clock_intrinsic() if kernel.COMPILED else _monotonic_python
_CLOCK_ID: Final = int(getattr(time, "CLOCK_MONOTONIC", 1))


# -- the compiled search ---------------------------------------------------------------------------


@kernel.jit
def _copy_row(s: kernel.State, c: kernel.Consts, d: int) -> None:
    """Game row ``d + 1`` made a copy of row ``d`` in everything a play changes."""
    p = c.players
    e = d + 1
    kernel.copy_items(s.hand, e * p, s.hand, d * p, p)
    kernel.copy_items(s.face_up, e * p, s.face_up, d * p, p)
    kernel.copy_items(s.captured, e * p, s.captured, d * p, p)
    kernel.copy_items(s.trick, e * p, s.trick, d * p, p)
    s.played[e] = s.played[d]
    kernel.copy_items(s.hand_count, e * p, s.hand_count, d * p, p)
    kernel.copy_items(s.totals, e * p, s.totals, d * p, p)
    t, k = c.trick_size, c.bottles
    kernel.copy_items(s.trick_cards, e * t, s.trick_cards, d * t, t)
    kernel.copy_items(s.trick_seats, e * t, s.trick_seats, d * t, t)
    kernel.copy_items(s.bottle_card, e * k, s.bottle_card, d * k, k)
    kernel.copy_items(s.bottle_owner, e * k, s.bottle_owner, d * k, k)
    s.trick_length[e] = s.trick_length[d]
    s.phase[e] = s.phase[d]
    s.to_act[e] = s.to_act[d]
    s.leader[e] = s.leader[d]


@kernel.jit
def _in_play(s: kernel.State, c: kernel.Consts, d: int) -> np.uint64:
    """The cards still in play in row ``d``: held (hidden or face up) or in the trick."""
    n = c.cards
    word = _ZERO
    for seat in range(c.players):
        word |= kernel.seat_bits(s.hand, d, seat, n) | kernel.seat_bits(s.face_up, d, seat, n)
    for position in range(s.trick_length[d]):
        word |= _ONE << np.uint64(s.trick_cards[d, position])
    return word


@kernel.jit
def _highest_price(s: kernel.State, c: kernel.Consts, d: int) -> float:
    """The highest price of the bottles in row ``d`` (the start card 19 for a bottle not yet
    bought, as the kernel's ``end_trick``)."""
    price = -1.0
    for index in range(c.bottles):
        held = s.bottle_card[d, index]
        value = c.rank[held] if held >= 0 else 19.0
        price = max(price, value)
    return price


@kernel.jit
def _captured_coins(s: kernel.State, c: kernel.Consts, d: int, side: Ints) -> int:
    """The coins the side has captured in row ``d``."""
    captured = 0
    for seat in range(c.players):
        if side[seat]:
            captured += kernel.coins_of(c, s.captured[d, seat])
    return captured


@kernel.jit
def _penalty(s: kernel.State, c: kernel.Consts, d: int) -> int:
    """The coins of the Devil's Trick in row ``d`` (what an owner pays per bottle)."""
    return kernel.coins_of(c, s.devils_trick[d])


@kernel.jit
def _sure_bounds(s: kernel.State, c: kernel.Consts, d: int, side: Ints, ctl: Ints,
                 in_play: np.uint64, captured: int, side_cards: np.uint64,
                 coins_in_play: int) -> tuple[int, int]:
    """Bounds on the side's round score from row ``d`` (``in_play``: its cards in play,
    ``_in_play``; ``captured``: the side's captured coins; ``side_cards``: the cards in play the
    side's seats hold or played to the trick in progress; ``coins_in_play``: the coins of the
    cards in play), whatever is played. A bottle changes
    hands only to a seat whose card below its price wins a trick (BOTTLE-PURCHASE), and prices
    only fall: a bottle the side owns that no other seat's card in play is below stays the
    side's to the end, and a bottle no card of the side is below never comes to it. Every card
    in play is played before the round ends (ROUND-END), and a trick holding a card below the
    price (the highest price, TRICK-PRICE) goes to its highest such card, which buys:

    - when no other seat holds a card below the highest price and the side does, the first
      such card of the side played buys a bottle, and nothing can take it from the side: the
      side ends owning one at least;
    - with one bottle, owned by the side, no card of the side below its price and another
      seat's card below it, the first such card played buys the bottle from the side (its
      price has not moved: only a card below it could have bought it), and it never comes back;
      its price card then returns to the side (PRICE-CARD-RETURN), whose coins the side ends
      with at least.

    Captured coins only grow, at most by the coins in play and the price cards under the bottles
    that can still move (PRICE-CARD-RETURN); an owner scores minus the Devil's Trick's coins once
    per bottle (SCORE-ROUND), a partnerless seat doubled (SCORE-TEAMS)."""
    mult = ctl[_MULT]
    penalty = ctl[_PENALTY]
    others = in_play & ~side_cards
    stuck_owned = 0
    may_own = 0
    movable_coins = 0
    below_highest = _ZERO  # the cards below the highest price (the prices' sets are nested)
    returned = 0
    for index in range(c.bottles):
        held = s.bottle_card[d, index]
        below = (_ONE << np.uint64(held)) - _ONE if held >= 0 else np.uint64(ctl[_START_BELOW])
        below_highest |= below
        owner = s.bottle_owner[d, index]
        if (in_play & below) != _ZERO and held >= 0:
            movable_coins += c.coins[held]
        if owner >= 0 and side[owner]:
            if (others & below) == _ZERO:
                stuck_owned += 1
            elif c.bottles > 1 or (side_cards & below) != _ZERO:
                may_own += 1
            else:  # it leaves the side for good, its price card back to the side
                returned = c.coins[held]
        elif (side_cards & below) != _ZERO:
            may_own += 1
    sure_owned = stuck_owned
    if (sure_owned == 0 and (others & below_highest) == _ZERO
            and (side_cards & below_highest) != _ZERO):
        sure_owned = 1  # the side buys one, and keeps it
    best_coins = mult * (captured + coins_in_play + movable_coins)
    if sure_owned > 0:
        upper = -penalty * sure_owned * mult
    else:
        upper = max(best_coins, -penalty * mult)
    owned_at_most = stuck_owned + may_own
    lower = mult * (captured + returned) if owned_at_most == 0 else -penalty * owned_at_most * mult
    return min(lower, upper), upper


@kernel.jit
def _derive(s: kernel.State, c: kernel.Consts, d: int, side: Ints, in_play: Words,
            frames: Ints, side_cards: Words) -> None:
    """Row ``d``'s cards in play, the side's among them, their coins and the side's captured
    coins, from row ``d - 1``'s (row ``d`` is row ``d - 1`` after one card): a trick that ended
    took its cards out of play and may have given the side coins; within a trick nothing leaves
    play and nothing is captured."""
    if s.trick_length[d] == 0:
        word = in_play[d - 1]
        coins = frames[d - 1, _F_COINS]
        for position in range(c.trick_size):
            card = s.trick_cards[d, position]
            word &= ~(_ONE << np.uint64(card))
            coins -= c.coins[card]
        in_play[d] = word
        side_cards[d] = side_cards[d - 1] & word
        frames[d, _F_CAPTURED] = _captured_coins(s, c, d, side)
        frames[d, _F_COINS] = coins
    else:
        in_play[d] = in_play[d - 1]
        side_cards[d] = side_cards[d - 1]
        frames[d, _F_CAPTURED] = frames[d - 1, _F_CAPTURED]
        frames[d, _F_COINS] = frames[d - 1, _F_COINS]


_PER_WORD: Final = 10
"""Cards whose kind (``_kinds``, 6 bits) one key word holds."""
_QUESTION_WORD: Final = np.uint64(1 << 62)
"""The last word of a key of a question without coins (``_trick_key``), plus the question:
above every Devil's Trick's coins."""


@kernel.jit
def _trick_key(s: kernel.State, c: kernel.Consts, d: int, ctl: Ints, in_play: np.uint64,
               kinds: Ints, key: Words, question: int) -> np.uint64:
    """Write the transposition key of row ``d`` (at a trick boundary) into ``key`` and return
    its hash. The key names the cards in play by their place in rank order among them (the
    partition search of bridge solvers): position ``k`` is the ``k``-th lowest card in play.
    It holds each seat's hand and face-up row as sets of positions, the kind of the card at
    each position (``kinds[0]``: its colour and coins), each bottle's price as the number of
    cards in play below it, with its price card's coins (``kinds[1]``), its owner and its
    place among the bottles' prices, the seat to lead and the solver's seat and the Devil's
    Trick's coins; not the side's captured coins (``_table_bounds``). Two positions with one
    key differ only in cards that nothing in the rest of the round tells apart: every verdict
    (FOLLOW-SUIT by colour, TRICK-PRICE and TRICK-WINNER by the order of ranks and prices,
    BOTTLE-PURCHASE, PRICE-CARD-RETURN, the coins each trick gives the side) is the same for
    both, card for card. For a question without coins (``question``, ``_enter``) the kind of a
    place is its colour alone (``kinds[2]``), a price card's tag says only that the bottle was
    bought (``kinds[3]``), and the word of the Devil's Trick's coins is ``_QUESTION_WORD`` plus
    the question instead: the answer does not depend on any coins, and no key of one question
    equals a key of another."""
    p, n = c.players, c.cards
    kind_row = 2 if question != _Q_SCORE else 0
    width = key.shape[0]
    for cell in range(width):
        key[cell] = _ZERO
    kinds_at = 2 * p
    position = 0
    word = in_play
    while word != _ZERO:  # at a trick boundary every card in play is held, hidden or face up
        card = kernel.lowest_bit(word)
        word &= word - _ONE
        bit = _ONE << np.uint64(card)
        for seat in range(p):
            if s.hand[d, seat] & bit:
                key[seat] |= _ONE << np.uint64(position)
                break
            if s.face_up[d, seat] & bit:
                key[p + seat] |= _ONE << np.uint64(position)
                break
        key[kinds_at + position // _PER_WORD] |= (
            np.uint64(kinds[kind_row, card]) << np.uint64(6 * (position % _PER_WORD)))
        position += 1
    bottles_at = kinds_at + (n + _PER_WORD - 1) // _PER_WORD
    for index in range(c.bottles):
        held = s.bottle_card[d, index]
        price = c.rank[held] if held >= 0 else 19.0  # the start card 19, as ``end_trick``
        under = (_ONE << np.uint64(held)) - _ONE if held >= 0 else np.uint64(ctl[_START_BELOW])
        below = kernel.count_bits(in_play & under)  # cards are numbered in rank order
        higher = 0
        equal = 0
        for other in range(c.bottles):
            held_other = s.bottle_card[d, other]
            other_price = c.rank[held_other] if held_other >= 0 else 19.0
            higher += other_price > price
            equal += other_price == price and other != index
        tag = kinds[kind_row + 1, held] if held >= 0 else 0
        key[bottles_at + index] = (np.uint64(below) | (np.uint64(tag) << np.uint64(8))
                                   | (np.uint64(s.bottle_owner[d, index] + 1) << np.uint64(32))
                                   | (np.uint64(higher) << np.uint64(40))
                                   | (np.uint64(equal) << np.uint64(48)))
    rest = bottles_at + c.bottles
    key[rest] = np.uint64(s.to_act[d]) | (np.uint64(ctl[_SEAT]) << np.uint64(8))
    key[rest + 1] = (_QUESTION_WORD + np.uint64(question) if question != _Q_SCORE
                     else np.uint64(ctl[_PENALTY]))
    mixed = _ZERO
    for cell in range(width):
        mixed = (mixed ^ key[cell]) * np.uint64(0x9E3779B97F4A7C15)
        mixed ^= mixed >> np.uint64(29)
    return mixed


def key_width(config: Config) -> int:
    """The words of a transposition key (``_trick_key``) of ``config``'s positions."""
    cards = len(config.cards)
    return 2 * config.players + (cards + _PER_WORD - 1) // _PER_WORD + config.bottles + 2


def card_kinds(config: Config) -> Ints:
    """``[kind, price tag, colour kind, bought tag]`` per card for ``_trick_key``: a card's kind
    numbers its colour and coins (cards of one kind are told apart only by rank); the price tag
    of a card under a bottle, its coins plus one (what its return gives). The key of a question
    without coins reads the last two rows: the colour alone, and a tag of 1 for every card (a
    bottle bought). With two cards of one rank (a deck the rank order does not settle) every
    card is its own kind and tag in both: the key is then exact; so is every tag when a card's
    coins do not fit the tag's 24 bits."""
    cards = config.cards
    kinds: Ints = np.zeros((4, len(cards)), dtype=np.int64)
    ranks = [card.rank for card in cards]
    distinct = all(low < high for low, high in pairwise(ranks))
    small = all(card.coins + 1 < 1 << 24 for card in cards)  # a tag's field: 24 bits
    named: dict[tuple[object, int], int] = {}
    colours: dict[object, int] = {}
    for index, card in enumerate(cards):
        kind = named.setdefault((card.colour, card.coins), len(named)) if distinct else index
        kinds[0, index] = kind
        kinds[1, index] = card.coins + 1 if distinct and small else index + 1
        kinds[2, index] = colours.setdefault(card.colour, len(colours)) if distinct else index
        kinds[3, index] = 1 if distinct else index + 1
    return kinds


@kernel.jit
def _table_bounds(bounds: Ints, slot: int, captured: int, ctl: Ints) -> tuple[int, int]:
    """The bounds table entry ``slot`` proves for its position with the side's captured coins
    ``captured``; the entry was proved with ``bounds[slot, 3]`` coins captured. Every play of the
    rest of the round ends alike whatever was captured before: the side ends owning bottles
    (its score then does not depend on the coins) or owning none (its score is ``mult`` times
    its coins, the coins captured before included). So the value grows with the coins captured,
    by at most ``mult`` a coin; a lower bound above every owner's score (``-penalty * mult``)
    comes from a strategy that owns no bottle at the end, and carries over shifted by the
    difference of coins; an upper bound below every non-owner's score (``mult * coins``) comes
    from a strategy of the others that makes the side an owner, and carries over unchanged."""
    mult = ctl[_MULT]
    lower, upper, then = int(bounds[slot, 0]), int(bounds[slot, 1]), int(bounds[slot, 3])
    shift = mult * (captured - then)
    if lower > -ctl[_PENALTY] * mult or shift < 0:
        lower += shift
    if upper >= mult * then and shift > 0:
        upper += shift
    return lower, upper


@kernel.jit
def _question_bounds(bounds: Ints, slot: int, captured: int, ctl: Ints, question: int
                     ) -> tuple[int, int]:
    """The bounds table entry ``slot`` of a question without coins (``_enter``) proves for its
    position with the side's captured coins ``captured``. The entry holds only the answer, yes
    (``bounds[slot, 0]``) or no (``bounds[slot, 1]``). Can the side end owning no bottle? Yes:
    at least ``mult`` times the coins captured (a non-owner's score; coins only grow); no: at
    most minus the penalty (an owner pays it at least once, SCORE-ROUND). Can it end owning no
    bottle, with a card captured (the side has none yet)? Yes: at least ``mult`` times the
    fewest coins of a card; no: at most 0."""
    yes, no = _question_bounds_of(ctl, captured, question)
    return yes if bounds[slot, 0] else _NONE, no if bounds[slot, 1] else -_NONE


@kernel.jit
def _question_of(ctl: Ints, alpha: int, beta: int, captured: int) -> int:
    """The question a zero-window test between ``alpha`` and ``beta`` asks, the side having
    captured ``captured`` coins: without coins when the window lies between every owner's score
    and every non-owner's (``_Q_NO_BOTTLE``), or, with no coin captured yet, between 0 and a
    card's fewest coins (``_Q_CAPTURE``); else the score (``_Q_SCORE``)."""
    mult = ctl[_MULT]
    if alpha >= -ctl[_PENALTY] * mult and beta <= mult * captured:
        return _Q_NO_BOTTLE
    if captured == 0 and alpha >= 0 and beta <= mult * ctl[_LEAST_COINS]:
        return _Q_CAPTURE
    return _Q_SCORE


@kernel.jit
def _question_bounds_of(ctl: Ints, captured: int, question: int) -> tuple[int, int]:
    """The bounds of a position's value that the answers of a question without coins prove,
    the side having captured ``captured`` coins: ``(yes, no)``, the value is at least ``yes``
    when the answer is yes, at most ``no`` when it is no (``_question_bounds``)."""
    mult = ctl[_MULT]
    if question == _Q_NO_BOTTLE:
        return mult * captured, -ctl[_PENALTY] * mult
    return mult * ctl[_LEAST_COINS], 0


@kernel.jit
def _probe(keys: Words, key: Words, mixed: np.uint64) -> int:
    """The table slot holding ``key``, or ``-1 - slot`` for the slot to put it in (an empty one,
    else the one of the ``_WAYS`` probed with the fewest cards left)."""
    size = int(keys.shape[0])
    width = keys.shape[1] - 1  # the last column: cards left + 1, 0 for an empty slot
    first = int(np.int64(mixed & np.uint64(size - 1)))
    victim = first
    fewest = 1 << 62
    for way in range(_WAYS):
        slot = (first + way) & (size - 1)
        filled = int(np.int64(keys[slot, width]))
        if filled == 0:
            return -1 - slot
        same = True
        for word in range(width):
            if keys[slot, word] != key[word]:
                same = False
                break
        if same:
            return slot
        if filled < fewest:
            victim, fewest = slot, filled
    return -1 - victim


@kernel.jit
def _equivalent(s: kernel.State, c: kernel.Consts, d: int, seat: int, bits: np.uint64,
                in_play: np.uint64, coinless: bool) -> np.uint64:
    """``bits`` (the seat's legal cards) without the cards equivalent to a lower one kept: a card
    of the same zone (hidden hand, face-up row), colour and coins as the next lower legal card,
    with no card in play ranked between them, both at or above every bottle's price. Prices only
    fall (BOTTLE-PURCHASE), so neither can buy a bottle; every trick and every follow-suit
    verdict treats them alike for the rest of the round. For a question without coins
    (``coinless``, ``_enter``) their coins may differ: only coins tell them apart. (Two cards
    below a price are not alike: the one that buys becomes the price, with the other on the
    other side of it.)"""
    n = c.cards
    price = _highest_price(s, c, d)
    hidden = kernel.seat_bits(s.hand, d, seat, n) if c.devils_eye else _ZERO
    kept = _ZERO
    previous = -1
    word = bits
    while word != _ZERO:
        card = kernel.lowest_bit(word)
        word &= word - _ONE
        same = False
        if previous >= 0 and c.rank[previous] >= price:
            between = in_play & ((_ONE << np.uint64(card)) - (_ONE << np.uint64(previous + 1)))
            mask_card = _ONE << np.uint64(card)
            mask_prev = _ONE << np.uint64(previous)
            same = (between == _ZERO and c.colour[card] == c.colour[previous]
                    and (coinless or c.coins[card] == c.coins[previous])
                    and ((hidden & mask_card) != _ZERO) == ((hidden & mask_prev) != _ZERO))
        if not same:
            kept |= _ONE << np.uint64(card)
        previous = card
    return kept


@kernel.jit
def _nth_card(word: np.uint64, place: int) -> int:
    """The card at ``place`` in rank order among the set bits of ``word``, ``-1`` if none."""
    if place < 0:
        return -1
    for _ in range(place):
        if word == _ZERO:
            return -1
        word &= word - _ONE
    return kernel.lowest_bit(word) if word != _ZERO else -1


@kernel.jit
def _child_bounds(s: kernel.State, c: kernel.Consts, d: int, side: Ints, ctl: Ints,
                  keys: Words, bounds: Ints, scratch: Words, frames: Ints, in_play: Words,
                  side_cards: Words, kinds: Ints, alpha: int, beta: int) -> tuple[int, int]:
    """Bounds of the value of row ``d`` (at a trick boundary, its ``_derive`` done) that its
    node would find on entering with the window ``alpha``, ``beta`` before trying a card: its
    score once the round is over, else its sure bounds (``_sure_bounds``) narrowed by the
    table's entry of the question that window asks (``_enter``). Every one is a proved bound of
    the value whatever the window, so a parent may use them without entering the node."""
    if s.phase[d] != PLAY:
        score = int(s.scores[d, ctl[_SEAT]])
        return score, score
    captured = int(frames[d, _F_CAPTURED])
    lower, upper = _sure_bounds(s, c, d, side, ctl, in_play[d], captured, side_cards[d],
                                int(frames[d, _F_COINS]))
    if lower == upper or lower >= beta or upper <= alpha:
        return lower, upper
    question = _question_of(ctl, alpha, beta, captured)
    key = scratch[d]
    slot = _probe(keys, key, _trick_key(s, c, d, ctl, in_play[d], kinds, key, question))
    if slot >= 0:
        if question != _Q_SCORE:
            stored_lower, stored_upper = _question_bounds(bounds, slot, captured, ctl, question)
        else:
            stored_lower, stored_upper = _table_bounds(bounds, slot, captured, ctl)
        lower = max(lower, stored_lower)
        upper = min(upper, stored_upper)
    return lower, upper


@kernel.jit
def _last_seat(s: kernel.State, c: kernel.Consts, d: int, side: Ints, ctl: Ints, keys: Words,
               bounds: Ints, scratch: Words, frames: Ints, moves: Words, in_play: Words,
               side_cards: Words, kinds: Ints, maximising: bool) -> tuple[bool, int]:
    """The cards of the last seat of a trick looked at before any is searched (the node of row
    ``d``, its frame set up by ``_enter``, its cards in ``moves[d]``): each is played in row
    ``d + 1`` (the kernel ends the trick) and the position after it, at a trick boundary, is
    bounded without being entered (``_child_bounds``: the table's entry, as the enhanced
    transposition cutoffs of chess and bridge programs). The node's value is the best of its
    cards' values for the seat to act, so:

    - a card whose position is at least ``beta`` for the side (at most ``alpha`` for another
      seat) settles the node at that bound: ``(True, bound)``;
    - a card whose position cannot beat the window on the seat's side, or whose value is
      known, is not searched: its bound (or value) goes into the node's best value and window
      as a searched card's would;
    - of the others, the card whose position has the best bound for the seat (the highest
      upper bound for the side, the lowest lower bound for another seat) is tried first
      (``frame[_F_FIRST]``), of those the one whose trick is best for the seat's side (the side
      buying a bottle worst, a bottle bought from the side best, else the coins the side
      captures; for another seat the reverse).

    Row ``d + 1`` is played again when a card is searched. ``(False, 0)`` when the node is
    not settled."""
    frame = frames[d]
    a, b = int(frame[_F_A]), int(frame[_F_B])
    best = int(frame[_F_BEST])
    best_card = -1
    best_gain = -(1 << 62)
    kept = moves[d]
    word = kept
    while word != _ZERO:
        card = kernel.lowest_bit(word)
        word &= word - _ONE
        _copy_row(s, c, d)
        kernel.play(s, c, d + 1, card)
        _derive(s, c, d + 1, side, in_play, frames, side_cards)
        lower, upper = _child_bounds(s, c, d + 1, side, ctl, keys, bounds, scratch, frames,
                                     in_play, side_cards, kinds, a, b)
        if maximising:
            if lower >= b:
                return True, lower
            if upper <= a or lower == upper:
                kept &= ~(_ONE << np.uint64(card))
                best = max(best, upper)
                a = max(a, best)
                continue
        else:
            if upper <= a:
                return True, upper
            if lower >= b or lower == upper:
                kept &= ~(_ONE << np.uint64(card))
                best = min(best, lower)
                b = min(b, best)
                continue
        winner = s.last_winner[d + 1]
        bottle = s.last_bottle[d + 1]
        if bottle >= 0 and side[winner]:
            gain = -1000
        elif bottle >= 0 and s.bottle_owner[d, bottle] >= 0 and side[s.bottle_owner[d, bottle]]:
            gain = 1000
        else:
            gain = int(frames[d + 1, _F_CAPTURED]) - int(frame[_F_CAPTURED])
        if not maximising:
            gain = -gain
        gain += 4096 * (upper if maximising else -lower)  # the bound first (an order only)
        if gain > best_gain:
            best_card, best_gain = card, gain
    if a >= b:
        return True, best
    frame[_F_A] = a
    frame[_F_B] = b
    frame[_F_BEST] = best
    frame[_F_FIRST] = best_card
    moves[d] = kept
    return False, 0


# The cells of a ply's frame (``frames[d]``) in ``_search``.
_F_ALPHA, _F_BETA, _F_A, _F_B, _F_LOWER, _F_UPPER, _F_BEST, _F_CARD = range(8)
_F_SLOT, _F_FIRST, _F_PLAYED, _F_MAX, _F_TRIED, _F_CAPTURED, _F_QUESTION, _F_COINS = range(8, 16)
_F_LOOSE = 16
_FRAME: Final = 17


@kernel.jit
def _enter(s: kernel.State, c: kernel.Consts, d: int, side: Ints, ctl: Ints, keys: Words,
           bounds: Ints, scratch: Words, frames: Ints, moves: Words,
           in_play: Words, side_cards: Words, kinds: Ints) -> tuple[bool, int]:
    """Open the node of row ``d`` with the window ``frame[_F_ALPHA]``, ``frame[_F_BETA]``:
    ``(True, value)`` when it is settled at once (a round over, a sure bound or the table's
    bounds outside the window), else ``(False, 0)`` with its frame and moves set up.

    Some windows ask a question without coins (``_Q_NO_BOTTLE``, ``_Q_CAPTURE``). A window
    between an owner's and a non-owner's scores (``alpha`` at least minus the penalty, ``beta``
    at most the coins captured, times ``mult``) asks: can the side end owning no bottle? Every
    score of an owner is at most the first, every score of a non-owner at least the second (its
    coins only grow), so the value is above the window exactly when the side can. With no coin
    captured yet and every card worth a coin at least, a window from 0 (or more) to at most
    ``mult`` times the fewest coins of a card asks: can the side end owning no bottle, with a
    card captured? (A non-owner scores 0 with no card captured, at least that with one; an
    owner at most 0.) Such a node is keyed, tabled and pruned of equivalent cards without its
    coins (``_trick_key``, ``_question_bounds``, ``_equivalent``): nothing else about coins
    changes the answer."""
    frame = frames[d]
    alpha, beta = frame[_F_ALPHA], frame[_F_BETA]
    if s.phase[d] != PLAY:
        return True, int(s.scores[d, ctl[_SEAT]])
    captured = int(frame[_F_CAPTURED])
    lower, upper = _sure_bounds(s, c, d, side, ctl, in_play[d], captured, side_cards[d],
                                int(frame[_F_COINS]))
    if lower >= beta or lower == upper:
        return True, lower
    if upper <= alpha:
        return True, upper
    mult = ctl[_MULT]
    question = _question_of(ctl, alpha, beta, captured)
    slot = -1
    first = -1
    if s.trick_length[d] == 0:
        key = scratch[d]
        slot = _probe(keys, key, _trick_key(s, c, d, ctl, in_play[d], kinds, key, question))
        if slot >= 0:
            if question != _Q_SCORE:
                stored_lower, stored_upper = _question_bounds(bounds, slot, captured, ctl,
                                                              question)
            else:
                stored_lower, stored_upper = _table_bounds(bounds, slot, captured, ctl)
            lower = max(lower, stored_lower)
            upper = min(upper, stored_upper)
            first = _nth_card(in_play[d], int(bounds[slot, 2]))
            if lower >= beta or lower == upper:
                return True, lower
            if upper <= alpha:
                return True, upper
        if question == _Q_SCORE and alpha >= -ctl[_PENALTY] * mult:
            # A window above every owner's score: the bottle question's answer, if tabled,
            # may be "no" (at most minus the penalty: below the window).
            other = scratch[scratch.shape[0] - 1]  # a row no ply uses
            found = _probe(keys, other, _trick_key(s, c, d, ctl, in_play[d], kinds, other,
                                                   _Q_NO_BOTTLE))
            if found >= 0:
                stored_lower, stored_upper = _question_bounds(bounds, found, captured, ctl,
                                                              _Q_NO_BOTTLE)
                lower = max(lower, stored_lower)
                upper = min(upper, stored_upper)
                if upper <= alpha:
                    return True, upper
                if lower == upper:
                    return True, lower
    seat = s.to_act[d]
    maximising = side[seat] != 0
    _, legal = kernel.legal_set(s, c, d)
    kept = _equivalent(s, c, d, seat, legal, in_play[d], question != _Q_SCORE)
    loose = 0  # cards left out that only their coins tell apart (``_close``)
    if question != _Q_SCORE and kept != _equivalent(s, c, d, seat, legal, in_play[d], False):
        loose = 1
    if first >= 0 and (kept >> np.uint64(first)) & _ONE == _ZERO:
        first = -1
    frame[_F_A] = max(alpha, lower - 1)
    frame[_F_B] = min(beta, upper + 1)
    frame[_F_LOWER] = lower
    frame[_F_UPPER] = upper
    frame[_F_BEST] = lower - 1 if maximising else upper + 1
    frame[_F_CARD] = -1
    frame[_F_SLOT] = slot
    frame[_F_FIRST] = first
    frame[_F_MAX] = 1 if maximising else 0
    frame[_F_TRIED] = 0
    frame[_F_QUESTION] = question
    frame[_F_LOOSE] = loose
    moves[d] = kept
    if s.trick_length[d] == c.trick_size - 1:
        return _last_seat(s, c, d, side, ctl, keys, bounds, scratch, frames, moves, in_play,
                          side_cards, kinds, maximising)
    return False, 0


@kernel.jit
def _next_card(frame: Ints, moves: Words, d: int, seat: int, history: Ints) -> int:
    """The next card to try at ply ``d``, ``-1`` when none is left or the window closed: the
    table's best card first, then the card that cut off the most search for ``seat`` so far
    (the history heuristic, ``history[seat, card]``)."""
    if frame[_F_A] >= frame[_F_B]:
        return -1
    if frame[_F_TRIED] == 0:
        frame[_F_TRIED] = 1
        if frame[_F_FIRST] >= 0:
            card = int(frame[_F_FIRST])
            moves[d] &= ~(_ONE << np.uint64(card))
            return card
    word = moves[d]
    if word == _ZERO:
        return -1
    card = kernel.lowest_bit(word)
    best = history[seat, card]
    word &= word - _ONE
    while word != _ZERO:
        other = kernel.lowest_bit(word)
        word &= word - _ONE
        if history[seat, other] > best:
            card, best = other, history[seat, other]
    moves[d] &= ~(_ONE << np.uint64(card))
    return card


@kernel.jit
def _close(s: kernel.State, c: kernel.Consts, d: int, ctl: Ints, keys: Words, bounds: Ints,
           scratch: Words, frame: Ints, in_play: np.uint64) -> int:
    """The value of the node of row ``d`` once its cards are tried (or cut off), stored in the
    table at a trick boundary as a lower bound, an upper bound or both, with the best card's
    place in rank order among the cards in play (as the key names cards); a node of a question
    without coins (``frame[_F_QUESTION]``) stores only the answer its bounds give
    (``_question_bounds``). The
    key is written again even into the slot the node found it in: a position searched below
    may have taken that slot since, and its bounds must not go under another position's key.

    A question node that left out cards equal to a kept one but for their coins
    (``frame[_F_LOOSE]``, ``_equivalent``) knows each left-out card's answer (the kept card's)
    but not its score: the best of the cards it tried bounds its value only where any one card
    does, a fail-high of the side's seat (the value is at least any card's) and a fail-low of
    another seat (at most any card's). Its other results are the question's own bounds: a
    fail-high of another seat means every card's answer is yes, so the value is at least the
    yes bound (the side ends owning no bottle, SCORE-ROUND: it scores its coins, which only
    grow; with a card captured, at least one card's coins), and a fail-low of the side's seat
    means every answer is no, so the value is at most the no bound (the side owns a bottle and
    pays the Devil's Trick's coins, or, asked for a card, scores 0 at most). The best card's own
    score, left-out cards' coins aside, would be a wrong bound: of two cards of one colour
    that only coins tell apart, the other seat gives the side the cheaper, the side takes the
    dearer (TRICK-WINNER, every card of a trick to its winner)."""
    best = int(frame[_F_BEST])
    if frame[_F_LOOSE]:
        yes, no = _question_bounds_of(ctl, int(frame[_F_CAPTURED]), int(frame[_F_QUESTION]))
        if frame[_F_MAX] and best < frame[_F_BETA]:
            best = no
        elif not frame[_F_MAX] and best > frame[_F_ALPHA]:
            best = yes
    if s.trick_length[d] == 0:
        lower, upper = frame[_F_LOWER], frame[_F_UPPER]
        if best <= frame[_F_ALPHA]:
            upper = min(upper, best)
        elif best >= frame[_F_BETA]:
            lower = max(lower, best)
        else:
            lower = upper = best
        width = keys.shape[1] - 1
        slot = frame[_F_SLOT]
        if slot < 0:
            slot = -1 - slot
        for word in range(width):
            keys[slot, word] = scratch[d, word]
        keys[slot, width] = np.uint64(1 + s.hand_count[d].sum() + _face_up_count(s, c, d))
        mult = ctl[_MULT]
        if frame[_F_QUESTION] == _Q_NO_BOTTLE:  # no owner scores above minus the penalty,
            lower = 1 if lower > -ctl[_PENALTY] * mult else 0  # no non-owner below its coins
            upper = 1 if upper < mult * frame[_F_CAPTURED] else 0
        elif frame[_F_QUESTION] == _Q_CAPTURE:  # above 0 only a non-owner with a card;
            lower = 1 if lower > 0 else 0  # below a card's fewest coins only an owner or a
            upper = 1 if upper < mult * ctl[_LEAST_COINS] else 0  # side with no card
        bounds[slot, 0] = lower
        bounds[slot, 1] = upper
        bounds[slot, 3] = frame[_F_CAPTURED]
        card = frame[_F_CARD]
        bounds[slot, 2] = (kernel.count_bits(in_play & ((_ONE << np.uint64(card)) - _ONE))
                           if card >= 0 else -1)  # the card's place among the cards in play
    return best


@kernel.jit_apart
def _search(s: kernel.State, c: kernel.Consts, alpha: int, beta: int, side: Ints, ctl: Ints,
            keys: Words, bounds: Ints, scratch: Words, frames: Ints, moves: Words,
            history: Ints, in_play: Words, side_cards: Words, kinds: Ints) -> int:
    """Alpha-beta (fail-soft) from game row 0, on an explicit stack of plies (row ``d + 1`` is
    row ``d`` after the card tried at ply ``d``): the exact value if it lies strictly between
    ``alpha`` and ``beta``, else a bound on the same side of the window. Once the budget is
    spent (``ctl[_STOPPED]``) it returns at once, and what it returns means nothing."""
    d = 0
    frames[0, _F_ALPHA] = alpha
    frames[0, _F_BETA] = beta
    entering = True
    value = 0
    while True:
        if entering:
            ctl[_NODES] += 1
            if ctl[_NODES] > ctl[_LIMIT]:
                ctl[_STOPPED] = 1
                return 0
            if ctl[_DEADLINE] >= 0 and ctl[_NODES] >= ctl[_CHECK]:
                ctl[_CHECK] = ctl[_NODES] + 4096
                if _monotonic(ctl[_CLOCK]) > ctl[_DEADLINE]:
                    ctl[_STOPPED] = 1
                    return 0
            settled, value = _enter(s, c, d, side, ctl, keys, bounds, scratch, frames, moves,
                                    in_play, side_cards, kinds)
            entering = False
            if not settled:
                card = _next_card(frames[d], moves, d, s.to_act[d], history)
                if card < 0:  # no card (cannot happen in trick play): the node's bound stands
                    value = _close(s, c, d, ctl, keys, bounds, scratch, frames[d], in_play[d])
                else:
                    frames[d, _F_PLAYED] = card
                    _copy_row(s, c, d)
                    kernel.play(s, c, d + 1, card)
                    _derive(s, c, d + 1, side, in_play, frames, side_cards)
                    frames[d + 1, _F_ALPHA] = frames[d, _F_A]
                    frames[d + 1, _F_BETA] = frames[d, _F_B]
                    d += 1
                    entering = True
                    continue
        # ``value`` is the value of the node at ply ``d``: hand it to its parent.
        if d == 0:
            return value
        d -= 1
        frame = frames[d]
        if frame[_F_MAX]:
            if value > frame[_F_BEST]:
                frame[_F_BEST] = value
                frame[_F_CARD] = frame[_F_PLAYED]
                frame[_F_A] = max(frame[_F_A], value)
        elif value < frame[_F_BEST]:
            frame[_F_BEST] = value
            frame[_F_CARD] = frame[_F_PLAYED]
            frame[_F_B] = min(frame[_F_B], value)
        if frame[_F_A] >= frame[_F_B]:  # a cut-off: its card goes up the history
            left = frames.shape[0] - d  # the plies left, at most: cut-offs near the root weigh most
            history[s.to_act[d], frame[_F_PLAYED]] += left * left
        card = _next_card(frame, moves, d, s.to_act[d], history)
        if card < 0:
            value = _close(s, c, d, ctl, keys, bounds, scratch, frame, in_play[d])
            continue
        frame[_F_PLAYED] = card
        _copy_row(s, c, d)
        kernel.play(s, c, d + 1, card)
        _derive(s, c, d + 1, side, in_play, frames, side_cards)
        frames[d + 1, _F_ALPHA] = frame[_F_A]
        frames[d + 1, _F_BETA] = frame[_F_B]
        d += 1
        entering = True


@kernel.jit
def _face_up_count(s: kernel.State, c: kernel.Consts, d: int) -> int:
    """The face-up cards left in row ``d`` (Devil's Eye)."""
    if not c.devils_eye:
        return 0
    count = 0
    for seat in range(c.players):
        count += kernel.count_bits(kernel.seat_bits(s.face_up, d, seat, c.cards))
    return count


@kernel.jit
def _solve_row(state: tuple[Any, ...], consts: tuple[Any, ...], side: Ints, ctl: Ints, keys: Words,
               bounds: Ints, scratch: Words, frames: Ints, moves: Words, history: Ints,
               in_play: Words, side_cards: Words, kinds: Ints, known: Ints) -> None:
    """Narrow ``known`` (``[lower, upper]``, proved bounds of row 0's value) by zero-window
    tests (MTD(f)) until they meet or the budget is spent: each test around a guess ``gamma``
    proves the value at least, or at most, what the fail-soft search returns. ``known[2]``, a
    guess of the value (the value of the position solved before), is tested first, then the
    value next to what that test returned; far apart, the tests halve the interval. Without a
    guess inside the bounds the first test is at 1 when the bounds allow it: does the side own
    no bottle at the end and capture a coin? (an owner scores below 0, a non-owner its coins, so
    a failed test leaves at most 0, often the value's last question). A guess only chooses the
    tests: every bound comes from a finished test."""
    s, c = kernel.State(*state), kernel.Consts(*consts)
    ctl[_PENALTY] = _penalty(s, c, 0)
    in_play[0] = _in_play(s, c, 0)
    mine = _ZERO
    for seat in range(c.players):
        if side[seat]:
            mine |= (kernel.seat_bits(s.hand, 0, seat, c.cards)
                     | kernel.seat_bits(s.face_up, 0, seat, c.cards))
    for position in range(s.trick_length[0]):
        if side[s.trick_seats[0, position]]:
            mine |= _ONE << np.uint64(s.trick_cards[0, position])
    side_cards[0] = mine
    start_below = _ZERO
    for card in range(c.cards):
        if c.rank[card] < 19.0:  # the start card 19 (START_PRICE), as the kernel's ``end_trick``
            start_below |= _ONE << np.uint64(card)
    ctl[_START_BELOW] = np.int64(start_below)
    captured = _captured_coins(s, c, 0, side)
    frames[0, _F_CAPTURED] = captured
    coins = 0
    word = in_play[0]
    while word != _ZERO:
        coins += c.coins[kernel.lowest_bit(word)]
        word &= word - _ONE
    frames[0, _F_COINS] = coins
    lower, upper = _sure_bounds(s, c, 0, side, ctl, in_play[0], captured, side_cards[0], coins)
    lower, upper = max(lower, known[0]), min(upper, known[1])
    if s.trick_length[0] == 0:
        key = scratch[0]
        slot = _probe(keys, key, _trick_key(s, c, 0, ctl, in_play[0], kinds, key, _Q_SCORE))
        if slot >= 0:
            stored_lower, stored_upper = _table_bounds(bounds, slot, captured, ctl)
            lower = max(lower, stored_lower)
            upper = min(upper, stored_upper)
    guess = lower + (upper - lower) // 2
    if lower < 1 <= upper:  # an owner's score is below 0, a non-owner's its coins
        guess = 1
    hinted = lower < known[2] <= upper
    if hinted:
        guess = known[2]
    tests = 0
    while lower < upper:
        gamma = min(max(guess, lower + 1), upper)
        value = _search(s, c, gamma - 1, gamma, side, ctl, keys, bounds, scratch, frames, moves,
                        history, in_play, side_cards, kinds)
        if ctl[_STOPPED]:
            break
        if value >= gamma:
            lower = value
            guess = value + 1
        else:
            upper = value
            guess = value
        tests += 1
        if upper - lower > 8 and not (hinted and tests == 1):  # far apart: halve the interval
            guess = lower + (upper - lower + 1) // 2
    known[0] = lower
    known[1] = upper


# -- the Python side -------------------------------------------------------------------------------


class Solver:
    """Solves positions of one round's configuration for one seat's side, keeping its
    transposition table between solves (the positions of one round share most of their
    subtrees).

    ``node_budget`` bounds the positions visited by each ``solve``; ``seconds`` bounds its time.
    """

    def __init__(self, seat: int, config: Config, *, node_budget: int | None = DEFAULT_NODE_BUDGET,
                 seconds: float | None = None, table_bits: int = TABLE_BITS) -> None:
        if not isinstance(config, Config):
            raise ArgumentError("Solver(config)", f"needs a Config, not {type(config).__name__}")
        if type(seat) is not int or not 0 <= seat < config.players:
            raise ArgumentError("Solver(seat)", f"needs a seat of the game, not {seat!r}")
        if node_budget is not None and (type(node_budget) is not int or node_budget < 1):
            raise ArgumentError("Solver(node_budget)",
                                f"needs a positive int or None, not {node_budget!r}")
        if seconds is not None and (type(seconds) not in (int, float) or not seconds >= 0):
            raise ArgumentError("Solver(seconds)", f"needs seconds >= 0 or None, not {seconds!r}")
        if type(table_bits) is not int or not 4 <= table_bits <= 26:
            raise ArgumentError("Solver(table_bits)", f"needs an int from 4 to 26, not "
                                f"{table_bits!r}")
        self.seat = seat
        self.config = config
        self.side = side_of(config, seat)
        self.node_budget = node_budget
        self.seconds = seconds
        self.nodes = 0
        """Positions visited by the solves so far."""
        n, p = len(config.cards), config.players
        ranks = [card.rank for card in config.cards]
        if len(set(ranks)) == len(ranks):  # a card named by its rank: no Card hashed per load
            by_rank = {card.rank: index for index, card in enumerate(config.cards)}
            self._at: Callable[[Card], int] = lambda card: by_rank[card.rank]
        else:
            by_card = {card: index for index, card in enumerate(config.cards)}
            self._at = by_card.__getitem__
        # One game row per ply: a round holds at most n plays.
        self._games = BatchGames(config, n + 2, autoreset=False, observations=False, threads=1)
        self._state = self._games._state()
        self._consts = self._games._consts
        width = key_width(config)
        self._kinds = card_kinds(config)
        self._keys: Words = np.zeros((1 << table_bits, width + 1), dtype=np.uint64)
        self._bounds: Ints = np.zeros((1 << table_bits, 4), dtype=np.int64)
        self._scratch: Words = np.zeros((n + 2, width), dtype=np.uint64)
        self._frames: Ints = np.zeros((n + 2, _FRAME), dtype=np.int64)
        self._moves: Words = np.zeros(n + 2, dtype=np.uint64)
        self._history: Ints = np.zeros((p, n), dtype=np.int64)
        self._in_play: Words = np.zeros(n + 2, dtype=np.uint64)
        self._side_cards: Words = np.zeros(n + 2, dtype=np.uint64)
        self._side_mask: Ints = np.zeros(p, dtype=np.int64)
        for member in self.side:
            self._side_mask[member] = 1
        self._ctl: Ints = np.zeros(_CONTROL, dtype=np.int64)
        self._ctl[_SEAT] = seat
        self._ctl[_MULT] = _multiplier(config, self.side)
        self._ctl[_CLOCK] = _CLOCK_ID
        self._ctl[_LEAST_COINS] = min(card.coins for card in config.cards)
        self._known: Ints = np.zeros(3, dtype=np.int64)
        self._guess: int | None = None
        """The last exact value found: the first guess of the next solve (positions solved one
        after the other, a play's cards or a round's plays, tend to share their value)."""

    def _load(self, state: GameState) -> None:
        """Put ``state`` (a checked position of trick play of the solver's configuration) in
        game row 0, in the batch engine's layout (as ``BatchGames.load_play`` with the captured
        cards and the Devil's Trick beside), and the fields no play changes in every row."""
        at = self._at
        round_ = state.round
        s = kernel.State(*self._state)

        def word(cards: Iterable[Card]) -> np.uint64:
            """The cards as a word (bit ``at(card)`` set for each)."""
            bits = 0
            for card in cards:
                bits |= 1 << at(card)
            return np.uint64(bits)

        for plane in (s.hand, s.face_up, s.captured, s.trick):
            plane[0] = 0
        for seat, hand in enumerate(round_.hands):
            s.hand[0, seat] = word(hand)
            s.hand_count[0, seat] = len(hand)
        for seat, row in enumerate(round_.face_up or ()):
            s.face_up[0, seat] = word(row)
        for seat, cards in enumerate(round_.captured):
            s.captured[0, seat] = word(cards)
        s.devils_trick[0] = word(round_.devils_trick)
        s.played[0] = word(play.card for play in round_.plays)
        for number, bottle in enumerate(round_.bottles):
            if bottle.price_card is None or bottle.owner is None:  # the start card 19
                s.bottle_card[0, number] = s.bottle_owner[0, number] = -1
            else:
                s.bottle_card[0, number] = at(bottle.price_card)
                s.bottle_owner[0, number] = bottle.owner
        trick = state.current_trick()
        for position, play in enumerate(trick):
            s.trick[0, play.seat] |= word((play.card,))
            s.trick_cards[0, position] = at(play.card)
            s.trick_seats[0, position] = play.seat
        assert state.to_act is not None
        s.trick_length[0] = len(trick)
        s.phase[0] = PLAY
        s.to_act[0] = state.to_act
        s.leader[0] = trick[0].seat if trick else state.to_act
        s.scores[0] = 0
        s.totals[0] = 0
        # What the kernel reads but no play changes (``_copy_row`` copies the rest ply by ply).
        s.devils_trick[1:] = s.devils_trick[0]
        s.dealer[:] = round_.dealer
        s.round_index[:] = 0

    def solve(self, state: GameState) -> Valuation:
        """The value of ``state`` for the solver's side: exact, or bounds past the budget."""
        return self._solve_within(state)

    def _solve_within(self, state: GameState, *, at_least: int | None = None,
                      at_most: int | None = None) -> Valuation:
        """``solve``, from bounds of the value proved beforehand by the analysis of the round
        (``record``: the values of the cards of a later position); the search narrows them, and
        returns them as they are when they meet. They are trusted, not checked (a wrong one
        gives a wrong value), so only the analysis passes them: the public ``solve`` takes
        none."""
        state = expect_state(state, "Solver.solve(state)")
        if state.config != self.config:
            raise ArgumentError("Solver.solve(state)", "a state of another configuration")
        for name, bound in (("at_least", at_least), ("at_most", at_most)):
            if bound is not None and type(bound) is not int:
                raise ArgumentError(f"Solver.solve({name})",
                                    f"needs an int or None, not {bound!r}")
        if at_least is not None and at_most is not None and at_least > at_most:
            raise ArgumentError("Solver.solve(at_least)",
                                f"needs at_least <= at_most, not {at_least} > {at_most}")
        if state.phase is not Phase.PLAY:
            scores = state.round.scores
            if scores is None:
                raise ArgumentError("Solver.solve(state)", "needs a position of trick play")
            return Valuation(scores[self.seat], scores[self.seat])
        if at_least is not None and at_least == at_most:
            self._guess = at_least
            return Valuation(at_least, at_most)
        self._load(state)
        ctl = self._ctl
        ctl[_NODES] = 0
        ctl[_STOPPED] = 0
        ctl[_CHECK] = 0
        ctl[_LIMIT] = self.node_budget if self.node_budget is not None else 1 << 62
        if self.seconds is None:
            ctl[_DEADLINE] = -1
        else:
            ctl[_DEADLINE] = time.monotonic_ns() + int(self.seconds * 1e9)
            if self.seconds <= 0:
                ctl[_LIMIT] = 0
        self._known[0], self._known[1] = _NONE, -_NONE
        if at_least is not None:
            self._known[0] = at_least
        if at_most is not None:
            self._known[1] = at_most
        self._known[2] = _NONE if self._guess is None else self._guess
        _solve_row(self._state, self._consts, self._side_mask, ctl, self._keys, self._bounds,
                   self._scratch, self._frames, self._moves,
                   self._history, self._in_play, self._side_cards, self._kinds, self._known)
        self.nodes += int(ctl[_NODES])
        if self._known[0] == self._known[1]:
            self._guess = int(self._known[0])
        return Valuation(int(self._known[0]), int(self._known[1]))


def solve(state: GameState, seat: int | None = None, *,
          node_budget: int | None = DEFAULT_NODE_BUDGET, seconds: float | None = None) -> Valuation:
    """The paranoid open-hand value of ``state`` (a position of trick play, or a round just
    scored) for ``seat``'s side; ``seat`` defaults to the seat to act.

    >>> import bottleimp
    >>> from bottleimp.analysis import solve
    >>> state = bottleimp.new_game(bottleimp.Config(players=3), seed=1)
    >>> while len(state.round.plays) < 27:  # the setup and all but the last 3 tricks
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> state.to_act, solve(state)  # the seat to act can guarantee 26 coins, all hands seen
    (1, Valuation(lower=26, upper=26))
    >>> solve(state, seat=1).exact
    True
    """
    state = expect_state(state, "solve(state)")
    if seat is None:
        seat = state.to_act
    if type(seat) is not int or not 0 <= seat < state.config.players:
        raise ArgumentError("solve(seat)", f"needs a seat of the game, not {seat!r}")
    return Solver(seat, state.config, node_budget=node_budget, seconds=seconds).solve(state)


def card_values(state: GameState, solver: Solver | None = None) -> tuple[tuple[Play, Valuation], ...]:
    """Each legal card of the seat to act with the value, for that seat's side, of the position
    after it (``Solver.solve``), in the order of ``legal_actions``."""
    state = expect_state(state, "card_values(state)")
    if state.phase is not Phase.PLAY or state.to_act is None:
        raise ArgumentError("card_values(state)", "needs a position of trick play")
    seat = state.to_act
    if solver is None:
        solver = Solver(seat, state.config)
    elif not isinstance(solver, Solver):
        raise ArgumentError("card_values(solver)", f"needs a Solver, not {type(solver).__name__}")
    elif solver.seat not in side_of(state.config, seat):
        raise ArgumentError("card_values(solver)", f"a solver for seat {solver.seat}'s side, "
                            f"not seat {seat}'s")
    values = []
    for action in legal_actions_of(state, seat):
        assert isinstance(action, Play)
        values.append((action, solver.solve(after_play(state, action))))
    return tuple(values)

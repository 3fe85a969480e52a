"""The state of a game: frozen values holding only tuples, so equal states hash equal.

A ``GameState`` holds the configuration and seed, the phase and the seat to act, the current
(or last) round and the rounds before it, and the running totals. A ``RoundState`` holds every
zone a card can be in during a round, plus the round's public history (setup choices and plays).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from itertools import chain
from operator import attrgetter
from types import MappingProxyType
from typing import Any, Final, TypeVar

from attrs import Attribute, field, fields, frozen, make_class

from ._actions import Give, Play
from ._arguments import describe
from ._cards import START_PRICE, Card, Rank
from ._config import Config
from ._errors import ArgumentError
from ._phase import Phase
from ._table import bottle_text, cards_text, hand_text, heading, table_text

__all__ = ["Bottle", "GameState", "Phase", "RoundState", "TrickResult"]

# --- the fields' checks ------------------------------------------------------------------------
# Every value of this module checks its own fields when it is built (``attrs.evolve`` builds
# too), so a state the library or a user holds is well-formed: exact types (a subclass could
# answer ``==`` and ``hash`` as it likes; a ``bool`` is no seat), one row per seat, seats the
# round has. The engine then asks only that a state be a ``GameState`` itself
# (``view.expect_state``); its transitions derive the next state from a checked one by the rules
# without running the checks again (``derive``). An object made around the constructor
# (``object.__new__``, ``object.__setattr__`` on a frozen instance) deliberately circumvents
# them: it is not a forged value, and is not looked for.


def _refuse(instance: object, attribute: Attribute[Any], message: str) -> ArgumentError:
    return ArgumentError(f"{type(instance).__name__}.{attribute.name}", message)


def _exactly(*kinds: type | None) -> Callable[[object, Attribute[Any], object], None]:
    """A validator: the value's type is one of ``kinds`` itself (``None`` for ``None``)."""
    allowed = frozenset(type(None) if kind is None else kind for kind in kinds)
    names = " or ".join("None" if kind is None else kind.__name__ for kind in kinds)

    def check(instance: object, attribute: Attribute[Any], value: object) -> None:
        if type(value) not in allowed:
            raise _refuse(instance, attribute, f"needs {names}, not {describe(value)}")
    return check


def _tuple_of(*kinds: type) -> Callable[[object, Attribute[Any], object], None]:
    """A validator: a tuple itself of values whose types are ``kinds`` themselves."""
    allowed = frozenset(kinds)
    names = " or ".join(kind.__name__ for kind in kinds)

    def check(instance: object, attribute: Attribute[Any], value: object) -> None:
        if type(value) is not tuple or not set(map(type, value)) <= allowed:
            raise _refuse(instance, attribute, f"needs a tuple of {names}, not {describe(value)}")
    return check


def _rows_of(kind: type) -> Callable[[object, Attribute[Any], object], None]:
    """A validator: a tuple of rows (tuples themselves, one per seat) of ``kind`` values
    themselves; the first value that is not one is named."""
    allowed = frozenset({kind})

    def check(instance: object, attribute: Attribute[Any], rows: object) -> None:
        if type(rows) is not tuple or not set(map(type, rows)) <= _TUPLE:
            raise _refuse(instance, attribute, f"needs one tuple per seat, not {describe(rows)}")
        if not set(map(type, chain.from_iterable(rows))) <= allowed:
            seat, position, value = next((seat, position, value)
                                         for seat, row in enumerate(rows)
                                         for position, value in enumerate(row)
                                         if type(value) is not kind)
            raise ArgumentError(f"{type(instance).__name__}.{attribute.name}[{seat}][{position}]",
                                f"needs a {kind.__name__}, not {describe(value)}")
    return check


def _optional_rows_of(kind: type) -> Callable[[object, Attribute[Any], object], None]:
    rows_of = _rows_of(kind)

    def check(instance: object, attribute: Attribute[Any], rows: object) -> None:
        if rows is not None:
            rows_of(instance, attribute, rows)
    return check


def _rank(instance: object, attribute: Attribute[Any], value: object) -> None:
    if not (type(value) is int or (type(value) is float and math.isfinite(value))):
        raise _refuse(instance, attribute, f"needs a rank, an int or a finite float, not "
                                           f"{describe(value)}")


_TUPLE: Final = frozenset({tuple})
_INT: Final = frozenset({int})
_SEAT: Final = attrgetter("seat")


@frozen
class Bottle:
    """A bottle: the card under it that sets its price (``None``: the start card 19) and owner."""

    price_card: Card | None = field(default=None, validator=_exactly(Card, None))
    """The card under the bottle that sets its price; ``None`` while the start card 19 does."""
    owner: int | None = field(default=None, validator=_exactly(int, None))
    """The seat that owns the bottle; ``None`` until someone buys it."""

    @property
    def price(self) -> Rank:
        """The bottle's current price: its price card's rank, 19 before anyone buys it."""
        return START_PRICE if self.price_card is None else self.price_card.rank


@frozen
class TrickResult:
    """What one completed trick decided, kept for narration and reports.

    ``bottle`` is the index of the bottle bought, or ``None`` when every card was above the price.
    """

    plays: tuple[Play, ...] = field(validator=_tuple_of(Play))
    """The trick's plays, in the order they were made (the leader's first)."""
    winner: int = field(validator=_exactly(int))
    """The seat that won the trick."""
    winning_card: Card = field(validator=_exactly(Card))
    """The card that won it."""
    bottle: int | None = field(validator=_exactly(int, None))
    """The index of the bottle bought, or ``None``."""
    price_before: Rank = field(validator=_rank)
    """The price the trick was judged against: the highest bottle price before it."""
    price_after: Rank = field(validator=_rank)
    """That bottle's price after the trick: the winning card's rank if it bought the bottle."""


@frozen
class RoundState:
    """One round: its deal, every zone, and its history.

    ``hands`` are the hidden hands (in Devil's Eye the face-up cards are in ``face_up``); cards a
    seat has given during setup leave its hand at once and sit in ``setup`` until every seat has
    chosen. ``plays`` lists every card played this round in order; the current trick is its tail.
    """

    index: int = field(validator=_exactly(int))
    """The round's number, from 0."""
    dealer: int = field(validator=_exactly(int))
    """The seat that dealt it."""
    dealt: tuple[tuple[Card, ...], ...] = field(validator=_rows_of(Card))
    """The hidden hands as dealt, one per seat, in rank order."""
    dealt_face_up: tuple[tuple[Card, ...], ...] | None = field(validator=_optional_rows_of(Card))
    """The face-up cards as dealt (Devil's Eye), else ``None``."""
    hands: tuple[tuple[Card, ...], ...] = field(validator=_rows_of(Card))
    """Each seat's hidden hand now, in rank order."""
    face_up: tuple[tuple[Card, ...], ...] | None = field(validator=_optional_rows_of(Card))
    """Each seat's face-up cards now (Devil's Eye), else ``None``."""
    setup: tuple[tuple[Give, ...], ...] = field(validator=_rows_of(Give))
    """Each seat's setup choices so far, in the order it made them."""
    devils_trick: tuple[Card, ...] = field(validator=_tuple_of(Card))
    """The Devil's Trick: empty until every seat has chosen, then the discards in rank order."""
    plays: tuple[Play, ...] = field(validator=_tuple_of(Play))
    """Every card played this round, in order; the trick in progress is its tail."""
    leader: int = field(validator=_exactly(int))
    """The seat that leads (or led) the trick in progress."""
    bottles: tuple[Bottle, ...] = field(validator=_tuple_of(Bottle))
    """The bottles: one, or two in the Second Bottle variant."""
    captured: tuple[tuple[Card, ...], ...] = field(validator=_rows_of(Card))
    """Each seat's pile of captured cards (price cards returned to it included)."""
    tricks: tuple[TrickResult, ...] = field(validator=_tuple_of(TrickResult))
    """What each completed trick decided, in order."""
    scores: tuple[int, ...] | None = field(validator=_exactly(tuple, None))
    """Each seat's score for the round once it is over, else ``None``."""

    def __attrs_post_init__(self) -> None:
        """The fields fit together: every zone one row per seat of the deal, face-up zones in
        both places or neither, and seats the round has (dealer, leader, bottles' owners, the
        seats of the plays and of each seat's own setup choices), scores one int per seat."""
        players = len(self.dealt)
        seats = range(players)
        rows = [self.hands, self.setup, self.captured]
        if self.face_up is not None and self.dealt_face_up is not None:
            rows += [self.face_up, self.dealt_face_up]
        elif self.face_up is not None or self.dealt_face_up is not None:
            raise ArgumentError("RoundState.face_up", "the face-up cards are dealt and held, "
                                                      "or neither (Devil's Eye)")
        if set(map(len, rows)) - {players}:
            raise ArgumentError("RoundState", f"every zone needs one row per seat of the "
                                              f"{players} dealt")
        owners = [bottle.owner for bottle in self.bottles if bottle.owner is not None]
        if not {self.dealer, self.leader, *owners, *map(_SEAT, self.plays)} <= set(seats):
            raise ArgumentError("RoundState", f"names a seat a {players}-seat round does not have")
        if any(gives and set(map(_SEAT, gives)) != {seat} for seat, gives in enumerate(self.setup)):
            raise ArgumentError("RoundState.setup", "holds a seat's Give in another seat's row")
        if self.index < 0 or not 1 <= len(self.bottles) <= 2:
            raise ArgumentError("RoundState", "needs a round index of at least 0 and one or two "
                                              "bottles")
        if self.scores is not None and (len(self.scores) != players
                                        or not set(map(type, self.scores)) <= _INT):
            raise ArgumentError("RoundState.scores", f"needs one int per seat, not "
                                                     f"{describe(self.scores)}")

    def __repr__(self) -> str:
        return (
            f"<RoundState: round {self.index + 1}, dealer seat {self.dealer}, "
            f"{len(self.plays)} plays, {len(self.tricks)} tricks"
            f"{'' if self.scores is None else f', scores {self.scores}'}>"
        )


@frozen
class GameState:
    """The whole game: configuration, seed, phase, seat to act, rounds and totals.

    ``to_act`` is ``None`` exactly when the phase is ``GAME_OVER``. ``round`` is the current round
    (or, once the game is over, the last one); ``past_rounds`` are the finished rounds before it.
    """

    config: Config = field(validator=_exactly(Config))
    """The game's configuration."""
    seed: int = field(validator=_exactly(int))
    """The seed every round's deal is drawn from (rule DEAL-SHUFFLE)."""
    phase: Phase = field(validator=_exactly(Phase))
    """What happens next: setup, trick play, the next deal, or nothing (game over)."""
    to_act: int | None = field(validator=_exactly(int, None))
    """The seat whose decision it is; ``None`` once the game is over."""
    round: RoundState = field(validator=_exactly(RoundState))
    """The current round (the last one once the game is over)."""
    past_rounds: tuple[RoundState, ...] = field(validator=_tuple_of(RoundState))
    """The finished rounds before it, in order."""
    totals: tuple[int, ...] = field(validator=_tuple_of(int))
    """Each seat's total over the finished rounds."""
    winners: tuple[int, ...] | None = field(default=None, validator=_exactly(tuple, None))
    """The seats that won (rule WINNERS: the highest total; a tie shares the win) once the game
    is over; ``None`` before."""

    def __attrs_post_init__(self) -> None:
        """The fields fit the configuration: rounds of its players, face-up cards exactly in
        Devil's Eye, one total per seat; a seat to act and no winners exactly until the game is
        over, then winners among the seats."""
        players = self.config.players
        seats = range(players)
        if {len(self.round.dealt), *(len(past.dealt) for past in self.past_rounds)} != {players}:
            raise ArgumentError("GameState.round", f"needs a round of {players} seats")
        if (self.round.face_up is None) is self.config.devils_eye:
            raise ArgumentError("GameState.round.face_up", "holds face-up cards exactly in "
                                                           "Devil's Eye")
        if len(self.totals) != players:
            raise ArgumentError("GameState.totals", f"needs one int per seat, not {self.totals}")
        over = self.phase is Phase.GAME_OVER
        if (self.to_act is None) is not over or (self.to_act is not None
                                                 and self.to_act not in seats):
            raise ArgumentError("GameState.to_act", f"needs a seat until the game is over, then "
                                                    f"None, not {describe(self.to_act)}")
        if (self.winners is None) is over or (self.winners is not None and not (
                set(map(type, self.winners)) <= _INT and set(self.winners) <= set(seats))):
            raise ArgumentError("GameState.winners", f"needs seats once the game is over, None "
                                                     f"before, not {describe(self.winners)}")

    def __str__(self) -> str:
        """The table in a few lines (``bottleimp._table``): every hand, the trick, the bottles."""
        round_ = self.round
        return table_text(
            heading(self.config, self.phase, self.to_act, round_.index, round_.dealer),
            [hand_text(cards_text(hand), round_.face_up, seat)
             for seat, hand in enumerate(round_.hands)],
            round_.captured,
            [len(gives) for gives in round_.setup] if self.phase is Phase.SETUP else None,
            self.totals,
            self.current_trick(),
            [bottle_text(bottle.price, bottle.owner) for bottle in round_.bottles],
            round_.scores,
            self.winners,
        )

    def __repr__(self) -> str:
        """A one-line summary (the fields are the attributes; ``str`` draws the table).

        >>> import bottleimp
        >>> state = bottleimp.new_game(bottleimp.Config(players=4, rounds=1), seed=7)
        >>> state
        <GameState: 4 players, seed 7, round 1, setup, seat 1 to act, totals (0, 0, 0, 0)>
        >>> while not state.is_over:
        ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
        >>> state
        <GameState: 4 players, seed 7, round 1, game over, won by seat 2, totals (-4, 13, 49, 28)>
        """
        if self.winners is not None:
            seats = ", ".join(map(str, self.winners))
            acting = f"game over, won by seat{'s' if len(self.winners) > 1 else ''} {seats}"
        else:
            acting = f"{self.phase.value}, seat {self.to_act} to act"
        return (
            f"<GameState: {self.config.players} players, seed {self.seed}, "
            f"round {self.round.index + 1}, {acting}, totals {self.totals}>"
        )

    @property
    def rounds(self) -> tuple[RoundState, ...]:
        """Every round so far, the current one last."""
        return self.past_rounds + (self.round,)

    @property
    def is_over(self) -> bool:
        """True once the game has ended."""
        return self.phase is Phase.GAME_OVER

    def current_trick(self) -> tuple[Play, ...]:
        """The plays of the trick in progress (empty between tricks)."""
        return trick_in_progress(self.round.plays, self.config.trick_size)


_Derived = TypeVar("_Derived", "RoundState", "GameState")


def derive(value: _Derived, **changes: Any) -> _Derived:
    """``value`` with the fields ``changes`` names replaced, built without running the fields'
    checks: the transitions derive each next state so, from a well-formed state by the rules.
    Checking a whole round again at every move costs more than the move itself
    (``benchmarks/RESULTS.md``); a test re-checks every state the engine derives in games of
    every variant. ``attrs.evolve`` is the checked way, for everyone else."""
    kind = type(value)
    field_values = list(_FIELD_VALUES[kind](value))
    positions = _FIELD_POSITIONS[kind]
    for name, field_value in changes.items():
        field_values[positions[name]] = field_value
    derived = object.__new__(kind)
    _UNCHECKED_INIT[kind](derived, *field_values)
    return derived


_FIELD_NAMES: Final = MappingProxyType({kind: tuple(attribute.name for attribute in fields(kind))
                                        for kind in (RoundState, GameState)})
_FIELD_VALUES: Final = MappingProxyType({kind: attrgetter(*names)
                                         for kind, names in _FIELD_NAMES.items()})
_FIELD_POSITIONS: Final = MappingProxyType({
    kind: MappingProxyType({name: position for position, name in enumerate(names)})
    for kind, names in _FIELD_NAMES.items()})
_UNCHECKED_INIT: Final = MappingProxyType({
    kind: getattr(make_class(f"Unchecked{kind.__name__}", list(names), slots=True, frozen=True),
                  "__init__")
    for kind, names in _FIELD_NAMES.items()})
"""The ``__init__`` attrs generates for the same fields without their checks: it sets the
fields of a state ``derive`` builds as the class's own ``__init__`` does."""


def trick_in_progress(plays: tuple[Play, ...], trick_size: int) -> tuple[Play, ...]:
    """The plays of the trick in progress among a round's ``plays``: those after the last
    completed trick of ``trick_size`` cards (empty between tricks). A state's
    ``current_trick()``, and a view's, read from JSON."""
    return plays[len(plays) - len(plays) % trick_size :]

"""The state of a game: frozen values holding only tuples, so equal states hash equal.

A ``GameState`` holds the configuration and seed, the phase and the seat to act, the current
(or last) round and the rounds before it, and the running totals. A ``RoundState`` holds every
zone a card can be in during a round, plus the round's public history (setup choices and plays).
"""

from __future__ import annotations

from itertools import chain
from operator import attrgetter
from typing import Final

from attrs import field, frozen

from .actions import Give, Play
from .arguments import describe
from .cards import START_PRICE, Card, Rank, expect_card, expect_cards
from .config import Config, expect_config
from .errors import ArgumentError
from .phase import Phase
from .table import bottle_text, cards_text, hand_text, heading, table_text

__all__ = ["Bottle", "GameState", "Phase", "RoundState", "TrickResult"]


@frozen
class Bottle:
    """A bottle: the card under it that sets its price (``None``: the start card 19) and owner."""

    price_card: Card | None = None
    """The card under the bottle that sets its price; ``None`` while the start card 19 does."""
    owner: int | None = None
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

    plays: tuple[Play, ...]
    """The trick's plays, in the order they were made (the leader's first)."""
    winner: int
    """The seat that won the trick."""
    winning_card: Card
    """The card that won it."""
    bottle: int | None
    """The index of the bottle bought, or ``None``."""
    price_before: Rank
    """The price the trick was judged against: the highest bottle price before it."""
    price_after: Rank
    """That bottle's price after the trick: the winning card's rank if it bought the bottle."""


@frozen
class RoundState:
    """One round: its deal, every zone, and its history.

    ``hands`` are the hidden hands (in Devil's Eye the face-up cards are in ``face_up``); cards a
    seat has given during setup leave its hand at once and sit in ``setup`` until every seat has
    chosen. ``plays`` lists every card played this round in order; the current trick is its tail.
    """

    index: int
    """The round's number, from 0."""
    dealer: int
    """The seat that dealt it."""
    dealt: tuple[tuple[Card, ...], ...]
    """The hidden hands as dealt, one per seat, in rank order."""
    dealt_face_up: tuple[tuple[Card, ...], ...] | None
    """The face-up cards as dealt (Devil's Eye), else ``None``."""
    hands: tuple[tuple[Card, ...], ...]
    """Each seat's hidden hand now, in rank order."""
    face_up: tuple[tuple[Card, ...], ...] | None
    """Each seat's face-up cards now (Devil's Eye), else ``None``."""
    setup: tuple[tuple[Give, ...], ...]
    """Each seat's setup choices so far, in the order it made them."""
    devils_trick: tuple[Card, ...]
    """The Devil's Trick: empty until every seat has chosen, then the discards in rank order."""
    plays: tuple[Play, ...]
    """Every card played this round, in order; the trick in progress is its tail."""
    leader: int
    """The seat that leads (or led) the trick in progress."""
    bottles: tuple[Bottle, ...]
    """The bottles: one, or two in the Second Bottle variant."""
    captured: tuple[tuple[Card, ...], ...]
    """Each seat's pile of captured cards (price cards returned to it included)."""
    tricks: tuple[TrickResult, ...]
    """What each completed trick decided, in order."""
    scores: tuple[int, ...] | None
    """Each seat's score for the round once it is over, else ``None``."""

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

    config: Config
    """The game's configuration."""
    seed: int
    """The seed every round's deal is drawn from (rule DEAL-SHUFFLE)."""
    phase: Phase
    """What happens next: setup, trick play, the next deal, or nothing (game over)."""
    to_act: int | None
    """The seat whose decision it is; ``None`` once the game is over."""
    round: RoundState
    """The current round (the last one once the game is over)."""
    past_rounds: tuple[RoundState, ...]
    """The finished rounds before it, in order."""
    totals: tuple[int, ...]
    """Each seat's total over the finished rounds."""
    winners: tuple[int, ...] | None = field(default=None)
    """The seats that won (rule WINNERS: the highest total; a tie shares the win) once the game
    is over; ``None`` before."""

    def __str__(self) -> str:
        """The table in a few lines (``bottleimp.table``): every hand, the trick, the bottles."""
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


def trick_in_progress(plays: tuple[Play, ...], trick_size: int) -> tuple[Play, ...]:
    """The plays of the trick in progress among a round's ``plays``: those after the last
    completed trick of ``trick_size`` cards (empty between tricks). A state's
    ``current_trick()``, and a view's, read from JSON."""
    return plays[len(plays) - len(plays) % trick_size :]


def check_state(value: object, where: str) -> GameState:
    """``value`` if it is a state as the library builds it (``_check_parts``), else an
    ``ArgumentError`` for ``where``. Every part is checked in a few passes over all the
    round's cards and actions at once; only a state that fails them is walked part by part, to
    name the part at fault."""
    if type(value) is GameState and _parts_fit(value):
        return value
    return _check_parts(value, where)


def _parts_fit(state: GameState) -> bool:
    """Whether ``state``'s parts are of the types and sizes ``_check_parts`` asks for, checked
    all at once."""
    config = state.config
    if type(config) is not Config:
        return False
    players = config.players
    round_ = state.round
    if type(round_) is not RoundState or type(players) is not int:
        return False
    seats = range(players)
    rows = (round_.dealt, round_.hands, round_.captured, round_.setup)
    if config.devils_eye:
        rows += (round_.dealt_face_up, round_.face_up)  # type: ignore[assignment]
    elif round_.dealt_face_up is not None or round_.face_up is not None:
        return False
    if not (set(map(type, rows)) <= _TUPLE and set(map(len, rows)) == {players}
            and set(map(type, chain.from_iterable(rows))) <= _TUPLE):
        return False
    plays, gives = round_.plays, tuple(chain.from_iterable(round_.setup))
    if not (type(plays) is tuple and set(map(type, plays)) <= _PLAY_TYPE
            and set(map(type, gives)) <= _GIVE_TYPE and type(round_.devils_trick) is tuple):
        return False
    cards = chain(
        chain.from_iterable(chain.from_iterable(rows[:3] + rows[4:])),
        round_.devils_trick, map(_CARD, plays), map(_CARD, gives))
    actors = set(map(_SEAT, plays)) | set(map(_SEAT, gives))
    return (set(map(type, cards)) <= _CARD_TYPE and set(map(type, actors)) <= _INT
            and actors <= set(seats)
            and all(not row or set(map(_SEAT, row)) == {seat}
                    for seat, row in enumerate(round_.setup))
            and type(state.seed) is int and type(state.phase) is Phase
            and (state.to_act is None) is (state.phase is Phase.GAME_OVER)
            and (state.to_act is None or (type(state.to_act) is int and state.to_act in seats))
            and type(state.totals) is tuple and len(state.totals) == players
            and set(map(type, state.totals)) <= _INT
            and (state.winners is None) is not (state.phase is Phase.GAME_OVER)
            and (state.winners is None or (type(state.winners) is tuple
                                           and set(map(type, state.winners)) <= _INT
                                           and set(state.winners) <= set(seats)))
            and type(state.past_rounds) is tuple
            and set(map(type, state.past_rounds)) <= _ROUND_TYPE
            and type(round_.index) is int and round_.index >= 0
            and type(round_.dealer) is int and round_.dealer in seats
            and type(round_.leader) is int and round_.leader in seats
            and type(round_.bottles) is tuple and 1 <= len(round_.bottles) <= 2
            and all(type(bottle) is Bottle
                    and (bottle.price_card is None or type(bottle.price_card) is Card)
                    and (bottle.owner is None or (type(bottle.owner) is int
                                                  and bottle.owner in seats))
                    for bottle in round_.bottles)
            and type(round_.tricks) is tuple and set(map(type, round_.tricks)) <= _TRICK_TYPE
            and (round_.scores is None or (type(round_.scores) is tuple
                                           and len(round_.scores) == players
                                           and set(map(type, round_.scores)) <= _INT))
            and _config_fits(config))


def _config_fits(config: Config) -> bool:
    try:
        expect_config(config, "")
    except ArgumentError:
        return False
    return True


def _check_parts(value: object, where: str) -> GameState:
    """``value`` if it is a state as the library builds it, else an ``ArgumentError`` for
    ``where``: a ``GameState`` itself (not a subclass) whose every part is of the type and size
    the engine reads: the configuration (``expect_config``), the seat to act, and the current
    round's zones, one per seat, holding ``Card``, ``Give`` and ``Play`` values themselves (not
    subclasses) of seats the game has. The rounds before the current one are checked to be
    rounds, not walked again: the engine only keeps them. The types are checked all at once
    (``set(map(type, ...))``), as the engine checks its state at every call."""
    if type(value) is not GameState:
        raise ArgumentError(where, f"needs a GameState, not {describe(value)}")
    config = expect_config(value.config, f"{where}.config")
    players = config.players
    seats = frozenset(range(players))

    def fail(part: str, message: str) -> ArgumentError:
        return ArgumentError(where, f"not a state the library builds: {part} {message}")

    def seat(number: object, part: str) -> None:
        if type(number) is not int or not 0 <= number < players:
            raise fail(part, f"is no seat of a {players}-player game: {describe(number)}")

    def per_seat(rows: object, part: str) -> tuple[tuple[object, ...], ...]:
        if type(rows) is not tuple or len(rows) != players or not set(map(type, rows)) <= _TUPLE:
            raise fail(part, f"is not one tuple per seat: {describe(rows)}")
        return rows

    def cards_per_seat(rows: object, part: str) -> None:
        checked = per_seat(rows, part)
        if not set(map(type, chain.from_iterable(checked))) <= _CARD_TYPE:
            for number, row in enumerate(checked):
                expect_cards(row, f"{where}.{part}[{number}]")

    def numbers(values: object, part: str) -> None:
        if type(values) is not tuple or len(values) != players or not set(
                map(type, values)) <= _INT:
            raise fail(part, f"is not one int per seat: {describe(values)}")

    def actions(values: tuple[Give | Play, ...], kind: type, part: str) -> None:
        if not set(map(type, values)) <= {kind}:
            raise fail(part, f"holds other values than {kind.__name__}s")
        played = set(map(_SEAT, values))
        if not set(map(type, played)) <= _INT or not played <= seats:
            raise fail(part, f"holds a {kind.__name__} of no seat of the game")
        if not set(map(type, map(_CARD, values))) <= _CARD_TYPE:
            raise fail(part, f"holds a {kind.__name__} of another value than a Card")

    if type(value.seed) is not int:
        raise fail("seed", f"is not an int: {describe(value.seed)}")
    if type(value.phase) is not Phase:
        raise fail("phase", f"is not a Phase: {describe(value.phase)}")
    if (value.to_act is None) is not (value.phase is Phase.GAME_OVER):
        raise fail("to_act", "is None exactly when the game is over, and only then")
    if value.to_act is not None:
        seat(value.to_act, "to_act")
    numbers(value.totals, "totals")
    winners = value.winners
    if (winners is None) is (value.phase is Phase.GAME_OVER) or (winners is not None and (
            type(winners) is not tuple or not set(map(type, winners)) <= _INT
            or not set(winners) <= seats)):
        raise fail("winners", f"are seats once the game is over, None before: "
                              f"{describe(winners)}")
    if type(value.past_rounds) is not tuple or not set(
            map(type, value.past_rounds)) <= _ROUND_TYPE:
        raise fail("past_rounds", "is not a tuple of RoundState")
    round_ = value.round
    if type(round_) is not RoundState:
        raise fail("round", f"is not a RoundState: {describe(round_)}")
    if type(round_.index) is not int or round_.index < 0:
        raise fail("round.index", f"is not a round's number: {describe(round_.index)}")
    seat(round_.dealer, "round.dealer")
    seat(round_.leader, "round.leader")
    for part in ("dealt", "hands", "captured"):
        cards_per_seat(getattr(round_, part), f"round.{part}")
    for part in ("dealt_face_up", "face_up"):
        rows = getattr(round_, part)
        if (rows is None) is not (not config.devils_eye):
            raise fail(f"round.{part}", "holds face-up cards exactly in Devil's Eye")
        if rows is not None:
            cards_per_seat(rows, f"round.{part}")
    expect_cards(round_.devils_trick, f"{where}.round.devils_trick")
    setup = per_seat(round_.setup, "round.setup")
    actions(tuple(chain.from_iterable(setup)), Give, "round.setup")  # type: ignore[arg-type]
    for number, gives in enumerate(setup):
        if gives and set(map(_SEAT, gives)) != {number}:
            raise fail(f"round.setup[{number}]", f"holds a Give of another seat than {number}")
    if type(round_.plays) is not tuple:
        raise fail("round.plays", f"is not a tuple: {describe(round_.plays)}")
    actions(round_.plays, Play, "round.plays")
    if type(round_.bottles) is not tuple or not 1 <= len(round_.bottles) <= 2:
        raise fail("round.bottles", f"is not a tuple of one or two bottles: "
                                    f"{describe(round_.bottles)}")
    for number, bottle in enumerate(round_.bottles):
        if type(bottle) is not Bottle:
            raise fail(f"round.bottles[{number}]", f"is not a Bottle: {describe(bottle)}")
        if bottle.price_card is not None:
            expect_card(bottle.price_card, f"{where}.round.bottles[{number}].price_card")
        if bottle.owner is not None:
            seat(bottle.owner, f"round.bottles[{number}].owner")
    if type(round_.tricks) is not tuple or not set(map(type, round_.tricks)) <= _TRICK_TYPE:
        raise fail("round.tricks", "is not a tuple of TrickResult")
    if round_.scores is not None:
        numbers(round_.scores, "round.scores")
    if not _parts_fit(value):
        raise fail("parts", "do not fit together")
    return value


_SEAT: Final = attrgetter("seat")
_CARD: Final = attrgetter("card")
_CARD_TYPE: Final = frozenset({Card})
_INT: Final = frozenset({int})
_PLAY_TYPE: Final = frozenset({Play})
_GIVE_TYPE: Final = frozenset({Give})
_TUPLE: Final = frozenset({tuple})
_ROUND_TYPE: Final = frozenset({RoundState})
_TRICK_TYPE: Final = frozenset({TrickResult})

"""The state of a game: frozen values holding only tuples, so equal states hash equal.

A ``GameState`` holds the configuration and seed, the phase and the seat to act, the current
(or last) round and the rounds before it, and the running totals. A ``RoundState`` holds every
zone a card can be in during a round, plus the round's public history (setup choices and plays).
"""

from __future__ import annotations

import enum
from typing import Final

from attrs import frozen

from .actions import Give, Play
from .cards import START_PRICE, Card, Rank
from .config import Config


class Phase(enum.Enum):
    """The phase of the game, which says what kind of action comes next."""

    SETUP = "setup"
    """Seats choose their setup cards (Devil's Trick, passes), one card per action."""
    PLAY = "play"
    """Tricks are played."""
    ROUND_OVER = "round_over"
    """The round is scored; the next dealer starts the next round."""
    GAME_OVER = "game_over"
    """The game has ended; no one acts."""

    def __repr__(self) -> str:
        return f"Phase.{self.name}"


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


@frozen(slots=False)
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


@frozen(slots=False)
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
        plays = self.round.plays
        return plays[len(plays) - len(plays) % self.config.trick_size :]


# States are built for every action of every playout, so the engine derives a state from the one
# before instead of calling the generated ``__init__`` (which sets one attribute after another):
# it copies the fields of the state before (one C-level dict copy: the unchanged fields are the
# very objects of the state before), replaces the ones that changed and installs them as the new
# instance's attributes. This is why ``RoundState`` and ``GameState`` keep their fields in an
# instance ``__dict__`` rather than in slots. The result is an ordinary frozen instance: equal to
# and hashing like one built by ``__init__``. One function per kind of transition derives both the
# round and the game, so an action costs one Python call here.
#
# The copy is ``{**fields}``, not ``fields.copy()``: the dict of an instance built by ``__init__``
# is a split-table dict (keys shared with the class), and ``copy()`` keeps a copy split, so every
# state derived from it would be too. The interpreter's specialised attribute read for instances
# with a dict (``LOAD_ATTR_WITH_HINT``) misses on split dicts and falls back to the generic
# lookup, several times slower, at every read of a state's field. ``{**fields}`` builds an
# ordinary (combined) dict, and copying a combined dict is as cheap as ``copy()``.
_new_instance: Final = object.__new__
# The setter of each class's ``__dict__`` attribute, which installs a dict as an instance's
# attributes: one call in C (``object.__setattr__(instance, "__dict__", fields)`` does the same
# through a slower generic path). Each derivation below calls these two inline rather than through
# a helper: a Python call costs as much as the two C calls.
_install_round_fields: Final = RoundState.__dict__["__dict__"].__set__
_install_game_fields: Final = GameState.__dict__["__dict__"].__set__


def game_after_play(
    state: GameState,
    to_act: int,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
    plays: tuple[Play, ...],
) -> GameState:
    """``state`` after a play within a trick: only the zones, the plays and the seat to act
    change."""
    round_fields = {**state.round.__dict__}
    round_fields["hands"] = hands
    round_fields["face_up"] = face_up
    round_fields["plays"] = plays
    round_: RoundState = _new_instance(RoundState)
    _install_round_fields(round_, round_fields)
    fields = {**state.__dict__}
    fields["to_act"] = to_act
    fields["round"] = round_
    derived: GameState = _new_instance(GameState)
    _install_game_fields(derived, fields)
    return derived


def game_after_give(
    state: GameState,
    to_act: int,
    hands: tuple[tuple[Card, ...], ...],
    setup: tuple[tuple[Give, ...], ...],
) -> GameState:
    """``state`` after a setup card is given and setup goes on: only the hands, the setup and
    the seat to act change."""
    round_fields = {**state.round.__dict__}
    round_fields["hands"] = hands
    round_fields["setup"] = setup
    round_: RoundState = _new_instance(RoundState)
    _install_round_fields(round_, round_fields)
    fields = {**state.__dict__}
    fields["to_act"] = to_act
    fields["round"] = round_
    derived: GameState = _new_instance(GameState)
    _install_game_fields(derived, fields)
    return derived


def game_after_setup(
    state: GameState,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
    setup: tuple[tuple[Give, ...], ...],
    devils_trick: tuple[Card, ...],
) -> GameState:
    """``state`` once every seat has chosen: the given cards moved, the Devil's Trick set, trick
    play begun by the round's leader."""
    round_fields = {**state.round.__dict__}
    round_fields["hands"] = hands
    round_fields["face_up"] = face_up
    round_fields["setup"] = setup
    round_fields["devils_trick"] = devils_trick
    round_: RoundState = _new_instance(RoundState)
    _install_round_fields(round_, round_fields)
    fields = {**state.__dict__}
    fields["phase"] = Phase.PLAY
    fields["to_act"] = round_fields["leader"]
    fields["round"] = round_
    derived: GameState = _new_instance(GameState)
    _install_game_fields(derived, fields)
    return derived


def game_after_trick(
    state: GameState,
    phase: Phase,
    to_act: int | None,
    totals: tuple[int, ...],
    *,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
    plays: tuple[Play, ...],
    leader: int,
    bottles: tuple[Bottle, ...],
    captured: tuple[tuple[Card, ...], ...],
    tricks: tuple[TrickResult, ...],
    scores: tuple[int, ...] | None,
) -> GameState:
    """``state`` after the play that completes a trick: the phase, the seat to act and the
    totals of the game, and the round's fields after the trick (callers name each round field:
    several have the same type)."""
    round_fields = {**state.round.__dict__}
    round_fields["hands"] = hands
    round_fields["face_up"] = face_up
    round_fields["plays"] = plays
    round_fields["leader"] = leader
    round_fields["bottles"] = bottles
    round_fields["captured"] = captured
    round_fields["tricks"] = tricks
    round_fields["scores"] = scores
    round_: RoundState = _new_instance(RoundState)
    _install_round_fields(round_, round_fields)
    fields = {**state.__dict__}
    fields["phase"] = phase
    fields["to_act"] = to_act
    fields["round"] = round_
    fields["totals"] = totals
    derived: GameState = _new_instance(GameState)
    _install_game_fields(derived, fields)
    return derived

"""The state of a game: frozen values holding only tuples, so equal states hash equal.

A ``GameState`` holds the configuration and seed, the phase and the seat to act, the current
(or last) round and the rounds before it, and the running totals. A ``RoundState`` holds every
zone a card can be in during a round, plus the round's public history (setup choices and plays).
"""

from __future__ import annotations

import enum

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
    owner: int | None = None

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
    winner: int
    winning_card: Card
    bottle: int | None
    price_before: Rank
    price_after: Rank


@frozen
class RoundState:
    """One round: its deal, every zone, and its history.

    ``hands`` are the hidden hands (in Devil's Eye the face-up cards are in ``face_up``); cards a
    seat has given during setup leave its hand at once and sit in ``setup`` until every seat has
    chosen. ``plays`` lists every card played this round in order; the current trick is its tail.
    """

    index: int
    dealer: int
    dealt: tuple[tuple[Card, ...], ...]
    dealt_face_up: tuple[tuple[Card, ...], ...] | None
    hands: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...] | None
    setup: tuple[tuple[Give, ...], ...]
    devils_trick: tuple[Card, ...]
    plays: tuple[Play, ...]
    leader: int
    bottles: tuple[Bottle, ...]
    captured: tuple[tuple[Card, ...], ...]
    tricks: tuple[TrickResult, ...]
    scores: tuple[int, ...] | None


@frozen
class GameState:
    """The whole game: configuration, seed, phase, seat to act, rounds and totals.

    ``to_act`` is ``None`` exactly when the phase is ``GAME_OVER``. ``round`` is the current round
    (or, once the game is over, the last one); ``past_rounds`` are the finished rounds before it.
    """

    config: Config
    seed: int
    phase: Phase
    to_act: int | None
    round: RoundState
    past_rounds: tuple[RoundState, ...]
    totals: tuple[int, ...]

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

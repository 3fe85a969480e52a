"""The state of a game: frozen values holding only tuples, so equal states hash equal.

A ``GameState`` holds the configuration and seed, the phase and the seat to act, the current
(or last) round and the rounds before it, and the running totals. A ``RoundState`` holds every
zone a card can be in during a round, plus the round's public history (setup choices and plays).
"""

from __future__ import annotations

from attrs import frozen

from .actions import Give, Play
from .cards import START_PRICE, Card, Rank
from .config import Config
from .phase import Phase
from .rules.game import winners
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
            winners(self.totals) if self.phase is Phase.GAME_OVER else None,
        )

    def __repr__(self) -> str:
        """A one-line summary (the fields are the attributes; ``str`` draws the table).

        >>> import bottleimp
        >>> bottleimp.new_game(bottleimp.Config(players=4), seed=7)
        <GameState: 4 players, seed 7, round 1, setup, seat 1 to act, totals (0, 0, 0, 0)>
        """
        acting = "game over" if self.to_act is None else f"seat {self.to_act} to act"
        return (
            f"<GameState: {self.config.players} players, seed {self.seed}, "
            f"round {self.round.index + 1}, {self.phase.value}, {acting}, totals {self.totals}>"
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
        plays = self.round.plays
        return plays[len(plays) - len(plays) % self.config.trick_size :]

"""The phases of a game: what kind of action comes next."""

from __future__ import annotations

import enum


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

"""The random bot: a uniform choice among the legal actions, from its own seeded generator."""

from __future__ import annotations

import random

from .._actions import Action
from .._view import SeatView

__all__ = ["RandomBot"]


class RandomBot:
    """Chooses uniformly at random among the legal actions (deterministic for a seed)."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        """One of ``legal``, drawn uniformly."""
        return legal[self._random.randrange(len(legal))]

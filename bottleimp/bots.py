"""Built-in players for simulations. A bot sees only its seat's view and the legal actions.

- ``RandomBot``: picks uniformly among the legal actions with its own seeded generator.
- ``HeuristicBot``: gives its lowest cards away during setup (low cards are what buys the bottle),
  and in play takes points with high cards while keeping clear of the bottle.
"""

from __future__ import annotations

import random
from typing import Protocol

from .actions import Action, Give, Play
from .rules.play import trick_price
from .view import SeatView


class Bot(Protocol):
    """Anything that chooses one of the legal actions from a seat's view."""

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        """One of ``legal``."""


class RandomBot:
    """Chooses uniformly at random among the legal actions (deterministic for a seed)."""

    def __init__(self, seed: int = 0) -> None:
        self._random = random.Random(seed)

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        return legal[self._random.randrange(len(legal))]


class HeuristicBot:
    """A simple, deterministic player that tries not to end the round holding the bottle."""

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        first = legal[0]
        if isinstance(first, Give):
            # Legal gives are sorted by rank: the lowest cards are the ones that buy the bottle.
            return first
        if not isinstance(first, Play):
            return first
        plays = [action for action in legal if isinstance(action, Play)]
        price, _ = trick_price(view.bottles)
        below_in_trick = [p.card.rank for p in view.current_trick if p.card.rank < price]
        highest_below = max(below_in_trick, default=None)

        def buys(play: Play) -> bool:
            rank = play.card.rank
            return rank < price and (highest_below is None or rank > highest_below)

        safe = [play for play in plays if not buys(play)]
        if safe:
            return max(safe, key=lambda play: play.card.rank)
        return min(plays, key=lambda play: play.card.rank)


def make_bot(kind: str, seed: int) -> Bot:
    """A bot by name: ``"random"`` or ``"heuristic"``."""
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot()
    raise ValueError(f"unknown bot {kind!r}; known bots: random, heuristic")

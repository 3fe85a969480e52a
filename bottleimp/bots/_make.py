"""Making a bot by name: ``make_bot``, ``BOTS``, ``NEEDS_NUMBA`` and the ``Bot`` protocol."""

from __future__ import annotations

from typing import Protocol

from .._actions import Action
from .._errors import BotError
from .._view import SeatView
from ._heuristic import HeuristicBot
from ._sampling import SAMPLING_WORLDS, SamplingBot
from ._search import DEFAULT_WORLDS, SearchBot
from ._uniform import RandomBot

BOTS = ("random", "heuristic", "search", "sampling")
"""The names ``make_bot`` knows, weakest first."""
NEEDS_NUMBA = ("sampling",)
"""The bots that run compiled code and so need the ``batch`` extra (numba): ``make_bot``
raises ``BotError`` saying so where numba is missing."""


class Bot(Protocol):
    """Anything that chooses one of the legal actions from a seat's view."""

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        """One of ``legal``."""


def make_bot(kind: str, seed: int, *, worlds: int = DEFAULT_WORLDS) -> Bot:
    """A bot by name (one of ``BOTS``), seeded; ``worlds`` is the search bot's budget (and the
    sampling bot's, up to ``SAMPLING_WORLDS``).

    >>> from bottleimp.bots import make_bot
    >>> type(make_bot("heuristic", 0)).__name__
    'HeuristicBot'
    >>> make_bot("clever", 0)
    Traceback (most recent call last):
    ...
    bottleimp.bots.BotError: unknown bot 'clever'; known bots: random, heuristic, search, sampling
    """
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "search":
        return SearchBot(seed, worlds)
    if kind == "sampling":
        return SamplingBot(seed, max(1, min(worlds, SAMPLING_WORLDS)))
    raise BotError(f"unknown bot {kind!r}; known bots: {', '.join(BOTS)}")

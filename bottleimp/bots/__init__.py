"""Reference bots: players that see only their seat's view (rule VIEW-HIDDEN) and the legal
actions, and choose one. Every bot is deterministic for its seed.

- ``random`` (``RandomBot``): a uniform choice among the legal actions.
- ``heuristic`` (``HeuristicBot``): a fixed strategy that stays clear of the bottle at the end
  of the round (``bottleimp.bots.heuristic`` documents it).
- ``search`` (``SearchBot``): determinised look-ahead, heuristic playouts over worlds sampled
  from its view (``bottleimp.bots.search``); its budget is the number of worlds per decision.
- ``sampling`` (``SamplingBot``): worlds sampled from its view, each solved open-hand by the
  paranoid solver of ``bottleimp.analysis`` (``bottleimp.bots.sampling``); at most
  ``SAMPLING_WORLDS`` worlds per decision (fewer when the budget asked for is smaller). The
  solver is compiled (the ``batch`` extra, numba): ``NEEDS_NUMBA`` lists the bots that need it,
  which the browser game (Pyodide, no numba) does not offer.

``make_bot(kind, seed)`` builds one by name; ``docs/guide/agents.md`` shows their measured
strength (``bottleimp arena``).
"""

from __future__ import annotations

from typing import Protocol

from ..actions import Action
from ..errors import BotError
from ..view import SeatView
from .heuristic import HeuristicBot
from .sampling import SAMPLING_WORLDS, SamplingBot
from .search import DEFAULT_WORLDS, SearchBot
from .uniform import RandomBot

__all__ = ["BOTS", "NEEDS_NUMBA", "Bot", "HeuristicBot", "RandomBot", "SamplingBot", "SearchBot", "make_bot"]

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
    bottleimp.errors.BotError: unknown bot 'clever'; known bots: random, heuristic, search, sampling
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

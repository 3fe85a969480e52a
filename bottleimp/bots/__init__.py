"""Reference bots: players that see only their seat's view (rule VIEW-HIDDEN) and the legal
actions, and choose one. Every bot is deterministic for its seed.

- ``random`` (``RandomBot``): a uniform choice among the legal actions.
- ``heuristic`` (``HeuristicBot``): a fixed strategy that stays clear of the bottle at the end
  of the round (``HeuristicBot`` documents it).
- ``search`` (``SearchBot``): determinised look-ahead, heuristic playouts over worlds sampled
  from its view (``SearchBot``); its budget is the number of worlds per decision.
- ``sampling`` (``SamplingBot``): worlds sampled from its view, each solved open-hand by the
  paranoid solver of ``bottleimp.analysis`` (``SamplingBot``); at most
  ``SAMPLING_WORLDS`` worlds per decision (fewer when the budget asked for is smaller). The
  solver is compiled (the ``batch`` extra, numba): ``NEEDS_NUMBA`` lists the bots that need it,
  which the browser game (Pyodide, no numba) does not offer.

``make_bot(kind, seed)`` builds one by name; ``docs/guide/agents.md`` shows their measured
strength (``bottleimp arena``).
"""

from __future__ import annotations

from .._errors import BotError
from ._arena import ARENA_REPORT_FORMAT, AgentResult, ArenaReport, play_arena, wilson_interval
from ._heuristic import HeuristicBot
from ._make import BOTS, NEEDS_NUMBA, Bot, make_bot
from ._sampling import SamplingBot
from ._search import SearchBot
from ._uniform import RandomBot
from ._worlds import resample, sample_world, unseen_cards

__all__ = [
    "ARENA_REPORT_FORMAT", "AgentResult", "ArenaReport", "BOTS", "Bot", "BotError", "HeuristicBot",
    "NEEDS_NUMBA",
    "RandomBot", "SamplingBot", "SearchBot", "make_bot", "play_arena", "resample", "sample_world",
    "unseen_cards", "wilson_interval",
]

"""The sampling bot: worlds drawn from its view, each solved open-hand.

For each play with more than one legal card, the bot draws ``worlds`` deals that agree with
everything its seat has seen (``bottleimp.bots._worlds.sample_world``, the determinisation the
search bot uses) and, in each, asks the open-hand paranoid solver (``bottleimp.analysis``) the
value of every legal card for its side: its round score (its team's in team mode) when its side
plays best and the other seats play against it, all hands visible. It plays the card with the
best mean value; a value the solver could only bound within its node budget counts as the
middle of its bounds, and among cards with the same mean it plays the heuristic's card when
that is one of them (early in a round, when every value is a wide bound, the bot plays as the
heuristic does). It gives its setup cards as the heuristic does.

Sampling over open-hand solves suffers *strategy fusion*: in each world the solver knows where
every card is, so it credits the bot with plays it could not make knowing only its hand. The
bot is deterministic for a seed; its cost is ``worlds`` solves of every legal card a decision.

The solver runs on the batch engine's compiled kernel, so this bot needs the ``batch`` extra
(numba: ``pip install 'bottleimp[batch]'``); without it, making the bot raises ``BotError``
saying so, and the browser game (Pyodide, which has no numba) does not offer it
(``NEEDS_NUMBA``).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from .._actions import Action, Play
from .._config import Config
from .._errors import BotError
from .._view import SeatView
from ._heuristic import HeuristicBot
from ._worlds import sample_world

if TYPE_CHECKING:
    from ..analysis._solver import Solver

__all__ = ["SAMPLING_NODE_BUDGET", "SAMPLING_WORLDS", "SamplingBot"]

SAMPLING_WORLDS: Final = 8
"""The default worlds per decision."""
SAMPLING_NODE_BUDGET: Final = 20_000
"""Positions each open-hand solve visits at most before it settles for bounds."""


class SamplingBot:
    """Chooses by open-hand solves of sampled worlds (see the module's docstring)."""

    def __init__(self, seed: int = 0, worlds: int = SAMPLING_WORLDS,
                 node_budget: int = SAMPLING_NODE_BUDGET) -> None:
        if type(worlds) is not int or worlds < 1:
            raise BotError(f"the sampling budget (worlds) must be a positive int, not {worlds!r}")
        if type(node_budget) is not int or node_budget < 1:
            raise BotError(f"the node budget must be a positive int, not {node_budget!r}")
        try:
            from ..analysis import _solver as solver
        except ImportError as missing:
            raise BotError(f"the sampling bot solves worlds with the compiled open-hand solver "
                           f"(bottleimp.analysis), which needs numba: {missing}") from None
        self._solver_module = solver
        self._random = random.Random(seed)
        self._heuristic = HeuristicBot(seed)
        self.worlds = worlds
        self.node_budget = node_budget
        self._solvers: dict[tuple[Config, int], Solver] = {}
        """One solver per configuration and seat, its transposition table kept between worlds
        and decisions (its keys hold every card's place, so positions of different worlds
        never mix)."""

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        """One of ``legal``: the best mean open-hand value over the sampled worlds."""
        fallback = self._heuristic.choose(view, legal)
        if len(legal) == 1 or not isinstance(legal[0], Play):
            return fallback
        totals = dict.fromkeys(legal, 0.0)
        key = (view.config, view.seat)
        solver = self._solvers.get(key)
        if solver is None:
            solver = self._solvers[key] = self._solver_module.Solver(
                view.seat, view.config, node_budget=self.node_budget)
        for _ in range(self.worlds):
            world = sample_world(view, self._random)
            for play, valuation in self._solver_module.card_values(world, solver):
                totals[play] += (valuation.lower + valuation.upper) / 2
        best = max(totals.values())
        candidates = [action for action in legal if totals[action] >= best - 1e-9]
        return fallback if fallback in candidates else candidates[0]

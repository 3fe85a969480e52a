"""Analysis of play: the exact open-hand "paranoid" solver (``_solver``; ``solve``, ``card_values``) and, in
``bottleimp.analysis.record``, the analysis of a recorded game (where each seat lost coins).

This package's top level holds only the solver, which needs the core and the batch engine's
compiled kernel (the ``batch`` extra, numba: ``pip install 'bottleimp[batch]'``; without it,
importing the package raises ``ImportError`` saying so), so that a bot can use it; the record
analysis, which replays records with the validator and samples worlds with the bots'
determinisation, is imported from ``bottleimp.analysis.record``.
"""

from ._solver import (
    DEFAULT_NODE_BUDGET,
    Solver,
    Valuation,
    card_values,
    side_of,
    solve,
)

__all__ = [
    "DEFAULT_NODE_BUDGET", "Solver", "Valuation", "card_values", "side_of", "solve",
]

"""The batch engine: many games of one configuration stepped in lockstep by one compiled kernel
(the ``batch`` extra, numpy and numba: ``pip install 'bottleimp[batch]'``).

The library's fast implementation of the rules, for programs that learn or search:
``BatchGames`` resets B games from seeds (the reference's deals, bit for bit), gives the seat
to act, the legal-action masks in ``bottleimp._encoding``'s action numbering and the
observations in its layout, and steps every game with one action number each, on every core.
``python -m bottleimp.batch.check`` compares it with the reference on every variant. See
``docs/guide/batch.md``.
"""

try:
    import numba as _numba  # noqa: F401
    import numpy as _numpy  # noqa: F401
except ImportError as missing:
    raise ImportError(
        f"bottleimp.batch needs numpy and numba ({missing.name} is not installed): "
        f"pip install 'bottleimp[batch]'", name=missing.name) from None

from ._engine import (GAME_OVER, PLAY, ROUND_OVER, SETUP, BatchError, BatchGames, StepResult,
                     bytes_per_game)
from ._perft import perft_counts
from ._records import RecordingGames

__all__ = ["BatchError", "BatchGames", "GAME_OVER", "PLAY", "ROUND_OVER", "RecordingGames", "SETUP",
           "StepResult", "bytes_per_game", "perft_counts"]

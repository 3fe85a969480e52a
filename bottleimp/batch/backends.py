"""The batch engine's backends by name: ``numpy`` (``BatchGames``, the readable array version)
and ``numba`` (``NumbaBatchGames``, the same engine with its step, masks and observations
compiled; the ``batch-fast`` extra)."""

from __future__ import annotations

from typing import Final

from ..config import Config
from .games import BatchError, BatchGames

BACKENDS: Final = ("numpy", "numba")
"""The backends' names, the readable one first."""


def backend_missing(backend: str) -> str:
    """Why ``backend`` cannot run here (an unknown name, a package not installed), or ``""``."""
    if backend not in BACKENDS:
        return f"unknown batch backend {backend!r} (one of {', '.join(BACKENDS)})"
    if backend == "numba":
        from .fast import numba_missing

        return numba_missing()
    return ""


def batch_games(config: Config, batch_size: int, *, backend: str = "numpy",
                autoreset: bool = True, observations: bool = True, illegal: str = "raise",
                illegal_reward: float = -1.0, compact: bool = False) -> BatchGames:
    """A batch of ``batch_size`` games of ``config`` on ``backend`` (a ``BatchError`` naming
    the package to install when the backend cannot run here); the options are
    ``BatchGames``'s."""
    if not isinstance(backend, str):
        raise BatchError(f"backend must be a name ({', '.join(BACKENDS)}), not {backend!r}")
    missing = backend_missing(backend)
    if missing:
        raise BatchError(missing)
    if backend == "numba":
        from .fast import NumbaBatchGames

        return NumbaBatchGames(config, batch_size, autoreset=autoreset, observations=observations,
                               illegal=illegal, illegal_reward=illegal_reward, compact=compact)
    return BatchGames(config, batch_size, autoreset=autoreset, observations=observations,
                      illegal=illegal, illegal_reward=illegal_reward, compact=compact)

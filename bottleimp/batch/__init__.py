"""The batch engine: many games of one configuration stepped in lockstep on numpy arrays (the
``batch`` extra: ``pip install 'bottleimp[batch]'``).

A second implementation of the rules, for programs that learn or search: ``BatchGames`` resets B
games from seeds (the reference's deals, bit for bit), gives the seat to act, the legal-action
masks in ``bottleimp.encoding``'s action numbering and the observations in its layout, and
steps every game with one action number each. It is checked against the reference by the
conformance tools (``python -m bottleimp.conformance.batch_peer`` answers the differential
protocol) and by ``tests/test_batch.py``. See ``docs/guide/batch.md``.
"""

from .games import GAME_OVER, PLAY, ROUND_OVER, SETUP, BatchError, BatchGames, StepResult

__all__ = ["BatchError", "BatchGames", "GAME_OVER", "PLAY", "ROUND_OVER", "SETUP", "StepResult"]

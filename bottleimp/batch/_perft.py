"""Perft with the batch engine: how many sequences of legal actions start from a position,
counted breadth first (every position of one depth is one batch), as chess engines count
their move generators against perft tables. The data to compare with is
``spec/conformance/perft/counts.json``."""

from __future__ import annotations

import numpy as np

from ._engine import PLAY, SETUP, BatchGames


def perft_counts(position: BatchGames, depth: int) -> tuple[list[int], list[int]]:
    """For game 0 of ``position``: the number of sequences of ``1 .. depth`` legal actions
    within the round (a sequence stops at the round's last play), and for each action number
    the number of sequences of ``depth`` actions that start with it (the divide counts)."""
    frontier = position.take([0])
    origin = np.zeros(1, dtype=np.int64)
    counts: list[int] = []
    divide = np.zeros(position.num_actions, dtype=np.int64)
    for level in range(depth):
        in_round = (frontier.phase == SETUP) | (frontier.phase == PLAY)
        mask = frontier.legal_mask() & in_round[:, None]
        games, actions = np.nonzero(mask)
        counts.append(len(games))
        if level == 0:
            origin = actions.copy()
        else:
            origin = origin[games]
        if level == depth - 1 or not len(games):
            np.add.at(divide, origin, 1)
            break
        frontier = frontier.take(games)
        frontier.step(actions)
    counts += [0] * (depth - len(counts))
    return counts, divide.tolist()

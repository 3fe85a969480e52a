"""This checkout's batch engine on one thread beside another checkout's (two backends: its numba
one), in one process and interleaved slices, with OpenSpiel's Hearts: the issue's "one core
gives at least what main gives in the same run".

    python benchmarks/batch_beside.py PATH [--seconds S] [--sizes 1024,8192]

``PATH`` is a checkout (``git worktree add`` or ``git archive | tar -x``); its ``bottleimp``
package is copied into a temporary directory as ``bottleimp_beside`` (the batch package imports
only relatively), so both engines run in this process. Its numba kernel compiles there on first
use. Prints each rate, its ratio to Hearts and this checkout's rate over the other's, and the
load average before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playouts import hearts_slice  # noqa: E402

import bottleimp  # noqa: E402
from bottleimp.batch import BatchGames  # noqa: E402

Slice = Callable[[float], tuple[int, int]]


def stepping(games: Any, size: int) -> Slice:
    """Random legal games, ``size`` at a time, masks and observations included."""
    games.reset(np.arange(size))
    rng = np.random.default_rng(1)

    def play(seconds: float) -> tuple[int, int]:
        decisions, deadline = 0, time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            games.step(games.random_actions(rng))
            decisions += size
        return decisions, 0

    return play


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("path", help="the other checkout")
    parser.add_argument("--seconds", type=float, default=5.0, help="time per contender")
    parser.add_argument("--sizes", default="1024,8192")
    args = parser.parse_args()
    sizes = [int(size) for size in args.sizes.split(",")]
    print(f"load average before {' '.join(f'{v:.2f}' for v in os.getloadavg())}", flush=True)
    with tempfile.TemporaryDirectory() as temporary:
        shutil.copytree(Path(args.path) / "bottleimp", Path(temporary) / "bottleimp_beside")
        sys.path.insert(0, temporary)
        import bottleimp_beside  # type: ignore[import-not-found]
        from bottleimp_beside.batch.backends import batch_games  # type: ignore[import-not-found]

        contenders: dict[str, Slice] = {}
        for size in sizes:
            for kind in ("float32", "compact"):
                compact = kind == "compact"
                other = batch_games(bottleimp_beside.Config(players=4), size, backend="numba",
                                    compact=compact)
                ours = BatchGames(bottleimp.Config(players=4), size, compact=compact, threads=1)
                contenders[f"other B={size} {kind}"] = stepping(other, size)
                contenders[f"this  B={size} {kind} 1T"] = stepping(ours, size)
        hearts = hearts_slice()
        if hearts is None:
            raise SystemExit("OpenSpiel is not installed (pip install -e '.[bench]')")
        contenders["hearts"] = hearts
        for play in contenders.values():
            play(0.05)
        slices = max(1, round(args.seconds / 0.5))
        totals = {name: [0.0, 0.0] for name in contenders}
        for _ in range(slices):
            for name, play in contenders.items():
                start = time.perf_counter()
                decisions, _ = play(args.seconds / slices)
                totals[name][0] += decisions
                totals[name][1] += time.perf_counter() - start
    rates = {name: decisions / elapsed for name, (decisions, elapsed) in totals.items()}
    for name, rate in rates.items():
        print(f"  {name:24} {rate:12,.0f}   {rate / rates['hearts']:6.2f} x OpenSpiel Hearts")
    for size in sizes:
        for kind in ("float32", "compact"):
            ratio = rates[f"this  B={size} {kind} 1T"] / rates[f"other B={size} {kind}"]
            print(f"  B={size} {kind}: this (1 thread) / other = {ratio:.2f}")
    print(f"load average after {' '.join(f'{v:.2f}' for v in os.getloadavg())}")


if __name__ == "__main__":
    main()

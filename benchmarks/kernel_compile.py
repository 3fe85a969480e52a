"""How long numba takes to compile the batch kernel on a machine that has not cached it yet.

Each run is a fresh process with an empty ``NUMBA_CACHE_DIR`` (so nothing is loaded from a
cache, neither the worktree's ``__pycache__`` nor numba's user directory): it builds a
``BatchGames`` of 2 players and calls each kernel entry point once, in the order a game
first uses them (``start_games`` through ``reset``, ``masks``, ``observe``, ``random_actions``,
``step``), and prints the CPU seconds each first call took, their sum and the wall-clock time,
then how many specialisations each entry point holds after a call on every configuration of
``check.VARIANTS`` (one each: a run compiles each entry point once). CPU time moves less than
wall-clock time with the load of a shared machine, not by nothing: run it a few times, and
alternate with the version you compare against.

    python benchmarks/kernel_compile.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

ENTRY_POINTS = ("start_games", "masks", "observe", "random_actions", "step")


def measure() -> None:
    """One cold compile, in this process (the parent gave it an empty cache directory)."""
    import numpy as np

    from bottleimp.batch import _kernel as kernel
    from bottleimp.batch.check import VARIANTS
    from bottleimp.batch import BatchGames

    games = BatchGames(VARIANTS[0], 4)
    rng = np.random.default_rng(0)
    calls: dict[str, Callable[[], object]] = {
        "start_games": lambda: games.reset(np.arange(4)),
        "masks": games.legal_mask,
        "observe": games.observe,
        "random_actions": lambda: games.random_actions(rng),
        "step": lambda: games.step(games.random_actions(rng)),
    }
    seconds = {}
    wall = time.perf_counter()
    for name in ENTRY_POINTS:
        start = time.process_time()
        calls[name]()
        seconds[name] = time.process_time() - start
    wall = time.perf_counter() - wall
    for config in VARIANTS[1:]:
        other = BatchGames(config, 4)
        other.reset(np.arange(4))
        other.observe()
        other.step(other.random_actions(rng))
    counts = {name: len(getattr(kernel, name).signatures) for name in ENTRY_POINTS}
    print(f"cold compile: {sum(seconds.values()):.1f} s of CPU, {wall:.1f} s wall-clock; "
          + ", ".join(f"{name} {value:.2f} s" for name, value in seconds.items()))
    print("specialisations after every variant: "
          + ", ".join(f"{name} {count}" for name, count in counts.items()))


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="fresh processes, one after another")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        measure()
        return
    print("load average: " + " ".join(f"{load:.2f}" for load in os.getloadavg()))
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            env = dict(os.environ, NUMBA_CACHE_DIR=cache)
            subprocess.run([sys.executable, __file__, "--child"], env=env, check=True)


if __name__ == "__main__":
    main()

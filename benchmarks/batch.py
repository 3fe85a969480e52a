"""The batch engine's decisions per second at B = 1, 64, 1024 and 8192 games, beside OpenSpiel's
Hearts and the pure engine in the same run, and its memory per game.

Every batch decision includes what a learning program needs: the legal-action mask and the
observation of the seat to act (``BatchGames.legal_mask`` and ``observe``, the default float32
array in ``encoding.observation``'s layout, every row rewritten on every step; on numba but
for the cells zero in every observation, ``fast.never_written``), a uniformly random
legal action per game (``random_actions``: from the mask on numpy, from the legal sets the
compiled mask pass writes beside it on numba), and the step (with auto-reset). Hearts and the pure engine are measured as in
``benchmarks/playouts.py`` (random legal playouts, no observations). The contenders run in
interleaved slices, so a load that comes and goes on a shared machine slows them alike: compare
the ratios, which hold better than the figures.

    python benchmarks/batch.py [--seconds S] [--players P] [--sizes 1,64,1024,8192] [--breakdown]

``--breakdown`` also prints where the time of a batch step goes at B = 1024: the mask, the
observation, the random choice and the step.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from playouts import bottleimp_slice, hearts_slice  # noqa: E402

import bottleimp  # noqa: E402
from bottleimp.batch import BatchGames  # noqa: E402
from bottleimp.batch.backends import BACKENDS, backend_missing, batch_games  # noqa: E402

Slice = Callable[[float], tuple[int, int]]


def batch_slice(config: bottleimp.Config, size: int, backend: str) -> tuple[Slice, BatchGames]:
    """Random legal games, ``size`` at a time, masks and observations included."""
    games = batch_games(config, size, backend=backend)
    games.reset(np.arange(size))
    rng = np.random.default_rng(1)

    def play(seconds: float) -> tuple[int, int]:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            games.legal_mask()
            games.observe()
            games.step(games.random_actions(rng))
            decisions += size
        return decisions, 0

    return play, games


def breakdown(config: bottleimp.Config, size: int, backend: str,
              steps: int = 300) -> dict[str, float]:
    """Seconds per batch step spent in the mask, the observation, the choice and the step."""
    games = batch_games(config, size, backend=backend)
    games.reset(np.arange(size))
    rng = np.random.default_rng(1)
    spent = dict.fromkeys(("mask", "observation", "random choice", "step"), 0.0)
    for index in range(steps + 50):
        moments = [time.perf_counter()]
        games.legal_mask()
        moments.append(time.perf_counter())
        games.observe()
        moments.append(time.perf_counter())
        actions = games.random_actions(rng)
        moments.append(time.perf_counter())
        games.step(actions)
        moments.append(time.perf_counter())
        if index >= 50:  # after a warm-up
            for name, start, end in zip(spent, moments, moments[1:]):
                spent[name] += end - start
    return {name: seconds / steps for name, seconds in spent.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per contender")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sizes", default="1,64,1024,8192", help="batch sizes, comma-separated")
    parser.add_argument("--breakdown", action="store_true", help="where a B = 1024 step's time goes")
    parser.add_argument("--backends", default=",".join(BACKENDS),
                        help=f"batch backends, comma-separated (of {', '.join(BACKENDS)})")
    args = parser.parse_args()
    config = bottleimp.Config(players=args.players)
    sizes = [int(size) for size in args.sizes.split(",")]
    backends = []
    for backend in args.backends.split(","):
        missing = backend_missing(backend)
        if missing:
            print(f"batch backend {backend}: not measured ({missing})")
        else:
            backends.append(backend)
    contenders: dict[str, Slice] = {"pure": bottleimp_slice(args.players)}
    batches: dict[str, BatchGames] = {}
    for backend in backends:
        compile_start = time.perf_counter()
        for size in sizes:
            name = f"{backend} B={size}"
            contenders[name], batches[name] = batch_slice(config, size, backend)
        print(f"batch backend {backend}: ready in {time.perf_counter() - compile_start:.1f} s "
              "(the first use on a machine compiles numba's kernel, later ones load its cache)")
    hearts = hearts_slice()
    if hearts is not None:
        contenders["hearts"] = hearts
    totals = {name: [0.0, 0.0] for name in contenders}
    for play in contenders.values():  # warm up
        play(0.05)
    slices = max(1, round(args.seconds / 0.5))
    for _ in range(slices):
        for name, play in contenders.items():
            start = time.perf_counter()
            decisions, _ = play(args.seconds / slices)
            totals[name][0] += decisions
            totals[name][1] += time.perf_counter() - start
    rates = {name: decisions / elapsed for name, (decisions, elapsed) in totals.items()}
    base = rates.get("hearts")
    print(f"{args.players} players, {config.edition}; decisions per second "
          f"(one process, interleaved slices of {args.seconds / slices:.2f} s)")
    for name, rate in rates.items():
        line = f"  {name:16} {rate:12,.0f}"
        if base is not None:
            line += f"   {rate / base:6.2f} x OpenSpiel Hearts"
        if name in batches:
            games = batches[name]
            line += f"   {games.nbytes() / games.size:8,.0f} bytes/game"
        print(line)
    if base is None:
        print("OpenSpiel Hearts: not measured (pip install -e '.[bench]' to compare)")
    if args.breakdown:
        for backend in backends:
            parts = breakdown(config, 1024, backend)
            whole = sum(parts.values())
            print(f"one step of {backend} B=1024: {whole * 1e3:.2f} ms; " + ", ".join(
                f"{name} {seconds / whole:.0%}" for name, seconds in parts.items()))


if __name__ == "__main__":
    main()

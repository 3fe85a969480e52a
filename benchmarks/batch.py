"""The batch engine's decisions per second at B = 1, 64, 1024 and 8192 games, beside OpenSpiel's
Hearts and the pure engine in the same run, its memory per game, and (``--instructions``) the
instructions per decision counted by valgrind, which no load moves.

Every batch decision includes what a learning program needs: the legal-action mask, a
uniformly random legal action per game (``random_actions``: from the mask on numpy, from the
legal sets the compiled mask pass writes beside it on numba), the step (with auto-reset) and
the observation of the seat to act that ``step`` returns (the float32 array in
``encoding.observation``'s layout, every row rewritten on every step; on numba but for the
cells zero in every observation, ``fast.never_written``; ``compact``: the ``uint8``
observation of the same layout, ``BatchGames(compact=True)``). Hearts and the pure engine are
measured as in ``benchmarks/playouts.py`` (random legal playouts, no observations). The
contenders run in interleaved slices, so a load that comes and goes on a shared machine slows
them alike: compare the ratios, which hold better than the figures, and the instruction
counts, which hold whatever the load.

    python benchmarks/batch.py [--seconds S] [--players P] [--sizes 1,64,1024,8192]
                               [--backends numpy,numba] [--breakdown] [--instructions]
                               [--against PATH]

Memory is ``BatchGames.nbytes()`` per game: every array a batch owns (the state, the mask,
observation and result buffers, the backend's scratch, the bank of shuffled deals).
``--breakdown`` also prints where the time of a batch step goes at B = 1024: the mask, the
random choice, and the step with its observation. ``--instructions`` counts, under
``valgrind --tool=callgrind``, the instructions per decision of each backend at B = 1024
(float32 and compact) and of OpenSpiel's Hearts (``benchmarks/instructions.py``'s method: two
runs of different lengths, the difference divided by the difference of decisions), and
``--against PATH`` counts the same for the float32 path of another checkout of bottleimp (its
own API), numba's cache for it kept in a temporary directory.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from instructions import HEARTS, per_decision  # noqa: E402
from playouts import bottleimp_slice, hearts_slice  # noqa: E402

import bottleimp  # noqa: E402
from bottleimp.batch import BatchGames  # noqa: E402
from bottleimp.batch.backends import BACKENDS, backend_missing, batch_games  # noqa: E402

Slice = Callable[[float], tuple[int, int]]


def batch_slice(config: bottleimp.Config, size: int, backend: str,
                compact: bool = False) -> tuple[Slice, BatchGames]:
    """Random legal games, ``size`` at a time, masks and observations included."""
    games = batch_games(config, size, backend=backend, compact=compact)
    games.reset(np.arange(size))
    rng = np.random.default_rng(1)

    def play(seconds: float) -> tuple[int, int]:
        decisions = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            games.step(games.random_actions(rng))  # the mask, the choice, the step, the observation
            decisions += size
        return decisions, 0

    return play, games


def breakdown(config: bottleimp.Config, size: int, backend: str,
              steps: int = 300) -> dict[str, float]:
    """Seconds per batch step spent in the mask, the choice and the step (its observation
    included)."""
    games = batch_games(config, size, backend=backend)
    games.reset(np.arange(size))
    rng = np.random.default_rng(1)
    spent = dict.fromkeys(("mask", "random choice", "step and observation"), 0.0)
    for index in range(steps + 50):
        moments = [time.perf_counter()]
        games.legal_mask()
        moments.append(time.perf_counter())
        actions = games.random_actions(rng)
        moments.append(time.perf_counter())
        games.step(actions)
        moments.append(time.perf_counter())
        if index >= 50:  # after a warm-up
            for name, start, end in zip(spent, moments, moments[1:]):
                spent[name] += end - start
    return {name: seconds / steps for name, seconds in spent.items()}


COUNTED = """\
import sys
import numpy as np
import bottleimp
from bottleimp.batch.backends import batch_games
config = bottleimp.Config(players=int(sys.argv[1]))
options = {{"compact": True}} if {compact} else {{}}
games = batch_games(config, {size}, backend="{backend}", **options)
games.reset(np.arange({size}))
rng = np.random.default_rng(1)
returns_observation = hasattr(games, "observe_values")  # the API whose step observes
decisions = 0
for step in range(20 + int(sys.argv[2])):
    if returns_observation:
        games.step(games.random_actions(rng))
    else:  # an older checkout: the same work, called apart
        games.legal_mask()
        games.observe()
        games.step(games.random_actions(rng))
    if step >= 20:
        decisions += {size}
print(decisions)
"""
"""The batch loop of ``batch_slice`` as a program for ``instructions.count`` (20 steps first:
numba loads its cache and the first deals are shuffled, in both runs alike)."""


def instructions_per_decision(players: int, backend: str, size: int, compact: bool,
                              path: str, cache: str) -> float:
    """Instructions per decision of the batch loop under callgrind (checkout ``path``, numba's
    cache in ``cache``)."""
    program = COUNTED.format(backend=backend, size=size, compact=compact)
    steps = (10, 60) if backend == "numba" else (4, 24)
    return per_decision(program, players, steps, path, counting_env(cache))


def counting_env(cache: str) -> dict[str, str]:
    """The environment of a counted run and of the run that warms its cache: numba's cache in
    ``cache``, compiled for a named CPU (``NUMBA_CPU_NAME``). Numba keys its cache by the CPU it
    compiles for (its name and features), and under valgrind the CPU it detects is valgrind's,
    not the host's: without both named, the shorter counted run would compile the kernel again
    under valgrind (and count it), the longer one load it. ``haswell`` (AVX2) is a CPU
    valgrind runs. One BLAS thread (``OPENBLAS_NUM_THREADS``, ``OMP_NUM_THREADS``): numpy's
    OpenBLAS starts worker threads that spin while they wait, and callgrind counts their
    spinning, more in one run than in another (hundreds of instructions per decision either
    way); and one hash seed, so the two runs do the same work."""
    return {"NUMBA_CACHE_DIR": cache, "NUMBA_CPU_NAME": "haswell",
            "NUMBA_CPU_FEATURES": "+avx2,+avx,+fma,+bmi,+bmi2,+popcnt,+sse4.2,+lzcnt",
            "PYTHONDONTWRITEBYTECODE": "1", "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1",
            "PYTHONHASHSEED": "0"}


def warm_cache(players: int, backend: str, path: str, cache: str, compact: bool) -> None:
    """Run the batch loop once natively so numba's cache for ``path`` is written (in
    ``cache``) before valgrind runs it (the float32 path, and with ``compact`` the compact one):
    a compile under valgrind takes many minutes, and counted in the shorter run only it makes
    the difference of the two runs negative. The run starts in ``cache``, as the counted runs
    start in a directory of their own: ``python -c`` puts its working directory first on
    ``sys.path``, so started in a checkout it would import that checkout's bottleimp, not
    ``path``'s. It plays its games to their ends, so what a game's end calls is compiled too."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(counting_env(cache), PYTHONPATH=path)
    found = subprocess.run([sys.executable, "-c", "import bottleimp; print(bottleimp.__file__)"],
                           env=env, cwd=cache, check=True, capture_output=True, text=True)
    imported = Path(found.stdout.strip()).resolve()
    if not imported.is_relative_to(Path(path).resolve()):
        raise SystemExit(f"the counted runs of {path} would import {imported}")
    for compact_run in (False, True) if compact else (False,):
        program = COUNTED.format(backend=backend, size=8, compact=compact_run)
        # Past the end of the first games, so what only an ended game calls is compiled too.
        subprocess.run([sys.executable, "-c", program, str(players), "1000"], env=env,
                       cwd=cache, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per contender")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sizes", default="1,64,1024,8192", help="batch sizes, comma-separated")
    parser.add_argument("--breakdown", action="store_true", help="where a B = 1024 step's time goes")
    parser.add_argument("--backends", default=",".join(BACKENDS),
                        help=f"batch backends, comma-separated (of {', '.join(BACKENDS)})")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per decision at B = 1024 under valgrind")
    parser.add_argument("--against", metavar="PATH",
                        help="with --instructions, also count another checkout's float32 path")
    args = parser.parse_args()
    config = bottleimp.Config(players=args.players)
    sizes = [int(size) for size in args.sizes.split(",")]
    compact_sizes = {size for size in sizes if size >= 1024}
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
            if size in compact_sizes:
                name = f"{backend} B={size} compact"
                contenders[name], batches[name] = batch_slice(config, size, backend, True)
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
        line = f"  {name:24} {rate:12,.0f}"
        if base is not None:
            line += f"   {rate / base:6.2f} x OpenSpiel Hearts"
        if name in batches:
            games = batches[name]
            line += f"   {games.nbytes() / games.size:8,.0f} bytes/game"
        print(line)
    if base is None:
        print("OpenSpiel Hearts: not measured (pip install -e '.[bench]' to compare)")
    if args.instructions:
        count_instructions(args.players, backends, args.against)
    if args.breakdown:
        for backend in backends:
            parts = breakdown(config, 1024, backend)
            whole = sum(parts.values())
            print(f"one step of {backend} B=1024: {whole * 1e3:.2f} ms; " + ", ".join(
                f"{name} {seconds / whole:.0%}" for name, seconds in parts.items()))


def count_instructions(players: int, backends: list[str], against: str | None) -> None:
    """Print the instructions per decision of each backend at B = 1024 (float32, compact),
    of ``against``'s float32 path and of OpenSpiel's Hearts, and the ratios of the counts."""
    if shutil.which("valgrind") is None:
        print("instructions: not counted (valgrind is not installed)")
        return
    root = str(Path(__file__).resolve().parent.parent)
    checkouts = [("this checkout", root)] + ([(f"{against}", against)] if against else [])
    counts: dict[str, float] = {}
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        hearts = None
    else:
        hearts = per_decision(HEARTS, 4, (5, 25), None)
        print(f"  {'OpenSpiel Hearts':36} {hearts:9,.0f} instructions per decision", flush=True)
    for label, path in checkouts:
        with tempfile.TemporaryDirectory() as cache:
            for backend in backends:
                warm_cache(players, backend, path, cache, compact=path == root)
                for compact in ((False, True) if path == root else (False,)):
                    name = f"{backend} B=1024{' compact' if compact else ''} ({label})"
                    figure = instructions_per_decision(players, backend, 1024, compact, path,
                                                       cache)
                    counts[name] = figure
                    if figure <= 0:  # the shorter run counted more: something compiled in it
                        print(f"  {name:36} not measured: the shorter run executed more "
                              "instructions than the longer one", flush=True)
                        continue
                    line = f"  {name:36} {figure:9,.0f} instructions per decision"
                    if hearts is not None:
                        line += f"   Hearts / this: {hearts / figure:6.2f}"
                    print(line, flush=True)
    for backend in backends if against else ():
        ours = counts[f"{backend} B=1024 (this checkout)"]
        theirs = counts[f"{backend} B=1024 ({against})"]
        print(f"  {backend} float32 path: this checkout / {against} = {ours / theirs:.3f} "
              "(instructions per decision)")


if __name__ == "__main__":
    main()

"""The batch engine's decisions per second beside OpenSpiel's Hearts, in one run: float32 and
compact observations, B = 1024 and 8192, on one core and on every core; callgrind's
instructions per decision beside the ratios; the bytes a decision writes and the rate the
machine's memory bandwidth allows for that many bytes.

Every batch decision includes what a learning program needs: the legal-action mask, a
uniformly random legal action per game (``random_actions``, from the legal sets the kernel
writes beside the mask), the step (with auto-reset) and the observation of the seat to act
that ``step`` returns (the float32 array in ``encoding.observation``'s layout; ``compact``: the
``uint8`` observation of the same layout). Hearts and the pure engine are measured as in
``benchmarks/playouts.py`` (random legal playouts, no observations). The contenders run in
interleaved slices, so a load that comes and goes on a shared machine slows them alike, and each
rate is the median of its slices' rates (a slice the hypervisor paused does not drag it down; the
slowest and fastest slice are printed beside it): compare the ratios, which hold better than the
figures, and the instruction counts, which hold whatever the load. The machine's load average is
printed before and after, the share of CPU time the hypervisor took (steal) during the slices,
and how much faster every thread runs a loop without memory traffic than one thread does: the
most any thread ratio could be on the machine at that moment.

    python benchmarks/batch.py [--seconds S] [--players P] [--sizes 1024,8192]
                               [--threads 1,N] [--instructions] [--against PATH]

Memory is ``BatchGames.nbytes()`` per game. The bytes written per decision are those of the
buffers a step rewrites for every game (``engine.array_specs``: the observation row, the mask
row, the legal set, the rewards, the actors and observers, the uniforms and the actions handed
out); the state's own writes (a few cells) are left out, so the figure is a floor. The
bandwidth is that of a parallel fill of 512 MiB (numba, on 1 thread and on every thread), and
the bound is bandwidth / bytes per decision: the rate no batch could pass writing that much.
``--instructions`` counts, under ``valgrind --tool=callgrind``, the instructions per decision at
B = 1024 on one thread (float32 and compact) and of OpenSpiel's Hearts
(``benchmarks/instructions.py``'s method: two runs of different lengths, the difference divided
by the difference of decisions), and ``--against PATH`` counts the same for another checkout of
bottleimp (its own API), numba's cache for it kept in a temporary directory. The serial part of
a step, which more threads do not share, is timed (callgrind sees no names in numba's compiled
code): per size and observation, on one thread, the time outside the kernel's two calls a
decision, and the bound it puts on N threads over one.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from instructions import HEARTS, per_decision  # noqa: E402
from playouts import bottleimp_slice, hearts_slice  # noqa: E402

import bottleimp  # noqa: E402
from bottleimp.batch import BatchGames  # noqa: E402
from bottleimp.batch._engine import array_specs  # noqa: E402

Slice = Callable[[float], tuple[int, int]]


def batch_slice(config: bottleimp.Config, size: int, threads: int,
                compact: bool = False) -> tuple[Slice, BatchGames]:
    """Random legal games, ``size`` at a time on ``threads`` cores, masks and observations
    included."""
    games = BatchGames(config, size, compact=compact, threads=threads)
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


def time_outside_kernel(config: bottleimp.Config, size: int, compact: bool,
                        steps: int = 3000) -> tuple[float, float]:
    """(seconds a decision, of them outside the kernel's calls) of the batch loop on one
    thread: the kernel's two calls of a decision (``random_actions`` and ``step``, whose chunks
    more threads share) timed apart from the rest (the Python calls, numpy's uniforms, the
    infos and new deals of ended games), over ``steps`` steps past 300. Callgrind cannot split
    the count so: it sees no names in numba's compiled code."""
    from bottleimp.batch import _engine
    from bottleimp.batch import _kernel as kernel

    games = BatchGames(config, size, compact=compact, threads=1)
    games.reset(np.arange(size))
    rng = np.random.default_rng(1)
    inside = [0.0]

    class Timed:  # the kernel as the batch calls it, its two per-decision entries timed
        def __getattr__(self, name: str) -> object:
            return getattr(kernel, name)

        def step(self, *arguments: Any) -> int:
            start = time.perf_counter()
            outcome: int = kernel.step(*arguments)
            inside[0] += time.perf_counter() - start
            return outcome

        def random_actions(self, *arguments: Any) -> None:
            start = time.perf_counter()
            kernel.random_actions(*arguments)
            inside[0] += time.perf_counter() - start

    for _ in range(300):
        games.step(games.random_actions(rng))
    setattr(_engine, "kernel", Timed())
    try:
        start = time.perf_counter()
        for _ in range(steps):
            games.step(games.random_actions(rng))
        total = time.perf_counter() - start
    finally:
        setattr(_engine, "kernel", kernel)
    return total / (steps * size), (total - inside[0]) / (steps * size)


REWRITTEN = ("obs_out", "mask_buffer", "legal_bases", "legal_bits", "legal_counts", "rewards",
             "done", "actors", "observers", "uniforms", "choices")
"""The per-game buffers a decision rewrites whole (``engine.array_specs``' names)."""


def bytes_written(config: bottleimp.Config, compact: bool) -> int:
    """The bytes one decision writes to the per-game buffers (``REWRITTEN``; the actions handed
    out by ``random_actions`` are a copy of ``choices``, counted twice)."""
    sizes = {spec.name: math.prod(spec.shape) * np.dtype(spec.dtype).itemsize
             for spec in array_specs(config, True, compact)}
    return sum(sizes[name] for name in REWRITTEN) + sizes["choices"]


@numba.njit(parallel=True, cache=True)
def _fill(out: np.ndarray, value: np.uint8) -> None:
    chunk = 1 << 16
    for start in numba.prange((len(out) + chunk - 1) // chunk):
        out[start * chunk:min(len(out), (start + 1) * chunk)] = value


def bandwidth(threads: int, megabytes: int = 512, runs: int = 5) -> float:
    """Bytes per second written by a parallel fill on ``threads`` threads (the best of
    ``runs``)."""
    numba.set_num_threads(threads)
    out = np.zeros(megabytes << 20, dtype=np.uint8)
    _fill(out, np.uint8(1))
    best = math.inf
    for run in range(runs):
        start = time.perf_counter()
        _fill(out, np.uint8(run))
        best = min(best, time.perf_counter() - start)
    return out.nbytes / best


def cpu_times() -> list[int] | None:
    """The machine's CPU time counters since boot (``/proc/stat``'s ``cpu`` line: user, nice,
    system, idle, iowait, irq, softirq, steal, ...), or None where there is no ``/proc``."""
    try:
        with open("/proc/stat") as stat:
            return [int(field) for field in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None


def steal_share(before: list[int] | None, after: list[int] | None) -> str:
    """The share of the machine's CPU time the hypervisor gave to others between two
    ``cpu_times`` (steal: a vCPU ready to run and not run), as a percentage."""
    if before is None or after is None or len(before) < 8 or len(after) < 8:
        return "an unknown share"
    spent = [late - early for early, late in zip(before, after)]
    total = sum(spent[:8])  # guest time is counted inside user and nice already
    return f"{100 * spent[7] / total:.1f} %" if total > 0 else "an unknown share"


@numba.njit(parallel=True, cache=True)
def _spin(lanes: int, rounds: int) -> np.ndarray:
    out = np.zeros(lanes, dtype=np.uint64)
    for lane in numba.prange(lanes):
        x = np.uint64(lane + 1)
        for _ in range(rounds):  # xorshift: registers only, no memory traffic
            x ^= x << np.uint64(13)
            x ^= x >> np.uint64(7)
            x ^= x << np.uint64(17)
        out[lane] = x
    return out


def compute_scaling(threads: int, rounds: int = 50_000_000, runs: int = 3) -> float:
    """How much faster ``threads`` threads run a loop that touches no memory than one thread
    runs it (``threads`` equal lanes, the best of ``runs`` each): about ``threads`` on real
    cores, less where the hypervisor places vCPUs on one core's hyperthreads or takes them."""
    best = {}
    for count in (1, threads):
        numba.set_num_threads(count)
        _spin(threads, 10)
        elapsed = math.inf
        for _ in range(runs):
            start = time.perf_counter()
            _spin(threads, rounds)
            elapsed = min(elapsed, time.perf_counter() - start)
        best[count] = elapsed
    return best[1] / best[threads]


COUNTED = """\
import sys
import numpy as np
import bottleimp
config = bottleimp.Config(players=int(sys.argv[1]))
options = {{"compact": True}} if {compact} else {{}}
try:  # a checkout of two backends
    from bottleimp.batch.backends import batch_games
    games = batch_games(config, {size}, backend="numba", **options)
except ImportError:
    from bottleimp.batch import BatchGames
    games = BatchGames(config, {size}, threads=1, **options)
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


def instructions_per_decision(players: int, size: int, compact: bool, path: str,
                              cache: str) -> float:
    """Instructions per decision of the batch loop under callgrind (checkout ``path``, numba's
    cache in ``cache``), on one thread: two runs of different lengths, the difference divided by
    the difference of decisions."""
    program = COUNTED.format(size=size, compact=compact)
    few, many = (counted_run(program, players, steps, path, counting_env(cache))
                 for steps in (10, 60))
    return (many[0] - few[0]) / (many[1] - few[1])


def counted_run(program: str, players: int, steps: int, path: str,
                extra_env: dict[str, str]) -> tuple[int, int]:
    """(instructions, decisions) of one run of ``program`` under callgrind."""
    with tempfile.TemporaryDirectory() as temp:
        out = Path(temp) / "callgrind.out"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(extra_env, PYTHONPATH=path)
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, "-c", program, str(players), str(steps)],
            env=env, cwd=temp, capture_output=True, text=True, check=True)
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        assert totals is not None, "callgrind wrote no total"
        return int(totals.group(1)), int(done.stdout.split()[-1])


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
            "PYTHONHASHSEED": "0", "NUMBA_NUM_THREADS": "1"}


def warm_cache(players: int, path: str, cache: str, compact: bool) -> None:
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
        program = COUNTED.format(size=8, compact=compact_run)
        # Past the end of the first games, so what only an ended game calls is compiled too.
        subprocess.run([sys.executable, "-c", program, str(players), "1000"], env=env,
                       cwd=cache, check=True, capture_output=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per contender")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sizes", default="1024,8192", help="batch sizes, comma-separated")
    every = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    parser.add_argument("--threads", default=f"1,{every}",
                        help="thread counts, comma-separated (default: 1 and every core)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per decision at B = 1024 under valgrind")
    parser.add_argument("--against", metavar="PATH",
                        help="with --instructions, also count another checkout's float32 path")
    args = parser.parse_args()
    config = bottleimp.Config(players=args.players)
    sizes = [int(size) for size in args.sizes.split(",")]
    thread_counts = sorted({int(count) for count in args.threads.split(",")})
    print(f"machine: {os.cpu_count()} cores, numba threads {every}; load average before "
          f"{' '.join(f'{value:.2f}' for value in os.getloadavg())}", flush=True)
    counts = count_instructions(args.players, args.against) if args.instructions else {}
    contenders: dict[str, Slice] = {"pure": bottleimp_slice(args.players)}
    batches: dict[str, tuple[BatchGames, int]] = {}
    compile_start = time.perf_counter()
    for size in sizes:
        for compact in (False, True):
            for threads in thread_counts:
                name = f"B={size} {'compact' if compact else 'float32'} {threads}T"
                play, games = batch_slice(config, size, threads, compact)
                contenders[name], batches[name] = play, (games, threads)
    print(f"batches ready in {time.perf_counter() - compile_start:.1f} s (the first use on a "
          "machine compiles numba's kernel, later ones load its cache)", flush=True)
    hearts = hearts_slice()
    if hearts is not None:
        contenders["hearts"] = hearts
    slice_rates: dict[str, list[float]] = {name: [] for name in contenders}
    for play in contenders.values():  # warm up
        play(0.05)
    slices = max(1, round(args.seconds / 0.5))
    cpu_before = cpu_times()
    for _ in range(slices):
        for name, play in contenders.items():
            start = time.perf_counter()
            decisions, _ = play(args.seconds / slices)
            slice_rates[name].append(decisions / (time.perf_counter() - start))
    stolen = steal_share(cpu_before, cpu_times())
    rates = {name: statistics.median(figures) for name, figures in slice_rates.items()}
    base = rates.get("hearts")
    print(f"{args.players} players, {config.edition}; decisions per second, the median of "
          f"{slices} interleaved slices of {args.seconds / slices:.2f} s (one process); "
          "the slowest and fastest slice / the median in brackets")
    for name, rate in rates.items():
        spread = f"({min(slice_rates[name]) / rate:.2f}-{max(slice_rates[name]) / rate:.2f})"
        line = f"  {name:24} {rate:12,.0f} {spread:11}"
        if base is not None:
            line += f"   {rate / base:6.2f} x OpenSpiel Hearts"
        if name in batches:
            games = batches[name][0]
            line += f"   {games.nbytes() / games.size:7,.0f} bytes/game"
            counted = counts.get(name.replace(f" {batches[name][1]}T", ""))
            if batches[name][1] == 1 and counted:
                line += f"   {counted:7,.0f} instructions/decision"
        elif name == "hearts" and counts.get("hearts"):
            line += f"   {counts['hearts']:7,.0f} instructions/decision"
        print(line)
    if base is None:
        print("OpenSpiel Hearts: not measured (pip install -e '.[bench]' to compare)")
    if len(thread_counts) > 1:
        most = thread_counts[-1]
        for size in sizes:
            for kind in ("float32", "compact"):
                one, all_ = rates[f"B={size} {kind} 1T"], rates[f"B={size} {kind} {most}T"]
                print(f"  B={size} {kind}: {most} threads / 1 thread = {all_ / one:.2f}")
        for size in sizes:
            for compact in (False, True):
                per, outside = time_outside_kernel(config, size, compact)
                share = outside / per
                print(f"  B={size} {'compact' if compact else 'float32'} 1T: "
                      f"{per * size * 1e6:,.1f} us a step, {outside * size * 1e6:,.1f} us of "
                      f"it outside the kernel's calls ({share:.1%}): {most} threads at most "
                      f"{1 / (share + (1 - share) / most):.2f} times one")
    if len(sizes) > 1:
        for kind in ("float32", "compact"):
            for threads in thread_counts:
                small = rates[f"B={sizes[0]} {kind} {threads}T"]
                large = rates[f"B={sizes[-1]} {kind} {threads}T"]
                print(f"  {kind} {threads}T: B={sizes[-1]} / B={sizes[0]} = {large / small:.2f}")
    print(f"  the hypervisor took {stolen} of the machine's CPU time during the slices (steal)")
    if len(thread_counts) > 1:
        most = thread_counts[-1]
        print(f"  a compute loop without memory traffic: {most} threads / 1 thread = "
              f"{compute_scaling(most):.2f} (the most the machine's cores give now)")
    fills = {threads: bandwidth(threads) for threads in thread_counts}
    for compact in (False, True):
        written = bytes_written(config, compact)
        kind = "compact" if compact else "float32"
        bounds = ", ".join(f"{threads}T {fill / 1e9:.1f} GB/s -> {fill / written:,.0f} decisions/s"
                           for threads, fill in fills.items())
        print(f"  {kind}: {written} bytes written per decision; bandwidth bound: {bounds}")
    print(f"load average after {' '.join(f'{value:.2f}' for value in os.getloadavg())}")


def count_instructions(players: int, against: str | None) -> dict[str, float]:
    """Print and return the instructions per decision at B = 1024 on one thread (float32,
    compact), of ``against``'s float32 path and of OpenSpiel's Hearts."""
    if shutil.which("valgrind") is None:
        print("instructions: not counted (valgrind is not installed)")
        return {}
    root = str(Path(__file__).resolve().parent.parent)
    checkouts = [("this checkout", root)] + ([(f"{against}", against)] if against else [])
    counts: dict[str, float] = {}
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        pass
    else:
        counts["hearts"] = per_decision(HEARTS, 4, (5, 25), None)
        print(f"  {'OpenSpiel Hearts':36} {counts['hearts']:9,.0f} instructions per decision",
              flush=True)
    for label, path in checkouts:
        with tempfile.TemporaryDirectory() as cache:
            warm_cache(players, path, cache, compact=path == root)
            for compact in ((False, True) if path == root else (False,)):
                kind = "compact" if compact else "float32"
                figure = instructions_per_decision(players, 1024, compact, path, cache)
                if path == root:
                    counts[f"B=1024 {kind}"] = figure
                name = f"B=1024 {kind} 1T ({label})"
                if figure <= 0:  # the shorter run counted more: something compiled in it
                    print(f"  {name:36} not measured: the shorter run executed more "
                          "instructions than the longer one", flush=True)
                    continue
                line = f"  {name:36} {figure:9,.0f} instructions per decision"
                if "hearts" in counts:
                    line += f"   Hearts / this: {counts['hearts'] / figure:6.2f}"
                print(line, flush=True)
    return counts


if __name__ == "__main__":
    main()

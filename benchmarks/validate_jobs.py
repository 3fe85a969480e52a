"""How ``bottleimp validate --jobs N`` scales: wall-clock time for jobs 1 and 2 on the same files.

Writes ``--games`` complete random 4-player records (seeded, every action drawn uniformly from
the legal ones; the records are generated once and written to many files) to a temporary
directory, then runs ``python -m bottleimp validate DIR --jobs N --json`` as a separate process,
output to a file (as ``> reports.jsonl`` would), for each N, alternating the runs
(``--repeat`` times each, the best time kept) so that a load on a shared machine
touches both alike. Prints the times, files per second and the speed-up of each N over 1, and
the CPU seconds of the command with its worker processes: on a machine that other work loads,
N processes cannot have N cores, and the CPU time shows what the parallel run costs in all.

    python benchmarks/validate_jobs.py [--games 3000] [--jobs 1 2] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bottleimp import Config, apply, legal_actions, new_game
from bottleimp.formats._records import record_from_state, record_to_json

DISTINCT = 100
"""Distinct games played; the files repeat them (a file's content does not change the cost)."""


def write_records(directory: Path, games: int, players: int) -> None:
    texts = []
    for seed in range(min(games, DISTINCT)):
        rng = random.Random(seed)
        state = new_game(Config(players=players), seed)
        while not state.is_over:
            state = apply(state, rng.choice(legal_actions(state)))
        texts.append(json.dumps(record_to_json(record_from_state(state))))
    for index in range(games):
        (directory / f"game{index:05}.json").write_text(texts[index % len(texts)], encoding="utf-8")


def _spin(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def ceiling(jobs: int, seconds: float = 1.0) -> float:
    """The wall-clock time of a perfectly parallel loop in ``jobs`` processes (the same total
    work whatever ``jobs``): how much parallelism the machine offers right now."""
    from concurrent.futures import ProcessPoolExecutor

    work = int(12_000_000 * seconds)
    start = time.perf_counter()
    with ProcessPoolExecutor(jobs) as pool:
        list(pool.map(_spin, [work // jobs] * jobs))
    return time.perf_counter() - start


def run_validate(directory: Path, jobs: int, output: Path) -> tuple[float, float]:
    """(wall-clock seconds, CPU seconds of the command and its workers)."""
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    with output.open("w") as sink:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "bottleimp", "validate", str(directory), "--jobs", str(jobs),
             "--json"],
            stdout=sink, env=env,
        )
        elapsed = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"validate --jobs {jobs} exited with {done.returncode}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return elapsed, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=3000, help="record files (default 3000)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--jobs", type=int, nargs="+", default=[1, 2], help="job counts (1 2)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each job count (best kept)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bottleimp-jobs-") as temp:
        directory = Path(temp) / "records"
        directory.mkdir()
        write_records(directory, args.games, args.players)
        best: dict[int, float] = {}
        cpu: dict[int, float] = {}
        spin: dict[int, float] = {}
        for _ in range(args.repeat):
            for jobs in args.jobs:
                spun = ceiling(jobs)
                spin[jobs] = min(spin.get(jobs, spun), spun)
                elapsed, used = run_validate(directory, jobs, Path(temp) / f"reports{jobs}.jsonl")
                if elapsed < best.get(jobs, float("inf")):
                    best[jobs], cpu[jobs] = elapsed, used
        lines = (Path(temp) / f"reports{args.jobs[0]}.jsonl").read_text().splitlines()
        assert len(lines) == args.games, "one report per file"
        for jobs in args.jobs[1:]:
            other = (Path(temp) / f"reports{jobs}.jsonl").read_text().splitlines()
            assert other == lines, f"--jobs {jobs} printed other reports than --jobs {args.jobs[0]}"
    load = os.getloadavg()[0]
    print(f"bottleimp validate on {args.games} complete {args.players}-player records "
          f"({os.cpu_count()} cores, load average {load:.1f}; best of {args.repeat}, whole "
          "command, start-up included):")
    for jobs in args.jobs:
        print(f"  --jobs {jobs}: {best[jobs]:6.2f} s, {args.games / best[jobs]:7,.0f} files/s, "
              f"{best[args.jobs[0]] / best[jobs]:.2f} x --jobs {args.jobs[0]}; "
              f"{cpu[jobs]:6.2f} s of CPU in all its processes")
    print("  a perfectly parallel loop in the same run (the machine's ceiling): "
          + ", ".join(f"{spin[args.jobs[0]] / spin[jobs]:.2f} x with {jobs} processes"
                      for jobs in args.jobs[1:]))
    print("  (with other work on the machine, --jobs N cannot have N cores: the ceiling says how"
          " much parallelism there was, the CPU seconds what the parallel command adds)")


if __name__ == "__main__":
    main()

"""How ``bottleimp validate --jobs N`` scales: wall-clock time for jobs 1 and 2 on the same files.

Writes ``--games`` complete random 4-player records (seeded, every action drawn uniformly from
the legal ones; the records are generated once and written to many files) to a temporary
directory, then runs ``python -m bottleimp validate DIR --jobs N --json`` as a separate process,
output to a file (as ``> reports.jsonl`` would), for each N, alternating the runs
(``--repeat`` times each, the best time kept) so that a load on a shared machine
touches both alike. Prints the times, files per second and the speed-up of each N over 1.

    python benchmarks/validate_jobs.py [--games 3000] [--jobs 1 2] [--repeat 2]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bottleimp import Config, apply, legal_actions, new_game
from bottleimp.formats.records import record_from_state, record_to_json

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


def run_validate(directory: Path, jobs: int, output: Path) -> float:
    env = dict(os.environ)
    root = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [root, env.get("PYTHONPATH")]))
    with output.open("w") as sink:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "bottleimp", "validate", str(directory), "--jobs", str(jobs),
             "--json"],
            stdout=sink, env=env,
        )
        elapsed = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"validate --jobs {jobs} exited with {done.returncode}")
    return elapsed


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
        for _ in range(args.repeat):
            for jobs in args.jobs:
                elapsed = run_validate(directory, jobs, Path(temp) / f"reports{jobs}.jsonl")
                best[jobs] = min(best.get(jobs, elapsed), elapsed)
        lines = (Path(temp) / f"reports{args.jobs[0]}.jsonl").read_text().splitlines()
        assert len(lines) == args.games, "one report per file"
        for jobs in args.jobs[1:]:
            other = (Path(temp) / f"reports{jobs}.jsonl").read_text().splitlines()
            assert other == lines, f"--jobs {jobs} printed other reports than --jobs {args.jobs[0]}"
    print(f"bottleimp validate on {args.games} complete {args.players}-player records "
          f"({os.cpu_count()} cores; best of {args.repeat}, whole command, start-up included):")
    for jobs in args.jobs:
        print(f"  --jobs {jobs}: {best[jobs]:6.2f} s, {args.games / best[jobs]:7,.0f} files/s, "
              f"{best[args.jobs[0]] / best[jobs]:.2f} x --jobs {args.jobs[0]}")


if __name__ == "__main__":
    main()

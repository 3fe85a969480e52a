"""How fast ``bottleimp validate`` judges records: games a second on one core, and how the command
scales from 1 to 2 processes, measured in one run.

The records come from seeded random games (every action drawn uniformly from the legal ones),
written as ``bottleimp-record/1`` files in a temporary folder. Every record is replayed through
the reference engine, as ``validate`` does whatever the number of files.

1. Per core: this process reads and validates the files one by one (``validate_file``) for
   ``--seconds``; the rate is games per second of CPU time, so other work on the machine moves
   it less than the wall-clock rate, which is printed beside it.
2. Scaling: ``python -m bottleimp validate DIR --jobs N --json`` as a separate process, output
   to a file, for N = 1 and 2, alternated ``--repeat`` times (best kept), beside a perfectly
   parallel loop run in the same way (the parallelism the machine offered at that moment).
3. With ``--instructions``, valgrind's count of instructions per validated game (a figure load
   cannot move; several minutes).

The load average is printed before and after: on a shared machine, N processes cannot have N
cores. Figures and the load go in ``benchmarks/RESULTS.md``.

    python benchmarks/validate_bench.py [--games 400] [--players 4] [--seconds 5] [--repeat 2]
        [--instructions]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from instructions import count  # noqa: E402
from validate_jobs import ceiling, run_validate, write_records  # noqa: E402

from bottleimp.validation import validate_file  # noqa: E402

INSTRUCTIONS_PROGRAM = """\
import sys
from pathlib import Path
from bottleimp.validation import validate_file
paths = sorted(Path(sys.argv[3]).glob("*.json"))[:int(sys.argv[2])]
assert all(validate_file(path).valid for path in paths)
print(len(paths))
"""


def per_core(paths: list[Path], seconds: float) -> tuple[int, float, float]:
    """(games validated, CPU seconds, wall-clock seconds) of validating the files one by one
    for at least ``seconds``."""
    validated = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while time.perf_counter() - start < seconds:
        for path in paths:
            report = validate_file(path)
            if not report.valid:
                raise SystemExit(f"{path}: a generated record was judged invalid: {report.errors}")
            validated += 1
    return validated, time.process_time() - start_cpu, time.perf_counter() - start


def instructions_per_game(directory: Path, players: int) -> float:
    """Valgrind's instructions per validated game: the difference of a run on 8 games and one
    on 2, start-up excluded."""
    root = str(Path(__file__).resolve().parent.parent)
    program = INSTRUCTIONS_PROGRAM.replace("sys.argv[3]", repr(str(directory)))
    few, few_games = count(program, players, 2, root)
    many, many_games = count(program, players, 8, root)
    return (many - few) / (many_games - few_games)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=400, help="record files (default 400)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="time of the per-core measure (default 5)")
    parser.add_argument("--repeat", type=int, default=2, help="runs of each job count (best kept)")
    parser.add_argument("--instructions", action="store_true",
                        help="count instructions per game with valgrind too")
    args = parser.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bottleimp-validate-") as temp:
        directory = Path(temp) / "records"
        directory.mkdir()
        write_records(directory, args.games, args.players)
        paths = sorted(directory.glob("*.json"))
        validated, cpu, wall = per_core(paths, args.seconds)
        best: dict[int, float] = {}
        spin: dict[int, float] = {}
        for _ in range(args.repeat):
            for jobs in (1, 2):
                spun = ceiling(jobs)
                spin[jobs] = min(spin.get(jobs, spun), spun)
                elapsed, _ = run_validate(directory, jobs, Path(temp) / f"reports{jobs}.jsonl")
                best[jobs] = min(best.get(jobs, elapsed), elapsed)
        one = (Path(temp) / "reports1.jsonl").read_text().splitlines()
        two = (Path(temp) / "reports2.jsonl").read_text().splitlines()
        assert len(one) == args.games and one == two, "--jobs 2 printed other reports than 1"
        instructions = instructions_per_game(directory, args.players) if args.instructions else None
    load_after = os.getloadavg()
    print(f"machine: {os.cpu_count()} cores; load average (1, 5, 15 min) before "
          f"{', '.join(f'{value:.2f}' for value in load_before)}, after "
          f"{', '.join(f'{value:.2f}' for value in load_after)}")
    print(f"per core: {validated / cpu:,.0f} complete {args.players}-player games validated per "
          f"second of CPU ({validated} games in {cpu:.2f} s of CPU, {validated / wall:,.0f} per "
          "second of wall-clock time), every record replayed through the engine")
    print(f"bottleimp validate on {args.games} records (the whole command, start-up included, "
          f"best of {args.repeat}): --jobs 1 {best[1]:.2f} s ({args.games / best[1]:,.0f} games/s),"
          f" --jobs 2 {best[2]:.2f} s ({args.games / best[2]:,.0f} games/s): "
          f"{best[1] / best[2]:.2f} x from 1 to 2 processes")
    print(f"a perfectly parallel loop in the same run: {spin[1] / spin[2]:.2f} x from 1 to 2 "
          "processes (the parallelism the machine offered)")
    if instructions is not None:
        print(f"valgrind: {instructions:,.0f} instructions per validated game")


if __name__ == "__main__":
    main()

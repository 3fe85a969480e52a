"""How many complete 4-player games (8 rounds) ``bottleimp validate`` checks per second on one core.

The records come from seeded random games (every action drawn uniformly from the legal ones),
written as ``bottleimp-record/1`` files in a temporary folder. The figure covers what the
command does with the files of a chunk: read them and validate their records together
(``validate_files``, which replays them on the batch engine). A second figure, measured in the
same run, reads each file and replays its record through the engine (``validate_json``, the
reference, what ``validate`` does without numpy): the ratio of the two holds from machine to
machine better than either figure does on a shared machine. Run ``uptime`` beside it.

    python benchmarks/validate_bench.py [--games N] [--chunk C] [--seconds S] [--players P]

Profile it with ``python -m cProfile -s cumtime benchmarks/validate_bench.py --seconds 5``.
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from pathlib import Path

from bottleimp import Config, apply, legal_actions, new_game
from bottleimp.formats.json_input import read_json_file
from bottleimp.formats.records import record_from_state, record_to_json
from bottleimp.validation import validate_files, validate_json


def random_record_texts(players: int, games: int) -> list[str]:
    """JSON texts of ``games`` complete random games, seeded 0..games-1."""
    texts = []
    for seed in range(games):
        rng = random.Random(seed)
        edition = "classic" if players <= 4 else "matagot-2024"
        state = new_game(Config(players=players, edition=edition), seed)
        while not state.is_over:
            state = apply(state, rng.choice(legal_actions(state)))
        texts.append(json.dumps(record_to_json(record_from_state(state))))
    return texts


def measure(paths: list[Path], seconds: float, chunk: int | None) -> tuple[int, float, float]:
    """Validate the files over and over for at least ``seconds``, ``chunk`` at a time together
    (``None``: one by one through the engine replay): (games validated, wall-clock seconds, CPU
    seconds of this process). The CPU figure is the one-core rate even when other work shares
    the machine."""
    validated = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while True:
        step = chunk or 1
        for first in range(0, len(paths), step):
            if chunk is None:
                reports = [validate_json(read_json_file(path)) for path in paths[first:first + 1]]
            else:
                reports = validate_files(paths[first:first + step])
            for report in reports:
                if not report.valid:
                    raise SystemExit(f"a generated record was judged invalid: {report.errors}")
            validated += len(reports)
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return validated, elapsed, time.process_time() - start_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=512, help="distinct games (default 512)")
    parser.add_argument("--chunk", type=int, default=512,
                        help="records validated together (default 512, as bottleimp validate)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time to measure (default 3)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    args = parser.parse_args()
    texts = random_record_texts(args.players, args.games)
    rounds = len(json.loads(texts[0])["rounds"])
    folder = tempfile.TemporaryDirectory()
    paths = [Path(folder.name) / f"game{number}.json" for number in range(len(texts))]
    for path, text in zip(paths, texts):
        path.write_text(text, encoding="utf-8")
    measure(paths[:args.chunk], 0.0, args.chunk)  # numpy's first calls, outside the figure
    rates = {}
    for chunk in (args.chunk, None):
        validated, elapsed, cpu = measure(paths, args.seconds if chunk else args.seconds / 3, chunk)
        rates[chunk] = validated / cpu
        how = (f"{chunk} records at a time on the batch engine, as bottleimp validate does"
               if chunk else "every record replayed through the engine (the reference)")
        print(
            f"{validated / cpu:,.0f} complete {args.players}-player games ({rounds} rounds) "
            f"validated per second on one core, {how} ({validated} in {cpu:.2f} s of CPU; "
            f"{validated / elapsed:,.0f} per second of wall-clock time)"
        )
    print(f"the batch replay is {rates[args.chunk] / rates[None]:.1f} x the engine replay "
          "(same run)")


if __name__ == "__main__":
    main()

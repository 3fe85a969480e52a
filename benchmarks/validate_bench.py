"""How many complete 4-player games (8 rounds) ``bottleimp validate`` checks per second on one core.

The records come from seeded random games (every action drawn uniformly from the legal ones),
written as ``bottleimp-record/1`` JSON text. The figure covers what the command does per file
after reading it: parse the JSON text and validate it (``loads_json`` + ``validate_json``,
whose fast lane takes every legal record). A second figure, measured in the same run, replays
every record through the engine (``fast=False``): the ratio of the two holds from machine to
machine better than either figure does on a shared machine.

    python benchmarks/validate_bench.py [--games N] [--seconds S] [--players P]

Profile it with ``python -m cProfile -s cumtime benchmarks/validate_bench.py --seconds 5``.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from bottleimp import Config, apply, legal_actions, new_game
from bottleimp.formats.json_input import loads_json
from bottleimp.formats.records import record_from_state, record_to_json
from bottleimp.validation import validate_json


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


def measure(texts: list[str], seconds: float, fast: bool) -> tuple[int, float, float]:
    """Validate the texts over and over for at least ``seconds``: (games validated, wall-clock
    seconds, CPU seconds of this process). The CPU figure is the one-core rate even when other
    work shares the machine."""
    validated = 0
    start, start_cpu = time.perf_counter(), time.process_time()
    while True:
        for text in texts:
            report = validate_json(loads_json(text), fast=fast)
            if not report.valid:
                raise SystemExit(f"a generated record was judged invalid: {report.errors}")
            validated += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return validated, elapsed, time.process_time() - start_cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50, help="distinct games (default 50)")
    parser.add_argument("--seconds", type=float, default=3.0, help="time to measure (default 3)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    args = parser.parse_args()
    texts = random_record_texts(args.players, args.games)
    rounds = len(json.loads(texts[0])["rounds"])
    rates = {}
    for fast in (True, False):
        validated, elapsed, cpu = measure(texts, args.seconds if fast else args.seconds / 3, fast)
        rates[fast] = validated / cpu
        how = "as bottleimp validate does" if fast else "every record replayed through the engine"
        print(
            f"{validated / cpu:,.0f} complete {args.players}-player games ({rounds} rounds) "
            f"validated per second on one core, {how} ({validated} in {cpu:.2f} s of CPU; "
            f"{validated / elapsed:,.0f} per second of wall-clock time)"
        )
    print(f"the fast lane is {rates[True] / rates[False]:.1f} x the engine replay (same run)")


if __name__ == "__main__":
    main()

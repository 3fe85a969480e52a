"""``bottleimp perft``: count legal action sequences, as chess engines do against perft tables.

- ``bottleimp perft --players 3 --seed 7 --depth 3``: the count from a seeded game's first deal
  (or after ``--actions``, a JSON list of actions as in the record/action JSON);
  ``--divide`` prints the count under each first action; without ``--depth``, to the end of
  the round.
- ``bottleimp perft --check FILE_OR_DIR``: recompute every perft case of the conformance data
  (``spec/conformance/perft``) and print ``N passed, N failed``; a failing case prints its
  divide counts, expected and computed, so the wrong branch shows.

Exit status: 0 every count agrees; 1 a count differs; 2 bad options or unreadable input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ..config import Config, default_teams
from ..conformance.perft import divide, perft, read_perft_file, remaining
from ..editions import EDITIONS
from ..engine import apply, new_game
from ..errors import BottleImpError, ConfigError
from ..formats.state_json import action_from_json, action_to_json


def add_parser(subparsers: Any) -> None:
    """Register the ``perft`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "perft",
        help="count legal action sequences from a position (perft), or check the perft data",
        description="Count the legal action sequences from a position to a depth or to the end "
        "of the round, with the count under each first action (--divide); or recompute the "
        "perft cases of the conformance data (--check).",
    )
    parser.add_argument("--check", metavar="PATH",
                        help="recompute every perft case in PATH (a file or a folder of them)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N")
    parser.add_argument("--edition", default=None, choices=EDITIONS)
    parser.add_argument("--bottles", type=int, default=1, choices=(1, 2))
    parser.add_argument("--teams", action="store_true", help="the default team partition")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed (default 7)")
    parser.add_argument("--actions", metavar="JSON",
                        help="a JSON list of actions to take first, e.g. "
                        "'[{\"type\": \"give\", \"seat\": 1, \"to\": \"devils_trick\", \"card\": 3}]'")
    parser.add_argument("--depth", type=int, default=None, metavar="D",
                        help="count sequences of D actions (default: to the end of the round)")
    parser.add_argument("--divide", action="store_true",
                        help="print the count under each first action")
    parser.set_defaults(run=run, parser=parser)


def run(args: argparse.Namespace) -> int:
    """Run ``bottleimp perft``."""
    if args.check:
        return _check(Path(args.check))
    try:
        edition = args.edition or ("matagot-2024" if args.players >= 5 else "classic")
        config = Config(players=args.players, edition=edition, bottles=args.bottles,
                        teams=default_teams(args.players) if args.teams else None)
        state = new_game(config, args.seed)
        for item in json.loads(args.actions) if args.actions else []:
            state = apply(state, action_from_json(item, config))
    except (BottleImpError, ConfigError, json.JSONDecodeError) as error:
        print(f"bottleimp perft: {error}")
        return 2
    depth = remaining(state) if args.depth is None else args.depth
    if depth < 0 or (args.divide and depth < 1):
        print("bottleimp perft: the depth must be at least 1 with --divide, else at least 0")
        return 2
    if args.divide:
        total = 0
        for action, count in divide(state, depth):
            total += count
            print(f"{json.dumps(action_to_json(action))}: {count}")
        print(f"depth {depth}: {total}")
    else:
        print(f"depth {depth}: {perft(state, depth)}")
    return 0


def _check(path: Path) -> int:
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    passed = failed = 0
    try:
        cases = [case for file in files for case in read_perft_file(file)]
    except (BottleImpError, OSError, KeyError, TypeError, ValueError) as error:
        print(f"bottleimp perft: cannot read the perft cases: {error}")
        return 2
    for case in cases:
        wrong = [f"depth {d}: expected {n}, got {perft(case.state, d)}"
                 for d, n in case.depths.items() if perft(case.state, d) != n]
        if case.round is not None and perft(case.state) != case.round:
            wrong.append(f"to the end of the round: expected {case.round}, got {perft(case.state)}")
        if case.divide_depth is not None:
            got = divide(case.state, case.divide_depth)
            if tuple(got) != case.divide:
                wrong.append(f"divide at depth {case.divide_depth} differs:")
                expected = {json.dumps(action_to_json(a)): n for a, n in case.divide}
                for action, count in got:
                    key = json.dumps(action_to_json(action))
                    if expected.pop(key, None) != count:
                        wrong.append(f"  {key}: got {count}")
                wrong += [f"  {key}: expected {n}, not generated" for key, n in expected.items()]
        if wrong:
            failed += 1
            print(f"FAIL {case.where} {case.description}")
            for line in wrong:
                print(f"  {line}")
        else:
            passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0

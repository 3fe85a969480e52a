"""``bottleimp perft``: count legal action sequences, as chess engines do against perft tables.

- ``bottleimp perft --players 3 --seed 7 --depth 3``: the count from a seeded game's first deal
  (or after ``--actions``, a JSON list of actions as in the record/action JSON);
  ``--divide`` prints the count under each first action. Without ``--depth`` the depth is
  ``DEFAULT_DEPTH``, which every configuration counts in a second or so; ``--depth round``
  counts to the end of the round, which from a round's start is far beyond any computer (the
  counts grow about tenfold per action). On a terminal a bar on standard error shows the first
  actions counted (``--check``: the cases checked).
- ``bottleimp perft --check [FILE_OR_DIR]``: recompute every perft case of the conformance data
  (by default the data shipped with the package, the same as ``spec/conformance/perft``) and
  print ``N passed, N failed``; a failing case prints its divide counts, expected and
  computed, so the wrong branch shows.
- ``--json``: one JSON object instead, of format ``bottleimp-perft-report/1``
  (``spec/reports/perft-report.schema.json``), on every exit status: with exit 2 it holds an
  ``error`` saying what is wrong and where.

Exit status: 0 every count agrees; 1 a count differs; 2 bad options or unreadable input.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any, Final

from .._config import Config, default_teams
from ..perft import PerftCase, config_json, divide, perft, read_perft_file, remaining
from ..conformance._vectors import conformance_data
from .._editions import EDITIONS
from .._engine import apply, legal_actions, new_game
from .._errors import BottleImpError, ConfigError, IllegalActionError, RecordError
from ..formats._json_input import JSON, child, expect_list, loads_json
from ..formats._state_json import action_from_json, action_to_json
from .._state import GameState
from ._progress import progress_bar

PERFT_REPORT_FORMAT: Final = "bottleimp-perft-report/1"

DEFAULT_DEPTH: Final = 4
"""The depth counted without ``--depth``: from the first deal of every configuration, under a
second on one core (4 players: 4,536 sequences)."""


def depth_argument(text: str) -> int | None:
    """An argparse type: a whole number, or ``round`` (``None``: to the end of the round); a
    negative depth is refused by the count, with ``--depth`` as its source."""
    if text == "round":
        return None
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected a whole number of 0 or more, or 'round', not {text!r}") from None


def add_parser(subparsers: Any) -> None:
    """Register the ``perft`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "perft",
        help="count legal action sequences from a position (perft), or check the perft data",
        description="Count the legal action sequences from a position to a depth or to the end "
        "of the round, with the count under each first action (--divide); or recompute the "
        "perft cases of the conformance data (--check).",
    )
    parser.add_argument("--check", metavar="PATH", nargs="?", const="",
                        help="recompute every perft case in PATH (a file or a folder of them; "
                        "without PATH, the perft data shipped with the package)")
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N",
                        help="the number of players, 2 to 6 (default 4)")
    parser.add_argument("--edition", default=None, choices=EDITIONS,
                        help="the deck (default: classic for 2-4 players, matagot-2024 for 5-6)")
    parser.add_argument("--bottles", type=int, default=1, choices=(1, 2),
                        help="1, or 2 for the Second Bottle (5-6 players; default 1)")
    parser.add_argument("--teams", action="store_true", help="the default team partition")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed (default 7)")
    parser.add_argument("--actions", metavar="JSON",
                        help="a JSON list of actions to take first, e.g. "
                        "'[{\"type\": \"give\", \"seat\": 1, \"to\": \"devils_trick\", \"card\": 3}]'")
    parser.add_argument("--depth", type=depth_argument, default=DEFAULT_DEPTH, metavar="D",
                        help=f"count sequences of D actions (default {DEFAULT_DEPTH}), or "
                        "'round': to the end of the round (from a round's start, far too "
                        "many to count)")
    parser.add_argument("--divide", action="store_true",
                        help="print the count under each first action")
    parser.add_argument("--json", action="store_true",
                        help=f"print one JSON object ({PERFT_REPORT_FORMAT}) instead of text")
    parser.set_defaults(run=run, parser=parser)


class _Refused(Exception):
    """Bad options or unreadable input (exit 2): what is wrong, in which input, and where."""

    def __init__(self, message: str, source: str, path: str | None = None,
                 rule: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.source = source
        self.path = path
        self.rule = rule


def _report(mode: str, status: int, **fields: JSON) -> dict[str, JSON]:
    return {"format": PERFT_REPORT_FORMAT, "mode": mode, "status": status, **fields}


def _refusal(mode: str, refused: _Refused) -> dict[str, JSON]:
    return _report(mode, 2, error={"message": refused.message, "source": refused.source,
                                   "path": refused.path, "rule": refused.rule})


def usage_error_json(message: str) -> dict[str, JSON]:
    """The object ``--json`` prints for an option argparse refused (exit 2)."""
    return _refusal("usage", _Refused(message, "options"))


def run(args: argparse.Namespace) -> int:
    """Run ``bottleimp perft``."""
    mode = "check" if args.check is not None else "count"
    try:
        report = _check(args.check) if args.check is not None else _count(args)
    except _Refused as refused:
        report = _refusal(mode, refused)
        if not args.json:
            where = f" {refused.path}:" if refused.path else ""
            print(f"bottleimp perft: {refused.source}:{where} {refused.message}")
    else:
        if not args.json:
            _print(report)
    if args.json:
        print(json.dumps(report))
    status = report["status"]
    assert isinstance(status, int)
    return status


def _position(args: argparse.Namespace) -> tuple[Config, GameState, list[JSON]]:
    """The configuration, the position, and the actions taken to reach it (as JSON)."""
    try:
        edition = args.edition or ("matagot-2024" if args.players >= 5 else "classic")
        config = Config(players=args.players, edition=edition, bottles=args.bottles,
                        teams=default_teams(args.players) if args.teams else None)
    except ConfigError as error:
        raise _Refused(error.message, "options", None, error.rule_id) from None
    state = new_game(config, args.seed)
    if not args.actions:
        return config, state, []
    try:
        items = expect_list(loads_json(args.actions), "$")
        for index, item in enumerate(items):
            where = child("$", index)
            try:
                state = apply(state, action_from_json(item, config, where))
            except IllegalActionError as error:
                raise _Refused(error.message, "--actions", where, error.rule_id) from None
    except RecordError as error:
        raise _Refused(error.message, "--actions", error.path, error.rule_id) from None
    return config, state, items


def _count(args: argparse.Namespace) -> dict[str, JSON]:
    config, state, actions = _position(args)
    depth = remaining(state) if args.depth is None else args.depth
    if depth < 0 or (args.divide and depth < 1):
        raise _Refused("the depth must be at least 1 with --divide, else at least 0", "--depth")
    divided: list[JSON] | None = None
    if depth == 0 or depth > remaining(state):
        total = perft(state, depth)
    else:
        first_actions = len(legal_actions(state))
        with progress_bar(first_actions, f"depth {depth}, first actions") as advance:
            counts = divide(state, depth, lambda done, total: advance(1))
        total = sum(count for _, count in counts)
        if args.divide:
            divided = [{"action": action_to_json(action), "count": count}
                       for action, count in counts]
    return _report("count", 0, config=config_json(config), seed=args.seed, actions=actions,
                   depth=depth, count=total, divide=divided)


def _print(report: dict[str, JSON]) -> None:
    if report["mode"] == "count":
        divided = report["divide"]
        for item in divided if isinstance(divided, list) else []:
            assert isinstance(item, dict)
            print(f"{json.dumps(item['action'])}: {item['count']}")
        print(f"depth {report['depth']}: {report['count']}")
        return
    cases = report["cases"]
    assert isinstance(cases, list)
    for case in cases:
        assert isinstance(case, dict) and isinstance(case["differences"], list)
        if not case["passed"]:
            print(f"FAIL {case['where']} {case['description']}")
            for line in case["differences"]:
                print(f"  {line}")
    print(f"{report['passed']} passed, {report['failed']} failed")


def _check(location: str) -> dict[str, JSON]:
    path = Path(location) if location else conformance_data() / "perft"
    files = sorted(path.glob("*.json")) if path.is_dir() else [path]
    try:
        cases = [case for file in files for case in read_perft_file(file)]
    except RecordError as error:
        raise _Refused(error.message, str(path), error.path) from None
    except (BottleImpError, OSError, KeyError, TypeError, ValueError) as error:
        detail = f"missing key {error}" if isinstance(error, KeyError) else str(error)
        raise _Refused(f"cannot read the perft cases: {detail}", str(path)) from None
    if not cases:
        raise _Refused("no perft cases found", str(path))
    results: list[JSON] = []
    with progress_bar(len(cases), "perft cases") as advance:
        for case in cases:
            results.append(_check_case(case))
            advance(1)
    failed = sum(1 for result in results if isinstance(result, dict) and not result["passed"])
    return _report("check", 1 if failed else 0, source=str(path), passed=len(results) - failed,
                   failed=failed, cases=results)


def _check_case(case: PerftCase) -> JSON:
    """One case's counts recomputed: whether they all agree, and each difference."""
    wrong: list[JSON] = [f"depth {d}: expected {n}, got {perft(case.state, d)}"
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
    return {"where": case.where, "description": case.description, "passed": not wrong,
            "differences": wrong}

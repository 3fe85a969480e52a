"""``bottleimp conformance``: check another implementation against the library.

- ``--cmd "COMMAND"``: the differential harness. Runs COMMAND, speaks bottleimp-protocol/1 to it
  (spec/protocol.md), plays generated games and compares every answer with the library's.
  Prints the first disagreement (shrunk) and the summary line ``N passed, N failed`` where N
  counts games; writes the smallest failing game as a record into ``--out``.
- ``--vectors DIR``: checks the library against the conformance cases in DIR
  (spec/conformance); the summary counts cases.
- ``--serve``: the library itself answers bottleimp-protocol/1 on stdin/stdout, for another
  implementation's own harness.

Exit status: 0 everything agrees; 1 something failed; 2 the run could not start (bad options,
Hypothesis missing, the command cannot be started, unreadable cases).
"""

from __future__ import annotations

import argparse
import shlex
import sys
from typing import Any

from ..errors import RecordError
from .arguments import positive_int


def add_parser(subparsers: Any) -> None:
    """Register the ``conformance`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "conformance",
        help="differential harness: compare another implementation with the library",
        description="Play generated games against another implementation over "
        "bottleimp-protocol/1 (spec/protocol.md) and compare every answer with the library's; "
        "or check the library against the conformance cases; or serve the protocol.",
    )
    mode = parser.add_mutually_exclusive_group(required=True)
    mode.add_argument("--cmd", metavar="COMMAND",
                      help="the other implementation's command line (split like a POSIX shell)")
    mode.add_argument("--vectors", metavar="DIR",
                      help="check the library against the conformance cases in DIR")
    mode.add_argument("--serve", action="store_true",
                      help="answer bottleimp-protocol/1 requests on stdin/stdout")
    parser.add_argument("--examples", type=positive_int, default=100, metavar="N",
                        help="games to generate (default 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the generated games (default 0): same seed, same games")
    parser.add_argument("--timeout", type=_positive_float, default=5.0, metavar="SECONDS",
                        help="time the other side has to answer one request (default 5)")
    parser.add_argument("--shrink-time", type=_positive_float, default=60.0, metavar="SECONDS",
                        help="time spent shrinking a failing game (default 60)")
    parser.add_argument("--out", default=".", metavar="DIR",
                        help="where the smallest failing game is written as a record "
                        "(default: the current directory)")
    parser.set_defaults(run=run, parser=parser)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {text!r}") from None
    if not value > 0 or value == float("inf"):
        raise argparse.ArgumentTypeError(f"expected a positive number of seconds, not {text}")
    return value


def run(args: argparse.Namespace) -> int:
    """Run the chosen mode; returns the exit status."""
    if args.serve:
        from ..conformance.protocol import main_serve

        return main_serve()
    if args.vectors is not None:
        return _vectors(args.vectors)
    return _differential(args)


def _vectors(directory: str) -> int:
    from ..conformance.vectors import check_suite

    try:
        outcomes = check_suite(directory)
    except RecordError as error:
        print(f"bottleimp conformance: {error}", file=sys.stderr)
        return 2
    failed = [outcome for outcome in outcomes if not outcome.passed]
    for outcome in failed:
        case = outcome.case
        print(f"FAIL {case.where}: {case.description}")
        if outcome.message is not None:
            print(f"  {outcome.message}")
        else:
            print(f"  expected {case.expected}\n  library  {outcome.actual}")
    print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def _differential(args: argparse.Namespace) -> int:
    from ..conformance.differential import describe, run_harness
    from ..errors import HarnessError

    try:
        command = shlex.split(args.cmd)
    except ValueError as error:
        print(f"bottleimp conformance: --cmd: {error}", file=sys.stderr)
        return 2
    if not command:
        print("bottleimp conformance: --cmd is empty", file=sys.stderr)
        return 2
    try:
        report = run_harness(
            command,
            examples=args.examples,
            seed=args.seed,
            timeout=args.timeout,
            out_dir=args.out,
            shrink_seconds=args.shrink_time,
            log=lambda text: print(text, file=sys.stderr),
        )
    except HarnessError as error:
        print(f"bottleimp conformance: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"bottleimp conformance: {error}", file=sys.stderr)
        return 2
    if report.failure is not None:
        found = "the run stops: " if report.failure.peer_fault else "smallest failing game found: "
        print(f"game {report.first_failing_game} failed; {found}" + describe(report.failure))
        if report.written is not None:
            print(f"record of that game: {report.written}")
        if report.write_error is not None:
            print(f"bottleimp conformance: {report.write_error}", file=sys.stderr)
    print(report.summary)
    return 1 if report.failed else 0

"""``bottleimp analyse RECORD [--json] [--worlds K]``: where each seat lost coins.

For every play of every round of a game record (``bottleimp-record/1``), the open-hand paranoid
value of each legal card for the acting seat's side, the card played and the coins it lost
against the best card; per seat and round the coins lost and the value of the deal after the
setup (``bottleimp.analysis.record``). A malformed record gets the validator's error (exit 2);
a record that breaks a rule is analysed up to it, and the report names the rule (exit 1). On a
terminal, a progress bar shows the positions solved (on standard error).

The solver runs on the batch engine's compiled kernel: the command needs the ``batch`` extra
(numba, ``pip install 'bottleimp[batch]'``). The analysis modules are imported when the command
runs, so the rest of the command line works without it; without it, ``analyse`` says what to
install (exit 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from typing import Any

from .._errors import RecordError
from ..formats._json_input import printable_name, read_json_file
from ._arguments import non_negative_int, positive_seconds


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``analyse``."""
    parser = subparsers.add_parser(
        "analyse",
        help="where each seat lost coins: an open-hand analysis of every play of a record",
        description=(
            "For every play of a game record, the value of each legal card for the acting "
            "seat's side with every hand visible and the other seats playing against it (the "
            "paranoid value), the card played and the coins it lost; per seat and round the "
            "coins lost and the value of the deal. Past the budget a value is given as bounds. "
            "Exit status: 0 valid record, 1 the record breaks a rule (analysed up to it), 2 not "
            "a readable record."
        ),
    )
    parser.add_argument("record", metavar="RECORD", help="the record file")
    parser.add_argument("--json", action="store_true",
                        help=f"print the analysis as one JSON object ({FORMAT})")
    parser.add_argument("--worlds", type=non_negative_int, default=0, metavar="K",
                        help="also estimate each card's value over K deals consistent with "
                             "what the acting seat saw (an estimate: mean and spread)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of the sampled worlds")
    parser.add_argument("--nodes", type=non_negative_int, default=None,
                        help="positions one solve visits at most before giving bounds "
                             "(default: bottleimp.analysis.DEFAULT_NODE_BUDGET)")
    parser.add_argument("--round-seconds", type=positive_seconds, default=None,
                        help="the time budget of one round (default: "
                             "bottleimp.analysis.record.ROUND_SECONDS, 60)")
    parser.set_defaults(run=run)


FORMAT = "bottleimp-analysis/1"
"""The format ID of the JSON answer (``bottleimp.analysis.record.ANALYSIS_FORMAT``, which a test
holds equal: the record module needs numba, this module must not)."""


def usage_error_json(message: str) -> dict[str, Any]:
    """The JSON answer to refused options."""
    return {"format": FORMAT, "status": "usage", "error": message}


def _progress() -> tuple[AbstractContextManager[object], Callable[[int, int], None] | None]:
    """A progress bar on standard error when it is a terminal (with rich, when installed)."""
    if not sys.stderr.isatty():
        return nullcontext(), None
    try:
        from rich.console import Console
        from rich.progress import Progress
    except ImportError:
        return nullcontext(), lambda done, total: print(
            f"\ranalysing: {done}/{total} positions", end="", file=sys.stderr, flush=True)
    progress = Progress(console=Console(stderr=True), transient=True)
    task = progress.add_task("analysing positions", total=None)

    def advance(done: int, total: int) -> None:
        progress.update(task, completed=done, total=total)

    return progress, advance


def run(args: argparse.Namespace) -> int:
    """Analyse the record; the exit status is the validator's."""
    source = printable_name(args.record)
    try:
        from ..analysis.record import ROUND_SECONDS, analyse_json, analysis_to_json, analysis_to_text
        from ..analysis._solver import DEFAULT_NODE_BUDGET
    except ImportError as missing:
        message = f"bottleimp analyse: {missing}"
        if args.json:
            print(json.dumps(usage_error_json(message)))
        print(message, file=sys.stderr)
        return 2
    try:
        value = read_json_file(args.record)
    except RecordError as error:
        if args.json:
            print(json.dumps({"format": FORMAT, "source": source, "status": "unreadable",
                              "fault": {"rule": error.rule_id, "round": None, "play": None,
                                        "seat": None, "message": error.message,
                                        "path": error.path}}))
        print(f"{source}: not a readable record: {error.path}: {error.message}", file=sys.stderr)
        return 2
    bar, advance = _progress()
    with bar:
        analysis = analyse_json(
            value, source, node_budget=DEFAULT_NODE_BUDGET if args.nodes is None else args.nodes,
            round_seconds=ROUND_SECONDS if args.round_seconds is None else args.round_seconds,
            worlds=args.worlds, seed=args.seed, progress=advance)
    if args.json:
        print(json.dumps(analysis_to_json(analysis)))
    else:
        print(analysis_to_text(analysis))
    if analysis.unreadable:
        if args.json:
            fault = analysis.fault
            assert fault is not None
            print(f"{source}: not a readable record: {fault.path}: {fault.message}",
                  file=sys.stderr)
        return 2
    return 1 if analysis.fault is not None else 0

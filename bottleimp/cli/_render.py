"""``bottleimp render RECORD [-o PAGE]``: a replay page for a game record.

Writes one self-contained HTML file (inline SVG, CSS and script; nothing fetched from the
network) that steps through the record trick by trick, with buttons and the keys ← → Home End.
A record that breaks a rule stops at the broken step, which names the rule and gives the
validator's message. Exit status as for ``bottleimp validate``: 0 the record is valid, 1 it
breaks a rule (the page is written all the same), 2 it is not a readable record (no page is
written; the message names the JSON path of the fault), or its replay would draw more rounds
than a page holds (``MAX_PAGE_ROUNDS``; no page is written).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .._errors import RecordError
from ..formats._json_input import printable_name, read_json_file
from ..pictures._replay import MAX_PAGE_ROUNDS, PageTooLargeError, fault_place, render_record
from ._arguments import positive_seconds


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``render``."""
    parser = subparsers.add_parser(
        "render",
        help="write a replay page (HTML) for a game record",
        description=(
            "Write one self-contained HTML page that replays a game record (bottleimp-record/1) "
            "trick by trick; a record that breaks a rule stops at the broken step. Exit status: "
            "0 valid, 1 the record breaks a rule (the page is written), 2 not a readable record, "
            f"or one whose replay would draw more than {MAX_PAGE_ROUNDS} rounds (no page is "
            "written)."
        ),
    )
    parser.add_argument("record", metavar="RECORD", help="the record file")
    parser.add_argument(
        "-o", "--output", metavar="PAGE",
        help="the HTML file to write (default: RECORD with the suffix .html)",
    )
    parser.add_argument(
        "--analyse", action="store_true",
        help="add the open-hand analysis (bottleimp analyse): each trick's card values, the "
             "card played marked with its loss, the coins each seat lost per round",
    )
    parser.add_argument("--round-seconds", type=positive_seconds, default=60.0,
                        help="with --analyse: the time budget of one round's analysis")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Write the page; the exit status is the validator's."""
    source = printable_name(args.record)
    output = Path(args.output) if args.output else Path(args.record).with_suffix(".html")
    try:
        value = read_json_file(args.record)
        analysis = None
        if args.analyse:
            from ..analysis.record import analyse_json, analysis_to_json

            found = analyse_json(value, source, round_seconds=args.round_seconds)
            analysis = None if found.unreadable else analysis_to_json(found)
        replay = render_record(value, source, analysis)
    except RecordError as error:
        print(f"{source}: not a readable record: {error.path}: {error.message}", file=sys.stderr)
        return 2
    except PageTooLargeError as error:
        print(f"{source}: no page written: {error.message}", file=sys.stderr)
        return 2
    try:
        output.write_text(replay.page, encoding="utf-8")
    except OSError as error:
        print(f"cannot write {printable_name(output)}: {error.strerror or error}", file=sys.stderr)
        return 2
    name, report, steps = printable_name(output), replay.report, replay.steps
    if report.valid:
        print(f"{name}: {len(steps)} steps of a valid record")
        return 0
    fault = report.errors[0]
    where = fault_place(fault)
    print(f"{name}: {len(steps)} steps; the replay stops at rule {fault.rule}: "
          + (f"{where} ({fault.path})" if where else fault.path))
    return 1

"""The ``bottleimp`` command line: ``simulate``, ``validate``, ``conformance``, ``perft``.

Each subcommand lives in ``bottleimp.commands.<name>`` and offers ``add_parser(subparsers)`` and
``run(args) -> int``. A bad option value gets a clear message and exit status 2 (argparse's own).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .commands import conformance, perft, simulate, validate


def _commands() -> tuple[ModuleType, ...]:
    return (simulate, validate, conformance, perft)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="bottleimp", description="The executable reference for the rules of The Bottle Imp."
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _commands():
        command.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (``bottleimp simulate | head``): stop quietly, as cat does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status


if __name__ == "__main__":
    sys.exit(main())

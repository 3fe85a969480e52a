"""The ``bottleimp`` command line: ``simulate``, ``play``, ``arena``, ``validate``,
``conformance``, ``render``, ``perft``.

Each subcommand lives in ``bottleimp.cli.<name>`` and offers ``add_parser(subparsers)`` and
``run(args) -> int``. A bad option value gets a clear message and exit status 2 (argparse's own).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from types import ModuleType

from .. import __version__
from . import arena, conformance, perft, play, render, simulate, validate


def _commands() -> tuple[ModuleType, ...]:
    return (simulate, play, arena, validate, conformance, render, perft)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = argparse.ArgumentParser(
        prog="bottleimp", description="The executable reference for the rules of The Bottle Imp."
    )
    parser.add_argument("--version", action="version", version=f"bottleimp {__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in _commands():
        command.add_parser(subparsers)
    return parser


def _printable_output() -> None:
    """Let any text reach the terminal: a character the output encoding cannot hold (a
    non-ASCII name under ``PYTHONIOENCODING=ascii``) is written as an escape, not an error."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(errors="backslashreplace")
            except (ValueError, OSError):
                pass


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    _printable_output()
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        status: int = args.run(args)
    except BrokenPipeError:
        # The reader went away (``bottleimp simulate | head``): stop quietly, as cat does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status


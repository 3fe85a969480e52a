"""The ``bottleimp`` command line: ``simulate``, ``play``, ``arena``, ``validate``,
``conformance``, ``render``, ``perft``, ``analyse``.

Each subcommand lives in ``bottleimp.cli._<name>`` and offers ``add_parser(subparsers)`` and
``run(args) -> int``. A bad option value gets a clear message and exit status 2 (argparse's own);
with ``--json``, a subcommand whose module offers ``usage_error_json(message)`` also prints that
object on standard output, so that ``--json`` always prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from types import ModuleType
from typing import NoReturn

from . import _analyse as analyse
from . import _arena as arena
from . import _conformance as conformance
from . import _perft as perft
from . import _play as play
from . import _render as render
from . import _simulate as simulate
from . import _validate as validate

__all__ = ["build_parser", "main"]


def _commands() -> tuple[ModuleType, ...]:
    return (simulate, play, arena, validate, conformance, render, perft, analyse)


class _UsageError(Exception):
    """An option argparse refused; raised instead of exiting, so that ``main`` can answer it."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser = parser
        self.message = message


class _Parser(argparse.ArgumentParser):
    """argparse's parser, whose usage errors ``main`` answers (the subparsers share the class)."""

    def error(self, message: str) -> NoReturn:
        raise _UsageError(self, message)


def _usage_error(error: _UsageError, argv: Sequence[str]) -> int:
    """argparse's usage message and exit status 2; with ``--json`` for a subcommand that has a
    JSON report, that report's refusal on standard output too."""
    error.parser.print_usage(sys.stderr)
    print(f"{error.parser.prog}: error: {error.message}", file=sys.stderr)
    if "--json" in argv:
        names = {c.__name__.rsplit(".", 1)[-1].lstrip("_"): c for c in _commands()}
        command = next((names[a] for a in argv if a in names), None)
        answer = getattr(command, "usage_error_json", None)
        if answer is not None:
            print(json.dumps(answer(error.message)))
    return 2


class _Version(argparse.Action):
    """``--version``: the version is looked up only when asked for (``bottleimp.__version__``
    reads the installed distribution's metadata, which every other command can do without)."""

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> NoReturn:
        import bottleimp

        print(f"bottleimp {bottleimp.__version__}")  # on standard output, as argparse's own
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every subcommand."""
    parser = _Parser(
        prog="bottleimp", description="The executable reference for the rules of The Bottle Imp."
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
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
    arguments = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(arguments)
    except _UsageError as error:
        sys.exit(_usage_error(error, arguments))  # argparse's own way out
    try:
        status: int = args.run(args)
    except _UsageError as error:  # a combination of options the subcommand refused
        sys.exit(_usage_error(error, arguments))
    except BrokenPipeError:
        # The reader went away (``bottleimp simulate | head``): stop quietly, as cat does.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    return status


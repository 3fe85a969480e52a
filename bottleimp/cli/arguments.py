"""The command-line subcommands, one module each: ``add_parser(subparsers)`` and ``run(args)``."""

from __future__ import annotations

import argparse


def _whole_number(text: str, minimum: int, what: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
    if value < minimum:
        raise argparse.ArgumentTypeError(f"expected {what}, not {value}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1, else a clear usage error (exit 2)."""
    return _whole_number(text, 1, "a positive integer")


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number of at least 0, else a clear usage error (exit 2)."""
    return _whole_number(text, 0, "a whole number of 0 or more")

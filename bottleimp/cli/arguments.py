"""The command-line subcommands, one module each: ``add_parser(subparsers)`` and ``run(args)``."""

from __future__ import annotations

import argparse


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1, else a clear usage error (exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, not {value}")
    return value

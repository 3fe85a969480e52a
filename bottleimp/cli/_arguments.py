"""Argument parsing shared by the command-line subcommands: the game's options (players,
edition, how it ends, variants, seed), the bots by name, and number types with clear errors."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..bots import BOTS
from .._config import Config, default_teams
from .._editions import EDITIONS


def unwritable_reason(path: str | Path) -> str | None:
    """Why a file cannot be written to ``path``, or ``None``: tried by opening the file for
    appending (and removing it again if it did not exist), before any game is played."""
    target = Path(path)
    if target.is_dir():
        return "it is a directory"
    existed = target.exists()
    try:
        with open(target, "a", encoding="utf-8"):
            pass
    except OSError as error:
        return error.strerror or str(error)
    except ValueError:  # a NUL byte in the name
        return "a file name cannot hold a NUL byte"
    if not existed:
        target.unlink(missing_ok=True)
    return None


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


def seconds(text: str) -> float:
    """An argparse type: a finite number of seconds, 0 or more, else a clear usage error."""
    return _seconds(text, positive=False)


def positive_seconds(text: str) -> float:
    """An argparse type: a finite number of seconds above 0, else a clear usage error."""
    return _seconds(text, positive=True)


def _seconds(text: str, positive: bool) -> float:
    what = "a positive number of seconds" if positive else "a number of seconds from 0"
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, not {text!r}") from None
    if not 0 <= value < float("inf") or (positive and value == 0):
        raise argparse.ArgumentTypeError(f"expected {what}, not {text}")
    return value


def bot_names(text: str) -> tuple[str, ...]:
    """An argparse type: bot names separated by commas (``search,heuristic,random``), each one
    of ``bottleimp.bots.BOTS``, else a clear usage error."""
    names = tuple(name.strip() for name in text.split(","))
    unknown = [name for name in names if name not in BOTS]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown bot {unknown[0]!r} in {text!r}; known bots: {', '.join(BOTS)}"
        )
    return names


def add_game_options(parser: argparse.ArgumentParser, *, rounds_help: str = "play R rounds") -> None:
    """The options that configure a game and its deals: ``--players``, ``--edition``,
    ``--rounds``/``--target-score``, ``--bottles``, ``--teams``, ``--seed``."""
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N",
                        help="number of players, 2 to 6 (default 4)")
    parser.add_argument("--edition", default=None, choices=EDITIONS,
                        help="classic or matagot-2024 (default: Config's, classic for 2-4 players, "
                        "matagot-2024 for 5-6)")
    end = parser.add_mutually_exclusive_group()
    end.add_argument("--rounds", type=positive_int, metavar="R", help=rounds_help)
    end.add_argument("--target-score", type=positive_int, metavar="T",
                     help="play until a total reaches T")
    parser.add_argument("--bottles", type=int, default=1, choices=(1, 2),
                        help="2 for the Second Bottle variant (5-6 players)")
    parser.add_argument("--teams", action="store_true",
                        help="team mode with the default partition for the player count")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed (default 7)")


def config_from_args(args: argparse.Namespace) -> Config:
    """The game's configuration from the options of ``add_game_options`` (a ``ConfigError``
    for a combination no source defines)."""
    teams = default_teams(args.players) if args.teams else None
    edition = {} if args.edition is None else {"edition": args.edition}  # else Config's default
    return Config(
        players=args.players,
        **edition,
        bottles=args.bottles,
        teams=teams,
        rounds=args.rounds,
        target_score=args.target_score,
    )

"""``bottleimp arena``: bots play each other over seeded deals with the seats rotated; a table of
wins and scores with 95% confidence intervals, or the ``bottleimp-arena-report/1`` report.

With ``--json`` every exit status prints one object of that format: the report (exit 0), or
for refused options (exit 2) an object with ``status`` 2 and an ``error`` saying what is wrong
(``spec/reports/arena-report.schema.json``). On a terminal a bar on standard error shows the
deals played (``progress_bar``)."""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..bots._arena import ARENA_REPORT_FORMAT, ArenaReport, play_arena
from ..bots._make import BOTS, NEEDS_NUMBA
from ..bots._search import DEFAULT_WORLDS
from .._errors import BotError, ConfigError
from ..formats._json_input import JSON
from ._arguments import add_game_options, bot_names, config_from_args, positive_int
from ._progress import progress_bar


def add_parser(subparsers: Any) -> None:
    """Register the ``arena`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "arena",
        help="play bots against each other with the seats rotated; a table of results",
        description="Play bots against each other over seeded deals. Each deal is played once "
        "per rotation of the seats, so every bot sits in every seat equally often on the same "
        "deals. Prints each bot's games, wins and mean score with 95% confidence intervals "
        "(Wilson's for the win rate). Games are one round unless --rounds or --target-score "
        "say otherwise.",
    )
    add_game_options(parser, rounds_help="rounds a game (default 1)")
    parser.add_argument("--agents", type=bot_names, default=("search", "heuristic", "random"),
                        metavar="BOTS",
                        help=f"the lineup, one bot a seat, separated by commas ({', '.join(BOTS)}"
                        f"; {', '.join(NEEDS_NUMBA)} needs the batch extra, numba; a bot may "
                        "repeat); the last fills the remaining seats (default "
                        "search,heuristic,random)")
    parser.add_argument("--games", type=positive_int, default=20, metavar="D",
                        help="deals to play; each is played once per rotation, so D x players "
                        "games (default 20)")
    parser.add_argument("--worlds", type=positive_int, default=DEFAULT_WORLDS, metavar="W",
                        help=f"the search bot's budget: worlds sampled per decision (default "
                        f"{DEFAULT_WORLDS})")
    parser.add_argument("--jobs", type=positive_int, default=1, metavar="J",
                        help="processes to play in (default 1; the results do not depend on it)")
    parser.add_argument("--json", action="store_true",
                        help="print the bottleimp-arena-report/1 report as JSON")
    parser.set_defaults(run=run, parser=parser)


def usage_error_json(message: str) -> dict[str, JSON]:
    """The object ``--json`` prints for options refused (exit 2): no game was played."""
    return {"format": ARENA_REPORT_FORMAT, "status": 2,
            "error": {"message": message, "source": "options"}}


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def format_report(report: ArenaReport) -> str:
    """The report as a text table, one bot a row."""
    config = report.config
    if config.target_score is not None:
        length = f"games to {config.target_score} points"
    elif config.round_limit == 1:
        length = "one-round games"
    else:
        length = f"{config.round_limit}-round games"
    lines = [
        f"{config.players} players, {length}, lineup {','.join(report.lineup)}: "
        f"{report.deals} deals x {config.players} rotations = {report.games} games "
        f"(seed {report.seed}"
        + (f", search worlds {report.worlds})" if "search" in report.lineup else ")"),
        f"{'agent':<10} {'games':>6} {'wins':>6} {'win rate':>9}  {'95% CI':<16}"
        f"{'mean score':>11}  95% CI",
    ]
    for result in report.results:
        low, high = result.win_rate_ci95
        score_low, score_high = result.mean_score_ci95
        lines.append(
            f"{result.agent:<10} {result.games:>6} {result.wins:>6} "
            f"{_percent(result.win_rate):>9}  {f'[{_percent(low)}, {_percent(high)}]':<16}"
            f"{result.mean_score:>11.1f}  [{score_low:.1f}, {score_high:.1f}]"
        )
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    """Play the arena and print its table or its JSON report."""
    parser: argparse.ArgumentParser = args.parser
    if args.rounds is None and args.target_score is None:
        args.rounds = 1
    try:
        config = config_from_args(args)
    except ConfigError as error:
        parser.error(str(error))
    try:
        with progress_bar(args.games, "deals") as advance:
            report = play_arena(config, args.agents, args.games, args.seed,
                                worlds=args.worlds, jobs=args.jobs, dealt=lambda: advance(1))
    except BotError as error:
        parser.error(str(error))
    if args.json:
        print(json.dumps(report.to_json(), indent=1))
    else:
        print(format_report(report))
    return 0

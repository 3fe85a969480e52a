"""``bottleimp simulate``: play a whole seeded game with built-in bots and narrate it."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..bots import make_bot
from ..config import Config, default_teams
from ..editions import EDITIONS
from ..engine import apply, legal_actions, new_game
from ..errors import ConfigError
from ..rules.game import winners
from ..state import GameState
from ..view import view
from .arguments import positive_int
from .narrate import describe_deal, narrate_step


def add_parser(subparsers: Any) -> None:
    """Register the ``simulate`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        help="play a seeded game with built-in bots and narrate it trick by trick",
        description="Play a whole game with built-in bots, narrate it trick by trick (cards, "
        "winner, bottle owner and price, the rule that decided), and print round scores and "
        "totals.",
    )
    parser.add_argument("--players", type=int, default=4, choices=range(2, 7), metavar="N",
                        help="number of players, 2 to 6 (default 4)")
    parser.add_argument("--edition", default=None, choices=EDITIONS,
                        help="classic or matagot-2024 (default: classic for 2-4 players, "
                        "matagot-2024 for 5-6)")
    end = parser.add_mutually_exclusive_group()
    end.add_argument("--rounds", type=positive_int, metavar="R", help="play R rounds")
    end.add_argument("--target-score", type=positive_int, metavar="T",
                     help="play until a total reaches T")
    parser.add_argument("--bottles", type=int, default=1, choices=(1, 2),
                        help="2 for the Second Bottle variant (5-6 players)")
    parser.add_argument("--teams", action="store_true",
                        help="team mode with the default partition for the player count")
    parser.add_argument("--seed", type=int, default=7, help="the game's seed (default 7)")
    parser.add_argument("--bot", default="heuristic", choices=("random", "heuristic"),
                        help="the bot every seat uses (default heuristic)")
    parser.add_argument("--record", metavar="FILE",
                        help="write the game as a bottleimp-record/1 record to FILE")
    parser.add_argument("--json", action="store_true",
                        help="print the game's record as JSON instead of the narration")
    parser.set_defaults(run=run, parser=parser)


def _config(args: argparse.Namespace) -> Config:
    edition = args.edition or ("matagot-2024" if args.players >= 5 else "classic")
    teams = default_teams(args.players) if args.teams else None
    return Config(
        players=args.players,
        edition=edition,
        bottles=args.bottles,
        teams=teams,
        rounds=args.rounds,
        target_score=args.target_score,
    )


def play_game(config: Config, seed: int, bot: str, narrate: bool) -> GameState:
    """Play a whole game with one bot kind at every seat; print the narration if asked."""
    bots = [make_bot(bot, seed * 31 + seat) for seat in range(config.players)]
    state = new_game(config, seed)
    if narrate:
        print(describe_deal(state))
    while state.to_act is not None:
        seat = state.to_act
        action = bots[seat].choose(view(state, seat), legal_actions(state))
        after = apply(state, action)
        if narrate:
            for line in narrate_step(state, after):
                print(line)
        state = after
    return state


def run(args: argparse.Namespace) -> int:
    """Play, narrate, and write the record if asked."""
    parser: argparse.ArgumentParser = args.parser
    try:
        config = _config(args)
    except ConfigError as error:
        parser.error(str(error))
    state = play_game(config, args.seed, args.bot, narrate=not args.json)
    record = None
    if args.record or args.json:
        from ..formats.records import (
            record_from_state,
            record_to_json,
            write_record_file,
        )

        record = record_from_state(state)
        if args.record:
            try:
                write_record_file(args.record, record)
            except OSError as error:
                print(f"bottleimp simulate: cannot write {args.record}: {error}", file=sys.stderr)
                return 2
        if args.json:
            print(json.dumps(record_to_json(record), indent=1))
    if not args.json:
        best = winners(state.totals)
        names = " and ".join(f"seat {seat}" for seat in best)
        played = len(state.rounds)
        print(f"Game over after {played} round{'s' if played != 1 else ''}. Winner: {names} with "
              f"{state.totals[best[0]]} [WINNERS]")
        if args.record:
            print(f"Record written to {args.record}")
    return 0

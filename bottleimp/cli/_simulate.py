"""``bottleimp simulate``: play a whole seeded game with built-in bots and narrate it."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable
from typing import Any, TextIO

from ..bots import BOTS, make_bot
from .._config import Config
from .._engine import apply, legal_actions, new_game
from .._errors import ConfigError
from .._state import GameState
from .._view import view
from ._arguments import add_game_options, config_from_args, unwritable_reason
from ._narrate import (
    Block,
    Narrator,
    Paragraph,
    PlainRenderer,
    RichRenderer,
    Span,
    plain_width,
)


def add_parser(subparsers: Any) -> None:
    """Register the ``simulate`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "simulate",
        help="play a seeded game with built-in bots and narrate it trick by trick",
        description="Play a whole game with built-in bots, narrate it trick by trick (cards in "
        "their colours, winner, bottle owner and price) with a table of scores per round. "
        "Rounds and tricks are numbered from 1. Colour on a terminal when rich is installed; "
        "plain text wrapped to 80 columns when piped, under NO_COLOR or with --plain.",
    )
    add_game_options(parser)
    parser.add_argument("--bot", default="heuristic", choices=BOTS,
                        help="the bot every seat uses (default heuristic; see docs/guide/agents.md)")
    parser.add_argument("--record", metavar="FILE",
                        help="write the game as a bottleimp-record/1 record to FILE (checked "
                        "before the game is played)")
    # The rules are named in the narration, which --json replaces: the two are refused together.
    output = parser.add_mutually_exclusive_group()
    output.add_argument("--json", action="store_true",
                        help="print the game's record as JSON instead of the narration")
    parser.add_argument("--plain", action="store_true",
                        help="plain text without colour even on a terminal (also when the "
                        "output is piped or NO_COLOR is set)")
    output.add_argument("--rules", action="store_true",
                        help="name the rules that decided each step in the narration (not "
                        "with --json)")
    parser.set_defaults(run=run, parser=parser)


def _use_rich(args: argparse.Namespace, stream: TextIO) -> bool:
    """Colour only for a terminal, unless ``--plain`` or ``NO_COLOR`` (https://no-color.org)
    says otherwise, and only if rich is installed (the ``cli`` extra). ``FORCE_COLOR`` asks for
    colour even when the output is not a terminal."""
    if args.plain or os.environ.get("NO_COLOR"):
        return False
    if not (stream.isatty() or os.environ.get("FORCE_COLOR")):
        return False
    try:
        import rich  # noqa: F401
    except ImportError:
        return False
    return True


def _writer(args: argparse.Namespace, stream: TextIO) -> Callable[[Iterable[Block]], None]:
    """Where the narration's blocks go: a rich console, or plain text to ``stream``."""
    if _use_rich(args, stream):
        from rich.console import Console

        renderer = RichRenderer(
            Console(file=stream, highlight=False, emoji=False), show_rules=args.rules
        )
        return renderer.write
    plain = PlainRenderer(plain_width(stream), show_rules=args.rules)

    def write(blocks: Iterable[Block]) -> None:
        plain.write(blocks, stream)

    return write


def play_game(
    config: Config, seed: int, bot: str, tell: Callable[[Iterable[Block]], None] | None = None
) -> GameState:
    """Play a whole game with one bot kind at every seat; ``tell`` receives the narration."""
    bots = [make_bot(bot, seed * 31 + seat) for seat in range(config.players)]
    state = new_game(config, seed)
    narrator = Narrator()
    if tell is not None:
        tell(narrator.start(state))
    while state.to_act is not None:
        seat = state.to_act
        legal = legal_actions(state)
        action = bots[seat].choose(view(state, seat), legal)
        after = apply(state, action)
        if tell is not None:
            tell(narrator.step(state, action, after, legal))
        state = after
    if tell is not None:
        tell(narrator.finish(state))
    return state


def run(args: argparse.Namespace) -> int:
    """Play, narrate, and write the record if asked."""
    parser: argparse.ArgumentParser = args.parser
    try:
        config = config_from_args(args)
    except ConfigError as error:
        parser.error(str(error))
    if args.record:
        why = unwritable_reason(args.record)
        if why is not None:
            print(f"bottleimp simulate: cannot write the record to {args.record}: {why}",
                  file=sys.stderr)
            return 2
    stream = sys.stdout
    tell = None if args.json else _writer(args, stream)
    state = play_game(config, args.seed, args.bot, tell)
    if args.record or args.json:
        from ..formats._records import (
            record_from_state,
            record_to_json,
            write_record_file,
        )

        record = record_from_state(state)
        if args.record:
            try:
                write_record_file(args.record, record)
            except OSError as error:
                print(f"bottleimp simulate: cannot write the record to {args.record}: {error}",
                      file=sys.stderr)
                return 2
        if args.json:
            print(json.dumps(record_to_json(record), indent=1))
    if args.record and tell is not None:
        tell([Paragraph("", (Span(f"Record written to {args.record}."),), depth=0)])
    return 0

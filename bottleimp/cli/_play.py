"""``bottleimp play``: a person plays a game in the terminal against bots.

The person sees what their seat may see (rule VIEW-HIDDEN): their hand, the trick, the bottles,
every seat's card count and totals, the setup cards they received, and the Devil's Trick once a
round is over. Every card of the hand is numbered and the ones the rules allow are marked; a
card the rules refuse is refused with the broken rule's ID, the reason and the rule's statement
from the catalogue, and the person chooses again.

No game is lost to a typo: the record (``bottleimp-record/1``) is written to ``--save FILE``,
whose path is checked before the first card; without ``--save``, or if that file cannot be
written after all, a prompt at the end offers a default name that can be written and asks again
after a name that cannot. A game quit, interrupted (Ctrl-C) or whose input ended is saved the
same way, as the record of the game so far.
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
import textwrap
from pathlib import Path
from typing import Any, TextIO

from .._actions import Action, Destination, Give, Play
from ..bots import Bot, make_bot
from ..bots._arena import fill_lineup
from ..bots._search import DEFAULT_WORLDS
from .._cards import Card, coins
from ..catalogue import rule
from .._config import Config
from .._engine import apply, check_action, legal_actions, new_game
from .._errors import BotError, ConfigError, IllegalActionError
from ..rules.game import winners
from ..rules.setup import receiving_seat
from ..rules.setup import setup_steps
from .._state import GameState, Phase
from .._view import SeatView, view
from ._narrate import plain_width
from ._arguments import (
    add_game_options,
    bot_names,
    config_from_args,
    positive_int,
    unwritable_reason,
)

_QUIT = ("q", "quit", "exit")
_DO_NOT_SAVE = ("n", "no")

ANSWER_LIMIT = 200
"""The longest answer read, in characters: a longer line is read on to its end in pieces of
this size, kept nowhere, and refused (a card's number or a file name is far shorter)."""

QUOTED = 20
"""How much of a refused answer is quoted back."""


class Abandoned(Exception):
    """The person quit, or their input ended, before the game was over."""


class Screen:
    """The terminal's side of the game: lines wrapped at word boundaries to ``width`` columns
    (the terminal's width, as ``bottleimp simulate``'s plain text: ``plain_width``), each line
    that goes on indented under its start."""

    def __init__(self, out: TextIO, width: int) -> None:
        self.out = out
        self.width = max(width, 20)

    def say(self, text: str = "", indent: str = "") -> None:
        """``text`` wrapped, its first line indented by ``indent``, the others by two more."""
        print(self._wrap(text, indent), file=self.out)

    def ask(self, stdin: TextIO, question: str, choices: str) -> str:
        """The person's answer to ``question``, stripped; ``choices`` (``[1-9, q to quit]:``)
        follows the question on its last line, or on a line of its own, never split; ``Abandoned`` at the end of the input
        or on Ctrl-C. At most ``ANSWER_LIMIT`` characters are read and shown back (typed ahead
        or piped, the answer is shown as a terminal would); a longer line is refused whole."""
        lines = self._wrap(question).split("\n")
        if len(lines[-1]) + 1 + len(choices) <= self.width:
            lines[-1] += " " + choices
        else:
            lines.append("  " + choices)
        self.out.write("\n".join(lines) + " ")
        self.out.flush()
        try:
            line = stdin.readline(ANSWER_LIMIT + 1)
            too_long = len(line) > ANSWER_LIMIT and not line.endswith("\n")
            rest = line
            while too_long and rest and not rest.endswith("\n"):
                rest = stdin.readline(ANSWER_LIMIT)  # the rest of the line, read and dropped
        except KeyboardInterrupt:
            self.out.write("\n")
            raise Abandoned("interrupted") from None
        if not line:
            self.out.write("\n")
            raise Abandoned("input ended")
        if too_long:
            line = line[:ANSWER_LIMIT] + "\n"
        if not stdin.isatty():
            self.out.write(quoted(line.rstrip("\n"), ANSWER_LIMIT) + "\n")
        if too_long:
            self.say(f"That answer is longer than {ANSWER_LIMIT} characters.", "  ")
            return ""
        return line.strip()

    def _wrap(self, text: str, indent: str = "") -> str:
        if not text:
            return indent.rstrip()
        return textwrap.fill(text, self.width, initial_indent=indent,
                             subsequent_indent=indent + "  ", break_long_words=False,
                             break_on_hyphens=False)


def quoted(text: str, limit: int = QUOTED) -> str:
    """``text`` cut to ``limit`` characters (marked by an ellipsis), its control characters
    and undecodable bytes shown escaped: safe to write to a terminal."""
    cut = text[:limit] + ("…" if len(text) > limit else "")
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut)


def add_parser(subparsers: Any) -> None:
    """Register the ``play`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play a game in the terminal against bots",
        description="Play a game against bots in the terminal. You see your hand (numbered), "
        "the trick, the bottles and the scores; type a card's number to give or play it, q to "
        "quit. A card the rules refuse is refused with the rule that forbids it.",
    )
    add_game_options(parser)
    parser.add_argument("--seat", type=int, default=0, metavar="S",
                        help="your seat, from 0 (default 0; seat 0 deals the first round)")
    parser.add_argument("--agents", type=bot_names, default=("heuristic",), metavar="BOTS",
                        help="the bots at the other seats, from your left, separated by commas "
                        "(random, heuristic, search); the last fills the remaining seats "
                        "(default heuristic)")
    parser.add_argument("--worlds", type=positive_int, default=DEFAULT_WORLDS, metavar="W",
                        help=f"the search bot's budget (default {DEFAULT_WORLDS})")
    parser.add_argument("--save", metavar="FILE",
                        help="write the game's record (bottleimp-record/1) to FILE at the end, "
                        "or when you quit (checked before the first card; else you are asked "
                        "for a file name, with a default)")
    parser.set_defaults(run=run, parser=parser)


def _name(seat: int, me: int) -> str:
    return "you" if seat == me else f"seat {seat}"


def _cards(cards: tuple[Card, ...] | list[Card]) -> str:
    return ", ".join(str(card) for card in cards) if cards else "none"


def _destination(destination: Destination, seat: int, players: int) -> str:
    receiver = receiving_seat(players, seat, destination)
    return {
        Destination.DEVILS_TRICK: "for the Devil's Trick (the penalty of the bottle's owner)",
        Destination.LEFT: f"to pass to your left (seat {receiver})",
        Destination.RIGHT: f"to pass to your right (seat {receiver})",
        Destination.OPPONENT_FACE_UP: "to give to your opponent's face-up cards",
        Destination.OPPONENT_HIDDEN: "to give to your opponent's hidden hand",
    }[destination]


def describe_table(seen: SeatView) -> list[str]:
    """What the person's seat sees of the table, as lines of text."""
    me, players = seen.seat, seen.config.players
    bottles = []
    for bottle in seen.bottles:
        owner = "no owner" if bottle.owner is None else f"owned by {_name(bottle.owner, me)}"
        bottles.append(f"price {bottle.price:g}, {owner}")
    lines = [
        "Bottle" + ("s" if len(bottles) > 1 else "") + ": " + "; ".join(bottles),
        "Totals: " + " | ".join(f"{_name(s, me)} {seen.totals[s]}" for s in range(players)),
        "Cards in hand: " + " | ".join(f"{_name(s, me)} {seen.hand_sizes[s]}" for s in range(players)),
        "Captured coins: "
        + " | ".join(f"{_name(s, me)} {coins(seen.captured[s])}" for s in range(players)),
    ]
    if seen.face_up is not None:
        for seat, cards in enumerate(seen.face_up):
            lines.append(f"Face up, {_name(seat, me)}: {_cards(cards)}")
    if seen.phase is Phase.PLAY:
        number = len(seen.tricks) + 1
        trick = ", ".join(f"{_name(p.seat, me)} {p.card}" for p in seen.current_trick)
        lines.append(f"Trick {number}: " + (trick or f"{_name(seen.leader, me)} to lead"))
    return lines


def _offer(seen: SeatView, legal: tuple[Action, ...]) -> tuple[list[Card], str]:
    """The cards the person may name, numbered from 1, and the question."""
    cards = list(seen.hand)
    if seen.phase is Phase.SETUP:
        steps = setup_steps(seen.config, seen.dealer, seen.seat)
        question = "Choose a card " + _destination(
            steps[len(seen.my_setup)], seen.seat, seen.config.players
        )
    else:
        cards += list(seen.face_up[seen.seat]) if seen.face_up is not None else []
        question = "Play a card"
    return cards, question


def _person_chooses(
    state: GameState, seat: int, stdin: TextIO, screen: Screen
) -> Action:
    """Ask the person until they name an action the rules allow."""
    seen = view(state, seat)
    legal = legal_actions(state)
    allowed = {action.card for action in legal if isinstance(action, (Give, Play))}
    cards, question = _offer(seen, legal)
    screen.say()
    if seen.phase is Phase.PLAY:
        for line in describe_table(seen):
            screen.say(line)
        screen.say("Your cards (* may be played now):")
    else:
        screen.say("Your cards (* may be chosen now):")
    hidden = len(seen.hand)
    face_up = seen.phase is Phase.PLAY and seen.face_up is not None
    for number, card in enumerate(cards, 1):
        if face_up and number == 1:
            screen.say("Your hidden hand:", "  ")
        if face_up and number == hidden + 1:
            screen.say("Your face-up row:", "  ")
        mark = "*" if card in allowed else " "
        screen.say(f"{number:>2}{mark} {card}", "  ")
    numbers = "1" if len(cards) == 1 else f"1 to {len(cards)}"
    while True:
        answer = screen.ask(stdin, question, f"[{numbers.replace(' to ', '-')}, q to quit]:")
        if answer.lower() in _QUIT:
            raise Abandoned("you quit")
        try:
            number = int(answer)
        except ValueError:
            screen.say(f"Type a card's number, {numbers}, or q to quit"
                       + (f" (not {quoted(answer)!r})." if answer else "."), "  ")
            continue
        if not 1 <= number <= len(cards):
            screen.say(f"There is no card {quoted(str(number))}: type {numbers}.", "  ")
            continue
        card = cards[number - 1]
        action: Action
        if seen.phase is Phase.SETUP:
            destination = setup_steps(seen.config, seen.dealer, seat)[len(seen.my_setup)]
            action = Give(seat, card, destination)
        else:
            action = Play(seat, card)
        try:
            check_action(state, action)
        except IllegalActionError as error:
            screen.say(f"Refused: [{error.rule_id}] {error.message}.", "  ")
            broken = rule(error.rule_id)
            screen.say(f"{broken.title}: {broken.statement}", "  ")
            continue
        return action


def _does(seat: int, me: int, verb: str) -> str:
    """``"You play"`` or ``"Seat 2 plays"``."""
    return f"You {verb}" if seat == me else f"Seat {seat} {verb}s"


def _tell_step(
    before: GameState, action: Action, after: GameState, me: int, screen: Screen
) -> None:
    """What the person learns from one action: the plays, each trick's result, the setup once
    it resolves, each round's scores. Nothing hidden from their seat."""
    if isinstance(action, Give):
        if action.seat != me and len(before.round.setup[action.seat]) == 0:
            screen.say(f"Seat {action.seat} chooses setup cards face down.")
        if after.phase is not Phase.SETUP:
            seen = view(after, me)
            screen.say("Everyone has chosen; the cards move.")
            for give in seen.received:
                screen.say(f"You received {give.card} from seat {give.seat}.")
            screen.say(f"{_does(seen.leader, me, 'lead')} the first trick.")
        return
    if isinstance(action, Play):
        screen.say(f"{_does(action.seat, me, 'play')} {action.card}.")
        if len(after.round.tricks) > len(before.round.tricks):
            result = after.round.tricks[-1]
            wins = f"{_does(result.winner, me, 'win')} the trick with {result.winning_card}"
            if result.bottle is not None:
                screen.say(f"{wins}, under the price {result.price_before:g}, and "
                      f"{'buy' if result.winner == me else 'buys'} the bottle: its price is now "
                      f"{result.price_after:g}.")
            else:
                screen.say(f"{wins}: no card was under the price {result.price_before:g}.")
        if after.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            _tell_round_end(after, me, screen)
        return
    screen.say(f"{_does(action.seat, me, 'deal')} round {after.round.index + 1}.")


def _tell_round_end(state: GameState, me: int, screen: Screen) -> None:
    round_ = state.round
    players = state.config.players
    screen.say("")
    screen.say(f"Round {round_.index + 1} is over. The Devil's Trick: {_cards(round_.devils_trick)} "
          f"({coins(round_.devils_trick)} coins).")
    for bottle in round_.bottles:
        if bottle.owner is not None:
            screen.say(f"{_does(bottle.owner, me, 'own')} the bottle (price {bottle.price:g}).")
    assert round_.scores is not None
    screen.say("Round scores: " + " | ".join(f"{_name(s, me)} {round_.scores[s]}" for s in range(players)))
    screen.say("Totals: " + " | ".join(f"{_name(s, me)} {state.totals[s]}" for s in range(players)))


def legend(config: Config) -> list[str]:
    """What the marks of the screen mean, said once at the start of a game."""
    lines = [
        "How to read the screen: a card is its rank, its colour and its coins in brackets "
        "(24 blue (5): the 24 of blue, worth 5 coins). Your cards are numbered: type a "
        "card's number to choose it. A * marks the cards the rules allow you now; another "
        "is refused, with the rule that forbids it.",
    ]
    if config.players == 2:
        lines.append(
            "Devil's Eye: you play from your hidden hand and from your face-up row, which both "
            "players see; your cards are listed in those two groups, numbered on from the "
            "hand to the row.")
    return lines


def play_session(
    config: Config, seed: int, seat: int, bots: dict[int, Bot], stdin: TextIO, screen: Screen
) -> GameState:
    """Play a game: the person at ``seat`` answers on ``stdin``, the bots play the other seats.
    Returns the state reached: over, unless the person quit (``Abandoned`` carries no state, so
    the state so far is returned and ``state.is_over`` is false)."""
    state = new_game(config, seed)
    screen.say(f"A game of {config.players} players, seed {seed}. You are seat {seat}; "
               + ", ".join(f"seat {s}: {type(bot).__name__}" for s, bot in sorted(bots.items()))
               + ".")
    for line in legend(config):
        screen.say(line)
    partners = [s for team in config.teams or () if seat in team for s in team if s != seat]
    if partners:
        screen.say(f"Your partner is seat {partners[0]}: you share your scores.")
    screen.say(f"Round 1: seat {state.round.dealer} deals.")
    try:
        while state.to_act is not None:
            acting = state.to_act
            if acting == seat:
                try:
                    action = _person_chooses(state, seat, stdin, screen)
                except Abandoned as reason:
                    screen.say(f"Game abandoned ({reason}).")
                    return state
            else:
                action = bots[acting].choose(view(state, acting), legal_actions(state))
            after = apply(state, action)
            _tell_step(state, action, after, seat, screen)
            state = after
    except KeyboardInterrupt:  # Ctrl-C while a bot thinks (an answer's is caught by ``ask``)
        screen.say()
        screen.say("Game abandoned (interrupted).")
        return state
    best = winners(state.totals)
    screen.say()
    screen.say("The game is over. Winner" + ("s" if len(best) > 1 else "") + ": "
               + ", ".join(_name(s, seat) for s in best)
               + (" - you win!" if seat in best else "."))
    return state


def _save(state: GameState, path: str, screen: Screen) -> bool:
    from ..formats._records import record_from_state, write_record_file

    try:
        write_record_file(path, record_from_state(state))
    except (OSError, ValueError) as error:  # ValueError: a NUL byte in the name
        why = error.strerror if isinstance(error, OSError) and error.strerror else (
            "a file name cannot hold a NUL byte" if "\0" in path else str(error))
        print(f"bottleimp play: cannot write the record to {quoted(path, ANSWER_LIMIT)}: "
              f"{why}", file=sys.stderr)
        return False
    screen.say(f"Record written to {path}.")
    return True


def default_record_name(seed: int) -> str | None:
    """A file the record can be written to without overwriting one: ``bottleimp-SEED.json``
    (then ``-2``, ``-3``...) in the current folder, else the home folder, else the temporary
    folder; ``None`` when none of them can be written."""
    for folder in (Path.cwd(), Path.home(), Path(tempfile.gettempdir())):
        for number in range(1, 100):
            name = f"bottleimp-{seed}.json" if number == 1 else f"bottleimp-{seed}-{number}.json"
            candidate = folder / name
            if candidate.exists():
                continue
            if unwritable_reason(candidate) is None:
                return name if folder == Path.cwd() else str(candidate)
            break
    return None


def ask_to_save(state: GameState, seed: int, stdin: TextIO, screen: Screen) -> bool | None:
    """Ask for a file name until the record is written: Enter takes the default name, ``n``
    saves nothing; a name that cannot be written is refused and asked again. ``True`` once
    written, ``False`` when the person gave up after a name that could not be written, ``None``
    when they chose not to save (or their input ended) before trying one."""
    what = "the game's record" if state.is_over else "the record of the game so far"
    failed = False
    while True:
        default = default_record_name(seed)
        choices = (f"(Enter for {default}, a file name, or n not to save):" if default
                   else "(a file name, or n not to save):")
        try:
            answer = screen.ask(stdin, f"Save {what} to", choices)
        except Abandoned:
            screen.say("The record is not saved.")
            return False if failed else None
        if answer.lower() in _DO_NOT_SAVE:
            screen.say("The record is not saved.")
            return False if failed else None
        path = answer or default
        if path is None:
            screen.say("Type a file name, or n not to save.", "  ")
            continue
        if _save(state, path, screen):
            return True
        failed = True
        screen.say("Type another file name, or n not to save.", "  ")


def run(args: argparse.Namespace) -> int:
    """Play with the person on stdin/stdout; 0 once the game is over, 1 if abandoned, 2 for
    bad options (a ``--save`` path that cannot be written among them, before any card) or a
    record that could not be written."""
    parser: argparse.ArgumentParser = args.parser
    try:
        config = config_from_args(args)
    except ConfigError as error:
        parser.error(str(error))
    if type(args.seat) is not int or not 0 <= args.seat < config.players:
        parser.error(f"--seat must be 0 to {config.players - 1} for {config.players} players")
    try:
        others = fill_lineup(args.agents, config.players - 1)
    except BotError as error:
        parser.error(str(error))
    if args.save is not None:
        why = unwritable_reason(args.save)
        if why is not None:
            print(f"bottleimp play: cannot write the record to {quoted(args.save, ANSWER_LIMIT)}: "
                  f"{why}", file=sys.stderr)
            return 2
    seats = [(args.seat + offset) % config.players for offset in range(1, config.players)]
    bots = {
        seat: make_bot(name, args.seed * 31 + seat, worlds=args.worlds)
        for seat, name in zip(seats, others)
    }
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")  # a line that is not UTF-8 is a wrong answer
    screen = Screen(sys.stdout, plain_width(sys.stdout))
    state = play_session(config, args.seed, args.seat, bots, sys.stdin, screen)
    saved: bool | None = args.save is not None and _save(state, args.save, screen)
    if not saved:
        if args.save is not None:
            screen.say("The game's record is kept: name another file.")
        saved = ask_to_save(state, args.seed, sys.stdin, screen)
    if saved is False:
        return 2
    return 0 if state.is_over else 1

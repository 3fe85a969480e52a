"""``bottleimp play``: a person plays a game in the terminal against bots.

The person sees what their seat may see (rule VIEW-HIDDEN): their hand, the trick, the bottles,
every seat's card count and totals, the setup cards they received, and the Devil's Trick once a
round is over. Every card of the hand is numbered and the ones the rules allow are marked; a
card the rules refuse is refused with the broken rule's ID, the reason and the rule's statement
from the catalogue, and the person chooses again. The game's record (``bottleimp-record/1``) is
written with ``--save FILE``, or to a file named at the prompt at the end.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from typing import Any, TextIO

from ..actions import Action, Destination, Give, Play
from ..bots import Bot, make_bot
from ..bots.arena import fill_lineup
from ..bots.search import DEFAULT_WORLDS
from ..cards import Card, coins
from ..catalogue import rule
from ..config import Config
from ..engine import apply, check_action, legal_actions, new_game
from ..errors import BotError, ConfigError, IllegalActionError
from ..rules.game import winners
from ..rules.setup import receiving_seat
from ..rules.setup import setup_steps
from ..state import GameState, Phase
from ..view import SeatView, view
from .arguments import add_game_options, bot_names, config_from_args, positive_int

_QUIT = ("q", "quit", "exit")


class Abandoned(Exception):
    """The person quit, or their input ended, before the game was over."""


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
                        help="write the game's record (bottleimp-record/1) to FILE at the end "
                        "(else you are asked for a file name)")
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


def _ask(stdin: TextIO, out: TextIO, prompt: str) -> str:
    out.write(prompt)
    out.flush()
    line = stdin.readline()
    if not line:
        out.write("\n")
        raise Abandoned("input ended")
    if not stdin.isatty():  # typed ahead or piped: show the answer as a terminal would
        out.write(line if line.endswith("\n") else line + "\n")
    return line.strip()


def _person_chooses(
    state: GameState, seat: int, stdin: TextIO, out: TextIO
) -> Action:
    """Ask the person until they name an action the rules allow."""
    seen = view(state, seat)
    legal = legal_actions(state)
    allowed = {action.card for action in legal if isinstance(action, (Give, Play))}
    cards, question = _offer(seen, legal)
    print("", file=out)
    if seen.phase is Phase.PLAY:
        for line in describe_table(seen):
            print(line, file=out)
        print("Your cards (* may be played now):", file=out)
    else:
        print("Your cards:", file=out)
    for number, card in enumerate(cards, 1):
        mark = "*" if card in allowed else " "
        print(f"  {number:>2}{mark} {card}", file=out)
    while True:
        answer = _ask(stdin, out, f"{question} [1-{len(cards)}, q to quit]: ")
        if answer.lower() in _QUIT:
            raise Abandoned("you quit")
        try:
            number = int(answer)
        except ValueError:
            print(f"  Type a card's number, 1 to {len(cards)}, or q to quit (not {answer!r}).",
                  file=out)
            continue
        if not 1 <= number <= len(cards):
            print(f"  There is no card {number}: type 1 to {len(cards)}.", file=out)
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
            print(f"  Refused: [{error.rule_id}] {error.message}.", file=out)
            broken = rule(error.rule_id)
            print(textwrap.fill(f"{broken.title}: {broken.statement}", 78, initial_indent="  ",
                                subsequent_indent="  "), file=out)
            continue
        return action


def _does(seat: int, me: int, verb: str) -> str:
    """``"You play"`` or ``"Seat 2 plays"``."""
    return f"You {verb}" if seat == me else f"Seat {seat} {verb}s"


def _tell_step(before: GameState, action: Action, after: GameState, me: int, out: TextIO) -> None:
    """What the person learns from one action: the plays, each trick's result, the setup once
    it resolves, each round's scores. Nothing hidden from their seat."""
    if isinstance(action, Give):
        if action.seat != me and len(before.round.setup[action.seat]) == 0:
            print(f"Seat {action.seat} chooses setup cards face down.", file=out)
        if after.phase is not Phase.SETUP:
            seen = view(after, me)
            print("Everyone has chosen; the cards move.", file=out)
            for give in seen.received:
                print(f"You received {give.card} from seat {give.seat}.", file=out)
            print(f"{_does(seen.leader, me, 'lead')} the first trick.", file=out)
        return
    if isinstance(action, Play):
        print(f"{_does(action.seat, me, 'play')} {action.card}.", file=out)
        if len(after.round.tricks) > len(before.round.tricks):
            result = after.round.tricks[-1]
            wins = f"{_does(result.winner, me, 'win')} the trick with {result.winning_card}"
            if result.bottle is not None:
                print(f"{wins}, under the price {result.price_before:g}, and "
                      f"{'buy' if result.winner == me else 'buys'} the bottle: its price is now "
                      f"{result.price_after:g}.", file=out)
            else:
                print(f"{wins}: no card was under the price {result.price_before:g}.", file=out)
        if after.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
            _tell_round_end(after, me, out)
        return
    print(f"{_does(action.seat, me, 'deal')} round {after.round.index + 1}.", file=out)


def _tell_round_end(state: GameState, me: int, out: TextIO) -> None:
    round_ = state.round
    players = state.config.players
    print("", file=out)
    print(f"Round {round_.index + 1} is over. The Devil's Trick: {_cards(round_.devils_trick)} "
          f"({coins(round_.devils_trick)} coins).", file=out)
    for bottle in round_.bottles:
        if bottle.owner is not None:
            print(f"{_does(bottle.owner, me, 'own')} the bottle (price {bottle.price:g}).",
                  file=out)
    assert round_.scores is not None
    print("Round scores: " + " | ".join(f"{_name(s, me)} {round_.scores[s]}" for s in range(players)),
          file=out)
    print("Totals: " + " | ".join(f"{_name(s, me)} {state.totals[s]}" for s in range(players)),
          file=out)


def play_session(
    config: Config, seed: int, seat: int, bots: dict[int, Bot], stdin: TextIO, out: TextIO
) -> GameState:
    """Play a game: the person at ``seat`` answers on ``stdin``, the bots play the other seats.
    Returns the state reached: over, unless the person quit (``Abandoned`` carries no state, so
    the state so far is returned and ``state.is_over`` is false)."""
    state = new_game(config, seed)
    print(f"A game of {config.players} players, seed {seed}. You are seat {seat}; "
          + ", ".join(f"seat {s}: {type(bot).__name__}" for s, bot in sorted(bots.items()))
          + ".", file=out)
    partners = [s for team in config.teams or () if seat in team for s in team if s != seat]
    if partners:
        print(f"Your partner is seat {partners[0]}: you share your scores.", file=out)
    print(f"Round 1: seat {state.round.dealer} deals.", file=out)
    while state.to_act is not None:
        acting = state.to_act
        if acting == seat:
            try:
                action = _person_chooses(state, seat, stdin, out)
            except Abandoned as reason:
                print(f"Game abandoned ({reason}).", file=out)
                return state
        else:
            action = bots[acting].choose(view(state, acting), legal_actions(state))
        after = apply(state, action)
        _tell_step(state, action, after, seat, out)
        state = after
    best = winners(state.totals)
    print("", file=out)
    print("The game is over. Winner" + ("s" if len(best) > 1 else "") + ": "
          + ", ".join(_name(s, seat) for s in best)
          + (" - you win!" if seat in best else "."), file=out)
    return state


def _save(state: GameState, path: str, out: TextIO) -> bool:
    from ..formats.records import record_from_state, write_record_file

    try:
        write_record_file(path, record_from_state(state))
    except OSError as error:
        print(f"bottleimp play: cannot write the record to {path}: "
              f"{error.strerror or error}", file=sys.stderr)
        return False
    print(f"Record written to {path}.", file=out)
    return True


def run(args: argparse.Namespace) -> int:
    """Play with the person on stdin/stdout; 0 once the game is over, 1 if abandoned, 2 for
    bad options or a record that could not be written."""
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
    seats = [(args.seat + offset) % config.players for offset in range(1, config.players)]
    bots = {
        seat: make_bot(name, args.seed * 31 + seat, worlds=args.worlds)
        for seat, name in zip(seats, others)
    }
    out = sys.stdout
    state = play_session(config, args.seed, args.seat, bots, sys.stdin, out)
    path = args.save
    if path is None and state.is_over:
        try:
            path = _ask(sys.stdin, out, "Save the game's record to (a file name, or Enter to "
                        "skip): ") or None
        except Abandoned:
            path = None
    if path is not None and not _save(state, path, out):
        return 2
    return 0 if state.is_over else 1

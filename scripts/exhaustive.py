"""Exhaustive checking of small games: every reachable state of every deal, every invariant.

For each small configuration (a custom deck of a few cards per colour; every player count; one
and two bottles; teams; Devil's Eye; one or two rounds) this deals the deck through ``with_deal``
in every legal way (every partition of the deck among the seats, by every dealer) or, where
that is too many, in a documented set of those deals (every ``stride``-th deal of the fixed
enumeration order of ``bottleimp.conformance.perft.deals``, by each dealer listed), walks every state
reachable from each deal to the end of the game (``bottleimp.conformance.perft.reachable``, states
deduplicated by value), and checks:

- at every state, every check the Hypothesis state machines make (``tests/test_state_machine.py``
  against the independent restatement of the rules in ``tests/invariants.py``): zones partition
  the deck, bottles, hand sizes, the seat to act and the legal actions, totals and the game's
  end, the JSON round trip, every seat's view, and the refusal of each kind of illegal action;
- at every transition, the transition checks of the machines (follow suit, trick judgement,
  setup resolution, scoring, dealer rotation, the first dealer and the trick's price);
- the one-entry legality cache of ``apply``: every action legal in one state of a transition
  but not in the other is refused by ``apply`` in the other, after ``legal_actions`` of both
  states in either order; and the actions of every sibling state are refused unless legal.

Run from the repository root: ``python scripts/exhaustive.py`` (the configurations small enough
for CI), ``--all`` (every configuration, some of them for minutes), ``NAME ...`` (those named),
``--every-deal`` (every deal by every dealer, whatever the configuration's stride).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for _path in (str(REPO), str(REPO / "tests")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

import attrs  # noqa: E402

from bottleimp import (  # noqa: E402
    Action,
    Card,
    Colour,
    Config,
    GameState,
    Phase,
    apply,
    legal_actions,
    new_game,
    with_deal,
)
from bottleimp.conformance.perft import deal_count, deals  # noqa: E402

import test_state_machine as machine  # type: ignore[import-not-found]  # noqa: E402

_Y, _B, _R, _G = Colour.YELLOW, Colour.BLUE, Colour.RED, Colour.GREEN


def small_deck(size: int, colours: Sequence[Colour] = (_Y, _B, _R)) -> tuple[Card, ...]:
    """``size`` cards with distinct ranks, colours dealt round, coins 1-3: most ranks below the
    start price 19 (so bottles change hands) and a few above it (tricks that buy nothing)."""
    ranks = [3, 21, 7, 12, 26, 5, 16, 9, 30, 14, 2, 11, 18, 24, 6, 10, 33, 15]
    assert size <= len(ranks)
    return tuple(
        Card(rank, colours[index % len(colours)], 1 + index % 3)
        for index, rank in enumerate(ranks[:size])
    )


@dataclass(frozen=True)
class Exhaustive:
    """One configuration checked exhaustively: which deals (``stride`` 1 is every deal), by
    which dealers (``None``: every seat), from which point (``after``: the walk starts after
    that many actions of each deal, the first legal action each time; 0 is the deal itself),
    and whether CI runs it."""

    name: str
    config: Config
    stride: int = 1
    dealers: tuple[int, ...] | None = None
    after: int = 0
    ci: bool = False

    def dealer_seats(self, every_deal: bool) -> tuple[int, ...]:
        if self.dealers is None or every_deal:
            return tuple(range(self.config.players))
        return self.dealers


def _config(players: int, size: int, **options: object) -> Config:
    colours = (_Y, _B) if players == 3 and size <= 9 else (_Y, _B, _R)
    return Config(players=players, deck=small_deck(size, colours), **options)  # type: ignore[arg-type]


_SETUP = {2: 8, 3: 8, 4: 12, 5: 14, 6: 18}
"""Setup actions in a round of the small decks (the short 5-player dealer gives two)."""

CONFIGURATIONS: tuple[Exhaustive, ...] = (
    # In CI (well under two minutes in all): whole rounds of the 3-player decks from the deal,
    # and trick play (with the last setup choices) of the larger ones, over many deals.
    Exhaustive("3p-8cards", _config(3, 8, rounds=1), stride=560, ci=True),
    Exhaustive("3p-8cards-2rounds", _config(3, 8, rounds=2), stride=560, dealers=(0, 1),
               after=12, ci=True),
    Exhaustive("2p-devils-eye-play", _config(2, 12, rounds=1), stride=138600,
               after=_SETUP[2], ci=True),
    Exhaustive("4p-11cards-play", _config(4, 11, rounds=1), stride=18480, after=9, ci=True),
    Exhaustive("4p-12cards-teams-play", _config(4, 12, rounds=1, teams=((0, 2), (1, 3))),
               stride=92400, after=_SETUP[4] - 1, ci=True),
    Exhaustive("5p-14cards-play", _config(5, 14, rounds=1), stride=16816800, after=13,
               ci=True),
    Exhaustive("5p-14cards-2bottles-play", _config(5, 14, rounds=1, bottles=2),
               stride=16816800, after=13, ci=True),
    Exhaustive("5p-14cards-teams-play", _config(5, 14, rounds=1, teams=((0, 3), (1, 4), (2,))),
               stride=16816800, after=13, ci=True),
    Exhaustive("6p-17cards-2bottles-play", _config(6, 17, rounds=1, bottles=2),
               stride=7623616000, after=_SETUP[6], ci=True),
    Exhaustive("6p-17cards-teams-play", _config(6, 17, rounds=1, teams=((0, 3), (1, 4), (2, 5))),
               stride=7623616000, after=_SETUP[6], ci=True),
    # On demand (minutes to hours): whole rounds from the deal, setup included. (A game to a
    # target score has no walk of bounded size: rounds in which no total reaches the target can
    # follow one another without end. The state machines sample those games.)
    Exhaustive("3p-8cards-every-deal", _config(3, 8, rounds=1)),
    Exhaustive("3p-9cards-every-deal", _config(3, 9, rounds=1)),
    Exhaustive("3p-8cards-2rounds-more", _config(3, 8, rounds=2), stride=56, dealers=(0, 1)),
    Exhaustive("4p-11cards", _config(4, 11, rounds=1), stride=46200),
    Exhaustive("4p-12cards-teams", _config(4, 12, rounds=1, teams=((0, 2), (1, 3))),
               stride=369600),
    Exhaustive("2p-devils-eye", _config(2, 12, rounds=1), stride=207900),
    Exhaustive("5p-14cards-2bottles", _config(5, 14, rounds=1, bottles=2), stride=33633600),
    Exhaustive("6p-17cards", _config(6, 17, rounds=1), stride=22870848000),
)


@dataclass
class Summary:
    """What one configuration's exhaustive run found."""

    name: str
    deals: int
    all_deals: int
    states: int
    transitions: int
    terminal: int
    seconds: float


def _check_state(state: GameState) -> None:
    machine.check_zones_and_bottles(state)
    machine.check_hand_sizes(state)
    machine.check_legal_actions(state)
    machine.check_totals_and_game_end(state)
    copy = machine.check_round_trip(state)
    machine.check_views(state)
    machine.check_refusals(state, copy)


def check_game(start: GameState) -> tuple[int, int, int]:
    """Walk every state reachable from ``start`` and check it; ``(states, transitions, end)``."""
    from bottleimp.conformance.perft import reachable

    siblings: dict[int, list[GameState]] = {}

    def visit(before: GameState | None, action: Action | None, after: GameState) -> None:
        if before is None or action is None:
            _check_state(after)
            return
        machine.check_transition(before, action, after)
        _check_state(after)
        machine.check_actions_of_other_states(before, after)
        # The actions of the siblings (states one action apart from the same parent).
        family = siblings.setdefault(id(before), [])
        for sibling in family[-2:]:
            machine.check_actions_of_other_states(sibling, after)
        family.append(after)

    return reachable(start, visit)


def _upcoming_dealer(state: GameState) -> int:
    """The dealer of the round ``with_deal`` would deal now."""
    if state.phase is Phase.ROUND_OVER:
        return (state.round.dealer + 1) % state.config.players
    return state.round.dealer


def dealt_games(spec: Exhaustive, every_deal: bool) -> Iterator[GameState]:
    """The starting states: the chosen deals of the configuration, dealt through ``with_deal``.

    Seat ``d`` deals round ``d`` (seat 0 deals first), so for a dealer ``d > 0`` the game is
    configured ``d`` rounds longer and its first ``d`` rounds are played out from the first
    deal of the enumeration with the first legal action each time: the rounds checked
    exhaustively are the last ones, dealt by ``d``, with the same number of rounds left."""
    stride = 1 if every_deal else spec.stride
    for dealer in spec.dealer_seats(every_deal):
        config = spec.config
        if dealer and config.rounds is not None:
            config = attrs.evolve(config, rounds=config.rounds + dealer)
        elif dealer:
            raise ValueError(f"{spec.name}: a dealer other than seat 0 needs a number of rounds")
        start = new_game(config, seed=11)
        while _upcoming_dealer(start) != dealer:
            start = with_deal(start, *next(deals(config, _upcoming_dealer(start))))
            while start.phase is Phase.SETUP or start.phase is Phase.PLAY:
                start = apply(start, legal_actions(start)[0])
            if start.phase is Phase.GAME_OVER:
                raise ValueError(f"{spec.name}: the game ends before seat {dealer} deals")
        for deal in deals(config, dealer, stride):
            game = with_deal(start, *deal)
            for _ in range(spec.after):
                game = apply(game, legal_actions(game)[0])
            yield game


def run(spec: Exhaustive, every_deal: bool = False) -> Summary:
    """Check one configuration exhaustively."""
    started = time.perf_counter()
    states = transitions = terminal = count = 0
    for game in dealt_games(spec, every_deal):
        found, moves, ends = check_game(game)
        states, transitions, terminal, count = states + found, transitions + moves, terminal + ends, count + 1
    all_deals = sum(deal_count(spec.config, d) for d in range(spec.config.players))
    return Summary(spec.name, count, all_deals, states, transitions, terminal,
                   time.perf_counter() - started)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="configurations to check (default: the CI set)")
    parser.add_argument("--all", action="store_true", help="every configuration")
    parser.add_argument("--every-deal", action="store_true",
                        help="every deal by every dealer, whatever the configuration's stride")
    parser.add_argument("--list", action="store_true", help="list the configurations")
    args = parser.parse_args(argv)
    known = {spec.name: spec for spec in CONFIGURATIONS}
    if args.list:
        for spec in CONFIGURATIONS:
            total = sum(deal_count(spec.config, d) for d in range(spec.config.players))
            print(f"{spec.name:24} stride {spec.stride:>13} dealers {spec.dealers or 'all'}"
                  f"  ({total} deals in all){'  [ci]' if spec.ci else ''}")
        return 0
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"unknown configuration(s) {unknown}; known: {', '.join(known)}")
    chosen = ([known[n] for n in args.names] if args.names
              else list(CONFIGURATIONS) if args.all else [s for s in CONFIGURATIONS if s.ci])
    print(f"{'configuration':24} {'deals':>15} {'states':>10} {'transitions':>12} "
          f"{'terminal':>9} {'seconds':>8}", flush=True)
    for spec in chosen:
        summary = run(spec, args.every_deal)
        print(f"{summary.name:24} {summary.deals:>6} of {summary.all_deals:<6} "
              f"{summary.states:>10} {summary.transitions:>12} {summary.terminal:>9} "
              f"{summary.seconds:>8.1f}", flush=True)
    print("no violation")
    return 0


if __name__ == "__main__":
    sys.exit(main())

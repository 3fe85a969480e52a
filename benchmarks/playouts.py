"""Random legal playouts: decisions per second and rounds per second, with legality checks.

Every decision is ``legal_actions(state)`` then ``apply(state, action)`` (which checks the action
again). Prints figures for the 3- and 4-player game; when ``open_spiel`` is installed (the
``bench`` extra), it also plays Hearts with OpenSpiel's C++ engine driven from Python in the same
process and prints the ratio. Figures vary with the machine: compare ratios from one run.

    python benchmarks/playouts.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import time

import bottleimp


def bottleimp_playouts(config: bottleimp.Config, seconds: float) -> tuple[float, float]:
    """Play random legal games for about ``seconds``; returns (decisions/s, rounds/s)."""
    rng = random.Random(1)
    decisions = rounds = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    legal_actions, apply = bottleimp.legal_actions, bottleimp.apply
    while time.perf_counter() < deadline:
        state = bottleimp.new_game(config, seed)
        seed += 1
        while state.to_act is not None:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
            decisions += 1
        rounds += len(state.rounds)
    elapsed = time.perf_counter() - start
    return decisions / elapsed, rounds / elapsed


def hearts_playouts(seconds: float) -> float | None:
    """OpenSpiel's Hearts with random legal play for about ``seconds``: decisions/s, or None."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)
    decisions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    args = parser.parse_args()
    hearts = hearts_playouts(args.seconds)
    for players in (3, 4):
        rate, rounds = bottleimp_playouts(bottleimp.Config(players=players), args.seconds)
        line = f"bottleimp {players} players: {rate:,.0f} decisions/s, {rounds:,.0f} rounds/s"
        if hearts is not None:
            line += f" ({rate / hearts:.2f} x OpenSpiel Hearts)"
        print(line)
    if hearts is None:
        print("OpenSpiel Hearts: not measured (pip install -e '.[bench]' to compare)")
    else:
        print(f"OpenSpiel Hearts (C++ from Python): {hearts:,.0f} decisions/s")


if __name__ == "__main__":
    main()

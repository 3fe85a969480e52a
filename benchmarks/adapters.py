"""Random playouts through each adapter: decisions per second, next to the bare engine and
OpenSpiel's C++ Hearts driven the same way, in one run.

Every driver plays whole games choosing uniformly among the legal actions with Python's
``random``; chance nodes (the deals) are played but not counted, only decisions are.

- bare engine: ``legal_actions(state)`` then ``apply(state, action)``, ``StartRound`` included.
- OpenSpiel (``python_bottle_imp``) and Hearts: ``state.legal_actions()`` /
  ``state.chance_outcomes()`` then ``state.apply_action(a)``.
- PettingZoo (``raw_env``): ``env.last()`` (which builds the observation and mask of the agent
  to act), a random action among the mask's ones, ``env.step(a)``.

    python benchmarks/adapters.py [--seconds S] [--players 3 4 ...]

Rates are per second of this process's CPU time (``time.process_time``), so that other work
on the machine disturbs them less; they still vary with the machine: compare the ratios of one
run.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any

import pyspiel

import bottleimp
import bottleimp.adapters.openspiel  # noqa: F401  (registers python_bottle_imp)
from bottleimp.adapters.pettingzoo import raw_env


def engine(config: bottleimp.Config, seconds: float) -> float:
    rng = random.Random(1)
    decisions = seed = 0
    legal_actions, apply = bottleimp.legal_actions, bottleimp.apply
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = bottleimp.new_game(config, seed)
        seed += 1
        while state.to_act is not None:
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
            decisions += 1
    return decisions / (time.process_time() - start)


def openspiel(game: Any, seconds: float) -> float:
    rng = random.Random(1)
    decisions = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randrange(len(actions))])
                decisions += 1
    return decisions / (time.process_time() - start)


def pettingzoo(config: bottleimp.Config, seconds: float) -> float:
    rng = random.Random(1)
    env = raw_env(config=config)
    decisions = seed = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        env.reset(seed=seed)
        seed += 1
        for _ in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            if termination or truncation:
                env.step(None)
                continue
            legal = observation["action_mask"].nonzero()[0]
            env.step(int(legal[rng.randrange(len(legal))]))
            decisions += 1
    return decisions / (time.process_time() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per measurement")
    parser.add_argument("--players", type=int, nargs="+", default=[4])
    args = parser.parse_args()
    seconds = args.seconds
    hearts = openspiel(pyspiel.load_game("hearts"), seconds)
    print(f"OpenSpiel Hearts (C++ from Python): {hearts:>9,.0f} decisions/s")
    for players in args.players:
        config = bottleimp.Config(
            players=players, edition="classic" if players <= 4 else "matagot-2024")
        game = pyspiel.load_game("python_bottle_imp", {"players": players})
        rates: list[tuple[str, Callable[[], float]]] = [
            ("bare engine", lambda: engine(config, seconds)),
            ("OpenSpiel adapter", lambda: openspiel(game, seconds)),
            ("PettingZoo adapter", lambda: pettingzoo(config, seconds)),
        ]
        bare = None
        for name, measure in rates:
            rate = measure()
            bare = bare or rate
            print(
                f"{players} players, {name + ':':<19} {rate:>9,.0f} decisions/s  "
                f"{rate / hearts:.2f} x Hearts  {rate / bare:.2f} x bare engine"
            )


if __name__ == "__main__":
    main()

"""Play games with the batch engine and the reference side by side, in one process, and compare
them as OpenSpiel's ``test_consistent`` compares its two Kuhn pokers: at every state the seat to
act, the legal set (``encoding.legal_action_mask``), the observation of the seat to act and of
the next seat (``encoding.observation``) and the rewards of the step (``encoding.returns`` on the
step that ends a game, else 0); at the end the totals and the last round's scores. Both play the
same history: the action taken, at random among the reference's legal ones, goes to both.

    python -m bottleimp.batch.check [--games N] [--batch B] [--seed S] [--threads T]

plays N games of every variant (``VARIANTS``) in batches of B and prints how many states it
compared; a difference stops it with the game, the state and the segments of the observation
that differ (status 1). ``tests/test_batch.py`` runs it on a few games of every variant, the
kernel compiled and as plain Python (``NUMBA_DISABLE_JIT=1``).
"""

from __future__ import annotations

import argparse
import random
import sys
import time

import numpy as np

from .._config import Config
from .._editions import CLASSIC
from .._encoding import (action_from_int, legal_action_mask, observation, observation_layout,
                        returns)
from .._engine import apply, new_game
from .._view import view
from ._engine import GAME_OVER, BatchGames

__all__ = [
    "Mismatch", "compare_games", "main",
]


VARIANTS: tuple[Config, ...] = (
    Config(players=2),
    Config(players=2, edition="matagot-2024", rounds=2),
    Config(players=3),
    Config(players=3, target_score=40),
    Config(players=4),
    Config(players=4, edition="matagot-2024", teams=((0, 2), (1, 3)), rounds=2),
    Config(players=5),
    Config(players=5, bottles=2),
    Config(players=5, teams=((0, 3), (1, 4), (2,)), rounds=2),
    Config(players=6, bottles=2),
    Config(players=6, teams=((0, 3), (1, 4), (2, 5)), rounds=2),
    Config(players=3, deck=CLASSIC[:15], rounds=3),
    Config(players=2, deck=CLASSIC[:24], rounds=2),
)
"""Every variant the reference plays: 2-6 players, both editions (half ranks with 5-6), teams
with pairs and a single, two bottles, a target score, custom decks."""


class Mismatch(AssertionError):
    """The batch engine and the reference disagree."""


def _segments(config: Config, expected: np.ndarray, actual: np.ndarray) -> list[str]:
    wrong = np.flatnonzero(expected != actual)
    return sorted({segment.name for segment in observation_layout(config) for index in wrong
                   if segment.offset <= index < segment.offset + segment.size})


def compare_games(config: Config, seeds: list[int], seed: int = 0, threads: int | None = None) -> int:
    """Play ``len(seeds)`` games of ``config`` to their end in one batch, first dealers in turn,
    with random legal actions (from ``seed``), the batch on ``threads`` cores, comparing every
    state with the reference.
    Returns the number of states compared; raises ``Mismatch`` at the first difference."""
    size = len(seeds)
    dealers = [game % config.players for game in range(size)]
    games = BatchGames(config, size, autoreset=False, threads=threads)
    games.reset(seeds, dealers)
    states = [new_game(config, s, first_dealer=d) for s, d in zip(seeds, dealers)]
    rng = random.Random(seed)
    compared = 0
    while not all(state.is_over for state in states):
        mask = games.legal_mask().copy()
        own = games.observe().copy()
        others = games.observe((games.to_act + 1) % config.players)
        actions = np.zeros(size, dtype=np.int64)
        was_over = [state.is_over for state in states]
        for game, state in enumerate(states):
            where = f"{config!r}, seed {seeds[game]}, round {state.round.index}, {state.phase}"
            if state.to_act is None:
                if games.phase[game] != GAME_OVER:
                    raise Mismatch(f"{where}: the reference's game is over, the batch's is not")
                continue
            seat = state.to_act
            if games.to_act[game] != seat:
                raise Mismatch(f"{where}: seat {games.to_act[game]} acts, not seat {seat}")
            reference = np.array(legal_action_mask(state), dtype=np.bool_)
            if not (mask[game] == reference).all():
                raise Mismatch(f"{where}: masks differ at {np.flatnonzero(mask[game] != reference)}")
            for observer, got in ((seat, own[game]), ((seat + 1) % config.players, others[game])):
                expected = np.array(observation(view(state, observer)), dtype=np.float32)
                if not (got == expected).all():
                    raise Mismatch(f"{where}: seat {observer}'s observation differs in "
                                   f"{_segments(config, expected, got)}")
            legal = np.flatnonzero(reference)
            actions[game] = legal[rng.randrange(len(legal))]
            states[game] = apply(state, action_from_int(config, int(actions[game]), seat))
            compared += 1
        rewards = games.step(actions).rewards
        for game, state in enumerate(states):
            ended = state.is_over and not was_over[game]
            expected_rewards = returns(state) if ended else (0.0,) * config.players
            if list(rewards[game]) != list(expected_rewards):
                raise Mismatch(f"{config!r}, seed {seeds[game]}: rewards "
                               f"{list(rewards[game])}, not {list(expected_rewards)}")
    for game, state in enumerate(states):
        if list(games.totals[game]) != list(state.totals):
            raise Mismatch(f"{config!r}, seed {seeds[game]}: totals {list(games.totals[game])}, "
                           f"not {list(state.totals)}")
        if list(games.scores[game]) != list(state.round.scores or ()):
            raise Mismatch(f"{config!r}, seed {seeds[game]}: last round's scores "
                           f"{list(games.scores[game])}, not {list(state.round.scores or ())}")
    return compared


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="compare the batch engine with the reference")
    parser.add_argument("--games", type=int, default=200, help="games per variant")
    parser.add_argument("--batch", type=int, default=50, help="games per batch")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=int, default=None, help="cores (default: all)")
    args = parser.parse_args(argv)
    total_games = total_states = 0
    started = time.perf_counter()
    for config in VARIANTS:
        states = 0
        for first in range(0, args.games, args.batch):
            count = min(args.batch, args.games - first)
            seeds = [args.seed * 1_000_003 + first + game for game in range(count)]
            try:
                states += compare_games(config, seeds, args.seed + first, args.threads)
            except Mismatch as mismatch:
                print(f"MISMATCH: {mismatch}", file=sys.stderr)
                return 1
        total_games += args.games
        total_states += states
        deck = "" if config.deck is None else f", {len(config.cards)}-card deck"
        print(f"{config.players} players {config.edition} bottles={config.bottles} "
              f"teams={config.teams} rounds={config.rounds} target={config.target_score}{deck}: "
              f"{args.games} games, {states:,} states equal", flush=True)
    print(f"{total_games:,} games, {total_states:,} states: masks, observations (seat to act and "
          f"next seat), rewards, totals and scores equal the reference ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Train one seat of The Bottle Imp with masked PPO (``sb3_contrib.MaskablePPO``) against the
built-in bots, and print its win rates against random and heuristic bots before and after.

Needs the ``sb3`` extra (Stable-Baselines3 contrib and PyTorch; on a machine without a GPU,
install PyTorch's CPU build first)::

    pip install -e '.[sb3]'
    python examples/sb3_train.py --players 4 --steps 100000 --evaluations 5

The learner plays ``bottleimp.adapters.single_agent.SingleSeatEnv``: one seat drawn at each
game, the other seats played by bots (``--opponents``: ``random``, ``heuristic`` or ``mixed``,
one of each at random per seat), illegal actions masked. Every ``steps / evaluations``
decisions it plays ``--games`` games against three random bots and against three heuristic
bots, with the same seats and deals each time, choosing its most likely legal action, and
prints the share of games it won (a shared win counts) with a 95% interval. A seat that plays
at random wins about ``1 / players`` of the games against random bots.
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
import torch
from sb3_contrib import MaskablePPO

from bottleimp import Config
from bottleimp.adapters.single_agent import SingleSeatEnv, WinRate, win_rate

YARDSTICKS = ("random", "heuristic")


def evaluate(model: MaskablePPO, config: Config, games: int) -> dict[str, WinRate]:
    """The model's win rates against each yardstick (seeds apart from training's)."""

    def policy(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        action, _ = model.predict(observation, action_masks=mask, deterministic=True)
        return int(action)

    return {
        kind: win_rate(policy, games, config, opponents=kind, seed=10**9)
        for kind in YARDSTICKS
    }


def row(label: str, rates: dict[str, WinRate]) -> str:
    return f"{label:>12} | " + " | ".join(f"{str(rates[kind]):>15}" for kind in YARDSTICKS)


class MixedOpponents(SingleSeatEnv):
    """A table whose bots are drawn anew at each game: each seat random or heuristic."""

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        self._pool = config.players - 1

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        if seed is not None:
            super().reset(seed=seed)  # seeds np_random; the game itself is dealt below
        self.opponents = [str(self.np_random.choice(YARDSTICKS)) for _ in range(self._pool)]
        return super().reset(options=options)


def main(argv: list[str] | None = None) -> dict[str, dict[str, WinRate]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1, help="rounds per game")
    parser.add_argument("--steps", type=int, default=100_000, help="learner decisions in all")
    parser.add_argument("--evaluations", type=int, default=5, help="evaluations after the start")
    parser.add_argument("--games", type=int, default=500, help="games per evaluation")
    parser.add_argument("--opponents", choices=("random", "heuristic", "mixed"), default="mixed")
    parser.add_argument("--n-steps", type=int, default=2048, help="PPO's decisions per update")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    config = Config(
        players=args.players,
        edition="classic" if args.players <= 4 else "matagot-2024",
        rounds=args.rounds,
    )
    table: SingleSeatEnv = (
        MixedOpponents(config) if args.opponents == "mixed"
        else SingleSeatEnv(config, opponents=args.opponents)
    )
    table.reset(seed=args.seed)
    model = MaskablePPO(
        "MlpPolicy",
        table,
        n_steps=args.n_steps,
        batch_size=min(256, args.n_steps),
        n_epochs=4,
        learning_rate=3e-4,
        gamma=1.0,
        ent_coef=0.01,
        policy_kwargs={"net_arch": [128, 128]},
        seed=args.seed,
        device="cpu",
    )
    print(f"win rates over {args.games} games each, seats drawn, 95% intervals; "
          f"{args.players} players, {args.rounds} round(s), training against {args.opponents}")
    print(f"{'decisions':>12} | {'vs random':>15} | {'vs heuristic':>15}", flush=True)
    curve = {"0": evaluate(model, config, args.games)}
    print(row("0", curve["0"]), flush=True)
    chunk = max(1, args.steps // max(1, args.evaluations))
    trained = 0
    started = time.process_time()
    while trained < args.steps:
        step = min(chunk, args.steps - trained)
        model.learn(step, reset_num_timesteps=False)
        trained += step
        curve[str(trained)] = evaluate(model, config, args.games)
        print(row(str(trained), curve[str(trained)]), flush=True)
    print(f"{time.process_time() - started:.0f} s of CPU time", flush=True)
    return curve


if __name__ == "__main__":
    main()

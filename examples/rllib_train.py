"""Train one shared policy for every seat of The Bottle Imp with RLlib's PPO (self-play), on the
PettingZoo environment, masking illegal actions, and print its win rates against random and
heuristic bots before training and after each iteration.

Needs the ``rllib`` extra (Ray RLlib, PyTorch, PettingZoo; on a machine without a GPU, install
PyTorch's CPU build first)::

    pip install -e '.[rllib]'
    python examples/rllib_train.py --players 4 --iterations 10

Why win rates: in self-play every seat plays the same policy, so the policy's mean return is
fixed by the game, not by how well it plays (one winner +1 and three losers -1 average -0.5 at
four players, a little more with shared wins) and cannot show learning. After each iteration
the driver plays ``--games`` games of the policy (its most likely legal action) in one seat
against bots in the others, with the same seats and deals each time
(``bottleimp.adapters.single_agent.win_rate``), and prints the share it won with a 95%
interval; a seat that plays at random wins about ``1 / players`` of them against random bots.

**On a Ray cluster**: ``--address HOST:PORT`` (or ``auto`` on a cluster node) joins a running
cluster instead of starting Ray on this machine. The environment samplers (``--env-runners``,
one CPU each) are placed by Ray on the cluster's nodes; the driver prints each sampler's node.
The driver ships this checkout's ``bottleimp`` package to the cluster (Ray's ``py_modules``),
so the nodes need only the third-party packages of the ``rllib`` extra, in the same versions.
"""

from __future__ import annotations

import argparse
import os
import socket
import time
from pathlib import Path
from typing import Any

import numpy as np
import ray
import torch
from gymnasium import spaces
from pettingzoo.utils import BaseWrapper
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.wrappers.pettingzoo_env import PettingZooEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
    ActionMaskingTorchRLModule,
)
from ray.tune.registry import register_env

import bottleimp
from bottleimp import Config
from bottleimp.adapters.pettingzoo import raw_env
from bottleimp.adapters.single_agent import WinRate, win_rate

YARDSTICKS = ("random", "heuristic")


class RLlibKeys(BaseWrapper):  # type: ignore[misc]
    """RLlib's action-masking module reads ``observations`` and ``action_mask``: rename the
    environment's ``observation`` key (and make the mask float32, as the module expects)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._spaces = {
            agent: spaces.Dict(
                {
                    "observations": env.observation_space(agent)["observation"],
                    "action_mask": spaces.Box(0.0, 1.0, env.observation_space(agent)[
                        "action_mask"].shape, np.float32),
                }
            )
            for agent in env.possible_agents
        }

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        observation = self.env.observe(agent)
        return {
            "observations": observation["observation"],
            "action_mask": observation["action_mask"].astype(np.float32),
        }


def make_env(env_config: dict[str, Any]) -> PettingZooEnv:
    """The environment RLlib samples: the raw PettingZoo environment (masks keep every action
    legal) with RLlib's key names."""
    return PettingZooEnv(RLlibKeys(raw_env(**env_config)))


def where_am_i(_: Any = None) -> tuple[str, str, str, int, str]:
    """(Ray node ID, node IP, host name, process ID, the bottleimp package's folder) of the
    process it runs in."""
    context = ray.get_runtime_context()
    return (
        context.get_node_id(),
        ray.util.get_node_ip_address(),
        socket.gethostname(),
        os.getpid(),
        str(Path(bottleimp.__file__).parent),
    )


def evaluate(module: Any, config: Config, games: int) -> dict[str, WinRate]:
    """The policy's win rates in one seat against each yardstick (greedy, legal actions)."""

    def policy(observation: np.ndarray[Any, Any], mask: np.ndarray[Any, Any]) -> int:
        batch = {
            "obs": {
                "observations": torch.from_numpy(observation[None]),
                "action_mask": torch.from_numpy(mask[None].astype(np.float32)),
            }
        }
        with torch.no_grad():
            logits = module.forward_inference(batch)["action_dist_inputs"][0]
        return int(torch.argmax(logits))

    return {
        kind: win_rate(policy, games, config, opponents=kind, seed=10**9)
        for kind in YARDSTICKS
    }


def row(label: str, rates: dict[str, WinRate], extra: str = "") -> str:
    cells = " | ".join(f"{str(rates[kind]):>15}" for kind in YARDSTICKS)
    return f"{label:>9} | {cells}{extra}"


def main(argv: list[str] | None = None) -> dict[int, dict[str, WinRate]]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1, help="rounds per game")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--env-runners", type=int, default=1, help="sampling processes")
    parser.add_argument("--batch", type=int, default=8000, help="decisions per iteration")
    parser.add_argument("--minibatch", type=int, default=500)
    parser.add_argument("--epochs", type=int, default=6)
    parser.add_argument("--lr", type=float, default=5e-4)
    parser.add_argument("--games", type=int, default=500, help="games per evaluation")
    parser.add_argument("--address", default=None,
                        help="a running Ray cluster's address (HOST:PORT, or auto)")
    parser.add_argument("--checkpoint", action="store_true", help="save the trained policy")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    torch.set_num_threads(1)
    started = time.time()
    if args.address is None:
        # "local": a Ray of its own, even where a cluster started with `ray start` is running.
        ray.init(address="local", include_dashboard=False, num_cpus=args.env_runners + 1)
    else:
        package = Path(bottleimp.__file__).parent
        ray.init(address=args.address, runtime_env={"py_modules": [str(package)]})
        nodes = [node for node in ray.nodes() if node["Alive"]]
        print(f"cluster at {args.address}: {len(nodes)} nodes")
        for node in nodes:
            print(f"  node {node['NodeID'][:12]} at {node['NodeManagerAddress']}, "
                  f"{node['Resources'].get('CPU', 0):.0f} CPU")
    register_env("bottle_imp", make_env)
    env_config = {"players": args.players, "rounds": args.rounds}
    config = (
        PPOConfig()
        # RLlib's environment check steps with unmasked random actions, which the game refuses.
        .environment("bottle_imp", env_config=env_config, disable_env_checking=True)
        # A slow machine may take longer than RLlib's default minute to sample a batch: wait.
        .env_runners(
            num_env_runners=args.env_runners,
            num_envs_per_env_runner=1,
            num_cpus_per_env_runner=1,
            sample_timeout_s=900,
        )
        .multi_agent(
            policies={"shared"},
            policy_mapping_fn=lambda agent_id, episode, **kwargs: "shared",
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    "shared": RLModuleSpec(
                        module_class=ActionMaskingTorchRLModule,
                        model_config={"head_fcnet_hiddens": [128, 128]},
                    )
                }
            )
        )
        .training(
            train_batch_size_per_learner=args.batch,
            minibatch_size=args.minibatch,
            num_epochs=args.epochs,
            lr=args.lr,
            gamma=1.0,
            lambda_=0.95,
            entropy_coeff=0.01,
        )
        .debugging(seed=args.seed)
    )
    algorithm = config.build_algo()
    places = algorithm.env_runner_group.foreach_env_runner(where_am_i, local_env_runner=False)
    driver = where_am_i()
    print(f"driver: node {driver[0][:12]} ({driver[1]}, {driver[2]}, pid {driver[3]})")
    for index, (node, ip, host, pid, package) in enumerate(places, 1):
        print(f"env runner {index}: node {node[:12]} ({ip}, {host}, pid {pid}), "
              f"bottleimp from {package}")

    config_for_games = Config(
        players=args.players,
        edition="classic" if args.players <= 4 else "matagot-2024",
        rounds=args.rounds,
    )
    module = algorithm.get_module("shared")
    print(f"win rates over {args.games} games each, one seat against bots, 95% intervals")
    print(f"{'iteration':>9} | {'vs random':>15} | {'vs heuristic':>15} | games, decisions "
          f"sampled, self-play return of player_0, seconds")
    curve = {0: evaluate(module, config_for_games, args.games)}
    print(row("0", curve[0]), flush=True)
    for iteration in range(1, args.iterations + 1):
        result = algorithm.train()
        runners = result.get("env_runners", {})
        returns = runners.get("agent_episode_returns_mean", {})
        module = algorithm.get_module("shared")
        curve[iteration] = evaluate(module, config_for_games, args.games)
        extra = (
            f" | {int(runners.get('num_episodes_lifetime', 0))}, "
            f"{int(runners.get('num_env_steps_sampled_lifetime', 0))}, "
            f"{returns.get('player_0', float('nan')):+.2f}, "
            f"{result.get('time_this_iter_s', 0.0):.0f}"
        )
        print(row(str(iteration), curve[iteration], extra), flush=True)
    if args.checkpoint:
        print("checkpoint:", algorithm.save().checkpoint.path)
    algorithm.stop()
    ray.shutdown()
    print(f"{time.time() - started:.0f} s in all")
    return curve


if __name__ == "__main__":
    main()

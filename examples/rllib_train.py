"""Train one shared policy for every seat of The Bottle Imp with RLlib's PPO (self-play), on the
PettingZoo environment, masking illegal actions.

Needs the ``rllib`` extra (Ray RLlib, PyTorch, PettingZoo)::

    pip install -e '.[rllib]'
    python examples/rllib_train.py --players 4 --iterations 5

Each iteration samples games with the current policy, updates it with PPO and prints the mean
return of the policy's seats over the games that ended (+1 for a winner, -1 for the others: a
policy that learns wins more often against itself only as far as ties are shared, so watch the
policy's loss and entropy, or evaluate it against ``bottleimp.bots.HeuristicBot``).

Ray is started on this machine; to use a cluster, start Ray there and pass ``--address auto``.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np
import ray
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

from bottleimp.adapters.pettingzoo import raw_env


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
    return PettingZooEnv(RLlibKeys(raw_env(**env_config)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=1, help="rounds per game")
    parser.add_argument("--iterations", type=int, default=5)
    parser.add_argument("--env-runners", type=int, default=1)
    parser.add_argument("--batch", type=int, default=2000, help="decisions per iteration")
    parser.add_argument("--address", default=None, help="a Ray cluster's address")
    args = parser.parse_args()

    ray.init(address=args.address, include_dashboard=False)
    register_env("bottle_imp", make_env)
    env_config = {"players": args.players, "rounds": args.rounds}
    config = (
        PPOConfig()
        # RLlib's environment check steps with unmasked random actions, which the game refuses.
        .environment("bottle_imp", env_config=env_config, disable_env_checking=True)
        # A slow machine may take longer than RLlib's default minute to sample a batch: wait.
        .env_runners(
            num_env_runners=args.env_runners, num_envs_per_env_runner=1, sample_timeout_s=900
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
            minibatch_size=256,
            num_epochs=4,
            lr=3e-4,
        )
    )
    algorithm = config.build_algo()
    for iteration in range(1, args.iterations + 1):
        result = algorithm.train()
        runners = result.get("env_runners", {})
        learner = result.get("learners", {}).get("shared", {})
        print(
            f"iteration {iteration}: "
            f"games {int(runners.get('num_episodes_lifetime', 0))}, "
            f"decisions {int(runners.get('num_env_steps_sampled_lifetime', 0))}, "
            f"mean return {runners.get('agent_episode_returns_mean', {}).get('player_0', float('nan')):+.3f} "
            f"(player_0), "
            f"policy loss {learner.get('policy_loss', float('nan')):.4f}, "
            f"entropy {learner.get('entropy', float('nan')):.3f}, "
            f"{result.get('time_this_iter_s', 0.0):.1f}s",
            flush=True,
        )
    checkpoint = algorithm.save()
    print("checkpoint:", checkpoint.checkpoint.path)
    algorithm.stop()
    ray.shutdown()


if __name__ == "__main__":
    main()

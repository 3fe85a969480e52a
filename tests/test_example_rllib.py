"""The RLlib example's environment glue (skipped where Ray RLlib is not installed: the ``rllib``
extra is too heavy for CI). Training itself is not run here; see docs/guide/bots.md."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any

import numpy as np
import pytest

pytest.importorskip("ray.rllib")
pytest.importorskip("torch")

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "rllib_train.py"


def load_example() -> Any:
    spec = importlib.util.spec_from_file_location("rllib_train", EXAMPLE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_rllib_environment_plays_whole_games_with_masks() -> None:
    example = load_example()
    env = example.make_env({"players": 3, "rounds": 1})
    rng = np.random.default_rng(0)
    observations, _ = env.reset(seed=4)
    final: dict[str, float] = {}
    while True:
        (agent, obs), = observations.items()
        assert obs["observations"].shape == env.observation_space[agent]["observations"].shape
        legal = np.flatnonzero(obs["action_mask"])
        observations, rewards, terminated, truncated, _ = env.step(
            {agent: int(rng.choice(legal))})
        final.update(rewards)
        if terminated["__all__"]:
            break
    assert set(final) == {"player_0", "player_1", "player_2"}
    assert sorted(set(final.values())) in ([-1.0, 1.0], [1.0])

"""The RLlib example (examples/rllib_train.py): its environment glue, and one tiny training
iteration with its evaluation against the bots (skipped, with a message, where Ray RLlib is
not installed: the ``rllib`` extra is too heavy for CI). The learning curve and the run on a
two-node Ray cluster are in docs/guide/bots.md."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from example_scripts import load_example

pytest.importorskip("ray.rllib", reason="Ray RLlib is not installed (extra rllib)")
pytest.importorskip("torch", reason="PyTorch is not installed (extra rllib)")


def test_the_rllib_environment_plays_whole_games_with_masks() -> None:
    example = load_example("rllib_train")
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


def test_the_rllib_example_trains_an_iteration_and_prints_win_rates(capsys: Any) -> None:
    example = load_example("rllib_train")
    curve = example.main(["--players", "3", "--iterations", "1", "--batch", "200",
                          "--minibatch", "100", "--epochs", "1", "--games", "4"])
    assert list(curve) == [0, 1]
    for rates in curve.values():
        assert set(rates) == {"random", "heuristic"}
        assert all(rate.games == 4 and 0 <= rate.wins <= 4 for rate in rates.values())
    out = capsys.readouterr().out
    assert "env runner 1: node " in out
    assert [line.split("|")[0].strip() for line in out.splitlines() if "|" in line][1:] == [
        "0", "1"]

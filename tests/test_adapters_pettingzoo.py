"""The PettingZoo environment: PettingZoo's own api_test for every variant, observations and
masks from the views, rewards, seeding and rendering."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import bottleimp
from bottleimp import Config, Phase, observation, view
from bottleimp.adapters.pettingzoo import BottleImpEnv, env, raw_env
from games import VARIANTS

SHORT = {
    name: Config(
        players=config.players,
        edition=config.edition,
        bottles=config.bottles,
        teams=config.teams,
        rounds=1 if config.target_score is None else None,
        target_score=config.target_score,
    )
    for name, config in VARIANTS.items()
}


# api_test warns about every Dict observation with an action mask (PettingZoo's classic games
# too): the warnings say nothing about this environment.
@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("name", SHORT)
def test_pettingzoo_api_test_passes(name: str) -> None:
    api_test(env(config=SHORT[name], render_mode="ansi"), num_cycles=200)


def play(game: Any, seed: int) -> dict[str, float]:
    """Play a whole game of random legal actions; the rewards each agent saw at the end."""
    game.reset(seed=seed)
    rng = np.random.default_rng(seed)
    final: dict[str, float] = {}
    for agent in game.agent_iter():
        obs, reward, termination, truncation, _ = game.last()
        if termination or truncation:
            final[agent] = reward
            game.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        game.step(int(rng.choice(legal)))
    return final


@pytest.mark.parametrize("name", SHORT)
def test_observations_and_masks_are_those_of_the_views_after_every_action(name: str) -> None:
    # The environment updates observations action by action: compare them with the views'
    # observations for every seat after every action of two rounds (or a target-score game).
    config = SHORT[name]
    if config.rounds is not None:
        config = Config(players=config.players, edition=config.edition, bottles=config.bottles,
                        teams=config.teams, rounds=2)
    game = raw_env(config=config)
    game.reset(seed=5)
    step = 0
    while not game.game_state.is_over:
        step += 1
        state = game.game_state
        assert state.phase in (Phase.SETUP, Phase.PLAY)
        for seat, agent in enumerate(game.possible_agents):
            obs = game.observe(agent)
            assert obs["observation"].dtype == np.float32
            assert np.array_equal(obs["observation"],
                                  np.array(observation(view(state, seat)), np.float32))
            mask = obs["action_mask"]
            assert mask.dtype == np.int8
            if seat == state.to_act:
                assert list(np.flatnonzero(mask)) == bottleimp.legal_action_ints(state)
                assert game.agent_selection == agent
            else:
                assert not mask.any()
        legal = bottleimp.legal_action_ints(state)
        game.step(legal[(step * 7) % len(legal)])
        if step % 5 == 0:  # agents observed at odd moments too
            game.observe(game.possible_agents[step % config.players])


def test_rounds_start_by_themselves_and_the_rewards_are_the_results() -> None:
    game = raw_env(players=3, rounds=2)
    final = play(game, 11)
    state = game.game_state
    assert state.is_over and len(state.rounds) == 2
    assert final == {
        f"player_{seat}": result for seat, result in enumerate(bottleimp.returns(state))
    }
    assert game.agents == []


def test_the_same_seed_deals_the_same_game() -> None:
    first, second = raw_env(players=5, rounds=1), raw_env(players=5, rounds=1)
    play(first, 3)
    play(second, 3)
    assert first.game_state == second.game_state
    assert first.game_state.seed == 3
    first.reset(seed=3)
    assert first.game_state == bottleimp.new_game(Config(players=5, edition="matagot-2024",
                                                         rounds=1), 3)


def test_ansi_rendering_shows_the_table() -> None:
    game = raw_env(players=2, rounds=1, render_mode="ansi")
    game.reset(seed=1)
    text = game.render()
    assert text is not None
    assert text.splitlines()[0] == "round 1, dealer seat 0, setup, to act: 1"
    assert "face up" in text
    assert raw_env(players=3).render() is None
    with pytest.raises(ValueError):
        BottleImpEnv(render_mode="human")


def test_illegal_actions_are_refused() -> None:
    game = raw_env(players=4, rounds=1)
    game.reset(seed=2)
    illegal = next(n for n, bit in enumerate(game.observe(game.agent_selection)["action_mask"])
                   if not bit)
    with pytest.raises(bottleimp.IllegalActionError):
        game.step(illegal)
    with pytest.raises(TypeError):
        raw_env(config=Config(players=4), players=4)

"""The PettingZoo environment: PettingZoo's own api_test for every variant and reward option,
observations and masks from the views, infos, rewards, illegal actions, seeding and
rendering."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test

import bottleimp
from bottleimp import Config, Phase, observation, view
from bottleimp.adapters.pettingzoo import REWARDS, BottleImpEnv, env, raw_env
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
@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize("name", SHORT)
def test_pettingzoo_api_test_passes(name: str, reward: str) -> None:
    api_test(env(config=SHORT[name], render_mode="ansi", reward=reward), num_cycles=200)


@pytest.mark.filterwarnings("ignore:Observation space for each agent probably")
@pytest.mark.filterwarnings("ignore:Observation is not a NumPy array")
@pytest.mark.parametrize("reward", REWARDS)
def test_pettingzoo_api_test_passes_when_illegal_actions_raise(reward: str) -> None:
    api_test(env(players=4, rounds=2, reward=reward, illegal_reward=None), num_cycles=300)


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
    # Every seat's observation and mask are those of its view, after every action of two rounds
    # (or a target-score game).
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


def illegal_number(game: Any) -> int:
    mask = game.observe(game.agent_selection)["action_mask"]
    return int(np.flatnonzero(mask == 0)[0])


@pytest.mark.parametrize("make", [raw_env, lambda **kw: env(illegal_reward=None, **kw)])
def test_illegal_actions_raise_when_asked_and_change_nothing(make: Any) -> None:
    game = make(players=4, rounds=1)
    game.reset(seed=2)
    before = game.unwrapped.game_state
    with pytest.raises(bottleimp.IllegalActionError):
        game.step(illegal_number(game))
    assert game.unwrapped.game_state is before
    with pytest.raises(TypeError):
        raw_env(config=Config(players=4), players=4)


@pytest.mark.filterwarnings("ignore")
def test_an_illegal_action_ends_the_game_with_a_penalty_for_its_author() -> None:
    # As PettingZoo's classic games (TerminateIllegalWrapper): -1 for the offender, 0 for the
    # others, every agent done, then each steps None until none is left.
    game = env(players=4, rounds=2, reward="round", illegal_reward=-2.5)
    game.reset(seed=2)
    for _ in range(13):  # into the play of the first round
        game.step(int(np.flatnonzero(game.observe(game.agent_selection)["action_mask"])[0]))
    offender = game.agent_selection
    before = game.unwrapped.game_state
    game.step(illegal_number(game))
    assert game.unwrapped.game_state is before
    seen = {}
    for agent in game.agent_iter():
        _, reward, termination, truncation, _ = game.last()
        assert termination and truncation
        seen[agent] = reward
        game.step(None)
    assert seen == {agent: (-2.5 if agent == offender else 0.0) for agent in game.possible_agents}


@pytest.mark.parametrize("config", [Config(players=3, rounds=3), Config(players=5,
                         edition="matagot-2024", rounds=2, teams=((0, 2), (1, 3), (4,)))])
def test_reward_options_give_the_results_the_round_scores_or_their_differences(
    config: Config,
) -> None:
    finals = {reward: collect(raw_env(config=config, reward=reward), 21) for reward in REWARDS}
    games = {reward: game for reward, (game, _) in finals.items()}
    state = games["game"].game_state
    assert all(game.game_state == state for game in games.values())  # same seed, same play
    rounds = [r.scores for r in state.rounds if r.scores is not None]
    players = config.players
    assert len(rounds) == config.rounds
    agents = games["game"].possible_agents
    for seat, agent in enumerate(agents):
        assert finals["game"][1][agent] == [bottleimp.returns(state)[seat]]
        assert finals["round"][1][agent] == [float(s[seat]) for s in rounds if s[seat]]
        differences = [s[seat] - (sum(s) - s[seat]) / (players - 1) for s in rounds]
        assert finals["difference"][1][agent] == pytest.approx([d for d in differences if d])
    for scores in rounds:
        assert sum(s - (sum(scores) - s) / (players - 1) for s in scores) == pytest.approx(0.0)
    with pytest.raises(ValueError, match="reward must be one of game, round, difference"):
        raw_env(players=3, reward="points")


def collect(game: BottleImpEnv, seed: int) -> tuple[BottleImpEnv, dict[str, list[float]]]:
    """Play a game with the first legal action; each agent's nonzero rewards, as ``last()``
    reported them at its turns and at the end (a round ends at one agent's action, so each
    agent sees each round's reward once)."""
    game.reset(seed=seed)
    rewards: dict[str, list[float]] = {agent: [] for agent in game.possible_agents}
    for agent in game.agent_iter():
        obs, reward, termination, truncation, _ = game.last()
        if reward:
            rewards[agent].append(reward)
        if termination or truncation:
            game.step(None)
        else:
            game.step(int(np.flatnonzero(obs["action_mask"])[0]))
    return game, rewards


def test_infos_hold_the_legal_actions_of_the_agent_to_act() -> None:
    game = env(players=4, rounds=1)
    game.reset(seed=6)
    steps = 0
    for agent in game.agent_iter():
        obs, _, termination, truncation, info = game.last()
        if termination or truncation:
            assert info["legal_actions"] == []
            game.step(None)
            continue
        assert info["legal_actions"] == list(np.flatnonzero(obs["action_mask"]))
        assert info["legal_actions"] == bottleimp.legal_action_ints(game.unwrapped.game_state)
        for other in game.possible_agents:
            if other != agent:
                assert game.infos[other]["legal_actions"] == []
        game.step(info["legal_actions"][-1])
        steps += 1
    last = game.unwrapped.game_state.round
    assert steps == sum(len(gives) for gives in last.setup) + len(last.plays)

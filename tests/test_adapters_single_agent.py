"""The single-seat Gymnasium environment: Gymnasium's and Stable-Baselines3's own environment
checkers, masks, rewards, bots in the other seats, illegal actions and win rates."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gymnasium_check_env

import bottleimp
from bottleimp import Config
from bottleimp.adapters.pettingzoo import REWARDS
from bottleimp.adapters.single_agent import SingleSeatEnv, WinRate, win_rate
from bottleimp.bots import RandomBot


@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize("opponents", ["random", "heuristic"])
def test_gymnasium_env_checker_passes(reward: str, opponents: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PettingZoo's note on each illegal action it is sent
        gymnasium_check_env(SingleSeatEnv(players=4, rounds=1, opponents=opponents,
                                          reward=reward), skip_render_check=True)


@pytest.mark.parametrize("reward", REWARDS)
@pytest.mark.parametrize("players", [2, 3, 5])
def test_stable_baselines3_check_env_passes(reward: str, players: int) -> None:
    env_checker = pytest.importorskip(
        "stable_baselines3.common.env_checker",
        reason="Stable-Baselines3 is not installed (extra sb3)")
    # check_env steps with random actions, most of them illegal: each ends the game with -1.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        env_checker.check_env(SingleSeatEnv(players=players, rounds=1, reward=reward))


def play(table: SingleSeatEnv, seed: int) -> tuple[list[float], dict[str, Any]]:
    """A game of the learner's lowest legal action; its rewards and the last info."""
    observation, info = table.reset(seed=seed)
    rewards: list[float] = []
    done = False
    while not done:
        mask = table.action_masks()
        assert mask.dtype == bool and np.array_equal(np.flatnonzero(mask), info["legal_actions"])
        assert np.array_equal(observation, np.array(bottleimp.observation(
            bottleimp.view(table.game_state, table.seat)), np.float32))
        assert table.game_state.to_act == table.seat
        observation, reward, done, truncated, info = table.step(info["legal_actions"][0])
        assert not truncated
        rewards.append(reward)
    return rewards, info


def test_the_learner_acts_only_at_its_turns_and_gets_its_rewards() -> None:
    table = SingleSeatEnv(players=3, rounds=2, reward="round", opponents=["heuristic", "random"])
    seats = set()
    for seed in range(4):
        rewards, info = play(table, seed)
        state = table.game_state
        assert state.is_over
        assert sum(rewards) == state.totals[table.seat]
        scores = [r.scores[table.seat] for r in state.rounds if r.scores is not None]
        assert sorted(r for r in rewards if r) == sorted(float(s) for s in scores if s)
        assert info["winners"] == bottleimp.winners(state)
        assert not table.action_masks().any() and info["legal_actions"] == []
        seats.add(table.seat)
    assert len(seats) > 1  # the seat is drawn at each game


def test_a_fixed_seat_and_bot_objects_and_the_game_result() -> None:
    table = SingleSeatEnv(Config(players=4, rounds=1), seat=2, opponents=[
        RandomBot(1), "heuristic", RandomBot(2)])
    rewards, info = play(table, 5)
    assert table.seat == 2 and info["seat"] == 2
    assert rewards[:-1] == [0.0] * (len(rewards) - 1)
    assert rewards[-1] == bottleimp.returns(table.game_state)[2]
    named = SingleSeatEnv(Config(players=4, rounds=1), seat=2, opponents=[
        "random", "heuristic", "random"])
    play(named, 5)
    first = named.game_state
    play(named, 5)
    assert named.game_state == first  # the same seed, the same game (named bots seeded anew)


def test_an_illegal_action_ends_the_game_with_a_penalty() -> None:
    table = SingleSeatEnv(players=4, rounds=1, illegal_reward=-3.0)
    table.reset(seed=1)
    before = table.game_state
    illegal = int(np.flatnonzero(~table.action_masks())[0])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _, reward, done, _, info = table.step(illegal)
    assert (reward, done, info["winners"]) == (-3.0, True, ())
    assert table.game_state is before
    raising = SingleSeatEnv(players=4, rounds=1, illegal_reward=None)
    raising.reset(seed=1)
    with pytest.raises(bottleimp.IllegalActionError):
        raising.step(illegal)


def test_wrong_arguments_are_refused() -> None:
    with pytest.raises(ValueError, match="seat must be None or a seat from 0 to 3"):
        SingleSeatEnv(players=4, seat=4)
    for wrong in (True, 1.5, "1", object()):
        with pytest.raises(ValueError, match="seat must be"):
            SingleSeatEnv(players=4, seat=wrong)  # type: ignore[arg-type]
    assert SingleSeatEnv(players=4, seat=np.int64(2)).seat == 2  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="one opponent for each of the other 3 seats, not 2"):
        SingleSeatEnv(players=4, opponents=["random", "random"])
    with pytest.raises(ValueError, match="unknown bot 'best'"):
        SingleSeatEnv(players=4, opponents="best")


def test_win_rates_count_the_games_won_reproducibly() -> None:
    def lowest(observation: Any, mask: Any) -> int:
        return int(np.flatnonzero(mask)[0])

    first = win_rate(lowest, 30, players=4, rounds=1, opponents="random", seed=7)
    assert first == win_rate(lowest, 30, Config(players=4, rounds=1), seed=7)
    assert first.games == 30 and 0 < first.wins < 30
    rate = WinRate(wins=12, games=48)
    assert (rate.rate, round(rate.margin, 4), str(rate)) == (0.25, 0.1225, " 25.0% ± 12.2%")


def test_reset_takes_the_librarys_seeds_where_gymnasium_refuses_them() -> None:
    """Any integer, negative or numpy, taken mod ``2**64``; anything else is the library's
    ``ArgumentError`` naming the argument, never Gymnasium's error."""
    from bottleimp._errors import ArgumentError

    table = SingleSeatEnv(Config(players=3, rounds=1), opponents="random")
    negative = table.reset(seed=-1)[0]
    state = table.game_state
    assert (table.reset(seed=2**64 - 1)[0] == negative).all() and table.game_state == state
    table.reset(seed=np.int64(5))
    numpy_seeded = table.game_state
    table.reset(seed=5)
    assert table.game_state == numpy_seeded
    for seed in (1.5, "1", True, [1]):
        with pytest.raises(ArgumentError, match="reset\\(seed\\)"):
            table.reset(seed=seed)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="reset\\(options\\)"):
        table.reset(options=[])  # type: ignore[arg-type]

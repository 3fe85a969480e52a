"""Gymnasium environments over the batch engine (the ``batch-gym`` extra: ``pip install
'bottleimp[batch-gym]'``, Gymnasium 1.x).

``BottleImpVectorEnv`` is a ``gymnasium.vector.VectorEnv`` of ``num_envs`` games stepped by one
``BatchGames`` (on ``threads`` cores, default all), with Gymnasium's same-step auto-reset
(``AutoresetMode.SAME_STEP``): a game that ends restarts within the step, its last observation
in ``infos["final_obs"]`` and its last info (final ``totals``, last round's ``scores``, whether
an ``illegal`` action ended it) in ``infos["final_info"]``. ``BottleImpEnv`` is one game as a
``gymnasium.Env``; ``SyncVectorEnv`` of ``BottleImpEnv``s in same-step mode gives what
``BottleImpVectorEnv`` gives, observation for observation and info for info (the tests compare
them), only slower.

One policy plays every seat (self-play): the observation is the seat to act's, as a dict of
``observation`` (``encoding.observation``'s float32 layout) and ``action_mask`` (``int8``, the
legal actions; a game over has one, see ``BatchGames.legal_mask``); the action is an action
number (``Discrete(4N + 1)``); the reward is that of the seat that acted (every seat's rewards
are in ``info["rewards"]``). An illegal action ends its game with ``illegal_reward`` for its
author (``illegal="end"``, as the PettingZoo environment does), or raises (``"raise"``).

Seeds follow the library's one policy (``BatchGames.reset``): any integer, an ``int`` or a numpy
integer, negative or past 64 bits, taken mod ``2**64``; never a ``bool``, a float or a string.
Gymnasium's own checks (which refuse a negative seed and a numpy integer) see only the seed
taken mod ``2**64``. ``reset(seed=s)`` with one integer gives every game a child of
``np.random.SeedSequence(s)``: two environments seeded differently share no game. (Gymnasium's
``SyncVectorEnv`` seeds its environment ``i`` with ``s + i``, so one seeded ``s + 1`` repeats
all but one of its games; a list of seeds is taken as given.) After ``close()`` every call
raises ``BatchError``.
"""

from __future__ import annotations

from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._config import Config
from ._arguments import BatchError, describe, games_of, is_integer
from ._engine import BatchGames, FloatArray
from ._observe import Observer

__all__ = [
    "BottleImpVectorEnv", "BottleImpEnv", "observation_space", "gymnasium_seed",
]


_SEEDS: Final = 1 << 64


def observation_space(config: Config) -> spaces.Dict:
    """One game's observation space: ``observation`` (a ``Box`` of ``encoding.observation``'s
    layout: 0/1 cells and fractions in [0, 1], scores and totals in coins of the deck, any
    float32) and ``action_mask`` (``MultiBinary(4N + 1)``)."""
    observer = Observer(config)
    low = np.zeros(observer.size, dtype=np.float32)
    high = np.ones(observer.size, dtype=np.float32)
    players = config.players
    widest = np.finfo(np.float32).max
    for name in ("scores", "totals"):
        start = observer.at[name]
        low[start:start + players], high[start:start + players] = -widest, widest
    return spaces.Dict({
        "observation": spaces.Box(low, high, dtype=np.float32),
        "action_mask": spaces.MultiBinary(4 * len(config.cards) + 1),
    })


def _seeds_for(seed: object, count: int) -> object:
    """``BatchGames.reset``'s seeds from a Gymnasium seed: ``None`` (fresh entropy), one
    integer (a ``SeedSequence`` root) or a list of ``count`` integers."""
    if seed is None:
        return np.random.SeedSequence()
    if is_integer(seed):
        return np.random.SeedSequence(int(seed) % _SEEDS)  # type: ignore[call-overload]
    if isinstance(seed, (list, tuple, np.ndarray)):
        return seed
    raise BatchError(f"seed must be None, an integer or a list of integers, not {describe(seed)}")


def gymnasium_seed(seed: object) -> int | None:
    """The seed handed to Gymnasium's own ``reset`` (which seeds ``np_random``): one integer
    under the library's policy, taken mod ``2**64`` (Gymnasium refuses a negative seed or a
    numpy integer); else ``None``."""
    return int(seed) % _SEEDS if is_integer(seed) else None  # type: ignore[call-overload]


def _options(options: object) -> dict[str, Any]:
    """``reset``'s ``options``: ``None`` or a dict, else a ``BatchError``."""
    if options is None:
        return {}
    if not isinstance(options, dict):
        raise BatchError(f"options must be None or a dict, not {describe(options)}")
    return options


class BottleImpVectorEnv(VectorEnv[dict[str, Any], Any, Any]):
    """``num_envs`` games of ``config`` as a Gymnasium ``VectorEnv`` (see the module
    docstring); ``illegal``, ``illegal_reward`` and ``threads`` as ``BatchGames``'s."""

    metadata = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(self, config: Config | None = None, num_envs: int = 8, *,
                 illegal: str = "end", illegal_reward: float = -1.0,
                 threads: int | np.integer[Any] | None = None) -> None:
        self.config = Config() if config is None else config
        self.games = BatchGames(self.config, num_envs, illegal=illegal,
                                illegal_reward=illegal_reward, threads=threads)
        self.num_envs = self.games.size
        self.single_observation_space = observation_space(self.config)
        self.single_action_space = spaces.Discrete(self.games.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self.render_mode = None

    def _observation(self, observation: FloatArray) -> dict[str, Any]:
        return {"observation": observation,
                "action_mask": np.array(self.games.legal_mask(), dtype=np.int8)}

    def reset(self, *, seed: object = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start every game, or those of ``options["reset_mask"]`` (a boolean array of
        ``num_envs``): from ``seed`` (see the module docstring), or, for chosen games without a
        seed, each one's next game."""
        if self.games.closed:
            raise BatchError("reset: the environment is closed")
        if not (seed is None or is_integer(seed) or isinstance(seed, (list, tuple, np.ndarray))):
            raise BatchError(f"seed must be None, an integer or a list of integers, not "
                             f"{describe(seed)}")
        mask = _options(options).get("reset_mask")
        super().reset(seed=gymnasium_seed(seed))
        if mask is None:
            chosen = np.ones(self.num_envs, dtype=np.bool_)
            self.games.reset(_seeds_for(seed, self.num_envs))
        else:
            chosen = np.zeros(self.num_envs, dtype=np.bool_)
            chosen[games_of(mask, "reset_mask", self.num_envs)] = True
            if seed is None and self.games.started:
                self.games.reset(None, games=chosen)
            else:
                seeds = _seeds_for(seed, self.num_envs)
                if isinstance(seeds, (list, tuple, np.ndarray)):
                    seeds = [seeds[int(i)] for i in np.flatnonzero(chosen)]
                self.games.reset(seeds, games=chosen)
        to_act = np.array(self.games.to_act)
        infos = {"to_act": np.where(chosen, to_act, 0), "_to_act": chosen.astype(np.bool_)}
        return self._observation(np.array(self.games.observe())), infos

    def close_extras(self, **kwargs: Any) -> None:
        """Free the batch: every later call raises ``BatchError``."""
        self.games.close()

    def step(self, actions: object) -> tuple[dict[str, Any], Any, Any, Any, dict[str, Any]]:
        """Step every game with its action (auto-reset in the same step)."""
        if self.games.closed:
            raise BatchError("step: the environment is closed")
        acted = np.array(self.games.to_act)
        observation, rewards, terminated, truncated, infos = self.games.step(actions)
        mine = np.where(acted >= 0, rewards[np.arange(self.num_envs), np.maximum(acted, 0)], 0.0)
        out: dict[str, Any] = {}
        ended = terminated | truncated
        if ended.any():
            final = infos["final_info"]
            final_obs = np.full(self.num_envs, None, dtype=object)
            mask = np.zeros((self.num_envs, self.games.num_actions), dtype=np.int8)
            mask[:, -1] = 1  # a game over's mask: its one action (BatchGames.legal_mask)
            for game in np.flatnonzero(ended):
                final_obs[game] = {"observation": infos["final_obs"][game],
                                   "action_mask": mask[game]}
            out["final_obs"] = final_obs
            out["_final_obs"] = ended.copy()
            out["final_info"] = {
                "rewards": np.where(ended[:, None], rewards, 0.0).astype(np.float32),
                "_rewards": ended.copy(),
                "to_act": np.where(ended, -1, 0),  # a game over: no seat to act
                "_to_act": ended.copy(),
                "totals": final["totals"], "_totals": ended.copy(),
                "scores": final["scores"], "_scores": ended.copy(),
                "illegal": final["illegal"], "_illegal": ended.copy(),
            }
            out["_final_info"] = ended.copy()
        live = ~ended
        to_act = np.array(self.games.to_act)
        out["rewards"] = np.where(live[:, None], rewards, 0.0).astype(np.float32)
        out["_rewards"] = live.copy()
        out["to_act"] = to_act
        out["_to_act"] = np.ones(self.num_envs, dtype=np.bool_)
        return (self._observation(np.array(observation)), mine.astype(np.float64), terminated.copy(),
                truncated.copy(), out)


class BottleImpEnv(gymnasium.Env[dict[str, Any], Any]):
    """One game of ``config`` as a Gymnasium ``Env`` (a batch of one, no auto-reset): the same
    observation, action, reward and infos as one game of ``BottleImpVectorEnv``."""

    metadata = {"render_modes": []}

    def __init__(self, config: Config | None = None, *, illegal: str = "end",
                 illegal_reward: float = -1.0) -> None:
        self.config = Config() if config is None else config
        self.games = BatchGames(self.config, 1, autoreset=False, illegal=illegal,
                                illegal_reward=illegal_reward, threads=1)
        self.observation_space = observation_space(self.config)
        self.action_space = spaces.Discrete(self.games.num_actions)

    def _observation(self, observation: FloatArray) -> dict[str, Any]:
        return {"observation": np.array(observation[0]),
                "action_mask": np.array(self.games.legal_mask()[0], dtype=np.int8)}

    def reset(self, *, seed: int | np.integer[Any] | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, Any], dict[str, Any]]:
        """A new game: from ``seed`` (game 0 of a slot seeded so: ``new_game(config, seed)``;
        the library's seed policy, see the module docstring), or without one the next game (the
        next seed and first dealer, as auto-reset)."""
        if self.games.closed:
            raise BatchError("reset: the environment is closed")
        if seed is not None and not is_integer(seed):
            raise BatchError(f"seed must be None or an integer, not {describe(seed)}")
        _options(options)
        super().reset(seed=gymnasium_seed(seed))
        if seed is not None:
            self.games.reset([seed])
        elif self.games.started:
            self.games.reset(None, games=[0])
        else:
            self.games.reset(np.random.SeedSequence())
        return self._observation(self.games.observe()), {"to_act": int(self.games.to_act[0])}

    def close(self) -> None:
        """Free the game: every later call raises ``BatchError``."""
        self.games.close()

    def step(self, action: object) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        """Take ``action`` for the seat to act."""
        if self.games.closed:
            raise BatchError("step: the environment is closed")
        if not is_integer(action) and not (isinstance(action, np.ndarray) and action.ndim == 0):
            raise BatchError(f"action must be an integer, not {describe(action)}")
        seat = int(self.games.to_act[0])
        observation, rewards, terminated, truncated, infos = self.games.step([int(action)])  # type: ignore[call-overload]
        info: dict[str, Any] = {"rewards": rewards[0].copy(), "to_act": int(self.games.to_act[0])}
        if terminated[0]:
            final = infos["final_info"]
            info.update(totals=final["totals"][0].copy(), scores=final["scores"][0].copy(),
                        illegal=bool(final["illegal"][0]))
        if terminated[0]:  # the last observation: of the seat whose action ended the game
            observation = infos["final_obs"]
        reward = float(rewards[0, seat]) if seat >= 0 else 0.0
        return self._observation(observation), reward, bool(terminated[0]), bool(truncated[0]), info

"""One seat of The Bottle Imp as a single-agent Gymnasium environment, the other seats played by
bots (extra ``pettingzoo``).

For single-agent learning libraries (Stable-Baselines3, ``sb3_contrib.MaskablePPO``): the
learner plays one seat of the PettingZoo environment (``bottleimp.adapters.pettingzoo.env``,
whose rewards and illegal-action rule it keeps) and the other seats are played by bots until it
is the learner's turn again::

    from bottleimp.adapters.single_agent import SingleSeatEnv
    game = SingleSeatEnv(players=4, rounds=1, opponents="heuristic")
    observation, info = game.reset(seed=3)
    done = False
    while not done:
        action = int(info["legal_actions"][0])
        observation, reward, done, truncated, info = game.step(action)

- **Seat**: ``seat=None`` (the default) draws the learner's seat at each ``reset`` from the
  environment's generator, so a policy learns every position; an ``int`` fixes it.
- **Opponents**: a bot name for all of them (``"random"`` or ``"heuristic"``, made by
  ``bottleimp.bots.make_bot`` with seeds drawn at ``reset``, so a seed replays a game), or one
  name or ``Bot`` object per other seat, in seat order (an object plays on as it is, its own
  state carrying over from game to game).
- **Observation** ``Box(float32, (observation_size(config),))``: ``bottleimp.observation`` of the
  learner's view. **Action** ``Discrete(num_actions(config))``. ``action_masks()`` is the
  boolean mask of the learner's legal actions (``MaskablePPO`` asks for it by that name), also
  in ``info["action_mask"]``; ``info["legal_actions"]`` lists their numbers.
- **Reward**: the learner's rewards of the PettingZoo environment (``reward=``: ``"game"``,
  ``"round"`` or ``"difference"``) summed from its action to its next turn or the end.
- **Illegal action**: the episode ends with ``illegal_reward`` (-1), as in PettingZoo's classic
  games (``illegal_reward=None`` raises ``IllegalActionError`` instead).
- ``game_state`` is the library's state; at the end ``info["winners"]`` holds
  ``bottleimp.winners`` (empty when an illegal action ended the game).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from attrs import frozen
from gymnasium import spaces

from .. import Config, GameState, action_to_int, legal_actions, view, winners
from .._arguments import integer
from .._errors import ArgumentError
from ..bots import Bot, make_bot
from .pettingzoo import BottleImpEnv, env

__all__ = ["Policy", "SingleSeatEnv", "WinRate", "win_rate"]

_SEED_BOUND: Final = 2**63
_SEEDS: Final = 2**64
"""A seed is taken mod this (the library's seed policy)."""


class SingleSeatEnv(gymnasium.Env[np.ndarray[Any, Any], np.int64]):
    """One seat against bots (see the module's docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"]}

    def __init__(
        self,
        config: Config | None = None,
        *,
        seat: int | None = None,
        opponents: str | Sequence[str | Bot] = "random",
        reward: str = "game",
        illegal_reward: float | None = -1.0,
        render_mode: str | None = None,
        **kwargs: Any,
    ) -> None:
        self._table = env(config, render_mode, reward, illegal_reward, **kwargs)
        self._raw: BottleImpEnv = self._table.unwrapped
        self.config = self._raw.config
        self.render_mode = render_mode
        players = self.config.players
        if seat is not None:
            number = integer(seat)
            if number is None or not 0 <= number < players:
                raise ValueError(
                    f"seat must be None or a seat from 0 to {players - 1}, not {seat!r}")
            seat = number
        chosen: list[str | Bot] = (
            [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents))
        if len(chosen) != players - 1:
            raise ValueError(
                f"give one opponent for each of the other {players - 1} seats, not {len(chosen)}")
        for opponent in chosen:
            if isinstance(opponent, str):
                make_bot(opponent, 0)  # an unknown name fails here, not at the first reset
        self.opponents: list[str | Bot] = chosen
        """The bots of the other seats, in seat order (a change takes effect at the next reset)."""
        self._fixed_seat = seat
        self.seat = 0 if seat is None else seat
        """The learner's seat in the game in progress."""
        self._bots: dict[int, Bot] = {}
        self._agent = self._raw.possible_agents[self.seat]
        self._mask = np.zeros(self._raw.action_space(self._agent).n, bool)
        self.observation_space = self._raw.observation_space(self._agent)["observation"]
        self.action_space = spaces.Discrete(int(self._mask.size))

    @property
    def game_state(self) -> GameState:
        """The library's state of the game in progress."""
        return self._raw.game_state

    def action_masks(self) -> np.ndarray[Any, Any]:
        """The learner's legal actions as a boolean mask (all False once the game is over)."""
        return self._mask.copy()

    def reset(
        self, *, seed: int | np.integer[Any] | None = None,
        options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray[Any, Any], dict[str, Any]]:
        """A new game (``seed`` seeds the seat draw, the deal and the named bots), played by
        the bots up to the learner's first turn. ``seed``: any integer under the library's
        policy (an ``int`` or a numpy integer, negative or past 64 bits, taken mod ``2**64``;
        Gymnasium's own check refuses the negative ones and numpy's), or ``None``."""
        if seed is not None:
            whole = integer(seed)
            if whole is None:
                raise ArgumentError("reset(seed)", f"a seed is an integer or None, not {seed!r}")
            seed = whole % _SEEDS
        if options is not None and not isinstance(options, dict):
            raise ArgumentError("reset(options)", f"options are None or a dict, not {options!r}")
        super().reset(seed=seed)
        rng = self.np_random
        players = self.config.players
        self.seat = int(rng.integers(players)) if self._fixed_seat is None else self._fixed_seat
        self._agent = self._raw.possible_agents[self.seat]
        others = [s for s in range(players) if s != self.seat]
        self._bots = {
            other: make_bot(opponent, int(rng.integers(_SEED_BOUND)))
            if isinstance(opponent, str) else opponent
            for other, opponent in zip(others, self.opponents)
        }
        self._table.reset(seed=int(rng.integers(_SEED_BOUND)))
        reward = self._play_others()
        observation, _, info = self._observe()
        assert reward == 0.0
        return observation, info

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[np.ndarray[Any, Any], float, bool, bool, dict[str, Any]]:
        """The learner's action, then the bots' up to its next turn or the end."""
        self._table.step(int(action))
        reward = float(self._table.rewards.get(self._agent, 0.0))
        reward += self._play_others()
        observation, terminated, info = self._observe()
        return observation, reward, terminated, False, info

    def _play_others(self) -> float:
        """Let the bots act until the learner's turn or the end; the learner's rewards meanwhile."""
        table, raw = self._table, self._raw
        reward = 0.0
        while not raw.terminations[self._agent] and table.agent_selection != self._agent:
            state = raw.game_state
            seat = state.to_act
            assert seat is not None
            chosen = self._bots[seat].choose(view(state, seat), legal_actions(state))
            table.step(action_to_int(self.config, chosen))
            reward += float(table.rewards.get(self._agent, 0.0))
        return reward

    def _observe(self) -> tuple[np.ndarray[Any, Any], bool, dict[str, Any]]:
        raw = self._raw
        seen = self._table.observe(self._agent)
        terminated = bool(raw.terminations[self._agent])
        # After an illegal action the game stops where it was: nothing is legal any more.
        self._mask = seen["action_mask"].astype(bool) & (not terminated)
        info: dict[str, Any] = {
            "seat": self.seat,
            "legal_actions": [] if terminated else list(raw.infos[self._agent]["legal_actions"]),
            "action_mask": self._mask.copy(),
        }
        if terminated:
            state = raw.game_state
            info["winners"] = winners(state) if state.is_over else ()
        return seen["observation"], terminated, info

    def render(self) -> str | None:  # type: ignore[override, unused-ignore]
        """The whole table as text (``render_mode="ansi"``)."""
        return self._raw.render()


Policy = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], int]
"""A learner's policy for ``win_rate``: (observation, boolean mask of legal actions) -> action."""


@frozen
class WinRate:
    """How often a policy won (``wins`` of ``games``; a shared win counts) and the half-width of
    the normal 95% interval around the rate."""

    wins: int
    games: int

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def margin(self) -> float:
        rate = self.rate
        return 1.96 * math.sqrt(rate * (1 - rate) / self.games)

    def __str__(self) -> str:
        return f"{self.rate:6.1%} ± {self.margin:4.1%}"


def win_rate(
    policy: Policy,
    games: int,
    config: Config | None = None,
    *,
    opponents: str | Sequence[str | Bot] = "random",
    seed: int = 0,
    **kwargs: Any,
) -> WinRate:
    """Play ``games`` games of ``policy`` against ``opponents`` (its seat drawn for each game;
    the same ``seed``, the same seats, deals and bots) and count the games it won."""
    table = SingleSeatEnv(config, opponents=opponents, **kwargs)
    wins = 0
    for game in range(games):
        observation, info = table.reset(seed=seed + game)
        done = False
        while not done:
            action = policy(observation, table.action_masks())
            observation, _, done, _, info = table.step(action)
        wins += table.seat in info["winners"]
    return WinRate(wins, games)

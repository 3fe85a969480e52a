"""The Bottle Imp as a PettingZoo AEC environment (extra ``pettingzoo``).

::

    from bottleimp.adapters.pettingzoo import env
    game = env(players=4, rounds=1, render_mode="ansi")
    game.reset(seed=7)
    for agent in game.agent_iter():
        observation, reward, termination, truncation, info = game.last()
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = game.action_space(agent).sample(mask)
        game.step(action)

- **Agents** ``player_0`` ... ``player_{n-1}``, one per seat; the agent selected is the seat to
  act. Keyword arguments are those of ``bottleimp.Config`` (or pass ``config=``); with 5-6
  players and no edition, the ``matagot-2024`` deck.
- **Actions** ``Discrete(num_actions(config))``: the action numbers of ``bottleimp.encoding``.
  Between rounds the next dealer's ``StartRound`` is applied by the environment (it is never a
  choice), so every step is a setup card or a card played. An illegal number raises
  ``IllegalActionError`` (or ``EncodingError``).
- **Observations** ``Dict(observation=Box(float32, (observation_size(config),)),
  action_mask=Box(int8, (num_actions(config),)))``: ``bottleimp.observation`` of the agent's
  ``SeatView`` and the mask of its legal actions (all zero when it is not its turn).
- **Rewards** at the end of the game only: ``bottleimp.returns`` (+1 for each winner, -1 for the
  others). ``infos[agent]`` holds nothing; the library's state is ``env.unwrapped.game_state``.
- ``reset(seed=s)`` deals the game ``bottleimp.new_game(config, s)``: the same seed, the same
  deals. ``render()`` (``render_mode="ansi"``) returns the whole table as text.
"""

from __future__ import annotations

from typing import Any, Final

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .. import (
    Config,
    GameState,
    Phase,
    StartRound,
    apply,
    legal_actions,
    new_game,
    returns,
    view,
)
from ..encoding import _tables, observation_entries, observation_size

__all__ = ["BottleImpEnv", "env", "raw_env"]

_SEED_BOUND: Final = 2**63


def _config(config: Config | None, kwargs: dict[str, Any]) -> Config:
    if config is not None:
        if kwargs:
            raise TypeError("give either config= or Config's keyword arguments, not both")
        return config
    if kwargs.get("players", 4) > 4 and "edition" not in kwargs and "deck" not in kwargs:
        kwargs = dict(kwargs, edition="matagot-2024")
    return Config(**kwargs)


class BottleImpEnv(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module's docstring)."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi"],
        "name": "bottle_imp_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self, config: Config | None = None, render_mode: str | None = None, **kwargs: Any
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.config = _config(config, kwargs)
        self.render_mode = render_mode
        players = self.config.players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        tables = _tables(self.config)
        self._decode = tables.decode
        self._encode = tables.encode
        self._num_actions = tables.size
        self._size = observation_size(self.config)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(-np.inf, np.inf, (self._size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (self._num_actions,), np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces: dict[str, spaces.Space[Any]] = {
            agent: spaces.Discrete(self._num_actions) for agent in self.possible_agents
        }
        self._seeds = np.random.default_rng()
        self.game_state: GameState = new_game(self.config, 0)
        """The library's state of the game in progress."""
        self._reset_bookkeeping()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_bookkeeping(self) -> None:
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        seat = self.game_state.to_act
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game: ``new_game(config, seed)`` (a random seed if none is given)."""
        if seed is not None:
            self._seeds = np.random.default_rng(seed)
        else:
            seed = int(self._seeds.integers(_SEED_BOUND))
        self.game_state = new_game(self.config, int(seed))
        self._reset_bookkeeping()

    def observe(self, agent: str) -> dict[str, np.ndarray[Any, Any]]:
        seat = self._seats[agent]
        state = self.game_state
        ones, values = observation_entries(view(state, seat))
        observation = np.zeros(self._size, np.float32)
        observation.put(ones, 1.0)
        observation.put([position for position, _ in values], [value for _, value in values])
        mask = np.zeros(self._num_actions, np.int8)
        if state.to_act == seat:
            encode = self._encode
            mask.put([encode[action] for action in legal_actions(state)], 1)
        return {"observation": observation, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.game_state.to_act
        assert seat is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        state = apply(self.game_state, self._decode[seat][int(action)])
        if state.phase is Phase.ROUND_OVER:
            assert state.to_act is not None
            state = apply(state, StartRound(state.to_act))
        self.game_state = state
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            result = returns(state)
            for index, name in enumerate(self.possible_agents):
                self.rewards[name] = result[index]
                self.terminations[name] = True
            self._accumulate_rewards()
        else:
            assert state.to_act is not None
            self.agent_selection = self.possible_agents[state.to_act]

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``): every hand, the trick, bottles, totals."""
        if self.render_mode is None:
            return None
        state = self.game_state
        round_ = state.round
        lines = [
            f"round {round_.index + 1}, dealer seat {round_.dealer}, {state.phase.value}, "
            f"to act: {state.to_act if state.to_act is not None else '-'}",
            "bottles: " + ", ".join(
                f"price {bottle.price}"
                + (f" (seat {bottle.owner})" if bottle.owner is not None else "")
                for bottle in round_.bottles
            ),
            "trick: " + (" ".join(
                f"{play.seat}:{play.card.rank}" for play in state.current_trick()) or "-"),
        ]
        for seat in range(state.config.players):
            hand = " ".join(str(card.rank) for card in round_.hands[seat]) or "-"
            up = ""
            if round_.face_up is not None:
                up = " | face up " + (" ".join(str(c.rank) for c in round_.face_up[seat]) or "-")
            lines.append(
                f"seat {seat}: {hand}{up} | captured {len(round_.captured[seat])} | "
                f"total {state.totals[seat]}"
            )
        return "\n".join(lines)

    def close(self) -> None:
        pass


def raw_env(config: Config | None = None, render_mode: str | None = None, **kwargs: Any) -> (
    BottleImpEnv
):
    """The environment without PettingZoo's wrappers (fastest)."""
    return BottleImpEnv(config, render_mode, **kwargs)


def env(config: Config | None = None, render_mode: str | None = None, **kwargs: Any) -> AECEnv:
    """The environment in PettingZoo's usual wrappers (action bounds, call order)."""
    wrapped: AECEnv = BottleImpEnv(config, render_mode, **kwargs)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)

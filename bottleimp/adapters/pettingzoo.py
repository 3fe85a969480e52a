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
- **Actions** ``Discrete(num_actions(config))``: the action numbers of ``bottleimp._encoding``.
  Between rounds the next dealer's ``StartRound`` is applied by the environment (it is never a
  choice), so every step is a setup card or a card played.
- **Illegal actions**, as in PettingZoo's classic environments: ``env()`` ends the game at once
  with ``illegal_reward`` (-1) for the agent that chose an action outside its mask and 0 for
  the others (PettingZoo's ``TerminateIllegalWrapper``; every agent is then terminated and
  truncated). ``env(illegal_reward=None)`` and ``raw_env()`` raise ``IllegalActionError`` (or
  ``ArgumentError`` for a number out of range) instead, and leave the game as it was.
- **Observations** ``Dict(observation=Box(float32, (observation_size(config),)),
  action_mask=Box(int8, (num_actions(config),)))``: ``bottleimp.observation`` of the agent's
  ``SeatView`` and the mask of its legal actions (all zero when it is not its turn).
- **Rewards** (``reward=``, see ``REWARDS``): ``"game"`` (the default) gives
  ``bottleimp.returns`` at the end of the game only (+1 for each winner, -1 for the others);
  ``"round"`` gives each seat its score of each round (points, ``RoundState.scores``: team
  scores in team games) when the round is scored; ``"difference"`` gives each seat its round
  score minus the mean of the other seats' round scores (zero-sum), when the round is scored.
- **Infos** ``infos[agent]["legal_actions"]``: the legal action numbers of the agent to act
  (the nonzero places of its mask), an empty list for every other agent. The library's state
  is ``env.unwrapped.game_state``.
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
    new_game,
    returns,
    view,
)
from .._encoding import (
    action_from_int,
    legal_action_ints,
    num_actions,
    observation,
    observation_size,
)

__all__ = ["REWARDS", "BottleImpEnv", "env", "raw_env"]

_SEED_BOUND: Final = 2**63

REWARDS: Final = ("game", "round", "difference")
"""The reward options: the game's result, each round's score, each round's score difference."""


def _round_rewards(scores: tuple[int, ...], reward: str) -> list[float]:
    """Each seat's reward for a scored round: its score, or its score minus the mean of the
    others' (``reward="difference"``)."""
    if reward == "round":
        return [float(score) for score in scores]
    total, others = sum(scores), len(scores) - 1
    return [score - (total - score) / others for score in scores]


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
        self,
        config: Config | None = None,
        render_mode: str | None = None,
        reward: str = "game",
        **kwargs: Any,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
        self.config = _config(config, kwargs)
        self.render_mode = render_mode
        self.reward = reward
        """The reward option (one of ``REWARDS``)."""
        players = self.config.players
        self.possible_agents = [f"player_{seat}" for seat in range(players)]
        self.agents = self.possible_agents[:]
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._num_actions = num_actions(self.config)
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
        self.infos: dict[str, dict[str, Any]] = {}
        seat = self.game_state.to_act
        self.agent_selection = self.possible_agents[seat if seat is not None else 0]
        self._update_infos()

    def _update_infos(self) -> None:
        """``infos``: the legal action numbers of the agent to act, none for the others."""
        state = self.game_state
        seat = state.to_act
        for agent in self.agents:
            self.infos[agent] = {"legal_actions": []}
        if seat is not None and not state.is_over:
            self.infos[self.possible_agents[seat]]["legal_actions"] = legal_action_ints(state)

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
        mask = np.zeros(self._num_actions, np.int8)
        if state.to_act == seat:
            mask.put(legal_action_ints(state), 1)
        seen = np.asarray(observation(view(state, seat)), np.float32)
        return {"observation": seen, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.game_state.to_act
        assert seat is not None
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents whose game is over")
        state = apply(self.game_state, action_from_int(self.config, int(action), seat))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        rewards = None
        if state.phase is Phase.ROUND_OVER or state.is_over:
            if self.reward != "game":
                assert state.round.scores is not None
                rewards = _round_rewards(state.round.scores, self.reward)
            elif state.is_over:
                rewards = list(returns(state))
        if state.phase is Phase.ROUND_OVER:
            assert state.to_act is not None
            state = apply(state, StartRound(state.to_act))
        self.game_state = state
        if rewards is not None:
            for name, value in zip(self.possible_agents, rewards):
                self.rewards[name] = value
            self._accumulate_rewards()
        if state.is_over:
            for name in self.possible_agents:
                self.terminations[name] = True
        else:
            assert state.to_act is not None
            self.agent_selection = self.possible_agents[state.to_act]
        self._update_infos()

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


def raw_env(
    config: Config | None = None,
    render_mode: str | None = None,
    reward: str = "game",
    **kwargs: Any,
) -> BottleImpEnv:
    """The environment without PettingZoo's wrappers (fastest; an illegal action raises)."""
    return BottleImpEnv(config, render_mode, reward, **kwargs)


def env(
    config: Config | None = None,
    render_mode: str | None = None,
    reward: str = "game",
    illegal_reward: float | None = -1.0,
    **kwargs: Any,
) -> AECEnv:
    """The environment in PettingZoo's usual wrappers, as its classic games have them: an
    illegal action ends the game with ``illegal_reward`` for its author and 0 for the others
    (``None``: it raises ``IllegalActionError`` instead), action bounds checked, call order
    enforced."""
    wrapped: AECEnv = BottleImpEnv(config, render_mode, reward, **kwargs)
    if illegal_reward is not None:
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)

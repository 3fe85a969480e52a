"""The batch engine's shared vocabulary: the array types, the phase numbers and the tables a
configuration is played with (``Tables``), read by the batch (``_engine.py``), its
observations (``_observe.py``) and the compiled kernel (``_kernel.py``)."""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt
from attrs import frozen

from .._actions import Destination
from .._config import Config

BoolArray = npt.NDArray[np.bool_]
IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float32]
UInt8Array = npt.NDArray[np.uint8]
Words = npt.NDArray[np.uint64]
"""Sets of cards, one 64-bit word each: bit ``card`` set for each card in the set."""

SETUP: Final = 0
"""Phase number: seats choose their setup cards."""
PLAY: Final = 1
"""Phase number: tricks are played."""
ROUND_OVER: Final = 2
"""Phase number: the round is scored; the next dealer deals the next round."""
GAME_OVER: Final = 3
"""Phase number: the game has ended."""

_EYE_STEPS: Final = (Destination.DEVILS_TRICK, Destination.DEVILS_TRICK,
                     Destination.OPPONENT_FACE_UP, Destination.OPPONENT_HIDDEN)
_STEPS: Final = (Destination.DEVILS_TRICK, Destination.LEFT, Destination.RIGHT)
_SHORT_DEALER_STEPS: Final = (Destination.LEFT, Destination.RIGHT)
_SLOT: Final = {Destination.DEVILS_TRICK: 0, Destination.LEFT: 1, Destination.RIGHT: 2,
                Destination.OPPONENT_FACE_UP: 1, Destination.OPPONENT_HIDDEN: 2}
"""The action block (and ``given`` slot) of each destination (``encoding.setup_destinations``)."""


@frozen(eq=False)
class Tables:
    """Per-configuration arrays the batch engine reads (built once per ``BatchGames``)."""

    players: int
    cards: int
    bottles: int
    trick_size: int
    devils_eye: bool
    rank: npt.NDArray[np.float64]
    colour: IntArray
    coins: IntArray
    hidden_count: int
    steps: tuple[tuple[tuple[Destination, ...], ...], ...]
    """``steps[dealer][seat]``: the seat's setup destinations in order (rule SETUP-STEPS)."""
    step_slot: IntArray
    """``step_slot[dealer, seat, k]``: the action block of step ``k`` (-1 past the last)."""
    step_count: IntArray
    """``step_count[dealer, seat]``: how many setup cards the seat gives."""
    same_team: IntArray
    """``same_team[s, t]``: 1 when seats ``s`` and ``t`` score together (identity without teams)."""
    team_factor: IntArray
    """2 for a player without a partner in team mode, else 1 (rule SCORE-TEAMS)."""
    round_limit: int | None
    target_score: int | None


def tables_of(config: Config) -> Tables:
    """The arrays of ``config`` (every variant the reference plays)."""
    players, count = config.players, len(config.cards)
    colours = sorted({card.colour.value for card in config.cards})
    steps = []
    for dealer in range(players):
        row: list[tuple[Destination, ...]] = []
        for seat in range(players):
            if config.devils_eye:
                row.append(_EYE_STEPS)
            elif seat == dealer and count % players:
                row.append(_SHORT_DEALER_STEPS)
            else:
                row.append(_STEPS)
        steps.append(tuple(row))
    step_slot = np.full((players, players, 5), -1, dtype=np.int64)
    step_count = np.zeros((players, players), dtype=np.int64)
    for dealer in range(players):
        for seat in range(players):
            for k, destination in enumerate(steps[dealer][seat]):
                step_slot[dealer, seat, k] = _SLOT[destination]
            step_count[dealer, seat] = len(steps[dealer][seat])
    same_team = np.eye(players, dtype=np.int64)
    factor = np.ones(players, dtype=np.int64)
    if config.teams is not None:
        for team in config.teams:
            for seat in team:
                for mate in team:
                    same_team[seat, mate] = 1
                if len(team) == 1:
                    factor[seat] = 2
    return Tables(
        players=players,
        cards=count,
        bottles=config.bottles,
        trick_size=config.trick_size,
        devils_eye=config.devils_eye,
        rank=np.array([float(card.rank) for card in config.cards]),
        colour=np.array([colours.index(card.colour.value) for card in config.cards]),
        coins=np.array([card.coins for card in config.cards], dtype=np.int64),
        hidden_count=count * 2 // 3 if config.devils_eye else count,
        steps=tuple(steps),
        step_slot=step_slot,
        step_count=step_count,
        same_team=same_team,
        team_factor=factor,
        round_limit=config.round_limit,
        target_score=config.target_score,
    )

"""Observations of many games at once, in the layout of ``bottleimp.encoding.observation``.

``observe(games, seats)`` is a ``(B, D)`` float32 array whose row ``b`` equals
``encoding.observation(view(state_b, seats[b]))`` (as float32): the same segments in the same
order (``encoding.observation_layout``), seats relative to the observer, only what the observer
may see (rule VIEW-HIDDEN).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..encoding import observation_layout
from .games import GAME_OVER, ROUND_OVER, SETUP, BatchGames, FloatArray

_PHASES: Final = 4


class Observer:
    """The offsets of ``config``'s observation layout, and the observation of a batch."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.at = {segment.name: segment.offset for segment in observation_layout(config)}
        last = observation_layout(config)[-1]
        self.size = last.offset + last.size
        self.coins = float(sum(card.coins for card in config.cards))

    def observe(self, games: BatchGames, seats: npt.ArrayLike | None = None) -> FloatArray:
        """``(B, D)`` observations: of ``seats[b]`` in game ``b`` (default: the seat to act,
        seat 0 in a game that is over)."""
        t = games.t
        b, p, n = games.size, t.players, t.cards
        rows = games.rows
        if seats is None:
            observer = np.maximum(games.to_act, 0)
        else:
            observer = np.broadcast_to(np.asarray(seats, dtype=np.int64), (b,))
        at = self.at
        out = np.zeros((b, self.size), dtype=np.float32)
        rot = (observer[:, None] + np.arange(p)[None, :]) % p
        column = rows[:, None]

        def put(name: str, value: npt.NDArray[np.generic]) -> None:
            flat = value.reshape(b, -1)
            out[:, at[name]:at[name] + flat.shape[1]] = flat

        def one_hot(name: str, position: npt.NDArray[np.int64], present: npt.NDArray[np.bool_]) -> None:
            hit = rows[present]
            out[hit, at[name] + position[present]] = 1.0

        phase = games.phase
        revealed = phase >= ROUND_OVER
        put("hand", games.hand[rows, observer])
        if t.devils_eye:
            put("face_up", games.face_up[column, rot])
        put("my_setup", games.given[rows, observer])
        resolved = phase != SETUP
        received = np.zeros((b, p, n), dtype=np.bool_)
        if t.devils_eye:
            from_opponent = games.given[rows, rot[:, 1]]
            received[:, 1] = from_opponent[:, 1] | from_opponent[:, 2]
        else:
            received[:, 1] = games.given[rows, rot[:, 1], 2]  # passed right by the next seat
            received[:, p - 1] |= games.given[rows, rot[:, p - 1], 1]  # passed left by the one before
        received &= resolved[:, None, None]
        put("received", received)
        put("trick", games.trick[column, rot])
        one_hot("trick_leader", (games.trick_seats[:, 0] - observer) % p, games.trick_length > 0)
        put("played", games.played)
        put("captured", games.captured[column, rot])
        for bottle in range(t.bottles):
            card = games.bottle_card[:, bottle]
            one_hot("bottle_price", bottle * n + card, card >= 0)
            owner = games.bottle_owner[:, bottle]
            one_hot("bottle_owner", bottle * p + (owner - observer) % p, owner >= 0)
        put("devils_trick", games.devils_trick & revealed[:, None])
        discarded = games.given[:, :, 0].sum(axis=(1, 2))
        out[:, at["devils_trick_size"]] = discarded / n
        put("hand_sizes", games.hand.sum(axis=2)[column, rot] / n)
        put("setup_given", games.setup_given[column, rot] / 4)
        one_hot("phase", phase, np.ones(b, dtype=np.bool_))
        one_hot("to_act", (games.to_act - observer) % p, games.to_act >= 0)
        one_hot("dealer", (games.dealer - observer) % p, np.ones(b, dtype=np.bool_))
        put("team", t.same_team[observer[:, None], rot])
        put("scores", np.where(revealed[:, None], games.scores[column, rot] / self.coins, 0.0))
        put("totals", games.totals[column, rot] / self.coins)
        if t.target_score is not None:
            progress = np.minimum(1.0, games.totals.max(axis=1) / t.target_score)
        else:
            assert t.round_limit is not None
            progress = (games.round_index + revealed) / t.round_limit
        out[:, at["progress"]] = progress
        assert GAME_OVER == _PHASES - 1
        return out

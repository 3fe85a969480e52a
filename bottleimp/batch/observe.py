"""Observations of many games at once, in the layout of ``bottleimp.encoding.observation``.

``observe(games, seats)`` is a ``(B, D)`` float32 array whose row ``b`` equals
``encoding.observation(view(state_b, seats[b]))`` (as float32): the same segments in the same
order (``encoding.observation_layout``), seats relative to the observer, only what the observer
may see (rule VIEW-HIDDEN).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..encoding import observation_layout
from typing import Protocol

from .tables import ROUND_OVER, SETUP, BoolArray, FloatArray, IntArray, Tables, UInt8Array


class GameArrays(Protocol):
    """What an observation is read from: a batch's tables and state arrays (``BatchGames``'s,
    described in ``games.py``)."""

    @property
    def t(self) -> Tables: ...
    @property
    def size(self) -> int: ...
    @property
    def rows(self) -> IntArray: ...
    @property
    def phase(self) -> IntArray: ...
    @property
    def to_act(self) -> IntArray: ...
    @property
    def dealer(self) -> IntArray: ...
    @property
    def round_index(self) -> IntArray: ...
    @property
    def hand(self) -> BoolArray: ...
    @property
    def face_up(self) -> BoolArray: ...
    @property
    def given(self) -> BoolArray: ...
    @property
    def trick(self) -> BoolArray: ...
    @property
    def trick_seats(self) -> IntArray: ...
    @property
    def trick_length(self) -> IntArray: ...
    @property
    def played(self) -> BoolArray: ...
    @property
    def captured(self) -> BoolArray: ...
    @property
    def bottle_card(self) -> IntArray: ...
    @property
    def bottle_owner(self) -> IntArray: ...
    @property
    def devils_trick(self) -> BoolArray: ...
    @property
    def hand_count(self) -> IntArray: ...
    @property
    def setup_given(self) -> IntArray: ...
    @property
    def scores(self) -> IntArray: ...
    @property
    def totals(self) -> IntArray: ...


class Observer:
    """The offsets of ``config``'s observation layout, and the observation of a batch."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.at = {segment.name: segment.offset for segment in observation_layout(config)}
        last = observation_layout(config)[-1]
        self.size = last.offset + last.size
        self.coins = float(sum(card.coins for card in config.cards))

    def binary(self, games: GameArrays, index: IntArray, observer: IntArray) -> UInt8Array:
        """``(G, D)``: the 0/1 part of the observation of ``observer[i]`` in game ``index[i]``
        (every value segment left at 0: ``values`` writes those)."""
        t = games.t
        b, p, n = len(index), t.players, t.cards
        rows = np.arange(b)
        at = self.at
        out = np.zeros((b, self.size), dtype=np.uint8)
        rot = (observer[:, None] + np.arange(p)[None, :]) % p
        column = index[:, None]

        def put(name: str, value: npt.NDArray[np.generic]) -> None:
            flat = value.reshape(b, -1)
            out[:, at[name]:at[name] + flat.shape[1]] = flat

        def one_hot(name: str, position: IntArray, present: BoolArray) -> None:
            out[rows[present], at[name] + position[present]] = 1

        phase = games.phase[index]
        revealed = phase >= ROUND_OVER
        put("hand", games.hand[index, observer])
        if t.devils_eye:
            put("face_up", games.face_up[column, rot])
        put("my_setup", games.given[index, observer])
        received = np.zeros((b, p, n), dtype=np.bool_)
        if t.devils_eye:
            from_opponent = games.given[index, rot[:, 1]]
            received[:, 1] = from_opponent[:, 1] | from_opponent[:, 2]
        else:
            received[:, 1] = games.given[index, rot[:, 1], 2]  # passed right by the next seat
            received[:, p - 1] |= games.given[index, rot[:, p - 1], 1]  # passed left to us
        received &= (phase != SETUP)[:, None, None]
        put("received", received)
        put("trick", games.trick[column, rot])
        one_hot("trick_leader", (games.trick_seats[index, 0] - observer) % p,
                games.trick_length[index] > 0)
        put("played", games.played[index])
        put("captured", games.captured[column, rot])
        for bottle in range(t.bottles):
            card = games.bottle_card[index, bottle]
            one_hot("bottle_price", bottle * n + card, card >= 0)
            owner = games.bottle_owner[index, bottle]
            one_hot("bottle_owner", bottle * p + (owner - observer) % p, owner >= 0)
        put("devils_trick", games.devils_trick[index] & revealed[:, None])
        one_hot("phase", phase, np.ones(b, dtype=np.bool_))
        to_act = games.to_act[index]
        one_hot("to_act", (to_act - observer) % p, to_act >= 0)
        one_hot("dealer", (games.dealer[index] - observer) % p, np.ones(b, dtype=np.bool_))
        put("team", t.same_team[observer[:, None], rot])
        return out

    def values(self, games: GameArrays, observer: IntArray, out: FloatArray,
               at: dict[str, int] | None = None) -> None:
        """Write the value segments (sizes, totals, scores, progress) of every game's
        ``observer[b]`` into ``out`` (``(B, D)``; or at the offsets ``at`` of those segments)."""
        t = games.t
        p, n = t.players, t.cards
        at = self.at if at is None else at
        b = games.size
        revealed = games.phase >= ROUND_OVER
        per_seat = np.empty((b, p, 4), dtype=np.float32)
        per_seat[:, :, 0] = games.hand_count
        per_seat[:, :, 0] /= n
        per_seat[:, :, 1] = games.setup_given
        per_seat[:, :, 1] /= 4
        per_seat[:, :, 2] = games.scores
        per_seat[:, :, 2] *= revealed[:, None] / self.coins
        per_seat[:, :, 3] = games.totals
        per_seat[:, :, 3] /= self.coins
        rows = (games.rows * p)[:, None] + (observer[:, None] + np.arange(p)[None, :]) % p
        relative = np.take(per_seat.reshape(b * p, 4), rows, axis=0)
        out[:, at["hand_sizes"]:at["hand_sizes"] + p] = relative[:, :, 0]
        out[:, at["setup_given"]:at["setup_given"] + p] = relative[:, :, 1]
        out[:, at["scores"]:at["scores"] + p] = relative[:, :, 2]
        out[:, at["totals"]:at["totals"] + p] = relative[:, :, 3]
        out[:, at["devils_trick_size"]] = games.given[:, :, 0].sum(axis=(1, 2)) / n
        if t.target_score is not None:
            progress = np.minimum(1.0, games.totals.max(axis=1) / t.target_score)
        else:
            assert t.round_limit is not None
            progress = (games.round_index + revealed) / t.round_limit
        out[:, at["progress"]] = progress

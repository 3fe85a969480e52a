"""``NumbaBatchGames``: the batch engine with its step, masks, observations and random choice
compiled by numba (the ``batch-fast`` extra: ``pip install 'bottleimp[batch-fast]'``).

The same state arrays and the same API as ``BatchGames`` (it is one): ``reset``, ``to_act``,
``legal_mask``, ``observe``, ``step``, ``random_actions``, ``take``, auto-reset. What runs per
step is ``bottleimp/batch/kernel.py``, a loop over games compiled in nopython mode on one
thread; everything else (loading a position, copies, the rule an illegal action breaks) is the
numpy engine's own code on the same arrays. The first call of each kernel function compiles it,
once per machine and Python: numba caches it on disk next to the module, or in its user cache
directory where the package is read-only (``NUMBA_CACHE_DIR`` moves it), and a later process
loads it from there (``benchmarks/kernel_compile.py`` measures a cold compile).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..encoding import observation_layout
from . import kernel
from .arguments import describe
from .games import BatchError, BatchGames, BoolArray, FloatArray, IntArray


def kernel_ints(values: npt.ArrayLike) -> IntArray:
    """``values`` as a C-contiguous, writable ``int64`` array, copied only when it is not one
    already. numba compiles a kernel function once for each layout of its arguments, a
    read-only array (a broadcast view, a caller's frozen array) being another layout: every
    array the caller gives is passed through here, so each function is compiled once."""
    array = np.asarray(values, dtype=np.int64)
    if array.flags.c_contiguous and array.flags.writeable:
        return array
    return np.array(array, dtype=np.int64, order="C")


def numba_missing() -> str:
    """Why the compiled backend cannot run here (``""`` when it can)."""
    if kernel.COMPILED:
        return ""
    return ("the numba backend needs numba, which is not installed: "
            "pip install 'bottleimp[batch-fast]' (or use the numpy backend)")


class NumbaBatchGames(BatchGames):
    """``BatchGames`` whose hot paths run in the compiled kernel (see the module docstring)."""

    def __init__(self, config: Config, batch_size: int, *, autoreset: bool = True,
                 observations: bool = True, illegal: str = "raise",
                 illegal_reward: float = -1.0, compact: bool = False) -> None:
        missing = numba_missing()
        if missing:
            raise BatchError(missing)
        if not isinstance(config, Config):
            raise BatchError(f"config must be a Config, not {describe(config)}")
        if len(config.cards) > 64:  # kernel.LegalSets holds a block of legal actions in a word
            raise BatchError(f"the numba backend plays decks of at most 64 cards, not "
                             f"{len(config.cards)}")
        super().__init__(config, batch_size, autoreset=autoreset, observations=observations,
                         illegal=illegal, illegal_reward=illegal_reward, compact=compact)
        # No observation bits: ``observe`` writes each observation from the state.
        self._obs_bits = np.zeros((self.size, self.t.players, 0), dtype=np.uint8)
        self._flat_bits = self._obs_bits.reshape(-1)
        self._obs_size = 0
        self._obs_rows = np.zeros((self.size, 0), dtype=np.uint8)
        t = self.t
        at = self._observer.at
        self._consts = tuple(kernel.Consts(
            players=t.players, cards=t.cards, bottles=t.bottles, trick_size=t.trick_size,
            devils_eye=t.devils_eye, hidden_count=t.hidden_count,
            round_limit=-1 if t.round_limit is None else t.round_limit,
            target_score=-1 if t.target_score is None else t.target_score,
            coins_total=self._observer.coins,
            rank=t.rank, colour=t.colour, coins=t.coins, step_slot=t.step_slot,
            step_count=t.step_count, same_team=t.same_team, team_factor=t.team_factor,
            colour_bits=colour_bits(t.colour),
            at=np.array([at[name] for name in kernel.SEGMENTS], dtype=np.int64)))
        self._order = np.zeros(t.cards, dtype=np.int64)
        self._zeros = np.zeros(self._observer.size, dtype=self._obs_out.dtype)
        self._gaps = observation_gaps(config)
        self._choices = np.zeros(self.size, dtype=np.int64)
        self._observers = np.zeros(self.size, dtype=np.int64)
        self._no_actions = np.zeros(self.num_actions, dtype=np.bool_)
        self._legal = tuple(kernel.LegalSets(
            bases=np.zeros(self.size, dtype=np.int64),
            bits=np.zeros(self.size, dtype=np.uint64),
            counts=np.zeros(self.size, dtype=np.int64)))

    def _state(self) -> kernel.Fields:
        """The state arrays as the kernel takes them, in ``kernel.State``'s order (the private
        arrays, which no caller can reach: the public ones are read-only twins)."""
        return (
            self._hand, self._face_up, self._captured, self._trick, self._given, self._played,
            self._devils_trick, self._bottle_card, self._bottle_owner, self._trick_cards,
            self._trick_seats, self._trick_length, self._phase, self._to_act, self._dealer,
            self._leader, self._round_index, self._setup_given, self._hand_count, self._scores,
            self._totals, self._last_winner, self._last_card, self._last_bottle, self._seeds,
            self._generation, self._first_dealer, self._base_seeds, self._slot_keys, self._order)

    def _buffer_groups(self) -> list[tuple[Any, ...]]:
        return [self._legal]

    def _start_games(self, games: IntArray) -> None:
        # The kernel rewrites the mask rows of the games it starts: a mask up to date stays so.
        kernel.start_games(self._state(), self._consts, kernel_ints(games), self._mask_buffer,
                           self._no_actions, self._legal)

    def _refresh(self) -> None:
        self._stale = []  # no observation bits to rewrite

    def _legal_now(self) -> BoolArray:
        if self._mask is None:
            kernel.masks(self._state(), self._consts, self.rows, self._mask_buffer,
                         self._no_actions, self._legal)
            self._mask = self._mask_buffer
        return self._mask

    def _observe_into(self, observer: IntArray) -> None:
        kernel.observe(self._state(), self._consts, self.rows, kernel_ints(observer),
                       self._zeros, self._gaps, self._obs_out, not self.compact)

    def _final_observations(self, games: IntArray, observer: IntArray) -> FloatArray:
        out = np.zeros((len(games), self._observer.size), dtype=self._obs_out.dtype)
        kernel.observe(self._state(), self._consts, kernel_ints(games), kernel_ints(observer),
                       self._zeros, self._gaps, out, not self.compact)
        return out

    def _choose(self, uniforms: npt.NDArray[np.float64]) -> IntArray:
        self._legal_now()
        kernel.random_actions(self._legal, kernel_floats(uniforms), self._choices)
        return self._choices.copy()

    def _apply(self, acts: IntArray) -> int:
        # One kernel call steps every game, then writes every mask and (with observations)
        # every observation of the seat to act, which ``_step_observation`` hands out.
        mask = self._legal_now()
        outcome: int = kernel.step(self._state(), self._consts, kernel_ints(acts), mask,
                                   self._rewards, self._done, self._actors, self.rows,
                                   self._no_actions, self._legal, self._observers, self._zeros,
                                   self._gaps, self._obs_out, not self.compact)
        return outcome

    def _step_observation(self, restarted: IntArray) -> npt.NDArray[Any]:
        if len(restarted):  # the step's kernel observed them before they ended and restarted
            self._obs_out[restarted] = self._final_observations(
                restarted, np.maximum(self._to_act[restarted], 0))
        return self._obs_view


def kernel_floats(values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``values`` as a C-contiguous, writable ``float64`` array (as ``kernel_ints``)."""
    array = np.asarray(values, dtype=np.float64)
    if array.flags.c_contiguous and array.flags.writeable:
        return array
    return np.array(array, dtype=np.float64, order="C")


def colour_bits(colour: IntArray) -> npt.NDArray[np.uint64]:
    """Per colour ``k`` (``colour[card]``), the word whose bit ``card`` is set for each card of
    colour ``k``."""
    words = np.zeros(int(colour.max()) + 1, dtype=np.uint64)
    for card, k in enumerate(colour.tolist()):
        words[k] |= np.uint64(1) << np.uint64(card)
    return words


ALWAYS_WRITTEN: tuple[str, ...] = ("hand", "my_setup", "played", "trick", "captured")
"""The planes of an observation that ``kernel.observe`` writes whole for every game (and
``face_up`` in Devil's Eye)."""


def never_written(config: Config) -> BoolArray:
    """The cells of an observation row that ``kernel.observe_row`` never writes in games of
    ``config``, zero in every observation: the face-up plane without Devil's Eye (no seat has
    face-up cards), and the rows of ``received`` of seats that pass the observer no card (the
    observer's own; with 4 or more players and no Devil's Eye every seat but the two
    neighbours, who pass left and right; in Devil's Eye, whose one opponent passes both, every
    row but that opponent's)."""
    layout = {segment.name: segment for segment in observation_layout(config)}
    never = np.zeros(sum(segment.size for segment in layout.values()), dtype=np.bool_)
    if not config.devils_eye:
        face_up = layout["face_up"]
        never[face_up.offset:face_up.offset + face_up.size] = True
    p, n = config.players, len(config.cards)
    passing = {1} if config.devils_eye or p == 2 else {1, p - 1}
    received = layout["received"].offset
    for row in set(range(p)) - passing:
        never[received + row * n:received + (row + 1) * n] = True
    return never


def observation_gaps(config: Config) -> IntArray:
    """The ``(start, length)`` runs of an observation row that ``kernel.observe`` clears before
    it writes: every cell but those of the planes it always writes whole and those it never
    writes (``never_written``: zero since the buffer was made, and the caller cannot write the
    read-only array ``observe`` returns), neighbours joined."""
    whole = set(ALWAYS_WRITTEN) | ({"face_up"} if config.devils_eye else set())
    cleared = ~never_written(config)
    for segment in observation_layout(config):
        if segment.name in whole:
            cleared[segment.offset:segment.offset + segment.size] = False
    edges = np.flatnonzero(np.diff(np.concatenate(([0], cleared.astype(np.int8), [0]))))
    starts, ends = edges[0::2], edges[1::2]
    return np.stack([starts, ends - starts], axis=1).astype(np.int64).reshape(-1, 2)

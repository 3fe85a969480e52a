"""``NumbaBatchGames``: the batch engine with its step, masks, observations and random choice
compiled by numba (the ``batch-fast`` extra: ``pip install 'bottleimp[batch-fast]'``).

The same state arrays and the same API as ``BatchGames`` (it is one): ``reset``, ``to_act``,
``legal_mask``, ``observe``, ``step``, ``random_actions``, ``take``, auto-reset. What runs per
step is ``bottleimp/batch/kernel.py``, a loop over games compiled in nopython mode on one
thread; everything else (loading a position, copies, the rule an illegal action breaks) is the
numpy engine's own code on the same arrays. The first call of each kernel function compiles it
(about 15 s of one core for all six on this project's machine, once per machine and Python:
numba caches it on disk next to the module, or in its user cache directory where the package is
read-only; ``NUMBA_CACHE_DIR`` moves it; a later process loads it in well under a second).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..config import Config
from ..encoding import observation_layout
from ..errors import IllegalActionError
from . import kernel
from .games import BatchError, BatchGames, BoolArray, FloatArray, IntArray, StepResult


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
                 observations: bool = True) -> None:
        missing = numba_missing()
        if missing:
            raise BatchError(missing)
        # No observation bits: ``observe`` writes each observation from the state.
        super().__init__(config, batch_size, autoreset=autoreset, observations=False)
        self.observations = observations
        t = self.t
        if t.cards > 64:  # kernel.LegalSets holds a block of legal actions in one 64-bit word
            raise BatchError(f"the numba backend plays decks of at most 64 cards, not {t.cards}")
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
        self._zeros = np.zeros(self._obs_out.shape[1], dtype=np.float32)
        self._gaps = observation_gaps(config)
        self._rewards = np.zeros((batch_size, t.players), dtype=np.float32)
        self._done = np.zeros(batch_size, dtype=np.bool_)
        self._uniforms = np.zeros(batch_size, dtype=np.float64)
        self._choices = np.zeros(batch_size, dtype=np.int64)
        self._no_actions = np.zeros(self.num_actions, dtype=np.bool_)
        self._legal = tuple(kernel.LegalSets(
            bases=np.zeros(batch_size, dtype=np.int64),
            bits=np.zeros(batch_size, dtype=np.uint64),
            counts=np.zeros(batch_size, dtype=np.int64)))

    def _state(self) -> kernel.Fields:
        """The state arrays as the kernel takes them, in ``kernel.State``'s order (read each
        call: ``reset`` and ``take`` replace some)."""
        return (
            self.hand, self.face_up, self.captured, self.trick, self.given, self.played,
            self.devils_trick, self.bottle_card, self.bottle_owner, self.trick_cards,
            self.trick_seats, self.trick_length, self.phase, self.to_act, self.dealer,
            self.leader, self.round_index, self.setup_given, self.hand_count, self.scores,
            self.totals, self.last_winner, self.last_card, self.last_bottle, self.seeds,
            self.generation, self.first_dealer, self._base_seeds, self._order)

    def _start_games(self, games: IntArray) -> None:
        self._mask = None
        kernel.start_games(self._state(), self._consts, kernel_ints(games), self._stride)

    def _refresh(self) -> None:
        self._stale = []  # no observation bits to rewrite

    def legal_mask(self) -> BoolArray:
        if self._mask is None:
            kernel.masks(self._state(), self._consts, self._mask_buffer, self._no_actions,
                         self._legal)
            self._mask = self._mask_buffer
        return self._mask

    def observe(self, seats: npt.ArrayLike | None = None) -> FloatArray:
        if not self.observations:
            raise BatchError("this batch keeps no observations (observations=False)")
        if seats is None:
            observer = np.maximum(self.to_act, 0)
        else:
            observer = kernel_ints(np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.size,)))
        kernel.observe(self._state(), self._consts, observer, self._zeros, self._gaps,
                       self._obs_out)
        return self._obs_view

    def random_actions(self, rng: np.random.Generator) -> IntArray:
        rng.random(out=self._uniforms)
        self.legal_mask()
        kernel.random_actions(self._legal, self._uniforms, self._choices)
        return self._choices

    def step(self, actions: npt.ArrayLike) -> StepResult:
        acts = kernel_ints(np.asarray(actions).astype(np.int64, copy=False).reshape(-1))
        if acts.shape != (self.size,):
            raise BatchError(f"step needs {self.size} actions, not {acts.shape}")
        mask = self.legal_mask()
        refused = kernel.step(self._state(), self._consts, acts, mask, self._rewards, self._done,
                              self.autoreset, self._stride)
        if refused >= 0:
            rule = self.refusal(refused, int(acts[refused]))
            raise IllegalActionError(rule, f"game {refused}: action {int(acts[refused])} is not "
                                           f"legal for seat {int(self.to_act[refused])}")
        self._mask = None
        return StepResult(self._rewards.copy(), self._done.copy())


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

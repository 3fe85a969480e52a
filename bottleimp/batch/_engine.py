"""``BatchGames``: B games of one configuration stepped in lockstep, by one compiled kernel.

The batch engine keeps every game's state in numpy arrays and runs the rules on them in
``bottleimp/batch/_kernel.py``, a loop over games compiled by numba (the one source of the fast
rules; with ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python, to step through a
rule in a debugger). A step runs on ``threads`` cores (default: every core numba sees), chunks of
games in parallel; a game's result does not depend on the number of threads. It is checked
against the reference by ``python -m bottleimp.batch.check`` and ``tests/test_batch*.py``. Every
game of a batch shares one ``Config``; each game has its own seed, first dealer and state.

State (``B`` games, ``P`` seats, ``N`` cards indexed by position in ``config.cards``, ascending
rank, at most 64; ``K`` bottles; ``T`` cards a trick): sets of cards, each one 64-bit word with
bit ``card`` set for each card in it: ``hand``, ``face_up``, ``captured``, ``trick`` ``(B, P)``,
``given`` ``(B, P, 3)`` (each seat's setup cards by destination slot, in the order of
``encoding.setup_destinations``), ``played`` and ``devils_trick`` ``(B,)``; the bottles' price
cards and owners ``(B, K)`` (``-1``: the start card 19, no owner); the current trick in play
order; and per game the phase (0 setup, 1 play, 2 round over, 3 game over), seat to act (``-1``
once over), dealer, leader, round index, setup cards given per seat, the round's scores and the
totals.

Memory: a game takes ``bytes_per_game(config, observations, compact)`` bytes, every array of the
batch counted (``nbytes()`` gives the whole batch's). For 4 players and the classic deck (36
cards) that is 4,267 bytes with float32 observations, 1,657 with the compact ones and 787
without (6 players, 2 bottles, 54 cards: 8,267, 2,885 and 1,091; ``tests/test_batch.py``
checks these figures). A batch is refused before
anything is allocated when it would take more than ``memory_limit`` bytes (``BatchError``
naming the size; default ``default_memory_limit()``: 4 GiB, or half the machine's memory when
that is less). A step that ends games allocates their final observations and infos beside it;
the batch keeps the last two ``final_obs`` arrays it gave (``(B, D)`` each) to reuse once the
caller has let go of them.

The batch keeps its state in private arrays; the public attributes (``to_act``, ``phase``, ...)
are read-only twins over the same memory, which cannot be made writable again
(``read_only``): a caller reads the state, and only the batch's methods change it. The sets of
cards are published as boolean planes (``hand`` ``(B, P, N)``, ``given`` ``(B, P, 3, N)``,
``played`` ``(B, N)``, ...), unpacked from their words at each read: read-only arrays of the
state as it was read. Every public
method checks its arguments in Python (``_arguments.py``) before the compiled code runs, and
raises ``BatchError`` naming the argument. A deck the engine cannot hold exactly is refused when
the batch is made (``deck_refusal``). After ``close()`` every call raises.

Actions are numbered as in ``bottleimp._encoding`` (``4 * N + 1`` numbers, the seat to act's).
"""

from __future__ import annotations

import math
import os
import sys
from typing import Any, Final, NamedTuple

import numba
import numpy as np
import numpy.typing as npt

from .._actions import Destination
from .._config import Config
from .._encoding import observation_layout
from .._errors import IllegalActionError
from . import _kernel as kernel
from . import _workers
from ._arguments import BatchError as BatchError
from ._arguments import (describe, expect_flag, expect_integer, games_of, int64_values,
                        seats_of, uniforms_from)
from ._observe import Observer
from ._shuffle import slot_seeds
from ._tables import GAME_OVER as GAME_OVER
from ._tables import PLAY as PLAY
from ._tables import ROUND_OVER as ROUND_OVER
from ._tables import SETUP as SETUP
from ._tables import BoolArray as BoolArray
from ._tables import FloatArray as FloatArray
from ._tables import IntArray as IntArray
from ._tables import Tables as Tables
from ._tables import Words as Words
from ._tables import tables_of as tables_of

VALUE_SEGMENTS: Final = ("devils_trick_size", "hand_sizes", "setup_given", "scores", "totals",
                         "progress")
"""The observation's segments of values (fractions, not 0/1), in the layout's order: what the
compact observation leaves at 0 and ``BatchGames.observe_values`` gives."""
MAX_BATCH: Final = 1 << 20
"""The largest batch size accepted (the memory limit usually refuses a smaller one first)."""
ILLEGAL_MODES: Final = ("raise", "end")
"""What ``step`` does with an illegal action: raise ``IllegalActionError`` (no game changed), or
end that game with ``illegal_reward`` for the seat that chose it and 0 for the others (as
PettingZoo's ``TerminateIllegalWrapper``, which ``bottleimp.adapters.pettingzoo.env`` uses)."""
MAX_EXACT_RANK: Final = 1 << 52
"""Ranks are kept as float64: whole and half ranks are exact below this size."""
WORD_LIMIT: Final = 1 << 62
"""Scores and totals are kept as int64: the largest total a game may reach (``deck_refusal``)
stays below this, with room to spare for a sum of two."""
ROUNDS_ALLOWED: Final = 1 << 20
"""The rounds a game with a target score is allowed for when its totals' range is bounded (a
game played at random ends in tens of rounds)."""
_GIB: Final = 1 << 30


def default_memory_limit() -> int:
    """The most bytes a batch may take unless ``memory_limit`` says otherwise: 4 GiB, or half the
    machine's physical memory when that is less."""
    try:
        physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 4 * _GIB
    return min(4 * _GIB, physical // 2)


def deck_refusal(config: Config) -> str:
    """Why the batch engine cannot play ``config`` exactly, or ``""``: a rank it cannot hold
    exactly in float64 (whole or half ranks from ``2**52`` on), more than 64 cards (a seat's
    legal actions are one word, ``kernel.LegalSets``), or coins so large that a total could wrap
    its int64 (the largest round score, ``2 * P * K`` times the deck's coins, over the rounds
    the game may last: its round limit, or ``ROUNDS_ALLOWED``; a target score from
    ``WORD_LIMIT`` on)."""
    cards = config.cards
    if len(cards) > 64:
        return f"the batch engine plays decks of at most 64 cards, not {len(cards)}"
    for index, card in enumerate(cards):
        if not abs(card.rank) < MAX_EXACT_RANK or float(card.rank) * 2 != int(card.rank * 2):
            return (f"card {index} of the deck has the rank {card.rank}, which the batch engine "
                    f"cannot hold exactly (whole or half ranks below 2**52 in size)")
    coins = sum(card.coins for card in cards)
    rounds = config.round_limit if config.round_limit is not None else ROUNDS_ALLOWED
    widest = 2 * config.players * config.bottles * coins * rounds
    if widest >= WORD_LIMIT:
        return (f"the deck's coins ({coins} in all) are too large for the batch engine: over "
                f"{rounds} rounds a total could reach {widest}, past its int64 totals "
                f"(below 2**62)")
    if config.target_score is not None and config.target_score >= WORD_LIMIT:
        return f"the target score {config.target_score} is past the batch engine's int64 totals"
    return ""


def read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A read-only array over ``array``'s memory whose ``writeable`` flag cannot be set again
    (its base is a read-only buffer): the caller sees every later change, and writes none."""
    twin: npt.NDArray[Any] = np.asarray(memoryview(array).toreadonly())  # type: ignore[arg-type]
    return twin


class _Published:
    """A state array as the caller sees it: the read-only twin (``read_only``) of the private
    array ``_<name>``, made once per array; a ``BatchError`` once the batch is closed."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.private = "_" + name

    def __get__(self, games: Any, owner: type | None = None) -> npt.NDArray[Any]:
        if games._closed:
            raise BatchError(f"{self.name}: the batch is closed")
        array = getattr(games, self.private)
        twins: dict[str, tuple[npt.NDArray[Any], npt.NDArray[Any]]] = games._twins
        twin = twins.get(self.name)
        if twin is None or twin[0] is not array:
            twin = (array, read_only(array))
            twins[self.name] = twin
        return twin[1]


class _Unpacked:
    """A set of cards as the caller sees it: the words of the private array ``_<name>``
    unpacked into a read-only boolean array with a last axis of N cards (``unpack_cards``),
    made at each read; a ``BatchError`` once the batch is closed."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.private = "_" + name

    def __get__(self, games: Any, owner: type | None = None) -> BoolArray:
        if games._closed:
            raise BatchError(f"{self.name}: the batch is closed")
        return read_only(unpack_cards(getattr(games, self.private), games.t.cards))


def pack_cards(plane: BoolArray) -> Words:
    """Boolean ``plane`` (last axis: N cards, at most 64) as words, bit ``card`` set where the
    plane is: the shape of ``plane`` without its last axis, ``uint64``."""
    packed = np.packbits(plane, axis=-1, bitorder="little")
    padded = np.zeros((*plane.shape[:-1], 8), dtype=np.uint8)
    padded[..., :packed.shape[-1]] = packed
    words: Words = padded.view("<u8")[..., 0].astype(np.uint64)
    return words


def unpack_cards(words: npt.NDArray[np.uint64], n: int) -> BoolArray:
    """``pack_cards`` undone: a new boolean array of ``words``' shape and a last axis of ``n``
    cards, True where bit ``card`` of the word is set."""
    grouped = np.ascontiguousarray(words, dtype="<u8").view(np.uint8).reshape(*words.shape, 8)
    plane: BoolArray = np.unpackbits(grouped, axis=-1, count=n, bitorder="little").astype(
        np.bool_)
    return plane


def holds(word: np.uint64, card: int) -> bool:
    """Whether bit ``card`` of ``word`` is set (the set of cards holds ``card``)."""
    return bool((int(word) >> card) & 1)


class ArraySpec(NamedTuple):
    """One per-game array of a batch: its name, its shape past the batch axis, its type and the
    value it starts with."""

    name: str
    shape: tuple[int, ...]
    dtype: type[np.generic]
    fill: int | float


def array_specs(config: Config, observations: bool, compact: bool) -> tuple[ArraySpec, ...]:
    """Every array of a batch of ``config`` with one row per game (``BatchGames.__init__``
    allocates exactly these, ``bytes_per_game`` sums them)."""
    p, n, k = config.players, len(config.cards), config.bottles
    t = config.trick_size
    width = Observer(config).size if observations else 0
    specs = [ArraySpec(name, (p,), np.uint64, 0)
             for name in ("hand", "face_up", "captured", "trick")]
    specs += [ArraySpec("given", (p, 3), np.uint64, 0),
              ArraySpec("played", (), np.uint64, 0), ArraySpec("devils_trick", (), np.uint64, 0),
              ArraySpec("bottle_card", (k,), np.int64, -1),
              ArraySpec("bottle_owner", (k,), np.int64, -1),
              ArraySpec("trick_cards", (t,), np.int64, 0),
              ArraySpec("trick_seats", (t,), np.int64, 0)]
    specs += [ArraySpec(name, (), np.int64, fill) for name, fill in (
        ("trick_length", 0), ("phase", GAME_OVER), ("to_act", -1), ("dealer", 0), ("leader", 0),
        ("round_index", 0))]
    specs += [ArraySpec(name, (p,), np.int64, 0)
              for name in ("setup_given", "hand_count", "scores", "totals")]
    specs += [ArraySpec(name, (), np.int64, -1)
              for name in ("last_winner", "last_card", "last_bottle")]
    specs += [ArraySpec("seeds", (), np.uint64, 0), ArraySpec("generation", (), np.int64, 0),
              ArraySpec("first_dealer", (), np.int64, 0),
              ArraySpec("base_seeds", (), np.uint64, 0), ArraySpec("slot_keys", (), np.uint64, 0)]
    # The buffers: the mask, the observation, the step's results, the legal sets, scratch.
    specs += [ArraySpec("mask_buffer", (4 * n + 1,), np.bool_, 0),
              ArraySpec("obs_out", (width,), np.uint8 if compact else np.float32, 0),
              ArraySpec("uniforms", (), np.float64, 0), ArraySpec("rewards", (p,), np.float32, 0),
              ArraySpec("done", (), np.bool_, 0), ArraySpec("actors", (), np.int64, 0),
              ArraySpec("rows", (), np.int64, 0), ArraySpec("truncated", (), np.bool_, 0),
              ArraySpec("choices", (), np.int64, 0), ArraySpec("observers", (), np.int64, 0),
              ArraySpec("legal_bases", (), np.int64, 0), ArraySpec("legal_bits", (), np.uint64, 0),
              ArraySpec("legal_counts", (), np.int64, 0)]
    return tuple(specs)


def bytes_per_game(config: Config, observations: bool = True, compact: bool = False) -> int:
    """The bytes one game of a batch of ``config`` takes: every array with a row per game
    (``array_specs``). A batch of B games takes ``B`` times this plus ``fixed_bytes``."""
    return sum(math.prod(spec.shape) * np.dtype(spec.dtype).itemsize
               for spec in array_specs(config, observations, compact))


ALIGNMENT: Final = 64
"""Each array of a batch starts at a multiple of this many bytes of its memory (a cache line:
no two arrays share one, and every chunk of ``kernel.STEP_CHUNK`` games of an array starts on
one of its own)."""


class Block(NamedTuple):
    """One array of a batch's memory: where it starts (bytes), its shape and its type."""

    offset: int
    shape: tuple[int, ...]
    dtype: np.dtype[Any]


def memory_plan(config: Config, size: int, observations: bool = True,
                compact: bool = False) -> tuple[dict[str, Block], int]:
    """Where each array of a batch of ``size`` games lies in its one block of memory, and the
    block's bytes: the kernel's ``layout`` first, then every array with a row per game
    (``array_specs``), one shuffled deck per chunk of games (``kernel.STEP_CHUNK``), a row of
    False, the observation's runs to clear (``observation_gaps``) and the configuration's tables
    (``kernel.TABLES``), each from a multiple of ``ALIGNMENT`` bytes."""
    p, n = config.players, len(config.cards)
    colours = len({card.colour for card in config.cards})
    arrays: list[tuple[str, tuple[int, ...], Any]] = [
        ("layout", (kernel.LAYOUT_LENGTH,), np.int64)]
    arrays += [(spec.name, (size, *spec.shape), spec.dtype)
               for spec in array_specs(config, observations, compact)]
    arrays += [("order", (-(-size // kernel.STEP_CHUNK), n), np.int64),
               ("no_actions", (4 * n + 1,), np.bool_),
               ("gaps", (len(observation_gaps(config)), 2), np.int64),
               ("rank", (n,), np.float64), ("colour", (n,), np.int64), ("coins", (n,), np.int64),
               ("step_slot", (p, p, 5), np.int64), ("step_count", (p, p), np.int64),
               ("same_team", (p, p), np.int64), ("team_factor", (p,), np.int64),
               ("colour_bits", (colours,), np.uint64),
               ("at", (len(kernel.SEGMENTS),), np.int64)]
    plan: dict[str, Block] = {}
    end = 0
    for name, shape, dtype in arrays:
        offset = -(-end // ALIGNMENT) * ALIGNMENT
        kind = np.dtype(dtype)
        plan[name] = Block(offset, shape, kind)
        end = offset + math.prod(shape) * kind.itemsize
    return plan, end


def fixed_bytes(config: Config, size: int, observations: bool = True,
                compact: bool = False) -> int:
    """The bytes of a batch of ``size`` games beyond its games' rows (``memory_plan``): the
    kernel's layout, one shuffled deck per chunk of games, a row of False, the observation's
    runs to clear, the configuration's tables, the gaps that align each array and
    ``ALIGNMENT`` bytes more to align the block itself."""
    total = memory_plan(config, size, observations, compact)[1]
    return total + ALIGNMENT - size * bytes_per_game(config, observations, compact)


def thread_count(threads: object) -> int:
    """``threads`` checked: ``None`` (every core numba sees, ``numba.config.NUMBA_NUM_THREADS``)
    or an integer from 1 to that number."""
    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    if threads is None:
        return most
    count = expect_integer(threads, "threads")
    if not 1 <= count <= most:
        raise BatchError(f"threads must be from 1 to {most} (the cores numba sees), not {count}")
    return count


class StepResult(NamedTuple):
    """What ``BatchGames.step`` returns, as a Gymnasium ``VectorEnv``'s ``step`` does:
    ``observation, rewards, terminated, truncated, infos = games.step(actions)``."""

    observation: npt.NDArray[Any]
    """``(B, D)``: the observation of each game's seat to act after the step (a game that ended
    and restarted: the new game's), ``observe()``'s array (read-only, rewritten by the next step
    or call: copy it to keep it); ``(B, 0)`` with ``observations=False``."""
    rewards: FloatArray
    """``(B, P)`` rewards: ``1.0`` to each winner and ``-1.0`` to every other seat on the step
    that ends a game (as ``encoding.returns``); a game ended by an illegal action
    (``illegal="end"``): ``illegal_reward`` to its author, 0 to the others; else ``0.0``."""
    terminated: BoolArray
    """``(B,)``: the games that ended on this step (with auto-reset, already restarted)."""
    truncated: BoolArray
    """``(B,)``: all False (a game always ends by the rules, never by a limit)."""
    infos: dict[str, Any]
    """When some game ended: ``final_obs`` ``(B, D)`` (the ended games' last observation, of the
    seat whose action ended it; zeros elsewhere) and ``final_info`` (``totals`` and ``scores``
    ``(B, P)``: the final totals and the last round's scores, ``illegal`` ``(B,)``: ended by an
    illegal action), each with its mask ``_final_obs``, ``_final_info``, ``_totals``, ... True
    at the games that ended, as Gymnasium's same-step auto-reset gives them; else empty."""

    @property
    def done(self) -> BoolArray:
        """``terminated | truncated``: the games that ended on this step."""
        ended: BoolArray = self.terminated | self.truncated
        return ended


class BatchGames:
    """``batch_size`` games of ``config`` stepped together (see the module docstring).

    ``reset(seeds)`` starts every game (game ``b`` as ``new_game(config, seeds[b],
    first_dealer=...)`` would); ``legal_mask()``, ``observe()`` and ``to_act`` describe the seat
    to act of every game; ``step(actions)`` takes one action number per game. With
    ``autoreset`` (the default), a game that ends on a step starts again at once, with the
    slot's next seed (``shuffle.game_seeds``) and the next first dealer. ``threads``: the cores
    a step runs on (default all); ``memory_limit``: the most bytes the batch may take.
    """

    hand = _Unpacked()
    face_up = _Unpacked()
    captured = _Unpacked()
    trick = _Unpacked()
    given = _Unpacked()
    played = _Unpacked()
    devils_trick = _Unpacked()
    bottle_card = _Published()
    bottle_owner = _Published()
    trick_cards = _Published()
    trick_seats = _Published()
    trick_length = _Published()
    phase = _Published()
    to_act = _Published()
    dealer = _Published()
    leader = _Published()
    round_index = _Published()
    setup_given = _Published()
    hand_count = _Published()
    scores = _Published()
    totals = _Published()
    last_winner = _Published()
    last_card = _Published()
    last_bottle = _Published()
    seeds = _Published()
    generation = _Published()
    first_dealer = _Published()
    base_seeds = _Published()
    slot_keys = _Published()

    _hand: Words
    _face_up: Words
    _captured: Words
    _trick: Words
    _given: Words
    _played: Words
    _devils_trick: Words
    _bottle_card: IntArray
    _bottle_owner: IntArray
    _trick_cards: IntArray
    _trick_seats: IntArray
    _trick_length: IntArray
    _phase: IntArray
    _to_act: IntArray
    _dealer: IntArray
    _leader: IntArray
    _round_index: IntArray
    _setup_given: IntArray
    _hand_count: IntArray
    """Cards in each seat's hidden hand."""
    _scores: IntArray
    _totals: IntArray
    _last_winner: IntArray
    _last_card: IntArray
    _last_bottle: IntArray
    _seeds: npt.NDArray[np.uint64]
    _generation: IntArray
    _first_dealer: IntArray
    """The first dealer of each slot's current game."""
    _base_seeds: npt.NDArray[np.uint64]
    """Each slot's first seed (its game 0's)."""
    _slot_keys: npt.NDArray[np.uint64]
    """Each slot's key, from which its later games' seeds are drawn (``game_seeds``)."""
    _mask_buffer: BoolArray
    _obs_out: npt.NDArray[Any]
    _uniforms: npt.NDArray[np.float64]
    _rewards: FloatArray
    _done: BoolArray
    _actors: IntArray
    """The seat that acted in each game on the last step (``-1``: a game over)."""
    _rows: IntArray
    _truncated: BoolArray
    _choices: IntArray
    _observers: IntArray
    _legal_bases: IntArray
    _legal_bits: npt.NDArray[np.uint64]
    _legal_counts: IntArray
    _layout: IntArray
    """The kernel's ``layout`` (``kernel.layout_of``), at the head of ``_memory``."""
    _order: IntArray
    """Scratch: one shuffled deck per chunk of games (chunks are dealt in parallel)."""
    _no_actions: BoolArray
    _gaps: IntArray
    _colour_bits: npt.NDArray[np.uint64]

    def __init__(self, config: Config, batch_size: int, *, autoreset: bool = True,
                 observations: bool = True, illegal: str = "raise",
                 illegal_reward: float = -1.0, compact: bool = False,
                 threads: int | np.integer[Any] | None = None,
                 memory_limit: int | np.integer[Any] | None = None) -> None:
        self._closed = False
        if not isinstance(config, Config):
            raise BatchError(f"config must be a Config, not {describe(config)}")
        size = expect_integer(batch_size, "batch_size")
        if not 1 <= size <= MAX_BATCH:
            raise BatchError(f"batch_size must be from 1 to {MAX_BATCH}, not {size}")
        if not isinstance(illegal, str) or illegal not in ILLEGAL_MODES:
            raise BatchError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not "
                             f"{describe(illegal)}")
        self.illegal_reward = finite_reward(illegal_reward)
        self.autoreset = expect_flag(autoreset, "autoreset")
        self.observations = expect_flag(observations, "observations")
        """Whether observations are kept (``observe`` needs them; search and perft, which never
        observe, run faster and smaller without)."""
        self.compact = expect_flag(compact, "compact")
        """Whether ``observe`` gives the compact observation: ``uint8``, the same layout, its
        0/1 cells as in the float32 one and its value cells 0 (``observe_values`` gives
        those): a quarter of the bytes."""
        self.threads = thread_count(threads)
        """The cores a step runs on."""
        limit = default_memory_limit() if memory_limit is None else expect_integer(
            memory_limit, "memory_limit")
        refusal = deck_refusal(config)
        if refusal:
            raise BatchError(refusal)
        needed = (size * bytes_per_game(config, self.observations, self.compact)
                  + fixed_bytes(config, size, self.observations, self.compact))
        if needed > limit:
            raise BatchError(f"a batch of {size:,} games of this configuration needs {needed:,} "
                             f"bytes, more than the memory limit of {limit:,} bytes "
                             f"(memory_limit)")
        self.memory_limit = limit
        self.config = config
        self.illegal = illegal
        self.t = tables_of(config)
        self.size = size
        self._twins: dict[str, tuple[npt.NDArray[Any], npt.NDArray[Any]]] = {}
        self._started = False
        """Whether the games were started (``reset`` or a ``load_*``): before, every call but
        ``reset`` is refused."""
        t, b = self.t, size
        n = t.cards
        self.num_actions = 4 * n + 1
        plan, total = memory_plan(config, b, self.observations, self.compact)
        self._block = np.zeros(total + ALIGNMENT, dtype=np.uint8)
        """The batch's one block of memory (``memory_plan``), with room to align it."""
        start = -self._block.ctypes.data % ALIGNMENT
        self._memory = self._block[start:start + total]
        """Every array of the batch, ``memory_plan``'s ``layout`` first: what the kernel takes."""
        for name, block in plan.items():
            size_bytes = math.prod(block.shape) * block.dtype.itemsize
            view = self._memory[block.offset:block.offset + size_bytes]
            setattr(self, "_" + name, view.view(block.dtype).reshape(block.shape))
        for spec in array_specs(config, self.observations, self.compact):
            if spec.fill:
                getattr(self, "_" + spec.name).fill(spec.fill)
        self._rows[:] = np.arange(b)
        self.rows = read_only(self._rows)
        self._mask: BoolArray | None = None
        self._mask_view = read_only(self._mask_buffer)
        self._observer = Observer(config)
        self._obs_view = read_only(self._obs_out)
        """What ``observe`` returns: ``_obs_out`` read-only, for good (the kernel relies on the
        cells it never writes staying zero)."""
        self._no_games = self._rows[:0]
        self._not_truncated = read_only(self._truncated)
        """``step``'s ``truncated``: all False, never written."""
        self._no_observation = read_only(self._obs_out[:, :0])
        at = self._observer.at
        tables = {"rank": t.rank, "colour": t.colour, "coins": t.coins, "step_slot": t.step_slot,
                  "step_count": t.step_count, "same_team": t.same_team,
                  "team_factor": t.team_factor, "colour_bits": colour_bits(t.colour),
                  "at": np.array([at[name] for name in kernel.SEGMENTS], dtype=np.int64),
                  "gaps": observation_gaps(config)}
        for name, table in tables.items():
            getattr(self, "_" + name)[...] = table
        sizes = {"games": b, "players": t.players, "cards": n, "bottles": t.bottles,
                 "trick_size": t.trick_size, "chunks": len(self._order),
                 "colours": len(self._colour_bits), "gaps": len(self._gaps),
                 "devils_eye": int(t.devils_eye), "hidden_count": t.hidden_count,
                 "round_limit": -1 if t.round_limit is None else t.round_limit,
                 "target_score": -1 if t.target_score is None else t.target_score,
                 "coins_total": sum(card.coins for card in config.cards)}
        self._layout[:] = ([sizes[name] for name in kernel.SIZES]
                           + [plan[name].offset for name in kernel.ARRAYS])
        self._legal = (self._legal_bases, self._legal_bits, self._legal_counts)
        self._final_pool: list[tuple[npt.NDArray[Any], IntArray] | None] = [None, None]
        """The last two ``final_obs`` arrays given, with the rows written (``_zeroed_rows``)."""
        self._final_turn = 0

    # -- the compiled kernel -----------------------------------------------------------------

    # -- starting games -----------------------------------------------------------------------

    def reset(self, seeds: object = None, first_dealer: object = 0, *,
              games: object = None) -> None:
        """Start games: every game, or those of ``games`` (indices, or a boolean mask of B).

        ``seeds``: one integer seed per game started (game ``b`` is ``new_game(config,
        seeds[b], first_dealer=...)``: any integers, taken mod ``2**64`` as the reference does);
        or one integer or ``np.random.SeedSequence`` for them all, spawned into one child per
        game (``shuffle.slot_seeds``: two batches from different roots, or from one
        ``SeedSequence`` reset twice, share no game); or ``None`` with ``games`` to start each
        chosen slot's next game, as auto-reset would. ``first_dealer``: one seat or one per game
        started, dealing its round 0 (with ``seeds=None`` the next one clockwise). Only the
        chosen games are touched, and nothing is kept for the others."""
        self._require_open("reset")
        if games is None:
            chosen = self._rows.copy()
        else:
            chosen = games_of(games, "reset(games)", self.size)
            if len(np.unique(chosen)) != len(chosen):
                raise BatchError("reset(games) names a game twice")
        if seeds is None:
            if games is None or not self._started:
                raise BatchError("reset needs seeds (seeds=None only restarts chosen games of "
                                 "a batch already reset: reset(games=...))")
            self._restart(chosen)
            return
        dealers = seats_of(first_dealer, "first_dealer", len(chosen), self.t.players)
        bases, keys = slot_seeds(seeds, len(chosen))
        self._base_seeds[chosen] = bases
        self._slot_keys[chosen] = keys
        self._generation[chosen] = 0
        self._first_dealer[chosen] = dealers
        self._started = True
        self._start_games(chosen)

    def _restart(self, games: IntArray) -> None:
        """Start the next game of each slot of ``games``: its next seed, its first dealer the
        seat after the last game's (a convention of the batch: rule FIRST-DEALER lets the
        players choose, and rotating it deals every seat first in turn)."""
        self._generation[games] += 1
        self._first_dealer[games] = (self._first_dealer[games] + 1) % self.t.players
        self._start_games(games)

    def _start_games(self, games: IntArray) -> None:
        """A new game in each slot of ``games`` (its generation's seed, ``kernel.start_game``):
        the kernel rewrites the mask rows of the games it starts, so a mask up to date stays so."""
        kernel.start_games(self._memory, kernel_ints(games))

    def _game(self, game: object, where: str) -> int:
        """``game`` if it is a game of the batch (an integer from 0 to B - 1), else a
        ``BatchError`` naming ``where``."""
        index = expect_integer(game, where)
        if not 0 <= index < self.size:
            raise BatchError(f"{where}: {index} is no game of a batch of {self.size}")
        return index

    def _seat(self, seat: object, where: str) -> int:
        """``seat`` if it is a seat (an integer from 0 to P - 1), else a ``BatchError``."""
        index = expect_integer(seat, where)
        if not 0 <= index < self.t.players:
            raise BatchError(f"{where}: {index} is no seat of a {self.t.players}-player game "
                             f"(seats 0 to {self.t.players - 1})")
        return index

    def _card(self, card: object, where: str, lowest: int) -> int:
        """``card`` if it is a card index of the deck (an integer from 0, or ``lowest``, to
        N - 1), else a ``BatchError`` naming ``where``."""
        index = expect_integer(card, where)
        if not lowest <= index < self.t.cards:
            raise BatchError(f"{where}: {index} is no card index of a deck of {self.t.cards} "
                             f"(from {lowest} to {self.t.cards - 1})")
        return index

    def _planes(self, hands: object, face_up: object, where: str) -> tuple[BoolArray, BoolArray]:
        """``hands`` and ``face_up`` checked as a deal: ``(P, N)`` boolean arrays, no card in two
        places, and no face-up card outside Devil's Eye; else a ``BatchError`` naming ``where``."""
        shape = (self.t.players, self.t.cards)
        planes = []
        for name, plane in (("hands", hands), ("face_up", face_up)):
            if not isinstance(plane, np.ndarray) or plane.dtype != np.bool_:
                raise BatchError(f"{where}({name}) must be a numpy array of bool, not "
                                 f"{describe(plane)}")
            if plane.shape != shape:
                raise BatchError(f"{where}({name}) must have the shape {shape}, not "
                                 f"{plane.shape}")
            planes.append(np.array(plane, dtype=np.bool_))
        if planes[1].any() and not self.t.devils_eye:
            raise BatchError(f"{where}(face_up): only Devil's Eye deals face-up cards")
        held = planes[0].sum(axis=0) + planes[1].sum(axis=0)
        if (held > 1).any():
            raise BatchError(f"{where}: card {int(np.flatnonzero(held > 1)[0])} is dealt twice")
        return planes[0], planes[1]

    @property
    def started(self) -> bool:
        """Whether the games were started (``reset``, or a position loaded)."""
        return self._started

    def _state(self) -> tuple[npt.NDArray[Any], ...]:
        """The state arrays in ``kernel.State``'s order, as the kernel's functions take them
        (views into the batch's memory): for code that calls those functions on one game
        directly, the open-hand solver (``bottleimp.analysis``)."""
        return tuple(getattr(self, "_" + name) for name in kernel.State._fields)

    @property
    def _consts(self) -> tuple[Any, ...]:
        """The configuration's numbers and tables in ``kernel.Consts``' order, as the kernel's
        functions take them (``_state``'s companion)."""
        t = self.t
        return (t.players, t.cards, t.bottles, t.trick_size, t.devils_eye, t.hidden_count,
                -1 if t.round_limit is None else t.round_limit,
                -1 if t.target_score is None else t.target_score, float(self._observer.coins),
                *(getattr(self, "_" + name) for name in kernel.TABLES))

    @property
    def closed(self) -> bool:
        """Whether ``close()`` was called: every later call raises ``BatchError``."""
        return self._closed

    def close(self) -> None:
        """Free the batch's arrays; every later call raises ``BatchError`` (a second ``close``
        does nothing)."""
        if self._closed:
            return
        self._closed = True
        for name in vars(self).copy():
            if isinstance(getattr(self, name), (np.ndarray, tuple, list)) and name.startswith("_"):
                setattr(self, name, None)
        self._twins = {}

    def _require_open(self, where: str) -> None:
        if self._closed:
            raise BatchError(f"{where}: the batch is closed")

    def _require_started(self, where: str) -> None:
        self._require_open(where)
        if not self._started:
            raise BatchError(f"{where}: the batch was never reset (call reset(seeds) first)")

    def load_round(self, game: object, dealer: object, hands: object, face_up: object) -> None:
        """Start round 0 of game ``game`` dealt as given (``(P, N)`` boolean planes, no card in
        two places; the perft positions), by ``dealer``, totals at 0."""
        self._require_open("load_round")
        index = self._game(game, "load_round(game)")
        seat = self._seat(dealer, "load_round(dealer)")
        hand, up = self._planes(hands, face_up, "load_round")
        self._totals[index] = 0
        self._round_index[index] = 0
        self._dealer[index] = seat
        self._first_dealer[index] = seat
        self._started = True
        self._begin_round(index, hand, up)

    def _begin_round(self, game: int, hands: BoolArray, face_up: BoolArray) -> None:
        self._hand[game] = pack_cards(hands)
        self._face_up[game] = pack_cards(face_up)
        kernel.begin_rounds(self._memory, kernel_ints([game]))

    def load_play(self, game: object, hands: object, face_up: object, bottles: object,
                  trick: object, to_act: object) -> None:
        """Put game ``game`` in trick play: the seats hold ``hands`` (and ``face_up``), the
        bottles are ``(price card, owner)`` (``(-1, -1)`` for the start card 19, no owner) and
        ``trick`` (``(seat, card)`` pairs, fewer than a trick's cards, no card held) is the trick
        so far, and ``to_act`` plays next (the conformance cases give a position rather than a
        game)."""
        self._require_open("load_play")
        index = self._game(game, "load_play(game)")
        hand, up = self._planes(hands, face_up, "load_play")
        t = self.t
        priced = self._pairs(bottles, "load_play(bottles)", t.bottles, t.bottles)
        for where, (card, owner) in enumerate(priced):
            self._card(card, f"load_play(bottles)[{where}] card", -1)
            if owner != -1:
                self._seat(owner, f"load_play(bottles)[{where}] owner")
            if (card < 0) != (owner < 0):
                raise BatchError(f"load_play(bottles)[{where}]: a price card has an owner and "
                                 f"the start card none, not {(card, owner)}")
        played = self._pairs(trick, "load_play(trick)", 0, t.trick_size - 1)
        seen: BoolArray = np.logical_or(hand.any(axis=0), up.any(axis=0))
        for where, (seat, card) in enumerate(played):
            self._seat(seat, f"load_play(trick)[{where}] seat")
            self._card(card, f"load_play(trick)[{where}] card", 0)
            if seen[card]:
                raise BatchError(f"load_play(trick)[{where}]: card {card} is held or played "
                                 f"twice")
            seen[card] = True
        seat = self._seat(to_act, "load_play(to_act)")
        self._started = True
        self._begin_round(index, hand, up)
        for where, (card, owner) in enumerate(priced):
            self._bottle_card[index, where] = card
            self._bottle_owner[index, where] = owner
        self._phase[index] = PLAY
        for position, (player, card) in enumerate(played):
            bit = np.uint64(1) << np.uint64(card)
            self._trick[index, player] |= bit
            self._played[index] |= bit
            self._trick_cards[index, position] = card
            self._trick_seats[index, position] = player
        self._trick_length[index] = len(played)
        self._leader[index] = played[0][0] if played else seat
        self._to_act[index] = seat
        self._mask = None

    @staticmethod
    def _pairs(values: object, where: str, fewest: int, most: int) -> list[tuple[int, int]]:
        """``values``, a list or tuple of ``fewest`` to ``most`` pairs of integers, as such."""
        if not isinstance(values, (list, tuple)) or not fewest <= len(values) <= most:
            raise BatchError(f"{where} must be a list of {fewest} to {most} pairs of integers, "
                             f"not {describe(values)}")
        pairs = []
        for index, pair in enumerate(values):
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise BatchError(f"{where}[{index}] must be a pair of integers, not "
                                 f"{describe(pair)}")
            pairs.append((expect_integer(pair[0], f"{where}[{index}]"),
                          expect_integer(pair[1], f"{where}[{index}]")))
        return pairs

    # -- what the seat to act may do ----------------------------------------------------------

    def legal_cards(self, games: object = None) -> BoolArray:
        """``(G, N)``, a new array: the cards the seat to act may give (setup) or play (trick
        play) in each of ``games`` (indices from 0 to B - 1, or a boolean mask of B games;
        default: all); all False between rounds and once over (read from the legal mask)."""
        self._require_started("legal_cards")
        chosen = self._rows if games is None else games_of(games, "legal_cards(games)", self.size)
        n = self.t.cards
        blocks = self._legal_now()[chosen, :4 * n].reshape(len(chosen), 4, n)
        cards: BoolArray = np.any(blocks, axis=1)
        return cards

    def legal_mask(self) -> BoolArray:
        """``(B, 4N + 1)``: True at each legal action number of the seat to act (as
        ``encoding.legal_action_mask``). A game over has one True, at the last number ``4N``
        (the next round's start, which a game over does not have): a masked softmax over a row
        then stays finite, and ``step`` ignores a game over's action whatever it is. The array is
        read-only for good and rewritten by the next step: copy it to keep it."""
        self._require_started("legal_mask")
        self._legal_now()
        return self._mask_view

    def _legal_now(self) -> BoolArray:
        """The private mask buffer, up to date (``kernel.masks`` when a position was loaded or
        games ended illegally): what ``step`` judges actions by, never the caller's copy."""
        if self._mask is None:
            kernel.masks(self._memory)
            self._mask = self._mask_buffer
        return self._mask_buffer

    def observe(self, seats: object = None) -> npt.NDArray[Any]:
        """``(B, D)`` float32 observations in ``encoding.observation``'s layout (``uint8`` with
        ``compact``): of the seat to act in each game (seat 0 once over), or of ``seats`` (one
        seat, or ``seats[b]`` in game ``b``). The array is read-only for good and rewritten by
        the next call: copy it to keep it or change it."""
        observer = self._observers_of(seats, "observe")
        kernel.observe(self._memory, self._rows, observer, self._obs_out, not self.compact)
        return self._obs_view

    def _observers_of(self, seats: object, where: str) -> IntArray:
        self._require_started(where)
        if not self.observations:
            raise BatchError(f"{where}: this batch keeps no observations (observations=False)")
        if seats is None:
            return np.maximum(self._to_act, 0)
        return kernel_ints(seats_of(seats, f"{where}(seats)", self.size, self.t.players))

    def observe_values(self, seats: object = None) -> FloatArray:
        """``(B, 4P + 2)`` float32, a new array: the value cells of the observations ``observe``
        gives (of the same seats), in the layout's order (``VALUE_SEGMENTS``: the Devil's
        Trick's size, the hand sizes, the setup cards given, the scores, the totals, the
        progress); with ``compact``, what the compact observation leaves out."""
        observer = self._observers_of(seats, "observe_values")
        full = np.zeros((self.size, self._observer.size), dtype=np.float32)
        kernel.observe(self._memory, self._rows, observer, full, True)
        columns = [np.arange(segment.offset, segment.offset + segment.size)
                   for segment in observation_layout(self.config)
                   if segment.name in VALUE_SEGMENTS]
        values: FloatArray = full[:, np.concatenate(columns)]
        return values

    def _final_observations(self, games: IntArray, observer: IntArray) -> npt.NDArray[Any]:
        """``(G, D)``: a new array of the observation of seat ``observer[i]`` in game
        ``games[i]`` (the games that just ended, before they restart)."""
        out = np.zeros((len(games), self._observer.size), dtype=self._obs_out.dtype)
        kernel.observe(self._memory, kernel_ints(games), kernel_ints(observer), out,
                       not self.compact)
        return out

    def random_actions(self, rng: object) -> IntArray:
        """One uniformly random legal action number per game, a new array, from ``B`` uniform
        numbers of ``rng`` (a numpy ``Generator``: ``rng.random(B)``, or a ``RandomState``:
        ``rng.random_sample(B)``): in game ``b``, legal action ``floor(u_b * count_b)`` in
        ascending order (a game over: its mask's one action, ``4N``)."""
        self._require_started("random_actions")
        uniforms = uniforms_from(rng, self._uniforms)
        if uniforms is not self._uniforms:
            self._uniforms[:] = uniforms
        self._legal_now()
        _workers.shared().run(self.threads, kernel.random_actions, self._memory)
        return self._choices.copy()

    # -- stepping -----------------------------------------------------------------------------

    def step(self, actions: object) -> StepResult:
        """Take ``actions[b]`` (an action number of the seat to act: a ``(B,)`` integer array or
        a sequence of B integers) in every game ``b`` that is not over (the action of a game
        over is ignored), and return ``(observation, rewards, terminated, truncated, infos)``
        (``StepResult``).

        An illegal action, with ``illegal="raise"`` (the default), raises
        ``IllegalActionError`` naming the game and the broken rule, with no game changed; with
        ``illegal="end"`` it ends its game (``illegal_reward`` to its author, 0 to the others,
        ``final_info["illegal"]``) and the other games step. With auto-reset an ended game starts
        again at once: its last observation, final totals and last round's scores are in
        ``infos`` (``StepResult.infos``)."""
        self._require_started("step")
        acts = int64_values(actions, "actions", self.size)  # a new array: no caller reaches it
        outcome = self._apply(acts)
        ended_illegally = self._no_games
        if outcome >= 0:
            refused = outcome
            if self.illegal == "raise":
                rule = self.refusal(refused, int(acts[refused]))
                raise IllegalActionError(rule, f"game {refused}: action {int(acts[refused])} is "
                                               f"not legal for seat {int(self._to_act[refused])}")
            seat = self._to_act.copy()
            ended_illegally = self._illegal_games(acts)
            self._phase[ended_illegally] = GAME_OVER
            self._to_act[ended_illegally] = -1
            self._mask = None
            outcome = self._apply(acts)
            assert outcome < 0
            self._actors[ended_illegally] = seat[ended_illegally]
            self._rewards[ended_illegally] = 0.0
            self._rewards[ended_illegally, seat[ended_illegally]] = self.illegal_reward
            self._done[ended_illegally] = True
        rewards, done = self._rewards.copy(), self._done.copy()
        infos: dict[str, Any] = {}
        if outcome < -1 or len(ended_illegally):
            ended = np.flatnonzero(done)
            infos = self._final_infos(ended, self._actors[ended], ended_illegally)
            if self.autoreset:
                self._restart(ended)
                if self.observations:  # the step observed them before they ended and restarted
                    self._obs_out[ended] = self._final_observations(
                        ended, np.maximum(self._to_act[ended], 0))
        if not self.observations:
            return StepResult(self._no_observation, rewards, done, self._not_truncated, infos)
        return StepResult(self._obs_view, rewards, done, self._not_truncated, infos)

    def _illegal_games(self, acts: IntArray) -> IntArray:
        """The games not over whose action is not in their legal set."""
        live = self._phase != GAME_OVER
        inside = (acts >= 0) & (acts < self.num_actions)
        legal = np.zeros(self.size, dtype=np.bool_)
        legal[inside] = self._legal_now()[self._rows[inside], acts[inside]]
        games: IntArray = np.flatnonzero(live & ~legal)
        return games

    def _final_infos(self, ended: IntArray, seat: IntArray, illegal: IntArray) -> dict[str, Any]:
        """The infos of a step on which the games ``ended`` ended (``StepResult.infos``)."""
        mask = np.zeros(self.size, dtype=np.bool_)
        mask[ended] = True
        if self.observations:
            final_obs = self._zeroed_rows(ended)
            final_obs[ended] = self._final_observations(ended, np.maximum(seat, 0))
        else:
            final_obs = np.zeros((self.size, 0), dtype=np.float32)
        totals = np.zeros(self._totals.shape, dtype=np.int64)
        totals[ended] = self._totals[ended]
        scores = np.zeros(self._scores.shape, dtype=np.int64)
        scores[ended] = self._scores[ended]
        by_illegal = np.zeros(self.size, dtype=np.bool_)
        by_illegal[illegal] = True
        info = {"totals": totals, "_totals": mask.copy(), "scores": scores,
                "_scores": mask.copy(), "illegal": by_illegal, "_illegal": mask.copy()}
        return {"final_obs": final_obs, "_final_obs": mask.copy(), "final_info": info,
                "_final_info": mask.copy()}

    def _zeroed_rows(self, ended: IntArray) -> npt.NDArray[Any]:
        """A ``(B, D)`` array of zeros, of the observation's type, for ``final_obs`` with rows
        ``ended`` about to be written: one of the two arrays the last two such steps gave, when
        nothing outside the batch refers to it any more (its reference count: not the caller,
        nor a view of it, nor an info dict), with the rows that step wrote cleared; else a new
        one. Zeroing a whole new array cost more than the rest of a step outside its parallel
        loop (1024 float32 rows: about 70 microseconds), on nearly every step of a large
        batch."""
        pool = self._final_pool
        for index in range(len(pool)):
            held = pool[index]
            if held is not None and sys.getrefcount(held[0]) == 2:  # the pool, the argument
                array, written = held
                array[written] = 0
                pool[index] = (array, ended)
                return array
        array = np.zeros(self._obs_out.shape, dtype=self._obs_out.dtype)
        pool[self._final_turn] = (array, ended)
        self._final_turn = 1 - self._final_turn
        return array

    def _apply(self, acts: IntArray) -> int:
        """Take every game's action (no auto-reset) in one kernel call on ``threads`` cores,
        which then writes every mask and (with observations) every observation of the seat to
        act; ``_rewards``, ``_done`` and ``_actors`` written. Returns ``-1 - k``, ``k`` the
        number of games that ended; or, when some live game's action is illegal, changes nothing
        and returns the first such game."""
        self._legal_now()
        outcome: int = _workers.shared().run(self.threads, kernel.step, self._memory, acts,
                                             self._obs_out, not self.compact)
        return outcome

    # -- why an action is refused ---------------------------------------------------------------

    def refusal(self, game: object, action: object) -> str:
        """The rule an action number breaks in game ``game`` (checked in the reference's
        order), or ``""`` when it is legal."""
        self._require_started("refusal")
        game = self._game(game, "refusal(game)")
        action = expect_integer(action, "refusal(action)")
        t = self.t
        n = t.cards
        phase = int(self._phase[game])
        if phase == GAME_OVER:
            return "GAME-OVER"
        if not 0 <= action < self.num_actions:
            return "PHASE"
        block = action // n
        wanted = {SETUP: (0, 1, 2), PLAY: (3,), ROUND_OVER: (4,)}[phase]
        if block not in wanted:
            return "PHASE"
        if phase == ROUND_OVER:
            return ""
        seat = int(self._to_act[game])
        card = action % n
        if phase == SETUP:
            count = int(self._setup_given[game, seat])
            if int(t.step_slot[self._dealer[game], seat, count]) != block:
                return "SETUP-STEPS"
            return "" if holds(self._hand[game, seat], card) else "SETUP-FROM-DEALT"
        return self.play_refusal(game, seat, card)

    def play_refusal(self, game: object, seat: object, card: object) -> str:
        """The rule that forbids ``seat`` to play ``card`` now in game ``game`` (trick play),
        or ``""``: TURN-ORDER (a seat that is not the one to act, or no seat of the game),
        CARD-HELD, then FOLLOW-SUIT (EYE-FOLLOW-SUIT in Devil's Eye). ``card``: a card index,
        from 0 to N - 1."""
        self._require_started("play_refusal")
        game = self._game(game, "play_refusal(game)")
        seat = expect_integer(seat, "play_refusal(seat)")
        card = self._card(card, "play_refusal(card)", 0)
        if not 0 <= seat < self.t.players or seat != int(self._to_act[game]):
            return "TURN-ORDER"
        if not holds(self._hand[game, seat] | self._face_up[game, seat], card):
            return "CARD-HELD"
        if self._legal_now()[game, 3 * self.t.cards + card]:
            return ""
        return "EYE-FOLLOW-SUIT" if self.t.devils_eye else "FOLLOW-SUIT"

    def give_refusal(self, game: object, seat: object, gives: list[tuple[Destination, int]],
                     whole: bool = True) -> str:
        """The rule that forbids ``seat`` to give ``gives`` (destination, card index; ``-1``: no
        card of the deck) in turn in game ``game``, or ``""``: the checks of a setup in the
        reference's order (SETUP-ORDER, SETUP-STEPS, SETUP-ORDER; per card SETUP-STEPS then
        SETUP-FROM-DEALT; with ``whole``, SETUP-STEPS when parts are missing)."""
        self._require_started("give_refusal")
        game = self._game(game, "give_refusal(game)")
        seat = expect_integer(seat, "give_refusal(seat)")
        whole = expect_flag(whole, "give_refusal(whole)")
        if not isinstance(gives, (list, tuple)):
            raise BatchError(f"give_refusal(gives) must be a list of (destination, card) pairs, "
                             f"not {describe(gives)}")
        checked: list[tuple[Destination, int]] = []
        for index, give in enumerate(gives):
            if not isinstance(give, tuple) or len(give) != 2:
                raise BatchError(f"give_refusal(gives)[{index}] must be a (destination, card) "
                                 f"pair, not {describe(give)}")
            destination, card = give
            if not isinstance(destination, Destination):
                raise BatchError(f"give_refusal(gives)[{index}]: the destination must be a "
                                 f"Destination, not {describe(destination)}")
            checked.append((destination, self._card(card, f"give_refusal(gives)[{index}]", -1)))
        gives = checked
        t = self.t
        if not 0 <= seat < t.players:
            return "SETUP-ORDER"
        dealer = int(self._dealer[game])
        steps = t.steps[dealer][seat]
        done = int(self._setup_given[game, seat])
        if done == len(steps):
            return "SETUP-STEPS"
        if seat != int(self._to_act[game]):
            return "SETUP-ORDER"
        hand = unpack_cards(self._hand[game, seat], t.cards)
        for destination, card in gives:
            if done == len(steps) or steps[done] is not destination:
                return "SETUP-STEPS"
            if card < 0 or not hand[card]:
                return "SETUP-FROM-DEALT"
            hand[card] = False
            done += 1
        return "" if done == len(steps) or not whole else "SETUP-STEPS"


    # -- copies (perft, search) -----------------------------------------------------------------

    _FIELDS: Final = (
        "hand", "face_up", "captured", "trick", "given", "played", "devils_trick",
        "bottle_card", "bottle_owner", "trick_cards", "trick_seats", "trick_length", "phase",
        "to_act", "dealer", "leader", "round_index", "setup_given", "hand_count", "scores", "totals",
        "last_winner", "last_card", "last_bottle", "seeds", "generation", "first_dealer",
        "base_seeds", "slot_keys",
    )
    """The state of a game, each in the private array ``_<name>``."""

    def take(self, games: object) -> BatchGames:
        """A new batch whose game ``i`` is a copy of this batch's game ``games[i]`` (indices
        from 0 to B - 1, at least one; or a boolean mask of B games, taking those where it is
        True), for search and perft: repeat a game once per action to try. The copy has this
        batch's options, and the same memory limit."""
        self._require_started("take")
        picked = games_of(games, "take(games)", self.size)
        copy = type(self)(self.config, len(picked), autoreset=self.autoreset,
                          observations=self.observations, illegal=self.illegal,
                          illegal_reward=self.illegal_reward, compact=self.compact,
                          threads=self.threads, memory_limit=self.memory_limit)
        for name in self._FIELDS:
            np.copyto(getattr(copy, "_" + name), getattr(self, "_" + name)[picked])
        copy._started = True
        return copy

    def nbytes(self) -> int:
        """The bytes a batch holds beyond its configuration's tables: every array it owns (the
        state, the mask, observation and result buffers, scratch); ``bytes_per_game`` times B
        plus ``fixed_bytes``."""
        self._require_open("nbytes")
        owned = {id(value): value for value in vars(self).values()
                 if isinstance(value, np.ndarray) and value.base is None}
        return sum(int(array.nbytes) for array in owned.values())


def finite_reward(value: object) -> float:
    """``illegal_reward`` checked: an ``int`` or a ``float`` (or a numpy one, never a ``bool``)
    that is finite as a float32 reward; else a ``BatchError``."""
    if (type(value) is bool or isinstance(value, np.bool_)
            or not isinstance(value, (int, float, np.integer, np.floating))):
        raise BatchError(f"illegal_reward must be a finite number, not {describe(value)}")
    try:
        reward = float(value)
    except OverflowError:
        reward = math.inf
    if not math.isfinite(reward) or abs(reward) > float(np.finfo(np.float32).max):
        raise BatchError(f"illegal_reward must be a finite number that float32 rewards can "
                         f"hold, not {describe(value)}")
    return reward


def kernel_ints(values: npt.ArrayLike) -> IntArray:
    """``values`` as a C-contiguous, writable ``int64`` array, copied only when it is not one
    already. numba compiles a kernel function once for each layout of its arguments, a
    read-only array (a broadcast view, a caller's frozen array) being another layout: every
    array the caller gives is passed through here, so each function is compiled once."""
    array = np.asarray(values, dtype=np.int64)
    if array.flags.c_contiguous and array.flags.writeable:
        return array
    return np.array(array, dtype=np.int64, order="C")


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

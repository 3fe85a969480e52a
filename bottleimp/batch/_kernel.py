"""The batch engine's compiled kernel, the one source of its rules: ``BatchGames.step``,
``legal_mask`` and ``observe`` as loops over games, compiled by numba (``nopython``, cached on
disk; a step runs chunks of games on several threads, ``run_job``).

Every function here is plain Python over numpy arrays and scalars, in the subset numba
compiles; ``BatchGames`` (``bottleimp/batch/_engine.py``) calls the entry points on its one
block of memory, which holds every array of the batch (``layout_of``, ``state_at``). With ``NUMBA_DISABLE_JIT=1`` numba compiles nothing and these functions run as plain
Python (``COMPILED`` is False: the intrinsics below fall back to their Python forms), slowly but
step by step in a debugger; the tests run both. The rules, game by game:
``deal`` (DEAL, DEAL-SHUFFLE: one SplitMix64 step per draw, the rejected draws included),
``give`` and ``resolve_setup`` (SETUP-STEPS, SETUP-ORDER, SETUP-RESOLVE), ``play``,
``end_trick`` (TRICK-PRICE, TRICK-WINNER, BOTTLE-PURCHASE, PRICE-CARD-RETURN, TRICK-CAPTURE,
NEXT-LEADER), ``end_round`` (SCORE-ROUND, SCORE-TEAMS, GAME-TOTALS, GAME-END), ``mask_row``
(FOLLOW-SUIT, EYE-FOLLOW-SUIT; with each game's legal actions as one block and a bit word,
``LegalSets``, which ``random_actions`` reads) and ``observe_row`` (``encoding.observation``'s
layout, written from the state).

A game's result never depends on the number of threads: each game is stepped by one thread,
reads and writes only its own rows, and the one piece of shared scratch, the shuffled deck, is
one row per chunk of games (``State.order``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

from ._tables import (GAME_OVER, PLAY, ROUND_OVER, SETUP, BoolArray, FloatArray, IntArray,
                      Words)

import numba
COMPILED: Final = not numba.config.DISABLE_JIT  # type: ignore[attr-defined]
"""Whether the kernel is compiled (else plain Python: ``NUMBA_DISABLE_JIT=1``)."""

Function = TypeVar("Function", bound=Callable[..., Any])

_OPTIONS: Final[dict[str, Any]] = {"cache": True, "nogil": True, "_nrt": False,
                                    "no_cfunc_wrapper": True}
"""How every kernel function is compiled: nopython (``njit``), cached on disk, without numba's
reference counting (``_nrt``: the kernel allocates nothing; with it, each call between kernel
functions counted references to every array of the state and cost more than the work) and
without the C-callable wrapper no caller uses; ``nogil``: the workers of ``_workers.py`` run
jobs while the calling thread waits in compiled code."""

_INLINED: Final[dict[str, Any]] = {"inline": "always"}
"""``jit``: inlined into each caller in numba's own IR, so the caller compiles as one function
(re-typed and lowered again at every call site: a cost at compile time only)."""

_APART: Final[dict[str, Any]] = {"inline": "never", "no_cpython_wrapper": True}
"""``jit_apart``: compiled once, alone, and called (LLVM may still inline it); no Python
wrapper, since only kernel functions call it."""


def jit(function: Function) -> Function:
    """``function`` compiled in nopython mode, cached on disk (``__pycache__``,
    or numba's user cache directory where the package is read-only), inlined into its callers;
    as is without numba."""
    if not COMPILED:
        return function
    return cast(Function, numba.njit(**_OPTIONS, **_INLINED)(function))


def jit_apart(function: Function) -> Function:
    """As ``jit``, but compiled once on its own and called, not inlined: for a large function
    that several entry points reach (``deal``, ``mask_games``, ``observe_games``). Inlined, its
    code is typed, lowered and optimised once per call site (``benchmarks/kernel_compile.py``
    measures the compile time)."""
    if not COMPILED:
        return function
    return cast(Function, numba.njit(**_OPTIONS, **_APART)(function))


def _copy_items_python(dst: npt.NDArray[Any], dst_at: int, src: npt.NDArray[Any], src_at: int,
                       count: int) -> None:
    """Copy ``count`` items of C-contiguous ``src`` from item ``src_at`` to item ``dst_at`` of
    C-contiguous ``dst`` (arrays of one item type)."""
    dst.reshape(-1)[dst_at:dst_at + count] = src.reshape(-1)[src_at:src_at + count]


def _put_word_python(dst: npt.NDArray[Any], dst_at: int, word: np.uint64, count: int) -> None:
    """Write bits ``0 .. count - 1`` of ``word`` (a 64-bit unsigned; ``count`` at most 64) as
    0/1 cells to items ``dst_at ..`` of C-contiguous ``dst`` (float32 or bytes), bit ``i`` to
    item ``dst_at + i``."""
    value = int(word)
    dst.reshape(-1)[dst_at:dst_at + count] = [(value >> i) & 1 for i in range(count)]


def _clear_items_python(dst: npt.NDArray[Any], dst_at: int, count: int) -> None:
    """Set ``count`` items of C-contiguous ``dst`` from item ``dst_at`` to zero (False)."""
    dst.reshape(-1)[dst_at:dst_at + count] = 0


def _intrinsics() -> tuple[Callable[..., None], Callable[..., None], Callable[..., None]]:
    """``_copy_items_python`` as one ``llvm.memcpy``, ``_clear_items_python`` as one
    ``llvm.memset``, ``_put_word_python`` as a load and a store per 8 cells: each byte of the
    word picks the row of a 256-row table of 8 spread cells (bytes or float32: 2 KiB or 8 KiB,
    a constant of the compiled module), the whole groups of 8 unrolled (a jump to the highest,
    each falling through to the one below), and the last 8 cells once more, which covers the rest
    (a cell at a time below 8 cells).
    Numba's own loops move an item at a time (the arrays may alias, so LLVM does not vectorise
    them): written so, an observation cost several times more than the whole step; and a
    slice set to one value (``plane[g] = False``) is a compile of its own for numba, each."""
    from llvmlite import ir
    from numba.core import cgutils as typed_cgutils
    from numba.core import types
    from numba.extending import intrinsic
    from numba.np import arrayobj

    cgutils: Any = typed_cgutils  # numba's code generation helpers are untyped
    make_array: Any = cast(Any, arrayobj).make_array

    def pointers(context: Any, builder: Any, signature: Any, args: Any, target: Any,
                 source: Any) -> tuple[Any, Any, Any]:
        """The addresses of item ``dst_at`` of ``dst`` (items of type ``target``) and item
        ``src_at`` of ``src`` (items of type ``source``), and the count."""
        dst_value, dst_at, src_value, src_at, count = args
        dst = make_array(signature.args[0])(context, builder, dst_value)
        src = make_array(signature.args[2])(context, builder, src_value)
        to = builder.gep(builder.bitcast(dst.data, target.as_pointer()), [dst_at])
        from_ = builder.gep(builder.bitcast(src.data, source.as_pointer()), [src_at])
        return to, from_, count

    @intrinsic
    def copy_items(typingctx: Any, dst: Any, dst_at: Any, src: Any, src_at: Any,
                   count: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            item = context.get_data_type(signature.args[0].dtype)
            to, from_, count = pointers(context, builder, signature, args, item, item)
            cgutils.raw_memcpy(builder, builder.bitcast(to, cgutils.voidptr_t),
                               builder.bitcast(from_, cgutils.voidptr_t), count,
                               context.get_abi_sizeof(item))
            return context.get_dummy_value()

        return types.void(dst, dst_at, src, src_at, count), codegen

    @intrinsic
    def clear_items(typingctx: Any, dst: Any, dst_at: Any,
                    count: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            dst_value, dst_at, count = args
            item = context.get_data_type(signature.args[0].dtype)
            size = context.get_abi_sizeof(item)
            data = make_array(signature.args[0])(context, builder, dst_value).data
            to = builder.gep(builder.bitcast(data, item.as_pointer()), [dst_at])
            cgutils.memset(builder, to, builder.mul(count, ir.Constant(count.type, size)), 0)
            return context.get_dummy_value()

        return types.void(dst, dst_at, count), codegen

    def spread_table(builder: Any, item: Any) -> Any:
        """The module's table of 256 rows of 8 cells of type ``item``: row ``b`` holds bit
        ``i`` of ``b`` as cell ``i`` (0 or 1), made once per module."""
        name = f"bottleimp_spread_{item}".replace(" ", "_")
        module = builder.module
        if name in module.globals:
            return module.globals[name]
        row = ir.VectorType(item, 8)
        kind = float if isinstance(item, ir.FloatType) else int
        rows = [ir.Constant(row, [kind((b >> i) & 1) for i in range(8)]) for b in range(256)]
        table = ir.GlobalVariable(module, ir.ArrayType(row, 256), name)
        table.linkage = "internal"
        table.global_constant = True
        table.initializer = ir.Constant(ir.ArrayType(row, 256), rows)
        table.align = 32
        return table

    @intrinsic
    def put_word(typingctx: Any, dst: Any, dst_at: Any, word: Any,
                 count: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            dst_value, dst_at, word, count = args
            i64, i32 = ir.IntType(64), ir.IntType(32)
            item = context.get_data_type(signature.args[0].dtype)
            data = make_array(signature.args[0])(context, builder, dst_value).data
            to = builder.gep(builder.bitcast(data, item.as_pointer()), [dst_at])
            items8 = ir.VectorType(item, 8)
            table = spread_table(builder, item)

            def eight(i: Any, bits: Any) -> None:
                """Cells ``i .. i + 7`` from the low byte of ``bits``: the table's row of that
                byte."""
                byte = builder.and_(bits, ir.Constant(i64, 255))
                row = builder.gep(table, [ir.Constant(i32, 0), byte], inbounds=True)
                cells = builder.load(row, align=32)
                builder.store(cells, builder.bitcast(builder.gep(to, [i]), items8.as_pointer()),
                              align=1)

            eight_ = ir.Constant(i64, 8)
            whole = builder.and_(count, ir.Constant(i64, ~7))
            # The rest: the last 8 cells whenever there are 8 (the groups below write some or
            # all of them again, the same values: one store costs less than testing whether
            # any cell is left); else (fewer than 8 cells) a cell at a time.
            overlap = builder.icmp_unsigned(">=", count, eight_)
            with builder.if_else(overlap) as (then, otherwise):
                with then:
                    last = builder.sub(count, eight_)
                    eight(last, builder.lshr(word, last))
                with otherwise:
                    with cgutils.for_range_slice(builder, whole, count,
                                                 ir.Constant(i64, 1)) as (i, _):
                        bit = builder.and_(builder.lshr(word, i), ir.Constant(i64, 1))
                        cell = (builder.uitofp(bit, item) if isinstance(item, ir.FloatType)
                                else builder.trunc(bit, item))
                        builder.store(cell, builder.gep(to, [i]))
            # The whole groups of 8, unrolled: a jump to the highest group, then each group
            # falls through to the one below (no loop counter, constant shifts).
            done = builder.append_basic_block("put_word.done")
            blocks = [builder.append_basic_block(f"put_word.group{k}") for k in range(8)]
            switch = builder.switch(builder.lshr(count, ir.Constant(i64, 3)), done)
            for k in range(8):
                switch.add_case(ir.Constant(i64, k + 1), blocks[k])
            for k in reversed(range(8)):
                builder.position_at_end(blocks[k])
                eight(ir.Constant(i64, 8 * k), builder.lshr(word, ir.Constant(i64, 8 * k)))
                builder.branch(blocks[k - 1] if k > 0 else done)
            builder.position_at_end(done)
            return context.get_dummy_value()

        return types.void(dst, dst_at, types.uint64, count), codegen

    return (cast(Callable[..., None], copy_items), cast(Callable[..., None], clear_items),
            cast(Callable[..., None], put_word))


def _count_bits_python(word: np.uint64) -> int:
    """The set bits of ``word`` (a 64-bit unsigned)."""
    return bin(int(word)).count("1")


def _lowest_bit_python(word: np.uint64) -> int:
    """The index of ``word``'s lowest set bit (``word`` not 0)."""
    value = int(word)
    return (value & -value).bit_length() - 1


def _bit_intrinsics() -> tuple[Callable[..., int], Callable[..., int]]:
    """``_count_bits_python`` as LLVM's ``ctpop`` (one instruction), ``_lowest_bit_python`` as
    its ``cttz``."""
    from numba.core import types
    from numba.extending import intrinsic

    @intrinsic
    def count_bits(typingctx: Any, word: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.zext(builder.ctpop(args[0]), context.get_value_type(types.int64))

        return types.int64(types.uint64), codegen

    @intrinsic
    def lowest_bit(typingctx: Any, word: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            from llvmlite import ir

            zero_undefined = ir.Constant(ir.IntType(1), 1)
            return builder.zext(builder.cttz(args[0], zero_undefined),
                                context.get_value_type(types.int64))

        return types.int64(types.uint64), codegen

    return cast(Callable[..., int], count_bits), cast(Callable[..., int], lowest_bit)


def _array_at_python(memory: npt.NDArray[np.uint8], offset: int, shape: tuple[int, ...],
                     dtype: type[np.generic]) -> npt.NDArray[Any]:
    """The C-contiguous array of ``shape`` and ``dtype`` whose items start at byte ``offset`` of
    ``memory`` (bytes), over the same memory."""
    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    return memory[offset:offset + size].view(dtype).reshape(shape)


def _array_from_python(address: int, shape: tuple[int, ...],
                       dtype: type[np.generic]) -> npt.NDArray[Any]:
    """The C-contiguous array of ``shape`` and ``dtype`` whose items start at ``address`` (a
    pointer as an integer: ``array.ctypes.data``), over that memory."""
    import ctypes

    size = int(np.prod(shape)) * np.dtype(dtype).itemsize
    raw = memoryview((ctypes.c_char * size).from_address(address)).cast("B")
    array: npt.NDArray[Any] = np.frombuffer(raw, dtype=np.uint8).view(dtype).reshape(shape)
    return array


def _array_intrinsic() -> tuple[Callable[..., Any], Callable[..., Any]]:
    """``_array_at_python`` and ``_array_from_python`` compiled: the array's pointer, shape and
    strides set from the arguments (as ``numba.carray`` does), no copy and no reference count
    (the caller's ``memory``, or whoever owns ``address``, holds the bytes)."""
    from numba.core import cgutils as typed_cgutils
    from numba.core import types
    from numba.extending import intrinsic
    from numba.np import arrayobj

    cgutils: Any = typed_cgutils
    make_array: Any = cast(Any, arrayobj).make_array
    populate_array: Any = cast(Any, arrayobj).populate_array

    def typed(dtype: Any, shape: Any) -> tuple[Any, Any]:
        item = dtype.instance_type if isinstance(dtype, types.NumberClass) else dtype.dtype
        return item, types.Array(item, len(shape), "C")

    def array_over(context: Any, builder: Any, data: Any, shape_value: Any, shape_types: Any,
                   item: Any, result: Any) -> Any:
        data = builder.bitcast(data, context.get_data_type(item).as_pointer())
        shapes = [context.cast(builder, value, kind, types.intp) for value, kind in
                  zip(cgutils.unpack_tuple(builder, shape_value), shape_types)]
        itemsize = context.get_abi_sizeof(context.get_data_type(item))
        stride = cgutils.intp_t(itemsize)
        strides = []
        for extent in reversed(shapes):
            strides.append(stride)
            stride = builder.mul(stride, extent)
        strides.reverse()
        out = make_array(result)(context, builder)
        populate_array(out, data=data, shape=shapes, strides=strides,
                       itemsize=cgutils.intp_t(itemsize), meminfo=None)
        return out._getvalue()

    @intrinsic
    def array_at(typingctx: Any, memory: Any, offset: Any, shape: Any,
                 dtype: Any) -> tuple[Any, Callable[..., Any]]:
        item, result = typed(dtype, shape)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            memory_value, offset_value, shape_value, _ = args
            source = make_array(signature.args[0])(context, builder, memory_value)
            data = builder.gep(source.data, [offset_value])
            return array_over(context, builder, data, shape_value, signature.args[2], item,
                              result)

        return result(memory, offset, shape, dtype), codegen

    @intrinsic
    def array_from(typingctx: Any, address: Any, shape: Any,
                   dtype: Any) -> tuple[Any, Callable[..., Any]]:
        item, result = typed(dtype, shape)

        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            address_value, shape_value, _ = args
            data = builder.inttoptr(address_value, context.get_data_type(item).as_pointer())
            return array_over(context, builder, data, shape_value, signature.args[1], item,
                              result)

        return result(types.int64, shape, dtype), codegen

    return cast(Callable[..., Any], array_at), cast(Callable[..., Any], array_from)


copy_items: Callable[[npt.NDArray[Any], int, npt.NDArray[Any], int, int], None]
clear_items: Callable[[npt.NDArray[Any], int, int], None]
put_word: Callable[[npt.NDArray[Any], int, np.uint64, int], None]
count_bits: Callable[[np.uint64], int]
lowest_bit: Callable[[np.uint64], int]
array_at: Callable[[npt.NDArray[np.uint8], int, tuple[int, ...], type[np.generic]],
                   npt.NDArray[Any]]
array_from: Callable[[int, tuple[int, ...], type[np.generic]], npt.NDArray[Any]]
if COMPILED:
    copy_items, clear_items, put_word = _intrinsics()
    count_bits, lowest_bit = _bit_intrinsics()
    array_at, array_from = _array_intrinsic()
else:
    copy_items, clear_items, put_word = (_copy_items_python, _clear_items_python,
                                         _put_word_python)
    count_bits, lowest_bit = _count_bits_python, _lowest_bit_python
    array_at, array_from = _array_at_python, _array_from_python



# Offsets of the observation segments in ``Consts.at`` (encoding.observation_layout's names).
SEGMENTS: Final = ("hand", "face_up", "my_setup", "received", "trick", "trick_leader", "played",
                   "captured", "bottle_price", "bottle_owner", "devils_trick",
                   "devils_trick_size", "hand_sizes", "setup_given", "phase", "to_act", "dealer",
                   "team", "scores", "totals", "progress")
AT_HAND, AT_FACE_UP, AT_MY_SETUP, AT_RECEIVED, AT_TRICK, AT_LEADER, AT_PLAYED = range(7)
AT_CAPTURED, AT_PRICE, AT_OWNER, AT_DEVILS_TRICK, AT_DEVILS_TRICK_SIZE, AT_HAND_SIZES = range(7, 13)
AT_SETUP_GIVEN, AT_PHASE, AT_TO_ACT, AT_DEALER, AT_TEAM, AT_SCORES, AT_TOTALS = range(13, 20)
AT_PROGRESS: Final = 20

STEP_CHUNK: Final = 64
"""Games a step takes, masks and observes together on one thread: a chunk's state is
still in the cache when its masks and observations are written (at B = 8192 the state and the
observations of the whole batch are tens of megabytes). Chunks run in parallel, as many as
there are threads at a time (B = 1024: 16 chunks, so that a slow one delays a step little)."""

_ROUND_STREAM: Final = np.uint64(0xD1B54A32D192ED03)
_GAMMA: Final = np.uint64(0x9E3779B97F4A7C15)
_MIX1: Final = np.uint64(0xBF58476D1CE4E5B9)
_MIX2: Final = np.uint64(0x94D049BB133111EB)
_ZERO: Final = np.uint64(0)
_ONE: Final = np.uint64(1)
_S30: Final = np.uint64(30)
_S27: Final = np.uint64(27)
_S31: Final = np.uint64(31)


class Consts(NamedTuple):
    """A configuration's numbers and tables (``games.Tables``) as the kernel reads them."""

    players: int
    cards: int
    bottles: int
    trick_size: int
    devils_eye: bool
    hidden_count: int
    round_limit: int
    """``-1`` without a round limit."""
    target_score: int
    """``-1`` without a target score."""
    coins_total: float
    rank: npt.NDArray[np.float64]
    colour: IntArray
    coins: IntArray
    step_slot: IntArray
    step_count: IntArray
    same_team: IntArray
    team_factor: IntArray
    colour_bits: npt.NDArray[np.uint64]
    """Per colour, the cards of that colour as a word (bit ``card``)."""
    at: IntArray
    """The observation segments' offsets, in ``SEGMENTS`` order."""


class State(NamedTuple):
    """The state arrays of a batch (``BatchGames``'s, the same objects). A set of cards is one
    word, bit ``card`` set for each card in it (``N <= 64``)."""

    hand: Words
    """``(B, P)``: each seat's hidden hand."""
    face_up: Words
    """``(B, P)``: each seat's face-up cards (Devil's Eye)."""
    captured: Words
    """``(B, P)``: the cards each seat captured this round."""
    trick: Words
    """``(B, P)``: the card each seat played to the trick in progress."""
    given: Words
    """``(B, P, 3)``: each seat's setup cards by destination slot."""
    played: Words
    """``(B,)``: the cards played this round."""
    devils_trick: Words
    """``(B,)``: the Devil's Trick, once the setup resolved."""
    bottle_card: IntArray
    bottle_owner: IntArray
    trick_cards: IntArray
    trick_seats: IntArray
    trick_length: IntArray
    phase: IntArray
    to_act: IntArray
    dealer: IntArray
    leader: IntArray
    round_index: IntArray
    setup_given: IntArray
    hand_count: IntArray
    scores: IntArray
    totals: IntArray
    last_winner: IntArray
    last_card: IntArray
    last_bottle: IntArray
    seeds: npt.NDArray[np.uint64]
    generation: IntArray
    first_dealer: IntArray
    base_seeds: npt.NDArray[np.uint64]
    slot_keys: npt.NDArray[np.uint64]
    order: IntArray
    """Scratch: one shuffled deck per chunk of games (``STEP_CHUNK``), row ``g // STEP_CHUNK``
    for game ``g``: chunks stepped in parallel never share one."""


class LegalSets(NamedTuple):
    """Each game's legal actions as the random choice reads them (written with the mask)."""

    bases: IntArray
    """The first action number of the block holding game ``b``'s legal actions."""
    bits: npt.NDArray[np.uint64]
    """Bit ``i`` set: action ``bases[b] + i`` is legal."""
    counts: IntArray
    """How many actions are legal."""


SIZES: Final = ("games", "players", "cards", "bottles", "trick_size", "chunks", "colours", "gaps",
                 "devils_eye", "hidden_count", "round_limit", "target_score", "coins_total")
"""The numbers at the head of a batch's ``layout`` (``memory_at``), in this order."""
BUFFERS: Final = ("mask_buffer", "no_actions", "rewards", "done", "actors", "rows", "observers",
                  "uniforms", "choices", "legal_bases", "legal_bits", "legal_counts", "gaps")
"""The arrays of a batch beside its state that the kernel reads or writes."""
TABLES: Final = ("rank", "colour", "coins", "step_slot", "step_count", "same_team", "team_factor",
                 "colour_bits", "at")
"""The configuration's tables (``Consts``' arrays)."""
ARRAYS: Final = State._fields + BUFFERS + TABLES
"""The arrays whose byte offsets in a batch's memory follow ``SIZES`` in its ``layout``."""
_O: Final = len(SIZES)
_B: Final = _O + len(State._fields)
_T: Final = _B + len(BUFFERS)
LAYOUT_LENGTH: Final = _T + len(TABLES)
"""The int64 numbers of a batch's ``layout``: ``SIZES``, then the offset of each of ``ARRAYS``."""


@jit
def layout_of(memory: npt.NDArray[np.uint8]) -> IntArray:
    """The ``layout`` at the head of a batch's ``memory`` (bytes): ``LAYOUT_LENGTH`` int64
    numbers, ``SIZES`` then the byte offset in ``memory`` of each of ``ARRAYS``. Every array of
    a batch lies in its one block of memory, so a call from Python passes one array for all of
    them."""
    return array_at(memory, 0, (LAYOUT_LENGTH,), np.int64)


@jit
def state_at(memory: npt.NDArray[np.uint8], layout: IntArray) -> State:
    """The state arrays of the batch whose arrays lie in ``memory`` at the offsets of
    ``layout`` (``ARRAYS``; shapes from ``SIZES``)."""
    b, p, n, k, t, chunks = layout[0], layout[1], layout[2], layout[3], layout[4], layout[5]
    o = _O
    return State(
        array_at(memory, layout[o], (b, p), np.uint64),
        array_at(memory, layout[o + 1], (b, p), np.uint64),
        array_at(memory, layout[o + 2], (b, p), np.uint64),
        array_at(memory, layout[o + 3], (b, p), np.uint64),
        array_at(memory, layout[o + 4], (b, p, 3), np.uint64),
        array_at(memory, layout[o + 5], (b,), np.uint64),
        array_at(memory, layout[o + 6], (b,), np.uint64),
        array_at(memory, layout[o + 7], (b, k), np.int64),
        array_at(memory, layout[o + 8], (b, k), np.int64),
        array_at(memory, layout[o + 9], (b, t), np.int64),
        array_at(memory, layout[o + 10], (b, t), np.int64),
        array_at(memory, layout[o + 11], (b,), np.int64),
        array_at(memory, layout[o + 12], (b,), np.int64),
        array_at(memory, layout[o + 13], (b,), np.int64),
        array_at(memory, layout[o + 14], (b,), np.int64),
        array_at(memory, layout[o + 15], (b,), np.int64),
        array_at(memory, layout[o + 16], (b,), np.int64),
        array_at(memory, layout[o + 17], (b, p), np.int64),
        array_at(memory, layout[o + 18], (b, p), np.int64),
        array_at(memory, layout[o + 19], (b, p), np.int64),
        array_at(memory, layout[o + 20], (b, p), np.int64),
        array_at(memory, layout[o + 21], (b,), np.int64),
        array_at(memory, layout[o + 22], (b,), np.int64),
        array_at(memory, layout[o + 23], (b,), np.int64),
        array_at(memory, layout[o + 24], (b,), np.uint64),
        array_at(memory, layout[o + 25], (b,), np.int64),
        array_at(memory, layout[o + 26], (b,), np.int64),
        array_at(memory, layout[o + 27], (b,), np.uint64),
        array_at(memory, layout[o + 28], (b,), np.uint64),
        array_at(memory, layout[o + 29], (chunks, n), np.int64))


@jit
def consts_at(memory: npt.NDArray[np.uint8], layout: IntArray) -> Consts:
    """The configuration's numbers and tables of the batch of ``memory`` and ``layout``."""
    p, n = layout[1], layout[2]
    o = _T
    return Consts(p, n, layout[3], layout[4], layout[8] != 0, layout[9], layout[10], layout[11],
                  float(layout[12]),
                  array_at(memory, layout[o], (n,), np.float64),
                  array_at(memory, layout[o + 1], (n,), np.int64),
                  array_at(memory, layout[o + 2], (n,), np.int64),
                  array_at(memory, layout[o + 3], (p, p, 5), np.int64),
                  array_at(memory, layout[o + 4], (p, p), np.int64),
                  array_at(memory, layout[o + 5], (p, p), np.int64),
                  array_at(memory, layout[o + 6], (p,), np.int64),
                  array_at(memory, layout[o + 7], (layout[6],), np.uint64),
                  array_at(memory, layout[o + 8], (len(SEGMENTS),), np.int64))


@jit
def legal_at(memory: npt.NDArray[np.uint8], layout: IntArray) -> LegalSets:
    """The legal sets of the batch of ``memory`` and ``layout``."""
    b = layout[0]
    return LegalSets(array_at(memory, layout[_B + 9], (b,), np.int64),
                     array_at(memory, layout[_B + 10], (b,), np.uint64),
                     array_at(memory, layout[_B + 11], (b,), np.int64))


@jit
def mask_at(memory: npt.NDArray[np.uint8], layout: IntArray) -> tuple[BoolArray, BoolArray]:
    """The mask ``(B, 4N + 1)`` and a row of False, of the batch of ``memory`` and ``layout``."""
    width = 4 * layout[2] + 1
    return (array_at(memory, layout[_B], (layout[0], width), np.bool_),
            array_at(memory, layout[_B + 1], (width,), np.bool_))


@jit
def ints_at(memory: npt.NDArray[np.uint8], layout: IntArray, index: int) -> IntArray:
    """The ``(B,)`` int64 buffer ``BUFFERS[index]`` of the batch."""
    return array_at(memory, layout[_B + index], (layout[0],), np.int64)


@jit
def gaps_at(memory: npt.NDArray[np.uint8], layout: IntArray) -> IntArray:
    """The ``(start, length)`` rows of an observation that ``observe_row`` clears."""
    return array_at(memory, layout[_B + 12], (layout[7], 2), np.int64)


# -- the deal ----------------------------------------------------------------------------------


@jit
def shuffle_into(order: IntArray, size: int, seed: np.uint64, round_index: int) -> None:
    """``order[:size]``: the shuffled deck of ``seed``'s round ``round_index`` (DEAL-SHUFFLE,
    as ``shuffle.shuffle_one``: a draw at or above the largest multiple of ``i + 1`` that fits in
    64 bits is rejected and the next one drawn)."""
    state = seed ^ (np.uint64(round_index) * _ROUND_STREAM)
    for i in range(size):
        order[i] = i
    for i in range(size - 1, 0, -1):
        bound = np.uint64(i + 1)
        surplus = (_ZERO - bound) % bound  # 2**64 mod bound: the draws to reject at the top
        while True:
            state = state + _GAMMA
            z = state
            z = (z ^ (z >> _S30)) * _MIX1
            z = (z ^ (z >> _S27)) * _MIX2
            draw = z ^ (z >> _S31)
            if surplus == _ZERO or draw < _ZERO - surplus:
                break
        j = int(draw % bound)
        held = order[i]
        order[i] = order[j]
        order[j] = held


@jit_apart
def deal(s: State, c: Consts, g: int) -> None:
    """Deal game ``g``'s current round (DEAL: card ``k`` to seat ``(dealer + 1 + k) % P``; in
    Devil's Eye the last third face up, again from the dealer's left) and start it."""
    p, n = c.players, c.cards
    order = s.order[g // STEP_CHUNK]
    shuffle_into(order, n, s.seeds[g], s.round_index[g])
    dealer = s.dealer[g]
    clear_items(s.hand, g * p, p)
    clear_items(s.face_up, g * p, p)
    for k in range(c.hidden_count):
        s.hand[g, (dealer + 1 + k) % p] |= _ONE << np.uint64(order[k])
    for k in range(n - c.hidden_count):
        s.face_up[g, (dealer + 1 + k) % p] |= _ONE << np.uint64(order[c.hidden_count + k])
    begin_round(s, c, g)


@jit
def begin_round(s: State, c: Consts, g: int) -> None:
    """Clear game ``g``'s round state; the dealer's left acts first (FIRST-LEADER, SETUP-ORDER)."""
    p = c.players
    for seat in range(p):
        s.hand_count[g, seat] = count_bits(s.hand[g, seat])
        s.setup_given[g, seat] = 0
        s.scores[g, seat] = 0
    clear_items(s.captured, g * p, p)
    clear_items(s.trick, g * p, p)
    clear_items(s.given, g * p * 3, p * 3)
    s.played[g] = _ZERO
    s.devils_trick[g] = _ZERO
    for index in range(c.bottles):
        s.bottle_card[g, index] = -1
        s.bottle_owner[g, index] = -1
    s.trick_length[g] = 0
    s.last_winner[g] = -1
    s.last_card[g] = -1
    s.last_bottle[g] = -1
    first = (s.dealer[g] + 1) % p
    s.leader[g] = first
    s.to_act[g] = first
    s.phase[g] = SETUP


@jit
def game_seed(base: np.uint64, key: np.uint64, generation: int) -> np.uint64:
    """The seed of a slot's game ``generation`` (as ``shuffle.game_seeds``): game 0 the slot's
    first seed ``base``; game ``k`` SplitMix64's output at ``key + k * GAMMA``."""
    if generation == 0:
        return base
    z = key + np.uint64(generation) * _GAMMA
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@jit
def start_game(s: State, c: Consts, g: int) -> None:
    """A new game in slot ``g``, of its generation's seed (``game_seed``), dealt first by
    ``first_dealer[g]``."""
    s.seeds[g] = game_seed(s.base_seeds[g], s.slot_keys[g], s.generation[g])
    s.round_index[g] = 0
    s.dealer[g] = s.first_dealer[g]
    for seat in range(c.players):
        s.totals[g, seat] = 0
    deal(s, c, g)


# -- setup and trick play ------------------------------------------------------------------------


@jit
def give(s: State, c: Consts, g: int, slot: int, card: int) -> bool:
    """The seat to act gives ``card`` to setup slot ``slot`` (SETUP-STEPS, SETUP-ORDER); the
    dealer's last give resolves the setup (SETUP-RESOLVE). Returns whether it did."""
    p = c.players
    seat = s.to_act[g]
    bit = _ONE << np.uint64(card)
    s.hand[g, seat] &= ~bit
    s.hand_count[g, seat] -= 1
    s.given[g, seat, slot] |= bit
    s.setup_given[g, seat] += 1
    dealer = s.dealer[g]
    if s.setup_given[g, seat] != c.step_count[dealer, seat]:
        return False
    s.to_act[g] = (seat + 1) % p
    if seat != dealer:
        return False
    resolve_setup(s, c, g)
    return True


@jit
def resolve_setup(s: State, c: Consts, g: int) -> None:
    """Every given card moves at once (SETUP-RESOLVE): left to the next seat, right to the one
    before; in Devil's Eye to the opponent's face-up cards and hidden hand. The Devil's Trick
    is formed; the dealer's left leads (FIRST-LEADER)."""
    p = c.players
    for seat in range(p):
        if c.devils_eye:
            opponent = p - 1 - seat
            s.face_up[g, seat] |= s.given[g, opponent, 1]
            s.hand[g, seat] |= s.given[g, opponent, 2]
        else:
            s.hand[g, seat] |= s.given[g, (seat + p - 1) % p, 1] | s.given[g, (seat + 1) % p, 2]
    taken = _ZERO
    for seat in range(p):
        s.hand_count[g, seat] = count_bits(s.hand[g, seat])
        taken |= s.given[g, seat, 0]
    s.devils_trick[g] = taken
    s.phase[g] = PLAY
    s.to_act[g] = s.leader[g]


@jit
def play(s: State, c: Consts, g: int, card: int) -> int:
    """The seat to act plays ``card`` (TURN-ORDER); a completed trick is resolved. Returns 2 when
    the game ended, 1 when the round ended, else 0."""
    p = c.players
    seat = s.to_act[g]
    bit = _ONE << np.uint64(card)
    if s.hand[g, seat] & bit:
        s.hand_count[g, seat] -= 1
    s.hand[g, seat] &= ~bit
    s.face_up[g, seat] &= ~bit
    s.trick[g, seat] |= bit
    s.played[g] |= bit
    length = s.trick_length[g]
    s.trick_cards[g, length] = card
    s.trick_seats[g, length] = seat
    s.trick_length[g] = length + 1
    s.to_act[g] = (seat + 1) % p
    if length + 1 < c.trick_size:
        return 0
    return end_trick(s, c, g)


@jit
def end_trick(s: State, c: Consts, g: int) -> int:
    """Resolve game ``g``'s completed trick: the highest price is judged, the first bottle on a
    tie (TRICK-PRICE); the highest card below it wins, else the highest card (TRICK-WINNER); a
    winning card below the price buys the bottle (BOTTLE-PURCHASE) and the old price card goes
    to its former owner (PRICE-CARD-RETURN); the winner takes the rest (TRICK-CAPTURE) and leads
    (NEXT-LEADER). Returns as ``play``."""
    p = c.players
    bottle = 0
    price = -1.0
    for index in range(c.bottles):
        held = s.bottle_card[g, index]
        value = c.rank[held] if held >= 0 else 19.0  # START_PRICE: the start card 19
        if value > price:
            bottle, price = index, value
    winning = 0
    best = -1.0
    for position in range(c.trick_size):
        rank = c.rank[s.trick_cards[g, position]]
        key = rank + 1000.0 if rank < price else rank  # any card below the price beats the rest
        if key > best:
            winning, best = position, key
    won_card = s.trick_cards[g, winning]
    winner = s.trick_seats[g, winning]
    buys = c.rank[won_card] < price
    for position in range(c.trick_size):
        card = s.trick_cards[g, position]
        if not (buys and card == won_card):
            s.captured[g, winner] |= _ONE << np.uint64(card)
    if buys:
        old_card = s.bottle_card[g, bottle]
        old_owner = s.bottle_owner[g, bottle]
        if old_card >= 0 and old_owner >= 0:
            s.captured[g, old_owner] |= _ONE << np.uint64(old_card)
        s.bottle_card[g, bottle] = won_card
        s.bottle_owner[g, bottle] = winner
    for position in range(c.trick_size):
        s.trick[g, s.trick_seats[g, position]] &= ~(_ONE << np.uint64(s.trick_cards[g, position]))
    s.trick_length[g] = 0
    s.leader[g] = winner
    s.to_act[g] = winner
    s.last_winner[g] = winner
    s.last_card[g] = won_card
    s.last_bottle[g] = bottle if buys else -1
    for seat in range(p):
        if s.hand_count[g, seat] > 0:
            return 0
        if c.devils_eye and s.face_up[g, seat] != _ZERO:
            return 0
    return end_round(s, c, g)


@jit
def coins_of(c: Consts, word: np.uint64) -> int:
    """The coins of the cards of ``word`` (bit ``card`` set for each)."""
    total = 0
    while word != _ZERO:
        total += c.coins[lowest_bit(word)]
        word &= word - _ONE
    return total


@jit
def end_round(s: State, c: Consts, g: int) -> int:
    """Score game ``g``'s round (SCORE-ROUND: a seat owning no bottle scores its captured coins,
    an owner minus the Devil's Trick's coins once per bottle; SCORE-TEAMS: teammates share the
    team's result, a player without a partner doubles it), add the totals (GAME-TOTALS) and end
    the game when its end has come (GAME-END). Returns 2 when the game ended, else 1."""
    p = c.players
    penalty = coins_of(c, s.devils_trick[g])
    best = -(1 << 62)
    for seat in range(p):
        team_owned = 0
        team_gained = 0
        for mate in range(p):
            if c.same_team[mate, seat]:
                for index in range(c.bottles):
                    team_owned += s.bottle_owner[g, index] == mate
                team_gained += coins_of(c, s.captured[g, mate])
        result = -penalty * team_owned if team_owned > 0 else team_gained
        score = result * c.team_factor[seat]
        s.scores[g, seat] = score
        s.totals[g, seat] += score
        best = max(best, s.totals[g, seat])
    if c.target_score >= 0:
        ending = best >= c.target_score
    else:
        ending = s.round_index[g] + 1 >= c.round_limit
    if ending:
        s.phase[g] = GAME_OVER
        s.to_act[g] = -1
        return 2
    s.phase[g] = ROUND_OVER
    s.to_act[g] = (s.dealer[g] + 1) % p
    return 1


# -- what the seat to act may do -----------------------------------------------------------------


@jit
def seat_bits(plane: Words, g: int, seat: int, n: int) -> np.uint64:
    """Seat ``seat``'s cards of a ``(B, P)`` plane of words in game ``g`` (``n``, the deck's
    cards, is not read: every bit from ``n`` up is clear)."""
    bits: np.uint64 = plane[g, seat]
    return bits


@jit
def legal_set(s: State, c: Consts, g: int) -> tuple[int, np.uint64]:
    """Game ``g``'s legal actions (as ``BatchGames.legal_mask``) as ``(base, bits)``: every
    legal action lies in one block, action ``base + i`` for each set bit ``i`` of ``bits``
    (``N <= 64``: a block fits one word). The setup cards of the seat's next step's block; the
    playable cards (FOLLOW-SUIT: the cards of the led colour when the seat holds one, else every
    card; EYE-FOLLOW-SUIT: hidden cards always, face-up ones follow) in block 3; or the next
    round's start."""
    n = c.cards
    phase = s.phase[g]
    if phase == ROUND_OVER:
        return 4 * n, _ONE
    if phase == GAME_OVER:  # the mask's one action of a game over (BatchGames.legal_mask)
        return 4 * n, _ONE
    seat = s.to_act[g]
    hand = seat_bits(s.hand, g, seat, n)
    if phase == SETUP:
        return c.step_slot[s.dealer[g], seat, min(s.setup_given[g, seat], 4)] * n, hand
    led = c.colour_bits[c.colour[s.trick_cards[g, 0]]] if s.trick_length[g] > 0 else _ZERO
    if c.devils_eye:
        up = seat_bits(s.face_up, g, seat, n)
        following = up & led
        return 3 * n, hand | (following if following != _ZERO else up)
    following = hand & led
    return 3 * n, following if following != _ZERO else hand


@jit
def mask_game(s: State, c: Consts, g: int, mask: BoolArray, blank: BoolArray,
              legal: LegalSets) -> None:
    """Game ``g``'s row of ``mask`` (cleared from ``blank``, a row of False, then its legal
    actions set) and of each array of ``legal`` (``legal_set``'s base and bits, and how many
    actions are legal)."""
    base, bits = legal_set(s, c, g)
    legal.bases[g] = base
    legal.bits[g] = bits
    legal.counts[g] = count_bits(bits)
    width = mask.shape[1]
    copy_items(mask, g * width, blank, 0, width)
    row = mask[g]
    while bits != _ZERO:
        row[base + lowest_bit(bits)] = True
        bits &= bits - _ONE


@jit_apart
def mask_games(s: State, c: Consts, games: IntArray, mask: BoolArray, blank: BoolArray,
               legal: LegalSets) -> None:
    """The rows of ``games`` of ``mask`` and ``legal`` (``mask_game``): compiled once, for
    ``masks``, ``step`` and ``start_games`` alike."""
    for i in range(len(games)):
        mask_game(s, c, games[i], mask, blank, legal)


@jit
def masks(memory: npt.NDArray[np.uint8]) -> None:
    """Every game's legal-action mask and legal set (``mask_games``), in the batch whose arrays
    lie in ``memory`` (``layout_of``)."""
    layout = layout_of(memory)
    mask, blank = mask_at(memory, layout)
    mask_games(state_at(memory, layout), consts_at(memory, layout), ints_at(memory, layout, 5),
               mask, blank, legal_at(memory, layout))


@jit
def random_actions(memory: npt.NDArray[np.uint8], control: IntArray, runs: IntArray,
                   workers: int) -> None:
    """``choices[b]``: legal action ``floor(uniforms[b] * count)`` of game ``b`` in ascending
    order (a uniformly random one for uniforms in [0, 1)), ``-1`` in a game with none: read from
    the legal set's bits by clearing that many lowest bits, not from the mask (``uniforms``,
    ``choices`` and the legal sets: the batch's buffers, ``BUFFERS``). ``STEP_CHUNK`` games at
    a time, on ``workers`` threads (``run_job``)."""
    layout = layout_of(memory)
    b = layout[0]
    no_observations = array_at(memory, 0, (b, 0), np.uint8)
    run_job(control, runs, CHOOSE, memory, ints_at(memory, layout, 8), no_observations,
            workers, (b + STEP_CHUNK - 1) // STEP_CHUNK)


@jit_apart
def choose_chunk(memory: npt.NDArray[np.uint8], chunk: int) -> None:
    """``random_actions``' choices for the games of chunk ``chunk`` (``STEP_CHUNK`` games)."""
    layout = layout_of(memory)
    legal = legal_at(memory, layout)
    b = layout[0]
    uniforms = array_at(memory, layout[_B + 7], (b,), np.float64)
    out = ints_at(memory, layout, 8)
    for g in range(chunk * STEP_CHUNK, min(b, (chunk + 1) * STEP_CHUNK)):
        count = legal.counts[g]
        if count == 0:
            out[g] = -1
            continue
        bits = legal.bits[g]
        for _ in range(int(uniforms[g] * count)):
            bits &= bits - _ONE
        out[g] = legal.bases[g] + lowest_bit(bits)


def _atomic_load_python(cell: IntArray) -> int:
    """``cell[0]``."""
    return int(cell[0])


def _atomic_store_python(cell: IntArray, value: int) -> None:
    """``cell[0] = value``."""
    cell[0] = value


def _fetch_add_python(cell: IntArray, amount: int) -> int:
    """``cell[0]``, then ``amount`` more in it."""
    before = int(cell[0])
    cell[0] = before + amount
    return before


def _compare_exchange_python(cell: IntArray, expected: int, value: int) -> bool:
    """Whether ``cell[0]`` held ``expected``; if so it now holds ``value``."""
    if int(cell[0]) != expected:
        return False
    cell[0] = value
    return True


def _pause_python() -> None:
    """Nothing (a spinning thread's hint to the core, compiled)."""


def _atomic_intrinsics() -> tuple[Callable[..., int], Callable[..., None], Callable[..., int],
                                  Callable[..., bool], Callable[[], None]]:
    """The Python forms above as LLVM's atomic instructions on ``cell[0]`` (sequentially
    consistent: a thread that reads a value another stored also sees every store that came
    before it), and ``pause`` as x86's ``pause`` (nothing elsewhere): what the workers of
    ``bottleimp/batch/_workers.py`` and the thread that calls them share a job by."""
    import platform

    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic
    from numba.np import arrayobj

    make_array: Any = cast(Any, arrayobj).make_array  # numba's code generation is untyped

    def pointer(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return make_array(signature.args[0])(context, builder, args[0]).data

    @intrinsic
    def atomic_load(typingctx: Any, cell: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.load_atomic(pointer(context, builder, signature, args), "seq_cst", 8)

        return types.int64(cell), codegen

    @intrinsic
    def atomic_store(typingctx: Any, cell: Any, value: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            value = context.cast(builder, args[1], signature.args[1], types.int64)
            builder.store_atomic(value, pointer(context, builder, signature, args), "seq_cst", 8)
            return context.get_dummy_value()

        return types.none(cell, value), codegen

    @intrinsic
    def fetch_add(typingctx: Any, cell: Any, amount: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            amount = context.cast(builder, args[1], signature.args[1], types.int64)
            return builder.atomic_rmw("add", pointer(context, builder, signature, args), amount,
                                      "seq_cst")

        return types.int64(cell, amount), codegen

    @intrinsic
    def compare_exchange(typingctx: Any, cell: Any, expected: Any,
                         value: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            expected = context.cast(builder, args[1], signature.args[1], types.int64)
            value = context.cast(builder, args[2], signature.args[2], types.int64)
            pair = builder.cmpxchg(pointer(context, builder, signature, args), expected, value,
                                   "seq_cst", "seq_cst")
            return builder.extract_value(pair, 1)

        return types.boolean(cell, expected, value), codegen

    x86 = platform.machine().lower() in ("x86_64", "amd64", "i686", "x86")

    @intrinsic
    def pause(typingctx: Any) -> tuple[Any, Callable[..., Any]]:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            if x86:
                hint = builder.module.declare_intrinsic(
                    "llvm.x86.sse2.pause", fnty=ir.FunctionType(ir.VoidType(), []))
                builder.call(hint, [])
            return context.get_dummy_value()

        return types.none(), codegen

    return (cast(Callable[..., int], atomic_load), cast(Callable[..., None], atomic_store),
            cast(Callable[..., int], fetch_add), cast(Callable[..., bool], compare_exchange),
            cast(Callable[[], None], pause))


atomic_load: Callable[[IntArray], int]
atomic_store: Callable[[IntArray, int], None]
fetch_add: Callable[[IntArray, int], int]
compare_exchange: Callable[[IntArray, int, int], bool]
pause: Callable[[], None]
if COMPILED:
    atomic_load, atomic_store, fetch_add, compare_exchange, pause = _atomic_intrinsics()
else:
    atomic_load, atomic_store, fetch_add, compare_exchange, pause = (
        _atomic_load_python, _atomic_store_python, _fetch_add_python, _compare_exchange_python,
        _pause_python)


# -- a step --------------------------------------------------------------------------------------



@jit
def step(memory: npt.NDArray[np.uint8], actions: IntArray, out: npt.NDArray[Any],
         values: bool, control: IntArray, runs: IntArray, workers: int) -> int:
    """Take ``actions[b]`` in every game not over (as ``BatchGames._apply``: no auto-reset; the
    legal sets up to date), then write what the next decision reads: every game's mask row and
    legal set (``mask_games``) and, unless ``out`` has no columns, every game's observation of
    its seat to act (seat 0 once over) into ``out`` (``observe_games``), ``values``: float32
    cells with the values, else the compact bytes. ``STEP_CHUNK`` games at a time
    (``run_chunk``), on ``workers`` threads (``run_job``). The batch's arrays lie in ``memory``
    (``layout_of``): the rewards, ``done`` and ``actors`` (the seat that acted in game ``b``,
    ``-1`` in a game over) are written there. Returns the first game whose action is not
    legal, having changed no game (and written nothing); else ``-1 - k``, ``k`` the number of
    games that ended."""
    layout = layout_of(memory)
    s, c = state_at(memory, layout), consts_at(memory, layout)
    legal = legal_at(memory, layout)
    size, n = len(actions), c.cards
    for g in range(size):
        offset = actions[g] - legal.bases[g]
        inside = 0 <= offset < n
        if s.phase[g] != GAME_OVER and not (
                inside and (legal.bits[g] >> np.uint64(offset if inside else 0)) & _ONE):
            return g
    chunks = (size + STEP_CHUNK - 1) // STEP_CHUNK
    return -1 - run_job(control, runs, STEP_VALUES if values else STEP_COMPACT, memory, actions,
                        out, workers, chunks)


# -- the threads' jobs ----------------------------------------------------------------------------
#
# A job is ``chunks`` pieces of work on one batch, each its own (a chunk of games: which thread
# does it changes no byte). The calling thread and ``workers - 1`` threads of
# ``bottleimp/batch/_workers.py`` (spinning between jobs, ``serve``) share it through
# ``control`` and ``runs``, two arrays of int64 cells that live as long as the process: the
# caller writes the job's description, then adds one to ``control[GENERATION]``; a worker that
# sees the generation change takes chunks. Each thread owns a run of consecutive chunks
# (``runs[w]``: the job's generation, the run's first chunk not taken and its end, in one word)
# and takes them from the front, so that a thread steps the same games from job to job and
# finds them in its cache; then it takes from the back of the other runs. A chunk is taken by
# the one thread whose compare-exchange of the run's word succeeds; a word of another
# generation is never taken from, so a worker that wakes late (the machine paused it) takes
# nothing of a job it did not see start, nor of one that ended. The caller waits until every
# chunk taken is done (``control[DONE]``), never for a worker that took nothing: a worker the
# machine does not run delays a job by no more than the chunk it holds.

GENERATION, STOP = 0, 1
"""``control``'s first cache line, which a spinning worker reads and only the caller writes, once
a job: the job's generation (one more per job) and the workers' stop flag."""
KIND, WORKERS, GAMES, MEMORY_AT, MEMORY_BYTES, ACTIONS_AT, OUT_AT, OUT_COLUMNS = range(8, 16)
"""Its second line, the job's description: its kind, its threads, the batch's games, where its
memory, actions and observations lie (addresses, ``array.ctypes.data``)."""
WAITED, CHUNKS = 40, 41
"""The turns the caller waited, its own chunks done, for the workers' last chunks, and the
job's chunks (a line of their own, read by ``_workers.py`` after the job)."""
DONE, ENDED, BY_WORKERS = 16, 24, 32
"""A line each, which each thread adds to once a job, when it has done its chunks: the chunks
done since the process began, the games the job ended, the chunks workers did."""
CONTROL_CELLS: Final = 48
RUN_CELLS: Final = 8
"""``runs[w * RUN_CELLS]`` is run ``w``'s word: a cache line each, so a thread taking from its
own run does not take the line from the others."""
STEP_VALUES, STEP_COMPACT, CHOOSE = range(3)
"""A job's kinds: a step writing float32 observations, a step writing compact ones (or none),
``random_actions``' choices."""
_RUN_BITS: Final = 16
"""Bits of a run's first and end chunk in its word (``STEP_CHUNK`` games a chunk: batches up
to ``2**16 * 64`` games); the generation's low 31 bits above them."""
_RUN_MASK: Final = (1 << _RUN_BITS) - 1
_TAG_MASK: Final = (1 << 31) - 1


@jit
def run_word(generation: int, first: int, end: int) -> int:
    """A run's word: the generation's low 31 bits, the first chunk not taken, the end."""
    return (((generation & _TAG_MASK) << 32) | (first << _RUN_BITS)) | end


@jit
def take_chunk(runs: IntArray, run: int, generation: int, front: bool) -> int:
    """Take a chunk of run ``run`` of job ``generation``, its first (``front``) or its last
    not taken; ``-1`` when none is left, or the run belongs to another job."""
    cell = runs[run * RUN_CELLS:run * RUN_CELLS + 1]
    while True:
        word = atomic_load(cell)
        first, end = (word >> _RUN_BITS) & _RUN_MASK, word & _RUN_MASK
        if word >> 32 != generation & _TAG_MASK or first >= end:
            return -1
        if front:
            if compare_exchange(cell, word, run_word(generation, first + 1, end)):
                return first
        elif compare_exchange(cell, word, run_word(generation, first, end - 1)):
            return end - 1


@jit_apart
def chunk_of(kind: int, memory: npt.NDArray[np.uint8], actions: IntArray,
             out: npt.NDArray[Any], chunk: int) -> int:
    """Chunk ``chunk`` of a job of ``kind`` done; the games it ended."""
    if kind == CHOOSE:
        choose_chunk(memory, chunk)
        return 0
    return run_chunk(memory, actions, out, kind == STEP_VALUES, chunk)


@jit_apart
def described_chunk(control: IntArray, chunk: int) -> int:
    """Chunk ``chunk`` of the job ``control`` describes (its arrays found from their
    addresses); the games it ended."""
    b, kind = control[GAMES], control[KIND]
    memory = array_from(control[MEMORY_AT], (control[MEMORY_BYTES],), np.uint8)
    actions = array_from(control[ACTIONS_AT], (b,), np.int64)
    shape = (b, control[OUT_COLUMNS])
    if kind == STEP_VALUES:
        return chunk_of(kind, memory, actions, array_from(control[OUT_AT], shape, np.float32),
                        chunk)
    return chunk_of(kind, memory, actions, array_from(control[OUT_AT], shape, np.uint8), chunk)


@jit_apart
def work(control: IntArray, runs: IntArray, me: int, generation: int) -> None:
    """Thread ``me``'s part of job ``generation``: the chunks of its own run, then those left
    at the back of the others' runs; then what it did counted, once."""
    workers = control[WORKERS]
    if me >= workers:  # the job runs on fewer threads
        return
    done = ended = 0
    for other in range(workers):
        run = (me + other) % workers
        while True:
            chunk = take_chunk(runs, run, generation, other == 0)
            if chunk < 0:
                break
            ended += described_chunk(control, chunk)
            done += 1
    if done:
        fetch_add(control[ENDED:ENDED + 1], ended)
        if me > 0:
            fetch_add(control[BY_WORKERS:BY_WORKERS + 1], done)
        fetch_add(control[DONE:DONE + 1], done)  # last: the caller may go on once it is seen


@jit
def run_job(control: IntArray, runs: IntArray, kind: int, memory: npt.NDArray[np.uint8],
            actions: IntArray, out: npt.NDArray[Any], workers: int, chunks: int) -> int:
    """Do every chunk of a job of ``kind`` on ``workers`` threads, this one and the workers'
    (``workers`` 1: this one alone, ``control`` and ``runs`` untouched); the games it ended."""
    if workers <= 1 or chunks <= 1:
        ended = 0
        for chunk in range(chunks):
            ended += chunk_of(kind, memory, actions, out, chunk)
        return ended
    workers = min(workers, chunks)
    control[KIND], control[WORKERS], control[GAMES] = kind, workers, out.shape[0]
    control[MEMORY_AT], control[MEMORY_BYTES] = memory.ctypes.data, len(memory)
    control[ACTIONS_AT], control[OUT_AT] = actions.ctypes.data, out.ctypes.data
    control[OUT_COLUMNS] = out.shape[1]
    generation = atomic_load(control[GENERATION:GENERATION + 1]) + 1
    for run in range(workers):
        atomic_store(runs[run * RUN_CELLS:run * RUN_CELLS + 1],
                     run_word(generation, run * chunks // workers, (run + 1) * chunks // workers))
    atomic_store(control[ENDED:ENDED + 1], 0)
    done = atomic_load(control[DONE:DONE + 1])
    atomic_store(control[GENERATION:GENERATION + 1], generation)  # the job starts
    work(control, runs, 0, generation)
    waited = 0
    while atomic_load(control[DONE:DONE + 1]) - done < chunks:
        waited += 1
        pause()
    control[WAITED], control[CHUNKS] = waited, chunks
    return atomic_load(control[ENDED:ENDED + 1])


@jit
def serve(control: IntArray, runs: IntArray, me: int, seen: int, spins: int) -> int:
    """Worker ``me``'s loop (``_workers.py`` runs it on a thread of its own, without the GIL):
    take part in each job that starts after generation ``seen``; return the last generation
    seen once ``spins`` turns have passed with no job (the thread then sleeps), or ``-1`` when
    ``control[STOP]`` is set."""
    idle = 0
    while True:
        if atomic_load(control[STOP:STOP + 1]) != 0:
            return -1
        generation = atomic_load(control[GENERATION:GENERATION + 1])
        if generation != seen:
            seen = generation
            work(control, runs, me, generation)
            idle = 0
        elif idle < spins:
            idle += 1
            pause()
        else:
            return seen


@jit
def spin(cell: IntArray, turns: int) -> int:
    """``turns`` turns of ``serve``'s idle loop on ``cell`` (``_workers.py`` times it to size a
    worker's spin)."""
    for _ in range(turns):
        atomic_load(cell)
        pause()
    return turns


@jit_apart
def run_chunk(memory: npt.NDArray[np.uint8], actions: IntArray, out: npt.NDArray[Any],
              values: bool, chunk: int) -> int:
    """``step``'s work on chunk ``chunk`` (games ``chunk * STEP_CHUNK`` to the next chunk's
    first): its rewards and ``done`` cleared, its actions taken (``step_chunk``), its masks,
    legal sets and observations written; returns how many of its games ended. Its arrays are
    made here from ``memory``, so the parallel loop hands each thread five values, not the
    state's arrays."""
    layout = layout_of(memory)
    s, c = state_at(memory, layout), consts_at(memory, layout)
    size = len(actions)
    mask, blank = mask_at(memory, layout)
    rewards = array_at(memory, layout[_B + 2], (size, c.players), np.float32)
    done = array_at(memory, layout[_B + 3], (size,), np.bool_)
    actors, games, observer = (ints_at(memory, layout, 4), ints_at(memory, layout, 5),
                               ints_at(memory, layout, 6))
    start = chunk * STEP_CHUNK
    stop = min(size, start + STEP_CHUNK)
    clear_items(rewards, start * c.players, (stop - start) * c.players)
    clear_items(done, start, stop - start)
    ended = step_chunk(s, c, actions, rewards, done, actors, start, stop)
    mask_games(s, c, games[start:stop], mask, blank, legal_at(memory, layout))
    if out.shape[1] > 0:
        for g in range(start, stop):
            observer[g] = max(s.to_act[g], 0)
        observe_games(s, c, games[start:stop], observer[start:stop], gaps_at(memory, layout),
                      out[start:stop], values)
    return ended


@jit_apart
def step_chunk(s: State, c: Consts, actions: IntArray, rewards: FloatArray, done: BoolArray,
               actors: IntArray, start: int, stop: int) -> int:
    """Take the actions of games ``start`` to ``stop - 1`` (``step``); returns how many ended."""
    n = c.cards
    ended = 0
    for g in range(start, stop):
        phase = s.phase[g]
        action = actions[g]
        actors[g] = s.to_act[g]
        if phase == SETUP:
            give(s, c, g, action // n, action % n)
        elif phase == PLAY:
            if play(s, c, g, action - 3 * n) == 2:
                done[g] = True
                ended += 1
                best = s.totals[g, 0]
                for seat in range(c.players):
                    best = max(best, s.totals[g, seat])
                for seat in range(c.players):
                    rewards[g, seat] = 1.0 if s.totals[g, seat] == best else -1.0
        elif phase == ROUND_OVER:
            s.round_index[g] += 1
            s.dealer[g] = (s.dealer[g] + 1) % c.players
            deal(s, c, g)
    return ended


@jit_apart
def observe_games(s: State, c: Consts, games: IntArray, observer: IntArray, gaps: IntArray,
                  out: npt.NDArray[Any], values: bool) -> None:
    """``out[i]``: seat ``observer[i]``'s observation in game ``games[i]`` (``observe_row``):
    compiled once per type of ``out``, for ``observe`` and ``step`` alike."""
    for i in range(len(games)):
        observe_row(s, c, games[i], observer[i], gaps, out, i, values)


@jit
def observe(memory: npt.NDArray[np.uint8], games: IntArray, observer: IntArray,
            out: npt.NDArray[Any], values: bool) -> None:
    """``out[i]``: seat ``observer[i]``'s observation in game ``games[i]`` (``observe_row``) of
    the batch of ``memory`` (``layout_of``): float32 with ``values``, or in an
    ``out`` of bytes the compact observation, its 0/1 cells (``values`` False; compiled apart,
    on first use)."""
    layout = layout_of(memory)
    observe_games(state_at(memory, layout), consts_at(memory, layout), games, observer,
                  gaps_at(memory, layout), out, values)


@jit
def observe_row(s: State, c: Consts, g: int, o: int, gaps: IntArray, out: npt.NDArray[Any],
                r: int, values: bool) -> None:
    """``out[r]``: seat ``o``'s observation in game ``g`` (as ``BatchGames.observe``:
    ``encoding.observation``'s layout, seats relative to the observer, only what the observer
    may see, rule VIEW-HIDDEN): the 0/1 part as ``Observer.binary`` writes it, a set of cards
    (a word of the state) at a time (``put_word``), then the values. Only the ``gaps`` (``(start,
    length)`` rows: the cells that no plane below writes whole) are cleared first: clearing whole rows wrote half as many bytes again. ``out`` is float32, or
    bytes for the compact observation (``values`` False: the value cells are left as they are,
    zero)."""
    p, n = c.players, c.cards
    at = c.at
    at_hand, at_face_up, at_my_setup = at[AT_HAND], at[AT_FACE_UP], at[AT_MY_SETUP]
    at_received, at_trick, at_leader = at[AT_RECEIVED], at[AT_TRICK], at[AT_LEADER]
    at_played, at_captured, at_price = at[AT_PLAYED], at[AT_CAPTURED], at[AT_PRICE]
    at_owner, at_devils_trick, at_phase = at[AT_OWNER], at[AT_DEVILS_TRICK], at[AT_PHASE]
    at_to_act, at_dealer, at_team = at[AT_TO_ACT], at[AT_DEALER], at[AT_TEAM]
    row = r * out.shape[1]
    for gap in range(len(gaps)):
        clear_items(out, row + gaps[gap, 0], gaps[gap, 1])
    put_word(out, row + at_hand, s.hand[g, o], n)
    for slot in range(3):
        put_word(out, row + at_my_setup + slot * n, s.given[g, o, slot], n)
    put_word(out, row + at_played, s.played[g], n)
    for r_seat in range(p):  # seat-relative planes: row k is seat o + k's
        seat = (o + r_seat) % p
        put_word(out, row + at_trick + r_seat * n, s.trick[g, seat], n)
        put_word(out, row + at_captured + r_seat * n, s.captured[g, seat], n)
        if c.devils_eye:
            put_word(out, row + at_face_up + r_seat * n, s.face_up[g, seat], n)
    phase = s.phase[g]
    if phase >= ROUND_OVER:
        put_word(out, row + at_devils_trick, s.devils_trick[g], n)
    bits = out[r]
    if phase != SETUP:  # the cards received, once the setup resolved
        left, right = (o + 1) % p, (o + p - 1) % p
        if c.devils_eye:  # the one opponent passed to the face-up row and the hidden hand
            put_word(out, row + at_received + n, s.given[g, left, 1] | s.given[g, left, 2], n)
        elif p == 2:  # the one opponent passed left and right
            put_word(out, row + at_received + n, s.given[g, left, 2] | s.given[g, right, 1], n)
        else:  # passed right by the next seat, passed left by the one before
            put_word(out, row + at_received + n, s.given[g, left, 2], n)
            put_word(out, row + at_received + (p - 1) * n, s.given[g, right, 1], n)
    if s.trick_length[g] > 0:
        bits[at_leader + (s.trick_seats[g, 0] - o + p) % p] = 1.0
    for bottle in range(c.bottles):
        card = s.bottle_card[g, bottle]
        if card >= 0:
            bits[at_price + bottle * n + card] = 1.0
        owner = s.bottle_owner[g, bottle]
        if owner >= 0:
            bits[at_owner + bottle * p + (owner - o + p) % p] = 1.0
    bits[at_phase + phase] = 1.0
    if s.to_act[g] >= 0:
        bits[at_to_act + (s.to_act[g] - o + p) % p] = 1.0
    bits[at_dealer + (s.dealer[g] - o + p) % p] = 1.0
    for k in range(p):
        bits[at_team + k] = c.same_team[o, (o + k) % p]
    if values:
        observe_values(s, c, g, o, bits)


@jit
def observe_values(s: State, c: Consts, g: int, o: int, row: FloatArray) -> None:
    """Write the value segments of seat ``o``'s observation in game ``g`` into ``row`` (as
    ``Observer.values``, with its roundings): hand sizes and setup cards given per seat, scores
    once revealed, totals, the Devil's Trick's size, the game's progress."""
    p = c.players
    at = c.at
    at_hand_sizes, at_setup_given = at[AT_HAND_SIZES], at[AT_SETUP_GIVEN]
    at_scores, at_totals = at[AT_SCORES], at[AT_TOTALS]
    at_size, at_progress = at[AT_DEVILS_TRICK_SIZE], at[AT_PROGRESS]
    n32 = np.float32(c.cards)
    four = np.float32(4)
    coins32 = np.float32(c.coins_total)
    revealed = s.phase[g] >= ROUND_OVER
    shown = (1.0 if revealed else 0.0) / c.coins_total
    for r in range(p):
        seat = (o + r) % p
        row[at_hand_sizes + r] = np.float32(s.hand_count[g, seat]) / n32
        row[at_setup_given + r] = np.float32(s.setup_given[g, seat]) / four
        row[at_scores + r] = np.float32(float(s.scores[g, seat]) * shown)
        row[at_totals + r] = np.float32(s.totals[g, seat]) / coins32
    trick_size = 0  # the Devil's Trick's cards given so far: each seat's steps to slot 0
    dealer = s.dealer[g]
    for seat in range(p):
        for done in range(s.setup_given[g, seat]):
            trick_size += c.step_slot[dealer, seat, done] == 0
    row[at_size] = np.float32(trick_size / c.cards)
    if c.target_score >= 0:
        best = s.totals[g, 0]
        for seat in range(p):
            best = max(best, s.totals[g, seat])
        row[at_progress] = np.float32(min(1.0, best / c.target_score))
    else:
        row[at_progress] = np.float32((s.round_index[g] + (1 if revealed else 0))
                                      / c.round_limit)


@jit
def start_games(memory: npt.NDArray[np.uint8], games: IntArray) -> None:
    """A new game in each slot of ``games`` (as ``start_game``), and its rows of the mask and
    the legal sets (``mask_games``), in the batch of ``memory`` (``layout_of``)."""
    layout = layout_of(memory)
    s, c = state_at(memory, layout), consts_at(memory, layout)
    for g in games:
        start_game(s, c, g)
    mask, blank = mask_at(memory, layout)
    mask_games(s, c, games, mask, blank, legal_at(memory, layout))


@jit
def begin_rounds(memory: npt.NDArray[np.uint8], games: IntArray) -> None:
    """Start the round of each of ``games`` whose hands (and face-up cards) were loaded
    (``begin_round``), and its rows of the mask and the legal sets (``mask_games``)."""
    layout = layout_of(memory)
    s, c = state_at(memory, layout), consts_at(memory, layout)
    for g in games:
        begin_round(s, c, g)
    mask, blank = mask_at(memory, layout)
    mask_games(s, c, games, mask, blank, legal_at(memory, layout))

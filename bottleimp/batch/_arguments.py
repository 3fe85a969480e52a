"""The checks of the batch engine's public arguments, made before any of them reaches the state
arrays or the compiled kernel: a value of the wrong type, shape or range is refused with a
``BatchError`` naming the argument, under the reference's policy (``bottleimp._arguments``): an
integer is an ``int`` or a numpy integer, never a ``bool``, a float (even ``2.0``), a string,
bytes or a complex number."""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from .._arguments import describe as describe
from .._errors import BottleImpError
from ._tables import BoolArray, IntArray

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


class BatchError(BottleImpError, ValueError):
    """A batch request that cannot be served: an argument of the wrong type, shape or range
    (naming it), or a variant the batch engine refuses (naming it)."""


BatchError.__module__ = "bottleimp.batch"  # the name a caller imports it by


def is_integer(value: object) -> bool:
    """Whether ``value`` is an integer under the reference's policy: an ``int`` (not a
    ``bool``) or a numpy integer (not ``np.bool_``)."""
    return type(value) is int or isinstance(value, np.integer)


def expect_integer(value: object, where: str) -> int:
    """``value`` as an ``int`` if it is an integer (``is_integer``), else a ``BatchError``."""
    if not is_integer(value):
        raise BatchError(f"{where} must be an integer, not {describe(value)}")
    number: int = int(value)  # type: ignore[call-overload]
    return number


def expect_flag(value: object, where: str) -> bool:
    """``value`` if it is a ``bool`` (or ``np.bool_``), else a ``BatchError``: ``None``, ``0``,
    ``0.0`` or ``"no"`` are not flags."""
    if type(value) is bool or isinstance(value, np.bool_):
        return bool(value)
    raise BatchError(f"{where} must be True or False, not {describe(value)}")


def integer_values(values: object, where: str, length: int | None) -> list[int] | IntArray:
    """``values``, a sequence (list, tuple, range) or a 1-D numpy array of integers, as a list of
    Python ints (any size) or an ``int64`` array; ``length`` (when given) is how many there must
    be. Anything else, a nested or 2-D array, or an element that is no integer, is a
    ``BatchError`` naming ``where`` (and the element's index)."""
    if isinstance(values, np.ndarray):
        if values.dtype.kind not in "iu":
            raise BatchError(f"{where} must hold integers, not an array of {values.dtype}")
        if values.ndim != 1 or (length is not None and values.shape[0] != length):
            wanted = f"({length},)" if length is not None else "one dimension"
            raise BatchError(f"{where} must have the shape {wanted}, not {values.shape}")
        if values.dtype.kind == "u" and values.size and int(values.max()) > _INT64_MAX:
            return [int(value) for value in values]
        return values.astype(np.int64)
    if not isinstance(values, (list, tuple, range)):
        raise BatchError(f"{where} must be a sequence or an array of integers, not "
                         f"{describe(values)}")
    if length is not None and len(values) != length:
        raise BatchError(f"{where} must hold {length} values, not {len(values)}")
    out: list[int] = []
    for index, value in enumerate(values):
        if not is_integer(value):
            raise BatchError(f"{where}[{index}] must be an integer, not {describe(value)}")
        out.append(int(value))
    return out


def int64_values(values: object, where: str, length: int | None) -> IntArray:
    """``integer_values`` as an ``int64`` array: a value outside 64 bits is a ``BatchError``."""
    checked = integer_values(values, where, length)
    if isinstance(checked, np.ndarray):
        return checked
    for index, value in enumerate(checked):
        if not _INT64_MIN <= value <= _INT64_MAX:
            raise BatchError(f"{where}[{index}] is out of range: {value}")
    return np.array(checked, dtype=np.int64).reshape(-1)


def seats_of(values: object, where: str, size: int, players: int) -> IntArray:
    """One seat, or one seat per game (``size`` of them), as a ``(size,)`` array: each an
    integer from 0 to ``players - 1``, else a ``BatchError`` naming ``where``."""
    if is_integer(values) or (isinstance(values, np.ndarray) and values.ndim == 0):
        seat = expect_integer(values.item() if isinstance(values, np.ndarray) else values, where)
        if not 0 <= seat < players:
            raise BatchError(f"{where}: {seat} is no seat of a {players}-player game (seats 0 "
                             f"to {players - 1})")
        seats = np.full(size, seat, dtype=np.int64)
    else:
        seats = int64_values(values, where, size)
    outside = (seats < 0) | (seats >= players)
    if outside.any():
        index = int(np.flatnonzero(outside)[0])
        raise BatchError(f"{where}: {int(seats[index])} (game {index}) is no seat of a "
                         f"{players}-player game (seats 0 to {players - 1})")
    return seats


def games_of(values: object, where: str, size: int) -> IntArray:
    """Some games of a batch of ``size``: indices from 0 to ``size - 1`` (a sequence or a 1-D
    integer array, at least one), or a boolean mask of ``size`` values (a numpy array of
    ``bool`` or a sequence of ``bool`` only), as an index array; else a ``BatchError``."""
    if isinstance(values, np.ndarray) and values.dtype == np.bool_:
        return _mask_games(values, where, size)
    if (isinstance(values, (list, tuple)) and values
            and all(type(value) is bool or isinstance(value, np.bool_) for value in values)):
        return _mask_games(np.array(values, dtype=np.bool_), where, size)
    picked = int64_values(values, where, None)
    if not len(picked):
        raise BatchError(f"{where} must name at least one game")
    outside = (picked < 0) | (picked >= size)
    if outside.any():
        raise BatchError(f"{where}: {int(picked[np.flatnonzero(outside)[0]])} is no game of a "
                         f"batch of {size} (games 0 to {size - 1})")
    return picked


def _mask_games(mask: BoolArray, where: str, size: int) -> IntArray:
    if mask.shape != (size,):
        raise BatchError(f"{where}: a mask of games must have the shape ({size},), not "
                         f"{mask.shape}")
    picked: IntArray = np.flatnonzero(mask).astype(np.int64)
    if not len(picked):
        raise BatchError(f"{where}: the mask picks no game")
    return picked


def uniforms_from(rng: object, out: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``len(out)`` uniform numbers in [0, 1) from ``rng``: a ``np.random.Generator``
    (``rng.random``, into ``out``) or a ``np.random.RandomState`` (``rng.random_sample``, the
    same numbers as a new array); else a ``BatchError``."""
    size = len(out)
    if isinstance(rng, np.random.Generator):
        values: Any = rng.random(out=out)
    elif isinstance(rng, np.random.RandomState):
        values = rng.random_sample(size)
    else:
        raise BatchError(f"random_actions(rng) needs a numpy Generator or RandomState, not "
                         f"{describe(rng)}")
    return np.asarray(values, dtype=np.float64)

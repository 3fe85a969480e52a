"""The deal's shuffle (rule ``DEAL-SHUFFLE``) for many games at once, on ``uint64`` arrays.

The same SplitMix64 stream and Fisher-Yates shuffle as the reference (``rules/deal.py``, and
``spec/rules.toml``): the generator starts at ``(seed mod 2**64) XOR (round * 0xD1B54A32D192ED03
mod 2**64)``; position ``i`` from the last down to 1 takes the next draw below the largest multiple
of ``i + 1`` that fits in 64 bits, and swaps with position ``draw mod (i + 1)``.

Step ``k`` of SplitMix64 depends on ``start + k * GAMMA`` alone, so the draws of every position of
every game are computed at once; numpy's ``uint64`` arithmetic wraps modulo ``2**64`` as the
generator wants. A draw at or above its limit is rejected and the stream goes on, which shifts
every later draw of that game: such a game (about one deal in ``10**17``) is shuffled again by the
plain one-draw-at-a-time loop, ``shuffle_one``, so every deal is the reference's bit for bit.
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from .arguments import BatchError, describe, integer_values, is_integer

_MASK: Final = (1 << 64) - 1
_ROUND_STREAM: Final = 0xD1B54A32D192ED03
_GAMMA: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB

IntArray = npt.NDArray[np.int64]


def _limit(bound: int) -> int:
    """The draws accepted for an index below ``bound`` are those below this number."""
    return (1 << 64) - ((1 << 64) % bound)


def shuffle_one(size: int, seed: int, round_index: int) -> list[int]:
    """The shuffled order of ``range(size)`` for one game and round, one SplitMix64 step per draw
    (rule ``DEAL-SHUFFLE``): the plain form, used when a draw is rejected."""
    state = (seed & _MASK) ^ ((round_index * _ROUND_STREAM) & _MASK)
    order = list(range(size))
    for i in range(size - 1, 0, -1):
        while True:
            state = (state + _GAMMA) & _MASK
            z = state
            z = ((z ^ (z >> 30)) * _MIX1) & _MASK
            z = ((z ^ (z >> 27)) * _MIX2) & _MASK
            draw = z ^ (z >> 31)
            if draw < _limit(i + 1):
                break
        j = draw % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def shuffle_many(size: int, seeds: npt.NDArray[np.uint64], rounds: IntArray) -> IntArray:
    """The shuffled orders of ``range(size)`` for games with ``seeds`` in rounds ``rounds``
    (one row per game): row ``g`` is ``shuffle_one(size, seeds[g], rounds[g])``."""
    games = len(seeds)
    order = np.tile(np.arange(size, dtype=np.int64), (games, 1))
    if games == 0 or size < 2:
        return order
    start = seeds.astype(np.uint64) ^ (rounds.astype(np.uint64) * np.uint64(_ROUND_STREAM))
    steps = np.arange(1, size, dtype=np.uint64) * np.uint64(_GAMMA)
    z = start[:, None] + steps[None, :]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    draws = z ^ (z >> np.uint64(31))
    # Draw t serves position i = size - 1 - t.
    bounds = np.arange(size, 1, -1, dtype=np.uint64)
    limits = np.array([_limit(int(b)) & _MASK for b in bounds], dtype=np.uint64)
    whole = np.array([_limit(int(b)) == 1 << 64 for b in bounds])  # a power of two: no rejection
    rejected = ((draws >= limits[None, :]) & ~whole[None, :]).any(axis=1)
    picks = (draws % bounds[None, :]).astype(np.int64)
    rows = np.arange(games)
    for t in range(size - 1):
        i = size - 1 - t
        j = picks[:, t]
        at_i = order[:, i].copy()
        order[:, i] = order[rows, j]
        order[rows, j] = at_i
    for game in np.flatnonzero(rejected):
        order[game] = shuffle_one(size, int(seeds[game]), int(rounds[game]))
    return order


def _mix(z: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
    """SplitMix64's output function (its finaliser), on ``uint64`` arrays."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_MIX1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_MIX2)
    mixed: npt.NDArray[np.uint64] = z ^ (z >> np.uint64(31))
    return mixed


def game_seeds(bases: npt.NDArray[np.uint64], keys: npt.NDArray[np.uint64],
               generations: IntArray) -> npt.NDArray[np.uint64]:
    """The seed of game ``generations[i]`` of a slot with first seed ``bases[i]`` and key
    ``keys[i]``: game 0 is the first seed itself (so a batch reset with ``seeds`` deals game
    ``b`` as ``new_game(config, seeds[b])``); game ``k >= 1`` is SplitMix64's output at ``key +
    k * 0x9E3779B97F4A7C15`` (a counter-based draw: distinct for every ``k`` of a slot, and
    keys drawn from ``SeedSequence`` make the slots independent, ``slot_seeds``). The compiled
    kernel computes the same (``kernel.game_seed``)."""
    with np.errstate(over="ignore"):
        gens = np.asarray(generations, dtype=np.int64).astype(np.uint64)
        drawn = _mix(np.asarray(keys, dtype=np.uint64) + gens * np.uint64(_GAMMA))
    seeds: npt.NDArray[np.uint64] = np.where(gens == 0, np.asarray(bases, dtype=np.uint64), drawn)
    return seeds


def slot_seeds(seeds: object, count: int) -> tuple[npt.NDArray[np.uint64], npt.NDArray[np.uint64]]:
    """The first seeds and keys of ``count`` slots (``game_seeds``), from ``seeds``:
    ``count`` integers (each slot's first seed, mod ``2**64``; its key the first word of
    ``np.random.SeedSequence(seed)``), or one integer or ``SeedSequence`` spawned into
    ``count`` children (``SeedSequence.spawn``: each child's two first words are the slot's first
    seed and key; a ``SeedSequence`` given twice spawns new children, so two batches reset from
    it share no game). Anything else is a ``BatchError``."""
    if isinstance(seeds, np.random.SeedSequence) or is_integer(seeds):
        root = seeds if isinstance(seeds, np.random.SeedSequence) else np.random.SeedSequence(
            int(seeds) & _MASK)  # type: ignore[call-overload]
        words = np.array([child.generate_state(2, np.uint64) for child in root.spawn(count)],
                         dtype=np.uint64).reshape(count, 2)
        return words[:, 0].copy(), words[:, 1].copy()
    if isinstance(seeds, (str, bytes, float, complex, bool)):
        raise BatchError(f"seeds must be integers or one SeedSequence, not {describe(seeds)}")
    values = integer_values(seeds, "seeds", count)
    firsts = [int(value) & _MASK for value in values]
    keys = [int(np.random.SeedSequence(first).generate_state(1, np.uint64)[0]) for first in firsts]
    return np.array(firsts, dtype=np.uint64), np.array(keys, dtype=np.uint64)

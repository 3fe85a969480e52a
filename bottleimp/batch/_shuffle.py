"""The batch engine's seed policy: the first seed and key of each slot (``slot_seeds``) and the
seed of each later game of a slot (``game_seeds``). The deal's shuffle itself (rule
``DEAL-SHUFFLE``) is the kernel's, ``kernel.shuffle_into``."""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt

from ._arguments import BatchError, describe, integer_values, is_integer

_MASK: Final = (1 << 64) - 1
_GAMMA: Final = 0x9E3779B97F4A7C15
_MIX1: Final = 0xBF58476D1CE4E5B9
_MIX2: Final = 0x94D049BB133111EB

IntArray = npt.NDArray[np.int64]


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

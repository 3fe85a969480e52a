"""The solver with a planted bug, against the brute force: ``python tests/analysis_plants.py
NAME planted|clean`` prints how many (position, seat) pairs of the plant's small exhaustive game
were compared and on how many the solver disagreed. Run with ``NUMBA_DISABLE_JIT=1`` (by
``tests/test_analysis_solver.py``): the search then runs as plain Python and the replaced
functions are the ones it calls.

- ``wrong bound``: the sure upper bound one coin too low;
- ``key forgets the price``: the transposition key without the bottles' prices;
- ``team as one seat``: the side of a seat in team mode is the seat alone;
- ``last seat's bound off by one``: the bounds of a position after the last card of a trick,
  read before it is entered (``_child_bounds``, the enhanced transposition cutoffs of
  ``_last_seat``), its upper bound one coin too low;
- ``table forgets the coins``: a table entry's bounds taken as they are for a position whose side
  captured other coins than the entry's (``_table_bounds`` without its shift);
- ``question forgets the left-out coins``: a node of a question without coins that left out
  cards only coins tell apart returns the best score of the cards it tried (``_close`` as if
  none were left out).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bottleimp.analysis import _solver as solver_module  # noqa: E402
from bottleimp._config import Config  # noqa: E402
from analysis_brute import VARIANTS, random_endgames  # noqa: E402
from test_analysis_solver import (  # noqa: E402
    PLANTS, benchmark_position, disagreements, small_game_positions)
from test_exhaustive import CI  # noqa: E402


def _wrong_bound(original: Callable[..., tuple[int, int]]) -> Callable[..., Any]:
    def sure_bounds(*args: Any) -> tuple[int, int]:
        lower, upper = original(*args)
        return lower, max(lower, upper - 1)  # one coin too little at the top
    return sure_bounds


def _key_without_price(original: Callable[..., np.uint64]) -> Callable[..., Any]:
    def trick_key(s: Any, c: Any, d: int, ctl: Any, in_play: Any, kinds: Any,
                  key: Any, question: int) -> np.uint64:
        original(s, c, d, ctl, in_play, kinds, key, question)
        per_word = solver_module._PER_WORD
        bottles_at = 2 * c.players + (c.cards + per_word - 1) // per_word
        for index in range(c.bottles):  # each bottle's owner kept, its price forgotten
            key[bottles_at + index] = np.uint64(int(s.bottle_owner[d, index]) + 1)
        return np.uint64(hash(tuple(int(word) for word in key)) & (2**64 - 1))
    return trick_key


def _child_bound_off_by_one(original: Callable[..., tuple[int, int]]) -> Callable[..., Any]:
    def child_bounds(*args: Any) -> tuple[int, int]:
        lower, upper = original(*args)
        return lower, max(lower, upper - 1)  # one coin too little at the top
    return child_bounds


def _table_without_shift(original: Callable[..., tuple[int, int]]) -> Callable[..., Any]:
    def table_bounds(bounds: Any, slot: int, captured: int, ctl: Any) -> tuple[int, int]:
        return int(bounds[slot, 0]), int(bounds[slot, 1])
    return table_bounds


def _loose_question_trusted(original: Callable[..., int]) -> Callable[..., Any]:
    def close(s: Any, c: Any, d: int, ctl: Any, keys: Any, bounds: Any, scratch: Any,
              frame: Any, in_play: Any) -> int:
        frame[solver_module._F_LOOSE] = 0
        return int(original(s, c, d, ctl, keys, bounds, scratch, frame, in_play))
    return close


def _team_as_one_seat(original: Callable[..., tuple[int, ...]]) -> Callable[..., Any]:
    def side_of(config: Config, seat: int) -> tuple[int, ...]:
        return (seat,)
    return side_of


_PLANTED: dict[str, tuple[str, Callable[..., Any]]] = {
    "wrong bound": ("_sure_bounds", _wrong_bound),
    "key forgets the price": ("_trick_key", _key_without_price),
    "team as one seat": ("side_of", _team_as_one_seat),
    "table forgets the coins": ("_table_bounds", _table_without_shift),
    "last seat's bound off by one": ("_child_bounds", _child_bound_off_by_one),
    "question forgets the left-out coins": ("_close", _loose_question_trusted),
}


def main() -> int:
    name, mode = sys.argv[1], sys.argv[2]
    if mode == "planted":
        attribute, plant = _PLANTED[name]
        setattr(solver_module, attribute, plant(getattr(solver_module, attribute)))
    game = PLANTS[name]
    if game.startswith("benchmark "):  # "benchmark SEED-PLAY-RANK...": benchmark_position's
        compared = wrong = 0  # positions, for every seat
        for position in game.split()[1:]:
            deal, number, rank = map(int, position.split("-"))
            done, bad = disagreements([benchmark_position(deal, number, rank)])
            compared, wrong = compared + done, wrong + bad
    elif game.startswith("endgames "):  # "endgames VARIANT SEED INDEX...": random endgames
        _, variant, seed, *indices = game.split()  # (of up to 4 tricks), for every seat
        chosen = sorted(int(index) for index in indices)
        endgames = list(random_endgames(VARIANTS[variant], chosen[-1] + 1, int(seed)))
        compared = wrong = 0
        for index in chosen:  # each with solvers of its own: the order each showed it with
            done, bad = disagreements([endgames[index]])
            compared, wrong = compared + done, wrong + bad
    else:
        spec = next(spec for spec in CI if spec.name == game)
        compared, wrong = disagreements(list(small_game_positions(spec)))
    print(compared, wrong)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The open-hand solver (``bottleimp.analysis``) against a plain brute-force minimax written over
``legal_actions`` and ``apply`` (``tests/analysis_brute.py``): on every position of trick play of
the exhaustive CI set's small games (every player count, Devil's Eye, teams, the Second Bottle),
for the seat to act and for every other seat, and on random endgames of every variant with up to
four tricks left. Each planted bug (a wrong sure bound, a transposition key without the bottle's
price, a team scored as one seat) makes the same check fail. The full-size runs (10,000 endgames
per variant, every deal of the smallest game) are ``scripts/analysis_brute_force.py``."""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from bottleimp import Config, GameState, Phase
from bottleimp.analysis import Solver, Valuation, card_values, solve
from bottleimp.analysis import _solver as solver_module
from bottleimp._errors import ArgumentError

sys.path.insert(0, str(Path(__file__).resolve().parent))
from analysis_brute import VARIANTS, paranoid_value, random_endgames  # noqa: E402
from test_exhaustive import CI, EXHAUSTIVE  # noqa: E402


def small_game_positions(spec: Any) -> Iterator[GameState]:
    """Every position of trick play the exhaustive walk of ``spec`` reaches."""
    for _, _, after in EXHAUSTIVE.transitions(spec):
        if after.phase is Phase.PLAY:
            yield after


def disagreements(positions: Iterator[GameState] | list[GameState], every_seat: bool = True
                  ) -> tuple[int, int]:
    """How many (position, seat) pairs were compared, and on how many the solver's value
    differs from the brute force (or is not exact)."""
    memo: dict[tuple[GameState, int], int] = {}
    solvers: dict[tuple[Config, int], Solver] = {}
    compared = wrong = 0
    for state in positions:
        assert state.to_act is not None
        seats = range(state.config.players) if every_seat else (state.to_act,)
        for seat in seats:
            solver = solvers.setdefault((state.config, seat), Solver(seat, state.config))
            compared += 1
            if solver.solve(state) != Valuation(*(paranoid_value(state, seat, memo),) * 2):
                wrong += 1
    return compared, wrong


@pytest.mark.parametrize("spec", CI, ids=lambda spec: spec.name)
def test_the_solver_equals_brute_force_on_every_position_of_the_small_games(spec: Any) -> None:
    compared, wrong = disagreements(small_game_positions(spec))
    assert compared > 0 and wrong == 0


ENDGAMES = 12
"""Random endgames per variant in the suite (the script runs 10,000)."""


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_the_solver_equals_brute_force_on_random_endgames_of_every_variant(name: str) -> None:
    config = VARIANTS[name]
    most = 2 if config.players in (2, 6) else 3  # the brute force's cost (the script: 4)
    compared, wrong = disagreements(
        list(random_endgames(VARIANTS[name], ENDGAMES, seed=47, most_tricks=most)),
        every_seat=False)
    assert compared == ENDGAMES and wrong == 0


def test_every_card_value_is_the_value_of_the_position_after_it() -> None:
    state = next(random_endgames(VARIANTS["4p-teams"], 1, seed=3, most_tricks=3))
    seat = state.to_act
    assert seat is not None
    values = card_values(state)
    memo: dict[tuple[GameState, int], int] = {}
    from bottleimp import apply
    for play, valuation in values:
        assert valuation.value == paranoid_value(apply(state, play), seat, memo)
    assert max(v.lower for _, v in values) == solve(state).value


def test_past_the_node_budget_the_value_is_a_bound_that_holds() -> None:
    state = next(random_endgames(VARIANTS["4p-classic"], 1, seed=5, most_tricks=4))
    exact = paranoid_value(state, state.to_act or 0, {})
    bounded = solve(state, node_budget=5)
    assert not bounded.exact and bounded.value is None
    assert bounded.lower <= exact <= bounded.upper
    assert str(bounded) == f"[{bounded.lower}, {bounded.upper}]"


def test_a_bad_seat_or_state_is_refused_by_name() -> None:
    state = next(random_endgames(VARIANTS["3p-classic"], 1, seed=5))
    with pytest.raises(ArgumentError, match=r"solve\(seat\)"):
        solve(state, seat=7)
    with pytest.raises(ArgumentError, match=r"solve\(state\)"):
        solve("a state")  # type: ignore[arg-type]


# --- planted bugs: each makes the brute-force comparison fail ---------------------------------

def _wrong_bound(original: Callable[..., tuple[int, int]]) -> Callable[..., tuple[int, int]]:
    def sure_bounds(state: GameState, side: tuple[int, ...]) -> tuple[int, int]:
        lower, upper = original(state, side)
        return lower, max(lower, upper - 1)  # one coin too little at the top
    return sure_bounds


def _key_without_price(original: Callable[..., Hashable]) -> Callable[..., Hashable]:
    def position_key(state: GameState, side: tuple[int, ...]) -> Hashable:
        round_ = state.round
        return (state.to_act, round_.hands, round_.face_up,
                tuple(bottle.owner for bottle in round_.bottles),
                sum(card.coins for seat in side for card in round_.captured[seat]),
                sum(card.coins for card in round_.devils_trick))
    return position_key


def _team_as_one_seat(original: Callable[..., tuple[int, ...]]) -> Callable[..., tuple[int, ...]]:
    def side_of(config: Config, seat: int) -> tuple[int, ...]:
        return (seat,)
    return side_of


PLANTS: dict[str, tuple[str, Callable[..., Any], str]] = {
    "wrong bound": ("sure_bounds", _wrong_bound, "3p-8cards"),
    "key forgets the price": ("position_key", _key_without_price, "3p-8cards-target"),
    "team as one seat": ("side_of", _team_as_one_seat, "4p-12cards-teams"),
}


@contextmanager
def planted(name: str) -> Iterator[None]:
    attribute, plant, _ = PLANTS[name]
    original = getattr(solver_module, attribute)
    setattr(solver_module, attribute, plant(original))
    try:
        yield
    finally:
        setattr(solver_module, attribute, original)


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_a_planted_solver_bug_is_caught_by_the_brute_force(name: str) -> None:
    spec = next(spec for spec in CI if spec.name == PLANTS[name][2])
    positions = list(small_game_positions(spec))
    assert disagreements(positions) == (len(positions) * spec.config.players, 0)
    with planted(name):
        compared, wrong = disagreements(positions)
    assert wrong > 0, f"the plant {name!r} went unnoticed over {compared} comparisons"

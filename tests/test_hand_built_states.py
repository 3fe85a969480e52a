"""States built by hand (``attrs.evolve`` on a real state) that do not hold together: the
engine's public functions refuse them with an ``ArgumentError`` saying the state is not one the
library builds, never a bare ``IndexError`` or ``TypeError`` from inside the rules. (A state
built by hand is read as it is: one whose parts the rules can read is played as any other.)"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from attrs import evolve

import bottleimp
from bottleimp import ArgumentError, Config, GameState, Phase, apply, legal_actions, new_game


def _in_play() -> GameState:
    state = new_game(Config(players=4), seed=5)
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[0])
    return state


def _seat() -> int:
    seat = _in_play().to_act
    assert seat is not None
    return seat


def _setup() -> GameState:
    return new_game(Config(players=4), seed=5)


BROKEN: dict[str, Callable[[], GameState]] = {
    "a seat to act the game does not have": lambda: evolve(_in_play(), to_act=7),
    "hands of the wrong type": lambda: evolve(
        _in_play(), round=evolve(_in_play().round, hands=None)),  # type: ignore[arg-type]
    "no hand for the seat to act": lambda: evolve(
        _in_play(), round=evolve(_in_play().round, hands=_in_play().round.hands[:_seat()])),
    "setup rows missing": lambda: evolve(_setup(), round=evolve(_setup().round, setup=())),
    "a phase that is no phase": lambda: evolve(_in_play(), phase="play"),  # type: ignore[arg-type]
    "face-up cards in a game without them": lambda: evolve(
        _in_play(), round=evolve(_in_play().round, face_up=((),))),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_legal_actions_of_a_hand_built_broken_state_is_an_argument_error(name: str) -> None:
    state = BROKEN[name]()
    with pytest.raises(ArgumentError) as error:
        legal_actions(state)
    assert error.value.field == "legal_actions(state)"
    assert "not a state the library builds" in error.value.message


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_apply_to_a_hand_built_broken_state_is_an_argument_error(name: str) -> None:
    state = BROKEN[name]()
    action = legal_actions(_in_play())[0]
    with pytest.raises((ArgumentError, bottleimp.IllegalActionError)) as error:
        apply(state, action)
    if isinstance(error.value, ArgumentError):
        assert error.value.field == "apply(state)"
        assert "not a state the library builds" in error.value.message


def test_a_hand_built_state_that_holds_together_is_played_as_any_other() -> None:
    state = _in_play()
    moved = evolve(state, totals=(5, 0, 0, 0))
    assert legal_actions(moved) == legal_actions(state)
    assert apply(moved, legal_actions(moved)[0]).totals == (5, 0, 0, 0)

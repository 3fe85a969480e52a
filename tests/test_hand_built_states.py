"""States built by hand (``attrs.evolve`` on a real state): one that does not hold together is
refused when it is built, with an ``ArgumentError`` naming the field at fault, so the engine's
public functions never meet it (never a bare ``IndexError`` or ``TypeError`` from inside the
rules). A state built by hand that holds together is played as any other."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from attrs import evolve

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


BROKEN: dict[str, tuple[Callable[[], GameState], str]] = {
    "a seat to act the game does not have": (
        lambda: evolve(_in_play(), to_act=7), "GameState.to_act"),
    "hands of the wrong type": (lambda: evolve(
        _in_play(), round=evolve(_in_play().round, hands=None)),  # type: ignore[arg-type]
        "RoundState.hands"),
    "no hand for the seat to act": (lambda: evolve(
        _in_play(), round=evolve(_in_play().round, hands=_in_play().round.hands[:_seat()])),
        "RoundState"),
    "setup rows missing": (
        lambda: evolve(_setup(), round=evolve(_setup().round, setup=())), "RoundState"),
    "a phase that is no phase": (
        lambda: evolve(_in_play(), phase="play"), "GameState.phase"),  # type: ignore[arg-type]
    "face-up cards in a game without them": (lambda: evolve(
        _in_play(), round=evolve(_in_play().round, face_up=((),))), "RoundState.face_up"),
    "face-up cards dealt and held in a game without them": (lambda: evolve(
        _in_play(), round=evolve(_in_play().round, face_up=((),) * 4, dealt_face_up=((),) * 4)),
        "GameState.round.face_up"),
    "a seat's Give in another seat's setup row": (lambda: evolve(
        _in_play(), round=evolve(_in_play().round, setup=(_in_play().round.setup[1],) * 4)),
        "RoundState.setup"),
    "totals of bools": (lambda: evolve(_in_play(), totals=(True,) * 4), "GameState.totals"),
    "winners before the game is over": (
        lambda: evolve(_in_play(), winners=(0,)), "GameState.winners"),
}


@pytest.mark.parametrize("name", sorted(BROKEN))
def test_a_hand_built_state_that_does_not_hold_together_is_refused_when_built(
    name: str,
) -> None:
    build, field = BROKEN[name]
    with pytest.raises(ArgumentError) as error:
        build()
    assert error.value.field == field, (error.value.field, error.value.message)


def test_a_hand_built_state_that_holds_together_is_played_as_any_other() -> None:
    state = _in_play()
    moved = evolve(state, totals=(5, 0, 0, 0))
    assert legal_actions(moved) == legal_actions(state)
    assert apply(moved, legal_actions(moved)[0]).totals == (5, 0, 0, 0)


@pytest.mark.parametrize("config", [
    Config(players=2, rounds=1), Config(players=3, rounds=1), Config(players=4, rounds=2),
    Config(players=4, rounds=1, teams=((0, 2), (1, 3))), Config(players=5, bottles=2, rounds=1),
    Config(players=6, rounds=1),
], ids=repr)
def test_every_state_the_engine_derives_passes_the_checks_of_its_constructor(
    config: Config,
) -> None:
    """The transitions derive each next state without running the fields' checks
    (``state.derive``): every state of a random game, and its round, built again through the
    checked constructor (``attrs.evolve``), is accepted and equal."""
    rng = random.Random(3)
    state = new_game(config, seed=11)
    while True:
        assert evolve(state, round=evolve(state.round)) == state
        if state.is_over:
            break
        state = apply(state, rng.choice(legal_actions(state)))

"""The engine's argument checks and the state's text, at the edges a mutation run found untested:
a Devil's Eye deal given face-up cards out of order or malformed, a value that is no state, a
hand-built state whose parts do not fit, and the table and summary in each phase."""

from __future__ import annotations

import attrs
import pytest

from bottleimp import ArgumentError, Config, apply, check_action, legal_actions, new_game, view
from bottleimp._engine import with_deal
from bottleimp._phase import Phase
from bottleimp._state import GameState

EYE = Config(players=2)


def test_with_deal_keeps_given_face_up_cards_in_rank_order() -> None:
    state = new_game(EYE, seed=3)
    face_up = state.round.face_up
    assert face_up is not None
    backwards = tuple(tuple(reversed(row)) for row in face_up)
    dealt = with_deal(state, state.round.hands, backwards)
    assert dealt.round.face_up == face_up
    assert dealt.round.dealt_face_up == face_up


def test_with_deal_refuses_face_up_cards_that_are_not_one_row_per_seat() -> None:
    state = new_game(EYE, seed=3)
    face_up = state.round.face_up
    assert face_up is not None
    with pytest.raises(ArgumentError, match=r"with_deal\(face_up\).*one tuple of cards per seat"):
        with_deal(state, state.round.hands, face_up[0])  # type: ignore[arg-type]


@pytest.mark.parametrize("call", ["apply", "check_action"])
def test_a_view_is_refused_where_a_state_is_needed_and_named_as_a_view(call: str) -> None:
    state = new_game(Config(players=3), seed=1)
    action = legal_actions(state)[0]
    function = apply if call == "apply" else check_action
    with pytest.raises(ArgumentError, match=rf"{call}\(state\): needs a GameState, not a SeatView"):
        function(view(state, 1), action)  # type: ignore[arg-type]


def test_a_hand_built_round_whose_parts_do_not_fit_is_refused_when_built() -> None:
    state = new_game(Config(players=3), seed=1)
    with pytest.raises(ArgumentError, match=r"RoundState: every zone needs one row per seat"):
        attrs.evolve(state.round, setup=())


def _first_in(state: GameState, phase: Phase) -> GameState:
    while state.phase is not phase:
        state = apply(state, legal_actions(state)[0])
    return state


def test_the_table_counts_setup_cards_only_during_the_setup() -> None:
    state = new_game(Config(players=3), seed=1)
    given = apply(state, legal_actions(state)[0])
    assert "Setup cards given: 0 1 0" in str(given)
    assert "Setup cards given" not in str(_first_in(state, Phase.PLAY))


def test_the_table_names_the_winners_only_once_the_game_is_over() -> None:
    state = new_game(Config(players=3, rounds=1), seed=1)
    assert "Winners: seat 0" in str(_first_in(state, Phase.GAME_OVER))
    assert "Winners" not in str(_first_in(state, Phase.PLAY))


def test_the_summary_says_who_acts_or_that_the_game_is_over() -> None:
    state = new_game(Config(players=3, rounds=1), seed=1)
    assert "seat 1 to act" in repr(state) and "game over" not in repr(state)
    over = _first_in(state, Phase.GAME_OVER)
    assert "game over" in repr(over) and "to act" not in repr(over)

"""A state refuses fields that do not fit together, each with an ``ArgumentError`` naming what is
wrong: the checks a state makes of itself when it is built (``_state.py``), one example each.

The forged-value tests build states around their constructor; these build them through it
(``attrs.evolve`` runs every check), from a real game, changing one field.
"""

from __future__ import annotations

from typing import Any

import attrs
import pytest

from bottleimp import (
    ArgumentError,
    Config,
    GameState,
    Phase,
    apply,
    legal_actions,
    new_game,
)
from bottleimp._transitions import seat_actions


def _after_a_trick(players: int = 4) -> GameState:
    state = new_game(Config(players=players), seed=3)
    while not state.round.tricks:
        state = apply(state, legal_actions(state)[0])
    return state


def _refusal(build: object) -> ArgumentError:
    assert callable(build)
    with pytest.raises(ArgumentError) as raised:
        build()
    return raised.value


def test_a_trick_result_refuses_a_price_that_is_no_rank() -> None:
    trick = _after_a_trick().round.tricks[0]
    forged: Any = "17"
    error = _refusal(lambda: attrs.evolve(trick, price_before=forged))
    assert "price_before" in str(error) and "needs a rank" in str(error)


def test_a_round_refuses_a_seat_the_game_does_not_have() -> None:
    round_ = _after_a_trick().round
    error = _refusal(lambda: attrs.evolve(round_, dealer=4))
    assert "names a seat a 4-seat round does not have" in str(error)


def test_a_round_refuses_a_negative_index() -> None:
    round_ = _after_a_trick().round
    error = _refusal(lambda: attrs.evolve(round_, index=-1))
    assert "round index of at least 0" in str(error)


def test_a_round_refuses_scores_that_are_not_one_per_seat() -> None:
    round_ = _after_a_trick().round
    error = _refusal(lambda: attrs.evolve(round_, scores=(1, 2)))
    assert error.field == "RoundState.scores"


def test_a_game_refuses_a_round_of_another_player_count() -> None:
    state = _after_a_trick(4)
    other = _after_a_trick(3).round
    error = _refusal(lambda: attrs.evolve(state, round=other))
    assert error.field == "GameState.round" and "needs a round of 4 seats" in str(error)


def test_a_game_refuses_totals_that_are_not_one_per_seat() -> None:
    state = _after_a_trick()
    error = _refusal(lambda: attrs.evolve(state, totals=(0, 0)))
    assert error.field == "GameState.totals"


def test_no_seat_acts_once_the_game_is_over() -> None:
    """The engine never asks who acts in a finished game; asked, the transitions say so."""
    state = _after_a_trick()
    round_ = state.round
    with pytest.raises(ValueError, match="no seat acts in the phase"):
        seat_actions(state.config, Phase.GAME_OVER, 0, round_.dealer, round_.hands[0], None,
                     (), 0)


def _game_over(players: int = 3) -> GameState:
    state = new_game(Config(players=players, rounds=1), seed=5)
    while state.phase is not Phase.GAME_OVER:
        state = apply(state, legal_actions(state)[0])
    return state


@pytest.mark.parametrize("winners", [(7,), (0, 3), (True,), (1.0,), ("0",)])
def test_a_finished_game_refuses_winners_that_are_not_its_seats(winners: Any) -> None:
    """Winners are seats: whole numbers of the game's seats (a number out of range, a bool, a
    float equal to a seat, a string are each refused)."""
    state = _game_over()
    error = _refusal(lambda: attrs.evolve(state, winners=winners))
    assert error.field == "GameState.winners"


def test_a_finished_game_takes_every_seat_as_winners_a_tie_of_all() -> None:
    state = _game_over()
    tied = attrs.evolve(state, winners=(0, 1, 2))
    assert tied.winners == (0, 1, 2)

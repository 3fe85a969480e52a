"""The state and view JSON formats (``formats/state_json.py``, ``formats/view_json.py``):
round trips, and the refusal of malformed documents with the JSON path."""

from __future__ import annotations

import pytest

from bottleimp import Config, apply, legal_actions, new_game
from bottleimp.errors import RecordError
from bottleimp.formats.state_json import dumps, loads, state_to_json, state_from_json


@pytest.mark.parametrize("first_dealer", [1, 2, 4])
def test_a_game_whose_first_dealer_is_not_seat_0_round_trips(first_dealer: int) -> None:
    """Rule FIRST-DEALER: any seat may deal first; the state's JSON names it in its first round
    (found by scripts/exhaustive.py: the reader used to start every game at seat 0)."""
    state = new_game(Config(players=5), seed=3, first_dealer=first_dealer)
    for _ in range(7):
        state = apply(state, legal_actions(state)[0])
    assert loads(dumps(state)) == state


def test_a_first_dealer_the_game_does_not_have_is_refused_at_its_path() -> None:
    data = state_to_json(new_game(Config(players=3), seed=3))
    data["rounds"][0]["dealer"] = 3  # type: ignore[index]
    with pytest.raises(RecordError, match=r"\$\.rounds\[0\]\.dealer"):
        state_from_json(data)

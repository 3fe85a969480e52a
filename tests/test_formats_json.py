"""The state and view JSON formats (``formats/state_json.py``, ``formats/view_json.py``):
round trips, and the refusal of malformed documents with the JSON path."""

from __future__ import annotations

import pytest

from bottleimp import Config, apply, legal_actions, new_game, with_deal
from bottleimp._errors import RecordError
from bottleimp.formats._state_json import (
    action_from_json,
    action_to_json,
    state_dumps as dumps,
    state_loads as loads,
    state_from_json,
    state_to_json,
)


@pytest.mark.parametrize("first_dealer", [1, 2, 4])
def test_a_game_whose_first_dealer_is_not_seat_0_round_trips(first_dealer: int) -> None:
    """Rule FIRST-DEALER: any seat may deal first; the state's JSON names it in its first round
    (a reader that starts every game at seat 0 fails it; scripts/exhaustive.py walks such games)."""
    state = new_game(Config(players=5), seed=3, first_dealer=first_dealer)
    for _ in range(7):
        state = apply(state, legal_actions(state)[0])
    assert loads(dumps(state)) == state


def test_a_first_dealer_the_game_does_not_have_is_refused_at_its_path() -> None:
    data = state_to_json(new_game(Config(players=3), seed=3))
    rounds = data["rounds"]
    assert isinstance(rounds, list) and isinstance(rounds[0], dict)
    rounds[0]["dealer"] = 3
    with pytest.raises(RecordError, match=r"\$\.rounds\[0\]\.dealer"):
        state_from_json(data)


# -- round trips over whole games of every variant ------------------------------------------

from collections.abc import Callable, Iterator  # noqa: E402

from bottleimp import GameState, Phase, StartRound, view  # noqa: E402
from bottleimp.formats._json_input import JSON  # noqa: E402
from bottleimp.formats._view_json import (  # noqa: E402
    VIEW_FORMAT,
    view_dumps,
    view_from_json,
    view_loads,
    view_to_json,
)

CONFIGS = {
    "2p-devils-eye": Config(players=2, rounds=2),
    "3p": Config(players=3, rounds=2),
    "4p-teams": Config(players=4, teams=((0, 2), (1, 3)), rounds=1),
    "5p-two-bottles": Config(players=5, bottles=2, rounds=1),
    "6p-half-ranks": Config(players=6, rounds=1),
}


def whole_game(config: Config, seed: int = 5) -> Iterator[GameState]:
    """Every state of one game, the last legal action at odd steps and the first at even ones
    (so bottles are bought and change hands)."""
    state = new_game(config, seed=seed)
    yield state
    step = 0
    while not state.is_over:
        actions = legal_actions(state)
        state = apply(state, actions[-1] if step % 2 else actions[0])
        step += 1
        yield state


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_every_state_and_every_view_of_a_game_round_trip(name: str) -> None:
    phases = set()
    states = list(whole_game(CONFIGS[name]))
    for state in states[::6] + states[-1:]:  # every sixth state (a trick's plays in turn), the end
        phases.add(state.phase)
        text = dumps(state)
        assert loads(text) == state and dumps(loads(text)) == text
        for seat in range(state.config.players):
            seen = view(state, seat)
            written = view_dumps(seen)
            assert view_loads(written) == seen
            assert view_dumps(view_loads(written)) == written
    assert {Phase.SETUP, Phase.PLAY, Phase.GAME_OVER} <= phases


def test_a_view_is_written_field_by_field() -> None:
    state = new_game(Config(players=3), seed=7)
    for _ in range(11):  # the setup and two plays
        state = apply(state, legal_actions(state)[0])
    data = view_to_json(view(state, 1))
    assert data["format"] == VIEW_FORMAT and data["seat"] == 1 and data["phase"] == "play"
    assert data["to_act"] == state.to_act and data["round_index"] == 0 and data["dealer"] == 0
    assert data["hand"] == [card.rank for card in state.round.hands[1]]
    assert data["face_up"] is None and data["devils_trick"] is None
    assert data["hand_sizes"] == [len(hand) for hand in state.round.hands]
    assert data["setup_given"] == [3, 3, 3] and data["devils_trick_size"] == 3
    assert data["bottles"] == [{"price_card": None, "owner": None}]
    assert data["scores"] is None and data["totals"] == [0, 0, 0]
    assert view_dumps(view(state, 1)) == json.dumps(data, separators=(",", ":"))


# -- malformed state documents -----------------------------------------------------------------

import json  # noqa: E402


def _played(config: Config, actions: int, seed: int = 5) -> GameState:
    state = new_game(config, seed=seed)
    for _ in range(actions):
        state = apply(state, legal_actions(state)[0])
    return state


def _edit_state(edit: Callable[[dict[str, JSON]], None], state: GameState) -> dict[str, JSON]:
    data = json.loads(dumps(state))
    edit(data)
    assert isinstance(data, dict)
    return data


def _list(data: dict[str, JSON], key: str) -> list[JSON]:
    value = data[key]
    assert isinstance(value, list)
    return value


def _round(data: dict[str, JSON], index: int) -> dict[str, JSON]:
    rounds = data["rounds"]
    assert isinstance(rounds, list)
    found = rounds[index]
    assert isinstance(found, dict)
    return found


def _action(data: dict[str, JSON], round_index: int, index: int) -> dict[str, JSON]:
    actions = _round(data, round_index)["actions"]
    assert isinstance(actions, list) and isinstance(actions[index], dict)
    return actions[index]  # type: ignore[return-value]


ROUND_OVER = _played(Config(players=3, rounds=2), 9 + 33)
"""A 3-player game at the end of its first round."""


STATE_FAULTS: list[tuple[str, Callable[[dict[str, JSON]], None], str, str | None]] = [
    ("wrong format", lambda d: d.update(format="bottleimp-state/0"), r"\$\.format", None),
    ("no rounds", lambda d: d.update(rounds=[]), r"\$\.rounds: a state has at least one round",
     None),
    ("a round after an unfinished round",
     lambda d: _list(_round(d, 0), "actions").clear(),
     r"\$\.rounds\[1\]: a round follows a round that has not ended", None),
    ("the wrong dealer of a later round", lambda d: _round(d, 1).update(dealer=2),
     r"\$\.rounds\[1\]", "DEALER-ROTATION"),
    ("an illegal play", lambda d: _action(d, 0, 9).update(seat=2),
     r"\$\.rounds\[0\]\.actions\[9\]", "TURN-ORDER"),
    ("an unknown action type", lambda d: _action(d, 0, 0).update(type="pass"),
     r"\$\.rounds\[0\]\.actions\[0\]\.type: unknown action type 'pass'", None),
    ("an unknown destination", lambda d: _action(d, 0, 0).update(to="away"),
     r"\$\.rounds\[0\]\.actions\[0\]\.to: unknown destination 'away'", None),
    ("a seat the game does not have", lambda d: _action(d, 0, 9).update(seat=3),
     r"\$\.rounds\[0\]\.actions\[9\]\.seat", None),
    ("a round's unknown key", lambda d: _round(d, 0).update(extra=1), r"\$\.rounds\[0\]", None),
]


@pytest.mark.parametrize("name, edit, where, rule_id", STATE_FAULTS,
                         ids=[fault[0] for fault in STATE_FAULTS])
def test_a_malformed_state_is_refused_at_its_path(
    name: str, edit: Callable[[dict[str, JSON]], None], where: str, rule_id: str | None
) -> None:
    state = apply(ROUND_OVER, legal_actions(ROUND_OVER)[0])
    with pytest.raises(RecordError, match=where) as refused:
        state_from_json(_edit_state(edit, state))
    assert refused.value.rule_id == rule_id
    with pytest.raises(RecordError, match=where):
        loads(json.dumps(_edit_state(edit, state)))


def test_a_start_of_round_action_round_trips() -> None:
    start = StartRound(1)
    assert action_to_json(start) == {"type": "start_round", "seat": 1}
    assert action_from_json({"type": "start_round", "seat": 1}, Config(players=3)) == start
    with pytest.raises(RecordError, match=r"\$\.seat"):
        action_from_json({"type": "start_round", "seat": 3}, Config(players=3))


# -- malformed view documents ------------------------------------------------------------------


def _view_data(state: GameState, seat: int = 0) -> dict[str, JSON]:
    return json.loads(view_dumps(view(state, seat)))  # type: ignore[no-any-return]


TWO_BOTTLES = _played(Config(players=5, bottles=2), 14 + 12)
"""A 5-player Second Bottle game two tricks and a play into trick play."""


def _set(key: str, value: JSON) -> Callable[[dict[str, JSON]], None]:
    return lambda data: data.update({key: value})


def _first_trick(data: dict[str, JSON]) -> dict[str, JSON]:
    tricks = data["tricks"]
    assert isinstance(tricks, list) and isinstance(tricks[0], dict)
    return tricks[0]


def _first_bottle(data: dict[str, JSON]) -> dict[str, JSON]:
    bottles = data["bottles"]
    assert isinstance(bottles, list) and isinstance(bottles[0], dict)
    return bottles[0]


def _drop_first(key: str) -> Callable[[dict[str, JSON]], None]:
    def edit(data: dict[str, JSON]) -> None:
        value = data[key]
        assert isinstance(value, list) and value
        value.pop(0)
    return edit


VIEW_FAULTS: list[tuple[str, Callable[[dict[str, JSON]], None], str]] = [
    ("wrong format", _set("format", "bottleimp-view/0"), r"\$\.format: expected 'bottleimp-view/1'"),
    ("unknown key", _set("extra", 1), r"\$"),
    ("unknown phase", _set("phase", "lunch"), r"\$\.phase: unknown phase 'lunch'"),
    ("a trick too many", lambda d: _list(d, "tricks").append(_first_trick(d)),
     r"\$\.tricks: 12 plays make 2 tricks"),
    ("a trick too few", _drop_first("tricks"), r"\$\.tricks: 12 plays make 2 tricks"),
    ("a give among the plays",
     lambda d: _list(d, "plays").__setitem__(
         0, {"type": "give", "seat": 1, "card": 3, "to": "left"}),
     r"\$\.plays\[0\]: expected a play"),
    ("a play among the setup gives",
     lambda d: _list(d, "my_setup").__setitem__(0, {"type": "play", "seat": 0, "card": 3}),
     r"\$\.my_setup\[0\]: expected a give"),
    ("a play among the cards received",
     lambda d: _list(d, "received").__setitem__(0, {"type": "play", "seat": 0, "card": 3}),
     r"\$\.received\[0\]: expected a give"),
    ("a bottle the game does not have", lambda d: _first_trick(d).update(bottle=2),
     r"\$\.tricks\[0\]\.bottle: expected an integer from 0 to 1"),
    ("a bottle with an unknown key", lambda d: _first_bottle(d).update(extra=1),
     r"\$\.bottles\[0\]"),
    ("an owner the game does not have", lambda d: _first_bottle(d).update(owner=5),
     r"\$\.bottles\[0\]\.owner: expected an integer from 0 to 4"),
    ("a price card not of the deck", lambda d: _first_bottle(d).update(price_card=99),
     r"\$\.bottles\[0\]\.price_card"),
    ("a trick's unknown key", lambda d: _first_trick(d).update(extra=1), r"\$\.tricks\[0\]"),
    ("a winner the game does not have", lambda d: _first_trick(d).update(winner=5),
     r"\$\.tricks\[0\]\.winner: expected an integer from 0 to 4"),
    ("a negative count", _set("round_index", -1), r"\$\.round_index: expected an integer from 0"),
    ("a seat the game does not have", _set("seat", 5), r"\$\.seat: expected an integer from 0 to 4"),
    ("a to_act the game does not have", _set("to_act", -1), r"\$\.to_act"),
    ("a score that is not an integer", _set("totals", [0, 0, 0, 0, "x"]), r"\$\.totals\[4\]"),
] + [
    (f"one {key} entry too few", _drop_first(key),
     rf"\$\.{key}: expected one entry per {'bottle' if key == 'bottles' else 'seat'}")
    for key in ("hand_sizes", "setup_given", "captured", "totals", "bottles")
]


@pytest.mark.parametrize("name, edit, where", VIEW_FAULTS,
                         ids=[fault[0] for fault in VIEW_FAULTS])
def test_a_malformed_view_is_refused_at_its_path(
    name: str, edit: Callable[[dict[str, JSON]], None], where: str
) -> None:
    data = _view_data(TWO_BOTTLES)
    assert view_from_json(data) == view(TWO_BOTTLES, 0)
    edit(data)
    with pytest.raises(RecordError, match=where):
        view_from_json(data)
    with pytest.raises(RecordError, match=where):
        view_loads(json.dumps(data))


def test_per_seat_lists_of_devils_eye_and_of_a_finished_round_are_checked() -> None:
    eye = _view_data(_played(Config(players=2), 8))
    _list(eye, "face_up").pop()
    with pytest.raises(RecordError, match=r"\$\.face_up: expected one entry per seat"):
        view_from_json(eye)
    over = _view_data(ROUND_OVER)
    _list(over, "scores").pop()
    with pytest.raises(RecordError, match=r"\$\.scores: expected one entry per seat"):
        view_from_json(over)


def test_not_json_is_refused_at_the_root() -> None:
    with pytest.raises(RecordError, match=r"\$: not JSON"):
        view_loads("{")


@pytest.mark.parametrize("value", [
    {"type": "start_round", "seat": 1, "extra": 0},
    {"type": "play", "seat": 1, "card": 3, "extra": 0},
    {"type": "give", "seat": 1, "card": 3, "to": "left", "extra": 0},
], ids=["start_round", "play", "give"])
def test_an_action_with_a_key_of_no_action_is_refused_at_it(value: dict[str, JSON]) -> None:
    with pytest.raises(RecordError, match=r"\$\.actions\[2\]\.extra: unknown key"):
        action_from_json(value, Config(players=3), "$.actions[2]")


def test_every_seat_of_the_game_and_no_other_is_read_in_an_action() -> None:
    config = Config(players=3)
    for seat in range(3):
        assert action_from_json({"type": "start_round", "seat": seat}, config) == StartRound(seat)
        give: dict[str, JSON] = {"type": "give", "seat": seat, "card": 3, "to": "left"}
        assert action_to_json(action_from_json(give, config)) == give
    kinds: list[dict[str, JSON]] = [{"type": "give", "card": 3, "to": "left"},
                                    {"type": "play", "card": 3}, {"type": "start_round"}]
    for kind in kinds:
        with pytest.raises(RecordError, match=r"\$\.seat: expected an integer from 0 to 2"):
            action_from_json({**kind, "seat": 3}, config)


def test_a_devils_eye_deal_that_changes_only_the_face_up_cards_round_trips() -> None:
    """The reader keeps the seed's deal only when hands and face-up cards are both the seed's."""
    game = new_game(Config(players=2), seed=5)
    face_up = game.round.dealt_face_up
    assert face_up is not None
    swapped = with_deal(game, game.round.dealt, (face_up[1], face_up[0]))
    assert swapped.round.dealt == game.round.dealt and swapped != game
    assert loads(dumps(swapped)) == swapped

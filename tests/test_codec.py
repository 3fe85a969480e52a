"""The lossless JSON codec of states and actions, and its errors with JSON paths."""

from __future__ import annotations

import json

import pytest

from bottleimp import (
    Config,
    Destination,
    GameState,
    Give,
    Phase,
    Play,
    RecordError,
    StartRound,
    apply,
    legal_actions,
    new_game,
)
from bottleimp.formats._state_json import (
    STATE_FORMAT,
    action_from_json,
    action_to_json,
    state_dumps as dumps,
    state_loads as loads,
    state_from_json,
    state_to_json,
)
from bottleimp._engine import with_deal
from helpers import card, deck, position


def advance(state: GameState, actions: int) -> GameState:
    for _ in range(actions):
        if state.is_over:
            break
        state = apply(state, legal_actions(state)[-1])
    return state


def round_trips(state: GameState) -> None:
    text = dumps(state)
    loaded = loads(text)
    assert loaded == state and hash(loaded) == hash(state)
    assert dumps(loaded) == text


@pytest.mark.parametrize(
    "config",
    [
        Config(players=2),
        Config(players=3, edition="matagot-2024"),
        Config(players=4, target_score=60),
        Config(players=5, edition="matagot-2024", bottles=2),
        Config(players=6, edition="matagot-2024", teams=((0, 1), (2,), (3, 5), (4,))),
    ],
    ids=["2p", "3p", "4p-target", "5p-two-bottles", "6p-teams"],
)
def test_every_phase_round_trips(config: Config) -> None:
    state = new_game(config, 2024)
    seen = set()
    for _ in range(1500):
        if state.phase not in seen or state.phase is Phase.ROUND_OVER:
            round_trips(state)
            seen.add(state.phase)
        if state.is_over:
            break
        state = advance(state, 7)
    round_trips(state)
    assert Phase.SETUP in seen and Phase.PLAY in seen


def test_a_replaced_deal_and_a_custom_deck_with_half_ranks_round_trip() -> None:
    cards = deck("2.5R1 4.5R2 17.5B3 30B4 31B4 5B2 2B1 32B6 16.5B2 1B1 3B2 4B1")
    config = Config(players=4, deck=cards)
    state = position(config, [[31, 32], [17.5, 16.5], [2.5, 5], [30, 2]])
    round_trips(state)
    written = json.loads(dumps(state))
    assert 2.5 in sum(written["rounds"][0]["hands"], []) and [17.5, 3] in [
        [c[0], c[2]] for c in written["config"]["deck"]
    ]
    round_trips(advance(state, 8))


def test_the_written_format() -> None:
    data = json.loads(dumps(new_game(Config(players=3), 5)))
    assert data["format"] == STATE_FORMAT == "bottleimp-state/1"
    assert data["seed"] == 5 and data["config"]["players"] == 3
    assert len(data["rounds"]) == 1 and data["rounds"][0]["actions"] == []


def test_actions_round_trip() -> None:
    config = Config(players=5, edition="matagot-2024")
    for action in (
        Play(3, card(config, 18.5)),
        Give(4, card(config, 2.5), Destination.LEFT),
        Give(0, card(config, 37), Destination.DEVILS_TRICK),
        StartRound(2),
    ):
        assert action_from_json(json.loads(json.dumps(action_to_json(action))), config) == action
    assert action_to_json(Play(3, card(config, 18.5))) == {"type": "play", "seat": 3, "card": 18.5}


def _record_error(text: str) -> RecordError:
    with pytest.raises(RecordError) as error:
        loads(text)
    return error.value


def test_not_json_is_a_record_error_at_the_root() -> None:
    assert _record_error("{not json").path == "$"


def test_faults_name_their_json_path() -> None:
    good = state_to_json(advance(new_game(Config(players=3), 5), 12))
    wrong_format = dict(good, format="bottleimp-state/9")
    assert _record_error(json.dumps(wrong_format)).path == "$.format"
    extra = dict(good, colour="red")
    assert _record_error(json.dumps(extra)).path == "$.colour"
    missing = {k: v for k, v in good.items() if k != "seed"}
    assert _record_error(json.dumps(missing)).path == "$.seed"
    no_rounds = dict(good, rounds=[])
    assert _record_error(json.dumps(no_rounds)).path == "$.rounds"
    bad_config = dict(good, config={"players": 9})
    assert _record_error(json.dumps(bad_config)).path == "$.config.players"


def test_an_illegal_action_in_a_state_is_refused_with_its_rule() -> None:
    state = advance(new_game(Config(players=3), 5), 12)
    data = json.loads(dumps(state))
    actions = data["rounds"][0]["actions"]
    actions[10], actions[11] = actions[11], actions[10]  # a play out of turn
    error = _record_error(json.dumps(data))
    assert error.path == "$.rounds[0].actions[10]"
    assert "TURN-ORDER" in error.message


def test_a_card_not_in_the_deck_is_refused_at_its_path() -> None:
    data = json.loads(dumps(advance(new_game(Config(players=3), 5), 2)))
    actions = data["rounds"][0]["actions"]
    actions[1] = {"type": "give", "seat": 1, "to": "left", "card": 19}
    error = _record_error(json.dumps(data))
    assert error.path == "$.rounds[0].actions[1].card" and "19" in error.message


def test_unknown_action_type_and_destination() -> None:
    config = Config(players=3)
    with pytest.raises(RecordError) as error:
        action_from_json({"type": "pass", "seat": 0}, config)
    assert error.value.path == "$.type"
    with pytest.raises(RecordError) as error:
        action_from_json({"type": "give", "seat": 0, "to": "up", "card": 1}, config)
    assert error.value.path == "$.to"
    with pytest.raises(RecordError) as error:
        action_from_json({"type": "play", "seat": 3, "card": 1}, config)
    assert error.value.path == "$.seat"


def test_state_from_json_equals_loads() -> None:
    state = advance(new_game(Config(players=2), 9), 30)
    assert state_from_json(state_to_json(state)) == state


def test_a_later_round_dealt_from_outside_round_trips() -> None:
    config = Config(players=3, rounds=3)
    state = new_game(config, 6)
    while state.phase is not Phase.ROUND_OVER:
        state = apply(state, legal_actions(state)[0])
    order = config.cards  # in rank order: a deal no shuffle would give
    dealt = with_deal(state, (order[0::3], order[1::3], order[2::3]))
    assert dealt.phase is Phase.SETUP and dealt.round.index == 1 and dealt.round.dealer == 1
    round_trips(dealt)
    round_trips(advance(dealt, 20))

"""The batch engine's protocol peer (``bottleimp.conformance.batch_peer``) on hostile requests,
against the reference (``conformance.protocol.Referee``, what ``--serve`` answers): the same
answers and the same refusal rules, in the protocol's order, on random and malformed requests;
``PROTOCOL`` with the JSON path for a case lacking an input key; ``UNSUPPORTED`` for a deck of
more coins than its integers hold; and a bounded number of engines kept, whatever the
requests."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bottleimp import Config, Give, Play, apply, legal_actions, new_game
from bottleimp.actions import Destination
from bottleimp.conformance.batch_peer import ENGINES_KEPT, MAX_DECK_COINS, BatchPeer
from bottleimp.conformance.protocol import PROTOCOL_V2, UNSUPPORTED, Referee
from bottleimp.conformance.vectors import CASE_INPUT_KEYS, same_json
from bottleimp.formats.json_input import JSON
from bottleimp.state import GameState

from depth import scaled

ROOT = Path(__file__).resolve().parent.parent
HELLO: dict[str, JSON] = {"op": "hello", "protocol": PROTOCOL_V2}
CONFIGS: list[dict[str, JSON]] = [
    {"players": 2, "edition": "classic"}, {"players": 3, "edition": "classic"},
    {"players": 4, "edition": "classic"}, {"players": 5, "edition": "matagot-2024"},
    {"players": 5, "edition": "matagot-2024", "bottles": 2},
    {"players": 6, "edition": "matagot-2024", "teams": [[0, 3], [1, 4], [2, 5]]},
]


def _sides() -> tuple[Referee, BatchPeer]:
    referee, peer = Referee(PROTOCOL_V2), BatchPeer()
    assert referee.handle(HELLO)["ok"] and peer.handle(HELLO)["ok"]
    return referee, peer


def _agree(referee: Referee, peer: BatchPeer, request: JSON) -> dict[str, JSON]:
    """Both sides' answers to ``request``: the same answer, or refusals of the same rule."""
    expected, actual = referee.handle(copy.deepcopy(request)), peer.handle(copy.deepcopy(request))
    where = json.dumps(request)[:300]
    if expected.get("ok") is False:
        assert actual.get("ok") is False and actual.get("rule") == expected["rule"], \
            f"{where}: the reference refuses with {expected}, the peer answers {actual}"
        assert isinstance(actual.get("error"), str)
    else:
        assert same_json(expected, actual), \
            f"{where}: the reference answers {expected}, the peer {actual}"
    return expected


def _deal(config: dict[str, JSON], seed: int) -> dict[str, JSON]:
    state = new_game(Config(**config), seed=seed)  # type: ignore[arg-type]
    request: dict[str, JSON] = {
        "op": "new_round", "config": config, "dealer": state.round.dealer,
        "hands": [[card.rank for card in hand] for hand in state.round.hands]}
    if state.round.face_up is not None:
        request["face_up"] = [[card.rank for card in row] for row in state.round.face_up]
    return request


# --- the findings, one by one ----------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(CASE_INPUT_KEYS))
def test_a_case_lacking_an_input_key_is_refused_with_protocol_and_its_path(kind: str) -> None:
    for key in sorted(CASE_INPUT_KEYS[kind][0]):
        inputs: dict[str, JSON] = {name: [] for name in CASE_INPUT_KEYS[kind][0] if name != key}
        config: JSON = CONFIGS[2]
        request: JSON = {"op": "case", "kind": kind, "config": config, "input": inputs}
        answer = BatchPeer().handle(request)
        assert answer["ok"] is False and answer["rule"] == "PROTOCOL"
        assert f"$.input.{key}: missing" in str(answer["error"])


def test_a_deck_of_more_coins_than_the_batch_engine_holds_is_unsupported_not_a_crash() -> None:
    referee, peer = _sides()
    request = _deal(CONFIGS[2], 1)
    state = new_game(Config(players=4, edition="classic"), seed=1)
    request["deck"] = [[card.rank, card.colour.value, 2**63 if index == 0 else card.coins]
                       for index, card in enumerate(state.config.cards)]
    assert referee.handle(request)["ok"] is True
    answer = peer.handle(request)
    assert answer["rule"] == UNSUPPORTED and f"at most {MAX_DECK_COINS} coins" in str(answer["error"])
    assert peer.handle({"op": "legal_plays"})["rule"] == "PROTOCOL"  # no round was begun
    case: JSON = {"op": "case", "kind": "scoring", "config": {**CONFIGS[2], "deck": request["deck"]},
            "input": {"captured": [[], [], [], []], "bottles": [{"price": 19, "owner": None}],
                      "devils_trick": []}}
    assert peer.handle(case)["rule"] == UNSUPPORTED


def test_a_setup_with_a_number_that_is_no_card_is_refused_for_its_seat_first() -> None:
    referee, peer = _sides()
    request = _deal(CONFIGS[2], 3)
    _agree(referee, peer, request)
    dealer = request["dealer"]
    assert isinstance(dealer, int)
    hands = request["hands"]
    assert isinstance(hands, list)
    own = hands[dealer]
    assert isinstance(own, list)
    # The dealer gives last: SETUP-ORDER, whatever the cards.
    answer = _agree(referee, peer, {"op": "setup", "seat": dealer, "discard": [999],
                                    "left": own[0], "right": own[1]})
    assert answer["rule"] == "SETUP-ORDER"
    answer = _agree(referee, peer, {"op": "setup", "seat": 7, "discard": [999],
                                    "left": 998, "right": 997})
    assert answer["rule"] == "SETUP-ORDER"


def test_the_peer_keeps_a_bounded_number_of_engines_however_many_decks_it_is_sent() -> None:
    peer = BatchPeer()
    peer.handle(HELLO)
    request = _deal(CONFIGS[2], 5)
    cards = new_game(Config(players=4, edition="classic"), seed=5).config.cards
    for coins in range(40):
        request["deck"] = [[card.rank, card.colour.value, card.coins + (coins if i == 0 else 0)]
                           for i, card in enumerate(cards)]
        assert peer.handle(request)["ok"] is True
        assert peer.engines <= ENGINES_KEPT
    assert peer.engines == ENGINES_KEPT


def test_the_peer_process_answers_hostile_cases_and_goes_on() -> None:
    lines = [HELLO,
             {"op": "case", "kind": "trick", "config": CONFIGS[2], "input": {"trick": []}},
             {"op": "case", "kind": "scoring", "config": CONFIGS[2], "input": {}},
             {"op": "quit"}]
    run = subprocess.run([sys.executable, "-m", "bottleimp.conformance.batch_peer"], cwd=ROOT,
                         input="".join(json.dumps(line) + "\n" for line in lines), text=True,
                         capture_output=True, timeout=60)
    answers = [json.loads(line) for line in run.stdout.splitlines()]
    assert run.returncode == 0 and run.stderr == ""
    assert [answer.get("rule") for answer in answers] == [None, "PROTOCOL", "PROTOCOL", None]
    assert "$.input.bottles: missing" in answers[1]["error"]


# --- fuzzing: random and malformed requests against the reference -----------------------------

def _cases() -> list[dict[str, JSON]]:
    """Every conformance case shipped, as a ``case`` request."""
    requests: list[dict[str, JSON]] = []
    for kind in sorted(CASE_INPUT_KEYS):
        for path in sorted((ROOT / "spec" / "conformance" / kind).glob("*.json")):
            document = json.loads(path.read_text(encoding="utf-8"))
            for group in document["groups"]:
                for case in group["cases"]:
                    requests.append({"op": "case", "kind": kind, "config": group["config"],
                                     "input": case["input"]})
    return requests


CASES = _cases()
ODD_CARDS: list[JSON] = [999, [999], 0.25, [0.25]]
ODD_VALUES = st.one_of(st.none(), st.booleans(), st.integers(-3, 60), st.sampled_from(
    [0.5, 12.5, 999, "x", [], {}, [[]], [None], [0, 999], [[0, 1]], {"price": 19}]))


def _paths(value: JSON, path: tuple[str | int, ...] = ()) -> list[tuple[str | int, ...]]:
    found = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*path, index))
    return found


def _mangled(value: JSON, draw: Any) -> JSON:
    """``value`` with one part dropped, replaced by an odd value or duplicated."""
    value = copy.deepcopy(value)
    paths = [path for path in _paths(value) if path]
    if not paths:
        return value
    path = draw(st.sampled_from(paths))
    parent: Any = value
    for key in path[:-1]:
        parent = parent[key]
    how = draw(st.sampled_from(["drop", "replace", "replace", "repeat"]))
    if how == "drop":
        del parent[path[-1]]
    elif how == "replace":
        parent[path[-1]] = draw(ODD_VALUES)
    elif isinstance(parent, list):
        parent.append(copy.deepcopy(parent[path[-1]]))
    return value


@settings(deadline=None, max_examples=scaled(ci=60, dev=20))
@given(st.data())
def test_fuzzed_cases_get_the_references_answers_and_refusals(data: st.DataObject) -> None:
    referee, peer = _sides()
    for _ in range(8):
        case = data.draw(st.sampled_from(CASES))
        if data.draw(st.booleans()):
            case = {**case, "input": _mangled(case["input"], data.draw)}
        _agree(referee, peer, case)


def _entry_requests(state: GameState) -> dict[str, JSON]:
    """The setup request of the seat to act: its first legal choice at each step."""
    seat, discard = state.to_act, list[JSON]()
    request: dict[str, JSON] = {"op": "setup", "seat": seat, "discard": discard}
    while state.to_act == seat and legal_actions(state):
        give = legal_actions(state)[0]
        if not isinstance(give, Give):
            break
        if give.to is Destination.DEVILS_TRICK:
            discard.append(give.card.rank)
        else:
            request[give.to.value] = give.card.rank
        state = apply(state, give)
    return request


@settings(deadline=None, max_examples=scaled(ci=60, dev=20))
@given(st.data(), st.sampled_from(CONFIGS), st.integers(0, 2**16))
def test_fuzzed_rounds_get_the_references_answers_and_refusals(
    data: st.DataObject, config: dict[str, JSON], seed: int,
) -> None:
    referee, peer = _sides()
    deal = _deal(config, seed)
    if data.draw(st.integers(0, 3)) == 0:
        deal = _mangled(deal, data.draw)  # type: ignore[assignment]
    _agree(referee, peer, deal)
    for _ in range(60):
        state = referee.state
        honest: list[dict[str, JSON]] = [{"op": "legal_plays"}, {"op": "scores"}]
        if state is not None and legal_actions(state):
            action = data.draw(st.sampled_from(legal_actions(state)))
            if isinstance(action, Play):
                honest += [{"op": "play", "seat": action.seat, "card": action.card.rank}] * 4
            else:
                honest += [_entry_requests(state)] * 4
                # Another seat's setup with a number that is no card: the seat's checks first.
                other = dict(_entry_requests(state), seat=data.draw(st.integers(-1, 6)))
                odd: JSON = data.draw(st.sampled_from(ODD_CARDS))
                other[data.draw(st.sampled_from(sorted(set(other) - {"op", "seat"})))] = odd
                honest.append(other)
        request: JSON = data.draw(st.sampled_from(honest))
        if data.draw(st.integers(0, 2)) == 0:
            request = _mangled(request, data.draw)
            if isinstance(request, dict) and data.draw(st.booleans()):
                request["seat"] = data.draw(st.integers(-1, 6))
        _agree(referee, peer, request)

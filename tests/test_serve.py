"""``bottleimp conformance --serve``, the library's side of ``bottleimp-protocol/3``
(spec/protocol.md): every request is refused in the documented order when it breaks several
checks at once; ``set_position`` needs the game a ``new_round`` starts and its accepted requests
match ``spec/protocol-set-position.schema.json``; hostile sequences of protocol-3 requests never
stop the server (every answer a JSON object, a malformed request ``PROTOCOL``); ``--serve`` does
not take ``--json``."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp import Config, apply, legal_actions, new_game
from bottleimp._actions import Give, Play
from bottleimp.cli import main
from bottleimp.conformance._protocol import set_position_request
from bottleimp.conformance._protocol import PROTOCOL, serve
from bottleimp.conformance._report import REPORT_FORMAT
from bottleimp.formats._config_json import config_to_json, deck_to_json
from bottleimp._state import GameState, Phase

SCHEMA = Draft202012Validator(json.loads(
    (Path(__file__).resolve().parent.parent / "spec" / "protocol-set-position.schema.json")
    .read_text(encoding="utf-8")))
SERVE = [sys.executable, "-m", "bottleimp", "conformance", "--serve"]
HELLO = {"op": "hello", "protocol": PROTOCOL}
Request = dict[str, Any]


def _position(state: GameState) -> Request:
    """The ``set_position`` request of ``state``'s round, as a plain dict to change."""
    request: Request = copy.deepcopy(set_position_request(state))
    return request


def _serve_process(requests: list[Request | str]) -> tuple[int, list[Any], str]:
    """``--serve`` in a process of its own: its exit status, its answers and its stderr."""
    lines = "".join((item if isinstance(item, str) else json.dumps(item)) + "\n"
                    for item in requests)
    done = subprocess.run(SERVE, input=lines, capture_output=True, text=True, timeout=120,
                          check=False)
    return done.returncode, [json.loads(line) for line in done.stdout.splitlines()], done.stderr


def _serve(lines: list[str]) -> tuple[int, list[Any]]:
    """What ``--serve`` runs (``serve``), in this process: its status and its answers."""
    out = io.StringIO()
    status = serve(io.BytesIO("".join(line + "\n" for line in lines).encode("utf-8",
                                                                           "surrogatepass")), out)
    return status, [json.loads(line) for line in out.getvalue().splitlines()]


def _new_round(state: GameState, **config: Any) -> Request:
    """The ``new_round`` that deals ``state``'s round (its configuration with ``config``)."""
    return {"op": "new_round", "config": {**config_to_json(state.config), **config},
            "dealer": state.round.dealer,
            "hands": [[card.rank for card in hand] for hand in state.round.dealt],
            "face_up": None if state.round.dealt_face_up is None
            else [[card.rank for card in row] for row in state.round.dealt_face_up]}


def _played(config: Config, actions: int, seed: int = 5) -> GameState:
    state = new_game(config, seed=seed)
    for _ in range(actions):
        state = apply(state, legal_actions(state)[0])
    return state


def _round_over(config: Config, seed: int = 1) -> GameState:
    state = new_game(config, seed=seed)
    while state.round.scores is None:
        state = apply(state, legal_actions(state)[0])
    return state


# --- set_position needs its game (a hostile stdin killed the server) -------------------------


def test_set_position_before_any_new_round_is_protocol_and_the_server_goes_on() -> None:
    over = _round_over(Config(players=3, target_score=30))
    status, answers, stderr = _serve_process([
        HELLO, _position(over), {"op": "end_round"},
        _new_round(over), {"op": "legal_plays"}, {"op": "quit"}])
    assert status == 0, stderr
    assert [answer.get("rule") for answer in answers[1:3]] == ["PROTOCOL", "PROTOCOL"]
    assert "before any new_round" in answers[1]["error"]
    assert answers[3] == {"ok": True, "dealer": 0, "to_act": 1}
    assert answers[4]["rule"] == "PHASE" and answers[5] == {"ok": True}


def test_set_position_of_another_configuration_than_the_game_is_protocol() -> None:
    three = _round_over(Config(players=3))
    four = _round_over(Config(players=4))
    status, answers = _serve([json.dumps(r) for r in (
        HELLO, _new_round(three), _position(four), {"op": "end_round"})])
    assert status == 0
    assert answers[2]["rule"] == "PROTOCOL" and "configuration" in answers[2]["error"]
    assert answers[3]["rule"] == "ROUND-END"  # still the game's own round, just dealt


@pytest.mark.parametrize("target", [1, 1000])
def test_end_round_after_set_position_counts_the_games_totals_against_its_target(
        target: int) -> None:
    over = _round_over(Config(players=4, target_score=target), seed=2)
    assert over.round.scores is not None
    status, answers = _serve([json.dumps(r) for r in (
        HELLO, _new_round(over), _position(over), {"op": "end_round"})])
    reached = max(over.round.scores) >= target
    assert status == 0 and answers[2] == {"ok": True, "to_act": None}
    assert answers[3] == {"ok": True, "game_over": reached,
                          "dealer": None if reached else 1}


# --- --serve and --json --------------------------------------------------------------------


def test_serve_refuses_json_with_exit_2_and_the_reports_error_object(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["conformance", "--serve", "--json"])
    assert exit_.value.code == 2
    out = json.loads(capsys.readouterr().out)
    assert out["format"] == REPORT_FORMAT and out["mode"] == "error"
    assert out["exit_status"] == 2 and "--json" in out["error"]


# --- the refusal order ---------------------------------------------------------------------

DEAL = new_game(Config(players=4), seed=5)
"""The round every order check starts from: 4 players, classic, seat 0 deals, seat 1 first."""

Mutation = Callable[[Request], None]


def _config(key: str, value: Any) -> Mutation:
    def mutate(request: Request) -> None:
        request["config"][key] = value
    return mutate


def _set(key: str, value: Any) -> Mutation:
    def mutate(request: Request) -> None:
        request[key] = value
    return mutate


def _malformed_hand(request: Request) -> None:
    request["hands"][2][0] = "x"


def _doubled_card(request: Request) -> None:
    request["hands"][0][0] = request["hands"][3][0]


def _no_dealer_in_round_1(request: Request) -> None:
    del request["dealer"]
    request["round"] = 1


NEW_ROUND_ORDER: list[tuple[str, Mutation, str]] = [
    ("a malformed hand", _malformed_hand, "PROTOCOL"),
    ("7 players", _config("players", 7), "CONFIG-PLAYERS"),
    ("an unknown edition", _config("edition", "nope"), "CONFIG-EDITION"),
    ("3 bottles", _config("bottles", 3), "CONFIG-BOTTLES"),
    ("a team of four", _config("teams", [[0, 1, 2, 3]]), "CONFIG-TEAMS"),
    ("rounds 0", _config("rounds", 0), "CONFIG-GAME-END"),
    ("a deck with 19", _set("deck", deck_to_json(DEAL.config.cards) + [[19, "red", 1]]),
     "CONFIG-DECK"),
    ("a dealer that is no seat", _set("dealer", 9), "PROTOCOL"),
    ("a later round with no dealer and no end_round", _no_dealer_in_round_1, "PROTOCOL"),
    ("a card dealt twice", _doubled_card, "DEAL-COUNTS"),
]
"""The checks of ``new_round`` in the documented order, each with a request breaking it."""

NEW_ROUND_PAIRS = [
    (first, second) for i, first in enumerate(NEW_ROUND_ORDER)
    for second in NEW_ROUND_ORDER[i + 1:]
    if {first[0], second[0]} != {"a dealer that is no seat",
                                  "a later round with no dealer and no end_round"}]


def _breaking(*mutations: Mutation) -> Request:
    request = copy.deepcopy(_new_round(DEAL))
    for mutation in reversed(mutations):
        mutation(request)
    return request


def _setup(seat: int, state: GameState = DEAL, **changes: Any) -> Request:
    """Seat ``seat``'s setup of its three lowest dealt cards (a seat the game lacks: those of
    another seat), with ``changes`` (None: drop)."""
    dealt = [card.rank for card in state.round.dealt[seat % len(state.round.dealt)]]
    request: Request = {"op": "setup", "seat": seat, "discard": [dealt[0]], "left": dealt[1],
                        "right": dealt[2]}
    for key, value in changes.items():
        if value is None:
            del request[key]
        else:
            request[key] = value
    return request


def _setups_done() -> GameState:
    state = DEAL
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[0])
    return state


PLAYING = _setups_done()


def _setup_requests() -> list[Request]:
    """The setups that take ``DEAL`` to ``PLAYING``, one request per seat in turn."""
    requests = []
    state = DEAL
    while state.phase is Phase.SETUP:
        seat = state.to_act
        gives: list[Give] = []
        while state.phase is Phase.SETUP and state.to_act == seat:
            action = legal_actions(state)[0]
            assert isinstance(action, Give)
            gives.append(action)
            state = apply(state, action)
        requests.append({"op": "setup", "seat": seat, "discard": [gives[0].card.rank],
                         "left": gives[1].card.rank, "right": gives[2].card.rank})
    return requests


def _follow_suit_break() -> tuple[list[Request], Request, Request]:
    """A trick's lead, then for the next seat a card it holds that does not follow though it
    could, and a card of another colour it does not hold."""
    state = PLAYING
    lead = legal_actions(state)[0]
    assert isinstance(lead, Play)
    after = apply(state, lead)
    seat = after.to_act
    assert seat is not None
    allowed = {action.card for action in legal_actions(after) if isinstance(action, Play)}
    off_suit = next(card for card in after.round.hands[seat] if card not in allowed)
    not_held = next(card for card in after.config.cards
                    if card.colour is not lead.card.colour
                    and card not in after.round.hands[seat])
    play = {"op": "play", "seat": lead.seat, "card": lead.card.rank}
    return [play], {"op": "play", "seat": seat, "card": off_suit.rank}, \
        {"op": "play", "seat": seat, "card": not_held.rank}


def _order_cases() -> list[tuple[str, list[Request], Request, str]]:
    """(what is broken, the requests before, the request, the rule the first check names)."""
    start = [HELLO, _new_round(DEAL)]
    setups = _setup_requests()
    playing = start + setups
    first = PLAYING.to_act
    assert first is not None
    other = (first + 1) % 4
    held_by_other = PLAYING.round.hands[other][0].rank
    lead, off_suit, not_held = _follow_suit_break()
    broken_state = _position(PLAYING)
    broken_state["state"]["rounds"][0]["actions"][0]["seat"] = 3  # seat 3 gives out of turn
    cases: list[tuple[str, list[Request], Request, str]] = [
        # before any new_round: the round requests are PROTOCOL whatever else they break
        ("setup from no seat, before any new_round", [HELLO], _setup(9), "PROTOCOL"),
        ("end_round before any new_round", [HELLO], {"op": "end_round"}, "PROTOCOL"),
        ("set_position of a state breaking SETUP-ORDER, before any new_round", [HELLO],
         broken_state, "PROTOCOL"),
        ("hello with an unknown key and an unknown version", [],
         {"op": "hello", "protocol": "x", "extra": 1}, "PROTOCOL"),
    ]
    for (name_a, mutate_a, rule_a), (name_b, mutate_b, _) in NEW_ROUND_PAIRS:
        cases.append((f"new_round: {name_a} and {name_b}", [HELLO],
                      _breaking(mutate_a, mutate_b), rule_a))
    cases += [
        # setup: shape, PHASE, no seat, already given, not its turn, a part, parts missing
        ("setup: a malformed card, during trick play", playing, _setup(9, discard=["x"]),
         "PROTOCOL"),
        ("setup: during trick play, from no seat", playing, _setup(9), "PHASE"),
        ("setup: no seat, parts missing", start, _setup(9, right=None), "SETUP-ORDER"),
        ("setup: given already, not its turn, a card not dealt", start + setups[:1],
         _setup(1, left=held_by_other), "SETUP-STEPS"),
        ("setup: not its turn, a card not dealt, parts missing", start,
         _setup(2, left=DEAL.round.dealt[3][0].rank, right=None), "SETUP-ORDER"),
        ("setup: a card not dealt, parts missing", start,
         _setup(1, left=DEAL.round.dealt[3][0].rank, right=None), "SETUP-FROM-DEALT"),
        ("setup: a part of the other variant, a card not dealt", start,
         _setup(1, to_hidden=DEAL.round.dealt[3][0].rank), "SETUP-STEPS"),
        ("setup: parts missing", start, _setup(1, right=None), "SETUP-STEPS"),
        # play: shape, PHASE, TURN-ORDER, CARD-HELD, FOLLOW-SUIT
        ("play: a malformed card during the setup", start,
         {"op": "play", "seat": 1, "card": "x"}, "PROTOCOL"),
        ("play: during the setup, from no seat, no card", start,
         {"op": "play", "seat": 9, "card": 999}, "PHASE"),
        ("play: not its turn, a card it does not hold", playing,
         {"op": "play", "seat": other, "card": PLAYING.round.hands[first][0].rank},
         "TURN-ORDER"),
        ("play: not its turn, no card of the deck", playing,
         {"op": "play", "seat": other, "card": 999}, "TURN-ORDER"),
        ("play: from no seat", playing, {"op": "play", "seat": 9, "card": 999}, "TURN-ORDER"),
        ("play: no card of the deck", playing, {"op": "play", "seat": first, "card": 999},
         "CARD-HELD"),
        ("play: a card not held, not following", playing + lead, not_held, "CARD-HELD"),
        ("play: a card held, not following", playing + lead, off_suit, "FOLLOW-SUIT"),
        # the questions: shape, then their rule
        ("legal_plays: an unknown key, during the setup", start,
         {"op": "legal_plays", "seat": 1}, "PROTOCOL"),
        ("legal_plays: during the setup", start, {"op": "legal_plays"}, "PHASE"),
        ("scores: an unknown key, cards remain", playing, {"op": "scores", "x": 1}, "PROTOCOL"),
        ("scores: cards remain", playing, {"op": "scores"}, "ROUND-END"),
        ("end_round: an unknown key, cards remain", playing, {"op": "end_round", "x": 1},
         "PROTOCOL"),
        ("end_round: cards remain", playing, {"op": "end_round"}, "ROUND-END"),
        # set_position: shape, no game, the state's rule, its configuration, the zones
        ("set_position: a state that is no object", start,
         {**_position(PLAYING), "state": []}, "PROTOCOL"),
        ("set_position: a state breaking SETUP-ORDER and zones that differ", start,
         {**broken_state, "position": {"phase": "play"}}, "SETUP-ORDER"),
        ("set_position: a state of another game's configuration", start,
         _position(_played(Config(players=3), 3)), "PROTOCOL"),
        ("set_position: zones the state does not reach", start,
         {**_position(PLAYING), "position": {"phase": "play"}}, "PROTOCOL"),
    ]
    return cases


ORDER_CASES = _order_cases()


def test_serve_refuses_a_request_that_breaks_several_checks_by_the_first_documented_one() -> None:
    # One --serve process answers every case: each starts with hello (and new_round).
    stream: list[Request | str] = []
    asked: list[tuple[int, str, str]] = []
    for name, before, request, rule in ORDER_CASES:
        stream.extend(before)
        asked.append((len(stream), name, rule))
        stream.append(request)
        stream.append({"op": "hello", "protocol": "bottleimp-protocol/0"})  # refused: a reset marker
    status, answers, stderr = _serve_process(stream)
    assert status == 0, stderr
    assert len(answers) == len(stream)
    wrong = [(name, rule, answers[at]) for at, name, rule in asked
             if answers[at].get("rule") != rule]
    assert not wrong, "\n".join(f"{name}: expected {rule}, got {answer}"
                                for name, rule, answer in wrong)
    # Every request before a case was accepted, so each case is asked in the state it names.
    refused_before = [index for index, answer in enumerate(answers)
                      if answer.get("ok") is False
                      and index not in {at for at, _, _ in asked}
                      and stream[index] != {"op": "hello", "protocol": "bottleimp-protocol/0"}]
    assert not refused_before, [stream[index] for index in refused_before]


# --- the set_position schema ---------------------------------------------------------------


def _schema_errors(instance: Any) -> list[str]:
    return [f"{error.json_path}: {error.message}" for error in SCHEMA.iter_errors(instance)]


POSITIONS = [
    (Config(players=4), 0), (Config(players=4), 6), (Config(players=4), 30),
    (Config(players=2), 14), (Config(players=5, edition="matagot-2024"), 40),
    (Config(players=6, edition="matagot-2024", bottles=2), 50),
    (Config(players=4, teams=((0, 2), (1, 3)), target_score=50), 20),
]


@pytest.mark.parametrize(("config", "actions"), POSITIONS)
def test_every_set_position_serve_accepts_matches_the_schema_and_so_does_its_answer(
        config: Config, actions: int) -> None:
    state = _played(config, actions)
    request = _position(state)
    status, answers = _serve([json.dumps(r) for r in (HELLO, _new_round(state), request)])
    assert status == 0 and answers[2]["ok"] is True, answers[2]
    assert _schema_errors(request) == [] and _schema_errors(answers[2]) == []


def test_the_set_position_schema_refuses_a_position_without_its_zones_or_with_a_bad_colour(
) -> None:
    request = _position(_played(Config(players=4), 10))
    assert _schema_errors(request) == []
    no_captured = copy.deepcopy(request)
    del no_captured["position"]["captured"]
    assert _schema_errors(no_captured)
    purple = copy.deepcopy(request)
    purple["position"]["deck"][0][1] = "purple"
    assert _schema_errors(purple)
    Draft202012Validator.check_schema(SCHEMA.schema)


# --- hostile sequences of protocol-3 requests ----------------------------------------------

TARGET = Config(players=3, target_score=30)
_SAMPLES = [_played(Config(players=3), 0), _played(Config(players=3), 20), _played(TARGET, 5),
            _round_over(TARGET), _round_over(TARGET, seed=2), _round_over(Config(players=4)),
            _played(Config(players=2), 12)]
"""Rounds in every phase, some of a game played to a target score, some over."""

MALFORMED = [
    "not json", "[]", "17", "null", '"hello"', "{}", '{"op": 7}', '{"op": "nope"}',
    '{"op": "setup", "seat": "one", "discard": []}', '{"op": "play", "seat": 0}',
    '{"op": "new_round", "config": {}, "hands": []}', '{"op": "set_position"}',
    '{"op": "set_position", "state": 1, "position": 2}', '{"op": "end_round", "x": 1}',
    "[" * 200 + "]" * 200, '{"op": "hello", "protocol": 3}', "\udcff",
]
"""Lines that are no request of the protocol: each is refused with rule PROTOCOL."""


def _valid_requests() -> dict[str, list[Request]]:
    """Requests of every protocol-3 op, by op, each valid in some state."""
    by_op: dict[str, list[Request]] = {
        "hello": [HELLO],
        "legal_plays": [{"op": "legal_plays"}], "scores": [{"op": "scores"}],
        "end_round": [{"op": "end_round"}], "new_round": [], "set_position": [], "play": [],
        "setup": [_setup(seat) for seat in range(4)],
        "case": [{"op": "case", "kind": "trick", "config": {"players": 4},
                  "input": {"bottles": [{"price": 19, "owner": None}],
                            "trick": [[1, 24], [2, 15], [3, 17], [0, 32]]}}],
    }
    for state in _SAMPLES:
        by_op["new_round"].append(_new_round(state))
        by_op["new_round"].append(_new_round(state, target_score=30, rounds=None))
        by_op["new_round"].append({**_new_round(state), "round": 1})
        without = _new_round(state)
        del without["dealer"]
        by_op["new_round"].append({**without, "round": 1})
        by_op["set_position"].append(_position(state))
        for action in legal_actions(state)[:2]:
            if isinstance(action, Play):
                by_op["play"].append({"op": "play", "seat": action.seat, "card": action.card.rank})
    return by_op


VALID = _valid_requests()


@st.composite
def _line(draw: st.DrawFn) -> tuple[str, bool]:
    """A line for ``--serve``, and whether it is malformed (no request of the protocol): an op
    drawn first, each as likely as the others, then one of its requests, perhaps with a key's
    value replaced by one of another type or out of range."""
    op = draw(st.sampled_from(sorted(VALID) + ["malformed"]))
    if op == "malformed":
        return draw(st.sampled_from(MALFORMED)), True
    request = copy.deepcopy(draw(st.sampled_from(VALID[op])))
    if op != "hello" and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(request)))
        if key != "op":
            request[key] = draw(st.sampled_from([None, -1, 10**30, "x", [], {}, 2.5, True]))
    return json.dumps(request), False


@example([(json.dumps(HELLO), False),
          (json.dumps(_position(_round_over(TARGET))), False),
          (json.dumps({"op": "end_round"}), False)])
@given(st.lists(_line(), min_size=1, max_size=25))
def test_serve_answers_every_hostile_protocol_3_sequence_with_one_object_per_line(
        lines: list[tuple[str, bool]]) -> None:
    status, answers = _serve([line for line, _ in lines])
    assert status == 0
    assert len(answers) == len(lines)
    for (line, malformed), answer in zip(lines, answers):
        assert isinstance(answer, dict) and isinstance(answer.get("ok"), bool), (line, answer)
        if answer["ok"] is False:
            assert isinstance(answer.get("error"), str) and isinstance(answer.get("rule"), str)
        if malformed:
            assert answer == {"ok": False, "error": answer["error"], "rule": "PROTOCOL"}, line


# --- the session spec/protocol.md shows ------------------------------------------------------

PROTOCOL_DOC = Path(__file__).resolve().parent.parent / "spec" / "protocol.md"


def _documented_session() -> list[tuple[str, str]]:
    """The requests and answers of spec/protocol.md's session (``> request``, ``< answer``)."""
    text = PROTOCOL_DOC.read_text(encoding="utf-8")
    block = text[text.index("## A session with `--serve`"):]
    block = block[block.index("```text\n") + len("```text\n"):]
    lines = block[:block.index("```")].splitlines()
    requests = [line[2:] for line in lines if line.startswith("> ")]
    answers = [line[2:] for line in lines if line.startswith("< ")]
    assert len(requests) == len(answers) == len(lines) // 2
    return list(zip(requests, answers))


def test_the_session_in_the_protocol_document_is_what_serve_answers() -> None:
    session = _documented_session()
    status, answers, stderr = _serve_process([request for request, _ in session])
    assert status == 0, stderr
    assert answers == [json.loads(answer) for _, answer in session]


def test_the_conformance_help_names_the_current_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["conformance", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert f"over {PROTOCOL}" in text and f"answer {PROTOCOL} requests" in text

"""The typed boundary and hostile input: each finding of a fuzzing campaign as a
regression test. Values of the wrong type are refused when an action is built; JSON from any
entry point goes through the one hardened reader; the command line survives deep folders,
absurd ``--jobs`` and any output encoding."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import bottleimp
from bottleimp import (
    BottleImpError,
    Card,
    Colour,
    Config,
    Destination,
    Give,
    IllegalActionError,
    Play,
    RecordError,
    StartRound,
    apply,
    legal_actions,
    new_game,
    view,
)
from bottleimp.cli import main
from bottleimp.conformance._protocol import serve
from bottleimp._errors import ArgumentError
from bottleimp.formats import _state_json as state_json
from bottleimp.formats._json_input import MAX_NESTING, check_json_value, loads_json
from bottleimp.validation import UNREADABLE, validate_json

from games import doc_of, random_game


class _LooksLikeACard:
    """An object that compares equal to every card and hashes like one: a forged card."""

    def __init__(self, card: Card) -> None:
        self.card = card
        self.rank, self.colour, self.coins = card.rank, card.colour, 1000

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return hash(self.card)


def _playing_state() -> bottleimp.GameState:
    state = new_game(Config(players=3), seed=4)
    while state.phase is not bottleimp.Phase.PLAY:
        state = apply(state, legal_actions(state)[0])
    return state


def test_a_play_of_a_forged_card_is_refused_when_it_is_built_CARD_HELD() -> None:
    state = _playing_state()
    seat = state.to_act
    assert seat is not None
    real = state.round.hands[seat][0]
    with pytest.raises(ArgumentError, match="Play.card"):
        Play(seat, _LooksLikeACard(real))  # type: ignore[arg-type]
    # and a genuine card the seat does not hold is refused by the rules, state unchanged
    other = next(card for card in state.config.cards if card not in state.round.hands[seat])
    with pytest.raises(IllegalActionError) as error:
        apply(state, Play(seat, other))
    assert error.value.rule_id in ("CARD-HELD", "FOLLOW-SUIT")


def test_a_give_of_a_forged_card_or_a_string_destination_is_refused_SETUP_FROM_DEALT() -> None:
    state = new_game(Config(players=4), seed=1)
    seat = state.to_act
    assert seat is not None
    real = state.round.hands[seat][0]
    with pytest.raises(ArgumentError, match="Give.card"):
        Give(seat, _LooksLikeACard(real), Destination.DEVILS_TRICK)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="Give.to"):
        Give(seat, real, "left")  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", [True, 1.0, "1", None])
def test_a_seat_that_is_not_an_int_is_refused_for_every_action_TURN_ORDER(seat: object) -> None:
    card = Config().cards[0]
    for build in (lambda: Play(seat, card),
                  lambda: StartRound(seat),
                  lambda: Give(seat, card, Destination.LEFT)):
        with pytest.raises(ArgumentError) as error:
            build()
        assert error.value.field.endswith(".seat") and isinstance(error.value, BottleImpError)


def test_a_view_of_a_seat_the_game_does_not_have_is_a_library_error_VIEW_HIDDEN() -> None:
    state = new_game(Config(players=4), seed=1)
    for seat in (9, -1, 4):
        with pytest.raises(ArgumentError):
            view(state, seat)


def test_config_card_finds_the_decks_cards_and_never_invents_one_DECK() -> None:
    config = Config(players=5)
    assert config.card(2.5) == Card(2.5, Colour.RED, 1)
    assert config.card(17.0) == config.card(17)
    for rank in (19, 99, 2.25, "3", None):
        with pytest.raises(ArgumentError):
            config.card(rank)  # type: ignore[arg-type]


def test_the_protocol_never_invents_a_card_for_an_unknown_rank_CARD_HELD() -> None:
    state = new_game(Config(players=3), seed=2, first_dealer=1)
    hands = [[card.rank for card in hand] for hand in state.round.hands]
    requests = [
        {"op": "hello", "protocol": "bottleimp-protocol/3"},
        {"op": "new_round", "config": {"players": 3}, "dealer": 1, "hands": hands},
        {"op": "setup", "seat": 2, "discard": [77], "left": hands[2][1], "right": hands[2][2]},
    ]
    answers = _serve("\n".join(json.dumps(r) for r in requests) + "\n")
    assert answers[2] == {"ok": False, "rule": "SETUP-FROM-DEALT",
                          "error": answers[2]["error"]}


def test_validate_json_of_a_python_value_nested_5000_deep_is_unreadable_not_a_crash() -> None:
    teams: object = 0
    for _ in range(5000):
        teams = [teams]
    value: Any = {"format": "bottleimp-record/1", "config": {"players": 4, "teams": teams},
                  "rounds": []}
    report = validate_json(value)
    assert report.status == UNREADABLE
    assert "nest" in report.errors[0].message


def test_check_json_value_holds_python_values_to_the_readers_limits() -> None:
    check_json_value({"a": [1, 2.5, None, True, "x"]})
    deep: object = []
    for _ in range(MAX_NESTING + 1):
        deep = [deep]
    for bad in (deep, {"a": float("nan")}, {"a": 10**200}, {1: 2}, {"a": object()}):
        with pytest.raises(RecordError):
            check_json_value(bad)


@pytest.mark.parametrize("text", ["[" * 100_000 + "]" * 100_000, "[" + "7" * 5000 + "]",
                                  '{"format": NaN}', "not json"])
def test_state_json_reads_hostile_text_with_a_record_error(text: str) -> None:
    with pytest.raises(RecordError):
        state_json.state_loads(text)
    with pytest.raises(RecordError):
        loads_json(text)


def _serve(text: str) -> list[dict[str, object]]:
    import io

    out = io.StringIO()
    assert serve(io.StringIO(text), out) == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("line", ["not json", "[" * 100_000, "[" + "9" * 5000 + "]",
                                  '{"op": "hello", "protocol": NaN}'])
def test_the_protocol_server_answers_a_hostile_first_line_with_a_protocol_refusal(line: str) -> None:
    answers = _serve(line + '\n{"op": "hello", "protocol": "bottleimp-protocol/3"}\n')
    assert answers[0]["ok"] is False and answers[0]["rule"] == "PROTOCOL"
    assert answers[1]["ok"] is True  # and it goes on serving


def test_validate_walks_a_folder_tree_1000_deep_without_recursion(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path
    for _ in range(1000):
        folder = folder / "d"
        try:
            folder.mkdir()
        except OSError:  # the file system's own path limit
            break
    (folder / "game.json").write_text(json.dumps(doc_of(random_game(Config(players=3), 1))))
    try:
        assert len(folder.relative_to(tmp_path).parts) >= 900
        assert main(["validate", str(tmp_path)]) == 0
        assert ": valid" in capsys.readouterr().out
    finally:
        # Removed from the bottom up: pytest's own clean-up of old temporary folders recurses.
        (folder / "game.json").unlink()
        while folder != tmp_path:
            folder.rmdir()
            folder = folder.parent


def test_validate_jobs_is_capped_at_the_cores_and_the_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    for seed in range(3):
        (tmp_path / f"g{seed}.json").write_text(json.dumps(doc_of(random_game(Config(players=3), seed))))
    import concurrent.futures

    started: list[int] = []
    real = concurrent.futures.ProcessPoolExecutor.__init__

    def spy(self: Any, max_workers: int | None = None, *args: Any, **kwargs: Any) -> None:
        started.append(max_workers or 0)
        real(self, max_workers, *args, **kwargs)

    monkeypatch.setattr(concurrent.futures.ProcessPoolExecutor, "__init__", spy)
    assert main(["validate", "--jobs", "300", str(tmp_path)]) == 0
    assert all(workers <= min(3, os.cpu_count() or 1) for workers in started)
    assert capsys.readouterr().out.count(": valid") == 3


def test_text_reports_survive_an_ascii_only_output(tmp_path: Path) -> None:
    record = tmp_path / "réponse.json"
    doc = doc_of(random_game(Config(players=3), 1))
    doc["config"]["edition"] = "clássico"
    record.write_text(json.dumps(doc), encoding="utf-8")
    env = dict(os.environ, PYTHONIOENCODING="ascii")
    done = subprocess.run([sys.executable, "-m", "bottleimp", "validate", str(record)],
                          capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert "CONFIG-EDITION" in done.stdout and "\\xe9" in done.stdout

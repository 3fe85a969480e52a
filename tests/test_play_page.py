"""The Python side of the page "Play a game" (``docs/play/session.py``), in CPython: the reader
clicks cards, the bots answer, the rules refuse what they forbid, and the record at the end is
a valid game, in every variant. (``tests/test_docs_site.py`` plays one in a real browser, in
Pyodide.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bottleimp.validation import validate_json
from helpers import load_module

SESSION = Path(__file__).resolve().parents[1] / "docs" / "play" / "session.py"


play = load_module("bottleimp_play_session", SESSION)


def _play_to_the_end(options: list[str]) -> tuple[Any, dict[str, Any], list[dict[str, Any]]]:
    """Start a game, click the first legal card (or deal) until the end, and click an illegal
    card whenever one is offered; the session, the last answer and the refusals."""
    session = play.Session()
    shown = json.loads(session.start(json.dumps(options)))
    refusals: list[dict[str, Any]] = []
    for _ in range(2000):
        if shown["over"]:
            break
        if shown["deal_next"]:
            shown = json.loads(session.next_round())
            continue
        illegal = [card for card in shown["cards"] if not card["legal"]]
        if illegal and len(refusals) < 3:
            refused = json.loads(session.choose(illegal[0]["rank"]))["refused"]
            refusals.append(refused)
        legal = [card for card in shown["cards"] if card["legal"]]
        assert legal, shown["prompt"]
        shown = json.loads(session.choose(legal[0]["rank"]))
    return session, shown, refusals


@pytest.mark.parametrize("options", [
    ["--players", "2", "--rounds", "1"],
    ["--players", "4", "--rounds", "1", "--teams", "--bot", "random"],
    ["--players", "5", "--bottles", "2", "--rounds", "1", "--edition", "matagot-2024"],
])
def test_a_game_through_the_page_session_is_a_valid_record(options: list[str]) -> None:
    session, shown, refusals = _play_to_the_end(options)
    assert shown["over"] and "The game is over." in shown["prompt"]
    report = validate_json(json.loads(session.record()))
    assert report.valid and report.complete
    assert any("Game over after" in line for line in shown["story"])
    for refused in refusals:
        assert refused["rule"] and refused["message"]


def test_an_illegal_card_is_refused_with_its_rule_and_changes_nothing() -> None:
    session = play.Session()
    shown = json.loads(session.start(json.dumps(["--players", "3", "--rounds", "1"])))
    while not any(not card["legal"] for card in shown["cards"]) or shown["phase"] != "play":
        shown = json.loads(session.choose(next(c for c in shown["cards"] if c["legal"])["rank"]))
    before = session.state
    illegal = next(card for card in shown["cards"] if not card["legal"])
    refused = json.loads(session.choose(illegal["rank"]))
    assert refused["refused"]["rule"] == "FOLLOW-SUIT"
    assert session.state is before
    assert json.loads(session.choose("99"))["refused"]["rule"] == "CARD-HELD"


def test_options_the_rules_refuse_are_reported_not_raised() -> None:
    answer = json.loads(play.Session().start(json.dumps(["--players", "3", "--bottles", "2"])))
    assert answer["rule"] == "CONFIG-BOTTLES" and "5-6 players" in answer["error"]
    # The sampling bot's solver is compiled (numba), which Pyodide has not: not offered.
    assert json.loads(play.bot_names()) == ["random", "heuristic", "search"]


def test_every_round_ends_on_its_scores_whoever_deals_next() -> None:
    """A 4-player game of the rulebook's rounds: the dealer rotates, so the bots deal three
    rounds of four; the page stops at the end of every round, with the score sheet and the
    round's score table in the story, until the reader asks for the next round."""
    session = play.Session()
    shown = json.loads(session.start(json.dumps(["--players", "4", "--seed", "3"])))
    ended: list[tuple[int, int | None]] = []
    while not shown["over"]:
        if shown["deal_next"]:
            assert shown["scores"] and "scores-picture" in shown["scores"]
            assert "its scores are below" in shown["prompt"]
            assert shown["table_lines"] and shown["story"][shown["table_lines"][-1]].strip()
            ended.append((shown["round"], shown["dealer"]))
            shown = json.loads(session.next_round())
            assert shown["round"] == ended[-1][0] + 1
            continue
        assert shown["scores"] is None
        shown = json.loads(session.choose(next(c for c in shown["cards"] if c["legal"])["rank"]))
    rounds = len(json.loads(session.record())["rounds"])
    assert [number for number, _ in ended] == list(range(1, rounds))
    assert {dealer for _, dealer in ended} == {0, 1, 2, 3}
    assert shown["scores"] is not None


def test_the_story_is_not_wrapped_by_the_page_session() -> None:
    """Each paragraph of the story is one line (the page wraps it to its width, once); only a
    score table has several lines, marked as such."""
    session, shown, _ = _play_to_the_end(["--players", "3", "--rounds", "1"])
    tables = set(shown["table_lines"])
    assert tables and all(shown["story"][index].startswith("    ") for index in tables)
    paragraphs = [line for index, line in enumerate(shown["story"]) if index not in tables]
    assert max(len(line) for line in paragraphs) > 100  # a long paragraph kept whole

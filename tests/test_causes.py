"""``bottleimp validate`` names the likely root cause of a broken record, on
records written by an engine built apart from bottleimp (``tests/buggy_writer.py``) with the
bugs real engines have: passes the wrong way (shows as ``CARD-HELD``), the colours of another
deck (``FOLLOW-SUIT``), the coins of another deck or invented coins (``SCORE-ROUND``), a random
or counter-clockwise dealer (``DEALER-ROTATION``), a dealer other than the one recorded
(``TURN-ORDER``), and four of them at once (passes, colours, invented coins, a random dealer). Each case checks the rule the fault
names, the hypotheses of the causes (in the JSON report, which the schema accepts) and the
sentence of the text report.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Final

import pytest

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp.cli import main
from bottleimp.validation import report_to_json, report_to_text, validate_json

from buggy_writer import Bugs, write_game

SCHEMA = Draft202012Validator(json.loads(
    (Path(__file__).resolve().parent.parent / "spec" / "reports" / "validate-report.schema.json")
    .read_text(encoding="utf-8")))
MATAGOT = ("matagot-2024", "matagot-2024")

HELD: Final = frozenset({"CARD-HELD", "FOLLOW-SUIT"})
"""What a card passed the wrong way shows as: a card played that the seat does not hold, or a
card of the led colour it holds without the record knowing, so that another card breaks
FOLLOW-SUIT."""

CASES: dict[str, tuple[Bugs, frozenset[str], list[tuple[str, ...]], str]] = {
    # name: the writer's bugs, the rules the fault may name, the causes' hypotheses, a sentence
    "passes reversed": (Bugs(passes_reversed=True), HELD, [("passes-reversed",)],
                        "consistent with passes going the other way: SETUP-RESOLVE (all 4 "
                        "rounds replay legally so)"),
    "colours of another deck": (Bugs(colours=MATAGOT), frozenset({"FOLLOW-SUIT"}),
                                [("colours:matagot-2024/matagot-2024",)],
                                "consistent with the colours of the matagot-2024 deck: DECK"),
    "coins of another deck": (Bugs(coins=MATAGOT), frozenset({"SCORE-ROUND"}),
                              [("coins:matagot-2024/matagot-2024",)],
                              "consistent with the coins of the matagot-2024 deck: DECK"),
    "invented coins": (Bugs(invented_coins=5), frozenset({"SCORE-ROUND"}), [("coins:unknown",)],
                       "consistent with coins no known deck has, or with round scores added up "
                       "wrongly: DECK, SCORE-ROUND"),
    "a random dealer": (Bugs(dealer="random"), frozenset({"DEALER-ROTATION"}),
                        [("dealers:other",)],
                        "consistent with a dealer chosen otherwise than by rotation"),
    "the deal passing right": (Bugs(dealer="counter"), frozenset({"DEALER-ROTATION"}),
                               [("dealers:counter-clockwise",)],
                               "consistent with the deal passing to the right (counter-clockwise)"),
    "passes and coins": (Bugs(passes_reversed=True, coins=MATAGOT), HELD,
                         [("passes-reversed", "coins:matagot-2024/matagot-2024")],
                         "consistent with passes going the other way and the coins of the "
                         "matagot-2024 deck: SETUP-RESOLVE, DECK (all 4 rounds replay legally "
                         "so)"),
    "four bugs at once": (
        Bugs(passes_reversed=True, colours=MATAGOT, invented_coins=5, dealer="random"),
        HELD,
        [("passes-reversed", "colours:matagot-2024/matagot-2024"), ("dealers:other",)],
        "the claimed scores still differ under every known deck's coins"),
}


def _check(doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    report = validate_json(doc, "game.json", causes=True)
    as_json = report_to_json(report)
    assert [f"{e.json_path}: {e.message}" for e in SCHEMA.iter_errors(as_json)] == []
    return as_json, report_to_text(report)


@pytest.mark.parametrize("players", [3, 4])
def test_the_independent_writer_without_bugs_writes_valid_records(players: int) -> None:
    report = validate_json(write_game(players, 4, 7), causes=True)
    assert report.valid and report.complete and report.causes == ()


@pytest.mark.parametrize("seed", [8, 9])
@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("name", sorted(CASES))
def test_validate_names_the_likely_cause_of_a_buggy_engines_record(
    name: str, players: int, seed: int
) -> None:
    bugs, rules, hypotheses, sentence = CASES[name]
    as_json, text = _check(write_game(players, 4, seed, bugs))
    assert as_json["status"] == 1 and as_json["errors"][0]["rule"] in rules
    assert [tuple(cause["hypotheses"]) for cause in as_json["causes"]] == hypotheses
    assert all(cause["whole_record"] for cause in as_json["causes"])
    assert sentence in text
    assert text.count("likely cause: ") == len(hypotheses)


def test_a_dealer_other_than_the_recorded_one_is_named_with_its_round() -> None:
    """The engine deals with a random seat but writes the seat the rotation expects: the seat
    to lead is wrong (``TURN-ORDER``), and the cause is the dealer of that round."""
    as_json, text = _check(write_game(3, 4, 7, Bugs(dealer="hidden")))
    assert as_json["errors"][0]["rule"] == "TURN-ORDER"
    (cause,) = as_json["causes"]
    assert cause["hypotheses"] == ["dealer:1:0"] and cause["rules"] == ["DEALER-ROTATION"]
    assert "consistent with seat 0 dealing round 2 (the record says seat 2)" in text


def test_a_record_broken_by_no_usual_cause_names_none() -> None:
    """Two plays swapped within a trick of a faithful record: no usual bug explains it."""
    doc = write_game(4, 2, 3)
    plays = doc["rounds"][0]["plays"]
    plays[5], plays[6] = plays[6], plays[5]
    as_json, text = _check(doc)
    assert as_json["errors"][0]["rule"] == "TURN-ORDER" and as_json["causes"] == []
    assert "likely cause" not in text


def test_validate_prints_the_causes_in_text_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "reversed.json"
    path.write_text(json.dumps(write_game(3, 3, 11, Bugs(passes_reversed=True))), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert "likely cause: consistent with passes going the other way: SETUP-RESOLVE" in (
        capsys.readouterr().out)
    assert main(["validate", "--json", str(path)]) == 1
    (line,) = capsys.readouterr().out.splitlines()
    assert json.loads(line)["causes"][0]["hypotheses"] == ["passes-reversed"]

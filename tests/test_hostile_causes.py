"""The likely-cause search (``bottleimp.validation._causes``) on hostile records: records of more
than a hundred rounds are searched by their own round numbers and their causes count every
round, and the search's work is bounded by ``MAX_SEARCH_VALUES`` JSON values replayed, the
report saying when the bound cut it short (in text and in the JSON report)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

import bottleimp.validation._replay as replay
from bottleimp.formats._json_input import JSON
from bottleimp.validation import ValidationReport, report_to_json, report_to_text, validate_json
from bottleimp.formats._records import parse_record
from bottleimp.validation._causes import MAX_SEARCH_VALUES, likely_causes

from depth import scaled
from buggy_writer import Bugs, write_game

SCHEMA = Draft202012Validator(json.loads(
    (Path(__file__).resolve().parent.parent / "spec" / "reports" / "validate-report.schema.json")
    .read_text(encoding="utf-8")))


def _values(value: JSON) -> int:
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _searched(doc: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> tuple[ValidationReport, int]:
    """The report with causes, and the JSON values of every record the search replayed (the
    records it hands the validator, counted as this test sees them)."""
    replayed = [0]
    validate = replay._without_causes

    def counting(value: JSON) -> ValidationReport:
        replayed[0] += _values(value)
        return validate(value)

    monkeypatch.setattr(replay, "_without_causes", counting)
    report = validate_json(doc, "game.json", causes=True)
    as_json = report_to_json(report)
    assert [f"{e.json_path}: {e.message}" for e in SCHEMA.iter_errors(as_json)] == []
    return report, replayed[0]


def test_a_fault_past_the_hundredth_round_is_searched_by_its_own_round_number() -> None:
    doc = write_game(4, 105, 3)
    broken = doc["rounds"][102]
    broken["dealer"] = (broken["dealer"] + 1) % 4
    report = validate_json(doc, "game.json", causes=True)
    assert report.errors[0].rule == "DEALER-ROTATION" and report.errors[0].round == 102
    assert [cause.hypotheses for cause in report.causes] == [("dealer:102:3",)]
    assert "(all 105 rounds replay legally so)" in report_to_text(report)


def test_a_cause_of_a_105_round_record_counts_all_105_rounds() -> None:
    report = validate_json(write_game(4, 105, 3, Bugs(passes_reversed=True)), causes=True)
    assert [cause.hypotheses for cause in report.causes] == [("passes-reversed",)]
    assert report.causes[0].whole_record and report.causes[0].rounds == tuple(range(105))
    assert "SETUP-RESOLVE (all 105 rounds replay legally so)" in report_to_text(report)
    assert not report.causes_cut_short


def _padded(plays: int, seed: int = 3, bugs: Bugs = Bugs(passes_reversed=True)) -> dict[str, Any]:
    """A record broken in its first round by ``bugs``, that round holding ``plays`` more plays
    than a round has (each a copy of its last play): every replay of it costs their size."""
    doc = write_game(4, 8, seed, bugs)
    first = doc["rounds"][0]
    first["plays"] = first["plays"] + [first["plays"][-1]] * plays
    return doc


def test_the_search_on_a_huge_broken_round_stops_at_its_limit_and_says_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # About 1.4 MB: each replay of the first round costs about 450,000 values.
    report, replayed = _searched(_padded(150_000), monkeypatch)
    round_values = 3 * 150_000
    assert replayed <= MAX_SEARCH_VALUES + round_values
    assert report.causes_cut_short and report.causes == ()
    assert report_to_json(report)["causes_cut_short"] is True
    assert ("the search for likely causes stopped at its limit of 1,000,000 JSON values "
            "replayed: other causes were not tried") in report_to_text(report)


def test_a_search_within_its_limit_is_not_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    report, replayed = _searched(write_game(4, 8, 7, Bugs(passes_reversed=True)), monkeypatch)
    assert 0 < replayed < MAX_SEARCH_VALUES // 50
    assert not report.causes_cut_short and report_to_json(report)["causes_cut_short"] is False
    assert "stopped at its limit" not in report_to_text(report)


def test_a_search_cut_short_keeps_the_causes_it_had_checked_in_full() -> None:
    # The four bugs at once: the search finds passes and colours, then (with the scores set
    # aside) the order of the dealers. Every budget short of the whole search gives what was
    # checked in full by then, a beginning of the whole answer, and says it was cut short.
    matagot = ("matagot-2024", "matagot-2024")
    doc = write_game(4, 8, 7, Bugs(passes_reversed=True, colours=matagot, invented_coins=5,
                                   dealer="random"))
    record = parse_record(doc)
    report = replay.validate_record(record, "game.json")
    whole = likely_causes(doc, record, report, replay._without_causes)
    assert not whole.cut_short and [c.hypotheses for c in whole.causes] == [
        ("passes-reversed", "colours:matagot-2024/matagot-2024"), ("dealers:other",)]
    seen = set()
    for budget in range(0, 12_000, 500):
        search = likely_causes(doc, record, report, replay._without_causes, budget=budget)
        assert search.causes == whole.causes[:len(search.causes)]
        assert search.cut_short == (search.causes != whole.causes)
        seen.add(len(search.causes))
    assert seen == {0, 1, 2}


MARGIN = 2_000
"""More than one round of these records' own size: the search stops at the first replay that
would pass the budget, so a replay of a normal round may at most reach it."""


@settings(deadline=None, max_examples=scaled(ci=30, dev=12))
@given(
    rounds=st.integers(min_value=1, max_value=130),
    padding=st.sampled_from([0, 0, 10, 5_000, 25_000]),
    seed=st.integers(min_value=0, max_value=2**16),
    bugs=st.sampled_from([
        Bugs(passes_reversed=True), Bugs(coins=("matagot-2024", "matagot-2024")),
        Bugs(colours=("matagot-2024", "matagot-2024")), Bugs(invented_coins=5),
        Bugs(dealer="random"), Bugs(dealer="hidden"),
    ]),
    broken_round=st.integers(min_value=0, max_value=129),
)
def test_fuzzed_broken_records_get_a_bounded_search_and_counts_of_their_own_rounds(
    rounds: int, padding: int, seed: int, bugs: Bugs, broken_round: int,
) -> None:
    doc = write_game(4, rounds, seed, bugs)
    index = broken_round % rounds
    target = doc["rounds"][index]
    target["plays"] = target["plays"] + [target["plays"][-1]] * padding
    with pytest.MonkeyPatch.context() as monkeypatch:
        report, replayed = _searched(copy.deepcopy(doc), monkeypatch)
    assert replayed <= MAX_SEARCH_VALUES + 3 * padding + MARGIN
    text = report_to_text(report)
    for cause in report.causes:
        assert max(cause.rounds, default=0) < rounds
        if cause.whole_record and "all " in cause.message:
            assert f"all {rounds} rounds replay legally so" in cause.message
    assert ("stopped at its limit" in text) == report.causes_cut_short

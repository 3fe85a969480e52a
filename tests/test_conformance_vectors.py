"""The conformance vectors in spec/conformance agree with the library, and the generated ones are
what scripts/generate_conformance.py writes today."""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from types import ModuleType

import pytest

from bottleimp.conformance._vectors import answer, check_case
from bottleimp.formats._cases import same_json
from bottleimp.formats._cases import CONFORMANCE_FORMAT, KINDS, Case, cases_from_json, read_suite
from bottleimp._errors import RecordError
from bottleimp.formats._json_input import JSON

ROOT = Path(__file__).resolve().parent.parent
SUITE = ROOT / "spec" / "conformance"
CASES = read_suite(SUITE)


def _case_id(case: Case) -> str:
    return case.where.replace(str(SUITE) + "/", "")


@pytest.mark.parametrize("case", CASES, ids=_case_id)
def test_conformance_case_agrees_with_the_library(case: Case) -> None:
    outcome = check_case(case)
    assert outcome.message is None, outcome.message
    assert outcome.actual == case.expected, case.description


def test_every_kind_has_hand_written_cases() -> None:
    for kind in KINDS:
        hand_written = [c for c in CASES if c.kind == kind and "generated" not in c.where]
        generated = [c for c in CASES if c.kind == kind and "generated" in c.where]
        assert len(hand_written) >= 5, kind
        assert len(generated) >= 20, kind


def test_every_known_bug_of_other_implementations_has_a_case() -> None:
    bugs = " ".join(case.bug or "" for case in CASES)
    for phrase in ("= instead of +=", "rounded down", "rounded up", "seat 0 always leads",
                   "own card back"):
        assert phrase in bugs, phrase


def test_the_readme_counts_the_cases_there_are() -> None:
    readme = (SUITE / "README.md").read_text(encoding="utf-8")
    for kind in KINDS:
        hand = sum(1 for c in CASES if c.kind == kind and "generated" not in c.where)
        generated = sum(1 for c in CASES if c.kind == kind and "generated" in c.where)
        assert f"| {kind} | {hand} | {generated}" in readme, kind


def test_case_expectations_are_compared_numerically_for_half_ranks() -> None:
    # A JSON reader may return 17.0 for 17: the comparison is by value.
    case = next(c for c in CASES if c.kind == "trick" and "18.5 beats 18" in c.description)
    expected = json.loads(json.dumps(case.expected).replace(": 2,", ": 2.0,"))
    assert answer(case) == expected


def _file(kind: str, case: dict[str, JSON], config: dict[str, JSON] | None = None) -> JSON:
    return {
        "format": CONFORMANCE_FORMAT,
        "kind": kind,
        "description": "test",
        "groups": [
            {"description": "g", "config": config or {"players": 4}, "cases": [case]}
        ],
    }


def test_a_case_that_names_an_unknown_rule_is_refused_with_its_path() -> None:
    value = _file("scoring", {"description": "x", "rules": ["NO-SUCH-RULE"], "input": {},
                              "expected": {}})
    with pytest.raises(RecordError) as error:
        cases_from_json(value, "f.json")
    assert error.value.path == "f.json:$.groups[0].cases[0].rules[0]"


def test_a_card_that_is_not_in_the_deck_is_refused_with_its_path() -> None:
    case: dict[str, JSON] = {"description": "x", "input": {"bottles": [{"price": 19, "owner": None}],
                                          "trick": [[0, 2.5], [1, 3], [2, 4], [3, 5]]},
            "expected": {}}
    (parsed,) = cases_from_json(_file("trick", case), "f.json")
    outcome = check_case(parsed)
    assert not outcome.passed
    assert outcome.message is not None and "trick[0][1]" in outcome.message


def test_a_trick_out_of_turn_order_is_refused() -> None:
    case: dict[str, JSON] = {"description": "x", "input": {"bottles": [{"price": 19, "owner": None}],
                                          "trick": [[0, 1], [2, 3], [1, 4], [3, 5]]},
            "expected": {}}
    (parsed,) = cases_from_json(_file("trick", case), "f.json")
    outcome = check_case(parsed)
    assert outcome.message is not None and "seat 1 plays here" in outcome.message


def test_a_bottle_below_19_without_owner_is_refused() -> None:
    case: dict[str, JSON] = {"description": "x", "input": {"captured": [[], [], [], []],
                                          "bottles": [{"price": 12, "owner": None}],
                                          "devils_trick": []},
            "expected": {}}
    (parsed,) = cases_from_json(_file("scoring", case), "f.json")
    outcome = check_case(parsed)
    assert outcome.message is not None and "bottles[0].owner" in outcome.message


def test_case_comparison_tells_booleans_from_numbers() -> None:
    assert same_json({"bottle": 0}, {"bottle": 0.0})
    assert not same_json({"bottle": 0}, {"bottle": False})
    assert not same_json({"legal": [1, 2]}, {"legal": [2, 1]})
    assert same_json({"scores": [1]}, {"scores": [1], "_note": "extensions are ignored"})


def test_a_wrong_expectation_fails_the_case() -> None:
    case: dict[str, JSON] = {"description": "x", "input": {"captured": [[1], [], [], []],
                                          "bottles": [{"price": 19, "owner": None}],
                                          "devils_trick": []},
            "expected": {"scores": [2, 0, 0, 0]}}
    (parsed,) = cases_from_json(_file("scoring", case), "f.json")
    outcome = check_case(parsed)
    assert outcome.message is None
    assert outcome.actual == {"scores": [1, 0, 0, 0]}
    assert not outcome.passed


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "generate_conformance", ROOT / "scripts" / "generate_conformance.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_cases_are_up_to_date_with_the_generator() -> None:
    generator = _generator()
    files: dict[str, str] = generator.generate()
    assert files, "the generator writes files"
    for relative, text in files.items():
        path = SUITE / relative
        assert path.exists(), f"{relative} is missing: run scripts/generate_conformance.py"
        assert path.read_text(encoding="utf-8") == text, (
            f"{relative} is out of date: run scripts/generate_conformance.py"
        )
    on_disk = {str(p.relative_to(SUITE)) for p in SUITE.glob("*/generated*.json")}
    assert on_disk == set(files), "a generated file no longer comes from the generator"


def test_the_generator_is_deterministic() -> None:
    generator = _generator()
    assert generator.generate() == generator.generate()

"""``spec/record.schema.json`` (JSON Schema 2020-12) agrees with the reader.

Every record the library writes, of every variant, complete or cut anywhere, is accepted;
records that break a rule but are readable are accepted too (the schema judges shape, not
rules); hand-made records the reader refuses as unreadable are refused by the schema as well.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp import Config
from bottleimp._errors import RecordError
from bottleimp.formats._records import parse_record
from bottleimp.validation import BROKEN, validate_json

from games import VARIANTS, Doc, doc_of, random_game

SCHEMA_PATH = Path(__file__).resolve().parent.parent / "spec" / "record.schema.json"
SCHEMA = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)


def schema_errors(doc: Any) -> list[str]:
    return [f"{error.json_path}: {error.message}" for error in VALIDATOR.iter_errors(doc)]


def test_schema_is_a_valid_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_schema_accepts_complete_and_cut_records_of_every_variant(name: str) -> None:
    config = VARIANTS[name]
    for actions in (None, 0, 3, 7, 40, 123):
        doc = doc_of(random_game(config, 21, actions))
        assert schema_errors(doc) == [], (name, actions)


def test_schema_accepts_half_ranks_extensions_and_minimal_records() -> None:
    doc = doc_of(random_game(VARIANTS["matagot-6p"], 2))
    assert any(isinstance(r, float) for hand in doc["rounds"][0]["hands"] for r in hand)
    doc["_source"] = {"engine": "elsewhere"}
    doc["config"]["_seed"] = 2
    doc["rounds"][0]["_note"] = "x"
    doc["rounds"][0]["setup"][0]["_why"] = [1]
    assert schema_errors(doc) == []
    minimal: Doc = {"format": "bottleimp-record/1", "config": {"players": 3}, "rounds": []}
    assert schema_errors(minimal) == []
    assert parse_record(minimal).config == Config(players=3)


def test_schema_accepts_a_custom_deck_record() -> None:
    from bottleimp import Card, Colour

    deck = [Card(rank, Colour.RED if rank % 2 else Colour.BLUE, rank % 3) for rank in range(1, 13)]
    doc = doc_of(random_game(Config(players=3, deck=deck), 4))
    assert doc["config"]["deck"][0] == [1, "red", 1]
    assert schema_errors(doc) == []
    assert parse_record(doc).config.deck == tuple(deck)


def _rule_breakers() -> list[Doc]:
    base = doc_of(random_game(VARIANTS["classic-4p"], 5))
    cases = []
    revoke = copy.deepcopy(base)
    revoke["rounds"][1]["plays"][0][1] = revoke["rounds"][1]["plays"][1][1]
    cases.append(revoke)
    unknown_card = copy.deepcopy(base)
    unknown_card["rounds"][0]["hands"][0][0] = 38
    cases.append(unknown_card)
    wrong_score = copy.deepcopy(base)
    wrong_score["rounds"][0]["scores"][0] += 1
    cases.append(wrong_score)
    out_of_turn = copy.deepcopy(base)
    plays = out_of_turn["rounds"][0]["plays"]
    plays[0], plays[1] = plays[1], plays[0]
    cases.append(out_of_turn)
    two_discards = copy.deepcopy(base)
    entry = two_discards["rounds"][0]["setup"][1]
    entry["discard"].append(entry.pop("left"))
    cases.append(two_discards)
    return cases


def test_schema_accepts_readable_records_that_break_rules() -> None:
    for doc in _rule_breakers():
        assert validate_json(copy.deepcopy(doc)).status == BROKEN
        assert schema_errors(doc) == []


def _edit(doc: Doc, path: list[str | int], item: Any = None, delete: bool = False) -> Doc:
    result = copy.deepcopy(doc)
    target: Any = result
    for step in path[:-1]:
        target = target[step]
    if delete:
        del target[path[-1]]
    elif isinstance(target, list) and path[-1] == len(target):
        target.append(item)
    else:
        target[path[-1]] = item
    return result


_FOUR = doc_of(random_game(VARIANTS["classic-4p"], 8))
_TWO = doc_of(random_game(VARIANTS["classic-2p"], 8))
_FIVE = doc_of(random_game(VARIANTS["matagot-5p"], 8))

BAD_RECORDS: dict[str, Doc] = {
    "no format": _edit(_FOUR, ["format"], delete=True),
    "other format": _edit(_FOUR, ["format"], "bottleimp-state/1"),
    "unknown top key": _edit(_FOUR, ["seed"], 3),
    "no config": _edit(_FOUR, ["config"], delete=True),
    "players missing": _edit(_FOUR, ["config", "players"], delete=True),
    "seven players": _edit(_FOUR, ["config", "players"], 7),
    "players as text": _edit(_FOUR, ["config", "players"], "4"),
    "unknown edition": _edit(_FOUR, ["config", "edition"], "first"),
    "three bottles": _edit(_FOUR, ["config", "bottles"], 3),
    "two bottles for four": _edit(_FOUR, ["config", "bottles"], 2),
    "teams for three": _edit(
        doc_of(random_game(VARIANTS["classic-3p"], 1)), ["config", "teams"], [[0, 1], [2]]
    ),
    "team of three": _edit(_FOUR, ["config", "teams"], [[0, 1, 2], [3]]),
    "rounds and target": _edit(_edit(_FOUR, ["config", "rounds"], 2), ["config", "target_score"], 9),
    "zero rounds": _edit(_FOUR, ["config", "rounds"], 0),
    "classic for five": _edit(_FIVE, ["config", "edition"], "classic"),
    "unknown config key": _edit(_FOUR, ["config", "speed"], 1),
    "rounds not a list": _edit(_FOUR, ["rounds"], {}),
    "dealer too high": _edit(_FOUR, ["rounds", 0, "dealer"], 4),
    "dealer negative": _edit(_FOUR, ["rounds", 0, "dealer"], -1),
    "five hands for four": _edit(_FOUR, ["rounds", 0, "hands", 4], []),
    "three hands for four": _edit(_FOUR, ["rounds", 0, "hands", 3], delete=True),
    "card as text": _edit(_FOUR, ["rounds", 0, "hands", 0, 0], "17"),
    "card true": _edit(_FOUR, ["rounds", 0, "hands", 0, 0], True),
    "face-up for four": _edit(_FOUR, ["rounds", 0, "face_up"], [[1], [2], [3], [4]]),
    "no face-up for two": _edit(_TWO, ["rounds", 0, "face_up"], delete=True),
    "null face-up for two": _edit(_TWO, ["rounds", 0, "face_up"], None),
    "setup entries short": _edit(_FOUR, ["rounds", 0, "setup", 3], delete=True),
    "setup entry not object": _edit(_FOUR, ["rounds", 0, "setup", 0], [1, 2, 3]),
    "setup without discard": _edit(_FOUR, ["rounds", 0, "setup", 0, "discard"], delete=True),
    "eye key with four": _edit(_FOUR, ["rounds", 0, "setup", 0, "to_hidden"], 3),
    "pass key with two": _edit(_TWO, ["rounds", 0, "setup", 0, "left"], 3),
    "null left": _edit(_FOUR, ["rounds", 0, "setup", 0, "left"], None),
    "play of three items": _edit(_FOUR, ["rounds", 0, "plays", 0], [1, 4, 7]),
    "play seat too high": _edit(_FOUR, ["rounds", 0, "plays", 0, 0], 4),
    "play card null": _edit(_FOUR, ["rounds", 0, "plays", 0, 1], None),
    "scores short": _edit(_FOUR, ["rounds", 0, "scores", 3], delete=True),
    "score fraction": _edit(_FOUR, ["rounds", 0, "scores", 0], 1.5),
    "totals long": _edit(_FOUR, ["totals", 4], 0),
    "unknown round key": _edit(_FOUR, ["rounds", 0, "devils_trick"], []),
    "start card dealt": _edit(_FOUR, ["rounds", 0, "hands", 0, 0], 19),
}


@pytest.mark.parametrize("name", sorted(BAD_RECORDS))
def test_schema_rejects_hand_made_bad_records(name: str) -> None:
    doc = BAD_RECORDS[name]
    assert schema_errors(doc), f"the schema accepts {name}"


# The schema and the reader agree on every bad record, with the exceptions the schema cannot
# express or that the reader leaves to the rules (documented in spec/record.md).
_RULE_FAULTS_NOT_SHAPE = {"start card dealt"}


@pytest.mark.parametrize("name", sorted(set(BAD_RECORDS) - _RULE_FAULTS_NOT_SHAPE))
def test_reader_also_refuses_every_record_the_schema_rejects(name: str) -> None:
    with pytest.raises(RecordError):
        parse_record(copy.deepcopy(BAD_RECORDS[name]))


def test_start_card_in_a_hand_is_a_shape_fault_for_the_schema_and_a_rule_fault_for_the_reader() -> None:
    doc = BAD_RECORDS["start card dealt"]
    assert parse_record(copy.deepcopy(doc)).rounds[0].hands[0][0] == 19
    report = validate_json(copy.deepcopy(doc))
    assert report.status == BROKEN and report.errors[0].rule == "DEAL-COUNTS"


def test_the_example_in_spec_record_md_is_valid_and_plays_as_the_page_tells() -> None:
    page = (SCHEMA_PATH.parent / "record.md").read_text(encoding="utf-8")
    example = json.loads(page.split("```json\n", 1)[1].split("```", 1)[0])
    assert schema_errors(example) == []
    report = validate_json(example)
    assert report.valid and report.complete and report.winners == (1,)
    (round_,) = report.rounds
    assert round_.devils_trick == (8, 14, 24)
    assert [(t.winner, t.bottle, t.price_before, t.price_after) for t in round_.tricks] == [
        (2, 0, 19, 12), (1, None, 12, 12)
    ]
    assert round_.scores == (0, 11, -7) and round_.bottle_owners == (2,)

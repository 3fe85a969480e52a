"""The record format bottleimp-record/1: reading, writing, records of live games, hostile input.

Reading checks shape and JSON types only (the rules are the validator's business); every fault
is a ``RecordError`` naming the JSON path, never another exception.
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

from bottleimp import Config, Phase, new_game
from bottleimp._errors import RecordError
from bottleimp.formats._json_input import JSON, MAX_NESTING, MAX_RECORD_BYTES, loads_json
from bottleimp.formats._records import (
    RECORD_FORMAT,
    EyeSetup,
    GameRecord,
    PassSetup,
    RecordedPlay,
    RoundRecord,
    dumps_record,
    loads_record,
    parse_record,
    read_record_file,
    record_from_state,
    record_to_json,
    write_record_file,
)

from games import VARIANTS, Doc, random_game


def game_json(config: Config, seed: int, actions: int | None = None) -> Doc:
    return dict(record_to_json(record_from_state(random_game(config, seed, actions))))


def four_player_json() -> Doc:
    return game_json(VARIANTS["classic-4p"], 11)


def assert_record_error(value: JSON, path: str, fragment: str = "") -> RecordError:
    with pytest.raises(RecordError) as caught:
        parse_record(value)
    assert caught.value.path == path, caught.value
    assert fragment in caught.value.message, caught.value.message
    return caught.value


# --- round trips -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_record_of_a_complete_game_round_trips_through_json_text(name: str) -> None:
    config = VARIANTS[name]
    state = random_game(config, 5)
    record = record_from_state(state)
    assert len(record.rounds) == len(state.rounds)
    assert record.totals == state.totals
    assert all(round_.scores is not None for round_ in record.rounds)
    text = dumps_record(record)
    assert loads_record(text) == record
    assert record_to_json(loads_record(text)) == json.loads(text)


@pytest.mark.parametrize("name", ["classic-2p", "classic-4p", "matagot-5p", "matagot-6p-teams"])
def test_record_of_a_game_cut_anywhere_round_trips(name: str) -> None:
    config = VARIANTS[name]
    full = random_game(config, 3)
    total = sum(
        sum(len(g) for g in r.setup) + len(r.plays) + (1 if r.index else 0) for r in full.rounds
    )
    for cut in sorted({0, 1, 2, 5, 17, total // 3, total // 2, total - 1}):
        state = random_game(config, 3, cut)
        record = record_from_state(state)
        assert parse_record(record_to_json(record)) == record
        incomplete = state.phase not in (Phase.ROUND_OVER, Phase.GAME_OVER)
        assert (record.rounds[-1].scores is None) == incomplete


def test_record_of_a_game_before_any_setup_has_one_round_with_empty_setups() -> None:
    record = record_from_state(new_game(Config(players=4), 1))
    (round_,) = record.rounds
    assert round_.setup == (PassSetup(discard=()),) * 4
    assert round_.plays == ()
    assert record.totals == (0, 0, 0, 0)


def test_record_mid_setup_holds_complete_then_partial_then_empty_entries_in_seat_order() -> None:
    """Interpretation I-RECORD-PARTIAL-SETUP: seats complete their setups in turn from the
    dealer's left; the entry of the seat choosing holds what it has given so far."""
    state = random_game(Config(players=4), 2, actions=5)
    setup = record_from_state(state).rounds[0].setup
    assert all(isinstance(entry, PassSetup) for entry in setup)
    assert isinstance(setup[1], PassSetup) and isinstance(setup[2], PassSetup)
    assert setup[1].discard and setup[1].left is not None and setup[1].right is not None
    assert len(setup[2].discard) == 1 and setup[2].left is not None and setup[2].right is None
    assert setup[3] == PassSetup(discard=()) and setup[0] == PassSetup(discard=())
    written: Doc = dict(record_to_json(record_from_state(state)))
    assert written["rounds"][0]["setup"][2].keys() == {"discard", "left"}


def test_devils_eye_record_uses_eye_setup_entries_and_face_up_rows() -> None:
    record = record_from_state(random_game(Config(players=2), 4))
    first = record.rounds[0]
    assert first.face_up is not None and len(first.face_up) == 2
    assert all(isinstance(entry, EyeSetup) for entry in first.setup)
    assert all(len(entry.discard) == 2 for entry in first.setup)
    written: Doc = dict(record_to_json(record))
    assert written["rounds"][0]["setup"][0].keys() == {"discard", "to_face_up", "to_hidden"}


def test_five_player_dealer_setup_has_an_empty_discard_SETUP_STEPS() -> None:
    record = record_from_state(random_game(Config(players=5, edition="matagot-2024"), 8))
    first = record.rounds[0]
    dealer_setup = first.setup[first.dealer]
    assert first.dealer == 0 and isinstance(dealer_setup, PassSetup)
    assert dealer_setup.discard == () and None not in (dealer_setup.left, dealer_setup.right)
    assert all(len(entry.discard) == 1 for seat, entry in enumerate(first.setup) if seat != 0)


def test_half_ranks_are_written_as_json_numbers_with_a_fraction_CARD_RANK() -> None:
    text = dumps_record(record_from_state(random_game(Config(players=6, edition="matagot-2024"), 1)))
    value = json.loads(text)
    ranks = [rank for hand in value["rounds"][0]["hands"] for rank in hand]
    assert 2.5 in ranks and 17 in ranks
    assert all(isinstance(rank, int) or rank % 1 == 0.5 for rank in ranks)
    assert ".0" not in text.replace("2.5", "")  # whole ranks are written without a fraction


def test_whole_ranks_written_as_floats_read_as_the_same_record() -> None:
    value = four_player_json()
    hands = value["rounds"][0]["hands"]
    floated = _set(value, ["rounds", 0, "hands"], [[float(r) for r in hand] for hand in hands])
    assert "17.0" in json.dumps(floated) or "1.0" in json.dumps(floated)
    assert parse_record(floated) == parse_record(value)


def test_record_file_write_then_read_is_identical(tmp_path: Path) -> None:
    record = record_from_state(random_game(Config(players=3), 9))
    path = tmp_path / "game.json"
    write_record_file(path, record)
    assert path.read_text(encoding="utf-8").endswith("\n")
    assert read_record_file(path) == record


def test_extension_keys_are_ignored_and_kept_at_every_level() -> None:
    value = four_player_json()
    value["_generator"] = {"name": "elsewhere", "version": [1, 2]}
    value["config"]["_seed"] = 42
    value["rounds"][0]["_comment"] = "first round"
    value["rounds"][0]["setup"][1]["_thinking"] = None
    record = parse_record(value)
    assert record.extensions == (("_generator", '{"name":"elsewhere","version":[1,2]}'),)
    assert record.config_extensions == (("_seed", "42"),)
    assert record.rounds[0].extensions == (("_comment", '"first round"'),)
    assert record.rounds[0].setup[1].extensions == (("_thinking", "null"),)
    assert record_to_json(record) == value
    stripped = parse_record(four_player_json())
    assert record.rounds[0].plays == stripped.rounds[0].plays


def test_extension_keys_must_start_with_an_underscore() -> None:
    with pytest.raises(ValueError):
        GameRecord(config=Config(), rounds=(), extensions={"seed": 1})


def test_written_record_lists_every_config_key_and_face_up_null() -> None:
    value = four_player_json()
    assert value["format"] == RECORD_FORMAT
    assert value["config"] == {
        "edition": "classic", "players": 4, "bottles": 1, "teams": None, "rounds": None,
        "target_score": None,
    }
    assert all(round_["face_up"] is None for round_ in value["rounds"])


def test_minimal_config_and_absent_optional_keys_are_read_with_their_defaults() -> None:
    value: Doc = {
        "format": RECORD_FORMAT,
        "config": {"players": 4},
        "rounds": [],
    }
    record = parse_record(value)
    assert record == GameRecord(config=Config(players=4), rounds=())


def test_record_types_hold_plays_as_seat_and_rank() -> None:
    record = parse_record(four_player_json())
    first: RoundRecord = record.rounds[0]
    assert all(isinstance(play, RecordedPlay) for play in first.plays)
    assert first.plays[0].seat == 1  # the dealer's left leads the first trick


# --- shape faults name their JSON path ---------------------------------------------------------


def _set(value: Doc, path: list[str | int], item: JSON) -> Doc:
    result = copy.deepcopy(value)
    target: Any = result
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = item
    return result


def _delete(value: Doc, path: list[str | int]) -> Doc:
    result = copy.deepcopy(value)
    target: Any = result
    for step in path[:-1]:
        target = target[step]
    del target[path[-1]]
    return result


SHAPE_FAULTS: list[tuple[str, list[str | int], JSON, str, str]] = [
    ("format", ["format"], "bottleimp-state/1", "$.format", "bottleimp-record/1"),
    ("unknown key", ["seed"], 7, "$.seed", "unknown key"),
    ("config type", ["config"], [4], "$.config", "expected an object"),
    ("players type", ["config", "players"], "4", "$.config.players", "expected an integer"),
    ("players bool", ["config", "players"], True, "$.config.players", "expected an integer"),
    ("rounds type", ["rounds"], {}, "$.rounds", "expected an array"),
    ("dealer range", ["rounds", 0, "dealer"], 4, "$.rounds[0].dealer", "0 to 3"),
    ("hands count", ["rounds", 0, "hands"], [[1]] * 5, "$.rounds[0].hands", "expected 4 arrays"),
    ("rank type", ["rounds", 0, "hands", 2, 3], "17", "$.rounds[0].hands[2][3]", "card rank"),
    ("rank bool", ["rounds", 0, "hands", 2, 3], False, "$.rounds[0].hands[2][3]", "card rank"),
    ("face-up in 4p", ["rounds", 0, "face_up"], [[], [], [], []], "$.rounds[0].face_up", "2-player"),
    ("setup count", ["rounds", 1, "setup"], [], "$.rounds[1].setup", "expected 4 setup entries"),
    ("setup type", ["rounds", 1, "setup", 2], [1, 2, 3], "$.rounds[1].setup[2]", "an object"),
    ("setup eye key", ["rounds", 1, "setup", 2, "to_hidden"], 5, "$.rounds[1].setup[2].to_hidden",
     "unknown key"),
    ("setup null pass", ["rounds", 1, "setup", 2, "left"], None, "$.rounds[1].setup[2].left",
     "card rank"),
    ("discard type", ["rounds", 1, "setup", 2, "discard"], 5, "$.rounds[1].setup[2].discard",
     "expected an array"),
    ("play pair", ["rounds", 2, "plays", 4], [1, 2, 3], "$.rounds[2].plays[4]", "[seat, card]"),
    ("play seat", ["rounds", 2, "plays", 4, 0], 9, "$.rounds[2].plays[4][0]", "0 to 3"),
    ("play card", ["rounds", 2, "plays", 4, 1], None, "$.rounds[2].plays[4][1]", "card rank"),
    ("scores count", ["rounds", 0, "scores"], [1, 2, 3], "$.rounds[0].scores", "expected 4"),
    ("score type", ["rounds", 0, "scores", 1], 1.5, "$.rounds[0].scores[1]", "integer"),
    ("totals type", ["totals"], "many", "$.totals", "expected an array"),
    ("round key", ["rounds", 0, "trick"], [], "$.rounds[0].trick", "unknown key"),
    ("odd key", ["rounds", 0, "a b\u00e9"], 1, '$.rounds[0]["a b\\u00e9"]', "unknown key"),
]


@pytest.mark.parametrize(
    ("path", "item", "where", "fragment"),
    [case[1:] for case in SHAPE_FAULTS],
    ids=[case[0] for case in SHAPE_FAULTS],
)
def test_shape_fault_is_a_record_error_at_its_json_path(
    path: list[str | int], item: JSON, where: str, fragment: str
) -> None:
    assert_record_error(_set(four_player_json(), path, item), where, fragment)


@pytest.mark.parametrize(
    ("path", "where"),
    [
        (["format"], "$.format"),
        (["config"], "$.config"),
        (["rounds", 0, "plays"], "$.rounds[0].plays"),
        (["rounds", 0, "setup", 1, "discard"], "$.rounds[0].setup[1].discard"),
    ],
)
def test_missing_key_is_a_record_error_at_its_path(path: list[str | int], where: str) -> None:
    assert_record_error(_delete(four_player_json(), path), where, "missing")


def test_devils_eye_round_without_face_up_cards_is_unreadable() -> None:
    value = game_json(Config(players=2), 1)
    assert_record_error(_set(value, ["rounds", 0, "face_up"], None), "$.rounds[0].face_up", "face-up")
    assert_record_error(
        _set(value, ["rounds", 0, "setup", 0, "left"], 3), "$.rounds[0].setup[0].left", "unknown key"
    )


def test_non_finite_rank_is_unreadable() -> None:
    value = _set(four_player_json(), ["rounds", 0, "hands", 0, 0], float("nan"))
    assert_record_error(value, "$.rounds[0].hands[0][0]", "card rank")


def test_not_an_object_at_the_top_is_unreadable() -> None:
    assert_record_error([], "$", "expected an object")


@pytest.mark.parametrize(
    ("key", "item", "path", "rule"),
    [
        ("players", 7, "$.config.players", "CONFIG-PLAYERS"),
        ("players", 1, "$.config.players", "CONFIG-PLAYERS"),
        ("bottles", 2, "$.config.bottles", "CONFIG-BOTTLES"),
        ("bottles", 3, "$.config.bottles", "CONFIG-BOTTLES"),
        ("edition", "first", "$.config.edition", "CONFIG-EDITION"),
        ("teams", [[0, 1], [2]], "$.config.teams", "CONFIG-TEAMS"),
        ("rounds", 0, "$.config.rounds", "CONFIG-GAME-END"),
        ("deck", [[1, "red", 1]], "$.config.deck", "CONFIG-DECK"),
    ],
)
def test_invalid_configuration_names_its_rule_and_key(
    key: str, item: JSON, path: str, rule: str
) -> None:
    error = assert_record_error(_set(four_player_json(), ["config", key], item), path, rule)
    assert isinstance(error, RecordError) and error.rule_id == rule


def test_rounds_and_target_score_together_name_the_config_CONFIG_GAME_END() -> None:
    value = _set(four_player_json(), ["config", "rounds"], 3)
    value = _set(value, ["config", "target_score"], 100)
    error = assert_record_error(value, "$.config", "CONFIG-GAME-END")
    assert isinstance(error, RecordError)


def test_five_players_with_the_classic_deck_name_the_edition_CONFIG_EDITION() -> None:
    value = _set(four_player_json(), ["config", "players"], 5)
    assert_record_error(value, "$.config.edition", "CONFIG-EDITION")


def test_a_number_that_is_no_card_of_the_deck_is_readable() -> None:
    """An unknown rank is a broken rule (the validator names it), not a shape fault."""
    value = _set(four_player_json(), ["rounds", 0, "hands", 0, 0], 38)
    assert parse_record(value).rounds[0].hands[0][0] == 38


# --- hostile text ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "not JSON"),
        ("{", "not JSON"),
        ("{'format': 1}", "not JSON"),
        ('{"a": NaN}', "NaN is not a JSON number"),
        ('{"a": Infinity}', "Infinity is not a JSON number"),
        ('{"a": -Infinity}', "-Infinity is not a JSON number"),
        ('{"a": 1e400}', "too large"),
        ('{"a": -1.5e999}', "too large"),
        ('{"a": ' + "9" * 5000 + "}", "digits"),
        ('{"a": 0.' + "1" * 200 + "}", "digits"),
        ("[" * 100_000, "nest"),
        ('{"a":' * 50_000 + "1" + "}" * 50_000, "nest"),
        ("[1] [2]", "not JSON"),
    ],
)
def test_hostile_text_is_a_record_error_at_the_root(text: str, fragment: str) -> None:
    with pytest.raises(RecordError) as caught:
        loads_json(text)
    assert caught.value.path == "$"
    assert fragment in caught.value.message


def test_nesting_up_to_the_limit_is_read_and_brackets_in_strings_do_not_count() -> None:
    deep = "[" * MAX_NESTING + "]" * MAX_NESTING
    assert loads_json(deep) is not None
    too_deep = "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)
    with pytest.raises(RecordError):
        loads_json(too_deep)
    text = json.dumps({"_note": "[" * 1000 + '\\"{' * 100, "x": [1]})
    assert loads_json(text) == json.loads(text)


def test_long_digit_runs_inside_strings_are_allowed() -> None:
    text = json.dumps({"_id": "7" * 500})
    assert loads_json(text) == {"_id": "7" * 500}


def test_unterminated_string_full_of_escapes_is_refused_quickly() -> None:
    text = "[" * 70 + '"' + '\\"' * 200_000
    with pytest.raises(RecordError):
        loads_json(text)


def test_duplicate_key_is_refused_with_its_path() -> None:
    value = four_player_json()
    text = dumps_record(parse_record(value))
    doubled = text.replace('"dealer":1,', '"dealer":1,"dealer":2,', 1)
    assert doubled != text
    with pytest.raises(RecordError) as caught:
        loads_json(doubled)
    assert caught.value.path == "$.rounds[1].dealer"
    assert "more than once" in caught.value.message
    with pytest.raises(RecordError) as top:
        loads_json('{"format": 1, "format": 1}')
    assert top.value.path == "$.format"


def test_invalid_utf8_is_refused() -> None:
    with pytest.raises(RecordError) as caught:
        loads_json(b'{"format": "\xff"}')
    assert "UTF-8" in caught.value.message


def test_lone_surrogate_key_gets_a_printable_path() -> None:
    value = loads_json('{"format": "bottleimp-record/1", "config": {"players": 4}, '
                              '"rounds": [], "\\ud800": 1}')
    with pytest.raises(RecordError) as caught:
        parse_record(value)
    assert caught.value.path == '$["\\ud800"]'
    caught.value.path.encode("ascii")


def test_oversized_input_is_refused_before_parsing() -> None:
    with pytest.raises(RecordError) as caught:
        loads_json(b" " * (MAX_RECORD_BYTES + 1))
    assert "larger" in caught.value.message
    with pytest.raises(RecordError) as caught:
        loads_json(" " * (MAX_RECORD_BYTES + 1))
    assert caught.value.message.endswith(f"larger than {MAX_RECORD_BYTES} characters")
    assert caught.value.path == "$"


def test_oversized_file_is_refused_without_reading_it(tmp_path: Path) -> None:
    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:
        handle.truncate(MAX_RECORD_BYTES + 1)  # sparse: nothing is written or read
    with pytest.raises(RecordError) as caught:
        read_record_file(path)
    assert "limit" in caught.value.message


def test_missing_file_directory_and_fifo_are_record_errors(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="no such file"):
        read_record_file(tmp_path / "absent.json")
    with pytest.raises(RecordError, match="directory"):
        read_record_file(tmp_path)
    if hasattr(os, "mkfifo"):
        fifo = tmp_path / "pipe.json"
        os.mkfifo(fifo)
        with pytest.raises(RecordError, match="not a regular file"):
            read_record_file(fifo)  # refused without opening it, so it cannot block


def test_extension_value_built_in_python_that_is_not_json_is_a_record_error() -> None:
    value = four_player_json()
    value["rounds"][0]["_score"] = float("nan")
    assert_record_error(value, "$.rounds[0]._score", "not a JSON value")
    deep: Any = []
    for _ in range(100_000):
        deep = [deep]
    value = four_player_json()
    value["_deep"] = deep
    assert_record_error(value, "$._deep", "not a JSON value")


@pytest.mark.parametrize(
    ("card", "path", "message"),
    [
        ([1, "yellow"], "$.config.deck[0]", "expected [rank, colour, coins]"),
        ([1, "yellow", 0, 0], "$.config.deck[0]", "expected [rank, colour, coins]"),
        ([1, "pink", 0], "$.config.deck[0][1]", "unknown colour 'pink'"),
    ],
)
def test_a_custom_deck_card_that_is_no_triple_is_refused_with_its_path(
    card: list[JSON], path: str, message: str
) -> None:
    from bottleimp.formats._config_json import config_from_json

    others: list[JSON] = [[rank, "blue", 1] for rank in range(2, 13)]
    deck: list[JSON] = [card, *others]
    with pytest.raises(RecordError) as caught:
        config_from_json({"players": 3, "deck": deck}, "$.config")
    assert (caught.value.path, caught.value.message) == (path, message)


@pytest.mark.parametrize(
    ("game_end", "path"),
    [({"rounds": 0}, "$.config.rounds"), ({"target_score": 0}, "$.config.target_score"),
     ({"rounds": 2, "target_score": 40}, "$.config")],
)
def test_a_bad_game_end_is_refused_at_the_key_that_breaks_it_CONFIG_GAME_END(
    game_end: dict[str, JSON], path: str
) -> None:
    from bottleimp.formats._config_json import config_from_json

    with pytest.raises(RecordError) as caught:
        config_from_json({"players": 3, **game_end}, "$.config")
    assert (caught.value.path, caught.value.rule_id) == (path, "CONFIG-GAME-END")


@pytest.mark.parametrize(
    ("card", "path"),
    [([1, 5, 0], "$.config.deck[0][1]"), ([1, "yellow", -1], "$.config.deck[0][2]"),
     (["1", "yellow", 0], "$.config.deck[0][0]")],
)
def test_a_custom_deck_card_part_of_the_wrong_kind_is_refused_at_its_path(
    card: list[JSON], path: str
) -> None:
    from bottleimp.formats._config_json import config_from_json

    others: list[JSON] = [[rank, "blue", 1] for rank in range(2, 13)]
    with pytest.raises(RecordError) as caught:
        config_from_json({"players": 3, "deck": [card, *others]}, "$.config")
    assert caught.value.path == path


def test_a_custom_deck_card_may_carry_no_coin() -> None:
    from bottleimp.formats._config_json import config_from_json

    deck: list[JSON] = [[rank, "blue", 0] for rank in range(1, 13)]
    config = config_from_json({"players": 3, "deck": deck}, "$.config")
    assert config.deck is not None and {card.coins for card in config.deck} == {0}


# --- the JSON expecters every reader uses: each value's kind named in the refusal --------------


@pytest.mark.parametrize(
    ("value", "low", "high", "expected"),
    [
        (3, None, None, 3),
        (3.0, None, None, 3),
        (-4.0, None, None, -4),
        (2.0**53 - 1, None, None, 2**53 - 1),
        (2.0**53, None, None, "expected an integer, found the number 9007199254740992.0"),
        (3.5, None, None, "expected an integer, found the number 3.5"),
        (True, None, None, "expected an integer, found a boolean"),
        (None, None, None, "expected an integer, found null"),
        ("3", None, None, 'expected an integer, found the string "3"'),
        ("x" * 60, None, None, 'expected an integer, found the string "' + "x" * 39),
        ([3], None, None, "expected an integer, found an array"),
        ({"n": 3}, None, None, "expected an integer, found an object"),
        (7, 0, 6, "expected an integer from 0 to 6, found 7"),
        (-1, 0, 6, "expected an integer from 0 to 6, found -1"),
        (0, 0, 6, 0),
        (6, 0, 6, 6),
        (-1, 0, None, "expected an integer from 0 to inf, found -1"),
        (9, None, 6, "expected an integer from -inf to 6, found 9"),
    ],
)
def test_expect_int_takes_whole_numbers_and_names_what_it_found(
    value: JSON, low: int | None, high: int | None, expected: int | str
) -> None:
    from bottleimp.formats._json_input import expect_int

    if isinstance(expected, int):
        found = expect_int(value, "$.x", low, high)
        assert found == expected and type(found) is int
        return
    with pytest.raises(RecordError) as caught:
        expect_int(value, "$.x", low, high)
    assert (caught.value.path, caught.value.message) == ("$.x", expected)


@pytest.mark.parametrize(
    ("value", "expected"),
    [("yellow", "yellow"), ("", ""), (5, "expected a string, found the number 5"),
     (None, "expected a string, found null"), (False, "expected a string, found a boolean"),
     (["a"], "expected a string, found an array")],
)
def test_expect_str_takes_strings_and_names_what_it_found(value: JSON, expected: str) -> None:
    from bottleimp.formats._json_input import expect_str

    if isinstance(value, str):
        assert expect_str(value, "$.x") == expected
        return
    with pytest.raises(RecordError) as caught:
        expect_str(value, "$.x")
    assert (caught.value.path, caught.value.message) == ("$.x", expected)


def test_the_input_limits_are_the_ones_the_record_spec_states() -> None:
    """spec/record.md states the limits a reader applies (another implementation reads them
    there): 64 levels of nesting and 100 digits are read, one more of either is refused."""
    spec = (Path(__file__).resolve().parent.parent / "spec" / "record.md").read_text()
    assert "nested more than 64 deep" in spec and "more than 100 digits in a row" in spec
    assert loads_json("[" * 64 + "]" * 64) is not None
    with pytest.raises(RecordError, match="more than 64 deep"):
        loads_json("[" * 65 + "]" * 65)
    assert loads_json("[" + "9" * 100 + "]") == [int("9" * 100)]
    with pytest.raises(RecordError, match="more than 100 digits"):
        loads_json("[" + "9" * 101 + "]")


def test_brackets_after_an_escaped_quote_inside_a_string_do_not_count_as_nesting() -> None:
    text = '{"_a": "x\\"' + "[" * 70 + '", "_b": [1]}'
    assert loads_json(text) == {"_a": 'x"' + "[" * 70, "_b": [1]}


def test_a_record_of_up_to_16_mib_is_read_and_one_byte_more_is_refused_unread() -> None:
    """spec/record.md: more than 16 MiB is refused (before parsing, so a hostile file costs
    nothing); 16 MiB itself passes the size check and meets the parser."""
    spec = (Path(__file__).resolve().parent.parent / "spec" / "record.md").read_text()
    assert "more than 16 MiB" in spec
    limit = 16 * 1024 * 1024
    for text in (b" " * limit, " " * limit):
        with pytest.raises(RecordError) as caught:
            loads_json(text)
        assert caught.value.message.startswith("not JSON")  # read, and found empty
    with pytest.raises(RecordError, match="larger than"):
        loads_json(b" " * (limit + 1))


def test_a_record_file_of_16_mib_is_read_and_one_byte_more_is_refused_unread(
    tmp_path: Path
) -> None:
    from bottleimp.formats._json_input import read_json_file

    path = tmp_path / "big.json"
    with open(path, "wb") as handle:
        handle.truncate(MAX_RECORD_BYTES)  # sparse: NUL bytes, not JSON
    with pytest.raises(RecordError) as caught:
        read_json_file(path)
    assert "limit" not in caught.value.message
    with open(path, "ab") as handle:
        handle.write(b" ")
    with pytest.raises(RecordError, match="the limit is"):
        read_json_file(path)


def test_a_python_value_takes_integers_of_up_to_100_digits() -> None:
    from bottleimp.formats._json_input import check_json_value

    check_json_value([10**100 - 1, -(10**100) + 1])
    for number in (10**100, -(10**100)):
        with pytest.raises(RecordError) as caught:
            check_json_value({"a": [number]})
        assert (caught.value.path, caught.value.message) == (
            "$.a[0]", "an integer of more than 100 digits")


def test_brackets_inside_a_string_without_escapes_do_not_count_as_nesting() -> None:
    text = '{"_a": "' + "[" * 70 + '", "_b": [1]}'
    assert loads_json(text) == {"_a": "[" * 70, "_b": [1]}


@pytest.mark.parametrize(
    ("text", "path"),
    [('{"a": 1, "b": 2, "b": 3}', "$.b"),
     ('{"a": 1, "a": 2, "b": 1, "b": 2}', "$.a"),  # the first key given twice
     ('{"x": {"a": 1, "c": [1, {"d": 0, "b": 2, "b": 3}]}}', "$.x.c[1].b")],
)
def test_a_key_given_twice_is_named_at_its_path(text: str, path: str) -> None:
    with pytest.raises(RecordError) as caught:
        loads_json(text)
    assert (caught.value.path, caught.value.message) == (
        path, "this key occurs more than once in its object")


def _nested_lists(depth: int) -> list[JSON]:
    value: list[JSON] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def _nested_objects(depth: int) -> dict[str, JSON]:
    value: dict[str, JSON] = {}
    for _ in range(depth - 1):
        value = {"a": value}
    return value


@pytest.mark.parametrize("depth", [63, 64, 65])
def test_python_values_and_text_nest_to_the_same_limit(depth: int) -> None:
    """check_json_value (values built in Python) and loads_json (text) draw the line at the same
    depth, with an escape in the text or without, and count unclosed brackets alike."""
    from bottleimp.formats._json_input import check_json_value

    inner = depth - 1  # the object around the lists is one level too
    texts = ["[" * depth + "]" * depth, '{"_a": "\\n", "b": ' + "[" * inner + "]" * inner + "}"]
    if depth <= MAX_NESTING:
        check_json_value(_nested_lists(depth))
        check_json_value(_nested_objects(depth))
        for text in texts:
            assert loads_json(text) is not None
        with pytest.raises(RecordError, match="not JSON"):
            loads_json("[" * depth)  # unclosed, yet not too deep: the parser refuses it
        return
    for nested in (_nested_lists(depth), _nested_objects(depth)):
        with pytest.raises(RecordError, match="more than 64 deep"):
            check_json_value(nested)
    for text in [*texts, "[" * depth]:
        with pytest.raises(RecordError, match="more than 64 deep"):
            loads_json(text)


def test_a_record_file_of_exactly_16_mib_is_read_whole(tmp_path: Path) -> None:
    from bottleimp.formats._json_input import read_json_file

    path = tmp_path / "padded.json"
    path.write_bytes(b'{"a": ' + b" " * (MAX_RECORD_BYTES - 8) + b'1}')  # its last byte counts
    assert read_json_file(path) == {"a": 1}


@pytest.mark.parametrize(
    ("written", "shown"),
    [("bottleimp-record/0", '"bottleimp-record/0"'), ("x" * 80, '"' + "x" * 59),
     (1, "1"), (10**70, "1" + "0" * 59), (None, "null"), (True, "true"), ([1], "an array"),
     ({"v": 1}, "an object")],
)
def test_a_wrong_format_is_shown_as_written(written: JSON, shown: str) -> None:
    with pytest.raises(RecordError) as caught:
        parse_record({"format": written, "config": {"players": 3}, "rounds": []})
    assert (caught.value.path, caught.value.message) == (
        "$.format", f"expected 'bottleimp-record/1', found {shown}")


def test_a_record_is_written_compact_or_laid_out_for_reading() -> None:
    """``dumps_record``: compact by default; with ``indent``, objects one key a line, except an
    object of at most four plain values (a setup entry) and arrays of plain values or of arrays
    of them (hands, plays), each on one line. Both texts are compared whole with files kept in
    tests/data/layout, and both read back as the same record."""
    from bottleimp._cards import Card, Colour
    from bottleimp.formats._records import dumps_record, loads_record, record_from_state

    from games import random_game

    colours = (Colour.YELLOW, Colour.BLUE, Colour.RED)
    deck = tuple(Card(rank, colours[rank % 3], rank % 3) for rank in range(1, 13))
    document = record_to_json(record_from_state(random_game(Config(players=3, deck=deck, rounds=1),
                                                            4, 11)))
    rounds = document["rounds"]
    assert isinstance(rounds, list) and isinstance(rounds[0], dict)
    setups = rounds[0]["setup"]
    assert isinstance(setups, list) and isinstance(setups[0], dict)
    setups[0].update({"_x": 1, "_y": "two"})  # five keys: laid out one a line
    assert isinstance(setups[1], dict)
    setups[1]["_z"] = 0  # four: still on one line
    record = parse_record(document)
    layout = Path(__file__).resolve().parent / "data" / "layout"
    pretty = dumps_record(record, indent=2)
    compact = dumps_record(record)
    assert pretty + "\n" == (layout / "record-indent-2.json").read_text()
    assert compact + "\n" == (layout / "record-compact.json").read_text()
    assert loads_record(pretty) == loads_record(compact) == record


def _small_record_document() -> dict[str, JSON]:
    from games import doc_of, random_game

    return doc_of(random_game(Config(players=3), 4, 16))


@pytest.mark.parametrize(
    ("where", "value", "path"),
    [
        (("plays", 0, 0), -1, "$.rounds[0].plays[0][0]"),
        (("plays", 0, 0), 3, "$.rounds[0].plays[0][0]"),
        (("plays", 0, 0), "1", "$.rounds[0].plays[0][0]"),
        (("plays", 0, 1), "7", "$.rounds[0].plays[0][1]"),
        (("setup", 0, "right"), "x", "$.rounds[0].setup[0].right"),
        (("setup", 0, "left"), None, "$.rounds[0].setup[0].left"),
        (("setup", 0, "discard", 0), "x", "$.rounds[0].setup[0].discard[0]"),
        (("hands", 1, 2), "x", "$.rounds[0].hands[1][2]"),
    ],
)
def test_a_record_value_of_the_wrong_kind_is_refused_at_its_path(
    where: tuple[str | int, ...], value: JSON, path: str
) -> None:
    """The reader's inline checks of the usual shapes (plays as pairs of integers, plain setup
    entries, hands of integers) pass anything else to the careful path, which refuses it."""
    document = _small_record_document()
    rounds = document["rounds"]
    assert isinstance(rounds, list)
    container: Any = rounds[0]
    for key in where[:-1]:
        container = container[key]
    container[where[-1]] = value
    with pytest.raises(RecordError) as caught:
        parse_record(document)
    assert caught.value.path == path


def test_extension_objects_compare_by_value_whatever_their_key_order() -> None:
    first = _small_record_document()
    second = _small_record_document()
    first["_tool"] = {"name": "x", "version": 2}
    second["_tool"] = {"version": 2, "name": "x"}
    assert parse_record(first) == parse_record(second)


def test_a_record_file_is_written_laid_out_with_one_space_and_a_final_newline(
    tmp_path: Path,
) -> None:
    from bottleimp.formats._records import dumps_record, write_record_file

    record = parse_record(_small_record_document())
    write_record_file(tmp_path / "r.json", record)
    assert (tmp_path / "r.json").read_text(encoding="utf-8") == dumps_record(record, indent=1) + "\n"
    assert '\n "config": {\n  "edition"' in (tmp_path / "r.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("entry", "path", "message"),
    [({"discard": [1], "left": 2, "right": 3, "up": 4}, "$.setup.up", "unknown key"),
     ({"left": 2, "right": 3}, "$.setup.discard", "missing"),
     ({"discard": [1], "to_face_up": 2}, "$.setup.to_face_up", "unknown key")],
)
def test_a_protocol_setup_entry_holds_only_its_keys(
    entry: dict[str, JSON], path: str, message: str
) -> None:
    from bottleimp.formats._setup_entries import gives_from_entry

    with pytest.raises(RecordError) as caught:
        gives_from_entry(Config(players=3), 0, entry, "$.setup")
    assert (caught.value.path, caught.value.message) == (path, message)


def test_an_array_that_holds_an_object_is_laid_out_one_item_a_line() -> None:
    """Only an array of plain values (or of arrays of them) is written on one line: an extension
    ``[1, {"a": 2}]`` holds an object, so its items go one a line."""
    from bottleimp.formats._records import dumps_record, loads_record

    document = _small_record_document()
    document["_note"] = [1, {"a": 2}]
    record = parse_record(document)
    pretty = dumps_record(record, indent=1)
    assert '"_note": [\n  1,\n  {"a": 2}\n ]' in pretty, pretty
    assert loads_record(pretty) == record

"""Decks as data: ``spec/decks/*.json`` (``bottleimp-deck/1``) are what the library loads.

The decks the library loads equal the cited values restated here, independently of the files
(they were the Python literals of ``bottleimp/_editions.py`` before the decks became data); the
package ships the very files of ``spec/decks/``; the reader refuses a malformed deck file with
an error naming the file and the JSON path; ``spec/deck.schema.json`` agrees with the reader;
and the deck files, the deck tables of ``spec/conformance/README.md`` and rule
``CONFIG-EDITION`` agree with each other.
"""

from __future__ import annotations

import copy
import fnmatch
import json
import re
import tomllib
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp import CLASSIC, EDITIONS, MATAGOT_2024, MATAGOT_2024_54, Config
from bottleimp._cards import Card, Colour, Rank
from bottleimp._editions import MATAGOT_2024_HALF_RANKS, edition_deck, every_deck
from bottleimp.formats._decks import read_deck_file
from bottleimp._errors import CatalogueError, ConfigError
from bottleimp.formats._json_input import JSON

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "spec" / "decks"
SCHEMA = json.loads((ROOT / "spec" / "deck.schema.json").read_text(encoding="utf-8"))
VALIDATOR = Draft202012Validator(SCHEMA)

# --- the cited values, restated (rank:coins per colour) --------------------------------------
# classic: seeds 002 and 003, IRC and HEK agree card for card. matagot-2024: BGA
# material.inc.php (17 has 4 coins there: interpretation I-MATAGOT-17); the 54-card deck adds
# 18 half ranks, each with the colour and coins of the whole rank just below it.

_Y, _B, _R, _G = Colour.YELLOW, Colour.BLUE, Colour.RED, Colour.GREEN


def _colour(colour: Colour, cards: str) -> list[Card]:
    result = []
    for pair in cards.split():
        rank, coin = pair.split(":")
        value: Rank = float(rank) if "." in rank else int(rank)
        result.append(Card(value, colour, int(coin)))
    return result


def _sorted(*groups: list[Card]) -> tuple[Card, ...]:
    return tuple(sorted((card for group in groups for card in group), key=lambda c: c.rank))


CITED_CLASSIC = _sorted(
    _colour(_Y, "1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6"),
    _colour(_B, "4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6"),
    _colour(_R, "11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6"),
)
CITED_MATAGOT_2024 = _sorted(
    _colour(_R, "1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6"),
    _colour(_B, "3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6"),
    _colour(_G, "11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6"),
)
CITED_HALF_RANKS = _sorted(
    _colour(_R, "2.5:1 4.5:2 12.5:4 18.5:5 22.5:5 28.5:6"),
    _colour(_B, "6.5:1 8.5:2 10.5:2 20.5:4 30.5:5 32.5:6"),
    _colour(_G, "14.5:1 16.5:2 24.5:3 26.5:3 34.5:5 36.5:6"),
)
CITED_MATAGOT_2024_54 = _sorted(list(CITED_MATAGOT_2024), list(CITED_HALF_RANKS))


def test_the_loaded_decks_are_the_cited_decks_DECK() -> None:
    assert CLASSIC == CITED_CLASSIC
    assert MATAGOT_2024 == CITED_MATAGOT_2024
    assert MATAGOT_2024_54 == CITED_MATAGOT_2024_54
    assert MATAGOT_2024_HALF_RANKS == CITED_HALF_RANKS
    assert EDITIONS == ("classic", "matagot-2024")
    for cards in (CLASSIC, MATAGOT_2024, MATAGOT_2024_54):
        assert isinstance(cards, tuple) and all(isinstance(card, Card) for card in cards)
        # Whole ranks are ints, half ranks floats (rule CARD-RANK), as the literals made them.
        assert all(type(card.rank) is (float if card.rank % 1 else int) for card in cards)


def test_edition_deck_picks_the_deck_the_file_names_for_a_player_count_DECK() -> None:
    for players in (2, 3, 4):
        assert edition_deck("classic", players) is CLASSIC
        assert edition_deck("matagot-2024", players) is MATAGOT_2024
    for players in (5, 6):
        assert edition_deck("matagot-2024", players) is MATAGOT_2024_54
        with pytest.raises(ValueError, match="no deck for"):
            edition_deck("classic", players)
    with pytest.raises(ValueError, match="unknown edition"):
        edition_deck("bga", 4)


def test_the_deck_files_agree_with_the_editions_player_counts_CONFIG_EDITION() -> None:
    for edition in EDITIONS:
        served = {count for deck in json.loads((DECKS / f"{edition}.json").read_text())["decks"]
                  for count in deck["players"]}
        for players in range(2, 7):
            if players in served:
                assert Config(players=players, edition=edition).cards == \
                    edition_deck(edition, players)
            else:
                with pytest.raises(ConfigError) as refused:
                    Config(players=players, edition=edition)
                assert refused.value.rule_id == "CONFIG-EDITION"


# --- the files and the package -----------------------------------------------------------------


def test_the_package_ships_the_spec_deck_files_themselves_DECK() -> None:
    shipped = resources.files("bottleimp") / "data" / "decks"
    assert sorted(path.name for path in DECKS.glob("*.json")) == \
        sorted(f"{edition}.json" for edition in EDITIONS)
    for edition in EDITIONS:
        name = f"{edition}.json"
        assert (shipped / name).read_bytes() == (DECKS / name).read_bytes()
    # A non-editable install takes package data from these patterns: they must cover the files.
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = pyproject["tool"]["setuptools"]["package-data"]["bottleimp"]
    for edition in EDITIONS:
        assert any(fnmatch.fnmatch(f"data/decks/{edition}.json", p) for p in patterns)


def test_the_deck_files_match_the_schema_and_the_tables_of_the_conformance_readme() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    readme = (ROOT / "spec" / "conformance" / "README.md").read_text(encoding="utf-8")
    tables = readme.split("## The decks (rank:coins)")[1].split("\n## ")[0]
    for edition in EDITIONS:
        doc = json.loads((DECKS / f"{edition}.json").read_text(encoding="utf-8"))
        assert list(VALIDATOR.iter_errors(doc)) == []
        assert doc["edition"] == edition
    # The README's rows: "| colour | rank:coins ... |" (and the half ranks for matagot-2024).
    rows = re.findall(r"^\| (yellow|blue|red|green) \| ([^|]+)\|(?: ([^|]+)\|)?$", tables, re.M)
    by_table: list[list[Card]] = [[], []]
    table = -1
    for colour, cards, halves in rows:
        if colour == rows[0][0] or (table == 0 and halves):
            table += 1
        by_table[table] += _colour(Colour(colour), cards)
        whole = {card.rank: card for card in by_table[table]}
        for rank in halves.split():
            below = whole[float(rank) - 0.5]
            by_table[table].append(Card(float(rank), below.colour, below.coins))
    assert _sorted(by_table[0]) == CLASSIC
    assert _sorted(by_table[1]) == MATAGOT_2024_54
    assert set(MATAGOT_2024) < set(by_table[1])  # the 36 cards, each with its colour and coins


# --- malformed deck files --------------------------------------------------------------------

Doc = dict[str, Any]


def _classic() -> Doc:
    doc: Doc = json.loads((DECKS / "classic.json").read_text(encoding="utf-8"))
    return doc


def _set(path: tuple[str | int, ...], value: Any) -> Callable[[Doc], None]:
    def change(doc: Doc) -> None:
        target: Any = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def _swap_first_two_cards(doc: Doc) -> None:
    cards = doc["decks"][0]["cards"]
    cards[0], cards[1] = cards[1], cards[0]


def _second_deck_for_4_players(doc: Doc) -> None:
    doc["decks"].append(copy.deepcopy(doc["decks"][0]) | {"name": "other", "players": [4]})


def _drop(key: str) -> Callable[[Doc], None]:
    return lambda doc: doc["decks"][0].pop(key)


# (what is wrong, the change, the JSON path named, whether the schema sees it too)
MALFORMED: list[tuple[str, Callable[[Doc], None], str, bool]] = [
    ("another format", _set(("format",), "bottleimp-deck/2"), "$.format", True),
    ("another edition", _set(("edition",), "matagot-2024"), "$.edition", False),
    ("an unknown key", _set(("colours",), 3), "$.colours", True),
    ("no decks", _set(("decks",), []), "$.decks", True),
    ("no cards", _set(("decks", 0, "cards"), []), "$.decks[0].cards", True),
    ("a deck without coins", _drop("coins"), "$.decks[0].coins", True),
    ("coins that are not the sum", _set(("decks", 0, "coins"), 127), "$.decks[0].coins", False),
    ("ranks out of order", _swap_first_two_cards, "$.decks[0].cards[1]", False),
    ("a rank twice", _set(("decks", 0, "cards", 1, 0), 1), "$.decks[0].cards[1]", False),
    ("the start card", _set(("decks", 0, "cards", 17, 0), 19), "$.decks[0].cards[17][0]", True),
    ("a quarter rank", _set(("decks", 0, "cards", 0, 0), 0.25), "$.decks[0].cards[0][0]", True),
    ("a rank that is not a number", _set(("decks", 0, "cards", 0, 0), "1"),
     "$.decks[0].cards[0][0]", True),
    ("an unknown colour", _set(("decks", 0, "cards", 0, 1), "purple"),
     "$.decks[0].cards[0][1]", True),
    ("negative coins", _set(("decks", 0, "cards", 0, 2), -1), "$.decks[0].cards[0][2]", True),
    ("a card of two items", _set(("decks", 0, "cards", 0), [1, "yellow"]),
     "$.decks[0].cards[0]", True),
    ("7 players", _set(("decks", 0, "players"), [2, 7]), "$.decks[0].players[1]", True),
    ("a player count twice", _set(("decks", 0, "players"), [2, 2]), "$.decks[0].players", True),
    ("two decks for 4 players", _second_deck_for_4_players, "$.decks[1].players", False),
]


@pytest.mark.parametrize(("what", "change", "path", "schema_sees_it"), MALFORMED,
                         ids=[case[0] for case in MALFORMED])
def test_a_malformed_deck_file_is_refused_naming_the_file_and_the_path_DECK(
    what: str, change: Callable[[Doc], None], path: str, schema_sees_it: bool
) -> None:
    doc = _classic()
    assert read_deck_file(json.dumps(doc), "classic.json", "classic")  # the original is read
    change(doc)
    with pytest.raises(CatalogueError) as refused:
        read_deck_file(json.dumps(doc), "decks/classic.json", "classic")
    assert refused.value.where == f"decks/classic.json: {path}", refused.value
    assert bool(list(VALIDATOR.iter_errors(doc))) == schema_sees_it


@pytest.mark.parametrize("text", ["[" * 100_000, '{"format": NaN}', "not json",
                                  '{"format": ' + "9" * 5000 + "}", b"\xff\xfe"],
                         ids=["nested 100k deep", "NaN", "not JSON", "5000 digits", "not UTF-8"])
def test_a_deck_file_the_hardened_reader_refuses_is_a_catalogue_error(text: str | bytes) -> None:
    with pytest.raises(CatalogueError, match=r"^x\.json: \$: "):
        read_deck_file(text, "x.json")


def test_extension_keys_are_ignored_by_the_reader_and_the_schema() -> None:
    doc = _classic()
    doc["_generator"] = "by hand"
    doc["decks"][0]["_source"] = {"page": 3}
    assert read_deck_file(json.dumps(doc), "x.json")[0].cards == CLASSIC
    assert list(VALIDATOR.iter_errors(doc)) == []


def test_read_deck_reads_one_deck_object_with_errors_at_its_path_DECK() -> None:
    from bottleimp.formats._decks import read_deck
    from bottleimp._errors import RecordError

    value: dict[str, JSON] = {"name": "mine", "players": [3], "coins": 3,
                              "cards": [[1, "yellow", 1], [2.5, "red", 2]]}
    deck = read_deck(value, "$.deck")
    assert deck.name == "mine" and deck.players == (3,)
    assert deck.cards == (Card(1, Colour.YELLOW, 1), Card(2.5, Colour.RED, 2))
    value["cards"] = [[1, "yellow", 1], [2.5, "mauve", 2]]
    with pytest.raises(RecordError) as refused:
        read_deck(value, "$.deck")
    assert refused.value.path == "$.deck.cards[1][1]"


def test_every_shipped_deck_file_passes_the_deck_file_reader_with_the_decks_the_core_loads_DECK(
) -> None:
    """The core loads its own deck files without the checks of ``formats.decks``: every one of
    them passes those checks and gives the very decks the core loaded."""
    for edition in EDITIONS:
        data = (resources.files("bottleimp") / "data" / "decks" / f"{edition}.json").read_bytes()
        checked = read_deck_file(data, f"{edition}.json", edition)
        assert checked == tuple(deck for name, deck in every_deck() if name == edition)


def test_a_deck_file_or_deck_name_the_package_lacks_is_a_catalogue_error() -> None:
    """The package reads its decks when it is imported; a missing file or deck name is reported
    as such (these are what a broken installation or a renamed deck would meet)."""
    from bottleimp import _editions as editions

    with pytest.raises(CatalogueError) as caught:
        editions._load("no-such-edition")
    assert caught.value.where == "bottleimp/data/decks/no-such-edition.json"
    assert caught.value.message.startswith("cannot read the deck file")
    with pytest.raises(CatalogueError) as caught:
        editions._deck("classic", "no-such-deck")
    assert caught.value.where == "bottleimp/data/decks/classic.json"
    assert caught.value.message == "no deck named 'no-such-deck'"


@pytest.mark.parametrize("players", [[], [2, 2], [4, 3, 4]], ids=["none", "2 twice", "4 twice"])
def test_a_deck_names_each_player_count_once_and_at_least_one_DECK(players: list[int]) -> None:
    doc = _classic()
    doc["decks"][0]["players"] = players
    with pytest.raises(CatalogueError) as refused:
        read_deck_file(json.dumps(doc), "classic.json", "classic")
    assert refused.value.where == "classic.json: $.decks[0].players"
    assert refused.value.message == "expected distinct player counts, at least one"


def _one_card_changed(doc: Doc, item: list[JSON]) -> None:
    doc["decks"][0]["cards"][0] = item
    doc["decks"][0]["coins"] = sum(card[2] for card in doc["decks"][0]["cards"]
                                   if isinstance(card[2], int))


@pytest.mark.parametrize(
    ("item", "path", "message"),
    [([0, "yellow", 1], "$.decks[0].cards[0][0]", "expected a positive whole or half rank, found 0"),
     ([1, 5, 1], "$.decks[0].cards[0][1]", None),
     ([1, "yellow", -1], "$.decks[0].cards[0][2]", None)],
)
def test_a_deck_card_part_out_of_range_is_refused_at_its_path_DECK(
    item: list[JSON], path: str, message: str | None
) -> None:
    doc = _classic()
    _one_card_changed(doc, item)
    with pytest.raises(CatalogueError) as refused:
        read_deck_file(json.dumps(doc), "classic.json", "classic")
    assert refused.value.where == f"classic.json: {path}"
    if message is not None:
        assert refused.value.message == message


def test_a_deck_card_may_carry_no_coin_DECK() -> None:
    doc = _classic()
    first = doc["decks"][0]["cards"][0]
    _one_card_changed(doc, [first[0], first[1], 0])
    (deck,) = [d for d in read_deck_file(json.dumps(doc), "classic.json", "classic")
               if d.name == doc["decks"][0]["name"]]
    assert deck.cards[0].coins == 0

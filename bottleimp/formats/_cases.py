"""The conformance case files (``bottleimp-conformance/1``, described in
``spec/conformance/README.md``): each holds one kind of case, in groups that share a
configuration; a case has an ``input`` and the ``expected`` answer. Read through the hardened
JSON reader (every fault a ``RecordError`` at ``file:$.path``) and written deterministically;
``CaseInput`` reads the values of a case's ``input`` (``INPUT_KEYS``) against its configuration,
``ranks``, ``bottles_to_json``, ``plays_to_json``, ``zones_to_json`` and ``scoring_input`` write
them, and
``same_json`` is the equality answers are compared by."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Final

from attrs import frozen

from .._actions import Play
from .._cards import START_PRICE, Card, rank_key
from .._config import Config
from .._errors import RecordError
from .._state import Bottle, RoundState
from ..rules._registry import RULE_FUNCTIONS
from ._config_json import config_from_json
from ._json_input import (
    JSON,
    check_keys,
    child,
    expect_card,
    expect_int,
    expect_list,
    expect_object,
    expect_rank,
    expect_str,
    read_json_file,
)

__all__ = ["CONFORMANCE_FORMAT", "INPUT_KEYS", "KINDS", "Case", "CaseInput", "bottles_to_json",
           "cases_from_json", "format_case_file", "plays_to_json", "ranks", "read_case_file", "read_suite",
           "same_json", "scoring_input", "zones_to_json"]

CONFORMANCE_FORMAT: Final = "bottleimp-conformance/1"
"""The value of a case file's ``format`` key."""

KINDS: Final = ("trick", "legal_plays", "setup", "scoring", "record")
"""The kinds of case, each in its own folder of ``spec/conformance``."""


@frozen
class Case:
    """One conformance case as read from its file.

    ``where`` names the file and the JSON path of the case in it; ``group`` is the description
    of its group; ``rules`` the rule IDs it exercises; ``bug`` the known bug of another
    implementation it guards against, if any."""

    where: str
    kind: str
    group: str
    description: str
    rules: tuple[str, ...]
    bug: str | None
    config: Config
    input: JSON
    expected: JSON
    decides: tuple[str, ...] | None = None
    """The keys of ``expected`` that decide the case (``None``: every key)."""

    @property
    def deciding_keys(self) -> tuple[str, ...]:
        """The keys an answer is compared on: ``decides``, else every key of ``expected``."""
        if self.decides is not None:
            return self.decides
        return tuple(self.expected) if isinstance(self.expected, dict) else ()


INPUT_KEYS: Final[dict[str, tuple[set[str], set[str]]]] = {
    "trick": ({"bottles", "trick"}, set()),
    "legal_plays": ({"seat", "hand", "trick"}, {"face_up", "attempts"}),
    "setup": ({"dealer", "hands", "setup"}, {"face_up"}),
    "scoring": ({"captured", "bottles", "devils_trick"}, set()),
    "record": ({"record"}, set()),
}
"""The keys of each kind's ``input``: required, optional."""


class CaseInput:
    """The values of a case's ``input`` in the shapes ``spec/conformance/README.md`` gives, read
    against the case's configuration with path-aware errors: cards by rank, a card list holding
    each card once, one list per seat, seats, bottles (price and owner) and plays."""

    def __init__(self, config: Config) -> None:
        self.config = config

    def card(self, value: JSON, path: str) -> Card:
        return expect_card(value, self.config, path)

    def cards(self, value: JSON, path: str) -> tuple[Card, ...]:
        cards = tuple(self.card(item, child(path, i)) for i, item in enumerate(expect_list(value, path)))
        if len(set(cards)) != len(cards):
            raise RecordError(path, "a card appears twice")
        return cards

    def rows(self, value: JSON, path: str) -> tuple[tuple[Card, ...], ...]:
        rows = expect_list(value, path)
        if len(rows) != self.config.players:
            raise RecordError(path, f"expected one list per seat ({self.config.players})")
        return tuple(self.cards(row, child(path, seat)) for seat, row in enumerate(rows))

    def seat(self, value: JSON, path: str) -> int:
        return expect_int(value, path, 0, self.config.players - 1)

    def bottles(self, value: JSON, path: str) -> tuple[Bottle, ...]:
        items = expect_list(value, path)
        if len(items) != self.config.bottles:
            raise RecordError(path, f"expected {self.config.bottles} bottle(s)")
        bottles = []
        for index, item in enumerate(items):
            item_path = child(path, index)
            obj = expect_object(item, item_path)
            check_keys(obj, item_path, {"price", "owner"}, set())
            owner = obj["owner"]
            if expect_rank(obj["price"], child(item_path, "price")) == START_PRICE:
                if owner is not None:
                    raise RecordError(child(item_path, "owner"), "a bottle at 19 has no owner")
                bottles.append(Bottle())
                continue
            if owner is None:
                raise RecordError(child(item_path, "owner"), "a bottle below 19 has an owner")
            bottles.append(
                Bottle(
                    self.card(obj["price"], child(item_path, "price")),
                    self.seat(owner, child(item_path, "owner")),
                )
            )
        return tuple(bottles)

    def plays(self, value: JSON, path: str) -> tuple[Play, ...]:
        plays = []
        for index, item in enumerate(expect_list(value, path)):
            item_path = child(path, index)
            pair = expect_list(item, item_path)
            if len(pair) != 2:
                raise RecordError(item_path, "expected [seat, card]")
            plays.append(Play(self.seat(pair[0], child(item_path, 0)),
                              self.card(pair[1], child(item_path, 1))))
        if len({play.card for play in plays}) != len(plays):
            raise RecordError(path, "a card is played twice")
        return tuple(plays)


def ranks(cards: Sequence[Card]) -> list[JSON]:
    """Card ranks in ascending order, as the cases write them."""
    return [card.rank for card in sorted(cards, key=rank_key)]


def bottles_to_json(bottles: Sequence[Bottle]) -> list[JSON]:
    """Bottles as the cases write them: price and owner."""
    return [{"price": bottle.price, "owner": bottle.owner} for bottle in bottles]


def plays_to_json(plays: Sequence[Play]) -> list[JSON]:
    """Plays as ``[seat, card]`` pairs in play order, as the cases write a trick."""
    return [[play.seat, play.card.rank] for play in plays]


def zones_to_json(round_: RoundState) -> dict[str, JSON]:
    """The hands, face-up rows and Devil's Trick of ``round_``, as the setup cases and the
    protocol write them."""
    return {"hands": [ranks(hand) for hand in round_.hands],
            "face_up": None if round_.face_up is None else [ranks(row) for row in round_.face_up],
            "devils_trick": ranks(round_.devils_trick)}


def scoring_input(round_: RoundState) -> dict[str, JSON]:
    """The input of a scoring case on ``round_``: the captured piles, bottles, Devil's Trick."""
    return {"captured": [ranks(pile) for pile in round_.captured],
            "bottles": bottles_to_json(round_.bottles), "devils_trick": ranks(round_.devils_trick)}


def same_json(expected: JSON, actual: JSON) -> bool:
    """JSON equality as the cases and the protocol define it: numbers by value (17 equals 17.0),
    booleans only equal booleans, object keys that start with ``_`` in ``actual`` ignored."""
    if isinstance(expected, bool) or isinstance(actual, bool):
        return isinstance(expected, bool) and isinstance(actual, bool) and expected == actual
    if isinstance(expected, (int, float)) and isinstance(actual, (int, float)):
        return expected == actual
    if isinstance(expected, list) and isinstance(actual, list):
        return len(expected) == len(actual) and all(map(same_json, expected, actual))
    if isinstance(expected, dict) and isinstance(actual, dict):
        keys = {key for key in actual if not key.startswith("_")}
        return keys == set(expected) and all(same_json(expected[k], actual[k]) for k in expected)
    return type(expected) is type(actual) and expected == actual


_FILE_KEYS: Final = ({"format", "kind", "description", "groups"}, {"generated_by"})
_GROUP_KEYS: Final = ({"description", "config", "cases"}, set[str]())
_CASE_KEYS: Final = ({"description", "input", "expected"}, {"rules", "bug", "decides"})


def read_case_file(path: str | Path) -> tuple[Case, ...]:
    """Every case in the case file at ``path``; a malformed file raises ``RecordError`` whose
    path starts with the file name."""
    name = str(path)
    try:
        value = read_json_file(path)  # the one JSON reader: size, nesting and numbers bounded
    except RecordError as error:
        raise RecordError(f"{name}:{error.path}",
                          f"not a readable JSON file: {error.message}") from None
    return cases_from_json(value, name)


def cases_from_json(value: JSON, name: str = "<cases>") -> tuple[Case, ...]:
    """Every case in a parsed case file; faults raise ``RecordError`` at ``name:$.path``."""
    obj = expect_object(value, f"{name}:$")
    check_keys(obj, f"{name}:$", *_FILE_KEYS)
    if obj["format"] != CONFORMANCE_FORMAT:
        raise RecordError(f"{name}:$.format", f"expected {CONFORMANCE_FORMAT!r}")
    kind = expect_str(obj["kind"], f"{name}:$.kind")
    if kind not in KINDS:
        raise RecordError(f"{name}:$.kind", f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
    cases: list[Case] = []
    groups_path = f"{name}:$.groups"
    for g, group_value in enumerate(expect_list(obj["groups"], groups_path)):
        group_path = child(groups_path, g)
        group = expect_object(group_value, group_path)
        check_keys(group, group_path, *_GROUP_KEYS)
        description = expect_str(group["description"], child(group_path, "description"))
        config = config_from_json(group["config"], child(group_path, "config"))
        cases_path = child(group_path, "cases")
        for c, case_value in enumerate(expect_list(group["cases"], cases_path)):
            case_path = child(cases_path, c)
            case = expect_object(case_value, case_path)
            check_keys(case, case_path, *_CASE_KEYS)
            rules = tuple(
                _expect_rule_id(item, child(child(case_path, "rules"), i))
                for i, item in enumerate(expect_list(case.get("rules", []), child(case_path, "rules")))
            )
            bug = case.get("bug")
            decides = None
            if case.get("decides") is not None:
                decides_path = child(case_path, "decides")
                decides = tuple(expect_str(item, child(decides_path, i))
                                for i, item in enumerate(expect_list(case["decides"], decides_path)))
            cases.append(
                Case(
                    where=case_path,
                    kind=kind,
                    group=description,
                    description=expect_str(case["description"], child(case_path, "description")),
                    rules=rules,
                    bug=None if bug is None else expect_str(bug, child(case_path, "bug")),
                    config=config,
                    input=expect_object(case["input"], child(case_path, "input")),
                    expected=expect_object(case["expected"], child(case_path, "expected")),
                    decides=decides,
                )
            )
    return tuple(cases)


def _expect_rule_id(value: JSON, path: str) -> str:
    rule_id = expect_str(value, path)
    if rule_id not in RULE_FUNCTIONS:
        raise RecordError(path, f"{rule_id!r} is not a rule ID of bottleimp")
    return rule_id


def read_suite(directory: str | Path) -> tuple[Case, ...]:
    """Every case of every ``*.json`` file under ``directory``'s kind folders, in path order."""
    root = Path(directory)
    if not root.is_dir():
        raise RecordError(str(root), "not a directory of conformance cases")
    cases: list[Case] = []
    for kind in KINDS:
        for path in sorted((root / kind).glob("*.json")):
            found = read_case_file(path)
            for case in found:
                if case.kind != kind:
                    raise RecordError(f"{path}:$.kind", f"a {case.kind} file in the {kind} folder")
            cases.extend(found)
    return tuple(cases)


def format_case_file(value: Mapping[str, JSON]) -> str:
    """A case file as text: its header keys one per line, each group's description and config
    on their own lines, each case on one line; deterministic, so regenerated files diff cleanly."""

    def dump(item: JSON) -> str:
        return json.dumps(item, ensure_ascii=False, allow_nan=False)

    lines = ["{"]
    header = [key for key in value if key != "groups"]
    for key in header:
        lines.append(f"  {dump(key)}: {dump(value[key])},")
    lines.append('  "groups": [')
    groups = value.get("groups")
    assert isinstance(groups, list)
    for g, group in enumerate(groups):
        assert isinstance(group, dict)
        lines.append("    {")
        lines.append(f'      "description": {dump(group["description"])},')
        lines.append(f'      "config": {dump(group["config"])},')
        lines.append('      "cases": [')
        cases = group["cases"]
        assert isinstance(cases, list)
        for c, case in enumerate(cases):
            comma = "," if c < len(cases) - 1 else ""
            lines.append(f"        {dump(case)}{comma}")
        lines.append("      ]")
        lines.append("    }" + ("," if g < len(groups) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    return "\n".join(lines) + "\n"

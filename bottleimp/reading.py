"""Path-aware reading of JSON values: every fault raises ``RecordError`` naming its JSON path.

Shared by the state codec and the record reader, so that both name faults the same way
(``$.rounds[2].plays[5][1]``).
"""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Mapping
from typing import Final, TypeAlias

from .cards import Card, Colour, Rank, normalize_rank
from .config import Config
from .errors import ConfigError, RecordError

JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"


_PLAIN_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.lru_cache(maxsize=4096)
def child(path: str, key: str | int) -> str:
    """The JSON path of ``key`` under ``path``: ``$.rounds`` then ``$.rounds[0]``.

    A key that is not a plain name is written quoted and ASCII-escaped (``$["a b"]``), so a
    path can always be printed, whatever bytes the key holds."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _PLAIN_KEY.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def expect_object(value: JSON, path: str) -> dict[str, JSON]:
    """``value`` as a JSON object, or a ``RecordError`` at ``path``."""
    if not isinstance(value, dict):
        raise RecordError(path, f"expected an object, found {_kind(value)}")
    return value


def expect_list(value: JSON, path: str) -> list[JSON]:
    """``value`` as a JSON array, or a ``RecordError`` at ``path``."""
    if not isinstance(value, list):
        raise RecordError(path, f"expected an array, found {_kind(value)}")
    return value


def expect_int(value: JSON, path: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an integer within ``[low, high]``, or a ``RecordError`` at ``path``."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(path, f"expected an integer, found {_kind(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low if low is not None else '-inf'} to {high if high is not None else 'inf'}"
        raise RecordError(path, f"expected an integer from {bounds}, found {value}")
    return value


def expect_str(value: JSON, path: str) -> str:
    """``value`` as a string, or a ``RecordError`` at ``path``."""
    if not isinstance(value, str):
        raise RecordError(path, f"expected a string, found {_kind(value)}")
    return value


def expect_rank(value: JSON, path: str) -> Rank:
    """``value`` as a finite card rank, or a ``RecordError`` at ``path``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError(path, f"expected a card rank (a number), found {_kind(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise RecordError(path, f"expected a card rank, found {value}")
    return normalize_rank(value)


def expect_card(value: JSON, deck: Mapping[Rank, Card], path: str) -> Card:
    """The card of ``deck`` whose rank is ``value``, or a ``RecordError`` at ``path``."""
    rank = expect_rank(value, path)
    card = deck.get(rank)
    if card is None:
        raise RecordError(path, f"{rank} is not a card of this game's deck")
    return card


def check_keys(obj: Mapping[str, JSON], path: str, required: set[str], optional: set[str]) -> None:
    """Refuse missing and unknown keys; keys that start with ``_`` are extensions, ignored."""
    for key in sorted(required - obj.keys()):
        raise RecordError(child(path, key), "missing")
    for key in obj:
        if key not in required and key not in optional and not key.startswith("_"):
            raise RecordError(child(path, key), "unknown key")


def deck_by_rank(config: Config) -> dict[Rank, Card]:
    """The game's cards keyed by rank."""
    return {card.rank: card for card in config.cards}


def config_to_json(config: Config) -> dict[str, JSON]:
    """A configuration as JSON (the record format's ``config`` object, plus ``deck`` if custom)."""
    data: dict[str, JSON] = {
        "edition": config.edition,
        "players": config.players,
        "bottles": config.bottles,
        "teams": None if config.teams is None else [list(team) for team in config.teams],
        "rounds": config.rounds,
        "target_score": config.target_score,
    }
    if config.deck is not None:
        data["deck"] = [[card.rank, card.colour.value, card.coins] for card in config.deck]
    return data


_CONFIG_KEYS = {"edition", "players", "bottles", "teams", "rounds", "target_score", "deck"}

_CONFIG_RULE_KEYS: Final = {
    "CONFIG-PLAYERS": "players",
    "CONFIG-EDITION": "edition",
    "CONFIG-BOTTLES": "bottles",
    "CONFIG-TEAMS": "teams",
    "CONFIG-DECK": "deck",
}


class ConfigRecordError(RecordError):
    """A well-formed configuration that no source defines: ``rule_id`` is the configuration rule
    it breaks (from the ``ConfigError``) and ``path`` the JSON path of the key at fault."""

    def __init__(self, path: str, message: str, rule_id: str) -> None:
        super().__init__(path, message, rule_id)
        self.rule_id: str = rule_id


def config_from_json(value: JSON, path: str) -> Config:
    """A configuration from JSON; a malformed one raises ``RecordError`` at its path, and one no
    source defines raises ``ConfigRecordError`` naming the configuration rule it breaks.

    Only the JSON types are checked here; the values (player count, bottles, teams, game end)
    are judged by ``Config`` itself, so that every refusal quotes its rule ID."""
    obj = expect_object(value, path)
    check_keys(obj, path, {"players"}, _CONFIG_KEYS)
    players = expect_int(obj["players"], child(path, "players"))
    edition = expect_str(obj.get("edition", "classic"), child(path, "edition"))
    bottles = expect_int(obj.get("bottles", 1), child(path, "bottles"))
    teams: list[list[int]] | None = None
    if obj.get("teams") is not None:
        teams_path = child(path, "teams")
        teams = [
            [
                expect_int(seat, child(child(teams_path, i), j))
                for j, seat in enumerate(expect_list(team, child(teams_path, i)))
            ]
            for i, team in enumerate(expect_list(obj["teams"], teams_path))
        ]
    rounds_value = obj.get("rounds")
    target_value = obj.get("target_score")
    rounds = None if rounds_value is None else expect_int(rounds_value, child(path, "rounds"))
    target = (
        None if target_value is None else expect_int(target_value, child(path, "target_score"))
    )
    deck: list[Card] | None = None
    if obj.get("deck") is not None:
        deck_path = child(path, "deck")
        deck = [_card_from_triple(item, child(deck_path, i)) for i, item in
                enumerate(expect_list(obj["deck"], deck_path))]
    try:
        return Config(
            players=players,
            edition=edition,
            bottles=bottles,
            teams=teams,
            rounds=rounds,
            target_score=target,
            deck=deck,
        )
    except ConfigError as error:
        key = _CONFIG_RULE_KEYS.get(error.rule_id)
        if error.rule_id == "CONFIG-GAME-END":
            key = None if rounds is not None and target is not None else (
                "rounds" if rounds is not None else "target_score"
            )
        at = path if key is None else child(path, key)
        raise ConfigRecordError(
            at, f"invalid configuration: [{error.rule_id}] {error.message}", error.rule_id
        ) from error


def _card_from_triple(value: JSON, path: str) -> Card:
    items = expect_list(value, path)
    if len(items) != 3:
        raise RecordError(path, "expected [rank, colour, coins]")
    colour_name = expect_str(items[1], child(path, 1))
    try:
        colour = Colour(colour_name)
    except ValueError:
        raise RecordError(child(path, 1), f"unknown colour {colour_name!r}") from None
    return Card(expect_rank(items[0], child(path, 0)), colour, expect_int(items[2], child(path, 2), 0))


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {json.dumps(value)[:40]}"
    if isinstance(value, list):
        return "an array"
    return "an object"

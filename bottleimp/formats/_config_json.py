"""A configuration as JSON: the record format's ``config`` object (plus ``deck`` if custom)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .._cards import Card, Colour
from .._config import Config
from .._errors import ConfigError, RecordError
from ._json_input import (
    JSON,
    check_keys,
    child,
    expect_int,
    expect_list,
    expect_object,
    expect_rank,
    expect_str,
)


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
        data["deck"] = deck_to_json(config.deck)
    return data


def deck_to_json(cards: Iterable[Card]) -> list[JSON]:
    """Cards as ``[rank, colour, coins]`` triples, the form records and the protocol use."""
    return [[card.rank, card.colour.value, card.coins] for card in cards]


def deck_from_json(value: JSON, path: str) -> tuple[Card, ...]:
    """``[rank, colour, coins]`` triples as cards; a malformed triple raises ``RecordError``."""
    return tuple(_card_from_triple(item, child(path, i))
                 for i, item in enumerate(expect_list(value, path)))


_CONFIG_KEYS = {"edition", "players", "bottles", "teams", "rounds", "target_score", "deck"}

_CONFIG_RULE_KEYS: Final = {
    "CONFIG-PLAYERS": "players",
    "CONFIG-EDITION": "edition",
    "CONFIG-BOTTLES": "bottles",
    "CONFIG-TEAMS": "teams",
    "CONFIG-DECK": "deck",
}


def config_from_json(value: JSON, path: str) -> Config:
    """A configuration from JSON; a malformed one raises ``RecordError`` at its path, and one no
    source defines raises ``RecordError`` whose ``rule_id`` names the configuration rule it breaks.

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
    deck: tuple[Card, ...] | None = None
    if obj.get("deck") is not None:
        deck = deck_from_json(obj["deck"], child(path, "deck"))
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
        raise RecordError(
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

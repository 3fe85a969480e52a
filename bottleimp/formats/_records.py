"""Game records in the interchange format ``bottleimp-record/1`` (normative text: spec/record.md).

A record is one JSON document holding one game, complete or not: the configuration, and per
round the dealer, the deal, every seat's setup, every card played in order and, optionally, the
scores the record claims; optionally the claimed game totals. Other implementations write
records; ``bottleimp validate`` replays them under the rules.

The types here hold a record as it is written, cards as ranks (``17``, ``2.5``): reading checks
the shape and the JSON types and nothing of the rules, so a record that names a card the deck
does not have is readable and the validator names the rule it breaks. Keys that start with ``_``
are extensions: readers ignore them, and these types keep them (as compact JSON text) so that a
record read and written back is the same document.

Record text is read by the one hardened JSON reader (``bottleimp.formats._json_input``: size,
nesting, digits, ``NaN``, duplicate keys). Every fault raises ``RecordError(path, message)``.

    >>> from bottleimp import Config, apply, legal_actions, new_game
    >>> state = new_game(Config(players=3), seed=1)
    >>> for _ in range(5):
    ...     state = apply(state, legal_actions(state)[0])
    >>> record = record_from_state(state)
    >>> record.rounds[0].setup[1]
    PassSetup(discard=(1,), left=2, right=7, extensions=())
    >>> loads_record(dumps_record(record)) == record
    True
    >>> loads_record('{"format": "bottleimp-record/1", "config": {"players": 7}, "rounds": []}')
    Traceback (most recent call last):
    ...
    bottleimp.RecordError: $.config.players: invalid configuration: [CONFIG-PLAYERS] players must be 2 to 6, not 7
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Final, TypeAlias

from attrs import field, frozen

from .._actions import Destination, Give
from .._cards import Rank
from .._config import Config
from .._errors import RecordError
from .._state import GameState, RoundState
from ._config_json import config_from_json, config_to_json
from ._json_input import (
    JSON,
    check_keys,
    child,
    expect_int,
    expect_list,
    expect_object,
    expect_rank,
    loads_json,
    read_json_file,
)

__all__ = [
    "RECORD_FORMAT",
    "Extensions",
    "PassSetup",
    "EyeSetup",
    "SetupEntry",
    "RecordedPlay",
    "RoundRecord",
    "GameRecord",
    "parse_record",
    "record_to_json",
    "record_from_state",
    "loads_record",
    "dumps_record",
    "read_record_file",
    "write_record_file",
]

RECORD_FORMAT: Final = "bottleimp-record/1"
"""The value of a record's ``format`` key."""

Extensions: TypeAlias = tuple[tuple[str, str], ...]
"""Extension keys (``_``-prefixed) with their values as compact JSON text, sorted by key."""



def _extension_text(value: JSON) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)


def freeze_extensions(value: Mapping[str, JSON] | Iterable[tuple[str, str]]) -> Extensions:
    """Extensions from a mapping of ``_``-prefixed keys to JSON values (or already frozen)."""
    if value == ():
        return ()
    if isinstance(value, Mapping):
        pairs = [(key, _extension_text(item)) for key, item in value.items()]
    else:
        pairs = [(key, text) for key, text in value]
    for key, _ in pairs:
        if not key.startswith("_"):
            raise ValueError(f"extension keys start with '_': {key!r}")
    return tuple(sorted(pairs))


def _thaw(extensions: Extensions) -> dict[str, JSON]:
    thawed: dict[str, JSON] = {}
    for key, text in extensions:
        thawed[key] = json.loads(text)
    return thawed


def _extensions_of(obj: Mapping[str, JSON], path: str) -> Extensions:
    if not any(key.startswith("_") for key in obj):
        return ()
    pairs = []
    for key, value in obj.items():
        if key.startswith("_"):
            try:
                pairs.append((key, _extension_text(value)))
            except (ValueError, TypeError, RecursionError):
                # Only a value built in Python, not read from JSON text, can get here.
                raise RecordError(
                    child(path, key), "not a JSON value (NaN, or nested too deep?)"
                ) from None
    return tuple(sorted(pairs))


@frozen
class PassSetup:
    """A seat's setup with 3-6 players: its discard to the Devil's Trick (none for a dealer dealt
    one card fewer), the card passed left (to the next seat clockwise) and the card passed right.

    ``left``/``right`` are ``None`` only in a record that ends before the seat gave them."""

    discard: tuple[Rank, ...]
    left: Rank | None = None
    right: Rank | None = None
    extensions: Extensions = field(default=(), converter=freeze_extensions)

    def gives(self) -> tuple[tuple[Destination, Rank], ...]:
        """The cards given, in the order of the setup steps: discard, left, right."""
        given = [(Destination.DEVILS_TRICK, card) for card in self.discard]
        if self.left is not None:
            given.append((Destination.LEFT, self.left))
        if self.right is not None:
            given.append((Destination.RIGHT, self.right))
        return tuple(given)


@frozen
class EyeSetup:
    """A seat's setup in Devil's Eye (2 players): two discards to the Devil's Trick, one card to
    the opponent's face-up cards and one to the opponent's hidden hand, all from its hidden hand.

    Missing parts (fewer discards, ``None``) only in a record that ends before they were given."""

    discard: tuple[Rank, ...]
    to_face_up: Rank | None = None
    to_hidden: Rank | None = None
    extensions: Extensions = field(default=(), converter=freeze_extensions)

    def gives(self) -> tuple[tuple[Destination, Rank], ...]:
        """The cards given, in the order of the setup steps: discards, face-up, hidden."""
        given = [(Destination.DEVILS_TRICK, card) for card in self.discard]
        if self.to_face_up is not None:
            given.append((Destination.OPPONENT_FACE_UP, self.to_face_up))
        if self.to_hidden is not None:
            given.append((Destination.OPPONENT_HIDDEN, self.to_hidden))
        return tuple(given)


SetupEntry: TypeAlias = PassSetup | EyeSetup


@frozen
class RecordedPlay:
    """One card played: the seat that played it and the card's rank."""

    seat: int
    card: Rank


@frozen
class RoundRecord:
    """One round as recorded.

    ``hands`` are the cards dealt to each seat (2 players: the hidden hands) and ``face_up`` the
    face-up cards dealt (2 players only, else ``None``); ``setup`` holds one entry per seat in
    seat order; ``plays`` every card played in order; ``scores`` what the record claims each seat
    received for the round, or ``None`` when it claims nothing."""

    dealer: int
    hands: tuple[tuple[Rank, ...], ...]
    face_up: tuple[tuple[Rank, ...], ...] | None
    setup: tuple[SetupEntry, ...]
    plays: tuple[RecordedPlay, ...]
    scores: tuple[int, ...] | None = None
    extensions: Extensions = field(default=(), converter=freeze_extensions)


@frozen
class GameRecord:
    """A game, complete or not: its configuration, its rounds (only the last may be incomplete)
    and the game totals it claims (``None``: no claim)."""

    config: Config
    rounds: tuple[RoundRecord, ...]
    totals: tuple[int, ...] | None = None
    extensions: Extensions = field(default=(), converter=freeze_extensions)
    config_extensions: Extensions = field(default=(), converter=freeze_extensions)


# --- reading ---------------------------------------------------------------------------------

_RECORD_KEYS: Final = ({"format", "config", "rounds"}, {"totals"})
_ROUND_KEYS: Final = ({"dealer", "hands", "setup", "plays"}, {"face_up", "scores"})
_PASS_KEYS: Final = ({"discard"}, {"left", "right"})
_EYE_KEYS: Final = ({"discard"}, {"to_face_up", "to_hidden"})


def parse_record(value: JSON) -> GameRecord:
    """A record from parsed JSON. Anything that is not a readable ``bottleimp-record/1`` raises
    ``RecordError`` naming the JSON path of the fault (with ``rule_id`` set,
    for a configuration no source defines). The rules are not checked: see ``bottleimp.validation``.
    """
    obj = expect_object(value, "$")
    if "format" in obj:
        written = obj["format"]
        if written != RECORD_FORMAT:
            raise RecordError(
                "$.format", f"expected {RECORD_FORMAT!r}, found {_describe(written)}"
            )
    check_keys(obj, "$", *_RECORD_KEYS)
    config_value = expect_object(obj["config"], "$.config")
    config = config_from_json(config_value, "$.config")
    players = config.players
    rounds_value = expect_list(obj["rounds"], "$.rounds")
    rounds = tuple(
        _parse_round(item, players, child("$.rounds", index))
        for index, item in enumerate(rounds_value)
    )
    totals = None
    if obj.get("totals") is not None:
        totals = _parse_per_seat(obj["totals"], players, "$.totals")
    return GameRecord(
        config=config,
        rounds=rounds,
        totals=totals,
        extensions=_extensions_of(obj, "$"),
        config_extensions=_extensions_of(config_value, "$.config"),
    )


def _parse_round(value: JSON, players: int, path: str) -> RoundRecord:
    obj = expect_object(value, path)
    check_keys(obj, path, *_ROUND_KEYS)
    dealer = expect_int(obj["dealer"], child(path, "dealer"), 0, players - 1)
    hands = _parse_rows(obj["hands"], players, child(path, "hands"))
    face_up_value = obj.get("face_up")
    face_up = None
    if players == 2:
        if face_up_value is None:
            raise RecordError(
                child(path, "face_up"), "the 2-player game deals face-up cards: expected an array"
            )
        face_up = _parse_rows(face_up_value, players, child(path, "face_up"))
    elif face_up_value is not None:
        raise RecordError(
            child(path, "face_up"),
            f"face-up cards are dealt only in the 2-player game: expected null, found "
            f"{_describe(face_up_value)}",
        )
    setup_path = child(path, "setup")
    setup_items = expect_list(obj["setup"], setup_path)
    if len(setup_items) != players:
        raise RecordError(
            setup_path,
            f"expected {players} setup entries (one per seat, in seat order), "
            f"found {len(setup_items)}",
        )
    setup = tuple(
        _parse_setup(item, players, child(setup_path, seat)) for seat, item in enumerate(setup_items)
    )
    plays = _parse_plays(obj["plays"], players, child(path, "plays"))
    scores = None
    if obj.get("scores") is not None:
        scores = _parse_per_seat(obj["scores"], players, child(path, "scores"))
    return RoundRecord(
        dealer=dealer,
        hands=hands,
        face_up=face_up,
        setup=setup,
        plays=plays,
        scores=scores,
        extensions=_extensions_of(obj, path),
    )


def _parse_rows(value: JSON, players: int, path: str) -> tuple[tuple[Rank, ...], ...]:
    rows = expect_list(value, path)
    if len(rows) != players:
        raise RecordError(path, f"expected {players} arrays (one per seat), found {len(rows)}")
    return tuple(_parse_ranks(row, child(path, seat)) for seat, row in enumerate(rows))


def _parse_ranks(value: JSON, path: str) -> tuple[Rank, ...]:
    items = expect_list(value, path)
    if all(type(item) is int for item in items):
        # Whole ranks as JSON integers (nearly every card): already in normal form.
        return tuple(items)  # type: ignore[arg-type]
    return tuple(expect_rank(item, child(path, i)) for i, item in enumerate(items))


def _parse_setup(value: JSON, players: int, path: str) -> SetupEntry:
    if type(value) is dict and players > 2:
        # The usual entry: whole ranks, no extension keys; checked inline.
        discarded, left, right = value.get("discard"), value.get("left"), value.get("right")
        if (
            type(discarded) is list
            and all(type(card) is int for card in discarded)
            and type(left) is int
            and type(right) is int
            and len(value) == 3
        ):
            return PassSetup(tuple(discarded), left, right)  # type: ignore[arg-type]
    obj = expect_object(value, path)
    check_keys(obj, path, *(_EYE_KEYS if players == 2 else _PASS_KEYS))
    discard = _parse_ranks(obj["discard"], child(path, "discard"))
    if players == 2:
        return EyeSetup(
            discard=discard,
            to_face_up=_optional_rank(obj, "to_face_up", path),
            to_hidden=_optional_rank(obj, "to_hidden", path),
            extensions=_extensions_of(obj, path),
        )
    return PassSetup(
        discard=discard,
        left=_optional_rank(obj, "left", path),
        right=_optional_rank(obj, "right", path),
        extensions=_extensions_of(obj, path),
    )


def _optional_rank(obj: Mapping[str, JSON], key: str, path: str) -> Rank | None:
    if key not in obj:
        return None
    return expect_rank(obj[key], child(path, key))


def _parse_plays(value: JSON, players: int, path: str) -> tuple[RecordedPlay, ...]:
    plays = []
    for index, item in enumerate(expect_list(value, path)):
        # Nearly every play is a pair of JSON integers: checked inline, the path built only for
        # a fault.
        if type(item) is list and len(item) == 2:
            seat, card = item
            if type(seat) is int and 0 <= seat < players and type(card) is int:
                plays.append(RecordedPlay(seat, card))
                continue
        plays.append(_parse_play(item, players, child(path, index)))
    return tuple(plays)


def _parse_play(value: JSON, players: int, path: str) -> RecordedPlay:
    pair = expect_list(value, path)
    if len(pair) != 2:
        raise RecordError(path, f"expected a [seat, card] pair, found {len(pair)} items")
    return RecordedPlay(
        expect_int(pair[0], child(path, 0), 0, players - 1), expect_rank(pair[1], child(path, 1))
    )


def _parse_per_seat(value: JSON, players: int, path: str) -> tuple[int, ...]:
    items = expect_list(value, path)
    if len(items) != players:
        raise RecordError(path, f"expected {players} integers (one per seat), found {len(items)}")
    return tuple(expect_int(item, child(path, seat)) for seat, item in enumerate(items))


def _describe(value: JSON) -> str:
    if isinstance(value, (list, dict)):
        return "an array" if isinstance(value, list) else "an object"
    return json.dumps(value)[:60]


# --- writing ---------------------------------------------------------------------------------


def record_to_json(record: GameRecord) -> dict[str, JSON]:
    """A record as JSON in canonical form: every config key written, ``face_up`` always written
    (``null`` with 3-6 players), ``scores`` and ``totals`` only when claimed, extension keys kept.
    ``parse_record`` of the result equals ``record``."""
    config: dict[str, JSON] = config_to_json(record.config)
    config.update(_thaw(record.config_extensions))
    data: dict[str, JSON] = {
        "format": RECORD_FORMAT,
        "config": config,
        "rounds": [_round_to_json(round_) for round_ in record.rounds],
    }
    if record.totals is not None:
        data["totals"] = list(record.totals)
    data.update(_thaw(record.extensions))
    return data


def _rows(rows: tuple[tuple[Rank, ...], ...]) -> list[JSON]:
    return [list(row) for row in rows]


def _round_to_json(round_: RoundRecord) -> dict[str, JSON]:
    data: dict[str, JSON] = {
        "dealer": round_.dealer,
        "hands": _rows(round_.hands),
        "face_up": None if round_.face_up is None else _rows(round_.face_up),
        "setup": [_setup_to_json(entry) for entry in round_.setup],
        "plays": [[play.seat, play.card] for play in round_.plays],
    }
    if round_.scores is not None:
        data["scores"] = list(round_.scores)
    data.update(_thaw(round_.extensions))
    return data


def _setup_to_json(entry: SetupEntry) -> dict[str, JSON]:
    data: dict[str, JSON] = {"discard": list(entry.discard)}
    if isinstance(entry, PassSetup):
        optional = (("left", entry.left), ("right", entry.right))
    else:
        optional = (("to_face_up", entry.to_face_up), ("to_hidden", entry.to_hidden))
    for key, card in optional:
        if card is not None:
            data[key] = card
    data.update(_thaw(entry.extensions))
    return data


def record_from_state(state: GameState) -> GameRecord:
    """The game so far as a record: every round's deal, setup and plays, each completed round's
    scores, and the totals of the completed rounds."""
    rounds = tuple(_round_record(state.config, round_) for round_ in state.rounds)
    return GameRecord(config=state.config, rounds=rounds, totals=state.totals)


def _round_record(config: Config, round_: RoundState) -> RoundRecord:
    hands = tuple(tuple(card.rank for card in hand) for hand in round_.dealt)
    face_up = (
        None
        if round_.dealt_face_up is None
        else tuple(tuple(card.rank for card in row) for row in round_.dealt_face_up)
    )
    return RoundRecord(
        dealer=round_.dealer,
        hands=hands,
        face_up=face_up,
        setup=tuple(_setup_entry(config, gives) for gives in round_.setup),
        plays=tuple(RecordedPlay(play.seat, play.card.rank) for play in round_.plays),
        scores=round_.scores,
    )


def _setup_entry(config: Config, gives: tuple[Give, ...]) -> SetupEntry:
    discard = tuple(give.card.rank for give in gives if give.to is Destination.DEVILS_TRICK)
    to = {give.to: give.card.rank for give in gives if give.to is not Destination.DEVILS_TRICK}
    if config.devils_eye:
        return EyeSetup(
            discard=discard,
            to_face_up=to.get(Destination.OPPONENT_FACE_UP),
            to_hidden=to.get(Destination.OPPONENT_HIDDEN),
        )
    return PassSetup(discard=discard, left=to.get(Destination.LEFT), right=to.get(Destination.RIGHT))


# --- JSON text and files ---------------------------------------------------------------------


def loads_record(text: str | bytes) -> GameRecord:
    """A record from its JSON text (see ``loads_json`` and ``parse_record``)."""
    return parse_record(loads_json(text))


def dumps_record(record: GameRecord, indent: int | None = None) -> str:
    """A record as JSON text: compact, or with ``indent`` laid out for reading (objects one key
    a line; an array of numbers, or of arrays of numbers such as a round's plays, on one line)."""
    value = record_to_json(record)
    if indent is None:
        return json.dumps(value, separators=(",", ":"))
    return _layout(value, " " * indent, "")


def _is_flat(value: JSON) -> bool:
    return not isinstance(value, (list, dict)) or (
        isinstance(value, list) and all(not isinstance(item, (list, dict)) for item in value)
    )


def _layout(value: JSON, step: str, margin: str) -> str:
    if isinstance(value, list) and all(_is_flat(item) for item in value):
        return json.dumps(value, separators=(",", ":")).replace(",", ", ")
    if isinstance(value, dict) and all(_is_flat(item) for item in value.values()) and (
        len(value) <= 4
    ):
        return json.dumps(value, separators=(", ", ": "))
    inner = margin + step
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(key)}: {_layout(item, step, inner)}" for key, item in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + margin + "}"
    if isinstance(value, list):
        items = [inner + _layout(item, step, inner) for item in value]
        return "[\n" + ",\n".join(items) + "\n" + margin + "]"
    return json.dumps(value)


def read_record_file(path: str | os.PathLike[str]) -> GameRecord:
    """A record from a file. A file that cannot be read (missing, a directory, not a regular
    file, larger than ``MAX_RECORD_BYTES``) or that is not a readable record raises
    ``RecordError``; the size limit is checked before the file is read."""
    return parse_record(read_json_file(path))




def write_record_file(path: str | os.PathLike[str], record: GameRecord) -> None:
    """Write ``record`` to ``path`` as indented JSON text with a final newline."""
    Path(path).write_text(dumps_record(record, indent=1) + "\n", encoding="utf-8")

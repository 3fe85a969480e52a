"""Lossless JSON for a seat's view (``bottleimp-view/1``, specified in ``spec/view.md``).

A view is written field by field, cards as their ranks and actions as in the state format, so a
bot in another process or language can be sent exactly what its seat may see. Reading it back
gives an equal ``SeatView``; malformed input raises ``RecordError`` naming its JSON path.

    >>> import bottleimp
    >>> from bottleimp.formats._view_json import view_from_json, view_to_json
    >>> seen = bottleimp.view(bottleimp.new_game(bottleimp.Config(players=3), seed=7), 1)
    >>> view_to_json(seen)["hand"]
    [3, 6, 7, 13, 14, 16, 17, 18, 20, 22, 25, 36]
    >>> view_from_json(view_to_json(seen)) == seen
    True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import TypeVar

from .._actions import Give, Play
from .._view import expect_view
from .._cards import Card
from .._errors import RecordError
from .._state import Bottle, Phase, TrickResult, trick_in_progress
from .._view import SeatView
from ._config_json import config_from_json, config_to_json
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
    loads_json,
)
from ._state_json import action_from_json, action_to_json

__all__ = ["VIEW_FORMAT", "view_from_json", "view_to_json", "view_dumps", "view_loads"]

VIEW_FORMAT = "bottleimp-view/1"

_PHASES = {phase.value: phase for phase in Phase}
_KEYS = {
    "format", "config", "seat", "phase", "to_act", "round_index", "dealer", "hand", "face_up",
    "hand_sizes", "setup_given", "my_setup", "received", "devils_trick", "devils_trick_size",
    "plays", "leader", "bottles", "captured", "tricks", "scores", "totals",
}


def _ranks(cards: tuple[Card, ...]) -> list[JSON]:
    return [card.rank for card in cards]


def view_to_json(seen: SeatView) -> dict[str, JSON]:
    """A view as JSON; ``view_from_json`` of the result is equal to ``seen``."""
    seen = expect_view(seen, "view_to_json(seen)")
    return {
        "format": VIEW_FORMAT,
        "config": config_to_json(seen.config),
        "seat": seen.seat,
        "phase": seen.phase.value,
        "to_act": seen.to_act,
        "round_index": seen.round_index,
        "dealer": seen.dealer,
        "hand": _ranks(seen.hand),
        "face_up": None if seen.face_up is None else [_ranks(row) for row in seen.face_up],
        "hand_sizes": list(seen.hand_sizes),
        "setup_given": list(seen.setup_given),
        "my_setup": [action_to_json(give) for give in seen.my_setup],
        "received": [action_to_json(give) for give in seen.received],
        "devils_trick": None if seen.devils_trick is None else _ranks(seen.devils_trick),
        "devils_trick_size": seen.devils_trick_size,
        "plays": [action_to_json(play) for play in seen.plays],
        "leader": seen.leader,
        "bottles": [
            {
                "price_card": None if b.price_card is None else b.price_card.rank,
                "owner": b.owner,
            }
            for b in seen.bottles
        ],
        "captured": [_ranks(pile) for pile in seen.captured],
        "tricks": [
            {
                "winner": trick.winner,
                "winning_card": trick.winning_card.rank,
                "bottle": trick.bottle,
                "price_before": trick.price_before,
                "price_after": trick.price_after,
            }
            for trick in seen.tricks
        ],
        "scores": None if seen.scores is None else list(seen.scores),
        "totals": list(seen.totals),
    }


T = TypeVar("T")


def _list_of(value: JSON, path: str, item: Callable[[JSON, str], T]) -> tuple[T, ...]:
    return tuple(item(v, child(path, i)) for i, v in enumerate(expect_list(value, path)))


def _optional(value: JSON, path: str, read: Callable[[JSON, str], T]) -> T | None:
    return None if value is None else read(value, path)


def view_from_json(value: JSON) -> SeatView:
    """A view from JSON. Faults raise ``RecordError`` at their JSON path: a missing or unknown
    key, a wrong type, a card not in the configuration's deck, an action of the wrong kind."""
    obj = expect_object(value, "$")
    check_keys(obj, "$", _KEYS, set())
    if obj["format"] != VIEW_FORMAT:
        raise RecordError("$.format", f"expected {VIEW_FORMAT!r}")
    config = config_from_json(obj["config"], "$.config")
    players = config.players

    def seat(v: JSON, path: str) -> int:
        return expect_int(v, path, 0, players - 1)

    def count(v: JSON, path: str) -> int:
        return expect_int(v, path, 0)

    def card(v: JSON, path: str) -> Card:
        return expect_card(v, config, path)

    def cards(v: JSON, path: str) -> tuple[Card, ...]:
        return _list_of(v, path, card)

    def give(v: JSON, path: str) -> Give:
        action = action_from_json(v, config, path)
        if not isinstance(action, Give):
            raise RecordError(path, "expected a give")
        return action

    def play(v: JSON, path: str) -> Play:
        action = action_from_json(v, config, path)
        if not isinstance(action, Play):
            raise RecordError(path, "expected a play")
        return action

    def bottle(v: JSON, path: str) -> Bottle:
        b = expect_object(v, path)
        check_keys(b, path, {"price_card", "owner"}, set())
        return Bottle(
            _optional(b["price_card"], child(path, "price_card"), card),
            _optional(b["owner"], child(path, "owner"), seat),
        )

    def score(v: JSON, path: str) -> int:
        return expect_int(v, path)

    phase_name = expect_str(obj["phase"], "$.phase")
    if phase_name not in _PHASES:
        raise RecordError("$.phase", f"unknown phase {phase_name!r}")
    phase = _PHASES[phase_name]
    plays = _list_of(obj["plays"], "$.plays", play)
    trick_size = config.trick_size
    tricks_value = expect_list(obj["tricks"], "$.tricks")
    if len(tricks_value) != len(plays) // trick_size:
        raise RecordError("$.tricks", f"{len(plays)} plays make {len(plays) // trick_size} tricks")
    tricks = []
    for k, trick_value in enumerate(tricks_value):
        path = child("$.tricks", k)
        t = expect_object(trick_value, path)
        check_keys(t, path, {"winner", "winning_card", "bottle", "price_before", "price_after"},
                   set())
        tricks.append(
            TrickResult(
                plays=plays[k * trick_size : (k + 1) * trick_size],
                winner=seat(t["winner"], child(path, "winner")),
                winning_card=card(t["winning_card"], child(path, "winning_card")),
                bottle=_optional(
                    t["bottle"], child(path, "bottle"),
                    lambda v, p: expect_int(v, p, 0, config.bottles - 1),
                ),
                price_before=expect_rank(t["price_before"], child(path, "price_before")),
                price_after=expect_rank(t["price_after"], child(path, "price_after")),
            )
        )
    to_act = _optional(obj["to_act"], "$.to_act", seat)
    for key, length in _PER_SEAT:
        if obj[key] is not None and len(expect_list(obj[key], child("$", key))) != (
            players if length is None else config.bottles
        ):
            raise RecordError(child("$", key), f"expected one entry per {length or 'seat'}")
    return SeatView(
        seat=seat(obj["seat"], "$.seat"),
        config=config,
        phase=phase,
        to_act=to_act,
        round_index=count(obj["round_index"], "$.round_index"),
        dealer=seat(obj["dealer"], "$.dealer"),
        hand=cards(obj["hand"], "$.hand"),
        face_up=_optional(obj["face_up"], "$.face_up", lambda v, p: _list_of(v, p, cards)),
        hand_sizes=_list_of(obj["hand_sizes"], "$.hand_sizes", count),
        setup_given=_list_of(obj["setup_given"], "$.setup_given", count),
        my_setup=_list_of(obj["my_setup"], "$.my_setup", give),
        devils_trick=_optional(obj["devils_trick"], "$.devils_trick", cards),
        devils_trick_size=count(obj["devils_trick_size"], "$.devils_trick_size"),
        plays=plays,
        current_trick=trick_in_progress(plays, trick_size),
        leader=seat(obj["leader"], "$.leader"),
        bottles=_list_of(obj["bottles"], "$.bottles", bottle),
        captured=_list_of(obj["captured"], "$.captured", cards),
        tricks=tuple(tricks),
        scores=_optional(obj["scores"], "$.scores", lambda v, p: _list_of(v, p, score)),
        totals=_list_of(obj["totals"], "$.totals", score),
        received=_list_of(obj["received"], "$.received", give),
    )


_PER_SEAT = (
    ("face_up", None), ("hand_sizes", None), ("setup_given", None), ("captured", None),
    ("scores", None), ("totals", None), ("bottles", "bottle"),
)


def view_dumps(seen: SeatView) -> str:
    """A view as a JSON string."""
    return json.dumps(view_to_json(seen), separators=(",", ":"))


def view_loads(text: str) -> SeatView:
    """A view from a JSON string (see ``view_from_json``)."""
    return view_from_json(loads_json(text))  # the one JSON reader: size and nesting bounded

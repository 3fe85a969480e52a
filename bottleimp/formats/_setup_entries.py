"""A seat's setup as JSON, both ways: the one codec between a setup entry (``{"discard": [3],
"left": 17, "right": 22}``; in Devil's Eye ``to_face_up`` and ``to_hidden``) and ``Give``
actions. Records, the protocol, the conformance vectors and the harness all use it."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from .._actions import Destination, Give
from .._config import Config
from .._errors import RecordError, ArgumentError
from ._json_input import JSON, check_keys, child, expect_list, expect_object, expect_rank

ENTRY_KEYS: Final[Mapping[Destination, str]] = {
    Destination.DEVILS_TRICK: "discard",
    Destination.LEFT: "left",
    Destination.RIGHT: "right",
    Destination.OPPONENT_FACE_UP: "to_face_up",
    Destination.OPPONENT_HIDDEN: "to_hidden",
}
"""The JSON key of each destination in a setup entry (``discard`` holds an array)."""

DESTINATIONS: Final[Mapping[str, Destination]] = {key: to for to, key in ENTRY_KEYS.items()}
"""The destination of each JSON key of a setup entry."""


def pass_keys(config: Config) -> tuple[str, str]:
    """The keys of the two passed cards: ``left``/``right``, or in Devil's Eye
    ``to_face_up``/``to_hidden``."""
    if config.devils_eye:
        return ENTRY_KEYS[Destination.OPPONENT_FACE_UP], ENTRY_KEYS[Destination.OPPONENT_HIDDEN]
    return ENTRY_KEYS[Destination.LEFT], ENTRY_KEYS[Destination.RIGHT]


def entry_from_gives(gives: Iterable[Give]) -> dict[str, JSON]:
    """The setup entry of a seat's ``Give`` actions (cards as ranks)."""
    entry: dict[str, JSON] = {"discard": []}
    discards: list[JSON] = []
    for give in gives:
        if give.to is Destination.DEVILS_TRICK:
            discards.append(give.card.rank)
        else:
            entry[ENTRY_KEYS[give.to]] = give.card.rank
    entry["discard"] = discards
    return entry


def gives_from_entry(
    config: Config, seat: int, value: JSON, path: str, keys: tuple[str, ...] | None = None
) -> tuple[tuple[Give, str], ...]:
    """The ``Give`` actions of a setup entry, each with its JSON path, in the order of the setup
    steps: the discards, then the passes (``keys``: those the entry may hold, by default the
    configuration's two). A rank that is not a card of the deck is not a card the seat was
    dealt: ``RecordError`` at its path with rule ``SETUP-FROM-DEALT``."""
    obj = expect_object(value, path)
    passes = pass_keys(config) if keys is None else keys
    check_keys(obj, path, {"discard"}, set(passes))
    gives: list[tuple[Give, str]] = []
    discard_path = child(path, "discard")
    places = [(child(discard_path, i), item) for i, item in
              enumerate(expect_list(obj["discard"], discard_path))]
    places += [(child(path, key), obj[key]) for key in passes if key in obj]
    for where, item in places:
        key = "discard" if where.startswith(discard_path + "[") else where.rsplit(".", 1)[-1]
        rank = expect_rank(item, where)
        try:
            card = config.card(rank)
        except ArgumentError as error:
            raise RecordError(where, error.message, "SETUP-FROM-DEALT") from None
        gives.append((Give(seat, card, DESTINATIONS[key]), where))
    return tuple(gives)

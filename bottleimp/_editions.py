"""The decks of each edition (rule ``DECK``), read from the deck files in ``spec/decks/``.

The deck files are the one source of truth: ``spec/decks/classic.json`` and
``spec/decks/matagot-2024.json`` (format ``bottleimp-deck/1``, described in ``spec/decks.md``),
shipped with the package as data (``bottleimp/data/decks/``, links to ``spec/decks/``) and read
once, when this module is imported. They are the package's own data: the reader of deck files
that checks every field and names the JSON path of a fault, for any deck file, is
``bottleimp.formats._decks``, and the tests read every shipped file with it too.

``classic``: 36 cards in yellow, blue and red, 12 a colour, coins 1,1,2,2,...,6,6 per colour
(126 coins; the Korean rules summary, the Russian game description, IRC and HEK agree card
for card).
``matagot-2024``: 36 cards in red, blue and green (127 coins; BGA ``material.inc.php``), and for
5-6 players the 54-card deck: those 36 plus 18 half ranks with the colour and coins of the whole
rank just below them (190 coins).
"""

from __future__ import annotations

from collections.abc import Mapping
import json
from importlib import resources
from types import MappingProxyType
from typing import Final

from attrs import frozen

from ._cards import Card, Colour
from ._errors import CatalogueError
from .rules._registry import rule

DECK_FORMAT: Final = "bottleimp-deck/1"
"""The ``format`` of a deck file."""

EDITIONS: Final = ("classic", "matagot-2024")
"""The editions, each with its deck file ``spec/decks/EDITION.json``."""


@frozen
class Deck:
    """One deck of an edition's deck file: its ``name``, the player counts it serves and its
    cards in ascending rank order."""

    name: str
    players: tuple[int, ...]
    cards: tuple[Card, ...]


def _load(edition: str) -> dict[str, Deck]:
    """The decks of ``edition``'s deck file as shipped with the package, by name."""
    name = f"{edition}.json"
    where = f"bottleimp/data/decks/{name}"
    try:
        data = (resources.files("bottleimp") / "data" / "decks" / name).read_bytes()
    except OSError as error:
        raise CatalogueError(where, f"cannot read the deck file: {error}") from None
    try:
        decks = json.loads(data)["decks"]
        return {
            deck["name"]: Deck(
                deck["name"],
                tuple(deck["players"]),
                tuple(Card(rank, Colour(colour), coins) for rank, colour, coins in deck["cards"]),
            )
            for deck in decks
        }
    except (ValueError, LookupError, TypeError) as error:  # a shipped file the tests check
        raise CatalogueError(where, f"not a deck file of the package's format: {error}") from None


_DECKS: Final[Mapping[str, Mapping[str, Deck]]] = MappingProxyType(
    {edition: MappingProxyType(_load(edition)) for edition in EDITIONS}
)
"""Every edition's decks, by edition and deck name."""


def every_deck() -> tuple[tuple[str, Deck], ...]:
    """Every deck of every edition's deck file, with its edition, in file order."""
    return tuple((edition, deck) for edition, decks in _DECKS.items() for deck in decks.values())


def _deck(edition: str, name: str) -> tuple[Card, ...]:
    try:
        return _DECKS[edition][name].cards
    except KeyError:
        raise CatalogueError(f"bottleimp/data/decks/{edition}.json",
                             f"no deck named {name!r}") from None


CLASSIC: Final = _deck("classic", "classic")
"""The classic 36-card deck, in ascending rank order."""

MATAGOT_2024: Final = _deck("matagot-2024", "matagot-2024")
"""The Matagot 2024 36-card deck, in ascending rank order."""

MATAGOT_2024_54: Final = _deck("matagot-2024", "matagot-2024-54")
"""The Matagot 2024 54-card deck for 5-6 players, in ascending rank order."""

MATAGOT_2024_HALF_RANKS: Final = tuple(card for card in MATAGOT_2024_54
                                       if card not in MATAGOT_2024)
"""The 18 half ranks added for 5-6 players."""


@rule("DECK")
def edition_deck(edition: str, players: int) -> tuple[Card, ...]:
    """The deck an edition uses for a player count (rule ``DECK``): 54 cards for 5-6 players
    of ``matagot-2024``. Each edition's deck file says which deck serves which player counts;
    the classic deck serves only 2-4 players (5-6 players raise ``ValueError``, as do an
    unknown edition and a count outside 2-6)."""
    decks = _DECKS.get(edition)
    if decks is None:
        raise ValueError(f"unknown edition {edition!r}; known editions: {', '.join(EDITIONS)}")
    for deck in decks.values():
        if players in deck.players:
            return deck.cards
    raise ValueError(f"edition {edition!r} has no deck for {players!r} players")

"""The decks of each edition (rule ``DECK``), read from the deck files in ``spec/decks/``.

The deck files are the one source of truth: ``spec/decks/classic.json`` and
``spec/decks/matagot-2024.json`` (format ``bottleimp-deck/1``, described in ``spec/decks.md``),
shipped with the package as data (``bottleimp/data/decks/``, links to ``spec/decks/``) and read
once, when this module is imported, through the hardened JSON reader. A file that does not
follow its format is a ``CatalogueError`` naming the file and the JSON path of the fault.

``classic``: 36 cards in yellow, blue and red, 12 a colour, coins 1,1,2,2,...,6,6 per colour
(126 coins; the Korean rules summary, the Russian game description, IRC and HEK agree card
for card).
``matagot-2024``: 36 cards in red, blue and green (127 coins; BGA ``material.inc.php``), and for
5-6 players the 54-card deck: those 36 plus 18 half ranks with the colour and coins of the whole
rank just below them (190 coins).
"""

from __future__ import annotations

from collections.abc import Mapping
from importlib import resources
from typing import Final

from attrs import frozen

from .cards import START_PRICE, Card, Colour
from .errors import CatalogueError, RecordError
from .formats.json_input import (
    JSON,
    check_keys,
    child,
    expect_int,
    expect_list,
    expect_object,
    expect_rank,
    expect_str,
    loads_json,
)
from .rules.registry import rule

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


def read_deck_file(text: str | bytes, where: str, edition: str | None = None) -> tuple[Deck, ...]:
    """The decks of a deck file's text (``where`` names it in errors); ``edition``, if given, is
    the edition the file must describe. Refuses, with a ``CatalogueError`` naming ``where`` and
    the JSON path: text the hardened reader refuses, a missing or unknown key, a card that is
    not ``[rank, colour, coins]``, ranks out of ascending order or given twice, the start card
    19, a ``coins`` total that is not the sum of the cards' coins, and a player count served by
    two decks."""
    try:
        return _read_decks(loads_json(text), edition)
    except RecordError as error:
        raise CatalogueError(f"{where}: {error.path}", error.message) from None


def _read_decks(value: JSON, edition: str | None) -> tuple[Deck, ...]:
    obj = expect_object(value, "$")
    check_keys(obj, "$", {"format", "edition", "decks"}, {"title", "sources"})
    if obj["format"] != DECK_FORMAT:
        raise RecordError("$.format", f"expected {DECK_FORMAT!r}, found {obj['format']!r}")
    name = expect_str(obj["edition"], "$.edition")
    if edition is not None and name != edition:
        raise RecordError("$.edition", f"expected the edition {edition!r}, found {name!r}")
    decks = tuple(read_deck(item, child("$.decks", i))
                  for i, item in enumerate(expect_list(obj["decks"], "$.decks")))
    if not decks:
        raise RecordError("$.decks", "an edition has at least one deck")
    served: dict[int, str] = {}
    for i, deck in enumerate(decks):
        for count in deck.players:
            if count in served:
                raise RecordError(child(child("$.decks", i), "players"),
                                  f"{count} players are already served by deck {served[count]!r}")
            served[count] = deck.name
    return decks


def read_deck(value: JSON, path: str = "$") -> Deck:
    """One deck object of a deck file (``name``, ``players``, ``coins``, ``cards``; the shape an
    implementation can use to declare its own deck), read from a parsed JSON value; a fault is
    a ``RecordError`` at its JSON path (ranks out of order or twice, the start card, coins that
    are not the cards' sum, ...)."""
    obj = expect_object(value, path)
    check_keys(obj, path, {"name", "players", "coins", "cards"}, {"note"})
    name = expect_str(obj["name"], child(path, "name"))
    players_path = child(path, "players")
    players = tuple(expect_int(count, child(players_path, i), 2, 6)
                    for i, count in enumerate(expect_list(obj["players"], players_path)))
    if not players or len(set(players)) != len(players):
        raise RecordError(players_path, "expected distinct player counts, at least one")
    cards_path = child(path, "cards")
    cards = tuple(_read_card(item, child(cards_path, i))
                  for i, item in enumerate(expect_list(obj["cards"], cards_path)))
    if not cards:
        raise RecordError(cards_path, "a deck has at least one card")
    for i in range(1, len(cards)):
        if not cards[i - 1].rank < cards[i].rank:
            raise RecordError(child(cards_path, i), "ranks must be given in ascending order, "
                                                    "each once")
    total = sum(card.coins for card in cards)
    coins = expect_int(obj["coins"], child(path, "coins"))
    if coins != total:
        raise RecordError(child(path, "coins"), f"the cards' coins add up to {total}, not {coins}")
    return Deck(name, players, cards)


def _read_card(value: JSON, path: str) -> Card:
    items = expect_list(value, path)
    if len(items) != 3:
        raise RecordError(path, "expected [rank, colour, coins]")
    rank = expect_rank(items[0], child(path, 0))
    if rank == START_PRICE:
        raise RecordError(child(path, 0), f"{START_PRICE} is the start card, never in a deck")
    if rank <= 0 or rank * 2 != int(rank * 2):
        raise RecordError(child(path, 0), f"expected a positive whole or half rank, found {rank}")
    colour_name = expect_str(items[1], child(path, 1))
    try:
        colour = Colour(colour_name)
    except ValueError:
        raise RecordError(child(path, 1), f"unknown colour {colour_name!r}") from None
    return Card(rank, colour, expect_int(items[2], child(path, 2), 0))


def _load(edition: str) -> dict[str, Deck]:
    """The decks of ``edition``'s deck file as shipped with the package, by name."""
    name = f"{edition}.json"
    where = f"bottleimp/data/decks/{name}"
    try:
        data = (resources.files("bottleimp") / "data" / "decks" / name).read_bytes()
    except OSError as error:
        raise CatalogueError(where, f"cannot read the deck file: {error}") from None
    return {deck.name: deck for deck in read_deck_file(data, where, edition)}


_DECKS: Final[Mapping[str, Mapping[str, Deck]]] = {edition: _load(edition) for edition in EDITIONS}
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

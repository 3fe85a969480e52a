"""The reader of deck files (format ``bottleimp-deck/1``, described in ``spec/decks.md``) and
of deck objects (the shape an implementation can use to declare its own deck), through the
hardened JSON reader: a file that does not follow its format is a ``CatalogueError`` naming the
file and the JSON path of the fault. Every deck file shipped with the package passes it (the
tests read each one with it and compare its decks with ``bottleimp._editions``).
"""

from __future__ import annotations

from .._cards import START_PRICE, Card, Colour, coins
from .._editions import DECK_FORMAT, Deck
from .._errors import CatalogueError, RecordError
from ._json_input import (
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

__all__ = ["read_deck", "read_deck_file"]


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
    total = coins(cards)
    stated = expect_int(obj["coins"], child(path, "coins"))
    if stated != total:
        raise RecordError(child(path, "coins"), f"the cards' coins add up to {total}, not {stated}")
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

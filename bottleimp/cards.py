"""Cards: a rank, a colour and coins (merit points).

Ranks are exact. Every rank in every deck is a whole number or a whole number and a half
(2.5 in the 54-card deck); both are exactly representable as binary floating point numbers, so a
rank is held as an ``int`` when it is whole and as a ``float`` when it is a half rank. A JSON
number ``17`` or ``2.5`` therefore round-trips without loss (rule ``CARD-RANK``).
"""

from __future__ import annotations

import enum
from bisect import bisect_left
from collections.abc import Callable
from operator import attrgetter
from typing import Final

from attrs import field, frozen

from .rulebook import rule

START_PRICE: Final = 19
"""The neutral start card: it sets every bottle's first price and is never played or scored."""


class Colour(enum.Enum):
    """A card colour; colours matter only for following suit."""

    YELLOW = "yellow"
    BLUE = "blue"
    RED = "red"
    GREEN = "green"

    def __repr__(self) -> str:
        return f"Colour.{self.name}"


Rank = int | float
"""A card rank: an ``int`` for whole ranks, a ``float`` for half ranks such as 2.5."""


@rule("CARD-RANK")
def normalize_rank(value: float) -> Rank:
    """Return ``value`` as an ``int`` when it is whole, else unchanged (rule ``CARD-RANK``)."""
    if isinstance(value, bool):
        raise TypeError("a rank is a number, not a bool")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def _as_rank(value: float) -> Rank:
    return normalize_rank(value)


def format_rank(rank: Rank) -> str:
    """The rank as people write it: ``17``, ``2.5``."""
    return str(normalize_rank(rank))


@frozen(cache_hash=True)
class Card:
    """One numbered card. Cards compare equal when rank, colour and coins are equal."""

    rank: Rank = field(converter=_as_rank)
    colour: Colour
    coins: int

    def __str__(self) -> str:
        return f"{format_rank(self.rank)} {self.colour.value} ({self.coins})"


rank_key: Final[Callable[[Card], Rank]] = attrgetter("rank")
"""Sort key: cards in a hand are kept in ascending rank order (a C-level getter: it is hot)."""


def coins(cards: tuple[Card, ...] | frozenset[Card]) -> int:
    """The sum of the coins on ``cards``."""
    return sum(card.coins for card in cards)


def position(cards: tuple[Card, ...], card: Card) -> int:
    """Where ``card`` is in ``cards``, or -1. Hands are kept in ascending rank order and ranks
    are distinct within a deck, so a binary search on the rank finds it."""
    index = bisect_left(cards, card.rank, key=rank_key)
    if index < len(cards):
        found = cards[index]
        if found is card or found == card:
            return index
    return -1

"""Cards: a rank, a colour and coins (merit points).

Ranks are exact. Every rank in every deck is a whole number or a whole number and a half
(2.5 in the 54-card deck); both are exactly representable as binary floating point numbers, so a
rank is held as an ``int`` when it is whole and as a ``float`` when it is a half rank. A JSON
number ``17`` or ``2.5`` therefore round-trips without loss (rule ``CARD-RANK``).
"""

from __future__ import annotations

import enum
import threading
import weakref
from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Final

from attrs import field, frozen

from .rules.registry import rule

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

    # Members are singletons compared by identity, so an identity hash is consistent with
    # equality, and the interpreter computes it without calling Python code (Enum's own
    # __hash__ hashes the name in Python): it is looked up for every card given or played.
    __hash__ = object.__hash__


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


_CARDS: Final[weakref.WeakValueDictionary[tuple[Rank, Colour, int], Card]] = (
    weakref.WeakValueDictionary()
)
_CARDS_LOCK: Final = threading.Lock()


@frozen(eq=False)
class Card:
    """One numbered card. Cards are interned: building a card equal to one that exists (same
    rank, colour and coins) gives that very object, so equality and hashing are by identity,
    which the interpreter does without calling Python code (card sets are in every hot path).
    Copying and unpickling give the same object too."""

    rank: Rank = field(converter=_as_rank)
    colour: Colour
    coins: int

    def __new__(cls, rank: Rank, colour: Colour, coins: int) -> Card:
        key = (normalize_rank(rank), colour, coins)
        card = _CARDS.get(key)
        if card is None:
            with _CARDS_LOCK:  # two threads building the same new card get one object
                card = _CARDS.get(key)
                if card is None:
                    card = super().__new__(cls)
                    # Complete before another thread can find it (attrs' __init__, which runs
                    # next, sets the same values again).
                    for name, value in zip(("rank", "colour", "coins"), key):
                        object.__setattr__(card, name, value)
                    _CARDS[key] = card
        return card

    def __reduce__(self) -> tuple[type[Card], tuple[Rank, Colour, int]]:
        return Card, (self.rank, self.colour, self.coins)

    def __str__(self) -> str:
        return f"{format_rank(self.rank)} {self.colour.value} ({self.coins})"


rank_key: Final[Callable[[Card], Rank]] = attrgetter("rank")
"""Sort key: cards in a hand are kept in ascending rank order (a C-level getter: it is hot)."""


def coins(cards: Iterable[Card]) -> int:
    """The sum of the coins on ``cards``."""
    return sum(map(_coins_of, cards))


_coins_of: Final[Callable[[Card], int]] = attrgetter("coins")


def position(cards: tuple[Card, ...], card: Card) -> int:
    """Where ``card`` is in ``cards``, or -1 (cards are interned, so this compares identities)."""
    try:
        return cards.index(card)
    except ValueError:
        return -1

"""Cards: a rank, a colour and coins (merit points).

A card is checked when it is built and never changes: ``Card(rank, colour, coins)`` takes a
finite number for the rank, a ``Colour`` for the colour and a whole number of coins, at least 0,
and refuses anything else with an ``ArgumentError`` naming the field (``Card.rank``,
``Card.colour``, ``Card.coins``). A colour given as a string, ``"red"``, is refused rather than
guessed: write ``Colour.RED``, or ask the game's configuration for its card, ``config.card(17)``.
Integers of other libraries (numpy's, say) are converted to ``int``, never stored as they are.
Whether a card belongs to a game's deck is a rule of that game: the engine refuses a card the
seat does not hold (rule ``CARD-HELD``).

Ranks are exact. Every rank in every deck is a whole number or a whole number and a half
(2.5 in the 54-card deck); both are exactly representable as binary floating point numbers, so a
rank is held as an ``int`` when it is whole and as a ``float`` when it is a half rank. A JSON
number ``17`` or ``2.5`` therefore round-trips without loss (rule ``CARD-RANK``).
"""

from __future__ import annotations

import enum
import math
import operator
import threading
import weakref
from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Final

from attrs import frozen

from .errors import ArgumentError
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
        raise ArgumentError("rank", "a rank is a number, not a bool")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def format_rank(rank: Rank) -> str:
    """The rank as people write it: ``17``, ``2.5``."""
    return str(normalize_rank(rank))


_CARDS: Final[weakref.WeakValueDictionary[tuple[Rank, Colour, int], Card]] = (
    weakref.WeakValueDictionary()
)
_CARDS_LOCK: Final = threading.Lock()


def _card_rank(value: object) -> Rank:
    """``value`` as a card's rank: a finite ``int`` or ``float`` (whole floats become ``int``)."""
    if type(value) is int:
        return value
    if isinstance(value, float):  # numpy's float64 is a float: stored as a plain float
        if math.isfinite(value):
            return normalize_rank(float(value))
    elif not isinstance(value, bool) and hasattr(type(value), "__index__"):
        return operator.index(value)  # type: ignore[arg-type]  # numpy's integers, say
    raise ArgumentError("Card.rank", f"a rank is a finite number, not {value!r}")


def _card_colour(value: object) -> Colour:
    if type(value) is Colour:
        return value
    hint = ""
    if isinstance(value, str) and value.lower() in {colour.value for colour in Colour}:
        hint = f" (write Colour.{value.upper()})"
    raise ArgumentError("Card.colour", f"a colour is a Colour, not {value!r}{hint}")


def _card_coins(value: object) -> int:
    coins: int
    if type(value) is int:
        coins = value
    elif not isinstance(value, (bool, float)) and hasattr(type(value), "__index__"):
        coins = operator.index(value)  # type: ignore[arg-type]  # numpy's integers, say
    else:
        raise ArgumentError("Card.coins", f"coins are a whole number (an int), not {value!r}")
    if coins < 0:
        raise ArgumentError("Card.coins", f"coins are at least 0, not {coins}")
    return coins


@frozen(eq=False, init=False)
class Card:
    """One numbered card. Cards are interned: building a card equal to one that exists (same
    rank, colour and coins) gives that very object, so equality and hashing are by identity,
    which the interpreter does without calling Python code (card sets are in every hot path).
    Copying and unpickling give the same object too. A card's fields are set once, when the
    first card of its value is built, and never again (there is no ``__init__`` to run on a
    card found in the table).

    >>> Card(17, Colour.RED, 1) is Card(17.0, Colour.RED, 1)
    True
    >>> Card(17, "red", 1)
    Traceback (most recent call last):
    ...
    bottleimp.errors.ArgumentError: Card.colour: a colour is a Colour, not 'red' (write Colour.RED)
    """

    rank: Rank
    colour: Colour
    coins: int

    def __new__(cls, rank: Rank, colour: Colour, coins: int) -> Card:
        key = (_card_rank(rank), _card_colour(colour), _card_coins(coins))
        card = _CARDS.get(key)
        if card is None:
            with _CARDS_LOCK:  # two threads building the same new card get one object
                card = _CARDS.get(key)
                if card is None:
                    card = super().__new__(cls)
                    # Set once, before another thread can find it (the class is frozen:
                    # attrs' documented way to set a frozen instance's fields is this one).
                    object.__setattr__(card, "rank", key[0])
                    object.__setattr__(card, "colour", key[1])
                    object.__setattr__(card, "coins", key[2])
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

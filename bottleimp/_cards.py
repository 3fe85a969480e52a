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
from collections.abc import Callable, Iterable
from operator import attrgetter
from typing import Final

from attrs import field, frozen

from ._arguments import describe, integer
from ._errors import ArgumentError
from .rules._registry import rule

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
        raise ArgumentError("rank", "a rank is a number, not a bool")
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def format_rank(rank: Rank) -> str:
    """The rank as people write it: ``17``, ``2.5``."""
    return str(normalize_rank(rank))


def _card_rank(value: object) -> Rank:
    """``value`` as a card's rank: a whole number, or a finite float (whole floats become
    ``int``: rule CARD-RANK)."""
    whole = integer(value)
    if whole is not None:
        return whole
    if isinstance(value, float) and math.isfinite(value):  # numpy's float64 is a float
        return normalize_rank(float(value))
    raise ArgumentError("Card.rank", f"a rank is a finite number, not {value!r}")


def _card_colour(value: object) -> Colour:
    if isinstance(value, Colour):
        return value
    hint = ""
    if isinstance(value, str) and value.lower() in {colour.value for colour in Colour}:
        hint = f" (write Colour.{value.upper()})"
    raise ArgumentError("Card.colour", f"a colour is a Colour, not {value!r}{hint}")


def _card_coins(value: object) -> int:
    coins = integer(value)
    if coins is None:
        raise ArgumentError("Card.coins", f"coins are a whole number (an int), not {value!r}")
    if coins < 0:
        raise ArgumentError("Card.coins", f"coins are at least 0, not {coins}")
    return coins


@frozen
class Card:
    """One numbered card: a value, equal to every card of the same rank, colour and coins.

    >>> Card(17, Colour.RED, 1) == Card(17.0, Colour.RED, 1)
    True
    >>> Card(17, "red", 1)
    Traceback (most recent call last):
    ...
    bottleimp.ArgumentError: Card.colour: a colour is a Colour, not 'red' (write Colour.RED)
    """

    rank: Rank = field(converter=_card_rank)
    """The card's rank: every rank of a deck is different."""
    colour: Colour = field(converter=_card_colour)
    """The card's colour, which matters only for following suit."""
    coins: int = field(converter=_card_coins)
    """The merit points the card scores for the seat that captures it."""

    def __str__(self) -> str:
        return f"{format_rank(self.rank)} {self.colour.value} ({self.coins})"


def expect_card(value: object, where: str) -> Card:
    """``value`` if it is a card as the constructor builds it: a ``Card`` itself (a subclass could
    answer ``==`` and ``hash`` as it likes), its rank an ``int`` or a finite half rank, its colour
    a ``Colour``, its coins an ``int`` of at least 0; else an ``ArgumentError`` for ``where``."""
    if type(value) is not Card:
        raise ArgumentError(where, f"needs a Card, not {describe(value)}")
    rank, colour, coins = value.rank, value.colour, value.coins
    if not (type(rank) is int or (type(rank) is float and math.isfinite(rank)
                                  and not rank.is_integer())):
        raise ArgumentError(f"{where}.rank", f"a rank is an int or a half rank, not "
                                             f"{describe(rank)}: the card was changed after it "
                                             "was built")
    if type(colour) is not Colour:
        raise ArgumentError(f"{where}.colour", f"a colour is a Colour, not {describe(colour)}: "
                                               "the card was changed after it was built")
    if type(coins) is not int or coins < 0:
        raise ArgumentError(f"{where}.coins", f"coins are an int of at least 0, not "
                                              f"{describe(coins)}: the card was changed after it "
                                              "was built")
    return value


def expect_cards(values: object, where: str) -> tuple[Card, ...]:
    """``values`` if it is a tuple (itself) of ``Card`` values themselves (not subclasses: a
    subclass could answer ``==`` and ``hash`` as it likes), else an ``ArgumentError`` naming
    the first that is not. Only the types are checked, all at once: the engine checks many
    cards at every call (``expect_card`` checks one card's fields too)."""
    if type(values) is not tuple:
        raise ArgumentError(where, f"needs a tuple of cards, not {describe(values)}")
    if not set(map(type, values)) <= _CARD_TYPE:
        position = next(n for n, card in enumerate(values) if type(card) is not Card)
        raise ArgumentError(f"{where}[{position}]", f"needs a Card, not "
                                                    f"{describe(values[position])}")
    return values


_CARD_TYPE: Final = frozenset({Card})


rank_key: Final[Callable[[Card], Rank]] = attrgetter("rank")
"""Sort key: cards in a hand are kept in ascending rank order."""


def coins(cards: Iterable[Card]) -> int:
    """The sum of the coins on ``cards``."""
    return sum(card.coins for card in cards)

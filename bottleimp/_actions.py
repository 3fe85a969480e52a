"""Actions: frozen values, each naming the seat that takes it.

- ``Give``: one card of a seat's setup, from the hand it was dealt, to one destination. A setup
  is a short sequence of ``Give`` actions (discard, then left, then right; in Devil's Eye two
  discards, then the opponent's face-up cards, then the opponent's hidden hand).
- ``Play``: a card played to the current trick.
- ``StartRound``: after a round is scored, the next dealer deals the next round (the deal itself
  follows from the game's seed).
"""

from __future__ import annotations

import enum
from attrs import Attribute, field, frozen

from ._arguments import describe, integer
from ._cards import Card, expect_card, format_rank
from ._errors import ArgumentError


class Destination(enum.Enum):
    """Where a card given during setup goes."""

    DEVILS_TRICK = "devils_trick"
    LEFT = "left"
    RIGHT = "right"
    OPPONENT_FACE_UP = "to_face_up"
    OPPONENT_HIDDEN = "to_hidden"

    def __repr__(self) -> str:
        return f"Destination.{self.name}"


def _seat(value: object, action: str) -> int:
    """An action's seat: a whole number (``arguments.integer``: not a ``bool``, not a
    ``float``), kept as an ``int``. Whether the game has that seat is checked when the action is
    applied to a state (``expect_action``)."""
    number = integer(value)
    if number is None:
        raise ArgumentError(f"{action}.seat", f"a seat is an int, not {describe(value)}")
    return number


def _give_seat(value: object) -> int:
    return _seat(value, "Give")


def _play_seat(value: object) -> int:
    return _seat(value, "Play")


def _dealer_seat(value: object) -> int:
    return _seat(value, "StartRound")


def _a_card(action: object, attribute: Attribute[Card], value: object) -> None:
    """A card is a ``Card`` itself (an object that merely compares equal to one is not a card;
    a ``Card`` checks its own fields when it is built): whether the seat holds it is a rule of
    the game."""
    if type(value) is not Card:
        raise ArgumentError(f"{type(action).__name__}.card", f"needs a Card, not "
                                                            f"{describe(value)}")


def _a_destination(action: object, attribute: Attribute[Destination], value: object) -> None:
    if type(value) is not Destination:
        raise ArgumentError("Give.to", f"a destination is a Destination, not {describe(value)}")


@frozen
class Give:
    """``seat`` gives ``card`` from its dealt hand to ``to`` during setup."""

    seat: int = field(converter=_give_seat)
    """The seat that gives the card."""
    card: Card = field(validator=_a_card)
    """The card given, one the seat was dealt."""
    to: Destination = field(validator=_a_destination)
    """Where the card goes."""

    def __str__(self) -> str:
        return f"seat {self.seat} gives {format_rank(self.card.rank)} to {self.to.value}"


@frozen
class Play:
    """``seat`` plays ``card`` to the current trick."""

    seat: int = field(converter=_play_seat)
    """The seat that plays."""
    card: Card = field(validator=_a_card)
    """The card played, from the seat's hand (or, in Devil's Eye, its face-up cards)."""

    def __str__(self) -> str:
        return f"seat {self.seat} plays {format_rank(self.card.rank)}"


@frozen
class StartRound:
    """``seat``, the next dealer, deals the next round."""

    seat: int = field(converter=_dealer_seat)
    """The seat that deals."""

    def __str__(self) -> str:
        return f"seat {self.seat} deals the next round"


Action = Give | Play | StartRound


def expect_action(value: object, where: str) -> Action:
    """``value`` if it is an action as its constructor builds it: a ``Give``, ``Play`` or
    ``StartRound`` itself (not a subclass), its seat an ``int``, its card a card
    (``expect_card``), its destination a ``Destination``; else an ``ArgumentError`` for
    ``where``. Whether the seat may act (or is a seat of the game at all) is a rule of the
    game: SETUP-ORDER, TURN-ORDER and DEALER-ROTATION refuse any other seat."""
    kind = type(value)
    if kind is not Give and kind is not Play and kind is not StartRound:
        raise ArgumentError(where, f"needs a Give, a Play or a StartRound, not {describe(value)}")
    assert isinstance(value, (Give, Play, StartRound))
    if type(value.seat) is not int:
        raise ArgumentError(f"{where}.seat", f"a seat is an int, not {describe(value.seat)}")
    if isinstance(value, (Give, Play)):
        expect_card(value.card, f"{where}.card")
    if isinstance(value, Give) and type(value.to) is not Destination:
        raise ArgumentError(f"{where}.to", f"a destination is a Destination, not "
                                           f"{describe(value.to)}")
    return value

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
from attrs import frozen

from .arguments import integer
from .cards import Card, format_rank
from .errors import MalformedActionError


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
    ``float``), taken as an ``int``. Its range is a rule of the game, checked when the action
    is applied."""
    number = integer(value)
    if number is None:
        raise MalformedActionError(f"{action}.seat", f"a seat is an int, not {value!r}")
    return number


def _not_a_card(action: Give | Play) -> MalformedActionError:
    """A card is a ``Card`` (an object that merely compares equal to one is not a card): whether
    the seat holds it is a rule of the game."""
    return MalformedActionError(
        f"{type(action).__name__}.card", f"a card is a Card, not {action.card!r}"
    )


@frozen
class Give:
    """``seat`` gives ``card`` from its dealt hand to ``to`` during setup."""

    seat: int
    """The seat that gives the card."""
    card: Card
    """The card given, one the seat was dealt."""
    to: Destination
    """Where the card goes."""

    def __attrs_post_init__(self) -> None:
        """The fields' types, checked once they are set (the seat kept as an ``int``)."""
        if type(self.seat) is not int:
            object.__setattr__(self, "seat", _seat(self.seat, "Give"))
        if not isinstance(self.card, Card):
            raise _not_a_card(self)
        if type(self.to) is not Destination:
            raise MalformedActionError(
                "Give.to", f"a destination is a Destination, not {self.to!r}"
            )

    def __str__(self) -> str:
        return f"seat {self.seat} gives {format_rank(self.card.rank)} to {self.to.value}"


@frozen
class Play:
    """``seat`` plays ``card`` to the current trick."""

    seat: int
    """The seat that plays."""
    card: Card
    """The card played, from the seat's hand (or, in Devil's Eye, its face-up cards)."""

    def __attrs_post_init__(self) -> None:
        """The fields' types, checked once they are set (the seat kept as an ``int``)."""
        if type(self.seat) is not int:
            object.__setattr__(self, "seat", _seat(self.seat, "Play"))
        if not isinstance(self.card, Card):
            raise _not_a_card(self)

    def __str__(self) -> str:
        return f"seat {self.seat} plays {format_rank(self.card.rank)}"


@frozen
class StartRound:
    """``seat``, the next dealer, deals the next round."""

    seat: int
    """The seat that deals."""

    def __attrs_post_init__(self) -> None:
        """The fields' types, checked once they are set (the seat kept as an ``int``)."""
        if type(self.seat) is not int:
            object.__setattr__(self, "seat", _seat(self.seat, "StartRound"))

    def __str__(self) -> str:
        return f"seat {self.seat} deals the next round"


Action = Give | Play | StartRound

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

from .cards import Card, format_rank


class Destination(enum.Enum):
    """Where a card given during setup goes."""

    DEVILS_TRICK = "devils_trick"
    LEFT = "left"
    RIGHT = "right"
    OPPONENT_FACE_UP = "to_face_up"
    OPPONENT_HIDDEN = "to_hidden"

    def __repr__(self) -> str:
        return f"Destination.{self.name}"

    # Members are singletons compared by identity, so an identity hash is consistent with
    # equality, and the interpreter computes it without calling Python code (Enum's own
    # __hash__ hashes the name in Python): it is looked up for every card given or played.
    __hash__ = object.__hash__


@frozen(cache_hash=True)
class Give:
    """``seat`` gives ``card`` from its dealt hand to ``to`` during setup."""

    seat: int
    card: Card
    to: Destination

    def __str__(self) -> str:
        return f"seat {self.seat} gives {format_rank(self.card.rank)} to {self.to.value}"


@frozen(cache_hash=True)
class Play:
    """``seat`` plays ``card`` to the current trick."""

    seat: int
    card: Card

    def __str__(self) -> str:
        return f"seat {self.seat} plays {format_rank(self.card.rank)}"


@frozen(cache_hash=True)
class StartRound:
    """``seat``, the next dealer, deals the next round."""

    seat: int

    def __str__(self) -> str:
        return f"seat {self.seat} deals the next round"


Action = Give | Play | StartRound

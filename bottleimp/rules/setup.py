"""Rules of the setup: what each seat gives, in which order, and where the given cards go."""

from __future__ import annotations

from collections.abc import Collection
from typing import Final

from .._actions import Destination, Give
from .._cards import Card, rank_key
from .._config import Config
from ._registry import rule

__all__ = [
    "setup_steps", "setup_seat_order", "setup_to_act", "can_give", "resolve_setup",
    "receiving_seat",
]


_EYE_STEPS: Final = (
    Destination.DEVILS_TRICK,
    Destination.DEVILS_TRICK,
    Destination.OPPONENT_FACE_UP,
    Destination.OPPONENT_HIDDEN,
)
_STEPS: Final = (Destination.DEVILS_TRICK, Destination.LEFT, Destination.RIGHT)
_SHORT_DEALER_STEPS: Final = (Destination.LEFT, Destination.RIGHT)


@rule("SETUP-STEPS")
def setup_steps(config: Config, dealer: int, seat: int) -> tuple[Destination, ...]:
    """The cards a seat gives during setup, in the order it gives them (rule SETUP-STEPS).

    3-6 players: one to the Devil's Trick, one to the left, one to the right; a dealer dealt one
    card fewer than the others (5 players, 54 cards) does not discard. Devil's Eye: two to the
    Devil's Trick, one to the opponent's face-up cards, one to the opponent's hidden hand.
    """
    if config.devils_eye:
        return _EYE_STEPS
    if seat == dealer and len(config.cards) % config.players:
        return _SHORT_DEALER_STEPS
    return _STEPS


def setup_seat_order(config: Config, dealer: int) -> tuple[int, ...]:
    """The seats in the order they choose their setups (rule SETUP-ORDER, a convention of the
    library): clockwise from the dealer's left, the dealer last."""
    return tuple((dealer + offset) % config.players for offset in range(1, config.players + 1))


@rule("SETUP-ORDER")
def setup_to_act(config: Config, dealer: int, setup: tuple[tuple[Give, ...], ...]) -> int | None:
    """The seat that chooses next: seats choose in turn from the dealer's left (rule SETUP-ORDER).

    Setups are simultaneous and hidden in the sources; sequencing them changes nothing, because
    no seat sees another's choice or receives a card before every seat has chosen.
    Returns ``None`` once every seat has chosen its whole setup.
    """
    for seat in setup_seat_order(config, dealer):
        chosen = len(setup[seat])
        if chosen < 2 or chosen < len(setup_steps(config, dealer, seat)):
            return seat
    return None


@rule("SETUP-FROM-DEALT")
def can_give(hand: Collection[Card], card: Card) -> bool:
    """Setup cards come from the cards a seat was dealt and has not yet given: nobody gives a
    card before every seat has chosen, so no one passes on a card they receive (SETUP-FROM-DEALT)."""
    return card in hand


@rule("SETUP-RESOLVE")
def resolve_setup(
    config: Config,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
    setup: tuple[tuple[Give, ...], ...],
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...] | None, tuple[Card, ...]]:
    """Once every seat has chosen, all given cards move at once (rule SETUP-RESOLVE).

    ``hands`` no longer hold the given cards. Returns the new hidden hands, face-up cards and the
    Devil's Trick. Left is the next seat clockwise, ``(seat + 1) % players``.
    """
    players = config.players
    new_hands = [list(hand) for hand in hands]
    new_face_up = [list(cards) for cards in face_up] if face_up is not None else None
    devils_trick: list[Card] = []
    for gives in setup:
        for give in gives:
            receiver = receiving_seat(players, give.seat, give.to)
            if receiver is None:
                devils_trick.append(give.card)
            elif give.to is Destination.OPPONENT_FACE_UP:
                assert new_face_up is not None
                new_face_up[receiver].append(give.card)
            else:
                new_hands[receiver].append(give.card)
    for zone in (*new_hands, *(new_face_up or ()), devils_trick):
        zone.sort(key=rank_key)
    return (
        tuple(map(tuple, new_hands)),
        None if new_face_up is None else tuple(map(tuple, new_face_up)),
        tuple(devils_trick),
    )


def receiving_seat(players: int, seat: int, to: Destination) -> int | None:
    """The seat that receives a setup card ``seat`` gives to ``to`` when the setup resolves
    (rule SETUP-RESOLVE): left is the next seat clockwise, right the one before; in Devil's Eye
    the other of the two seats takes both cards given to it. ``None`` for a card discarded to
    the Devil's Trick. The one answer to where a passed card goes."""
    if to is Destination.DEVILS_TRICK:
        return None
    if to is Destination.RIGHT:
        return (seat - 1) % players
    return (seat + 1) % players  # left, or the opponent of two seats

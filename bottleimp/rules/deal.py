"""Rules of the deal: the shuffle, dealing the cards, how many each seat gets, and who deals."""

from __future__ import annotations

from typing import Final

from .._arguments import expect_seat
from .._cards import Card, rank_key
from .._config import Config
from .._errors import IllegalActionError
from ._registry import rule

__all__ = [
    "splitmix64", "shuffle", "deal_target", "deal", "dealt_counts", "check_deal",
    "first_dealer", "next_dealer",
]


_MASK: Final = (1 << 64) - 1
_ROUND_STREAM: Final = 0xD1B54A32D192ED03
_GAMMA: Final = 0x9E3779B97F4A7C15


def splitmix64(state: int) -> tuple[int, int]:
    """One step of SplitMix64: ``(next_state, output)``; the deal's portable random source."""
    state = (state + _GAMMA) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


@rule("DEAL-SHUFFLE")
def shuffle(cards: tuple[Card, ...], seed: int, round_index: int) -> tuple[Card, ...]:
    """Shuffle ``cards`` for round ``round_index`` of the game with ``seed`` (rule DEAL-SHUFFLE).

    The generator is SplitMix64 started at ``(seed mod 2**64) XOR (round_index * 0xD1B54A32D192ED03
    mod 2**64)``; the shuffle is Fisher-Yates from the last position down, drawing each index
    below ``i + 1`` by rejection (draws at or above the largest multiple of ``i + 1`` that fits in
    64 bits are discarded, then ``draw mod (i + 1)``). Any language can reproduce it exactly.
    """
    state = (seed & _MASK) ^ ((round_index * _ROUND_STREAM) & _MASK)
    order = list(cards)
    limits = _rejection_limits(len(order))
    for i in range(len(order) - 1, 0, -1):
        state, draw = splitmix64(state)
        while draw >= limits[i]:  # rejected: draw again from the same stream
            state, draw = splitmix64(state)
        j = draw % (i + 1)
        order[i], order[j] = order[j], order[i]
    return tuple(order)


def _rejection_limits(size: int) -> tuple[int, ...]:
    """For each position ``i`` of a shuffle of ``size`` cards, the draws ``shuffle`` accepts
    for it: those below the largest multiple of ``i + 1`` that fits in 64 bits."""
    return tuple((1 << 64) - ((1 << 64) % (i + 1)) for i in range(size))


@rule("DEAL")
def deal_target(config: Config, dealer: int, position: int) -> tuple[bool, int]:
    """Where the card at ``position`` of the shuffled deck goes (rule DEAL): ``(face up?,
    seat)``. The cards are dealt one at a time clockwise from the dealer's left; in Devil's Eye
    the first two thirds of the deck are dealt as hidden hands, the last third face up (12 + 6
    each with 36 cards)."""
    hidden = len(config.cards) * 2 // 3 if config.devils_eye else len(config.cards)
    face_up = position >= hidden
    return face_up, (dealer + 1 + position - (hidden if face_up else 0)) % config.players


def deal(
    config: Config, seed: int, round_index: int, dealer: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...] | None]:
    """The hidden hands and, in Devil's Eye, the face-up cards of round ``round_index``: the
    deck shuffled (DEAL-SHUFFLE), each card where ``deal_target`` sends it (DEAL), each hand
    sorted by rank. With 54 cards and 5 players the dealer, dealt last, receives one card
    fewer."""
    players = config.players
    hands: list[list[Card]] = [[] for _ in range(players)]
    face_up: list[list[Card]] = [[] for _ in range(players)]
    for position, card in enumerate(shuffle(config.cards, seed, round_index)):
        up, seat = deal_target(config, dealer, position)
        (face_up if up else hands)[seat].append(card)
    return _sorted(hands), _sorted(face_up) if config.devils_eye else None


def _sorted(rows: list[list[Card]]) -> tuple[tuple[Card, ...], ...]:
    return tuple(tuple(sorted(row, key=rank_key)) for row in rows)


@rule("DEAL-COUNTS")
def dealt_counts(config: Config, dealer: int) -> tuple[tuple[int, ...], tuple[int, ...] | None]:
    """How many hidden (and, in Devil's Eye, face-up) cards each seat is dealt (DEAL-COUNTS):
    the cards ``deal_target`` sends it."""
    hidden = [0] * config.players
    face_up = [0] * config.players
    for position in range(len(config.cards)):
        up, seat = deal_target(config, dealer, position)
        (face_up if up else hidden)[seat] += 1
    return tuple(hidden), tuple(face_up) if config.devils_eye else None


def check_deal(
    config: Config,
    dealer: int,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
) -> None:
    """A deal gives out the whole deck exactly once, each seat the number of cards
    ``dealt_counts`` gives it (rule DEAL-COUNTS). Raises ``IllegalActionError`` naming the
    first fault, zone by zone in seat order."""
    hidden_counts, face_up_counts = dealt_counts(config, dealer)
    if len(hands) != config.players:
        raise IllegalActionError(
            "DEAL-COUNTS",
            f"the deal has {len(hands)} hand{'s' if len(hands) != 1 else ''} for "
            f"{config.players} players",
        )
    if (face_up is None) != (face_up_counts is None):
        wanted = "needs" if face_up_counts is not None else "has no"
        raise IllegalActionError("DEAL-COUNTS", f"this game {wanted} face-up cards")
    zones = [("hand", hands, hidden_counts)]
    if face_up is not None and face_up_counts is not None:
        if len(face_up) != config.players:
            raise IllegalActionError(
                "DEAL-COUNTS", f"the deal has {len(face_up)} face-up rows for 2 players"
            )
        zones.append(("face-up cards", face_up, face_up_counts))
    deck = frozenset(config.cards)
    seen: set[Card] = set()
    for name, cards_by_seat, counts in zones:
        for seat, (cards, count) in enumerate(zip(cards_by_seat, counts)):
            if len(cards) != count:
                raise IllegalActionError(
                    "DEAL-COUNTS", f"seat {seat}'s {name} has {len(cards)} cards, not {count}"
                )
            for card in cards:
                if card not in deck:
                    raise IllegalActionError("DEAL-COUNTS", f"{card} is not a card of this deck")
                if card in seen:
                    raise IllegalActionError("DEAL-COUNTS", f"{card} is dealt twice")
                seen.add(card)
    # No card is left out: the counts add up to the deck, so right counts with no card twice
    # and none from outside deal the whole deck.


@rule("FIRST-DEALER")
def first_dealer(config: Config, chosen: object) -> int:
    """Any seat may deal the first round (rule FIRST-DEALER): the one chosen before the game
    (``new_game`` names seat 0 unless told otherwise). A seat the game does not have raises
    ``ArgumentError``."""
    return expect_seat(chosen, config.players, "new_game(first_dealer)")


@rule("DEALER-ROTATION")
def next_dealer(config: Config, dealer: int) -> int:
    """The deal passes one seat clockwise each round (rule DEALER-ROTATION)."""
    return (dealer + 1) % config.players

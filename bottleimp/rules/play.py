"""Rules of trick play and the bottle: turn order, following suit, the winner, the purchase."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .._cards import Card, Colour, Rank, rank_key
from .._config import Config
from .._actions import Play
from .._state import Bottle, TrickResult
from ._registry import rule


__all__ = [
    "first_leader", "next_to_play", "led_colour", "holds", "follow_suit", "follows_suit",
    "devils_eye_playable", "devils_eye_follows_suit", "trick_price", "trick_winner",
    "buys_bottle", "bottle_after_purchase", "returned_price_card", "captured_by_winner",
    "next_leader", "resolve_trick",
]


@rule("FIRST-LEADER")
def first_leader(config: Config, dealer: int) -> int:
    """The player to the dealer's left leads the first trick (rule FIRST-LEADER)."""
    return (dealer + 1) % config.players


@rule("TURN-ORDER")
def next_to_play(config: Config, seat: int) -> int:
    """Play goes clockwise; in Devil's Eye the two players alternate A, B, A, B (TURN-ORDER)."""
    return (seat + 1) % config.players


def led_colour(trick: Sequence[Play]) -> Colour | None:
    """The colour to follow: the colour of the card that led the trick so far, ``None`` when the
    trick is empty (whoever leads plays any card)."""
    return trick[0].card.colour if trick else None


@rule("CARD-HELD")
def holds(hand: Collection[Card], face_up: Collection[Card], card: Card) -> bool:
    """A player plays only a card they hold, in hand or face up (rule CARD-HELD)."""
    return card in hand or card in face_up


@rule("FOLLOW-SUIT")
def follow_suit(hand: tuple[Card, ...], led: Colour | None) -> tuple[Card, ...]:
    """Follow the led colour if you can; if you cannot, or you lead, play any card (FOLLOW-SUIT)."""
    following = [card for card in hand if card.colour is led]
    return tuple(following) if following else hand


def follows_suit(hand: Collection[Card], led: Colour | None, card: Card) -> bool:
    """Whether playing ``card``, held in ``hand``, follows suit (``follow_suit``)."""
    return card in follow_suit(tuple(hand), led)


@rule("EYE-FOLLOW-SUIT")
def devils_eye_playable(
    hidden: tuple[Card, ...], face_up: tuple[Card, ...], led: Colour | None
) -> tuple[Card, ...]:
    """Devil's Eye: face-up cards must follow the led colour if the face-up cards hold it; a hidden
    card may always be played (rule EYE-FOLLOW-SUIT). Returned in ascending rank order."""
    return tuple(sorted(hidden + follow_suit(face_up, led), key=rank_key))


def devils_eye_follows_suit(
    hidden: Collection[Card], face_up: Collection[Card], led: Colour | None, card: Card
) -> bool:
    """Whether playing ``card``, held hidden or face up, follows Devil's Eye's rule
    (``devils_eye_playable``)."""
    return card in devils_eye_playable(tuple(hidden), tuple(face_up), led)


@rule("TRICK-PRICE")
def trick_price(bottles: tuple[Bottle, ...]) -> tuple[Rank, int]:
    """A trick is judged against the highest price; with two bottles at the same price the first
    one is the one that can be bought (rule TRICK-PRICE). Returns ``(price, bottle index)``."""
    prices = [bottle.price for bottle in bottles]
    highest = max(prices)
    return highest, prices.index(highest)


@rule("TRICK-WINNER")
def trick_winner(cards: tuple[Card, ...], price: Rank) -> int:
    """The highest card below the price wins; if none is below it, the highest card wins; colour
    never matters (rule TRICK-WINNER). Returns the index of the winning card in ``cards``."""
    below = [card for card in cards if card.rank < price]
    return cards.index(max(below or cards, key=rank_key))


@rule("BOTTLE-PURCHASE")
def buys_bottle(card: Card, price: Rank) -> bool:
    """A winning card below the price buys the bottle (rule BOTTLE-PURCHASE)."""
    return card.rank < price


def bottle_after_purchase(winner: int, card: Card) -> Bottle:
    """The bottle once bought (``buys_bottle``): the buyer owns it and the winning card lies under
    it as the new price."""
    return Bottle(card, winner)


@rule("PRICE-CARD-RETURN")
def returned_price_card(bottle: Bottle) -> tuple[int, Card] | None:
    """When a bottle changes hands, the card that set its old price goes to its former owner;
    the start card 19 goes to no one (rule PRICE-CARD-RETURN). Returns ``(owner, card)`` or None."""
    if bottle.price_card is None or bottle.owner is None:
        return None
    return bottle.owner, bottle.price_card


@rule("TRICK-CAPTURE")
def captured_by_winner(cards: tuple[Card, ...], winning: int, bought: bool) -> tuple[Card, ...]:
    """The winner takes the trick's cards, except a winning card that bought the bottle, which
    lies under the bottle as its price (rule TRICK-CAPTURE)."""
    if not bought:
        return cards
    return cards[:winning] + cards[winning + 1 :]


@rule("NEXT-LEADER")
def next_leader(winner: int) -> int:
    """The winner of a trick leads the next one (rule NEXT-LEADER)."""
    return winner


def resolve_trick(
    trick: tuple[Play, ...], bottles: tuple[Bottle, ...], captured: tuple[tuple[Card, ...], ...]
) -> tuple[TrickResult, tuple[Bottle, ...], tuple[tuple[Card, ...], ...]]:
    """Decide a completed trick by composing its rules: the price (TRICK-PRICE), the winner
    (TRICK-WINNER), the purchase (BOTTLE-PURCHASE), the old price card's return
    (PRICE-CARD-RETURN) and the capture (TRICK-CAPTURE). Returns what the trick decided, the
    bottles after it and every seat's captured pile after it. The one trick resolution."""
    cards = tuple(play.card for play in trick)
    price, bottle_index = trick_price(bottles)
    winning = trick_winner(cards, price)
    winner, card = trick[winning].seat, cards[winning]
    piles = list(captured)
    bought = buys_bottle(card, price)
    piles[winner] += captured_by_winner(cards, winning, bought)
    if not bought:
        return TrickResult(trick, winner, card, None, price, price), bottles, tuple(piles)
    returned = returned_price_card(bottles[bottle_index])
    if returned is not None:
        owner, price_card = returned
        piles[owner] += (price_card,)
    after = list(bottles)
    after[bottle_index] = bottle_after_purchase(winner, card)
    result = TrickResult(trick, winner, card, bottle_index, price, card.rank)
    return result, tuple(after), tuple(piles)

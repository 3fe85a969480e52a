"""Rules of trick play and the bottle: turn order, following suit, the winner, the purchase."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from typing import NamedTuple

from ..cards import Card, Colour, Rank
from ..config import Config
from ..state import Bottle
from .registry import rule


@rule("FIRST-LEADER")
def first_leader(config: Config, dealer: int) -> int:
    """The player to the dealer's left leads the first trick (rule FIRST-LEADER)."""
    return (dealer + 1) % config.players


@rule("TURN-ORDER")
def next_to_play(config: Config, seat: int) -> int:
    """Play goes clockwise; in Devil's Eye the two players alternate A, B, A, B (TURN-ORDER)."""
    return (seat + 1) % config.players


@rule("FOLLOW-SUIT")
def led_colour(trick: Sequence[Card]) -> Colour | None:
    """The colour to follow: the first card's of the trick so far, ``None`` when the trick is
    empty (whoever leads plays any card; rule FOLLOW-SUIT)."""
    return trick[0].colour if trick else None


@rule("CARD-HELD")
def holds(hand: Collection[Card], face_up: Collection[Card], card: Card) -> bool:
    """A player plays only a card they hold, in hand or face up (rule CARD-HELD)."""
    return card in hand or card in face_up


@rule("FOLLOW-SUIT")
def follow_suit(hand: tuple[Card, ...], led: Colour | None) -> tuple[Card, ...]:
    """Follow the led colour if you can; if you cannot, or you lead, play any card (FOLLOW-SUIT)."""
    if led is None:
        return hand
    following: list[Card] = []
    for card in hand:  # a plain loop: a comprehension is a function call of its own (Python 3.11)
        if card.colour is led:
            following.append(card)
    return tuple(following) if following else hand


@rule("FOLLOW-SUIT")
def follows_suit(hand: Iterable[Card], led: Colour | None, card: Card) -> bool:
    """Whether playing ``card`` from ``hand`` follows suit (rule FOLLOW-SUIT): it leads, it is of
    the led colour, or the hand holds no card of the led colour."""
    if led is None or card.colour is led:
        return True
    for other in hand:
        if other.colour is led:
            return False
    return True


@rule("EYE-FOLLOW-SUIT")
def devils_eye_playable(
    hidden: tuple[Card, ...], face_up: tuple[Card, ...], led: Colour | None
) -> tuple[Card, ...]:
    """Devil's Eye: face-up cards must follow the led colour if the face-up cards hold it; a hidden
    card may always be played (rule EYE-FOLLOW-SUIT). Returned in ascending rank order."""
    playable = hidden + follow_suit(face_up, led)
    return tuple(sorted(playable, key=lambda card: card.rank))


@rule("EYE-FOLLOW-SUIT")
def devils_eye_follows_suit(
    hidden: Collection[Card], face_up: Collection[Card], led: Colour | None, card: Card
) -> bool:
    """Whether playing ``card`` follows Devil's Eye's rule (EYE-FOLLOW-SUIT): a hidden card
    always may; a face-up card must follow the led colour if the face-up cards hold it."""
    if card in hidden:
        return True
    return follows_suit(face_up, led, card)


@rule("TRICK-PRICE")
def trick_price(bottles: tuple[Bottle, ...]) -> tuple[Rank, int]:
    """A trick is judged against the highest price; with two bottles at the same price the first
    one is the one that can be bought (rule TRICK-PRICE). Returns ``(price, bottle index)``."""
    if len(bottles) == 1:
        return bottles[0].price, 0
    best = 0
    for index in range(1, len(bottles)):
        if bottles[index].price > bottles[best].price:
            best = index
    return bottles[best].price, best


@rule("TRICK-WINNER")
def trick_winner(cards: tuple[Card, ...], price: Rank) -> int:
    """The highest card below the price wins; if none is below it, the highest card wins; colour
    never matters (rule TRICK-WINNER). Returns the index of the winning card in ``cards``."""
    best_below = -1
    best_any = 0
    for index, card in enumerate(cards):
        if card.rank > cards[best_any].rank:
            best_any = index
        if card.rank < price and (best_below < 0 or card.rank > cards[best_below].rank):
            best_below = index
    return best_below if best_below >= 0 else best_any


@rule("BOTTLE-PURCHASE")
def buys_bottle(card: Card, price: Rank) -> bool:
    """A winning card below the price buys the bottle (rule BOTTLE-PURCHASE)."""
    return card.rank < price


@rule("BOTTLE-PURCHASE")
def bottle_after_purchase(winner: int, card: Card) -> Bottle:
    """The buyer owns the bottle and the winning card lies under it as the new price."""
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


class TrickOutcome(NamedTuple):
    """What the rules decide about a completed trick (see ``resolve_trick``)."""

    winning: int
    """The index of the winning card in the trick."""
    bottle: int | None
    """The index of the bottle bought, or ``None`` when no card was below the price."""
    price_before: Rank
    """The price the trick was judged against (the highest bottle price)."""
    price_after: Rank
    """That bottle's price after the trick: the winning card's rank if it bought the bottle."""
    bottles: tuple[Bottle, ...]
    """Every bottle after the trick."""
    captured: tuple[Card, ...]
    """The cards the winner captures."""
    returned: tuple[int, Card] | None
    """The old price card and the former owner it goes back to, if a bottle changed hands."""


def resolve_trick(
    cards: tuple[Card, ...], seats: Sequence[int], bottles: tuple[Bottle, ...]
) -> TrickOutcome:
    """Decide a completed trick (``seats[i]`` played ``cards[i]``) by composing its rules: the
    price (TRICK-PRICE), the winner (TRICK-WINNER), the purchase (BOTTLE-PURCHASE), the old price
    card's return (PRICE-CARD-RETURN) and the capture (TRICK-CAPTURE). The one trick resolution:
    the engine and the validator's fast lane both call it."""
    price, bottle_index = trick_price(bottles)
    winning = trick_winner(cards, price)
    card = cards[winning]
    if not buys_bottle(card, price):
        captured = captured_by_winner(cards, winning, False)
        return TrickOutcome(winning, None, price, price, bottles, captured, None)
    bought = bottle_after_purchase(seats[winning], card)
    after = bottles[:bottle_index] + (bought,) + bottles[bottle_index + 1 :]
    returned = returned_price_card(bottles[bottle_index])
    captured = captured_by_winner(cards, winning, True)
    return TrickOutcome(winning, bottle_index, price, card.rank, after, captured, returned)


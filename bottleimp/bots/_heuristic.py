"""The heuristic bot: a fixed, documented strategy that stays clear of the bottle at the end.

The strategy follows from the scoring (rules SCORE-CAPTURED and SCORE-BOTTLE-PENALTY): every
seat scores the coins it captured, except whoever holds the bottle when the round ends, who
scores minus the Devil's Trick instead. A trick is won by its highest card below the price
(TRICK-WINNER), and that card buys the bottle and becomes the new, lower price
(BOTTLE-PURCHASE). So buying the bottle early, with a card many unseen cards can still
undercut, costs little and captures a trick; low cards are a danger late in the round, when
nobody can undercut them; and a high card thrown into a trick someone else buys gives its
coins away.

Setup: give away the lowest card each time (the Devil's Trick, then the neighbours): the
lowest cards are the ones that end up buying the bottle when nobody can undercut them.

Play, with *the price* the highest bottle price (TRICK-PRICE) and *the buyer* the card that
wins the trick so far when it buys the bottle (TRICK-WINNER, BOTTLE-PURCHASE): the highest
card below the price already in the trick:

1. **Buy safely.** If a card can take over as the buyer, at least ``SAFE_BUY`` cards below it
   are still unseen, and the trick already has a buyer or this seat plays last, buy with the
   highest such card: it captures the trick and the bottle will likely move on.
2. **Duck.** Else, if a card lies below the buyer (it cannot win), play the lowest one: it gets
   rid of the card most likely to be stuck with the bottle later.
3. **Feed the buyer cheaply.** Else, if someone is buying, play the card above the price with
   the fewest coins (it goes to the buyer).
4. **Nobody is buying yet.** Playing last, take the trick with the highest card above the price
   if it beats every card played, else throw the cheapest card above the price. Leading, lead
   the highest card below the price (it is the card that can most easily be undercut). In
   between, play the lowest card above the price.
5. **No choice but to buy**: buy with the highest card, which leaves the most cards below it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .._actions import Action, Give, Play
from .._cards import Card, Rank
from ..rules.play import buys_bottle, trick_price, trick_winner
from .._view import SeatView

__all__ = ["SAFE_BUY", "HeuristicBot", "heuristic_card"]

SAFE_BUY = 4
"""How many unseen cards below a card make buying the bottle with it safe enough (rule 1)."""


def _coins_then_rank(card: Card) -> tuple[int, Rank]:
    return card.coins, card.rank


def _rank(card: Card) -> Rank:
    return card.rank


def heuristic_card(
    playable: Sequence[Card],
    trick: Sequence[Card],
    price: Rank,
    last: bool,
    unseen_below: Callable[[Rank], int],
) -> Card:
    """The card the heuristic plays (see the module's docstring) among ``playable`` (not
    empty), given the trick so far, the price, whether this play completes the trick, and how
    many cards below a rank the seat has not seen."""
    leading = trick[trick_winner(tuple(trick), price)] if trick else None
    buyer = leading.rank if leading is not None and buys_bottle(leading, price) else None
    under = [card for card in playable if buyer is not None and card.rank < buyer]
    buying = [
        card for card in playable if card.rank < price and (buyer is None or card.rank > buyer)
    ]
    over = [card for card in playable if card.rank >= price]
    if buying and (buyer is not None or last):
        best = max(buying, key=_rank)
        if unseen_below(best.rank) >= SAFE_BUY:
            return best
    if under:
        return min(under, key=_rank)
    if over and buyer is not None:
        return min(over, key=_coins_then_rank)
    if over:
        if last:
            winning = [card for card in over if leading is None or card.rank > leading.rank]
            return max(winning, key=_rank) if winning else min(over, key=_coins_then_rank)
        if not trick and buying:
            return max(buying, key=_rank)
        return min(over, key=_rank)
    return max(buying, key=_rank)


class HeuristicBot:
    """Plays the fixed strategy of this module's docstring from its seat's view. It is
    deterministic: the seed is accepted for a uniform interface and not used."""

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        """One of ``legal``: the lowest card to give during setup, else the strategy's card."""
        first = legal[0]
        if isinstance(first, Give):
            return min(legal, key=lambda give: give.card.rank if isinstance(give, Give) else 0)
        if not isinstance(first, Play):
            return first
        plays = {action.card: action for action in legal if isinstance(action, Play)}
        price, _ = trick_price(view.bottles)
        trick = tuple(play.card for play in view.current_trick)
        last = len(trick) == view.config.trick_size - 1
        seen = view.cards()
        hidden = [card.rank for card in view.config.cards if card not in seen]

        def unseen_below(rank: Rank) -> int:
            return sum(1 for other in hidden if other < rank)

        return plays[heuristic_card(tuple(plays), trick, price, last, unseen_below)]

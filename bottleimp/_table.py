"""A compact text picture of a table: ``str(state)`` and ``str(view(state, seat))``.

A few lines: the round, the phase and the seat to act; one line per seat with its hand (only
the count of cards for the hands a view does not show), its face-up cards in Devil's Eye, how
many cards it has captured and its total; the trick on the table; the bottles with their price
and owner; and the round's scores once it is scored. A card is its rank and the first letter of
its colour (``17r``: the red 17).

    >>> import bottleimp
    >>> state = bottleimp.new_game(bottleimp.Config(players=3), seed=7)
    >>> for _ in range(13):
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> print(state)
    Round 1 of 9, trick play: seat 1 to act (dealer seat 0)
      seat 0: 7y 12y 15y 23r 29r 30b 32b 33r 35r       captured 2 (2 coins)   total 0
      seat 1: 8b 13b 14r 16r 17b 18y 20b 22y 25y 36r   captured 0 (0 coins)   total 0
      seat 2: 9y 11r 21r 24b 26r 27b 28y 31r 34b 37r   captured 0 (0 coins)   total 0
    Trick: seat 0 5y
    Bottle: price 10, seat 0's
    >>> print(bottleimp.view(state, 2))
    Seat 2's view. Round 1 of 9, trick play: seat 1 to act (dealer seat 0)
      seat 0: 9 cards                                  captured 2 (2 coins)   total 0
      seat 1: 10 cards                                 captured 0 (0 coins)   total 0
      seat 2: 9y 11r 21r 24b 26r 27b 28y 31r 34b 37r   captured 0 (0 coins)   total 0
    Trick: seat 0 5y
    Bottle: price 10, seat 0's
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType

from ._actions import Play
from ._cards import Card, Rank, coins, format_rank
from ._config import Config
from ._phase import Phase

_PHASE_NAMES = MappingProxyType({
    Phase.SETUP: "setup",
    Phase.PLAY: "trick play",
    Phase.ROUND_OVER: "round over",
    Phase.GAME_OVER: "game over",
})


def card_text(card: Card) -> str:
    """A card as its rank and the first letter of its colour: ``17r``, ``2.5g``."""
    return f"{format_rank(card.rank)}{card.colour.value[0]}"


def cards_text(cards: Sequence[Card]) -> str:
    """Cards as ``card_text`` writes them, ``-`` for none."""
    return " ".join(map(card_text, cards)) or "-"


def heading(config: Config, phase: Phase, to_act: int | None, round_index: int,
            dealer: int) -> str:
    """The first line: the round (of how many), the phase, the seat to act and the dealer."""
    limit = config.round_limit
    rounds = f" of {limit}" if limit is not None else f" (game to {config.target_score})"
    acting = "" if to_act is None else f": seat {to_act} to act"
    return f"Round {round_index + 1}{rounds}, {_PHASE_NAMES[phase]}{acting} (dealer seat {dealer})"


def bottle_text(price: Rank, owner: int | None) -> str:
    """A bottle: its price and its owner."""
    whose = "no owner" if owner is None else f"seat {owner}'s"
    return f"price {format_rank(price)}, {whose}"


def hand_text(hidden: str, face_up: Sequence[tuple[Card, ...]] | None, seat: int) -> str:
    """A seat's hand as drawn, with its face-up cards in Devil's Eye."""
    return hidden if face_up is None else f"{hidden} | up {cards_text(face_up[seat])}"


def table_text(
    first_line: str,
    hands: Sequence[str],
    captured: Sequence[tuple[Card, ...]],
    given: Sequence[int] | None,
    totals: Sequence[int],
    trick: Sequence[Play],
    bottles: Sequence[str],
    scores: Sequence[int] | None,
    winners: Sequence[int] | None,
) -> str:
    """The lines of the picture: one per seat (its hand, captured cards and total), the setup
    cards given, the trick, the bottles, the round's scores and the winners when there are."""
    width = max(map(len, hands)) + 3
    piles = [f"captured {len(pile)} ({coins(pile)} coins)" for pile in captured]
    pile_width = max(map(len, piles)) + 3
    lines = [first_line]
    for seat, hand in enumerate(hands):
        lines.append(f"  seat {seat}: {hand:<{width}}{piles[seat]:<{pile_width}}total {totals[seat]}")
    if given is not None:
        lines.append("Setup cards given: " + " ".join(map(str, given)))
    if trick:
        lines.append("Trick: " + ", ".join(f"seat {p.seat} {card_text(p.card)}" for p in trick))
    label = "Bottle" if len(bottles) == 1 else "Bottles"
    lines.append(f"{label}: " + "; ".join(bottles))
    if scores is not None:
        lines.append("Round scores: " + " ".join(map(str, scores)))
    if winners is not None:
        lines.append("Winners: " + ", ".join(f"seat {seat}" for seat in winners))
    return "\n".join(lines)

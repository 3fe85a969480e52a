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

from .actions import Play
from .cards import Card, coins, format_rank
from .config import Config
from .rules.game import winners
from .state import Bottle, GameState, Phase
from .view import SeatView

_PHASE_NAMES = {
    Phase.SETUP: "setup",
    Phase.PLAY: "trick play",
    Phase.ROUND_OVER: "round over",
    Phase.GAME_OVER: "game over",
}


def card_text(card: Card) -> str:
    """A card as its rank and the first letter of its colour: ``17r``, ``2.5g``."""
    return f"{format_rank(card.rank)}{card.colour.value[0]}"


def _cards(cards: Sequence[Card]) -> str:
    return " ".join(map(card_text, cards)) or "-"


def _heading(config: Config, phase: Phase, to_act: int | None, round_index: int,
             dealer: int) -> str:
    limit = config.round_limit
    rounds = f" of {limit}" if limit is not None else f" (game to {config.target_score})"
    acting = "" if to_act is None else f": seat {to_act} to act"
    return f"Round {round_index + 1}{rounds}, {_PHASE_NAMES[phase]}{acting} (dealer seat {dealer})"


def _bottle(bottle: Bottle) -> str:
    owner = "no owner" if bottle.owner is None else f"seat {bottle.owner}'s"
    return f"price {format_rank(bottle.price)}, {owner}"


def _lines(
    heading: str,
    hands: Sequence[str],
    captured: Sequence[tuple[Card, ...]],
    given: Sequence[int] | None,
    totals: Sequence[int],
    trick: Sequence[Play],
    bottles: Sequence[Bottle],
    scores: Sequence[int] | None,
    winners: Sequence[int] | None,
) -> str:
    width = max(map(len, hands)) + 3
    piles = [f"captured {len(pile)} ({coins(pile)} coins)" for pile in captured]
    pile_width = max(map(len, piles)) + 3
    lines = [heading]
    for seat, hand in enumerate(hands):
        lines.append(f"  seat {seat}: {hand:<{width}}{piles[seat]:<{pile_width}}total {totals[seat]}")
    if given is not None:
        lines.append("Setup cards given: " + " ".join(map(str, given)))
    if trick:
        lines.append("Trick: " + ", ".join(f"seat {p.seat} {card_text(p.card)}" for p in trick))
    label = "Bottle" if len(bottles) == 1 else "Bottles"
    lines.append(f"{label}: " + "; ".join(map(_bottle, bottles)))
    if scores is not None:
        lines.append("Round scores: " + " ".join(map(str, scores)))
    if winners is not None:
        lines.append("Winners: " + ", ".join(f"seat {seat}" for seat in winners))
    return "\n".join(lines)


def _hand(hidden: str, face_up: Sequence[tuple[Card, ...]] | None, seat: int) -> str:
    return hidden if face_up is None else f"{hidden} | up {_cards(face_up[seat])}"


def _given(phase: Phase, given: Sequence[int]) -> Sequence[int] | None:
    return given if phase is Phase.SETUP else None


def _winners(phase: Phase, totals: tuple[int, ...]) -> tuple[int, ...] | None:
    return winners(totals) if phase is Phase.GAME_OVER else None


def state_text(state: GameState) -> str:
    """The table as everyone's hands show it (``str(state)``)."""
    round_ = state.round
    hands = [_hand(_cards(hand), round_.face_up, seat) for seat, hand in enumerate(round_.hands)]
    return _lines(
        _heading(state.config, state.phase, state.to_act, round_.index, round_.dealer),
        hands, round_.captured, _given(state.phase, [len(gives) for gives in round_.setup]),
        state.totals, state.current_trick(),
        round_.bottles, round_.scores, _winners(state.phase, state.totals),
    )


def view_text(seen: SeatView) -> str:
    """The table as one seat sees it (``str(view)``): the other hidden hands as counts."""
    hands = [
        _hand(_cards(seen.hand) if seat == seen.seat else f"{size} card{'' if size == 1 else 's'}", seen.face_up, seat)
        for seat, size in enumerate(seen.hand_sizes)
    ]
    heading = _heading(seen.config, seen.phase, seen.to_act, seen.round_index, seen.dealer)
    return _lines(
        f"Seat {seen.seat}'s view. {heading}",
        hands, seen.captured, _given(seen.phase, seen.setup_given), seen.totals,
        seen.current_trick,
        seen.bottles, seen.scores, _winners(seen.phase, seen.totals),
    )

"""Plain-language narration of a game, trick by trick, naming the rules that decided."""

from __future__ import annotations

from collections.abc import Iterator

from ..cards import Card, coins, format_rank
from ..state import Bottle, GameState, Phase, RoundState, TrickResult


def _cards(cards: tuple[Card, ...]) -> str:
    return ", ".join(format_rank(card.rank) for card in cards) or "none"


def _bottle_name(index: int, bottles: int) -> str:
    return "the bottle" if bottles == 1 else f"bottle {index + 1}"


def describe_trick(
    number: int, result: TrickResult, round_: RoundState, bottles_before: tuple[Bottle, ...]
) -> str:
    """One line for a completed trick: the cards, the winner, the bottle and the deciding rules.

    ``round_`` is the round after the trick; ``bottles_before`` the bottles before it.
    """
    bottles = len(bottles_before)
    played = ", ".join(f"seat {p.seat} {format_rank(p.card.rank)}" for p in result.plays)
    winning = format_rank(result.winning_card.rank)
    price = format_rank(result.price_before)
    if result.bottle is None:
        owners = " and ".join(
            "nobody" if bottle.owner is None else f"seat {bottle.owner}" for bottle in round_.bottles
        )
        stay = "the bottle stays with" if bottles == 1 else "the bottles stay with"
        return (
            f"  Trick {number}: {played} -> every card is above the price {price}: seat "
            f"{result.winner} wins with the highest card, {winning}; {stay} {owners} "
            "[TRICK-WINNER]"
        )
    line = (
        f"  Trick {number}: {played} -> {winning} is the highest card below the price {price}: "
        f"seat {result.winner} wins the trick and buys {_bottle_name(result.bottle, bottles)}, "
        f"price now {format_rank(result.price_after)} [TRICK-WINNER, BOTTLE-PURCHASE]"
    )
    previous = bottles_before[result.bottle]
    if previous.price_card is not None and previous.owner is not None:
        line += (
            f"; the old price card {format_rank(previous.price_card.rank)} goes to its former "
            f"owner, seat {previous.owner} [PRICE-CARD-RETURN]"
        )
    return line


def describe_round_end(state: GameState, round_: RoundState) -> Iterator[str]:
    """The lines that close a round: the Devil's Trick, bottle owners, scores and totals."""
    devils_trick = round_.devils_trick
    yield (
        f"  Round {round_.index + 1} over. Devil's Trick: {_cards(devils_trick)} "
        f"({coins(devils_trick)} coins)"
    )
    for index, bottle in enumerate(round_.bottles):
        owner = "nobody" if bottle.owner is None else f"seat {bottle.owner}"
        yield (
            f"  {_bottle_name(index, len(round_.bottles)).capitalize()}: {owner} at price "
            f"{format_rank(bottle.price)} [SCORE-BOTTLE-PENALTY]"
        )
    rule = "SCORE-TEAMS" if state.config.teams is not None else "SCORE-INDIVIDUAL"
    assert round_.scores is not None
    yield f"  Scores: {_per_seat(round_.scores)} [{rule}]"
    yield f"  Totals: {_per_seat(state.totals)} [GAME-TOTALS]"


def _per_seat(values: tuple[int, ...]) -> str:
    return ", ".join(f"seat {seat} {value:+d}" for seat, value in enumerate(values))


def describe_deal(state: GameState) -> str:
    """The line that opens a round."""
    return f"Round {state.round.index + 1}: seat {state.round.dealer} deals [DEAL, DEALER-ROTATION]"


def narrate_step(before: GameState, after: GameState) -> Iterator[str]:
    """The lines that describe what happened between two consecutive states."""
    if after.round.index != before.round.index:
        yield describe_deal(after)
        return
    if before.phase is Phase.SETUP and after.phase is Phase.PLAY:
        yield (
            f"  Setup done: {len(after.round.devils_trick)} cards face down in the Devil's Trick, "
            f"passed cards received; seat {after.round.leader} leads [SETUP-RESOLVE, FIRST-LEADER]"
        )
    tricks_before = len(before.round.tricks)
    for number, result in enumerate(after.round.tricks[tricks_before:], start=tricks_before + 1):
        yield describe_trick(number, result, after.round, before.round.bottles)
    if after.round.scores is not None and before.round.scores is None:
        yield from describe_round_end(after, after.round)

"""Rules of scoring a round: captured coins, the bottle penalty, teams."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .._cards import Card, coins
from .._config import Config
from .._state import Bottle
from ._registry import rule


__all__ = [
    "captured_points", "bottle_penalty", "individual_scores", "team_scores", "round_scores",
    "round_is_over",
]


@rule("SCORE-CAPTURED")
def captured_points(captured: tuple[Card, ...]) -> int:
    """A player who owns no bottle scores the coins of the cards they captured (SCORE-CAPTURED)."""
    return coins(captured)


@rule("SCORE-BOTTLE-PENALTY")
def bottle_penalty(devils_trick: tuple[Card, ...], bottles_owned: int) -> int:
    """A bottle's owner scores minus the coins of the Devil's Trick instead of their captured
    cards, once for each bottle they own (rule SCORE-BOTTLE-PENALTY)."""
    return -coins(devils_trick) * bottles_owned


@rule("SCORE-INDIVIDUAL")
def individual_scores(
    players: int,
    captured: tuple[tuple[Card, ...], ...],
    bottles: tuple[Bottle, ...],
    devils_trick: tuple[Card, ...],
) -> tuple[int, ...]:
    """Each seat's own round score: the penalty if it owns a bottle, else its captured coins."""
    owned = [0] * players
    for bottle in bottles:
        if bottle.owner is not None:
            owned[bottle.owner] += 1
    return tuple([
        bottle_penalty(devils_trick, owned[seat]) if owned[seat] else captured_points(captured[seat])
        for seat in range(players)
    ])


@rule("SCORE-TEAMS")
def team_scores(
    teams: tuple[tuple[int, ...], ...],
    captured: tuple[tuple[Card, ...], ...],
    bottles: tuple[Bottle, ...],
    devils_trick: tuple[Card, ...],
) -> tuple[int, ...]:
    """Team mode (rule SCORE-TEAMS): teammates combine their captured coins and both receive the
    result, but if either owns the bottle both receive the Devil's Trick penalty instead;
    a player without a partner doubles their score, penalty included."""
    players = sum(len(team) for team in teams)
    scores = [0] * players
    for team in teams:
        owned = sum(1 for bottle in bottles if bottle.owner in team)
        if owned:
            result = bottle_penalty(devils_trick, owned)
        else:
            result = sum(captured_points(captured[seat]) for seat in team)
        if len(team) == 1:
            result *= 2
        for seat in team:
            scores[seat] = result
    return tuple(scores)


@rule("SCORE-ROUND")
def round_scores(
    config: Config,
    captured: tuple[tuple[Card, ...], ...],
    bottles: tuple[Bottle, ...],
    devils_trick: tuple[Card, ...],
) -> tuple[int, ...]:
    """What each seat receives for a round: team scores in team mode, else individual scores."""
    if config.teams is not None:
        return team_scores(config.teams, captured, bottles, devils_trick)
    return individual_scores(config.players, captured, bottles, devils_trick)


@rule("ROUND-END")
def round_is_over(
    hands: Sequence[Collection[Card]], face_up: Sequence[Collection[Card]] | None
) -> bool:
    """The round ends when every card in every hand has been played (rule ROUND-END)."""
    if any(hands):
        return False
    return face_up is None or not any(face_up)

"""Rules of the game as a whole: which action each phase admits, totals, the end of the game
and its winners."""

from __future__ import annotations

from types import MappingProxyType

from .._actions import Give, Play, StartRound
from .._config import Config
from .._errors import IllegalActionError
from .._phase import Phase
from ._registry import rule

__all__ = [
    "check_not_over", "check_phase_admits", "add_totals", "game_is_over", "winners",
]


_ADMITS = MappingProxyType({Phase.SETUP: Give, Phase.PLAY: Play, Phase.ROUND_OVER: StartRound})


@rule("GAME-OVER")
def check_not_over(phase: Phase) -> None:
    """Once the game is over no action is possible (rule GAME-OVER)."""
    if phase is Phase.GAME_OVER:
        raise IllegalActionError("GAME-OVER", "the game is over: no action is possible")


@rule("PHASE")
def check_phase_admits(phase: Phase, action: object) -> None:
    """Each phase admits one kind of action: gives during setup, plays during trick play and the
    next deal between rounds (rule PHASE)."""
    expected = _ADMITS[phase]
    if type(action) is expected:
        return
    raise IllegalActionError(
        "PHASE",
        f"a {type(action).__name__} is not possible in the {phase.value} phase; "
        f"it needs a {expected.__name__}",
    )



@rule("GAME-TOTALS")
def add_totals(totals: tuple[int, ...], scores: tuple[int, ...]) -> tuple[int, ...]:
    """A seat's total is the sum of its round scores (rule GAME-TOTALS)."""
    return tuple(total + score for total, score in zip(totals, scores))


@rule("GAME-END")
def game_is_over(config: Config, rounds_played: int, totals: tuple[int, ...]) -> bool:
    """The game ends after the configured number of rounds, or after the round in which some
    total reaches the target score (rule GAME-END)."""
    if config.target_score is not None:
        return max(totals) >= config.target_score
    limit = config.round_limit
    assert limit is not None
    return rounds_played >= limit


@rule("WINNERS")
def winners(totals: tuple[int, ...]) -> tuple[int, ...]:
    """The seats with the highest total win; a tie shares the win (rule WINNERS)."""
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)

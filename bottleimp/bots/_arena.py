"""An arena: bots play each other over seeded deals with the seats rotated, and their results
are summed up with 95% confidence intervals (the ``bottleimp-arena-report/1`` report).

A *lineup* names one bot per seat. Each deal ``i`` (game seed ``seed + i``) is played once per
rotation ``r = 0 .. players - 1``, seat ``s`` taking the lineup's bot ``(s - r) mod players``,
so every bot of the lineup sits in every seat equally often, and on the same deals. A bot that
appears twice in the lineup plays twice as many seats. A seat *wins* a game when its total is
the highest (rule WINNERS; every tied seat counts a win). The win rate's interval is Wilson's;
the mean score's is the normal one (mean +- 1.96 standard errors). The games of one deal share
its cards, so the intervals, which treat every seat-game as independent, are a little narrow.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from attrs import frozen

from .._config import Config
from .._engine import apply, legal_actions, new_game
from .._errors import BotError
from ..formats._config_json import config_to_json
from ..rules.game import winners
from .._view import view
from ._make import BOTS, make_bot
from ._search import DEFAULT_WORLDS

__all__ = [
    "ARENA_REPORT_FORMAT", "AgentResult", "ArenaReport", "fill_lineup", "play_arena",
    "wilson_interval",
]

ARENA_REPORT_FORMAT = "bottleimp-arena-report/1"
_Z = 1.959963984540054
"""The standard normal quantile of a two-sided 95% interval."""


def wilson_interval(successes: int, trials: int) -> tuple[float, float]:
    """Wilson's 95% score interval of a proportion.

    >>> from bottleimp.bots._arena import wilson_interval
    >>> "from %.4f to %.4f" % wilson_interval(40, 100)
    'from 0.3094 to 0.4980'
    """
    if trials == 0:
        return 0.0, 1.0
    rate = successes / trials
    z2 = _Z * _Z
    centre = (rate + z2 / (2 * trials)) / (1 + z2 / trials)
    half = _Z * math.sqrt(rate * (1 - rate) / trials + z2 / (4 * trials * trials)) / (1 + z2 / trials)
    return max(0.0, centre - half), min(1.0, centre + half)


def fill_lineup(agents: Sequence[str], players: int) -> tuple[str, ...]:
    """One bot per seat: ``agents`` in order, the last repeated to fill the table; more bots
    than seats, an unknown name or none at all is a ``BotError``."""
    if not agents:
        raise BotError("an arena needs at least one bot")
    for name in agents:
        if name not in BOTS:
            raise BotError(f"unknown bot {name!r}; known bots: {', '.join(BOTS)}")
    if len(agents) > players:
        raise BotError(f"{len(agents)} bots cannot sit at a table of {players} players")
    return tuple(agents) + (agents[-1],) * (players - len(agents))


@frozen
class AgentResult:
    """One bot's results over all the seats it played."""

    agent: str
    games: int
    """Seat-games played."""
    wins: int
    win_rate: float
    win_rate_ci95: tuple[float, float]
    mean_score: float
    mean_score_ci95: tuple[float, float]


@frozen
class ArenaReport:
    """What ``play_arena`` found (``to_json`` gives the ``bottleimp-arena-report/1`` form)."""

    config: Config
    lineup: tuple[str, ...]
    deals: int
    seed: int
    worlds: int
    games: int
    results: tuple[AgentResult, ...]

    def to_json(self) -> dict[str, Any]:
        """The report as JSON values, format ``bottleimp-arena-report/1``."""
        return {
            "format": ARENA_REPORT_FORMAT,
            "config": config_to_json(self.config),
            "lineup": list(self.lineup),
            "deals": self.deals,
            "seed": self.seed,
            "search_worlds": self.worlds,
            "games": self.games,
            "results": [
                {
                    "agent": result.agent,
                    "games": result.games,
                    "wins": result.wins,
                    "win_rate": result.win_rate,
                    "win_rate_ci95": list(result.win_rate_ci95),
                    "mean_score": result.mean_score,
                    "mean_score_ci95": list(result.mean_score_ci95),
                }
                for result in self.results
            ],
        }


def _bot_seed(seed: int, deal: int, rotation: int, seat: int) -> int:
    return ((seed * 100_003 + deal) * 7 + rotation) * 7 + seat


def play_deal(
    config: Config, lineup: tuple[str, ...], seed: int, deal: int, worlds: int
) -> list[tuple[str, bool, int]]:
    """Deal ``deal`` played once per rotation: ``(bot, won, score)`` for every seat of every
    game, in order."""
    players = config.players
    outcomes: list[tuple[str, bool, int]] = []
    for rotation in range(players):
        names = [lineup[(seat - rotation) % players] for seat in range(players)]
        bots = [
            make_bot(name, _bot_seed(seed, deal, rotation, seat), worlds=worlds)
            for seat, name in enumerate(names)
        ]
        state = new_game(config, seed + deal)
        while state.to_act is not None:
            seat = state.to_act
            state = apply(state, bots[seat].choose(view(state, seat), legal_actions(state)))
        best = winners(state.totals)
        outcomes.extend(
            (name, seat in best, state.totals[seat]) for seat, name in enumerate(names)
        )
    return outcomes


def _summary(agent: str, outcomes: Iterable[tuple[str, bool, int]]) -> AgentResult:
    scores = [score for name, _, score in outcomes if name == agent]
    wins = sum(1 for name, won, _ in outcomes if name == agent and won)
    games = len(scores)
    mean = sum(scores) / games
    spread = math.sqrt(sum((score - mean) ** 2 for score in scores) / (games - 1)) if games > 1 else 0.0
    half = _Z * spread / math.sqrt(games)
    return AgentResult(
        agent, games, wins, wins / games, wilson_interval(wins, games), mean,
        (mean - half, mean + half),
    )


def play_arena(
    config: Config,
    agents: Sequence[str],
    deals: int,
    seed: int = 0,
    *,
    worlds: int = DEFAULT_WORLDS,
    jobs: int = 1,
    dealt: Callable[[], None] | None = None,
) -> ArenaReport:
    """Play ``deals`` deals in every rotation of the lineup ``agents`` (see the module's
    docstring); ``worlds`` is the search bot's budget, ``jobs`` the processes to use (the
    result does not depend on it); ``dealt`` is called after each deal is played (a progress
    bar's step)."""
    lineup = fill_lineup(agents, config.players)
    if deals < 1:
        raise BotError(f"an arena plays at least one deal, not {deals}")
    outcomes: list[tuple[str, bool, int]] = []
    if jobs <= 1:
        for deal in range(deals):
            outcomes.extend(play_deal(config, lineup, seed, deal, worlds))
            if dealt is not None:
                dealt()
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [
                pool.submit(play_deal, config, lineup, seed, deal, worlds) for deal in range(deals)
            ]
            for future in futures:
                outcomes.extend(future.result())
                if dealt is not None:
                    dealt()
    names = tuple(dict.fromkeys(lineup))
    return ArenaReport(
        config, lineup, deals, seed, worlds, deals * config.players,
        tuple(_summary(name, outcomes) for name in names),
    )

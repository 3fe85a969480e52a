"""The open-hand paranoid solver: the value of a position of trick play with every hand visible.

The value of a position for a seat (rule SCORE-ROUND) is the seat's round score (its team's in
team mode, a partnerless seat's doubled, the penalty counted once per bottle owned) when the
seat, and its teammates, play best and every other seat plays to minimise it. Those other seats
are treated as one opponent (the *paranoid* reduction of a game of several players), so the
value is what the seat's side can guarantee with all the cards face up, whatever the others do.

The search is alpha-beta over the engine's own transitions (``legal_actions``, ``apply``'s
``after_play``): every verdict (who follows suit, who wins a trick, who buys the bottle, how a
round is scored) comes from the rule functions, none is restated here. It adds:

- a transposition table of positions at trick boundaries, keyed by what decides the rest of the
  round for the side: every hand and face-up row, the bottles (price card and owner), the seat
  to lead, the coins the side has captured so far and the Devil's Trick's; an entry holds a lower and an upper bound;
- sure bounds (``sure_bounds``): a bottle that no card left in play is below can never change
  hands, so its owner is known, and no side gains more coins than are left in play and under
  the bottles that can still move.

Past a budget of nodes or a deadline the search stops and the value is given as a ``Valuation``
whose lower and upper bounds differ, never as a wrong exact value.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from typing import Final

from attrs import frozen

from .._actions import Play
from .._cards import Card, coins
from .._config import Config
from .._errors import ArgumentError
from .._state import GameState, Phase
from .._transitions import after_play, legal_actions_of
from .._view import expect_state

__all__ = [
    "DEFAULT_NODE_BUDGET", "Solver", "Valuation", "card_values", "position_key", "side_of",
    "solve", "sure_bounds",
]

DEFAULT_NODE_BUDGET: Final = 2_000_000
"""Positions one solve visits at most before it settles for bounds."""


@frozen
class Valuation:
    """A value for a seat's side: exact when ``lower == upper``, else the bounds the search
    proved before its budget ran out."""

    lower: int
    upper: int

    @property
    def exact(self) -> bool:
        """Whether the value is proved exactly."""
        return self.lower == self.upper

    @property
    def value(self) -> int | None:
        """The exact value, ``None`` for a bound."""
        return self.lower if self.lower == self.upper else None

    def __str__(self) -> str:
        return str(self.lower) if self.exact else f"[{self.lower}, {self.upper}]"


class _OutOfBudget(Exception):
    """The node budget or the deadline ran out."""


def side_of(config: Config, seat: int) -> tuple[int, ...]:
    """The seats that play for ``seat``'s score: its team in team mode (rule SCORE-TEAMS),
    else the seat alone."""
    return config.team_of(seat)


def _multiplier(config: Config, side: tuple[int, ...]) -> int:
    """A partnerless seat in team mode doubles its score, penalty included (SCORE-TEAMS)."""
    return 2 if config.teams is not None and len(side) == 1 else 1


def _cards_in_play(state: GameState) -> list[Card]:
    round_ = state.round
    cards = [card for hand in round_.hands for card in hand]
    cards += [card for row in round_.face_up or () for card in row]
    cards += [play.card for play in state.current_trick()]
    return cards


def sure_bounds(state: GameState, side: tuple[int, ...]) -> tuple[int, int]:
    """Bounds on ``side``'s round score from any position of trick play, whatever is played.

    A bottle can change hands only when a card below its price wins a trick (BOTTLE-PURCHASE),
    so a bottle that no card left in play (in a hand, face up, or in the trick in progress) is
    below keeps its owner to the end. Captured coins only grow, and at most by the coins left in
    play and the price cards under the bottles that can still move (PRICE-CARD-RETURN)."""
    round_ = state.round
    config = state.config
    mult = _multiplier(config, side)
    penalty = coins(round_.devils_trick)
    in_play = _cards_in_play(state)
    lowest = min((card.rank for card in in_play), default=None)
    stuck_owned = movable = 0
    movable_coins = 0
    for bottle in round_.bottles:
        if lowest is None or lowest >= bottle.price:
            stuck_owned += bottle.owner is not None and bottle.owner in side
        else:
            movable += 1
            if bottle.price_card is not None:
                movable_coins += bottle.price_card.coins
    captured = sum(coins(round_.captured[seat]) for seat in side)
    best_coins = mult * (captured + coins(in_play) + movable_coins)
    if stuck_owned:
        upper = -penalty * stuck_owned * mult
    else:
        upper = max(best_coins, -penalty * mult)
    owned_at_most = stuck_owned + movable
    lower = mult * captured if owned_at_most == 0 else -penalty * owned_at_most * mult
    return min(lower, upper), upper


def position_key(state: GameState, side: tuple[int, ...]) -> Hashable:
    """The transposition table's key of a position at a trick boundary: what decides the rest of
    the round for ``side`` (the hands, the face-up rows, each bottle's price card and owner, the
    seat to lead, the coins the side has captured, the coins of the Devil's Trick)."""
    round_ = state.round
    return (
        state.to_act,
        round_.hands,
        round_.face_up,
        tuple((bottle.price_card, bottle.owner) for bottle in round_.bottles),
        sum(coins(round_.captured[seat]) for seat in side),
        coins(round_.devils_trick),
    )


class Solver:
    """Solves positions of one round for one seat's side, keeping its transposition table
    between solves (the positions of one round share most of their subtrees).

    ``node_budget`` bounds the positions visited by each ``solve``; ``seconds`` bounds its time.
    """

    def __init__(self, seat: int, config: Config, *, node_budget: int | None = DEFAULT_NODE_BUDGET,
                 seconds: float | None = None) -> None:
        self.seat = seat
        self.config = config
        self.side = side_of(config, seat)
        self.node_budget = node_budget
        self.seconds = seconds
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.nodes = 0
        """Positions visited by the solves so far."""
        self._limit = 0
        self._deadline: float | None = None

    def solve(self, state: GameState) -> Valuation:
        """The value of ``state`` for the solver's side: exact, or bounds past the budget."""
        if state.config != self.config:
            raise ArgumentError("Solver.solve(state)", "a state of another configuration")
        lower, upper = self._bounds(state)
        if lower == upper:
            return Valuation(lower, upper)
        self._limit = self.nodes + (self.node_budget if self.node_budget is not None else 1 << 62)
        self._deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        if self.seconds is not None and self.seconds <= 0:
            return self._settled(state, lower, upper)
        try:
            value = self._search(state, lower - 1, upper + 1)
        except _OutOfBudget:
            return self._settled(state, lower, upper)
        return Valuation(value, value)

    def _settled(self, state: GameState, lower: int, upper: int) -> Valuation:
        """The bounds known once the budget ran out: the sure bounds, narrowed by the table."""
        if self._at_boundary(state):
            known = self.table.get(position_key(state, self.side))
            if known is not None:
                lower, upper = max(lower, known[0]), min(upper, known[1])
        return Valuation(lower, upper)

    def _bounds(self, state: GameState) -> tuple[int, int]:
        if state.phase is not Phase.PLAY:
            scores = state.round.scores
            if scores is None:
                raise ArgumentError("Solver.solve(state)", "needs a position of trick play")
            return scores[self.seat], scores[self.seat]
        return sure_bounds(state, self.side)

    def _at_boundary(self, state: GameState) -> bool:
        return state.phase is Phase.PLAY and len(state.round.plays) % self.config.trick_size == 0

    def _search(self, state: GameState, alpha: int, beta: int) -> int:
        """Alpha-beta (fail-soft): the exact value if it lies strictly between ``alpha`` and
        ``beta``, else a bound on the same side of the window."""
        self.nodes += 1
        if self.nodes > self._limit or (
            self._deadline is not None and self.nodes % 16 == 0
            and time.perf_counter() > self._deadline
        ):
            raise _OutOfBudget
        if state.phase is not Phase.PLAY:
            scores = state.round.scores
            assert scores is not None
            return scores[self.seat]
        lower, upper = sure_bounds(state, self.side)
        if lower >= beta or lower == upper:
            return lower
        if upper <= alpha:
            return upper
        key = None
        if self._at_boundary(state):
            key = position_key(state, self.side)
            known = self.table.get(key)
            if known is not None:
                lower, upper = max(lower, known[0]), min(upper, known[1])
                if lower >= beta or lower == upper:
                    return lower
                if upper <= alpha:
                    return upper
        a, b = max(alpha, lower - 1), min(beta, upper + 1)
        seat = state.to_act
        assert seat is not None
        maximising = seat in self.side
        best = lower - 1 if maximising else upper + 1
        for action in legal_actions_of(state, seat):
            assert isinstance(action, Play)
            value = self._search(after_play(state, action), a, b)
            if maximising:
                if value > best:
                    best = value
                    a = max(a, value)
            elif value < best:
                best = value
                b = min(b, value)
            if a >= b:
                break
        if key is not None:
            if best <= alpha:
                upper = min(upper, best)
            elif best >= beta:
                lower = max(lower, best)
            else:
                lower = upper = best
            self.table[key] = (lower, upper)
        return best


def solve(state: GameState, seat: int | None = None, *,
          node_budget: int | None = DEFAULT_NODE_BUDGET, seconds: float | None = None) -> Valuation:
    """The paranoid open-hand value of ``state`` (a position of trick play, or a round just
    scored) for ``seat``'s side; ``seat`` defaults to the seat to act.

    >>> import bottleimp
    >>> from bottleimp.analysis import solve
    >>> state = bottleimp.new_game(bottleimp.Config(players=3), seed=1)
    >>> while len(state.round.plays) < 27:  # the setup and all but the last 3 tricks
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> state.to_act, solve(state)  # the seat to act can guarantee 26 coins, all hands seen
    (1, Valuation(lower=26, upper=26))
    >>> solve(state, seat=1).exact
    True
    """
    state = expect_state(state, "solve(state)")
    if seat is None:
        seat = state.to_act
    if type(seat) is not int or not 0 <= seat < state.config.players:
        raise ArgumentError("solve(seat)", f"needs a seat of the game, not {seat!r}")
    return Solver(seat, state.config, node_budget=node_budget, seconds=seconds).solve(state)


def card_values(state: GameState, solver: Solver | None = None) -> tuple[tuple[Play, Valuation], ...]:
    """Each legal card of the seat to act with the value, for that seat's side, of the position
    after it (``Solver.solve``), in the order of ``legal_actions``."""
    state = expect_state(state, "card_values(state)")
    if state.phase is not Phase.PLAY or state.to_act is None:
        raise ArgumentError("card_values(state)", "needs a position of trick play")
    seat = state.to_act
    if solver is None:
        solver = Solver(seat, state.config)
    elif solver.seat not in side_of(state.config, seat):
        raise ArgumentError("card_values(solver)", f"a solver for seat {solver.seat}'s side, "
                            f"not seat {seat}'s")
    values = []
    for action in legal_actions_of(state, seat):
        assert isinstance(action, Play)
        values.append((action, solver.solve(after_play(state, action))))
    return tuple(values)

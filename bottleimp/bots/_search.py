"""The search bot: determinised look-ahead over sampled worlds with heuristic playouts.

It gives its setup cards as the heuristic does (the lowest ones; searching the setup cost much
more and did not play better). For each play with more than one legal card, the bot samples ``worlds`` possible worlds
that agree with its view (``bottleimp.bots._worlds.sample_world``) and, in each, tries every
legal action and plays the rest of the round out through the engine with the heuristic strategy at every seat
(``bottleimp.bots._heuristic``; in a playout each seat counts as unseen the cards in the other
hands and the Devil's Trick). The action with the best mean result over the worlds is chosen.
A result is ``win + margin / 100``, where ``margin`` is the seat's total minus the best total of
the seats outside its team once the round is scored, and ``win`` is 1 when that ends the game
with the seat among the winners (rule WINNERS), else 0. The same worlds serve every action, so
the actions are compared on the same deals.

Its cost is about ``worlds`` x (legal actions) playouts of the rest of the round per decision:
``worlds`` is the budget. The bot is deterministic for a seed.
"""

from __future__ import annotations

import random

from .._actions import Action, Play
from .._cards import Rank
from .._engine import apply, legal_actions
from .._errors import BotError
from .._config import Config
from ..rules.game import add_totals, game_is_over, winners
from ..rules.play import trick_price
from .._state import GameState, Phase
from .._view import SeatView
from ._heuristic import HeuristicBot, heuristic_card
from ._worlds import sample_world

__all__ = ["DEFAULT_WORLDS", "SearchBot", "outcome", "playout_scores", "playout_value"]

DEFAULT_WORLDS = 32
"""The default budget: worlds sampled per decision."""

def _finish_setup(state: GameState) -> GameState:
    """The setup completed with the heuristic's gives (the lowest card each time)."""
    while state.phase is Phase.SETUP:
        legal = legal_actions(state)
        state = apply(state, legal[0])  # legal gives are in rank order
    return state


def playout_scores(state: GameState) -> tuple[GameState, tuple[int, ...]]:
    """The round of ``state`` played to its end with the heuristic at every seat: the state
    the trick play started from (``state`` itself unless it was in the setup) and the round's
    scores. Every play goes through the engine (``legal_actions``, ``apply``)."""
    start = _finish_setup(state)
    state = start
    size = state.config.trick_size
    while state.phase is Phase.PLAY:
        legal = legal_actions(state)
        play = legal[0]
        if len(legal) > 1:
            play = _heuristic_play(state, legal, size)
        state = apply(state, play)
    scores = state.round.scores
    assert scores is not None
    return start, scores


def _heuristic_play(state: GameState, legal: tuple[Action, ...], size: int) -> Action:
    """The heuristic's card for the seat to act (``heuristic_card``), counting as unseen the
    cards in the other hands and the Devil's Trick."""
    round_ = state.round
    seat = state.to_act
    plays = {action.card: action for action in legal if isinstance(action, Play)}
    trick = tuple(play.card for play in state.current_trick())
    price, _ = trick_price(round_.bottles)
    hidden = [card.rank for card in round_.devils_trick] + [
        card.rank for other, hand in enumerate(round_.hands) if other != seat for card in hand]

    def unseen_below(rank: Rank) -> int:
        return sum(1 for other in hidden if other < rank)

    return plays[heuristic_card(tuple(plays), trick, price, len(trick) == size - 1, unseen_below)]


def playout_value(state: GameState, seat: int) -> float:
    """The search's result for ``seat`` (see ``outcome``) of ``state`` played to the end of
    its round with the heuristic at every seat (``playout_scores``)."""
    start, scores = playout_scores(state)
    totals = add_totals(start.totals, scores)
    over = game_is_over(start.config, start.round.index + 1, totals)
    return outcome(start.config, totals, over, seat)


def outcome(config: Config, totals: tuple[int, ...], game_over: bool, seat: int) -> float:
    """The search's result for ``seat`` once a round is scored: ``win + margin / 100`` (see the
    module's docstring)."""
    team = config.team_of(seat)
    best_other = max(total for other, total in enumerate(totals) if other not in team)
    margin = totals[seat] - best_other
    win = 1.0 if game_over and seat in winners(totals) else 0.0
    return win + margin / 100


class SearchBot:
    """Chooses by determinised look-ahead (see the module's docstring); ``worlds`` sets its
    budget, ``seed`` its sampling."""

    def __init__(self, seed: int = 0, worlds: int = DEFAULT_WORLDS) -> None:
        if type(worlds) is not int or worlds < 1:
            raise BotError(f"the search budget (worlds) must be a positive int, not {worlds!r}")
        self._random = random.Random(seed)
        self._heuristic = HeuristicBot(seed)
        self.worlds = worlds

    def choose(self, view: SeatView, legal: tuple[Action, ...]) -> Action:
        """One of ``legal``: the best mean playout result over the sampled worlds."""
        if len(legal) == 1 or not isinstance(legal[0], Play):
            return self._heuristic.choose(view, legal)
        seat = view.seat
        totals = [0.0] * len(legal)
        for _ in range(self.worlds):
            world = sample_world(view, self._random)
            for index, action in enumerate(legal):
                totals[index] += playout_value(apply(world, action), seat)
        best = max(range(len(legal)), key=totals.__getitem__)
        return legal[best]

"""The games the harness generates: a configuration, a first dealer and rounds, each round a
deal seed, the choices made and the illegal requests tried (``Mistake``), drawn by Hypothesis
(``game_scripts``) or by a plain random generator (``random_script``, the coverage top-up)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import evolve, frozen

from ..config import Config
from ..errors import HarnessError
from .capabilities import GAME_ENDS, Capabilities, Variant
from .refusals import REFUSALS

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["Mistake", "RoundScript", "GameScript", "game_scripts", "random_script", "with_end",
           "MAX_ROUNDS", "MAX_TARGET"]


@frozen
class Mistake:
    """An illegal request of kind ``REFUSALS[kind % len(REFUSALS)]``, tried at the first moment
    of its kind at or after decision ``step`` of its phase; ``pick`` picks which seat or card."""

    step: int
    kind: int
    pick: int


@frozen
class RoundScript:
    """One round: the seed of its deal, the choices made (``choices[k]`` picks among the legal
    options of decision ``k``; past the list, choices come from ``play_seed``) and the mistakes
    tried along the way."""

    deal_seed: int
    play_seed: int
    choices: tuple[int, ...]
    mistakes: tuple[Mistake, ...]


@frozen
class GameScript:
    """A game: its configuration (its end included: a number of rounds, a target score, or
    neither for the default number of rounds), the seat that deals first, and its rounds, dealt
    in turn clockwise from there. A game that ends by its target score or by default plays its
    rounds over again (each dealt anew) until the library's ``end_round`` says it is over, at
    most ``MAX_ROUNDS`` rounds."""

    config: Config
    rounds: tuple[RoundScript, ...]
    first_dealer: int = 0

    def round_script(self, index: int) -> RoundScript:
        """The script of round ``index`` (from 0): the rounds in turn, over again."""
        return self.rounds[index % len(self.rounds)]

    @property
    def most_rounds(self) -> int:
        """How many rounds the game plays at most: its number of rounds if it has one, else
        ``MAX_ROUNDS`` (its end decides before)."""
        if self.config.rounds is not None:
            return self.config.rounds
        return MAX_ROUNDS if self.rounds else 0


MAX_ROUNDS = 12
"""The most rounds a game with a target score or the default end is played for (the default is
at most 9; a target score is drawn small enough to be reached before)."""

MAX_TARGET = 100
"""The highest target score a generated game has (1 is the lowest the rules allow)."""


def _team_partitions(players: int, order: Sequence[int], pairs: int) -> list[list[int]]:
    teams = [list(order[2 * i: 2 * i + 2]) for i in range(pairs)]
    return teams + [[seat] for seat in order[2 * pairs:]]


def with_end(config: Config, end: str, rounds: int, target: int) -> Config:
    """``config`` ending as ``end`` says: after ``rounds`` rounds, at ``target`` points, or by
    default."""
    if end == "rounds":
        return evolve(config, rounds=rounds, target_score=None)
    if end == "target_score":
        return evolve(config, rounds=None, target_score=target)
    return evolve(config, rounds=None, target_score=None)


def game_scripts(variants: Sequence[Variant] | None = None,
                 ends: Sequence[str] = GAME_ENDS, one_round: bool = False
                 ) -> SearchStrategy[GameScript]:
    """The Hypothesis strategy for games in ``variants`` (default: every variant) ending in one
    of ``ends`` (a number of rounds, 1 or 2; a target score from 1 to ``MAX_TARGET``; the
    default). Shrinks towards the first variant (the fewest players), the first end, seat 0
    dealing, one round, no mistakes and the lowest legal card at every decision. ``one_round``:
    every game is one round (``rounds: 1``)."""
    from hypothesis import strategies as st

    chosen = tuple(variants) if variants is not None else Capabilities().variants()
    if not chosen:
        raise HarnessError("no variant to play: the peer's capabilities and the options leave "
                           "no player count, edition and bottles the rules define together")

    @st.composite
    def configs(draw: st.DrawFn) -> tuple[Config, int]:
        variant = draw(st.sampled_from(chosen))
        players = variant.players
        teams = None
        if variant.teams and draw(st.booleans()):
            order = draw(st.permutations(range(players)))
            teams = _team_partitions(players, order, draw(st.integers(1, players // 2)))
        config = Config(players=players, edition=variant.edition, bottles=variant.bottles,
                        teams=teams)
        return config, draw(st.integers(0, players - 1))

    mistakes = st.builds(Mistake, st.integers(0, 60), st.integers(0, len(REFUSALS) - 1),
                         st.integers(0, 255))
    rounds = st.builds(
        RoundScript,
        deal_seed=st.integers(0, 2**32 - 1),
        play_seed=st.integers(0, 2**32 - 1),
        choices=st.lists(st.integers(0, 255), max_size=24).map(tuple),
        mistakes=st.lists(mistakes, max_size=4).map(tuple),
    )
    if not ends:
        raise HarnessError("no game end to play: the peer declares none the rules define")
    chosen_ends = tuple(end for end in GAME_ENDS if end in ends)
    return st.builds(
        lambda chosen_config, rounds_, end, target: GameScript(
            with_end(chosen_config[0], end, len(rounds_), target), rounds_, chosen_config[1]),
        configs(), st.lists(rounds, min_size=1, max_size=1 if one_round else 2).map(tuple),
        st.sampled_from(chosen_ends), st.integers(1, MAX_TARGET))


def random_script(variants: Sequence[Variant], rng: random.Random,
                  mistakes: Sequence[Mistake], ends: Sequence[str] = GAME_ENDS) -> GameScript:
    """A game drawn without Hypothesis (the coverage top-up): one round holding ``mistakes``,
    the game ending after it (or, for a peer that plays no number of rounds, by the first
    game end it plays)."""
    variant = variants[rng.randrange(len(variants))]
    teams = None
    if variant.teams and rng.random() < 0.5:
        order = list(range(variant.players))
        rng.shuffle(order)
        teams = _team_partitions(variant.players, order, rng.randint(1, variant.players // 2))
    config = Config(players=variant.players, edition=variant.edition, bottles=variant.bottles,
                    teams=teams)
    round_ = RoundScript(rng.randrange(2**32), rng.randrange(2**32), (), tuple(mistakes))
    end = "rounds" if "rounds" in ends or not ends else ends[0]
    return GameScript(with_end(config, end, 1, 1), (round_,), rng.randrange(variant.players))

"""The games the harness generates: a configuration, a first dealer and rounds, each round a
deal seed, the choices made and the illegal requests tried (``Mistake``), drawn by Hypothesis
(``game_scripts``) or by a plain random generator (``random_script``, the coverage top-up)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from attrs import frozen

from ..config import Config
from ..errors import HarnessError
from .capabilities import Capabilities, Variant
from .refusals import REFUSALS

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["Mistake", "RoundScript", "GameScript", "game_scripts", "random_script"]


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
    """A game: its configuration, the seat that deals first, and its rounds, dealt in turn
    clockwise from there."""

    config: Config
    rounds: tuple[RoundScript, ...]
    first_dealer: int = 0


def _team_partitions(players: int, order: Sequence[int], pairs: int) -> list[list[int]]:
    teams = [list(order[2 * i: 2 * i + 2]) for i in range(pairs)]
    return teams + [[seat] for seat in order[2 * pairs:]]


def game_scripts(variants: Sequence[Variant] | None = None) -> SearchStrategy[GameScript]:
    """The Hypothesis strategy for games in ``variants`` (default: every variant). Shrinks
    towards the first variant (the fewest players), seat 0 dealing, one round, no mistakes and
    the lowest legal card at every decision."""
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
    return st.builds(
        lambda chosen_config, rounds_: GameScript(chosen_config[0], rounds_, chosen_config[1]),
        configs(), st.lists(rounds, min_size=1, max_size=2).map(tuple))


def random_script(variants: Sequence[Variant], rng: random.Random,
                  mistakes: Sequence[Mistake]) -> GameScript:
    """A game drawn without Hypothesis (the coverage top-up): one round holding ``mistakes``."""
    variant = variants[rng.randrange(len(variants))]
    teams = None
    if variant.teams and rng.random() < 0.5:
        order = list(range(variant.players))
        rng.shuffle(order)
        teams = _team_partitions(variant.players, order, rng.randint(1, variant.players // 2))
    config = Config(players=variant.players, edition=variant.edition, bottles=variant.bottles,
                    teams=teams)
    round_ = RoundScript(rng.randrange(2**32), rng.randrange(2**32), (), tuple(mistakes))
    return GameScript(config, (round_,), rng.randrange(variant.players))

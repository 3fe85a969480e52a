"""Seeded random games of every variant, shared by the record, schema and validator tests."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from bottleimp import Config, GameState, apply, legal_actions, new_game
from bottleimp.formats._records import record_from_state, record_to_json

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

    from bottleimp.conformance._protocol import Variant
    from bottleimp.conformance._session import GameScript

Doc = dict[str, Any]
"""A record as a JSON document."""

VARIANTS = {
    "classic-2p": Config(players=2),
    "matagot-2p": Config(players=2, edition="matagot-2024"),
    "classic-3p": Config(players=3),
    "classic-4p": Config(players=4),
    "classic-4p-rounds-2": Config(players=4, rounds=2),
    "matagot-4p-target": Config(players=4, edition="matagot-2024", target_score=60),
    "matagot-5p": Config(players=5, edition="matagot-2024"),
    "matagot-5p-two-bottles": Config(players=5, edition="matagot-2024", bottles=2),
    "matagot-6p": Config(players=6, edition="matagot-2024"),
    "matagot-6p-two-bottles": Config(players=6, edition="matagot-2024", bottles=2),
    "matagot-4p-teams": Config(players=4, edition="matagot-2024", teams=((0, 2), (1, 3))),
    "matagot-5p-teams": Config(players=5, edition="matagot-2024", teams=((0, 3), (1, 4), (2,))),
    "matagot-6p-teams": Config(players=6, edition="matagot-2024", teams=((0, 3), (1, 4), (2, 5))),
}


def random_game(
    config: Config, seed: int, actions: int | None = None, first_dealer: int = 0
) -> GameState:
    """A game of random legal actions from ``seed``, dealt first by ``first_dealer``; stops after
    ``actions`` actions if given."""
    rng = random.Random(seed)
    state = new_game(config, seed, first_dealer=first_dealer)
    taken = 0
    while not state.is_over and (actions is None or taken < actions):
        state = apply(state, rng.choice(legal_actions(state)))
        taken += 1
    return state


def doc_of(state: GameState) -> Doc:
    return dict(record_to_json(record_from_state(state)))


def json_slots(value: Any) -> Iterator[tuple[Any, Any]]:
    """Every (container, key or index) in a JSON value, depth first: the places a test can plant
    a fault."""
    if isinstance(value, dict):
        for key in list(value):
            yield value, key
            yield from json_slots(value[key])
    elif isinstance(value, list):
        for index in range(len(value)):
            yield value, index
            yield from json_slots(value[index])


def game_scripts(variants: Sequence[Variant] | None = None, ends: Sequence[str] | None = None,
                 one_round: bool = False) -> SearchStrategy[GameScript]:
    """The harness's ``draw_script`` as a Hypothesis strategy (default: every variant and end)."""
    from hypothesis import strategies as st

    from bottleimp.conformance._protocol import GAME_ENDS, Capabilities
    from bottleimp.conformance._session import draw_script

    ends = GAME_ENDS if ends is None else ends
    chosen = tuple(variants) if variants is not None else Capabilities().variants()
    return st.randoms(use_true_random=False).map(
        lambda rng: draw_script(rng, chosen, ends, one_round))

"""Every reachable state of the small games of ``scripts/exhaustive.py``'s CI set, and every
state on the way from each deal to where its walk starts, is checked against every invariant of
the state machines (and the legality cache against the actions of the
parent and of every sibling); the counts of deals, states, transitions and ends are pinned, so a
change in what the rules allow shows here too. Each planted bug of ``PLANTS`` (one per rule
module and the bugs listed in the plants' test) makes its walk fail, and the seat-rotation
reduction is checked on a sample of deals. The larger runs are on demand:
``python scripts/exhaustive.py --all``.

Under the ``dev`` profile (``depth.py``) the walks are the same (every state, the same pinned
counts and required events), every state gets every check but three, and those three (the JSON
round trip, the views, the catalogue of illegal actions: four fifths of the time) run at every
8th state; the rotation is checked on fewer deals. ``ci`` runs everything everywhere."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bottleimp import Phase
from depth import scaled

ROOT = Path(__file__).resolve().parent.parent


def _exhaustive() -> ModuleType:
    spec = importlib.util.spec_from_file_location("exhaustive", ROOT / "scripts" / "exhaustive.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["exhaustive"] = module
    spec.loader.exec_module(module)
    return module


EXHAUSTIVE = _exhaustive()

# name: (deals, states, transitions, ends of the game), as `python scripts/exhaustive.py` prints.
EXPECTED: dict[str, tuple[int, int, int, int]] = {
    "3p-8cards": (1, 1858, 1857, 312),
    "3p-8cards-half-ranks": (1, 1802, 1801, 304),
    "3p-8cards-target": (1, 1969, 1968, 201),
    "3p-8cards-2rounds": (1, 1805, 1804, 304),
    "2p-devils-eye": (2, 1744, 1742, 430),
    "4p-11cards": (2, 231, 229, 36),
    "4p-12cards-teams": (2, 105, 103, 16),
    "5p-24cards-2bottles": (2, 234, 232, 32),
    "5p-14cards-teams": (5, 541, 536, 72),
    "6p-23cards-2bottles": (1, 141, 140, 16),
    "6p-17cards-teams": (1, 37, 36, 4),
    "3p-8cards-54-pairs": (2, 3636, 3634, 608),
    "5p-14cards-2rounds": (2, 385, 383, 0),
    "6p-17cards-2rounds": (2, 55, 53, 0),
}

FULL_EVERY = scaled(ci=1, dev=8)
"""The costliest state checks at every state (``dev``: every 8th; see the module's doc)."""
ROTATION_STRIDE = scaled(ci=56, dev=140)
"""Every 56th deal of each other dealer (``dev``: every 140th)."""

CI = [spec for spec in EXHAUSTIVE.CONFIGURATIONS if spec.ci]
BY_NAME = {spec.name: spec for spec in EXHAUSTIVE.CONFIGURATIONS}


def test_the_ci_set_covers_every_player_count_and_variant() -> None:
    assert {spec.name for spec in CI} == set(EXPECTED)
    configs = [spec.config for spec in CI]
    assert {c.players for c in configs} == {2, 3, 4, 5, 6}
    assert any(c.bottles == 2 for c in configs) and any(c.teams for c in configs)
    assert any(c.rounds == 2 for c in configs) and any(c.target_score for c in configs)
    assert any(not isinstance(card.rank, int) for c in configs for card in c.cards)
    assert any(spec.after == 0 for spec in CI), "some games are walked from the deal itself"
    # Every player count of 5 and 6 reaches a second round (the next dealer), and a trick holds a
    # whole rank of the 54-card deck and its half.
    for players in (5, 6):
        assert any(spec.config.players == players and spec.config.rounds == 2
                   and "second round dealt, 5-6 players" in spec.requires for spec in CI)
    assert any("a rank and its half in one trick" in spec.requires for spec in CI)
    two_bottles = [spec for spec in CI if spec.config.bottles == 2]
    for spec in two_bottles:
        for event in ("bought 1", "changed hands 0", "changed hands 1", "price card returned 0",
                      "price card returned 1", "every card above price",
                      "trick at a tie of the two prices"):
            assert event in spec.requires, (spec.name, event)


@pytest.mark.parametrize("spec", CI, ids=lambda spec: spec.name)
def test_every_reachable_state_of_a_small_game_is_checked(spec: Any) -> None:
    summary = EXHAUSTIVE.run(spec, full_every=FULL_EVERY)
    found = (summary.deals, summary.states, summary.transitions, summary.terminal)
    assert summary.states > summary.deals
    assert summary.terminal > 0 or spec.rounds_walked is not None  # a later round not walked
    assert found == EXPECTED[summary.name]
    # The way from each deal to its walk's start got the same checks: the dealt state and each of
    # the ``after`` first legal actions, for every deal by every dealer.
    assert summary.prefix_states == summary.deals * (spec.after + 1)


@pytest.mark.parametrize("plant", sorted(EXHAUSTIVE.PLANTS))
def test_a_planted_bug_in_each_rule_module_is_caught(plant: str) -> None:
    catcher = BY_NAME[EXHAUSTIVE.PLANTS[plant][3]]
    assert catcher.ci
    assert EXHAUSTIVE.caught(plant, catcher) is not None, f"{plant} passed {catcher.name}"
    # The plant is undone afterwards: a walk passes again.
    assert EXHAUSTIVE.run(BY_NAME["6p-17cards-teams"]).states == EXPECTED["6p-17cards-teams"][1]


def test_the_plants_cover_every_rule_module_and_the_bugs_the_walks_once_missed() -> None:
    """Besides one bug per rule module: the second bottle's price card kept; bugs that only the
    way to a walk's start could show (a Devil's Eye face-up pass to the giver's own row, a tie of
    the two prices bought by the last bottle); bugs of the deal that only the seeded deal shows
    (SplitMix64 without its first mask, a mirrored shuffle, a counter-clockwise deal); and a
    winner by the led colour, which a deck of one colour cannot show."""
    modules = {module for module, *_ in EXHAUSTIVE.PLANTS.values()}
    assert modules == {f"bottleimp.rules.{name}" for name in
                       ("deal", "setup", "play", "scoring", "game")}
    for words in ("second bottle", "face-up pass", "tie of the two prices", "first mask",
                  "mirrored", "counter-clockwise", "led colour"):
        assert any(words in plant for plant in EXHAUSTIVE.PLANTS), words


def test_a_deal_by_another_dealer_walks_as_the_rotated_deal_by_seat_0() -> None:
    """The seat-rotation reduction, on every 56th deal (``dev``: 140th) of the 3-player deck by
    dealers 1 and 2: 20 deals (8)."""
    deals = 2 * len(range(0, 560, ROTATION_STRIDE))
    assert deals == scaled(ci=20, dev=8)
    assert EXHAUSTIVE.check_rotation(BY_NAME["3p-8cards"], stride=ROTATION_STRIDE) == deals


def test_the_transitions_hook_yields_every_walked_transition() -> None:
    spec = BY_NAME["6p-17cards-teams"]
    found = list(EXHAUSTIVE.transitions(spec))
    starts = [after for before, action, after in found if before is None]
    assert len(starts) == 1 and len(found) == EXPECTED[spec.name][1]
    assert sum(after.phase is Phase.GAME_OVER for _, _, after in found) == EXPECTED[spec.name][3]

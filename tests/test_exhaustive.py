"""Every reachable state of the small games of ``scripts/exhaustive.py``'s CI set is checked
against every invariant of the state machines (and the legality cache against the actions of
other states); the counts of deals, states, transitions and ends are pinned, so a change in
what the rules allow shows here too. The larger configurations run on demand:
``python scripts/exhaustive.py --all``."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _exhaustive() -> ModuleType:
    spec = importlib.util.spec_from_file_location("exhaustive", ROOT / "scripts" / "exhaustive.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["exhaustive"] = module
    spec.loader.exec_module(module)
    return module


EXHAUSTIVE = _exhaustive()

# name: (deals, states, transitions, terminal states), as `python scripts/exhaustive.py` prints.
EXPECTED: dict[str, tuple[int, int, int, int]] = {
    "3p-8cards": (3, 5518, 5515, 928),
    "3p-8cards-2rounds": (2, 3666, 3664, 616),
    "2p-devils-eye-play": (4, 4478, 4474, 1120),
    "4p-11cards-play": (20, 2288, 2268, 356),
    "4p-12cards-teams-play": (16, 705, 689, 104),
    "5p-14cards-play": (10, 1020, 1010, 136),
    "5p-14cards-2bottles-play": (10, 1020, 1010, 136),
    "5p-14cards-teams-play": (10, 1020, 1010, 136),
    "6p-17cards-2bottles-play": (18, 1127, 1109, 128),
    "6p-17cards-teams-play": (18, 1127, 1109, 128),
}

CI = [spec for spec in EXHAUSTIVE.CONFIGURATIONS if spec.ci]


def test_the_ci_set_covers_every_player_count_and_variant() -> None:
    assert {spec.name for spec in CI} == set(EXPECTED)
    configs = [spec.config for spec in CI]
    assert {c.players for c in configs} == {2, 3, 4, 5, 6}
    assert any(c.bottles == 2 for c in configs) and any(c.teams for c in configs)
    assert any(c.rounds == 2 for c in configs)
    assert any(spec.after == 0 for spec in CI), "some games are walked from the deal itself"


@pytest.mark.parametrize("spec", CI, ids=lambda spec: spec.name)
def test_every_reachable_state_of_a_small_game_is_checked(spec: object) -> None:
    summary = EXHAUSTIVE.run(spec)
    found = (summary.deals, summary.states, summary.transitions, summary.terminal)
    assert summary.states > summary.deals and summary.terminal > 0
    assert found == EXPECTED[summary.name]

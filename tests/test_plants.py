"""The plant table (``scripts/plants.py``): every rule ID of ``spec/rules.toml`` has at least one
realistic planted bug, and every plant is caught by each check of CI's formal set that the table
names for it (the exhaustive walks, the differential walk against the independent model, the
symbolic pass at CI's bounds). A plant that escaped every check of the set would fail here, and
so would one that escaped a check the table (and the trust page) says catches it.

The checks named as catchers pass without a plant: the walks in ``test_exhaustive.py``, the
symbolic pass in ``.ci/run`` (``scripts/symbolic.py --ci``), and the differential walks below."""

from __future__ import annotations

import importlib.util
import sys
import tomllib
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _plants() -> ModuleType:
    if "plants" in sys.modules:
        return sys.modules["plants"]
    spec = importlib.util.spec_from_file_location("plants", ROOT / "scripts" / "plants.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["plants"] = module
    spec.loader.exec_module(module)
    return module


PLANTS: Any = _plants()
TABLE = {plant.name: plant for plant in PLANTS.PLANTS}


def test_every_rule_id_has_a_plant_and_the_audits_eight_are_there() -> None:
    with open(ROOT / "spec" / "rules.toml", "rb") as file:
        rules = [entry["id"] for entry in tomllib.load(file)["rules"]]
    assert len(rules) >= 40 and len(PLANTS.PLANTS) >= len(rules)
    assert {plant.rule for plant in PLANTS.PLANTS} == set(rules)
    assert len(TABLE) == len(PLANTS.PLANTS), "plant names are unique"
    origins = {plant.origin: plant for plant in PLANTS.PLANTS if plant.origin}
    expected = {"N1": "SCORE-TEAMS", "N2": "TRICK-PRICE", "N3": "EYE-FOLLOW-SUIT",
                "N4": "DEALER-ROTATION", "N5": "GAME-END", "N6": "PRICE-CARD-RETURN",
                "N7": "TRICK-WINNER", "N8": "SETUP-RESOLVE"}
    for origin, rule in expected.items():
        assert origins[origin].rule == rule, origin


def test_every_catcher_is_a_check_of_cis_formal_set() -> None:
    known = set(PLANTS.checks())
    for plant in PLANTS.PLANTS:
        assert plant.catchers, plant.name
        assert set(plant.catchers) <= known, (plant.name, set(plant.catchers) - known)
    # The walks added to reach every rule are in CI's set.
    for name in ("3p-8cards-54-pairs", "5p-14cards-2rounds", "6p-17cards-2rounds"):
        assert f"walk {name}" in known


@pytest.mark.parametrize("name", sorted(TABLE))
def test_each_plant_is_caught_by_every_check_the_table_names(name: str) -> None:
    plant = TABLE[name]
    escaped = [check for check in plant.catchers if PLANTS.caught_by(plant, check) is None]
    assert not escaped, f"{name} escaped {escaped}"


def test_a_plant_is_undone_after_its_check() -> None:
    plant = TABLE["play: ranks compared by their whole part (2 and 2.5 tie)"]
    assert PLANTS.caught_by(plant, "symbolic play.trick_winner") is not None
    assert PLANTS.run_check("symbolic play.trick_winner") is None
    assert PLANTS.run_check("walk 6p-17cards-2rounds") is None


def test_the_differential_walks_named_as_catchers_agree_without_a_plant() -> None:
    """A disagreement found under a plant means something only if the unplanted walk agrees."""
    from restatement.differential import Differential, run_walk

    named = sorted({check.split(" ", 1)[1] for plant in PLANTS.PLANTS
                    for check in plant.catchers if check.startswith("differential ")})
    assert "5p-14cards-2rounds" in named and "3p-8cards-54-pairs" in named
    for walk in named:
        diff = Differential()
        run_walk(walk, differential=diff)
        assert diff.disagreements == 0 and diff.states > 0, (walk, diff.report())

"""The symbolic pass (``scripts/symbolic.py``) can fail: its properties of the deal state the
documented deal and shuffle, so planted bugs of the deal refute them, and its proof of
``splitmix64`` models Python's integers, so a dropped mask is refuted. The properties checked by
enumeration run here (the fast ones); CrossHair's are run by the script (the ``symbolic``
extra), and the Z3 proof here when ``z3-solver`` is installed."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


SYMBOLIC = _load("symbolic")
EXHAUSTIVE: Any = sys.modules.get("exhaustive") or _load("exhaustive")
PROPERTY = {prop.name: prop for prop in SYMBOLIC.PROPERTIES}


@pytest.mark.parametrize("name", ["deal.shuffle", "deal.deal", "play.trick_price"])
def test_the_properties_of_the_deal_and_the_price_hold(name: str) -> None:
    prop = PROPERTY[name]
    outcome = SYMBOLIC.enumerate_domain(prop) if prop.domain else None
    if outcome is None:  # a CrossHair property: its body run on a few concrete inputs
        for args in [(1, 5, 19), (2, 19, 19), (2, 7, 12), (2, 12, 7), (2, 9, 9)]:
            prop.check(*args)
        return
    assert outcome.status == "verified" and outcome.completed, outcome


@pytest.mark.parametrize(("plant", "name"), [
    ("deal: the cards are dealt counter-clockwise", "deal.deal"),
    ("deal: the shuffle is mirrored (j = i - draw mod (i + 1))", "deal.shuffle"),
])
def test_a_planted_bug_of_the_deal_refutes_its_property(plant: str, name: str) -> None:
    with EXHAUSTIVE.planted(plant):
        outcome = SYMBOLIC.enumerate_domain(PROPERTY[name])
    assert outcome.status == "refuted", outcome


def test_the_trivial_properties_are_marked_as_restating_their_body() -> None:
    assert SYMBOLIC.RESTATES_ITS_BODY <= set(PROPERTY)
    assert {"play.next_leader", "play.bottle_after_purchase"} <= SYMBOLIC.RESTATES_ITS_BODY
    assert "play.resolve_trick" not in SYMBOLIC.RESTATES_ITS_BODY


def test_the_splitmix64_proof_models_python_integers_and_refutes_a_dropped_mask() -> None:
    pytest.importorskip("z3")
    assert SYMBOLIC.prove_splitmix64().status == "verified"
    with EXHAUSTIVE.planted("deal: splitmix64 without its first mask"):
        outcome = SYMBOLIC.prove_splitmix64()
    assert outcome.status == "refuted" and "at state" in outcome.counterexample, outcome

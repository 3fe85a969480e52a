"""The symbolic pass (``scripts/symbolic.py``) can fail: its properties of the deal state the
documented deal and shuffle, so planted bugs of the deal refute them, and its proof of
``splitmix64`` models Python's integers, so a dropped mask is refuted. The properties checked by
enumeration run here (the fast ones); CrossHair's are run by the script (the ``symbolic``
extra), and the Z3 proof here when ``z3-solver`` is installed."""

from __future__ import annotations

import importlib.util
import inspect
import re
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


def test_a_property_that_compares_functions_of_the_code_is_not_labelled_rule() -> None:
    """``rule`` only for a property stating its rule from the text: ``round_scores`` is compared
    with ``team_scores``/``individual_scores``, so it is ``consistency``; the properties of
    ``follows_suit``, Devil's Eye's two functions, ``game_is_over`` and ``winners`` state their
    rules and call no other function of the rules but the one they check."""
    claims = {name: SYMBOLIC.claim_of(prop) for name, prop in PROPERTY.items()}
    assert claims["scoring.round_scores"] == "consistency"
    for name in ("play.follows_suit", "play.devils_eye_playable", "play.devils_eye_follows_suit",
                 "game.game_is_over", "game.winners", "play.resolve_trick"):
        assert claims[name] == "rule", name
        source = inspect.getsource(PROPERTY[name].check)
        called = set(re.findall(r"\b(?:play|deal|setup|scoring|game)\.(\w+)\(", source))
        assert called == {PROPERTY[name].function}, (name, called)


def test_every_property_runs_in_ci_without_crosshair() -> None:
    """``--ci`` (what ``.ci/run`` runs) checks every property: the Z3 proof, or every input of a
    finite domain (the CrossHair properties on their CI domain, stated in their bounds)."""
    for prop in SYMBOLIC.PROPERTIES:
        assert prop.proof or prop.domain or prop.ci_domain, prop.name
        assert SYMBOLIC.method_of(prop, "ci") in ("z3", "enumeration")
        assert SYMBOLIC.bounds_of(prop, "ci"), prop.name
    ci_run = (ROOT / ".ci" / "run").read_text()
    assert "python scripts/symbolic.py --ci" in ci_run


def test_the_trick_resolution_property_holds() -> None:
    outcome = SYMBOLIC.enumerate_domain(PROPERTY["play.resolve_trick"])
    assert outcome.status == "verified" and outcome.paths > 60_000, outcome


def _buy_the_cheaper_bottle(bottles: Any) -> Any:
    prices = [bottle.price for bottle in bottles]
    return min(prices), prices.index(min(prices))


def _price_card_to_the_buyer(original: Any) -> Any:
    """The plant table's: the old price card given to the new owner."""
    plants: Any = sys.modules.get("plants") or _load("plants")
    return plants._price_card_to_buyer(original)


def _whole_ranks_win(cards: Any, price: Any) -> int:
    below = [card for card in cards if int(card.rank) < price]
    found: int = cards.index(max(below or cards, key=lambda card: int(card.rank)))
    return found


@pytest.mark.parametrize(("attribute", "plant"), [
    ("trick_price", lambda original: _buy_the_cheaper_bottle),
    ("resolve_trick", _price_card_to_the_buyer),
    ("trick_winner", lambda original: _whole_ranks_win),
    ("captured_by_winner", lambda original: lambda cards, winning, bought: cards),
    ("returned_price_card", lambda original: lambda bottle: None),
    ("bottle_after_purchase", lambda original: lambda winner, card: SYMBOLIC.Bottle(card, None)),
], ids=["cheaper-bottle-bought", "price-card-to-buyer", "whole-ranks", "winning-card-captured",
        "price-card-kept", "bottle-not-owned"])
def test_a_planted_bug_in_resolve_trick_refutes_its_property(
        monkeypatch: pytest.MonkeyPatch, attribute: str, plant: Any) -> None:
    from bottleimp.rules import play

    monkeypatch.setattr(play, attribute, plant(getattr(play, attribute)))
    outcome = SYMBOLIC.enumerate_domain(PROPERTY["play.resolve_trick"])
    assert outcome.status == "refuted", outcome
    assert SYMBOLIC.main(["--ci", "play.resolve_trick"]) == 1


def test_an_exception_inside_a_property_fails_the_pass_and_is_no_refutation(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from bottleimp.rules import game

    def crashing(totals: Any) -> Any:
        raise KeyError("a crash, not a finding")

    monkeypatch.setattr(game, "winners", crashing)
    outcome = SYMBOLIC.enumerate_domain(PROPERTY["game.winners"], PROPERTY["game.winners"].ci_domain)
    assert outcome.status == "error" and "KeyError" in outcome.counterexample, outcome
    assert SYMBOLIC.main(["--ci", "game.winners"]) == 1
    # An assert inside the code under check is an error of the code too, not the property's.
    def asserting(totals: Any) -> Any:
        assert False, "the code's own assert"

    monkeypatch.setattr(game, "winners", asserting)
    outcome = SYMBOLIC.enumerate_domain(PROPERTY["game.winners"], PROPERTY["game.winners"].ci_domain)
    assert outcome.status == "error", outcome


def test_the_splitmix64_proof_models_python_integers_and_refutes_a_dropped_mask() -> None:
    pytest.importorskip("z3")
    assert SYMBOLIC.prove_splitmix64().status == "verified"
    with EXHAUSTIVE.planted("deal: splitmix64 without its first mask"):
        outcome = SYMBOLIC.prove_splitmix64()
    assert outcome.status == "refuted" and "at state" in outcome.counterexample, outcome

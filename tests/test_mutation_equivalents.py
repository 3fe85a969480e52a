"""Each mutant of the rule modules that ``scripts/equivalent_mutants.toml`` lists as equivalent
is applied on purpose and the exhaustive walks of two small games run against it (every check at
every state): the walks pass with the same counts as the unmutated rules. This documents the
claim and tries to kill each one; a mutant that the walks kill is no longer equivalent and must
leave the list with a test of its own."""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Iterator
from contextlib import contextmanager
from types import ModuleType
from typing import Any

import pytest

from bottleimp.rules import registry
from test_exhaustive import BY_NAME, EXHAUSTIVE, EXPECTED
from test_mutation_script import _script

RULE_MODULES = ("play", "scoring", "setup", "deal", "game")
WALKS = ("6p-23cards-2bottles", "6p-17cards-teams")
"""Small walks with two bottles and with teams (at level ``sweep``: every transition check, the
legal actions, zones, totals, seeded deals and refusals of the parent's and siblings' actions)."""


def _walk(name: str) -> Any:
    return EXHAUSTIVE.run(dataclasses.replace(BY_NAME[name], level="sweep"))


def _equivalent_rule_mutants() -> list[Any]:
    mutate = _script()
    listed = mutate.load_equivalents()
    return [m for name in RULE_MODULES for m in mutate.mutants_of(f"bottleimp/rules/{name}.py")
            if m.ident in listed]


@contextmanager
def mutated(mutant: Any) -> Iterator[None]:
    """The rule module with ``mutant`` applied: its mutated source is executed as a fresh module
    and every name the module defines is swapped in (the engine reads the rules through their
    module's attributes), then put back."""
    module: ModuleType = importlib.import_module(
        "bottleimp.rules." + mutant.path.rsplit("/", 1)[-1].removesuffix(".py"))
    saved = dict(vars(module))
    # The lists too: executing the mutant appends its functions to the registry's lists.
    rule_functions = {rule_id: list(functions) for rule_id, functions in registry.RULE_FUNCTIONS.items()}
    rule_ids = dict(registry.RULE_IDS)
    namespace: dict[str, Any] = {"__name__": module.__name__, "__package__": "bottleimp.rules"}
    exec(compile(mutant.source, mutant.path, "exec"), namespace)
    try:
        for name, value in namespace.items():
            if not name.startswith("__"):
                setattr(module, name, value)
        yield
    finally:
        for name in list(namespace):
            if not name.startswith("__"):
                setattr(module, name, saved[name]) if name in saved else delattr(module, name)
        registry.RULE_FUNCTIONS.clear()
        registry.RULE_FUNCTIONS.update(rule_functions)
        registry.RULE_IDS.clear()
        registry.RULE_IDS.update(rule_ids)


MUTANTS = _equivalent_rule_mutants()


def test_every_listed_mutant_of_a_rule_module_is_tried() -> None:
    listed = [ident for ident in _script().load_equivalents()
              if ident.split(":", 1)[0] in RULE_MODULES]
    assert sorted(m.ident for m in MUTANTS) == sorted(listed) and len(MUTANTS) >= 15


@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda mutant: mutant.ident)
def test_an_equivalent_mutant_passes_the_exhaustive_walks(mutant: Any) -> None:
    with mutated(mutant):
        for name in WALKS:
            summary = _walk(name)
            found = (summary.deals, summary.states, summary.transitions, summary.terminal)
            assert found == EXPECTED[name], (mutant.ident, name)


def test_a_mutant_that_changes_behaviour_fails_the_walks() -> None:
    """The harness can kill: a mutant not listed (a card above the price buys the bottle)
    fails the same walks."""
    mutate = _script()
    killable = next(m for m in mutate.mutants_of("bottleimp/rules/play.py")
                    if m.ident.endswith("buys_bottle:9c086a3250:compare:Lt>Gt@0"))
    with mutated(killable), pytest.raises(AssertionError):
        for name in WALKS:
            _walk(name)

"""The mutation script (``scripts/mutate.py``) and its list of equivalent mutants stay true to
the code: every listed mutant exists and has a reason, names are stable, kill-suites exist."""

from __future__ import annotations

import importlib.util
import sys
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


@cache
def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("mutate", ROOT / "scripts" / "mutate.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["mutate"] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@cache
def mutants(path: str) -> dict[str, Any]:
    """Every mutant of one module by ID, built once per process (the tests of
    ``test_mutation_equivalents.py`` share them)."""
    return {m.ident: m for m in _script().mutants_of(path)}


def _mutant_ids(modules: set[str]) -> frozenset[str]:
    """The IDs of every mutant of the target modules named ``modules`` (an ID starts with its
    module's name, ``module_key``: the other modules cannot hold a listed mutant)."""
    mutate = _script()
    paths = {path for target in mutate.TARGETS for path in mutate.expand(target)
             if mutate.module_key(path) in modules}
    return frozenset(ident for path in sorted(paths) for ident in mutants(path))


def test_every_listed_equivalent_mutant_exists_and_says_why() -> None:
    equivalents = _script().load_equivalents()
    assert equivalents
    stale = sorted(set(equivalents)
                   - _mutant_ids({ident.split(":", 1)[0] for ident in equivalents}))
    assert not stale, f"equivalent_mutants.toml names mutants the code no longer has: {stale}"
    assert all(len(reason) > 20 for reason in equivalents.values())


def test_mutant_names_are_unique_and_stable() -> None:
    mutate = _script()
    path = "bottleimp/rules/play.py"
    first = [m.ident for m in mutate.mutants_of(path)]
    assert first == [m.ident for m in mutate.mutants_of(path)]
    assert len(first) == len(set(first)) > 50


def test_every_target_has_modules_and_an_existing_kill_suite() -> None:
    for target in _script().TARGETS:
        assert _script().expand(target), target.name
        for test_file in target.tests:
            assert (ROOT / test_file).is_file(), test_file


def test_docstrings_annotations_and_type_variables_are_not_mutated() -> None:
    mutate = _script()
    originals = {m.original for m in mutate.mutants_of("bottleimp/rules/registry.py")}
    assert not any(line.startswith(('F = TypeVar', '"""')) for line in originals)
    in_engine = {(m.function, m.original) for m in mutate.mutants_of("bottleimp/engine.py")}
    assert not any(original.endswith("tuple[Action, ...]") for _, original in in_engine)


def test_the_baseline_empties_the_package_function_caches_so_each_test_runs_what_it_needs() -> None:
    """A cached result computed by the first test that needs it would hide its lines from every
    later test, which then is never selected for their mutants."""
    from bottleimp.validation import fast_lane

    fast_lane.validate_fast({"format": "bottleimp-record/1", "config": {"players": 3}, "rounds": []})
    assert fast_lane._game_of.cache_info().currsize
    _script()._clear_caches()
    assert fast_lane._game_of.cache_info().currsize == 0


def test_a_module_unparsed_statement_by_statement_is_the_module_unparsed_whole() -> None:
    """``mutants_of`` builds each mutated module from its statements' texts; this is what makes
    its sources the ones ``ast.unparse`` gives for the whole mutated module."""
    import ast

    mutate = _script()
    paths = sorted({path for target in mutate.TARGETS for path in mutate.expand(target)})
    for path in paths:
        tree = ast.parse((ROOT / path).read_text())
        pieces = [mutate._statement_text(statement, index == 0)
                  for index, statement in enumerate(tree.body)]
        assert "".join(pieces) == ast.unparse(tree), path
    game = mutate.mutants_of("bottleimp/rules/game.py")
    assert all(ast.unparse(ast.parse(mutant.source)) == mutant.source for mutant in game)
    # A top-level class is unparsed statement by statement of its body, so a method's mutant
    # re-unparses only that method: its pieces add up to the class, and its mutants' sources
    # are still what ast.unparse gives for the whole mutated module.
    tree = ast.parse((ROOT / "bottleimp/state.py").read_text())
    split = mutate._ModuleText(tree)
    assert split.classes and split.text == ast.unparse(tree)
    methods = [m for m in mutate.mutants_of("bottleimp/state.py") if "." in m.function]
    assert len(methods) >= 10
    assert all(ast.unparse(ast.parse(mutant.source)) == mutant.source for mutant in methods)

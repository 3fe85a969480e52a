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


def test_every_target_has_modules_and_the_kill_suite_is_every_test_module_but_the_named() -> None:
    mutate = _script()
    for target in mutate.TARGETS:
        assert mutate.expand(target), target.name
    suite = set(mutate.kill_suite())
    every = {f"tests/{path.name}" for path in (ROOT / "tests").glob("test_*.py")}
    assert suite == every - set(mutate._NOT_IN_KILL_SUITE)
    # The tests that alone killed some mutants are in it (they were missing from the hand lists).
    assert {"tests/test_sharp_edges.py", "tests/test_causes.py", "tests/test_records.py"} <= suite
    assert all((ROOT / name).is_file() for name in mutate._NOT_IN_KILL_SUITE)


def test_the_copy_holds_every_file_the_suite_reads(tmp_path: Path) -> None:
    """The root conftest loads ``docs/live/examples.py`` and the tests read ``restatement/``,
    ``docs/`` and ``mkdocs.yml``: a copy without them cannot even collect the suite."""
    _script()._prepare_copy(tmp_path / "copy")
    for name in ("conftest.py", "docs/live/examples.py", "restatement/model.py", "mkdocs.yml",
                 "spec/rules.toml", "bottleimp/py.typed", "tests/data/mutation"):
        assert (tmp_path / "copy" / name).exists(), name


def test_docstrings_annotations_and_type_variables_are_not_mutated() -> None:
    mutate = _script()
    originals = {m.original for m in mutate.mutants_of("bottleimp/rules/_registry.py")}
    assert not any(line.startswith(('F = TypeVar', '"""')) for line in originals)
    in_engine = {(m.function, m.original) for m in mutate.mutants_of("bottleimp/_engine.py")}
    assert not any(original.endswith("tuple[Action, ...]") for _, original in in_engine)


def test_the_baseline_empties_the_package_function_caches_so_each_test_runs_what_it_needs() -> None:
    """A cached result computed by the first test that needs it would hide its lines from every
    later test, which then is never selected for their mutants."""
    import functools
    import types

    probe = types.ModuleType("bottleimp._mutation_probe")

    @functools.lru_cache(maxsize=None)
    def cached(value: int) -> int:
        return value

    cached.__module__ = probe.__name__
    probe.cached = cached  # type: ignore[attr-defined]
    sys.modules[probe.__name__] = probe
    try:
        cached(1)
        assert cached.cache_info().currsize == 1
        _script()._clear_caches()
        assert cached.cache_info().currsize == 0
    finally:
        del sys.modules[probe.__name__]


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
    tree = ast.parse((ROOT / "bottleimp/_state.py").read_text())
    split = mutate._ModuleText(tree)
    assert split.classes and split.text == ast.unparse(tree)
    methods = [m for m in mutate.mutants_of("bottleimp/_state.py") if "." in m.function]
    assert len(methods) >= 10
    assert all(ast.unparse(ast.parse(mutant.source)) == mutant.source for mutant in methods)


# -- real runs ----------------------------------------------------------------------------------


def _run(*args: str, tmp_path: Path, sigint_ignored: bool = False,
         ) -> tuple[int, str, dict[str, Any]]:
    """Run the mutation script from the repository root; its exit status, output and results.
    With ``sigint_ignored`` it starts as a shell's background job does, SIGINT ignored."""
    import json
    import os
    import signal
    import subprocess

    results = tmp_path / "results.json"
    done = subprocess.run(
        [sys.executable, "scripts/mutate.py", "--jobs", "1", "--results", str(results), *args],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if sigint_ignored
        else None,
    )
    out = done.stdout + done.stderr
    return done.returncode, out, json.loads(results.read_text()) if results.exists() else {}


def _one(function: str, kind: str, module: str = "bottleimp/rules/play.py") -> str:
    """The first mutant of ``kind`` in ``function`` of ``module`` that is not listed equivalent."""
    equivalents = _script().load_equivalents()
    return next(ident for ident, m in mutants(module).items()
                if m.function == function and m.kind == kind and ident not in equivalents)


def test_a_real_run_kills_a_mutant_and_counts_a_listed_equivalent(tmp_path: Path) -> None:
    """Deleting the trick winner's ``return`` is caught by the rulebook's worked example; a
    mutant the list names is counted as equivalent without a run."""
    killed = _one("trick_winner", "delete")
    listed = sorted(_script().load_equivalents())
    equivalent = next(i for i in listed if i.startswith("play:")) if any(
        i.startswith("play:") for i in listed) else None
    matches = ["--match", killed] + (["--match", equivalent] if equivalent else [])
    code, out, results = _run("--target", "rules", "--only", "rules/play.py", *matches,
                              "--tests", "tests/test_rules_play.py", tmp_path=tmp_path)
    assert "baseline: the kill-suite" in out, out
    assert results[killed]["outcome"] == "killed", out
    assert str(results[killed]["killed_by"]).startswith("tests/test_rules_play.py::"), out
    if equivalent is not None:
        assert results[equivalent]["outcome"] == "equivalent", out
    assert code == 0, out


def test_a_real_run_reports_a_planted_survivor(tmp_path: Path) -> None:
    """Against a kill-suite that runs the trick winner and checks nothing, a changed comparison
    survives, is printed, and fails the target's goal (exit status 1); resumed, the run reuses
    its kept baseline."""
    survivor = _one("trick_winner", "compare")
    code, out, results = _run("--target", "rules", "--only", "rules/play.py", "--match", survivor,
                              "--tests", "tests/data/mutation/runs_without_checking.py",
                              tmp_path=tmp_path)
    assert results[survivor]["outcome"] == "survived", out
    assert f"SURVIVED {survivor}" in out and "< goal" in out
    assert code == 1, out
    # Resumed, the run reads back the baseline it kept beside its results file (same files,
    # suite and Python), and the survivor run again survives it.
    code, out, results = _run("--target", "rules", "--only", "rules/play.py", "--match", survivor,
                              "--tests", "tests/data/mutation/runs_without_checking.py",
                              "--resume", "--rerun-survivors", tmp_path=tmp_path)
    assert "as kept in" in out and results[survivor]["outcome"] == "survived", out


def test_a_copy_that_cannot_collect_is_an_error_and_never_a_kill(tmp_path: Path) -> None:
    """A kill-suite that fails to collect unmutated (here: a test file the copy does not have)
    stops the run with status 2, with or without the baseline; no mutant is counted."""
    mutate = _script()
    problem = mutate.check_copies(["tests/data/mutation/does_not_exist.py"])
    assert problem is not None and "cannot collect" in problem
    assert mutate.check_copies(["tests/data/mutation/runs_without_checking.py"]) is None
    code, out, results = _run("--target", "rules", "--only", "rules/play.py",
                              "--match", _one("trick_winner", "delete"), "--no-baseline",
                              "--timeout", "60", "--tests", "tests/data/mutation/does_not_exist.py",
                              tmp_path=tmp_path)
    assert code == 2 and "cannot collect" in out and not results, out


def test_no_baseline_needs_a_timeout(tmp_path: Path) -> None:
    code, out, _ = _run("--target", "rules", "--no-baseline", tmp_path=tmp_path)
    assert code == 2 and "--no-baseline needs --timeout" in out


def test_a_kill_suite_that_fails_unmutated_stops_the_run_and_names_the_failing_test(
        tmp_path: Path) -> None:
    """The baseline's failure is reported with the failing test's node ID and its error, not
    only as a count: under a loaded machine a whole-suite baseline takes minutes, and a run that
    only says "fails" would have to be repeated to learn what to fix."""
    code, out, results = _run("--target", "rules", "--only", "rules/play.py",
                              "--match", _one("trick_winner", "delete"),
                              "--tests", "tests/data/mutation/fails_unmutated.py",
                              tmp_path=tmp_path)
    assert code == 2 and "fails unmutated" in out and not results, out
    assert ("FAILED tests/data/mutation/fails_unmutated.py::"
            "test_a_planted_failure_the_baseline_must_name") in out, out
    assert "a planted failure" in out, out


def test_the_tests_subprocesses_get_their_profile_and_import_the_copy(
        tmp_path: Path) -> None:
    """The kill-suite's subprocess tests (pytest started anew, which loads the profile
    ``HYPOTHESIS_PROFILE`` names) pass unmutated, and the tests themselves still run under the
    tool's profile: the tool chooses it with ``--hypothesis-profile``, not in the environment.
    A subprocess started in another directory imports the copy's package (where the mutant is),
    not the checkout the tool was started from. The tool is started with SIGINT ignored (as in a
    shell's background job), and the tests' subprocesses still take Ctrl-C."""
    code, out, _ = _run("--target", "rules", "--only", "rules/play.py",
                        "--match", _one("trick_winner", "delete"),
                        "--tests", "tests/data/mutation/spawns_a_python.py", tmp_path=tmp_path,
                        sigint_ignored=True)
    assert "baseline: the kill-suite (1 test files, 4 tests) passes" in out, out


def test_the_report_of_an_unfinished_run_gives_no_score_to_a_module_not_run_whole(
        tmp_path: Path) -> None:
    """A results file holding one mutant's outcome: the module's row counts all its mutants,
    says how many were not run and shows ``partial``, never a score; the status is 1."""
    import json
    import os
    import subprocess

    mutate = _script()
    killed = _one("trick_winner", "delete")
    path = "bottleimp/rules/play.py"
    results = tmp_path / "results.json"
    results.write_text(json.dumps({killed: {"path": path, "outcome": "killed",
                                            "target": "rules"}}))
    done = subprocess.run(
        [sys.executable, "scripts/mutate.py", "--target", "rules", "--only", "rules/play.py",
         "--results", str(results), "--report"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    row = next(line for line in done.stdout.splitlines() if line.startswith(path))
    total = len(mutate.mutants_of(path))
    listed = sum(1 for ident in mutants(path) if ident in mutate.load_equivalents())
    assert row.split()[1:3] == [str(total), str(total - 1 - listed)], row
    assert row.rstrip().endswith("partial") and "%" not in row, row
    assert done.returncode == 1


def test_each_mutant_runs_first_the_tests_that_killed_its_function_then_its_module_then_its_own_file(
        ) -> None:
    """The order of a mutant's tests: the killers of its function's earlier mutants, then of its
    module's, then its module's own test file, each fastest first, in a first stage; every other
    test in a second stage, fastest first. Every test is in exactly one stage, so a survivor
    still runs them all."""
    mutate = _script()
    deal = next(m for m in mutants("bottleimp/rules/deal.py").values()
                if m.function == "check_deal" and m.in_function)
    other = next(m for m in mutants("bottleimp/rules/deal.py").values()
                 if m.function == "shuffle" and m.in_function)
    durations = {"tests/test_a.py::fast": 0.1, "tests/test_a.py::slow": 9.0,
                 "tests/test_b.py::fast": 0.2, "tests/test_b.py::slow": 8.0,
                 "tests/test_deals.py::fast": 0.3, "tests/test_deals.py::slow": 7.0,
                 "tests/test_c.py::fast": 0.05}
    tests = sorted(durations)
    killers = mutate.Killers()
    assert mutate.arrange_tests(deal, tests, durations, killers) == [
        ["tests/test_deals.py::fast", "tests/test_deals.py::slow"],
        ["tests/test_c.py::fast", "tests/test_a.py::fast", "tests/test_b.py::fast",
         "tests/test_b.py::slow", "tests/test_a.py::slow"]]
    killers.learn(other, "tests/test_a.py::fast")  # same module, another function
    killers.learn(deal, "tests/test_b.py::slow")  # same function
    killers.learn(deal, "tests/test_a.py::slow")
    stages = mutate.arrange_tests(deal, tests, durations, killers)
    assert stages == [
        ["tests/test_b.py::slow", "tests/test_a.py::slow", "tests/test_a.py::fast",
         "tests/test_deals.py::fast", "tests/test_deals.py::slow"],
        ["tests/test_c.py::fast", "tests/test_b.py::fast"]]
    # A mutant run at import runs whole files: the learned killers (of other files) and its own
    # file first, then every other file, the fastest files first.
    files = ["tests/test_a.py", "tests/test_b.py", "tests/test_c.py", "tests/test_deals.py"]
    assert mutate.arrange_tests(deal, files, durations, killers) == [
        ["tests/test_b.py::slow", "tests/test_a.py::slow", "tests/test_a.py::fast",
         "tests/test_deals.py"],
        ["tests/test_c.py", "tests/test_b.py", "tests/test_a.py"]]  # 0.05 s, 8.2 s, 9.1 s
    assert mutate.own_test_files("bottleimp/rules/deal.py", files) == {"tests/test_deals.py"}


def test_a_mutant_runs_its_second_stage_only_when_it_survives_the_first() -> None:
    """In real children: a mutant that survives its first stage (a suite that checks nothing)
    runs its second and is killed there, by the test named; a mutant killed in its first stage
    never runs its second (a planted test that fails on anything, which would be named)."""
    mutate = _script()
    mutant = next(m for ident, m in mutants("bottleimp/rules/play.py").items()
                  if m.function == "trick_winner" and ident.endswith(":compare:Lt>Gt@0"))
    weak = "tests/data/mutation/runs_without_checking.py"
    strong = "tests/test_rules_play.py::test_trick_winner_highest_card_below_price_TRICK_WINNER"
    planted = "tests/data/mutation/fails_unmutated.py"
    plans = iter([[([weak], 120.0), ([strong], 120.0)], [([strong], 120.0), ([planted], 120.0)]])
    done: list[tuple[str, str | None]] = []
    mutate.run_all([(mutant, [], 0.0), (mutant, [], 0.0)], 1,
                   lambda m, o, c, e, k: done.append((o, k)), arrange=lambda m, t: next(plans))
    assert done == [("killed", strong), ("killed", strong)], done

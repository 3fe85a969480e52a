"""The quick path of the README: ``python -m pytest --core tests`` runs the core's tests (the
list ``CORE_TESTS`` in ``conftest.py``) with only attrs, Hypothesis and pytest installed.

Here the command collects the core's tests in a process where every other installed package
fails to import, as in a venv with only the ``core-test`` extra (``.ci/run`` runs the whole
command in such a venv); a core test that imported numpy, jsonschema, Sybil or rich at the top
of its module would fail to be collected."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

ONLY_THE_CORE_TEST_DEPENDENCIES = r"""
import importlib.abc, importlib.machinery, site, sys
from pathlib import Path

INSTALLED = [Path(folder).resolve() for folder in site.getsitepackages() + [site.getusersitepackages()]]
ALLOWED = {"attr", "attrs", "hypothesis", "_hypothesis_ftz_detector", "_hypothesis_globals",
           "_hypothesis_pytestplugin", "pytest", "_pytest", "py", "pluggy", "iniconfig",
           "packaging", "sortedcontainers", "exceptiongroup", "tomli", "pygments"}

class OnlyTheCoreTestDependencies(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        top = name.partition(".")[0]
        if path is not None or top in ALLOWED:
            return None
        spec = importlib.machinery.PathFinder.find_spec(top)
        origin = spec.origin if spec is not None else None
        if origin is None and spec is not None and spec.submodule_search_locations:
            origin = next(iter(spec.submodule_search_locations))
        if origin and any(folder in Path(origin).resolve().parents for folder in INSTALLED):
            raise ModuleNotFoundError(f"No module named {name!r} (not a core-test dependency)",
                                      name=name)
        return None

sys.meta_path.insert(0, OnlyTheCoreTestDependencies())
import pytest
sys.exit(pytest.main())
"""
"""A Python that refuses every installed package (site-packages) but the ``core-test`` extra's
and theirs, then runs pytest with its arguments (the standard library and the repository's own
modules, the library among them through ``PYTHONPATH``, import as usual)."""


def _collect(*arguments: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    return subprocess.run(
        [sys.executable, "-c", ONLY_THE_CORE_TEST_DEPENDENCIES, *arguments],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_the_core_tests_collect_with_only_attrs_hypothesis_and_pytest() -> None:
    done = _collect("--core", "tests", "--collect-only", "-q", "-p", "no:cacheprovider")
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    counted = re.search(r"(\d+) tests? collected", done.stdout)
    assert counted and int(counted[1]) > 400, done.stdout[-500:]
    files = {line.split("::")[0] for line in done.stdout.splitlines() if "::" in line}
    assert files == {f"tests/{name}" for name in _core_tests()}, files


def _core_tests() -> tuple[str, ...]:
    """``CORE_TESTS`` of the repository's ``conftest.py``, read without running it."""
    tree = ast.parse((REPO / "conftest.py").read_text(encoding="utf-8"))
    found = next(node.value for node in tree.body if isinstance(node, ast.Assign)
                 and any(isinstance(t, ast.Name) and t.id == "CORE_TESTS" for t in node.targets))
    names = ast.literal_eval(found)
    assert isinstance(names, tuple) and all((REPO / "tests" / name).is_file() for name in names)
    return names


def test_a_test_module_that_needs_more_is_not_collected_on_the_quick_path() -> None:
    """The check can fail: a module that imports jsonschema, outside the core's list, fails
    to be collected under the same Python."""
    done = _collect("tests/test_record_schema.py", "--collect-only", "-q", "-p",
                    "no:cacheprovider")
    assert done.returncode != 0
    assert "not a core-test dependency" in done.stdout + done.stderr

"""The README's documentation command needs the ``docs`` extra alone: ``docs/hooks.py`` imports
only the modules whose rule functions the pages name (the core and ``bottleimp.rules``, which
need attrs), never an edge package that needs numpy, OpenSpiel or rich.

Here the hooks are loaded, and their imports run, in a process where the packages that only
other extras install fail to import; the rule functions they find are those of the whole
package. ``.ci/run`` builds the site in a venv of its own with only the ``docs`` extra."""

from __future__ import annotations

import importlib
import json
import os
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

import bottleimp
from bottleimp.rules._registry import RULE_FUNCTIONS

pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")

REPO = Path(__file__).resolve().parents[1]

NOT_IN_THE_DOCS_EXTRA = ("numpy", "pyspiel", "open_spiel", "rich", "hypothesis", "gymnasium",
                         "pettingzoo", "numba", "jsonschema", "z3", "sybil")

HOOKS_WITHOUT_OTHER_EXTRAS = r"""
import importlib.abc, importlib.util, json, sys

REFUSED = set(sys.argv[1].split(","))

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.partition(".")[0] in REFUSED:
            raise ModuleNotFoundError(f"No module named {name!r} (not in the docs extra)", name=name)
        return None

sys.meta_path.insert(0, Refuse())
spec = importlib.util.spec_from_file_location("hooks", sys.argv[2])
hooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(hooks)
hooks._import_rule_modules()
from bottleimp.rules._registry import RULE_FUNCTIONS
print(json.dumps({rule: sorted(f.__module__ + "." + f.__qualname__ for f in functions)
                  for rule, functions in RULE_FUNCTIONS.items()}))
"""


def _hooks_rule_functions(refused: tuple[str, ...]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-c", HOOKS_WITHOUT_OTHER_EXTRAS, ",".join(refused),
         str(REPO / "docs" / "hooks.py")],
        cwd=REPO, env=env, capture_output=True, text=True, timeout=120)


def test_the_docs_hooks_find_every_rule_function_without_the_other_extras() -> None:
    done = _hooks_rule_functions(NOT_IN_THE_DOCS_EXTRA)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    for module in pkgutil.walk_packages(bottleimp.__path__, "bottleimp."):
        try:
            importlib.import_module(module.name)
        except ImportError:  # an optional extra not installed here
            continue
    everything = {rule: sorted(f.__module__ + "." + f.__qualname__ for f in functions)
                  for rule, functions in RULE_FUNCTIONS.items()}
    assert found == everything


def test_the_refusal_can_fail_the_check() -> None:
    """Refusing attrs, which the core needs, makes the hooks fail to load: the refusal bites."""
    done = _hooks_rule_functions(("attrs", "attr"))
    assert done.returncode != 0
    assert "not in the docs extra" in done.stderr

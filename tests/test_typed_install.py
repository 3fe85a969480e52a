"""``mypy --strict`` passes on a user's own script, outside the checkout, after the README's
editable install (``pip install -e '.[...]'``): the install puts the project's root on the path
with a static ``.pth`` file (``package-dir`` in ``pyproject.toml``), which type checkers follow,
and the package ships ``py.typed``. A script with a type error fails, so the package's types are
read, not taken as ``Any``.

The test checks the package installed in the running interpreter: after a change of
``pyproject.toml``, install again (``pip install -e .``) before running it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")

ROOT = Path(__file__).resolve().parent.parent

USER_SCRIPT = '''\
import bottleimp
from bottleimp.validation import validate_json
from bottleimp.formats import record_from_state, record_to_json

state = bottleimp.new_game(bottleimp.Config(players=4), seed=7)
while not state.is_over:
    state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
totals: tuple[int, ...] = state.totals
winners: tuple[int, ...] | None = state.winners
assert winners == bottleimp.winners(state) and totals == bottleimp.totals(state)
print(validate_json(record_to_json(record_from_state(state))).valid)
'''


def _mypy(folder: Path, source: str) -> subprocess.CompletedProcess[str]:
    (folder / "script.py").write_text(source, encoding="utf-8")
    env = {key: value for key, value in os.environ.items()
           if key not in ("PYTHONPATH", "MYPYPATH")}
    return subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--config-file", "",
         "--python-executable", sys.executable, "script.py"],
        cwd=folder, env=env, capture_output=True, text=True, timeout=600,
    )


def test_a_users_script_outside_the_checkout_passes_mypy_strict(tmp_path: Path) -> None:
    assert not tmp_path.resolve().is_relative_to(ROOT)
    done = _mypy(tmp_path, USER_SCRIPT)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Success" in done.stdout


def test_a_users_script_with_a_type_error_fails_mypy_strict(tmp_path: Path) -> None:
    done = _mypy(tmp_path, USER_SCRIPT + "seat: int = state.winners\n")
    assert done.returncode == 1, done.stdout + done.stderr
    assert 'Incompatible types in assignment (expression has type "tuple[int, ...] | None"' \
        in done.stdout

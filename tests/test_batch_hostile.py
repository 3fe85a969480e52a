"""Hostile calls of the batch engine's public API (the cases of ``tests/batch_hostile.py``, one
or more per public call), the kernel compiled and as plain Python (``NUMBA_DISABLE_JIT``), each
case in a subprocess: all of a mode's cases run in one process, and a case that kills it (a signal) or hangs it (the runner's watchdog) is named, and
the cases after it run in a new process. A case fails on a signal, a hang, a call accepted that
must be refused, or a refused call that changed a game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from batch_hostile import CASE_SECONDS, CASES
from test_batch import ON_THE_KERNEL

ROOT = Path(__file__).resolve().parent.parent
RUNNER = Path(__file__).resolve().parent / "batch_hostile.py"


def run_cases(plain: bool, names: list[str]) -> dict[str, str]:
    """Each case's outcome: ``ok``, ``FAIL why``, or how the process died in it."""
    outcomes: dict[str, str] = {}
    left = list(names)
    while left:
        env = {**os.environ, **({"NUMBA_DISABLE_JIT": "1"} if plain else {})}
        run = subprocess.run([sys.executable, str(RUNNER), *left], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=CASE_SECONDS * 3 + 600)
        started = None
        for line in run.stdout.splitlines():
            word, _, rest = line.partition(" ")
            name, _, outcome = rest.partition(" ")
            if word == "START":
                started = name
            elif word == "RESULT":
                outcomes[name] = outcome
                started = None
        if started is not None:  # the process died in this case
            how = (f"killed by signal {-run.returncode}" if run.returncode < 0
                   else f"the process ended with status {run.returncode} (a hang ends it "
                        f"after {CASE_SECONDS} s)")
            outcomes[started] = f"{how}: {run.stderr[-600:]}"
        elif run.returncode != 0:
            pytest.fail(f"the runner failed outside any case: {run.stderr[-2000:]}")
        left = [name for name in left if name not in outcomes]
        if left and started is None:
            pytest.fail(f"cases never reported: {left}; {run.stderr[-2000:]}")
    return outcomes


def check(plain: bool) -> None:
    outcomes = run_cases(plain, list(CASES))
    failed = {name: outcome for name, outcome in outcomes.items() if outcome != "ok"}
    assert not failed, "\n".join(f"{name}: {outcome}" for name, outcome in failed.items())
    assert len(outcomes) == len(CASES) >= 33


@ON_THE_KERNEL
def test_no_hostile_call_crashes_hangs_or_is_accepted_by_the_compiled_kernel() -> None:
    check(plain=False)


def test_no_hostile_call_crashes_hangs_or_is_accepted_by_the_kernel_as_plain_python() -> None:
    check(plain=True)

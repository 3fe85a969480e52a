"""A planted kill-suite for ``tests/test_mutation_script.py``: a test that starts a Python
process which loads the Hypothesis profile its environment names, as the suite's own subprocess
tests do (they run pytest, whose conftest loads ``HYPOTHESIS_PROFILE``), and one that imports
the package from another directory, as a script run by path does, and one whose subprocess
must take Ctrl-C (as the interrupted-game test of ``cli/play`` needs). It passes unmutated only if
the mutation tool leaves the environment naming no profile that only the tool's process has,
points the subprocesses at the copy (where the mutant is), not at the parent's checkout, and
runs the tests with SIGINT handled even when the tool itself was started with it ignored. Not a test of the suite (its name is not ``test_*.py``); the tool runs it only when told to
(``--tests``)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from hypothesis import settings


def test_a_subprocess_loads_the_profile_its_environment_names() -> None:
    """As a fresh pytest of the suite does: the suite's profiles registered (``profiles.py``),
    then the one ``HYPOTHESIS_PROFILE`` names loaded; one that only the tool registered fails."""
    tests = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", f"import sys; sys.path.insert(0, {str(tests)!r}); "
         "from hypothesis import settings; import profiles; "
         "settings.load_profile(profiles.profile_name())"],
        capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_subprocess_started_elsewhere_imports_the_package_of_this_repository(
        tmp_path: Path) -> None:
    here = Path(__file__).resolve().parents[3]
    done = subprocess.run([sys.executable, "-c", "import bottleimp; print(bottleimp.__file__)"],
                          capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert Path(done.stdout.strip()).resolve().is_relative_to(here), (done.stdout, here)


def test_a_subprocess_can_be_interrupted_with_ctrl_c() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "import signal; "
         "raise SystemExit(signal.getsignal(signal.SIGINT) is not signal.default_int_handler)"],
        timeout=60)
    assert done.returncode == 0, "the subprocess ignores SIGINT"


def test_the_tests_themselves_run_under_the_tools_profile() -> None:
    current = settings()  # the profile loaded when the test runs
    assert current.max_examples == 40 and current.database is None

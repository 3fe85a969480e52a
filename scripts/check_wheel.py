"""Build a wheel of this repository, install it in a fresh virtual environment, and run the
shipped conformance data from a folder outside the repository:

    python scripts/check_wheel.py

It runs ``bottleimp conformance --vectors`` and ``bottleimp perft --check`` with no path (and
``perft --check --json``), from a temporary folder, with the installed package (not this
checkout: the script checks that ``bottleimp`` is imported from the environment), and prints
what each printed. Exit status 0 when every command passed. Needs network access only for
``attrs`` when the system Python lacks it (the environment sees the system site packages).
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    print("$", " ".join(command), flush=True)
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    print(done.stdout.rstrip()[-2000:] or "(no output)")
    if done.stderr.strip():
        print(done.stderr.rstrip()[-2000:], file=sys.stderr)
    print(f"(exit {done.returncode})", flush=True)
    return done


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="bottleimp-wheel-") as temp:
        root = Path(temp)
        wheels, env, outside = root / "wheels", root / "env", root / "elsewhere"
        outside.mkdir()
        build = _run([sys.executable, "-m", "pip", "wheel", str(REPO), "-w", str(wheels),
                      "--no-deps", "-q"], root)
        if build.returncode:
            return 1
        (wheel,) = wheels.glob("bottleimp-*.whl")
        venv.EnvBuilder(with_pip=True, system_site_packages=True).create(env)
        python = str(env / "bin" / "python")
        # --no-deps: the system site packages hold attrs; --force-reinstall: the environment's
        # own copy, not an editable install the system may have.
        if _run([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall",
                 str(wheel)], root).returncode:
            return 1
        where = _run([python, "-c", "import bottleimp; print(bottleimp.__file__)"], outside)
        if where.returncode or not where.stdout.strip().startswith(str(env)):
            print("bottleimp is not imported from the fresh environment", file=sys.stderr)
            return 1
        bottleimp = str(env / "bin" / "bottleimp")
        vectors = _run([bottleimp, "conformance", "--vectors"], outside)
        check = _run([bottleimp, "perft", "--check"], outside)
        as_json = _run([bottleimp, "perft", "--check", "--json"], outside)
        report = json.loads(as_json.stdout)
        ok = (vectors.returncode == check.returncode == as_json.returncode == 0
              and report["format"] == "bottleimp-perft-report/1" and report["failed"] == 0
              and report["passed"] > 0 and ", 0 failed" in vectors.stdout)
        print("wheel check:", "passed" if ok else "FAILED")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

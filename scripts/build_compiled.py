"""Build the optional compiled bottleimp: the same typed source, compiled with mypyc.

The pure-Python package stays the default and the reference. This script copies the package
to a temporary directory, compiles the rule modules, the state, the actions and the engine's
core (``transitions``) there with mypyc and puts the result, the compiled modules beside the
uncompiled ones, in ``build/compiled`` (or ``--out``). Nothing is installed: put the directory
first on the path to use it::

    python scripts/build_compiled.py
    PYTHONPATH=build/compiled:. python benchmarks/playouts.py --no-compiled
    python scripts/build_compiled.py --test      # then run the whole test suite against it

``_cards.py`` is not compiled: the compiled modules use its ``Card`` as a Python class.
Requires mypy (which ships mypyc), setuptools and a C compiler.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Not compiled: ``_engine.py`` and ``_actions.py``. Compiled code checks the type of every argument at a
# function's boundary: the engine's entry points would refuse a wrong value with a
# ``TypeError`` (and take ``True`` for the seed 1) before its rules can name the rule it
# breaks; compiled actions would refuse a seat that is no int, or a destination that is
# none, with a ``TypeError`` before ``ArgumentError`` names the field. The engine's core, ``_transitions.py``, is compiled: the engine calls it only
# with an action it has checked.
COMPILED_MODULES = (
    "bottleimp/rules/_registry.py",
    "bottleimp/rules/deal.py",
    "bottleimp/rules/setup.py",
    "bottleimp/rules/play.py",
    "bottleimp/rules/scoring.py",
    "bottleimp/rules/game.py",
    "bottleimp/_state.py",
    "bottleimp/_transitions.py",
)
"""The modules compiled, relative to the repository root; every other module stays Python."""

SETUP = """\
from setuptools import setup
from mypyc.build import mypycify

setup(
    name="bottleimp-compiled",
    packages=[],
    ext_modules=mypycify({modules!r}, opt_level="3", strict_dunder_typing=False),
)
"""


def build(out: Path, jobs: int) -> None:
    with tempfile.TemporaryDirectory(prefix="bottleimp-mypyc-") as temp:
        work = Path(temp)
        shutil.copytree(
            ROOT / "bottleimp", work / "bottleimp",
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
        )
        (work / "setup.py").write_text(SETUP.format(modules=list(COMPILED_MODULES)))
        env = dict(os.environ, MYPYC_OPT_LEVEL="3")
        subprocess.run(
            [sys.executable, "setup.py", "build_ext", "--inplace", f"--parallel={jobs}"],
            cwd=work, env=env, check=True,
        )
        if out.exists():
            shutil.rmtree(out)
        out.mkdir(parents=True)
        shutil.copytree(work / "bottleimp", out / "bottleimp",
                        ignore=shutil.ignore_patterns("__pycache__"))
        for shared in work.glob("*__mypyc*"):  # the runtime library the modules share
            shutil.copy2(shared, out / shared.name)
    compiled = sorted(str(path.relative_to(out)) for path in out.rglob("*.so"))
    print(f"compiled build in {out}: {len(compiled)} extension modules")
    for name in compiled:
        print(f"  {name}")


TEST_TREE = ("README.md", "conftest.py", "pyproject.toml", "mkdocs.yml", "tests", "docs", "spec",
             "scripts", "examples", "benchmarks", "restatement")
"""What the test suite reads besides the package (copied beside the compiled package)."""


def test(out: Path, pytest_args: list[str]) -> int:
    """Run the whole suite against the compiled build in ``out``: in a temporary copy of the
    repository whose ``bottleimp`` is the compiled one, so no pure copy can shadow it."""
    with tempfile.TemporaryDirectory(prefix="bottleimp-compiled-tests-") as temp:
        tree = Path(temp)
        for name in TEST_TREE:
            source = ROOT / name
            if source.is_dir():
                shutil.copytree(source, tree / name, symlinks=True,
                                ignore=shutil.ignore_patterns("__pycache__"))
            elif source.exists():
                shutil.copy2(source, tree / name)
        shutil.copytree(out / "bottleimp", tree / "bottleimp")
        for shared in out.glob("*__mypyc*"):
            shutil.copy2(shared, tree / shared.name)
        env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"}
        probe = "import bottleimp._state as e; print(e.__file__)"
        where = subprocess.run([sys.executable, "-c", probe], cwd=tree, env=env, check=True,
                               capture_output=True, text=True).stdout.strip()
        if not where.endswith((".so", ".pyd")):
            raise SystemExit(f"the bottleimp imported is not compiled: {where}")
        print(f"testing the compiled build ({where})", flush=True)
        command = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *pytest_args]
        return subprocess.run(command, cwd=tree, env=env).returncode


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled",
                        help="where to put the compiled package (default build/compiled)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compiler jobs")
    parser.add_argument("--test", action="store_true",
                        help="then run the whole test suite against the compiled build")
    parser.add_argument("--no-build", action="store_true", help="use the build already in --out")
    parser.add_argument("pytest_args", nargs="*", help="arguments for pytest (after --)")
    args = parser.parse_args()
    out = args.out.resolve()
    if not args.no_build:
        build(out, args.jobs)
    if args.test:
        raise SystemExit(test(out, args.pytest_args or ["-q"]))


if __name__ == "__main__":
    main()

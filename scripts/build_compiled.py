"""Build the optional compiled bottleimp: the same typed source, compiled with mypyc.

The pure-Python package stays the default and the reference. This script copies the package
to a temporary directory, compiles the modules of the hot path there with mypyc (the rules,
the state, the actions, the engine and the validator's fast lane) and puts the result, the
compiled modules beside the uncompiled ones, in ``build/compiled`` (or ``--out``). Nothing is
installed: put the directory first on the path to use it::

    python scripts/build_compiled.py
    PYTHONPATH=build/compiled:. python benchmarks/playouts.py --no-compiled
    PYTHONPATH=build/compiled:. python -m pytest -q -p no:cacheprovider   # the suite, compiled

``cards.py`` is not compiled: its interning ``__new__`` (one object per card value) is not
something mypyc compiles; the compiled modules use its ``Card`` as a Python class.
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

COMPILED_MODULES = (
    "bottleimp/rules/registry.py",
    "bottleimp/rules/deal.py",
    "bottleimp/rules/setup.py",
    "bottleimp/rules/play.py",
    "bottleimp/rules/scoring.py",
    "bottleimp/rules/game.py",
    "bottleimp/state.py",
    "bottleimp/actions.py",
    "bottleimp/engine.py",
    "bottleimp/validation/fast_lane.py",
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


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "compiled",
                        help="where to put the compiled package (default build/compiled)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="C compiler jobs")
    args = parser.parse_args()
    build(args.out.resolve(), args.jobs)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Put what the page "Play a game" (``docs/play.md``) runs into a built site: Pyodide, the
``bottleimp`` wheel and the ``attrs`` wheel, so that the page runs the library itself in the
browser and loads nothing from the network.

- Pyodide ``PYODIDE_VERSION`` from the npm registry (``npm install pyodide@...``), its runtime
  files copied to ``SITE/assets/pyodide/``;
- ``bottleimp`` built as a pure-Python wheel from this checkout (by its build backend, as
  ``pip wheel --no-deps --no-build-isolation`` would);
- ``attrs``, the library's one dependency, as the wheel of the version installed here, from PyPI
  (``pip download``);
- ``SITE/assets/play/wheels.json`` lists the wheels the page unpacks into Pyodide's
  ``site-packages``.

The npm package and the attrs wheel are downloaded once into ``build/play-cache/`` (each into a
temporary folder first, then renamed, so that two builds at once never see half a download).
``docs/hooks.py`` calls ``build`` after every ``mkdocs build``; run by hand::

    python scripts/build_play.py SITE_DIR
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CACHE = REPO / "build" / "play-cache"
PYODIDE_VERSION = "0.29.5"
"""Pyodide's version: its Python (3.13) runs the library; pinned so every build ships the same."""
PYODIDE_FILES = (
    "pyodide.js",
    "pyodide.asm.js",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
"""The runtime files ``loadPyodide`` fetches (no package of Pyodide's distribution is used)."""
BUILD_WHEEL = ("import importlib, sys; "
               "importlib.import_module(sys.argv[1]).build_wheel(sys.argv[2])")
"""A PEP 517 build of the current directory's wheel: ``python -c BUILD_WHEEL BACKEND FOLDER``."""


def _run(command: list[str], cwd: Path) -> None:
    result = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({result.returncode}):\n"
                           f"{result.stdout[-2000:]}{result.stderr[-2000:]}")


def _cached(name: str, fill: Callable[[Path], None]) -> Path:
    """``CACHE/name``, filled by ``fill(folder)`` into a temporary folder on first use."""
    target = CACHE / name
    if target.is_dir():
        return target
    CACHE.mkdir(parents=True, exist_ok=True)
    scratch = Path(tempfile.mkdtemp(prefix=f".{name}-", dir=CACHE))
    try:
        fill(scratch)
        try:
            os.rename(scratch, target)
        except OSError:  # another build got there first
            if not target.is_dir():
                raise
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    return target


def pyodide() -> Path:
    """The folder of Pyodide's runtime files (``npm install pyodide@PYODIDE_VERSION``)."""

    def fill(folder: Path) -> None:
        npm = shutil.which("npm")
        if npm is None:
            raise RuntimeError("npm is needed to fetch Pyodide for docs/play.md (Node.js 18+)")
        (folder / "package.json").write_text('{"private": true}\n', encoding="utf-8")
        _run([npm, "install", "--no-audit", "--no-fund", "--ignore-scripts",
              f"pyodide@{PYODIDE_VERSION}"], folder)
        package = folder / "node_modules" / "pyodide"
        for name in PYODIDE_FILES:
            shutil.copy2(package / name, folder / name)
        shutil.rmtree(folder / "node_modules")

    return _cached(f"pyodide-{PYODIDE_VERSION}", fill)


def attrs_wheel() -> Path:
    """The wheel of the installed attrs version, from PyPI."""
    version = importlib.metadata.version("attrs")

    def fill(folder: Path) -> None:
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
              "--only-binary=:all:", "--dest", str(folder), f"attrs=={version}"], folder)

    folder = _cached(f"attrs-{version}", fill)
    (wheel,) = folder.glob("attrs-*.whl")
    return wheel


class WheelBuild:
    """A wheel of this checkout's ``bottleimp`` being built into ``folder`` in a process of its
    own (by the build backend, else ``pip wheel``), so that the docs build goes on meanwhile (``docs/hooks.py`` starts it
    when the build starts and takes the wheel at its end); ``wait`` gives the wheel."""

    def __init__(self, folder: Path) -> None:
        # Built by the build backend of pyproject.toml (setuptools) installed here when there is
        # one: what ``pip wheel --no-build-isolation`` runs, without pip's own start (0.9 s,
        # not 2.6 s), and offline. An old setuptools without the ``wheel`` package cannot build
        # a wheel: then pip builds it in an isolated environment.
        can_build_here = importlib.util.find_spec("setuptools") is not None and (
            importlib.util.find_spec("wheel") is not None
            or importlib.util.find_spec("setuptools.command.bdist_wheel") is not None)
        self.folder = folder
        if can_build_here:
            backend = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))[
                "build-system"]["build-backend"]
            self.command = [sys.executable, "-c", BUILD_WHEEL, backend, str(folder)]
        else:
            self.command = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps",
                            "--wheel-dir", str(folder), str(REPO)]
        self.process = subprocess.Popen(self.command, cwd=REPO, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)

    def wait(self) -> Path:
        """The wheel, once built; ``RuntimeError`` with the build's output if it failed."""
        try:
            out, errors = self.process.communicate(timeout=900)
        except subprocess.TimeoutExpired:
            self.stop()
            raise RuntimeError(f"{' '.join(self.command)} took more than 900 s") from None
        if self.process.returncode != 0:
            raise RuntimeError(f"{' '.join(self.command)} failed ({self.process.returncode}):\n"
                               f"{out[-2000:]}{errors[-2000:]}")
        (wheel,) = self.folder.glob("bottleimp-*.whl")
        return wheel

    def stop(self) -> None:
        """End the build if it still runs (the docs build failed before it needed the wheel)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.communicate()


def bottleimp_wheel(folder: Path) -> Path:
    """A wheel of this checkout's ``bottleimp``, built into ``folder``."""
    return WheelBuild(folder).wait()


def build(site: Path, started: WheelBuild | None = None) -> list[str]:
    """Copy Pyodide and the wheels into the built site ``site``; the wheels' names. The
    ``bottleimp`` wheel is ``started``'s when one was started, else built here."""
    runtime = site / "assets" / "pyodide"
    runtime.mkdir(parents=True, exist_ok=True)
    source = pyodide()
    for name in PYODIDE_FILES:
        shutil.copy2(source / name, runtime / name)
    wheels = site / "assets" / "play" / "wheels"
    wheels.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bottleimp-wheel-") as scratch:
        ours = started.wait() if started is not None else bottleimp_wheel(Path(scratch))
        names = [ours.name, attrs_wheel().name]
        shutil.copy2(ours, wheels / ours.name)
    shutil.copy2(attrs_wheel(), wheels / names[1])
    (site / "assets" / "play" / "wheels.json").write_text(json.dumps(names), encoding="utf-8")
    return names


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: build_play.py SITE_DIR", file=sys.stderr)
        return 2
    for name in build(Path(args[0])):
        print(name)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The install's size that the README states is the size of what the README's test command
installs, within 15%.

The README says what ``pip install -e '.[test,cli,docs]'`` puts in a venv: "the packages' files
add up to about N MB". Here the packages are the distributions that those extras require, and
theirs in turn (``pyproject.toml``'s requirements, their markers evaluated), as installed in this
Python, and their size is the sum of the files each distribution's record lists
(``importlib.metadata``). Under CI, which installs exactly those extras into a clean venv, that is
a fresh install's size; elsewhere it is the size of the same distributions as installed here
(other versions may differ a little). The venv's size on disk (``du -sh``, also in the README) is
larger, by the blocks of many small files, pip itself and the bytecode compiled later: it is
measured by hand, not here."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

REPO = Path(__file__).resolve().parents[1]
EXTRAS = ("test", "cli", "docs")
STATED = re.compile(r"the packages' files\s+add up to about (\d+) MB")
TOLERANCE = 0.15


def _requirements(extras: tuple[str, ...]) -> list[Requirement]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    texts = list(project["dependencies"])
    for extra in extras:
        texts += project["optional-dependencies"][extra]
    return [Requirement(text) for text in texts]


def installed_closure(requirements: list[Requirement]) -> dict[str, importlib.metadata.Distribution]:
    """Each distribution that ``requirements`` need, and those they need in turn, as installed
    here (by canonical name); ``PackageNotFoundError`` names one that is not installed."""
    found: dict[str, importlib.metadata.Distribution] = {}
    extras_seen: dict[str, set[str]] = {}
    todo = [(requirement, "") for requirement in requirements]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = canonicalize_name(requirement.name)
        wanted = set(requirement.extras)
        if name in found and wanted <= extras_seen[name]:
            continue
        distribution = found.get(name) or importlib.metadata.distribution(requirement.name)
        found[name] = distribution
        extras_seen.setdefault(name, set()).update(wanted)
        for text in distribution.requires or ():
            for chosen in sorted(extras_seen[name]) or [""]:
                todo.append((Requirement(text), chosen))
    return found


def files_size(distribution: importlib.metadata.Distribution) -> int:
    """The bytes of the files a distribution's record lists (those still there)."""
    total = 0
    for file in distribution.files or ():
        try:
            total += Path(str(file.locate())).stat().st_size
        except OSError:
            continue
    return total


def stated_megabytes() -> int:
    text = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    found = STATED.search(text)
    assert found, "README.md no longer says what the packages' files add up to"
    return int(found[1])


def test_the_readme_states_the_size_of_the_test_commands_install() -> None:
    try:
        closure = installed_closure(_requirements(EXTRAS))
    except importlib.metadata.PackageNotFoundError as missing:
        pytest.skip(f"the {', '.join(EXTRAS)} extras are not all installed here ({missing} is "
                    "missing): the size is measured where they are")
    measured = sum(files_size(distribution) for distribution in closure.values()) / 1e6
    stated = stated_megabytes()
    assert abs(measured - stated) <= TOLERANCE * stated, (
        f"README.md says {stated} MB; the {len(closure)} distributions of the "
        f"{', '.join(EXTRAS)} extras hold {measured:.0f} MB")


def test_the_closure_follows_extras_and_markers() -> None:
    """The walk takes a requirement's extras into account (``mkdocstrings[python]`` brings in
    ``mkdocstrings-python``) and leaves out what a marker excludes."""
    pytest.importorskip("mkdocs", reason="the docs extra is not installed")
    closure = installed_closure([Requirement("mkdocstrings[python]"),
                                 Requirement("attrs; python_version < '3'")])
    assert "mkdocstrings-python" in closure and "attrs" not in closure
    plain = installed_closure([Requirement("mkdocstrings")])
    assert "mkdocstrings-python" not in plain

"""The public face: every implementation module is private by its name, every public module
says what it exports (``__all__``), and the API reference documents exactly those names.

The public API is ``bottleimp``'s names, the rule functions of ``bottleimp.rules``,
``bottleimp.perft``, and the names each edge package exports. Everything is read from the
source (``ast``), so that the check needs none of the optional frameworks.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import bottleimp

REPO = Path(__file__).resolve().parent.parent
PACKAGE = REPO / "bottleimp"
API_PAGES = REPO / "docs" / "reference" / "api"

PUBLIC_MODULES = (
    "bottleimp",
    "bottleimp.rules.config", "bottleimp.rules.deal", "bottleimp.rules.setup",
    "bottleimp.rules.play", "bottleimp.rules.scoring", "bottleimp.rules.game",
    "bottleimp.perft",
    "bottleimp.formats",
    "bottleimp.validation",
    "bottleimp.conformance",
    "bottleimp.bots",
    "bottleimp.analysis", "bottleimp.analysis.record",
    "bottleimp.batch", "bottleimp.batch.vector", "bottleimp.batch.check",
    "bottleimp.adapters.openspiel", "bottleimp.adapters.pettingzoo",
    "bottleimp.adapters.single_agent",
    "bottleimp.catalogue",
    "bottleimp.pictures",
    "bottleimp.cli",
)
# Packages that only hold public modules (each adapter needs its own framework).
GROUPING_PACKAGES = ("bottleimp.rules", "bottleimp.adapters")


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _path_of(module: str) -> Path:
    base = REPO.joinpath(*module.split("."))
    return base / "__init__.py" if base.is_dir() else base.with_suffix(".py")


def _exports(module: str) -> list[str]:
    """The literal ``__all__`` of a module, read from its source."""
    tree = ast.parse(_path_of(module).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            value = ast.literal_eval(node.value)
            assert isinstance(value, list), f"{module}.__all__ is not a list"
            return [str(name) for name in value]
    raise AssertionError(f"{module} has no __all__")


def _bound_names(module: str) -> set[str]:
    """The names a module binds at its top level (imports, definitions, assignments)."""
    tree = ast.parse(_path_of(module).read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _documented() -> dict[str, str]:
    """Every ``::: target`` of the API reference, with the page that holds it."""
    found: dict[str, str] = {}
    for page in sorted(API_PAGES.glob("*.md")):
        for target in re.findall(r"^::: (\S+)", page.read_text(encoding="utf-8"), re.M):
            assert target not in found, f"{target} is documented twice ({found[target]}, {page.name})"
            found[target] = page.name
    return found


def test_every_implementation_module_is_private_by_its_name() -> None:
    public = set(PUBLIC_MODULES) | set(GROUPING_PACKAGES)
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "__main__.py":
            continue
        name = _module_name(path)
        if name not in public and not any(part.startswith("_") for part in name.split(".")):
            offenders.append(name)
    assert offenders == [], f"public by their names but not public modules: {offenders}"


@pytest.mark.parametrize("module", PUBLIC_MODULES)
def test_a_public_module_exports_names_it_binds(module: str) -> None:
    exports = _exports(module)
    assert len(exports) == len(set(exports)), f"{module}.__all__ repeats a name"
    unbound = [name for name in exports if name not in _bound_names(module)
               and not (module == "bottleimp" and name == "__version__")]
    assert unbound == [], f"{module}.__all__ names what it does not bind: {unbound}"


def test_the_api_reference_documents_exactly_the_public_names() -> None:
    expected = set(PUBLIC_MODULES) - {"bottleimp"}
    for module in PUBLIC_MODULES:
        expected.update(f"{module}.{name}" for name in _exports(module)
                        if not name.startswith("__"))
    documented = set(_documented())
    assert sorted(expected - documented) == [], "public names the API reference does not show"
    assert sorted(documented - expected) == [], "the API reference shows names that are not public"


def test_the_api_reference_names_no_private_module() -> None:
    private = [t for t in _documented() if any(p.startswith("_") for p in t.split("."))]
    assert private == []


def test_no_guide_or_specification_reaches_into_a_private_module() -> None:
    pattern = re.compile(r"bottleimp(?:\.[A-Za-z]\w*)*\._[a-z]\w*")
    texts = [REPO / "README.md", *(REPO / "docs").rglob("*.md"), *(REPO / "spec").rglob("*.md"),
             *(REPO / "spec").rglob("*.json")]
    found = [f"{path.relative_to(REPO)}: {match}" for path in texts
             for match in pattern.findall(path.read_text(encoding="utf-8"))]
    assert found == []


def test_an_error_is_shown_under_the_name_a_caller_imports() -> None:
    errors = [getattr(bottleimp, name) for name in bottleimp.__all__
              if isinstance(getattr(bottleimp, name), type)
              and issubclass(getattr(bottleimp, name), Exception)]
    assert {error.__name__ for error in errors} == {
        "ArgumentError", "BottleImpError", "ConfigError", "IllegalActionError", "RecordError"}
    assert all(error.__module__ == "bottleimp" for error in errors)
    with pytest.raises(bottleimp.ArgumentError) as raised:
        bottleimp.apply(bottleimp.new_game(bottleimp.Config(players=3), seed=1), 3)  # type: ignore[arg-type]
    assert type(raised.value).__module__ + "." + type(raised.value).__qualname__ == (
        "bottleimp.ArgumentError")

"""The package's modules import one another without circles, and an edge package imports no
private name of another part of the package (its private modules, which implement the part's
public names, it may import).

The graph is read from the source, not from ``sys.modules``: every ``import`` and ``from ...
import`` statement of every module counts, including those under ``if TYPE_CHECKING:`` and
inside functions, since a circle that only typing or a late import hides is still a circle
(``config -> editions -> formats.json_input -> config`` was one of those). An edge goes to the
submodule when the imported name is one (``from . import perft``), else to the module named.
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

import bottleimp

PACKAGE = Path(bottleimp.__file__).resolve().parent

EDGES = frozenset({
    "adapters", "batch", "bots", "catalogue", "cli", "conformance", "formats", "pictures",
    "validation",
})
"""The edge packages (``pyproject.toml``'s import-linter contracts); every other module is the
core's."""


def _modules() -> dict[str, tuple[Path, bool]]:
    modules: dict[str, tuple[Path, bool]] = {}
    for path in PACKAGE.rglob("*.py"):
        parts = ["bottleimp", *path.relative_to(PACKAGE).with_suffix("").parts]
        is_package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return modules


@functools.cache
def _module_names() -> frozenset[str]:
    return frozenset(_modules())


def import_graph() -> dict[str, set[str]]:
    """Each module of the package and the modules of the package it imports."""
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, is_package) in modules.items():
        package = name if is_package else name.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                for alias in node.names:
                    submodule = f"{target}.{alias.name}"
                    if submodule in modules:
                        graph[name].add(submodule)
                    elif target in modules:
                        graph[name].add(target)
            elif isinstance(node, ast.Import):
                graph[name].update(alias.name for alias in node.names if alias.name in modules)
    return graph


def circles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, with an
    explicit stack), plus any module that imports itself."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: set[frozenset[str]] = set()
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, list[str]]] = [(start, sorted(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, pending = work[-1]
            if pending:
                nxt = pending.pop()
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, sorted(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                component: set[str] = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.add(member)
                    if member == node:
                        break
                if len(component) > 1 or node in graph[node]:
                    found.add(frozenset(component))
    return found


def test_circles_are_found_in_a_planted_graph() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert circles(graph) == {frozenset({"a", "b", "c"}), frozenset({"e"})}


def test_the_graph_sees_type_checking_and_late_imports() -> None:
    graph = import_graph()
    assert "bottleimp._editions" in graph["bottleimp._config"]
    assert "bottleimp._table" in graph["bottleimp._state"]
    assert "bottleimp._view" in graph["bottleimp.formats._view_json"]


def test_no_module_imports_itself_through_a_circle() -> None:
    found = circles(import_graph())
    assert not found, "import circles: " + "; ".join(" <-> ".join(sorted(c)) for c in found)


def _part(module: str) -> str:
    """The part of the package a module belongs to: its edge package, or the core."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in EDGES else "core"


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(source: str, module: str, is_package: bool) -> list[str]:
    """Every private name of another part of the package that ``source``, the text of
    ``module``, imports or reads from a module it imported (private modules are allowed: they
    implement their part's public names)."""
    package = module if is_package else module.rsplit(".", 1)[0]
    found: list[str] = []
    modules: dict[str, str] = {}  # a local name -> the package module it is bound to
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "bottleimp" or _part(target) == _part(module):
                continue
            for alias in node.names:
                # A private module is the implementation of its part's public names, which
                # other parts use; a private name inside a module is that module's own.
                if _is_private(alias.name) and f"{target}.{alias.name}" not in _module_names():
                    found.append(f"{target}.{alias.name}")
                modules[alias.asname or alias.name] = f"{target}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("bottleimp.") and _part(alias.name) != _part(module):
                    modules[alias.asname or alias.name] = alias.name
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id in modules and _is_private(node.attr)):
            found.append(f"{modules[node.value.id]}.{node.attr}")
    return found


def test_a_planted_private_import_across_parts_is_found() -> None:
    source = ("from .._encoding import _tables, observation\n"
              "from .. import _view as view\n"
              "from .sampling import _private_here\n"
              "x = view._received\n")
    assert private_imports(source, "bottleimp.adapters.pettingzoo", False) == [
        "bottleimp._encoding._tables", "bottleimp._view._received"]


def test_no_part_of_the_package_imports_a_private_name_of_another() -> None:
    found = [
        f"{name}: {imported}"
        for name, (path, is_package) in sorted(_modules().items())
        for imported in private_imports(path.read_text(encoding="utf-8"), name, is_package)
    ]
    assert not found, "private names imported across parts of the package: " + "; ".join(found)


def test_config_editions_json_input_circle_is_gone() -> None:
    graph = import_graph()
    assert "bottleimp._config" not in graph["bottleimp.formats._json_input"]
    assert not any("bottleimp._config" in circle for circle in circles(graph))


def test_import_bottleimp_leaves_the_version_lookup_until_it_is_asked_for() -> None:
    """``import bottleimp`` does not import ``importlib.metadata`` (a third of its import time,
    more in the browser); ``bottleimp.__version__`` and ``bottleimp --version`` still give the
    installed version, and an unknown attribute is still an ``AttributeError``."""
    import subprocess
    import sys
    from importlib.metadata import version

    program = (
        "import sys, bottleimp\n"
        "print('importlib.metadata' in sys.modules)\n"
        "print(bottleimp.__version__)\n"
        "try:\n"
        "    bottleimp.no_such_name\n"
        "except AttributeError as error:\n"
        "    print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          check=True, timeout=60)
    assert done.stdout.splitlines() == [
        "False", version("bottleimp"), "module 'bottleimp' has no attribute 'no_such_name'"]
    shown = subprocess.run([sys.executable, "-m", "bottleimp", "--version"],
                           capture_output=True, text=True, timeout=60, check=False)
    assert (shown.returncode, shown.stdout) == (0, f"bottleimp {version('bottleimp')}\n")

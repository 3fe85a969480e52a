"""A small AST mutation tester for bottleimp: how many deliberate bugs does the suite catch?

Usage (from the repository root; nothing is installed, the repository is copied per worker)::

    python scripts/mutate.py                      # every target module, 2 workers
    python scripts/mutate.py --only 'rules/*' --only engine.py
    python scripts/mutate.py --list               # the mutants, without running them
    python scripts/mutate.py --show ID            # one mutant's changed line
    python scripts/mutate.py --results out.json --resume   # skip mutants already in out.json

A run with ``--results out.json`` keeps its passing baseline in ``out.json.baseline/``; a
``--resume`` of the same repository files, kill-suite and Python reads it back instead of running
the whole kill-suite under coverage again (the longest part of a run on a loaded machine).

Each *target* names glob patterns (relative to the repository root) and the kill-suite of test
files run against its mutants. Patterns name both today's flat modules and the packages they are
moving into (``bottleimp/formats/_records.py``, ``bottleimp/validation/validate.py``...), so the
script keeps working when a module moves; a module matched by no pattern is reported.

Mutations (one per mutant): ``compare`` (``<`` to ``<=``, ``==`` to ``!=``, ``is`` to ``is not``,
``in`` to ``not in``...), ``arith`` (``+`` to ``-``, ``*`` to ``//``, ``%`` to ``//``...),
``const`` (an integer ``n`` to ``n + 1``, ``True``/``False`` swapped), ``bool`` (``and`` to
``or``, ``not x`` to ``x``), ``branch`` (an ``if``/``while`` test forced ``True`` or ``False``),
``delete`` (a statement replaced by ``pass``). Docstrings, strings (messages), f-strings,
annotations, imports, decorators, ``__all__`` and ``assert`` statements (internal sanity checks,
not rules) are left alone.

A mutant is named stably, not by line number: ``module:function:hash:kind:detail[#n]``, the hash
being that of the mutated source line (stripped), ``n`` telling apart identical lines in one
function. ``scripts/equivalent_mutants.toml`` lists the mutants that change no behaviour, each
with its reason; they count as ``equivalent``, not as survivors (an entry that names no mutant
any more is reported as stale).

The kill-suite is every test module of ``tests/`` but the few ``_NOT_IN_KILL_SUITE`` names
(``--tests`` gives another); an unmutated baseline runs it once under coverage (its files
shared among the ``--jobs``), and each mutant then runs only the tests that execute its lines.
Those run in two stages (``arrange_tests``): first the tests that killed earlier mutants of the
same function, then of the same module (learned as the run goes, and from a resumed run's
``killed_by``), then the tests of the module's own test file; then, only if the mutant survived
all of those, every other test, fastest first. A survivor thus runs every test that runs its
lines, and most mutants die in a small first stage that imports few test files. Before anything
runs, the unmutated copy must collect the kill-suite, with or without a baseline: a copy that
cannot import what the suite needs would otherwise make every mutant look killed.

Each mutant runs in a forked child (``pytest -x``, Hypothesis seed 0) in a private copy of the
repository, ``--jobs`` at a time, each test under an alarm at five times its unmutated time and
the whole child killed past the sum of its tests' limits (per stage). Each copy's bytecode is
written once, hash-checked, so a child compiles only its mutant. The result is ``killed`` (a test
failed, or the mutant broke collection), ``timeout`` (the mutant hangs: counted as killed, and
listed), ``survived``, ``error`` (no test ran: a fault of the run) or ``equivalent``.
"""

from __future__ import annotations

import argparse
import ast
import copy
import fnmatch
import glob
import hashlib
import json
import os
import shutil
import signal
import sys
import tempfile
import time
import tomllib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EQUIVALENTS = REPO / "scripts" / "equivalent_mutants.toml"

# The kill-suite of every target is derived, not listed by hand: every test module of
# ``tests/`` but these, and of those, each mutant runs only the tests that execute its lines
# (measured by coverage in the unmutated baseline), fastest first.
_NOT_IN_KILL_SUITE = {
    # The mutation tool's own tests: they run this script (and the equivalence harness applies
    # every listed mutant on purpose).
    "tests/test_mutation_script.py": "runs the mutation tool itself",
    "tests/test_mutation_equivalents.py": "applies the listed equivalent mutants on purpose",
    # Training examples and whole-site builds: minutes each, and they run no rule code that the
    # other tests do not.
    "tests/test_example_rllib.py": "trains an agent (minutes)",
    "tests/test_example_sb3.py": "trains an agent (minutes)",
    "tests/test_docs_site.py": "builds the whole site in a browser",
    "tests/test_play_page.py": "builds the play page and drives a browser",
    # Each hostile call runs in a subprocess, which coverage does not follow, so no mutant would
    # select these tests; their hang limits only fail the baseline on a loaded machine.
    "tests/test_batch_hostile.py": "runs every call in a subprocess (no coverage to select by)",
}


def kill_suite() -> tuple[str, ...]:
    """Every test module of ``tests/`` that a mutant may run (see ``_NOT_IN_KILL_SUITE``)."""
    found = sorted(os.path.relpath(path, REPO) for path in glob.glob(str(REPO / "tests" / "test_*.py")))
    return tuple(path for path in found if path not in _NOT_IN_KILL_SUITE)


@dataclass(frozen=True)
class Target:
    """Modules to mutate (glob patterns) and the share of their mutants the suite must kill."""

    name: str
    patterns: tuple[str, ...]
    goal: float


TARGETS = (
    # The tests of deals from outside against the code they guard (a subset of rules and engine).
    Target("deals", ("bottleimp/_engine.py", "bottleimp/_transitions.py", "bottleimp/rules/deal.py",
                     "bottleimp/rules/setup.py"), 1.0),
    Target("rules", ("bottleimp/rules/*.py",), 1.0),
    Target("engine", ("bottleimp/_engine.py", "bottleimp/_transitions.py", "bottleimp/_state.py"), 1.0),
    Target("config", ("bottleimp/_config.py", "bottleimp/_editions.py"), 0.95),
    Target(
        "records",
        ("bottleimp/formats/_records.py", "bottleimp/formats/_json_input.py",
         "bottleimp/formats/_config_json.py", "bottleimp/formats/_setup_entries.py"),
        0.95,
    ),
    Target("formats", ("bottleimp/formats/_state_json.py", "bottleimp/formats/_view_json.py"), 1.0),
    Target(
        "validator",
        ("bottleimp/validation/_replay.py",
         "bottleimp/validation/_causes.py", "bottleimp/validation/_reports.py"),
        0.95,
    ),
)

_COMPARE: dict[type[ast.cmpop], tuple[type[ast.cmpop], ...]] = {
    ast.Lt: (ast.LtE, ast.Gt),
    ast.LtE: (ast.Lt, ast.Gt),
    ast.Gt: (ast.GtE, ast.Lt),
    ast.GtE: (ast.Gt, ast.Lt),
    ast.Eq: (ast.NotEq,),
    ast.NotEq: (ast.Eq,),
    ast.Is: (ast.IsNot,),
    ast.IsNot: (ast.Is,),
    ast.In: (ast.NotIn,),
    ast.NotIn: (ast.In,),
}
_ARITH: dict[type[ast.operator], tuple[type[ast.operator], ...]] = {
    ast.Add: (ast.Sub,),
    ast.Sub: (ast.Add,),
    ast.Mult: (ast.FloorDiv,),
    ast.FloorDiv: (ast.Mult,),
    ast.Div: (ast.Mult,),
    ast.Mod: (ast.FloorDiv,),
    ast.BitAnd: (ast.BitOr,),
    ast.BitOr: (ast.BitAnd,),
    ast.BitXor: (ast.BitOr,),
    ast.LShift: (ast.RShift,),
    ast.RShift: (ast.LShift,),
}


@dataclass
class Mutant:
    """One mutation of one module: its stable ID, where it is and the mutated source."""

    ident: str
    path: str
    function: str
    line: int
    kind: str
    original: str
    mutated_line: str
    source: str = field(repr=False)
    end_line: int = 0
    """The last line of the mutated node (``line`` when it is on one line)."""
    in_function: bool = False
    """Whether the node runs when a function is called (not at import, when it is defined)."""


def _skip_nodes(tree: ast.Module) -> set[int]:
    """IDs of nodes (and their subtrees) never mutated: docstrings, annotations, decorators,
    imports, asserts, ``__all__``, f-strings, type aliases."""
    skipped: set[int] = set()

    def skip(node: ast.AST | None) -> None:
        if node is not None:
            for sub in ast.walk(node):
                skipped.add(id(sub))

    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                skip(body[0])
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for decorator in node.decorator_list:
                skip(decorator)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            skip(node.returns)
            for arg in (*node.args.args, *node.args.kwonlyargs, *node.args.posonlyargs,
                        node.args.vararg, node.args.kwarg):
                if arg is not None:
                    skip(arg.annotation)
        if isinstance(node, ast.AnnAssign):
            skip(node.annotation)
            if isinstance(node.annotation, ast.Name) and node.annotation.id == "TypeAlias":
                skip(node)  # ``X: TypeAlias = ...`` names a type, read only by annotations
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # A bare annotation in a function (``x: T``) runs nothing (in a class body it may
            # declare an attrs field, which is behaviour, so those stay).
            for inner in ast.walk(node):
                if isinstance(inner, ast.AnnAssign) and inner.value is None:
                    skip(inner)
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Assert, ast.JoinedStr)):
            skip(node)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skip(node)  # attribute docstrings
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
                skip(node)
            # Module-level type aliases (X = A | B) are not behaviour.
            if isinstance(node.value, ast.BinOp) and isinstance(node.value.op, ast.BitOr) and any(
                isinstance(t, ast.Name) and t.id[:1].isupper() for t in targets
            ):
                if all(isinstance(s, (ast.Name, ast.Subscript, ast.Attribute))
                       for s in (node.value.left, node.value.right)):
                    skip(node)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and (
            node.test.id == "TYPE_CHECKING"
        ):
            skip(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in (
            "cast", "TypeVar", "NewType"
        ):
            skip(node)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(
            node.value.func, ast.Name
        ) and node.value.func.id in ("TypeVar", "NewType"):
            skip(node)  # a type variable, read only by annotations
    return skipped


def _functions(tree: ast.Module) -> dict[int, str]:
    """The qualified name of the function or class enclosing each node (``<module>`` outside)."""
    owner: dict[int, str] = {}

    def visit(node: ast.AST, name: str) -> None:
        for child in ast.iter_child_nodes(node):
            child_name = name
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                child_name = child.name if name == "<module>" else f"{name}.{child.name}"
            owner[id(child)] = child_name
            visit(child, child_name)

    visit(tree, "<module>")
    return owner


def _edits(tree: ast.Module) -> Iterator[tuple[ast.AST, str, str, object]]:
    """Every possible mutation: ``(node, kind, detail, payload)`` in a fixed traversal order."""
    skipped = _skip_nodes(tree)
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Compare):
            for index, op in enumerate(node.ops):
                for new_cmp in _COMPARE.get(type(op), ()):
                    detail = f"{type(op).__name__}>{new_cmp.__name__}@{index}"
                    yield node, "compare", detail, (index, new_cmp)
        elif isinstance(node, (ast.BinOp, ast.AugAssign)):
            for new in _ARITH.get(type(node.op), ()):
                yield node, "arith", f"{type(node.op).__name__}>{new.__name__}", new
        elif isinstance(node, ast.BoolOp):
            new_op = ast.Or if isinstance(node.op, ast.And) else ast.And
            yield node, "bool", f"{type(node.op).__name__}>{new_op.__name__}", new_op
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield node, "bool", "drop-not", None
        elif isinstance(node, ast.Constant):
            value = node.value
            if isinstance(value, bool):
                yield node, "const", f"{value}>{not value}", not value
            elif isinstance(value, int):
                yield node, "const", f"{value}>{value + 1}", value + 1
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            for forced in (True, False):
                if isinstance(node, ast.While) and forced:
                    continue  # an endless loop: a timeout, not a finding
                yield node, "branch", f"{type(node).__name__}-{forced}", forced
        if isinstance(node, ast.stmt) and not isinstance(
            node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Pass, ast.Global,
                   ast.Nonlocal, ast.Import, ast.ImportFrom)
        ):
            yield node, "delete", type(node).__name__, None


def _apply(node: ast.AST, kind: str, payload: object) -> ast.AST | None:
    """Mutate ``node`` in place; returns the replacement node for ``delete`` (else ``None``)."""
    if kind == "compare":
        assert isinstance(node, ast.Compare) and isinstance(payload, tuple)
        index, new = payload
        node.ops[index] = new()
    elif kind == "arith":
        assert isinstance(node, (ast.BinOp, ast.AugAssign)) and isinstance(payload, type)
        node.op = payload()
    elif kind == "bool" and isinstance(node, ast.BoolOp):
        assert isinstance(payload, type)
        node.op = payload()
    elif kind == "bool":
        assert isinstance(node, ast.UnaryOp)
        return node.operand
    elif kind == "const":
        assert isinstance(node, ast.Constant) and isinstance(payload, int)
        node.value = payload
    elif kind == "branch":
        assert isinstance(node, (ast.If, ast.While, ast.IfExp))
        assert isinstance(payload, bool)
        node.test = ast.Constant(payload)
    elif kind == "delete":
        return ast.Pass()
    return None


def _swap(place: tuple[ast.AST, str, int | None], node: ast.AST) -> None:
    """Put ``node`` at ``place`` (a parent, its field and the index in that field's list)."""
    parent, name, position = place
    if position is None:
        setattr(parent, name, node)
    else:
        getattr(parent, name)[position] = node


class _Replace(ast.NodeTransformer):
    def __init__(self, target: ast.AST, replacement: ast.AST) -> None:
        self.target, self.replacement = target, replacement

    def generic_visit(self, node: ast.AST) -> ast.AST:
        if node is self.target:
            return self.replacement
        return super().generic_visit(node)


def _line_of(source_lines: list[str], node: ast.AST) -> tuple[int, str]:
    line = getattr(node, "lineno", 0)
    return line, source_lines[line - 1].strip() if line else ""


def _function_bodies(tree: ast.Module) -> set[int]:
    """IDs of the nodes inside a function's body: code that runs when the function is called."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            body = node.body if isinstance(node.body, list) else [node.body]
            for statement in body:
                inside.update(id(sub) for sub in ast.walk(statement))
    return inside


def _statement_text(statement: ast.stmt, first: bool) -> str:
    """What ``ast.unparse`` writes for one top-level statement of a module: the unparser writes
    a module statement by statement, each piece depending only on the statement and on whether
    it is the module's first (which then has no leading newline)."""
    if first:
        return ast.unparse(ast.Module(body=[statement], type_ignores=[]))
    return ast.unparse(ast.Module(body=[ast.Pass(), statement], type_ignores=[]))[len("pass"):]


def _member_text(cls: ast.ClassDef, position: int) -> str:
    """What ``ast.unparse`` writes for the statement at ``position`` in a top-level class's
    body, indentation and leading newlines included: the statement in a class of its own, after
    a ``pass`` unless it is the first (a string there would be written as the docstring)."""
    alone = copy.copy(cls)
    alone.name, alone.bases, alone.keywords, alone.decorator_list = "_", [], [], []
    alone.body = [cls.body[position]] if position == 0 else [ast.Pass(), cls.body[position]]
    text = ast.unparse(ast.Module(body=[ast.Pass(), alone], type_ignores=[])).split(
        "class _:", 1)[1]
    return text if position == 0 else text[len("\n    pass"):]


def _class_segments(cls: ast.ClassDef, first: bool, members: list[str]) -> list[str] | None:
    """The text of a top-level class around its body's statements, such that the class's text
    is ``segments[0] + members[0] + segments[1] + ... + segments[-1]``; ``None`` when the
    pieces do not add up to the class's own text (then the class is unparsed whole)."""
    marked = copy.copy(cls)
    names = [f"__mutate_member_{index}__" for index in range(len(cls.body))]
    marked.body = [ast.Expr(ast.Name(id=name, ctx=ast.Load())) for name in names]
    text = _statement_text(marked, first)
    segments = []
    for name in names:
        before, found, text = text.partition("\n    " + name)
        if not found:
            return None
        segments.append(before)
    segments.append(text)
    return segments if _joined(segments, members) == _statement_text(cls, first) else None


def _joined(segments: list[str], members: list[str]) -> str:
    """A class's text from its segments and its body's statements' texts, interleaved."""
    return segments[0] + "".join(m + s for m, s in zip(members, segments[1:]))


class _ModuleText:
    """A module's unparsed text in pieces, so that a mutant's text unparses only what changed:
    one piece per top-level statement, and for a top-level class one per statement of its body
    (a method's mutant re-unparses that method, not its whole class)."""

    def __init__(self, tree: ast.Module) -> None:
        self.tree = tree
        self.pieces = [_statement_text(statement, index == 0)
                       for index, statement in enumerate(tree.body)]
        self.text = "".join(self.pieces)
        self.place: dict[int, tuple[int, int | None]] = {}
        self.classes: dict[int, tuple[list[str], list[str]]] = {}
        """For each split top-level class (by index): its segments and its members' texts."""
        for index, statement in enumerate(tree.body):
            self.place.update((id(sub), (index, None)) for sub in ast.walk(statement))
            if isinstance(statement, ast.ClassDef):
                members = [_member_text(statement, position)
                           for position in range(len(statement.body))]
                segments = _class_segments(statement, index == 0, members)
                if segments is not None:
                    self.classes[index] = (segments, members)
                    for position, member in enumerate(statement.body):
                        self.place.update((id(sub), (index, position))
                                          for sub in ast.walk(member))

    def with_change_at(self, node: ast.AST) -> str:
        """The module's text as the tree is now, which differs from the original only inside
        the statement (or class member) that held ``node``."""
        index, position = self.place[id(node)]
        statement = self.tree.body[index]
        if position is None or not isinstance(statement, ast.ClassDef):
            piece = _statement_text(statement, index == 0)
        else:
            segments, members = self.classes[index]
            members = [*members[:position], _member_text(statement, position),
                       *members[position + 1:]]
            piece = _joined(segments, members)
        return "".join(self.pieces[:index]) + piece + "".join(self.pieces[index + 1:])


def module_key(path: str) -> str:
    """A module's name for mutant IDs that survives moving it into a package or making it
    private: its file stem without the leading underscore."""
    return Path(path).stem.lstrip("_")


def mutants_of(path: str) -> list[Mutant]:
    """Every mutant of one module, with stable IDs, duplicates (same mutated module) dropped."""
    text = (REPO / path).read_text()
    source_lines = text.splitlines()
    tree = ast.parse(text)
    # A mutation changes one top-level statement (or one statement of a top-level class): the
    # mutated module is the unchanged text around that statement's new text (unparsing the
    # whole module for each mutant made listing them ten times slower, for the same sources).
    module_text = _ModuleText(tree)
    baseline = module_text.text
    plans = list(_edits(tree))
    owners = _functions(tree)
    bodies = _function_bodies(tree)
    result: list[Mutant] = []
    seen_sources = {baseline}
    counts: Counter[str] = Counter()
    parents: dict[int, tuple[ast.AST, str, int | None]] = {}
    for parent in ast.walk(tree):
        for name, value in ast.iter_fields(parent):
            if isinstance(value, list):
                for position, item in enumerate(value):
                    if isinstance(item, ast.AST):
                        parents[id(item)] = (parent, name, position)
            elif isinstance(value, ast.AST):
                parents[id(value)] = (parent, name, None)
    for node, kind, detail, payload in plans:
        # Mutate the tree in place, unparse it, then undo the mutation.
        saved = {name: list(value) if isinstance(value, list) else value
                 for name, value in ast.iter_fields(node)}
        replacement = _apply(node, kind, payload)
        if replacement is not None:
            _swap(parents[id(node)], replacement)
        source = module_text.with_change_at(node)
        if replacement is not None:
            _swap(parents[id(node)], node)
        for name, value in saved.items():
            setattr(node, name, list(value) if isinstance(value, list) else value)
        if source in seen_sources:
            continue
        seen_sources.add(source)
        line, original = _line_of(source_lines, node)
        function = owners.get(id(node), "<module>")
        digest = hashlib.sha1(original.encode()).hexdigest()[:10]
        key = f"{module_key(path)}:{function}:{digest}:{kind}:{detail}"
        counts[key] += 1
        ident = key if counts[key] == 1 else f"{key}#{counts[key]}"
        if replacement is None:
            _apply(node, kind, payload)
        try:
            mutated_line = ast.unparse(replacement if replacement is not None else node)
            mutated_line = mutated_line.splitlines()[0]
        except Exception:  # noqa: BLE001 - a display nicety only
            mutated_line = "?"
        if replacement is None:
            for name, value in saved.items():
                setattr(node, name, list(value) if isinstance(value, list) else value)
        end_line = getattr(node, "end_lineno", None) or line
        result.append(Mutant(ident, path, function, line, kind, original, mutated_line, source,
                             end_line, id(node) in bodies))
    return result


def expand(target: Target) -> list[str]:
    """The existing files a target's patterns match, relative to the repository, sorted."""
    found: set[str] = set()
    for pattern in target.patterns:
        for match in glob.glob(str(REPO / pattern), recursive=True):
            relative = os.path.relpath(match, REPO)
            if not relative.endswith("__init__.py"):
                found.add(relative)
    return sorted(found)


def load_equivalents() -> dict[str, str]:
    """Mutant ID to the reason it changes no behaviour."""
    if not EQUIVALENTS.exists():
        return {}
    data = tomllib.loads(EQUIVALENTS.read_text())
    return {entry["id"]: entry["reason"] for entry in data.get("mutant", [])}


# -- running -----------------------------------------------------------------------------------


def _repository_files() -> list[str]:
    """Every file of the repository that the suite may read: what git tracks or would track
    (untracked files not ignored included), relative to the root; without git, every file but
    those of ``.git`` and of build and cache folders."""
    import subprocess

    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
            cwd=REPO, capture_output=True, check=True).stdout.decode()
        return [name for name in listed.split("\0")
                if name and ((REPO / name).is_file() or (REPO / name).is_symlink())]
    except (OSError, subprocess.CalledProcessError):
        skipped = {".git", "build", "site", "__pycache__", ".hypothesis", ".mypy_cache"}
        return [str(path.relative_to(REPO)) for path in REPO.rglob("*")
                if (path.is_file() or path.is_symlink())
                and not skipped & set(path.relative_to(REPO).parts)]


def _prepare_copy(root: Path) -> None:
    """A private copy of the repository: every file the suite may import or read (the package,
    tests, docs, the restatement, spec, examples, scripts and the root files)."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    for name in _repository_files():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        if (REPO / name).is_symlink():  # the package's data links into spec/: kept as links
            os.symlink(os.readlink(REPO / name), root / name)
        else:
            shutil.copy2(REPO / name, root / name)


class _TestClock:
    """A pytest plugin: times each test, fails a test that runs far past its time, and (in the
    baseline, with coverage on) records the lines each test runs under its node ID.

    With ``limits`` (node ID -> seconds) a test still running after its limit is interrupted by
    SIGALRM, so a mutant that hangs in one test is killed in seconds instead of at the
    whole-suite timeout.
    """

    def __init__(self, limits: dict[str, float] | None, default: float,
                 coverage: Any = None, killer_file: Path | None = None) -> None:
        self.limits = limits
        self.default = default
        self.coverage = coverage
        self.killer_file = killer_file
        self.durations: dict[str, float] = {}
        self.killer: str | None = None

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """The first test that fails (the one that kills a mutant) is written to
        ``killer_file``: the run learns from it which tests to run first for the next mutants."""
        if report.failed and self.killer is None:
            self.killer = report.nodeid
            if self.killer_file is not None:
                self.killer_file.write_text(report.nodeid)

    @staticmethod
    def _alarm(_signum: int, _frame: object) -> None:
        raise TimeoutError("ran far longer than unmutated: the mutant hangs")

    @staticmethod
    def arm(seconds: float) -> None:
        """Raise ``TimeoutError`` after ``seconds``, then every second until disarmed: code that
        catches one (Hypothesis shrinking a failure, a broad except) meets the next."""
        signal.signal(signal.SIGALRM, _TestClock._alarm)
        signal.setitimer(signal.ITIMER_REAL, seconds, 1.0)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Iterator[None]:
        """Each test (setup, call and teardown) timed and under its own alarm."""
        node_id = item.nodeid
        if self.coverage is not None:
            _clear_caches()
            self.coverage.switch_context(node_id)
        if self.limits is not None:
            self.arm(self.limits.get(node_id, self.default))
        started = time.monotonic()
        try:
            yield
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.durations[node_id] = time.monotonic() - started
            if self.coverage is not None:
                self.coverage.switch_context("")


def _clear_caches() -> None:
    """Empty the package's function caches (``functools.lru_cache``), so that in the baseline
    every test that needs a cached result runs the lines that compute it and is selected for
    their mutants, not only the first test that filled the cache."""
    for name, module in list(sys.modules.items()):
        if name == "bottleimp" or name.startswith("bottleimp."):
            for value in list(vars(module).values()):
                clear = getattr(value, "cache_clear", None)
                if callable(clear) and getattr(value, "__module__", None) == name:
                    clear()


def _forget_repository_modules() -> None:
    """Drop from ``sys.modules`` every module loaded from a file of the repository (the package,
    the tests' helpers, the conftest files, the restatement, the docs' examples), so that the
    child imports them from its copy, mutant included, even when the parent had imported them
    (the parent is a test of this script)."""
    roots = (str(REPO) + os.sep,)
    for name, module in list(sys.modules.items()):
        if name in ("__main__", "mutate", __name__):
            continue  # this script itself
        where = getattr(module, "__file__", None) or ""
        if name == "bottleimp" or name.startswith(("bottleimp.", "restatement")) or (
            where and os.path.realpath(where).startswith(roots)
        ):
            del sys.modules[name]


def _child(root: Path, mutant: Mutant | None, tests: list[str],
           limits: dict[str, float] | None, durations_file: Path | None,
           coverage_file: Path | None, collect_only: bool = False,
           log_file: Path | None = None, killer_file: Path | None = None,
           write_bytecode: bool = False) -> None:
    """In a forked child: write the mutant into the copy and run the kill-suite; never returns.

    ``tests`` are test files or node IDs. With ``coverage_file`` (the baseline), the lines of the
    package each test runs are recorded there, the test's node ID as coverage context. With
    ``collect_only``, the tests are collected and not run (the check that the copy is whole).
    pytest's output goes to ``log_file`` (the baseline's, read back when it fails), else to
    ``MUTATE_CHILD_LOG``, else nowhere. The node ID of the first failing test goes to
    ``killer_file``. With ``write_bytecode`` (the warm-up of a copy, see ``_warm_copies``) the
    imported modules' bytecode and pytest's rewritten test modules are written into the copy.
    """
    try:
        _forget_repository_modules()
        sys.dont_write_bytecode = not write_bytecode
        cov = None
        if coverage_file is not None:
            import coverage

            cov = coverage.Coverage(data_file=str(coverage_file),
                                    include=[str(root / "bottleimp" / "*")])
            cov.start()
        if mutant is not None:
            (root / mutant.path).write_text(mutant.source)
        os.chdir(root)
        sys.path[:0] = [str(root), str(root / "tests")]
        # Ctrl-C as in a terminal, however the tool was started: a shell's background job has
        # SIGINT ignored, which its subprocesses inherit (a test that interrupts one would fail).
        signal.signal(signal.SIGINT, signal.default_int_handler)
        # The tests' subprocesses (the CLI, scripts, a fresh pytest) import the copy too, mutant
        # included, wherever they run and whatever the parent's PYTHONPATH named.
        os.environ["PYTHONPATH"] = os.pathsep.join(
            [str(root), *filter(None, [os.environ.get("PYTHONPATH")])])
        log = str(log_file) if log_file is not None else os.environ.get("MUTATE_CHILD_LOG",
                                                                         os.devnull)
        descriptor = os.open(log, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        os.dup2(descriptor, 1)
        os.dup2(descriptor, 2)
        from hypothesis import HealthCheck, settings

        # A profile of this process only: enough examples to kill, quick enough for thousands
        # of runs, no example database. It is chosen with ``--hypothesis-profile`` (applied after
        # the suite's conftest has loaded its own), never through ``HYPOTHESIS_PROFILE``: the
        # tests' subprocesses inherit the environment and would load a profile they lack.
        settings.register_profile("mutation", max_examples=40, deadline=None, database=None,
                                  suppress_health_check=list(HealthCheck))
        clock = _TestClock(limits, default=_TEST_LIMIT_DEFAULT, coverage=cov,
                           killer_file=killer_file)
        if limits is not None:
            # Collection too: a mutant that hangs at import (a module-level table) stops here.
            clock.arm(_TEST_LIMIT_DEFAULT)
        code = pytest.main([
            "-x", "-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-o", "addopts=",
            "--hypothesis-seed=0", "--hypothesis-profile=mutation", "-W", "ignore", *(["--collect-only"] if collect_only else []),
            *tests,
        ], plugins=[clock])
        if cov is not None:
            cov.stop()
            cov.save()
        if durations_file is not None:
            durations_file.write_text(json.dumps(clock.durations))
        os._exit(int(code))
    except BaseException:  # noqa: BLE001 - an import-time crash of the mutant is a kill
        import traceback

        traceback.print_exc()  # to the child's log, else nowhere
        os._exit(3)


# A test may take this many times its unmutated duration, plus the slack, before it counts as hung.
_TEST_LIMIT_FACTOR = 5.0
_TEST_LIMIT_SLACK = 10.0
_TEST_LIMIT_DEFAULT = 60.0


# pytest's exit status 5: no test was collected. For a mutant that is a fault of the run (a
# selection naming tests that do not exist), never a kill.
_NO_TESTS_COLLECTED = 5


def _outcome(code: int) -> str:
    """A mutant's outcome from its child's exit status: 0 survived; tests failed (1), collection
    or import broken by the mutant (2-4, or 3 for a crash before pytest ran) killed; no tests
    collected an ``error``. The copy's unmutated collection is checked before any mutant runs
    (``check_copies``), so a collection that fails there is the mutant's doing."""
    if code == 0:
        return "survived"
    if code == _NO_TESTS_COLLECTED:
        return "error"
    return "killed"


def what_failed(log: str, tail: int = 40) -> str:
    """What a failed pytest run's output says failed: its summary lines (``FAILED``/``ERROR``
    with the node ID and the message) and the lines of its first failure that name the error
    (``E   ...``), else the output's last ``tail`` lines (a crash before pytest reported)."""
    lines = log.splitlines()
    errors = [line for line in lines if line.startswith("E ")][:tail]
    summary = [line for line in lines if line.startswith(("FAILED ", "ERROR "))]
    if summary:
        return "\n".join([*errors, *summary])
    return "\n".join(lines[-tail:]) if lines else "(no output)"


def check_copies(tests: list[str]) -> str | None:
    """Collect ``tests`` unmutated in a fresh copy of the repository: ``None`` when they collect,
    else what went wrong. Run before any mutant, with or without a baseline: a copy that cannot
    even collect would make every mutant look killed."""
    outcome: list[tuple[str, int]] = []
    base = Path(tempfile.mkdtemp(prefix="bottleimp-mutate-check-"))
    try:
        root = base / "w"
        _prepare_copy(root)
        pid = os.fork()
        if pid == 0:
            _child(root, None, tests, None, None, None, collect_only=True)
        _, status = os.waitpid(pid, 0)
        exit_code = os.waitstatus_to_exitcode(status)
        outcome.append((_outcome(exit_code), exit_code))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    result, code = outcome[0]
    if result == "survived":
        return None
    return (f"the unmutated copy of the repository cannot collect its kill-suite (pytest exit "
            f"status {code}): run `python -m pytest --collect-only {' '.join(tests[:3])} ...` "
            "in the repository and fix what it prints, or add to the copy what it lacks")


Stage = tuple[list[str], float]
"""Tests a child runs (node IDs or files, in order) and its time limit in seconds."""


@dataclass
class Job:
    mutant: Mutant | None
    tests: list[str]
    slot: int
    pid: int
    started: float
    timeout: float
    later: list[Stage] = field(default_factory=list)
    """The stages still to run if every test of this one passes (see ``arrange_tests``)."""
    before: float = 0.0
    """The seconds the mutant's earlier stages took."""


def _warm_copies(roots: list[Path], tests: list[str]) -> None:
    """Write the bytecode of each copy once, so that no child compiles it again: a collection
    of ``tests`` (one child per copy, side by side) that writes the imported modules' bytecode
    and pytest's rewritten test modules (checked by the test file's time and size; test files
    are never mutated), then every module compiled to a *hash-checked* ``.pyc``, which Python
    uses only while the source hashes the same: a mutant written into the copy is always
    compiled from its own source, and the restored original finds its bytecode again."""
    import compileall
    import py_compile

    children = []
    for root in roots:
        pid = os.fork()
        if pid == 0:
            _child(root, None, tests, None, None, None, collect_only=True, write_bytecode=True)
        children.append(pid)
    for pid in children:
        os.waitpid(pid, 0)
    for root in roots:
        compileall.compile_dir(str(root), quiet=2, force=True,
                               invalidation_mode=py_compile.PycInvalidationMode.CHECKED_HASH)


def run_all(
    work: list[tuple[Mutant | None, list[str], float]],
    jobs: int,
    on_done: Callable[[Mutant | None, str, int | None, float, str | None], None],
    limits: dict[str, float] | None = None,
    durations_file: Path | None = None,
    coverage_file: Path | None = None,
    log_file: Path | None = None,
    arrange: Callable[[Mutant, list[str]], list[Stage]] | None = None,
    warm: list[str] | None = None,
) -> None:
    """Run every ``(mutant, tests, timeout)`` in forked children, ``jobs`` at a time.

    ``limits`` caps each test's time (see ``_TestClock``); ``durations_file`` receives the
    durations of the tests of a run and ``coverage_file`` the lines each test runs (used for
    the unmutated baseline: each child writes its own, the file's name followed by ``.`` and its
    slot); ``log_file`` receives the children's output. ``on_done`` gets the mutant, its
    outcome, the exit status, the seconds and the first failing test (``None`` if none).

    ``arrange``, called when a mutant starts (so it sees what the run learned until then),
    splits its tests into ordered stages with their time limits: the next stage runs only if
    every test of the previous one passed, so a survivor still runs every test. ``warm`` (test
    files) has each copy's bytecode written first (``_warm_copies``).
    """
    base = Path(tempfile.mkdtemp(prefix="bottleimp-mutate-"))
    roots = [base / f"w{slot}" for slot in range(jobs)]
    for root in roots:
        _prepare_copy(root)
    # Import the heavy third-party modules once; the children fork with them loaded.
    import hypothesis  # noqa: F401
    try:
        import sybil  # noqa: F401
    except ImportError:
        pass
    if warm:
        _warm_copies(roots, warm)
    pending = list(work)
    running: dict[int, Job] = {}
    free = list(range(jobs))
    os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
    sys.dont_write_bytecode = True

    def suffixed(path: Path | None, slot: int) -> Path | None:
        return None if path is None else path.with_name(f"{path.name}.{slot}")

    def start(mutant: Mutant | None, stage: Stage, later: list[Stage], slot: int,
              before: float) -> None:
        tests, timeout = stage
        killer_file = base / f"w{slot}.killer"
        killer_file.unlink(missing_ok=True)
        pid = os.fork()
        if pid == 0:
            _child(roots[slot], mutant, tests, limits, suffixed(durations_file, slot),
                   suffixed(coverage_file, slot), log_file=log_file, killer_file=killer_file)
        running[pid] = Job(mutant, tests, slot, pid, time.monotonic(), timeout, later, before)

    try:
        while pending or running:
            while pending and free:
                mutant, tests, timeout = pending.pop(0)
                stages = (arrange(mutant, tests) if arrange is not None and mutant is not None
                          else [(tests, timeout)])
                start(mutant, stages[0], stages[1:], free.pop(), 0.0)
            time.sleep(0.02)
            for pid, job in list(running.items()):
                done, status = os.waitpid(pid, os.WNOHANG)
                elapsed = time.monotonic() - job.started
                if done == 0 and elapsed > job.timeout:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                    outcome, code = "timeout", None
                elif done == 0:
                    continue
                else:
                    code = os.waitstatus_to_exitcode(status)
                    outcome = _outcome(code)
                del running[pid]
                if outcome == "survived" and job.later:
                    # Every test of this stage passed: the mutant runs the next one.
                    start(job.mutant, job.later[0], job.later[1:], job.slot,
                          job.before + elapsed)
                    continue
                killer_file = base / f"w{job.slot}.killer"
                killer = killer_file.read_text() if killer_file.exists() else None
                root = roots[job.slot]
                if job.mutant is not None:
                    shutil.copy2(REPO / job.mutant.path, root / job.mutant.path)
                free.append(job.slot)
                on_done(job.mutant, outcome, code, job.before + elapsed, killer)
    finally:
        for pid in running:
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(base, ignore_errors=True)


def _read_coverage(coverage_file: Path, runs_line: dict[str, dict[int, set[str]]]) -> None:
    """Add to ``runs_line`` (module path -> line -> node IDs) what the baseline's coverage saw."""
    import coverage

    data = coverage.CoverageData(basename=str(coverage_file))
    data.read()
    for measured in data.measured_files():
        marker = measured.find(os.sep + "bottleimp" + os.sep)
        path = measured[marker + 1 :]
        for line, contexts in data.contexts_by_lineno(measured).items():
            # The empty context is code run outside any test (at import, during collection).
            runs_line[path][line].update(contexts)


def own_test_files(path: str, files: Iterable[str]) -> set[str]:
    """The test files named after a module (its ``module_key`` in the file's name:
    ``tests/test_deals.py`` for ``rules/deal.py``), the likeliest to test it directly."""
    key = module_key(path)
    return {name for name in files if key in Path(name).stem.removeprefix("test_")}


@dataclass
class Killers:
    """What a run has learned: which tests killed the mutants of each function and module.
    The mutants of one function mostly fall to the same few tests."""

    by_function: defaultdict[tuple[str, str], Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter))
    by_module: defaultdict[str, Counter[str]] = field(
        default_factory=lambda: defaultdict(Counter))

    def learn(self, mutant: Mutant, test: str) -> None:
        """``test`` (a node ID) killed ``mutant``."""
        self.by_function[mutant.path, mutant.function][test] += 1
        self.by_module[mutant.path][test] += 1


def arrange_tests(mutant: Mutant, tests: list[str], durations: dict[str, float],
                  killers: Killers) -> list[list[str]]:
    """The tests a mutant runs, in the order likeliest to kill it soon, in one or two stages
    (the second runs only if the first passes, so a survivor runs every test of ``tests``).

    ``tests`` are node IDs (the tests that run the mutated lines) or files (a mutant run at
    import, which every test may notice). Stage one: the tests that killed earlier mutants of
    the same function, then of the same module, then the tests of the module's own test files
    (``own_test_files``), each group fastest first (``durations``); stage two: the rest, fastest
    first (files: the fastest files first). A small first stage also keeps a child's collection
    small: most mutants die in it, and never import the other test files.
    """
    of_function = killers.by_function.get((mutant.path, mutant.function), Counter())
    of_module = killers.by_module.get(mutant.path, Counter())
    if all("::" in test for test in tests):
        own = own_test_files(mutant.path, {test.split("::")[0] for test in tests})

        def group(test: str) -> int:
            return (0 if test in of_function else 1 if test in of_module
                    else 2 if test.split("::")[0] in own else 3)

        ordered = sorted(tests, key=lambda t: (group(t), durations.get(t, 0.0), t))
        first = [test for test in ordered if group(test) < 3]
        rest = [test for test in ordered if group(test) == 3]
    else:
        files = set(tests)
        own = own_test_files(mutant.path, files)
        file_time: defaultdict[str, float] = defaultdict(float)
        for node_id, seconds in durations.items():
            file_time[node_id.split("::")[0]] += seconds
        learned = sorted((test for test in {*of_function, *of_module}
                          if test.split("::")[0] in files - own),
                         key=lambda t: (t not in of_function, durations.get(t, 0.0), t))
        first = [*learned, *sorted(own, key=lambda f: (file_time[f], f))]
        rest = sorted(files - own, key=lambda f: (file_time[f], f))
    return [stage for stage in (first, rest) if stage]


def baseline_fingerprint(suite: list[str], select: bool, results: str | None = None) -> str:
    """What a kept baseline must have been run on to be reused: every file of the repository
    (names and contents) but the run's own results file and kept baseline, the kill-suite,
    whether tests are selected by coverage, and Python."""
    digest = hashlib.sha256(json.dumps([sys.version, sorted(suite), select]).encode())
    own = os.path.realpath(results) if results else None
    for name in sorted(_repository_files()):
        if own is not None and os.path.realpath(REPO / name).startswith(own):
            continue  # the results file and the kept baseline beside it
        digest.update(name.encode() + b"\0")
        path = REPO / name
        digest.update(os.readlink(path).encode() if path.is_symlink() else path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _size(name: str) -> int:
    """A test file's size in bytes (0 if missing): the baseline's rough measure of its time."""
    try:
        return (REPO / name.split("::")[0]).stat().st_size
    except OSError:
        return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", action="append", default=[],
                        help="mutate only modules whose path matches this glob (repeatable)")
    parser.add_argument("--target", action="append", default=[],
                        help="mutate only these targets: " + ", ".join(t.name for t in TARGETS))
    parser.add_argument("--match", action="append", default=[],
                        help="run only mutants whose ID contains this text (repeatable)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=0,
                        help="per-mutant timeout in seconds (default: 3x the unmutated run + 10)")
    parser.add_argument("--list", action="store_true", help="list the mutants and stop")
    parser.add_argument("--show", metavar="ID", help="show one mutant's change and stop")
    parser.add_argument("--results", metavar="FILE", help="write every outcome to FILE (JSON)")
    parser.add_argument("--resume", action="store_true",
                        help="skip mutants already in --results (and keep their outcomes)")
    parser.add_argument("--rerun-survivors", action="store_true",
                        help="with --resume: run again the mutants that survived before")
    parser.add_argument("--limit", type=int, default=0, help="run at most N mutants per target")
    parser.add_argument("--tests", action="append", default=[], metavar="PATH",
                        help="the kill-suite: these test files or node IDs (repeatable) instead "
                             "of every test module the script derives")
    parser.add_argument("--no-baseline", action="store_true",
                        help="skip the unmutated run of the kill-suite (needs --timeout; the "
                             "copy's collection is still checked)")
    parser.add_argument("--no-select", action="store_true",
                        help="run each mutant against its whole kill-suite, not only the tests "
                             "that run its lines (measured by coverage in the baseline)")
    parser.add_argument("--report", action="store_true",
                        help="print the table of the outcomes in --results and stop")
    args = parser.parse_args(argv)
    if args.no_baseline and not args.timeout:
        parser.error("--no-baseline needs --timeout (without a baseline no time limit is known)")

    equivalents = load_equivalents()
    plan: list[tuple[Target, str, list[Mutant]]] = []
    for target in TARGETS:
        if args.target and target.name not in args.target or (
            not args.target and target.name == "deals"
        ):
            continue
        for path in expand(target):
            if args.only and not any(fnmatch.fnmatch(path, f"*{p}") for p in args.only):
                continue
            mutants = mutants_of(path)
            if args.match:
                mutants = [m for m in mutants if any(text in m.ident for text in args.match)]
            plan.append((target, path, mutants))
    all_ids = {m.ident for _, _, ms in plan for m in ms}

    if args.show:
        for _, _, mutants in plan:
            for m in mutants:
                if m.ident == args.show:
                    print(f"{m.path}:{m.line} ({m.function}, {m.kind})\n- {m.original}\n+ {m.mutated_line}")
                    return 0
        print(f"no mutant {args.show}", file=sys.stderr)
        return 1
    if args.list:
        for _, _, mutants in plan:
            for m in mutants:
                mark = " [equivalent]" if m.ident in equivalents else ""
                print(f"{m.ident}  {m.path}:{m.line}  {m.original}  =>  {m.mutated_line}{mark}")
        print(f"{len(all_ids)} mutants")
        return 0

    results: dict[str, dict[str, object]] = {}
    if (args.resume or args.report) and args.results and Path(args.results).exists():
        results = json.loads(Path(args.results).read_text())

    if args.report:
        for target, path, mutants in plan:
            for m in mutants:
                if m.ident in equivalents:
                    results[m.ident] = {"path": m.path, "outcome": "equivalent",
                                        "target": target.name}
        print(f"{sum(1 for i in results if i in all_ids)} of {len(all_ids)} mutants run")
        return report(results, all_ids, equivalents, plan)

    def save() -> None:
        if args.results:
            Path(args.results).write_text(json.dumps(results, indent=1, sort_keys=True))

    suite = list(args.tests) if args.tests else list(kill_suite())
    problem = check_copies(suite)
    if problem is not None:
        print(problem, flush=True)
        return 2
    # Baseline: the kill-suite must pass unmutated; each test's time sets the limit after which
    # that test counts as hung, and the whole run's time caps a mutant's.
    limits: dict[str, float] = {}
    durations: dict[str, float] = {}
    # Per module path and line, the node IDs of the kill-suite tests that run it (the baseline
    # runs under coverage, one context per test).
    runs_line: dict[str, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    whole: float
    if args.no_baseline:
        whole = float(args.timeout)
    else:
        started = time.monotonic()
        outcome: list[str] = []
        # The baseline of a run with --results is kept beside the results file; a --resume of
        # the same files, kill-suite and Python reads it back instead of running it again.
        kept = Path(f"{args.results}.baseline") if args.results else None
        fingerprint = baseline_fingerprint(suite, select=not args.no_select,
                                           results=args.results)
        meta = kept / "meta.json" if kept is not None else None
        reused = bool(args.resume and meta is not None and meta.exists()
                      and json.loads(meta.read_text()).get("fingerprint") == fingerprint)
        with tempfile.TemporaryDirectory() as scratch:
            where = kept if reused and kept is not None else Path(scratch)
            durations_file = where / "durations.json"
            coverage_file = None if args.no_select else where / "coverage"
            log_file = Path(scratch) / "baseline.log"
            failure = ""
            if reused and meta is not None:
                written = json.loads(meta.read_text())
                count, took = int(written["shares"]), float(written["seconds"])
                outcome = ["survived"] * count
            else:
                # The suite's files split over the jobs (each child one share, largest files
                # first to the least loaded share), each with its own durations and coverage.
                shares: list[list[str]] = [[] for _ in range(max(1, min(args.jobs, len(suite))))]
                for name in sorted(suite, key=lambda n: (-_size(n), n)):
                    min(shares, key=lambda share: sum(_size(n) for n in share)).append(name)
                count = len(shares)
                run_all([(None, sorted(share), 7200.0) for share in shares], count,
                        lambda _m, o, _c, _e, _k: outcome.append(o),
                        durations_file=durations_file, coverage_file=coverage_file,
                        log_file=log_file)
                failure = what_failed(log_file.read_text() if log_file.exists() else "")
                took = time.monotonic() - started
            for slot in range(count):
                share_durations = durations_file.with_name(f"{durations_file.name}.{slot}")
                if share_durations.exists():
                    durations.update(json.loads(share_durations.read_text()))
                if coverage_file is not None:
                    _read_coverage(coverage_file.with_name(f"{coverage_file.name}.{slot}"),
                                   runs_line)
            passed = bool(outcome) and all(o == "survived" for o in outcome)
            if passed and not reused and kept is not None:
                shutil.rmtree(kept, ignore_errors=True)
                shutil.copytree(scratch, kept, ignore=shutil.ignore_patterns("baseline.log"))
                (kept / "meta.json").write_text(json.dumps(
                    {"fingerprint": fingerprint, "shares": count, "seconds": round(took, 1)}))
        if not passed:
            bad = next((o for o in outcome if o != "survived"), "no run")
            print(f"the kill-suite fails unmutated ({bad}): "
                  f"fix the tests first; pytest said:\n{failure}", flush=True)
            return 2
        # A mutant run at import runs the whole suite in one child: its cap is three times the
        # suite's time in one process (the baseline's shares ran side by side).
        whole = float(args.timeout) or 3 * max(took, sum(durations.values())) + 10
        how = (f"as kept in {kept} by the run it resumes" if reused
               else f"under coverage ({count} at a time)")
        print(f"baseline: the kill-suite ({len(suite)} test files, {len(durations)} tests) "
              f"passes in {took:.1f}s {how}; a mutant's time is capped at {whole:.0f}s",
              flush=True)
    for node_id, seconds in durations.items():
        limits[node_id] = _TEST_LIMIT_FACTOR * seconds + _TEST_LIMIT_SLACK

    def timeout_of(tests: list[str]) -> float:
        """A mutant's time limit: the limits of the tests it runs, plus start-up, capped by the
        whole suite's. The parent kills the child past it, even where the per-test alarm cannot
        interrupt (one long computation in C)."""
        if not limits:
            return whole
        return min(whole, sum(limits.get(t, _TEST_LIMIT_DEFAULT) for t in tests) + 30.0)

    work: list[tuple[Mutant | None, list[str], float]] = []
    not_run: list[tuple[Target, Mutant]] = []
    for target, path, mutants in plan:
        chosen = mutants[: args.limit] if args.limit else mutants
        for m in chosen:
            if m.ident in equivalents:
                results[m.ident] = {"path": m.path, "outcome": "equivalent",
                                    "target": target.name}
                continue
            old = results.get(m.ident)
            if old and not (args.rerun_survivors and old["outcome"] == "survived"):
                continue
            tests = list(suite)
            if runs_line and m.in_function:
                # Only the tests that run the mutated lines can notice the mutant, fastest first.
                lines = runs_line.get(m.path, {})
                chosen_tests = set().union(*(lines.get(n, set())
                                             for n in range(m.line, m.end_line + 1)))
                in_suite = {t for t in chosen_tests if t.split("::")[0] in suite}
                if "" in chosen_tests:
                    pass  # run at import too: every test may notice it
                elif not in_suite:
                    not_run.append((target, m))
                    continue
                else:
                    tests = sorted(in_suite, key=lambda t: (durations.get(t, 0.0), t))
            work.append((m, tests, timeout_of(tests)))
    target_of = {m.ident: t.name for t, _, ms in plan for m in ms}
    total = len(work)
    for target, m in not_run:
        # No test of the kill-suite runs the mutated lines: the mutant survives without a run.
        results[m.ident] = {"path": m.path, "outcome": "survived", "target": target.name,
                            "seconds": 0.0, "line": m.line, "original": m.original,
                            "mutated": m.mutated_line, "uncovered": True}
        print(f"SURVIVED (no test runs it) {m.ident}  {m.path}:{m.line}\n"
              f"    - {m.original}\n    + {m.mutated_line}", flush=True)
    print(f"{total} mutants to run ({len(all_ids)} in all, {len(not_run)} run by no test), "
          f"{args.jobs} at a time", flush=True)
    done = 0
    started = time.monotonic()

    # The tests that killed earlier mutants run first (``arrange_tests``), learned as the run
    # goes and from the outcomes of a resumed run.
    killers = Killers()
    mutant_of = {m.ident: m for _, _, ms in plan for m in ms}
    for ident, old_result in results.items():
        if ident in mutant_of and isinstance(old_result.get("killed_by"), str):
            killers.learn(mutant_of[ident], str(old_result["killed_by"]))

    def arrange(mutant: Mutant, tests: list[str]) -> list[Stage]:
        return [(stage, timeout_of(stage))
                for stage in arrange_tests(mutant, tests, durations, killers)]

    def finished(mutant: Mutant | None, outcome: str, code: int | None, elapsed: float,
                 killer: str | None) -> None:
        nonlocal done
        assert mutant is not None
        done += 1
        results[mutant.ident] = {"path": mutant.path, "outcome": outcome,
                                 "target": target_of[mutant.ident], "seconds": round(elapsed, 1),
                                 "line": mutant.line, "original": mutant.original,
                                 "mutated": mutant.mutated_line}
        if killer is not None and outcome != "survived":
            results[mutant.ident]["killed_by"] = killer
            killers.learn(mutant, killer)
        if outcome in ("timeout", "error"):
            print(f"{'HUNG' if outcome == 'timeout' else 'ERROR (no test ran)'} {mutant.ident}  "
                  f"{mutant.path}:{mutant.line} after {elapsed:.0f}s\n    - {mutant.original}\n"
                  f"    + {mutant.mutated_line}", flush=True)
        if outcome == "survived":
            print(f"SURVIVED {mutant.ident}  {mutant.path}:{mutant.line}\n"
                  f"    - {mutant.original}\n    + {mutant.mutated_line}", flush=True)
        save()
        if done % 50 == 0 or done == total:
            rate = (time.monotonic() - started) / done
            print(f"[{done}/{total}] {rate:.2f}s per mutant", flush=True)

    run_all(work, args.jobs, finished, limits=limits or None, arrange=arrange, warm=suite)
    save()
    return report(results, all_ids, equivalents, plan)


def report(
    results: dict[str, dict[str, object]],
    all_ids: set[str],
    equivalents: dict[str, str],
    plan: list[tuple[Target, str, list[Mutant]]],
) -> int:
    """Print the table by file; status 1 when a target misses its goal or a module's mutants
    were not all run. Every module of the plan has a row: ``mutants`` counts all of its mutants,
    ``not run`` those with no outcome yet (a listed equivalent counts as run), and a module with
    any not run gets no score (``partial``), so an unfinished run cannot read as a full one."""
    by_file: dict[str, Counter[str]] = defaultdict(Counter)
    total_of: Counter[str] = Counter()
    goals = {path: target.goal for target, path, _ in plan}
    for _, path, mutants in plan:
        for m in mutants:
            if m.ident in all_ids:
                total_of[path] += 1
                if m.ident in equivalents and m.ident not in results:
                    by_file[path]["equivalent"] += 1
    for ident, result in results.items():
        if ident in all_ids:
            by_file[str(result["path"])][str(result["outcome"])] += 1
    print(f"\n{'file':36} {'mutants':>7} {'not run':>7} {'killed':>7} {'timeout':>7} "
          f"{'survived':>8} {'equiv':>6} {'error':>6} {'score':>8}")
    status = 0
    grand: Counter[str] = Counter()
    grand_total = 0
    for path in sorted(total_of):
        c = by_file[path]
        grand.update(c)
        grand_total += total_of[path]
        ran = sum(c.values())
        not_run = total_of[path] - ran
        live = ran - c["equivalent"]
        score = (c["killed"] + c["timeout"]) / live if live else 1.0
        shown = f"{score:8.1%}" if not not_run else f"{'partial':>8}"
        flag = "" if score >= goals.get(path, 1.0) else "  < goal"  # of the mutants run
        if flag or not_run or c["error"]:
            status = 1
        print(f"{path:36} {total_of[path]:7} {not_run:7} {c['killed']:7} {c['timeout']:7} "
              f"{c['survived']:8} {c['equivalent']:6} {c['error']:6} {shown}{flag}")
    ran = sum(grand.values())
    live = ran - grand["equivalent"]
    score = (grand["killed"] + grand["timeout"]) / live if live else 1.0
    shown = f"{score:8.1%}" if ran == grand_total else f"{'partial':>8}"
    print(f"{'total':36} {grand_total:7} {grand_total - ran:7} {grand['killed']:7} "
          f"{grand['timeout']:7} {grand['survived']:8} {grand['equivalent']:6} "
          f"{grand['error']:6} {shown}")
    for ident in sorted(i for i, r in results.items() if i in all_ids and r["outcome"] == "timeout"):
        print(f"hung (killed by the time limit): {ident}")
    stale = sorted(set(equivalents) - all_ids)
    if stale:
        print(f"{len(stale)} entries of {EQUIVALENTS.name} name no mutant of the modules run "
              "(stale, or of a module not run this time)")
    return status


if __name__ == "__main__":
    sys.exit(main())

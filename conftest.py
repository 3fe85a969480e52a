"""Executable documentation: Sybil collects every example in README.md, docs/ and the package's
docstrings, runs it and checks its output.

- Markdown (README.md, docs/): ```python blocks run; blocks that start with ``>>>`` are doctests
  whose output is checked. ```console blocks run their ``$ bottleimp ...`` commands in-process
  and check their output; a command ending in ``; echo $?`` also prints its exit status.
  ``<!-- skip: next -->`` skips a block. Each page runs in a fresh temporary directory, which
  holds links ``spec`` and ``examples`` to the repository's ``spec/`` and ``examples/``, so
  examples can write files, name the conformance vectors as ``spec/conformance`` and run the
  reference peer as ``examples/reference_peer/peer.py`` without touching the repository.
- Docstrings (bottleimp/): doctest examples.

Examples of one page share a namespace, in page order, so a page can build a state step by step.
Under pytest-xdist (the README's ``python -m pytest -n auto``, with ``--dist loadgroup`` from
``pyproject.toml``) each page's examples therefore form one group that runs on one worker, in
order; every other test goes to whichever worker is free. A page is split only when a worker
crashes (pytest-xdist gives what it had left to another worker); its remaining examples then fail
saying so, not with the NameErrors of names defined by examples that ran elsewhere.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

try:
    from sybil import Example, Sybil
    from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser
    from sybil.parsers.rest import DocTestParser
except ImportError:  # the quick path (`--core`) needs only attrs, Hypothesis and pytest
    Sybil = None  # type: ignore[assignment, misc]

# pytest keeps the test modules it has rewritten (for its assertion messages) only in the
# bytecode caches; under PYTHONDONTWRITEBYTECODE (set on the machines we test on) every worker
# of every run rewrote every test module and plugin again: about 6 s of each worker's start on 2
# cores (collection 10 s -> 3.5 s once the caches exist). The suite writes them regardless.
sys.dont_write_bytecode = False

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
REPO = Path(__file__).resolve().parent
_PREVIOUS_DIRECTORY = "__previous_directory__"
_TEMPORARY_DIRECTORY = "__temporary_directory__"


def enter_temporary_directory(namespace: dict[str, Any]) -> None:
    """Run a page's examples in a fresh directory holding links to the repository's spec/ and
    examples/."""
    directory = Path(tempfile.mkdtemp(prefix="bottleimp-docs-"))
    (directory / "spec").symlink_to(REPO / "spec", target_is_directory=True)
    (directory / "examples").symlink_to(REPO / "examples", target_is_directory=True)
    namespace[_PREVIOUS_DIRECTORY] = os.getcwd()
    namespace[_TEMPORARY_DIRECTORY] = directory
    os.chdir(directory)


def leave_temporary_directory(namespace: dict[str, Any]) -> None:
    os.chdir(namespace.pop(_PREVIOUS_DIRECTORY))
    shutil.rmtree(namespace.pop(_TEMPORARY_DIRECTORY), ignore_errors=True)


def _load_runner() -> Any:
    """``docs/live/examples.py``: how the pages' Run buttons run an example in the browser; the
    console blocks run with it here too, so that a page and its button agree."""
    spec = importlib.util.spec_from_file_location(
        "bottleimp_docs_live_examples", REPO / "docs" / "live" / "examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


_runner = _load_runner()


def evaluate_console(example: Example) -> str | None:
    """Run each ``$ `` line of a console block and compare with the lines that follow it."""
    result = _runner.run_block(str(example.parsed), {}, str(example.path), "shell")
    for item in result["items"]:
        if item["error"] is not None:
            return f"{item['source']}raised {item['error']['line']}"
        if item["matches"] is False:
            return f"{item['source']}expected:\n{item['want']}got:\n{item['output']}"
    return None


CORE_TESTS = (
    "test_rules_play.py", "test_rules_scoring.py", "test_rules_setup.py", "test_config.py",
    "test_deals.py", "test_engine.py", "test_view.py", "test_variants.py",
    "test_state_machine.py", "test_codec.py", "test_records.py", "test_validate.py",
    "test_boundary.py", "test_hand_built_states.py", "test_engine_edges.py", "test_plain_core.py",
)
"""The core's tests, which ``python -m pytest --core`` runs alone: the rules, the engine, the
views, the variants' state machines, the records, the validator and the checks of arguments
at the Python boundary. They need only the
``core-test`` extra (attrs, Hypothesis, pytest); ``tests/test_core_path.py`` checks that they
import nothing else."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--core", action="store_true",
                     help="run only the core's tests (CORE_TESTS in conftest.py), which need "
                          "only attrs, Hypothesis and pytest")
    try:
        importlib.import_module("xdist")
    except ImportError:  # pyproject's addopts name `--dist`; without pytest-xdist, one process
        parser.addoption("--dist", default="no",
                         help="(pytest-xdist is not installed: the tests run in one process)")


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """With ``--core``, every test module but the core's is left out (and no example is
    collected: ``pytest_collect_file``)."""
    if config.getoption("core") and collection_path.suffix == ".py":
        return collection_path.name.startswith("test_") and collection_path.name not in CORE_TESTS
    return None


def pytest_report_header(config: pytest.Config) -> str | None:
    if Sybil is None:
        return ("Sybil is not installed: the examples of README.md, docs/ and the docstrings "
                "are not collected")
    return None


if Sybil is not None:
    markdown = Sybil(
        parsers=[
            PythonCodeBlockParser(doctest_optionflags=OPTIONS),
            CodeBlockParser(language="console", evaluator=evaluate_console),
            SkipParser(),
        ],
        patterns=["README.md", "docs/*.md", "docs/*/*.md"],
        setup=enter_temporary_directory,
        teardown=leave_temporary_directory,
        name="markdown",
    )
    docstrings = Sybil(
        parsers=[DocTestParser(optionflags=OPTIONS)],
        patterns=["bottleimp/*.py", "bottleimp/*/*.py"],
        name="docstrings",
    )
    _collect_examples: Callable[[Path, pytest.Collector], pytest.Collector | None] | None = (
        markdown + docstrings).pytest()
else:
    _collect_examples = None


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    """The examples of a page or a module. A module without ``>>>`` has no doctest, so it is not
    parsed: parsing the 70-odd such modules cost each pytest-xdist worker half a second."""
    if _collect_examples is None or parent.config.getoption("core"):
        return None
    if file_path.suffix == ".py" and ">>>" not in file_path.read_text(encoding="utf-8"):
        return None
    return _collect_examples(file_path, parent)


def _is_example(item: pytest.Item) -> bool:
    return type(item).__module__.startswith("sybil")


_SHARED_GROUPS = {REPO / "docs" / "guide" / "batch.md": "numba-kernel"}
"""Pages whose examples join a group of tests that shares their costly first step: the first
example of ``guide/batch.md`` compiles the batch kernel, as the numba tests of
``tests/test_batch.py`` (group ``numba-kernel``) do; on one worker it is compiled once."""


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Keep each page's examples (or each file's docstring examples) on one xdist worker."""
    for item in items:
        if _is_example(item):
            group = _SHARED_GROUPS.get(Path(item.path), f"sybil:{item.path}")
            item.add_marker(pytest.mark.xdist_group(group))


class _GroupsCheck:
    """Under ``--dist loadgroup``, the items of a group carry it in their node IDs
    (``...@docs-site``): that suffix is all pytest-xdist schedules by. pytest 9.2 dropped it
    silently (a page's examples, and the built site's tests, went to both workers), so the run
    stops at once, saying why, when a worker collected a docs example (each page's examples
    are always a group, ``pytest_collection_modifyitems`` above) without its group. It checks
    on the controller, where ``pytest.exit`` prints its message (on a worker it would not)."""

    def __init__(self, config: pytest.Config) -> None:
        self.config = config

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: object, ids: list[str]) -> None:
        if self.config.getoption("dist", None) != "loadgroup":
            return
        lost = [nodeid for nodeid in ids if "::sybil:" in nodeid and "@" not in nodeid]
        if lost:
            pytest.exit(f"pytest-xdist's groups are lost ({len(lost)} examples, e.g. "
                        f"{lost[0]}): this pytest does not keep the group in the node ID "
                        "(pytest 9.2 with pytest-xdist 3.8); install the test extra's pytest "
                        "(<9.2)", returncode=4)


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_GroupsCheck(config), "bottleimp-groups-check")


_POSITION = pytest.StashKey[int]()
_EXAMPLES_RUN: dict[Path, int] = {}
"""How many examples of each page this process has run."""


@pytest.hookimpl(trylast=True)  # after deselection: the examples that will run
def pytest_collection_finish(session: pytest.Session) -> None:
    seen: dict[Path, int] = {}
    for item in session.items:
        if _is_example(item):
            item.stash[_POSITION] = seen.get(item.path, 0)
            seen[item.path] = item.stash[_POSITION] + 1


def pytest_runtest_setup(item: pytest.Item) -> None:
    """An example runs after the page's examples before it, in this process: a page's examples
    share one namespace. pytest-xdist keeps a page on one worker (its group), yet a crashed
    worker's leftovers go to another, and under pytest 9.2 the groups were lost altogether
    (``_GroupsCheck`` now stops such a run). So an example whose predecessors
    did not run here first runs them here, in order, without reporting them again; one of them
    failing fails this example, naming it."""
    if not _is_example(item) or _POSITION not in item.stash:
        return
    position, run = item.stash[_POSITION], _EXAMPLES_RUN.get(item.path, 0)
    if position > run:
        earlier = [other for other in item.session.items
                   if _is_example(other) and other.path == item.path
                   and run <= other.stash.get(_POSITION, -1) < position]
        for other in sorted(earlier, key=lambda other: other.stash[_POSITION]):
            try:
                other.example.evaluate()  # type: ignore[attr-defined]
            except Exception as error:  # noqa: BLE001 - reported as this example's failure
                pytest.fail(f"example {position + 1} of {item.path.name} needs the page's earlier "
                            f"examples, run here first since another process ran them; "
                            f"{other.name} failed: {error}", pytrace=False)
    elif position < run:
        pytest.fail(f"example {position + 1} of {item.path.name} is run after {run} of the page's "
                    f"examples in this process: the page's examples ran out of order",
                    pytrace=False)
    _EXAMPLES_RUN[item.path] = position + 1

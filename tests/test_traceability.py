"""Traceability between the rules catalogue, the code and the tests.

- every rule of ``spec/rules.toml`` is implemented by a ``@rule`` function and exercised by a test
  that names it (in the test's name, ``..._TRICK_WINNER``, or in its body, ``"TRICK-WINNER"``);
- every rule ID that the code or the tests name is in the catalogue;
- every interpretation cites existing rules, and every interpretation ID cited anywhere exists;
- every rule without a source is covered by an interpretation.
"""

from __future__ import annotations

import ast
import importlib
import json
import pkgutil
from collections.abc import Iterator
from pathlib import Path

import pytest

import bottleimp
from bottleimp.catalogue import (
    RULE_ID,
    Catalogue,
    catalogue,
    mentions_in_text,
    references_in_python,
    split_run,
)
from bottleimp.rules._registry import RULE_FUNCTIONS, rule_id_of

PACKAGE = Path(bottleimp.__file__).resolve().parent
TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent

# These test the catalogue itself; naming a rule ID there does not exercise the rule.
CATALOGUE_TESTS = frozenset({"test_traceability.py", "test_catalogue.py"})

# Calls whose first argument is a rule ID, even a one-word one such as "DEAL".
RULE_ID_CALLS = frozenset({"rule", "IllegalActionError", "ConfigError"})


def _package_modules() -> Iterator[str]:
    yield "bottleimp"
    for module in pkgutil.walk_packages(bottleimp.__path__, "bottleimp."):
        yield module.name


def _import_every_module() -> dict[str, str]:
    """Import every module of the package (so every ``@rule`` has run); returns the failures."""
    failures: dict[str, str] = {}
    for name in _package_modules():
        try:
            importlib.import_module(name)
        except Exception as error:  # any import failure is reported, not raised
            failures[name] = f"{type(error).__name__}: {error}"
    return failures


def _known_ids(cat: Catalogue) -> frozenset[str]:
    return frozenset(rule.id for rule in cat.rules) | frozenset(
        entry.id for entry in cat.interpretations
    )


def _test_files() -> list[Path]:
    return sorted(path for path in TESTS.rglob("*.py") if path.name not in CATALOGUE_TESTS)


def _tests_naming_each_id(cat: Catalogue) -> tuple[dict[str, list[str]], list[str]]:
    """Rule ID -> the tests that name it; and the names in tests that are not catalogue IDs."""
    known = _known_ids(cat)
    rule_ids = frozenset(rule.id for rule in cat.rules)
    named: dict[str, list[str]] = {rule_id: [] for rule_id in rule_ids}
    unknown: list[str] = []
    for path in _test_files():
        where = path.relative_to(TESTS.parent)
        for reference in references_in_python(path.read_text(encoding="utf-8"), str(path)):
            test = f"{where}::{reference.function}"
            ids: set[str] = set()
            for run in reference.name_runs:
                split = split_run(run, known)
                if split is None:
                    unknown.append(f"{test}: {'_'.join(run)} in the test's name")
                else:
                    ids.update(split)
            for mention in sorted(reference.mentions):
                if mention in known:
                    ids.add(mention)
                else:
                    unknown.append(f"{test}: {mention}")
            ids.update(reference.words & rule_ids)
            for rule_id in ids & rule_ids:
                named[rule_id].append(test)
    return named, unknown


def _code_files() -> list[Path]:
    # The catalogue package describes the shape of IDs (``RULE-ID``, ``[A-Z]``): it names no rule.
    return sorted(path for path in PACKAGE.rglob("*.py") if path.parent.name != "catalogue")


def _ids_named_in_code(path: Path) -> set[str]:
    """The rule and interpretation IDs a module of the package names: the first argument of
    ``@rule``/``IllegalActionError``/``ConfigError``, ``rule_id=`` keywords, and every
    hyphenated upper-case token (in code, docstrings and comments)."""
    source = path.read_text(encoding="utf-8")
    found = set(mentions_in_text(source))
    for node in ast.walk(ast.parse(source, str(path))):
        if not isinstance(node, ast.Call):
            continue
        function = node.func
        name = function.id if isinstance(function, ast.Name) else getattr(function, "attr", "")
        arguments = list(node.args[:1]) if name in RULE_ID_CALLS else []
        arguments += [keyword.value for keyword in node.keywords if keyword.arg == "rule_id"]
        for argument in arguments:
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                found.add(argument.value)
    return found


def test_every_module_of_the_package_imports() -> None:
    failures = _import_every_module()
    assert not failures, "modules that do not import:\n" + "\n".join(
        f"  {name}: {message}" for name, message in sorted(failures.items())
    )


def test_every_catalogue_rule_is_implemented_by_a_rule_function() -> None:
    _import_every_module()
    missing = [rule.id for rule in catalogue().rules if not RULE_FUNCTIONS.get(rule.id)]
    assert not missing, f"catalogue rules without a @rule function: {', '.join(missing)}"


def test_every_rule_function_names_a_catalogue_rule() -> None:
    _import_every_module()
    rule_ids = {rule.id for rule in catalogue().rules}
    stray = {
        rule_id: [f"{f.__module__}.{f.__qualname__}" for f in functions]
        for rule_id, functions in RULE_FUNCTIONS.items()
        if rule_id not in rule_ids
    }
    assert not stray, f"@rule IDs missing from spec/rules.toml: {stray}"


def test_every_catalogue_rule_is_exercised_by_a_test() -> None:
    named, _ = _tests_naming_each_id(catalogue())
    untested = sorted(rule_id for rule_id, tests in named.items() if not tests)
    assert not untested, (
        f"{len(untested)} catalogue rules are named by no test (in the test's name, as "
        f"..._RULE_ID, or in its body, as \"RULE-ID\"): {', '.join(untested)}"
    )


def test_every_rule_id_named_in_the_tests_is_in_the_catalogue() -> None:
    _, unknown = _tests_naming_each_id(catalogue())
    assert not unknown, "names in tests that are not catalogue rule or interpretation IDs:\n" + (
        "\n".join(f"  {item}" for item in unknown)
    )


def test_every_rule_id_named_in_the_code_is_in_the_catalogue() -> None:
    known = _known_ids(catalogue())
    unknown = [
        f"{path.relative_to(PACKAGE.parent)}: {name}"
        for path in _code_files()
        for name in sorted(_ids_named_in_code(path))
        if name not in known
    ]
    assert not unknown, "IDs named in the code but not in the catalogue:\n" + "\n".join(
        f"  {item}" for item in unknown
    )


def test_every_id_named_in_the_documentation_and_the_spec_is_in_the_catalogue() -> None:
    known = _known_ids(catalogue())
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
    pages += sorted((REPO / "spec").glob("*.md"))
    unknown = [
        f"{page.relative_to(REPO)}: {name}"
        for page in pages
        if page.exists()
        for name in sorted(mentions_in_text(page.read_text(encoding="utf-8")))
        if name not in known
    ]
    assert not unknown, "IDs named in README.md, docs/ or spec/ but not in the catalogue:\n" + (
        "\n".join(f"  {item}" for item in unknown)
    )


def _rule_ids_in_json(value: object) -> Iterator[str]:
    """The strings under the keys ``rule`` and ``rules`` anywhere in a JSON value."""
    if isinstance(value, dict):
        for key, item in value.items():
            if key in ("rule", "rules"):
                names = item if isinstance(item, list) else [item]
                yield from (name for name in names if isinstance(name, str))
            yield from _rule_ids_in_json(item)
    elif isinstance(value, list):
        for item in value:
            yield from _rule_ids_in_json(item)


def test_every_rule_id_in_the_spec_data_is_in_the_catalogue() -> None:
    rule_ids = {rule.id for rule in catalogue().rules}
    unknown = [
        f"{path.relative_to(REPO)}: {name}"
        for path in sorted((REPO / "spec").rglob("*.json"))
        for name in sorted(set(_rule_ids_in_json(json.loads(path.read_text(encoding="utf-8")))))
        if RULE_ID.fullmatch(name) and name not in rule_ids
    ]
    assert not unknown, "rule IDs in spec/**/*.json but not in the catalogue:\n" + "\n".join(
        f"  {item}" for item in unknown
    )


def test_every_interpretation_cites_existing_rules() -> None:
    cat = catalogue()
    rule_ids = {rule.id for rule in cat.rules}
    dangling = [
        f"{entry.id} cites {rule_id}"
        for entry in cat.interpretations
        for rule_id in entry.rules
        if rule_id not in rule_ids
    ]
    assert not dangling, f"interpretations citing unknown rules: {dangling}"


def test_every_rule_without_a_source_is_covered_by_an_interpretation() -> None:
    cat = catalogue()
    bare = [rule.id for rule in cat.rules if not rule.sources and not cat.interpretations_for(rule.id)]
    assert not bare, f"rules with neither a source nor an interpretation: {bare}"


@pytest.mark.parametrize("rule_id", [rule.id for rule in catalogue().rules])
def test_the_rule_functions_of_each_rule_say_which_rule_they_implement(rule_id: str) -> None:
    _import_every_module()
    for function in RULE_FUNCTIONS.get(rule_id, []):
        assert rule_id_of(function) == rule_id


# The core modules whose rules belong to a catalogue phase that has no module in ``rules/``.
CORE_PHASES = {
    "bottleimp._cards": "config",
    "bottleimp._editions": "config",
    "bottleimp._config": "config",
    "bottleimp._view": "views",
}


def test_each_rule_function_lives_in_the_module_of_its_catalogue_phase() -> None:
    """A rule in ``bottleimp/rules/`` lives in the module named after its phase (``deal``,
    ``setup``, ``play``, ``scoring``, ``game``); the configuration and view rules live in the
    core modules of those names (``bottleimp.rules.config`` names the configuration's)."""
    known = catalogue()
    misplaced = []
    for rule_id, functions in RULE_FUNCTIONS.items():
        phase = known.rule(rule_id).phase
        for function in functions:
            module = function.__module__
            expected = (
                module.removeprefix("bottleimp.rules.")
                if module.startswith("bottleimp.rules.")
                else CORE_PHASES.get(module)
            )
            if expected != phase:
                misplaced.append(f"{rule_id} ({phase}): {module}.{function.__name__}")
    assert not misplaced, "rule functions outside their phase's module:\n" + "\n".join(misplaced)
    # ``config`` names the configuration's rules, which live beside the types they check.
    rule_modules = {path.stem for path in (PACKAGE / "rules").glob("*.py")} - {
        "__init__", "_registry", "config"}
    assert rule_modules == {phase for phase, _ in known.phases} - set(CORE_PHASES.values())

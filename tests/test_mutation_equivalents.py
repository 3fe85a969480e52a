"""Each mutant of the rule modules that ``scripts/equivalent_mutants.toml`` lists as equivalent
is applied on purpose and the exhaustive walks of two small games run against it (every check at
every state): the walks pass with the same counts as the unmutated rules. This documents the
claim and tries to kill each one; a mutant that the walks kill is no longer equivalent and must
leave the list with a test of its own.

The tests are parametrized by the IDs the list names (reading it is cheap); each module's
mutants are built when a test first needs them, once per process, not at collection by every
worker. Under the ``dev`` profile (``depth.py``) every mutant still gets its kill attempt, on
fewer of the corpus texts and states (``_TEXT_STRIDE``, ``_STATE_STRIDE``)."""

from __future__ import annotations

import cProfile
import dataclasses
import importlib
import itertools
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from bottleimp._errors import BottleImpError
from bottleimp.rules import _registry as registry
from depth import scaled
from test_exhaustive import BY_NAME, EXHAUSTIVE, EXPECTED
from test_mutation_script import _script, mutants

RULE_MODULES = ("play", "scoring", "setup", "deal", "game")
WALKS = ("6p-23cards-2bottles", "6p-17cards-teams")
"""Small walks with two bottles and with teams (at level ``sweep``: every transition check, the
legal actions, zones, totals, seeded deals and refusals of the parent's and siblings' actions)."""


def _walk(name: str) -> Any:
    return EXHAUSTIVE.run(dataclasses.replace(BY_NAME[name], level="sweep"))


@contextmanager
def mutated(mutant: Any) -> Iterator[None]:
    """The rule module with ``mutant`` applied: its mutated source is executed as a fresh module
    and every name the module defines is swapped in (the engine reads the rules through their
    module's attributes), then put back."""
    module: ModuleType = importlib.import_module(
        "bottleimp.rules." + mutant.path.rsplit("/", 1)[-1].removesuffix(".py"))
    saved = dict(vars(module))
    # The lists too: executing the mutant appends its functions to the registry's lists.
    rule_functions = {rule_id: list(functions) for rule_id, functions in registry.RULE_FUNCTIONS.items()}
    rule_ids = dict(registry.RULE_IDS)
    namespace: dict[str, Any] = {"__name__": module.__name__, "__package__": "bottleimp.rules"}
    exec(compile(mutant.source, mutant.path, "exec"), namespace)
    try:
        for name, value in namespace.items():
            if not name.startswith("__"):
                setattr(module, name, value)
        yield
    finally:
        for name in list(namespace):
            if not name.startswith("__"):
                setattr(module, name, saved[name]) if name in saved else delattr(module, name)
        registry.RULE_FUNCTIONS.clear()
        registry.RULE_FUNCTIONS.update(rule_functions)
        registry.RULE_IDS.clear()
        registry.RULE_IDS.update(rule_ids)


LISTED = tuple(_script().load_equivalents())
RULE_MUTANTS = tuple(ident for ident in LISTED if ident.split(":", 1)[0] in RULE_MODULES)
"""The IDs of the listed mutants of the rule modules, in the list's order."""


def _rule_module(ident: str) -> str:
    return f"bottleimp/rules/{ident.split(':', 1)[0]}.py"


def test_every_listed_mutant_of_a_rule_module_is_tried() -> None:
    assert all(ident in mutants(_rule_module(ident)) for ident in RULE_MUTANTS)
    assert len(RULE_MUTANTS) >= 4


@pytest.mark.parametrize("ident", RULE_MUTANTS)
def test_an_equivalent_mutant_passes_the_exhaustive_walks(ident: str) -> None:
    mutant = mutants(_rule_module(ident))[ident]
    with mutated(mutant):
        for name in WALKS:
            summary = _walk(name)
            found = (summary.deals, summary.states, summary.transitions, summary.terminal)
            assert found == EXPECTED[name], (mutant.ident, name)


def test_a_mutant_that_changes_behaviour_fails_the_walks() -> None:
    """The harness can kill: a mutant not listed (a card above the price buys the bottle)
    fails the same walks."""
    killable = mutants("bottleimp/rules/play.py")["play:buys_bottle:9c086a3250:compare:Lt>Gt@0"]
    with mutated(killable), pytest.raises(AssertionError):
        for name in WALKS:
            _walk(name)


# -- the other targets: the engine, the record reader, the validator, the state JSON, config ----

OTHER_MODULES = {
    "engine": "bottleimp/_engine.py",
    "transitions": "bottleimp/_transitions.py",
    "json_input": "bottleimp/formats/_json_input.py",
    "records": "bottleimp/formats/_records.py",
    "setup_entries": "bottleimp/formats/_setup_entries.py",
    "state_json": "bottleimp/formats/_state_json.py",
    "replay": "bottleimp/validation/_replay.py",
    "config": "bottleimp/_config.py",
}
"""Every module besides the rules that ``equivalent_mutants.toml`` lists mutants of."""

DATA = Path(__file__).resolve().parent / "data"
_MISSING = object()
_TEXT_STRIDE = scaled(ci=1, dev=8)
"""A mutant is run on every text of the corpus that reaches its function (``dev``: every 8th of
them, the first included, and every text at the JSON reader's limits)."""
_STATE_STRIDE = scaled(ci=13, dev=78)
"""The state JSON is checked on every 13th state of two walks (``dev``: every 78th)."""


ON_THE_CORPUS = pytest.mark.xdist_group("mutation-corpus")
"""The tests of the other modules' mutants share the corpus baselines and the mutants (cached
per process): one worker computes them once."""


def _other_mutant(ident: str) -> Any:
    return mutants(OTHER_MODULES[ident.split(":", 1)[0]])[ident]


def _package_modules() -> list[ModuleType]:
    return [module for name, module in list(sys.modules.items())
            if (name == "bottleimp" or name.startswith("bottleimp.")) and module is not None]


@contextmanager
def mutated_everywhere(mutant: Any) -> Iterator[dict[str, Any]]:
    """``mutant``'s module executed afresh from its mutated source, and every function, class and
    table of the package that is one of the module's own objects (its own attributes, and the
    names other modules imported from it) swapped for the mutated one, then put back; the
    package's function caches are emptied before and after. Yields the mutated namespace."""
    name = "bottleimp." + mutant.path.removeprefix("bottleimp/").removesuffix(".py").replace(
        "/", ".")
    module = importlib.import_module(name)
    originals = {attr: value for attr, value in vars(module).items()
                 if not attr.startswith("__")
                 and (callable(value) or isinstance(value, (dict, list, set)))}
    by_identity = {id(value): attr for attr, value in originals.items()}
    rule_functions = {rid: list(fns) for rid, fns in registry.RULE_FUNCTIONS.items()}
    rule_ids = dict(registry.RULE_IDS)
    namespace: dict[str, Any] = {"__name__": name, "__package__": name.rpartition(".")[0]}
    exec(compile(mutant.source, mutant.path, "exec"), namespace)
    swapped: list[tuple[ModuleType, str, Any]] = []
    _script()._clear_caches()
    try:
        for holder in _package_modules():
            for attr, value in list(vars(holder).items()):
                own = by_identity.get(id(value))
                if own is None or originals[own] is not value:
                    continue
                new = namespace.get(own, _MISSING)
                if new is not _MISSING:
                    swapped.append((holder, attr, value))
                    setattr(holder, attr, new)
        yield namespace
    finally:
        for holder, attr, value in reversed(swapped):
            setattr(holder, attr, value)
        registry.RULE_FUNCTIONS.clear()
        registry.RULE_FUNCTIONS.update(rule_functions)
        registry.RULE_IDS.clear()
        registry.RULE_IDS.update(rule_ids)
        _script()._clear_caches()


def _perturbed(record: dict[str, Any]) -> Iterator[Any]:
    """The record with the value at each path of its first three levels (first and last item of
    each array) replaced in turn by an object and by a string, and a few shapes more: the
    records that the replay reports unreadable or broken."""
    def paths(value: Any, at: tuple[Any, ...], depth: int) -> Iterator[tuple[Any, ...]]:
        yield at
        if depth == 3:
            return
        if isinstance(value, dict):
            for key in value:
                yield from paths(value[key], (*at, key), depth + 1)
        elif isinstance(value, list) and value:
            for index in sorted({0, len(value) - 1}):
                yield from paths(value[index], (*at, index), depth + 1)

    for path in list(paths(record, (), 0))[1:]:
        replacements: tuple[object, ...] = ({}, "x")
        for replacement in replacements:
            copy = json.loads(json.dumps(record))
            holder = copy
            for step in path[:-1]:
                holder = holder[step]
            if type(holder[path[-1]]) is type(replacement):
                continue
            holder[path[-1]] = replacement
            yield copy
    rounds = record["rounds"]
    for shorter in ({**rounds[0], "setup": rounds[0]["setup"][:-1]},
                    {**rounds[0], "setup": rounds[0]["setup"][:1]},
                    {**rounds[0], "plays": rounds[0]["plays"][:-1]}):
        yield {**record, "rounds": [shorter]}
    yield {**record, "config": {**record["config"], "deck": [[1, "red", 1]]}}


_TEXTS = (
    "[" * 64 + "]" * 64, "[" * 65 + "]" * 65, '["[[[", "\\"]"]', '{"a": "\\\\", "b": [1, {"c": 2}]}',
    "1" * 100, "1" * 101, "-" + "1" * 101, '{"a": 1, "b": {"a": 2, "a": 3}}', '{"a": 1, "a": 1}',
    '[{"_x": 1, "_x": 2}]', "[1e400]", '{"a": [' * 30 + "]}" * 30, "NaN", "",
)


def _plain(record: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in record.items() if not key.startswith("_")}


@cache
def _corpus() -> tuple[str, ...]:
    """Texts of records: every file of ``tests/data/records``, the conformance records, the
    perturbed records of two valid games (2 players mid-trick, 4 players mid-setup) and texts at
    the JSON reader's limits."""
    files = sorted(DATA.glob("records/*/*.json")) + sorted(
        (DATA.parent.parent / "spec" / "conformance" / "record").glob("*.json"))
    texts = [path.read_text() for path in files]
    # The data files carry an `_expected` extension: without it.
    texts += [json.dumps(_plain(json.loads(path.read_text())))
              for path in sorted(DATA.glob("records/*/*.json")) if "unreadable" not in str(path)]
    for base in ("partial-2p-mid-trick", "partial-4p-mid-setup"):
        record = _plain(json.loads((DATA / "records" / "valid" / f"{base}.json").read_text()))
        texts += [json.dumps(value) for value in _perturbed(record)]
    return (*texts, *_TEXTS)


def _read(text: str) -> object:
    """What the record reader says of one text: the parsed value or the JSON reader's error,
    whether the value is within the reader's limits, and the record read from it or the
    record reader's error (the whole contract of ``formats/json_input``, ``records`` and
    ``setup_entries`` with the validator)."""
    from bottleimp.formats import _json_input as json_input, _records as records

    try:
        value = json_input.loads_json(text)
    except BottleImpError as error:
        return (type(error).__name__, str(error))
    try:
        json_input.check_json_value(value)
        limits: object = None
    except BottleImpError as error:
        limits = (type(error).__name__, str(error))
    try:
        record: object = repr(records.parse_record(value))
    except BottleImpError as error:
        record = (type(error).__name__, str(error), getattr(error, "rule_id", None))
    return (value, limits, record)


def _outcome(number: int, text: str) -> object:
    """What the reader and the validator say of one text: the reader's error, or the whole JSON
    report of the validation (and, for every fourth text, of the engine replay too), read
    through the modules' attributes so that a swapped mutant is the one called."""
    from bottleimp.formats import _json_input as json_input
    from bottleimp.validation import _replay as replay

    try:
        value = json_input.loads_json(text)
    except BottleImpError as error:
        return (type(error).__name__, str(error))
    reports = [replay.validate_json(value)]
    if number % 4 == 0:
        reports += replay.validate_values([value], ["<record>"])
    return [replay.report_to_json(report) for report in reports]


def _profiled(run: Any) -> tuple[object, frozenset[tuple[str, str]]]:
    """``run()`` and the package functions it calls (file, name), as the standard library's
    profiler in C records them (a profile hook in Python made the baselines three times
    slower, for the same functions)."""
    profiler = cProfile.Profile()
    profiler.enable()
    try:
        found = run()
    finally:
        profiler.disable()
    codes = [entry.code for entry in profiler.getstats() if not isinstance(entry.code, str)]
    return found, frozenset((Path(code.co_filename).name, code.co_name) for code in codes
                            if "bottleimp" in code.co_filename)


@cache
def _corpus_baseline(reader: bool) -> tuple[tuple[object, frozenset[tuple[str, str]]], ...]:
    """For each text of the corpus, the unmutated answer (of the reader alone, or of the whole
    validation) and the package functions it calls, so that a mutant is run on the texts that
    reach its function."""
    found = []
    for number, text in enumerate(_corpus()):
        _script()._clear_caches()  # a cached function is reached by every text that needs it
        found.append(_profiled(lambda: _read(text) if reader else _outcome(number, text)))
    return tuple(found)


def _reaches(mutant: Any, calls: frozenset[tuple[str, str]]) -> bool:
    if not mutant.in_function:
        return True  # a line run at import, a class body: every text
    return (Path(mutant.path).name, mutant.function.rsplit(".", 1)[-1]) in calls


@cache
def _file_count() -> int:
    """The data files and their plain copies come first in the corpus."""
    return 2 * len(list(DATA.glob("records/*/*.json"))) + len(
        list((DATA.parent.parent / "spec" / "conformance" / "record").glob("*.json"))) - len(
        list(DATA.glob("records/unreadable/*.json")))


def _corpus_differences(mutant: Any, reader: bool, files_only: bool = False) -> list[int]:
    """The numbers of the corpus texts (those that reach the mutant's function, every
    ``_TEXT_STRIDE``-th of them and those at the reader's limits; with ``files_only`` the data
    files alone) whose answer (the reader's, or the whole validation's) the mutant changes."""
    corpus = _corpus()
    baseline = _corpus_baseline(reader)
    reached = [number for number, (_, calls) in enumerate(baseline)
               if (number < _file_count() or not files_only) and _reaches(mutant, calls)]
    limits = len(corpus) - len(_TEXTS)
    run = [number for index, number in enumerate(reached)
           if index % _TEXT_STRIDE == 0 or number >= limits]
    return [number for number in run if (_read(corpus[number]) if reader
                                         else _outcome(number, corpus[number]))
            != baseline[number][0]]


def _state_json_behaviour() -> list[object]:
    """Every 13th state (``dev``: 39th) of two small walks written and read back: the text and
    the equality."""
    from bottleimp.formats import _state_json as state_json

    found: list[object] = []
    for name in ("3p-8cards-2rounds", "6p-23cards-2bottles"):
        for _, _, state in itertools.islice(EXHAUSTIVE.transitions(BY_NAME[name]), 0, None,
                                              _STATE_STRIDE):
            text = state_json.state_dumps(state)
            found.append((text, state_json.state_loads(text) == state))
    return found


def _setup_entries_behaviour() -> list[object]:
    """The gives read from setup entries (the conformance vectors' and the peer's reader, which
    no record reaches) at paths of every depth, and the errors of entries with a card of no deck."""
    from bottleimp import Config
    from bottleimp.formats import _setup_entries as setup_entries

    found: list[object] = []
    entries: tuple[tuple[Config, Any], ...] = (
        (Config(players=3), {"discard": [1], "left": 2, "right": 3}),
        (Config(players=2), {"discard": [1, 2], "to_face_up": 3, "to_hidden": 4}),
        (Config(players=3), {"discard": [1], "left": 2, "right": 99}))
    for config, entry in entries:
        for path in ("$", "$.rounds[0].setup[1]", "$.a.b.c", "$['x.y']"):
            try:
                found.append(setup_entries.gives_from_entry(config, 1, entry, path))
            except BottleImpError as error:
                found.append((type(error).__name__, str(error)))
    return found


def _walks_behaviour() -> list[object]:
    return [(summary.states, summary.terminal) for summary in map(_walk, WALKS)]


@cache
def _unmutated(check: Any) -> list[object]:
    _script()._clear_caches()
    return check()  # type: ignore[no-any-return]


def _config_behaviour(config_class: Any) -> list[object]:
    """Configurations of every player count, edition and variant, and 2-player decks of every
    size: whether each is accepted (its repr) or refused (the error), which of them are equal,
    and that equal ones hash alike."""
    from bottleimp import Card, Colour
    from bottleimp import _editions as editions

    options: list[dict[str, Any]] = []
    for players in range(1, 8):
        for edition in (None, *editions.EDITIONS):
            options.append({"players": players, "edition": edition})
        options += [{"players": players, "bottles": 2}, {"players": players, "rounds": 3},
                    {"players": players, "target_score": 50}]
    for size in range(0, 40, 3):
        deck = tuple(Card(rank, Colour.RED, 1) for rank in range(1, size + 1))
        options += [{"players": 2, "deck": deck}, {"players": 3, "deck": deck}]
    built: list[Any] = []
    found: list[object] = []
    for option in options:
        try:
            config = config_class(**option)
        except (BottleImpError, TypeError, ValueError) as error:
            found.append((type(error).__name__, str(error)))
            continue
        built.append(config)
        found.append(repr(config))
    found.append([[a == b for b in built] for a in built])
    assert all(hash(a) == hash(b) for a in built for b in built if a == b)
    return found


OTHER_MUTANTS = tuple(ident for ident in LISTED if ident.split(":", 1)[0] not in RULE_MODULES)
"""The IDs of the listed mutants of every other module, in the list's order."""


@ON_THE_CORPUS
def test_every_listed_mutant_of_another_module_is_tried() -> None:
    for ident in OTHER_MUTANTS:
        module = ident.split(":", 1)[0]
        assert module in OTHER_MODULES and ident in mutants(OTHER_MODULES[module]), ident
    assert OTHER_MUTANTS, "the list names no mutant outside the rule modules"


_BY_WALKS = ("engine", "transitions")
_READER = ("json_input", "records", "setup_entries")


@ON_THE_CORPUS
@pytest.mark.parametrize("ident", OTHER_MUTANTS)
def test_an_equivalent_mutant_of_another_module_changes_nothing_it_is_run_on(ident: str) -> None:
    """The mutant, swapped in wherever the package holds its module's objects, gives the same
    answers as the unmutated code. The engine and transitions: two exhaustive walks, the state
    JSON of their states and the validation of every data file. The state JSON: its states. The
    validator: the validation of the corpus of records (every data file, the perturbed records,
    texts at the reader's limits) that reaches the mutated function. The reader: what it reads
    from each text of the corpus that reaches the function, and the validation of every data
    file. The configuration: configurations of every kind."""
    mutant = _other_mutant(ident)
    module = ident.split(":", 1)[0]
    if module == "config":
        from bottleimp import _config as config

        expected_configs = _config_behaviour(config.Config)
        with mutated_everywhere(mutant) as namespace:
            assert _config_behaviour(namespace["Config"]) == expected_configs, mutant.ident
        return
    checks = (_walks_behaviour, _state_json_behaviour) if module in _BY_WALKS else {
        "state_json": (_state_json_behaviour,),
        "setup_entries": (_setup_entries_behaviour,)}.get(module, ())
    expected = [_unmutated(check) for check in checks]
    reader = module in _READER
    if module != "state_json":
        _corpus_baseline(False)
        _corpus_baseline(True)
    with mutated_everywhere(mutant):
        for check, before in zip(checks, expected):
            assert check() == before, (mutant.ident, check.__name__)
        if module != "state_json":
            changed = _corpus_differences(mutant, False, files_only=module in _BY_WALKS or reader)
            if reader:
                changed += _corpus_differences(mutant, True)
            assert not changed, (mutant.ident, [_corpus()[n][:80] for n in changed[:3]])


@ON_THE_CORPUS
def test_a_mutant_of_another_module_that_changes_behaviour_fails() -> None:
    """The harness can kill: mutants not listed fail it (the reader's nesting limit one level
    higher; every play of a record refused; the report's totals written when there are none)."""
    wanted = ("json_input:<module>:8e19e9cc41:const:64>65",
              "records:_parse_play:bcaf40c050:compare:NotEq>Eq@0",
              "replay:report_to_json:fed41867de:compare:Is>IsNot@0")
    _corpus_baseline(False)
    _corpus_baseline(True)
    for ident in wanted:
        reader = ident.split(":", 1)[0] in _READER
        killable = _other_mutant(ident)
        with mutated_everywhere(killable):
            try:
                changed = _corpus_differences(killable, reader)
            except Exception:  # noqa: BLE001 - a mutant that crashes is killed too
                changed = [-1]
        assert changed, ident

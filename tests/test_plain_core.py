"""The reference keeps nothing of its own: the core (``bottleimp/*.py``) and its rules
(``bottleimp/rules/``) hold no module-level mutable state and no cache, so the cards, decks,
states and actions of a game live exactly as long as the caller keeps them.

Two checks: every value a core module binds at module level is immutable (numbers, strings,
tuples and frozensets of immutable values, read-only mappings, functions, classes, enum members,
frozen attrs values), but the rule registry, which ``@rule`` fills while the rule modules are
imported and nothing writes after; and the games of many custom decks, played and dropped,
leave none of their configurations, cards, actions or states alive once collected.
"""

from __future__ import annotations

import ast
import enum
import gc
import importlib
import operator
import pkgutil
import random
import types
import typing
import weakref
from pathlib import Path

import attrs

import bottleimp
from bottleimp import Card, Colour, Config, apply, legal_actions, new_game, view

PACKAGE = Path(bottleimp.__file__).resolve().parent
SOURCE = Path(__file__).resolve().parent.parent / "bottleimp"

REGISTRY = {"bottleimp.rules._registry.RULE_FUNCTIONS", "bottleimp.rules._registry.RULE_IDS"}
"""The one exception: rule ID <-> function, written by ``@rule`` at import and only read after."""


def core_modules() -> list[types.ModuleType]:
    """Every module of the core and of ``rules/`` (``__main__`` left out: it runs the CLI)."""
    names = [f"bottleimp.{info.name}" for info in pkgutil.iter_modules([str(PACKAGE)])
             if not info.ispkg and info.name != "__main__"]
    names += [f"bottleimp.rules.{info.name}"
              for info in pkgutil.iter_modules([str(PACKAGE / "rules")])]
    return [importlib.import_module(name) for name in ["bottleimp", *names]]


def assigned_names(module: types.ModuleType) -> list[str]:
    """The names ``module`` binds by an assignment at module level (also inside a top-level
    ``if`` or ``try``), ``__all__`` and other dunder names left out: what the module itself
    keeps, as against what it imports or defines with ``def`` and ``class``."""
    # The source in the repository: in the compiled build the module's file is a shared library.
    parts = module.__name__.split(".")[1:] or ["__init__"]
    source = SOURCE.joinpath(*parts).with_suffix(".py")
    tree = ast.parse(source.read_text(encoding="utf-8"))
    names: list[str] = []
    pending: list[ast.stmt] = list(tree.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Assign):
            names += [target.id for target in node.targets if isinstance(target, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, (ast.If, ast.Try)):
            pending += node.body + node.orelse + getattr(node, "finalbody", [])
            pending += [stmt for handler in getattr(node, "handlers", []) for stmt in handler.body]
    return [name for name in names if not (name.startswith("__") and name.endswith("__"))]


def is_immutable(value: object) -> bool:
    """Whether ``value`` cannot change: a scalar, a function, a class, a module, an enum member,
    a typing construct, a tuple or frozenset of such, a read-only mapping of such, or a frozen
    attrs value whose fields are such."""
    if value is None or isinstance(value, (bool, int, float, complex, str, bytes, range)):
        return True
    if isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type, types.ModuleType,
                          enum.Enum, operator.attrgetter, typing.TypeVar, types.UnionType,
                          types.GenericAlias)):
        return True
    if type(value).__module__ == "typing":  # Final, Callable[...], a type alias
        return True
    if isinstance(value, (tuple, frozenset)):
        return all(is_immutable(item) for item in value)
    if isinstance(value, types.MappingProxyType):
        return all(is_immutable(k) and is_immutable(v) for k, v in value.items())
    kind = type(value)
    if attrs.has(kind):
        frozen = kind.__setattr__ is not object.__setattr__
        return frozen and all(is_immutable(getattr(value, field.name))
                              for field in attrs.fields(kind))
    return False


def test_the_core_binds_no_mutable_value_at_module_level() -> None:
    mutable = [
        f"{module.__name__}.{name}: {type(getattr(module, name)).__name__}"
        for module in core_modules()
        for name in assigned_names(module)
        if f"{module.__name__}.{name}" not in REGISTRY and not is_immutable(getattr(module, name))
    ]
    assert mutable == []


def test_the_check_of_module_level_values_finds_a_dict_a_list_and_a_mutable_attrs_value() -> None:
    @attrs.define
    class Mutable:
        value: int

    @attrs.frozen
    class Holder:
        value: object

    mutable: list[object] = [{1: 2}, [1], {1}, Mutable(1), (1, [2]), Holder([1]),
                             types.MappingProxyType({1: [2]})]
    immutable: list[object] = [types.MappingProxyType({1: (2,)}), (1, "a", None),
                               frozenset({1.5}), Holder((1,)), Colour.RED]
    assert [value for value in mutable if is_immutable(value)] == []
    assert [value for value in immutable if not is_immutable(value)] == []


def custom_deck(k: int) -> tuple[Card, ...]:
    """Nine cards of three colours with ranks no edition has (``k`` sets them apart)."""
    colours = (Colour.RED, Colour.BLUE, Colour.YELLOW)
    return tuple(Card(100 * k + rank + 0.5, colours[rank % 3], rank % 4) for rank in range(1, 10))


def test_games_of_many_custom_decks_leave_nothing_alive_once_dropped() -> None:
    alive: list[weakref.ref[object]] = []
    rng = random.Random(3)
    for k in range(1, 201):
        config = Config(players=3, deck=custom_deck(k), rounds=1)
        state = new_game(config, seed=k)
        actions = legal_actions(state)
        for _ in range(12):
            actions = legal_actions(state)
            state = apply(state, actions[rng.randrange(len(actions))])
        seen = view(state, 0)
        alive += [weakref.ref(config), weakref.ref(config.cards[0]), weakref.ref(state),
                  weakref.ref(actions[0]), weakref.ref(seen)]
        del config, state, actions, seen
    gc.collect()
    kept = [ref() for ref in alive if ref() is not None]
    assert kept == [], f"{len(kept)} of {len(alive)} objects kept alive, e.g. {kept[:3]}"

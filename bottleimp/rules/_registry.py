"""The registry that ties each rule function to its stable rule ID in ``spec/rules.toml``.

The tag leaves the function untouched (it sets no attribute on it): the registry maps rule IDs
to functions and functions to rule IDs, so the same source compiles with mypyc, whose compiled
functions take no new attributes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

F = TypeVar("F", bound=Callable[..., object])

RULE_FUNCTIONS: Final[dict[str, list[Callable[..., object]]]] = {}
"""Rule ID -> the functions that implement it (the traceability test reads this)."""

RULE_IDS: Final[dict[Callable[..., object], str]] = {}
"""Rule function -> the rule ID it implements (see ``rule_id_of``)."""


def rule(rule_id: str) -> Callable[[F], F]:
    """Tag a pure function as the implementation of rule ``rule_id``."""

    def tag(function: F) -> F:
        RULE_FUNCTIONS.setdefault(rule_id, []).append(function)
        RULE_IDS[function] = rule_id
        return function

    return tag


def rule_id_of(function: Callable[..., object]) -> str | None:
    """The rule ID ``function`` was tagged with, or ``None`` when it is not a rule function."""
    return RULE_IDS.get(function)

"""The registry that ties each rule function to its stable rule ID in ``spec/rules.toml``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Final, TypeVar

F = TypeVar("F", bound=Callable[..., object])

RULE_FUNCTIONS: Final[dict[str, list[Callable[..., object]]]] = {}
"""Rule ID -> the functions that implement it (the traceability test reads this)."""


def rule(rule_id: str) -> Callable[[F], F]:
    """Tag a pure function as the implementation of rule ``rule_id``."""

    def tag(function: F) -> F:
        RULE_FUNCTIONS.setdefault(rule_id, []).append(function)
        function.rule_id = rule_id  # type: ignore[attr-defined]
        return function

    return tag

"""The error taxonomy. Every error that a rule raises carries that rule's ID.

- ``BottleImpError``: the base of every error the library raises on purpose.
- ``ConfigError`` (a ``ValueError``): a configuration no source defines, refused at construction.
- ``IllegalActionError`` (a ``ValueError``): an action the rules forbid in this state; the state
  it was tried on is unchanged (states are immutable).
- ``RecordError`` (a ``ValueError``): input that is not a readable record or state; it names the
  JSON path of the fault.
- ``EncodingError`` (a ``ValueError``): a number that is no action's, or an action with no number.
- ``GameNotOverError`` (a ``ValueError``): a game's result asked before it has ended.
"""

from __future__ import annotations


class BottleImpError(Exception):
    """Base class of the library's errors."""


class ConfigError(BottleImpError, ValueError):
    """A configuration that no source defines. ``rule_id`` names the configuration rule."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"[{rule_id}] {message}")
        self.rule_id = rule_id
        self.message = message


class IllegalActionError(BottleImpError, ValueError):
    """An action the rules forbid. ``rule_id`` names the broken rule; ``message`` says why."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"[{rule_id}] {message}")
        self.rule_id = rule_id
        self.message = message


class RecordError(BottleImpError, ValueError):
    """Input that is not a readable record or state. ``path`` is the JSON path of the fault;
    ``rule_id`` names the rule it breaks when it is readable but breaks one (else ``None``)."""

    def __init__(self, path: str, message: str, rule_id: str | None = None) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message
        self.rule_id = rule_id


class EncodingError(BottleImpError, ValueError):
    """A number that encodes no action of a configuration, or an action that has no number in it
    (see ``bottleimp.encoding``)."""


class GameNotOverError(BottleImpError, ValueError):
    """A result (such as the winners) asked of a game that has not ended."""

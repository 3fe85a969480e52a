"""The errors the library raises on purpose, by one policy: a move against the rules raises
``IllegalActionError`` with its rule ID, a bad configuration ``ConfigError`` with its rule ID,
a bad record ``RecordError`` with its JSON path, a wrong argument of any kind ``ArgumentError``
naming the argument; anything else is a bug of the library and surfaces as itself.

All four are ``BottleImpError`` and ``ValueError``: the value handed in is wrong. Each keeps
its ``message`` (the sentence without the prefix) beside what it names (``rule_id``, ``path``,
``field``). A state or an action is never changed by a refusal: they are immutable.

The edge packages keep the errors of their own worlds: the catalogue's (``CatalogueError``,
``UnknownRuleError``), the bots' (``BotError``), the conformance harness's (``HarnessError``,
``PeerFault``) and the batch engine's (``bottleimp.batch.BatchError``).
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


class ArgumentError(BottleImpError, ValueError):
    """A wrong argument of any kind: a value of the wrong type (``new_game(4)``, a subclass of
    ``Card``, a state put together with parts that do not fit), or one a function cannot take
    (a seat the game does not have, a rank that is no card of the deck, a number that is no
    action's, the winners of a game not over). ``field`` names the argument or field at fault
    (``"new_game(config)"``, ``"Card.coins"``, ``"apply(action).seat"``)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class RecordError(BottleImpError, ValueError):
    """Input that is not a readable record or state. ``path`` is the JSON path of the fault;
    ``rule_id`` names the rule it breaks when it is readable but breaks one (else ``None``)."""

    def __init__(self, path: str, message: str, rule_id: str | None = None) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message
        self.rule_id = rule_id


class CatalogueError(BottleImpError, ValueError):
    """A catalogue or deck file that does not follow its format. ``where`` names the file and
    place."""

    def __init__(self, where: str, message: str) -> None:
        super().__init__(f"{where}: {message}")
        self.where = where
        self.message = message


class UnknownRuleError(BottleImpError, LookupError):
    """A rule or interpretation ID that the catalogue does not list."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(message)
        self.rule_id = rule_id
        self.message = message

    def __str__(self) -> str:
        return self.message


class HarnessError(BottleImpError):
    """The harness cannot run at all (Hypothesis missing, the command cannot be started)."""


class PeerFault(BottleImpError):
    """The other side did not answer properly: ``kind`` is ``timeout``, ``crash``,
    ``malformed``, or ``disagreement`` for a greeting that is not the protocol's; ``answer`` is
    what it answered, when it answered something readable."""

    def __init__(self, kind: str, message: str, answer: object = None) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.answer = answer


class BotError(BottleImpError, ValueError):
    """A bot asked for by a name no bot has, or with a budget it cannot use (see
    ``bottleimp.bots``)."""


# Each error carries the name a caller imports it by, so that a traceback reads
# ``bottleimp.ArgumentError`` and not the private module that defines it.
for _error, _home in (
    (BottleImpError, "bottleimp"), (ConfigError, "bottleimp"), (IllegalActionError, "bottleimp"),
    (ArgumentError, "bottleimp"), (RecordError, "bottleimp"),
    (CatalogueError, "bottleimp.catalogue"), (UnknownRuleError, "bottleimp.catalogue"),
    (HarnessError, "bottleimp.conformance"), (PeerFault, "bottleimp.conformance"),
    (BotError, "bottleimp.bots"),
):
    _error.__module__ = _home
del _error, _home

"""The error taxonomy: every error the library raises on purpose is a ``BottleImpError``.

- ``ConfigError`` (a ``ValueError``): a configuration no source defines, refused at construction;
  ``rule_id`` names the configuration rule.
- ``IllegalActionError`` (a ``ValueError``): an action the rules forbid in this state; ``rule_id``
  names the broken rule, and the state it was tried on is unchanged (states are immutable).
- ``ArgumentError`` (both a ``TypeError`` and a ``ValueError``): a public function or
  constructor given a value of the wrong type, or one it cannot handle (``new_game(4)``, a card
  whose coins are ``2.0``, ``None`` where a state is needed); ``field`` names the argument or
  field at fault.
- ``MalformedActionError`` (an ``ArgumentError``): an action whose fields have the wrong types (a
  seat that is not an ``int``, a card that is not a ``Card``), refused when it is built.
- ``NoSuchSeatError`` (a ``ValueError``): a seat number that the game does not have.
- ``UnknownCardError`` (a ``LookupError``): a rank that is not a card of the game's deck.
- ``RecordError`` (a ``ValueError``): input that is not a readable record, state, action or
  protocol line; ``path`` is the JSON path of the fault, and ``rule_id`` names the rule a
  readable but forbidden value breaks (a configuration no source defines, say).
- ``CatalogueError`` (a ``ValueError``) and ``UnknownRuleError`` (a ``LookupError``): a malformed
  catalogue or deck file (``spec/rules.toml``, ``spec/decks/*.json``), and a rule or
  interpretation ID the catalogue does not list.
- ``HarnessError``: the conformance harness cannot run at all; ``PeerFault``: the implementation
  under test did not answer properly (``kind``: ``timeout``, ``crash`` or ``malformed``).
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


class ArgumentError(BottleImpError, TypeError, ValueError):
    """A value of the wrong type, or one a public function or constructor cannot handle;
    ``field`` names the argument or field at fault (``"new_game(config)"``, ``"Card.coins"``).
    Both a ``TypeError`` and a ``ValueError``, so code that caught either before keeps working."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class MalformedActionError(ArgumentError):
    """An action built from values of the wrong types; ``field`` names the field at fault."""


class NoSuchSeatError(BottleImpError, ValueError):
    """A seat number outside ``0 .. players - 1``."""

    def __init__(self, seat: object, players: int) -> None:
        super().__init__(f"there is no seat {seat!r} in a {players}-player game")
        self.seat = seat
        self.players = players


class UnknownCardError(BottleImpError, LookupError):
    """A rank that is not a card of the game's deck (``config.card(rank)``)."""

    def __init__(self, rank: object, message: str) -> None:
        super().__init__(message)
        self.rank = rank
        self.message = message

    def __str__(self) -> str:
        return self.message


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


class EncodingError(BottleImpError, ValueError):
    """A number that encodes no action of a configuration, or an action that has no number in it
    (see ``bottleimp.encoding``)."""


class GameNotOverError(BottleImpError, ValueError):
    """A result (such as the winners) asked of a game that has not ended."""


class BotError(BottleImpError, ValueError):
    """A bot asked for by a name no bot has, or with a budget it cannot use (see
    ``bottleimp.bots``)."""

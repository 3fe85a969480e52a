"""The validator's verdicts: the exit statuses and the reports ``bottleimp validate`` gives.

Built by the engine replay (``bottleimp.validation._replay``), read by the command line, the
replay page and the conformance tools.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from .._cards import Rank
from .._state import TrickResult

__all__ = [
    "VALIDATE_REPORT_FORMAT",
    "VALID",
    "BROKEN",
    "UNREADABLE",
    "Cause",
    "Fault",
    "RoundReport",
    "ValidationReport",
]

VALIDATE_REPORT_FORMAT: Final = "bottleimp-validate-report/1"
"""The ``format`` of every JSON object ``bottleimp validate --json`` prints; its JSON Schema is
``spec/reports/validate-report.schema.json`` (a renamed or removed key bumps the version)."""

VALID: Final = 0
"""Exit status: the record is legal and every claim in it holds."""
BROKEN: Final = 1
"""Exit status: the record breaks a rule or claims a wrong score."""
UNREADABLE: Final = 2
"""Exit status: the input is not a readable record."""


@frozen
class Fault:
    """What is wrong with a record.

    For a broken rule: ``rule`` is its ID; ``round`` (the index of the round, from 0), ``play``
    (the index in the round's plays, from 0) and ``seat`` locate it when they apply (else
    ``None``); the text for people counts rounds and plays from 1. For an unreadable record: ``rule`` is
    the configuration rule when the configuration is what no source defines, else ``None``.
    ``path`` is the JSON path of the part of the record at fault."""

    rule: str | None
    """The ID of the rule broken (for an unreadable record: the configuration rule, or None)."""
    round: int | None
    """The round of the fault, from 0, when it lies in a round."""
    play: int | None
    """The index of the play in the round's plays, when a play is at fault."""
    seat: int | None
    """The seat at fault, when one is."""
    message: str
    """What is wrong, in a sentence."""
    path: str
    """The JSON path of the part of the record at fault (``$.rounds[0].plays[5]``)."""


@frozen
class Cause:
    """A cause the broken record is consistent with.

    ``rules`` are the rules the cause breaks (``SETUP-RESOLVE``, ``DECK``, ``DEALER-ROTATION``,
    ``FIRST-DEALER``); ``hypotheses`` name the changes replayed (``passes-reversed``,
    ``colours:EDITION/DECK``, ``coins:EDITION/DECK``, ``dealer:ROUND:SEAT``,
    ``dealers:counter-clockwise``, ``dealers:same-seat``, ``dealers:other``); ``rounds`` are the
    indices (from 0) of the rounds that break a rule as recorded and replay legally under the
    cause; ``whole_record`` says whether every round replays legally under it."""

    rules: tuple[str, ...]
    hypotheses: tuple[str, ...]
    message: str
    rounds: tuple[int, ...]
    whole_record: bool


@frozen
class RoundReport:
    """One round as the rules decide it. ``scores`` once the round is complete; ``devils_trick``
    once every setup is resolved (else ``None``)."""

    index: int
    """The round's number, from 0."""
    dealer: int
    """The seat that dealt it."""
    complete: bool
    """Whether every card of the round was played."""
    scores: tuple[int, ...] | None
    """Each seat's score for the round, once it is complete."""
    bottle_owners: tuple[int | None, ...]
    """Who owns each bottle at the end of the round (or of the record)."""
    devils_trick: tuple[Rank, ...] | None
    """The ranks in the Devil's Trick, once every setup is resolved."""
    tricks: tuple[TrickResult, ...]
    """What each completed trick decided (the plays, the winner, the bottle bought, the price
    before and after)."""


@frozen
class ValidationReport:
    """The verdict on one record.

    ``status`` is the exit status (``VALID``, ``BROKEN``, ``UNREADABLE``) and ``valid`` whether it
    is ``VALID``; ``errors`` holds the first fault (empty when valid). ``rounds``, ``totals``,
    ``complete`` and ``winners`` describe the game as replayed up to the end or to the fault:
    ``totals`` sums the completed rounds, ``winners`` is set once the game is over."""

    source: str
    """Where the record came from: its file name, or the name given."""
    status: int
    """``VALID`` (0), ``BROKEN`` (1) or ``UNREADABLE`` (2): the exit status."""
    errors: tuple[Fault, ...]
    """The first fault; empty when the record is valid."""
    rounds: tuple[RoundReport, ...]
    """The rounds as replayed, up to the end or to the fault."""
    totals: tuple[int, ...] | None
    """Each seat's total over the completed rounds (``None`` when unreadable)."""
    complete: bool
    """Whether the record holds a whole game, to its end."""
    winners: tuple[int, ...] | None
    """The winning seats, once the game is over."""
    causes: tuple[Cause, ...] = ()
    """For a broken record, when asked for: the likely root causes of its fault
    (``bottleimp.validation._causes``)."""
    causes_cut_short: bool = False
    """Whether the search for causes stopped at its limit (``MAX_SEARCH_VALUES``) before
    trying every cause: ``causes`` are then those it had checked in full."""
    notes: tuple[Fault, ...] = ()
    """Where the record departs from a convention of the library (a rule whose ``kind`` is
    ``convention`` in ``spec/rules.toml``, e.g. SETUP-ORDER): noted, never a broken rule, so
    they leave the status as it is."""

    @property
    def valid(self) -> bool:
        """True when the record is legal and every claim holds."""
        return self.status == VALID

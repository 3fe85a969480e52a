"""The validator's verdicts: the exit statuses and the reports ``bottleimp validate`` gives.

Shared by the engine replay (``bottleimp.validate``) and its fast lane (``bottleimp.fast_lane``),
which must give equal reports for every record the fast lane accepts.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from .cards import Rank

__all__ = [
    "VALID",
    "BROKEN",
    "UNREADABLE",
    "Fault",
    "TrickReport",
    "RoundReport",
    "ValidationReport",
]

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
    round: int | None
    play: int | None
    seat: int | None
    message: str
    path: str


@frozen
class TrickReport:
    """One trick as the rules decide it: its winner, the bottle bought (its index) or ``None``,
    and the price of the bottles after it (the highest price, which the next trick is played
    against)."""

    winner: int
    bottle: int | None
    price: Rank


@frozen
class RoundReport:
    """One round as the rules decide it. ``scores`` once the round is complete; ``devils_trick``
    once every setup is resolved (else ``None``)."""

    index: int
    dealer: int
    complete: bool
    scores: tuple[int, ...] | None
    bottle_owners: tuple[int | None, ...]
    devils_trick: tuple[Rank, ...] | None
    tricks: tuple[TrickReport, ...]


@frozen
class ValidationReport:
    """The verdict on one record.

    ``status`` is the exit status (``VALID``, ``BROKEN``, ``UNREADABLE``) and ``valid`` whether it
    is ``VALID``; ``errors`` holds the first fault (empty when valid). ``rounds``, ``totals``,
    ``complete`` and ``winners`` describe the game as replayed up to the end or to the fault:
    ``totals`` sums the completed rounds, ``winners`` is set once the game is over."""

    source: str
    status: int
    errors: tuple[Fault, ...]
    rounds: tuple[RoundReport, ...]
    totals: tuple[int, ...] | None
    complete: bool
    winners: tuple[int, ...] | None

    @property
    def valid(self) -> bool:
        """True when the record is legal and every claim holds."""
        return self.status == VALID

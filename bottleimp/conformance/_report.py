"""What a run found, as the report (``HarnessReport``, ``CoverageRow``), as JSON
(``report_to_json``) and as records written for each group (its text is the command line's,
``bottleimp.cli._conformance``)."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final
from pathlib import Path

from attrs import evolve, frozen

from .._config import Config
from ..formats._json_input import JSON
from ._cases import QuestionRow
from ._groups import Group, Nondeterminism
from ._peer import answer_for_record, clip, plural
from ._protocol import PROTOCOL, Capabilities
from ._session import REFUSALS, Failure, GameResult, Refusal

if TYPE_CHECKING:
    from ..formats._records import GameRecord

__all__ = ["REPORT_FORMAT", "error_to_json", "CoverageRow", "ConventionNote", "HarnessReport", "failure_to_json", "report_to_json",
           "coverage", "variant_text", "write_group", "write_peer_fault"]


@frozen
class CoverageRow:
    """One kind of illegal request: the rules it is refused with, how often it was sent, how
    often the peer agreed, and how often it answered ``UNSUPPORTED``."""

    kind: str
    rules: tuple[str, ...]
    sent: int
    agreed: int
    unsupported: int


@frozen
class ConventionNote:
    """A convention of the library (``kind = "convention"`` in ``spec/rules.toml``) that the
    peer chose otherwise: noted, never failed. ``times`` over ``games`` games, and the first
    such difference."""

    rule: str
    games: int
    times: int
    example: str

    def to_json(self) -> dict[str, JSON]:
        return {"rule": self.rule, "games": self.games, "times": self.times,
                "example": clip(self.example, 4000)}


@frozen
class HarnessReport:
    """The result of a run: games that agreed, failed or were unsupported, the failure groups,
    the refusal coverage, and the peer fault that stopped the run, if one did."""

    passed: int
    failed: int
    groups: tuple[Group, ...]
    coverage: tuple[CoverageRow, ...] = ()
    unsupported: int = 0
    protocol: str = PROTOCOL
    capabilities: Capabilities = Capabilities()
    peer_fault: Failure | None = None
    peer_fault_written: Path | None = None
    added: int = 0
    """Games added after the generated ones to send every kind of illegal request enough."""
    disagreements: int = 0
    notes: tuple[str, ...] = ()
    """Differences that are no failure (a consistent renaming of a declared deck's colours)."""
    nondeterministic: tuple[Nondeterminism, ...] = ()
    questions: tuple[QuestionRow, ...] = ()
    questions_fault: str | None = None
    conventions: tuple[ConventionNote, ...] = ()
    not_asked: tuple[str, ...] = ()
    """What the peer's shape kept the harness from asking, and what that leaves unjudged."""
    uncompared: tuple[tuple[int, str], ...] = ()
    """What could not be compared, and why, by game (from 1)."""
    resynchronised: tuple[tuple[str, int], ...] = ()
    """How many times games went on after a disagreement, by way (``peer``, ...)."""

    @property
    def failure(self) -> Failure | None:
        """The peer fault, else the first group's representative (``None``: all agreed)."""
        if self.peer_fault is not None:
            return self.peer_fault
        return next((g.failure for g in self.groups if g.failure is not None), None)

    @property
    def written(self) -> Path | None:
        """The record written for the peer fault, else for the first group, if any."""
        if self.peer_fault_written is not None:
            return self.peer_fault_written
        return next((g.written for g in self.groups if g.written is not None), None)

    @property
    def summary(self) -> str:
        """The summary line: ``N passed, N failed`` (games), then ``, N unsupported`` if any,
        and the disagreements the failed games met."""
        text = f"{self.passed} passed, {self.failed} failed"
        text += f", {self.unsupported} unsupported" if self.unsupported else ""
        if self.disagreements:
            text += f" ({plural(self.disagreements, 'disagreement')})"
        return text

    @property
    def ok(self) -> bool:
        """True when some game passed, none failed and no data fault was found."""
        return (self.passed > 0 and self.failed == 0 and not self.groups
                and self.peer_fault is None and not self.nondeterministic
                and not any(row.failed for row in self.questions) and self.questions_fault is None)


def write_peer_fault(failure: Failure, out_dir: str | os.PathLike[str] | None,
                     seed: int) -> tuple[Path | None, str | None]:
    """The record of the game a peer fault stopped, written to ``out_dir`` (if given), and why
    it would not validate, if it would not (then it is not written)."""
    try:
        if out_dir is not None:
            return _write_failure(failure, Path(out_dir), seed, None), None
        _check_record(_failure_record(failure))
    except OSError:
        return None, None
    except InvalidRecord as error:
        return None, f"the record of the game the peer fault stopped was not written: {error}"
    return None, None


def coverage(results: Sequence[GameResult]) -> tuple[CoverageRow, ...]:
    by_kind: dict[str, list[Refusal]] = {}
    for result in results:
        for refusal in result.refusals:
            by_kind.setdefault(refusal.kind, []).append(refusal)
    rows = []
    for kind in REFUSALS:
        sent = by_kind.get(kind.name, [])
        rules = sorted({refusal.rule for refusal in sent}) or list(kind.rules)
        unsupported = sum(1 for refusal in sent if refusal.unsupported)
        agreed = sum(1 for refusal in sent if refusal.agreed)
        rows.append(CoverageRow(kind.name, tuple(rules), len(sent), agreed, unsupported))
    return tuple(rows)


class InvalidRecord(Exception):
    """The record of a failing game does not validate: it is reported, never written."""


def write_group(group: Group, out_dir: str | os.PathLike[str] | None, seed: int) -> Group:
    if group.failure is None or out_dir is None:
        return group
    try:
        return evolve(group, written=_write_failure(group.failure, Path(out_dir), seed, group))
    except OSError as error:
        return evolve(group, write_error=f"cannot write the failing game into {out_dir}: {error}")
    except InvalidRecord as error:
        return evolve(group, write_error=f"the record of group {group.number}'s game was not "
                                         f"written: {error}")


def _write_failure(failure: Failure, out_dir: Path, seed: int, group: Group | None) -> Path:
    from ..formats._records import freeze_extensions, write_record_file

    record = _failure_record(failure)
    # The failure as --json writes it (what came from the peer cut to a few KB), with the run's
    # protocol and seed; ``followed_from``: the record holds the game up to that request.
    details: dict[str, JSON] = {"protocol": PROTOCOL, "seed": seed, **failure_to_json(failure)}
    if group is not None:
        details["group"] = group.number
        details["games_in_group"] = len(group.games)
        if group.deck is not None:
            details["deck"] = group.deck.to_json()
    extensions: dict[str, JSON] = {"_harness": details}
    record = evolve(record, extensions=freeze_extensions(extensions))
    _check_record(record)
    out_dir.mkdir(parents=True, exist_ok=True)
    name = f"harness-failure-seed{seed}" + ("" if group is None else f"-group{group.number}")
    path = out_dir / f"{name}.json"
    write_record_file(path, record)
    return path


def _failure_record(failure: Failure) -> GameRecord:
    """The library's game up to the failure (on the peer's trajectory: up to the request whose
    answer the library first followed), as a record."""
    from ..formats._records import GameRecord, record_from_state

    if failure.state is None:
        return GameRecord(config=failure.script.config, rounds=())
    return record_from_state(failure.state)


def _check_record(record: GameRecord) -> None:
    """The record of a failing game holds only legal actions: ``validate`` must find it valid
    (else ``InvalidRecord`` says what it found)."""
    from ..formats._records import record_to_json
    from ..validation._replay import validate_json

    verdict = validate_json(record_to_json(record), "<harness record>")
    if verdict.valid:
        return
    fault = verdict.errors[0] if verdict.errors else None
    found = "it is unreadable" if fault is None else f"[{fault.rule}] {fault.message}"
    raise InvalidRecord(f"validate does not find it valid ({found}), where the harness records "
                        "only legal actions")


def variant_text(config: Config) -> str:
    """The variant of ``config`` as a person reads it: players, edition, bottles, teams."""
    variant = f"{config.players} players, {config.edition}"
    if config.bottles == 2:
        variant += ", two bottles"
    if config.teams is not None:
        variant += f", teams {json.dumps([list(t) for t in config.teams])}"
    return variant


def failure_to_json(failure: Failure) -> dict[str, JSON]:
    """A failure as JSON (``--json``)."""
    last = failure.exchanges[-1]
    # What came from the peer is cut to a few KB (and a hostile answer kept as text), so that a
    # record holding it stays small and readable by any record reader.
    return {
        "kind": failure.kind,
        "rule": failure.rule,
        "message": clip(failure.message, 4000),
        "variant": variant_text(failure.script.config),
        "first_dealer": failure.script.first_dealer,
        "requests": len(failure.exchanges),
        "request": last.request,
        "library": last.expected,
        "peer": answer_for_record(last.actual),
        "detail": None if failure.disagreement is None else failure.disagreement.detail,
        "trajectory": failure.trajectory,
        "followed_from": failure.followed_from,
    }


REPORT_FORMAT: Final = "bottleimp-conformance-report/3"
"""The format ID of ``bottleimp conformance --json`` (schema:
``spec/reports/conformance-report.schema.json``)."""


def report_to_json(report: HarnessReport) -> dict[str, JSON]:
    """The whole run as one JSON object (``bottleimp conformance --cmd ... --json``)."""
    return {
        "format": REPORT_FORMAT,
        "mode": "differential",
        "exit_status": 0 if report.ok else 1,
        "protocol": report.protocol,
        "capabilities": report.capabilities.to_json(),
        "summary": {"passed": report.passed, "failed": report.failed,
                    "unsupported": report.unsupported, "groups": len(report.groups),
                    "disagreements": report.disagreements,
                    "added_for_coverage": report.added},
        "groups": [{
            "group": g.number, "request": g.op, "rule": g.rule, "games": len(g.games),
            "disagreements": g.count,
            "first_game": g.games[0] if g.games else None,
            "shrunk": g.shrunk, "not_shrunk": g.not_shrunk, "size": g.size_text,
            "record": None if g.written is None else str(g.written),
            "failure": None if g.failure is None else failure_to_json(g.failure),
            "deck": None if g.deck is None else g.deck.to_json(),
            "trajectory": None if g.failure is None else g.failure.trajectory,
            "trajectories": dict(g.trajectories),
            "write_error": g.write_error,
        } for g in report.groups],
        "notes": list(report.notes),
        "conventions": [note.to_json() for note in report.conventions],
        "not_asked": list(report.not_asked),
        "uncompared": [{"game": game, "what": what} for game, what in report.uncompared],
        "resynchronised": {way: count for way, count in report.resynchronised},
        "nondeterministic": [finding.to_json() for finding in report.nondeterministic],
        "questions": [row.to_json() for row in report.questions],
        "questions_fault": report.questions_fault,
        "coverage": [{"kind": row.kind, "rules": list(row.rules), "sent": row.sent,
                      "agreed": row.agreed, "unsupported": row.unsupported}
                     for row in report.coverage],
        "peer_fault": None if report.peer_fault is None else failure_to_json(report.peer_fault),
    }


def error_to_json(message: str) -> dict[str, JSON]:
    """A run that could not start (exit status 2), as the report's one JSON object."""
    return {"format": REPORT_FORMAT, "mode": "error", "exit_status": 2, "error": message}

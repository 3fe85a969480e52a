"""Validate a game record: replay it through the engine and check every claim it makes.

The validator composes no rule of its own. It turns each part of a record into the engine's
inputs (``with_deal`` for the deal, ``Give`` actions for the setup, ``StartRound`` for the next
deal, ``Play`` actions for the tricks) and lets ``apply`` (which checks every action with
``check_action``) decide; the claimed scores and totals are compared with what the engine
computed. It stops at the first broken rule and names it with its rule ID, the round, the play
index, the seat and a sentence. A ``Fault`` holds indices from 0 (``fault.round == 0`` is the
first round, as in its JSON path ``$.rounds[0]``); the text for people (``report_to_text`` and
the messages) counts rounds and plays from 1, as every command does.

Every record is replayed through the engine on its own, whatever the number of records given
(``validate_values``, ``validate_files``), so a record's verdict never depends on the others.
A record's numbers are Python integers from the JSON reader to the scores: a custom deck's
ranks and coins are judged exactly, however large.

Status: 0 the record is legal and every claim holds; 1 it breaks a rule or claims a wrong score;
2 it is not a readable record (``RecordError``: the JSON path of the fault).

    >>> from bottleimp import Config, apply, legal_actions, new_game
    >>> from bottleimp.formats._records import record_from_state, record_to_json
    >>> state = new_game(Config(players=4), seed=2)
    >>> while not state.is_over:
    ...     state = apply(state, legal_actions(state)[0])
    >>> record = record_to_json(record_from_state(state))
    >>> report = validate_json(record)
    >>> report.valid, report.complete, len(report.rounds), report.totals == state.totals
    (True, True, 8, True)
    >>> record["rounds"][0]["plays"][0][0] = 2  # seat 1 leads the first trick, not seat 2
    >>> print(report_to_text(validate_json(record, "game.json")))
    game.json: breaks rule TURN-ORDER: round 1, play 1, seat 2 ($.rounds[0].plays[0])
      it is seat 1's turn, not seat 2's
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final, NoReturn, Protocol, TypeAlias

from attrs import evolve

from .._actions import Action, Destination, Give, Play, StartRound
from .._cards import Card, Rank, format_rank
from .._config import Config
from .._engine import apply, check_action, legal_actions, new_game, with_deal
from .._errors import ArgumentError, IllegalActionError, RecordError
from ..formats._json_input import (
    JSON,
    check_json_value,
    child,
    printable_name,
    read_json_file,
)
from ..formats._records import GameRecord, RoundRecord, parse_record
from ..formats._setup_entries import ENTRY_KEYS
from ..rules.game import winners as winning_seats
from ..rules.setup import setup_seat_order, setup_steps
from .._state import GameState, Phase, RoundState
from ._causes import MAX_SEARCH_VALUES, likely_causes
from ._reports import (
    BROKEN,
    UNREADABLE,
    VALID,
    Fault,
    RoundReport,
    VALIDATE_REPORT_FORMAT,
    ValidationReport,
)

__all__ = [
    "ReplayObserver",
    "validate_json",
    "validate_file",
    "validate_files",
    "validate_values",
    "validate_record",
    "report_to_json",
    "report_to_text",
]

class _Broken(Exception):
    """Stops the replay at the first broken rule."""

    def __init__(self, fault: Fault, action: Action | None) -> None:
        super().__init__(fault.message)
        self.fault = fault
        self.action = action


def _unreadable(source: str, error: RecordError) -> ValidationReport:
    fault = Fault(error.rule_id, None, None, None, error.message, error.path)
    return ValidationReport(source, UNREADABLE, (fault,), (), None, False, None)


def validate_json(value: JSON, source: str = "<record>", *, causes: bool = False
                  ) -> ValidationReport:
    """Read ``value`` as a record and validate it by the engine replay; an unreadable record gets
    status 2. ``value`` may be built in Python: it is held to the limits of the JSON reader
    (``check_json_value``) first. With ``causes``, a broken record's report names the likely root
    causes of its fault (``bottleimp.validation._causes``: the record replayed under each usual
    engine bug)."""
    return _validated(source, value, causes=causes, checked=False)


def validate_values(values: Sequence[JSON], sources: Sequence[str], *, causes: bool = False
                    ) -> list[ValidationReport]:
    """The report of each record of ``values`` (named by ``sources``), as ``validate_json`` gives
    it: each record is replayed through the engine on its own."""
    if len(values) != len(sources):
        raise ArgumentError("validate_values(sources)",
                            f"{len(values)} records but {len(sources)} sources")
    return [_validated(source, value, causes=causes, checked=False)
            for source, value in zip(sources, values)]


def _validated(source: str, value: JSON, *, causes: bool, checked: bool) -> ValidationReport:
    """The report of the record ``value`` (``checked``: it comes from the JSON reader, within
    its limits), with its likely causes when asked for and it is broken."""
    try:
        if not checked:
            check_json_value(value)
        record = parse_record(value)
    except RecordError as error:
        return _unreadable(source, error)
    report = validate_record(record, source)
    if causes and report.status == BROKEN:
        search = likely_causes(value, record, report, _without_causes)
        report = evolve(report, causes=search.causes, causes_cut_short=search.cut_short)
    return report


def _without_causes(value: JSON) -> ValidationReport:
    """A record changed by a likely cause, validated by the engine replay (its values come from
    a checked record)."""
    return _validated("<cause>", value, causes=False, checked=True)


def validate_file(path: str | os.PathLike[str], *, causes: bool = False) -> ValidationReport:
    """Read and validate the record in the file at ``path``; never raises for bad input. With
    ``causes``, a broken record's report names the likely root causes of its fault."""
    source = printable_name(path)
    try:
        value = read_json_file(path)
    except RecordError as error:
        return _unreadable(source, error)
    return _validated(source, value, causes=causes, checked=True)


def validate_files(paths: Sequence[str | os.PathLike[str]], *, causes: bool = False
                   ) -> list[ValidationReport]:
    """``validate_file`` of each file of ``paths``, one after the other: the verdict on a file
    never depends on the others. ``bottleimp validate`` spreads files over processes."""
    return [validate_file(path, causes=causes) for path in paths]


class ReplayObserver(Protocol):
    """Told of each moment of an engine replay (``validate_record(..., observer=)``): the replay
    page draws its steps from these, so that it shows exactly what the validator replayed.

    ``event`` is ``"deal"`` (a round's deal accepted), ``"setup"`` (every setup resolved),
    ``"trick"`` (a play completed a trick), ``"round"`` (the record's part of a round replayed,
    complete or not), ``"broken"`` (the replay stops at ``fault``; ``action`` is the action
    refused, when there is one) or ``"end"`` (the whole record replayed). ``state`` is the
    engine's state at that moment."""

    def __call__(
        self, event: str, state: GameState, action: Action | None, fault: Fault | None
    ) -> None: ...


def validate_record(
    record: GameRecord, source: str = "<record>", *, observer: ReplayObserver | None = None
) -> ValidationReport:
    """Replay ``record`` through the engine and check its claims (see the module docstring);
    ``observer``, if given, is told of each moment of the replay."""
    replay = _Replay(record, observer)
    fault = None
    try:
        replay.run()
    except _Broken as broken:
        fault = broken.fault
        replay.tell("broken", broken.action, fault)
    else:
        replay.tell("end")
    state = replay.state
    complete = fault is None and state.is_over
    return ValidationReport(
        source=source,
        status=VALID if fault is None else BROKEN,
        errors=() if fault is None else (fault,),
        rounds=tuple(replay.reports),
        totals=state.totals,
        complete=complete,
        winners=winning_seats(state.totals) if complete else None,
        notes=tuple(replay.notes),
    )


Where: TypeAlias = tuple[str | int, ...]
"""A JSON path as its steps from the root, turned into text only for a fault."""


def _path(where: Where) -> str:
    path = "$"
    for step in where:
        path = child(path, step)
    return path


class _Replay:
    """The replay of one record: the engine state, and a report per round replayed so far."""

    def __init__(self, record: GameRecord, observer: ReplayObserver | None = None) -> None:
        self.record = record
        self.observer = observer
        self.config = record.config
        # A record without rounds is a game not yet dealt: its first dealer and its seed (every
        # deal is the record's) do not matter.
        self.state: GameState = new_game(record.config)
        self.reports: list[RoundReport] = []
        self.dealt_round: int | None = None
        """The index of the last round whose recorded deal the engine has accepted."""
        self.notes: list[Fault] = []
        """Where the record departs from a convention of the library (never a fault)."""

    def tell(self, event: str, action: Action | None = None, fault: Fault | None = None) -> None:
        if self.observer is not None:
            self.observer(event, self.state, action, fault)

    def run(self) -> None:
        rounds = self.record.rounds
        for index, round_record in enumerate(rounds):
            self._replay_round(index, round_record, is_last=index == len(rounds) - 1)
        totals = self.record.totals
        if totals is not None and totals != self.state.totals:
            seat = _first_difference(totals, self.state.totals)
            self._break(
                "GAME-TOTALS", None, None, seat,
                f"the record claims totals {_numbers(totals)}, but its rounds sum to "
                f"{_numbers(self.state.totals)} (seat {seat}'s total is "
                f"{self.state.totals[seat]}, not {totals[seat]})",
                ("totals", seat),
            )

    def _break(
        self, rule: str, round_: int | None, play: int | None, seat: int | None, message: str,
        where: Where, action: Action | None = None,
    ) -> NoReturn:
        state = self.state
        if round_ == self.dealt_round and len(self.reports) == round_:
            # The round so far, up to the fault.
            complete = state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
            self.reports.append(_round_report(state.round, state.phase, complete))
        raise _Broken(Fault(rule, round_, play, seat, message, _path(where)), action)

    def _apply(self, action: Give | Play | StartRound, round_: int, play: int | None,
               where: Where, context: str = "") -> None:
        try:
            self.state = apply(self.state, action)
        except IllegalActionError as error:
            self._break(
                error.rule_id, round_, play, action.seat, context + error.message, where, action
            )

    def _card(self, rank: Rank, rule: str, round_: int, play: int | None, seat: int,
              where: Where) -> Card:
        try:
            return self.config.card(rank)
        except ArgumentError as error:
            self._break(rule, round_, play, seat, error.message, where)

    def _replay_round(self, index: int, round_record: RoundRecord, is_last: bool) -> None:
        self._start(index, round_record.dealer)
        self._deal(index, round_record)
        self._setup(index, round_record, is_last)
        self._plays(index, round_record)
        state = self.state
        complete = state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
        if not complete and not is_last:
            unplayed = sum(len(hand) for hand in state.round.hands) + sum(
                len(row) for row in state.round.face_up or ()
            )
            self._break(
                "ROUND-END", index, None, None,
                f"round {index + 1} has not ended ({unplayed} cards are still to be played), "
                f"yet round {index + 2} follows: only the last round of a record may be "
                "incomplete",
                ("rounds", index + 1),
            )
        claimed = round_record.scores
        if claimed is not None:
            if not complete:
                self._break(
                    "SCORE-ROUND", index, None, None,
                    f"round {index + 1} has not ended, so it has no scores to claim",
                    ("rounds", index, "scores"),
                )
            actual = state.round.scores
            assert actual is not None
            if claimed != actual:
                seat = _first_difference(claimed, actual)
                self._break(
                    "SCORE-ROUND", index, None, seat,
                    f"the record claims round scores {_numbers(claimed)}, but the rules give "
                    f"{_numbers(actual)} (seat {seat} receives {actual[seat]}, "
                    f"not {claimed[seat]})",
                    ("rounds", index, "scores", seat),
                )
        self.reports.append(_round_report(state.round, state.phase, complete))
        self.tell("round")

    def _start(self, index: int, dealer: int) -> None:
        """Round 0 starts the game, dealt by the seat the record names (any seat may deal first:
        FIRST-DEALER); every later round is dealt by the seat the engine expects."""
        state = self.state
        where: Where = ("rounds", index, "dealer")
        if index == 0:
            # The seed only deals the first round before the record's deal replaces it.
            self.state = new_game(self.config, first_dealer=dealer)
            return
        try:
            # Only checked: with_deal then starts the round with the recorded deal.
            check_action(state, StartRound(dealer))
        except IllegalActionError as error:
            if error.rule_id == "DEALER-ROTATION":
                message = (
                    f"the deal passes one seat clockwise each round: seat {state.to_act} deals "
                    f"round {index + 1}, not seat {dealer}"
                )
            elif error.rule_id == "GAME-OVER":
                message = f"the game ended with round {index}: no round {index + 1} follows"
            else:
                message = error.message
            self._break(error.rule_id, index, None, dealer, message, where)

    def _deal(self, index: int, round_record: RoundRecord) -> None:
        zones: list[tuple[str, tuple[tuple[Rank, ...], ...]]] = [("hands", round_record.hands)]
        if round_record.face_up is not None:
            zones.append(("face_up", round_record.face_up))
        rows: list[tuple[tuple[Card, ...], ...]] = []
        for key, ranks_by_seat in zones:
            cards_by_seat = []
            for seat, ranks in enumerate(ranks_by_seat):
                cards = []
                for position, rank in enumerate(ranks):
                    cards.append(self._card(
                        rank, "DEAL-COUNTS", index, None, seat,
                        ("rounds", index, key, seat, position),
                    ))
                cards_by_seat.append(tuple(cards))
            rows.append(tuple(cards_by_seat))
        try:
            self.state = with_deal(self.state, rows[0], rows[1] if len(rows) > 1 else None)
        except IllegalActionError as error:
            self._break(error.rule_id, index, None, None, error.message, ("rounds", index, "hands"))
        self.dealt_round = index
        self.tell("deal")

    def _setup(self, index: int, round_record: RoundRecord, is_last: bool) -> None:
        """Give each seat's setup cards in the order the engine asks for them: seats in turn from
        the dealer's left, each seat's cards in the order of its setup steps."""
        pending: list[list[tuple[Give, Where]]] = []
        for seat, entry in enumerate(round_record.setup):
            gives: list[tuple[Give, Where]] = []
            discards = 0
            for destination, rank in entry.gives():
                where: Where
                if destination is Destination.DEVILS_TRICK:
                    where = ("rounds", index, "setup", seat, "discard", discards)
                    discards += 1
                else:
                    where = ("rounds", index, "setup", seat, ENTRY_KEYS[destination])
                card = self._card(rank, "SETUP-FROM-DEALT", index, None, seat, where)
                gives.append((Give(seat, card, destination), where))
            gives.reverse()
            pending.append(gives)
        while self.state.phase is Phase.SETUP:
            to_act = self.state.to_act
            assert to_act is not None
            if not pending[to_act]:
                break
            give, given_at = pending[to_act].pop()
            self._apply(give, index, None, given_at)
        if self.state.phase is not Phase.SETUP:
            # Every seat gave its whole setup; a give beyond a seat's steps was refused above.
            self.tell("setup")
            return
        short = self.state.to_act
        assert short is not None
        if round_record.plays or not is_last:
            given = len(self.state.round.setup[short])
            steps = len(setup_steps(self.config, self.state.round.dealer, short))
            goes_on = "with plays" if round_record.plays else f"with round {index + 2}"
            self._break(
                "SETUP-STEPS", index, None, short,
                f"seat {short} has given {given} of its {steps} setup cards, yet the record goes "
                f"on {goes_on}: play begins only when every seat has completed its setup",
                ("rounds", index, "setup", short),
            )
        if any(pending[later] for later in self._seats_from(short)):
            self._setups_in_another_order(index, short, pending)

    def _setups_in_another_order(self, index: int, short: int,
                                 pending: list[list[tuple[Give, Where]]]) -> None:
        """A record that ends during the setup, in which a seat has given cards while a seat
        before it in the library's order (clockwise from the dealer's left) has not completed
        its setup. That order is a convention (SETUP-ORDER): the sources have every seat choose
        at once, so the record is noted, and every card it gives is still judged by the rules of
        the sources (SETUP-FROM-DEALT, SETUP-STEPS). Each seat's gives are applied in the
        engine's order, the unfinished setups before them completed by any legal choice: no
        seat's choice changes what another may give before every seat has chosen. The replay's
        state stays the round as the library's order reaches it."""
        trial = self.state
        first: tuple[int, Where] | None = None
        for seat in self._seats_from(short):
            if not any(pending[later] for later in self._seats_from(seat)):
                break
            while pending[seat]:
                give, given_at = pending[seat].pop()
                if first is None:
                    first = (seat, given_at)
                try:
                    trial = apply(trial, give)
                except IllegalActionError as error:
                    self._break(error.rule_id, index, None, seat, error.message, given_at, give)
            while trial.phase is Phase.SETUP and trial.to_act == seat:
                trial = apply(trial, legal_actions(trial)[0])
        assert first is not None
        seat, given_at = first
        self.notes.append(Fault(
            "SETUP-ORDER", index, None, seat,
            f"seat {seat} has given setup cards while seat {short} has not completed its "
            "setup: the library takes the setups clockwise from the dealer's left, the sources "
            "have every seat choose at the same time; every card given follows the rules",
            _path(given_at)))

    def _seats_from(self, seat: int) -> tuple[int, ...]:
        """``seat`` and the seats after it in the order of the setups (SETUP-ORDER)."""
        order = setup_seat_order(self.config, self.state.round.dealer)
        return order[order.index(seat):]

    def _plays(self, index: int, round_record: RoundRecord) -> None:
        for number, recorded in enumerate(round_record.plays):
            if self.state.phase in _ROUND_ENDED:
                self._break(
                    "ROUND-END", index, number, recorded.seat,
                    f"round {index + 1} is over once every card is played: play {number + 1} "
                    f"({format_rank(recorded.card)} by seat {recorded.seat}) comes after its end",
                    ("rounds", index, "plays", number),
                )
            card = self._card(
                recorded.card, "CARD-HELD", index, number, recorded.seat,
                ("rounds", index, "plays", number, 1),
            )
            play = Play(recorded.seat, card)
            tricks = len(self.state.round.tricks)
            try:
                self.state = apply(self.state, play)
            except IllegalActionError as error:
                self._break(
                    error.rule_id, index, number, recorded.seat, error.message,
                    ("rounds", index, "plays", number), play,
                )
            if self.observer is not None and len(self.state.round.tricks) > tricks:
                self.tell("trick", play)


_ROUND_ENDED: Final = (Phase.ROUND_OVER, Phase.GAME_OVER)


def _round_report(round_: RoundState, phase: Phase, complete: bool) -> RoundReport:
    resolved = phase is not Phase.SETUP
    return RoundReport(
        index=round_.index,
        dealer=round_.dealer,
        complete=complete,
        scores=round_.scores,
        bottle_owners=tuple(bottle.owner for bottle in round_.bottles),
        devils_trick=tuple(card.rank for card in round_.devils_trick) if resolved else None,
        tricks=round_.tricks,
    )


def _first_difference(claimed: tuple[int, ...], actual: tuple[int, ...]) -> int:
    return next(seat for seat, (a, b) in enumerate(zip(claimed, actual)) if a != b)


def _numbers(values: tuple[int, ...]) -> str:
    return "[" + ", ".join(str(value) for value in values) + "]"


# --- output ----------------------------------------------------------------------------------


def report_to_json(report: ValidationReport) -> dict[str, JSON]:
    """The report as the JSON object ``bottleimp validate --json`` prints (format
    ``bottleimp-validate-report/1``, schema ``spec/reports/validate-report.schema.json``)."""
    return {
        "format": VALIDATE_REPORT_FORMAT,
        "file": report.source,
        "status": report.status,
        "valid": report.valid,
        "errors": [
            {
                "rule": fault.rule,
                "round": fault.round,
                "play": fault.play,
                "seat": fault.seat,
                "message": fault.message,
                "path": fault.path,
            }
            for fault in report.errors
        ],
        "rounds": [
            {
                "dealer": round_.dealer,
                "complete": round_.complete,
                "scores": None if round_.scores is None else list(round_.scores),
                "bottle_owners": list(round_.bottle_owners),
                "devils_trick": None
                if round_.devils_trick is None
                else list(round_.devils_trick),
                "tricks": [
                    {
                        "winner": trick.winner,
                        "bottle": trick.bottle,
                        "price_before": trick.price_before,
                        "price_after": trick.price_after,
                    }
                    for trick in round_.tricks
                ],
            }
            for round_ in report.rounds
        ],
        "totals": None if report.totals is None else list(report.totals),
        "complete": report.complete,
        "winners": None if report.winners is None else list(report.winners),
        "causes": [
            {
                "rules": list(cause.rules),
                "hypotheses": list(cause.hypotheses),
                "message": cause.message,
                "rounds": list(cause.rounds),
                "whole_record": cause.whole_record,
            }
            for cause in report.causes
        ],
        "causes_cut_short": report.causes_cut_short,
        "notes": [
            {
                "rule": note.rule,
                "round": note.round,
                "play": note.play,
                "seat": note.seat,
                "message": note.message,
                "path": note.path,
            }
            for note in report.notes
        ],
    }


def report_to_text(report: ValidationReport) -> str:
    """The report as one plain line (two for a fault), then a line per note: what a person
    reads."""
    notes = "".join(
        f"\n  note: {note.rule} is a convention of the library, not a rule of the game: "
        f"round {'?' if note.round is None else note.round + 1} ({note.path}): {note.message}"
        for note in report.notes)
    return _verdict_text(report) + notes


def _verdict_text(report: ValidationReport) -> str:
    if report.status == UNREADABLE:
        fault = report.errors[0]
        return f"{report.source}: not a readable record: {fault.path}: {fault.message}"
    if report.status == BROKEN:
        fault = report.errors[0]
        # Rounds and plays are counted from 1 for people; the JSON path keeps 0-based indices.
        where = ", ".join(
            f"{name} {value}"
            for name, value in (
                ("round", None if fault.round is None else fault.round + 1),
                ("play", None if fault.play is None else fault.play + 1),
                ("seat", fault.seat),
            )
            if value is not None
        )
        located = f" {where}" if where else ""
        causes = "".join(f"\n  likely cause: {cause.message}" for cause in report.causes)
        if report.causes_cut_short:
            causes += (f"\n  the search for likely causes stopped at its limit of "
                       f"{MAX_SEARCH_VALUES:,} JSON values replayed: other causes were not tried")
        return (f"{report.source}: breaks rule {fault.rule}:{located} ({fault.path})\n"
                f"  {fault.message}{causes}")
    rounds = len(report.rounds)
    if report.winners is not None:  # set once the game is over
        won = ", ".join(str(seat) for seat in report.winners)
        return (
            f"{report.source}: valid: a complete game of {rounds} round{'s' if rounds != 1 else ''}; totals "
            f"{_numbers(report.totals or ())}; won by seat{'s' if len(report.winners) > 1 else ''}"
            f" {won}"
        )
    return (
        f"{report.source}: valid: an unfinished game ({rounds} round{'' if rounds == 1 else 's'}"
        " recorded)"
    )

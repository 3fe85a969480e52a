"""The ``case`` requests on one path: the conformance vectors (``run_remote_vectors``) and the
random position questions (``position_questions``, ``ask_questions``), each answer compared by
``case_outcome`` on the keys that decide the case, less those the peer's ``ignore`` names."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path

from attrs import evolve, field, frozen

from .._config import Config
from .._engine import apply, legal_actions, new_game
from .._errors import HarnessError, PeerFault
from ..formats._cases import (KINDS, Case, bottles_to_json, plays_to_json, ranks, read_suite,
                              same_json, scoring_input)
from ..formats._config_json import config_to_json
from ..formats._json_input import JSON
from ..formats._setup_entries import entry_from_gives
from .._state import Phase
from ._diagnose import DeckFault, QuestionFailure
from ._peer import DEFAULT_TIMEOUT, Peer
from ._protocol import UNSUPPORTED, Capabilities, Variant, with_deck
from ._session import negotiate
from ._vectors import answer

__all__ = ['QUESTION_KINDS', 'QuestionFailure', 'QuestionRow', 'RemoteOutcome', 'RemoteReport', 'ask_questions', 'case_outcome', 'case_request', 'position_questions', 'questions_under_deck', 'run_remote_vectors']


# --- position questions -----------------------------------------------------------------

QUESTION_KINDS = ("legal_plays", "trick", "setup", "scoring")
"""The kinds of position question, in the order of the report's table."""


@frozen
class QuestionRow:
    """One kind of question: how many were asked, agreed, failed or unsupported, the rules the
    failures name (with counts; ``DECK`` for those a data fault of the deck explains), and the
    first failure (the question, the library's answer and the peer's)."""

    kind: str
    asked: int
    agreed: int
    failed: int
    unsupported: int
    rules: tuple[tuple[str, int], ...]
    example: dict[str, JSON] | None
    failures: tuple[QuestionFailure, ...] = field(default=(), eq=False, repr=False)
    """Every failed question, for the deck inference."""

    def to_json(self) -> dict[str, JSON]:
        return {"kind": self.kind, "asked": self.asked, "agreed": self.agreed,
                "failed": self.failed, "unsupported": self.unsupported,
                "rules": {rule: count for rule, count in self.rules}, "example": self.example}


def _case(kind: str, config: Config, input_: dict[str, JSON]) -> Case:
    case = Case(where=f"<generated {kind}>", kind=kind, group="", description="", rules=(),
                bug=None, config=config, input=input_, expected=None)
    return evolve(case, expected=answer(case))


def _round_questions(config: Config, rng: random.Random) -> dict[str, Case]:
    """One random round played by the library alone, and one question of each kind from it."""
    state = new_game(config, rng.randrange(2**32), first_dealer=rng.randrange(config.players))
    dealt = state.round
    found: dict[str, Case] = {}
    plays_seen = 0
    ask_at = rng.randrange(config.trick_size * 3)
    trick_at = rng.randrange(max(1, len(state.round.dealt[0]) - 2))
    while state.phase in (Phase.SETUP, Phase.PLAY):
        if state.phase is Phase.PLAY and state.to_act is not None:
            seat = state.to_act
            if plays_seen == ask_at:
                input_: dict[str, JSON] = {"seat": seat, "hand": ranks(state.round.hands[seat]),
                                           "trick": plays_to_json(state.current_trick())}
                if state.round.face_up is not None:
                    input_["face_up"] = ranks(state.round.face_up[seat])
                found["legal_plays"] = _case("legal_plays", config, input_)
            if not state.current_trick() and len(state.round.tricks) == trick_at:
                before = bottles_to_json(state.round.bottles)
                trick_start = len(state.round.plays)
                ahead = state
                while len(ahead.round.plays) < trick_start + config.trick_size:
                    options = legal_actions(ahead)
                    ahead = apply(ahead, options[rng.randrange(len(options))])
                trick = plays_to_json(ahead.round.plays[trick_start:])
                found["trick"] = _case("trick", config, {"bottles": before, "trick": trick})
            plays_seen += 1
        options = legal_actions(state)
        state = apply(state, options[rng.randrange(len(options))])
        if state.phase is Phase.PLAY and "setup" not in found:
            setup: list[JSON] = [entry_from_gives(gives) for gives in state.round.setup]
            input_ = {"dealer": dealt.dealer, "hands": [ranks(h) for h in dealt.dealt],
                      "setup": setup}
            if dealt.dealt_face_up is not None:
                input_["face_up"] = [ranks(row) for row in dealt.dealt_face_up]
            found["setup"] = _case("setup", config, input_)
    found["scoring"] = _case("scoring", config, scoring_input(state.round))
    return found


def position_questions(variants: Sequence[Variant], count: int, seed: int,
                       capabilities: Capabilities | None = None) -> Iterator[Case]:
    """``count`` rounds' worth of questions (one of each kind per round) in random variants,
    on the peer's declared deck where it declared one (its logic is checked on its data)."""
    rng = random.Random(seed)
    for _ in range(count):
        variant = variants[rng.randrange(len(variants))]
        teams = None
        if variant.teams and rng.random() < 0.5:
            order = list(range(variant.players))
            rng.shuffle(order)
            teams = [order[0:2]] + [[seat] for seat in order[2:]]
        config = Config(players=variant.players, edition=variant.edition,
                        bottles=variant.bottles, teams=teams)
        if capabilities is not None:
            config = with_deck(config, capabilities.playing_deck(config))
        yield from _round_questions(config, rng).values()


def _rule(case: Case, differs: Sequence[str], output: JSON) -> str:
    """The rule a differing answer to ``case`` touches."""
    if case.kind == "legal_plays":
        held: list[JSON] = []
        for key in ("hand", "face_up"):
            value = case.input.get(key) if isinstance(case.input, dict) else None
            held += value if isinstance(value, list) else []
        legal = output.get("legal") if isinstance(output, dict) else None
        if isinstance(legal, list) and any(card not in held for card in legal):
            return "CARD-HELD"  # the peer allows a card the seat does not hold
        return "EYE-FOLLOW-SUIT" if case.config.devils_eye else "FOLLOW-SUIT"
    if case.kind == "setup":
        return "FIRST-LEADER" if list(differs) == ["leader"] else "SETUP-RESOLVE"
    if case.kind == "trick":
        for key, rule in (("winner", "TRICK-WINNER"), ("winning_card", "TRICK-WINNER"),
                          ("bottle", "BOTTLE-PURCHASE"), ("bottles", "TRICK-PRICE"),
                          ("returned_price_card", "PRICE-CARD-RETURN")):
            if key in differs:
                return rule
        return "TRICK-CAPTURE"
    if case.config.teams is not None:
        return "SCORE-TEAMS"
    input_, expected = case.input, case.expected
    assert isinstance(input_, dict) and isinstance(expected, dict)
    bottles = input_.get("bottles")
    owners = {b.get("owner") for b in (bottles if isinstance(bottles, list) else [])
              if isinstance(b, dict)}
    want = expected.get("scores")
    got = output.get("scores") if isinstance(output, dict) else None
    if isinstance(want, list) and isinstance(got, list) and len(want) == len(got):
        seats = {seat for seat, (w, g) in enumerate(zip(want, got)) if w != g}
        return "SCORE-BOTTLE-PENALTY" if seats & owners else "SCORE-CAPTURED"
    return "SCORE-ROUND"


def case_request(case: Case) -> dict[str, JSON]:
    """The ``case`` request that asks the peer ``case``."""
    return {"op": "case", "kind": case.kind, "config": config_to_json(case.config),
            "input": case.input}


def ask_questions(peer: Peer, cases: Sequence[Case], ignore: Sequence[str]) -> tuple[QuestionRow, ...]:
    """Ask the peer every question, a row per kind; a peer fault raises ``PeerFault``."""
    rows = {kind: QuestionRow(kind, 0, 0, 0, 0, (), None) for kind in QUESTION_KINDS}
    for case in cases:
        request = case_request(case)
        reply = peer.ask(request)
        outcome = case_outcome(case, reply, ignore)
        row = evolve(rows[case.kind], asked=rows[case.kind].asked + 1)
        if outcome.status == "passed":
            row = evolve(row, agreed=row.agreed + 1)
        elif outcome.status == "skipped":
            row = evolve(row, unsupported=row.unsupported + 1)
        else:
            row = evolve(row, failed=row.failed + 1, failures=(*row.failures, QuestionFailure(
                case, outcome.output, tuple(outcome.differs),
                _rule(case, outcome.differs, outcome.output), request, reply)))
        rows[case.kind] = row
    return questions_under_deck(tuple(rows.values()), ())


def questions_under_deck(rows: Sequence[QuestionRow],
                         faults: Sequence[DeckFault]) -> tuple[QuestionRow, ...]:
    """``rows`` with their failures counted by rule, those a data fault of the deck
    (``faults``) explains under ``DECK``; each row's example is its first failure."""
    named = []
    for row in rows:
        rules = ["DECK" if any(fault.explains(failure) for fault in faults) else failure.rule
                 for failure in row.failures]
        named.append(evolve(row, rules=tuple(sorted(Counter(rules).items())),
                            example=row.failures[0].example(rules[0]) if rules else None))
    return tuple(named)


# --- the conformance vectors through the protocol ---------------------------------------

@frozen
class RemoteOutcome:
    """A case and the peer's output: ``status`` is ``passed``, ``failed`` or ``skipped``;
    ``keys`` the keys it was compared on; ``differs`` the keys whose values differ."""

    case: Case
    status: str
    output: JSON
    keys: tuple[str, ...]
    differs: tuple[str, ...]
    message: str


@frozen
class RemoteReport:
    """Every case's outcome, and the capabilities the peer declared."""

    outcomes: tuple[RemoteOutcome, ...]
    capabilities: Capabilities

    def counts(self) -> dict[str, dict[str, int]]:
        """Per kind: passed, failed, skipped."""
        table = {kind: {"passed": 0, "failed": 0, "skipped": 0} for kind in KINDS}
        for outcome in self.outcomes:
            table[outcome.case.kind][outcome.status] += 1
        return table

    @property
    def failed(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == "failed")

    @property
    def summary(self) -> str:
        passed = sum(1 for outcome in self.outcomes if outcome.status == "passed")
        skipped = sum(1 for outcome in self.outcomes if outcome.status == "skipped")
        return f"{passed} passed, {self.failed} failed, {skipped} skipped"


def case_outcome(case: Case, answer: dict[str, JSON], ignore: Sequence[str]) -> RemoteOutcome:
    """The peer's answer to ``case`` compared on the keys that decide it, less ``ignore``."""
    keys = tuple(key for key in case.deciding_keys if key not in ignore)
    if answer.get("ok") is False:
        if answer.get("rule") == UNSUPPORTED:
            return RemoteOutcome(case, "skipped", None, keys, (), "the peer does not support it")
        return RemoteOutcome(case, "failed", None, keys, (),
                             f"the peer refuses the case: {answer.get('rule')} "
                             f"({answer.get('error')})")
    output = answer.get("output")
    if not isinstance(output, dict):
        return RemoteOutcome(case, "failed", output, keys, (), "the answer has no output object")
    if not keys:
        return RemoteOutcome(case, "skipped", output, keys, (),
                             "every key that decides it is ignored by the peer")
    expected = case.expected
    assert isinstance(expected, dict)
    differs = tuple(key for key in keys
                    if key not in output or not same_json(expected.get(key), output[key]))
    if differs:
        return RemoteOutcome(case, "failed", output, keys, differs,
                             "differs on " + ", ".join(differs))
    return RemoteOutcome(case, "passed", output, keys, (), "")


def run_remote_vectors(command: Sequence[str], directory: str | Path, *,
                       timeout: float = DEFAULT_TIMEOUT,
                       cwd: str | os.PathLike[str] | None = None) -> RemoteReport:
    """Ask the peer ``command`` every case under ``directory`` and compare its answers."""
    cases = read_suite(directory)
    peer = Peer(command, timeout, cwd)
    try:
        try:
            capabilities = negotiate(peer)
        except PeerFault as fault:
            raise HarnessError(f"the peer does not answer hello: {fault.message}") from None
        outcomes = []
        for case in cases:
            if not capabilities.supports(case.config):
                outcomes.append(RemoteOutcome(case, "skipped", None, (), (),
                                              "outside the peer's capabilities"))
                continue
            try:
                answer = peer.ask(case_request(case))
            except PeerFault as fault:
                raise HarnessError(f"{case.where}: the peer fails ({fault.kind}): "
                                   f"{fault.message}") from None
            outcomes.append(case_outcome(case, answer, capabilities.ignore))
    finally:
        peer.close()
    return RemoteReport(tuple(outcomes), capabilities)

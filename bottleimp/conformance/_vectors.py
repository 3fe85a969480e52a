"""Conformance vectors: the library's answer, through the engine, to every kind of case in
``spec/conformance`` (``trick``, ``legal_plays``, ``setup``, ``scoring``, ``record``; the kinds
and their shapes are described in ``spec/conformance/README.md``; the case files and the values
of a case's input are read and written by ``bottleimp.formats``), so that the same files check
the library and any other implementation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import resources
from pathlib import Path
from typing import Final

from attrs import evolve, frozen

from .._actions import Give, Play
from .._cards import Card, rank_key
from .._config import Config
from .._engine import apply, check_action, legal_actions, new_game, with_deal
from .._errors import ConfigError, IllegalActionError, RecordError
from ..formats._cases import (INPUT_KEYS, Case, CaseInput, bottles_to_json, ranks, read_suite,
                              same_json, zones_to_json)
from ..formats._json_input import JSON, check_keys, child, expect_list, expect_object
from ..formats._setup_entries import gives_from_entry
from ..rules.play import next_to_play, returned_price_card
from ..rules.scoring import round_scores
from ..rules.setup import setup_steps
from .._state import Bottle, GameState, Phase, RoundState

__all__ = [
    "conformance_data",
    "Outcome",
    "answer",
    "check_case",
    "check_suite",
    "apply_setup_entry",
    "trick_outcome",
]


def conformance_data() -> Path:
    """The conformance cases shipped with the package (``bottleimp/data/conformance``, a link
    to ``spec/conformance`` in the repository, copied into a wheel): one folder per kind, and
    ``perft``. What ``bottleimp conformance --vectors`` and ``bottleimp perft --check`` read when
    given no path, so that an installed package checks an implementation without a clone."""
    return Path(str(resources.files("bottleimp") / "data" / "conformance"))


@frozen
class Outcome:
    """A case and the library's answer to it; ``passed`` when the answer equals ``expected``.

    ``actual`` is ``None`` and ``message`` explains when the library could not answer at all."""

    case: Case
    actual: JSON
    message: str | None

    @property
    def passed(self) -> bool:
        """True when the library's answer equals the expected one (see ``same_json``)."""
        return self.message is None and same_json(self.case.expected, self.actual)


# --- the library's answers -------------------------------------------------------------------


def answer(case: Case) -> JSON:
    """The library's answer to ``case``, in the shape of its ``expected`` object.

    Malformed input raises ``RecordError`` at the case's path; an input the rules forbid where
    the kind does not expect a refusal raises ``IllegalActionError``."""
    path = child(case.where, "input")
    input_ = expect_object(case.input, path)
    check_keys(input_, path, *INPUT_KEYS[case.kind])
    return _ANSWERS[case.kind](CaseInput(case.config), input_, path)


def check_case(case: Case) -> Outcome:
    """The library's answer to ``case`` and whether it is the expected one."""
    try:
        actual = answer(case)
    except (RecordError, IllegalActionError, ConfigError) as error:
        return Outcome(case, None, str(error))
    return Outcome(case, actual, None)


def check_suite(directory: str | Path) -> tuple[Outcome, ...]:
    """Check every case under ``directory`` against the library."""
    return tuple(check_case(case) for case in read_suite(directory))


def _check_turns(config: Config, plays: Sequence[Play], path: str) -> None:
    """A trick's seats go clockwise from its leader (A, B, A, B in Devil's Eye: TURN-ORDER)."""
    for index in range(1, len(plays)):
        wanted = next_to_play(config, plays[index - 1].seat)
        if plays[index].seat != wanted:
            raise RecordError(child(child(path, index), 0), f"seat {wanted} plays here")


def _play_state(
    config: Config,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
    bottles: tuple[Bottle, ...],
    plays: tuple[Play, ...],
    leader: int,
) -> GameState:
    """A state in trick play: seats hold ``hands`` (and ``face_up``), ``plays`` are the current
    trick so far, ``leader`` led it; the seat after the last play (or the leader) is to act. The
    rest is a fresh round's: nothing captured, no trick taken, no Devil's Trick."""
    base = new_game(config, 0)
    to_act = next_to_play(config, plays[-1].seat) if plays else leader
    round_ = evolve(
        base.round,
        hands=tuple(tuple(sorted(hand, key=rank_key)) for hand in hands),
        face_up=face_up,
        plays=plays,
        leader=leader,
        bottles=bottles,
    )
    return evolve(base, phase=Phase.PLAY, to_act=to_act, round=round_)


def _answer_trick(deck: CaseInput, input_: dict[str, JSON], path: str) -> JSON:
    config = deck.config
    bottles = deck.bottles(input_["bottles"], child(path, "bottles"))
    trick = deck.plays(input_["trick"], child(path, "trick"))
    if len(trick) != config.trick_size:
        raise RecordError(child(path, "trick"), f"a trick has {config.trick_size} cards")
    _check_turns(config, trick, child(path, "trick"))
    price_cards = {bottle.price_card for bottle in bottles if bottle.price_card is not None}
    if price_cards & {play.card for play in trick}:
        raise RecordError(child(path, "trick"), "a card under a bottle cannot be played")
    hands: list[tuple[Card, ...]] = [() for _ in range(config.players)]
    for play in trick:
        hands[play.seat] += (play.card,)
    face_up = ((),) * config.players if config.devils_eye else None
    state = _play_state(config, tuple(hands), face_up, bottles, (), trick[0].seat)
    for play in trick:
        state = apply(state, play)
    return trick_outcome(bottles, ((),) * config.players, state.round)


def trick_outcome(
    bottles_before: Sequence[Bottle],
    captured_before: Sequence[Sequence[Card]],
    after: RoundState,
) -> dict[str, JSON]:
    """A trick case's expected answer for the last trick of ``after``: winner, winning card,
    bottle bought, bottles after, what the winner takes and where the old price card goes."""
    result = after.tricks[-1]
    gained = [
        [card for card in after.captured[seat] if card not in captured_before[seat]]
        for seat in range(len(after.captured))
    ]
    returned: JSON = None
    back = None if result.bottle is None else returned_price_card(bottles_before[result.bottle])
    if back is not None:
        owner, price_card = back
        returned = {"seat": owner, "card": price_card.rank}
        gained[owner].remove(price_card)
    return {
        "winner": result.winner,
        "winning_card": result.winning_card.rank,
        "bottle": result.bottle,
        "bottles": bottles_to_json(after.bottles),
        "winner_takes": ranks(gained[result.winner]),
        "returned_price_card": returned,
    }


def _answer_legal_plays(deck: CaseInput, input_: dict[str, JSON], path: str) -> JSON:
    config = deck.config
    seat = deck.seat(input_["seat"], child(path, "seat"))
    hand = deck.cards(input_["hand"], child(path, "hand"))
    own_face_up: tuple[Card, ...] = ()
    if input_.get("face_up") is not None:
        if not config.devils_eye:
            raise RecordError(child(path, "face_up"), "face-up cards are for 2 players only")
        own_face_up = deck.cards(input_["face_up"], child(path, "face_up"))
    trick = deck.plays(input_["trick"], child(path, "trick"))
    if len(trick) >= config.trick_size:
        raise RecordError(child(path, "trick"), "the trick so far is already complete")
    _check_turns(config, trick, child(path, "trick"))
    if trick and seat != next_to_play(config, trick[-1].seat):
        raise RecordError(child(path, "seat"), "it is not this seat's turn after the trick so far")
    if set(hand) & set(own_face_up) or (set(hand) | set(own_face_up)) & {p.card for p in trick}:
        raise RecordError(path, "a card is both held and played")
    attempts = None
    if "attempts" in input_:
        attempts_path = child(path, "attempts")
        attempts = tuple(deck.card(item, child(attempts_path, index)) for index, item
                         in enumerate(expect_list(input_["attempts"], attempts_path)))
    hands = tuple(hand if s == seat else () for s in range(config.players))
    face_up = (
        tuple(tuple(sorted(own_face_up, key=rank_key)) if s == seat else () for s in range(config.players))
        if config.devils_eye
        else None
    )
    leader = trick[0].seat if trick else seat
    state = _play_state(config, hands, face_up, tuple(Bottle() for _ in range(config.bottles)), trick, leader)
    legal = [action.card for action in legal_actions(state) if isinstance(action, Play)]
    result: dict[str, JSON] = {"legal": ranks(legal)}
    if attempts is not None:
        refusals: list[JSON] = []
        for card in attempts:
            try:
                check_action(state, Play(seat, card))
            except IllegalActionError as error:
                refusals.append(error.rule_id)
            else:
                refusals.append(None)
        result["attempts"] = refusals
    return result


def apply_setup_entry(state: GameState, seat: int, gives: Sequence[Give]) -> GameState:
    """``state`` after ``seat`` gives its whole setup, one ``Give`` at a time; an illegal give, or
    an entry that leaves the seat's setup unfinished, raises ``IllegalActionError``."""
    for give in gives:
        state = apply(state, give)
    wanted = setup_steps(state.config, state.round.dealer, seat)
    if len(state.round.setup[seat]) < len(wanted):
        raise IllegalActionError(
            "SETUP-STEPS",
            f"seat {seat} gives {len(state.round.setup[seat])} setup cards, not {len(wanted)}: "
            f"{', '.join(step.value for step in wanted)}",
        )
    return state


def _answer_setup(deck: CaseInput, input_: dict[str, JSON], path: str) -> JSON:
    config = deck.config
    dealer = deck.seat(input_["dealer"], child(path, "dealer"))
    hands = deck.rows(input_["hands"], child(path, "hands"))
    face_up = None
    if input_.get("face_up") is not None:
        face_up = deck.rows(input_["face_up"], child(path, "face_up"))
    entries = expect_list(input_["setup"], child(path, "setup"))
    if len(entries) != config.players:
        raise RecordError(child(path, "setup"), f"expected one entry per seat ({config.players})")
    try:
        state = with_deal(new_game(config, 0, first_dealer=dealer), hands, face_up)
        while state.phase is Phase.SETUP:
            seat = state.to_act
            assert seat is not None
            entry_path = child(child(path, "setup"), seat)
            gives = gives_from_entry(config, seat, entries[seat], entry_path)
            state = apply_setup_entry(state, seat, [give for give, _ in gives])
    except (IllegalActionError, RecordError) as error:
        if error.rule_id is None:  # a malformed entry, not a setup the rules refuse
            raise
        return {"error": error.rule_id}
    return {**zones_to_json(state.round), "leader": state.to_act}


def _answer_scoring(deck: CaseInput, input_: dict[str, JSON], path: str) -> JSON:
    config = deck.config
    captured = deck.rows(input_["captured"], child(path, "captured"))
    bottles = deck.bottles(input_["bottles"], child(path, "bottles"))
    devils_trick = deck.cards(input_["devils_trick"], child(path, "devils_trick"))
    zones = [card for pile in captured for card in pile] + list(devils_trick)
    zones += [bottle.price_card for bottle in bottles if bottle.price_card is not None]
    if len(set(zones)) != len(zones):
        raise RecordError(path, "a card is in two places")
    return {"scores": list(round_scores(config, captured, bottles, devils_trick))}


_VERDICTS: Final = {0: "valid", 1: "broken", 2: "unreadable"}


def _answer_record(_deck: CaseInput, input_: dict[str, JSON], path: str) -> JSON:
    """The validator's verdict, in the shape spec/conformance/README.md gives."""
    from ..validation._replay import validate_json

    report = validate_json(input_["record"])
    verdict: dict[str, JSON] = {"verdict": _VERDICTS[report.status]}
    if report.errors:
        fault = report.errors[0]
        verdict["rule"] = fault.rule
        if report.status == 1:
            verdict.update({"round": fault.round, "play": fault.play, "seat": fault.seat})
    return verdict


_ANSWERS: Final[dict[str, Callable[[CaseInput, dict[str, JSON], str], JSON]]] = {
    "trick": _answer_trick,
    "legal_plays": _answer_legal_plays,
    "setup": _answer_setup,
    "scoring": _answer_scoring,
    "record": _answer_record,
}

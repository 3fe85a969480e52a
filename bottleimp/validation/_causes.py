"""The likely root cause of a broken record: which usual engine bug the record is consistent with.

A record written by a buggy engine breaks a rule where the bug first shows, which is seldom the
bug itself: passes sent the wrong way show as a card played that the seat does not hold
(``CARD-HELD``), wrong colours as ``FOLLOW-SUIT``, wrong coins as a wrong score
(``SCORE-ROUND``), a dealer that does not rotate as ``DEALER-ROTATION`` or as the wrong seat
leading (``TURN-ORDER``). ``likely_causes`` replays the record under each usual cause, one round
at a time (each round on its own, as the first round of a record, so that a round is judged by
its own deal, setup and plays), and names the causes under which the round where the record
broke replays legally:

- the passes resolved the other way: each seat's ``left`` card to its right neighbour and its
  ``right`` card to its left one (``SETUP-RESOLVE``; 3-6 players);
- another deck's colours (which cards share a colour; a mere renaming of colours changes no
  play and is not tried) or another deck's coins, for every deck of ``bottleimp/data/decks``
  with the same ranks (``DECK``);
- another seat dealing that round (``DEALER-ROTATION``; ``FIRST-DEALER`` for the first round);
- when the round is legal as recorded and only the order of dealers is wrong: the deal passing
  the other way, the same seat dealing every round, or a dealer chosen otherwise.

The fewest causes that explain the round are reported (one, else two, else three, one of each
kind), each with the rounds it makes legal: a cause under which every round replays legally is
the record's root cause as far as replay can tell ("consistent with", never proof).

The search replays at most ``MAX_SEARCH_VALUES`` JSON values in all (each replay of a round
counts the values of the round and of the configuration), so that its work is bounded whatever
the record holds: when that budget runs out, the search stops, keeps the causes it had checked
in full, and says that it was cut short.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations, product
from typing import Final

from attrs import frozen

from .._cards import Card
from .._editions import every_deck
from ..formats._config_json import deck_to_json
from ..formats._json_input import JSON
from ..formats._records import GameRecord
from ..rules.deal import next_dealer
from ._reports import BROKEN, VALID, Cause, ValidationReport

__all__ = ["MAX_SEARCH_VALUES", "Cause", "CauseSearch", "likely_causes"]

Validate = Callable[[JSON], ValidationReport]
"""Validates a record given as JSON (without looking for causes)."""

Transform = Callable[[dict[str, JSON], dict[str, JSON]], None]
"""Changes a one-round record's ``config`` and round in place, as a cause would."""


@frozen
class _Hypothesis:
    kind: str
    """``passes``, ``colours``, ``coins`` or ``dealer``: at most one of each kind is combined."""
    name: str
    rule: str
    words: str
    transform: Transform


_MAX_CAUSES: Final = 3
"""The most causes combined to explain one round."""

MAX_SEARCH_VALUES: Final = 1_000_000
"""The most JSON values the search replays in all, over every round and cause tried: a few
seconds of replay at most. A whole search of an 8-round game of the usual bugs replays about
10,000 values, of a 30-round game about 20,000, so the budget cuts short only records of
hundreds of rounds, or rounds far larger than a game's."""


@frozen
class CauseSearch:
    """What the search found: ``causes``, and whether it was ``cut_short`` by its budget
    (``MAX_SEARCH_VALUES``) before it had tried every cause; the causes found are then
    those it had checked in full."""

    causes: tuple[Cause, ...]
    cut_short: bool


class _OutOfBudget(Exception):
    """The search has replayed ``MAX_SEARCH_VALUES`` values: it stops."""


def likely_causes(
    value: JSON, record: GameRecord, report: ValidationReport, validate: Validate,
    budget: int = MAX_SEARCH_VALUES,
) -> CauseSearch:
    """The likely causes of ``report``'s fault (see the module docstring); ``value`` is the
    record as JSON, ``record`` as read, ``validate`` the validator (without causes), ``budget``
    the most JSON values replayed."""
    found: list[Cause] = []
    try:
        return CauseSearch(_likely_causes(value, record, report, validate, budget, found), False)
    except _OutOfBudget:
        return CauseSearch(tuple(found), True)


def _likely_causes(
    value: JSON, record: GameRecord, report: ValidationReport, validate: Validate, budget: int,
    found: list[Cause],
) -> tuple[Cause, ...]:
    """The causes; ``found`` holds the best ones checked in full so far (what is kept when the
    budget runs out)."""
    if report.status != BROKEN or not isinstance(value, dict):
        return ()
    fault = report.errors[0]
    config, rounds = value.get("config"), value.get("rounds")
    if (fault.round is None or not isinstance(config, dict) or not isinstance(rounds, list)
            or fault.round >= len(rounds)):
        return ()
    judge = _Judge(value, config, rounds, validate, claims=True, budget=budget)
    if judge.legal(fault.round, ()):
        return _dealer_order(record, judge, ()) if fault.rule == "DEALER-ROTATION" else ()
    kinds: dict[str, list[_Hypothesis]] = {}
    for hypothesis in _hypotheses(record, fault.round):
        kinds.setdefault(hypothesis.kind, []).append(hypothesis)
    causes = _search(judge, list(kinds.values()), fault.round, found, _as_checked)
    if not causes:
        # No known deck's coins explain the scores: set the claimed scores aside, and say so.
        judge = judge.without_claims()
        if judge.legal(fault.round, ()):
            causes = (_unknown_coins(judge),)
        else:
            causes = _search(judge, list(kinds.values()), fault.round, found, _with_other_coins)
    found[:] = causes
    whole = next((c for c in causes if c.whole_record), None)
    if whole is not None:
        base = tuple(h for kind in kinds.values() for h in kind
                     if h.name in whole.hypotheses and h.kind != "dealer")
        causes += _dealer_order(record, judge, base)
    return causes


def _as_checked(cause: Cause) -> Cause:
    return cause


def _with_other_coins(cause: Cause) -> Cause:
    """A cause found with the claimed scores set aside, saying so."""
    return Cause(cause.rules if "DECK" in cause.rules else (*cause.rules, "DECK"),
                 cause.hypotheses,
                 cause.message + "; the claimed scores still differ under every known deck's "
                 "coins: the coins may be ones no known deck has", cause.rounds, cause.whole_record)


def _search(
    judge: _Judge, kinds: list[list[_Hypothesis]], fault_round: int, found: list[Cause],
    said: Callable[[Cause], Cause],
) -> tuple[Cause, ...]:
    """The fewest hypotheses that make the fault's round legal, preferring those that make
    every round legal; else the fewest that make the fault's round legal. ``found`` is kept
    to the best causes checked in full so far; ``said`` words each cause found."""
    partial: tuple[Cause, ...] = ()
    for size in range(1, _MAX_CAUSES + 1):
        causes: list[Cause] = []
        for combination in _combinations(kinds, size):
            if judge.legal(fault_round, combination):
                causes.append(said(_cause(judge, combination, fault_round)))
                found[:] = [c for c in causes if c.whole_record] or partial or causes
        whole = tuple(cause for cause in causes if cause.whole_record)
        if whole:
            return whole
        if causes and not partial:
            partial = tuple(causes)
    return partial


def _unknown_coins(judge: _Judge) -> Cause:
    broken = [index for index in range(len(judge.rounds))
              if not judge.legal(index, ()) or index in judge.score_faults()]
    whole = all(judge.legal(index, ()) for index in range(len(judge.rounds)))
    return Cause(("DECK", "SCORE-ROUND"), ("coins:unknown",),
                 f"every play {'of every round ' if whole else ''}is legal and only the claimed "
                 "scores differ, under the coins of every known deck: consistent with coins no "
                 "known deck has, or with round scores added up wrongly: DECK, SCORE-ROUND",
                 tuple(broken), whole)


class _Judge:
    """Replays single rounds of the record, changed by hypotheses, and remembers the verdicts."""

    def __init__(self, value: dict[str, JSON], config: dict[str, JSON], rounds: list[JSON],
                 validate: Validate, claims: bool, budget: int) -> None:
        self.value = value
        self.config = config
        self.rounds = rounds
        """Every round of the record, indexed as in the record."""
        self.validate = validate
        self.claims = claims
        """Whether the rounds' claimed scores are judged too (else they are set aside)."""
        self.seen: dict[tuple[int, tuple[str, ...]], bool] = {}
        self.left = [budget]
        """The JSON values the search may still replay (shared with ``without_claims``)."""
        self.config_values = _count_values(_without_extensions(config))
        self.round_values: dict[int, int] = {}

    def without_claims(self) -> _Judge:
        """A judge of the same rounds that sets the claimed scores aside, on the same budget."""
        other = _Judge(self.value, self.config, self.rounds, self.validate, False, 0)
        other.left = self.left
        other.config_values = self.config_values
        other.round_values = self.round_values
        return other

    def _spend(self, index: int, round_: dict[str, JSON]) -> None:
        """Count one replay of round ``index`` against the budget; stop the search past it."""
        if index not in self.round_values:
            self.round_values[index] = _count_values(_without_extensions(round_))
        cost = self.config_values + self.round_values[index]
        if cost > self.left[0]:
            self.left[0] = 0
            raise _OutOfBudget
        self.left[0] -= cost

    def score_faults(self) -> list[int]:
        """The rounds whose claimed scores the rules contradict, as recorded."""
        faults = []
        for index in range(len(self.rounds)):
            claims, self.claims = self.claims, True
            try:
                if not self.legal(index, ()):
                    faults.append(index)
            finally:
                self.claims = claims
        return faults

    def legal(self, index: int, hypotheses: Sequence[_Hypothesis]) -> bool:
        key = (index, tuple(h.name for h in hypotheses) + (("claims",) if self.claims else ()))
        if key not in self.seen:
            round_ = self.rounds[index]
            if not isinstance(round_, dict):
                return False
            self._spend(index, round_)
            # Copies without extension keys (``_...``): a hostile record's bulk is not copied
            # once per cause tried.
            config = copy.deepcopy(_without_extensions(self.config))
            changed = copy.deepcopy(_without_extensions(round_))
            config.pop("rounds", None)
            config.pop("target_score", None)
            for hypothesis in hypotheses:
                hypothesis.transform(config, changed)
            if not self.claims:
                changed["scores"] = None
            alone: dict[str, JSON] = {"format": self.value.get("format"), "config": config,
                                      "rounds": [changed]}
            self.seen[key] = self.validate(alone).status == VALID
        return self.seen[key]

    def broken_rounds(self) -> list[int]:
        return [index for index in range(len(self.rounds)) if not self.legal(index, ())]


def _without_extensions(obj: dict[str, JSON]) -> dict[str, JSON]:
    return {key: item for key, item in obj.items() if not key.startswith("_")}


def _count_values(value: JSON) -> int:
    """How many JSON values ``value`` holds, itself included (without recursion)."""
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def _combinations(kinds: list[list[_Hypothesis]], size: int) -> Iterator[tuple[_Hypothesis, ...]]:
    """Every choice of one hypothesis from each of ``size`` different kinds: the kinds in
    order, and for each choice of kinds the first kind's hypothesis changing fastest."""
    for chosen in combinations(range(len(kinds)), size):
        for picks in product(*[kinds[kind] for kind in reversed(chosen)]):
            yield picks[::-1]


def _hypotheses(record: GameRecord, fault_round: int) -> list[_Hypothesis]:
    config = record.config
    found: list[_Hypothesis] = []
    if config.players >= 3 and not config.devils_eye:
        found.append(_Hypothesis("passes", "passes-reversed", "SETUP-RESOLVE",
                                 "passes going the other way", _reverse_passes))
    cards = config.cards
    ranks = [card.rank for card in cards]
    ours = _colour_groups(cards)
    for edition, deck in every_deck():
        if [card.rank for card in deck.cards] != ranks:
            continue
        name = f"{edition}/{deck.name}"
        if _colour_groups(deck.cards) != ours:
            coloured = tuple(Card(c.rank, d.colour, c.coins) for c, d in zip(cards, deck.cards))
            found.append(_Hypothesis("colours", f"colours:{name}", "DECK",
                                     f"the colours of the {deck.name} deck", _with_deck(coloured)))
        if [card.coins for card in deck.cards] != [card.coins for card in cards]:
            coined = tuple(Card(c.rank, c.colour, d.coins) for c, d in zip(cards, deck.cards))
            found.append(_Hypothesis("coins", f"coins:{name}", "DECK",
                                     f"the coins of the {deck.name} deck", _with_deck(coined)))
    recorded = record.rounds[fault_round].dealer if fault_round < len(record.rounds) else None
    rule = "FIRST-DEALER" if fault_round == 0 else "DEALER-ROTATION"
    for seat in range(config.players):
        if seat != recorded:
            found.append(_Hypothesis(
                "dealer", f"dealer:{fault_round}:{seat}", rule,
                f"seat {seat} dealing round {fault_round + 1} (the record says seat {recorded})",
                _with_dealer(seat)))
    return found


def _colour_groups(cards: Sequence[Card]) -> frozenset[frozenset[float]]:
    """Which ranks share a colour, whatever the colours are called."""
    groups: dict[str, set[float]] = {}
    for card in cards:
        groups.setdefault(card.colour.value, set()).add(card.rank)
    return frozenset(frozenset(group) for group in groups.values())


def _reverse_passes(config: dict[str, JSON], round_: dict[str, JSON]) -> None:
    setup = round_.get("setup")
    for entry in setup if isinstance(setup, list) else []:
        if isinstance(entry, dict) and "left" in entry and "right" in entry:
            entry["left"], entry["right"] = entry["right"], entry["left"]


def _with_deck(cards: tuple[Card, ...]) -> Transform:
    def transform(config: dict[str, JSON], round_: dict[str, JSON]) -> None:
        config["deck"] = deck_to_json(cards)
    return transform


def _with_dealer(seat: int) -> Transform:
    def transform(config: dict[str, JSON], round_: dict[str, JSON]) -> None:
        round_["dealer"] = seat
    return transform


def _cause(judge: _Judge, hypotheses: tuple[_Hypothesis, ...], fault_round: int) -> Cause:
    """How far ``hypotheses`` explain the record: the broken rounds they make legal (a dealer
    hypothesis is about its own round; in the other rounds any dealer is tried with the rest)."""
    rest = tuple(h for h in hypotheses if h.kind != "dealer")
    dealt_otherwise = len(rest) != len(hypotheses)
    explained: list[int] = []
    unexplained: list[int] = []
    for index in judge.broken_rounds():
        if index == fault_round or judge.legal(index, rest):
            explained.append(index)
        elif dealt_otherwise and any(judge.legal(index, (*rest, h)) for h in _dealers(judge, index)):
            explained.append(index)
        else:
            unexplained.append(index)
    words = " and ".join(h.words for h in hypotheses)
    rules = tuple(dict.fromkeys(h.rule for h in hypotheses))
    total = len(judge.rounds)
    if not unexplained:
        reach = f"all {total} rounds replay legally so" if total > 1 else "the round replays legally so"
    else:
        reach = (f"round{'s' if len(explained) > 1 else ''} "
                 f"{', '.join(str(i + 1) for i in explained)} replay{'s' if len(explained) == 1 else ''} "
                 f"legally so; round{'s' if len(unexplained) > 1 else ''} "
                 f"{', '.join(str(i + 1) for i in unexplained)} still break{'s' if len(unexplained) == 1 else ''} "
                 "a rule")
    return Cause(rules, tuple(h.name for h in hypotheses),
                 f"consistent with {words}: {', '.join(rules)} ({reach})",
                 tuple(explained), not unexplained)


def _dealers(judge: _Judge, index: int) -> list[_Hypothesis]:
    players = judge.config.get("players")
    count = players if isinstance(players, int) else 0
    return [_Hypothesis("dealer", f"dealer:{index}:{seat}", "DEALER-ROTATION", "",
                        _with_dealer(seat)) for seat in range(count)]


def _dealer_order(
    record: GameRecord, judge: _Judge, base: tuple[_Hypothesis, ...]
) -> tuple[Cause, ...]:
    """When every round is legal on its own with its recorded dealer (under ``base``) and the
    dealers are out of rotation: how they were chosen, as far as the record shows."""
    players = record.config.players
    dealers = [round_.dealer for round_ in record.rounds]
    total = len(dealers)
    out_of_turn = tuple(index for index in range(1, total)
                        if dealers[index] != next_dealer(record.config, dealers[index - 1]))
    if not out_of_turn or not all(judge.legal(index, base) for index in range(total)):
        return ()
    steps = {(later - earlier) % players for earlier, later in zip(dealers, dealers[1:])}
    if steps == {players - 1}:
        name, words = "dealers:counter-clockwise", "the deal passing to the right (counter-clockwise)"
    elif steps == {0}:
        name, words = "dealers:same-seat", f"seat {dealers[0]} dealing every round"
    else:
        name, words = "dealers:other", ("a dealer chosen otherwise than by rotation (at random?): "
                                        f"seats {', '.join(map(str, dealers))}")
    return (Cause(("DEALER-ROTATION",), (name,),
                  f"consistent with {words}: DEALER-ROTATION (every round replays legally with "
                  f"its recorded dealer, {total} round{'s' if total != 1 else ''})",
                  out_of_turn, True),)

"""The analysis of a recorded game: where each seat lost coins (``bottleimp analyse``).

The record is replayed by the validator (``bottleimp.validation.validate_record``, observed): a
malformed record gets the validator's error and nothing is analysed; a record that breaks a rule
is analysed up to the broken rule, which the analysis names. For every play of trick play that
the replay accepted, the open-hand solver (``bottleimp.analysis._solver``) gives the value of each
legal card for the acting seat's side: the side's round score when it plays best and every other
seat plays against it, all hands visible (the *paranoid* value). The *loss* of a play is the
value of the best card minus the value of the card played (0 for a best card). A seat's coins
lost in a round are the sum of the losses of its plays; the value of the deal for a seat is the
value, for its side, of the position once the setup is resolved.

Positions are solved from the end of each round backwards, so that the transposition table
filled by the short endgames serves the longer positions before them, and so that each played
card's solve starts from the bounds the later positions prove of its value (``_before``): the
value of a position for the side of its seat to act is the best of its cards' values, and for
any other side at most the value of the position after the card played; the deal's value is
solved once a side, from the same bounds. Each solve has a node
budget and a share of the round's time budget; past either, a value is a bound (``lower`` <
``upper``) and a loss computed from bounds is a bound too.

With ``worlds`` > 0 each decision also gets an *estimate*: the mean and spread of each card's
value over that many deals drawn from what the acting seat could see
(``bottleimp.bots._worlds.sample_world``), each solved open-hand. Sampling over open-hand solves
suffers strategy fusion (the solver in each world knows the hidden cards), so it is an estimate,
labelled so, and not a value.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any, Final

from attrs import frozen

from .._actions import Action, Play
from .._cards import Rank
from .._config import Config
from .._engine import apply, legal_actions
from ..formats._config_json import config_to_json
from ..formats._json_input import JSON
from ..formats._records import parse_record
from .._state import GameState, Phase
from ..validation import UNREADABLE, Fault, validate_json, validate_record
from ..bots._worlds import sample_world
from .._view import view
from .._transitions import after_play, legal_actions_of
from ._solver import DEFAULT_NODE_BUDGET, Solver, Valuation, card_values, side_of

__all__ = [
    "ANALYSIS_FORMAT", "Analysis", "CardEstimate", "PlayAnalysis", "RoundAnalysis",
    "analyse_json", "analysis_to_json", "analysis_to_text", "loss_of", "round_positions",
]

ANALYSIS_FORMAT: Final = "bottleimp-analysis/1"
ROUND_SECONDS: Final = 60.0
"""The default time budget of one round's analysis."""

Progress = Callable[[int, int], None]
"""Told ``(positions done, positions in all)`` as the analysis goes."""


@frozen
class CardEstimate:
    """A card's value averaged over sampled worlds: an estimate, with its spread."""

    card: Rank
    mean: float
    sd: float


@frozen
class PlayAnalysis:
    """One play: each legal card's value, the card played and the coins it lost."""

    play: int
    """The index of the play in the round's plays, from 0."""
    seat: int
    card: Rank
    values: tuple[tuple[Rank, Valuation], ...]
    """Each legal card with its value for the seat's side, in rank order."""
    loss: Valuation
    """The best card's value minus the played card's (bounds when the values are bounds)."""
    estimate: tuple[CardEstimate, ...] | None = None
    worlds: int = 0


@frozen
class RoundAnalysis:
    """One round: the value of its deal after the setup for each seat, its plays, the coins
    each seat lost. ``analysed`` is False when the record's replay stopped before trick play."""

    round: int
    dealer: int
    analysed: bool
    deal_values: tuple[Valuation, ...]
    plays: tuple[PlayAnalysis, ...]
    coins_lost: tuple[Valuation, ...]


@frozen
class Analysis:
    """The analysis of one record."""

    source: str
    config: Config | None
    fault: Fault | None
    """The validator's fault: the broken rule (analysed up to it), or why the record is
    unreadable (nothing analysed)."""
    unreadable: bool
    rounds: tuple[RoundAnalysis, ...]
    node_budget: int | None
    round_seconds: float | None
    seconds: float


def loss_of(values: tuple[tuple[Rank, Valuation], ...], card: Rank) -> Valuation:
    """The coins a card loses against the best one: exact from exact values, else the bounds
    the values' bounds allow."""
    best_lower = max(value.lower for _, value in values)
    best_upper = max(value.upper for _, value in values)
    played = dict(values)[card]
    return Valuation(max(0, best_lower - played.upper), max(0, best_upper - played.lower))


def _best_of(values: list[tuple[Rank, Valuation]]) -> Valuation:
    """The value of a position for the side of its seat to act, from the values of its legal
    cards for that side (that seat plays its side's best card): the best of them, or the bounds
    their bounds allow."""
    return Valuation(max(value.lower for _, value in values),
                     max(value.upper for _, value in values))


Bounds = dict[tuple[int, ...], tuple[int | None, int | None]]
"""Proved bounds (``None``: none) of the value of one position for each side."""


def _before(later: Bounds, acting: tuple[int, ...], best: Valuation) -> Bounds:
    """Each side's bounds for a position, from its cards' values for the side ``acting`` of its
    seat to act (their best, ``best``) and each side's bounds for the position after the card
    played, ``later``: the acting side's value is the best of its cards' values; for another
    side the seat to act plays against it (the paranoid value), so the value is at most that of
    the position after the card played, and no lower bound carries over."""
    return {side: (best.lower, best.upper) if side == acting else (None, bounds[1])
            for side, bounds in later.items()}


def _sum(values: list[Valuation]) -> Valuation:
    return Valuation(sum(v.lower for v in values), sum(v.upper for v in values))


class _Rounds:
    """A ``ReplayObserver`` keeping, per round, the state once the setup is resolved and the
    last state the replay reached."""

    def __init__(self) -> None:
        self.started: dict[int, GameState] = {}
        self.last: dict[int, GameState] = {}
        self.dealers: dict[int, int] = {}

    def __call__(self, event: str, state: GameState, action: Action | None,
                 fault: Fault | None) -> None:
        index = state.round.index
        if event == "deal":
            self.dealers[index] = state.round.dealer
        if event == "setup":
            self.started[index] = state
        if event in ("deal", "setup", "trick", "round", "broken", "end"):
            self.last[index] = state
            self.dealers.setdefault(index, state.round.dealer)


def round_positions(start: GameState, last: GameState) -> list[tuple[GameState, Play]]:
    """Each position of trick play from ``start`` (the setup just resolved) through the plays
    ``last`` holds, with the play the record made there: the engine's ``apply`` of each
    accepted play gives the next position."""
    positions = []
    state = start
    for play in last.round.plays[len(start.round.plays):]:
        positions.append((state, play))
        state = apply(state, play)
    return positions


def analyse_json(
    value: JSON,
    source: str = "<record>",
    *,
    node_budget: int | None = DEFAULT_NODE_BUDGET,
    round_seconds: float | None = ROUND_SECONDS,
    worlds: int = 0,
    seed: int = 0,
    progress: Progress | None = None,
) -> Analysis:
    """The analysis of a record given as JSON values (see the module's docstring)."""
    began = time.perf_counter()
    report = validate_json(value, source)
    if report.status == UNREADABLE:
        return Analysis(source, None, report.errors[0], True, (), node_budget, round_seconds,
                        time.perf_counter() - began)
    record = parse_record(value)  # the validator has read it
    observed = _Rounds()
    replayed = validate_record(record, source, observer=observed)
    fault = replayed.errors[0] if replayed.errors else None
    config = record.config
    work = {index: round_positions(observed.started[index], observed.last[index])
            for index in observed.started}
    total = sum(len(positions) + config.players for positions in work.values())
    done = [0]

    def step(count: int = 1) -> None:
        done[0] += count
        if progress is not None:
            progress(done[0], total)

    rounds = []
    for index in sorted(observed.dealers):
        if index not in work:
            rounds.append(RoundAnalysis(index, observed.dealers[index], False, (), (), ()))
            continue
        rounds.append(_analyse_round(
            index, observed.dealers[index], observed.started[index], work[index], node_budget,
            round_seconds, worlds, random.Random(seed * 1_000_003 + index), step))
    return Analysis(source, config, fault, False, tuple(rounds), node_budget, round_seconds,
                    time.perf_counter() - began)


def _analyse_round(
    index: int, dealer: int, start: GameState, positions: list[tuple[GameState, Play]],
    node_budget: int | None, round_seconds: float | None, worlds: int, rng: random.Random,
    step: Callable[[int], None],
) -> RoundAnalysis:
    config = start.config
    deadline = None if round_seconds is None else time.perf_counter() + round_seconds
    solvers: dict[tuple[int, ...], Solver] = {}

    def solver_for(seat: int, solves_left: int) -> Solver:
        side = side_of(config, seat)
        solver = solvers.get(side)
        if solver is None:
            solver = solvers[side] = Solver(side[0], config, node_budget=node_budget)
        if deadline is not None:
            solver.seconds = max(0.0, deadline - time.perf_counter()) / max(1, solves_left)
        return solver

    # Each solve's share of the time left: the solves still to come are the legal cards of
    # the positions before this one and the deal's value for every seat.
    cards = [len(legal_actions(state)) for state, _ in positions]
    solves_before = [sum(cards[:number]) for number in range(len(cards))]
    # Proved bounds of each side's value of the position after the one analysed (``_before``):
    # the played card's value, given to its solve.
    later: Bounds = {side_of(config, seat): (None, None) for seat in range(config.players)}
    plays: list[PlayAnalysis] = []
    for number, (state, played) in reversed(list(enumerate(positions))):
        seat = played.seat
        acting = side_of(config, seat)
        solver = solver_for(seat, solves_before[number] + cards[number] + config.players)
        values = []
        for play in legal_actions_of(state, seat):
            assert isinstance(play, Play)
            at_least, at_most = later[acting] if play == played else (None, None)
            values.append((play.card.rank, solver._solve_within(
                after_play(state, play), at_least=at_least, at_most=at_most)))
        later = _before(later, acting, _best_of(values))
        estimate = _estimate(state, worlds, rng, node_budget) if worlds else None
        plays.append(PlayAnalysis(len(state.round.plays), seat, played.card.rank, tuple(values),
                                  loss_of(tuple(values), played.card.rank), estimate, worlds))
        step(1)
    plays.reverse()
    deal_values = []
    by_side: dict[tuple[int, ...], Valuation] = {}  # one solve a side: the value is the side's
    for seat in range(config.players):
        side = side_of(config, seat)
        if side not in by_side:  # ``later`` holds the bounds of the start (or none, no plays)
            at_least, at_most = later[side]
            by_side[side] = solver_for(seat, config.players - seat)._solve_within(
                start, at_least=at_least, at_most=at_most)
        deal_values.append(by_side[side])
        step(1)
    coins_lost = tuple(_sum([p.loss for p in plays if p.seat == seat])
                       for seat in range(config.players))
    return RoundAnalysis(index, dealer, True, tuple(deal_values), tuple(plays), coins_lost)


def _estimate(state: GameState, worlds: int, rng: random.Random, node_budget: int | None
              ) -> tuple[CardEstimate, ...]:
    """Each legal card's value over ``worlds`` deals the acting seat cannot tell from the real
    one (``sample_world``), each solved open-hand: the mean and the standard deviation."""
    seat = state.to_act
    assert seat is not None
    seen = view(state, seat)
    samples: dict[Rank, list[int]] = {}
    for _ in range(worlds):
        world = sample_world(seen, rng)
        solver = Solver(seat, state.config, node_budget=node_budget)
        for play, valuation in card_values(world, solver):
            # A bound counts as its midpoint: the estimate is an estimate either way.
            samples.setdefault(play.card.rank, []).append(valuation.lower + valuation.upper)
    estimates = []
    for rank, doubled in sorted(samples.items()):
        values = [v / 2 for v in doubled]
        mean = sum(values) / len(values)
        sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) \
            if len(values) > 1 else 0.0
        estimates.append(CardEstimate(rank, mean, sd))
    return tuple(estimates)


def _valuation_json(valuation: Valuation) -> dict[str, Any]:
    return {"lower": valuation.lower, "upper": valuation.upper, "exact": valuation.exact}


def _fault_json(fault: Fault) -> dict[str, Any]:
    return {"rule": fault.rule, "round": fault.round, "play": fault.play, "seat": fault.seat,
            "message": fault.message, "path": fault.path}


def analysis_to_json(analysis: Analysis) -> dict[str, Any]:
    """The analysis as JSON values, format ``bottleimp-analysis/1`` (``spec/reports/``)."""
    status = "unreadable" if analysis.unreadable else "broken" if analysis.fault else "valid"
    return {
        "format": ANALYSIS_FORMAT,
        "source": analysis.source,
        "status": status,
        "fault": None if analysis.fault is None else _fault_json(analysis.fault),
        "config": None if analysis.config is None else config_to_json(analysis.config),
        "method": {
            "value": "paranoid open-hand",
            "node_budget": analysis.node_budget,
            "round_seconds": analysis.round_seconds,
        },
        "seconds": round(analysis.seconds, 3),
        "rounds": [
            {
                "round": round_.round,
                "dealer": round_.dealer,
                "analysed": round_.analysed,
                "deal_values": [_valuation_json(v) for v in round_.deal_values],
                "coins_lost": [_valuation_json(v) for v in round_.coins_lost],
                "plays": [_play_json(play) for play in round_.plays],
            }
            for round_ in analysis.rounds
        ],
    }


def _play_json(play: PlayAnalysis) -> dict[str, Any]:
    answer: dict[str, Any] = {
        "play": play.play,
        "seat": play.seat,
        "card": play.card,
        "values": [{"card": card, **_valuation_json(value)} for card, value in play.values],
        "loss": _valuation_json(play.loss),
    }
    if play.estimate is not None:
        answer["estimate"] = {
            "label": "estimate",
            "worlds": play.worlds,
            "values": [{"card": e.card, "mean": round(e.mean, 3), "sd": round(e.sd, 3)}
                       for e in play.estimate],
        }
    return answer


def _rank_text(rank: Rank) -> str:
    return str(int(rank)) if rank == int(rank) else str(rank)


def analysis_to_text(analysis: Analysis) -> str:
    """The analysis for people: per round, each seat's coins lost and the deal's value, then
    each play that lost coins with the values of the cards it could have played."""
    lines = [f"{analysis.source}: paranoid open-hand analysis "
             f"(values for the acting seat's side; [a, b] = bounds past the budget)"]
    if analysis.unreadable:
        fault = analysis.fault
        assert fault is not None
        lines.append(f"not a readable record: {fault.path}: {fault.message}")
        return "\n".join(lines)
    for round_ in analysis.rounds:
        lines.append(f"Round {round_.round + 1} (dealer seat {round_.dealer})")
        if not round_.analysed:
            lines.append("  not analysed: the replay stopped before trick play")
            continue
        lines.append("  seat  deal value  coins lost")
        for seat, (deal, lost) in enumerate(zip(round_.deal_values, round_.coins_lost)):
            lines.append(f"  {seat:>4}  {str(deal):>10}  {str(lost):>10}")
        for play in round_.plays:
            if play.loss.upper == 0 and play.estimate is None:
                continue
            cards = ", ".join(f"{_rank_text(card)}: {value}" for card, value in play.values)
            line = (f"  play {play.play + 1}: seat {play.seat} played {_rank_text(play.card)}, "
                    f"lost {play.loss} ({cards})")
            if play.estimate is not None:
                line += " estimate over " + f"{play.worlds} worlds: " + ", ".join(
                    f"{_rank_text(e.card)}: {e.mean:.1f}±{e.sd:.1f}" for e in play.estimate)
            lines.append(line)
    if analysis.fault is not None:
        fault = analysis.fault
        lines.append(f"The replay stops at rule {fault.rule} ({fault.path}): {fault.message}; "
                     "the analysis covers the plays before it.")
    lines.append(f"{analysis.seconds:.1f} s")
    return "\n".join(lines)

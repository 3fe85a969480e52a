"""The differential harness, the entry point: drive another implementation over
``bottleimp-protocol/3`` and compare every answer with the library's (``run_harness``)."""

from __future__ import annotations

import os
import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence

from .._config import Config
from .._errors import HarnessError, PeerFault
from ..formats._json_input import JSON
from ._cases import QuestionRow, ask_questions, position_questions
from ._groups import Nondeterminism, check_determinism, group_run, shrink_groups
from ._peer import DEFAULT_TIMEOUT, PeerSlot
from ._protocol import PROTOCOL, Capabilities, Referee, Variant
from ._report import (ConventionNote, HarnessReport, coverage, report_to_json, write_group,
                      write_peer_fault)
from ._session import (REFUSALS, Exchange, Failure, GameResult, GameRunner, GameScript, Mistake,
                      draw_script, negotiate, not_applicable, play_game)

__all__ = ["Failure", "HarnessReport", "MIN_REFUSALS", "play_game", "report_to_json", "run_harness"]


MIN_REFUSALS = 3
"""How many times a run sends each kind of illegal request at least (where the peer's
capabilities allow it at all)."""


def run_harness(
    command: Sequence[str],
    *,
    examples: int = 100,
    seed: int = 0,
    timeout: float = DEFAULT_TIMEOUT,
    out_dir: str | os.PathLike[str] | None = None,
    shrink_seconds: float = 60.0,
    log: Callable[[str], None] | None = None,
    cwd: str | os.PathLike[str] | None = None,
    players: Sequence[int] | None = None,
    editions: Sequence[str] | None = None,
    bottles: Sequence[int] | None = None,
    teams: bool | None = None,
    min_refusals: int = MIN_REFUSALS,
    questions: int = 0,
) -> HarnessReport:
    """Play ``examples`` games drawn from ``seed`` against ``command`` (a peer fault stops the
    run), ask ``questions`` rounds' worth of position questions, group the disagreements, check
    each group's first game for a non-deterministic peer, shrink one game per group (sharing
    ``shrink_seconds``) and write it to ``out_dir``. ``players``, ``editions``, ``bottles`` and
    ``teams`` narrow the peer's capabilities; ``cwd`` is its working directory."""
    if not command:
        raise HarnessError("the peer command is empty")
    say = log or (lambda text: None)
    slot = PeerSlot(command, timeout, cwd=cwd)
    results: list[GameResult] = []
    stop = False
    nondeterministic: tuple[Nondeterminism, ...] = ()
    asked: tuple[QuestionRow, ...] = ()
    questions_fault: str | None = None
    generated = 0
    try:
        try:
            declared = negotiate(slot.get())
        except PeerFault as fault:
            # A peer that fails its greeting fails the run, like any other peer fault.
            hello: dict[str, JSON] = {"op": "hello", "protocol": PROTOCOL}
            script = GameScript(Config(players=2), ())
            answered = fault.answer if isinstance(fault.answer, dict) else None
            failure = Failure(fault.kind, fault.message, script,
                              (Exchange(hello, Referee().handle(hello), answered),), None)
            return HarnessReport(passed=0, failed=1, groups=(), peer_fault=failure,
                                 peer_fault_written=write_peer_fault(failure, out_dir, seed)[0])
        capabilities = declared.narrowed(players=players, editions=editions, bottles=bottles,
                                         teams=teams)
        variants = capabilities.variants()
        ends = ("rounds",) if capabilities.one_round else capabilities.game_ends
        runner = GameRunner(slot, capabilities)

        def play(script: GameScript) -> bool:
            """Play ``script``: whether a peer fault stopped the run."""
            results.append(runner.play(script))
            return results[-1].peer_fault is not None

        rng = random.Random(seed)
        stop = any(play(draw_script(rng, variants, ends, capabilities.one_round))
                   for _ in range(examples))
        generated = len(results)
        if not stop:
            played = {(r.script.config.players, r.script.config.edition,
                       r.script.config.bottles) for r in results
                      if r.outcome != "unsupported" and r.script is not None}
            top_variants = [v for v in variants if (v.players, v.edition, v.bottles)
                            in played] or list(variants)
            stop = any(play(script) for script in _top_up(results, top_variants, seed,
                                                          min_refusals, capabilities, ends))
        if not stop and questions:
            cases = list(position_questions(variants, questions, seed, capabilities))
            try:
                asked = ask_questions(slot.get(), cases, capabilities.ignore)
            except PeerFault as fault:
                slot.discard()
                questions_fault = f"{fault.kind}: {fault.message}"
        groups, notes, asked = group_run(results, capabilities, variants, asked)
        if not stop:
            groups, nondeterministic = check_determinism(groups, runner.play)
            groups = shrink_groups(groups, runner.play, variants, shrink_seconds, say)
    finally:
        slot.discard()
    written = tuple(write_group(group, out_dir, seed) for group in groups)
    stopped = results[-1].peer_fault if stop else None
    stopped_written, problem = (None, None) if stopped is None \
        else write_peer_fault(stopped, out_dir, seed)
    if problem is not None:
        notes += (problem,)
    outcomes = Counter(result.outcome for result in results)
    return HarnessReport(
        passed=outcomes["passed"],
        failed=outcomes["failed"],
        unsupported=outcomes["unsupported"],
        groups=written,
        coverage=coverage(results),
        protocol=PROTOCOL,
        capabilities=declared,
        peer_fault=stopped,
        peer_fault_written=stopped_written,
        added=len(results) - generated,
        disagreements=sum(len(result.disagreements) for result in results),
        notes=notes,
        nondeterministic=nondeterministic,
        questions=asked,
        questions_fault=questions_fault,
        not_asked=_not_asked(declared, asked),
        conventions=_conventions(results),
        uncompared=tuple((number, what) for number, result in enumerate(results, 1)
                         for what in result.uncompared),
        resynchronised=tuple(sorted(Counter(way for result in results
                                            for way in result.trajectories).items())),
    )


def _conventions(results: Sequence[GameResult]) -> tuple[ConventionNote, ...]:
    """The library's conventions the peer chose otherwise, by rule: how often, in how many
    games, and the first time."""
    found: dict[str, list[tuple[int, str]]] = {}
    for number, result in enumerate(results, 1):
        for rule, message in result.notes:
            found.setdefault(rule, []).append((number, message))
    return tuple(ConventionNote(rule, len({n for n, _ in seen}), len(seen), seen[0][1])
                 for rule, seen in found.items())


def _not_asked(capabilities: Capabilities, asked: Sequence[QuestionRow]) -> tuple[str, ...]:
    """What the peer's shape kept the harness from asking, and what that leaves unjudged."""
    lines = []
    if not capabilities.set_position:
        lines.append("set_position: after a disagreement the library followed the peer's "
                     "answers; where they fixed no position, each later answer was judged on its "
                     "own by the rules that need none (its refusals of illegal requests were "
                     "not compared there: the illegal requests are built on the library's "
                     "position)")
    if asked and all(row.unsupported == row.asked for row in asked):
        lines.append("case: the peer answers no position question, so a rule is judged only "
                     "as far as the games reach it (a trick's rules on no chosen position, the "
                     "scores of no chosen piles; PRICE-CARD-RETURN shows only through scores)")
    if not capabilities.dealer:
        lines.append("dealer: the peer has no dealer; its first seat is mapped to the left of "
                     "the dealer each new_round names, so the first seat to set up and the "
                     "first leader (FIRST-LEADER) agree by construction")
    if capabilities.one_round:
        lines.append("one round only: the totals over rounds (GAME-TOTALS), the game's end "
                     "after several rounds or at a target (GAME-END) and a round dealt by the "
                     "peer's own rotation were not asked")
    return tuple(lines)


def _top_up(results: Sequence[GameResult], variants: Sequence[Variant], seed: int, minimum: int,
            capabilities: Capabilities,
            ends: Sequence[str]) -> Iterator[GameScript]:
    """Extra one-round games carrying the illegal requests sent fewer than ``minimum`` times
    (several to a game; three tries, since a game may end before a request's moment)."""
    rng = random.Random(seed)
    for _ in range(3):
        sent = Counter(refusal.kind for result in results for refusal in result.refusals)
        wanted = [Mistake(rng.randrange(60), index, rng.randrange(256))
                  for index, kind in enumerate(REFUSALS)
                  if not_applicable(kind, capabilities) is None and kind.when != "fresh"
                  for _ in range(max(0, minimum - sent[kind.name]))]
        if not wanted:
            return
        rng.shuffle(wanted)
        for start in range(0, len(wanted), 8):
            yield draw_script(variants=variants, rng=rng, mistakes=wanted[start:start + 8], ends=ends)

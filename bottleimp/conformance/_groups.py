"""Failed games put together by their disagreement (``Group``, ``group_run``), and one game
per group shrunk step by step within a time budget (``shrink_groups``)."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from attrs import evolve, frozen

from .._config import Config
from ..formats._cases import same_json
from ..formats._json_input import JSON
from ._cases import QuestionRow, questions_under_deck
from ._diagnose import DeckFault, declared_deck_faults, infer_deck_faults
from ._peer import plural
from ._protocol import Capabilities, Variant
from ._session import REFUSALS, Exchange, Failure, GameResult, GameScript, RoundScript

__all__ = ["Group", "Nondeterminism", "group_run", "check_determinism", "same_verdict",
           "shrink_groups"]

REPLAYS = 4
"""How many times each group's first game is played again to see whether the peer answers the
same requests the same way."""

PlayScript = Callable[[GameScript], GameResult]
"""Plays one generated game against the peer."""

ReplayScript = Callable[[GameScript, int], GameResult]
"""Plays one game again against the peer, up to its first so many requests."""


@frozen
class Group:
    """Disagreements with the same request ``op`` and rule over every game (``games``, from 1):
    the representative ``failure`` (shrunk, else ``not_shrunk`` says why), its record and the
    card data behind a deck group."""

    number: int
    op: str
    rule: str
    games: tuple[int, ...]
    failure: Failure | None
    shrunk: bool = False
    written: Path | None = None
    write_error: str | None = None
    deck: DeckFault | None = None
    count: int = 0
    not_shrunk: str | None = None
    trajectories: tuple[tuple[str, int], ...] = ()
    """How many of its disagreements were compared on each trajectory."""

    @property
    def size_text(self) -> str:
        """The size of the representative game, for the summary table."""
        if self.failure is None:
            return "-"
        rounds, exchanges, players = self.failure.size
        return f"{plural(rounds, 'round')}, {plural(exchanges, 'request')}, {players} players"


def group_run(results: Sequence[GameResult], capabilities: Capabilities,
              variants: Sequence[Variant], questions: Sequence[QuestionRow] = ()
              ) -> tuple[list[Group], tuple[str, ...], tuple[QuestionRow, ...]]:
    """Every disagreement grouped by its request and rule, except those a data fault of the
    deck (declared, or inferred from the games and the failed ``questions`` together) explains:
    they make the fault's ``DECK`` group (one with no game if only questions show it). With the
    groups: the notes (a consistent renaming of a declared deck's colours, no failure) and the
    ``questions`` with those a data fault explains counted under ``DECK``."""
    failures = [(number, failure) for number, result in enumerate(results, 1)
                for failure in result.disagreements]
    groups: list[Group] = []
    notes: tuple[str, ...] = ()
    if capabilities.decks:
        editions = {v.edition for v in variants}
        declared, notes = declared_deck_faults(capabilities, editions)
        games = tuple(number for number, result in enumerate(results, 1) if result.started)
        for fault in declared:
            groups.append(Group(0, fault.kind, "DECK", games, None, deck=fault,
                                not_shrunk="declared by the peer: no game to shrink"))
    inferred = infer_deck_faults([failure for _, failure in failures],
                                 [failure for row in questions for failure in row.failures],
                                 frozenset(edition for edition, _ in capabilities.decks))
    by_key: dict[tuple[str, str], list[tuple[int, Failure]]] = {}
    for number, failure in failures:
        key = next(((fault.kind, "DECK") for fault in inferred if fault.explains(failure)),
                   failure.key)
        by_key.setdefault(key, []).append((number, failure))
    by_kind = {fault.kind: fault for fault in inferred}
    for (op, rule), members in sorted(by_key.items(), key=lambda item: item[1][0][0]):
        games = tuple(sorted({n for n, _ in members}))
        ways = Counter(failure.trajectory for _, failure in members)
        groups.append(Group(0, op, rule, games, members[0][1], count=len(members),
                            deck=by_kind.get(op) if rule == "DECK" else None,
                            trajectories=tuple(sorted(ways.items()))))
    for fault in inferred:
        if (fault.kind, "DECK") not in by_key:
            groups.append(Group(0, fault.kind, "DECK", (), None, deck=fault,
                                not_shrunk="seen in the position questions only: no game to "
                                           "shrink"))
    return ([evolve(group, number=i) for i, group in enumerate(groups, 1)], notes,
            questions_under_deck(questions, inferred))


@frozen
class Nondeterminism:
    """The peer answered the same request, after the same requests, in two ways: the game (of
    group ``group``), the request, the two answers, and how many requests came before it."""

    group: int
    game: int
    request: dict[str, JSON]
    first: dict[str, JSON] | None
    again: dict[str, JSON] | None
    after: int

    def to_json(self) -> dict[str, JSON]:
        return {"group": self.group, "game": self.game, "request": self.request,
                "first": self.first, "again": self.again, "after_requests": self.after}


def check_determinism(groups: list[Group], replay: ReplayScript
                      ) -> tuple[list[Group], tuple[Nondeterminism, ...]]:
    """Play each group's first game again (``REPLAYS`` times) as far as its disagreement: a peer
    that answers a request otherwise (``same_verdict``) is not deterministic, and its group is
    not shrunk (a smaller game need not fail the same way)."""
    found: list[Nondeterminism] = []
    checked: list[Group] = []
    for group in groups:
        seen = None if group.failure is None or group.not_shrunk is not None \
            else _answered_otherwise(group, group.failure, replay)
        if seen is not None:
            found.append(seen)
            group = evolve(group, not_shrunk=(
                f"the peer is not deterministic: game {seen.game} played again got another "
                f"answer to request {seen.after + 1} ({seen.request.get('op')})"))
        checked.append(group)
    return checked, tuple(found)


def _answered_otherwise(group: Group, failure: Failure,
                        replay: ReplayScript) -> Nondeterminism | None:
    for _ in range(REPLAYS):
        # What the requests after the disagreement get is not compared: they are not played.
        again = replay(failure.script, len(failure.exchanges))
        if again.peer_fault is not None:
            return None
        # The request sent once per peer start is in the first play only when the peer was
        # fresh: it is left out on both sides, so the rest is compared.
        for (index, first), (_, second) in zip(_played(failure.exchanges),
                                               _played(again.exchanges)):
            if not same_json(first.request, second.request):
                break
            if first.actual is None or second.actual is None:
                break
            if not same_verdict(first.actual, second.actual):
                return Nondeterminism(group.number, group.games[0], first.request, first.actual,
                                      second.actual, index)
    return None


def _played(exchanges: Sequence[Exchange]) -> list[tuple[int, Exchange]]:
    """The exchanges of a game, each with its index, less the request sent only to a freshly
    started peer."""
    once = {kind.name for kind in REFUSALS if kind.when == "fresh"}
    return [(index, exchange) for index, exchange in enumerate(exchanges)
            if exchange.refusal not in once]


def _values(answer: JSON) -> JSON:
    """An answer without what carries no verdict: extension keys (``_``), at every depth."""
    if isinstance(answer, dict):
        return {key: _values(value) for key, value in answer.items() if not key.startswith("_")}
    if isinstance(answer, list):
        return [_values(item) for item in answer]
    return answer


def same_verdict(first: dict[str, JSON], again: dict[str, JSON]) -> bool:
    """Whether two answers of the peer to the same request say the same: two refusals that name
    the same rule (their ``error`` is free text for a person, a random name in it included), or
    two answers with the same values (numbers by value, extension keys left out)."""
    if first.get("ok") is False or again.get("ok") is False:
        return first.get("ok") is again.get("ok") and same_json(first.get("rule"),
                                                                 again.get("rule"))
    return same_json(_values(first), _values(again))


def shrink_groups(groups: list[Group], play: PlayScript, variants: Sequence[Variant],
                  seconds: float, say: Callable[[str], None]) -> list[Group]:
    """Shrink one game per group, the groups sharing ``seconds``."""
    pending = [g for g in groups if g.failure is not None]
    deadline = time.monotonic() + seconds
    result = []
    left = len(pending)
    for group in groups:
        if group.failure is None:
            result.append(group)
            continue
        budget = max(0.0, deadline - time.monotonic()) / max(1, left)
        left -= 1
        if group.not_shrunk is not None:
            result.append(group)
            continue
        if budget <= 0.05:
            result.append(evolve(group, not_shrunk="no shrinking time left (--shrink-seconds)"))
            continue
        say(f"group {group.number} ({group.op} {group.rule}, {len(group.games)} games): "
            f"shrinking game {group.games[0]} (at most {budget:.3g} s)")

        def in_group(failure: Failure, group: Group = group) -> bool:
            if group.rule == "DECK" and group.deck is not None:
                return group.deck.explains(failure)
            return failure.key == (group.op, group.rule)

        started = time.monotonic()
        smallest, finished = _shrink(play, variants, group.failure, started + budget, in_group)
        spent = min(budget, time.monotonic() - started)
        if smallest.size < group.failure.size:
            result.append(evolve(group, failure=smallest, shrunk=True))
        elif finished:
            result.append(evolve(group, not_shrunk="it is the smallest game found"))
        else:
            result.append(evolve(group, not_shrunk=f"no smaller game fell in the group in "
                                                   f"{spent:.3g} s of shrinking"))
    return result


def _shrink(play: PlayScript, variants: Sequence[Variant], failure: Failure, deadline: float,
            in_group: Callable[[Failure], bool]) -> tuple[Failure, bool]:
    """The group's game made simpler one step at a time (``_simpler``) while a step keeps a
    disagreement of the group no larger: the last such disagreement, and whether no step was
    left before ``deadline``. The seed alone decides it, up to the time."""
    best = failure
    improved = True
    while improved:
        improved = False
        for script in _simpler(best.script, variants):
            if time.monotonic() >= deadline:
                return best, False
            found = next((f for f in play(script).disagreements if in_group(f)), None)
            if found is not None and found.size <= best.size:
                best, improved = found, True
                break
    return best, True


def _simplicity(script: GameScript, variants: Sequence[Variant]) -> tuple[int, ...]:
    """What ``_simpler`` lowers, most telling first: the players, the rounds, the variant, the
    teams, the game's end, the first dealer, the mistakes and the scripted choices."""
    config = script.config
    index = next((i for i, v in enumerate(variants) if (v.players, v.edition, v.bottles)
                  == (config.players, config.edition, config.bottles)), len(variants))
    end = 0 if config.rounds is not None else 1 if config.target_score is not None else 2
    return (config.players, len(script.rounds), index, config.teams is not None, end,
            config.target_score or 0, script.first_dealer,
            sum(len(r.mistakes) for r in script.rounds),
            sum(len(r.choices) for r in script.rounds),
            sum(sum(r.choices) for r in script.rounds))


def _simpler(script: GameScript, variants: Sequence[Variant]) -> Iterator[GameScript]:
    """The games one step simpler than ``script`` (lower ``_simplicity``), simplest first."""
    config, rounds = script.config, script.rounds
    measure = _simplicity(script, variants)
    candidates: list[GameScript] = []
    if len(rounds) > 1:
        candidates.append(GameScript(
            config if config.rounds is None else evolve(config, rounds=1), rounds[:1],
            script.first_dealer))
    for variant in variants:
        smaller = Config(players=variant.players, edition=variant.edition,
                         bottles=variant.bottles, rounds=config.rounds,
                         target_score=config.target_score)
        candidates.append(GameScript(smaller, rounds, script.first_dealer % variant.players))
    if config.rounds is None:
        candidates.append(GameScript(evolve(config, rounds=len(rounds), target_score=None),
                                     rounds, script.first_dealer))
    if config.target_score is not None and config.target_score > 1:
        candidates.append(evolve(script, config=evolve(config,
                                                       target_score=config.target_score // 2)))
    candidates.append(evolve(script, first_dealer=0))
    for index, round_ in enumerate(rounds):
        def with_round(changed: RoundScript, index: int = index) -> GameScript:
            return evolve(script, rounds=rounds[:index] + (changed,) + rounds[index + 1:])
        for drop in range(len(round_.mistakes)):
            candidates.append(with_round(evolve(
                round_, mistakes=round_.mistakes[:drop] + round_.mistakes[drop + 1:])))
        choices = round_.choices
        for shorter in ((), choices[:len(choices) // 2]):
            candidates.append(with_round(evolve(round_, choices=shorter)))
        for at, choice in enumerate(choices):
            if choice:
                candidates.append(with_round(evolve(
                    round_, choices=choices[:at] + (0,) + choices[at + 1:])))
    yield from (c for c in candidates if _simplicity(c, variants) < measure)

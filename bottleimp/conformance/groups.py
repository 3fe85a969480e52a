"""Failed games put together by their disagreement (``Group``, ``group_failures``), and one game
per group shrunk by Hypothesis within a time budget (``shrink_groups``)."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from attrs import evolve, frozen

from .protocol import Capabilities, Variant
from .diagnose import DeckFault, declared_deck_faults, infer_deck_faults
from .session import Exchange, Failure, GameResult, Stop
from ..formats.json_input import JSON
from .peer import plural
from .cases import QuestionRow, question_failures, questions_under_deck
from .session import REFUSALS
from .vectors import same_json
from .session import GameScript

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = ["Group", "Grouping", "Nondeterminism", "group_failures", "group_run", "check_determinism", "same_verdict",
           "shrink_groups",
           "hypothesis_settings", "seed_alone_decides", "run_quietly"]

REPLAYS = 4
"""How many times each group's first game is played again to see whether the peer answers the
same requests the same way."""

PlayScript = Callable[[GameScript], GameResult]
"""Plays one generated game against the peer."""

ReplayScript = Callable[[GameScript, int], GameResult]
"""Plays one game again against the peer, up to its first so many requests."""


@frozen
class Group:
    """Disagreements with the same request ``op`` and rule, over every game.

    ``failure`` is the representative (shrunk when ``shrunk``, else ``not_shrunk`` says why),
    ``games`` the 1-based numbers of the games that met such a disagreement, ``count`` how many
    disagreements the group holds, ``written`` the record of the representative, ``deck`` the
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

    @property
    def size_text(self) -> str:
        """The size of the representative game, for the summary table."""
        if self.failure is None:
            return "-"
        rounds, exchanges, players = self.failure.size
        return f"{plural(rounds, 'round')}, {plural(exchanges, 'request')}, {players} players"


def hypothesis_settings(examples: int, shrink: bool) -> Callable[[Callable[..., None]],
                                                                   Callable[..., None]]:
    from hypothesis import HealthCheck, Verbosity, settings
    from hypothesis import Phase as HPhase

    phases = (HPhase.generate, HPhase.shrink) if shrink else (HPhase.generate,)
    result: Callable[[Callable[..., None]], Callable[..., None]] = settings(
        max_examples=examples,
        database=None,
        deadline=None,
        derandomize=False,
        phases=phases,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        print_blob=False,
    )
    return result


@contextlib.contextmanager
def seed_alone_decides() -> Iterator[None]:
    """Make the seed alone decide the generated games.

    Hypothesis (6.131 and later) mixes number literals found in every imported non-installed
    module into what it generates, so one seed would give other games depending on which
    modules happen to be imported and on how bottleimp is installed. During a run this switches
    that off (through a Hypothesis internal, restored afterwards); if the internal is missing, as
    in older versions that do not do it, nothing needs switching off."""
    try:
        from hypothesis.internal.conjecture import providers
    except ImportError:  # pragma: no cover - older Hypothesis layouts
        yield
        return
    getter = getattr(providers, "_get_local_constants", None)
    constants = getattr(providers, "Constants", None)
    cache = getattr(getattr(providers, "CONSTANTS_CACHE", None), "cache", None)
    clear = getattr(cache, "clear", None)
    if getter is None or constants is None or clear is None:
        yield
        return
    none = constants()
    setattr(providers, "_get_local_constants", lambda: none)
    clear()
    try:
        yield
    finally:
        setattr(providers, "_get_local_constants", getter)
        clear()


@frozen
class Grouping:
    """A run's disagreements put together: the groups, the notes (a consistent renaming of the
    colours in a declared deck, which is no failure), and the position questions with those a
    data fault of the deck explains counted under ``DECK``."""

    groups: list[Group]
    notes: tuple[str, ...]
    questions: tuple[QuestionRow, ...]


def group_run(results: Sequence[GameResult], capabilities: Capabilities,
              variants: Sequence[Variant], questions: Sequence[QuestionRow] = ()) -> Grouping:
    """``group_failures`` with the position questions: the deck is inferred from the games'
    disagreements and the questions the peer answered otherwise together, and the questions a
    data fault explains are counted under ``DECK``."""
    groups, notes = group_failures(results, capabilities, variants, questions)
    faults = [group.deck for group in groups
              if group.deck is not None and group.deck.source == "inferred"]
    return Grouping(groups, notes, questions_under_deck(questions, faults))


def group_failures(results: Sequence[GameResult], capabilities: Capabilities,
                   variants: Sequence[Variant], questions: Sequence[QuestionRow] = ()
                   ) -> tuple[list[Group], tuple[str, ...]]:
    """Every disagreement of every game grouped by its request and rule, the deck's data faults
    as groups of their own (``colours``, ``coins``: inferred from the games' disagreements and
    the failed position ``questions`` together); and notes (a consistent renaming of the
    colours in a declared deck, which is no failure). An inferred fault that explains no game's
    disagreement (only questions) is a group with no game."""
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
                                 question_failures(questions),
                                 frozenset(edition for edition, _ in capabilities.decks))
    by_key: dict[tuple[str, str], list[tuple[int, Failure]]] = {}
    for number, failure in failures:
        key = next(((fault.kind, "DECK") for fault in inferred if fault.explains(failure)),
                   failure.key)
        by_key.setdefault(key, []).append((number, failure))
    by_kind = {fault.kind: fault for fault in inferred}
    for (op, rule), members in sorted(by_key.items(), key=lambda item: item[1][0][0]):
        games = tuple(sorted({n for n, _ in members}))
        groups.append(Group(0, op, rule, games, members[0][1], count=len(members),
                            deck=by_kind.get(op) if rule == "DECK" else None))
    for fault in inferred:
        if (fault.kind, "DECK") not in by_key:
            groups.append(Group(0, fault.kind, "DECK", (), None, deck=fault,
                                not_shrunk="seen in the position questions only: no game to "
                                           "shrink"))
    return [evolve(group, number=i) for i, group in enumerate(groups, 1)], notes


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
    """Play each group's first game again (``REPLAYS`` times) as far as the group's
    disagreement and compare the peer's answers, request by request, while the requests are the
    same, on their rules and values (``same_verdict``; never a message's text): a peer that
    answers one otherwise is not deterministic. Its groups are not shrunk (a
    smaller game need not fail the same way)."""
    found: list[Nondeterminism] = []
    checked: list[Group] = []
    for group in groups:
        failure = group.failure
        if failure is None or group.not_shrunk is not None:
            checked.append(group)
            continue
        seen = _answered_otherwise(group, failure, replay)
        if seen is None:
            checked.append(group)
            continue
        found.append(seen)
        checked.append(evolve(group, not_shrunk=(
            f"the peer is not deterministic: game {seen.game} played again got another answer "
            f"to request {seen.after + 1} ({seen.request.get('op')})")))
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


def run_quietly(test: Callable[[], None]) -> None:
    """Run a Hypothesis test whose failures the harness has already recorded."""
    try:
        test()
    except Stop:
        pass
    except Exception as error:  # Hypothesis wraps a replay that did not fail the same way
        if not _only_stops(error):
            raise


def _only_stops(error: BaseException) -> bool:
    """Whether ``error`` is the harness's own stop, or Hypothesis reporting that a replay did
    not fail again (the harness passes every game once its shrinking time is up)."""
    if isinstance(error, Stop):
        return True
    if type(error).__name__.startswith("Flaky"):
        return True
    inner = getattr(error, "exceptions", None)
    if not isinstance(inner, (tuple, list)) or not inner:
        return False
    return all(isinstance(e, BaseException) and _only_stops(e) for e in inner)


def shrink_groups(groups: list[Group], play: PlayScript, strategy: SearchStrategy[GameScript],
                   examples: int, seed: int, seconds: float,
                   say: Callable[[str], None]) -> list[Group]:
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
        target = (group.op, group.rule)
        deck = group.deck

        def key(failure: Failure) -> tuple[str, str]:
            if deck is not None and target == (deck.kind, "DECK") and deck.explains(failure):
                return target
            return failure.key

        started = time.monotonic()
        smallest = _shrink(play, strategy, examples, seed, budget, key, target)
        spent = min(budget, time.monotonic() - started)
        if smallest is not None and smallest.size < group.failure.size:
            result.append(evolve(group, failure=smallest, shrunk=True))
        elif smallest is not None:
            result.append(evolve(group, not_shrunk="it is the smallest game found"))
        else:
            result.append(evolve(group, not_shrunk=f"no smaller game fell in the group in "
                                                   f"{spent:.3g} s of shrinking"))
    return result


def _shrink(play: PlayScript, strategy: SearchStrategy[GameScript], examples: int, seed: int,
            seconds: float, key: Callable[[Failure], tuple[str, str]],
            target: tuple[str, str]) -> Failure | None:
    """Find the group's first game again and let Hypothesis shrink it; the smallest failing
    game of the group seen (by rounds, exchanges, players) within ``seconds``."""
    from hypothesis import given
    from hypothesis import seed as hypothesis_seed

    deadline = time.monotonic() + seconds
    smallest: list[Failure] = []

    @hypothesis_settings(examples, shrink=True)
    @hypothesis_seed(seed)
    @given(strategy)
    def shrinker(script: GameScript) -> None:
        if time.monotonic() > deadline:
            return
        failure = next((f for f in play(script).disagreements if key(f) == target), None)
        if failure is None:
            return
        if not smallest or failure.size < smallest[0].size:
            smallest[:] = [failure]
        raise Stop()

    with seed_alone_decides():
        run_quietly(shrinker)
    return smallest[0] if smallest else None

"""The differential harness: drive another implementation over ``bottleimp-protocol/2`` (or /1)
and compare every answer with the library's.

``run_harness`` asks the peer what it supports (its ``hello`` answer's ``capabilities``; a
version-1 peer is assumed to support everything), narrows that by the command line, generates
games inside it with Hypothesis (random deals, first dealers, setups and plays, and illegal
requests of every kind in ``refusals.REFUSALS``), plays every game against the peer and the
library side by side, and keeps going after a disagreement. Failed games are grouped by their
first disagreement (the request's ``op`` and the rule ``explain`` names); one game per group is
shrunk within a time budget and written as a ``bottleimp-record/1`` record. Disagreements that
follow a card rather than a rule (a card's colour or coins always differ) are put together as
one ``DECK`` group (``deckcheck``); a peer that declares its own deck is played with it, its
data faults reported once, its logic checked on its own data.

A timeout, a crash or an answer that is not a JSON object stops the run (it need not repeat).
Hypothesis is imported only when a run starts; ``HarnessError`` says so when it is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from attrs import evolve, field, frozen

from ..actions import Give, Play
from ..cards import Card
from ..config import Config
from ..engine import apply, legal_actions
from ..errors import HarnessError, PeerFault, RecordError
from ..formats.json_input import JSON
from ..formats.setup_entries import entry_from_gives
from ..rules.deal import deal, first_dealer, next_dealer
from ..state import GameState, Phase, RoundState
from .capabilities import Capabilities, Variant, capabilities_from_json
from .deckcheck import DeckFault, declared_deck_fault, infer_deck_fault
from .explain import Disagreement, explain
from .lines import clip
from .peer import DEFAULT_TIMEOUT, Peer, PeerSlot, answer_for_record
from .protocol import PROTOCOL, PROTOCOL_V1, UNSUPPORTED, Referee, compare
from .refusals import REFUSALS, Moment, RefusalKind, round_request

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "Mistake",
    "RoundScript",
    "GameScript",
    "game_scripts",
    "Exchange",
    "Failure",
    "GameResult",
    "Refusal",
    "play_game",
    "Group",
    "CoverageRow",
    "HarnessReport",
    "run_harness",
    "negotiate",
    "describe",
    "MIN_REFUSALS",
]

MIN_REFUSALS = 3
"""How many times a run sends each kind of illegal request at least (where the peer's
capabilities allow it at all)."""


# --- games: what Hypothesis generates --------------------------------------------------------


@frozen
class Mistake:
    """An illegal request of kind ``REFUSALS[kind % len(REFUSALS)]``, tried at the first moment
    of its kind at or after decision ``step`` of its phase; ``pick`` picks which seat or card."""

    step: int
    kind: int
    pick: int


@frozen
class RoundScript:
    """One round: the seed of its deal, the choices made (``choices[k]`` picks among the legal
    options of decision ``k``; past the list, choices come from ``play_seed``) and the mistakes
    tried along the way."""

    deal_seed: int
    play_seed: int
    choices: tuple[int, ...]
    mistakes: tuple[Mistake, ...]


@frozen
class GameScript:
    """A game: its configuration, the seat that deals first, and its rounds, dealt in turn
    clockwise from there."""

    config: Config
    rounds: tuple[RoundScript, ...]
    first_dealer: int = 0


def _team_partitions(players: int, order: Sequence[int], pairs: int) -> list[list[int]]:
    teams = [list(order[2 * i: 2 * i + 2]) for i in range(pairs)]
    return teams + [[seat] for seat in order[2 * pairs:]]


def game_scripts(variants: Sequence[Variant] | None = None) -> SearchStrategy[GameScript]:
    """The Hypothesis strategy for games in ``variants`` (default: every variant). Shrinks
    towards the first variant (the fewest players), seat 0 dealing, one round, no mistakes and
    the lowest legal card at every decision."""
    from hypothesis import strategies as st

    chosen = tuple(variants) if variants is not None else Capabilities().variants()
    if not chosen:
        raise HarnessError("no variant to play: the peer's capabilities and the options leave "
                           "no player count, edition and bottles the rules define together")

    @st.composite
    def configs(draw: st.DrawFn) -> tuple[Config, int]:
        variant = draw(st.sampled_from(chosen))
        players = variant.players
        teams = None
        if variant.teams and draw(st.booleans()):
            order = draw(st.permutations(range(players)))
            teams = _team_partitions(players, order, draw(st.integers(1, players // 2)))
        config = Config(players=players, edition=variant.edition, bottles=variant.bottles,
                        teams=teams)
        return config, draw(st.integers(0, players - 1))

    mistakes = st.builds(Mistake, st.integers(0, 60), st.integers(0, len(REFUSALS) - 1),
                         st.integers(0, 255))
    rounds = st.builds(
        RoundScript,
        deal_seed=st.integers(0, 2**32 - 1),
        play_seed=st.integers(0, 2**32 - 1),
        choices=st.lists(st.integers(0, 255), max_size=24).map(tuple),
        mistakes=st.lists(mistakes, max_size=4).map(tuple),
    )
    return st.builds(
        lambda chosen_config, rounds_: GameScript(chosen_config[0], rounds_, chosen_config[1]),
        configs(), st.lists(rounds, min_size=1, max_size=2).map(tuple))


def random_script(variants: Sequence[Variant], rng: random.Random,
                  mistakes: Sequence[Mistake]) -> GameScript:
    """A game drawn without Hypothesis (the coverage top-up): one round holding ``mistakes``."""
    variant = variants[rng.randrange(len(variants))]
    teams = None
    if variant.teams and rng.random() < 0.5:
        order = list(range(variant.players))
        rng.shuffle(order)
        teams = _team_partitions(variant.players, order, rng.randint(1, variant.players // 2))
    config = Config(players=variant.players, edition=variant.edition, bottles=variant.bottles,
                    teams=teams)
    round_ = RoundScript(rng.randrange(2**32), rng.randrange(2**32), (), tuple(mistakes))
    return GameScript(config, (round_,), rng.randrange(variant.players))


# --- playing one game ------------------------------------------------------------------------


@frozen
class Exchange:
    """One request, the library's answer and the peer's (``None`` when it gave none);
    ``refusal`` names the kind of illegal request it was, if it was one."""

    request: dict[str, JSON]
    expected: dict[str, JSON]
    actual: dict[str, JSON] | None
    refusal: str | None = None


@frozen
class Failure:
    """A game on which the peer failed. ``kind`` is ``disagreement``, ``timeout``, ``crash`` or
    ``malformed``; ``exchanges`` end with the failing one; ``state`` is the library's game up to
    that point (every round so far), ``None`` when it failed before the first round began;
    ``disagreement`` the rule and minimal difference of a disagreement; ``before`` the library's
    state just before the failing request (for the deck analysis)."""

    kind: str
    message: str
    script: GameScript
    exchanges: tuple[Exchange, ...]
    state: GameState | None
    disagreement: Disagreement | None = None
    before: GameState | None = field(default=None, eq=False, repr=False)

    @property
    def peer_fault(self) -> bool:
        """True for a timeout, a crash or a malformed answer."""
        return self.kind != "disagreement"

    @property
    def rule(self) -> str:
        """The rule the failure touches (for a peer fault: its kind in capitals)."""
        return self.kind.upper() if self.disagreement is None else self.disagreement.rule

    @property
    def key(self) -> tuple[str, str]:
        """The group of the failure: the failing request's ``op`` and the rule."""
        return str(self.exchanges[-1].request.get("op")), self.rule

    @property
    def size(self) -> tuple[int, int, int]:
        """How big the failing game is: rounds, exchanges, players (smaller is simpler)."""
        rounds = 0 if self.state is None else len(self.state.rounds)
        return rounds, len(self.exchanges), self.script.config.players


@frozen
class Refusal:
    """One illegal request sent, for the coverage table: its kind, the rule the library
    refused it with, whether the peer agreed, and whether it answered ``UNSUPPORTED``."""

    kind: str
    rule: str
    agreed: bool
    unsupported: bool


@frozen
class GameResult:
    """How one game went: ``outcome`` is ``passed``, ``failed`` or ``unsupported`` (the peer
    refused a request inside the rules with ``UNSUPPORTED``); the illegal requests sent, for the
    coverage table; the failure, if any; whether a round was started. Only a failed game keeps
    its exchanges (in ``failure``), so that a long run stays small."""

    outcome: str
    refusals: tuple[Refusal, ...]
    failure: Failure | None
    script: GameScript | None = None
    started: bool = False


class _Stop(Exception):
    """The current game has ended early (a failure, or a request the peer does not support)."""


class _Game:
    """One game played against the peer, the library answering every request alongside."""

    def __init__(self, script: GameScript, peer: Peer, *, version: str = PROTOCOL,
                 capabilities: Capabilities | None = None, fresh: bool = False,
                 play_declared_decks: bool = True) -> None:
        self.script = script
        self.config = script.config
        self.peer = peer
        self.version = version
        self.capabilities = capabilities or Capabilities()
        self.fresh = fresh
        self.use_declared = play_declared_decks
        self.referee = Referee(version)
        self.exchanges: list[Exchange] = []
        self.finished: list[RoundState] = []
        self.failure: Failure | None = None
        self.outcome = "passed"

    def ask(self, request: dict[str, JSON], refusal: str | None = None) -> dict[str, JSON]:
        before = self.referee.state
        expected = self.referee.handle(request)
        try:
            actual = self.peer.ask(request)
        except PeerFault as fault:
            self.exchanges.append(Exchange(request, expected, None, refusal))
            self._fail(fault.kind, fault.message, None, before)
        self.exchanges.append(Exchange(request, expected, actual, refusal))
        if actual.get("ok") is False and actual.get("rule") == UNSUPPORTED:
            if expected.get("ok") is False:
                return expected  # an illegal request the peer does not check: coverage
            self.outcome = "unsupported"
            raise _Stop()
        if request.get("op") == "hello" and expected.get("ok") is True:
            # Capabilities are the peer's own: a greeting is compared on its version only.
            problem = compare({k: expected[k] for k in ("ok", "protocol")},
                              {k: v for k, v in actual.items() if k in ("ok", "protocol", "error")})
        else:
            problem = compare(expected, actual)
        if problem is not None:
            disagreement = explain(before, self.referee.state, request, expected, actual, problem)
            self._fail("disagreement", disagreement.message, disagreement, before)
        return expected

    def _fail(self, kind: str, message: str, disagreement: Disagreement | None,
              before: GameState | None) -> NoReturn:
        self.failure = Failure(kind, message, self.script, tuple(self.exchanges),
                               self.game_state(), disagreement, before)
        self.outcome = "failed"
        raise _Stop()

    def game_state(self) -> GameState | None:
        """The library's game so far: the finished rounds and the current one."""
        current = self.referee.state
        if current is None:
            return None
        past = tuple(evolve(round_, index=i) for i, round_ in enumerate(self.finished))
        # Each protocol round starts from zero totals: add the finished rounds' scores.
        totals = tuple(current.totals[s] + sum(r.scores[s] for r in past if r.scores)
                       for s in range(self.config.players))
        return evolve(current, round=evolve(current.round, index=len(past)), past_rounds=past,
                      totals=totals)

    def play(self) -> GameResult:
        try:
            self._mistakes_at("start", self.script.rounds[0].mistakes if self.script.rounds else ())
            hello = self.ask({"op": "hello", "protocol": self.version})
            del hello
            if self.fresh:
                # Once per peer process: a round request before any new_round.
                kind = next(k for k in REFUSALS if k.when == "fresh")
                moment = Moment(self.config, None, {}, self.version, self.capabilities.teams)
                request = kind.build(moment, self.script.rounds[0].deal_seed
                                     if self.script.rounds else 0)
                if request is not None:
                    self.ask(request, kind.name)
            for index, round_script in enumerate(self.script.rounds):
                self._play_round(index, round_script)
                state = self.referee.state
                assert state is not None
                self.finished.append(state.round)
        except _Stop:
            pass
        refusals = tuple(
            Refusal(ex.refusal, str(ex.expected.get("rule")),
                    ex.actual is not None and compare(ex.expected, ex.actual) is None,
                    ex.actual is not None and ex.actual.get("rule") == UNSUPPORTED)
            for ex in self.exchanges if ex.refusal is not None)
        started = any(ex.request.get("op") == "new_round" and ex.refusal is None
                      for ex in self.exchanges)
        return GameResult(self.outcome, refusals, self.failure, self.script, started)

    def _mistakes_at(self, when: str, mistakes: Sequence[Mistake],
                     new_round: dict[str, JSON] | None = None,
                     step: int | None = None, period: int = 1,
                     fired: set[int] | None = None) -> None:
        """Send the round's illegal requests whose moment is ``when`` (for ``setup`` and ``play``:
        those due at decision ``step``, counted modulo ``period``)."""
        for number, mistake in enumerate(mistakes):
            kind = REFUSALS[mistake.kind % len(REFUSALS)]
            if kind.when != when and not (kind.when == "any" and when in ("deal", "setup", "play")):
                continue
            if fired is not None and number in fired:
                continue
            if step is not None and step < mistake.step % period:
                continue
            moment = Moment(self.config, self.referee.state, new_round or {}, self.version,
                            self.capabilities.teams)
            request = kind.build(moment, mistake.pick)
            if request is None:
                continue
            if fired is not None:
                fired.add(number)
            self.ask(request, kind.name)

    def _dealer(self, index: int) -> int:
        """The dealer of round ``index``: the first dealer, then one seat clockwise each round."""
        dealer = first_dealer(self.config, self.script.first_dealer % self.config.players)
        for _ in range(index):
            dealer = next_dealer(self.config, dealer)
        return dealer

    def _deck(self) -> tuple[Card, ...] | None:
        """The cards ``new_round`` carries (protocol 2): the peer's own where it declared them."""
        if self.version == PROTOCOL_V1:
            return None
        declared = self.capabilities.declared_deck(self.config) if self.use_declared else None
        if declared is None:
            return self.config.cards
        # Ranks the peer left out keep the library's data; the data fault is reported apart.
        have = {card.rank for card in declared}
        return tuple(sorted(declared + tuple(c for c in self.config.cards if c.rank not in have),
                            key=lambda card: card.rank))

    def _play_round(self, index: int, script: RoundScript) -> None:
        config = self.config
        dealer = self._dealer(index)
        hands, face_up = deal(config, script.deal_seed, index, dealer)
        request = round_request(config, dealer, hands, face_up, self._deck())
        self._mistakes_at("deal", script.mistakes, request)
        self.ask(request)
        rng = random.Random(script.play_seed)
        decision = 0
        setup_step = play_step = 0
        fired: set[int] = set()

        def choose(options: int) -> int:
            nonlocal decision
            value = script.choices[decision] if decision < len(script.choices) else rng.randrange(256)
            decision += 1
            return value % options

        while True:
            state = self.referee.state
            assert state is not None
            if state.phase is Phase.SETUP:
                self._mistakes_at("setup", script.mistakes, request, setup_step,
                                  config.players, fired)
                self.ask(_setup_request(state, choose))
                setup_step += 1
            elif state.phase is Phase.PLAY:
                # legal_plays first: a colour fault shows there before any refusal depends on it.
                self.ask({"op": "legal_plays"})
                self._mistakes_at("play", script.mistakes, request, play_step, 24, fired)
                options = legal_actions(state)
                play = options[choose(len(options))]
                assert isinstance(play, Play)
                self.ask({"op": "play", "seat": play.seat, "card": play.card.rank})
                play_step += 1
            else:
                break
        self.ask({"op": "scores"})
        self._mistakes_at("after", script.mistakes, request, fired=fired)


def _setup_request(state: GameState, choose: Callable[[int], int]) -> dict[str, JSON]:
    """The seat to act's whole setup, each card chosen among its legal gives."""
    seat = state.to_act
    assert seat is not None
    gives: list[Give] = []
    while state.phase is Phase.SETUP and state.to_act == seat:
        options = legal_actions(state)
        give = options[choose(len(options))]
        assert isinstance(give, Give)
        gives.append(give)
        state = apply(state, give)
    return {"op": "setup", "seat": seat, **entry_from_gives(gives)}


def play_game(script: GameScript, peer: Peer, *, version: str = PROTOCOL,
              capabilities: Capabilities | None = None, fresh: bool = False) -> Failure | None:
    """Play ``script`` against ``peer``; the first failure, or ``None`` when every answer agrees
    (or the peer does not support the game)."""
    return _Game(script, peer, version=version, capabilities=capabilities, fresh=fresh).play().failure
def _hypothesis_settings(examples: int, shrink: bool) -> Callable[[Callable[..., None]],
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


# --- the run ---------------------------------------------------------------------------------


@frozen
class Group:
    """Failed games with the same first disagreement: the request's ``op`` and the rule.

    ``failure`` is the representative (shrunk when ``shrunk``), ``games`` the 1-based numbers of
    the games in the group, ``written`` the record of the representative, ``deck`` the card data
    behind a ``DECK`` group."""

    number: int
    op: str
    rule: str
    games: tuple[int, ...]
    failure: Failure | None
    shrunk: bool = False
    written: Path | None = None
    write_error: str | None = None
    deck: DeckFault | None = None

    @property
    def size_text(self) -> str:
        """The size of the representative game, for the summary table."""
        if self.failure is None:
            return "-"
        rounds, exchanges, players = self.failure.size
        return f"{rounds} round{'s' if rounds != 1 else ''}, {exchanges} requests, {players} players"


@frozen
class CoverageRow:
    """One kind of illegal request: the rules it is refused with, how often it was sent, how
    often the peer agreed, and how often it answered ``UNSUPPORTED``."""

    kind: str
    rules: tuple[str, ...]
    sent: int
    agreed: int
    unsupported: int
    note: str


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
    """The record written for the peer fault, if one stopped the run and a folder was given."""
    added: int = 0
    """Games added after the generated ones to send every kind of illegal request enough."""

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
        """The summary line: ``N passed, N failed`` (games), then ``, N unsupported`` if any."""
        text = f"{self.passed} passed, {self.failed} failed"
        return text + (f", {self.unsupported} unsupported" if self.unsupported else "")

    @property
    def ok(self) -> bool:
        """True when some game passed, none failed and no data fault was found."""
        return (self.passed > 0 and self.failed == 0 and not self.groups
                and self.peer_fault is None)


def negotiate(peer: Peer) -> tuple[str, Capabilities]:
    """Greet a freshly started peer: ``bottleimp-protocol/2`` and its capabilities, or, when it
    refuses that version with rule ``PROTOCOL``, version 1 with everything assumed supported.
    A greeting that is neither raises ``PeerFault``."""
    answer = peer.ask({"op": "hello", "protocol": PROTOCOL})
    if answer.get("ok") is True and answer.get("protocol") == PROTOCOL:
        try:
            return PROTOCOL, capabilities_from_json(answer.get("capabilities"))
        except RecordError as error:
            raise PeerFault("malformed", f"the peer's capabilities are malformed: {error}") from None
    if answer.get("ok") is False and answer.get("rule") == "PROTOCOL":
        old = peer.ask({"op": "hello", "protocol": PROTOCOL_V1})
        if old.get("ok") is True:
            return PROTOCOL_V1, Capabilities()
    # A wrong greeting is the peer's fault, reported as such (never a traceback of ours).
    raise PeerFault("disagreement", f"the peer answers hello with {clip(json.dumps(answer), 300)}: "
                    f"it speaks neither {PROTOCOL} nor {PROTOCOL_V1}", answer)


@contextlib.contextmanager
def _seed_alone_decides() -> Iterator[None]:
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


def _require_hypothesis() -> None:
    try:
        import hypothesis  # noqa: F401
    except ImportError:
        raise HarnessError(
            "the differential harness needs Hypothesis: pip install 'bottleimp[conformance]' "
            "(or pip install hypothesis)"
        ) from None


class _Runner:
    """One run: the peer slot, the negotiated version and capabilities, the games played."""

    def __init__(self, slot: PeerSlot, version: str, capabilities: Capabilities) -> None:
        self.slot = slot
        self.version = version
        self.capabilities = capabilities
        self.greeted: set[int] = set()

    def play(self, script: GameScript) -> GameResult:
        peer = self.slot.get()
        fresh = id(peer) not in self.greeted
        self.greeted.add(id(peer))
        result = _Game(script, peer, version=self.version, capabilities=self.capabilities,
                       fresh=fresh).play()
        if result.failure is not None and result.failure.peer_fault:
            self.slot.discard()
        return result


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
) -> HarnessReport:
    """Play ``examples`` generated games against ``command`` (seeded by ``seed``) and report.

    Every game is played to its end or its first failure; a peer fault (timeout, crash,
    malformed answer) stops the run. Failed games are grouped by their first disagreement, one
    game per group is shrunk (the groups share ``shrink_seconds``) and written to ``out_dir``
    (if given) as a record. ``players``, ``editions``, ``bottles`` and ``teams`` narrow what
    the peer declares it supports; ``cwd`` is the peer's working directory."""
    _require_hypothesis()
    from hypothesis import given
    from hypothesis import seed as hypothesis_seed

    if not command:
        raise HarnessError("the peer command is empty")
    say = log or (lambda text: None)
    slot = PeerSlot(command, timeout, cwd=cwd)
    results: list[GameResult] = []
    peer_fault: list[Failure] = []
    generated = 0
    try:
        try:
            version, declared = negotiate(slot.get())
        except PeerFault as fault:
            # A peer that fails its greeting fails the run, like any other peer fault.
            hello: dict[str, JSON] = {"op": "hello", "protocol": PROTOCOL}
            script = GameScript(Config(players=2), ())
            answered = fault.answer if isinstance(fault.answer, dict) else None
            failure = Failure(fault.kind, fault.message, script,
                              (Exchange(hello, Referee().handle(hello), answered),), None)
            return HarnessReport(passed=0, failed=1, groups=(), peer_fault=failure,
                                 peer_fault_written=_write_peer_fault(failure, out_dir, seed))
        capabilities = declared.narrowed(players=players, editions=editions, bottles=bottles,
                                         teams=teams)
        variants = capabilities.variants()
        strategy = game_scripts(variants)
        runner = _Runner(slot, version, capabilities)
        runner.greeted.discard(id(slot.get()))  # hello alone leaves the peer without a round

        def record(result: GameResult) -> None:
            results.append(result)
            if result.failure is not None and result.failure.peer_fault:
                peer_fault.append(result.failure)

        @_hypothesis_settings(examples, shrink=False)
        @hypothesis_seed(seed)
        @given(strategy)
        def probe(script: GameScript) -> None:
            if peer_fault:
                raise _Stop()
            record(runner.play(script))
            if peer_fault:
                raise _Stop()

        with _seed_alone_decides():
            _run_quietly(probe)
            generated = len(results)
            if not peer_fault:
                played = {(r.script.config.players, r.script.config.edition,
                           r.script.config.bottles) for r in results
                          if r.outcome != "unsupported" and r.script is not None}
                top_variants = [v for v in variants if (v.players, v.edition, v.bottles)
                                in played] or list(variants)
                for script in _top_up(results, top_variants, seed, min_refusals, version,
                                      capabilities):
                    record(runner.play(script))
                    if peer_fault:
                        break
            groups = _group(results, capabilities, version, variants)
            if not peer_fault:
                groups = _shrink_groups(groups, runner, strategy, examples, seed, shrink_seconds,
                                        say)
    finally:
        slot.discard()
    written = tuple(_write_group(group, out_dir, seed) for group in groups)
    stopped = peer_fault[0] if peer_fault else None
    stopped_written = None if stopped is None else _write_peer_fault(stopped, out_dir, seed)
    outcomes = Counter(result.outcome for result in results)
    return HarnessReport(
        passed=outcomes["passed"],
        failed=outcomes["failed"],
        unsupported=outcomes["unsupported"],
        groups=written,
        coverage=_coverage(results, version, capabilities),
        protocol=version,
        capabilities=declared,
        peer_fault=stopped,
        peer_fault_written=stopped_written,
        added=len(results) - generated,
    )


def _write_peer_fault(failure: Failure, out_dir: str | os.PathLike[str] | None,
                      seed: int) -> Path | None:
    """The record of the game a peer fault stopped, written to ``out_dir`` (if given)."""
    if out_dir is None:
        return None
    try:
        return _write_failure(failure, Path(out_dir), seed, None)
    except OSError:
        return None


def _applicable(kind: RefusalKind, version: str, capabilities: Capabilities) -> bool:
    if kind.name == "config-deck":
        return version != PROTOCOL_V1
    if kind.name == "config-teams":
        return capabilities.teams
    return True


def _top_up(results: Sequence[GameResult], variants: Sequence[Variant], seed: int, minimum: int,
            version: str, capabilities: Capabilities) -> Iterator[GameScript]:
    """Extra one-round games carrying the illegal requests sent fewer than ``minimum`` times
    (several to a game; three tries, since a game may end before a request's moment)."""
    rng = random.Random(seed)
    for _ in range(3):
        sent = Counter(refusal.kind for result in results for refusal in result.refusals)
        wanted = [Mistake(rng.randrange(60), index, rng.randrange(256))
                  for index, kind in enumerate(REFUSALS)
                  if _applicable(kind, version, capabilities) and kind.when != "fresh"
                  for _ in range(max(0, minimum - sent[kind.name]))]
        if not wanted:
            return
        rng.shuffle(wanted)
        for start in range(0, len(wanted), 8):
            yield random_script(variants, rng, wanted[start:start + 8])


def _coverage(results: Sequence[GameResult], version: str,
              capabilities: Capabilities) -> tuple[CoverageRow, ...]:
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
        note = kind.note if _applicable(kind, version, capabilities) else \
            "not applicable: " + ("protocol 1 has no deck" if kind.name == "config-deck"
                                  else "the peer plays no teams")
        rows.append(CoverageRow(kind.name, tuple(rules), len(sent), agreed, unsupported, note))
    return tuple(rows)


def _group(results: Sequence[GameResult], capabilities: Capabilities, version: str,
           variants: Sequence[Variant]) -> list[Group]:
    """Failed games grouped by their first disagreement; the deck's data faults as one group."""
    failures = [(number, result.failure) for number, result in enumerate(results, 1)
                if result.failure is not None and not result.failure.peer_fault]
    groups: list[Group] = []
    deck: DeckFault | None = None
    if version != PROTOCOL_V1 and capabilities.decks:
        editions = {v.edition for v in variants}
        deck = declared_deck_fault(capabilities, editions)
        if deck is not None:
            games = tuple(number for number, result in enumerate(results, 1) if result.started)
            groups.append(Group(0, "hello", "DECK", games, None, deck=deck))
    inferred = infer_deck_fault([failure for _, failure in failures])
    by_key: dict[tuple[str, str], list[tuple[int, Failure]]] = {}
    for number, failure in failures:
        key = ("deck", "DECK") if inferred is not None and inferred.explains(failure) else failure.key
        by_key.setdefault(key, []).append((number, failure))
    for (op, rule), members in sorted(by_key.items(), key=lambda item: item[1][0][0]):
        groups.append(Group(0, op, rule, tuple(n for n, _ in members), members[0][1],
                            deck=inferred if rule == "DECK" and op == "deck" else None))
    return [evolve(group, number=i) for i, group in enumerate(groups, 1)]


def _run_quietly(test: Callable[[], None]) -> None:
    """Run a Hypothesis test whose failures the harness has already recorded."""
    try:
        test()
    except _Stop:
        pass
    except Exception as error:  # Hypothesis wraps a replay that did not fail the same way
        if not _only_stops(error):
            raise


def _only_stops(error: BaseException) -> bool:
    """Whether ``error`` is the harness's own stop, or Hypothesis reporting that a replay did
    not fail again (the harness passes every game once its shrinking time is up)."""
    if isinstance(error, _Stop):
        return True
    if type(error).__name__.startswith("Flaky"):
        return True
    inner = getattr(error, "exceptions", None)
    if not isinstance(inner, (tuple, list)) or not inner:
        return False
    return all(isinstance(e, BaseException) and _only_stops(e) for e in inner)


def _shrink_groups(groups: list[Group], runner: _Runner, strategy: SearchStrategy[GameScript],
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
        if budget <= 0.05:
            result.append(group)
            continue
        say(f"group {group.number} ({group.op} {group.rule}, {len(group.games)} games): "
            f"shrinking game {group.games[0]} (at most {budget:.3g} s)")
        target = (group.op, group.rule)
        deck = group.deck

        def key(failure: Failure) -> tuple[str, str]:
            if deck is not None and target == ("deck", "DECK") and deck.explains(failure):
                return target
            return failure.key

        smallest = _shrink(runner, strategy, examples, seed, budget, key, target)
        if smallest is not None and smallest.size < group.failure.size:
            result.append(evolve(group, failure=smallest, shrunk=True))
        else:
            result.append(group)
    return result


def _shrink(runner: _Runner, strategy: SearchStrategy[GameScript], examples: int, seed: int,
            seconds: float, key: Callable[[Failure], tuple[str, str]],
            target: tuple[str, str]) -> Failure | None:
    """Find the group's first game again and let Hypothesis shrink it; the smallest failing
    game of the group seen (by rounds, exchanges, players) within ``seconds``."""
    from hypothesis import given
    from hypothesis import seed as hypothesis_seed

    deadline = time.monotonic() + seconds
    smallest: list[Failure] = []

    @_hypothesis_settings(examples, shrink=True)
    @hypothesis_seed(seed)
    @given(strategy)
    def shrinker(script: GameScript) -> None:
        if time.monotonic() > deadline:
            return
        failure = runner.play(script).failure
        if failure is None or failure.peer_fault or key(failure) != target:
            return
        if not smallest or failure.size < smallest[0].size:
            smallest[:] = [failure]
        raise _Stop()

    with _seed_alone_decides():
        _run_quietly(shrinker)
    return smallest[0] if smallest else None


def _write_group(group: Group, out_dir: str | os.PathLike[str] | None, seed: int) -> Group:
    if group.failure is None or out_dir is None:
        return group
    try:
        return evolve(group, written=_write_failure(group.failure, Path(out_dir), seed, group))
    except OSError as error:
        return evolve(group, write_error=f"cannot write the failing game into {out_dir}: {error}")


def _write_failure(failure: Failure, out_dir: Path, seed: int, group: Group | None) -> Path:
    from ..formats.records import (
        GameRecord,
        freeze_extensions,
        record_from_state,
        write_record_file,
    )

    if failure.state is None:
        record = GameRecord(config=failure.script.config, rounds=())
    else:
        record = record_from_state(failure.state)
    last = failure.exchanges[-1]
    details: dict[str, JSON] = {
        "protocol": PROTOCOL,
        "seed": seed,
        "kind": failure.kind,
        "rule": failure.rule,
        # What came from the peer is cut to a few KB (and a hostile answer kept as text), so
        # that the record stays small and readable by any record reader.
        "message": clip(failure.message, 4000),
        "request": last.request,
        "library": last.expected,
        "peer": answer_for_record(last.actual),
        "exchanges": len(failure.exchanges),
    }
    if failure.disagreement is not None:
        details["detail"] = failure.disagreement.detail
    if group is not None:
        details["group"] = group.number
        details["games_in_group"] = len(group.games)
        if group.deck is not None:
            details["deck"] = group.deck.to_json()
    extensions: dict[str, JSON] = {"_harness": details}
    record = evolve(record, extensions=freeze_extensions(extensions))
    out_dir.mkdir(parents=True, exist_ok=True)
    name = f"harness-failure-seed{seed}" + ("" if group is None else f"-group{group.number}")
    path = out_dir / f"{name}.json"
    write_record_file(path, record)
    return path


def _variant_text(config: Config) -> str:
    variant = f"{config.players} players, {config.edition}"
    if config.bottles == 2:
        variant += ", two bottles"
    if config.teams is not None:
        variant += f", teams {json.dumps([list(t) for t in config.teams])}"
    return variant


def describe(failure: Failure) -> str:
    """The failing exchange as a few lines a person reads (JSON, never Python reprs)."""
    last = failure.exchanges[-1]
    config = failure.script.config
    where = "" if failure.state is None else f"; round {len(failure.state.rounds)}"
    game = (f"{_variant_text(config)}, seat {failure.script.first_dealer} deals first{where}"
            if failure.script.rounds else "the greeting, before any game")
    lines = [
        f"{failure.kind} [{failure.rule}] after {len(failure.exchanges)} requests ({game}):",
        f"  request: {json.dumps(last.request)}",
        f"  library: {json.dumps(last.expected)}",
        f"  peer:    {'(no answer)' if last.actual is None else clip(json.dumps(last.actual), 4000)}",
        f"  {clip(failure.message, 4000)}",
    ]
    if failure.disagreement is not None and failure.disagreement.detail:
        lines.append(f"  detail:  {json.dumps(failure.disagreement.detail)}")
    return "\n".join(lines)


def failure_to_json(failure: Failure) -> dict[str, JSON]:
    """A failure as JSON (``--json``)."""
    last = failure.exchanges[-1]
    return {
        "kind": failure.kind,
        "rule": failure.rule,
        "message": clip(failure.message, 4000),
        "variant": _variant_text(failure.script.config),
        "first_dealer": failure.script.first_dealer,
        "requests": len(failure.exchanges),
        "request": last.request,
        "library": last.expected,
        "peer": last.actual,
        "detail": None if failure.disagreement is None else failure.disagreement.detail,
    }


def report_to_json(report: HarnessReport) -> dict[str, JSON]:
    """The whole run as one JSON object (``bottleimp conformance --cmd ... --json``)."""
    return {
        "protocol": report.protocol,
        "capabilities": report.capabilities.to_json(),
        "summary": {"passed": report.passed, "failed": report.failed,
                    "unsupported": report.unsupported, "groups": len(report.groups),
                    "added_for_coverage": report.added},
        "groups": [{
            "group": g.number, "request": g.op, "rule": g.rule, "games": len(g.games),
            "first_game": g.games[0] if g.games else None,
            "shrunk": g.shrunk, "size": g.size_text,
            "record": None if g.written is None else str(g.written),
            "failure": None if g.failure is None else failure_to_json(g.failure),
            "deck": None if g.deck is None else g.deck.to_json(),
        } for g in report.groups],
        "coverage": [{"kind": row.kind, "rules": list(row.rules), "sent": row.sent,
                      "agreed": row.agreed, "unsupported": row.unsupported}
                     for row in report.coverage],
        "peer_fault": None if report.peer_fault is None else failure_to_json(report.peer_fault),
    }


__all__ += ["failure_to_json", "report_to_json", "random_script"]

"""The differential harness: drive another implementation over ``bottleimp-protocol/1`` and
compare every answer with the library's.

The protocol (``spec/protocol.md``) is JSON lines: one request per line on the other
implementation's stdin, one answer per line on its stdout. ``Referee`` is the library's side of
it: it answers every request through the engine, so the answers it gives are the ones the other
side must give.

``run_harness`` generates games with Hypothesis (every variant: 2-6 players, both editions where
they apply, two bottles, teams; random deals, setups and plays, and illegal actions that both
sides must refuse), plays each against the other implementation, and counts the games that
agree. On a disagreement it shrinks the game to a small one that still disagrees and writes it
out as a ``bottleimp-record/1`` file whose ``_harness`` key describes the first disagreement.
A timeout, a crash or an answer that is not a JSON object is a failure too; it stops the run at
once (it is not shrunk: a hang or a crash need not repeat).

Hypothesis is a test dependency: it is imported only when a run starts, and ``HarnessError``
says so when it is missing.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from attrs import evolve, frozen

from ..actions import Give, Play
from ..cards import Card, rank_key
from ..config import Config
from ..engine import apply, legal_actions
from ..errors import HarnessError, PeerFault
from ..formats.json_input import JSON
from ..formats.setup_entries import entry_from_gives
from ..rules.deal import deal, first_dealer, next_dealer
from ..rules.setup import setup_steps
from ..state import GameState, Phase, RoundState
from .lines import clip
from .peer import DEFAULT_TIMEOUT, Peer, PeerSlot, answer_for_record
from .protocol import PROTOCOL, Referee, compare
from .vectors import ranks

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "Mistake",
    "RoundScript",
    "GameScript",
    "game_scripts",
    "Exchange",
    "Failure",
    "play_game",
    "HarnessReport",
    "run_harness",
    "describe",
]






# --- games: what Hypothesis generates --------------------------------------------------------


@frozen
class Mistake:
    """An illegal request tried before decision ``step`` of a round; ``kind`` picks what is
    tried (see ``_mistake_request``) and ``pick`` which seat or card."""

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
    """A game: its configuration and its rounds, dealt by seats 0, 1, 2, ... in turn."""

    config: Config
    rounds: tuple[RoundScript, ...]


def game_scripts() -> SearchStrategy[GameScript]:
    """The Hypothesis strategy for games across every variant. Shrinks towards 2 players, one
    round, no mistakes, and the lowest legal card at every decision."""
    from hypothesis import strategies as st

    @st.composite
    def configs(draw: st.DrawFn) -> Config:
        players = draw(st.integers(2, 6))
        edition = "matagot-2024" if players >= 5 else draw(
            st.sampled_from(("classic", "matagot-2024")))
        bottles = draw(st.sampled_from((1, 2))) if players >= 5 else 1
        teams = None
        if players >= 4 and bottles == 1 and draw(st.booleans()):
            order = draw(st.permutations(range(players)))
            pairs = draw(st.integers(1, players // 2))
            teams = [order[2 * i : 2 * i + 2] for i in range(pairs)]
            teams += [[seat] for seat in order[2 * pairs :]]
        return Config(players=players, edition=edition, bottles=bottles, teams=teams)

    mistakes = st.builds(Mistake, st.integers(0, 60), st.integers(0, 4), st.integers(0, 255))
    rounds = st.builds(
        RoundScript,
        deal_seed=st.integers(0, 2**32 - 1),
        play_seed=st.integers(0, 2**32 - 1),
        choices=st.lists(st.integers(0, 255), max_size=24).map(tuple),
        mistakes=st.lists(mistakes, max_size=3).map(tuple),
    )
    return st.builds(GameScript, configs(), st.lists(rounds, min_size=1, max_size=2).map(tuple))


# --- playing one game ------------------------------------------------------------------------


@frozen
class Exchange:
    """One request, the library's answer and the peer's (``None`` when it gave none)."""

    request: dict[str, JSON]
    expected: dict[str, JSON]
    actual: dict[str, JSON] | None


@frozen
class Failure:
    """A game on which the peer failed. ``kind`` is ``disagreement``, ``timeout``, ``crash`` or
    ``malformed``; ``exchanges`` end with the failing one; ``state`` is the library's game up to
    that point (every round so far), ``None`` when it failed before the first round began."""

    kind: str
    message: str
    script: GameScript
    exchanges: tuple[Exchange, ...]
    state: GameState | None

    @property
    def peer_fault(self) -> bool:
        """True for a timeout, a crash or a malformed answer."""
        return self.kind != "disagreement"

    @property
    def size(self) -> tuple[int, int, int]:
        """How big the failing game is: rounds, exchanges, players (smaller is simpler)."""
        rounds = 0 if self.state is None else len(self.state.rounds)
        return rounds, len(self.exchanges), self.script.config.players


class _Stop(Exception):
    """The current game has failed."""


class _Game:
    """One game played against the peer, the library answering every request alongside."""

    def __init__(self, script: GameScript, peer: Peer) -> None:
        self.script = script
        self.config = script.config
        self.peer = peer
        self.referee = Referee()
        self.exchanges: list[Exchange] = []
        self.finished: list[RoundState] = []
        self.failure: Failure | None = None

    def ask(self, request: dict[str, JSON]) -> dict[str, JSON]:
        expected = self.referee.handle(request)
        try:
            actual = self.peer.ask(request)
        except PeerFault as fault:
            self.exchanges.append(Exchange(request, expected, None))
            self._fail(fault.kind, fault.message)
        self.exchanges.append(Exchange(request, expected, actual))
        problem = compare(expected, actual)
        if problem is not None:
            self._fail("disagreement", problem)
        return expected

    def _fail(self, kind: str, message: str) -> NoReturn:
        self.failure = Failure(kind, message, self.script, tuple(self.exchanges), self.game_state())
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

    def play(self) -> Failure | None:
        try:
            self.ask({"op": "hello", "protocol": PROTOCOL})
            for index, round_script in enumerate(self.script.rounds):
                self._play_round(index, round_script)
                state = self.referee.state
                assert state is not None
                self.finished.append(state.round)
        except _Stop:
            return self.failure
        return None

    def _dealer(self, index: int) -> int:
        """The dealer of round ``index``: seat 0 first, then one seat clockwise each round."""
        dealer = first_dealer(self.config)
        for _ in range(index):
            dealer = next_dealer(self.config, dealer)
        return dealer

    def _play_round(self, index: int, script: RoundScript) -> None:
        config = self.config
        dealer = self._dealer(index)
        hands, face_up = deal(config, script.deal_seed, index, dealer)
        self.ask({
            "op": "new_round",
            "config": {"edition": config.edition, "players": config.players,
                       "bottles": config.bottles,
                       "teams": None if config.teams is None else [list(t) for t in config.teams]},
            "dealer": dealer,
            "hands": [ranks(hand) for hand in hands],
            "face_up": None if face_up is None else [ranks(row) for row in face_up],
        })
        rng = random.Random(script.play_seed)
        decision = 0
        step = 0

        def choose(options: int) -> int:
            nonlocal decision
            value = script.choices[decision] if decision < len(script.choices) else rng.randrange(256)
            decision += 1
            return value % options

        while True:
            state = self.referee.state
            assert state is not None
            if state.phase not in (Phase.SETUP, Phase.PLAY):
                break
            for mistake in script.mistakes:
                if mistake.step == step:
                    request = _mistake_request(state, mistake)
                    if request is not None:
                        self.ask(request)
            if state.phase is Phase.SETUP:
                self.ask(_setup_request(state, choose))
            else:
                self.ask({"op": "legal_plays"})
                options = legal_actions(state)
                play = options[choose(len(options))]
                assert isinstance(play, Play)
                self.ask({"op": "play", "seat": play.seat, "card": play.card.rank})
            step += 1
        self.ask({"op": "scores"})
        for mistake in script.mistakes:
            if mistake.step >= step:
                state = self.referee.state
                assert state is not None
                seat = mistake.pick % config.players
                self.ask({"op": "legal_plays"} if mistake.kind % 2 else
                         {"op": "play", "seat": seat, "card": _any_card(state, mistake.pick).rank})


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


def _any_card(state: GameState, pick: int) -> Card:
    cards = state.config.cards
    return cards[pick % len(cards)]


def _mistake_request(state: GameState, mistake: Mistake) -> dict[str, JSON] | None:
    """An illegal request of the chosen kind for this moment, or ``None`` if there is none.

    In the setup: 0 a card the seat was not dealt, 1 a setup by a seat whose turn it is not,
    2 a play, 3 a legal_plays query, 4 a scores query. In trick play: 0 a card the seat does not
    hold, 1 a play by a seat whose turn it is not, 2 a card that does not follow the led colour,
    3 a setup, 4 a scores query."""
    config, round_ = state.config, state.round
    seat = state.to_act
    assert seat is not None
    pick, kind = mistake.pick, mistake.kind
    others = sorted((card for s, hand in enumerate(round_.hands) if s != seat for card in hand),
                    key=rank_key)
    if state.phase is Phase.SETUP:
        if kind == 0:
            request = _setup_request(state, lambda options: pick % options)
            if not others:
                return None
            parts = [key for key in ("left", "right", "to_face_up", "to_hidden") if key in request]
            request[parts[pick % len(parts)]] = others[pick % len(others)].rank
            return request
        if kind == 1:
            other = (seat + 1 + pick % (config.players - 1)) % config.players
            hand = round_.hands[other]
            steps = setup_steps(config, round_.dealer, other)
            gives = [Give(other, card, to) for card, to in zip(hand, steps)]
            return {"op": "setup", "seat": other, **entry_from_gives(gives)}
        if kind == 2:
            return {"op": "play", "seat": seat, "card": round_.hands[seat][0].rank}
        if kind == 3:
            return {"op": "legal_plays"}
        return {"op": "scores"}
    if kind == 0:
        held = set(round_.hands[seat]) | set(round_.face_up[seat] if round_.face_up else ())
        elsewhere = [card for card in config.cards if card not in held]
        return {"op": "play", "seat": seat, "card": elsewhere[pick % len(elsewhere)].rank}
    if kind == 1:
        other = (seat + 1 + pick % (config.players - 1)) % config.players
        cards = round_.hands[other] + (round_.face_up[other] if round_.face_up else ())
        card = cards[pick % len(cards)] if cards else _any_card(state, pick)
        return {"op": "play", "seat": other, "card": card.rank}
    if kind == 2:
        legal = {action.card for action in legal_actions(state) if isinstance(action, Play)}
        held_cards = round_.hands[seat] + (round_.face_up[seat] if round_.face_up else ())
        refused = sorted((card for card in held_cards if card not in legal), key=rank_key)
        if not refused:
            return None
        return {"op": "play", "seat": seat, "card": refused[pick % len(refused)].rank}
    if kind == 3:
        return {"op": "setup", "seat": seat, "discard": [round_.hands[seat][0].rank]
                if round_.hands[seat] else []}
    return {"op": "scores"}


def play_game(script: GameScript, peer: Peer) -> Failure | None:
    """Play ``script`` against ``peer``; the first failure, or ``None`` when every answer agrees."""
    return _Game(script, peer).play()


# --- the run ---------------------------------------------------------------------------------


@frozen
class HarnessReport:
    """The result of a run: games that agreed and games that failed, the smallest failure found
    (after shrinking) and the record file written for it."""

    passed: int
    failed: int
    failure: Failure | None
    first_failing_game: int | None
    written: Path | None
    write_error: str | None = None

    @property
    def summary(self) -> str:
        """The summary line: ``N passed, N failed`` (N counts generated games)."""
        return f"{self.passed} passed, {self.failed} failed"


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
            "the differential harness needs Hypothesis, a test dependency: "
            "pip install 'bottleimp[test]' (or pip install hypothesis)"
        ) from None


def run_harness(
    command: Sequence[str],
    *,
    examples: int = 100,
    seed: int = 0,
    timeout: float = DEFAULT_TIMEOUT,
    out_dir: str | os.PathLike[str] | None = None,
    shrink_seconds: float = 60.0,
    log: Callable[[str], None] | None = None,
) -> HarnessReport:
    """Play ``examples`` generated games against ``command`` (seeded by ``seed``) and report.

    Every game is played to the end even after a disagreement, so that ``failed`` counts the
    games that disagree; a peer fault (timeout, crash, malformed answer) stops the run. The
    first disagreement is then shrunk for at most ``shrink_seconds`` and the smallest failing
    game found is written to ``out_dir`` (if given) as a record."""
    _require_hypothesis()
    from hypothesis import given
    from hypothesis import seed as hypothesis_seed

    if not command:
        raise HarnessError("the peer command is empty")
    say = log or (lambda text: None)
    slot = PeerSlot(command, timeout)
    slot.get()  # fails early, with HarnessError, if the command cannot be started
    strategy = game_scripts()
    outcomes: list[Failure | None] = []
    fault: list[Failure] = []

    @_hypothesis_settings(examples, shrink=False)
    @hypothesis_seed(seed)
    @given(strategy)
    def probe(script: GameScript) -> None:
        if fault:
            raise _Stop()
        failure = _play(slot, script)
        outcomes.append(failure)
        if failure is not None and failure.peer_fault:
            fault.append(failure)
            raise _Stop()

    try:
        with _seed_alone_decides():
            _run_quietly(probe)
            failures = [(i, f) for i, f in enumerate(outcomes) if f is not None]
            best = failures[0][1] if failures else None
            if best is not None and not best.peer_fault:
                say(f"game {failures[0][0] + 1} disagrees; shrinking it "
                    f"(at most {shrink_seconds:g} s)")
                best = _shrink(slot, strategy, examples, seed, shrink_seconds) or best
    finally:
        slot.discard()
    written, write_error = None, None
    if best is not None and out_dir is not None:
        try:
            written = _write_failure(best, Path(out_dir), seed)
        except OSError as error:
            write_error = f"cannot write the failing game into {out_dir}: {error}"
    return HarnessReport(
        passed=sum(1 for f in outcomes if f is None),
        failed=len(failures),
        failure=best,
        first_failing_game=failures[0][0] + 1 if failures else None,
        written=written,
        write_error=write_error,
    )


def _play(slot: PeerSlot, script: GameScript) -> Failure | None:
    failure = play_game(script, slot.get())
    if failure is not None and failure.peer_fault:
        slot.discard()
    return failure


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


def _shrink(slot: PeerSlot, strategy: SearchStrategy[GameScript], examples: int, seed: int,
            seconds: float) -> Failure | None:
    """Find the first disagreement again and let Hypothesis shrink it; the smallest failing
    game seen (by rounds, exchanges, players) within ``seconds``."""
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
        failure = _play(slot, script)
        if failure is None or failure.peer_fault:
            return
        if not smallest or failure.size < smallest[0].size:
            smallest[:] = [failure]
        raise _Stop()

    _run_quietly(shrinker)
    return smallest[0] if smallest else None


def _write_failure(failure: Failure, out_dir: Path, seed: int) -> Path:
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
        # What came from the peer is cut to a few KB (and a hostile answer kept as text), so
        # that the record stays small and readable by any record reader.
        "message": clip(failure.message, 4000),
        "request": last.request,
        "library": last.expected,
        "peer": answer_for_record(last.actual),
        "exchanges": len(failure.exchanges),
    }
    extensions: dict[str, JSON] = {"_harness": details}
    record = evolve(record, extensions=freeze_extensions(extensions))
    out_dir.mkdir(parents=True, exist_ok=True)
    path = out_dir / f"harness-failure-seed{seed}.json"
    write_record_file(path, record)
    return path


def describe(failure: Failure) -> str:
    """The failing exchange as a few lines a person reads."""
    last = failure.exchanges[-1]
    config = failure.script.config
    variant = f"{config.players} players, {config.edition}"
    if config.bottles == 2:
        variant += ", two bottles"
    if config.teams is not None:
        variant += f", teams {[list(t) for t in config.teams]}"
    where = "" if failure.state is None else f"; round {len(failure.state.rounds)}"
    lines = [
        f"{failure.kind} after {len(failure.exchanges)} exchanges ({variant}{where}):",
        f"  request: {json.dumps(last.request)}",
        f"  library: {json.dumps(last.expected)}",
        f"  peer:    {'(no answer)' if last.actual is None else clip(json.dumps(last.actual), 4000)}",
        f"  {clip(failure.message, 4000)}",
    ]
    return "\n".join(lines)


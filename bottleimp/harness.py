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
import queue
import random
import shlex
import signal
import subprocess
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING, Final, NoReturn

from attrs import evolve, frozen

from .actions import Give, Play
from .cards import Card, Rank, rank_key
from .config import Config
from .conformance import apply_setup_entry, card_named, round_start, same_json, setup_gives
from .engine import apply, legal_actions, with_deal
from .errors import ConfigError, IllegalActionError, RecordError
from .reading import (
    JSON,
    ConfigRecordError,
    check_keys,
    child,
    config_from_json,
    deck_by_rank,
    expect_int,
    expect_list,
    expect_object,
    expect_rank,
    expect_str,
)
from .rules.setup import deal, setup_steps
from .state import GameState, Phase, RoundState

if TYPE_CHECKING:
    from hypothesis.strategies import SearchStrategy

__all__ = [
    "PROTOCOL",
    "DEFAULT_TIMEOUT",
    "HarnessError",
    "Referee",
    "serve",
    "Mistake",
    "RoundScript",
    "GameScript",
    "game_scripts",
    "PeerFault",
    "Peer",
    "Exchange",
    "Failure",
    "play_game",
    "HarnessReport",
    "run_harness",
    "describe",
]

PROTOCOL: Final = "bottleimp-protocol/1"
"""The protocol version both sides name in ``hello``."""

DEFAULT_TIMEOUT: Final = 5.0
"""Seconds the other side has to answer one request."""


class HarnessError(Exception):
    """The harness cannot run at all (Hypothesis missing, the command cannot be started)."""


# --- the library's side of the protocol ------------------------------------------------------


def _refusal(rule: str, message: str) -> dict[str, JSON]:
    return {"ok": False, "error": message, "rule": rule}


def _ranks(cards: Sequence[Card]) -> list[JSON]:
    return [card.rank for card in sorted(cards, key=rank_key)]


class Referee:
    """The library speaking ``bottleimp-protocol/1``: ``handle`` answers one request.

    It never raises for a bad request: a request the protocol does not define is answered with
    rule ``PROTOCOL``, an action the rules forbid with the rule it breaks, and the state is then
    unchanged (a setup request is taken whole or not at all)."""

    def __init__(self) -> None:
        self.state: GameState | None = None

    def handle(self, request: JSON) -> dict[str, JSON]:
        """The answer to ``request`` (a parsed JSON value)."""
        try:
            return self._handle(request)
        except IllegalActionError as error:
            return _refusal(error.rule_id, error.message)
        except ConfigRecordError as error:
            return _refusal(error.rule_id, str(error))
        except ConfigError as error:
            return _refusal(error.rule_id, error.message)
        except RecordError as error:
            return _refusal("PROTOCOL", str(error))

    def _handle(self, request: JSON) -> dict[str, JSON]:
        obj = expect_object(request, "$")
        op = expect_str(obj.get("op"), "$.op")
        if op == "hello":
            check_keys(obj, "$", {"op", "protocol"}, set())
            if obj["protocol"] != PROTOCOL:
                return _refusal("PROTOCOL", f"this side speaks {PROTOCOL}")
            return {"ok": True, "protocol": PROTOCOL}
        if op == "new_round":
            return self._new_round(obj)
        if op == "quit":
            check_keys(obj, "$", {"op"}, set())
            return {"ok": True}
        handlers: dict[str, Callable[[GameState, dict[str, JSON]], dict[str, JSON]]] = {
            "setup": self._setup,
            "legal_plays": self._legal_plays,
            "play": self._play,
            "scores": self._scores,
        }
        handler = handlers.get(op)
        if handler is None:
            raise RecordError("$.op", f"unknown op {op!r}")
        if self.state is None:
            raise RecordError("$.op", f"{op!r} before any new_round")
        return handler(self.state, obj)

    def _new_round(self, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "config", "dealer", "hands"}, {"face_up"})
        config = config_from_json(obj["config"], "$.config")
        config = evolve(config, rounds=None, target_score=None)
        dealer = expect_int(obj["dealer"], "$.dealer", 0, config.players - 1)
        deck = deck_by_rank(config)
        hands = self._rows(deck, obj["hands"], "$.hands")
        face_up = None if obj.get("face_up") is None else self._rows(deck, obj["face_up"], "$.face_up")
        state = with_deal(round_start(config, dealer), hands, face_up)
        self.state = state
        return {"ok": True, "to_act": state.to_act}

    @staticmethod
    def _rows(deck: Mapping[Rank, Card], value: JSON, path: str) -> tuple[tuple[Card, ...], ...]:
        rows = []
        for seat, row in enumerate(expect_list(value, path)):
            cards = []
            for index, item in enumerate(expect_list(row, child(path, seat))):
                rank = expect_rank(item, child(child(path, seat), index))
                card = deck.get(rank)
                if card is None:
                    raise IllegalActionError("DEAL-COUNTS", f"{rank} is not a card of this deck")
                cards.append(card)
            rows.append(tuple(cards))
        return tuple(rows)

    def _setup(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "seat", "discard"}, {"left", "right", "to_face_up", "to_hidden"})
        seat = expect_int(obj["seat"], "$.seat")
        entry = {key: value for key, value in obj.items() if key not in ("op", "seat")}
        config = state.config
        if state.phase is not Phase.SETUP:
            raise IllegalActionError("PHASE", f"a setup is not possible in the {state.phase.value} phase")
        if not 0 <= seat < config.players:
            raise IllegalActionError("SETUP-ORDER", f"there is no seat {seat}")
        steps = setup_steps(config, state.round.dealer, seat)
        if len(state.round.setup[seat]) == len(steps):
            raise IllegalActionError("SETUP-STEPS", f"seat {seat} has already given its setup")
        if seat != state.to_act:
            raise IllegalActionError("SETUP-ORDER", f"it is seat {state.to_act}'s turn to give its setup")
        gives = self._gives(config, seat, entry)
        state = apply_setup_entry(state, seat, gives)
        self.state = state
        answer: dict[str, JSON] = {"ok": True, "to_act": state.to_act}
        if state.phase is Phase.PLAY:
            round_ = state.round
            answer["hands"] = [_ranks(hand) for hand in round_.hands]
            answer["face_up"] = None if round_.face_up is None else [_ranks(f) for f in round_.face_up]
            answer["devils_trick"] = _ranks(round_.devils_trick)
        return answer

    @staticmethod
    def _gives(config: Config, seat: int, entry: dict[str, JSON]) -> tuple[Give, ...]:
        """The entry's cards in step order: the discards, then left, right, to_face_up,
        to_hidden as present; the engine refuses a part that is not the seat's next step."""
        deck = deck_by_rank(config)
        passes_3_6: dict[str, JSON] = {"discard": entry["discard"]}
        passes_2: dict[str, JSON] = {"discard": []}
        for key, value in entry.items():
            if key in ("left", "right"):
                passes_3_6[key] = value
            elif key in ("to_face_up", "to_hidden"):
                passes_2[key] = value
        first = setup_gives(deck, seat, passes_3_6, "$", eye=False)
        return first + setup_gives(deck, seat, passes_2, "$", eye=True)

    def _legal_plays(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op"}, set())
        if state.phase is not Phase.PLAY:
            raise IllegalActionError("PHASE", f"no card is played in the {state.phase.value} phase")
        cards = [action.card for action in legal_actions(state) if isinstance(action, Play)]
        return {"ok": True, "seat": state.to_act, "cards": _ranks(cards)}

    def _play(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "seat", "card"}, set())
        seat = expect_int(obj["seat"], "$.seat")
        card = card_named(deck_by_rank(state.config), obj["card"], "$.card")
        if state.phase is not Phase.PLAY:
            raise IllegalActionError("PHASE", f"no card is played in the {state.phase.value} phase")
        after = apply(state, Play(seat, card))
        self.state = after
        answer: dict[str, JSON] = {
            "ok": True,
            "to_act": after.to_act if after.phase is Phase.PLAY else None,
        }
        if len(after.round.tricks) > len(state.round.tricks):
            result = after.round.tricks[-1]
            answer["trick"] = {
                "winner": result.winner,
                "card": result.winning_card.rank,
                "bottle": result.bottle,
                "bottles": [{"price": b.price, "owner": b.owner} for b in after.round.bottles],
            }
        return answer

    def _scores(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op"}, set())
        scores = state.round.scores
        if scores is None:
            raise IllegalActionError("ROUND-END", "the round is not over: cards remain to be played")
        return {"ok": True, "scores": list(scores)}


def serve(stdin: IO[str], stdout: IO[str]) -> int:
    """Answer protocol requests from ``stdin`` on ``stdout`` until ``quit`` or the end of input."""
    referee = Referee()
    for line in stdin:
        if not line.strip():
            continue
        try:
            request: JSON = json.loads(line)
        except json.JSONDecodeError as error:
            answer = _refusal("PROTOCOL", f"not JSON: {error}")
        else:
            answer = referee.handle(request)
        stdout.write(json.dumps(answer) + "\n")
        stdout.flush()
        if isinstance(request, dict) and request.get("op") == "quit" and answer.get("ok"):
            break
    return 0


# --- comparing answers -----------------------------------------------------------------------


def compare(expected: dict[str, JSON], actual: dict[str, JSON]) -> str | None:
    """``None`` when ``actual`` is the answer ``expected`` asks for, else what differs.

    A refusal matches a refusal that names the same rule (the message is free text)."""
    if expected.get("ok") is False:
        if actual.get("ok") is not False:
            return f"the library refuses this with rule {expected['rule']} ({expected['error']}); " \
                   "the peer accepts it"
        if not isinstance(actual.get("error"), str):
            return "the peer's refusal has no \"error\" message"
        if actual.get("rule") != expected["rule"]:
            return f"the peer refuses this with rule {json.dumps(actual.get('rule'))}; " \
                   f"the library names rule {expected['rule']} ({expected['error']})"
        return None
    if actual.get("ok") is False:
        return f"the peer refuses this with rule {json.dumps(actual.get('rule'))} " \
               f"({actual.get('error')}); the library accepts it"
    if same_json(expected, actual):
        return None
    for key in expected:
        if key not in actual:
            return f"the peer's answer has no {json.dumps(key)}"
        if not same_json(expected[key], actual[key]):
            return f"{json.dumps(key)} differs: the library says {json.dumps(expected[key])}, " \
                   f"the peer says {json.dumps(actual[key])}"
    extra = sorted(key for key in actual if key not in expected and not key.startswith("_"))
    return f"the peer's answer has keys the protocol does not define here: {', '.join(extra)}"


# --- the other implementation ----------------------------------------------------------------


class PeerFault(Exception):
    """The other side did not answer properly: ``kind`` is ``timeout``, ``crash`` or
    ``malformed``."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


class Peer:
    """The other implementation as a subprocess speaking the protocol.

    ``ask`` writes one request line and waits at most ``timeout`` seconds for one answer line;
    a hang, an exit or an answer that is not a JSON object raises ``PeerFault``. Threads do the
    reading and the writing, so that a peer that stops reading its input cannot block the
    harness either."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self.command = tuple(command)
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=os.name == "posix",
            )
        except OSError as error:
            raise HarnessError(f"cannot start {shlex.join(self.command)}: {error}") from error
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._requests: queue.Queue[str | None] = queue.Queue()
        self._write_failed = threading.Event()
        self.stderr_tail: deque[str] = deque(maxlen=20)
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(process.stderr,), daemon=True).start()
        threading.Thread(target=self._write, args=(process.stdin,), daemon=True).start()

    def _write(self, stream: IO[str]) -> None:
        while (line := self._requests.get()) is not None:
            try:
                stream.write(line)
                stream.flush()
            except (OSError, ValueError):
                self._write_failed.set()
                return
        try:
            stream.close()
        except (OSError, ValueError):
            pass

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)
            stream.close()

    def _drain(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self.stderr_tail.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        finally:
            stream.close()

    def _exit_text(self) -> str:
        try:
            status = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return ""
        tail = "; its last error output: " + " | ".join(self.stderr_tail) if self.stderr_tail else ""
        return f" (exit status {status}{tail})"

    def ask(self, request: dict[str, JSON]) -> dict[str, JSON]:
        """Send ``request`` and return the answer, or raise ``PeerFault``."""
        if self._write_failed.is_set():
            raise PeerFault("crash", f"the peer no longer reads its input{self._exit_text()}")
        self._requests.put(json.dumps(request) + "\n")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            if self._write_failed.is_set():
                raise PeerFault("crash", f"the peer no longer reads its input{self._exit_text()}") from None
            raise PeerFault("timeout", f"no answer within {self.timeout:g} s") from None
        if line is None:
            raise PeerFault("crash", f"the peer exited without answering{self._exit_text()}")
        try:
            value: JSON = json.loads(line)
        except json.JSONDecodeError:
            raise PeerFault("malformed", f"the answer is not JSON: {line.strip()[:200]!r}") from None
        if not isinstance(value, dict):
            raise PeerFault("malformed", f"the answer is not a JSON object: {line.strip()[:200]!r}")
        return value

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def close(self) -> None:
        """Ask the peer to quit, then end it (and its process group) if it does not."""
        if self.alive:
            self._requests.put(json.dumps({"op": "quit"}) + "\n")
            self._requests.put(None)
            try:
                self.process.wait(timeout=min(self.timeout, 1.0))
            except subprocess.TimeoutExpired:
                pass
        if self.alive:
            self._kill()
        self._requests.put(None)

    def _kill(self) -> None:
        try:
            if os.name == "posix":
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass


class _PeerSlot:
    """One running peer at a time, started on demand and restarted after a fault."""

    def __init__(self, command: Sequence[str], timeout: float) -> None:
        self.command = command
        self.timeout = timeout
        self.peer: Peer | None = None

    def get(self) -> Peer:
        if self.peer is None or not self.peer.alive:
            self.discard()
            self.peer = Peer(self.command, self.timeout)
        return self.peer

    def discard(self) -> None:
        if self.peer is not None:
            self.peer.close()
            self.peer = None


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

    def _play_round(self, index: int, script: RoundScript) -> None:
        config = self.config
        dealer = index % config.players
        hands, face_up = deal(config, script.deal_seed, index, dealer)
        self.ask({
            "op": "new_round",
            "config": {"edition": config.edition, "players": config.players,
                       "bottles": config.bottles,
                       "teams": None if config.teams is None else [list(t) for t in config.teams]},
            "dealer": dealer,
            "hands": [_ranks(hand) for hand in hands],
            "face_up": None if face_up is None else [_ranks(row) for row in face_up],
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
    request: dict[str, JSON] = {"op": "setup", "seat": seat, "discard": []}
    discards: list[JSON] = []
    while state.phase is Phase.SETUP and state.to_act == seat:
        options = legal_actions(state)
        give = options[choose(len(options))]
        assert isinstance(give, Give)
        if give.to.value == "devils_trick":
            discards.append(give.card.rank)
        else:
            request[give.to.value] = give.card.rank
        state = apply(state, give)
    request["discard"] = discards
    return request


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
            names = [step.value for step in steps]
            request = {"op": "setup", "seat": other,
                       "discard": [c.rank for c in hand[: names.count("devils_trick")]]}
            rest = hand[names.count("devils_trick"):]
            for name, card in zip((n for n in names if n != "devils_trick"), rest):
                request[name] = card.rank
            return request
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
    from hypothesis import HealthCheck, Phase as HPhase, Verbosity, settings

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
    slot = _PeerSlot(command, timeout)
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


def _play(slot: _PeerSlot, script: GameScript) -> Failure | None:
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


def _shrink(slot: _PeerSlot, strategy: SearchStrategy[GameScript], examples: int, seed: int,
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
    from .records import GameRecord, freeze_extensions, record_from_state, write_record_file

    if failure.state is None:
        record = GameRecord(config=failure.script.config, rounds=())
    else:
        record = record_from_state(failure.state)
    last = failure.exchanges[-1]
    details: dict[str, JSON] = {
        "protocol": PROTOCOL,
        "seed": seed,
        "kind": failure.kind,
        "message": failure.message,
        "request": last.request,
        "library": last.expected,
        "peer": last.actual,
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
        f"  peer:    {'(no answer)' if last.actual is None else json.dumps(last.actual)}",
        f"  {failure.message}",
    ]
    return "\n".join(lines)


def main_serve() -> int:
    """``bottleimp conformance --serve``: the library answers the protocol on stdin/stdout."""
    return serve(sys.stdin, sys.stdout)

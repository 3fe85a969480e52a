"""Playing one game against a peer: every request answered by the library alongside and the
two answers compared (``Exchange``, ``Failure``, ``GameResult``, ``play_game``), and the greeting
that reads the peer's capabilities (``negotiate``)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Sequence
from typing import Final, NoReturn

from attrs import evolve, field, frozen

from ..actions import Give, Play
from ..cards import Card
from ..engine import apply, legal_actions
from ..errors import PeerFault, RecordError, UnknownRuleError
from ..formats.json_input import JSON
from ..formats.setup_entries import entry_from_gives
from ..catalogue import is_convention as catalogue_is_convention
from ..rules.deal import deal, first_dealer, next_dealer
from ..state import GameState, Phase, RoundState
from .answers import PeerRound
from .capabilities import Capabilities, capabilities_from_json
from .explain import Disagreement, explain
from .follow import Lost, follow_peer, follow_scores
from .lines import clip
from .peer import Peer, PeerSlot
from .position import set_position_request
from .protocol import PROTOCOL, UNSUPPORTED, Referee, compare
from .refusals import ANY_ORDER_LEGAL, REFUSALS, Moment, round_request
from .scripts import GameScript, Mistake, RoundScript

__all__ = ["Exchange", "Failure", "Refusal", "GameResult", "Stop", "play_game", "negotiate",
           "GameRunner", "is_convention", "LIBRARY", "PEER", "SET_POSITION"]

LIBRARY: Final = "library"
"""A disagreement met on the library's own trajectory: every answer that changes the round
agreed so far (or the peer sat out the rest of a round and rejoined at the next one)."""

SET_POSITION: Final = "library-set-position"
"""A disagreement met on the library's trajectory, the peer having been put back on it with
``set_position`` after an earlier disagreement."""

PEER: Final = "peer"
ANSWERS: Final = "peer-answers"
"""Judged on the peer's own answers, by the rules that need no whole position (its answers
described none the rules reach: a card twice, a card lost)."""
"""A disagreement met on the peer's trajectory: after an earlier disagreement, the library was
put into the position the peer's answers described, and went on from there."""


def is_convention(rule_id: str) -> bool:
    """Whether ``rule_id`` is a convention of the library (``kind = "convention"`` in
    ``spec/rules.toml``: a choice where the sources leave one open) rather than a rule of the
    sources; a peer that chooses otherwise is noted, never failed. A name the catalogue does
    not hold (the peer's own rule names) is no convention."""
    try:
        return catalogue_is_convention(rule_id)
    except UnknownRuleError:
        return False


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
    trajectory: str = LIBRARY
    """Where the failing request was compared: ``library``, ``library-set-position`` or ``peer``
    (see ``LIBRARY``, ``SET_POSITION``, ``PEER``; each round starts on the library's, both
    sides dealt the same cards)."""
    followed_from: int | None = None
    """Once the library has followed the peer in the game: the number of the request (from 1)
    whose answer it first followed; ``state`` is then the game up to it (the part legal by the
    library's rules)."""

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
    coverage table; every disagreement met (the game goes on after each, resynchronised), and a
    peer fault last if one ended it; whether a round was started. Only a failed game keeps its
    exchanges (in its failures), so that a long run stays small."""

    outcome: str
    refusals: tuple[Refusal, ...]
    failures: tuple[Failure, ...]
    script: GameScript | None = None
    started: bool = False
    exchanges: tuple[Exchange, ...] = ()
    """Every exchange of the game, kept only when asked for (a replay)."""
    notes: tuple[tuple[str, str], ...] = ()
    """What is no failure: a convention the peer chose otherwise (its rule and what differed)."""
    uncompared: tuple[str, ...] = ()
    """What could not be compared, and why: the peer's answers fixed no position to follow."""
    trajectories: tuple[str, ...] = ()
    """How the game went on after each disagreement on a request that changes the round."""

    @property
    def failure(self) -> Failure | None:
        """The game's first failure, if any."""
        return self.failures[0] if self.failures else None

    @property
    def peer_fault(self) -> Failure | None:
        """The timeout, crash or malformed answer that ended the game, if one did."""
        last = self.failures[-1] if self.failures else None
        return last if last is not None and last.peer_fault else None

    @property
    def disagreements(self) -> tuple[Failure, ...]:
        """Every disagreement the game met, in order."""
        return tuple(f for f in self.failures if not f.peer_fault)


class Stop(Exception):
    """The current game has ended early (a peer fault, or a request the peer does not support)."""


STATE_OPS: Final = frozenset({"new_round", "setup", "play", "set_position"})
"""The requests that change a round: after a disagreement on one of them the peer's round may
differ from the library's, and the game is resynchronised."""


class _Game:
    """One game played against the peer, the library answering every request alongside.

    After a disagreement on a request that changes the round, the two sides are put back on
    one trajectory: the peer on the library's with ``set_position`` when it declares it,
    else the library on the peer's (``follow``: the peer's hands after the setup,
    its trick result, its scores). Where the peer's answers fix no position the library can
    take, what could not be compared is said, the rest of the round is played by the library
    alone and the peer rejoins at the next ``new_round`` (which then names the dealer). A game
    with a target score or the default end is played until the library's ``end_round`` ends it.
    A peer that takes the setups in any order gets them in another order than the library's.
    Every disagreement is recorded; one on a convention of the library is a note."""

    def __init__(self, script: GameScript, peer: Peer, *,
                 capabilities: Capabilities | None = None, fresh: bool = False,
                 play_declared_decks: bool = True, keep: bool = False,
                 until: int | None = None) -> None:
        self.script = script
        self.keep = keep
        self.until = until
        """Stop the game once this many requests have been exchanged (a replay that compares
        only the requests up to a failure)."""
        self.config = script.config
        self.peer = peer
        self.capabilities = capabilities or Capabilities()
        self.fresh = fresh
        self.use_declared = play_declared_decks
        self.referee = Referee()
        self.exchanges: list[Exchange] = []
        self.finished: list[RoundState] = []
        self.failures: list[Failure] = []
        self.outcome = "passed"
        self.detached = False
        """The peer left the round after a disagreement it could not be resynchronised from."""
        self.tell_dealer = True
        """The next ``new_round`` names its dealer (the first round; after a resynchronisation
        or a disagreement on the next dealer)."""
        self.trajectory = LIBRARY
        self.legal_game: GameState | None = None
        """The library's game up to the first answer of the peer it followed (legal by its
        rules: what a failure record of a later disagreement holds)."""
        self.followed_from: int | None = None
        self.notes: list[tuple[str, str]] = []
        self.uncompared: list[str] = []
        self.trajectories: list[str] = []
        self.peer_answer: dict[str, JSON] | None = None
        """The peer's answer to the last request (for choosing a play both sides allow)."""
        self.rollbacks = 0
        self.peer_round: PeerRound | None = None
        """The round as the peer's answers describe it, once they describe no position."""
        self.peer_dealer: int | None = None
        """The dealer the peer's ``new_round`` answer named for the round."""
        self.totals_known = True
        """Whether the peer's totals are the library's (not after a round it sat out)."""

    def ask(self, request: dict[str, JSON], refusal: str | None = None, *,
            expected: dict[str, JSON] | None = None,
            loose: tuple[str, ...] = ()) -> dict[str, JSON]:
        """Send ``request`` to both sides and compare the answers (``expected``: the library's
        answer given, not asked; ``loose``: keys of the peer's answer not compared)."""
        if self.until is not None and len(self.exchanges) >= self.until:
            raise Stop()
        before = self.referee.state
        given = expected is not None
        if expected is None:
            expected = self.referee.handle(request)
        self.peer_answer = None
        if self.detached:
            return expected
        try:
            actual = self.peer.ask(request)
        except PeerFault as fault:
            self.exchanges.append(Exchange(request, expected, None, refusal))
            self._fail(fault.kind, fault.message, None, before)
        self.peer_answer = actual
        self.exchanges.append(Exchange(request, expected, actual, refusal))
        if self._unsupported(request, expected, actual):
            if expected.get("ok") is False:
                return expected  # an illegal request the peer does not check: coverage
            self.outcome = "unsupported"
            raise Stop()
        op = request.get("op")
        if op == "new_round" and isinstance(actual.get("dealer"), int):
            dealer = actual["dealer"]
            assert isinstance(dealer, int)
            self.peer_dealer = dealer
        if op == "hello" and expected.get("ok") is True:
            # Capabilities are the peer's own: a greeting is compared on its protocol only.
            problem = compare({k: expected[k] for k in ("ok", "protocol")},
                              {k: v for k, v in actual.items() if k in ("ok", "protocol", "error")})
        else:
            problem = compare(expected, {k: v for k, v in actual.items() if k not in loose})
        if problem is not None:
            disagreement = explain(before, self.referee.state, request, expected, actual, problem)
            if is_convention(disagreement.rule):
                self.notes.append((disagreement.rule, disagreement.message))
                if op == "new_round" and self._setups_at_once():
                    # The seat it names first is the peer's own choice: it is sent the setups
                    # in another order anyway, so there is nothing to follow.
                    return expected
            else:
                self._disagree(disagreement, before)
            if op == "hello":
                raise Stop()
            if op == "end_round":
                self.tell_dealer = True
            if op == "scores":
                self._follow_scores(actual)
            if op in STATE_OPS:
                self._resync(op == "set_position", None if given else before, request,
                             expected, actual)
        return expected

    def _disagree(self, disagreement: Disagreement, before: GameState | None) -> None:
        """Record a disagreement on the trajectory the round is on; once the library has
        followed the peer in this game, the game up to there (the part its rules reach)."""
        followed = self.legal_game is not None
        state = self.legal_game if followed else self.game_state()
        self.failures.append(Failure("disagreement", disagreement.message, self.script,
                                     tuple(self.exchanges), state, disagreement, before,
                                     self.trajectory, self.followed_from))
        self.outcome = "failed"

    def _lose(self, reason: str) -> None:
        """The peer's answers fix no position: it sits out the rest of the round."""
        state = self.referee.state
        where = "" if state is None else f"round {len(self.finished) + 1}, "
        rest = ("its later answers were judged on their own, by the rules that need no whole "
                "position" if self.peer_round is not None
                else "the rest of the round was not compared")
        self.uncompared.append(f"{where}after request {len(self.exchanges)}: {reason}; {rest}")
        self.detached = True

    def _follow_scores(self, actual: dict[str, JSON]) -> None:
        """Without ``set_position``, the library takes the peer's scores, so that the totals and
        the game's end are compared along the peer's own."""
        state = self.referee.state
        if state is None or actual.get("ok") is not True or self.capabilities.set_position \
                or state.round.scores is None:
            return
        followed = follow_scores(state, actual)
        if isinstance(followed, Lost):
            self.uncompared.append(f"after request {len(self.exchanges)}: {followed.reason}; "
                                   "the game's end was compared on the library's totals")
            return
        self._move_to(followed)

    def _unsupported(self, request: dict[str, JSON], expected: dict[str, JSON],
                     actual: dict[str, JSON]) -> bool:
        """Whether the peer refuses ``request`` as outside what it supports (``UNSUPPORTED``)."""
        return actual.get("ok") is False and actual.get("rule") == UNSUPPORTED

    def _resync(self, failed: bool, before: GameState | None, request: dict[str, JSON],
                expected: dict[str, JSON], actual: dict[str, JSON]) -> None:
        """Put the peer back on the library's round with ``set_position`` where it takes it,
        else the library on the peer's (see the class)."""
        self.tell_dealer = True
        state = self.referee.state
        if state is None:
            self._lose("the library has no round to compare")
            return
        if failed:
            self._lose("the peer does not take the library's position")
            return
        if self.capabilities.set_position:
            self.trajectories.append(SET_POSITION)
            self.trajectory = SET_POSITION
            self.ask(set_position_request(state))
            return
        if before is None:
            self._lose("the peer was sent the setups in another order than the library")
            return
        if expected.get("ok") is False and actual.get("ok") is not False:
            self._lose(f"the peer accepts a request the library refuses with rule "
                       f"{expected.get('rule')}: its round is in no position the rules reach")
            return
        if actual.get("ok") is False:
            self.rollbacks += 1
            if request.get("op") not in ("setup", "play") or self.rollbacks > 3:
                self._lose(f"the peer refuses a legal {request.get('op')} "
                           "and the harness has no other request that both sides take")
                return
        followed = follow_peer(before, state, request, actual)
        if isinstance(followed, Lost):
            self._judge_on_answers(before, state, request, actual)
            self._lose(followed.reason)
            return
        self.trajectories.append(PEER)
        self._move_to(followed)

    def _judge_on_answers(self, before: GameState, after: GameState, request: dict[str, JSON],
                          actual: dict[str, JSON]) -> None:
        """Where the peer's answers fix no position after its last setup or a play, keep its
        round as it describes it, to judge each later answer by the rules that need none."""
        op = request.get("op")
        dealer = self.peer_dealer if self.peer_dealer is not None else before.round.dealer
        if op == "setup" and "hands" in actual:
            peer_round = PeerRound(after, dealer)
            if peer_round.take_setup(actual):
                self.peer_round = peer_round
        elif op == "play" and actual.get("ok") is True and before.phase is Phase.PLAY:
            seat, card = request.get("seat"), request.get("card")
            if isinstance(seat, int) and isinstance(card, (int, float)):
                peer_round = PeerRound(before, dealer)
                peer_round.judge_play(seat, before.config.card(card), actual)
                peer_round.faults.clear()  # this answer's disagreement is recorded already
                self.peer_round = peer_round

    def _ask_on_answers(self, request: dict[str, JSON]) -> dict[str, JSON] | None:
        """Send ``request`` to the peer alone, its round judged on its own answers; ``None``
        when it refuses it (nothing more can be judged in the round)."""
        if self.until is not None and len(self.exchanges) >= self.until:
            raise Stop()
        try:
            actual = self.peer.ask(request)
        except PeerFault as fault:
            self.exchanges.append(Exchange(request, {}, None))
            self._fail(fault.kind, fault.message, None, self.referee.state)
        self.exchanges.append(Exchange(request, actual, actual))
        self.peer_answer = actual
        return actual if actual.get("ok") is True else None

    def _record_faults(self, peer_round: PeerRound) -> None:
        """Each fault the last answer showed, as a disagreement judged on the peer's answers."""
        if not peer_round.faults:
            return
        last = self.exchanges[-1]
        for fault in peer_round.faults:
            rules_give = fault.detail.get("rules_give")
            self.exchanges[-1] = Exchange(last.request, {"ok": True, "_rules_give": rules_give},
                                          last.actual)
            self.trajectory = ANSWERS
            self._disagree(Disagreement(fault.rule, fault.message, fault.detail), None)
        self.trajectories.append(ANSWERS)
        peer_round.faults.clear()

    def _play_on_answers(self, choose: Callable[[int], int]) -> None:
        """The rest of the round the peer's answers describe, each answer judged on its own:
        the plays (from the cards it allows and its hand holds), its scores and its next
        dealer."""
        peer_round = self.peer_round
        assert peer_round is not None
        self._record_faults(peer_round)
        stopped = ""
        for _ in range(4 * len(self.config.cards)):
            if peer_round.to_act is None:
                break
            answer = self._ask_on_answers({"op": "legal_plays"})
            if answer is None:
                stopped = "the peer refuses legal_plays"
                break
            allowed = peer_round.judge_legal_plays(answer)
            self._record_faults(peer_round)
            seat = answer.get("seat")
            if not allowed or not isinstance(seat, int):
                stopped = "the peer allows no card its own hand holds"
                break
            card = allowed[choose(len(allowed))]
            answer = self._ask_on_answers({"op": "play", "seat": seat, "card": card.rank})
            if answer is None:
                stopped = f"the peer refuses to let seat {seat} play {card.rank}, which it allowed"
                break
            peer_round.judge_play(seat, card, answer)
            self._record_faults(peer_round)
        if stopped:
            self.uncompared.append(f"round {len(self.finished) + 1}: judging the peer's own "
                                   f"answers stopped: {stopped}")
            return
        answer = self._ask_on_answers({"op": "scores"})
        if answer is not None:
            peer_round.judge_scores(answer)
            self._record_faults(peer_round)
        answer = self._ask_on_answers({"op": "end_round"})
        if answer is not None:
            peer_round.judge_end_round(answer)
            self._record_faults(peer_round)

    def _move_to(self, state: GameState) -> None:
        """Put the library into ``state``, a position on the peer's trajectory."""
        if self.legal_game is None:
            self.legal_game = self.game_state()
            self.followed_from = len(self.exchanges)
        self.trajectory = PEER
        self.referee.state = state

    def _fail(self, kind: str, message: str, disagreement: Disagreement | None,
              before: GameState | None) -> NoReturn:
        self.failures.append(Failure(kind, message, self.script, tuple(self.exchanges),
                                     self.game_state(), disagreement, before))
        self.outcome = "failed"
        raise Stop()

    def game_state(self) -> GameState | None:
        """The library's game so far: the finished rounds and the current one (before the next
        round's ``new_round`` is answered, the last finished one), with the game's end."""
        current = self.referee.state
        if current is None:
            return None
        finished = self.finished
        if finished and current.round is finished[-1]:
            finished = finished[:-1]  # the next round has not begun: no round twice
        past = tuple(evolve(round_, index=i) for i, round_ in enumerate(finished))
        # Each protocol round starts from zero totals: add the finished rounds' scores.
        totals = tuple(current.totals[s] + sum(r.scores[s] for r in past if r.scores)
                       for s in range(self.config.players))
        config = evolve(current.config, rounds=self.config.rounds,
                        target_score=self.config.target_score)
        return evolve(current, config=config, round=evolve(current.round, index=len(past)),
                      past_rounds=past, totals=totals)

    def play(self) -> GameResult:
        try:
            self._mistakes_at("start", self.script.rounds[0].mistakes if self.script.rounds else ())
            hello = self.ask({"op": "hello", "protocol": PROTOCOL})
            del hello
            if self.fresh:
                # Once per peer process: a round request before any new_round.
                kind = next(k for k in REFUSALS if k.when == "fresh")
                moment = Moment(self.config, None, {}, self.capabilities.teams)
                request = kind.build(moment, self.script.rounds[0].deal_seed
                                     if self.script.rounds else 0)
                if request is not None:
                    self.ask(request, kind.name)
            for index in range(self.script.most_rounds):
                self._play_round(index, self.script.round_script(index))
                state = self.referee.state
                assert state is not None
                self.finished.append(state.round)
                if not self._game_goes_on(index):
                    break
        except Stop:
            pass
        refusals = tuple(
            Refusal(ex.refusal, str(ex.expected.get("rule")),
                    ex.actual is not None and compare(ex.expected, ex.actual) is None,
                    ex.actual is not None and self._unsupported(ex.request, ex.expected, ex.actual))
            for ex in self.exchanges if ex.refusal is not None)
        started = any(ex.request.get("op") == "new_round" and ex.refusal is None
                      for ex in self.exchanges)
        return GameResult(self.outcome, refusals, tuple(self.failures), self.script, started,
                          tuple(self.exchanges) if self.keep else (), tuple(self.notes),
                          tuple(self.uncompared), tuple(self.trajectories))

    def _game_goes_on(self, index: int) -> bool:
        """Whether another round is played after round ``index``: the library's game goes on
        (its ``end_round``), and so does the peer's, with totals the library can follow."""
        ended = self.referee.ended or {}
        library_over = ended.get("game_over") is True
        answer = self.peer_answer if not self.detached else None
        peer_over = isinstance(answer, dict) and answer.get("game_over") is True
        if library_over != peer_over and answer is not None:
            self.uncompared.append(
                f"after round {index + 1}: the {'library' if library_over else 'peer'} ends the "
                f"game and the {'peer' if library_over else 'library'} plays on: its later "
                "rounds were not compared")
            return False
        if library_over:
            return False
        if self.config.target_score is not None and not self.totals_known:
            self.uncompared.append(
                f"after round {index + 1}: the peer sat out part of a round, so its totals are "
                "not known: the game's end by target score could not be compared further")
            return False
        return True

    def _mistakes_at(self, when: str, mistakes: Sequence[Mistake],
                     new_round: dict[str, JSON] | None = None,
                     step: int | None = None, period: int = 1,
                     fired: set[int] | None = None) -> None:
        """Send the round's illegal requests whose moment is ``when`` (for ``setup`` and ``play``:
        those due at decision ``step``, counted modulo ``period``)."""
        for number, mistake in enumerate(mistakes):
            if self.detached:
                return
            kind = REFUSALS[mistake.kind % len(REFUSALS)]
            if kind.when != when and not (kind.when == "any" and when in ("deal", "setup", "play")):
                continue
            if kind.name == ANY_ORDER_LEGAL and self._setups_at_once():
                continue  # a legal request for a peer that takes the setups in any order
            if fired is not None and number in fired:
                continue
            if step is not None and step < mistake.step % period:
                continue
            moment = Moment(self.config, self.referee.state, new_round or {},
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
        """The cards ``new_round`` carries: the peer's own where it declared them."""
        if not self.use_declared:
            return self.config.cards
        # Ranks the peer left out keep the library's data; the data fault is reported apart.
        return self.capabilities.playing_deck(self.config)

    def _round_request(self, index: int, dealer: int, hands: tuple[tuple[Card, ...], ...],
                       face_up: tuple[tuple[Card, ...], ...] | None) -> dict[str, JSON]:
        """The round's ``new_round``: the round's number and the game's end; it names the dealer only of a game's first round or after a resynchronisation: the
        peer's own rotation deals the others (it answered ``end_round`` with it)."""
        request = round_request(self.config, dealer, hands, face_up, self._deck())
        config = request["config"]
        assert isinstance(config, dict)
        if self.config.rounds is not None:
            config["rounds"] = self.config.rounds
        if self.config.target_score is not None:
            config["target_score"] = self.config.target_score
        request["round"] = index
        if not self.tell_dealer and self.capabilities.dealer:
            del request["dealer"]
        return request

    def _play_round(self, index: int, script: RoundScript) -> None:
        config = self.config
        dealer = self._dealer(index)
        hands, face_up = deal(config, script.deal_seed, index, dealer)
        request = self._round_request(index, dealer, hands, face_up)
        self.detached = False
        self.peer_round = None
        self.peer_dealer = None
        self.rollbacks = 0
        # Both sides start the round from the same deal: a common position again.
        self.trajectory = LIBRARY
        self._mistakes_at("deal", script.mistakes, request)
        self.tell_dealer = False
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
            if state.phase is Phase.SETUP and setup_step == 0 and self._setups_at_once():
                self._setups_in_another_order(choose, lambda: self._mistakes_at(
                    "setup", script.mistakes, request, config.players, config.players, fired))
                setup_step += config.players
            elif state.phase is Phase.SETUP:
                self._mistakes_at("setup", script.mistakes, request, setup_step,
                                  config.players, fired)
                self.ask(_setup_request(state, choose)[0])
                setup_step += 1
            elif state.phase is Phase.PLAY:
                # legal_plays first: a colour fault shows there before any refusal depends on it.
                self.ask({"op": "legal_plays"})
                allowed = self._peer_cards()
                self._mistakes_at("play", script.mistakes, request, play_step, 24, fired)
                state = self.referee.state
                assert state is not None
                options = legal_actions(state)
                # A card both sides allow, where the peer's legal plays differ from the library's.
                both = [o for o in options if isinstance(o, Play)
                        and (allowed is None or o.card.rank in allowed)]
                if not both and not self.detached:
                    self._lose(f"no card is legal for seat {state.to_act} by both sides' rules "
                               "(each allows only cards the other forbids): no play follows both")
                play = (both or options)[choose(len(both or options))]
                assert isinstance(play, Play)
                self.ask({"op": "play", "seat": play.seat, "card": play.card.rank})
                play_step += 1
            else:
                break
        self.ask({"op": "scores"})
        self._mistakes_at("after", script.mistakes, request, fired=fired)
        self.ask({"op": "end_round"})
        if self.peer_round is not None:
            self._play_on_answers(choose)
        if self.detached:
            self.tell_dealer = True
            self.totals_known = False

    def _peer_cards(self) -> set[float] | None:
        """The cards the peer's last ``legal_plays`` answer allows (``None``: no such answer)."""
        answer = self.peer_answer
        cards = None if answer is None or answer.get("ok") is not True else answer.get("cards")
        if not isinstance(cards, list):
            return None
        return {card for card in cards if isinstance(card, (int, float))
                and not isinstance(card, bool)}

    def _setups_at_once(self) -> bool:
        """Whether the round's setups go to the peer in another order than the library's: it
        declares that it takes them in any order, and takes part in the round."""
        return self.capabilities.setups_any_order and not self.detached

    def _setups_in_another_order(self, choose: Callable[[int], int],
                                 mistakes: Callable[[], None]) -> None:
        """Every seat's setup, chosen as the library's order would have it; the library takes
        them in its order, the peer the seats before the last in reverse order, then the last
        (so both sides resolve the same last request). Until the last, the peer's answers are
        compared on being accepted, not on the seat they name next (its order is its own).
        The round's illegal setup requests are sent before the last, when both sides wait for
        the same seat."""
        state = self.referee.state
        assert state is not None
        requests = []
        while state.phase is Phase.SETUP:
            request, state = _setup_request(state, choose)
            requests.append(request)
        for request in requests[:-1]:
            self.referee.handle(request)
        for request in reversed(requests[:-1]):
            self.ask(request, expected={"ok": True}, loose=("to_act",))
            if self.detached:
                # The library plays the round alone: its state already holds these setups.
                break
        mistakes()
        self.ask(requests[-1])


def _setup_request(state: GameState, choose: Callable[[int], int]
                   ) -> tuple[dict[str, JSON], GameState]:
    """The seat to act's whole setup, each card chosen among its legal gives, and the state
    once it is given."""
    seat = state.to_act
    assert seat is not None
    gives: list[Give] = []
    while state.phase is Phase.SETUP and state.to_act == seat:
        options = legal_actions(state)
        give = options[choose(len(options))]
        assert isinstance(give, Give)
        gives.append(give)
        state = apply(state, give)
    return {"op": "setup", "seat": seat, **entry_from_gives(gives)}, state


def play_game(script: GameScript, peer: Peer, *,
              capabilities: Capabilities | None = None, fresh: bool = False) -> Failure | None:
    """Play ``script`` against ``peer``; the first failure, or ``None`` when every answer agrees
    (or the peer does not support the game)."""
    return _Game(script, peer, capabilities=capabilities, fresh=fresh).play().failure


def negotiate(peer: Peer) -> Capabilities:
    """Greet a freshly started peer: its capabilities. A greeting that is not
    ``bottleimp-protocol/3``'s raises ``PeerFault``."""
    answer = peer.ask({"op": "hello", "protocol": PROTOCOL})
    if answer.get("ok") is True and answer.get("protocol") == PROTOCOL:
        try:
            return capabilities_from_json(answer.get("capabilities"))
        except RecordError as error:
            raise PeerFault("malformed", f"the peer's capabilities are malformed: {error}",
                            answer) from None
    # A wrong greeting is the peer's fault, reported as such (never a traceback of ours).
    raise PeerFault("disagreement", f"the peer answers hello with {clip(json.dumps(answer), 300)}: "
                    f"it does not speak {PROTOCOL}", answer)


class GameRunner:
    """One run: the peer slot, its capabilities, the games played."""

    def __init__(self, slot: PeerSlot, capabilities: Capabilities) -> None:
        self.slot = slot
        self.capabilities = capabilities
        self.greeted: set[int] = set()

    def play(self, script: GameScript) -> GameResult:
        """Play ``script`` against the peer."""
        return self._play(script)

    def replay(self, script: GameScript, requests: int) -> GameResult:
        """Play ``script`` again up to its first ``requests`` requests, keeping every exchange
        (to compare the peer's answers)."""
        return self._play(script, until=requests)

    def _play(self, script: GameScript, until: int | None = None) -> GameResult:
        """A game, or with ``until`` a replay, which keeps its exchanges."""
        peer = self.slot.get()
        fresh = id(peer) not in self.greeted
        self.greeted.add(id(peer))
        result = _Game(script, peer, capabilities=self.capabilities,
                       fresh=fresh, keep=until is not None, until=until).play()
        if result.peer_fault is not None:
            self.slot.discard()
        return result

"""The wire format of ``bottleimp-protocol/3`` (normative text: spec/protocol.md): the
library's side of it (``Referee``, answering through the engine; ``serve``, for ``bottleimp
conformance --serve``), ``compare`` of two answers, and the ``Capabilities`` a peer declares."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import IO, Final, TypeVar

from attrs import evolve, field, frozen

from .._actions import Play
from .._cards import Card, Rank
from .._config import Config
from .._editions import EDITIONS, edition_deck
from .._engine import apply, legal_actions, new_game, with_deal
from .._errors import ArgumentError, ConfigError, IllegalActionError, RecordError
from ..formats._cases import (KINDS, Case, bottles_to_json, plays_to_json, ranks, same_json,
                              scoring_input, zones_to_json)
from ..formats._config_json import config_from_json, deck_from_json, deck_to_json
from ..formats._json_input import (
    JSON,
    check_keys,
    child,
    expect_card,
    expect_int,
    expect_list,
    expect_object,
    expect_rank,
    expect_str,
    limited_lines,
    loads_json,
)
from ..formats._setup_entries import entry_from_gives, gives_from_entry
from ..formats._state_json import state_from_json, state_to_json
from ..rules.deal import next_dealer
from ..rules.game import add_totals, game_is_over
from ..rules.setup import setup_steps
from .._state import GameState, Phase
from ._peer import MAX_LINE_BYTES
from ._vectors import apply_setup_entry
from ._vectors import answer as answer_case


T = TypeVar("T")


# --- protocol ---------------------------------------------------------------------------

def with_deck(config: Config, cards: tuple[Card, ...]) -> Config:
    """``config`` playing ``cards`` (a round's ``deck``): the same configuration when they are
    its edition's cards, else a custom deck (``CONFIG-DECK`` judges it)."""
    if set(cards) == set(config.cards) and len(cards) == len(config.cards):
        return config
    try:
        return evolve(config, deck=cards)
    except ConfigError as error:
        raise RecordError("$.deck", f"invalid deck: [{error.rule_id}] {error.message}",
                          error.rule_id) from error

PROTOCOL: Final = "bottleimp-protocol/3"
"""The protocol both sides name in ``hello``, the only one the library speaks."""

UNSUPPORTED: Final = "UNSUPPORTED"
"""The refusal rule of a peer asked for something outside its capabilities: counted as coverage,
never as a disagreement."""


def refusal(rule: str, message: str) -> dict[str, JSON]:
    """A side's answer to a request it refuses: the rule it would break, and why."""
    return {"ok": False, "error": message, "rule": rule}


class Referee:
    """The library speaking ``bottleimp-protocol/3``: ``handle`` answers one request, never
    raising: a bad request is refused with the rule it breaks (``PROTOCOL`` for its shape), in
    the order spec/protocol.md gives, and changes nothing. It keeps the game around the rounds
    (its end, the round's index, the totals), which only ``new_round`` starts."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        # The game around the rounds (its configuration's end, the round's index,
        # the totals so far, and the dealer the last ended round passes the deal to).
        self.game_config: Config | None = None
        self.round_index = 0
        self.totals: tuple[int, ...] = ()
        self.ended: dict[str, JSON] | None = None

    def handle(self, request: JSON) -> dict[str, JSON]:
        """The answer to ``request`` (a parsed JSON value)."""
        try:
            return self._handle(request)
        except RecordError as error:  # a value the protocol does not allow, unless it names a rule
            return refusal(error.rule_id or "PROTOCOL", str(error))
        except (IllegalActionError, ConfigError) as error:
            return refusal(error.rule_id, error.message)

    def _handle(self, request: JSON) -> dict[str, JSON]:
        obj = expect_object(request, "$")
        op = expect_str(obj.get("op"), "$.op")
        if op == "hello":
            check_keys(obj, "$", {"op", "protocol"}, set())
            if obj["protocol"] != PROTOCOL:
                return refusal("PROTOCOL", f"this side speaks {PROTOCOL} only")
            return {"ok": True, "protocol": PROTOCOL,
                    "capabilities": {**Capabilities().to_json(), "set_position": True}}
        if op == "quit":
            check_keys(obj, "$", {"op"}, set())
            return {"ok": True}
        if op in ("new_round", "case", "set_position"):  # the requests that need no round
            return {"new_round": self._new_round, "case": self._case,
                    "set_position": self._set_position}[op](obj)
        handlers: dict[str, Callable[[GameState, dict[str, JSON]], dict[str, JSON]]] = {
            "setup": self._setup,
            "legal_plays": self._legal_plays,
            "play": self._play,
            "scores": self._scores,
            "end_round": self._end_round,
        }
        handler = handlers.get(op)
        if handler is None:
            raise RecordError("$.op", f"unknown op {op!r}")
        if self.state is None:
            raise RecordError("$.op", f"{op!r} before any new_round")
        return handler(self.state, obj)

    def _new_round(self, obj: dict[str, JSON]) -> dict[str, JSON]:
        """Start a round, refusing in the order of spec/protocol.md (the shape of every value
        first)."""
        check_keys(obj, "$", {"op", "config", "hands"}, {"face_up", "deck", "dealer", "round"})
        # The shape of every value first: a malformed request is PROTOCOL whatever it breaks.
        index = 0 if obj.get("round") is None else expect_int(obj["round"], "$.round", 0)
        named = expect_int(obj["dealer"], "$.dealer") if "dealer" in obj else None
        hand_ranks = self._rank_rows(obj["hands"], "$.hands")
        face_up_ranks = None if obj.get("face_up") is None \
            else self._rank_rows(obj["face_up"], "$.face_up")
        deck = None if obj.get("deck") is None else deck_from_json(obj["deck"], "$.deck")
        game_config = config_from_json(obj["config"], "$.config")
        config = evolve(game_config, rounds=None, target_score=None)
        if deck is not None:
            config = with_deck(config, deck)
        if named is None:
            dealer = self._next_dealer(config, index)
        elif 0 <= named < config.players:
            dealer = named
        else:
            raise RecordError("$.dealer", f"there is no seat {named} to deal: the seats are 0 to "
                              f"{config.players - 1}")
        hands = self._cards(config, hand_ranks, "$.hands")
        face_up = None if face_up_ranks is None else self._cards(config, face_up_ranks, "$.face_up")
        state = with_deal(new_game(config, 0, first_dealer=dealer), hands, face_up)
        self.state = state
        if index == 0 or len(self.totals) != config.players:
            self.totals = (0,) * config.players
        self.game_config, self.round_index, self.ended = game_config, index, None
        return {"ok": True, "dealer": dealer, "to_act": state.to_act}

    def _next_dealer(self, config: Config, index: int) -> int:
        """The dealer of a later round whose ``new_round`` names none: the one the
        last ended round passed the deal to (rule DEALER-ROTATION)."""
        if index == 0:
            raise RecordError("$.dealer", "the first round of a game names its dealer")
        ended = self.ended
        if ended is None or not isinstance(ended.get("dealer"), int) \
                or self.round_index != index - 1 or self.state is None \
                or self.state.config.players != config.players:
            raise RecordError("$.dealer", f"round {index} names no dealer, and round {index - 1} "
                              "of the same game has not been ended with end_round")
        dealer = ended["dealer"]
        assert isinstance(dealer, int)
        return dealer

    def _end_round(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        """The round is over; whether the game is (rule GAME-END) and who deals next
        (rule DEALER-ROTATION). Asking twice gives the same answer."""
        check_keys(obj, "$", {"op"}, set())
        if self.ended is not None:
            return self.ended
        scores = state.round.scores
        if scores is None:
            raise IllegalActionError("ROUND-END", "the round is not over: cards remain to be played")
        self.totals = add_totals(self.totals, scores)
        game_config = self.game_config or state.config
        over = game_is_over(game_config, self.round_index + 1, self.totals)
        self.ended = {"ok": True, "game_over": over,
                      "dealer": None if over else next_dealer(state.config, state.round.dealer)}
        return self.ended

    def _set_position(self, obj: dict[str, JSON]) -> dict[str, JSON]:
        """Take the round ``state`` (``bottleimp-state/1``, one round) within the game the
        last ``new_round`` started; ``position`` must be its zones (``position_to_json``)."""
        check_keys(obj, "$", {"op", "state", "position"}, set())
        expect_object(obj["state"], "$.state")
        expect_object(obj["position"], "$.position")
        game = self.state
        if game is None or self.game_config is None:
            # The position is a round of a game: its index and the totals so far come from
            # the game, which only a new_round starts.
            raise RecordError("$.op", "set_position before any new_round: a position is a round "
                              "of the game a new_round starts")
        state = state_from_json(obj["state"])
        if len(state.rounds) != 1:
            raise RecordError("$.state.rounds", "a position is one round")
        if evolve(state.config, rounds=None, target_score=None) \
                != evolve(game.config, rounds=None, target_score=None):
            raise RecordError("$.state.config", "the position is not of the game's configuration "
                              "(its rounds and target_score aside): a new_round starts another game")
        if not same_json(position_to_json(state), obj["position"]):
            raise RecordError("$.position", "the position is not the one the state reaches")
        self.state = state
        self.ended = None
        return {"ok": True, "to_act": state.to_act if state.phase in (Phase.SETUP, Phase.PLAY) else None}

    def _case(self, obj: dict[str, JSON]) -> dict[str, JSON]:
        """A conformance case asked through the protocol: ``output`` is the library's answer in
        the case's ``expected`` shape (``spec/conformance/README.md``)."""
        check_keys(obj, "$", {"op", "kind", "config", "input"}, set())
        kind = expect_str(obj["kind"], "$.kind")
        if kind not in KINDS:
            raise RecordError("$.kind", f"unknown kind {kind!r}; kinds: {', '.join(KINDS)}")
        config = config_from_json(obj["config"], "$.config")
        case = Case(where="$", kind=kind, group="", description="", rules=(), bug=None,
                    config=config, input=expect_object(obj["input"], "$.input"), expected={})
        return {"ok": True, "output": answer_case(case)}

    @staticmethod
    def _rank_rows(value: JSON, path: str) -> list[list[Rank]]:
        """A rank array per seat (the request's shape: anything else is ``PROTOCOL``)."""
        return [[expect_rank(item, child(child(path, seat), index))
                 for index, item in enumerate(expect_list(row, child(path, seat)))]
                for seat, row in enumerate(expect_list(value, path))]

    @staticmethod
    def _cards(config: Config, rows: list[list[Rank]], path: str) -> tuple[tuple[Card, ...], ...]:
        """The cards of a rank array per seat; a rank the deck does not have breaks rule
        DEAL-COUNTS (the deal is not the deck)."""
        try:
            return tuple(tuple(expect_card(rank, config, child(child(path, seat), index))
                               for index, rank in enumerate(row)) for seat, row in enumerate(rows))
        except RecordError as error:
            raise IllegalActionError("DEAL-COUNTS", str(error)) from None

    def _setup(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "seat", "discard"}, {"left", "right", "to_face_up", "to_hidden"})
        seat = expect_int(obj["seat"], "$.seat")
        # The request's shape first: a mistyped card is PROTOCOL whatever the state.
        for index, item in enumerate(expect_list(obj["discard"], "$.discard")):
            expect_rank(item, child("$.discard", index))
        for key in ("left", "right", "to_face_up", "to_hidden"):
            if key in obj:
                expect_rank(obj[key], child("$", key))
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
        keys = ("left", "right", "to_face_up", "to_hidden")  # the engine refuses a wrong step
        gives = tuple(give for give, _ in gives_from_entry(config, seat, entry, "$", keys))
        state = apply_setup_entry(state, seat, gives)
        self.state = state
        answer: dict[str, JSON] = {"ok": True, "to_act": state.to_act}
        if state.phase is Phase.PLAY:
            answer.update(zones_to_json(state.round))
        return answer

    def _legal_plays(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op"}, set())
        if state.phase is not Phase.PLAY:
            raise IllegalActionError("PHASE", f"no card is played in the {state.phase.value} phase")
        cards = [action.card for action in legal_actions(state) if isinstance(action, Play)]
        return {"ok": True, "seat": state.to_act, "cards": ranks(cards)}

    def _play(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "seat", "card"}, set())
        seat = expect_int(obj["seat"], "$.seat")
        rank = expect_rank(obj["card"], "$.card")
        if state.phase is not Phase.PLAY:
            raise IllegalActionError("PHASE", f"no card is played in the {state.phase.value} phase")
        try:
            card = state.config.card(rank)
        except ArgumentError as error:
            # No seat holds a card the deck does not have: refused as any card not held, once
            # the play is checked for its turn (the engine's order of checks).
            if seat != state.to_act:
                raise IllegalActionError(
                    "TURN-ORDER", f"it is seat {state.to_act}'s turn, not seat {seat}'s"
                ) from None
            raise IllegalActionError("CARD-HELD", f"seat {seat} cannot play it: {error.message}") from None
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
                "bottles": bottles_to_json(after.round.bottles),
            }
        return answer

    def _scores(self, state: GameState, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op"}, set())
        scores = state.round.scores
        if scores is None:
            raise IllegalActionError("ROUND-END", "the round is not over: cards remain to be played")
        return {"ok": True, "scores": list(scores)}


def serve(stdin: IO[str] | IO[bytes], stdout: IO[str]) -> int:
    """Answer protocol requests from ``stdin`` on ``stdout`` with the library's ``Referee``,
    until ``quit`` or the end of input (quietly when the other side stops reading). A line longer
    than ``MAX_LINE_BYTES``, not UTF-8, not JSON or too deep is refused with rule ``PROTOCOL``
    and serving goes on."""
    referee = Referee()
    for line, overlong in limited_lines(stdin.readline, MAX_LINE_BYTES):
        request: JSON = None
        if overlong:
            answer = refusal("PROTOCOL", f"not a request: the line is longer than "
                                          f"{MAX_LINE_BYTES} bytes")
        elif not line.strip():
            continue
        else:
            try:
                request = loads_json(line)
            except RecordError as error:
                answer = refusal("PROTOCOL", f"not a request: {error}")
            else:
                answer = referee.handle(request)
        try:
            stdout.write(json.dumps(answer) + "\n")
            stdout.flush()
        except (BrokenPipeError, ValueError):
            return 0
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



def main_serve() -> int:
    """``bottleimp conformance --serve``: the library answers the protocol on stdin/stdout."""
    # The bytes under stdin: each line is decoded (or refused) on its own.
    stdin: IO[str] | IO[bytes] = getattr(sys.stdin, "buffer", sys.stdin)
    return serve(stdin, sys.stdout)


# --- capabilities -----------------------------------------------------------------------

ALL_PLAYERS: Final = (2, 3, 4, 5, 6)
"""Every player count the rules define."""

MOST_DECLARED_CARDS: Final = 108
"""The most cards a declared deck may hold: twice the largest edition's, so that what the
harness reports of a deck stays bounded whatever the peer declares."""

GAME_ENDS: Final = ("rounds", "target_score", "default")
"""Every game end the rules define (rule GAME-END): a number of rounds, a target score, or
neither (the default number of rounds for the player count)."""


def _frozen_decks(value: Mapping[str, tuple[Card, ...]]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    return tuple(sorted(dict(value).items()))


@frozen
class Capabilities:
    """What a peer supports (every field: the whole rules when not declared): ``decks`` the
    decks it declared as its own, by edition; ``ignore`` the keys of case answers it does not
    compute (left out of the comparison); the rest as spec/protocol.md describes them."""

    players: tuple[int, ...] = ALL_PLAYERS
    editions: tuple[str, ...] = EDITIONS
    bottles: tuple[int, ...] = (1, 2)
    teams: bool = True
    decks: tuple[tuple[str, tuple[Card, ...]], ...] = field(default=(), converter=_frozen_decks)
    ignore: tuple[str, ...] = ()
    set_position: bool = False
    game_ends: tuple[str, ...] = GAME_ENDS
    setups_any_order: bool = False
    one_round: bool = False
    dealer: bool = True

    def narrowed(self, *, players: Iterable[int] | None = None,
                 editions: Iterable[str] | None = None, bottles: Iterable[int] | None = None,
                 teams: bool | None = None) -> Capabilities:
        """These capabilities, narrowed by the command line's options (``None``: unchanged)."""

        def kept(declared: tuple[T, ...], allowed: Iterable[T] | None) -> tuple[T, ...]:
            return declared if allowed is None else tuple(x for x in declared if x in set(allowed))

        return evolve(self, players=kept(self.players, players),
                      editions=kept(self.editions, editions), bottles=kept(self.bottles, bottles),
                      teams=self.teams if teams is None else self.teams and teams)

    def playing_deck(self, config: Config) -> tuple[Card, ...]:
        """The cards ``config``'s games are played with: the peer's own of the ranks the
        library's deck for that player count has, where it declared them (ranks it left out
        keep the library's data), else the library's."""
        declared = dict(self.decks).get(config.edition)
        if declared is None:
            return config.cards
        wanted = {card.rank for card in edition_deck(config.edition, config.players)}
        have = {card.rank for card in declared if card.rank in wanted}
        return tuple(sorted([c for c in declared if c.rank in have]
                            + [c for c in config.cards if c.rank not in have],
                            key=lambda card: card.rank))

    def supports(self, config: Config) -> bool:
        """Whether a game of ``config`` lies inside these capabilities."""
        return (config.players in self.players and config.edition in self.editions
                and config.bottles in self.bottles and (self.teams or config.teams is None))

    def variants(self) -> tuple[Variant, ...]:
        """Every variant the rules define inside these capabilities, fewest players first."""
        found = []
        for players in sorted(self.players):
            for edition in EDITIONS:
                if edition not in self.editions:
                    continue
                for bottles in sorted(self.bottles):
                    try:
                        Config(players=players, edition=edition, bottles=bottles)
                    except ConfigError:
                        continue
                    teams = self.teams and players >= 4 and bottles == 1
                    found.append(Variant(players, edition, bottles, teams))
        return tuple(found)

    def to_json(self) -> dict[str, JSON]:
        """The ``capabilities`` object as the protocol writes it."""
        data: dict[str, JSON] = {
            "players": list(self.players),
            "editions": list(self.editions),
            "bottles": list(self.bottles),
            "teams": self.teams,
        }
        if self.decks:
            data["decks"] = {edition: deck_to_json(cards) for edition, cards in self.decks}
        if self.ignore:
            data["ignore"] = list(self.ignore)
        if self.game_ends != GAME_ENDS:
            data["game_ends"] = list(self.game_ends)
        for key, default in _FLAGS[1:]:
            if getattr(self, key) is not default:
                data[key] = not default
        return data


@frozen
class Variant:
    """A variant the harness may generate: players, edition, bottles, and whether teams may be
    drawn for it."""

    players: int
    edition: str
    bottles: int
    teams: bool


_FLAGS: Final = (("teams", True), ("set_position", False), ("setups_any_order", False),
                  ("one_round", False), ("dealer", True))
"""The capabilities that are true or false, with their default (``teams`` always written)."""

_KEYS: Final = {"players", "editions", "bottles", "decks", "ignore", "game_ends",
                 *(key for key, _ in _FLAGS)}


def _check_declared_deck(edition: str, cards: tuple[Card, ...], players: tuple[int, ...],
                         where: str) -> None:
    """A declared deck the configuration rules refuse (rule CONFIG-DECK: a rank twice, the
    start card 19) for a player count the peer plays raises ``RecordError`` naming the rule."""
    declared = Capabilities(decks={edition: cards})
    for count in players:
        try:
            config = Config(players=count, edition=edition)
        except ConfigError:
            continue  # no variant of the edition for that count
        try:
            evolve(config, deck=declared.playing_deck(config))
        except ConfigError as error:
            raise RecordError(where, f"[{error.rule_id}] {error.message}",
                              error.rule_id) from None


def capabilities_from_json(value: JSON, path: str = "$.capabilities") -> Capabilities:
    """The capabilities a ``hello`` answer declares; a malformed object raises ``RecordError``.
    Absent (``None``): everything is supported."""
    if value is None:
        return Capabilities()
    obj = expect_object(value, path)
    check_keys(obj, path, set(), _KEYS)

    def items(key: str, default: list[JSON], read: Callable[[JSON, str], T]) -> list[T]:
        where = child(path, key)
        return [read(item, child(where, i))
                for i, item in enumerate(expect_list(obj.get(key, default), where))]

    players = tuple(sorted(set(items("players", list(ALL_PLAYERS),
                                     lambda item, where: expect_int(item, where, 2, 6)))))
    # An edition the library does not know is never asked for.
    editions = tuple(dict.fromkeys(edition for edition in items("editions", list(EDITIONS),
                                                               expect_str) if edition in EDITIONS))
    bottles = tuple(sorted(set(items("bottles", [1, 2],
                                     lambda item, where: expect_int(item, where, 1, 2)))))
    flags = {}
    for key, default in _FLAGS:
        flags[key] = obj.get(key, default)
        if not isinstance(flags[key], bool):
            raise RecordError(child(path, key), "expected true or false")
    game_ends = items("game_ends", list(GAME_ENDS), expect_str)
    for i, end in enumerate(game_ends):
        if end not in GAME_ENDS:
            raise RecordError(child(child(path, "game_ends"), i),
                              f"expected one of {', '.join(GAME_ENDS)}")
    if not game_ends:
        raise RecordError(child(path, "game_ends"), "expected at least one game end")
    decks: dict[str, tuple[Card, ...]] = {}
    if obj.get("decks") is not None:
        decks_path = child(path, "decks")
        for edition, cards in expect_object(obj["decks"], decks_path).items():
            if edition not in EDITIONS:
                continue  # an edition the library does not know is never played
            where = child(decks_path, edition)
            if len(expect_list(cards, where)) > MOST_DECLARED_CARDS:
                raise RecordError(where, f"a deck of {len(expect_list(cards, where))} cards: a "
                                  f"declared deck holds at most {MOST_DECLARED_CARDS}")
            decks[edition] = deck_from_json(cards, where)
            _check_declared_deck(edition, decks[edition], players, where)
    return Capabilities(players=players, editions=editions, bottles=bottles, decks=decks,
                        ignore=tuple(items("ignore", [], expect_str)),
                        game_ends=tuple(end for end in GAME_ENDS if end in game_ends),
                        **{key: value is True for key, value in flags.items()})


# --- position ---------------------------------------------------------------------------

def position_to_json(state: GameState) -> dict[str, JSON]:
    """The current round's zones as ``set_position`` carries them (spec/protocol.md)."""
    round_ = state.round
    config = state.config
    phase = {Phase.SETUP: "setup", Phase.PLAY: "play"}.get(state.phase, "over")
    complete = [len(round_.setup[seat]) == len(setup_steps(config, round_.dealer, seat))
                for seat in range(config.players)]
    trick = state.current_trick() if phase == "play" else ()
    return {
        "phase": phase,
        "deck": deck_to_json(config.cards),
        "dealer": round_.dealer,
        "to_act": state.to_act if phase != "over" else None,
        "setup": [entry_from_gives(round_.setup[seat]) if complete[seat] else None
                  for seat in range(config.players)],
        **zones_to_json(round_),
        **scoring_input(round_),
        "trick": plays_to_json(trick),
    }


def set_position_request(state: GameState) -> dict[str, JSON]:
    """The ``set_position`` request that puts a peer into ``state``'s current round."""
    alone = evolve(state, past_rounds=()) if state.past_rounds else state
    return {"op": "set_position", "state": state_to_json(alone), "position": position_to_json(alone)}

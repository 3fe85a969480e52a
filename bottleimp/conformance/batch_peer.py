"""The batch engine as a peer of the differential protocol (``spec/protocol.md``).

``python -m bottleimp.conformance.batch_peer`` answers ``bottleimp-protocol/2`` on stdin/stdout
from a ``BatchGames`` of one game, so that the conformance harness checks the batch engine as it
would any other implementation::

    bottleimp conformance --cmd "python -m bottleimp.conformance.batch_peer"
    bottleimp conformance --vectors spec/conformance \
        --cmd "python -m bottleimp.conformance.batch_peer"
    bottleimp conformance --cmd "python -m bottleimp.conformance.batch_peer --backend numba"

Requests are read with the library's JSON readers and setup codec (they are formats, not rules);
every rule the answers depend on (the deal's counts, the setup's steps and order, legal plays,
the tricks, the bottles, the scores) is decided by the batch engine. It answers the conformance
cases of every kind: ``trick``, ``legal_plays``, ``setup``, ``scoring`` and ``record`` (a
record's verdict, its deals, setups and plays replayed by the batch engine:
``bottleimp.batch.verdict``).
"""

from __future__ import annotations

import argparse
import sys
from collections import OrderedDict
from collections.abc import Sequence
from typing import Final

import numpy as np
from attrs import evolve

from ..actions import Destination
from ..batch.backends import BACKENDS, backend_missing, batch_games
from ..batch.games import PLAY, ROUND_OVER, SETUP, BatchGames, deal_refusal, round_scores
from ..batch.verdict import verdict
from ..cards import START_PRICE, Card, coins
from ..config import Config
from ..errors import ConfigError, IllegalActionError, RecordError, ArgumentError
from ..formats.config_json import config_from_json, deck_from_json
from ..formats.json_input import (
    JSON,
    check_keys,
    child,
    expect_int,
    expect_list,
    expect_object,
    expect_rank,
    expect_str,
)
from ..formats.setup_entries import gives_from_entry
from ..state import Bottle
from .protocol import REFUSED, UNSUPPORTED, refusal, refusal_for, serve
from .vectors import (
    CASE_INPUT_KEYS,
    read_legal_plays_input,
    read_scoring_input,
    read_setup_input,
    read_trick_input,
)

PROTOCOL: Final = "bottleimp-protocol/2"
_PASS_KEYS: Final = ("left", "right", "to_face_up", "to_hidden")
_CASE_KINDS: Final = ("trick", "legal_plays", "setup", "scoring", "record")
_CAPABILITIES: Final[dict[str, JSON]] = {
    "players": [2, 3, 4, 5, 6], "editions": ["classic", "matagot-2024"], "bottles": [1, 2],
    "teams": True,
}

ENGINES_KEPT: Final = 4
"""The most engines the peer keeps, one per configuration, the least recently used dropped
first: a harness plays many rounds of a few configurations, and a peer sent a new deck with
every round keeps no more than these."""

MAX_DECK_COINS: Final = 2**40
"""The most coins a deck may hold in all for the batch engine, which keeps scores and totals
in 64-bit integers: a score is at most twice the deck's coins (a lone seat against a team), so
up to 2**21 rounds of such scores stay in range. A deck with more is answered ``UNSUPPORTED``
(the rules set no bound; the reference plays it)."""


class _Unsupported(Exception):
    """A request the batch engine cannot represent: answered ``UNSUPPORTED``."""


class BatchPeer:
    """Answers protocol requests, one at a time, from a one-game ``BatchGames``."""

    def __init__(self, backend: str = "numpy") -> None:
        self.backend = backend
        self.games: BatchGames | None = None
        self._by_config: OrderedDict[Config, BatchGames] = OrderedDict()

    @property
    def engines(self) -> int:
        """How many engines the peer keeps now (at most ``ENGINES_KEPT``)."""
        return len(self._by_config)

    def handle(self, request: JSON) -> dict[str, JSON]:
        """The answer to one parsed request (a refusal, never an exception, for bad input)."""
        try:
            return self._handle(request)
        except REFUSED as error:
            return refusal_for(error)
        except _Unsupported as error:
            return refusal(UNSUPPORTED, str(error))

    def _engine(self, config: Config) -> BatchGames:
        games = self._by_config.get(config)
        if games is None:
            games = self._new_engine(config)
            self._by_config[config] = games
            while len(self._by_config) > ENGINES_KEPT:
                self._by_config.popitem(last=False)
        self._by_config.move_to_end(config)
        return games

    def _new_engine(self, config: Config) -> BatchGames:
        _check_coins(config)
        return batch_games(config, 1, backend=self.backend, autoreset=False, observations=False)

    def _handle(self, request: JSON) -> dict[str, JSON]:
        obj = expect_object(request, "$")
        op = expect_str(obj.get("op"), "$.op")
        if op == "hello":
            check_keys(obj, "$", {"op", "protocol"}, set())
            if obj["protocol"] != PROTOCOL:
                return refusal("PROTOCOL", f"this side speaks {PROTOCOL} only")
            return {"ok": True, "protocol": PROTOCOL, "capabilities": dict(_CAPABILITIES)}
        if op == "quit":
            check_keys(obj, "$", {"op"}, set())
            return {"ok": True}
        if op == "new_round":
            return self._new_round(obj)
        if op == "case":
            return self._case(obj)
        if op not in ("setup", "legal_plays", "play", "scores"):
            raise RecordError("$.op", f"unknown op {op!r}")
        if self.games is None:
            raise RecordError("$.op", f"{op!r} before any new_round")
        if op == "setup":
            return self._setup(self.games, obj)
        if op == "legal_plays":
            check_keys(obj, "$", {"op"}, set())
            return self._legal_plays(self.games)
        if op == "play":
            return self._play(self.games, obj)
        check_keys(obj, "$", {"op"}, set())
        if int(self.games.phase[0]) < ROUND_OVER:
            raise IllegalActionError("ROUND-END",
                                     "the round is not over: cards remain to be played")
        return {"ok": True, "scores": [int(score) for score in self.games.scores[0]]}

    # -- a round ----------------------------------------------------------------------------

    def _new_round(self, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "config", "dealer", "hands"}, {"face_up", "deck"})
        config = evolve(config_from_json(obj["config"], "$.config"), rounds=None, target_score=None)
        if obj.get("deck") is not None:
            config = _with_deck(config, deck_from_json(obj["deck"], "$.deck"))
        dealer = expect_int(obj["dealer"], "$.dealer", 0, config.players - 1)
        games = self._engine(config)
        hands = _rows(config, obj["hands"], "$.hands")
        face_up = None if obj.get("face_up") is None else _rows(config, obj["face_up"], "$.face_up")
        _load_deal(games, dealer, hands, face_up)
        self.games = games
        return {"ok": True, "to_act": int(games.to_act[0])}

    def _setup(self, games: BatchGames, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "seat", "discard"}, set(_PASS_KEYS))
        seat = expect_int(obj["seat"], "$.seat")
        for index, item in enumerate(expect_list(obj["discard"], "$.discard")):
            expect_rank(item, child("$.discard", index))
        for key in _PASS_KEYS:
            if key in obj:
                expect_rank(obj[key], child("$", key))
        if int(games.phase[0]) != SETUP:
            raise IllegalActionError("PHASE", "the setup is over")
        entry = {key: value for key, value in obj.items() if key not in ("op", "seat")}
        _give_entry(games, seat, entry, "$", _PASS_KEYS)
        answer: dict[str, JSON] = {"ok": True, "to_act": int(games.to_act[0])}
        if int(games.phase[0]) == PLAY:
            answer.update(_after_setup(games))
        return answer

    def _legal_plays(self, games: BatchGames) -> dict[str, JSON]:
        if int(games.phase[0]) != PLAY:
            raise IllegalActionError("PHASE", "no card is played outside trick play")
        cards = np.flatnonzero(games.legal_cards()[0])
        return {"ok": True, "seat": int(games.to_act[0]), "cards": _ranks(games, cards)}

    def _play(self, games: BatchGames, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "seat", "card"}, set())
        seat = expect_int(obj["seat"], "$.seat")
        rank = expect_rank(obj["card"], "$.card")
        if int(games.phase[0]) != PLAY:
            raise IllegalActionError("PHASE", "no card is played outside trick play")
        card = _index(games.config, rank)
        if card < 0:
            rule = "TURN-ORDER" if seat != int(games.to_act[0]) else "CARD-HELD"
            raise IllegalActionError(rule, f"{rank} is not a card of this deck")
        rule = games.play_refusal(0, seat, card)
        if rule:
            raise IllegalActionError(rule, f"seat {seat} cannot play {rank} now")
        completes = int(games.trick_length[0]) + 1 == games.t.trick_size
        games.step(np.array([3 * games.t.cards + card]))
        answer: dict[str, JSON] = {
            "ok": True, "to_act": int(games.to_act[0]) if int(games.phase[0]) == PLAY else None,
        }
        if completes:
            bottle = int(games.last_bottle[0])
            answer["trick"] = {
                "winner": int(games.last_winner[0]),
                "card": games.config.cards[int(games.last_card[0])].rank,
                "bottle": None if bottle < 0 else bottle,
                "bottles": _bottles(games),
            }
        return answer

    # -- conformance cases --------------------------------------------------------------------

    def _case(self, obj: dict[str, JSON]) -> dict[str, JSON]:
        check_keys(obj, "$", {"op", "kind", "config", "input"}, set())
        kind = expect_str(obj["kind"], "$.kind")
        if kind not in _CASE_KINDS:
            raise RecordError("$.kind", f"unknown kind {kind!r}")
        config = config_from_json(obj["config"], "$.config")
        input_ = expect_object(obj["input"], "$.input")
        required, optional = CASE_INPUT_KEYS[kind]
        check_keys(input_, "$.input", required, optional)
        if kind == "record":
            _check_record_coins(input_["record"])
            return {"ok": True, "output": verdict(input_["record"], self.backend)}
        games = self._new_engine(config)
        answers = {"trick": _case_trick, "legal_plays": _case_legal_plays,
                   "setup": _case_setup, "scoring": _case_scoring}
        return {"ok": True, "output": answers[kind](games, input_)}


def _check_coins(config: Config) -> None:
    """Refuse a deck of more coins than the batch engine's integers hold (``MAX_DECK_COINS``)."""
    total = coins(config.cards)
    if total > MAX_DECK_COINS:
        raise _Unsupported(f"the deck holds {total} coins; the batch engine plays decks of at "
                           f"most {MAX_DECK_COINS} coins in all")


def _check_record_coins(record: JSON) -> None:
    """``_check_coins`` for a record's configuration, when it is one (else the verdict says
    the record is unreadable)."""
    config = record.get("config") if isinstance(record, dict) else None
    try:
        _check_coins(config_from_json(config, "$.input.record.config"))
    except REFUSED:
        return


def _with_deck(config: Config, cards: tuple[Card, ...]) -> Config:
    if set(cards) == set(config.cards) and len(cards) == len(config.cards):
        return config
    try:
        return evolve(config, deck=cards)
    except ConfigError as error:
        raise RecordError("$.deck", f"invalid deck: {error.message}", error.rule_id) from error


def _index(config: Config, rank: float) -> int:
    """The card's index in ``config.cards``, or -1 for a rank that is no card of the deck."""
    try:
        return config.cards.index(config.card(rank))
    except ArgumentError:
        return -1


def _rows(config: Config, value: JSON, path: str) -> list[list[int]]:
    """Card indices per seat; a rank the deck does not have breaks rule DEAL-COUNTS."""
    rows = []
    for seat, row in enumerate(expect_list(value, path)):
        cards = []
        for index, item in enumerate(expect_list(row, child(path, seat))):
            card = _index(config, expect_rank(item, child(child(path, seat), index)))
            if card < 0:
                raise IllegalActionError("DEAL-COUNTS", f"{item} is not a card of this deck")
            cards.append(card)
        rows.append(cards)
    return rows


def _planes(games: BatchGames, rows: list[list[int]] | None) -> np.ndarray:
    plane = np.zeros((games.t.players, games.t.cards), dtype=np.bool_)
    for seat, cards in enumerate(rows or ()):
        plane[seat, cards] = True
    return plane


def _load_deal(games: BatchGames, dealer: int, hands: list[list[int]],
               face_up: list[list[int]] | None) -> None:
    rule = deal_refusal(games.t, dealer, hands, face_up)
    if rule:
        raise IllegalActionError(rule, "the deal does not give out the deck with each seat's count")
    games.load_round(0, dealer, _planes(games, hands), _planes(games, face_up))


def _give_entry(games: BatchGames, seat: int, entry: JSON, path: str,
                keys: tuple[str, ...] | None) -> None:
    """Give a seat's whole setup entry (all or nothing), checked by the batch engine."""
    config = games.config
    # The seat first (SETUP-ORDER, SETUP-STEPS, SETUP-ORDER), then the parts, as the reference
    # takes them: a number that is no card is refused only once the seat may give its setup.
    rule = games.give_refusal(0, seat, [], whole=False)
    if rule:
        raise IllegalActionError(rule, f"seat {seat} cannot give a setup now")
    gives = [(give.to, config.cards.index(give.card))
             for give, _ in gives_from_entry(config, seat, entry, path, keys)]
    rule = games.give_refusal(0, seat, gives)
    if rule:
        raise IllegalActionError(rule, f"seat {seat} cannot give this setup now")
    blocks = _blocks(games)
    for destination, card in gives:
        games.step(np.array([blocks[destination] * games.t.cards + card]))


def _blocks(games: BatchGames) -> dict[Destination, int]:
    if games.t.devils_eye:
        return {Destination.DEVILS_TRICK: 0, Destination.OPPONENT_FACE_UP: 1,
                Destination.OPPONENT_HIDDEN: 2}
    return {Destination.DEVILS_TRICK: 0, Destination.LEFT: 1, Destination.RIGHT: 2}


def _ranks(games: BatchGames, indices: np.ndarray | list[int]) -> list[JSON]:
    """Card ranks in ascending order (indices follow the deck's rank order)."""
    return [games.config.cards[int(index)].rank for index in sorted(indices)]


def _after_setup(games: BatchGames) -> dict[str, JSON]:
    return {
        "hands": [_ranks(games, np.flatnonzero(row)) for row in games.hand[0]],
        "face_up": [_ranks(games, np.flatnonzero(row)) for row in games.face_up[0]]
        if games.t.devils_eye else None,
        "devils_trick": _ranks(games, np.flatnonzero(games.devils_trick[0])),
    }


def _bottles(games: BatchGames) -> list[JSON]:
    bottles: list[JSON] = []
    for card, owner in zip(games.bottle_card[0], games.bottle_owner[0]):
        price = START_PRICE if card < 0 else games.config.cards[int(card)].rank
        bottles.append({"price": price, "owner": None if owner < 0 else int(owner)})
    return bottles


def _indices(games: BatchGames, cards: Sequence[Card]) -> list[int]:
    return [games.config.cards.index(card) for card in cards]


def _bottle_pairs(games: BatchGames, bottles: Sequence[Bottle]) -> list[tuple[int, int]]:
    """``(price card, owner)`` per bottle, ``-1`` for the start card and no owner."""
    return [(-1, -1) if bottle.price_card is None or bottle.owner is None
            else (games.config.cards.index(bottle.price_card), bottle.owner)
            for bottle in bottles]


def _case_trick(games: BatchGames, input_: dict[str, JSON]) -> JSON:
    read = read_trick_input(games.config, input_, "$.input")
    bottles = _bottle_pairs(games, read.bottles)
    trick = [(play.seat, games.config.cards.index(play.card)) for play in read.trick]
    hands = np.zeros((games.t.players, games.t.cards), dtype=np.bool_)
    for seat, card in trick:
        hands[seat, card] = True
    games.load_play(0, hands, np.zeros_like(hands), bottles, [], trick[0][0])
    n = games.t.cards
    for _, card in trick:
        games.step(np.array([3 * n + card]))
    winner = int(games.last_winner[0])
    bottle = int(games.last_bottle[0])
    returned: JSON = None
    taken = set(np.flatnonzero(games.captured[0, winner]).tolist())
    if bottle >= 0:
        old_card, old_owner = bottles[bottle]
        if old_card >= 0 and old_owner >= 0:
            returned = {"seat": old_owner, "card": games.config.cards[old_card].rank}
            if old_owner == winner:
                taken.discard(old_card)
    return {
        "winner": winner,
        "winning_card": games.config.cards[int(games.last_card[0])].rank,
        "bottle": None if bottle < 0 else bottle,
        "bottles": _bottles(games),
        "winner_takes": _ranks(games, sorted(taken)),
        "returned_price_card": returned,
    }


def _case_legal_plays(games: BatchGames, input_: dict[str, JSON]) -> JSON:
    t = games.t
    read = read_legal_plays_input(games.config, input_, "$.input")
    seat = read.seat
    hands = np.zeros((t.players, t.cards), dtype=np.bool_)
    face_up = np.zeros_like(hands)
    hands[seat, _indices(games, read.hand)] = True
    face_up[seat, _indices(games, read.face_up)] = True
    trick = [(play.seat, games.config.cards.index(play.card)) for play in read.trick]
    games.load_play(0, hands, face_up, [(-1, -1)] * t.bottles, trick, seat)
    result: dict[str, JSON] = {"legal": _ranks(games, np.flatnonzero(games.legal_cards()[0]))}
    if read.attempts is not None:
        result["attempts"] = [games.play_refusal(0, seat, card) or None
                              for card in _indices(games, read.attempts)]
    return result


def _case_setup(games: BatchGames, input_: dict[str, JSON]) -> JSON:
    read = read_setup_input(games.config, input_, "$.input")
    hands = [_indices(games, hand) for hand in read.hands]
    face_up = None if read.face_up is None else [_indices(games, row) for row in read.face_up]
    try:
        _load_deal(games, read.dealer, hands, face_up)
        while int(games.phase[0]) == SETUP:
            seat = int(games.to_act[0])
            _give_entry(games, seat, read.entries[seat], child("$.input.setup", seat), None)
    except IllegalActionError as refused:
        return {"error": refused.rule_id}
    except RecordError as error:
        if error.rule_id is None:
            raise
        return {"error": error.rule_id}
    answer = _after_setup(games)
    answer["leader"] = int(games.to_act[0])
    return answer


def _case_scoring(games: BatchGames, input_: dict[str, JSON]) -> JSON:
    t = games.t
    read = read_scoring_input(games.config, input_, "$.input")
    captured = np.zeros((1, t.players, t.cards), dtype=np.bool_)
    for seat, row in enumerate(read.captured):
        captured[0, seat, _indices(games, row)] = True
    owners = np.array([[owner for _, owner in _bottle_pairs(games, read.bottles)]])
    devils_trick = np.zeros((1, t.cards), dtype=np.bool_)
    devils_trick[0, _indices(games, read.devils_trick)] = True
    return {"scores": [int(score) for score in round_scores(t, captured, owners, devils_trick)[0]]}


def main(argv: list[str] | None = None) -> int:
    """Answer protocol requests on stdin/stdout until ``quit`` or the end of input, with the
    protocol's own serving loop (``conformance.protocol.serve``: lines capped at
    ``MAX_LINE_BYTES``, a bad line refused with rule ``PROTOCOL``). ``--backend numba`` answers
    from the compiled batch engine; a backend that cannot run here exits 2 naming why."""
    parser = argparse.ArgumentParser(prog="python -m bottleimp.conformance.batch_peer",
                                     description="the batch engine as a protocol peer")
    parser.add_argument("--backend", default="numpy",
                        help=f"the batch engine's backend ({', '.join(BACKENDS)}; default numpy)")
    args = parser.parse_args(argv)
    missing = backend_missing(args.backend)
    if missing:
        print(f"error: {missing}", file=sys.stderr)
        return 2
    return serve(sys.stdin.buffer, sys.stdout, BatchPeer(args.backend))


if __name__ == "__main__":
    raise SystemExit(main())

"""A record's verdict from the batch engine (the conformance cases of kind ``record``): the
record is read with the library's record reader (a format), then every deal, setup card, play,
claimed score and claimed total is replayed and judged by the batch engine, in the order the
validator takes them (``spec/record.md``), and the first rule broken is named with its round,
play and seat."""

from __future__ import annotations

import numpy as np

from ..actions import Destination
from ..config import Config
from ..errors import RecordError, UnknownCardError
from ..formats.json_input import JSON
from ..encoding import setup_destinations
from ..formats.records import GameRecord, RoundRecord, parse_record
from .backends import batch_games
from .games import GAME_OVER, PLAY, ROUND_OVER, SETUP, BatchGames, deal_refusal


class _Broken(Exception):
    def __init__(self, rule: str, round_: int | None, play: int | None, seat: int | None) -> None:
        super().__init__(rule)
        self.verdict: dict[str, JSON] = {"verdict": "broken", "rule": rule, "round": round_,
                                         "play": play, "seat": seat}


def verdict(value: JSON, backend: str = "numpy") -> dict[str, JSON]:
    """``{"verdict": "valid"}``, ``{"verdict": "broken", "rule", "round", "play", "seat"}`` or
    ``{"verdict": "unreadable", "rule"}`` for the record ``value``, judged by the batch engine
    on ``backend``."""
    try:
        record = parse_record(value)
    except RecordError as error:
        return {"verdict": "unreadable", "rule": error.rule_id}
    games = batch_games(record.config, 1, backend=backend, autoreset=False, observations=False)
    try:
        _replay(games, record)
    except _Broken as broken:
        return broken.verdict
    return {"verdict": "valid"}


def _index(config: Config, rank: float) -> int:
    try:
        return config.cards.index(config.card(rank))
    except UnknownCardError:
        return -1


def _first_difference(claimed: tuple[int, ...], actual: list[int]) -> int:
    return next(seat for seat, (a, b) in enumerate(zip(claimed, actual)) if a != b)


def _replay(games: BatchGames, record: GameRecord) -> None:
    for index, round_ in enumerate(record.rounds):
        _replay_round(games, record.config, index, round_, index == len(record.rounds) - 1)
    totals = [int(total) for total in games.totals[0]]
    if record.totals is not None and list(record.totals) != totals:
        raise _Broken("GAME-TOTALS", None, None, _first_difference(record.totals, totals))


def _replay_round(games: BatchGames, config: Config, index: int, round_: RoundRecord,
                  is_last: bool) -> None:
    t = games.t
    if index > 0:
        phase = int(games.phase[0])
        if phase == GAME_OVER:
            raise _Broken("GAME-OVER", index, None, round_.dealer)
        if phase != ROUND_OVER:
            raise _Broken("PHASE", index, None, round_.dealer)
        if round_.dealer != int(games.to_act[0]):
            raise _Broken("DEALER-ROTATION", index, None, round_.dealer)
    rows: list[list[list[int]]] = []
    for zone in (round_.hands, round_.face_up):
        if zone is None:
            continue
        cards_by_seat = []
        for seat, ranks in enumerate(zone):
            cards = [_index(config, rank) for rank in ranks]
            if -1 in cards:
                raise _Broken("DEAL-COUNTS", index, None, seat)
            cards_by_seat.append(cards)
        rows.append(cards_by_seat)
    face_up = rows[1] if len(rows) > 1 else None
    dealer = round_.dealer if index == 0 else int(games.dealer[0] + 1) % t.players
    if deal_refusal(t, dealer, rows[0], face_up):
        raise _Broken("DEAL-COUNTS", index, None, None)
    planes = [np.zeros((t.players, t.cards), dtype=np.bool_) for _ in range(2)]
    for plane, indices in zip(planes, (rows[0], face_up or [])):
        for seat, held in enumerate(indices):
            plane[seat, held] = True
    if index == 0:
        games.load_round(0, dealer, planes[0], planes[1])
    else:
        games.load_next_round(0, planes[0], planes[1])
    _setup(games, config, index, round_, is_last)
    _plays(games, config, index, round_)
    complete = int(games.phase[0]) in (ROUND_OVER, GAME_OVER)
    if not complete and not is_last:
        raise _Broken("ROUND-END", index, None, None)
    if round_.scores is not None:
        if not complete:
            raise _Broken("SCORE-ROUND", index, None, None)
        actual = [int(score) for score in games.scores[0]]
        if list(round_.scores) != actual:
            raise _Broken("SCORE-ROUND", index, None, _first_difference(round_.scores, actual))


def _setup(games: BatchGames, config: Config, index: int, round_: RoundRecord,
           is_last: bool) -> None:
    blocks = {destination: block for block, destination in enumerate(setup_destinations(config))}
    pending: list[list[tuple[Destination, int]]] = []
    for seat, entry in enumerate(round_.setup):
        gives = []
        for destination, rank in entry.gives():
            card = _index(config, rank)
            if card < 0:
                raise _Broken("SETUP-FROM-DEALT", index, None, seat)
            gives.append((destination, card))
        gives.reverse()
        pending.append(gives)

    def give(seat: int) -> None:
        destination, card = pending[seat].pop()
        rule = games.give_refusal(0, seat, [(destination, card)], whole=False)
        if rule:
            raise _Broken(rule, index, None, seat)
        games.step(np.array([blocks[destination] * len(config.cards) + card]))

    while int(games.phase[0]) == SETUP:
        seat = int(games.to_act[0])
        if not pending[seat]:
            break
        give(seat)
    if int(games.phase[0]) != SETUP:
        return
    short = int(games.to_act[0])
    if round_.plays or not is_last:
        raise _Broken("SETUP-STEPS", index, None, short)
    # A later seat has given while an earlier one has not completed its setup: the library's
    # seat order is a convention (SETUP-ORDER), so the record is judged on the rules of the
    # sources alone, as the validator does: each seat's gives in the engine's order, the
    # unfinished setups before them completed by any legal choice.
    order = [(short + offset) % config.players for offset in range(config.players)]
    for position, seat in enumerate(order):
        if not any(pending[later] for later in order[position:]):
            break
        while pending[seat]:
            give(seat)
        while int(games.phase[0]) == SETUP and int(games.to_act[0]) == seat:
            games.step(np.array([int(np.flatnonzero(games.legal_mask()[0])[0])]))


def _plays(games: BatchGames, config: Config, index: int, round_: RoundRecord) -> None:
    n = len(config.cards)
    for number, recorded in enumerate(round_.plays):
        phase = int(games.phase[0])
        if phase in (ROUND_OVER, GAME_OVER):
            raise _Broken("ROUND-END", index, number, recorded.seat)
        card = _index(config, recorded.card)
        if card < 0:
            raise _Broken("CARD-HELD", index, number, recorded.seat)
        if phase != PLAY:
            raise _Broken("PHASE", index, number, recorded.seat)
        rule = games.play_refusal(0, recorded.seat, card)
        if rule:
            raise _Broken(rule, index, number, recorded.seat)
        games.step(np.array([3 * n + card]))

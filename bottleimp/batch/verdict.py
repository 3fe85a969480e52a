"""A record's verdict from the batch engine (the conformance cases of kind ``record``): the
record is read with the library's record reader (a format), then every deal, setup card, play,
claimed score and claimed total is replayed and judged by the batch engine, in the order the
validator takes them (``spec/record.md``), and the first rule broken is named with its round,
play and seat."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt
from attrs import evolve, frozen

from ..actions import Destination, Play
from ..cards import START_PRICE, Rank
from ..config import Config
from ..errors import RecordError, ArgumentError
from ..formats.json_input import JSON
from ..encoding import setup_destinations
from ..formats.records import GameRecord, RoundRecord, parse_record
from ..state import TrickResult
from .backends import batch_games
from .games import (
    GAME_OVER,
    PLAY,
    ROUND_OVER,
    SETUP,
    BatchError,
    BatchGames,
    deal_refusal,
    dealt_counts,
)


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
    except ArgumentError:
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


# --- many records at once ----------------------------------------------------------------------


@frozen
class ReplayedRound:
    """One round of a legal record as the batch engine replayed it (the fields of the
    validator's ``RoundReport``)."""

    dealer: int
    complete: bool
    scores: tuple[int, ...] | None
    bottle_owners: tuple[int | None, ...]
    devils_trick: tuple[Rank, ...]
    tricks: tuple[TrickResult, ...]
    """What each completed trick decided."""


@frozen
class ReplayedGame:
    """A legal record whose every claim holds, as the batch engine replayed it."""

    rounds: tuple[ReplayedRound, ...]
    totals: tuple[int, ...]
    over: bool
    """Whether the game ended with the record's last round."""


_GROUP: Final = 1024
"""Records replayed together at most (one batch)."""


def replay_records(records: Sequence[GameRecord], backend: str = "numpy"
                   ) -> list[ReplayedGame | None]:
    """Every record replayed on the batch engine (``replay_plans`` of each ``RecordPlan``)."""
    decks: dict[Config, _Deck] = {}
    return replay_plans([plan_record(record, decks) for record in records], backend)


def replay_plans(plans: Sequence[RecordPlan | None], backend: str = "numpy"
                 ) -> list[ReplayedGame | None]:
    """Every planned record replayed on the batch engine, those of one configuration and shape
    (the number of cards dealt, given and played in each round) together in one batch: for a
    record whose every deal, setup card, play and claim is legal, with every setup whole and
    every round but the last complete, its ``ReplayedGame``; for any other record (or a variant
    the batch engine refuses, or ``None``), ``None``: then only the reference's replay can name
    what is wrong."""
    groups: dict[tuple[object, ...], list[int]] = {}
    for number, plan in enumerate(plans):
        if plan is not None:
            groups.setdefault((plan.config, plan.shape), []).append(number)
    results: list[ReplayedGame | None] = [None] * len(plans)
    for (config, _), members in groups.items():
        assert isinstance(config, Config)
        for start in range(0, len(members), _GROUP):
            chunk = members[start:start + _GROUP]
            chunk_plans = [plan for number in chunk if (plan := plans[number]) is not None]
            for number, game in zip(chunk, _replay_group(config, chunk_plans, backend)):
                results[number] = game
    return results


class _Deck:
    """What turning a configuration's records into action numbers needs: each rank's card
    index, each setup destination's first action number."""

    def __init__(self, config: Config) -> None:
        self.cards = len(config.cards)
        self.index = {card.rank: number for number, card in enumerate(config.cards)}
        self.blocks = {destination: block * self.cards
                       for block, destination in enumerate(setup_destinations(config))}


@frozen
class RecordPlan:
    """A record turned into the batch engine's inputs, each a flat list of ints over the whole
    record, round after round (few objects, so that many plans held at once cost the garbage
    collector little): the dealers; the deals as cells ``seat * N + card`` of the hidden hands
    and of the face-up cards, with each seat's counts; the setups' action numbers and their
    seats, in the order the engine takes them; the plays' action numbers and seats; the claimed
    scores and totals."""

    config: Config
    shape: tuple[tuple[int, int, int, int], ...]
    """Per round: hidden cells, face-up cells, setup cards, plays."""
    dealers: list[int]
    hidden: list[int]
    shown: list[int]
    counts: list[int]
    """Per round, the hidden cards then (Devil's Eye) the face-up cards of each seat."""
    setup_actions: list[int]
    setup_seats: list[int]
    play_actions: list[int]
    play_seats: list[int]
    scores: list[tuple[int, ...] | None]
    totals: tuple[int, ...] | None


def plan_record(record: GameRecord, decks: dict[Config, _Deck] | None = None
                ) -> RecordPlan | None:
    """``record`` as the batch engine's inputs, or ``None`` when it names a card of no deck, a
    dealer of no seat, or rows of hands, face-up cards or setup entries other than one a seat
    (face-up rows only in Devil's Eye) (``decks``: what earlier records of the same
    configurations have computed, kept by the caller)."""
    config = record.config
    deck = None if decks is None else decks.get(config)
    if deck is None:
        deck = _Deck(config)
        if decks is not None:
            decks[config] = deck
    players = config.players
    n, index, blocks = deck.cards, deck.index, deck.blocks
    play_base = 3 * n
    plan = RecordPlan(config, (), [], [], [], [], [], [], [], [], [], record.totals)
    shape = []
    try:
        for round_ in record.rounds:
            if (len(round_.setup) != players or not 0 <= round_.dealer < players
                    or len(round_.hands) != players
                    or len(round_.face_up or ()) != (players if config.devils_eye else 0)):
                return None
            hidden = [seat * n + index[rank]
                      for seat, ranks in enumerate(round_.hands) for rank in ranks]
            shown = [seat * n + index[rank]
                     for seat, ranks in enumerate(round_.face_up or ()) for rank in ranks]
            plan.counts.extend([len(ranks) for ranks in round_.hands])
            plan.counts.extend([len(ranks) for ranks in round_.face_up or ()])
            gives = [(blocks[destination] + index[rank], seat)
                     for seat in _seats_from(round_.dealer + 1, players)
                     for destination, rank in round_.setup[seat].gives()]
            plays = round_.plays
            plan.hidden.extend(hidden)
            plan.shown.extend(shown)
            plan.setup_actions.extend([action for action, _ in gives])
            plan.setup_seats.extend([seat for _, seat in gives])
            plan.play_actions.extend([play_base + index[play.card] for play in plays])
            plan.play_seats.extend([play.seat for play in plays])
            shape.append((len(hidden), len(shown), len(gives), len(plays)))
            plan.dealers.append(round_.dealer)
            plan.scores.append(round_.scores)
    except KeyError:  # a rank of no card of the deck
        return None
    return evolve(plan, shape=tuple(shape))


def _columns(plans: list[RecordPlan], field: str) -> npt.NDArray[np.int64]:
    """``(G, L)``: one plan's list ``field`` a row (every plan of a group has the same length)."""
    return np.array([getattr(plan, field) for plan in plans], dtype=np.int64).reshape(len(plans), -1)


def _seats_from(seat: int, players: int) -> list[int]:
    return [(seat + offset) % players for offset in range(players)]


def _replay_group(config: Config, plans: list[RecordPlan], backend: str) -> list[ReplayedGame | None]:
    """Records of one configuration and shape replayed in lockstep. A record found wrong is
    dropped (its game goes on with any legal action, and its result is ``None``)."""
    size = len(plans)
    try:
        games = batch_games(config, size, backend=backend, autoreset=False, observations=False)
    except BatchError:
        return [None] * size
    t = games.t
    players, n = t.players, t.cards
    rows = np.arange(size)
    ok = np.ones(size, dtype=np.bool_)
    ranks: list[Rank] = [card.rank for card in config.cards] + [START_PRICE]
    """The rank of a card index; index -1 (no price card) is the start price."""
    plays_of = [[Play(seat, card) for card in config.cards] for seat in range(players)]
    counts = []
    for dealer in range(players):
        hidden, shown = dealt_counts(t, dealer)
        counts.append(hidden + shown if t.devils_eye else hidden)
    expected_counts = np.array(counts, dtype=np.int64)
    shape = plans[0].shape
    rounds: list[list[ReplayedRound]] = [[] for _ in range(size)]
    columns = {field: _columns(plans, field) for field in (
        "dealers", "hidden", "shown", "counts", "setup_actions", "setup_seats", "play_actions",
        "play_seats")}
    at = dict.fromkeys(("hidden", "shown", "counts", "setup", "plays"), 0)

    def take(field: str, where: str, length: int) -> npt.NDArray[np.int64]:
        start = at[where]
        return columns[field][:, start:start + length]

    for number, (hidden_cells, up_cells, gives, plays) in enumerate(shape):
        # DEALER-ROTATION, GAME-OVER, DEAL-COUNTS
        dealers = columns["dealers"][:, number]
        if number > 0:
            ok &= (games.phase == ROUND_OVER) & (dealers == (games.dealer + 1) % players)
        width = expected_counts.shape[1]
        ok &= (take("counts", "counts", width) == expected_counts[dealers]).all(axis=1)
        at["counts"] += width
        hand_cells = np.zeros((size, players * n), dtype=np.bool_)
        up_cells_set = np.zeros((size, players * n), dtype=np.bool_)
        hand_cells[rows[:, None], take("hidden", "hidden", hidden_cells)] = True
        up_cells_set[rows[:, None], take("shown", "shown", up_cells)] = True
        at["hidden"] += hidden_cells
        at["shown"] += up_cells
        hands = hand_cells.reshape(size, players, n)
        face_up = up_cells_set.reshape(size, players, n)
        # Each card dealt once: the counts add up to the deck, and every card is somewhere.
        ok &= (hands.sum(axis=1) + face_up.sum(axis=1) == 1).all(axis=1)
        loaded = np.flatnonzero(ok)
        if len(loaded):
            games.load_rounds(loaded, hands[loaded], face_up[loaded],
                              dealers[loaded] if number == 0 else None)
        setup_actions = take("setup_actions", "setup", gives)
        setup_seats = take("setup_seats", "setup", gives)
        at["setup"] += gives
        for step in range(gives):
            _step(games, rows, ok, setup_actions[:, step], setup_seats[:, step])
        ok &= games.phase == PLAY
        play_actions = take("play_actions", "plays", plays)
        play_seats = take("play_seats", "plays", plays)
        at["plays"] += plays
        tricks: list[npt.NDArray[np.int64]] = []
        for step in range(plays):
            ends_trick = (step + 1) % t.trick_size == 0
            before = games.bottle_card.copy() if ends_trick else None
            _step(games, rows, ok, play_actions[:, step], play_seats[:, step])
            if before is not None:
                prices = np.where(before >= 0, t.rank[np.maximum(before, 0)], float(START_PRICE))
                judged = prices.argmax(axis=1)
                tricks.append(np.stack((games.last_winner, games.last_card, games.last_bottle,
                                        before[rows, judged], games.bottle_card[rows, judged])))
        complete = (games.phase == ROUND_OVER) | (games.phase == GAME_OVER)
        if number < len(shape) - 1:
            ok &= complete  # ROUND-END
        # Per game: its tricks' (winner, winning card, bottle, price card before, after), as
        # Python ints.
        by_game = np.stack(tricks, axis=2).transpose(1, 2, 0).tolist() if tricks else None
        scores, owners = games.scores.tolist(), games.bottle_owner.tolist()
        played_cards, played_seats = (play_actions - 3 * n).tolist(), play_seats.tolist()
        for game in np.flatnonzero(ok).tolist():
            claimed = plans[game].scores[number]
            done = bool(complete[game])
            if claimed is not None and (not done or claimed != tuple(scores[game])):
                ok[game] = False  # SCORE-ROUND
                continue
            rounds[game].append(ReplayedRound(
                dealer=int(dealers[game]),
                complete=done,
                scores=tuple(scores[game]) if done else None,
                bottle_owners=tuple(None if owner < 0 else owner for owner in owners[game]),
                devils_trick=tuple(ranks[card]
                                   for card in np.flatnonzero(games.devils_trick[game]).tolist()),
                tricks=() if by_game is None else _trick_results(
                    config, plays_of, by_game[game], played_seats[game], played_cards[game],
                    ranks),
            ))
    results: list[ReplayedGame | None] = [None] * size
    all_totals = games.totals.tolist()
    for game in np.flatnonzero(ok).tolist():
        totals = tuple(all_totals[game])
        claimed = plans[game].totals
        if claimed is not None and claimed != totals:
            continue  # GAME-TOTALS
        # A record without rounds is a game not yet dealt (the batch's games start over).
        over = bool(shape) and bool(games.phase[game] == GAME_OVER)
        results[game] = ReplayedGame(tuple(rounds[game]), totals, over)
    return results


def _trick_results(config: Config, plays: list[list[Play]], tricks: list[list[int]],
                   seats: list[int], cards: list[int], ranks: list[Rank]
                   ) -> tuple[TrickResult, ...]:
    """One game's completed tricks of a round as ``TrickResult`` values, from each trick's
    winner, winning card, bottle bought (``-1``: none), price card before and after (``-1``:
    the start card) and the round's plays (seats and card indices). ``plays[seat][card]`` is
    the play of a card by a seat: the records of a group share these values, as states share
    the parts an action leaves alone."""
    deck, size = config.cards, config.trick_size
    played = tuple([plays[seat][card] for seat, card in zip(seats, cards)])
    return tuple([
        TrickResult(played[number * size:(number + 1) * size], winner, deck[winning],
                    None if bottle < 0 else bottle, ranks[before], ranks[after])
        for number, (winner, winning, bottle, before, after) in enumerate(tricks)
    ])


def _step(games: BatchGames, rows: npt.NDArray[np.int64], ok: npt.NDArray[np.bool_],
          actions: npt.NDArray[np.int64], seats: npt.NDArray[np.int64]) -> None:
    """One action per game, ``actions[g]`` by ``seats[g]``; a game whose action is not legal
    for its seat to act is dropped from ``ok`` and takes its first legal action instead (with no
    game left, nothing is stepped: a batch none of whose games was loaded refuses to step)."""
    if not ok.any():
        return
    mask = games.legal_mask()
    ok &= mask[rows, actions] & (games.to_act == seats)
    games.step(np.where(ok, actions, mask.argmax(axis=1)))

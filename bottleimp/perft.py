"""Perft: counting legal action sequences, as chess engines count move paths, over the engine's
``legal_actions`` and ``apply``: what ``bottleimp perft`` counts, what the conformance data's
counts are made and checked with, and the deals and walks of the exhaustive checks
(``bottleimp.batch._perft`` counts on the batch engine to check it against these counts).

``perft(state, depth)`` is the number of distinct sequences of ``depth`` legal actions from
``state`` that stay within its round; ``perft(state)`` counts them to the end of the round. Every
round has a fixed length (each seat gives its setup cards, then every card is played), so every
sequence ends the round after ``remaining(state)`` actions, and ``perft(state)`` is
``perft(state, remaining(state))``. ``divide`` gives the count under each first action, so an
implementation whose move generator disagrees can find the branch where it goes wrong.

    >>> import bottleimp
    >>> from bottleimp.perft import divide, perft, remaining
    >>> state = bottleimp.new_game(bottleimp.Config(players=3), seed=1)
    >>> perft(state, 0), perft(state, 1), perft(state, 2)
    (1, 12, 132)
    >>> [(str(action), count) for action, count in divide(state, 2)][:2]
    [('seat 1 gives 1 to devils_trick', 11), ('seat 1 gives 2 to devils_trick', 11)]
    >>> remaining(state)
    42

The counts are also conformance data (``spec/conformance/perft/``, read by ``read_perft_file``):
a position is a configuration, a dealer, a deal and the actions taken since, all as JSON.

This module also enumerates every legal deal of a configuration (``deals``) and every state
reachable from a state (``reachable``), for the exhaustive checks of small games
(``scripts/exhaustive.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import combinations
from math import comb, factorial, prod
from pathlib import Path
from typing import Final

from attrs import frozen

from ._actions import Action, Destination
from ._cards import Card, Rank
from ._config import Config
from ._engine import apply, legal_actions, new_game, with_deal
from ._errors import RecordError
from .formats._config_json import config_from_json, config_to_json
from .formats._json_input import (
    JSON,
    child,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    printable_name,
    read_json_file,
)
from .formats._state_json import action_from_json, action_to_json
from .rules.deal import dealt_counts
from .rules.setup import setup_steps
from ._state import GameState, Phase

__all__ = [
    "PERFT_FORMAT",
    "Deal",
    "PerftCase",
    "deal_at",
    "deal_count",
    "deals",
    "divide",
    "perft",
    "perft_case_to_json",
    "position",
    "reachable",
    "read_perft_file",
    "remaining",
]

PERFT_FORMAT: Final = "bottleimp-conformance/1"

Deal = tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...] | None]
"""Hidden hands and (Devil's Eye) face-up rows, one per seat."""


def in_round(state: GameState) -> bool:
    """Whether the round of ``state`` still has actions to come (setup or trick play)."""
    return state.phase is Phase.SETUP or state.phase is Phase.PLAY


def remaining(state: GameState) -> int:
    """How many actions are left in the round: the setup cards still to give, then every card
    still to be played (0 once the round is over)."""
    if not in_round(state):
        return 0
    round_ = state.round
    cards = sum(map(len, round_.hands)) + sum(map(len, round_.face_up or ()))
    if state.phase is Phase.PLAY:
        return cards
    # During setup the given cards wait aside: every card but the Devil's Trick will be played.
    config, dealer = state.config, round_.dealer
    steps = [setup_steps(config, dealer, seat) for seat in range(config.players)]
    still_to_give = sum(map(len, steps)) - sum(map(len, round_.setup))
    trick = sum(step is Destination.DEVILS_TRICK for seat_steps in steps for step in seat_steps)
    return still_to_give + len(config.cards) - trick


def _future_key(state: GameState) -> object:
    """What decides the legal continuations of a state within its round, its past aside.

    Two states with equal keys have equal perft counts, so counts are memoized under it (a
    state holds its whole history, so equal states are rare): the phase and the seat to act,
    the cards in each zone a seat can still play or give, the setup choices made (they decide
    where the given cards go), the trick in progress, the bottles (they decide who wins, hence
    who leads) and the leader."""
    round_ = state.round
    trick = state.current_trick() if state.phase is Phase.PLAY else ()
    return (
        state.phase,
        state.to_act,
        round_.dealer,
        round_.hands,
        round_.face_up,
        round_.setup if state.phase is Phase.SETUP else (),
        trick,
        round_.bottles,
        round_.leader,
    )


def perft(state: GameState, depth: int | None = None) -> int:
    """The number of sequences of ``depth`` legal actions from ``state`` within its round
    (``None``: to the end of the round). ``perft(state, 0)`` is 1."""
    return _perft(state, depth, {})


def _perft(state: GameState, depth: int | None, memo: dict[tuple[object, int], int]) -> int:
    """``perft``, remembering counts in ``memo`` (by ``_future_key`` and depth: valid for any
    state of the same round, so ``divide`` shares one memo between the first actions)."""
    if depth is None:
        depth = remaining(state)
    if depth < 0:
        raise ValueError(f"depth must be at least 0, not {depth}")
    if depth > remaining(state):
        return 0  # every sequence ends with the round, after remaining(state) actions
    return _count(state, depth, memo)


def _count(node: GameState, left: int, memo: dict[tuple[object, int], int]) -> int:
    if left == 0:
        return 1
    if not in_round(node):
        return 0
    key = (_future_key(node), left)
    known = memo.get(key)
    if known is not None:
        return known
    actions = legal_actions(node)
    if left == 1:
        total = len(actions)
    else:
        total = sum(_count(apply(node, action), left - 1, memo) for action in actions)
    memo[key] = total
    return total


def divide(
    state: GameState,
    depth: int | None = None,
    counted: Callable[[int, int], None] | None = None,
) -> list[tuple[Action, int]]:
    """The perft count under each legal first action, in ``legal_actions`` order;
    ``counted(done, total)`` is called once each first action's count is known (a progress
    bar's step: ``done`` of the ``total`` first actions)."""
    if depth is None:
        depth = remaining(state)
    if depth < 1:
        raise ValueError(f"divide needs a depth of at least 1, not {depth}")
    if not in_round(state):
        return []
    memo: dict[tuple[object, int], int] = {}
    actions = legal_actions(state)
    counts: list[tuple[Action, int]] = []
    for action in actions:
        counts.append((action, _perft(apply(state, action), depth - 1, memo)))
        if counted is not None:
            counted(len(counts), len(actions))
    return counts


# -- deals ------------------------------------------------------------------------------------


def _splits(cards: tuple[Card, ...], counts: Sequence[int]) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """Every way to give ``counts[i]`` of ``cards`` to seat ``i`` (each a sorted tuple)."""
    if not counts:
        yield ()
        return
    first, rest = counts[0], counts[1:]
    for chosen in combinations(cards, first):
        taken = set(chosen)
        others = tuple(card for card in cards if card not in taken)
        for tail in _splits(others, rest):
            yield (chosen, *tail)


def deal_count(config: Config, dealer: int) -> int:
    """How many distinct legal deals ``deals(config, dealer)`` yields."""
    hidden, face_up = dealt_counts(config, dealer)
    counts = hidden + (face_up or ())
    return factorial(len(config.cards)) // prod(factorial(n) for n in counts)


def _combination_at(cards: tuple[Card, ...], size: int, index: int) -> tuple[Card, ...]:
    """The ``index``-th combination of ``size`` of ``cards`` in ``itertools.combinations`` order."""
    chosen: list[Card] = []
    start = 0
    while size:
        for position_ in range(start, len(cards)):
            block = comb(len(cards) - position_ - 1, size - 1)
            if index < block:
                chosen.append(cards[position_])
                start, size = position_ + 1, size - 1
                break
            index -= block
    return tuple(chosen)


def deal_at(config: Config, dealer: int, index: int) -> Deal:
    """The ``index``-th deal of ``deals(config, dealer)``, computed without the ones before it."""
    hidden, face_up = dealt_counts(config, dealer)
    counts = hidden + (face_up or ())
    if not 0 <= index < deal_count(config, dealer):
        raise IndexError(f"there are {deal_count(config, dealer)} deals, not {index + 1}")
    left = config.cards
    rows: list[tuple[Card, ...]] = []
    for seat, count in enumerate(counts):
        rest = _multinomial(len(left) - count, counts[seat + 1 :])
        row = _combination_at(left, count, index // rest)
        index %= rest
        rows.append(row)
        taken = set(row)
        left = tuple(card for card in left if card not in taken)
    players = config.players
    return tuple(rows[:players]), (tuple(rows[players:]) if face_up is not None else None)


def _multinomial(total: int, counts: Sequence[int]) -> int:
    return factorial(total) // prod(factorial(n) for n in counts) if sum(counts) == total else 0


def deals(config: Config, dealer: int, stride: int = 1) -> Iterator[Deal]:
    """Every ``stride``-th legal deal of the configuration's deck by ``dealer`` (rule
    DEAL-COUNTS; ``stride`` 1: every deal), in a fixed order: hidden hands seat by seat, then
    face-up rows, each a combination of the cards left in deck order."""
    if stride == 1:
        hidden, face_up = dealt_counts(config, dealer)
        counts = hidden + (face_up or ())
        players = config.players
        for rows in _splits(config.cards, counts):
            yield rows[:players], (rows[players:] if face_up is not None else None)
        return
    for index in range(0, deal_count(config, dealer), stride):
        yield deal_at(config, dealer, index)


def reachable(
    start: GameState,
    visit: Callable[[GameState | None, Action | None, GameState], None] | None = None,
) -> tuple[int, int, int]:
    """Walk every state reachable from ``start`` (depth first), each distinct state once.

    ``visit(before, action, after)`` is called for every transition, and once with
    ``(None, None, start)``. Returns ``(states, transitions, terminal states)``; a terminal
    state is one where the game is over."""
    seen = {start}
    stack = [start]
    transitions = terminal = 0
    if visit is not None:
        visit(None, None, start)
    while stack:
        state = stack.pop()
        actions = legal_actions(state)
        if not actions:
            terminal += 1
        for action in actions:
            after = apply(state, action)
            transitions += 1
            if visit is not None:
                visit(state, action, after)
            if after not in seen:
                seen.add(after)
                stack.append(after)
    return len(seen), transitions, terminal


# -- conformance data -------------------------------------------------------------------------


@frozen
class PerftCase:
    """One stored position and its counts: ``depths`` maps a depth to its perft count, ``round``
    is the count to the end of the round, ``divide`` the count under each first action at
    ``divide_depth``."""

    where: str
    description: str
    config: Config
    state: GameState
    remaining: int
    depths: Mapping[int, int]
    round: int | None
    divide_depth: int | None
    divide: tuple[tuple[Action, int], ...]


def position(
    config: Config,
    dealer: int,
    hands: Sequence[Sequence[Card]],
    face_up: Sequence[Sequence[Card]] | None,
    actions: Sequence[Action],
) -> GameState:
    """The state of a round dealt as given by ``dealer``, after ``actions``.

    The round is the game's first round with its dealer set to ``dealer``: rounds are dealt
    from the game's seed, so the game is rebuilt round by round until ``dealer`` deals (any
    seed will do: the deal is replaced)."""
    state = new_game(config, 0)
    while state.round.dealer != dealer:
        state = _finish_round_quickly(state)
    state = with_deal(
        state,
        tuple(tuple(hand) for hand in hands),
        None if face_up is None else tuple(tuple(row) for row in face_up),
    )
    for action in actions:
        state = apply(state, action)
    return state


def _finish_round_quickly(state: GameState) -> GameState:
    """Play the round to its end with the first legal action each time, then start the next."""
    while in_round(state):
        state = apply(state, legal_actions(state)[0])
    if state.phase is Phase.GAME_OVER:
        raise ValueError("the game ended before the dealer's turn to deal")
    return apply(state, legal_actions(state)[0])


def _rank_map(config: Config) -> dict[Rank, Card]:
    return {card.rank: card for card in config.cards}


def _cards(by_rank: Mapping[Rank, Card], value: JSON, where: str) -> tuple[Card, ...]:
    if not isinstance(value, list):
        raise RecordError(where, "expected a list of cards")
    cards = []
    for index, rank in enumerate(value):
        card = by_rank.get(rank) if isinstance(rank, (int, float)) and not isinstance(rank, bool) else None
        if card is None:
            raise RecordError(f"{where}[{index}]", f"{rank!r} is not a card of the deck")
        cards.append(card)
    return tuple(cards)


def _rows(by_rank: Mapping[Rank, Card], value: JSON, where: str) -> tuple[tuple[Card, ...], ...]:
    if not isinstance(value, list):
        raise RecordError(where, "expected one list of cards per seat")
    return tuple(_cards(by_rank, row, f"{where}[{seat}]") for seat, row in enumerate(value))


def read_perft_file(path: str | Path) -> tuple[PerftCase, ...]:
    """Every case of one ``perft`` conformance file, its position built. The file is read by
    the one JSON reader (``read_json_file``: its size, nesting and numbers within limits) and
    every fault is a ``RecordError`` at its JSON path, prefixed with the file name."""
    at = f"{printable_name(path)}:$"
    try:
        data = expect_object(read_json_file(path), at)
    except RecordError as error:
        raise RecordError(at + error.path[1:], error.message, error.rule_id) from None
    if data.get("format") != PERFT_FORMAT or data.get("kind") != "perft":
        raise RecordError(at, f"not a {PERFT_FORMAT} file of kind perft")
    cases: list[PerftCase] = []
    for g, group_value in enumerate(expect_list(data.get("groups"), child(at, "groups"))):
        group_at = child(child(at, "groups"), g)
        group = expect_object(group_value, group_at)
        config = config_from_json(group.get("config"), child(group_at, "config"))
        by_rank = _rank_map(config)
        for c, case_value in enumerate(expect_list(group.get("cases"), child(group_at, "cases"))):
            where = child(child(group_at, "cases"), c)
            cases.append(_read_case(config, by_rank, expect_object(case_value, where), where))
    return tuple(cases)


def _read_case(config: Config, by_rank: Mapping[Rank, Card], case: dict[str, JSON],
               where: str) -> PerftCase:
    input_ = expect_object(case.get("input"), child(where, "input"))
    face_up = input_.get("face_up")
    actions_at = child(child(where, "input"), "actions")
    actions = tuple(
        action_from_json(item, config, child(actions_at, i))
        for i, item in enumerate(expect_list(input_.get("actions", []), actions_at))
    )
    dealer = expect_int(input_.get("dealer"), child(child(where, "input"), "dealer"), 0,
                        config.players - 1)
    state = position(
        config,
        dealer,
        _rows(by_rank, input_.get("hands"), f"{where}.input.hands"),
        None if face_up is None else _rows(by_rank, face_up, f"{where}.input.face_up"),
        actions,
    )
    expected_at = child(where, "expected")
    expected = expect_object(case.get("expected"), expected_at)
    depths_at = child(expected_at, "depths")
    depths = {expect_int(int(depth) if depth.isdigit() else depth, child(depths_at, depth), 0):
              expect_int(count, child(depths_at, depth), 0)
              for depth, count in expect_object(expected.get("depths"), depths_at).items()}
    round_ = expected.get("round")
    divided_value = expected.get("divide")
    divided = None if divided_value is None else expect_object(divided_value,
                                                               child(expected_at, "divide"))
    counts_at = child(child(expected_at, "divide"), "counts")
    divide: list[tuple[Action, int]] = []
    for index, item_value in enumerate([] if divided is None
                                       else expect_list(divided.get("counts"), counts_at)):
        item = expect_object(item_value, child(counts_at, index))
        divide.append((action_from_json(item.get("action"), config,
                                        child(child(counts_at, index), "action")),
                       expect_int(item.get("count"), child(child(counts_at, index), "count"), 0)))
    return PerftCase(
        where=where,
        description=expect_str(case.get("description"), child(where, "description")),
        config=config,
        state=state,
        remaining=expect_int(expected.get("remaining"), child(expected_at, "remaining"), 0),
        depths=depths,
        round=None if round_ is None else expect_int(round_, child(expected_at, "round"), 0),
        divide_depth=None if divided is None else expect_int(
            divided.get("depth"), child(child(expected_at, "divide"), "depth"), 0),
        divide=tuple(divide),
    )


def perft_case_to_json(
    description: str,
    state: GameState,
    actions: Sequence[Action],
    depths: Sequence[int],
    to_round_end: bool,
    divide_depth: int | None,
    *,
    count: Callable[[GameState, int], int] = perft,
    divided: Callable[[GameState, int], Sequence[tuple[Action, int]]] = divide,
) -> dict[str, JSON]:
    """A perft case for ``state`` (dealt as its round was, then ``actions``), counts computed
    by ``count`` and ``divided`` (``perft`` and ``divide``; a caller may pass cached ones)."""
    round_ = state.round
    start = position(state.config, round_.dealer, round_.dealt, round_.dealt_face_up, ())
    at = start
    for action in actions:
        at = apply(at, action)
    expected: dict[str, JSON] = {
        "remaining": remaining(at),
        "depths": {str(depth): count(at, depth) for depth in depths},
    }
    if to_round_end:
        expected["round"] = count(at, remaining(at))
    if divide_depth is not None:
        expected["divide"] = {
            "depth": divide_depth,
            "counts": [{"action": action_to_json(action), "count": number}
                       for action, number in divided(at, divide_depth)],
        }
    input_: dict[str, JSON] = {
        "dealer": round_.dealer,
        "hands": [[card.rank for card in hand] for hand in round_.dealt],
        "face_up": None if round_.dealt_face_up is None else [
            [card.rank for card in row] for row in round_.dealt_face_up
        ],
        "actions": [action_to_json(action) for action in actions],
    }
    return {"description": description, "input": input_, "expected": expected}


def config_json(config: Config) -> dict[str, JSON]:
    """A configuration as a conformance group writes it: only the keys that differ from the
    defaults (the game end is irrelevant to a round's counts and left out)."""
    full = config_to_json(config)
    data: dict[str, JSON] = {"edition": full["edition"], "players": full["players"]}
    if config.bottles != 1:
        data["bottles"] = config.bottles
    if config.teams is not None:
        data["teams"] = full["teams"]
    if "deck" in full:
        data["deck"] = full["deck"]
    return data


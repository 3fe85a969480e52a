"""Shared builders for the example tests: cards by rank, hand-chosen deals, setups and plays.

``position`` is the main one: it builds the state at the start of trick play in which each seat
holds exactly the cards asked for, by working out a deal and a setup that lead there and playing
that setup through the engine. Tests then play the tricks they are about with ``play``.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from types import ModuleType

from bottleimp import (
    Card,
    Colour,
    Config,
    Destination,
    GameState,
    Give,
    Phase,
    Play,
    Rank,
    apply,
    new_game,
)
from bottleimp._engine import with_deal
from invariants import expected_dealt_counts, expected_setup_steps, seat_order_from

Ranks = Sequence[Rank]

_COLOURS = {"Y": Colour.YELLOW, "B": Colour.BLUE, "R": Colour.RED, "G": Colour.GREEN}
_CARD_TEXT = re.compile(r"(\d+(?:\.5)?)([YBRG])(\d+)")


def deck(text: str) -> tuple[Card, ...]:
    """A custom deck from ``"1Y1 2.5R3"``: rank, colour initial, coins, per card."""
    result = []
    for item in text.split():
        match = _CARD_TEXT.fullmatch(item)
        if match is None:
            raise ValueError(f"not a card: {item!r}")
        rank_text, colour, coins = match.groups()
        rank: Rank = float(rank_text) if "." in rank_text else int(rank_text)
        result.append(Card(rank, _COLOURS[colour], int(coins)))
    return tuple(result)


def card(config: Config, rank: Rank) -> Card:
    """The card of ``config``'s deck with this rank."""
    for candidate in config.cards:
        if candidate.rank == rank:
            return candidate
    raise KeyError(f"no card {rank} in this deck")


def cards(config: Config, ranks: Iterable[Rank]) -> tuple[Card, ...]:
    """The cards of ``config``'s deck with these ranks, in the order given."""
    return tuple(card(config, rank) for rank in ranks)


def ranks_of(cards_: Iterable[Card]) -> list[Rank]:
    """The ranks of some cards, in their order."""
    return [c.rank for c in cards_]


def dealt_game(
    config: Config,
    hands: Sequence[Ranks],
    face_up: Sequence[Ranks] | None = None,
    seed: int = 0,
    start: GameState | None = None,
) -> GameState:
    """A game (or ``start``, a state before its round's setup) dealt the given hands."""
    state = new_game(config, seed) if start is None else start
    up = None if face_up is None else tuple(cards(config, row) for row in face_up)
    return with_deal(state, tuple(cards(config, hand) for hand in hands), up)


def give_setups(state: GameState, setups: Mapping[int, Ranks]) -> GameState:
    """Play every seat's setup: ``setups[seat]`` lists its cards in the order of its steps."""
    config = state.config
    while state.phase is Phase.SETUP:
        seat = state.to_act
        assert seat is not None
        done = len(state.round.setup[seat])
        destination = expected_setup_steps(config, state.round.dealer, seat)[done]
        state = apply(state, Give(seat, card(config, setups[seat][done]), destination))
    return state


def play(state: GameState, *ranks: Rank) -> GameState:
    """Each card in turn, played by the seat to act."""
    for rank in ranks:
        seat = state.to_act
        assert seat is not None
        state = apply(state, Play(seat, card(state.config, rank)))
    return state


def _after_setup_sizes(config: Config, dealer: int) -> list[tuple[int, int]]:
    counts = expected_dealt_counts(config, dealer)
    if config.players == 2:
        return [(hidden - 4 + 1, up + 1) for hidden, up in counts]
    return [
        (hidden - len(expected_setup_steps(config, dealer, seat)) + 2, 0)
        for seat, (hidden, _) in enumerate(counts)
    ]


def position(
    config: Config,
    hands: Sequence[Ranks],
    face_up: Sequence[Ranks] | None = None,
    *,
    fill: bool = False,
    devils_trick: Ranks | None = None,
    seed: int = 0,
    start: GameState | None = None,
) -> GameState:
    """The state at the first trick of a round in which each seat holds ``hands[seat]`` (and, in
    Devil's Eye, ``face_up[seat]`` face up) after the setup.

    The cards nobody holds form the Devil's Trick. With ``fill``, hands given short are completed
    first with the lowest cards left (skipping ``devils_trick``, if given). Each seat receives the
    first card of its hand (face-up cards in Devil's Eye) from its right and the last from its
    left; the deal is worked out backwards from that, set with ``with_deal`` and the setup is
    played through the engine. ``start`` is a state before a later round's setup.
    """
    base = new_game(config, seed) if start is None else start
    dealer = base.round.dealer
    players = config.players
    eye = players == 2
    sizes = _after_setup_sizes(config, dealer)
    final = [list(hand) for hand in hands]
    final_up = [list(row) for row in face_up] if face_up is not None else [[] for _ in hands]
    reserved = set(devils_trick or ())
    if fill:
        used = {rank for hand in final + final_up for rank in hand} | reserved
        spare = [c.rank for c in config.cards if c.rank not in used]
        for seat in range(players):
            while len(final[seat]) < sizes[seat][0]:
                final[seat].append(spare.pop(0))
            while eye and len(final_up[seat]) < sizes[seat][1]:
                final_up[seat].append(spare.pop(0))
    for seat in range(players):
        assert (len(final[seat]), len(final_up[seat])) == sizes[seat], (
            f"seat {seat} holds {len(final[seat])}+{len(final_up[seat])} cards after the setup,"
            f" not {sizes[seat]}"
        )
    held = {rank for hand in final + final_up for rank in hand}
    trick_cards = [c.rank for c in config.cards if c.rank not in held]
    discards: dict[int, list[Rank]] = {}
    for seat in seat_order_from(0, players):
        wanted = expected_setup_steps(config, dealer, seat).count(Destination.DEVILS_TRICK)
        discards[seat], trick_cards = trick_cards[:wanted], trick_cards[wanted:]
    assert not trick_cards, "more cards left over than the Devil's Trick holds"

    dealt: list[list[Rank]] = []
    dealt_up: list[list[Rank]] = []
    setups: dict[int, list[Rank]] = {}
    for seat in range(players):
        if eye:
            other = 1 - seat
            received = [final[seat][0]]
            dealt_up.append([r for r in final_up[seat] if r != final_up[seat][0]])
            given = discards[seat] + [final_up[other][0], final[other][0]]
        else:
            left, right = (seat + 1) % players, (seat - 1) % players
            received = [final[seat][0], final[seat][-1]]
            given = discards[seat] + [final[left][0], final[right][-1]]
        dealt.append([r for r in final[seat] if r not in received] + given)
        setups[seat] = given
    state = dealt_game(config, dealt, dealt_up if eye else None, start=base)
    state = give_setups(state, setups)
    assert state.phase is Phase.PLAY
    for seat in range(players):
        assert sorted(ranks_of(state.round.hands[seat])) == sorted(final[seat])
        if eye:
            assert state.round.face_up is not None
            assert sorted(ranks_of(state.round.face_up[seat])) == sorted(final_up[seat])
    return state


def load_module(name: str, path: Path) -> ModuleType:
    """The module of a file that is not in a package (a script, a page's Python), loaded by its
    path under ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

"""A symbolic pass over the rule functions: each property checked for every input within bounds.

For each pure function of ``bottleimp/rules/`` this script states a property and bounds on its
inputs and checks it for every input within them, by one of three methods (the ``method``
column):

- ``crosshair``: CrossHair (symbolic execution over the Z3 SMT solver) explores every execution
  path of the property. Integers are symbolic (every value in the bounds at once, not samples);
  colours and destinations are symbolic choices among the enum's members. When the exploration is
  exhausted, the property holds for every input within the bounds; when the time bound runs out
  first, it is reported as not completed, with the paths explored so far.
- ``enumeration``: the same kind of property run on every input of a stated finite domain (the
  functions whose lists of symbolic colours or many branches CrossHair could not exhaust in its
  time bound). ``cases`` counts the inputs run.
- ``z3``: ``splitmix64`` run with Python's integer arithmetic on a symbolic state (Z3 bit-vectors
  too wide to wrap, so a dropped mask shows) and proved equal to the published 64-bit step for
  all 2^64 states, each stage proved a bijection (``cases`` counts the claims proved).

Cards are stand-ins (``C``: rank, colour, coins) with symbolic fields: the rule functions read
only those three attributes, compare ranks and test colours by identity, and a stand-in leaves
each field symbolic where the real ``Card``'s converters would check it. Configurations are stand-ins with the fields the rules
read. Each property begins with ``assert`` statements that bound the inputs (CrossHair's
``asserts`` mode treats the leading run of asserts as preconditions; an assert after any other
statement is part of the property).

What a property claims (the ``claim`` column): ``rule``, the property states its rule from the
text of ``spec/rules.toml``, independently of the code (it calls no rule function but the one it
checks); ``consistency``, it compares one function of the code with others; ``restates``, it says
what a one-line body already says.

Results: ``verified`` (every input within the bounds), ``refuted`` (an assertion of the property
failed: a counterexample), ``error`` (the code under check or the property raised anything else:
a failure of the pass, never counted as a refutation) or ``not completed`` (CrossHair's time ran
out). The script exits 1 on any refutation or error (with ``--ci``, on anything not verified).

Run from the repository root (one function at a time, each bounded in time):
``python scripts/symbolic.py`` (every property by its own method; CrossHair 60 s each),
``--timeout 30``, ``NAME ...``, ``--method crosshair`` (CrossHair for every property),
``--ci`` (what CI runs: no CrossHair; each property CrossHair explores is run instead on every
input of its stated CI domain; about a minute), ``--json FILE`` (every outcome, for the trust
page's generator).
"""

# The properties pass stand-in cards and configurations to the rules on purpose (see above).
# mypy: disable-error-code="arg-type"

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
import traceback
from collections import Counter
from itertools import combinations, permutations, product
from math import factorial
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, NamedTuple, cast

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bottleimp._actions import Destination, Give, Play, StartRound  # noqa: E402
from bottleimp._cards import Card, Colour  # noqa: E402
from bottleimp._errors import IllegalActionError, ArgumentError# noqa: E402
from bottleimp.rules import deal, game, play, scoring, setup  # noqa: E402
from bottleimp._state import Bottle, Phase  # noqa: E402


C: Any = Card
"""Cards of the properties: the library's own (a ``Bottle`` and a ``TrickResult`` hold only
``Card`` values themselves); typed ``Any`` so that a property may pass a stand-in rank."""


class _Played(NamedTuple):
    """A play stand-in: the seat and the card the rules read."""

    seat: int
    card: Any


class Cfg(NamedTuple):
    """A configuration stand-in: the fields the rules read."""

    players: int
    cards: tuple[Any, ...]
    devils_eye: bool
    teams: tuple[tuple[int, ...], ...] | None = None
    target_score: int | None = None
    round_limit: int | None = None


def _rank(card: Any) -> Any:
    return card.rank


def _deck(size: int) -> tuple[int, ...]:
    return tuple(range(size))  # only the deck's length is read by these rules


# -- config: the cards, the decks and the configuration (cards.py, editions.py, config.py) ------


def _refused_by(rule_id: str, make: Callable[[], object]) -> bool:
    """Whether ``make()`` is refused with an error naming ``rule_id`` (``False``: accepted; an
    error naming another rule fails the property)."""
    from bottleimp._errors import BottleImpError

    try:
        make()
    except BottleImpError as error:
        assert getattr(error, "rule_id", rule_id) == rule_id, (rule_id, error)
        return True
    return False


def p_card_rank(whole: int, half: bool, as_float: bool) -> None:
    """CARD-RANK: "ranks compare exactly; a whole rank is written as an integer, a half rank as a
    decimal": a card of rank ``whole`` (given as an int or a float) is equal to the other and its
    rank an ``int``; a card of rank ``whole + 0.5`` keeps its half, is above ``whole`` and below
    ``whole + 1``, and the two cards differ."""
    from bottleimp._cards import Card, format_rank

    assert 1 <= whole <= 60
    value: float = whole + 0.5 if half else (float(whole) if as_float else whole)
    card = Card(value, Colour.RED, 1)
    if half:
        assert card.rank == whole + 0.5 and whole < card.rank < whole + 1
        assert format_rank(card.rank) == f"{whole}.5"
        assert card != Card(whole, Colour.RED, 1)
    else:
        assert type(card.rank) is int and card.rank == whole
        assert format_rank(card.rank) == str(whole)
        assert card == Card(whole, Colour.RED, 1)


def p_edition_deck(edition: str, players: int) -> None:
    """DECK: "every deck has 36 numbered cards, 12 in each of three colours, with 1 to 6 coins
    each; the start card 19 is part of no deck. The classic deck is yellow, blue and red, 126
    coins; the Matagot 2024 deck red, blue and green, 127 coins. For 5 or 6 players the Matagot
    deck adds 18 half ranks, each with the colour and coins of the whole rank just below it: 54
    cards, 190 coins"; the classic deck serves 2-4 players only. In ascending rank order."""
    from bottleimp._editions import edition_deck

    assert edition in ("classic", "matagot-2024") and 2 <= players <= 6
    try:
        cards = edition_deck(edition, players)
    except ValueError:
        assert edition == "classic" and players >= 5
        return
    assert not (edition == "classic" and players >= 5)
    ranks = [card.rank for card in cards]
    assert ranks == sorted(ranks) and len(set(ranks)) == len(ranks) and 19 not in ranks
    whole = [card for card in cards if card.rank == int(card.rank)]
    halves = [card for card in cards if card.rank != int(card.rank)]
    colours = {"classic": {Colour.YELLOW, Colour.BLUE, Colour.RED},
               "matagot-2024": {Colour.RED, Colour.BLUE, Colour.GREEN}}[edition]
    assert len(whole) == 36 and all(1 <= card.coins <= 6 for card in whole)
    assert all(sum(1 for card in whole if card.colour is colour) == 12 for colour in colours)
    assert sum(card.coins for card in whole) == (126 if edition == "classic" else 127)
    if players >= 5:
        by_rank = {card.rank: card for card in whole}
        assert len(halves) == 18 and sum(card.coins for card in cards) == 190
        for card in halves:
            below = by_rank[card.rank - 0.5]
            assert (card.colour, card.coins) == (below.colour, below.coins)
    else:
        assert not halves


def _custom(size: int, nineteen: bool = False, twice: bool = False) -> tuple[Any, ...]:
    """A custom deck of ``size`` real cards (ranks 1, 2, ... skipping 19), with the 19 or a rank
    twice if asked."""
    deck = list(_real_deck(size))
    if nineteen and deck:
        deck[-1] = _card(19, Colour.RED, 1)
    if twice and len(deck) > 1:
        deck[-1] = deck[0]
    return tuple(deck)


def p_config_players(players: int) -> None:
    """CONFIG-PLAYERS: "a game has 2 to 6 players; anything else is refused"."""
    from bottleimp import Config

    assert -2 <= players <= 9
    assert _refused_by("CONFIG-PLAYERS", lambda: Config(players=players)) == (
        not 2 <= players <= 6)


def p_config_edition(edition: str, players: int, custom: bool) -> None:
    """CONFIG-EDITION: "the edition is classic or matagot-2024; the classic deck serves 2 to 4
    players; 5 or 6 players need the Matagot 2024 edition (unless a custom deck is given)"."""
    from bottleimp import Config

    assert 2 <= players <= 6
    deck = _custom(12 if players == 2 else 3 * players) if custom else None
    refused = _refused_by("CONFIG-EDITION",
                          lambda: Config(players=players, edition=edition, deck=deck))
    known = edition in ("classic", "matagot-2024")
    assert refused == (not known or (edition == "classic" and players >= 5 and not custom))


def p_config_bottles(bottles: int, players: int) -> None:
    """CONFIG-BOTTLES: "one bottle, or two in the Second Bottle variant, for 5 or 6 players only;
    any other number is refused"."""
    from bottleimp import Config

    assert 2 <= players <= 6 and -1 <= bottles <= 4
    refused = _refused_by("CONFIG-BOTTLES", lambda: Config(players=players, bottles=bottles))
    assert refused == (not (bottles == 1 or (bottles == 2 and players >= 5)))


def p_config_teams(players: int, teams: tuple[tuple[int, ...], ...], bottles: int) -> None:
    """CONFIG-TEAMS: "team mode is for 4 to 6 players with one bottle; the teams partition the
    seats into teams of two and single players, naming every seat exactly once, with at least one
    team of two"."""
    from bottleimp import Config

    assert 2 <= players <= 6 and bottles in (1, 2)
    if bottles == 2 and players < 5:
        return  # refused for its bottles (CONFIG-BOTTLES), whatever the teams
    seats = [seat for team in teams for seat in team]
    valid = (4 <= players and bottles == 1 and sorted(seats) == list(range(players))
             and all(len(team) in (1, 2) for team in teams)
             and any(len(team) == 2 for team in teams))
    refused = _refused_by("CONFIG-TEAMS",
                          lambda: Config(players=players, teams=teams, bottles=bottles))
    assert refused == (not valid)


def p_config_game_end(rounds: int | None, target: int | None) -> None:
    """CONFIG-GAME-END: "a game ends either after a given number of rounds or at a target score,
    never both; either is a positive integer"."""
    from bottleimp import Config

    refused = _refused_by("CONFIG-GAME-END",
                          lambda: Config(players=3, rounds=rounds, target_score=target))
    both = rounds is not None and target is not None
    positive = all(value is None or value >= 1 for value in (rounds, target))
    assert refused == (both or not positive)


def p_config_deck(players: int, size: int, fault: str) -> None:
    """CONFIG-DECK: "its cards have distinct ranks and none is the start card 19; for 3 to 6
    players every seat is dealt the same number of cards, or every seat but the dealer one more
    card, and every seat is dealt enough cards for its setup (three, two for a dealer dealt one
    fewer); for 2 players the size is a positive multiple of 12"."""
    from bottleimp import Config

    assert 2 <= players <= 6 and 1 <= size <= 40
    deck = _custom(size, nineteen=fault == "19", twice=fault == "twice")
    if players == 2:
        fits = size % 12 == 0
    else:
        short = size % players == players - 1
        each = size // players + (1 if short else 0)  # every seat but a short dealer
        fits = size % players in (0, players - 1) and each >= 3 and (not short or each - 1 >= 2)
    refused = _refused_by("CONFIG-DECK", lambda: Config(players=players, deck=deck))
    assert refused == (not fits or (fault != "" and size > 1))


def c_card_rank() -> Iterator[tuple[Any, ...]]:
    return ((whole, half, as_float) for whole in range(1, 61) for half in (False, True)
            for as_float in (False, True))


def c_edition_deck() -> Iterator[tuple[Any, ...]]:
    return ((edition, players) for edition in ("classic", "matagot-2024")
            for players in range(2, 7))


def c_config_players() -> Iterator[tuple[Any, ...]]:
    return ((players,) for players in range(-2, 10))


def c_config_edition() -> Iterator[tuple[Any, ...]]:
    return ((edition, players, custom) for edition in ("classic", "matagot-2024", "deluxe")
            for players in range(2, 7) for custom in (False, True))


def c_config_bottles() -> Iterator[tuple[Any, ...]]:
    return ((bottles, players) for bottles in range(-1, 5) for players in range(2, 7))


def _partitions(seats: list[int]) -> Iterator[list[list[int]]]:
    if not seats:
        yield []
        return
    first, rest = seats[0], seats[1:]
    for part in _partitions(rest):
        yield [[first], *part]
        for k in range(len(part)):
            yield [*part[:k], [first, *part[k]], *part[k + 1:]]


def c_config_teams() -> Iterator[tuple[Any, ...]]:
    """Every partition of the seats of 2-6 players into blocks of any size (pairs, singles,
    triples...), and the same with a seat left out or named twice, each with 1 and 2 bottles."""
    for players in range(2, 7):
        for part in _partitions(list(range(players))):
            teams = tuple(tuple(team) for team in part)
            variants = [teams, teams[1:], (*teams, (0,))]
            for bottles in (1, 2):
                for variant in variants:
                    if variant:
                        yield players, variant, bottles


def c_config_game_end() -> Iterator[tuple[Any, ...]]:
    values = (None, -1, 0, 1, 2, 9)
    return ((rounds, target) for rounds in values for target in values)


def c_config_deck() -> Iterator[tuple[Any, ...]]:
    return ((players, size, fault) for players in range(2, 7) for size in range(1, 41)
            for fault in ("", "19", "twice"))


# -- deal.py -----------------------------------------------------------------------------------


def p_next_dealer(players: int, dealer: int) -> None:
    """DEALER-ROTATION: the next dealer is the seat to the dealer's left."""
    assert 2 <= players <= 6 and 0 <= dealer < players
    nxt = deal.next_dealer(Cfg(players, (), players == 2), dealer)
    assert 0 <= nxt < players and nxt == (dealer + 1) % players


def p_first_dealer(players: int, chosen: int) -> None:
    """FIRST-DEALER: any seat of the game may deal first; any other number is refused."""
    assert 2 <= players <= 6 and -8 <= chosen <= 8
    try:
        assert deal.first_dealer(Cfg(players, (), False), chosen) == chosen
        assert 0 <= chosen < players
    except ArgumentError:
        assert not 0 <= chosen < players


def p_dealt_counts(players: int, size: int, dealer: int) -> None:
    """DEAL-COUNTS: the deal gives out the whole deck; every seat the same number of cards, or
    every seat but the dealer one more; Devil's Eye deals a third face up, evenly."""
    assert 2 <= players <= 6 and 0 <= dealer < players and 1 <= size <= 240
    assert (players == 2 and size % 12 == 0) or (
        players > 2 and size % players in (0, players - 1) and size // players >= 2)
    config = Cfg(players, _deck(size), players == 2)
    hidden, face_up = deal.dealt_counts(config, dealer)
    assert len(hidden) == players and sum(hidden) + sum(face_up or ()) == size
    if players == 2:
        assert face_up is not None and hidden[0] == hidden[1] == size // 3
        assert face_up[0] == face_up[1] == size // 6
    else:
        assert face_up is None
        others = [hidden[s] for s in range(players) if s != dealer]
        assert min(others) == max(others)
        assert hidden[dealer] == others[0] - (1 if size % players else 0)


def p_splitmix64(state: int) -> None:
    """DEAL-SHUFFLE: one SplitMix64 step, restated from its published definition."""
    assert 0 <= state < 2**64
    mask = 2**64 - 1
    nxt = (state + 0x9E3779B97F4A7C15) & mask
    z = ((nxt ^ (nxt >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    assert deal.splitmix64(state) == (nxt, z ^ (z >> 31))


def p_shuffle_paths(size: int) -> int:
    """DEAL-SHUFFLE, every path of the shuffle of ``size`` cards: the shuffle reads each draw only
    through ``draw >= limit`` and ``draw % (i + 1)``, so one draw per class decides every path.
    With the generator replaced by a script of draws (each index ``j`` in ``0..i`` accepted at
    once, or after one rejected draw where the limit is below 2^64), every script gives the
    documented order (position ``i``, from the last down, swapped with the accepted draw mod
    ``i + 1``; a rejected draw is skipped), a permutation of the cards, and the ``size!`` index
    sequences give ``size!`` different orders (the Fisher-Yates bijection: no order is
    favoured). Returns the paths run."""
    assert 1 <= size <= 7
    limits = deal._rejection_limits(size)
    assert all(limits[i] % (i + 1) == 0 and 0 <= 2**64 - limits[i] < i + 1 for i in range(size))
    cards = tuple(C(rank, Colour.RED, 1) for rank in range(1, size + 1))
    positions = range(size - 1, 0, -1)
    per_position = [[(j, r) for j in range(i + 1) for r in range(2 if limits[i] < 2**64 else 1)]
                    for i in positions]
    orders: dict[tuple[int, ...], tuple[Any, ...]] = {}
    paths = 0
    for script in product(*per_position):
        draws: list[int] = []
        for i, (j, rejected) in zip(positions, script):
            draws += [limits[i] + j, j] if rejected else [j]
        real = deal.splitmix64
        deal.splitmix64 = lambda state: (state + 1, draws[state])
        try:
            shuffled = deal.shuffle(cards, 0, 0)
        finally:
            deal.splitmix64 = real
        assert sorted(shuffled, key=_rank) == list(cards)
        indices = tuple(j for j, _ in script)
        # The documented permutation (rule DEAL-SHUFFLE): from the last position down, position
        # i swaps with the accepted draw mod (i + 1).
        documented = list(cards)
        for i, j in zip(positions, indices):
            documented[i], documented[j] = documented[j], documented[i]
        assert shuffled == tuple(documented)
        assert orders.setdefault(indices, shuffled) == shuffled
        paths += 1
    assert len(set(orders.values())) == len(orders) == factorial(size)
    return paths


def _real_deck(size: int) -> tuple[Any, ...]:
    """A custom deck of real cards for the properties that build real configurations."""
    from bottleimp._cards import Card

    colours = (Colour.YELLOW, Colour.BLUE, Colour.RED)
    ranks = [r for r in range(1, size + 2) if r != 19][:size]
    return tuple(Card(rank, colours[rank % 3], rank % 4) for rank in ranks)


def p_deal(players: int, size: int, seed: int, round_index: int, dealer: int) -> None:
    """DEAL: "the dealer deals the whole shuffled deck, one card at a time, clockwise, starting
    with the player on their left; in Devil's Eye the first two thirds as the hidden hands and the
    last third as the face-up cards": each seat's cards are those of the shuffled order (rule
    DEAL-SHUFFLE's ``shuffle``) at the positions the deal's turn gives it, sorted by rank."""
    from bottleimp import Config

    config = Config(players=players, deck=_real_deck(size))
    order = deal.shuffle(config.cards, seed, round_index)
    hidden_count = len(order) * 2 // 3 if players == 2 else len(order)
    expected: list[list[Any]] = [[] for _ in range(players)]
    expected_up: list[list[Any]] = [[] for _ in range(players)]
    seat = dealer
    for position, card in enumerate(order):
        if position == hidden_count:
            seat = dealer  # the face-up third is dealt from the dealer's left again
        seat = (seat + 1) % players
        (expected if position < hidden_count else expected_up)[seat].append(card)
    hands, face_up = deal.deal(config, seed, round_index, dealer)
    assert [list(hand) for hand in hands] == [sorted(h, key=_rank) for h in expected]
    if players == 2:
        assert face_up is not None
        assert [list(row) for row in face_up] == [sorted(u, key=_rank) for u in expected_up]
    else:
        assert face_up is None


def d_deal() -> Iterator[tuple[Any, ...]]:
    for players, sizes in ((2, (12, 24)), (3, (8, 9, 11)), (4, (11, 12)), (5, (14, 15)),
                           (6, (17, 18))):
        for size in sizes:
            for seed in (0, 1, 7, 2**63 + 5):
                for round_index in (0, 1, 5):
                    for dealer in range(players):
                        yield players, size, seed, round_index, dealer


def p_check_deal(players: int, size: int, dealer: int, seats: tuple[int, ...],
                 fault: str) -> None:
    """DEAL-COUNTS: "the deal gives out the whole deck exactly once, each seat the same number of
    cards, or every seat but the dealer one card more when the deck is one short of a multiple
    of the players": a deal of the deck's cards to ``seats`` (card k to seat ``seats[k]``) is
    accepted exactly when every seat's count is that, and a deal with a card twice, a card of
    another deck, or a hand too many or too few is refused."""
    from bottleimp import Config

    config = Config(players=players, deck=_real_deck(size))
    cards = list(config.cards)
    hands: list[list[Any]] = [[] for _ in range(players)]
    for card, seat in zip(cards, seats):
        hands[seat].append(card)
    short = size % players == players - 1
    counts_right = all(len(hands[seat]) == size // players + (1 if short and seat != dealer else 0)
                       for seat in range(players))
    rows = [tuple(hand) for hand in hands]
    if fault == "twice" and rows[0]:
        rows[1] = rows[1] + (rows[0][0],)
    elif fault == "foreign" and rows[0]:
        from bottleimp._cards import Card

        rows[0] = rows[0][1:] + (Card(99, Colour.RED, 1),)
    elif fault == "hands":
        rows = rows + [()]
    try:
        deal.check_deal(config, dealer, tuple(rows), None)
        accepted = True
    except IllegalActionError as error:
        assert error.rule_id == "DEAL-COUNTS"
        accepted = False
    assert accepted == (counts_right and (fault == "" or (fault != "hands" and not rows[0])))


def d_check_deal() -> Iterator[tuple[Any, ...]]:
    for players, size in ((3, 8), (3, 9)):
        for dealer in range(players):
            for seats in product(range(players), repeat=size):
                for fault in ("", "twice", "foreign", "hands"):
                    if fault and seats[0] != 0:
                        continue  # the faults on one seat assignment in a few
                    yield players, size, dealer, seats, fault


# -- setup.py ----------------------------------------------------------------------------------


def p_setup_steps(players: int, size: int, dealer: int, seat: int) -> None:
    """SETUP-STEPS: Devil's Eye two to the Devil's Trick, one to the opponent's face-up cards, one
    to their hidden hand; else one to the Devil's Trick, left, right, and a short dealer only
    left and right."""
    assert 2 <= players <= 6 and 1 <= size <= 240 and 0 <= dealer < players and 0 <= seat < players
    steps = setup.setup_steps(Cfg(players, _deck(size), players == 2), dealer, seat)
    d = Destination
    if players == 2:
        assert steps == (d.DEVILS_TRICK, d.DEVILS_TRICK, d.OPPONENT_FACE_UP, d.OPPONENT_HIDDEN)
    elif seat == dealer and size % players:
        assert steps == (d.LEFT, d.RIGHT)
    else:
        assert steps == (d.DEVILS_TRICK, d.LEFT, d.RIGHT)


def p_setup_to_act(players: int, size: int, dealer: int, given: list[int]) -> None:
    """SETUP-ORDER: the first seat from the dealer's left whose setup is not complete chooses
    next; ``None`` once every seat has given its whole setup."""
    assert 3 <= players <= 6 and 0 <= dealer < players and len(given) == players
    assert size % players in (0, players - 1)
    assert all(0 <= given[s] <= (2 if s == dealer and size % players else 3)
               for s in range(players))
    config = Cfg(players, _deck(size), False)
    # SETUP-STEPS in words: three gives a seat, two for a dealer dealt one card short.
    wanted = [2 if s == dealer and size % players else 3 for s in range(players)]
    chosen = tuple(("g",) * given[s] for s in range(players))
    seat = setup.setup_to_act(config, dealer, chosen)
    order = [(dealer + k) % players for k in range(1, players + 1)]
    missing = [s for s in order if given[s] < wanted[s]]
    assert seat == (missing[0] if missing else None)


def p_can_give(a: int, b: int, c: int) -> None:
    """SETUP-FROM-DEALT: a seat gives only a card it was dealt and has not given."""
    assert 0 < a < 40 and 0 < b < 40 and 0 < c < 40
    hand = (C(a, Colour.RED, 1), C(b, Colour.BLUE, 1))
    card = C(c, Colour.RED, 1)
    assert setup.can_give(hand, card) == (c == a)


def p_resolve_setup(players: int, tos: list[Destination]) -> None:
    """SETUP-RESOLVE: every seat giving its whole setup to the steps' destinations in any order
    (3-6 players three cards each; Devil's Eye four), every card lands where its destination says,
    every zone comes out in rank order, and no card is lost or added."""
    assert 2 <= players <= 6
    steps = _EYE_STEPS if players == 2 else _THREE_STEPS
    width = len(steps)
    assert len(tos) == width * players and all(
        Counter(tos[width * seat: width * seat + width]) == Counter(steps)
        for seat in range(players))
    cards = [C(rank, Colour.RED, 1) for rank in range(width * players, 0, -1)]
    held = tuple((C(100 + seat, Colour.RED, 1),) for seat in range(players))
    up = tuple((C(200 + seat, Colour.RED, 1),) for seat in range(players)) if players == 2 else None
    stand_ins = tuple(
        tuple(_G(seat, cards[width * seat + k], tos[width * seat + k]) for k in range(width))
        for seat in range(players)
    )
    config = Cfg(players, _deck(len(cards) + players), players == 2)
    hands, face_up_after, trick = setup.resolve_setup(config, held, up, stand_ins)
    face_up: Any = face_up_after
    for seat in range(players):
        assert held[seat][0] in hands[seat] and (up is None or up[seat][0] in face_up[seat])
        for k in range(width):
            card, to = cards[width * seat + k], tos[width * seat + k]
            if to is Destination.DEVILS_TRICK:
                assert card in trick
            elif to is Destination.LEFT:
                assert card in hands[(seat + 1) % players]
            elif to is Destination.RIGHT:
                assert card in hands[(seat - 1) % players]
            elif to is Destination.OPPONENT_FACE_UP:
                assert card in face_up[1 - seat]
            else:
                assert card in hands[1 - seat]
    zones = (*hands, *(face_up or ()), trick)
    assert all([c.rank for c in z] == sorted(c.rank for c in z) for z in zones)
    assert sorted(c.rank for z in zones for c in z) == sorted(
        c.rank for c in (*cards, *(c for h in held for c in h), *(c for u in up or () for c in u)))


_THREE_STEPS = (Destination.DEVILS_TRICK, Destination.LEFT, Destination.RIGHT)
_EYE_STEPS = (Destination.DEVILS_TRICK, Destination.DEVILS_TRICK, Destination.OPPONENT_FACE_UP,
              Destination.OPPONENT_HIDDEN)


class _G(NamedTuple):
    seat: int
    card: Any
    to: Destination


# -- play.py -----------------------------------------------------------------------------------


def p_first_leader(players: int, dealer: int) -> None:
    """FIRST-LEADER: the seat to the dealer's left leads."""
    assert 2 <= players <= 6 and 0 <= dealer < players
    assert play.first_leader(Cfg(players, (), False), dealer) == (dealer + 1) % players


def p_next_to_play(players: int, seat: int) -> None:
    """TURN-ORDER: play goes clockwise."""
    assert 2 <= players <= 6 and 0 <= seat < players
    assert play.next_to_play(Cfg(players, (), False), seat) == (seat + 1) % players


def p_led_colour(n: int, c0: Colour, c1: Colour) -> None:
    """FOLLOW-SUIT: the led colour is the first card's; none while the trick is empty."""
    assert 0 <= n <= 2
    trick = (_Played(0, C(1, c0, 1)), _Played(1, C(2, c1, 1)))[:n]
    assert play.led_colour(trick) == (c0 if n else None)


def p_holds(a: int, b: int, c: int) -> None:
    """CARD-HELD: a card is held if it is in the hand or among the face-up cards."""
    assert 0 < a < 40 and 0 < b < 40 and 0 < c < 40
    card = C(c, Colour.RED, 1)
    result = play.holds((C(a, Colour.RED, 1),), (C(b, Colour.RED, 1),), card)
    assert result == (c == a or c == b)


def _hand(colours: Sequence[Colour]) -> tuple[Any, ...]:
    return tuple(C(rank, colour, 1) for rank, colour in enumerate(colours, 1))


def p_follow_suit(colours: list[Colour], led: Colour | None) -> None:
    """FOLLOW-SUIT: the cards of the led colour if the hand has any, else the whole hand (and the
    whole hand to a leader); for hands of up to six cards of any colours."""
    assert 0 <= len(colours) <= 6
    hand = _hand(colours)
    result = play.follow_suit(hand, led)
    following = tuple(card for card in hand if card.colour is led)
    assert result == (following if led is not None and following else hand)


def p_follows_suit(colours: list[Colour], led: Colour | None, index: int) -> None:
    """FOLLOW-SUIT, stated of one card: "follow the led colour if you can; if you cannot, or you
    lead, play any card": playing a card of the hand is allowed exactly when the seat leads,
    the card has the led colour, or no card of the hand has it."""
    assert 1 <= len(colours) <= 6 and 0 <= index < len(colours)
    hand = _hand(colours)
    allowed = led is None or colours[index] is led or all(c is not led for c in colours)
    assert play.follows_suit(hand, led, hand[index]) == allowed


def p_devils_eye_playable(hidden: list[Colour], face_up: list[Colour], led: Colour | None) -> None:
    """EYE-FOLLOW-SUIT: "face-up cards must follow the led colour if the face-up cards hold it; a
    hidden card may always be played": the playable cards are every hidden card and each face-up
    card that is of the led colour, or is played to lead, or whose row holds no card of the led
    colour; listed in rank order; for up to four hidden and four face-up cards, their ranks
    interleaved."""
    assert len(hidden) <= 4 and len(face_up) <= 4
    hand, up = _eye_cards(hidden, face_up)
    result = play.devils_eye_playable(hand, up, led)
    row_follows = any(c is led for c in face_up)
    allowed = list(hand) + [card for card in up
                            if led is None or not row_follows or card.colour is led]
    assert sorted(result, key=_rank) == sorted(allowed, key=_rank)
    assert [c.rank for c in result] == sorted(c.rank for c in result)


def p_devils_eye_follows_suit(hidden: list[Colour], face_up: list[Colour], led: Colour | None,
                              index: int) -> None:
    """EYE-FOLLOW-SUIT, stated of one card: a hidden card may always be played; a face-up card
    when the seat leads, the card has the led colour, or no face-up card of the seat has it."""
    assert len(hidden) <= 3 and 1 <= len(face_up) <= 4
    assert 0 <= index < len(hidden) + len(face_up)
    hand, up = _eye_cards(hidden, face_up)
    card = (hand + up)[index]
    allowed = (index < len(hidden) or led is None or card.colour is led
               or all(c is not led for c in face_up))
    assert play.devils_eye_follows_suit(hand, up, led, card) == allowed


def _eye_cards(hidden: Sequence[Colour], face_up: Sequence[Colour]
               ) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Hidden cards of odd ranks 1, 3, ..., face-up cards of even ranks 2, 4, ...: interleaved, so
    that the rank order of the playable cards mixes both rows."""
    return (tuple(C(2 * k + 1, colour, 1) for k, colour in enumerate(hidden)),
            tuple(C(2 * k + 2, colour, 1) for k, colour in enumerate(face_up)))


def _bottle(price: int, owner: int) -> Bottle:
    return Bottle(None if price == 19 else C(price, Colour.RED, 1), None if price == 19 else owner)


def p_trick_price(n: int, p0: int, p1: int) -> None:
    """TRICK-PRICE: the highest price; with two bottles at the same price, the first."""
    assert 1 <= n <= 2 and 1 <= p0 <= 19 and 1 <= p1 <= 19
    bottles = (_bottle(p0, 0), _bottle(p1, 1))[:n]
    price, index = play.trick_price(bottles)
    assert price == max(p0, p1 if n == 2 else 0)
    assert index == (1 if n == 2 and p1 > p0 else 0)


def p_trick_winner(ranks: list[int], price: int) -> None:
    """TRICK-WINNER: "the highest card below the price wins; if none is below it, the highest
    card wins; colour never matters": for tricks of one to four cards of distinct ranks 1-60
    (never the 19, which is no card) and any price 1-19, the ranks symbolic, and each trick tried
    in every colouring of its cards by the three colours of a deck (concrete: the paths come from
    the ranks alone, so the colourings do not multiply them)."""
    assert 1 <= len(ranks) <= 4 and 1 <= price <= 19
    assert all(1 <= r <= 60 and r != 19 for r in ranks) and len(set(ranks)) == len(ranks)
    below = [r for r in ranks if r < price]
    expected = max(below) if below else max(ranks)
    for colours in product((Colour.YELLOW, Colour.BLUE, Colour.RED), repeat=len(ranks)):
        cards = tuple(C(r, colour, 1) for r, colour in zip(ranks, colours))
        assert ranks[play.trick_winner(cards, price)] == expected


def p_buys_bottle(rank: int, price: int) -> None:
    """BOTTLE-PURCHASE: a winning card below the price buys the bottle."""
    assert 1 <= rank <= 60 and 1 <= price <= 19
    assert play.buys_bottle(C(rank, Colour.RED, 1), price) == (rank < price)


def p_bottle_after_purchase(winner: int, rank: int) -> None:
    """BOTTLE-PURCHASE: the buyer owns the bottle and the winning card is its price card."""
    assert 0 <= winner <= 5 and 1 <= rank <= 18
    card = C(rank, Colour.RED, 1)
    bottle = play.bottle_after_purchase(winner, card)
    assert bottle.owner == winner and bottle.price_card is card


def p_returned_price_card(price: int, owner: int) -> None:
    """PRICE-CARD-RETURN: a bought bottle's price card goes to its former owner; the 19 to no one."""
    assert 1 <= price <= 19 and 0 <= owner <= 5
    bottle = _bottle(price, owner)
    returned = play.returned_price_card(bottle)
    assert returned == (None if price == 19 else (owner, bottle.price_card))


def p_captured_by_winner(n: int, winning: int, bought: bool) -> None:
    """TRICK-CAPTURE: the winner takes every card of the trick but a winning card that bought."""
    assert 1 <= n <= 4 and 0 <= winning < n
    cards = tuple(C(r, Colour.RED, 1) for r in range(1, n + 1))
    taken = play.captured_by_winner(cards, winning, bought)
    assert taken == (tuple(c for k, c in enumerate(cards) if k != winning) if bought else cards)


def p_next_leader(winner: int) -> None:
    """NEXT-LEADER: the trick's winner leads the next trick."""
    assert 0 <= winner <= 5
    assert play.next_leader(winner) == winner


@lru_cache(maxsize=None)
def _card(rank: float, colour: Colour, coins: int) -> Any:
    """A real card (``Play`` takes no stand-in), built once."""
    from bottleimp._cards import Card

    return Card(rank, colour, coins)


def p_resolve_trick(ranks: list[float], colours: list[Colour], leader: int, p0: float,
                    p1: float, owners: list[int], n_bottles: int) -> None:
    """The trick resolution, every part of its outcome stated from the rules' text
    (``spec/rules.toml``), not from the functions it composes:

    - TRICK-PRICE: the trick is judged against the highest bottle price, the first bottle at a
      tie of the two prices;
    - TRICK-WINNER: "the highest card below the price wins; if none is below it, the highest
      card wins; colour never matters" (ranks are exact: 2.5 is above 2);
    - BOTTLE-PURCHASE: a winning card below the price buys that bottle: its owner becomes the
      winner, the winning card lies under it as its new price; the other bottle is unchanged;
      with every card above the price no bottle changes;
    - PRICE-CARD-RETURN: the card that set the bought bottle's old price joins its former
      owner's captured cards (even when the former owner buys it again); the start card 19 goes
      to no one;
    - TRICK-CAPTURE: the winner adds the trick's cards to their captured cards, except a winning
      card that bought the bottle; no other seat's pile changes.

    A trick of ``len(ranks)`` players (one card each, distinct ranks, never 19 nor a price
    card's rank), led by ``leader`` and played clockwise, any colours; one or two bottles at
    prices ``p0``, ``p1`` (19: the start card, unowned) owned by ``owners``; every seat holds one
    captured card before the trick. Piles are compared as multisets (their order is no rule)."""
    players = len(ranks)
    assert 2 <= players <= 6 and len(colours) == players and 0 <= leader < players
    assert all(r != 19 for r in ranks) and len(set(ranks)) == players
    assert 1 <= n_bottles <= 2 and len(owners) == 2 and all(0 <= o < players for o in owners)
    assert p0 not in ranks and p1 not in ranks and (n_bottles == 1 or p0 != p1 or p0 == 19)
    seats = [(leader + k) % players for k in range(players)]
    cards = [_card(r, colour, 1 + k % 3) for k, (r, colour) in enumerate(zip(ranks, colours))]
    trick = tuple(Play(seat, card) for seat, card in zip(seats, cards))
    prices = [p0, p1][:n_bottles]
    bottles = tuple(Bottle() if p == 19 else Bottle(_card(p, Colour.RED, 2), owners[k])
                    for k, p in enumerate(prices))
    before = tuple((_card(100 + seat, Colour.BLUE, 1),) for seat in range(players))
    result, after, piles = play.resolve_trick(trick, bottles, before)
    # TRICK-PRICE
    price = max(prices)
    contested = prices.index(price)
    assert result.price_before == price
    # TRICK-WINNER: the card closest below the price, else the highest; never the colours.
    below = [k for k in range(players) if ranks[k] < price]
    winning = (max(below, key=lambda k: ranks[k]) if below
               else max(range(players), key=lambda k: ranks[k]))
    assert all(ranks[winning] > ranks[k] for k in (below or range(players)) if k != winning)
    winner = seats[winning]
    assert result.winner == winner and result.winning_card == cards[winning]
    assert result.plays == trick
    gains: list[list[Any]] = [[] for _ in range(players)]
    if below:
        # BOTTLE-PURCHASE
        assert result.bottle == contested and result.price_after == ranks[winning]
        assert after[contested] == Bottle(cards[winning], winner)
        assert all(after[k] == bottles[k] for k in range(n_bottles) if k != contested)
        # PRICE-CARD-RETURN
        old = bottles[contested]
        if old.price_card is not None:
            assert old.owner is not None
            gains[old.owner].append(old.price_card)
        # TRICK-CAPTURE: every card but the winning one, which lies under the bottle.
        gains[winner] += [card for k, card in enumerate(cards) if k != winning]
    else:
        assert result.bottle is None and result.price_after == price and after == bottles
        gains[winner] += cards
    assert len(piles) == players
    for seat in range(players):
        assert Counter(piles[seat]) == Counter(before[seat] + tuple(gains[seat])), seat


# -- scoring.py --------------------------------------------------------------------------------


def p_captured_points(coins: list[int]) -> None:
    """SCORE-CAPTURED: the coins of the captured cards."""
    assert len(coins) <= 4 and all(0 <= c <= 3 for c in coins)
    pile = tuple(C(k, Colour.RED, c) for k, c in enumerate(coins))
    assert scoring.captured_points(pile) == sum(coins)


def p_bottle_penalty(coins: list[int], owned: int) -> None:
    """SCORE-BOTTLE-PENALTY: minus the Devil's Trick's coins, once per bottle owned."""
    assert len(coins) <= 4 and all(0 <= c <= 3 for c in coins) and 0 <= owned <= 2
    trick = tuple(C(k, Colour.RED, c) for k, c in enumerate(coins))
    assert scoring.bottle_penalty(trick, owned) == -sum(coins) * owned


def p_individual_scores(owners: list[int], coins: list[int], penalty: int) -> None:
    """SCORE-INDIVIDUAL: 3 seats, 1-2 bottles owned by anyone or no one: an owner scores minus the
    Devil's Trick per bottle, every other seat its captured coins."""
    assert 1 <= len(owners) <= 2 and all(-1 <= o <= 2 for o in owners)
    assert len(coins) == 3 and all(0 <= c <= 9 for c in coins) and 0 <= penalty <= 9
    bottles = tuple(Bottle(None if o < 0 else C(5, Colour.RED, 1), None if o < 0 else o)
                    for o in owners)
    captured = tuple((C(s, Colour.RED, coins[s]),) for s in range(3))
    trick = (C(9, Colour.RED, penalty),)
    scores = scoring.individual_scores(3, captured, bottles, trick)
    for seat in range(3):
        owned = sum(1 for o in owners if o == seat)
        assert scores[seat] == (-penalty * owned if owned else coins[seat])


def p_team_scores(owner: int, coins: list[int], penalty: int) -> None:
    """SCORE-TEAMS: 5 seats in teams {0,3}{1,4}{2}: partners pool their coins unless either owns
    the bottle (then both take the penalty); the single doubles its result."""
    assert -1 <= owner <= 4 and len(coins) == 5 and all(0 <= c <= 9 for c in coins)
    assert 0 <= penalty <= 9
    teams = ((0, 3), (1, 4), (2,))
    bottles = (Bottle(None if owner < 0 else C(5, Colour.RED, 1), None if owner < 0 else owner),)
    captured = tuple((C(s, Colour.RED, coins[s]),) for s in range(5))
    trick = (C(9, Colour.RED, penalty),)
    scores = scoring.team_scores(teams, captured, bottles, trick)
    for team in teams:
        result = -penalty if owner in team else sum(coins[s] for s in team)
        for seat in team:
            assert scores[seat] == result * (2 if len(team) == 1 else 1)


def p_round_scores(teams: bool, owner: int) -> None:
    """SCORE-ROUND: team scores in team mode, individual scores otherwise (4 seats)."""
    assert 0 <= owner <= 3
    pairs = ((0, 2), (1, 3))
    config = Cfg(4, (), False, pairs if teams else None)
    bottles = (Bottle(C(5, Colour.RED, 1), owner),)
    captured = tuple((C(s, Colour.RED, 1),) for s in range(4))
    trick = (C(9, Colour.RED, 2),)
    expected = (scoring.team_scores(pairs, captured, bottles, trick) if teams
                else scoring.individual_scores(4, captured, bottles, trick))
    assert scoring.round_scores(config, captured, bottles, trick) == expected


def p_round_is_over(sizes: list[int], up: list[int], eye: bool) -> None:
    """ROUND-END: the round is over when no hand and no face-up row holds a card."""
    assert len(sizes) == 2 and len(up) == 2 and all(0 <= n <= 2 for n in sizes + up)
    hands = [tuple(range(n)) for n in sizes]
    face_up = [tuple(range(n)) for n in up] if eye else None
    expected = sum(sizes) == 0 and (not eye or sum(up) == 0)
    assert scoring.round_is_over(hands, face_up) == expected


# -- game.py -----------------------------------------------------------------------------------


def p_check_not_over(phase: Phase) -> None:
    """GAME-OVER: no action once the game is over; every other phase passes."""
    assert isinstance(phase, Phase)  # CrossHair's asserts mode needs a leading assert
    try:
        game.check_not_over(phase)
        assert phase is not Phase.GAME_OVER
    except IllegalActionError as error:
        assert phase is Phase.GAME_OVER and error.rule_id == "GAME-OVER"


def p_check_phase_admits(phase: Phase, kind: int) -> None:
    """PHASE: setup admits gives, trick play plays, between rounds the next deal; nothing else."""
    assert phase is not Phase.GAME_OVER and 0 <= kind <= 3
    card = C(3, Colour.RED, 1)
    action: object = (Give.__new__(Give), Play.__new__(Play), StartRound.__new__(StartRound),
                      card)[kind]
    del card
    admitted = {Phase.SETUP: 0, Phase.PLAY: 1, Phase.ROUND_OVER: 2}[phase]
    try:
        game.check_phase_admits(phase, action)
        assert kind == admitted
    except IllegalActionError as error:
        assert kind != admitted and error.rule_id == "PHASE"


def p_add_totals(totals: list[int], scores: list[int]) -> None:
    """GAME-TOTALS: each total plus the seat's round score."""
    assert 2 <= len(totals) <= 6 and len(scores) == len(totals)
    assert game.add_totals(tuple(totals), tuple(scores)) == tuple(
        t + s for t, s in zip(totals, scores))


def p_game_is_over(rounds: int, limit: int, target: int, use_target: bool,
                   totals: list[int]) -> None:
    """GAME-END: "the game ends after its configured number of rounds, or, with a target score,
    after the first round at whose end some seat's total has reached the target": over when
    ``rounds`` rounds have been played of ``limit``, or some seat's total is at the target or
    above it."""
    assert 1 <= rounds <= 20 and 1 <= limit <= 20 and 1 <= target <= 200 and len(totals) == 3
    config = Cfg(3, (), False, None, target if use_target else None,
                 None if use_target else limit)
    over = game.game_is_over(config, rounds, tuple(totals))
    reached = any(total >= target for total in totals)
    assert over == (reached if use_target else rounds >= limit)


def p_winners(totals: list[int]) -> None:
    """WINNERS: "every seat with the highest total wins; equal highest totals share the win": a
    seat wins exactly when no seat has a higher total; the winners listed in seat order."""
    assert 2 <= len(totals) <= 6
    won = game.winners(tuple(totals))
    assert list(won) == sorted(set(won))
    for seat, total in enumerate(totals):
        assert (seat in won) == all(other <= total for other in totals)


# -- finite domains: every input within the bounds, enumerated ----------------------------------


def _colour_rows(low: int, high: int) -> list[tuple[Colour, ...]]:
    """Every sequence of ``low`` to ``high`` colours."""
    return [row for n in range(low, high + 1) for row in product(tuple(Colour), repeat=n)]


_LEDS: tuple[Colour | None, ...] = (None, *Colour)


def d_dealt_counts() -> Iterator[tuple[Any, ...]]:
    for players in range(2, 7):
        for size in range(1, 241):
            if (players == 2 and size % 12 == 0) or (
                    players > 2 and size % players in (0, players - 1) and size // players >= 2):
                for dealer in range(players):
                    yield players, size, dealer


def d_setup_steps() -> Iterator[tuple[Any, ...]]:
    for players in range(2, 7):
        for size in range(1, 241):
            for dealer in range(players):
                for seat in range(players):
                    yield players, size, dealer, seat


def d_setup_to_act() -> Iterator[tuple[Any, ...]]:
    for players in range(3, 7):
        for size in (3 * players - 1, 3 * players, 4 * players - 1, 4 * players):
            for dealer in range(players):
                short = size % players != 0
                ranges = [range(3 if s == dealer and short else 4) for s in range(players)]
                for given in product(*ranges):
                    yield players, size, dealer, list(given)


def d_resolve_setup() -> Iterator[tuple[Any, ...]]:
    for players in range(2, 7):
        steps = _EYE_STEPS if players == 2 else _THREE_STEPS
        orders = sorted(set(permutations(steps)), key=str)
        for per_seat in product(orders, repeat=players):
            yield players, [to for order in per_seat for to in order]


def d_follow_suit() -> Iterator[tuple[Any, ...]]:
    for hand in _colour_rows(0, 6):
        for led in _LEDS:
            yield list(hand), led


def d_follows_suit() -> Iterator[tuple[Any, ...]]:
    for hand in _colour_rows(1, 6):
        for led in _LEDS:
            for index in range(len(hand)):
                yield list(hand), led, index


def d_devils_eye_playable() -> Iterator[tuple[Any, ...]]:
    ups = _colour_rows(0, 4)
    for hidden in _colour_rows(0, 4):
        for up in ups:
            for led in _LEDS:
                yield list(hidden), list(up), led


def d_devils_eye_follows_suit() -> Iterator[tuple[Any, ...]]:
    ups = _colour_rows(1, 4)
    for hidden in _colour_rows(0, 3):
        for up in ups:
            for led in _LEDS:
                for index in range(len(hidden) + len(up)):
                    yield list(hidden), list(up), led, index


_TRICK_RANKS = (1, 2, 2.5, 3, 12, 17.5, 18, 20, 20.5, 21, 36, 36.5)
"""Ranks of the tricks of ``p_resolve_trick``: below and above the start price 19, whole ranks
beside their halves (2 and 2.5, 20 and 20.5, 36 and 36.5: the 54-card deck's), so a rank
compared by its whole part ties."""


def d_resolve_trick() -> Iterator[tuple[Any, ...]]:
    """Every ordered pair and triple of ``_TRICK_RANKS`` against every price setting: one bottle
    at 19 or at a rank below 19 not in the trick, or two bottles at two such prices (both at 19
    included); and every set of four and of five in one order against every one-bottle price.
    Colours, the leader and the owners vary with the case (a rotating choice, so each appears
    with every winner)."""
    colour_rows = list(product(list(Colour)[:3], repeat=5))
    prices = (19, *(r for r in _TRICK_RANKS if r < 19))
    case = 0
    for n in (2, 3, 4, 5):
        tricks = permutations(_TRICK_RANKS, n) if n <= 3 else combinations(_TRICK_RANKS, n)
        for ranks in tricks:
            free = [p for p in prices if p not in ranks]
            settings: list[tuple[int, float, float]] = [(1, p, 19) for p in free]
            if n <= 3:
                settings += [(2, a, b) for a in free for b in free if a != b or a == 19]
            for n_bottles, p0, p1 in settings:
                case += 1
                owners = [case % n, (case // n) % n]
                colours = list(colour_rows[case % len(colour_rows)][:n])
                yield list(ranks), colours, case % n, p0, p1, owners, n_bottles


# -- CI's bounds for the properties CrossHair explores: every input of a finite domain ------------

_HALF_RANKS = (1, 2, 2.5, 17, 18, 18.5, 20, 20.5, 36, 36.5, 60)
"""Ranks of the CI domains of the trick's winner and the purchase: below and above the start
price, whole ranks beside their halves (a rank compared by its whole part ties)."""


def c_players_seat() -> Iterator[tuple[Any, ...]]:
    return ((players, seat) for players in range(2, 7) for seat in range(players))


def c_first_dealer() -> Iterator[tuple[Any, ...]]:
    return ((players, chosen) for players in range(2, 7) for chosen in range(-8, 9))


def c_three_ranks() -> Iterator[tuple[Any, ...]]:
    return product(range(1, 40), repeat=3)


def c_led_colour() -> Iterator[tuple[Any, ...]]:
    return ((n, c0, c1) for n in range(3) for c0 in Colour for c1 in Colour)


def c_trick_price() -> Iterator[tuple[Any, ...]]:
    return ((n, p0, p1) for n in (1, 2) for p0 in range(1, 20) for p1 in range(1, 20))


def c_trick_winner() -> Iterator[tuple[Any, ...]]:
    for price in (*range(1, 20), 2.5, 18.5):
        for n in (1, 2, 3):
            for ranks in permutations(_HALF_RANKS, n):
                yield list(ranks), price
        for ranks in combinations(_HALF_RANKS, 4):
            yield list(ranks), price


def c_buys_bottle() -> Iterator[tuple[Any, ...]]:
    ranks = sorted({*range(1, 61), *(r + 0.5 for r in range(1, 60))})
    return ((rank, price) for rank in ranks for price in (*range(1, 20), 2.5, 18.5))


def c_bottle_after_purchase() -> Iterator[tuple[Any, ...]]:
    return ((winner, rank) for winner in range(6) for rank in range(1, 19))


def c_returned_price_card() -> Iterator[tuple[Any, ...]]:
    return ((price, owner) for price in range(1, 20) for owner in range(6))


def c_captured_by_winner() -> Iterator[tuple[Any, ...]]:
    return ((n, winning, bought) for n in range(1, 5) for winning in range(n)
            for bought in (False, True))


def c_next_leader() -> Iterator[tuple[Any, ...]]:
    return ((winner,) for winner in range(6))


def _coin_rows() -> list[list[int]]:
    return [list(row) for n in range(5) for row in product(range(4), repeat=n)]


def c_captured_points() -> Iterator[tuple[Any, ...]]:
    return ((row,) for row in _coin_rows())


def c_bottle_penalty() -> Iterator[tuple[Any, ...]]:
    return ((row, owned) for row in _coin_rows() for owned in range(3))


def c_individual_scores() -> Iterator[tuple[Any, ...]]:
    owner_rows = [list(row) for n in (1, 2) for row in product(range(-1, 3), repeat=n)]
    return ((owners, list(coins), penalty) for owners in owner_rows
            for coins in product(range(4), repeat=3) for penalty in (0, 1, 4, 9))


def c_team_scores() -> Iterator[tuple[Any, ...]]:
    return ((owner, list(coins), penalty) for owner in range(-1, 5)
            for coins in product(range(3), repeat=5) for penalty in (0, 1, 9))


def c_round_scores() -> Iterator[tuple[Any, ...]]:
    return ((teams, owner) for teams in (False, True) for owner in range(4))


def c_round_is_over() -> Iterator[tuple[Any, ...]]:
    return ((list(row[:2]), list(row[2:]), eye) for row in product(range(3), repeat=4)
            for eye in (False, True))


def c_check_not_over() -> Iterator[tuple[Any, ...]]:
    return ((phase,) for phase in Phase)


def c_check_phase_admits() -> Iterator[tuple[Any, ...]]:
    return ((phase, kind) for phase in Phase if phase is not Phase.GAME_OVER
            for kind in range(4))


def c_add_totals() -> Iterator[tuple[Any, ...]]:
    for n in (2, 3):
        for row in product(range(-2, 3), repeat=2 * n):
            yield list(row[:n]), list(row[n:])
    for n in (4, 5, 6):
        for k in range(-3, 4):
            yield [k * s for s in range(n)], [s - k for s in range(n)]


def c_game_is_over() -> Iterator[tuple[Any, ...]]:
    for rounds in range(1, 21):
        for limit in range(1, 21):
            yield rounds, limit, 1, False, [0, 0, 0]
    values = (-10, 0, 4, 5, 6, 49, 50, 51, 199, 200)
    for target in (1, 5, 50, 200):
        for totals in product(values, repeat=3):
            yield 1, 1, target, True, list(totals)


def c_winners() -> Iterator[tuple[Any, ...]]:
    return ((list(row),) for n in range(2, 7) for row in product(range(-1, 3), repeat=n))


def d_shuffle_paths() -> Iterator[tuple[Any, ...]]:
    for size in range(1, 8):
        yield (size,)


@dataclass(frozen=True)
class Property:
    """A rule function, the property that checks it and how it is checked: CrossHair's symbolic
    exploration, every input of a finite domain (``domain``, described by ``bounds``), or a
    proof by the Z3 solver over 64-bit vectors (``proof``)."""

    module: str
    function: str
    check: Callable[..., Any]
    domain: Callable[[], Iterable[tuple[Any, ...]]] | None = None
    bounds: str = ""
    proof: Callable[[], Outcome] | None = None
    ci_domain: Callable[[], Iterable[tuple[Any, ...]]] | None = None
    """CI's bounds for a property CrossHair explores: every input of this finite domain, run."""
    ci_bounds: str = ""

    @property
    def name(self) -> str:
        return f"{self.module}.{self.function}"

    @property
    def method(self) -> str:
        return "z3" if self.proof else ("enumeration" if self.domain else "crosshair")


@dataclass
class Outcome:
    """What CrossHair found for one property."""

    name: str
    status: str
    paths: int
    completed: bool
    counterexample: str
    seconds: float


def explore(prop: Property, timeout: float) -> Outcome:
    """Explore every path of ``prop`` for at most ``timeout`` seconds."""
    # CrossHair: the ``symbolic`` extra (not needed by ``--ci``).
    import crosshair.core as core  # type: ignore[import-not-found,unused-ignore]
    import crosshair.core_and_libs  # type: ignore[import-not-found,unused-ignore]  # noqa: F401
    from crosshair.core import analyze_function  # type: ignore[import-not-found,unused-ignore]
    from crosshair.options import (  # type: ignore[import-not-found,unused-ignore]
        AnalysisKind,
        AnalysisOptionSet,
    )

    found: dict[str, Any] = {}
    explore_loop, analyze_calltree = core.explore_loop, core.analyze_calltree

    def counting_loop(*args: Any, **kwargs: Any) -> Any:
        result = explore_loop(*args, **kwargs)
        found["paths"] = found.get("paths", 0) + result.iterations
        found["exhausted"] = result.exhausted
        return result

    core.explore_loop = counting_loop
    started = time.perf_counter()
    messages: list[Any] = []
    try:
        options = AnalysisOptionSet(analysis_kind=[AnalysisKind.asserts],
                                    per_condition_timeout=timeout, per_path_timeout=timeout / 4,
                                    max_uninteresting_iterations=sys.maxsize)
        for checkable in analyze_function(prop.check, options):
            messages.extend(checkable.analyze())
    finally:
        core.explore_loop, core.analyze_calltree = explore_loop, analyze_calltree
    failures = [m for m in messages if m.state.name in _REFUTED | _ERRORS]
    counterexample = "; ".join(m.message for m in failures)[:200]
    completed = bool(found.get("exhausted")) and not failures
    status = ("error" if any(m.state.name in _ERRORS for m in failures) else "refuted"
              if failures else ("verified" if completed else "not completed"))
    return Outcome(prop.name, status, found.get("paths", 0), completed, counterexample,
                   time.perf_counter() - started)


_REFUTED = {"POST_FAIL"}
"""CrossHair's message kind that reports a counterexample: an assertion of the property fails."""
_ERRORS = {"POST_ERR", "EXEC_ERR", "PRE_UNSAT", "SYNTAX_ERR", "IMPORT_ERR"}
"""CrossHair's message kinds for a property that raised or cannot run: a failure of the pass, not
a refutation (``CANNOT_CONFIRM`` only says the exploration stopped before it was complete)."""


_WIDE = 256
"""The width of the bit-vectors that stand for Python integers in the proof of ``splitmix64``.
From a state below 2^64, no value the function computes reaches 2^194 even with every one of its
masks dropped (a sum below 2^65, two products by constants below 2^64), so at 256 bits nothing
wraps: the bit-vector computes what Python's unbounded integers compute, and a dropped mask shows
as a value of 64 bits or more instead of vanishing in a wrap-around."""


class _PyInt:
    """A non-negative Python integer below 2^``_WIDE`` as a Z3 bit-vector of that width, with the
    operators ``splitmix64`` uses: ``+``, ``*``, ``^``, ``&`` and ``>>`` (logical: the values are
    non-negative), each exact because nothing reaches the width (see ``_WIDE``)."""

    def __init__(self, term: Any) -> None:
        self.term = term

    @staticmethod
    def _of(other: Any) -> Any:
        import z3  # type: ignore[import-untyped,unused-ignore]

        if isinstance(other, _PyInt):
            return other.term
        assert 0 <= other < 2**_WIDE
        return z3.BitVecVal(other, _WIDE)

    def __add__(self, other: Any) -> _PyInt:
        return _PyInt(self.term + self._of(other))

    def __mul__(self, other: Any) -> _PyInt:
        return _PyInt(self.term * self._of(other))

    def __xor__(self, other: Any) -> _PyInt:
        return _PyInt(self.term ^ self._of(other))

    def __and__(self, other: Any) -> _PyInt:
        return _PyInt(self.term & self._of(other))

    def __rshift__(self, bits: int) -> _PyInt:
        import z3  # type: ignore[import-untyped,unused-ignore]

        return _PyInt(z3.LShR(self.term, bits))


def prove_splitmix64() -> Outcome:
    """Run the library's ``splitmix64`` on a symbolic state, every value below 2^64 at once, with
    Python's integer arithmetic (``_PyInt``: bit-vectors too wide to wrap), and ask Z3 whether any
    state gives another next state or output than the published SplitMix64 step, written here from
    its definition in 64-bit arithmetic (Z3's own 64-bit operators, which wrap) and widened; then
    prove each of the step's six stages a bijection of the 64-bit numbers by its inverse
    (subtracting the increment; a product by the odd constant's inverse mod 2^64; ``x ^ x>>k``
    undone by ``x ^ x>>k ^ x>>2k ...``), so that the state update and the output mixing are
    bijections. Each claim is proved by finding its negation unsatisfiable."""
    import z3  # type: ignore[import-untyped,unused-ignore]

    started = time.perf_counter()
    x, y = z3.BitVec("state", 64), z3.BitVec("y", 64)
    nxt, out = cast(Any, deal.splitmix64)(_PyInt(z3.ZeroExt(_WIDE - 64, x)))
    spec_next = x + 0x9E3779B97F4A7C15
    z = (spec_next ^ z3.LShR(spec_next, 30)) * 0xBF58476D1CE4E5B9
    z = (z ^ z3.LShR(z, 27)) * 0x94D049BB133111EB
    spec_out = z ^ z3.LShR(z, 31)

    def unshift(value: Any, bits: int) -> Any:
        result = value
        for k in range(bits, 64, bits):
            result = result ^ z3.LShR(value, k)
        return result

    def widened(term: Any) -> Any:
        return z3.ZeroExt(_WIDE - 64, term)

    claims = [nxt.term == widened(spec_next), out.term == widened(spec_out),
              (y + 0x9E3779B97F4A7C15) - 0x9E3779B97F4A7C15 == y]
    claims += [unshift(y ^ z3.LShR(y, bits), bits) == y for bits in (30, 27, 31)]
    claims += [(y * odd) * pow(odd, -1, 2**64) == y
               for odd in (0xBF58476D1CE4E5B9, 0x94D049BB133111EB)]
    failed = ""
    for number, claim in enumerate(claims):
        solver = z3.Solver()
        solver.add(z3.Not(claim))
        verdict = solver.check()
        if verdict != z3.unsat:
            shown = ""
            if verdict == z3.sat:
                state = solver.model().eval(x, model_completion=True).as_long()
                shown = f" at state {state}: splitmix64 gives {deal.splitmix64(state)}"
            failed = f"claim {number}: {verdict}{shown}"
            break
    status = "refuted" if failed else "verified"
    return Outcome("deal.splitmix64", status, len(claims), not failed, failed,
                   time.perf_counter() - started)


def enumerate_domain(prop: Property, domain: Callable[[], Iterable[tuple[Any, ...]]] | None = None
                     ) -> Outcome:
    """Run ``prop`` on every input of its finite domain (or of ``domain``). The first input whose
    property fails an assertion of the property is a counterexample (``refuted``); any other
    exception, raised in the rule code or in the property, is an ``error``: a failure of the pass,
    never counted as a refutation. A property may return how many cases one input stands for (the
    paths of ``p_shuffle_paths``)."""
    chosen = domain or prop.domain
    assert chosen is not None
    started = time.perf_counter()
    cases = 0
    for args in chosen():
        try:
            ran = prop.check(*args)
        except Exception as error:  # noqa: BLE001 - reported, never raised past the pass
            shown = ", ".join(map(repr, args))
            status = "refuted" if _assertion_of_the_property(error) else "error"
            return Outcome(prop.name, status, cases, False,
                           f"{prop.check.__name__}({shown}): {type(error).__name__} {error}"[:300],
                           time.perf_counter() - started)
        cases += ran if isinstance(ran, int) else 1
    return Outcome(prop.name, "verified", cases, True, "", time.perf_counter() - started)


def _assertion_of_the_property(error: Exception) -> bool:
    """Whether ``error`` is an ``assert`` of a property of this file failing (a refutation), not an
    exception of the code under check (nor an ``assert`` inside it)."""
    if not isinstance(error, AssertionError):
        return False
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and Path(frames[-1].filename).resolve() == Path(__file__).resolve()


def check(prop: Property, method: str, timeout: float) -> Outcome:
    """Check ``prop`` by ``method``: ``own`` (its own method), ``crosshair`` (CrossHair for every
    property) or ``ci`` (no CrossHair: each property CrossHair explores is run on every input of
    its CI domain; the others by their own method)."""
    if method == "ci":
        if prop.proof is not None:
            return prop.proof()
        return enumerate_domain(prop, prop.ci_domain or prop.domain)
    if method == "crosshair" or prop.method == "crosshair":
        return explore_in_child(prop, timeout)
    if prop.proof is not None:
        return prop.proof()
    return enumerate_domain(prop)


def method_of(prop: Property, method: str) -> str:
    """The method ``check`` uses for ``prop`` when asked for ``method``."""
    if method == "crosshair":
        return "crosshair"
    if method == "ci" and prop.method == "crosshair":
        return "enumeration"
    return prop.method


def bounds_of(prop: Property, method: str) -> str:
    """The bounds ``check`` checks ``prop`` within when asked for ``method``."""
    if method == "ci" and prop.ci_domain is not None:
        return prop.ci_bounds
    return prop.bounds or "the leading asserts of its property"


_EYE = "hidden cards {h}, face-up cards {u}, of any of the 4 colours each, led colour any or none"
def _crosshair(module: str, check: Callable[..., Any], ci_domain: Callable[[], Iterable[Any]],
               ci_bounds: str) -> Property:
    """A property CrossHair explores, with the finite domain CI runs it on."""
    return Property(module, check.__name__[2:], check, ci_domain=ci_domain, ci_bounds=ci_bounds)


PROPERTIES: tuple[Property, ...] = (
    _crosshair("config", p_card_rank, c_card_rank,
               "every whole rank 1-60 as an int and as a float, and its half"),
    Property("config", "edition_deck", p_edition_deck, c_edition_deck,
             "both editions, 2-6 players: every card of every deck"),
    _crosshair("config", p_config_players, c_config_players, "players -2 to 9"),
    Property("config", "config_edition", p_config_edition, c_config_edition,
             "classic, matagot-2024 and an unknown edition, 2-6 players, with a custom deck or not"),
    _crosshair("config", p_config_bottles, c_config_bottles, "bottles -1 to 4, 2-6 players"),
    Property("config", "config_teams", p_config_teams, c_config_teams,
             "every partition of the seats of 2-6 players into blocks of any size, with a seat "
             "left out or named twice, 1 or 2 bottles"),
    Property("config", "config_game_end", p_config_game_end, c_config_game_end,
             "rounds and target each none, -1, 0, 1, 2 or 9"),
    Property("config", "config_deck", p_config_deck, c_config_deck,
             "2-6 players, custom decks of 1-40 cards, with the 19 or a rank twice or neither"),
    Property("deal", "splitmix64", p_splitmix64, proof=prove_splitmix64,
             bounds="every 64-bit state (2^64), the code run on Z3 bit-vectors"),
    Property("deal", "shuffle", p_shuffle_paths, d_shuffle_paths,
             "decks of 1-7 cards, every path of draws (each index, rejected first or not)"),
    _crosshair("deal", p_first_dealer, c_first_dealer, "2-6 players, every number -8 to 8"),
    _crosshair("deal", p_next_dealer, c_players_seat, "2-6 players, every dealer"),
    Property("deal", "deal", p_deal, d_deal,
             "2-6 players, decks of 8-24 cards, 4 seeds (one above 2^63), rounds 0, 1, 5, every "
             "dealer; the shuffle itself is the property of deal.shuffle"),
    Property("deal", "check_deal", p_check_deal, d_check_deal,
             "3 players with 8 and 9 cards, every dealer, every assignment of the cards "
             "to the seats; a card twice, a foreign card, an extra hand"),
    Property("deal", "dealt_counts", p_dealt_counts, d_dealt_counts,
             "2-6 players, every deck of 1-240 cards Config accepts, every dealer"),
    Property("setup", "setup_steps", p_setup_steps, d_setup_steps,
             "2-6 players, decks of 1-240 cards, every dealer and seat"),
    Property("setup", "setup_to_act", p_setup_to_act, d_setup_to_act,
             "3-6 players, decks of 3p-1, 3p, 4p-1, 4p cards, every dealer, every count of "
             "gives per seat"),
    _crosshair("setup", p_can_give, c_three_ranks, "every two-card hand and card of ranks 1-39"),
    Property("setup", "resolve_setup", p_resolve_setup, d_resolve_setup,
             "2 players (Devil's Eye) and 3-6 players, every order of every seat's destinations"),
    _crosshair("play", p_first_leader, c_players_seat, "2-6 players, every dealer"),
    _crosshair("play", p_next_to_play, c_players_seat, "2-6 players, every seat"),
    _crosshair("play", p_led_colour, c_led_colour, "tricks of 0-2 cards, every colour"),
    _crosshair("play", p_holds, c_three_ranks, "every hand, face-up card and card of ranks 1-39"),
    Property("play", "follow_suit", p_follow_suit, d_follow_suit,
             "hands of 0-6 cards of any of the 4 colours, led colour any or none"),
    Property("play", "follows_suit", p_follows_suit, d_follows_suit,
             "hands of 1-6 cards of any colours, every card of the hand, led any or none"),
    Property("play", "devils_eye_playable", p_devils_eye_playable, d_devils_eye_playable,
             _EYE.format(h="0-4", u="0-4")),
    Property("play", "devils_eye_follows_suit", p_devils_eye_follows_suit,
             d_devils_eye_follows_suit, _EYE.format(h="0-3", u="1-4") + ", every card"),
    _crosshair("play", p_trick_price, c_trick_price, "1-2 bottles, every price 1-19 each"),
    _crosshair("play", p_trick_winner, c_trick_winner,
               "tricks of 1-3 cards in every order and every set of 4, from 11 ranks with halves "
               "(1, 2, 2.5, 17, 18, 18.5, 20, 20.5, 36, 36.5, 60), prices 1-19, 2.5, 18.5, "
               "every colouring"),
    _crosshair("play", p_buys_bottle, c_buys_bottle,
               "every rank and half rank 1-60 against prices 1-19, 2.5, 18.5"),
    _crosshair("play", p_bottle_after_purchase, c_bottle_after_purchase,
               "every seat 0-5, every rank 1-18"),
    _crosshair("play", p_returned_price_card, c_returned_price_card,
               "every price 1-19, every owner 0-5"),
    _crosshair("play", p_captured_by_winner, c_captured_by_winner,
               "tricks of 1-4 cards, every winning card, bought or not"),
    _crosshair("play", p_next_leader, c_next_leader, "every seat 0-5"),
    Property("play", "resolve_trick", p_resolve_trick, d_resolve_trick,
             "tricks of 2-5 cards from 12 ranks with halves (1, 2, 2.5, 3, 12, 17.5, 18, 20, "
             "20.5, 21, 36, 36.5): every ordered pair and triple against one bottle at 19 or a "
             "free rank below it, or two at any two; every set of 4 and 5 against one bottle; "
             "leader, colours, owners rotated"),
    _crosshair("scoring", p_captured_points, c_captured_points, "piles of 0-4 cards of 0-3 coins"),
    _crosshair("scoring", p_bottle_penalty, c_bottle_penalty,
               "Devil's Tricks of 0-4 cards of 0-3 coins, 0-2 bottles owned"),
    _crosshair("scoring", p_individual_scores, c_individual_scores,
               "1-2 bottles owned by any of 3 seats or no one, captured coins 0-3 a seat, "
               "penalties 0, 1, 4, 9"),
    _crosshair("scoring", p_team_scores, c_team_scores,
               "the bottle owned by any of 5 seats or no one, captured coins 0-2 a seat, "
               "penalties 0, 1, 9"),
    _crosshair("scoring", p_round_scores, c_round_scores, "teams or not, every owner of 4"),
    _crosshair("scoring", p_round_is_over, c_round_is_over,
               "2 hands and 2 face-up rows of 0-2 cards, Devil's Eye or not"),
    _crosshair("game", p_check_not_over, c_check_not_over, "every phase"),
    _crosshair("game", p_check_phase_admits, c_check_phase_admits,
               "every phase before the end, every kind of action and a non-action"),
    _crosshair("game", p_add_totals, c_add_totals,
               "2-3 seats, totals and scores -2 to 2; 4-6 seats, 7 rows"),
    _crosshair("game", p_game_is_over, c_game_is_over,
               "rounds and limits 1-20; targets 1, 5, 50, 200 against every 3 totals of 10 "
               "values around them"),
    _crosshair("game", p_winners, c_winners, "2-6 seats, totals -1 to 2"),
)
"""Every rule function of ``bottleimp/rules/`` has a property, and ``resolve_trick`` (which
composes the trick's rules) one of its own; ``check_deal`` and ``receiving_seat`` are checked
through the deal's and the setup's properties."""


def explore_in_child(prop: Property, timeout: float) -> Outcome:
    """``explore`` in a child process, killed after five times the time bound: CrossHair's own
    bound counts the process's CPU seconds, which on a loaded machine take longer to pass."""
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, __file__, "--one", prop.name, "--timeout", str(timeout)],
            capture_output=True, text=True, timeout=5 * timeout + 30, check=False,
        )
    except subprocess.TimeoutExpired:
        return Outcome(prop.name, "not completed (killed at the hard time bound)", 0, False, "",
                       time.perf_counter() - started)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return Outcome(prop.name, "error", 0, False, done.stderr.strip()[-200:],
                       time.perf_counter() - started)
    return Outcome(**json.loads(lines[-1]))


RESTATES_ITS_BODY = frozenset({
    "deal.next_dealer", "deal.first_dealer", "setup.can_give", "play.first_leader",
    "play.next_to_play", "play.led_colour", "play.holds", "play.buys_bottle",
    "play.bottle_after_purchase", "play.next_leader", "scoring.captured_points",
    "scoring.bottle_penalty", "game.check_not_over", "game.add_totals",
})
"""Properties that say what a one-line function's body already says (``next_leader`` is the
identity, ``bottle_after_purchase`` a constructor): they hold trivially and are, in effect, a
check of the types and of the function's name for its rule, not evidence about the rule."""

CONSISTENCY = frozenset({"scoring.round_scores"})
"""Properties that compare one function of the code with others (``round_scores`` with
``team_scores`` and ``individual_scores``): evidence that the code agrees with itself, not
about the rule."""


def claim_of(prop: Property) -> str:
    """``restates``, ``consistency`` or ``rule``: the last for a property that states its rule
    from the text of ``spec/rules.toml``, independently of the code, against a body that
    computes it another way."""
    if prop.name in RESTATES_ITS_BODY:
        return "restates"
    return "consistency" if prop.name in CONSISTENCY else "rule"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="rule functions (module.function; default all)")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="CPU seconds of exploration per function (default 60)")
    parser.add_argument("--method", choices=("own", "crosshair", "ci"), default="own",
                        help="each function's own method (default), CrossHair for every one, or "
                             "ci: every property on its CI domain, no CrossHair")
    parser.add_argument("--ci", action="store_const", const="ci", dest="method",
                        help="the same as --method ci (what .ci/run runs)")
    parser.add_argument("--json", metavar="FILE",
                        help="also write every outcome, its claim, method and bounds to FILE")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.one:
        (prop,) = [p for p in PROPERTIES if p.name == args.one]
        print(json.dumps(asdict(explore(prop, args.timeout))))
        return 0
    known = {p.name for p in PROPERTIES} | {p.function for p in PROPERTIES}
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"unknown rule function(s) {unknown}")
    chosen = [p for p in PROPERTIES if not args.names or p.name in args.names
              or p.function in args.names]
    print(f"{'rule function':32} {'claim':11} {'method':11} {'cases':>9} {'complete':>9} "
          f"{'seconds':>8}  result", flush=True)
    failed = 0
    rows = []
    for prop in chosen:
        outcome = check(prop, args.method, args.timeout)
        method = method_of(prop, args.method)
        failed += outcome.status in ("refuted", "error") or (
            args.method == "ci" and outcome.status != "verified")
        claim = claim_of(prop)
        print(f"{outcome.name:32} {claim:11} {method:11} {outcome.paths:>9} "
              f"{'yes' if outcome.completed else 'no':>9} {outcome.seconds:>8.1f}  "
              f"{outcome.status} {outcome.counterexample}", flush=True)
        rows.append({**asdict(outcome), "claim": claim, "method": method,
                     "bounds": bounds_of(prop, args.method)})
    if args.json:
        Path(args.json).write_text(json.dumps({"format": "bottleimp-symbolic-pass", "version": 1,
                                               "method": args.method, "properties": rows},
                                              indent=1) + "\n")
    print(f"{len(chosen) - failed} of {len(chosen)} properties verified" +
          (f"; {failed} refuted or failed" if failed else ""), flush=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

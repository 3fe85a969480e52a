"""Exhaustive checking of small games: every state reachable from the chosen deals, every check.

A configuration (``Exhaustive``) names a small custom deck, the deals to start from (``deals``:
every deal of the deck, ``None``, or the listed indices of the fixed enumeration order of
``bottleimp.perft.deals``), the dealers (seat 0 only where seat rotation makes the
other dealers equivalent: see *Reductions* below) and where the walk starts (``after``: that many
first-legal actions after the deal; 0 is the deal itself, so every setup choice is walked). The
way from the deal to a start (the dealt state and those first-legal actions) gets the same checks
as the walk, its states counted apart (``Summary.prefix_states``). From
each start ``walk`` visits every reachable state to the end of the game (or of the rounds the
configuration walks) and calls a visitor for every transition: the hook other checkers use
(``transitions(spec)`` iterates the same transitions).

The checks (``Checker``), at level ``full``:

- at every state, every state check of the Hypothesis state machines
  (``tests/test_state_machine.py``, against the restatement in ``tests/invariants.py``): zones
  partition the deck, bottles, hand sizes, the seat to act and exactly the legal actions, totals
  and the game's end, the JSON round trip, every seat's view, and the refusal of each kind of
  illegal action with its rule ID;
- at every transition, the transition checks of the machines (follow suit, trick judgement,
  setup resolution, scoring, dealer rotation, the first leader, the trick's price), and
  ``check_seeded_deal`` at every state whose round was dealt from the seed (the game's first
  state before ``with_deal`` replaces the deal, and every round a ``StartRound`` deals);
- every state refuses the actions legal in its parent but not in it, and the actions legal in
  each of its siblings (every other child of its parent) but not in it, after ``legal_actions``
  of both states in either order (the one-entry legality cache of ``apply``).

Level ``sweep`` (for the runs over every deal, where ``full`` would take hours) keeps every
transition check, the legal actions against the restatement, zones, bottles, hand sizes, totals,
``check_seeded_deal`` and the parent and sibling refusals, and leaves out the three costliest
state checks: the JSON round trip, the views and the catalogue of illegal actions.

Counters record what the walk reached (bottles bought, a bottle changing hands, an old price card
returned, for each bottle; a trick with every card above the price; a half rank played; a trick
holding a whole rank and its half; a game ended at the target score; a round dealt from the seed;
a second round dealt with 5 or 6 players); a configuration lists the counters it
must reach (``requires``) and the run fails if one stays at 0.

Reductions. The rules never name a seat except relative to the dealer (the first leader, setup
order and left/right, the short dealer), so rotating every seat by ``k`` together with the dealer
maps the game of a deal by dealer ``d`` onto the game of the rotated deal by dealer ``d + k``,
state by state, scores rotated. Configurations whose teams are unchanged by a rotation (none, or
partners opposite with 4 or 6 players) therefore walk dealer 0's deals only; ``--rotation NAME``
checks the claim by walking every deal of every dealer and comparing each tree's size, its
terminal states and their (rotated) round scores with those of the rotated deal by dealer 0.
Colours are not renamed: every card has its own rank, so renaming colours maps a deck to another
deck, never onto itself.

Run from the repository root: ``python scripts/exhaustive.py`` (the CI set), ``--all`` (every
configuration), ``NAME ...`` (those named), ``--list``, ``--rotation NAME``, ``--sizes NAME``
(how many states every deal of a configuration has, counted without checks).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

REPO = Path(__file__).resolve().parent.parent
for _path in (str(REPO), str(REPO / "tests")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bottleimp import (  # noqa: E402
    Action,
    Card,
    Colour,
    Config,
    Destination,
    GameState,
    Phase,
    Play,
    StartRound,
    apply,
    legal_actions,
    new_game,
    with_deal,
)
from bottleimp.perft import Deal, deal_at, deal_count, deals  # noqa: E402
from bottleimp._errors import BottleImpError  # noqa: E402

import test_state_machine as machine  # type: ignore[import-not-found,unused-ignore]  # noqa: E402

_Y, _B, _R = Colour.YELLOW, Colour.BLUE, Colour.RED

Visit = Callable[[GameState | None, Action | None, GameState], None]
"""``visit(before, action, after)`` for every transition; ``(None, None, start)`` first."""

_RANKS = [3, 21, 7, 12, 26, 5, 16, 9, 30, 14, 2, 11, 18, 24, 6, 10, 33, 15, 4, 8, 13, 1, 17, 20,
          22, 23]


def small_deck(
    size: int, colours: Sequence[Colour] = (_Y, _B, _R), ranks: Sequence[float] = _RANKS
) -> tuple[Card, ...]:
    """``size`` cards with distinct ranks, colours dealt round, coins 1-3: most ranks below the
    start price 19 (so bottles change hands) and some above it (tricks that buy nothing)."""
    assert size <= len(ranks)
    return tuple(
        Card(rank, colours[index % len(colours)], 1 + index % 3)
        for index, rank in enumerate(ranks[:size])
    )


def _config(players: int, size: int, ranks: Sequence[float] = _RANKS, **options: Any) -> Config:
    colours = (_Y, _B) if players == 3 and size <= 9 else (_Y, _B, _R)
    return Config(players=players, deck=small_deck(size, colours, ranks), **options)


@dataclass(frozen=True)
class Exhaustive:
    """One configuration walked exhaustively from its deals.

    ``deals``: ``None`` for every deal of the deck, else the indices of the deals (in the order of
    ``perft.deals``). ``dealers``: the seats that deal the walked round (each deals round 0 of a
    game started with ``first_dealer``). ``after``: the walk starts after that many actions of
    each deal, the first legal action each time. ``rounds_walked``: states of later rounds are
    checked but not expanded (a game to a target score could otherwise go on without end).
    ``requires``: counters the walk must reach."""

    name: str
    config: Config
    deals: tuple[int, ...] | None = None
    dealers: tuple[int, ...] = (0,)
    after: int = 0
    rounds_walked: int | None = None
    level: Literal["full", "sweep"] = "full"
    requires: tuple[str, ...] = ()
    ci: bool = False
    note: str = ""
    transpositions: bool = False
    """Walk each position once (``position_key``): see *Transpositions* in the module's doc."""

    def deal_total(self) -> int:
        """How many deals of the deck the walked dealers have in all."""
        return sum(deal_count(self.config, dealer) for dealer in self.dealers)


_3P_HALF = [3.5, 21, 7, 12.5, 26, 5, 16.5, 9]
_5P_2B = [3, 21, 7, 12, 26, 5, 16, 9, 30, 14, 2, 11, 18, 24, 6, 10, 33, 15, 4, 8, 13, 1, 17, 20]
_TWO_BOTTLE_EVENTS = ("bought 0", "bought 1", "changed hands 0", "changed hands 1",
                      "price card returned 0", "price card returned 1", "every card above price",
                      "trick at a tie of the two prices")

def _from_the_54_card_deck(ranks: Sequence[float]) -> tuple[Card, ...]:
    """The cards of these ranks of the Matagot 2024 54-card deck (colours and coins its own)."""
    from bottleimp._editions import MATAGOT_2024_54

    by_rank = {card.rank: card for card in MATAGOT_2024_54}
    return tuple(by_rank[rank] for rank in ranks)


_54_PAIRS = (2, 2.5, 12, 12.5, 20, 20.5, 36, 36.5)
"""Ranks of the 54-card deck in pairs of a whole rank and its half, below the start price and
above it: a trick holding both tells the exact ranks from their whole parts."""

CONFIGURATIONS: tuple[Exhaustive, ...] = (
    # -- The CI set (tests/test_exhaustive.py): a few deals each, chosen to reach the events. --
    Exhaustive("3p-8cards", _config(3, 8, rounds=1), deals=(277,), ci=True,
               note="whole round from the deal: every setup choice, every play"),
    Exhaustive("3p-8cards-half-ranks", _config(3, 8, _3P_HALF, rounds=1), deals=(91,),
               requires=("half rank played",), ci=True, note="whole round, half ranks"),
    Exhaustive("3p-8cards-target", _config(3, 8, target_score=4), deals=(140,), rounds_walked=1,
               requires=("game over at the target", "round dealt from the seed"), ci=True,
               note="whole round 1; round 2 dealt from the seed, checked, not walked"),
    Exhaustive("3p-8cards-2rounds", _config(3, 8, rounds=2), deals=(300,), after=12,
               requires=("round dealt from the seed",), ci=True,
               note="end of round 1, then all of round 2 from the seeded deal"),
    Exhaustive("2p-devils-eye", _config(2, 12, rounds=1), deals=(0, 103950), after=8, ci=True,
               note="trick play after the setup"),
    Exhaustive("4p-11cards", _config(4, 11, rounds=1), deals=(0, 46200), after=9, ci=True,
               note="last two setup choices, trick play"),
    Exhaustive("4p-12cards-teams", _config(4, 12, rounds=1, teams=((0, 2), (1, 3))),
               deals=(0, 184800), after=11, ci=True, note="last setup choice, trick play"),
    Exhaustive("5p-24cards-2bottles", _config(5, 24, _5P_2B, rounds=1, bottles=2),
               deals=(1000, 10_000_000), after=24, requires=_TWO_BOTTLE_EVENTS, ci=True,
               note="the last two tricks of four"),
    Exhaustive("5p-14cards-teams", _config(5, 14, rounds=1, teams=((0, 3), (1, 4), (2,))),
               deals=(0,), dealers=(0, 1, 2, 3, 4), after=13, ci=True,
               note="last setup choice, trick play; every dealer (no rotation for these teams)"),
    Exhaustive("6p-23cards-2bottles", _config(6, 23, rounds=1, bottles=2),
               deals=(227598240718138,), after=23, requires=_TWO_BOTTLE_EVENTS, ci=True,
               note="the last two tricks of three"),
    Exhaustive("6p-17cards-teams", _config(6, 17, rounds=1, teams=((0, 3), (1, 4), (2, 5))),
               deals=(0,), after=18, ci=True, note="trick play"),
    Exhaustive("3p-8cards-54-pairs",
               Config(players=3, deck=_from_the_54_card_deck(_54_PAIRS), rounds=1),
               deals=(0, 277), requires=("a rank and its half in one trick", "half rank played"),
               ci=True, note="whole round from the deal; 8 cards of the 54-card deck, each whole "
                             "rank with its half (2 and 2.5, 20 and 20.5...)"),
    Exhaustive("5p-14cards-2rounds", _config(5, 14, rounds=2), deals=(0, 1000), after=14,
               rounds_walked=1, requires=("round dealt from the seed",
                                          "second round dealt, 5-6 players"), ci=True,
               note="trick play of round 1, round 2 dealt from the seed, checked, not walked"),
    Exhaustive("6p-17cards-2rounds", _config(6, 17, rounds=2), deals=(0, 1000), after=20,
               rounds_walked=1, requires=("round dealt from the seed",
                                          "second round dealt, 5-6 players"), ci=True,
               note="trick play of round 1, round 2 dealt from the seed, checked, not walked"),
    # -- On demand. Every deal of the smallest game, every setup choice and every play. --
    Exhaustive("3p-8cards-every-deal", _config(3, 8, rounds=1), level="sweep",
               note="every deal (dealer 0; rotation), whole round"),
    Exhaustive("3p-8cards-half-ranks-every-deal", _config(3, 8, _3P_HALF, rounds=1),
               level="sweep", requires=("half rank played",),
               note="every deal (dealer 0; rotation), whole round"),
    Exhaustive("3p-8cards-target-every-deal", _config(3, 8, target_score=4), rounds_walked=1,
               level="sweep", requires=("game over at the target", "round dealt from the seed"),
               note="every deal, round 1; round 2 dealt from the seed, checked, not walked"),
    Exhaustive("3p-8cards-2rounds-every-deal", _config(3, 8, rounds=2), level="sweep",
               transpositions=True, requires=("round dealt from the seed",),
               note="every deal of round 1 (dealer 0), every round-1 end, all of round 2 dealt "
                    "from the seed; each position once"),
    Exhaustive("2p-devils-eye-positions", _config(2, 12, rounds=1),
               deals=tuple(range(0, 207900, 20790)), level="sweep", transpositions=True,
               note="10 deals, whole round from the deal, each position once"),
    Exhaustive("4p-11cards-positions", _config(4, 11, rounds=1),
               deals=tuple(range(0, 92400, 9240)), level="sweep", transpositions=True,
               note="10 deals, whole round from the deal, each position once"),
    # More deals of the larger games, every check.
    Exhaustive("3p-8cards-more", _config(3, 8, rounds=1), deals=tuple(range(0, 560, 28)),
               note="20 deals, whole round, every check"),
    Exhaustive("3p-8cards-2rounds-more", _config(3, 8, rounds=2), deals=tuple(range(0, 560, 56)),
               after=12, requires=("round dealt from the seed",),
               note="10 deals: end of round 1, all of round 2"),
    Exhaustive("2p-devils-eye-more", _config(2, 12, rounds=1),
               deals=tuple(range(0, 207900, 20790)), after=8, note="10 deals, trick play"),
    Exhaustive("4p-11cards-setup", _config(4, 11, rounds=1), deals=(0,),
               note="one deal from the deal itself: every setup choice, every play"),
    Exhaustive("4p-12cards-teams-more", _config(4, 12, rounds=1, teams=((0, 2), (1, 3))),
               deals=tuple(range(0, 369600, 36960)), after=10,
               note="10 deals, last two setup choices, trick play"),
    Exhaustive("5p-14cards", _config(5, 14, rounds=1), deals=tuple(range(0, 33633600, 3363360)),
               after=12, note="10 deals, last two setup choices, trick play"),
    Exhaustive("5p-24cards-2bottles-more", _config(5, 24, _5P_2B, rounds=1, bottles=2),
               deals=tuple(range(0, 10**9, 10**8)), after=19, requires=_TWO_BOTTLE_EVENTS,
               note="10 deals, the last three tricks of four"),
    Exhaustive("6p-23cards-2bottles-more", _config(6, 23, rounds=1, bottles=2),
               deals=tuple(range(0, 10**12, 10**11)) + (227598240718138,), after=20,
               requires=_TWO_BOTTLE_EVENTS, note="11 deals, the last two tricks and a play"),
    Exhaustive("6p-17cards", _config(6, 17, rounds=1), deals=tuple(range(0, 10**10, 10**9)),
               after=18, note="10 deals, trick play"),
)


def walk(start: GameState, visit: Visit, rounds_walked: int | None = None,
         positions: Positions | None = None) -> None:
    """Visit every state reachable from ``start``, depth first: ``visit(None, None, start)``,
    then ``visit(before, action, after)`` for every legal action of every state reached.

    A state holds its whole history, so two action sequences never reach equal states: the
    states form a tree and each is visited once. States of a round of index ``rounds_walked``
    or later are visited but not expanded. With ``positions``, a state whose position
    (``position_key``) was reached before is visited (its transition checked) but not expanded:
    every reachable position is expanded once."""
    visit(None, None, start)
    if positions is not None:
        positions.first_visit(start)
    stack = [start]
    while stack:
        state = stack.pop()
        if rounds_walked is not None and state.round.index >= rounds_walked:
            continue
        for action in legal_actions(state):
            after = apply(state, action)
            visit(state, action, after)
            if positions is None or positions.first_visit(after):
                stack.append(after)


def position_key(state: GameState) -> object:
    """Everything of a state its future depends on, its history aside: the phase, the seat to
    act, the round and its dealer, every hand and face-up row, the setup choices while the setup
    lasts, the trick in progress (seats and cards), the leader, the bottles (owner and price
    card), each seat's captured cards as a set (sorted), the Devil's Trick, the round's scores
    and the game's totals. Two states with equal keys differ only in the order of their past
    (which tricks came first, which round-1 game led to the same totals)."""
    round_ = state.round
    trick = state.current_trick() if state.phase is Phase.PLAY else ()
    return (
        state.phase, state.to_act, round_.index, round_.dealer, round_.hands, round_.face_up,
        round_.setup if state.phase is Phase.SETUP else (), trick, round_.leader, round_.bottles,
        tuple(tuple(sorted(pile, key=_rank_of)) for pile in round_.captured),
        round_.devils_trick, round_.scores, state.totals,
    )


def _rank_of(card: Card) -> float:
    return card.rank


@dataclass
class Positions:
    """The positions a transposition walk has expanded: those of the first round per deal
    (they cannot recur in another deal's walk, whose hands differ), those of later rounds over
    the whole run (a later round dealt from the seed recurs with the same totals)."""

    this_deal: set[object] = field(default_factory=set)
    later_rounds: set[object] = field(default_factory=set)

    def first_visit(self, state: GameState) -> bool:
        """Whether ``state``'s position is new (and remember it)."""
        seen = self.this_deal if state.round.index == 0 else self.later_rounds
        key = position_key(state)
        if key in seen:
            return False
        seen.add(key)
        return True


GAME_SEED = 11
"""The seed of the games the walks' deals are put into (its own deal is checked, then replaced)."""


def starts(spec: Exhaustive, shard: tuple[int, int] | None = None,
           prefix: Visit | None = None) -> Iterator[GameState]:
    """The states the walks start from: each chosen deal by each dealer, dealt through
    ``with_deal`` into round 0 of a game whose first dealer is that seat, then ``after`` first
    legal actions. The seeded deal the game began with is checked first (``check_seeded_deal``).
    With ``prefix``, the way to each start is visited too: ``prefix(None, None, dealt)``, then
    ``prefix(before, action, after)`` for each of the ``after`` first legal actions, so that the
    setup choices and tricks a walk starts after get the same checks as the walk.
    ``shard`` ``(k, n)``: only the deals whose position among the chosen ones is ``k`` mod ``n``
    (to spread one configuration over processes)."""
    for dealer in spec.dealers:
        game = new_game(spec.config, seed=GAME_SEED, first_dealer=dealer)
        machine.check_seeded_deal(game)
        chosen: Iterator[Deal] = (
            deals(spec.config, dealer) if spec.deals is None
            else (deal_at(spec.config, dealer, index) for index in spec.deals)
        )
        if shard is not None:
            part, parts = shard
            chosen = (deal for index, deal in enumerate(chosen) if index % parts == part)
        for deal in chosen:
            state = with_deal(game, *deal)
            if prefix is not None:
                prefix(None, None, state)
            for _ in range(spec.after):
                action = legal_actions(state)[0]
                before, state = state, apply(state, action)
                if prefix is not None:
                    prefix(before, action, state)
            yield state


def transitions(spec: Exhaustive) -> Iterator[tuple[GameState | None, Action | None, GameState]]:
    """Every transition of every walk of ``spec``: ``(None, None, start)`` for each start, then
    ``(before, action, after)``; the iterator form of ``walk`` for checkers written elsewhere."""
    for start in starts(spec):
        found: list[tuple[GameState | None, Action | None, GameState]] = []
        walk(start, lambda b, a, s: found.append((b, a, s)), spec.rounds_walked)
        yield from found


@dataclass
class Checker:
    """The visitor that checks every state and transition and counts what the walk reached."""

    level: Literal["full", "sweep"] = "full"
    full_every: int = 1
    """At level ``full``, the three costliest state checks at every that-many-th state only (the
    first included; every other check still at every state): the test suite's ``dev`` profile."""
    states: int = 0
    transitions: int = 0
    terminal: int = 0
    counters: Counter[str] = field(default_factory=Counter)
    _parent: GameState | None = None
    _family: list[GameState] = field(default_factory=list)

    def __call__(self, before: GameState | None, action: Action | None, after: GameState) -> None:
        self.states += 1
        if before is None or action is None:
            self._parent, self._family = None, []
        else:
            self.transitions += 1
            machine.check_transition(before, action, after)
            if isinstance(action, StartRound):
                machine.check_seeded_deal(after)
                self.counters["round dealt from the seed"] += 1
            elif isinstance(action, Play):
                self._count_play(before, action, after)
        self._check_state(after)
        if before is not None:
            # The parent's actions, then those of every sibling: the walk expands a state's
            # children one after another, so the family so far is the siblings before this one.
            machine.check_actions_of_other_states(before, after)
            if self._parent is not before:
                self._parent, self._family = before, []
            for sibling in self._family:
                machine.check_actions_of_other_states(sibling, after)
            self._family.append(after)
        if isinstance(action, StartRound) and after.config.players >= 5:
            self.counters["second round dealt, 5-6 players"] += 1
        if after.phase is Phase.GAME_OVER:
            self.terminal += 1
            if after.config.target_score is not None:
                self.counters["game over at the target"] += 1

    def _check_state(self, state: GameState) -> None:
        machine.check_zones_and_bottles(state)
        machine.check_hand_sizes(state)
        machine.check_legal_actions(state)
        machine.check_totals_and_game_end(state)
        if self.level == "full" and (self.states - 1) % self.full_every == 0:
            copy = machine.check_round_trip(state)
            machine.check_views(state)
            machine.check_refusals(state, copy)

    def _count_play(self, before: GameState, action: Play, after: GameState) -> None:
        if not isinstance(action.card.rank, int):
            self.counters["half rank played"] += 1
        if after.round.index != before.round.index or len(after.round.tricks) == len(
            before.round.tricks
        ):
            return
        trick = after.round.tricks[-1]
        ranks = {play.card.rank for play in trick.plays}
        if any(rank + 0.5 in ranks for rank in ranks if isinstance(rank, int)):
            self.counters["a rank and its half in one trick"] += 1
        if all(play.card.rank > trick.price_before for play in trick.plays):
            self.counters["every card above price"] += 1
        prices = [bottle.price for bottle in before.round.bottles]
        if len(prices) == 2 and prices[0] == prices[1]:
            self.counters["trick at a tie of the two prices"] += 1
        if trick.bottle is None:
            return
        old = before.round.bottles[trick.bottle]
        self.counters[f"bought {trick.bottle}"] += 1
        if old.owner is not None and old.owner != trick.winner:
            self.counters[f"changed hands {trick.bottle}"] += 1
        if old.price_card is not None:
            assert old.owner is not None
            assert old.price_card in after.round.captured[old.owner], "PRICE-CARD-RETURN"
            self.counters[f"price card returned {trick.bottle}"] += 1


@dataclass
class Summary:
    """What one configuration's run found."""

    name: str
    deals: int
    all_deals: int
    states: int
    transitions: int
    terminal: int
    seconds: float
    counters: Counter[str]
    prefix_states: int = 0
    """States on the way from the deals to the walks' starts, checked the same way."""


def run(spec: Exhaustive, progress: int = 0, shard: tuple[int, int] | None = None,
        full_every: int = 1) -> Summary:
    """Walk and check one configuration; raises ``AssertionError`` at the first violation or if
    a required counter stays at 0. With ``progress``, print the running counts every that many
    deals; ``full_every``: see ``Checker``."""
    started = time.perf_counter()
    checker = Checker(spec.level, full_every)
    on_the_way = Checker(spec.level, full_every)
    count = 0
    positions = Positions() if spec.transpositions else None
    for start in starts(spec, shard, prefix=on_the_way):
        if positions is not None:
            positions.this_deal = set()
        walk(start, checker, spec.rounds_walked, positions)
        count += 1
        if progress and count % progress == 0:
            print(f"    {spec.name}: {count} deals, {checker.states:,} states, "
                  f"{checker.transitions:,} transitions, no violation so far "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
    reached = checker.counters + on_the_way.counters
    missing = [name for name in spec.requires if not reached[name]]
    assert not missing, f"{spec.name}: the walk never reached {missing}"
    return Summary(spec.name, count, spec.deal_total(), checker.states, checker.transitions,
                   checker.terminal, time.perf_counter() - started, reached,
                   on_the_way.states)


# -- planted bugs: each must make the walk fail ------------------------------------------------


def _plant_second_price_card_kept(original: Callable[..., Any]) -> Callable[..., Any]:
    def resolve_trick(trick: Any, bottles: Any, captured: Any) -> Any:
        result, after, piles = original(trick, bottles, captured)
        old = bottles[1] if len(bottles) > 1 else None
        if result.bottle == 1 and old is not None and old.price_card is not None:
            pile = list(piles[old.owner])
            pile.remove(old.price_card)  # the old price card never reaches its former owner
            piles = piles[:old.owner] + (tuple(pile),) + piles[old.owner + 1:]
        return result, after, piles
    return resolve_trick


def _plant_left_right_swapped(original: Callable[..., Any]) -> Callable[..., Any]:
    swap = {Destination.LEFT: Destination.RIGHT, Destination.RIGHT: Destination.LEFT}
    return lambda players, seat, to: original(players, seat, swap.get(to, to))


def _plant_tie_buys_the_last_bottle(original: Callable[..., Any]) -> Callable[..., Any]:
    def trick_price(bottles: Any) -> Any:
        price, index = original(bottles)
        ties = [i for i, bottle in enumerate(bottles) if bottle.price == price]
        return price, ties[-1]
    return trick_price


def _plant_face_up_pass_to_self(original: Callable[..., Any]) -> Callable[..., Any]:
    def resolve_setup(config: Any, hands: Any, face_up: Any, setup: Any) -> Any:
        new_hands, new_face_up, devils_trick = original(config, hands, face_up, setup)
        if new_face_up is None:
            return new_hands, new_face_up, devils_trick
        rows = [list(row) for row in new_face_up]
        for gives in setup:
            for give in gives:
                if give.to is Destination.OPPONENT_FACE_UP:
                    rows[1 - give.seat].remove(give.card)
                    rows[give.seat].append(give.card)
        return new_hands, tuple(tuple(sorted(row, key=_rank_of)) for row in rows), devils_trick
    return resolve_setup


def _plant_splitmix_without_first_mask(original: Callable[..., Any]) -> Callable[..., Any]:
    mask = (1 << 64) - 1

    def splitmix64(state: int) -> tuple[int, int]:
        state = state + 0x9E3779B97F4A7C15  # the first mask dropped: the state grows past 64 bits
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return state, z ^ (z >> 31)
    return splitmix64


def _plant_mirrored_shuffle(original: Callable[..., Any]) -> Callable[..., Any]:
    import bottleimp.rules.deal as deal_module

    mask = (1 << 64) - 1

    def shuffle(cards: Any, seed: int, round_index: int) -> Any:
        state = (seed & mask) ^ ((round_index * 0xD1B54A32D192ED03) & mask)
        order = list(cards)
        for i in range(len(order) - 1, 0, -1):
            limit = (1 << 64) - (1 << 64) % (i + 1)
            state, draw = deal_module.splitmix64(state)
            while draw >= limit:
                state, draw = deal_module.splitmix64(state)
            j = i - draw % (i + 1)  # mirrored: a permutation still, but not the documented one
            order[i], order[j] = order[j], order[i]
        return tuple(order)
    return shuffle


def _plant_counter_clockwise_deal(original: Callable[..., Any]) -> Callable[..., Any]:
    def deal(config: Any, seed: int, round_index: int, dealer: int) -> Any:
        hands, face_up = original(config, seed, round_index, dealer)
        players = config.players

        def mirror(rows: Any) -> Any:  # seat dealer+k gets what seat dealer-k was dealt
            return tuple(rows[(2 * dealer - seat) % players] for seat in range(players))
        return mirror(hands), None if face_up is None else mirror(face_up)
    return deal


def _plant_led_colour_wins(original: Callable[..., Any]) -> Callable[..., Any]:
    def trick_winner(cards: Any, price: Any) -> int:
        led = [i for i, card in enumerate(cards) if card.colour is cards[0].colour]
        below = [i for i in led if cards[i].rank < price]
        return max(below or led, key=lambda i: cards[i].rank)
    return trick_winner


PLANTS: dict[str, tuple[str, str, Callable[[Any], Any], str]] = {
    # name: (module, attribute, how the attribute is replaced, the configuration that catches it)
    "play: the second bottle's old price card is never returned": (
        "bottleimp.rules.play", "resolve_trick", _plant_second_price_card_kept,
        "5p-24cards-2bottles"),
    "play: no obligation to follow suit": (
        "bottleimp.rules.play", "follow_suit", lambda original: lambda hand, led: hand,
        "3p-8cards"),
    "deal: the deal passes counter-clockwise": (
        "bottleimp.rules.deal", "next_dealer",
        lambda original: lambda config, dealer: (dealer - 1) % config.players,
        "3p-8cards-2rounds"),
    "setup: the cards given left and right go the other way": (
        "bottleimp.rules.setup", "receiving_seat", _plant_left_right_swapped, "3p-8cards"),
    "scoring: captured cards count one point each, not their coins": (
        "bottleimp.rules.scoring", "captured_points", lambda original: lambda captured: len(captured),
        "3p-8cards"),
    "play: at a tie of the two prices the last bottle is bought": (
        "bottleimp.rules.play", "trick_price", _plant_tie_buys_the_last_bottle,
        "5p-24cards-2bottles"),
    "play: only the led colour can win the trick": (
        "bottleimp.rules.play", "trick_winner", _plant_led_colour_wins, "3p-8cards"),
    "setup: a Devil's Eye face-up pass lands in the giver's own row": (
        "bottleimp.rules.setup", "resolve_setup", _plant_face_up_pass_to_self, "2p-devils-eye"),
    "deal: splitmix64 without its first mask": (
        "bottleimp.rules.deal", "splitmix64", _plant_splitmix_without_first_mask, "3p-8cards"),
    "deal: the shuffle is mirrored (j = i - draw mod (i + 1))": (
        "bottleimp.rules.deal", "shuffle", _plant_mirrored_shuffle, "3p-8cards"),
    "deal: the cards are dealt counter-clockwise": (
        "bottleimp.rules.deal", "deal", _plant_counter_clockwise_deal, "3p-8cards"),
    "game: the game ends a round late": (
        "bottleimp.rules.game", "game_is_over",
        lambda original: lambda config, rounds, totals: original(config, rounds - 1, totals),
        "3p-8cards"),
}
"""A planted bug in each rule module, and the CI configuration that must catch it."""


@contextmanager
def planted(name: str) -> Iterator[None]:
    """Apply the planted bug ``name`` (see ``PLANTS``) for the duration of the block."""
    module_name, attribute, plant, _ = PLANTS[name]
    module = importlib.import_module(module_name)
    original = getattr(module, attribute)
    setattr(module, attribute, plant(original))
    try:
        yield
    finally:
        setattr(module, attribute, original)


def caught(name: str, spec: Exhaustive) -> str | None:
    """The first violation the walk of ``spec`` finds with the bug ``name`` planted (or None)."""
    with planted(name):
        try:
            run(spec)
        except AssertionError as violation:
            return str(violation).splitlines()[0] if str(violation) else "AssertionError"
        except BottleImpError as error:
            return f"{type(error).__name__}: {error}"
    return None


# -- the rotation reduction, checked ---------------------------------------------------------


def _rotate_deal(deal: Deal, k: int) -> Deal:
    """The deal with every seat moved ``k`` places clockwise (seat ``s``'s cards to ``s + k``)."""
    hands, face_up = deal
    n = len(hands)

    def turn(rows: tuple[tuple[Card, ...], ...]) -> tuple[tuple[Card, ...], ...]:
        return tuple(rows[(seat - k) % n] for seat in range(n))

    return turn(hands), (None if face_up is None else turn(face_up))


def tree_signature(start: GameState, shift: int = 0) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """States, terminal states and the sorted round scores of the terminal states (each seat's
    score moved ``shift`` places clockwise) of the tree from ``start``, walked without checks."""
    sizes = [0, 0]
    scores: list[tuple[int, ...]] = []

    def count(before: GameState | None, action: Action | None, after: GameState) -> None:
        sizes[0] += 1
        if after.phase is not Phase.SETUP and after.phase is not Phase.PLAY:
            sizes[1] += 1
            round_scores = after.round.scores
            assert round_scores is not None
            n = len(round_scores)
            scores.append(tuple(round_scores[(seat - shift) % n] for seat in range(n)))

    walk(start, count, rounds_walked=start.round.index + 1)
    return sizes[0], sizes[1], tuple(sorted(scores))


def check_rotation(spec: Exhaustive, stride: int = 1) -> int:
    """Every ``stride``-th deal of every dealer: its tree matches that of the deal rotated to
    dealer 0, scores rotated back. Returns the number of deals compared."""
    config, players = spec.config, spec.config.players
    compared = 0
    base = new_game(config, seed=11, first_dealer=0)
    for dealer in range(1, players):
        game = new_game(config, seed=11, first_dealer=dealer)
        for index in range(0, deal_count(config, dealer), stride):
            deal = deal_at(config, dealer, index)
            mine = tree_signature(with_deal(game, *deal), shift=players - dealer)
            theirs = tree_signature(with_deal(base, *_rotate_deal(deal, players - dealer)))
            assert mine == theirs, f"{spec.name}: deal {index} by seat {dealer} is not rotated"
            compared += 1
    return compared


# -- the transposition reduction, checked ----------------------------------------------------


def check_transpositions(spec: Exhaustive, stride: int = 1) -> tuple[int, int, int]:
    """Every ``stride``-th walk of ``spec`` in full, without the reduction: every state's future
    computed (the tree below it: each legal action, in order, with the future of the state it
    leads to, and at each leaf the totals, the round's scores, the captured piles, the bottles
    and the Devil's Trick; compared by a hash of that tree and its size), and every two states
    with equal ``position_key`` found to have equal futures. Returns the walks, the states and
    the positions that more than one state reached."""
    walks = states = shared = 0
    for number, start in enumerate(starts(spec)):
        if number % stride:
            continue
        futures: dict[object, tuple[int, int]] = {}
        keys: Counter[object] = Counter()

        def future(state: GameState) -> tuple[int, int]:
            in_walk = spec.rounds_walked is None or state.round.index < spec.rounds_walked
            actions = legal_actions(state) if in_walk else []
            if not actions:
                round_ = state.round
                below = (1, hash((state.totals, round_.scores, round_.bottles, round_.devils_trick,
                                  tuple(frozenset(pile) for pile in round_.captured))))
            else:
                parts = [(action, future(apply(state, action))) for action in actions]
                below = (1 + sum(size for _, (size, _) in parts), hash(tuple(parts)))
            key = position_key(state)
            keys[key] += 1
            known = futures.setdefault(key, below)
            assert known == below, f"{spec.name}: two states of one position differ in future"
            return below

        states += future(start)[0]
        walks += 1
        shared += sum(1 for n in keys.values() if n > 1)
    return walks, states, shared


def every_deal_size(spec: Exhaustive) -> tuple[int, int]:
    """How many deals dealer 0 has and how many states every deal's whole round has in all,
    counted (not walked) with the subtrees of equal futures counted once per deal."""
    from bottleimp.perft import _future_key, in_round

    config = spec.config
    game = new_game(config, seed=11)
    total = 0

    def nodes(state: GameState, memo: dict[object, int]) -> int:
        key = _future_key(state)
        if key not in memo:
            memo[key] = 1 + (sum(nodes(apply(state, a), memo) for a in legal_actions(state))
                             if in_round(state) else 0)
        return memo[key]

    for deal in deals(config, 0):
        total += nodes(with_deal(game, *deal), {})
    return deal_count(config, 0), total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="configurations to check (default: the CI set)")
    parser.add_argument("--all", action="store_true", help="every configuration")
    parser.add_argument("--list", action="store_true", help="list the configurations")
    parser.add_argument("--shard", metavar="K/N",
                        help="only the deals whose position is K mod N (0 <= K < N)")
    parser.add_argument("--progress", type=int, default=0, metavar="N",
                        help="print the running counts every N deals")
    parser.add_argument("--rotation", action="store_true",
                        help="check the seat-rotation reduction on the named configurations")
    parser.add_argument("--transpositions", action="store_true",
                        help="check the transposition reduction on the named configurations")
    parser.add_argument("--stride", type=int, default=1,
                        help="with --rotation or --transpositions: every Nth deal")
    parser.add_argument("--sizes", action="store_true",
                        help="count the states of every deal by dealer 0 (no checks)")
    parser.add_argument("--plants", action="store_true",
                        help="plant each bug of PLANTS in turn and show which walks catch it")
    args = parser.parse_args(argv)
    known = {spec.name: spec for spec in CONFIGURATIONS}
    if args.list:
        for spec in CONFIGURATIONS:
            chosen = "every" if spec.deals is None else str(len(spec.deals) * len(spec.dealers))
            print(f"{spec.name:34} {chosen:>6} of {spec.deal_total():>14} deals  after "
                  f"{spec.after:>2}  {spec.level:5}{'  [ci]' if spec.ci else ''}  {spec.note}")
        return 0
    unknown = [name for name in args.names if name not in known]
    if unknown:
        parser.error(f"unknown configuration(s) {unknown}; known: {', '.join(known)}")
    chosen_specs = ([known[n] for n in args.names] if args.names
                    else list(CONFIGURATIONS) if args.all else [s for s in CONFIGURATIONS if s.ci])
    if args.sizes:
        for spec in chosen_specs:
            count, states = every_deal_size(spec)
            print(f"{spec.name}: {count:,} deals by dealer 0, {states:,} states in all", flush=True)
        return 0
    if args.plants:
        for plant in PLANTS:
            print(plant, flush=True)
            for spec in chosen_specs:
                found = caught(plant, spec)
                print(f"    {spec.name:30} {'caught: ' + found if found else 'not caught'}"[:150],
                      flush=True)
        return 0
    if args.transpositions:
        for spec in chosen_specs:
            started = time.perf_counter()
            walks, states, shared = check_transpositions(spec, args.stride)
            print(f"{spec.name}: {walks} walks in full, {states:,} states; {shared:,} positions "
                  f"reached by more than one state, each with one future "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
        return 0
    if args.rotation:
        for spec in chosen_specs:
            started = time.perf_counter()
            compared = check_rotation(spec, args.stride)
            print(f"{spec.name}: {compared} deals by dealers 1-{spec.config.players - 1} walked "
                  f"and matched to the rotated deal by dealer 0 "
                  f"({time.perf_counter() - started:.0f} s)", flush=True)
        return 0
    print(f"{'configuration':34} {'deals':>22} {'states':>9} {'transitions':>11} "
          f"{'ends':>7} {'seconds':>8}  level", flush=True)
    for spec in chosen_specs:
        shard = tuple(map(int, args.shard.split("/"))) if args.shard else None
        summary = run(spec, args.progress, shard)  # type: ignore[arg-type]
        print(f"{summary.name:34} {summary.deals:>8} of {summary.all_deals:<12,} "
              f"{summary.states:>9,} {summary.transitions:>11,} {summary.terminal:>7,} "
              f"{summary.seconds:>8.1f}  {spec.level}", flush=True)
        reached = ", ".join(f"{k} {v:,}" for k, v in sorted(summary.counters.items()))
        print(f"    reached: {reached or '-'}", flush=True)
    print("no violation")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Run the independent model (``restatement.model``) differentially against the engine.

For every transition ``(before, action, after)`` of a walk (``scripts/exhaustive.py``'s
``walk``/``starts`` hook) or of a random game, ``Differential`` compares the engine with the model:

- at every state: the seat to act and the exact set of legal actions (trick play: the cards the
  model allows; setup: the seat, cards and destination of the next give; between rounds: the next
  dealer's ``StartRound``; game over: nothing);
- at every setup card given: the engine's record of the give and the giver's hand; at the end of
  the setup, the model's resolution (hands, face-up cards, Devil's Trick) and the first leader;
- at every play: the model's state after the play (hands, face-up cards, captured piles, bottles'
  owners and price cards, the trick so far, the leader); at a completed trick also the winner,
  the winning card, the bottle bought, the price judged against and the price after;
- at every round end: every seat's round score, the totals, whether the game is over, and then
  the winners;
- at every ``StartRound``: the next dealer, the round index, the deal's sizes, totals kept.

The model sees only the engine's public state (``GameState``/``RoundState`` attributes), translated
into its own types; it never calls an engine rule function.

Usage (from the repository root)::

    python -m restatement.differential walk [NAME ...] [--ci] [--shard K/N] [--progress N]
    python -m restatement.differential random [--games N] [--seed S]
    python -m restatement.differential endgames [--games N] [--seed S] [--cards-left K]
    python -m restatement.differential fuzz [--games N] [--seed S]
    python -m restatement.differential plants         # engine bugs of exhaustive.PLANTS
    python -m restatement.differential model-plants   # rules flipped in the model

Every command exits 1 if any disagreement was found (``plants``/``model-plants``: if a planted
bug was not caught), else 0.
"""

from __future__ import annotations

import argparse
import importlib
import random
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import bottleimp
from bottleimp import (
    Action,
    Colour,
    Destination,
    GameState,
    Give,
    Phase,
    Play,
    StartRound,
    apply,
    legal_actions,
    new_game,
)

from . import model
from .model import ModelError

REPO = Path(__file__).resolve().parent.parent

_STEP_OF: dict[Destination, model.SetupStep] = {
    Destination.DEVILS_TRICK: "discard",
    Destination.LEFT: "left",
    Destination.RIGHT: "right",
    Destination.OPPONENT_FACE_UP: "left",
    Destination.OPPONENT_HIDDEN: "right",
}


def exhaustive_module() -> ModuleType:
    """``scripts/exhaustive.py``, imported (it puts the repository and ``tests/`` on the path)."""
    scripts = str(REPO / "scripts")
    if scripts not in sys.path:
        sys.path.insert(0, scripts)
    return importlib.import_module("exhaustive")


# -- translation: the engine's public values into the model's ---------------------------------


class Translator:
    """Engine cards, configurations and round states as the model's values (cached by card)."""

    def __init__(self) -> None:
        self._cards: dict[bottleimp.Card, model.Card] = {}
        self._configs: dict[bottleimp.Config, model.Config] = {}

    def card(self, card: bottleimp.Card) -> model.Card:
        found = self._cards.get(card)
        if found is None:
            found = self._cards[card] = model.Card(card.rank, card.colour.value, card.coins)
        return found

    def cards(self, cards: Sequence[bottleimp.Card]) -> tuple[model.Card, ...]:
        return tuple(self.card(c) for c in cards)

    def piles(self, piles: Sequence[Sequence[bottleimp.Card]] | None) -> tuple[
            tuple[model.Card, ...], ...]:
        return () if piles is None else tuple(self.cards(p) for p in piles)

    def config(self, config: bottleimp.Config) -> model.Config:
        found = self._configs.get(config)
        if found is None:
            found = self._configs[config] = model.Config(
                players=config.players, deck=self.cards(config.cards), bottles=config.bottles,
                teams=config.teams or (), rounds=config.rounds, target=config.target_score)
        return found

    def bottles(self, state: GameState) -> tuple[model.Bottle, ...]:
        return tuple(model.Bottle(b.owner, None if b.price_card is None else self.card(b.price_card))
                     for b in state.round.bottles)

    def round(self, state: GameState) -> model.RoundState:
        """The engine's round in trick play as the model's ``RoundState``."""
        r = state.round
        trick = state.current_trick()
        return model.RoundState(
            config=self.config(state.config), dealer=r.dealer, hands=self.piles(r.hands),
            face_up=self.piles(r.face_up), devils_trick=self.cards(r.devils_trick),
            captured=self.piles(r.captured), bottles=self.bottles(state), leader=r.leader,
            trick=tuple((p.seat, self.card(p.card)) for p in trick))


def _bag(cards: Sequence[model.Card]) -> tuple[model.Card, ...]:
    return tuple(sorted(cards))


def _bags(piles: Sequence[Sequence[model.Card]]) -> tuple[tuple[model.Card, ...], ...]:
    return tuple(_bag(p) for p in piles)


# -- the comparison ------------------------------------------------------------------------------


@dataclass
class Disagreement:
    """One place where the engine and the model differ."""

    what: str
    engine: object
    model: object
    state: str
    history: str

    def __str__(self) -> str:
        return (f"{self.what}: engine {self.engine!r} != model {self.model!r}\n"
                f"    at {self.state}\n    {self.history}")


def _history(state: GameState) -> str:
    r = state.round
    setup = "; ".join(" ".join(f"{g.card.rank}>{g.to.value}" for g in gives) for gives in r.setup)
    plays = " ".join(f"{p.seat}:{p.card.rank}" for p in r.plays)
    return (f"config {state.config!r}; round {r.index} dealer {r.dealer}; dealt "
            f"{[[c.rank for c in h] for h in r.dealt]}"
            f"{'' if r.dealt_face_up is None else f' face-up {[[c.rank for c in h] for h in r.dealt_face_up]}'}"
            f"; setup [{setup}]; plays [{plays}]")


class FirstDisagreement(Exception):
    """Raised by a ``Differential`` made with ``stop_at_first`` once it has kept its first
    disagreement: a check that asks only whether a walk catches a bug ends there."""


@dataclass
class Differential:
    """The visitor: compares every transition, counts what it compared, keeps disagreements
    (with ``stop_at_first``, stops the walk at the first: ``FirstDisagreement``)."""

    keep: int = 20
    stop_at_first: bool = False
    states: int = 0
    transitions: int = 0
    compared: Counter[str] = field(default_factory=Counter)
    disagreements: int = 0
    kinds: Counter[str] = field(default_factory=Counter)
    examples: list[Disagreement] = field(default_factory=list)
    t: Translator = field(default_factory=Translator)

    # The visit hook of scripts/exhaustive.py: visit(before, action, after).
    def __call__(self, before: GameState | None, action: Action | None, after: GameState) -> None:
        self.states += 1
        try:
            if before is not None and action is not None:
                self.transitions += 1
                self._transition(before, action, after)
            self._state(after)
        except ModelError as error:
            self._differ("model refused the engine's transition", str(action), str(error), after)

    def _differ(self, what: str, engine: object, model_value: object, state: GameState) -> None:
        self.disagreements += 1
        self.kinds[what] += 1
        if len(self.examples) < self.keep:
            self.examples.append(Disagreement(what, engine, model_value, repr(state),
                                              _history(state)))
        if self.stop_at_first:
            raise FirstDisagreement(what)

    def _same(self, what: str, engine: object, model_value: object, state: GameState) -> None:
        self.compared[what] += 1
        if engine != model_value:
            self._differ(what, engine, model_value, state)

    # -- every state: who acts and what is legal --

    def _state(self, state: GameState) -> None:
        config = self.t.config(state.config)
        r = state.round
        actions = legal_actions(state)
        if state.phase is Phase.PLAY:
            m = self.t.round(state)
            self._same("seat to play", state.to_act, m.to_play, state)
            engine_plays = {(a.seat, self.t.card(a.card)) for a in actions if isinstance(a, Play)}
            self._same("only plays are legal in trick play",
                       len(engine_plays), len(actions), state)
            self._same("legal plays", engine_plays, {(m.to_play, c) for c in m.legal()}, state)
        elif state.phase is Phase.SETUP:
            seat, step, remaining = self._next_give(state, config)
            self._same("seat to give", state.to_act, seat, state)
            engine_gives = {(a.seat, self.t.card(a.card), _STEP_OF[a.to]) for a in actions
                            if isinstance(a, Give)}
            self._same("only gives are legal in setup", len(engine_gives), len(actions), state)
            if config.devils_eye:
                self._same("Devil's Eye destinations", {a.to for a in actions if isinstance(a, Give)}
                           <= {Destination.DEVILS_TRICK, Destination.OPPONENT_FACE_UP,
                               Destination.OPPONENT_HIDDEN}, True, state)
            self._same("legal gives", engine_gives, {(seat, c, step) for c in remaining}, state)
        elif state.phase is Phase.ROUND_OVER:
            dealer = model.next_dealer(config, r.dealer)
            self._same("between rounds the next dealer deals", actions, (StartRound(dealer),),
                       state)
        else:
            self._same("nothing is legal once the game is over", (actions, state.to_act),
                       ((), None), state)

    def _next_give(self, state: GameState, config: model.Config) -> tuple[
            int, model.SetupStep, tuple[model.Card, ...]]:
        r = state.round
        for seat in model.setup_order(config, r.dealer):
            sequence = model.setup_sequence(config, r.dealer, seat)
            given = r.setup[seat]
            if len(given) < len(sequence):
                given_cards = {self.t.card(g.card) for g in given}
                remaining = tuple(c for c in self.t.cards(r.dealt[seat]) if c not in given_cards)
                return seat, sequence[len(given)], remaining
        raise ModelError("every seat has completed its setup, but the engine is still in setup")

    # -- every transition --

    def _transition(self, before: GameState, action: Action, after: GameState) -> None:
        if isinstance(action, Give):
            self._give(before, action, after)
        elif isinstance(action, Play):
            self._play(before, action, after)
        else:
            self._start_round(before, action, after)

    def _give(self, before: GameState, action: Give, after: GameState) -> None:
        config = self.t.config(before.config)
        seat = action.seat
        self._same("the give is recorded", after.round.setup[seat],
                   (*before.round.setup[seat], action), after)
        if after.phase is Phase.SETUP:
            self._same("the given card leaves the hand", _bag(self.t.cards(after.round.hands[seat])),
                       _bag([c for c in self.t.cards(before.round.hands[seat])
                             if c != self.t.card(action.card)]), after)
            return
        r = after.round
        gives = []
        for s in range(config.players):
            by_step: dict[str, list[model.Card]] = {"discard": [], "left": [], "right": []}
            for g in r.setup[s]:
                by_step[_STEP_OF[g.to]].append(self.t.card(g.card))
            gives.append(model.Gives(tuple(by_step["discard"]), *by_step["left"],
                                     *by_step["right"]))
        resolved = model.resolve_setup(config, r.dealer, self.t.piles(r.dealt),
                                       self.t.piles(r.dealt_face_up), tuple(gives))
        self.compared["setup resolutions"] += 1
        self._same("hands after the setup", _bags(self.t.piles(r.hands)), resolved.hands, after)
        self._same("face-up cards after the setup", _bags(self.t.piles(r.face_up)),
                   resolved.face_up, after)
        self._same("the Devil's Trick", _bag(self.t.cards(r.devils_trick)),
                   resolved.devils_trick, after)
        leader = model.first_leader(config, r.dealer)
        self._same("the first leader", (after.phase, r.leader, after.to_act),
                   (Phase.PLAY, leader, leader), after)
        self._same("fresh bottles and empty piles", (self.t.bottles(after), r.captured),
                   (tuple(model.Bottle() for _ in range(config.bottles)),
                    tuple(() for _ in range(config.players))), after)

    def _play(self, before: GameState, action: Play, after: GameState) -> None:
        m = self.t.round(before)
        self._same("the player is the seat to play", action.seat, m.to_play, after)
        m = m.play(self.t.card(action.card))
        r = after.round
        same_round = r.index == before.round.index
        self._same("the play stays in its round", same_round, True, after)
        if not same_round:
            return
        self._same("hands", _bags(self.t.piles(r.hands)), _bags(m.hands), after)
        self._same("face-up cards", _bags(self.t.piles(r.face_up)), _bags(m.face_up), after)
        self._same("captured piles", _bags(self.t.piles(r.captured)), _bags(m.captured), after)
        self._same("bottles (owner, price card)", self.t.bottles(after), m.bottles, after)
        self._same("the trick so far",
                   tuple((p.seat, self.t.card(p.card)) for p in after.current_trick()), m.trick,
                   after)
        self._same("the leader", r.leader, m.leader, after)
        outcome = m.last_outcome
        if outcome is None:
            self._same("no trick completed", len(r.tricks), len(before.round.tricks), after)
        else:
            self.compared["completed tricks"] += 1
            self._same("a trick completed", len(r.tricks), len(before.round.tricks) + 1, after)
            trick = r.tricks[-1]
            bottles = self.t.bottles(before)
            judged = bottles[model.contested_bottle(bottles)].price
            self._same("trick winner", trick.winner, outcome.winner, after)
            self._same("winning card", self.t.card(trick.winning_card), outcome.winning_card,
                       after)
            self._same("bottle bought", trick.bottle, outcome.bought, after)
            self._same("price judged against", trick.price_before, judged, after)
            price_after = judged if outcome.bought is None else outcome.bottles[outcome.bought].price
            self._same("price after", trick.price_after, price_after, after)
            if outcome.returned is not None:
                self.compared[f"price cards returned (bottle {outcome.bought})"] += 1
            if outcome.bought is not None:
                old_owner = bottles[outcome.bought].owner
                if old_owner is not None and old_owner != outcome.winner:
                    self.compared[f"bottle {outcome.bought} changed hands"] += 1
            else:
                self.compared["tricks with every card above the price"] += 1
        if not isinstance(action.card.rank, int):
            self.compared["half ranks played"] += 1
        if m.over:
            self._round_end(before, m, after)
        else:
            self._same("the round goes on", (after.phase, r.scores), (Phase.PLAY, None), after)

    def _round_end(self, before: GameState, m: model.RoundState, after: GameState) -> None:
        end = model.end_round(m, before.totals, before.round.index + 1)
        self.compared["round ends"] += 1
        owners = [b.owner for b in m.bottles]
        if None in owners:
            self.compared["round ends with an unsold bottle"] += 1
            if m.config.teams:
                self.compared["round ends with an unsold bottle in team mode"] += 1
        if len(owners) == 2 and owners[0] is not None and owners[0] == owners[1]:
            self.compared["round ends with both bottles owned by one seat"] += 1
        for team in m.config.teams:
            if any(o in team for o in owners):
                self.compared[f"round ends with a bottle owned by a {len(team)}-seat team"] += 1
        self._same("round scores", after.round.scores, end.scores, after)
        self._same("totals", after.totals, end.totals, after)
        phase = Phase.GAME_OVER if end.game_over else Phase.ROUND_OVER
        self._same("game over", after.phase, phase, after)
        if end.game_over:
            self.compared["game ends"] += 1
            if m.config.target is not None:
                self.compared["game ends at a target score"] += 1
            if len(end.winners) > 1:
                self.compared["game ends with a shared win"] += 1
            if after.phase is Phase.GAME_OVER:  # else "game over" above already differs
                self._same("winners", frozenset(bottleimp.winners(after)), end.winners, after)
        else:
            self._same("the next dealer acts", after.to_act,
                       model.next_dealer(m.config, before.round.dealer), after)

    def _start_round(self, before: GameState, action: Action, after: GameState) -> None:
        config = self.t.config(before.config)
        dealer = model.next_dealer(config, before.round.dealer)
        r = after.round
        self.compared["rounds started"] += 1
        self._same("the next round", (r.index, r.dealer, after.phase, after.totals),
                   (before.round.index + 1, dealer, Phase.SETUP, before.totals), after)
        self._same("the finished round is kept", after.past_rounds[-1:], (before.round,), after)
        self.seeded_deal(after)
        sizes = tuple(len(h) + (0 if r.dealt_face_up is None else len(r.dealt_face_up[s]))
                      for s, h in enumerate(r.dealt))
        self._same("deal sizes", sizes, model.deal_sizes(config, dealer), after)
        if config.devils_eye:
            self._same("Devil's Eye split", tuple(len(h) for h in r.dealt),
                       (model.eye_split(config)[0],) * 2, after)

    def seeded_deal(self, state: GameState) -> None:
        """Compare the round's deal with the model's seeded deal: for a state whose round the
        engine dealt from the game's seed (a new game, or a round a ``StartRound`` dealt)."""
        r = state.round
        config = self.t.config(state.config)
        hidden, face_up = model.seeded_deal(config, state.seed, r.index, r.dealer)
        self.compared["deals from the seed"] += 1
        self._same("the seeded deal", (self.t.piles(r.dealt), self.t.piles(r.dealt_face_up)),
                   (hidden, face_up), state)

    def report(self) -> str:
        lines = [f"{self.states:,} states, {self.transitions:,} transitions, "
                 f"{self.disagreements:,} disagreements"]
        lines.append("compared: " + ", ".join(f"{k} {v:,}" for k, v in sorted(self.compared.items())))
        if self.kinds:
            lines.append("disagreements by kind: " + ", ".join(
                f"{k} {v:,}" for k, v in sorted(self.kinds.items())))
        for example in self.examples[:5]:
            lines.append(str(example))
        return "\n".join(lines)


# -- the exhaustive walks -------------------------------------------------------------------------


def run_walk(name: str, shard: tuple[int, int] | None = None, progress: int = 0,
             differential: Differential | None = None) -> tuple[Differential, int, float]:
    """Every transition of the walks of the configuration ``name`` of ``scripts/exhaustive.py``
    (only the deals of ``shard`` ``(k, n)``). Returns the differential, the deals and seconds."""
    ex = exhaustive_module()
    spec = {s.name: s for s in ex.CONFIGURATIONS}[name]
    diff = differential if differential is not None else Differential()
    started, count = time.perf_counter(), 0
    for dealer in spec.dealers:
        diff.seeded_deal(new_game(spec.config, seed=ex.GAME_SEED, first_dealer=dealer))
    # The way from each deal to its walk's start (setup choices, first tricks) is compared too.
    for start in ex.starts(spec, shard, prefix=diff):
        ex.walk(start, diff, spec.rounds_walked)
        count += 1
        if progress and count % progress == 0:
            print(f"    {name}: {count} deals, {diff.states:,} states, "
                  f"{diff.disagreements} disagreements ({time.perf_counter() - started:.0f} s)",
                  flush=True)
    return diff, count, time.perf_counter() - started


# -- random games of every variant ------------------------------------------------------------------


def _custom_deck(players: int, size: int, half: bool, rng: random.Random,
                 high: bool = False) -> tuple[bottleimp.Card, ...]:
    """``size`` cards of distinct ranks (halves if ``half``), never 19, colours and coins random.
    ``high``: one card at most below 19, so a bottle may stay unsold."""
    pool: list[float] = [r for r in range(1, 38) if r != 19]
    if half:
        pool += [r + 0.5 for r in range(1, 37)]
    if high:
        pool = [r for r in pool if r > 19] + [r for r in pool if r < 19][:1]
    ranks = rng.sample(pool, size)
    colours = [Colour.YELLOW, Colour.BLUE, Colour.RED]
    return tuple(bottleimp.Card(r, rng.choice(colours), rng.randint(0, 6)) for r in ranks)


def variants(rng: random.Random) -> list[tuple[str, bottleimp.Config]]:
    """One configuration of each variant: every player count with each edition it allows,
    custom decks (half ranks, one card short, mostly above 19), two bottles, teams of every shape,
    Devil's Eye, a target score, several rounds and the default round count."""
    C = bottleimp.Config
    out: list[tuple[str, bottleimp.Config]] = []
    for players in (2, 3, 4):
        for edition in ("classic", "matagot-2024"):
            out.append((f"{players}p-{edition}-2rounds", C(players=players, edition=edition,
                                                             rounds=2)))
    out += [
        ("2p-eye-custom-24-half", C(players=2, deck=_custom_deck(2, 24, True, rng), rounds=2)),
        ("2p-eye-target-60", C(players=2, target_score=60)),
        ("3p-classic-default-rounds", C(players=3)),
        ("3p-custom-17-half-short", C(players=3, deck=_custom_deck(3, 17, True, rng), rounds=3)),
        ("3p-custom-high-unsold", C(players=3, deck=_custom_deck(3, 15, False, rng, high=True),
                                    rounds=3)),
        ("3p-custom-all-above-19", C(players=3, deck=tuple(
            bottleimp.Card(20 + k, colour, 1 + k % 4)
            for k, colour in enumerate([Colour.YELLOW, Colour.BLUE, Colour.RED] * 4)), rounds=2)),
        ("3p-target-100", C(players=3, target_score=100)),
        ("4p-teams-default", C(players=4, teams=((0, 2), (1, 3)), rounds=2)),
        ("4p-teams-2-1-1", C(players=4, edition="matagot-2024", teams=((0, 1), (2,), (3,)),
                             rounds=2)),
        ("4p-teams-2-1-1-custom-high-unsold", C(players=4, teams=((0, 2), (1,), (3,)),
                                                deck=_custom_deck(4, 16, False, rng, high=True),
                                                rounds=3)),
        ("4p-custom-23-half-short", C(players=4, deck=_custom_deck(4, 23, True, rng), rounds=2)),
        ("4p-target-80", C(players=4, target_score=80)),
        ("5p-1bottle", C(players=5, rounds=2)),
        ("5p-2bottles", C(players=5, bottles=2, rounds=2)),
        ("5p-teams-default", C(players=5, teams=((0, 3), (1, 4), (2,)), rounds=2)),
        ("5p-teams-2-1-1-1", C(players=5, teams=((0, 2), (1,), (3,), (4,)), rounds=2)),
        ("5p-teams-target-60", C(players=5, teams=((0, 3), (1, 4), (2,)), target_score=60)),
        ("5p-2bottles-target-60", C(players=5, bottles=2, target_score=60)),
        ("5p-custom-29-2bottles", C(players=5, bottles=2, deck=_custom_deck(5, 29, True, rng),
                                    rounds=2)),
        ("6p-1bottle", C(players=6, rounds=2)),
        ("6p-2bottles", C(players=6, bottles=2, rounds=2)),
        ("6p-teams-default", C(players=6, teams=((0, 3), (1, 4), (2, 5)), rounds=2)),
        ("6p-teams-2-2-1-1", C(players=6, teams=((0, 3), (1, 4), (2,), (5,)), rounds=2)),
        ("6p-teams-custom-23-half-short", C(players=6, teams=((0, 3), (1, 4), (2, 5)),
                                            deck=_custom_deck(6, 23, True, rng), rounds=2)),
        ("6p-custom-23-2bottles-half", C(players=6, bottles=2,
                                         deck=_custom_deck(6, 23, True, rng), rounds=2)),
        ("6p-2bottles-default-rounds", C(players=6, bottles=2)),
    ]
    return out


def random_config(rng: random.Random) -> bottleimp.Config:
    """A configuration drawn at random among those the sources (and I-CUSTOM-DECK) allow: 2 to 6
    players, a custom deck of any valid size (3-6 players: a multiple of the players or one
    short, at least 3 cards a seat; Devil's Eye: 12, 24 or 36 cards) with whole and half ranks,
    one to three colours and 0-6 coins, two bottles or teams of a random shape (pairs and
    singles, at least one pair), a number of rounds or a target score."""
    players = rng.randint(2, 6)
    if players == 2:
        size = 12 * rng.randint(1, 3)
    else:
        per_seat = rng.randint(3, 54 // players)
        size = players * per_seat - rng.randint(0, 1)
    pool = [r for r in range(1, 38) if r != 19] + [r + 0.5 for r in range(1, 37)]
    colours = rng.sample([Colour.YELLOW, Colour.BLUE, Colour.RED, Colour.GREEN], rng.randint(1, 3))
    deck = tuple(bottleimp.Card(r, rng.choice(colours), rng.randint(0, 6))
                 for r in rng.sample(pool, size))
    options: dict[str, Any] = {}
    if players >= 4 and rng.random() < 0.4:
        seats = list(range(players))
        rng.shuffle(seats)
        pairs = rng.randint(1, players // 2)
        options["teams"] = [seats[2 * k:2 * k + 2] for k in range(pairs)] + [
            [seat] for seat in seats[2 * pairs:]]
    elif players >= 5 and rng.random() < 0.5:
        options["bottles"] = 2
    if rng.random() < 0.3:
        options["target_score"] = rng.randint(5, 60)
    else:
        options["rounds"] = rng.randint(1, 3)
    return bottleimp.Config(players=players, deck=deck, **options)


def run_fuzz(games: int, seed: int, differential: Differential | None = None) -> tuple[
        Differential, Counter[str]]:
    """``games`` random games, each of a configuration drawn by ``random_config`` (at most six
    rounds each)."""
    rng = random.Random(seed)
    diff = differential if differential is not None else Differential()
    shapes: Counter[str] = Counter()
    for _ in range(games):
        config = random_config(rng)
        shapes[f"{config.players}p" + (" 2 bottles" if config.bottles == 2 else "")
               + (" teams" if config.teams else "")
               + (" target" if config.target_score is not None else "")] += 1
        play_random(config, rng.randrange(2**32), rng.randrange(config.players), rng, diff,
                    max_rounds=6)
    return diff, shapes


def play_random(config: bottleimp.Config, seed: int, first_dealer: int, rng: random.Random,
                visit: Callable[[GameState | None, Action | None, GameState], None],
                max_rounds: int | None = None) -> int:
    """One game with uniformly random legal actions, every transition visited; returns rounds.
    ``max_rounds``: stop before dealing a round past that many (a game to a target score on a
    deck of few coins may go on for long)."""
    state = new_game(config, seed=seed, first_dealer=first_dealer)
    if isinstance(visit, Differential):
        visit.seeded_deal(state)
    visit(None, None, state)
    while not state.is_over:
        if max_rounds is not None and state.phase is Phase.ROUND_OVER and len(
                state.rounds) >= max_rounds:
            break
        action = rng.choice(legal_actions(state))
        after = apply(state, action)
        visit(state, action, after)
        state = after
    return len(state.rounds)


def run_random(games: int, seed: int, differential: Differential | None = None,
               progress: bool = False) -> tuple[Differential, Counter[str], int]:
    """``games`` random games spread round-robin over ``variants``; returns the differential,
    the games per variant and the rounds played."""
    rng = random.Random(seed)
    configs = variants(rng)
    diff = differential if differential is not None else Differential()
    per_variant: Counter[str] = Counter()
    rounds = 0
    for game in range(games):
        name, config = configs[game % len(configs)]
        rounds += play_random(config, rng.randrange(2**32), rng.randrange(config.players), rng,
                              diff)
        per_variant[name] += 1
        if progress and (game + 1) % 100 == 0:
            print(f"    {game + 1} games, {diff.states:,} states, {diff.disagreements} "
                  "disagreements", flush=True)
    return diff, per_variant, rounds


def run_endgames(games: int, seed: int, cards_left: int = 2,
                 differential: Differential | None = None) -> tuple[Differential, int]:
    """Exhaustive endgames of random games of every variant: each game is played at random to
    the first state of trick play (of a random round) where no seat has more than ``cards_left``
    cards left and a trick is about to be led, and every state of the rest of that round is
    walked (``exhaustive.walk``). Returns the differential and the endgames walked."""
    ex = exhaustive_module()
    rng = random.Random(seed)
    configs = variants(rng)
    diff = differential if differential is not None else Differential()
    walked = 0
    for game in range(games):
        _, config = configs[game % len(configs)]
        state = new_game(config, seed=rng.randrange(2**32), first_dealer=rng.randrange(config.players))
        target_round = rng.randrange(2)
        while not state.is_over:
            r = state.round
            left = max(len(h) + (0 if r.face_up is None else len(r.face_up[s]))
                       for s, h in enumerate(r.hands))
            if (state.phase is Phase.PLAY and r.index >= target_round and left <= cards_left
                    and not state.current_trick()):
                ex.walk(state, diff, r.index + 1)
                walked += 1
                break
            state = apply(state, rng.choice(legal_actions(state)))
    return diff, walked


# -- planted bugs ------------------------------------------------------------------------------------


def planted(name: str) -> AbstractContextManager[None]:
    """An engine bug of ``scripts/exhaustive.py``'s ``PLANTS`` applied for a block ('' for none)."""
    if not name:
        return nullcontext()
    context: AbstractContextManager[None] = exhaustive_module().planted(name)
    return context


def plant_names() -> list[str]:
    return list(exhaustive_module().PLANTS)


def caught_by_walk(plant: str, name: str) -> str | None:
    """The first disagreement the walk ``name`` finds with the engine bug ``plant`` (or None)."""
    diff = Differential(stop_at_first=True)
    with planted(plant):
        try:
            run_walk(name, differential=diff)
        except FirstDisagreement:
            pass
        except bottleimp.BottleImpError:
            pass  # the planted engine contradicts itself; the disagreement came first
        except AssertionError:
            pass  # the walk's own check of the seeded deal; the differential compared it first
    return str(diff.examples[0]).splitlines()[0] if diff.examples else None


def _single_not_doubled(original: Any) -> Any:
    def round_scores(config: model.Config, *rest: Any) -> tuple[int, ...]:
        scores = list(original(config, *rest))
        for team in config.teams:
            if len(team) == 1:
                scores[team[0]] //= 2
        return tuple(scores)
    return round_scores


def _lower_bottle(original: Any) -> Any:
    def contested_bottle(bottles: tuple[model.Bottle, ...]) -> int:
        return min(range(len(bottles)), key=lambda i: (bottles[i].price, i))
    return contested_bottle


def _hidden_follows(original: Any) -> Any:
    def eye_legal_plays(face_up: tuple[model.Card, ...], hidden: tuple[model.Card, ...],
                        trick: tuple[model.Card, ...]) -> frozenset[model.Card]:
        return model.legal_plays(face_up, trick) | model.legal_plays(hidden, trick)
    return eye_legal_plays


def _owner_keeps_captured(original: Any) -> Any:
    def individual_scores(players: int, captured: Any, bottles: Any, devils_trick: Any) -> Any:
        scores = original(players, captured, bottles, devils_trick)
        return [score + (model.coins(captured[seat]) if any(b.owner == seat for b in bottles)
                         else 0) for seat, score in enumerate(scores)]
    return individual_scores


def _target_exceeded(original: Any) -> Any:
    def game_over(config: model.Config, rounds_played: int, totals: tuple[int, ...]) -> bool:
        if config.target is not None:
            return max(totals) > config.target
        result: bool = original(config, rounds_played, totals)
        return result
    return game_over


def _price_card_to_buyer(original: Any) -> Any:
    def resolve_trick(players: int, bottles: Any, plays: Any) -> model.TrickOutcome:
        outcome: model.TrickOutcome = original(players, bottles, plays)
        if outcome.returned is None or outcome.returned_to == outcome.winner:
            return outcome
        piles = [list(p) for p in outcome.captured]
        assert outcome.returned_to is not None
        piles[outcome.returned_to].remove(outcome.returned)
        piles[outcome.winner].append(outcome.returned)
        return model.TrickOutcome(outcome.winner, outcome.winning_card, outcome.bottles,
                                  tuple(map(tuple, piles)), outcome.bought, outcome.returned,
                                  outcome.winner)
    return resolve_trick


def _short_dealer_discards(original: Any) -> Any:
    def setup_shape(config: model.Config, dealer: int, seat: int) -> model.SetupShape:
        shape: model.SetupShape = original(config, dealer, seat)
        return model.SetupShape(max(shape.discards, 1), shape.left, shape.right)
    return setup_shape


MODEL_PLANTS: dict[str, tuple[str, Callable[[Any], Any]]] = {
    "model: a single player in team mode is not doubled": ("round_scores", _single_not_doubled),
    "model: two bottles are judged against the lower price": ("contested_bottle", _lower_bottle),
    "model: Devil's Eye hidden cards follow suit too (BGA's rule)": (
        "eye_legal_plays", _hidden_follows),
    "model: the bottle's owner also scores captured coins": (
        "individual_scores", _owner_keeps_captured),
    "model: a target score must be exceeded, not reached": ("game_over", _target_exceeded),
    "model: the old price card goes to the buyer (the Russian text read literally)": (
        "resolve_trick", _price_card_to_buyer),
    "model: the dealer dealt one card short discards too": ("setup_shape", _short_dealer_discards),
}
"""Rules flipped in the model (not the engine): each must make the differential disagree."""


@contextmanager
def model_planted(name: str) -> Iterator[None]:
    """Flip the model's rule ``name`` (see ``MODEL_PLANTS``) for the duration of the block."""
    attribute, plant = MODEL_PLANTS[name]
    original = getattr(model, attribute)
    setattr(model, attribute, plant(original))
    try:
        yield
    finally:
        setattr(model, attribute, original)


def caught_in_model(name: str, walks: Sequence[str], games: int, seed: int) -> str | None:
    """The first disagreement the walks and random games find with the model's rule flipped."""
    diff = Differential()
    with model_planted(name):
        for walk_name in walks:
            run_walk(walk_name, differential=diff)
            if diff.examples:
                return f"{walk_name}: " + str(diff.examples[0]).splitlines()[0]
        run_random(games, seed, diff)
    if diff.examples:
        return f"random games: {diff.disagreements} disagreements, first: " + str(
            diff.examples[0]).splitlines()[0]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    w = sub.add_parser("walk", help="the exhaustive walks of scripts/exhaustive.py")
    w.add_argument("names", nargs="*")
    w.add_argument("--ci", action="store_true", help="the CI set")
    w.add_argument("--shard", metavar="K/N")
    w.add_argument("--progress", type=int, default=0)
    rnd = sub.add_parser("random", help="random games of every variant")
    rnd.add_argument("--games", type=int, default=500)
    rnd.add_argument("--seed", type=int, default=2026)
    eg = sub.add_parser("endgames", help="every state of the last tricks of random games")
    eg.add_argument("--games", type=int, default=320)
    eg.add_argument("--seed", type=int, default=2026)
    eg.add_argument("--cards-left", type=int, default=2)
    fz = sub.add_parser("fuzz", help="random games of random configurations and custom decks")
    fz.add_argument("--games", type=int, default=1000)
    fz.add_argument("--seed", type=int, default=2026)
    sub.add_parser("plants", help="each planted engine bug against the CI walks it should fail")
    mp = sub.add_parser("model-plants", help="each rule flipped in the model: CI walks, games")
    mp.add_argument("--games", type=int, default=58)
    mp.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    failed = False
    if args.command == "walk":
        ex = exhaustive_module()
        names = list(args.names) + ([s.name for s in ex.CONFIGURATIONS if s.ci] if args.ci else [])
        shard = tuple(map(int, args.shard.split("/"))) if args.shard else None
        print(f"{'configuration':34} {'deals':>8} {'states':>10} {'transitions':>11} "
              f"{'disagree':>8} {'seconds':>8}", flush=True)
        for name in names:
            diff, deals, seconds = run_walk(name, shard, args.progress)  # type: ignore[arg-type]
            print(f"{name:34} {deals:>8} {diff.states:>10,} {diff.transitions:>11,} "
                  f"{diff.disagreements:>8} {seconds:>8.1f}", flush=True)
            print("    " + diff.report().replace("\n", "\n    "), flush=True)
            failed |= diff.disagreements > 0
    elif args.command == "random":
        started = time.perf_counter()
        diff, per_variant, rounds = run_random(args.games, args.seed, progress=True)
        print(f"{args.games} random games (seed {args.seed}), {rounds} rounds, "
              f"{len(per_variant)} variants, {time.perf_counter() - started:.0f} s")
        print("variants: " + ", ".join(f"{k} {v}" for k, v in sorted(per_variant.items())))
        print(diff.report())
        failed = diff.disagreements > 0
    elif args.command == "endgames":
        started = time.perf_counter()
        diff, walked = run_endgames(args.games, args.seed, args.cards_left)
        print(f"{walked} endgames of {args.games} random games (seed {args.seed}, at most "
              f"{args.cards_left} cards a seat), {time.perf_counter() - started:.0f} s")
        print(diff.report())
        failed = diff.disagreements > 0
    elif args.command == "fuzz":
        started = time.perf_counter()
        diff, shapes = run_fuzz(args.games, args.seed)
        print(f"{args.games} random games of random configurations (seed {args.seed}), "
              f"{time.perf_counter() - started:.0f} s")
        print("shapes: " + ", ".join(f"{k} {v}" for k, v in sorted(shapes.items())))
        print(diff.report())
        failed = diff.disagreements > 0
    elif args.command == "model-plants":
        walks = [s.name for s in exhaustive_module().CONFIGURATIONS if s.ci]
        for plant in MODEL_PLANTS:
            found = caught_in_model(plant, walks, args.games, args.seed)
            print(f"{plant}\n    {'caught: ' + found if found else 'NOT CAUGHT'}"[:400], flush=True)
            failed |= found is None
    else:
        for plant in plant_names():
            target = exhaustive_module().PLANTS[plant][3]
            found = caught_by_walk(plant, target)
            print(f"{plant}\n    {target}: {'caught: ' + found if found else 'NOT CAUGHT'}",
                  flush=True)
            failed |= found is None
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

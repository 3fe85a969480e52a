"""A small engine written apart from bottleimp (it imports nothing of it) that plays random games
of 3-4 players with the classic deck and one bottle and writes them as ``bottleimp-record/1``,
with the bugs real engines were found to have, each switchable:

- ``passes_reversed``: each seat's ``left`` card goes to its right neighbour and back;
- ``colours`` / ``coins``: the deck file whose colours / coins the engine plays and scores with
  (the record still says ``classic``); ``invented_coins``: coins made up from a seed;
- ``dealer``: ``"rotate"`` (right), ``"counter"`` (the deal passes right), ``"random"`` (a
  random dealer each round, written as dealt), ``"hidden"`` (a random dealer, but the record
  names the seat the rotation expects).

It reads the decks from the deck files themselves (``spec/decks``), as another implementation
would.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

DECKS = Path(__file__).resolve().parent.parent / "spec" / "decks"
START_PRICE = 19


def deck_cards(edition: str, name: str) -> list[tuple[int | float, str, int]]:
    """The ``[rank, colour, coins]`` cards of a deck file's deck."""
    data = json.loads((DECKS / f"{edition}.json").read_text(encoding="utf-8"))
    deck = next(deck for deck in data["decks"] if deck["name"] == name)
    return [(rank, colour, coins) for rank, colour, coins in deck["cards"]]


@dataclass(frozen=True)
class Bugs:
    passes_reversed: bool = False
    colours: tuple[str, str] | None = None
    coins: tuple[str, str] | None = None
    invented_coins: int | None = None
    dealer: str = "rotate"


def write_game(players: int, rounds: int, seed: int, bugs: Bugs = Bugs()) -> dict[str, Any]:
    """A whole game of random legal plays (as this engine sees them), as a record."""
    rng = random.Random(seed)
    cards = deck_cards("classic", "classic")
    colour = {rank: c for rank, c, _ in (deck_cards(*bugs.colours) if bugs.colours else cards)}
    coins = {rank: n for rank, _, n in (deck_cards(*bugs.coins) if bugs.coins else cards)}
    if bugs.invented_coins is not None:
        invent = random.Random(bugs.invented_coins)
        coins = {rank: invent.randint(0, 7) for rank in coins}
    ranks = [rank for rank, _, _ in cards]
    dealer = rng.randrange(players)
    recorded_rounds: list[dict[str, Any]] = []
    totals = [0] * players
    for number in range(rounds):
        expected = dealer if number == 0 else (recorded_rounds[-1]["dealer"] + 1) % players
        if number > 0:
            dealer = {"rotate": (dealer + 1) % players, "counter": (dealer - 1) % players,
                      "random": rng.randrange(players), "hidden": rng.randrange(players)}[bugs.dealer]
        recorded_dealer = expected if bugs.dealer == "hidden" else dealer
        round_, scores = _play_round(rng, players, dealer, ranks, colour, coins, bugs)
        round_["dealer"] = recorded_dealer
        recorded_rounds.append(round_)
        totals = [total + score for total, score in zip(totals, scores)]
    return {
        "format": "bottleimp-record/1",
        "config": {"edition": "classic", "players": players, "bottles": 1, "teams": None,
                   "rounds": rounds, "target_score": None},
        "rounds": recorded_rounds,
        "totals": totals,
    }


def _play_round(rng: random.Random, players: int, dealer: int, ranks: list[Any],
                colour: dict[Any, str], coins: dict[Any, int],
                bugs: Bugs) -> tuple[dict[str, Any], list[int]]:
    shuffled = ranks[:]
    rng.shuffle(shuffled)
    hands: list[list[Any]] = [[] for _ in range(players)]
    for index, rank in enumerate(shuffled):
        hands[(dealer + 1 + index) % players].append(rank)
    dealt = [sorted(hand) for hand in hands]
    setup, devils_trick = [], []
    received: list[list[Any]] = [[] for _ in range(players)]
    for seat in range(players):
        discard, left, right = rng.sample(hands[seat], 3)
        for card in (discard, left, right):
            hands[seat].remove(card)
        setup.append({"discard": [discard], "left": left, "right": right})
        devils_trick.append(discard)
        to_left, to_right = (seat + 1) % players, (seat - 1) % players
        if bugs.passes_reversed:
            to_left, to_right = to_right, to_left
        received[to_left].append(left)
        received[to_right].append(right)
    for seat in range(players):
        hands[seat].extend(received[seat])
    price, owner, price_card = START_PRICE, None, None
    captured: list[list[Any]] = [[] for _ in range(players)]
    plays: list[list[Any]] = []
    leader = (dealer + 1) % players
    while hands[leader]:
        trick: list[tuple[int, Any]] = []
        for offset in range(players):
            seat = (leader + offset) % players
            options = hands[seat]
            if trick:
                led = colour[trick[0][1]]
                following = [card for card in options if colour[card] == led]
                options = following or options
            card = rng.choice(options)
            hands[seat].remove(card)
            trick.append((seat, card))
            plays.append([seat, card])
        below = [(card, seat) for seat, card in trick if card < price]
        if below:
            card, winner = max(below)
            if price_card is not None and owner is not None:
                captured[owner].append(price_card)
            owner, price, price_card = winner, card, card
            captured[winner].extend(c for _, c in trick if c != card)
        else:
            card, winner = max((card, seat) for seat, card in trick)
            captured[winner].extend(c for _, c in trick)
        leader = winner
    penalty = sum(coins[card] for card in devils_trick)
    scores = [-penalty if seat == owner else sum(coins[card] for card in captured[seat])
              for seat in range(players)]
    round_ = {"dealer": dealer, "hands": dealt, "face_up": None, "setup": setup,
              "plays": plays, "scores": scores}
    return round_, scores

#!/usr/bin/env python3
"""A second, independent implementation of The Bottle Imp's rules, speaking
bottleimp-protocol/3 (and /2, /1) (spec/protocol.md) on stdin/stdout, one JSON object per line.

It is written from the rules, not from the bottleimp library, and deliberately does not import
it: it exists so that ``bottleimp conformance --cmd`` has something to compare against, as a
test bed with planted bugs, and as a small, readable example for anyone writing their own
implementation.

    python examples/reference_peer/peer.py                          # the rules as written
    python examples/reference_peer/peer.py --bug pass-reversed --bug random-dealer
    BOTTLEIMP_PEER_BUGS=swap-colours,wrong-coins python examples/reference_peer/peer.py
    python examples/reference_peer/peer.py --players 3,4 --editions classic --no-teams

``--bug`` (repeatable, or the comma-separated environment variable ``BOTTLEIMP_PEER_BUGS``)
plants a bug found in other implementations, to show the harness catching it:

- ``devils-trick-assign``: the Devil's Trick is summed with ``=`` instead of ``+=``, so the
  bottle owner pays only the coins of the last card counted (Board Game Arena, fixed bug).
- ``half-rank-int``: a price is held as an integer, a half rank rounded half up (12.5 -> 13),
  like a price written to an INT database column (Board Game Arena).
- ``seat-zero-leads``: seat 0 always leads the first trick, whoever dealt.
- ``pass-back``: each seat gets a copy of the card it passed left back, and the card it passed
  right is lost: one card duplicated, one lost (the passing bug of another implementation).
- ``pass-reversed``: the card passed left goes right and the card passed right goes left.
- ``swap-colours``: its deck data give 3 and 4 each other's colour (every edition).
- ``wrong-coins``: its deck data give 9 five coins and 33 two (invented coin values).
- ``random-dealer``: after each round it draws the next dealer at random instead of passing the
  deal clockwise (its ``end_round`` answer).
- ``renamed-colours``: its deck data call yellow "blue" and blue "yellow" everywhere (a
  consistent renaming: play cannot show it; a declared deck shows it as a note).
- ``flaky-scores``: every ``scores`` answer gives seat 0 a random 1 to 1,000,000 coins more (not
  seeded): a peer that answers the same requests differently, every time (two answers agree
  one time in a million, so the harness's replays find it without fail).
- ``keep-winning-card``: in the ``trick`` conformance case the winner keeps the winning card in
  its pile as well (an engine that answers ``winner_takes`` otherwise, with the same scores).
- ``seat-zero-leads-every-trick``: seat 0 leads every trick, whoever won the last one (the C#
  engine's leading bug).
- ``dealer-never-rotates``: its ``end_round`` names the same dealer again (the C# engine's "the
  dealer never rotates").
- ``no-follow-suit``: any held card may be played, whatever was led (a copy of the general
  card-game engine with its follow-suit rule removed).
- ``any-seat-plays``: it takes a play from any seat, whoever's turn it is (no TURN-ORDER
  check on ``play``).
- ``target-zero``: it accepts a target score of 0, and so ends the game after one round (the
  PHP engine's bug).

``--shape`` (repeatable) gives it the shape of a real engine (none of them a bug of the rules):

- ``target-only``: it plays to a target score only (declares ``game_ends: ["target_score"]``;
  a game with another end is refused ``UNSUPPORTED``), as a chat-bot game does.
- ``setups-any-order``: it takes a round's setups in any seat order, as the sources have every
  seat choose at once (declares ``setups_any_order``); ``setups-any-order-undeclared`` takes
  them so without declaring it.
- ``own-zones``: it keeps the price card in the buyer's pile, not under the bottle (the same
  scores; with ``set_position`` it moves the card there; its ``trick`` cases ignore
  ``winner_takes`` and ``returned_price_card``).
- ``random-words``: every refusal's message carries a random name (not seeded).
- ``no-dealer``: it has no dealer, only a first seat (declares ``"dealer": false``): its first
  seat is the named dealer's left, and it names the seat before its first seat as the dealer.
- ``one-round``: it plays exactly one round a game (declares ``one_round``; any other game is
  refused ``UNSUPPORTED``).
- ``two-stage``: it takes every discard, then every pass: the discards go to the Devil's Trick as
  each seat gives them, the passes move once every seat has chosen.

Capabilities (declared in the ``hello`` answer; a game outside them is refused ``UNSUPPORTED``):
``--players 3,4``, ``--editions classic``, ``--bottles 1``, ``--no-teams``; ``--no-set-position``
does not declare ``set_position`` (the harness then follows its answers instead).
``--declare-deck``
declares its own deck data; ``--protocol-deck`` plays the deck each ``new_round`` carries
instead of its own; ``--ignore KEY`` declares a case key it does not compute.

Python 3.9+, standard library only.
"""

import argparse
import json
import os
import random
import sys

PROTOCOL = "bottleimp-protocol/3"
START_PRICE = 19
DEFAULT_ROUNDS = {2: 6, 3: 9, 4: 8, 5: 5, 6: 6}  # rounds per game when none are configured (BGA)
COLOURS = ("yellow", "blue", "red", "green")

# The decks: colour -> "rank:coins" for every card. Half ranks (54-card deck, 5-6 players) have
# the colour and coins of the whole rank just below them.
CLASSIC = {
    "yellow": "1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
    "blue": "4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6",
    "red": "11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6",
}
MATAGOT = {
    "red": "1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
    "blue": "3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6",
    "green": "11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6",
}
MATAGOT_HALVES = [2.5, 4.5, 6.5, 8.5, 10.5, 12.5, 14.5, 16.5, 18.5, 20.5, 22.5, 24.5, 26.5,
                  28.5, 30.5, 32.5, 34.5, 36.5]


def build_deck(edition, players, bugs=()):
    """rank -> (colour, coins) for the cards dealt in this game (its own data, bugs included)."""
    table = CLASSIC if edition == "classic" else MATAGOT
    deck = {}
    for colour, cards in table.items():
        for pair in cards.split():
            rank, coins = pair.split(":")
            deck[int(rank)] = (colour, int(coins))
    if "swap-colours" in bugs:
        (colour3, coins3), (colour4, coins4) = deck[3], deck[4]
        deck[3], deck[4] = (colour4, coins3), (colour3, coins4)
    if "wrong-coins" in bugs:
        deck[9] = (deck[9][0], 5)
        deck[33] = (deck[33][0], 2)
    if "renamed-colours" in bugs:
        names = {"yellow": "blue", "blue": "yellow"}
        deck = {rank: (names.get(colour, colour), coins) for rank, (colour, coins) in deck.items()}
    if edition == "matagot-2024" and players >= 5:
        for half in MATAGOT_HALVES:
            deck[half] = deck[int(half)]
    return deck


def is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def is_rank(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == value \
        and abs(value) != float("inf")


def need(obj, required, optional=()):
    """Refuse (PROTOCOL) a request or object with a key missing or a key it does not define."""
    if not isinstance(obj, dict):
        raise Refused("PROTOCOL", "expected a JSON object")
    for key in required:
        if key not in obj:
            raise Refused("PROTOCOL", f"{key!r} is missing")
    for key in obj:
        if key not in required and key not in optional and not key.startswith("_"):
            raise Refused("PROTOCOL", f"unknown key {key!r}")
    return obj


def check_config(config, bugs=()):
    """The configuration checks, in the rules' order: players, edition, bottles, teams, game end.
    Returns the configuration with its defaults filled in."""
    need(config, ("players",), ("edition", "bottles", "teams", "rounds", "target_score", "deck"))
    players = config["players"]
    edition = config.get("edition", "classic")
    bottles = config.get("bottles", 1)
    teams = config.get("teams")
    if not is_int(players) or not isinstance(edition, str) or not is_int(bottles):
        raise Refused("PROTOCOL", "players and bottles are integers, edition a string")
    if teams is not None and not (isinstance(teams, list) and all(
            isinstance(team, list) and all(is_int(seat) for seat in team) for team in teams)):
        raise Refused("PROTOCOL", "teams are lists of seats")
    for key in ("rounds", "target_score"):
        if config.get(key) is not None and not is_int(config[key]):
            raise Refused("PROTOCOL", f"{key} is an integer")
    if not 2 <= players <= 6:
        raise Refused("CONFIG-PLAYERS", "2 to 6 players")
    if edition not in ("classic", "matagot-2024"):
        raise Refused("CONFIG-EDITION", f"no edition {edition!r}")
    if edition == "classic" and players > 4 and config.get("deck") is None:
        raise Refused("CONFIG-EDITION", "5-6 players need the 54-card deck")
    if bottles not in (1, 2) or (bottles == 2 and players < 5):
        raise Refused("CONFIG-BOTTLES", "one bottle, or two for 5-6 players")
    if teams is not None:
        seats = sorted(seat for team in teams for seat in team)
        if players < 4 or bottles != 1 or seats != list(range(players)) or any(
                len(team) not in (1, 2) for team in teams) or not any(len(t) == 2 for t in teams):
            raise Refused("CONFIG-TEAMS", "teams partition 4-6 seats into pairs and singles")
    rounds, target = config.get("rounds"), config.get("target_score")
    lowest = {"rounds": 1, "target": 0 if "target-zero" in bugs else 1}
    if (rounds is not None and target is not None) or any(
            value is not None and value < lowest[key]
            for key, value in (("rounds", rounds), ("target", target))):
        raise Refused("CONFIG-GAME-END", "rounds or a target score, positive")
    return {"players": players, "edition": edition, "bottles": bottles, "teams": teams}


def deck_from_triples(value, players):
    """A deck sent as [rank, colour, coins] triples, checked (rule CONFIG-DECK)."""
    if not isinstance(value, list):
        raise Refused("PROTOCOL", "a deck is a list of [rank, colour, coins]")
    deck = {}
    for item in value:
        if not (isinstance(item, list) and len(item) == 3 and is_rank(item[0])
                and item[1] in COLOURS and is_int(item[2]) and item[2] >= 0):
            raise Refused("PROTOCOL", f"not a card: {item!r}")
        if item[0] in deck:
            raise Refused("CONFIG-DECK", f"rank {item[0]} twice")
        deck[item[0]] = (item[1], item[2])
    size = len(deck)
    if START_PRICE in deck:
        raise Refused("CONFIG-DECK", "19 is the start card, not a card of the deck")
    if players == 2:
        if size < 12 or size % 12:
            raise Refused("CONFIG-DECK", "a 2-player deck needs a multiple of 12 cards")
    elif size % players not in (0, players - 1) or size // players < 2 + (size % players == 0):
        raise Refused("CONFIG-DECK", f"{size} cards cannot be dealt to {players} players")
    return deck


def number(rank):
    """A rank as JSON writes it: 17, not 17.0; 2.5 stays 2.5."""
    return int(rank) if rank == int(rank) else rank


def ranks(cards):
    return [number(card) for card in sorted(cards)]


class Refused(Exception):
    """An action or request refused, with the rule ID it breaks."""

    def __init__(self, rule, message):
        super().__init__(message)
        self.rule = rule
        self.message = message


class Bottle:
    def __init__(self):
        self.card = None  # the card under the bottle; None: the start card 19
        self.price = START_PRICE
        self.owner = None


class Round:
    """One round: the deal, the setup, the tricks and the scores."""

    shapes = frozenset()  # the engine shapes it takes (see SHAPES); the Peer sets them

    def __init__(self, config, dealer, hands, face_up, bugs, deck=None):
        self.bugs = bugs
        self.players = players = config["players"]
        self.deck = deck if deck is not None else build_deck(config["edition"], players, bugs)
        self.teams = config.get("teams")
        self.dealer = dealer
        self.eye = players == 2
        self.trick_size = 4 if self.eye else players
        self.check_deal(hands, face_up)
        self.hands = [set(hand) for hand in hands]
        self.face_up = [set(row) for row in face_up] if self.eye else None
        self.given = [None] * players  # each seat's setup, once it has given it
        self.devils_trick = []
        self.bottles = [Bottle() for _ in range(config.get("bottles", 1))]
        self.captured = [[] for _ in range(players)]
        self.trick = []  # (seat, card) in play order
        self.phase = "setup"
        self.to_act = (dealer + 1) % players
        self.scores = None

    # -- the deal and the setup --

    def counts(self, total):
        """Cards per seat when ``total`` cards are dealt one at a time from the dealer's left."""
        base, extra = divmod(total, self.players)
        return [base + (1 if (seat - self.dealer - 1) % self.players < extra else 0)
                for seat in range(self.players)]

    def check_deal(self, hands, face_up):
        for rows in (hands, face_up or []):
            if not isinstance(rows, list) or not all(
                    isinstance(row, list) and all(is_rank(card) for card in row) for row in rows):
                raise Refused("PROTOCOL", "a deal is a list of card lists per seat")
        size = len(self.deck)
        hidden = size * 2 // 3 if self.eye else size
        zones = [(hands, self.counts(hidden))]
        if len(hands) != self.players:
            raise Refused("DEAL-COUNTS", "one hand per seat")
        if self.eye:
            if face_up is None:
                raise Refused("DEAL-COUNTS", "Devil's Eye needs face-up cards")
            zones.append((face_up, self.counts(size - hidden)))
        elif face_up is not None:
            raise Refused("DEAL-COUNTS", "only the 2-player game has face-up cards")
        seen = []
        for rows, counts in zones:
            if len(rows) != self.players:
                raise Refused("DEAL-COUNTS", "one row per seat")
            for row, count in zip(rows, counts):
                if len(row) != count:
                    raise Refused("DEAL-COUNTS", f"a hand of {len(row)} cards, not {count}")
                seen.extend(row)
        if sorted(seen) != sorted(self.deck):
            raise Refused("DEAL-COUNTS", "the deal is not the deck, each card once")

    def steps(self, seat):
        if self.eye:
            return ["devils_trick", "devils_trick", "to_face_up", "to_hidden"]
        if seat == self.dealer and len(self.deck) % self.players:
            return ["left", "right"]  # the 5-player dealer, dealt one card fewer
        return ["devils_trick", "left", "right"]

    def setup(self, seat, entry):
        for card in list(entry["discard"]) + [entry[key] for key in
                                              ("left", "right", "to_face_up", "to_hidden")
                                              if key in entry]:
            if not is_rank(card):
                raise Refused("PROTOCOL", "a card is a number")
        if self.phase != "setup":
            raise Refused("PHASE", "the setup is over")
        if not 0 <= seat < self.players:
            raise Refused("SETUP-ORDER", f"there is no seat {seat}")
        if self.given[seat] is not None:
            raise Refused("SETUP-STEPS", f"seat {seat} has given its setup")
        if seat != self.to_act and not self.shapes & {"setups-any-order",
                                                      "setups-any-order-undeclared"}:
            raise Refused("SETUP-ORDER", f"seat {self.to_act} gives its setup now")
        parts = [("devils_trick", card) for card in entry["discard"]]
        parts += [(key, entry[key]) for key in ("left", "right", "to_face_up", "to_hidden")
                  if key in entry]
        steps = self.steps(seat)
        remaining = set(self.hands[seat])
        for index, (where, card) in enumerate(parts):
            if index >= len(steps) or where != steps[index]:
                raise Refused("SETUP-STEPS", f"seat {seat}'s setup is {steps}")
            if card not in remaining:
                raise Refused("SETUP-FROM-DEALT", f"seat {seat} was not dealt {card}")
            remaining.remove(card)
        if len(parts) < len(steps):
            raise Refused("SETUP-STEPS", f"seat {seat}'s setup is {steps}")
        self.hands[seat] = remaining
        self.given[seat] = parts
        if "two-stage" in self.shapes:
            # Stage one: the discards go to the Devil's Trick as each seat gives them; stage
            # two, once every seat has chosen, moves the passes (so no pass is seen early).
            self.devils_trick.extend(card for where, card in parts if where == "devils_trick")
        waiting = [(self.dealer + k) % self.players for k in range(1, self.players + 1)]
        waiting = [s for s in waiting if self.given[s] is None]
        if waiting:
            self.to_act = waiting[0]
            return {"ok": True, "to_act": self.to_act}
        self.resolve_setup()
        return {"ok": True, "to_act": self.to_act, "hands": [ranks(h) for h in self.hands],
                "face_up": [ranks(f) for f in self.face_up] if self.eye else None,
                "devils_trick": ranks(self.devils_trick)}

    def resolve_setup(self):
        """Every seat has chosen: all the given cards move at once."""
        n = self.players
        for seat, parts in enumerate(self.given):
            for where, card in parts:
                if where == "devils_trick":
                    if "two-stage" not in self.shapes:
                        self.devils_trick.append(card)
                elif where == "left":
                    to = seat - 1 if "pass-reversed" in self.bugs else seat + 1
                    self.hands[to % n].add(card)
                elif where == "right" and "pass-reversed" in self.bugs:
                    self.hands[(seat + 1) % n].add(card)
                elif where == "right":
                    if "pass-back" in self.bugs:
                        own_left = dict(parts)["left"]
                        self.hands[seat].add(own_left)
                    else:
                        self.hands[(seat - 1) % n].add(card)
                elif where == "to_hidden":
                    self.hands[1 - seat].add(card)
                else:
                    self.face_up[1 - seat].add(card)
        self.phase = "play"
        self.to_act = 0 if "seat-zero-leads" in self.bugs else (self.dealer + 1) % n

    # -- trick play --

    def colour(self, card):
        return self.deck[card][0]

    def playable(self, seat):
        led = self.colour(self.trick[0][1]) if self.trick else None
        hand = self.hands[seat]
        if self.eye:
            # Face-up cards must follow the led colour if the face-up cards hold it; a hidden
            # card may always be played.
            face_up = self.face_up[seat]
            following = {c for c in face_up if self.colour(c) == led}
            return hand | (following if following else face_up)
        following = {c for c in hand if self.colour(c) == led}
        if "no-follow-suit" in self.bugs:
            return set(hand)
        return following if following else set(hand)

    def play(self, seat, card):
        if self.phase != "play":
            raise Refused("PHASE", "no card is played now")
        if seat != self.to_act and "any-seat-plays" not in self.bugs:
            raise Refused("TURN-ORDER", f"it is seat {self.to_act}'s turn")
        held = self.hands[seat] | (self.face_up[seat] if self.eye else set())
        if card not in held:
            raise Refused("CARD-HELD", f"seat {seat} does not hold {card}")
        if card not in self.playable(seat):
            raise Refused("EYE-FOLLOW-SUIT" if self.eye else "FOLLOW-SUIT",
                          "the led colour must be followed")
        (self.hands[seat] if card in self.hands[seat] else self.face_up[seat]).remove(card)
        self.trick.append((seat, card))
        self.to_act = (seat + 1) % self.players
        answer = {"ok": True, "to_act": self.to_act}
        if len(self.trick) == self.trick_size:
            answer["trick"] = self.resolve_trick()
            answer["to_act"] = self.to_act
            if not any(self.hands) and not (self.eye and any(self.face_up)):
                self.phase = "over"
                self.scores = self.score()
                answer["to_act"] = None
        return answer

    def resolve_trick(self):
        # The trick is judged against the highest price; at equal prices, the first bottle.
        index = 0
        for i, bottle in enumerate(self.bottles):
            if bottle.price > self.bottles[index].price:
                index = i
        bottle = self.bottles[index]
        below = [(card, seat) for seat, card in self.trick if card < bottle.price]
        card, winner = max(below) if below else max((c, s) for s, c in self.trick)
        taken = [c for _, c in self.trick]
        bought = None
        if below:
            bought = index
            if "own-zones" not in self.shapes:
                taken.remove(card)  # the winning card goes under the bottle
                if bottle.card is not None:
                    self.captured[bottle.owner].append(bottle.card)
            # own-zones: the price card stays in the buyer's pile (and so is never returned):
            # the same scores, as the owner of the bottle scores its penalty alone.
            bottle.card, bottle.owner = card, winner
            bottle.price = int(card + 0.5) if "half-rank-int" in self.bugs else card
        self.captured[winner].extend(taken)
        self.trick = []
        self.to_act = 0 if "seat-zero-leads-every-trick" in self.bugs else winner
        return {"winner": winner, "card": number(card), "bottle": bought,
                "bottles": [{"price": number(b.price), "owner": b.owner} for b in self.bottles]}

    # -- scoring --

    def coins(self, cards):
        return sum(self.deck[card][1] for card in cards)

    def score(self):
        penalty = 0
        for card in self.devils_trick:
            if "devils-trick-assign" in self.bugs:
                penalty = self.deck[card][1]
            else:
                penalty += self.deck[card][1]
        owned = [0] * self.players
        for bottle in self.bottles:
            if bottle.owner is not None:
                owned[bottle.owner] += 1
        if not self.teams:
            return [-penalty * owned[s] if owned[s] else self.coins(self.captured[s])
                    for s in range(self.players)]
        scores = [0] * self.players
        for team in self.teams:
            team_owned = sum(owned[s] for s in team)
            result = -penalty * team_owned if team_owned else sum(
                self.coins(self.captured[s]) for s in team)
            if len(team) == 1:
                result *= 2
            for seat in team:
                scores[seat] = result
        return scores


# -- conformance cases (op "case"): the same rules on a position given whole --


def case_trick(config, given, bugs):
    deck = build_deck(config["edition"], config["players"], bugs)
    bottles = given["bottles"]
    index = 0
    for i, bottle in enumerate(bottles):
        if bottle["price"] > bottles[index]["price"]:
            index = i
    price = bottles[index]["price"]
    trick = [(seat, card) for seat, card in given["trick"]]
    for _, card in trick:
        if card not in deck:
            raise Refused("PROTOCOL", f"{card} is not a card")
    below = [(card, seat) for seat, card in trick if card < price]
    card, winner = max(below) if below else max((c, s) for s, c in trick)
    takes = [c for _, c in trick]
    returned = None
    after = [dict(bottle) for bottle in bottles]
    bought = None
    if below:
        bought = index
        if "keep-winning-card" not in bugs:
            takes.remove(card)
        old = bottles[index]
        if old["price"] != START_PRICE:
            returned = {"seat": old["owner"], "card": old["price"]}
        after[index] = {"price": card, "owner": winner}
    return {"winner": winner, "winning_card": card, "bottle": bought, "bottles": after,
            "winner_takes": ranks(takes), "returned_price_card": returned}


def _position(config, hands, face_up, trick, bugs):
    """A round in trick play holding the given cards, the trick so far played."""
    players = config["players"]
    position = Round.__new__(Round)
    position.bugs = bugs
    position.players = players
    position.deck = build_deck(config["edition"], players, bugs)
    position.eye = players == 2
    position.hands = [set(hand) for hand in hands]
    position.face_up = [set(row) for row in face_up] if face_up is not None else None
    position.trick = trick
    position.phase = "play"
    return position


def case_legal_plays(config, given, bugs):
    players = config["players"]
    seat = given["seat"]
    hands = [[] for _ in range(players)]
    hands[seat] = given["hand"]
    face_up = None
    if players == 2:
        face_up = [[], []]
        face_up[seat] = given.get("face_up") or []
    trick = [(s, card) for s, card in given["trick"]]
    position = _position(config, hands, face_up, trick, bugs)
    legal = position.playable(seat)
    answer = {"legal": ranks(legal)}
    if "attempts" in given:
        held = position.hands[seat] | (position.face_up[seat] if position.eye else set())
        answer["attempts"] = [
            None if card in legal else "CARD-HELD" if card not in held
            else "EYE-FOLLOW-SUIT" if position.eye else "FOLLOW-SUIT"
            for card in given["attempts"]]
    return answer


def case_setup(config, given, bugs):
    players = config["players"]
    dealer = given["dealer"]
    try:
        position = Round(config, dealer, given["hands"], given.get("face_up"), bugs)
        for k in range(1, players + 1):
            seat = (dealer + k) % players
            entry = dict(given["setup"][seat])
            position.setup(seat, entry)
    except Refused as refused:
        if refused.rule == "PROTOCOL":
            raise
        return {"error": refused.rule}
    return {"hands": [ranks(hand) for hand in position.hands],
            "face_up": [ranks(row) for row in position.face_up] if position.eye else None,
            "devils_trick": ranks(position.devils_trick), "leader": position.to_act}


def case_scoring(config, given, bugs):
    players = config["players"]
    position = _position(config, given["captured"], None, [], bugs)
    position.teams = config.get("teams")
    position.captured = [list(pile) for pile in given["captured"]]
    position.devils_trick = list(given["devils_trick"])
    position.bottles = []
    for item in given["bottles"]:
        bottle = Bottle()
        bottle.price, bottle.owner = item["price"], item["owner"]
        position.bottles.append(bottle)
    del players
    return {"scores": position.score()}


CASES = {"trick": case_trick, "legal_plays": case_legal_plays, "setup": case_setup,
         "scoring": case_scoring}


class Peer:
    """Answers one request at a time."""

    def __init__(self, bugs, capabilities=None,
                 declare_deck=False, protocol_deck=False, ignore=(), set_position=True,
                 shapes=()):
        self.bugs = set(bugs)
        self.shapes = frozenset(shapes)
        self.capabilities = capabilities or {"players": [2, 3, 4, 5, 6],
                                             "editions": ["classic", "matagot-2024"],
                                             "bottles": [1, 2], "teams": True}
        self.declare_deck = declare_deck
        self.protocol_deck = protocol_deck
        self.ignore = list(ignore)
        self.set_position = set_position
        self.round = None
        # The game around the rounds.
        self.config = None
        self.round_index = 0
        self.totals = []
        self.ended = None

    def answer(self, request):
        try:
            return self.dispatch(request)
        except Refused as refused:
            message = refused.message
            if "random-words" in self.shapes:
                # Not seeded: the same refusal never reads the same twice.
                message += f" (player {random.SystemRandom().choice(WORDS)})"
            return {"ok": False, "error": message, "rule": refused.rule}
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
            return {"ok": False, "error": f"malformed request: {error!r}", "rule": "PROTOCOL"}

    def hello(self, request):
        need(request, ("op", "protocol"))
        if request["protocol"] != PROTOCOL:
            raise Refused("PROTOCOL", f"this peer speaks {PROTOCOL}")
        capabilities = dict(self.capabilities)
        if self.declare_deck:
            capabilities["decks"] = {
                edition: [[number(rank), colour, coins] for rank, (colour, coins) in
                          sorted(build_deck(edition, 6 if edition != "classic" else 4,
                                            self.bugs).items())]
                for edition in capabilities["editions"]}
        if self.ignore:
            capabilities["ignore"] = self.ignore
        if self.set_position:
            capabilities["set_position"] = True
        if "target-only" in self.shapes:
            capabilities["game_ends"] = ["target_score"]
        if "setups-any-order" in self.shapes:
            capabilities["setups_any_order"] = True
        if "one-round" in self.shapes:
            capabilities["one_round"] = True
        if "no-dealer" in self.shapes:
            capabilities["dealer"] = False
        if "own-zones" in self.shapes:
            # The trick case's piles are its own (no price card returned).
            capabilities["ignore"] = sorted(set(self.ignore) | {"winner_takes",
                                                                  "returned_price_card"})
        return {"ok": True, "protocol": PROTOCOL, "capabilities": capabilities}

    def supported(self, config):
        capabilities = self.capabilities
        return (config["players"] in capabilities["players"]
                and config["edition"] in capabilities["editions"]
                and config["bottles"] in capabilities["bottles"]
                and (capabilities["teams"] or not config["teams"]))

    def new_round(self, request):
        need(request, ("op", "config", "hands"), ("face_up", "deck", "dealer", "round"))
        config = check_config(request["config"], self.bugs)
        players = config["players"]
        sent = request.get("deck", request["config"].get("deck"))
        deck = self.playing_deck(sent, config)
        index = request.get("round", 0)
        if not is_int(index) or index < 0:
            raise Refused("PROTOCOL", "round is a number from 0")
        if "dealer" in request:
            dealer = request["dealer"]
            if not is_int(dealer) or not 0 <= dealer < players:
                raise Refused("PROTOCOL", "the dealer is a seat")
            if "no-dealer" in self.shapes:
                # The engine has no dealer, only a first seat: the dealer's left. Its answers
                # name the seat before its first seat as the dealer.
                first_seat = (dealer + 1) % players
                dealer = (first_seat - 1) % players
        elif "no-dealer" in self.shapes:
            raise Refused("PROTOCOL", "this engine has no dealer: every new_round names one")
        elif index == 0 or self.ended is None or self.round_index != index - 1:
            raise Refused("PROTOCOL", "no dealer named, and no ended round to pass the deal on")
        else:
            dealer = self.ended["dealer"]
        if not self.supported(config):
            raise Refused("UNSUPPORTED", "this peer does not play that variant")
        if "target-only" in self.shapes and request["config"].get("target_score") is None:
            raise Refused("UNSUPPORTED", "this peer plays to a target score only")
        if "one-round" in self.shapes and request["config"].get("rounds") != 1:
            raise Refused("UNSUPPORTED", "this peer plays one round a game")
        round_ = Round(config, dealer, request["hands"], request.get("face_up"), self.bugs, deck)
        round_.shapes = self.shapes
        self.round = round_
        if index == 0 or len(self.totals) != players:
            self.totals = [0] * players
        self.config = request["config"]
        self.round_index = index
        self.ended = None
        return {"ok": True, "dealer": round_.dealer, "to_act": round_.to_act}

    def playing_deck(self, sent, config):
        """The deck a round plays: the one sent when it differs from its own cards (or always
        with --protocol-deck), else its own data (None)."""
        if sent is None:
            return None
        deck = deck_from_triples(sent, config["players"])
        own = build_deck(config["edition"], config["players"], self.bugs)
        if not self.protocol_deck and sorted(deck) == sorted(own):
            return None  # the same cards: play its own data for them
        return deck

    def end_round(self):
        """Whether the game is over after this round, and who deals next."""
        if self.ended is not None:
            return self.ended
        round_ = self.round
        if round_.scores is None:
            raise Refused("ROUND-END", "the round is not over")
        self.totals = [total + score for total, score in zip(self.totals, round_.scores)]
        rounds, target = self.config.get("rounds"), self.config.get("target_score")
        if target is not None:
            over = max(self.totals) >= target
        else:
            over = self.round_index + 1 >= (rounds if rounds is not None else
                                            DEFAULT_ROUNDS[round_.players])
        dealer = None
        if not over:
            # dealer-never-rotates: the deal never moves.
            step = 0 if "dealer-never-rotates" in self.bugs else 1
            dealer = (round_.dealer + step) % round_.players
            if "random-dealer" in self.bugs:
                seed = json.dumps(sorted(round_.devils_trick)) + str(self.round_index)
                dealer = random.Random(seed).randrange(round_.players)
        self.ended = {"ok": True, "game_over": over, "dealer": dealer}
        return self.ended

    def take_position(self, request):
        """Take the position whole (its zones; the state's history is not needed)."""
        need(request, ("op", "state", "position"))
        state, position = request["state"], request["position"]
        need(position, ("phase", "deck", "dealer", "to_act", "hands", "face_up", "setup",
                        "devils_trick", "bottles", "captured", "trick"))
        config = check_config(state["config"])
        deck = self.playing_deck(position["deck"], config)
        round_ = Round.__new__(Round)
        round_.bugs = self.bugs
        round_.players = players = config["players"]
        round_.deck = deck if deck is not None else build_deck(config["edition"], players,
                                                               self.bugs)
        round_.teams = config.get("teams")
        round_.dealer = position["dealer"]
        round_.eye = players == 2
        round_.trick_size = 4 if round_.eye else players
        round_.hands = [set(hand) for hand in position["hands"]]
        round_.face_up = [set(row) for row in position["face_up"]] if round_.eye else None
        round_.given = [None if entry is None else
                        [("devils_trick", card) for card in entry["discard"]]
                        + [(key, entry[key]) for key in ("left", "right", "to_face_up",
                                                         "to_hidden") if key in entry]
                        for entry in position["setup"]]
        round_.devils_trick = list(position["devils_trick"])
        round_.bottles = []
        for item in position["bottles"]:
            bottle = Bottle()
            bottle.price, bottle.owner = item["price"], item["owner"]
            bottle.card = None if item["price"] == START_PRICE else item["price"]
            round_.bottles.append(bottle)
        round_.captured = [list(pile) for pile in position["captured"]]
        round_.shapes = self.shapes
        if "own-zones" in self.shapes:
            # Its own zones: the price card under a bought bottle is in its buyer's pile.
            for bottle in round_.bottles:
                if bottle.card is not None:
                    round_.captured[bottle.owner].append(bottle.card)
        round_.trick = [(seat, card) for seat, card in position["trick"]]
        round_.phase = position["phase"]
        round_.to_act = position["to_act"]
        round_.scores = round_.score() if round_.phase == "over" else None
        self.round = round_
        self.ended = None
        return {"ok": True, "to_act": round_.to_act}

    def case(self, request):
        need(request, ("op", "kind", "config", "input"))
        kind = request["kind"]
        if kind not in ("trick", "legal_plays", "setup", "scoring", "record"):
            raise Refused("PROTOCOL", f"no case kind {kind!r}")
        if kind not in CASES:
            raise Refused("UNSUPPORTED", f"this peer does not answer {kind} cases")
        config = check_config(request["config"])
        return {"ok": True, "output": CASES[kind](config, request["input"], self.bugs)}

    def dispatch(self, request):
        op = request["op"]
        if op == "hello":
            return self.hello(request)
        if op == "quit":
            need(request, ("op",))
            return {"ok": True}
        if op == "new_round":
            return self.new_round(request)
        if op == "case":
            return self.case(request)
        if op == "set_position" and self.set_position:
            return self.take_position(request)
        if op == "end_round":
            need(request, ("op",))
            if self.round is None:
                raise Refused("PROTOCOL", "no round has started")
            return self.end_round()
        if op not in ("setup", "legal_plays", "play", "scores"):
            raise Refused("PROTOCOL", f"unknown op {op!r}")
        round_ = self.round
        if op == "setup":
            need(request, ("op", "seat", "discard"), ("left", "right", "to_face_up", "to_hidden"))
            if not is_int(request["seat"]) or not isinstance(request["discard"], list):
                raise Refused("PROTOCOL", "seat is an integer, discard a list")
        elif op == "play":
            need(request, ("op", "seat", "card"))
            if not is_int(request["seat"]) or not is_rank(request["card"]):
                raise Refused("PROTOCOL", "seat is an integer, card a number")
        else:
            need(request, ("op",))
        if round_ is None:
            raise Refused("PROTOCOL", "no round has started")
        if op == "setup":
            entry = {k: v for k, v in request.items() if k not in ("op", "seat")}
            return round_.setup(request["seat"], entry)
        if op == "legal_plays":
            if round_.phase != "play":
                raise Refused("PHASE", "no card is played now")
            return {"ok": True, "seat": round_.to_act,
                    "cards": ranks(round_.playable(round_.to_act))}
        if op == "play":
            return round_.play(request["seat"], request["card"])
        if round_.scores is None:
            raise Refused("ROUND-END", "the round is not over")
        scores = list(round_.scores)
        if "flaky-scores" in self.bugs:
            # Not seeded, and a random amount: the same game almost never answers the same way.
            scores[0] += random.SystemRandom().randint(1, 1_000_000)
        return {"ok": True, "scores": scores}


BUGS = ("devils-trick-assign", "half-rank-int", "seat-zero-leads", "pass-back", "pass-reversed",
        "swap-colours", "wrong-coins", "random-dealer", "keep-winning-card", "renamed-colours",
        "flaky-scores", "seat-zero-leads-every-trick", "target-zero", "dealer-never-rotates",
        "no-follow-suit", "any-seat-plays")

SHAPES = ("target-only", "setups-any-order", "setups-any-order-undeclared", "own-zones",
          "random-words", "no-dealer", "one-round", "two-stage")
"""Shapes of real engines, none a bug: see --shape."""

WORDS = ("Adam", "Betty", "Christian", "Doris", "imp", "bottle", "Keawe", "Lopaka", "Kokua")


def _numbers(text):
    return [int(part) for part in text.split(",") if part.strip()]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", default=[], choices=BUGS,
                        help="plant a known bug (repeatable)")
    parser.add_argument("--players", type=_numbers, default=[2, 3, 4, 5, 6],
                        help="player counts it supports, e.g. 3,4")
    parser.add_argument("--editions", default="classic,matagot-2024",
                        help="editions it supports, e.g. classic")
    parser.add_argument("--bottles", type=_numbers, default=[1, 2], help="1, or 1,2")
    parser.add_argument("--no-teams", action="store_true", help="no team mode")
    parser.add_argument("--declare-deck", action="store_true",
                        help="declare its own deck data in the hello answer")
    parser.add_argument("--protocol-deck", action="store_true",
                        help="play the deck each new_round carries instead of its own data")
    parser.add_argument("--ignore", action="append", default=[],
                        help="a conformance-case key it does not compute (repeatable)")
    parser.add_argument("--no-set-position", action="store_true",
                        help="do not declare set_position")
    parser.add_argument("--shape", action="append", default=[], choices=SHAPES,
                        help="take the shape of a real engine (repeatable)")
    args = parser.parse_args()
    bugs = set(args.bug)
    bugs.update(bug for bug in os.environ.get("BOTTLEIMP_PEER_BUGS", "").split(",") if bug)
    unknown = bugs - set(BUGS)
    if unknown:
        parser.error(f"unknown bug(s) in BOTTLEIMP_PEER_BUGS: {', '.join(sorted(unknown))}")
    capabilities = {"players": args.players, "editions": args.editions.split(","),
                    "bottles": args.bottles, "teams": not args.no_teams}
    peer = Peer(bugs, capabilities, args.declare_deck, args.protocol_deck, args.ignore,
                not args.no_set_position, args.shape)
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
        except ValueError:
            answer = {"ok": False, "error": "not JSON", "rule": "PROTOCOL"}
            request = {}
        else:
            answer = peer.answer(request) if isinstance(request, dict) else {
                "ok": False, "error": "not an object", "rule": "PROTOCOL"}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if isinstance(request, dict) and request.get("op") == "quit" and answer.get("ok"):
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())

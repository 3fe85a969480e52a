#!/usr/bin/env python3
"""A second, independent implementation of The Bottle Imp's rules, speaking
bottleimp-protocol/1 (spec/protocol.md) on stdin/stdout, one JSON object per line.

It is written from the rules, not from the bottleimp library, and deliberately does not import
it: it exists so that ``bottleimp conformance --cmd`` has something to compare against, and as
a small, readable example for anyone writing their own implementation.

    python examples/reference_peer/peer.py                         # the rules as written
    python examples/reference_peer/peer.py --bug devils-trick-assign

``--bug`` plants a bug found in other implementations, to show the harness catching it:

- ``devils-trick-assign``: the Devil's Trick is summed with ``=`` instead of ``+=``, so the
  bottle owner pays only the coins of the last card counted (Board Game Arena, fixed bug).
- ``half-rank-int``: a price is held as an integer, a half rank rounded half up (12.5 -> 13),
  like a price written to an INT database column (Board Game Arena).
- ``seat-zero-leads``: seat 0 always leads the first trick, whoever dealt.
- ``pass-back``: each seat gets a copy of the card it passed left back, and the card it passed
  right is lost: one card duplicated, one lost (the passing bug of another implementation).

Python 3.9+, standard library only.
"""

import argparse
import json
import sys

PROTOCOL = "bottleimp-protocol/1"
START_PRICE = 19

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


def build_deck(edition, players):
    """rank -> (colour, coins) for the cards dealt in this game."""
    table = CLASSIC if edition == "classic" else MATAGOT
    deck = {}
    for colour, cards in table.items():
        for pair in cards.split():
            rank, coins = pair.split(":")
            deck[int(rank)] = (colour, int(coins))
    if edition == "matagot-2024" and players >= 5:
        for half in MATAGOT_HALVES:
            deck[half] = deck[int(half)]
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

    def __init__(self, config, dealer, hands, face_up, bugs):
        self.bugs = bugs
        self.players = players = config["players"]
        self.deck = build_deck(config["edition"], players)
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
        size = len(self.deck)
        hidden = size * 2 // 3 if self.eye else size
        zones = [(hands, self.counts(hidden))]
        if self.eye:
            if face_up is None:
                raise Refused("DEAL-COUNTS", "Devil's Eye needs face-up cards")
            zones.append((face_up, self.counts(size - hidden)))
        elif face_up is not None:
            raise Refused("DEAL-COUNTS", "only the 2-player game has face-up cards")
        seen = []
        for rows, counts in zones:
            if len(rows) != self.players:
                raise Refused("DEAL-COUNTS", "one hand per seat")
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
        if self.phase != "setup":
            raise Refused("PHASE", "the setup is over")
        if not 0 <= seat < self.players:
            raise Refused("SETUP-ORDER", f"there is no seat {seat}")
        if self.given[seat] is not None:
            raise Refused("SETUP-STEPS", f"seat {seat} has given its setup")
        if seat != self.to_act:
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
                    self.devils_trick.append(card)
                elif where == "left":
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
        return following if following else set(hand)

    def play(self, seat, card):
        if self.phase != "play":
            raise Refused("PHASE", "no card is played now")
        if seat != self.to_act:
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
            taken.remove(card)  # the winning card goes under the bottle
            if bottle.card is not None:
                self.captured[bottle.owner].append(bottle.card)
            bottle.card, bottle.owner = card, winner
            bottle.price = int(card + 0.5) if "half-rank-int" in self.bugs else card
        self.captured[winner].extend(taken)
        self.trick = []
        self.to_act = winner
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


class Peer:
    """Answers one request at a time."""

    def __init__(self, bugs):
        self.bugs = bugs
        self.round = None

    def answer(self, request):
        try:
            return self.dispatch(request)
        except Refused as refused:
            return {"ok": False, "error": refused.message, "rule": refused.rule}
        except (KeyError, TypeError, ValueError) as error:
            return {"ok": False, "error": f"malformed request: {error}", "rule": "PROTOCOL"}

    def dispatch(self, request):
        op = request["op"]
        if op == "hello":
            if request.get("protocol") != PROTOCOL:
                raise Refused("PROTOCOL", f"this peer speaks {PROTOCOL}")
            return {"ok": True, "protocol": PROTOCOL}
        if op == "quit":
            return {"ok": True}
        if op == "new_round":
            config = request["config"]
            self.round = Round(config, request["dealer"], request["hands"],
                               request.get("face_up"), self.bugs)
            return {"ok": True, "to_act": self.round.to_act}
        round_ = self.round
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
        if op == "scores":
            if round_.scores is None:
                raise Refused("ROUND-END", "the round is not over")
            return {"ok": True, "scores": round_.scores}
        raise Refused("PROTOCOL", f"unknown op {op!r}")


BUGS = ("devils-trick-assign", "half-rank-int", "seat-zero-leads", "pass-back")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bug", action="append", default=[], choices=BUGS,
                        help="plant a known bug (repeatable)")
    args = parser.parse_args()
    peer = Peer(set(args.bug))
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
        if isinstance(request, dict) and request.get("op") == "quit":
            break
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What a disagreement is about: the rule it touches and the smallest difference that shows it.

``explain`` looks at one request, the library's answer and the peer's, with the library's game
just before the request, and names a rule ID of ``spec/rules.toml`` (or ``PROTOCOL``) with a
``detail`` object that holds only what differs: for a setup, which cards went where; for legal
plays, the led card, the colours and the cards only one side allows; for scores, the cards and
coins behind each seat's number; for a trick, the winner, the price and the bottle.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from attrs import frozen

from ..actions import Play
from ..cards import Card, rank_key
from ..config import Config
from ..engine import legal_actions
from ..formats.json_input import JSON
from ..rules.play import trick_price
from ..rules.registry import RULE_FUNCTIONS
from ..state import GameState
from .lines import plural
from .vectors import same_json

__all__ = ["Disagreement", "explain", "card_json"]


@frozen
class Disagreement:
    """The rule a disagreement touches, a sentence, and the minimal difference as JSON."""

    rule: str
    message: str
    detail: dict[str, JSON]


def card_json(card: Card) -> dict[str, JSON]:
    """A card with its data: rank, colour, coins."""
    return {"card": card.rank, "colour": card.colour.value, "coins": card.coins}


def _cards(config: Config, value: JSON) -> list[Card] | None:
    """The cards a list of ranks names, or ``None`` when it is not such a list."""
    if not isinstance(value, list):
        return None
    cards = []
    for item in value:
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            return None
        try:
            cards.append(config.card(item))
        except Exception:  # a number that is no card of the deck
            return None
    return cards


def _ranks_text(cards: Sequence[Card]) -> str:
    return ", ".join(f"{card.rank} {card.colour.value}" for card in sorted(cards, key=rank_key))


def explain(before: GameState | None, after: GameState | None, request: dict[str, JSON],
            expected: dict[str, JSON], actual: dict[str, JSON], problem: str) -> Disagreement:
    """Name the rule of the disagreement ``problem`` (from ``compare``) between ``expected`` (the
    library's answer) and ``actual`` (the peer's) to ``request``, made in state ``before``
    (``after``: the library's state once it answered)."""
    op = str(request.get("op"))
    if expected.get("ok") is False:
        rule = str(expected.get("rule"))
        return Disagreement(rule, problem, {"library_refuses": rule,
                                            "peer": actual.get("rule") if actual.get("ok") is False
                                            else "accepts"})
    if actual.get("ok") is False:
        named = actual.get("rule")
        rule = named if isinstance(named, str) and named in RULE_FUNCTIONS else "PROTOCOL"
        return Disagreement(rule, problem, {"library": "accepts", "peer_refuses": named})
    if op == "new_round" and after is not None:
        return _new_round(after, request, expected, actual, problem)
    if before is None or op == "hello":
        return Disagreement("PROTOCOL", problem, {})
    if op == "setup":
        return _setup(after or before, expected, actual, problem)
    if op == "legal_plays":
        return _legal_plays(before, expected, actual, problem)
    if op == "play":
        return _play(before, expected, actual, problem)
    if op == "scores":
        return _scores(before, expected, actual, problem)
    if op == "end_round":
        return _end_round(before, expected, actual, problem)
    return Disagreement("PROTOCOL", problem, {})


def _end_round(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
               problem: str) -> Disagreement:
    """The end of a round (version 3): whether the game is over (rule GAME-END), else who deals
    next (rule DEALER-ROTATION)."""
    dealer = before.round.dealer
    if not same_json(expected.get("game_over"), actual.get("game_over")):
        return Disagreement("GAME-END", problem, {"library_game_over": expected.get("game_over"),
                                                  "peer_game_over": actual.get("game_over"),
                                                  "rounds_played": before.round.index + 1})
    want, got = expected.get("dealer"), actual.get("dealer")
    return Disagreement(
        "DEALER-ROTATION",
        f"seat {dealer} dealt this round: the deal passes clockwise to seat {want}; the peer "
        f"says seat {json.dumps(got)} deals next",
        {"dealt": dealer, "library_next_dealer": want, "peer_next_dealer": got})


def _new_round(before: GameState, request: dict[str, JSON], expected: dict[str, JSON],
               actual: dict[str, JSON], problem: str) -> Disagreement:
    players = before.config.players
    got = actual.get("to_act")
    dealer = before.round.dealer
    if "dealer" in expected and not same_json(expected["dealer"], actual.get("dealer")):
        # Version 3: the peer says who deals. The first round's dealer is the one named
        # (FIRST-DEALER); a later round's is the rotation's (DEALER-ROTATION).
        first = request.get("round", 0) == 0
        return Disagreement(
            "FIRST-DEALER" if first else "DEALER-ROTATION",
            f"seat {dealer} deals this round" + (" (named by the request)" if "dealer" in request
                                                 else "") + f"; the peer says seat "
            f"{json.dumps(actual.get('dealer'))}",
            {"library_dealer": dealer, "peer_dealer": actual.get("dealer"),
             "dealer_named": "dealer" in request})
    detail: dict[str, JSON] = {"dealer": dealer, "dealer_named": "dealer" in request,
                               "library_first": expected.get("to_act"), "peer_first": got}
    if isinstance(got, int) and not isinstance(got, bool) and 0 <= got < players:
        detail["peer_dealer_seems"] = (got - 1) % players
        problem = (f"the first seat to give its setup is the dealer's left: seat "
                   f"{expected.get('to_act')}; the peer says seat {got}, as if seat "
                   f"{(got - 1) % players} dealt, not seat {dealer}")
    return Disagreement("SETUP-ORDER", problem, detail)


def _setup(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
           problem: str) -> Disagreement:
    if "hands" not in expected:
        return Disagreement("SETUP-ORDER", problem, {"library_next": expected.get("to_act"),
                                                      "peer_next": actual.get("to_act")})
    config = before.config
    zones = ("hands", "face_up", "devils_trick")
    if all(same_json(expected.get(key), actual.get(key)) for key in zones):
        return Disagreement("FIRST-LEADER", problem, {"library_leader": expected.get("to_act"),
                                                       "peer_leader": actual.get("to_act")})
    # Where every card went, as the library resolved the setup: the giver and the destination.
    gives = {give.card: give for seat_gives in before.round.setup for give in seat_gives}
    moved: list[JSON] = []
    where_peer: dict[Card, str] = {}
    where_library: dict[Card, str] = {}
    for key in zones:
        for answer, where in ((expected, where_library), (actual, where_peer)):
            value = answer.get(key)
            rows = value if key != "devils_trick" else [value]
            if not isinstance(rows, list):
                continue
            for seat, row in enumerate(rows):
                for card in _cards(config, row) or []:
                    where[card] = "devils_trick" if key == "devils_trick" else f"{key}[{seat}]"
    for card in sorted(set(where_library) | set(where_peer), key=rank_key):
        if where_library.get(card) != where_peer.get(card):
            item: dict[str, JSON] = {"card": card.rank, "library": where_library.get(card),
                                     "peer": where_peer.get(card)}
            give = gives.get(card)
            if give is not None:
                item["given_by"] = give.seat
                item["given_to"] = give.to.value
            moved.append(item)
    text = "; ".join(
        f"{m['card']}" + (f" (seat {m['given_by']} gives it {m['given_to']})" if "given_by" in m
                          else "") + f": the library puts it in {m['library']}, the peer in {m['peer']}"
        for m in moved[:6] if isinstance(m, dict))
    return Disagreement("SETUP-RESOLVE", f"the setup resolves differently: {text}",
                        {"cards": moved})


def _legal_plays(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
                 problem: str) -> Disagreement:
    config = before.config
    seat = before.to_act
    if not same_json(expected.get("seat"), actual.get("seat")) or seat is None:
        return Disagreement("TURN-ORDER", problem, {"library_seat": expected.get("seat"),
                                                     "peer_seat": actual.get("seat")})
    rule = "EYE-FOLLOW-SUIT" if config.devils_eye else "FOLLOW-SUIT"
    round_ = before.round
    trick = round_.plays[len(round_.plays) - len(round_.plays) % config.trick_size:]
    led_card = trick[0].card if trick else None
    library = {a.card for a in legal_actions(before) if isinstance(a, Play)}
    peer = set(_cards(config, actual.get("cards")) or [])
    hand = round_.hands[seat] + (round_.face_up[seat] if round_.face_up else ())
    only_library = sorted(library - peer, key=rank_key)
    only_peer = sorted(peer - library, key=rank_key)
    detail: dict[str, JSON] = {
        "seat": seat,
        "led": None if led_card is None else card_json(led_card),
        "colours": [colour for colour in sorted({card.colour.value for card in hand})],
        "only_library": [card_json(c) for c in only_library],
        "only_peer": [card_json(c) for c in only_peer],
    }
    if round_.face_up is not None:
        detail["face_up"] = [card.rank for card in round_.face_up[seat]]
    led = "it leads" if led_card is None else (
        f"{led_card.rank} {led_card.colour.value} was led")
    if led_card is None and not only_library and only_peer:
        rule = "CARD-HELD"
    text = (f"seat {seat} ({led}): only the library allows {_ranks_text(only_library) or 'nothing'}"
            f"; only the peer allows {_ranks_text(only_peer) or 'nothing'}")
    return Disagreement(rule, text, detail)


def _play(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
          problem: str) -> Disagreement:
    want, got = expected.get("trick"), actual.get("trick")
    if not isinstance(want, dict):
        if got is not None:
            return Disagreement("TRICK-CAPTURE", problem, {"peer_trick": got})
        return Disagreement("TURN-ORDER", problem, {"library_next": expected.get("to_act"),
                                                     "peer_next": actual.get("to_act")})
    if not isinstance(got, dict):
        return Disagreement("TRICK-CAPTURE", problem, {"library_trick": want, "peer_trick": got})
    price, index = trick_price(before.round.bottles)
    detail: dict[str, JSON] = {"price": price, "bottle_judged": index,
                               "library": want, "peer": got}
    if not (same_json(want.get("winner"), got.get("winner"))
            and same_json(want.get("card"), got.get("card"))):
        return Disagreement("TRICK-WINNER", f"the trick judged against price {price}: " + problem,
                            detail)
    if not same_json(want.get("bottle"), got.get("bottle")):
        return Disagreement("BOTTLE-PURCHASE", problem, detail)
    bottles_want, bottles_got = want.get("bottles"), got.get("bottles")
    if isinstance(bottles_want, list) and isinstance(bottles_got, list) and \
            len(bottles_want) == len(bottles_got):
        for b, (w, g) in enumerate(zip(bottles_want, bottles_got)):
            if isinstance(w, dict) and isinstance(g, dict) and \
                    not same_json(w.get("price"), g.get("price")):
                detail["bottle"] = b
                return Disagreement("TRICK-PRICE", f"bottle {b}'s price after the trick: the "
                                    f"library says {w.get('price')}, the peer {g.get('price')}",
                                    detail)
        return Disagreement("BOTTLE-PURCHASE", problem, detail)
    if not same_json(want, got):
        return Disagreement("BOTTLE-PURCHASE", problem, detail)
    if expected.get("to_act") is None or actual.get("to_act") is None:
        return Disagreement("ROUND-END", problem, {"library_next": expected.get("to_act"),
                                                    "peer_next": actual.get("to_act")})
    return Disagreement("NEXT-LEADER", problem, {"library_next": expected.get("to_act"),
                                                  "peer_next": actual.get("to_act")})


def _scores(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
            problem: str) -> Disagreement:
    config = before.config
    round_ = before.round
    want, got = expected.get("scores"), actual.get("scores")
    if not isinstance(want, list) or not isinstance(got, list) or len(want) != len(got):
        return Disagreement("SCORE-ROUND", problem, {"library": want, "peer": got})
    penalty = sum(card.coins for card in round_.devils_trick)
    seats: list[JSON] = []
    rules: list[str] = []
    for seat in range(config.players):
        if same_json(want[seat], got[seat]):
            continue
        team = (seat,) if config.teams is None else next(t for t in config.teams if seat in t)
        owned = sum(1 for bottle in round_.bottles if bottle.owner in team)
        row: dict[str, JSON] = {"seat": seat, "library": want[seat], "peer": got[seat]}
        if config.teams is not None:
            row["team"] = list(team)
            row["doubled"] = len(team) == 1
        if owned:
            rules.append("SCORE-BOTTLE-PENALTY")
            row["owns_bottles"] = owned
            row["devils_trick"] = [card_json(c) for c in sorted(round_.devils_trick, key=rank_key)]
            row["devils_trick_coins"] = penalty
        else:
            rules.append("SCORE-TEAMS" if config.teams is not None else "SCORE-CAPTURED")
            pile = sorted((c for s in team for c in round_.captured[s]), key=rank_key)
            row["captured"] = [card_json(c) for c in pile]
            row["captured_coins"] = sum(card.coins for card in pile)
        seats.append(row)
    rule = rules[0] if rules else "SCORE-ROUND"
    if "SCORE-BOTTLE-PENALTY" in rules:
        rule = "SCORE-BOTTLE-PENALTY"
    text = "; ".join(f"seat {row['seat']}: the library {row['library']}, the peer {row['peer']}"
                     + (f" (owns {plural(row['owns_bottles'], 'bottle')}; the Devil's Trick "
                        f"holds {plural(row['devils_trick_coins'], 'coin')})"
                        if "owns_bottles" in row else
                        f" ({plural(row.get('captured_coins'), 'coin')} captured)")
                     for row in seats if isinstance(row, dict))
    return Disagreement(rule, f"the scores differ: {text}" if text else problem, {"seats": seats})


def to_text(value: JSON) -> str:
    """JSON as one line."""
    return json.dumps(value, ensure_ascii=False)


__all__ += ["to_text"]

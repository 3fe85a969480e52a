"""What a disagreement is about: the rule it touches and the smallest difference that shows it.

``explain`` looks at one request, the library's answer and the peer's, with the library's game
just before the request, and names a rule ID of ``spec/rules.toml`` (or ``PROTOCOL``) with a
``detail`` object that holds only what differs: for a setup, which cards went where (each card
the peer duplicated or lost named); for legal plays, the led card, the colours and the cards
only one side allows; for scores, the cards and coins behind each seat's number; for a trick,
the winner, the price and the bottle.

The rule is decided over the fields that differ, per request (each ``_op`` function's docstring
lists its branches): a refusal names the rule refused with; an answer that differs only in
``to_act`` names the rule that decides the seat to act there (after the last setup
FIRST-LEADER, after a trick NEXT-LEADER, within a trick TURN-ORDER, and ROUND-END when one
side ends the round and the other not).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from attrs import frozen

from ..actions import Play
from ..cards import Card, coins, rank_key
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


def _card(config: Config, item: JSON) -> Card | None:
    """The card a number names, ``None`` for anything else."""
    if isinstance(item, bool) or not isinstance(item, (int, float)):
        return None
    return config.cards_by_rank.get(item)


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
    """The end of a round: whether the game is over (rule GAME-END), else who deals
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
    """A setup answered otherwise, decided over what differs: the next seat while the setup goes
    on (rule SETUP-ORDER); whether the setup is over (SETUP-RESOLVE: it resolves when every
    seat has chosen); once it is, where the cards went (SETUP-RESOLVE), else only the seat that
    leads (FIRST-LEADER)."""
    library_over, peer_over = "hands" in expected, "hands" in actual
    if not library_over and not peer_over:
        return Disagreement("SETUP-ORDER", problem, {"library_next": expected.get("to_act"),
                                                      "peer_next": actual.get("to_act")})
    if library_over != peer_over:
        said = "resolves it" if peer_over else "waits for another setup"
        return Disagreement(
            "SETUP-RESOLVE",
            f"the setup {'is over' if library_over else 'goes on'} after this one: the library "
            f"{'resolves it' if library_over else 'waits for another setup'}, the peer {said}",
            {"library_resolves": library_over, "peer_resolves": peer_over})
    zones = ("hands", "face_up", "devils_trick")
    if all(same_json(expected.get(key), actual.get(key)) for key in zones):
        return Disagreement("FIRST-LEADER", problem, {"library_leader": expected.get("to_act"),
                                                       "peer_leader": actual.get("to_act")})
    return _setup_resolved(before, expected, actual)


def _places(config: Config, answer: dict[str, JSON]) -> tuple[dict[Card, list[str]], list[JSON]]:
    """Where an answer to the last setup puts each card (a card may be in several places, or in
    none), and the numbers in it that are no card of the deck."""
    places: dict[Card, list[str]] = {}
    strays: list[JSON] = []
    for key in ("hands", "face_up", "devils_trick"):
        value = answer.get(key)
        rows = [value] if key == "devils_trick" else value
        if not isinstance(rows, list):
            continue
        for seat, row in enumerate(rows):
            if not isinstance(row, list):
                continue
            where = key if key == "devils_trick" else f"{key}[{seat}]"
            for item in row:
                card = _card(config, item)
                if card is None:
                    strays.append(item)
                else:
                    places.setdefault(card, []).append(where)
    return places, strays


def _setup_resolved(before: GameState, expected: dict[str, JSON],
                    actual: dict[str, JSON]) -> Disagreement:
    """The last setup resolved otherwise (rule SETUP-RESOLVE): every card the two sides put in
    different places, who gave it and which way, each card the peer duplicated (puts in two
    places) or lost (puts nowhere) named."""
    config = before.config
    gives = {give.card: give for seat_gives in before.round.setup for give in seat_gives}
    library, _ = _places(config, expected)
    peer, strays = _places(config, actual)
    moved: list[JSON] = []
    duplicated: list[str] = []
    lost: list[str] = []
    others: list[str] = []
    for card in sorted(set(library) | set(peer), key=rank_key):
        mine, theirs = library.get(card, []), peer.get(card, [])
        if sorted(mine) == sorted(theirs):
            continue
        item: dict[str, JSON] = {"card": card.rank, "library": " and ".join(mine) or None,
                                 "peer": " and ".join(theirs) or None}
        give = gives.get(card)
        given = ""
        if give is not None:
            item["given_by"] = give.seat
            item["given_to"] = give.to.value
            given = f" (seat {give.seat} gives it {give.to.value})"
        library_text = f"the library puts it in {' and '.join(mine)}" if mine else \
            "the library has no such card"
        if len(theirs) > 1:
            item["peer_copies"] = len(theirs)
            duplicated.append(f"{card.rank}{given} is duplicated: the peer puts it in "
                              f"{' and '.join(theirs)}, {library_text}")
        elif not theirs:
            item["peer_copies"] = 0
            lost.append(f"{card.rank}{given} is lost: the peer puts it nowhere, {library_text}")
        else:
            others.append(f"{card.rank}{given}: {library_text}, the peer in {theirs[0]}")
        moved.append(item)
    shown = others[:6] + ([f"and {plural(len(others) - 6, 'more card')}"] if len(others) > 6
                          else [])
    stray_text = [f"the peer's answer holds {json.dumps(item)}, which is no card"
                  for item in strays]
    text = "; ".join(duplicated + lost + stray_text + shown)
    detail: dict[str, JSON] = {"cards": moved}
    if strays:
        detail["not_cards"] = strays
    return Disagreement("SETUP-RESOLVE", f"the setup resolves differently: {text}", detail)


def _legal_plays(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
                 problem: str) -> Disagreement:
    """Legal plays answered otherwise, decided over what differs: the seat to play (rule
    TURN-ORDER); a card the peer allows that the seat does not hold, or a number that is no
    card (CARD-HELD); else which cards follow the led colour (FOLLOW-SUIT, EYE-FOLLOW-SUIT in
    Devil's Eye), the led card, the colours held and only the cards one side allows shown."""
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
    listed = actual.get("cards")
    items = listed if isinstance(listed, list) else []
    peer = {card for item in items if (card := _card(config, item)) is not None}
    strays = [item for item in items if _card(config, item) is None]
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
    if strays or any(card not in hand for card in only_peer):
        rule = "CARD-HELD"  # the peer lets the seat play a card it does not hold
        if strays:
            detail["not_cards"] = strays
    text = (f"seat {seat} ({led}): only the library allows {_ranks_text(only_library) or 'nothing'}"
            f"; only the peer allows {_ranks_text(only_peer) or 'nothing'}")
    return Disagreement(rule, text, detail)


def _play(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
          problem: str) -> Disagreement:
    """A play answered otherwise, decided over the fields that differ, the trick's result
    before the seat to act (a wrong winner also names the wrong leader):

    - one side ends the trick and the other not: TURN-ORDER (a trick is one card per seat,
      four cards in Devil's Eye);
    - the winner or the winning card: TRICK-WINNER;
    - the bottle bought: TRICK-PRICE when the two sides buy different bottles (which one is
      judged), else BOTTLE-PURCHASE (whether the winning card buys it);
    - a bottle's price after the trick: TRICK-PRICE; its owner: BOTTLE-PURCHASE;
    - only ``to_act``: ROUND-END when one side ends the round (``null``) and the other not;
      after a trick NEXT-LEADER (the winner leads), within one TURN-ORDER (clockwise)."""
    want, got = expected.get("trick"), actual.get("trick")
    next_seats: dict[str, JSON] = {"library_next": expected.get("to_act"),
                                   "peer_next": actual.get("to_act")}
    if isinstance(want, dict) != isinstance(got, dict):
        return Disagreement(
            "TURN-ORDER",
            f"a trick holds {plural(before.config.trick_size, 'card')}: the "
            f"{'library' if isinstance(want, dict) else 'peer'} ends the trick with this card, "
            f"the {'peer' if isinstance(want, dict) else 'library'} does not",
            {"library_trick": want, "peer_trick": got, **next_seats})
    if isinstance(want, dict) and isinstance(got, dict):
        found = _trick_result(before, want, got, problem)
        if found is not None:
            return found
    if same_json(expected.get("to_act"), actual.get("to_act")):
        return Disagreement("PROTOCOL", problem, {})
    library_next, peer_next = expected.get("to_act"), actual.get("to_act")
    if library_next is None or peer_next is None:
        text = ("the last trick ends the round: no one plays next; the peer says seat "
                f"{json.dumps(peer_next)} plays" if library_next is None else
                f"cards remain: seat {json.dumps(library_next)} plays next; the peer ends the "
                "round")
        return Disagreement("ROUND-END", text, next_seats)
    if isinstance(want, dict):
        return Disagreement(
            "NEXT-LEADER", f"seat {json.dumps(want.get('winner'))} won the trick and leads the "
            f"next; the peer says seat {json.dumps(peer_next)} plays next", next_seats)
    return Disagreement("TURN-ORDER", f"play goes clockwise: seat {json.dumps(library_next)} "
                        f"plays next; the peer says seat {json.dumps(peer_next)}", next_seats)


def _trick_result(before: GameState, want: dict[str, JSON], got: dict[str, JSON],
                  problem: str) -> Disagreement | None:
    """The rule of a trick's result that differs (see ``_play``), ``None`` when it agrees."""
    price, index = trick_price(before.round.bottles)
    detail: dict[str, JSON] = {"price": price, "bottle_judged": index,
                               "library": want, "peer": got}
    if not (same_json(want.get("winner"), got.get("winner"))
            and same_json(want.get("card"), got.get("card"))):
        return Disagreement("TRICK-WINNER", f"the trick judged against price {price}: " + problem,
                            detail)
    bought, peer_bought = want.get("bottle"), got.get("bottle")
    if not same_json(bought, peer_bought):
        rule = "BOTTLE-PURCHASE" if bought is None or peer_bought is None else "TRICK-PRICE"
        return Disagreement(rule, f"the trick judged against price {price}: the library's "
                            f"winning card buys bottle {json.dumps(bought)}, the peer's bottle "
                            f"{json.dumps(peer_bought)}", detail)
    bottles_want, bottles_got = want.get("bottles"), got.get("bottles")
    if not (isinstance(bottles_want, list) and isinstance(bottles_got, list)
            and len(bottles_want) == len(bottles_got)):
        # The bottles are the game's: a list of another length is no answer the protocol allows.
        return Disagreement("PROTOCOL", problem, detail)
    for b, (w, g) in enumerate(zip(bottles_want, bottles_got)):
        if not (isinstance(w, dict) and isinstance(g, dict)):
            continue
        if not same_json(w.get("price"), g.get("price")):
            detail["bottle"] = b
            return Disagreement("TRICK-PRICE", f"bottle {b}'s price after the trick: the "
                                f"library says {w.get('price')}, the peer {g.get('price')}",
                                detail)
        if not same_json(w.get("owner"), g.get("owner")):
            detail["bottle"] = b
            return Disagreement("BOTTLE-PURCHASE", f"bottle {b}'s owner after the trick: the "
                                f"library says seat {json.dumps(w.get('owner'))}, the peer seat "
                                f"{json.dumps(g.get('owner'))}", detail)
    if not same_json(want, got):
        return Disagreement("PROTOCOL", problem, detail)  # keys the protocol does not define
    return None


def _scores(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
            problem: str) -> Disagreement:
    config = before.config
    round_ = before.round
    want, got = expected.get("scores"), actual.get("scores")
    if not isinstance(want, list) or not isinstance(got, list) or len(want) != len(got):
        return Disagreement("SCORE-ROUND", problem, {"library": want, "peer": got})
    penalty = coins(round_.devils_trick)
    seats: list[JSON] = []
    rules: list[str] = []
    for seat in range(config.players):
        if same_json(want[seat], got[seat]):
            continue
        team = config.team_of(seat)
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
            row["captured_coins"] = coins(pile)
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

"""The rule behind a difference, and the faults of a peer's deck data.

``explain`` names the rule ID (or ``PROTOCOL``) of a request both sides answered otherwise, with
a ``detail`` object that holds only what differs. ``declared_deck_faults`` compares the deck
data a peer declares with the library's; ``infer_deck_faults`` infers the colours and coins that
explain several disagreements at once, only where no rule fault explains the same differences."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from math import gcd
from typing import TYPE_CHECKING, Final, Protocol

from attrs import field, frozen

from .._actions import Give, Play
from .._cards import Card, Colour, coins, rank_key
from .._config import Config
from .._editions import edition_deck
from .._engine import legal_actions
from ..formats._cases import Case, same_json, scoring_input
from ..formats._json_input import JSON
from ..rules.play import devils_eye_playable, follow_suit, trick_price
from ..rules._registry import RULE_FUNCTIONS
from ..rules.scoring import round_scores
from ..rules.setup import setup_to_act
from .._state import Bottle, GameState, Phase
from ._peer import plural

if TYPE_CHECKING:
    from ._protocol import Capabilities

__all__ = ['CardFault', 'DeckFault', 'Disagreement', 'Exchange', 'QuestionFailure', 'WORK', 'card_json', 'card_named', 'cards_named', 'declared_deck_faults', 'explain', 'infer_deck_faults', 'whole_numbers']


# --- the rule of a disagreement ---------------------------------------------------------


@frozen
class Disagreement:
    """The rule a disagreement touches, a sentence, and the minimal difference as JSON."""

    rule: str
    message: str
    detail: dict[str, JSON]


def card_json(card: Card) -> dict[str, JSON]:
    """A card with its data: rank, colour, coins."""
    return {"card": card.rank, "colour": card.colour.value, "coins": card.coins}


def card_named(config: Config, item: JSON) -> Card | None:
    """The card of the deck a number names, ``None`` for anything else."""
    if isinstance(item, bool) or not isinstance(item, (int, float)):
        return None
    return config.cards_by_rank.get(item)


def cards_named(config: Config, value: JSON) -> tuple[Card, ...] | None:
    """The cards a list of ranks names, ``None`` when it is no such list."""
    cards = [card_named(config, item) for item in value] if isinstance(value, list) else [None]
    return None if None in cards else tuple(card for card in cards if card is not None)


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
    namer = {"setup": _setup, "legal_plays": _legal_plays, "play": _play, "scores": _scores,
             "end_round": _end_round}.get(op)
    if before is None or namer is None:
        return Disagreement("PROTOCOL", problem, {})
    # A setup is named on the library's state once it is given (the setup resolved), the rest
    # on the state the request was made in.
    return namer((after or before) if op == "setup" else before, expected, actual, problem)


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
        # The peer says who deals. The first round's dealer is the one named
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
    # The dealer whose first seat to choose (rule SETUP-ORDER) is the one the peer named.
    nobody: tuple[tuple[Give, ...], ...] = ((),) * players
    seems = next((seat for seat in range(players)
                  if setup_to_act(before.config, seat, nobody) == got), None)
    if seems is not None:
        detail["peer_dealer_seems"] = seems
        problem = (f"the first seat to give its setup is the dealer's left: seat "
                   f"{expected.get('to_act')}; the peer says seat {got}, as if seat "
                   f"{seems} dealt, not seat {dealer}")
    return Disagreement("SETUP-ORDER", problem, detail)


def _setup(before: GameState, expected: dict[str, JSON], actual: dict[str, JSON],
           problem: str) -> Disagreement:
    """A setup answered otherwise, named by what differs: the next seat (SETUP-ORDER), whether
    or how the setup resolves (SETUP-RESOLVE), else the seat that leads (FIRST-LEADER)."""
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
                card = card_named(config, item)
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
    """Legal plays answered otherwise, named by what differs: the seat (TURN-ORDER), a card the
    seat does not hold (CARD-HELD), else the led colour (FOLLOW-SUIT, EYE-FOLLOW-SUIT)."""
    config = before.config
    seat = before.to_act
    if not same_json(expected.get("seat"), actual.get("seat")) or seat is None:
        return Disagreement("TURN-ORDER", problem, {"library_seat": expected.get("seat"),
                                                     "peer_seat": actual.get("seat")})
    rule = "EYE-FOLLOW-SUIT" if config.devils_eye else "FOLLOW-SUIT"
    round_ = before.round
    trick = before.current_trick()
    led_card = trick[0].card if trick else None
    library = {a.card for a in legal_actions(before) if isinstance(a, Play)}
    listed = actual.get("cards")
    items = listed if isinstance(listed, list) else []
    peer = {card for item in items if (card := card_named(config, item)) is not None}
    strays = [item for item in items if card_named(config, item) is None]
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
    """A play answered otherwise, named by the first field that differs: whether the trick
    ends (TURN-ORDER), its result (``_trick_result``), then ``to_act`` (ROUND-END, NEXT-LEADER
    after a trick, TURN-ORDER within one); a wrong winner thus also explains the wrong leader."""
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


# --- deck faults, declared or inferred ----------------------------------------------------


@frozen
class Exchange:
    """One request, the library's answer and the peer's (``None`` when it gave none);
    ``refusal`` names the kind of illegal request it was, if it was one."""

    request: dict[str, JSON]
    expected: dict[str, JSON]
    actual: dict[str, JSON] | None
    refusal: str | None = None


class Failure(Protocol):
    """What the inference reads of a game's disagreement (``Failure`` of the session): the
    library's state before the failing request, the exchanges and the disagreement. A protocol,
    so that this module needs nothing of the session, which imports it."""

    @property
    def before(self) -> GameState | None: ...

    @property
    def state(self) -> GameState | None: ...

    @property
    def exchanges(self) -> Sequence[Exchange]: ...

    @property
    def disagreement(self) -> Disagreement | None: ...


@frozen(eq=False)
class QuestionFailure:
    """A position question the peer answered otherwise: the case (with the library's answer),
    the peer's output, the keys that differ, the rule they touch, and the request and reply."""

    case: Case
    output: JSON
    differs: tuple[str, ...]
    rule: str
    request: dict[str, JSON]
    reply: dict[str, JSON]

    def example(self, rule: str) -> dict[str, JSON]:
        """The failure as the report's example, under ``rule``."""
        return {"request": self.request, "library": self.case.expected, "peer": self.reply,
                "differs": list(self.differs), "rule": rule}


WORK: Final = 2_000_000
"""The bound of each inference (colours, coins): how many elementary steps it may take (a pair
of cards checked against a colour, a coefficient of an equation updated), a second or two of
one core. Past it the inference keeps what it found so far and says it stopped."""

MAX_COINS: Final = 12
"""The most coins an inferred card may carry (a card's coins are a few, never negative)."""

_COLOUR_RULES: Final = ("FOLLOW-SUIT", "EYE-FOLLOW-SUIT")
_SCORE_RULES: Final = ("SCORE-CAPTURED", "SCORE-BOTTLE-PENALTY", "SCORE-TEAMS", "SCORE-ROUND")


@frozen
class CardFault:
    """One card whose data differ: the library's colour and coins and the peer's (``None``:
    unknown, or the peer lacks the rank)."""

    edition: str | None
    rank: float
    library_colour: str | None
    library_coins: int | None
    peer_colour: str | None
    peer_coins: int | None

    def to_json(self) -> dict[str, JSON]:
        return {"edition": self.edition, "card": self.rank,
                "library": None if self.library_colour is None else
                {"colour": self.library_colour, "coins": self.library_coins},
                "peer": {"colour": self.peer_colour, "coins": self.peer_coins}}


@frozen
class DeckFault:
    """The cards whose data differ (``source``: ``declared`` or ``inferred``; ``kind``:
    ``colours`` or ``coins``), and for an inferred fault the colours and coin changes that
    explain the failed games."""

    source: str
    cards: tuple[CardFault, ...]
    colours: tuple[tuple[Card, Colour], ...] = ()
    coins: tuple[tuple[Card, int], ...] = ()
    explained: frozenset[int] = field(factory=frozenset, eq=False)
    kind: str = "colours"
    stopped: bool = field(default=False, eq=False)
    """The inference stopped at its bound (``WORK``): more cards may be wrong."""

    def explains(self, item: Failure | QuestionFailure) -> bool:
        """Whether the failed game or the position question the peer answered otherwise is
        one this data fault explains."""
        return id(item) in self.explained or _explained(item, dict(self.colours),
                                                       dict(self.coins))

    def to_json(self) -> dict[str, JSON]:
        return {"source": self.source, "kind": self.kind,
                "cards": [card.to_json() for card in self.cards]}


def _renaming(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The library colour -> peer colour naming that most cards follow (one to one)."""
    counts = Counter(pairs)
    naming: dict[str, str] = {}
    for (mine, theirs), _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if mine not in naming and theirs not in naming.values():
            naming[mine] = theirs
    return naming


def declared_deck_faults(capabilities: Capabilities,
                         editions: Iterable[str]) -> tuple[tuple[DeckFault, ...], tuple[str, ...]]:
    """The differences between the decks the peer declared and the library's, for ``editions``:
    a ``colours`` fault (cards that share a colour in one deck and not in the other, and ranks
    one deck lacks), a ``coins`` fault, and notes for a consistent renaming of colours."""
    colour_faults: list[CardFault] = []
    coin_faults: list[CardFault] = []
    notes: list[str] = []
    declared = dict(capabilities.decks)
    for edition in sorted(editions):
        cards = declared.get(edition)
        if cards is None:
            continue
        library = {card.rank: card for card in edition_deck(edition, 6 if edition != "classic" else 4)}
        peer = {card.rank: card for card in cards}
        both = sorted(set(library) & set(peer))
        naming = _renaming([(library[r].colour.value, peer[r].colour.value) for r in both])
        renamed = {mine: theirs for mine, theirs in naming.items() if mine != theirs}
        if renamed:
            notes.append(f"{edition}: the peer's deck names the colours otherwise ("
                         + ", ".join(f"the library's {m} is its {p}" for m, p in sorted(renamed.items()))
                         + "); play cannot show a renaming, so it is no failure")
        back = {theirs: mine for mine, theirs in naming.items()}
        for rank in sorted(set(library) | set(peer)):
            mine, theirs = library.get(rank), peer.get(rank)
            if mine is None or theirs is None:
                colour_faults.append(CardFault(
                    edition, rank,
                    None if mine is None else mine.colour.value, None if mine is None else mine.coins,
                    None if theirs is None else theirs.colour.value,
                    None if theirs is None else theirs.coins))
                continue
            plays_as = back.get(theirs.colour.value, theirs.colour.value)
            if plays_as != mine.colour.value:
                colour_faults.append(CardFault(edition, rank, mine.colour.value, mine.coins,
                                               plays_as, None))
            if theirs.coins != mine.coins:
                coin_faults.append(CardFault(edition, rank, mine.colour.value, mine.coins,
                                             None, theirs.coins))
    faults = tuple(DeckFault("declared", tuple(found), kind=kind)
                   for kind, found in (("colours", colour_faults), ("coins", coin_faults)) if found)
    return faults, tuple(notes)


# --- inference --------------------------------------------------------------------------------
#
# Evidence: what one disagreement (of a game, or of a position question) shows of the peer's
# deck. An answer on the legal plays after a lead shows which cards the peer takes for the led
# colour (``_Follows``); a scores answer shows, per seat, the coins of the cards behind its
# number (``_Scores``). Each holds the check that a candidate data fault explains it exactly,
# by the rule function the library judges with.


def _recolour(colours: dict[Card, Colour]) -> Callable[[Card], Card]:
    return lambda card: Card(card.rank, colours[card], card.coins) if card in colours else card


@frozen
class _Follows:
    """A judgement of the peer's on following the led colour: the led card, the seat's hidden
    hand and (Devil's Eye) its face-up row, the cards judged (the hand; in Devil's Eye the
    face-up row; for a play, its card alone) and those of them the peer allows. ``pairs``: the
    judged cards are all the seat's, so each shows whether it shares the led card's colour for
    the peer (not so for one play)."""

    source: object
    config: Config
    led: Card
    hand: tuple[Card, ...]
    face_up: tuple[Card, ...] | None
    judged: frozenset[Card]
    chosen: frozenset[Card]
    pairs: bool = True

    @property
    def peer_follows(self) -> frozenset[Card]:
        """The judged cards the peer takes for the led colour, from the ones it allows: all of
        them, when it allows a part; when it allows every card, either all follow or none does,
        whichever differs from the library's colours in fewer cards (none on a tie)."""
        if self.chosen != self.judged:
            return self.chosen
        same = sum(1 for card in self.judged if card.colour is self.led.colour)
        return self.judged if same > len(self.judged) - same else frozenset()

    def check(self, colours: dict[Card, Colour]) -> bool:
        """Whether the cards given ``colours`` make the rule allow what the peer allowed."""
        if not colours:
            return False
        swap = _recolour(colours)
        hand, led = tuple(map(swap, self.hand)), swap(self.led).colour
        playable = follow_suit(hand, led) if self.face_up is None else \
            devils_eye_playable(hand, tuple(map(swap, self.face_up)), led)
        judged = {card.rank for card in self.judged}
        return {card.rank for card in playable} & judged == {card.rank for card in self.chosen}


def _follows(source: object, config: Config, led: Card | None, hand: Sequence[Card] | None,
             face_up: Sequence[Card] | None, allowed: Sequence[Card] | None,
             play: Card | None = None) -> _Follows | None:
    """The colour evidence of the cards a seat holding ``hand`` (and ``face_up`` in Devil's Eye)
    is allowed after ``led``: ``allowed``, or for one ``play`` whether it was accepted
    (``allowed`` holds it or not). ``None`` when the answer is no such judgement (nothing led,
    a card the seat does not hold)."""
    if led is None or hand is None or allowed is None or (config.devils_eye and face_up is None):
        return None
    hidden, row = frozenset(hand), frozenset(face_up or ())
    peer = frozenset(allowed)
    if play is not None:
        if play not in hidden | row:
            return None
        judged, chosen = frozenset({play}), peer & {play}
    elif face_up is not None:
        if not hidden <= peer <= hidden | row:
            return None
        judged, chosen = row, peer & row
    else:
        if not peer <= hidden:
            return None
        judged, chosen = hidden, peer
    return _Follows(source, config, led, tuple(hand),
                    None if face_up is None else tuple(face_up), judged, chosen, play is None)


@frozen
class _Scores:
    """A scores answer: the round's zones, the library's scores and the peer's."""

    source: object
    config: Config
    captured: tuple[tuple[Card, ...], ...]
    bottles: tuple[Bottle, ...]
    devils_trick: tuple[Card, ...]
    library: tuple[int, ...]
    peer: tuple[int, ...]

    def _scores(self, coins: dict[Card, int]) -> tuple[int, ...]:
        """The rule's scores with the cards' coins changed by ``coins``."""
        def swap(card: Card) -> Card:
            delta = coins.get(card)
            return card if delta is None else Card(card.rank, card.colour, card.coins + delta)

        return round_scores(self.config, tuple(tuple(map(swap, p)) for p in self.captured),
                            self.bottles, tuple(map(swap, self.devils_trick)))

    def equations(self) -> list[tuple[dict[Card, int], int]]:
        """Per seat: how many times each card's coins count in its number (the rule's score
        with one more coin on the card, less its score) and the difference, peer less
        library."""
        base = self._scores({})
        cards = sorted({card for pile in (*self.captured, self.devils_trick) for card in pile},
                       key=rank_key)
        bumped = {card: self._scores({card: 1}) for card in cards}
        return [({card: bumped[card][seat] - base[seat] for card in cards
                  if bumped[card][seat] != base[seat]}, self.peer[seat] - self.library[seat])
                for seat in range(self.config.players)]

    def explained(self, coins: dict[Card, int]) -> bool:
        """Whether the cards' coins changed by ``coins`` give the peer's scores."""
        if not coins:
            return False
        try:
            return self._scores(coins) == self.peer
        except Exception:  # changed coins the scoring rejects explain nothing
            return False


def whole_numbers(value: JSON) -> tuple[int, ...] | None:
    """A list of whole numbers (scores) as a tuple, ``None`` for anything else."""
    if not isinstance(value, list) or not all(
            isinstance(item, int) and not isinstance(item, bool) for item in value):
        return None
    return tuple(item for item in value if isinstance(item, int))


def _score_evidence(source: object, config: Config, zones: dict[str, JSON], library: JSON,
                    peer: JSON) -> _Scores | None:
    """Coin evidence from the round's zones as a scoring case's input writes them (``captured``,
    ``bottles``, ``devils_trick``) and both sides' scores; ``None`` when they name no such zones
    or scores."""
    captured, bottles = zones.get("captured"), zones.get("bottles")
    piles = [cards_named(config, pile) for pile in captured] \
        if isinstance(captured, list) else [None]
    trick = cards_named(config, zones.get("devils_trick"))
    mine, theirs = whole_numbers(library), whole_numbers(peer)
    if not isinstance(bottles, list) or not all(isinstance(item, dict) for item in bottles) \
            or trick is None or None in piles or len(piles) != config.players \
            or mine is None or theirs is None or len(theirs) != len(mine) \
            or len(mine) != config.players:
        return None
    owned = [(item.get("price"), item.get("owner")) for item in bottles if isinstance(item, dict)]
    return _Scores(source, config, tuple(pile for pile in piles if pile is not None),
                   tuple(Bottle(card_named(config, price),
                                owner if isinstance(owner, int) else None)
                         for price, owner in owned), trick, mine, theirs)


def _evidence(item: Failure | QuestionFailure) -> tuple[_Follows | None, _Scores | None]:
    """What a game's disagreement or a position question the peer answered otherwise shows of
    its deck: colour evidence, coin evidence, or neither."""
    if isinstance(item, QuestionFailure):
        return _question_evidence(item)
    failure = item
    rule = None if failure.disagreement is None else failure.disagreement.rule
    detail = {} if failure.disagreement is None else failure.disagreement.detail
    last, before, state = failure.exchanges[-1], failure.before, failure.state
    if before is None:
        # Judged on the peer's own answers (no position): the detail holds what it described.
        if state is None:
            return None, None
        config = state.config
        if rule == "FOLLOW-SUIT":
            return _follows(failure, config, card_named(config, detail.get("led")),
                            cards_named(config, detail.get("hand")), None,
                            cards_named(config, detail.get("peer"))), None
        if rule in _SCORE_RULES:
            return None, _score_evidence(failure, config, detail, detail.get("rules_give"),
                                         detail.get("peer"))
        return None, None
    op, actual, config = last.request.get("op"), last.actual, before.config
    if actual is None:
        return None, None
    if rule in _COLOUR_RULES and before.phase is Phase.PLAY and before.to_act is not None \
            and op in ("legal_plays", "play"):
        trick, round_, seat = before.current_trick(), before.round, before.to_act
        play = card_named(config, last.request.get("card")) if op == "play" else None
        allowed = cards_named(config, actual.get("cards")) if op == "legal_plays" else \
            (() if play is None or actual.get("ok") is not True else (play,))
        return _follows(failure, config, trick[0].card if trick else None, round_.hands[seat],
                        None if round_.face_up is None else round_.face_up[seat], allowed,
                        play), None
    if rule in _SCORE_RULES and op == "scores":
        return None, _score_evidence(failure, config, scoring_input(before.round),
                                     last.expected.get("scores"), actual.get("scores"))
    return None, None


def _question_evidence(question: QuestionFailure) -> tuple[_Follows | None, _Scores | None]:
    case, output = question.case, question.output
    config, input_ = case.config, case.input
    if not isinstance(input_, dict) or not isinstance(output, dict):
        return None, None
    if case.kind == "scoring" and isinstance(case.expected, dict):
        return None, _score_evidence(question, config, input_, case.expected.get("scores"),
                                     output.get("scores"))
    trick = input_.get("trick")
    if case.kind != "legal_plays" or not isinstance(trick, list) or not trick \
            or not isinstance(trick[0], list) or len(trick[0]) != 2:
        return None, None
    face_up = cards_named(config, input_.get("face_up") or []) if config.devils_eye else None
    return _follows(question, config, card_named(config, trick[0][1]),
                    cards_named(config, input_.get("hand")), face_up,
                    cards_named(config, output.get("legal"))), None


def _explained(item: Failure | QuestionFailure, colours: dict[Card, Colour],
               coins: dict[Card, int]) -> bool:
    """Whether the cards given ``colours`` and ``coins`` make the library answer as the peer
    did in ``item``."""
    follows, scores = _evidence(item)
    return bool(follows is not None and follows.check(colours)
                or scores is not None and scores.explained(coins))

# --- colours: the cards the peer takes for one colour ------------------------------------------


def _infer_colours(evidence: Sequence[_Follows]) -> tuple[dict[Card, Colour], bool]:
    """Other colours for a few cards that make the peer's judgements consistent.

    Every judgement is a pair: the led card and a judged card, of one colour for the peer or
    not (the same pair judged the same way again counts again). Starting from the library's
    colours, the change of one card to another colour of its deck that makes the most
    judgements agree is made, while it makes at least two more agree (one can be a
    coincidence); any number of cards may change. The search stops when no change helps or
    after ``WORK`` pair checks (then ``True``: stopped at the bound)."""
    pairs: Counter[tuple[Card, Card, bool]] = Counter(
        (item.led, card, card in item.peer_follows)
        for item in evidence if item.pairs for card in item.judged)
    touching: dict[Card, list[tuple[Card, Card, bool]]] = {}
    palette: dict[Card, set[Colour]] = {}
    for pair in pairs:
        for card in pair[:2]:
            touching.setdefault(card, []).append(pair)
    for item in evidence:
        if item.pairs:
            for card in item.judged | {item.led}:
                palette.setdefault(card, set()).update(c.colour for c in item.config.cards)
    colour = {card: card.colour for card in touching}
    work = 0
    stopped = False

    def disagreeing(card: Card, option: Colour) -> int:
        """How many judgements touching ``card`` disagree with ``card`` of colour ``option``."""
        total = 0
        for pair in touching[card]:
            led, judged, same = pair
            a = option if led == card else colour[led]
            b = option if judged == card else colour[judged]
            if (a is b) != same:
                total += pairs[pair]
        return total

    while not (stopped := work > WORK):
        best: tuple[int, Card, Colour] | None = None
        for card in sorted(touching, key=rank_key):
            now = disagreeing(card, colour[card])
            work += len(touching[card])
            if now < 2:
                continue
            for option in sorted(palette.get(card, set()) - {colour[card]},
                                 key=lambda c: c.value):
                gain = now - disagreeing(card, option)
                work += len(touching[card])
                if gain >= 2 and (best is None or gain > best[0]):
                    best = (gain, card, option)
        if best is None:
            break
        colour[best[1]] = best[2]
    return {card: c for card, c in colour.items() if c is not card.colour}, stopped


# --- coins: the coins that make the peer's scores --------------------------------------------


def _reduce(row: dict[Card, int], rhs: int, pivots: dict[Card, tuple[dict[Card, int], int]]
            ) -> tuple[dict[Card, int], int, int]:
    """``row = rhs`` with every pivot eliminated (integer row operations), and the work done."""
    work = 0
    for pivot in [card for card in row if card in pivots]:
        factor = row.get(pivot, 0)
        if not factor:
            continue
        prow, prhs = pivots[pivot]
        lead = prow[pivot]
        merged = {card: row.get(card, 0) * lead - factor * prow.get(card, 0)
                  for card in set(row) | set(prow)}
        row = {card: value for card, value in merged.items() if value}
        rhs = rhs * lead - factor * prhs
        work += len(merged)
        divisor = gcd(rhs, *row.values()) if row else 0
        if divisor > 1:
            row = {card: value // divisor for card, value in row.items()}
            rhs //= divisor
    return row, rhs, work


def _solve_coins(rows: Sequence[tuple[dict[Card, int], int]], frequency: Counter[Card]
                 ) -> tuple[dict[Card, Fraction], bool]:
    """A solution of as many of ``rows`` as agree, in order (a row the earlier ones contradict
    is left out), with every card the rows leave free at no change; the pivot of each row is its
    card most often behind a differing number. Stops after ``WORK`` row operations (then
    ``True``)."""
    pivots: dict[Card, tuple[dict[Card, int], int]] = {}
    work = 0
    for coefficients, rhs in rows:
        if work > WORK:
            return _values(pivots), True
        row, rhs, spent = _reduce({c: v for c, v in coefficients.items() if v}, rhs, pivots)
        work += spent
        if row:
            pivot = max(row, key=lambda card: (frequency[card], -rank_key(card)))
            for other, (prow, prhs) in list(pivots.items()):
                if prow.get(pivot):
                    reduced, reduced_rhs, spent = _reduce(prow, prhs, {pivot: (row, rhs)})
                    pivots[other] = (reduced, reduced_rhs)
                    work += spent
            pivots[pivot] = (row, rhs)
    return _values(pivots), False


def _values(pivots: dict[Card, tuple[dict[Card, int], int]]) -> dict[Card, Fraction]:
    """Each pivot's value with the free cards at no change: its right-hand side over its
    coefficient."""
    return {pivot: Fraction(rhs, row[pivot]) for pivot, (row, rhs) in pivots.items()}


def _infer_coins(evidence: Sequence[_Scores]) -> tuple[dict[Card, int], bool]:
    """Coin changes for some cards that give the peer's scores (any number of cards).

    Each seat of each scores answer is a linear equation in the cards' coin changes. Two
    solutions are tried: one that first takes every card behind a number the two sides agree
    on as right (most cards are: the sparse answer), one from the equations alone (many wrong
    cards, whose changes may cancel out in one number); each keeps the equations the earlier
    ones do not contradict (a logic fault's are left out). A solution is kept if its changes
    are whole coins a card can have and it gives the peer's scores in more numbers that differ
    than it changes cards, by at least two (a fit no larger than its data is no finding); the
    one that explains more answers wins, the sparse one on a tie."""
    equations = {id(item): item.equations() for item in evidence}
    rows = [row for item in evidence for row in equations[id(item)]]
    frequency: Counter[Card] = Counter(card for coefficients, diff in rows if diff
                                       for card in coefficients)
    agreeing = sorted({card for coefficients, diff in rows if not diff for card in coefficients},
                      key=rank_key)
    dense = sorted(rows, key=lambda row: row[1] == 0)
    sparse = [({card: 1}, 0) for card in agreeing] + dense
    best: tuple[int, dict[Card, int]] = (0, {})
    stopped = False
    for ordered in (sparse, dense):
        solution, bound = _solve_coins(ordered, frequency)
        stopped = stopped or bound
        coins = {card: int(delta) for card, delta in solution.items()
                 if delta and delta.denominator == 1 and 0 <= card.coins + delta <= MAX_COINS}
        coins = _needed(coins, evidence, frequency)
        explained = [item for item in evidence if item.explained(coins)]
        differing = sum(1 for item in explained for _, diff in equations[id(item)] if diff)
        if coins and len(explained) >= 2 and differing >= len(coins) + 2 \
                and len(explained) > best[0]:
            best = (len(explained), coins)
    return best[1], stopped


def _needed(coins: dict[Card, int], evidence: Sequence[_Scores],
            frequency: Counter[Card]) -> dict[Card, int]:
    """``coins`` less the changes no explained answer needs: each is dropped in turn (the card
    least often behind a differing number first) when as many answers stay explained."""
    explained = sum(1 for item in evidence if item.explained(coins))
    for card in sorted(coins, key=lambda c: (frequency[c], rank_key(c))):
        trial = {c: d for c, d in coins.items() if c != card}
        count = sum(1 for item in evidence if item.explained(trial))
        if count >= explained:
            coins, explained = trial, count
    return coins


# --- the faults ------------------------------------------------------------------------------


def infer_deck_faults(failures: Sequence[Failure],
                      questions: Sequence[QuestionFailure] = (),
                      declared: frozenset[str] = frozenset()) -> tuple[DeckFault, ...]:
    """The data faults that explain several of ``failures`` and of the position ``questions``
    the peer answered otherwise (see the module): a ``colours`` fault, a ``coins`` fault,
    either, both or none. Colours and coins are inferred apart, each with any number of cards,
    within ``WORK`` steps each.

    A fault is inferred only where no rule fault explains the same differences: not for an
    edition whose deck the peer ``declared`` (the games are played on its data, compared with
    the library's apart), and not from a legal-plays answer that allows every card judged (a
    peer that ignores the led colour, rule FOLLOW-SUIT, answers so whatever the colours)."""
    items: list[Failure | QuestionFailure] = [*failures, *questions]
    evidence = [_evidence(item) for item in items]
    follows = [item for item, _ in evidence
               if item is not None and item.config.edition not in declared
               and not (item.pairs and item.judged and item.chosen == item.judged)]
    scores = [item for _, item in evidence
              if item is not None and item.config.edition not in declared]
    faults: list[DeckFault] = []
    colours, colours_stopped = _infer_colours(follows)
    explained: list[_Follows | _Scores] = [item for item in follows if item.check(colours)]
    if colours and len(explained) >= 2:
        faults.append(_fault("colours", explained, colours, {}, colours_stopped))
    coins, coins_stopped = _infer_coins(scores)
    explained = [item for item in scores if item.explained(coins)]
    if coins and len(explained) >= 2:
        faults.append(_fault("coins", explained, {}, coins, coins_stopped))
    return tuple(faults)


def _fault(kind: str, explained: Sequence[_Follows | _Scores], colours: dict[Card, Colour],
           coins: dict[Card, int], stopped: bool) -> DeckFault:
    """The inferred fault of ``kind``, with the games' failures and questions it explains."""
    configs = [item.config for item in explained]
    cards: list[CardFault] = []
    for changed in sorted(set(colours) | set(coins),
                          key=lambda card: (rank_key(card), card.colour.value, card.coins)):
        new_colour, new_delta = colours.get(changed), coins.get(changed)
        editions = sorted({config.edition for config in configs
                           if changed in config.cards_by_rank.values()})
        cards.append(CardFault(", ".join(editions) or None, changed.rank,
                               changed.colour.value, changed.coins,
                               None if new_colour is None else new_colour.value,
                               None if new_delta is None else changed.coins + new_delta))
    cards.sort(key=lambda fault: (fault.rank, fault.edition or ""))
    return DeckFault("inferred", tuple(cards),
                     tuple(sorted(colours.items(), key=lambda i: rank_key(i[0]))),
                     tuple(sorted(coins.items(), key=lambda i: rank_key(i[0]))),
                     frozenset(id(item.source) for item in explained), kind, stopped)

"""One scripted game against the peer, with its illegal requests and its resynchronisation.

``REFUSALS`` are the illegal requests ``spec/protocol.md`` lists, ``draw_script`` draws games
from a seed inside the peer's capabilities, and ``GameRunner`` plays them against the peer, the
library answering alongside and ``diagnose.explain`` naming the rule of each disagreement.
After a disagreement on a request that changes the round, the peer is put on the library's
position (``set_position``) or the library on the peer's (``follow_peer``); where the peer's
answers describe no position, ``PeerRound`` judges each later answer with one rule function."""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import random
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Final

from attrs import evolve, field, frozen

from .._actions import Give, Play
from .._cards import START_PRICE, Card, rank_key
from ..catalogue import is_convention as catalogue_is_convention
from .._config import Config
from .._engine import apply, legal_actions
from .._errors import HarnessError, PeerFault, RecordError, UnknownRuleError
from ..formats._cases import bottles_to_json, ranks
from ..formats._config_json import config_to_json, deck_to_json
from ..formats._json_input import JSON
from ..formats._setup_entries import entry_from_gives
from ..rules.deal import deal, first_dealer, next_dealer
from ..rules.game import add_totals
from ..rules.play import (
    bottle_after_purchase,
    buys_bottle,
    captured_by_winner,
    devils_eye_playable,
    first_leader,
    follow_suit,
    holds,
    led_colour,
    next_leader,
    next_to_play,
    returned_price_card,
    trick_price,
    trick_winner,
)
from ..rules._registry import rule_id_of
from ..rules.scoring import round_is_over, round_scores
from ..rules.setup import setup_steps
from .._state import Bottle, GameState, Phase, RoundState, TrickResult
from ._diagnose import Disagreement, Exchange, card_named, cards_named, explain, whole_numbers
from ._peer import Peer, PeerSlot, clip
from ._protocol import (
    GAME_ENDS,
    PROTOCOL,
    UNSUPPORTED,
    Capabilities,
    Referee,
    Variant,
    capabilities_from_json,
    compare,
    set_position_request,
)

__all__ = ['ANSWERS', 'Exchange', 'Failure', 'GameResult', 'GameRunner', 'GameScript', 'LIBRARY', 'Lost', 'MAX_ROUNDS', 'MAX_TARGET', 'Mistake', 'Moment', 'PEER', 'PeerRound', 'REFUSALS', 'Refusal', 'RefusalKind', 'RoundScript', 'SET_POSITION', 'Stop', 'follow_peer', 'draw_script', 'is_convention', 'negotiate', 'not_applicable', 'play_game', 'round_request']


# --- illegal requests -------------------------------------------------------------------

@frozen
class Moment:
    """What a builder may look at: the game's configuration, the library's state (``None``
    before the first round) and the round's ``new_round`` request."""

    config: Config
    state: GameState | None
    new_round: dict[str, JSON]


Builder = Callable[[Moment, int], "dict[str, JSON] | None"]


@frozen
class RefusalKind:
    """One kind of illegal request: its name, rule(s), moment and builder."""

    name: str
    rules: tuple[str, ...]
    when: str
    build: Builder


def round_request(config: Config, dealer: int | None, hands: tuple[tuple[Card, ...], ...],
                  face_up: tuple[tuple[Card, ...], ...] | None, deck: tuple[Card, ...],
                  index: int = 0) -> dict[str, JSON]:
    """The ``new_round`` of round ``index`` of a game of ``config`` (its end included), carrying
    ``deck``; ``dealer`` ``None`` leaves the deal to the peer's own rotation."""
    return {"op": "new_round", "config": config_to_json(config),
            **({} if dealer is None else {"dealer": dealer}),
            "hands": [[card.rank for card in hand] for hand in hands],
            "face_up": None if face_up is None else [[card.rank for card in row] for row in face_up],
            "deck": deck_to_json(deck), "round": index}


def _pick(*options: dict[str, JSON]) -> Builder:
    """A builder of one of ``options`` (a copy), chosen by the pick."""
    return lambda moment, pick: copy.deepcopy(options[pick % len(options)])


def _config(*changes: dict[str, JSON]) -> Callable[[Moment, int], dict[str, JSON]]:
    """A builder of the round's ``new_round`` with one of ``changes`` made to its
    configuration, chosen by the pick."""
    def builder(moment: Moment, pick: int) -> dict[str, JSON]:
        request = copy.deepcopy(moment.new_round)
        config = request["config"]
        assert isinstance(config, dict)
        config.update(changes[pick % len(changes)])
        return request
    return builder


# --- new_round --------------------------------------------------------------------------------


def _config_players(moment: Moment, pick: int) -> dict[str, JSON] | None:
    # One fault only: seat 0, a dealer every player count from 1 has.
    return {**_config({"players": 1}, {"players": 7}, {"players": 8})(moment, pick), "dealer": 0}


def _config_bottles(moment: Moment, pick: int) -> dict[str, JSON] | None:
    wrong = 0 if pick % 2 == 0 else 2 if moment.config.players < 5 else 3
    return _config({"bottles": wrong})(moment, pick)


def _config_teams(moment: Moment, pick: int) -> dict[str, JSON] | None:
    players = moment.config.players
    singles: list[JSON] = [[seat] for seat in range(3, players)]
    if players < 4:
        few: list[JSON] = [[0, 1], [2]]
        return _config({"teams": few[:players] if pick % 2 else [list(range(players))]})(
            moment, pick)
    # A team of three, or a seat named twice.
    bad: list[JSON] = [[0, 1, 2], *singles] if pick % 2 else [[0, 1], [1, 2], *singles]
    return _config({"teams": bad, "bottles": 1})(moment, pick)


def _config_deck(moment: Moment, pick: int) -> dict[str, JSON] | None:
    deck = moment.new_round.get("deck")
    if not isinstance(deck, list) or not deck:
        return None
    request = copy.deepcopy(moment.new_round)
    changed = request["deck"]
    assert isinstance(changed, list)
    index = pick % len(changed)
    item = changed[index]
    assert isinstance(item, list)
    changed[index] = [START_PRICE, item[1], item[2]] if pick % 2 else changed[(index + 1) % len(changed)]
    return request


def _deal_counts(moment: Moment, pick: int) -> dict[str, JSON] | None:
    request = copy.deepcopy(moment.new_round)
    hands = request["hands"]
    assert isinstance(hands, list)
    giver = pick % len(hands)
    taker = (giver + 1) % len(hands)
    from_row, to_row = hands[giver], hands[taker]
    assert isinstance(from_row, list) and isinstance(to_row, list)
    if not from_row:
        return None
    card = from_row.pop(pick % len(from_row))
    if pick % 3 == 0:
        from_row.append(START_PRICE)  # a number that is no card
    elif pick % 3 == 1:
        from_row.append(to_row[0])  # a card dealt twice, one left out
    else:
        to_row.append(card)  # one card too many, one too few
    return request


# --- setup ------------------------------------------------------------------------------------


def _setup_entry(state: GameState, seat: int, pick: int) -> dict[str, JSON]:
    """A whole legal-looking setup for ``seat`` from its own cards (the first ones)."""
    round_ = state.round
    hand = round_.hands[seat]
    steps = setup_steps(state.config, round_.dealer, seat)[len(round_.setup[seat]):]
    start = pick % max(1, len(hand) - len(steps) + 1)
    gives = [Give(seat, card, to) for card, to in zip(hand[start:], steps)]
    return {"op": "setup", "seat": seat, **entry_from_gives(gives)}


def _on_turn(build: Callable[[GameState, int, int], dict[str, JSON] | None]) -> Builder:
    """A builder of a request for the seat to act: given the moment's state, that seat and the
    pick; the moment offers none (``None``) when no state is known or no one is to act."""

    @functools.wraps(build)
    def builder(moment: Moment, pick: int) -> dict[str, JSON] | None:
        state = moment.state
        if state is None or state.to_act is None:
            return None
        return build(state, state.to_act, pick)

    return builder


@_on_turn
def _not_dealt(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    request = _setup_entry(state, seat, pick)
    others = sorted((card for s, hand in enumerate(state.round.hands) if s != seat for card in hand),
                    key=rank_key)
    if state.round.face_up is not None:
        others += list(state.round.face_up[seat])  # its own face-up cards are not its to give
    if not others:
        return None
    parts = [key for key in ("left", "right", "to_face_up", "to_hidden") if key in request]
    request[parts[pick % len(parts)]] = others[pick % len(others)].rank
    return request


@_on_turn
def _not_your_turn(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    players = state.config.players
    waiting = [s for s in range(players) if s != seat and
               len(state.round.setup[s]) < len(setup_steps(state.config, state.round.dealer, s))]
    if not waiting:
        return None
    return _setup_entry(state, waiting[pick % len(waiting)], pick)


@_on_turn
def _no_such_seat(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    request = _setup_entry(state, seat, pick)
    request["seat"] = (state.config.players + pick % 3, -1 - pick % 2)[pick % 2]
    return request


@_on_turn
def _already_given(state: GameState, _seat: int, pick: int) -> dict[str, JSON] | None:
    done = [s for s in range(state.config.players) if state.round.setup[s]]
    if not done:
        return None
    seat = done[pick % len(done)]
    hand = state.round.hands[seat]
    steps = setup_steps(state.config, state.round.dealer, seat)
    gives = [Give(seat, card, to) for card, to in zip(hand, steps)]
    return {"op": "setup", "seat": seat, **entry_from_gives(gives)}


@_on_turn
def _missing_part(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    request = _setup_entry(state, seat, pick)
    parts = [key for key in ("left", "right", "to_face_up", "to_hidden") if key in request]
    del request[parts[-1 - pick % len(parts)] if pick % 3 else parts[-1]]
    return request


@_on_turn
def _wrong_step(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    request = _setup_entry(state, seat, pick)
    discard = request["discard"]
    assert isinstance(discard, list)
    hand = [card.rank for card in state.round.hands[seat]]
    used = set(discard) | {request.get(k) for k in ("left", "right", "to_face_up", "to_hidden")}
    spare = [rank for rank in hand if rank not in used]
    if state.config.devils_eye:
        # A left pass in the 2-player game, or a third discard.
        if pick % 2 and spare:
            request["discard"] = [*discard, spare[0]]
        else:
            request["left"] = request.pop("to_face_up")
        return request
    if discard and pick % 2 == 0:
        request["discard"] = []  # a missing discard
    elif spare:
        request["discard"] = [*discard, spare[0]]  # one discard too many (or the 5-player dealer's)
    else:
        return None
    return request


@_on_turn
def _play_in_setup(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    hand = state.round.hands[seat]
    return {"op": "play", "seat": seat, "card": hand[pick % len(hand)].rank} if hand else None


# --- trick play -------------------------------------------------------------------------------


@_on_turn
def _setup_in_play(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    hand = state.round.hands[seat]
    return {"op": "setup", "seat": seat, "discard": [hand[0].rank] if hand else [],
            **({"to_face_up": hand[-1].rank} if state.config.devils_eye and hand else
               {"left": hand[-1].rank} if hand else {})}


def _held(state: GameState, seat: int) -> tuple[Card, ...]:
    round_ = state.round
    return round_.hands[seat] + (round_.face_up[seat] if round_.face_up else ())


@_on_turn
def _wrong_turn(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    players = state.config.players
    other = (seat + 1 + pick % (players - 1)) % players
    cards = _held(state, other) or _held(state, seat)
    if not cards:
        return None
    return {"op": "play", "seat": other, "card": cards[pick % len(cards)].rank}


@_on_turn
def _play_no_such_seat(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    cards = _held(state, seat)
    return {"op": "play", "seat": state.config.players + pick % 2,
            "card": cards[pick % len(cards)].rank} if cards else None


@_on_turn
def _not_held(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    held = set(_held(state, seat))
    elsewhere = [card.rank for card in state.config.cards if card not in held]
    if pick % 4 == 0:
        return {"op": "play", "seat": seat, "card": START_PRICE}  # a number that is no card
    if not elsewhere:
        return None
    return {"op": "play", "seat": seat, "card": elsewhere[pick % len(elsewhere)]}


@_on_turn
def _not_following(state: GameState, seat: int, pick: int) -> dict[str, JSON] | None:
    legal = {action.card for action in legal_actions(state) if isinstance(action, Play)}
    refused = sorted((card for card in _held(state, seat) if card not in legal), key=rank_key)
    if not refused:
        return None
    return {"op": "play", "seat": seat, "card": refused[pick % len(refused)].rank}


# --- after the round --------------------------------------------------------------------------


def _after_round(op: str) -> Builder:
    """A builder of a ``play`` or a ``setup`` (a discard) of some seat and card once the round
    is over."""
    def builder(moment: Moment, pick: int) -> dict[str, JSON] | None:
        state = moment.state
        if state is None:
            return None
        rank = state.config.cards[pick % len(state.config.cards)].rank
        seat = pick % state.config.players
        return {"op": op, "seat": seat, **({"card": rank} if op == "play" else {"discard": [rank]})}
    return builder


_FOLLOW: Final = ("FOLLOW-SUIT", "EYE-FOLLOW-SUIT")

REFUSALS: Final[tuple[RefusalKind, ...]] = (
    RefusalKind("hello-version", ("PROTOCOL",), "start", lambda moment, pick: {
                    "op": "hello", "protocol": f"bottleimp-protocol/{90 + pick % 9}"}),
    RefusalKind("before-round", ("PROTOCOL",), "fresh",
                _pick({"op": "legal_plays"}, {"op": "scores"})),
    RefusalKind("unknown-op", ("PROTOCOL",), "any",
                _pick({"op": "dance"}, {"op": "undo"}, {"op": "deal"})),
    RefusalKind("missing-key", ("PROTOCOL",), "any", _pick(
                {"op": "play", "seat": 0}, {"op": "setup", "discard": []}, {"op": "hello"})),
    RefusalKind("wrong-type", ("PROTOCOL",), "any", _pick(
                {"op": "play", "seat": "one", "card": 1}, {"op": "play", "seat": 0, "card": "1"},
                {"op": "setup", "seat": 0, "discard": 3})),
    RefusalKind("unknown-key", ("PROTOCOL",), "any", _pick(
                {"op": "legal_plays", "seat": 0}, {"op": "scores", "round": 0})),
    RefusalKind("config-players", ("CONFIG-PLAYERS",), "deal", _config_players),
    RefusalKind("config-edition", ("CONFIG-EDITION",), "deal", _config(
                {"edition": "standard"}, {"edition": "classic-1952"}, {"edition": ""})),
    RefusalKind("config-bottles", ("CONFIG-BOTTLES",), "deal", _config_bottles),
    RefusalKind("config-teams", ("CONFIG-TEAMS",), "deal", _config_teams),
    RefusalKind("config-game-end", ("CONFIG-GAME-END",), "deal", _config(
                {"rounds": 0, "target_score": None}, {"rounds": 3, "target_score": 50},
                {"rounds": None, "target_score": -5})),
    RefusalKind("config-target-zero", ("CONFIG-GAME-END",), "deal",
                _config({"rounds": None, "target_score": 0})),
    RefusalKind("config-deck", ("CONFIG-DECK",), "deal", _config_deck),
    RefusalKind("deal-counts", ("DEAL-COUNTS",), "deal", _deal_counts),
    RefusalKind("setup-not-dealt", ("SETUP-FROM-DEALT",), "setup", _not_dealt),
    RefusalKind("setup-wrong-seat", ("SETUP-ORDER",), "setup", _not_your_turn),
    RefusalKind("setup-no-such-seat", ("SETUP-ORDER",), "setup", _no_such_seat),
    RefusalKind("setup-again", ("SETUP-STEPS",), "setup", _already_given),
    RefusalKind("setup-missing-part", ("SETUP-STEPS",), "setup", _missing_part),
    RefusalKind("setup-wrong-step", ("SETUP-STEPS",), "setup", _wrong_step),
    RefusalKind("play-in-setup", ("PHASE",), "setup", _play_in_setup),
    RefusalKind("legal-plays-in-setup", ("PHASE",), "setup", _pick({"op": "legal_plays"})),
    RefusalKind("scores-in-setup", ("ROUND-END",), "setup", _pick({"op": "scores"})),
    RefusalKind("setup-in-play", ("PHASE",), "play", _setup_in_play),
    RefusalKind("play-wrong-seat", ("TURN-ORDER",), "play", _wrong_turn),
    RefusalKind("play-no-such-seat", ("TURN-ORDER",), "play", _play_no_such_seat),
    RefusalKind("play-not-held", ("CARD-HELD",), "play", _not_held),
    RefusalKind("play-not-following", _FOLLOW, "play", _not_following),
    RefusalKind("scores-in-play", ("ROUND-END",), "play", _pick({"op": "scores"})),
    RefusalKind("play-after-round", ("PHASE",), "after", _after_round("play")),
    RefusalKind("legal-plays-after-round", ("PHASE",), "after", _pick({"op": "legal_plays"})),
    RefusalKind("setup-after-round", ("PHASE",), "after", _after_round("setup")),
)
"""Every kind of illegal request the harness sends, in the order of the coverage table
(spec/protocol.md, "Refusal coverage", describes each)."""


def not_applicable(kind: RefusalKind, capabilities: Capabilities) -> str | None:
    """Why no illegal request of ``kind`` is sent to a peer of ``capabilities`` (``None``: it
    is)."""
    if kind.name == "config-teams" and not capabilities.teams:
        return "the peer plays no teams"
    if kind.name == "setup-wrong-seat" and capabilities.setups_any_order:
        return "the peer takes the setups in any order (SETUP-ORDER is a convention)"
    return None


_FRESH: Final = next(index for index, kind in enumerate(REFUSALS) if kind.when == "fresh")


# --- the generated games ----------------------------------------------------------------

@frozen
class Mistake:
    """An illegal request of kind ``REFUSALS[kind % len(REFUSALS)]``, tried at the first moment
    of its kind at or after decision ``step`` of its phase; ``pick`` picks which seat or card."""

    step: int
    kind: int
    pick: int


@frozen
class RoundScript:
    """One round: the seed of its deal, the choices made (``choices[k]`` picks among the legal
    options of decision ``k``; past the list, choices come from ``play_seed``) and the mistakes
    tried along the way."""

    deal_seed: int
    play_seed: int
    choices: tuple[int, ...]
    mistakes: tuple[Mistake, ...]


@frozen
class GameScript:
    """A game: its configuration (its end included), the seat that deals first, and its rounds,
    played over again (each dealt anew) until the game ends, at most ``MAX_ROUNDS``."""

    config: Config
    rounds: tuple[RoundScript, ...]
    first_dealer: int = 0

    @property
    def most_rounds(self) -> int:
        """How many rounds the game plays at most: its number of rounds if it has one, else
        ``MAX_ROUNDS`` (its end decides before)."""
        if self.config.rounds is not None:
            return self.config.rounds
        return MAX_ROUNDS if self.rounds else 0


MAX_ROUNDS = 12
"""The most rounds a game with a target score or the default end is played for (the default is
at most 9; a target score is drawn small enough to be reached before)."""

MAX_TARGET = 100
"""The highest target score a generated game has (1 is the lowest the rules allow)."""


def draw_script(rng: random.Random, variants: Sequence[Variant], ends: Sequence[str] = GAME_ENDS,
                one_round: bool = False, mistakes: Sequence[Mistake] | None = None) -> GameScript:
    """A game drawn from ``rng`` alone in ``variants``, ending in one of ``ends``; every draw is
    a number from 0 up, 0 the simplest choice (what shrinking lowers). ``one_round``: one round a
    game. ``mistakes`` (the coverage top-up): one round holding exactly those, and no choices."""
    if not variants:
        raise HarnessError("no variant to play: the peer's capabilities and the options leave "
                           "no player count, edition and bottles the rules define together")
    if not ends and mistakes is None:
        raise HarnessError("no game end to play: the peer declares none the rules define")
    variant = variants[rng.randrange(len(variants))]
    players = variant.players
    teams = None
    if variant.teams and rng.randrange(2):
        order = list(range(players))
        rng.shuffle(order)
        pairs = 1 + rng.randrange(players // 2)
        teams = [order[2 * i: 2 * i + 2] for i in range(pairs)] + [[s] for s in order[2 * pairs:]]
    config = Config(players=players, edition=variant.edition, bottles=variant.bottles,
                    teams=teams)
    dealer = rng.randrange(players)

    def round_script() -> RoundScript:
        seeds = rng.randrange(2**32), rng.randrange(2**32)
        choices = tuple(rng.randrange(256) for _ in range(rng.randrange(25)))
        drawn = tuple(Mistake(rng.randrange(61), rng.randrange(len(REFUSALS)), rng.randrange(256))
                      for _ in range(rng.randrange(5)))
        return RoundScript(*seeds, choices, drawn)

    if mistakes is not None:
        end = "rounds" if "rounds" in ends or not ends else ends[0]
        seeds = rng.randrange(2**32), rng.randrange(2**32)
        rounds: tuple[RoundScript, ...] = (RoundScript(*seeds, (), tuple(mistakes)),)
        target = 1
    else:
        rounds = tuple(round_script() for _ in range(1 if one_round else 1 + rng.randrange(2)))
        chosen_ends = tuple(end for end in GAME_ENDS if end in ends)
        end = chosen_ends[rng.randrange(len(chosen_ends))]
        target = 1 + rng.randrange(MAX_TARGET)
    return GameScript(evolve(config, rounds=len(rounds) if end == "rounds" else None,
                             target_score=target if end == "target_score" else None),
                      rounds, dealer)


# --- the library on the peer's trajectory -----------------------------------------------

@frozen
class Lost:
    """Why the peer's answers fix no position the library can take: what could not be
    compared from there on, and why."""

    reason: str


def _seat(config: Config, value: JSON) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < config.players:
        return None
    return value


def _rows(config: Config, value: JSON, what: str) -> tuple[tuple[Card, ...], ...] | Lost:
    """A card list per seat from the peer's answer, sorted as the library keeps hands."""
    if not isinstance(value, list) or len(value) != config.players \
            or not all(isinstance(row, list) for row in value):
        return Lost(f"the peer's {what} are not one card list per seat")
    rows = [cards_named(config, row) for row in value]
    stray = next((item for row in value if isinstance(row, list) for item in row
                  if card_named(config, item) is None), None)
    if None in rows:
        return Lost(f"the peer's {what} hold {stray!r}, which is no card of the deck")
    return tuple(tuple(sorted(row, key=rank_key)) for row in rows if row is not None)


def _same_cards(mine: Sequence[Card], theirs: Sequence[Card], what: str) -> Lost | None:
    """The peer's zones must hold the library's cards, each once."""
    extra = Counter(theirs) - Counter(mine)
    missing = Counter(mine) - Counter(theirs)
    if not extra and not missing:
        return None
    parts = []
    if extra:
        parts.append("hold " + ", ".join(str(card.rank) for card in sorted(extra, key=rank_key))
                     + " more often than the deal has it")
    if missing:
        parts.append("lack " + ", ".join(str(card.rank) for card in sorted(missing, key=rank_key)))
    return Lost(f"the peer's {what} {' and '.join(parts)}: no position of the rules has them")


def _zones(config: Config, answer: dict[str, JSON], face_up: bool
           ) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...] | None,
                      tuple[Card, ...]] | Lost:
    """The hands, face-up rows (where the round has them) and Devil's Trick an answer to the
    last setup describes."""
    hands = _rows(config, answer.get("hands"), "hands after the setup")
    rows = _rows(config, answer.get("face_up"), "face-up cards after the setup") if face_up \
        else None
    trick = _rows(config, [answer.get("devils_trick")] + [[]] * (config.players - 1),
                  "Devil's Trick")
    for zone in (hands, rows, trick):
        if isinstance(zone, Lost):
            return zone
    assert not isinstance(hands, Lost) and not isinstance(rows, Lost) \
        and not isinstance(trick, Lost)
    return hands, rows, trick[0]


def _take_trick(bottles: list[Bottle], captured: list[list[Card]], cards: tuple[Card, ...],
                winner: int, winning: Card, bottle: int | None) -> None:
    """A trick's result applied to the zones: its cards to the winner (TRICK-CAPTURE) and, when
    it bought ``bottle``, the old price card back to its owner (PRICE-CARD-RETURN) and the
    bottle the winner's at the winning card (BOTTLE-PURCHASE)."""
    if bottle is not None:
        returned = returned_price_card(bottles[bottle])
        if returned is not None:
            captured[returned[0]].append(returned[1])
        bottles[bottle] = bottle_after_purchase(winner, winning)
    captured[winner].extend(captured_by_winner(cards, cards.index(winning), bottle is not None))


def follow_peer(before: GameState, after: GameState, request: dict[str, JSON],
                answer: dict[str, JSON]) -> GameState | Lost:
    """The library's state ``after`` (its answer to ``request``, made in ``before``) moved to the
    position the peer's ``answer`` describes, or why it cannot be."""
    op = request.get("op")
    if answer.get("ok") is False:
        # A refused request changes nothing: the peer is where the library was before it.
        return before
    if op == "setup" and after.phase is Phase.PLAY:
        return _follow_setup(after, answer)
    if op == "setup":
        return Lost("the library takes the setups one seat after another, clockwise from the "
                    f"dealer's left (a convention); the peer names seat {answer.get('to_act')} "
                    "next, an order the library cannot follow")
    if op == "play":
        return _follow_play(before, after, request, answer)
    return Lost(f"after a disagreement on {op}, the peer's answer does not say where its round "
                "stands")


def _follow_setup(after: GameState, answer: dict[str, JSON]) -> GameState | Lost:
    config = after.config
    round_ = after.round
    if "hands" not in answer:
        return Lost("the peer goes on with the setup where every seat has given it")
    zones = _zones(config, answer, round_.face_up is not None)
    if isinstance(zones, Lost):
        return zones
    hands, face_up, devils_trick = zones
    mine = [c for h in round_.hands for c in h] + [c for r in round_.face_up or () for c in r] \
        + list(round_.devils_trick)
    theirs = [c for h in hands for c in h] + [c for r in face_up or () for c in r] \
        + list(devils_trick)
    lost = _same_cards(mine, theirs, "zones after the setup")
    if lost is not None:
        return lost
    for seat in range(config.players):
        held = len(round_.hands[seat]) + (len(round_.face_up[seat]) if round_.face_up else 0)
        theirs_held = len(hands[seat]) + (len(face_up[seat]) if face_up else 0)
        if held != theirs_held:
            return Lost(f"the peer leaves seat {seat} {theirs_held} cards after the setup, where "
                        f"every trick needs {held}")
    if len(devils_trick) != len(round_.devils_trick):
        return Lost(f"the peer's Devil's Trick holds {len(devils_trick)} cards, not "
                    f"{len(round_.devils_trick)}")
    leader = _seat(config, answer.get("to_act"))
    if leader is None:
        return Lost(f"the peer names {answer.get('to_act')!r} to lead the first trick, which is "
                    "no seat")
    followed = evolve(round_, hands=hands, face_up=face_up, devils_trick=devils_trick,
                      leader=leader)
    return evolve(after, round=followed, to_act=leader)


def _follow_play(before: GameState, after: GameState, request: dict[str, JSON],
                answer: dict[str, JSON]) -> GameState | Lost:
    config = after.config
    completed = len(after.round.tricks) > len(before.round.tricks)
    result = answer.get("trick")
    if not completed:
        if result is not None:
            return Lost("the peer ends a trick before every seat has played to it")
        seat = _seat(config, answer.get("to_act"))
        played = {play.seat for play in after.current_trick()}
        if seat is None or seat in played:
            return Lost(f"the peer gives the next play of the trick to {answer.get('to_act')!r}, "
                        "a seat that has played to it or no seat: no trick is played so")
        return evolve(after, to_act=seat)
    if not isinstance(result, dict):
        return Lost("the peer's answer completes no trick where every seat has played to it")
    return _trick_result(before, after, result, answer.get("to_act"))


def _trick_result(before: GameState, after: GameState, result: dict[str, JSON],
                  to_act: JSON) -> GameState | Lost:
    config = after.config
    old = before.round
    done = after.round.tricks[-1]
    plays = done.plays
    by_rank = {play.card.rank: play for play in plays}
    card = result.get("card")
    winner = _seat(config, result.get("winner"))
    if isinstance(card, bool) or not isinstance(card, (int, float)) or card not in by_rank:
        return Lost(f"the peer's winning card {card!r} was not played to the trick")
    if winner is None or by_rank[card].seat != winner:
        return Lost(f"the peer's trick winner {result.get('winner')!r} did not play its winning "
                    f"card {card}")
    winning = by_rank[card].card
    cards = tuple(play.card for play in plays)
    bottle = result.get("bottle")
    bottles = list(old.bottles)
    captured = [list(pile) for pile in old.captured]
    if bottle is not None and (isinstance(bottle, bool) or not isinstance(bottle, int)
                               or not 0 <= bottle < len(bottles)):
        return Lost(f"the peer buys bottle {bottle!r}, which the game lacks")
    _take_trick(bottles, captured, cards, winner, winning, bottle)
    claimed = result.get("bottles")
    wanted = bottles_to_json(bottles)
    if claimed != wanted:
        return Lost(f"the peer's bottles after the trick, {claimed!r}, are not the ones its "
                    f"winner and bottle make ({wanted!r})")
    piles = tuple(tuple(sorted(pile, key=rank_key)) for pile in captured)
    over = after.phase is not Phase.PLAY
    if over != (to_act is None):
        return Lost("the peer ends the round where cards remain, or goes on where none do")
    leader = winner if over else _seat(config, to_act)
    if leader is None:
        return Lost(f"the peer names {to_act!r} to lead the next trick, which is no seat")
    trick = TrickResult(plays, winner, winning, bottle, done.price_before,
                        done.price_after if bottle is None else bottles[bottle].price)
    scores = round_scores(config, piles, tuple(bottles), old.devils_trick) if over else None
    round_ = evolve(after.round, leader=leader, bottles=tuple(bottles), captured=piles,
                    tricks=after.round.tricks[:-1] + (trick,), scores=scores)
    totals = before.totals if scores is None else add_totals(before.totals, scores)
    return evolve(after, round=round_, to_act=None if over else leader, totals=totals)


# --- the peer's answers judged on their own ---------------------------------------------

class PeerRound:
    """A round as the peer's answers describe it (its zones may hold a card twice), judged
    answer by answer with the rule functions."""

    def __init__(self, state: GameState, dealer: int) -> None:
        round_ = state.round
        self.config: Config = state.config
        self.dealer = dealer
        self.hands = [list(hand) for hand in round_.hands]
        self.face_up = None if round_.face_up is None else [list(row) for row in round_.face_up]
        self.devils_trick = list(round_.devils_trick)
        self.bottles = list(round_.bottles)
        self.captured = [list(pile) for pile in round_.captured]
        self.trick = [(play.seat, play.card) for play in state.current_trick()]
        self.to_act: int | None = state.to_act
        self.faults: list[Disagreement] = []
        """Each answer a rule contradicts, with what the rule gives beside what the peer said."""

    def _fault(self, function: Callable[..., object], message: str, rules_give: JSON,
               peer_says: JSON, **seen: JSON) -> None:
        rule = rule_id_of(function)
        assert rule is not None, function
        self.faults.append(Disagreement(rule, message,
                                 {"rules_give": rules_give, "peer": peer_says,
                                  "judged_on": "the peer's own answers (no position)", **seen}))

    def take_setup(self, answer: dict[str, JSON]) -> bool:
        """The peer's zones after the last setup, and its first leader (FIRST-LEADER). False
        when they are no card lists (nothing left to judge on)."""
        zones = _zones(self.config, answer, self.face_up is not None)
        if isinstance(zones, Lost):
            return False
        self.hands = [list(hand) for hand in zones[0]]
        self.face_up = None if zones[1] is None else [list(row) for row in zones[1]]
        self.devils_trick = list(zones[2])
        leader = first_leader(self.config, self.dealer)
        to_act = answer.get("to_act")
        if to_act != leader:
            self._fault(first_leader, f"the peer names {to_act!r} to lead the first trick; the "
                        f"dealer is seat {self.dealer}, so seat {leader} leads", leader, to_act)
        self.to_act = to_act if isinstance(to_act, int) and not isinstance(to_act, bool) \
            else leader
        return True

    def _held(self, seat: int, card: Card) -> bool:
        face_up = self.face_up[seat] if self.face_up is not None else ()
        return 0 <= seat < self.config.players and holds(self.hands[seat], face_up, card)

    def judge_legal_plays(self, answer: dict[str, JSON]) -> list[Card]:
        """The cards the peer allows that its own hand holds, each other one a CARD-HELD fault;
        and those against the led colour in the hand it described (FOLLOW-SUIT, or
        EYE-FOLLOW-SUIT in Devil's Eye)."""
        seat, cards = _seat(self.config, answer.get("seat")), answer.get("cards")
        if seat is None or not isinstance(cards, list):
            return []
        allowed = []
        for item in cards:
            card = card_named(self.config, item)
            if card is not None and self._held(seat, card):
                allowed.append(card)
            else:
                self._fault(holds, f"the peer lets seat {seat} play {item!r}, which the hand it "
                            f"described for that seat does not hold", False, item)
        led = led_colour(tuple(Play(player, played) for player, played in self.trick))
        hand = tuple(sorted(self.hands[seat], key=rank_key))
        if self.face_up is None:
            judge: Callable[..., tuple[Card, ...]] = follow_suit
            wanted = follow_suit(hand, led)
        else:
            judge = devils_eye_playable
            wanted = devils_eye_playable(hand, tuple(sorted(self.face_up[seat], key=rank_key)),
                                         led)
        if set(allowed) != set(wanted):
            self._fault(judge, f"with {led.value if led else 'nothing'} led, seat {seat} of the "
                        f"hand the peer described may play {ranks(wanted)}; the peer allows "
                        f"{ranks(allowed)}", ranks(wanted), ranks(allowed),
                        led=self.trick[0][1].rank if self.trick else None, hand=ranks(hand))
        return allowed

    def judge_play(self, seat: int, card: Card, answer: dict[str, JSON]) -> None:
        """A play the peer accepted: the next seat within the trick (TURN-ORDER), or the trick's
        result (TRICK-WINNER, BOTTLE-PURCHASE), the next leader (NEXT-LEADER) and the round's end
        (ROUND-END)."""
        row = self.hands[seat] if card in self.hands[seat] or self.face_up is None \
            else self.face_up[seat]
        if card in row:
            row.remove(card)
        self.trick.append((seat, card))
        to_act = answer.get("to_act")
        if len(self.trick) < self.config.trick_size:
            wanted = next_to_play(self.config, seat)
            if to_act != wanted:
                self._fault(next_to_play, f"after seat {seat} plays within the trick the peer "
                            f"gives the turn to {to_act!r}, not seat {wanted}", wanted, to_act)
            self.to_act = wanted
            return
        self._judge_trick(answer.get("trick"), to_act)

    def _judge_trick(self, result: JSON, to_act: JSON) -> None:
        cards = tuple(card for _, card in self.trick)
        seats = [seat for seat, _ in self.trick]
        price, index = trick_price(tuple(self.bottles))
        winning = trick_winner(cards, price)
        winner, card = seats[winning], cards[winning]
        bought = buys_bottle(card, price)
        claimed = result if isinstance(result, dict) else {}
        played = ", ".join(str(c.rank) for c in cards)
        if len(set(cards)) < len(cards):
            pass  # a card played twice: no rule decides between the two copies
        elif (claimed.get("winner"), claimed.get("card")) != (winner, card.rank):
            self._fault(trick_winner, f"the trick {played} against a price of {price} is won by "
                        f"seat {winner} with {card.rank}; the peer says seat "
                        f"{claimed.get('winner')!r} with {claimed.get('card')!r}",
                        {"winner": winner, "card": card.rank},
                        {"winner": claimed.get("winner"), "card": claimed.get("card")})
        elif claimed.get("bottle") != (index if bought else None):
            self._fault(buys_bottle, f"{card.rank} against a price of {price} "
                        f"{'buys' if bought else 'does not buy'} the bottle; the peer says "
                        f"bottle {claimed.get('bottle')!r}", index if bought else None,
                        claimed.get("bottle"))
        # Go on along the peer's own result: its winner, its purchase.
        peer_card = card_named(self.config, claimed.get("card"))
        peer_winner = _seat(self.config, claimed.get("winner"))
        if peer_card is None or peer_card not in cards or peer_winner is None:
            peer_card, peer_winner = card, winner
        bottle = claimed.get("bottle")
        peer_bottle = bottle if isinstance(bottle, int) and not isinstance(bottle, bool) \
            and 0 <= bottle < len(self.bottles) else None
        _take_trick(self.bottles, self.captured, cards, peer_winner, peer_card, peer_bottle)
        self.trick = []
        over = round_is_over(self.hands, self.face_up)
        if over != (to_act is None):
            self._fault(round_is_over, "the peer ends the round where cards remain" if not over
                        else "the peer goes on where every card has been played", over,
                        to_act)
        elif not over:
            leader = next_leader(peer_winner)
            if to_act != leader:
                self._fault(next_leader, f"seat {peer_winner} won the trick (the peer's own "
                            f"result), so it leads the next one; the peer names {to_act!r}",
                            leader, to_act)
        self.to_act = None if over else next_leader(peer_winner)

    def judge_scores(self, answer: dict[str, JSON]) -> None:
        """The round's scores from the piles the peer's trick results give and the bottles it
        named (SCORE-ROUND)."""
        piles = tuple(tuple(sorted(pile, key=rank_key)) for pile in self.captured)
        wanted = round_scores(self.config, piles, tuple(self.bottles),
                              tuple(sorted(self.devils_trick, key=rank_key)))
        scores = answer.get("scores")
        if scores != list(wanted):
            owners = [bottle.owner for bottle in self.bottles]
            self._fault(round_scores, f"with the piles its own trick results give and the "
                        f"bottles owned by {owners}, the scores are {list(wanted)}; the peer "
                        f"says {scores!r}", list(wanted), scores,
                        captured=[ranks(pile) for pile in piles],
                        bottles=bottles_to_json(self.bottles),
                        devils_trick=ranks(self.devils_trick))

    def judge_end_round(self, answer: dict[str, JSON]) -> None:
        """The next dealer, one seat clockwise from the dealer of the round the peer played
        (DEALER-ROTATION)."""
        if answer.get("game_over") is not False:
            return
        wanted = next_dealer(self.config, self.dealer)
        if answer.get("dealer") != wanted:
            self._fault(next_dealer, f"seat {self.dealer} dealt this round, so seat {wanted} "
                        f"deals the next; the peer names {answer.get('dealer')!r}", wanted,
                        answer.get("dealer"))


# --- one game ---------------------------------------------------------------------------

# Where a disagreement was met: on the library's trajectory (every answer that changes the
# round agreed so far), there after ``set_position`` put the peer back on it, on the peer's
# trajectory (the library followed its answers), or on the peer's answers alone.
LIBRARY: Final = "library"
SET_POSITION: Final = "library-set-position"
PEER: Final = "peer"
ANSWERS: Final = "peer-answers"


def is_convention(rule_id: str) -> bool:
    """Whether ``rule_id`` is a convention of the library (noted, never failed); a name the
    catalogue does not hold is none."""
    try:
        return catalogue_is_convention(rule_id)
    except UnknownRuleError:
        return False


@frozen
class Failure:
    """A game on which the peer failed (``kind``: ``disagreement``, ``timeout``, ``crash`` or
    ``malformed``): the exchanges up to the failing one, the library's game up to there
    (``state``) and just before the failing request (``before``), and where it was compared."""

    kind: str
    message: str
    script: GameScript
    exchanges: tuple[Exchange, ...]
    state: GameState | None
    disagreement: Disagreement | None = None
    before: GameState | None = field(default=None, eq=False, repr=False)
    trajectory: str = LIBRARY
    followed_from: int | None = None
    """The request (from 1) whose answer the library first followed; ``state`` ends there."""

    @property
    def peer_fault(self) -> bool:
        """True for a timeout, a crash or a malformed answer."""
        return self.kind != "disagreement"

    @property
    def rule(self) -> str:
        """The rule the failure touches (for a peer fault: its kind in capitals)."""
        return self.kind.upper() if self.disagreement is None else self.disagreement.rule

    @property
    def key(self) -> tuple[str, str]:
        """The group of the failure: the failing request's ``op`` and the rule."""
        return str(self.exchanges[-1].request.get("op")), self.rule

    @property
    def size(self) -> tuple[int, int, int]:
        """How big the failing game is: rounds, exchanges, players (smaller is simpler)."""
        rounds = 0 if self.state is None else len(self.state.rounds)
        return rounds, len(self.exchanges), self.script.config.players


@frozen
class Refusal:
    """One illegal request sent, for the coverage table: its kind, the rule the library
    refused it with, whether the peer agreed, and whether it answered ``UNSUPPORTED``."""

    kind: str
    rule: str
    agreed: bool
    unsupported: bool


@frozen
class GameResult:
    """How one game went (``outcome``: ``passed``, ``failed`` or ``unsupported``): the illegal
    requests sent, every disagreement and a peer fault last if one ended it, the conventions
    noted, what was not compared and how the game went on after each disagreement."""

    outcome: str
    refusals: tuple[Refusal, ...]
    failures: tuple[Failure, ...]
    script: GameScript | None = None
    started: bool = False
    exchanges: tuple[Exchange, ...] = ()
    """Every exchange of the game, kept only for a replay (so that a long run stays small)."""
    notes: tuple[tuple[str, str], ...] = ()
    uncompared: tuple[str, ...] = ()
    trajectories: tuple[str, ...] = ()

    @property
    def failure(self) -> Failure | None:
        """The game's first failure, if any."""
        return self.failures[0] if self.failures else None

    @property
    def peer_fault(self) -> Failure | None:
        """The timeout, crash or malformed answer that ended the game, if one did."""
        last = self.failures[-1] if self.failures else None
        return last if last is not None and last.peer_fault else None

    @property
    def disagreements(self) -> tuple[Failure, ...]:
        """Every disagreement the game met, in order."""
        return tuple(f for f in self.failures if not f.peer_fault)


def _unsupported(answer: dict[str, JSON]) -> bool:
    """Whether the peer refuses a request as outside what it supports (``UNSUPPORTED``)."""
    return answer.get("ok") is False and answer.get("rule") == UNSUPPORTED


class Stop(Exception):
    """The current game has ended early (a peer fault, or a request the peer does not support)."""


STATE_OPS: Final = frozenset({"new_round", "setup", "play", "set_position"})
"""The requests that change a round: after a disagreement on one of them the peer's round may
differ from the library's, and the game is resynchronised."""


class _Game:
    """One game played against the peer, the library answering every request alongside; every
    disagreement is recorded (one on a convention of the library is a note). Where the peer's
    answers fix no position the library can take, the rest of the round is judged on those
    answers alone or not compared, and the peer rejoins at the next ``new_round``."""

    def __init__(self, script: GameScript, peer: Peer, *,
                 capabilities: Capabilities | None = None, fresh: bool = False,
                 keep: bool = False, until: int | None = None) -> None:
        self.script = script
        self.keep = keep
        self.until = until
        """Stop the game once this many requests have been exchanged (a replay that compares
        only the requests up to a failure)."""
        self.config = script.config
        self.peer = peer
        self.capabilities = capabilities or Capabilities()
        self.fresh = fresh
        self.referee = Referee()
        self.exchanges: list[Exchange] = []
        self.finished: list[RoundState] = []
        self.failures: list[Failure] = []
        self.outcome = "passed"
        self.detached = False
        """The peer left the round after a disagreement it could not be resynchronised from."""
        self.tell_dealer = True
        """The next ``new_round`` names its dealer (the first round; after a resynchronisation
        or a disagreement on the next dealer)."""
        self.trajectory = LIBRARY
        self.legal_game: GameState | None = None
        """The library's game up to the first answer of the peer it followed (legal by its
        rules: what a failure record of a later disagreement holds)."""
        self.followed_from: int | None = None
        self.notes: list[tuple[str, str]] = []
        self.uncompared: list[str] = []
        self.trajectories: list[str] = []
        self.peer_answer: dict[str, JSON] | None = None
        """The peer's answer to the last request (for choosing a play both sides allow)."""
        self.rollbacks = 0
        self.peer_round: PeerRound | None = None
        """The round as the peer's answers describe it, once they describe no position."""
        self.peer_dealer: int | None = None
        """The dealer the peer's ``new_round`` answer named for the round."""
        self.totals_known = True
        """Whether the peer's totals are the library's (not after a round it sat out)."""

    def ask(self, request: dict[str, JSON], refusal: str | None = None, *,
            expected: dict[str, JSON] | None = None,
            loose: tuple[str, ...] = ()) -> dict[str, JSON]:
        """Send ``request`` to both sides and compare the answers (``expected``: the library's
        answer given, not asked; ``loose``: keys of the peer's answer not compared)."""
        before = self.referee.state
        given = expected is not None
        if expected is None:
            expected = self.referee.handle(request)
        self.peer_answer = None
        if self.detached:
            return expected
        actual = self._send(request, expected, before, refusal)
        if _unsupported(actual):
            if expected.get("ok") is False:
                return expected  # an illegal request the peer does not check: coverage
            self.outcome = "unsupported"
            raise Stop()
        op = request.get("op")
        dealer = actual.get("dealer")
        if op == "new_round" and isinstance(dealer, int):
            self.peer_dealer = dealer
        if op == "hello" and expected.get("ok") is True:
            # Capabilities are the peer's own: a greeting is compared on its protocol only.
            problem = compare({k: expected[k] for k in ("ok", "protocol")},
                              {k: v for k, v in actual.items() if k in ("ok", "protocol", "error")})
        else:
            problem = compare(expected, {k: v for k, v in actual.items() if k not in loose})
        if problem is not None:
            disagreement = explain(before, self.referee.state, request, expected, actual, problem)
            if is_convention(disagreement.rule):
                self.notes.append((disagreement.rule, disagreement.message))
                if op == "new_round" and self._setups_at_once():
                    # The seat it names first is the peer's own choice: it is sent the setups
                    # in another order anyway, so there is nothing to follow.
                    return expected
            else:
                self._disagree(disagreement, before)
            if op == "hello":
                raise Stop()
            if op == "end_round":
                self.tell_dealer = True
            if op == "scores":
                self._follow_scores(actual)
            if op in STATE_OPS:
                self._resync(op == "set_position", None if given else before, request,
                             expected, actual)
        return expected

    def _send(self, request: dict[str, JSON], expected: dict[str, JSON],
              before: GameState | None, refusal: str | None = None) -> dict[str, JSON]:
        """The peer's answer to ``request``, recorded beside ``expected`` (the library's, or
        ``{}`` for none); a peer fault ends the game."""
        if self.until is not None and len(self.exchanges) >= self.until:
            raise Stop()
        try:
            actual = self.peer.ask(request)
        except PeerFault as fault:
            self.exchanges.append(Exchange(request, expected, None, refusal))
            self.failures.append(Failure(fault.kind, fault.message, self.script,
                                         tuple(self.exchanges), self.game_state(), None, before))
            self.outcome = "failed"
            raise Stop()
        self.peer_answer = actual
        self.exchanges.append(Exchange(request, expected or actual, actual, refusal))
        return actual

    def _disagree(self, disagreement: Disagreement, before: GameState | None) -> None:
        """Record a disagreement on the trajectory the round is on; once the library has
        followed the peer in this game, the game up to there (the part its rules reach)."""
        followed = self.legal_game is not None
        state = self.legal_game if followed else self.game_state()
        self.failures.append(Failure("disagreement", disagreement.message, self.script,
                                     tuple(self.exchanges), state, disagreement, before,
                                     self.trajectory, self.followed_from))
        self.outcome = "failed"

    def _lose(self, reason: str) -> None:
        """The peer's answers fix no position: it sits out the rest of the round."""
        state = self.referee.state
        where = "" if state is None else f"round {len(self.finished) + 1}, "
        rest = ("its later answers were judged on their own, by the rules that need no whole "
                "position" if self.peer_round is not None
                else "the rest of the round was not compared")
        self.uncompared.append(f"{where}after request {len(self.exchanges)}: {reason}; {rest}")
        self.detached = True

    def _follow_scores(self, actual: dict[str, JSON]) -> None:
        """The library takes the peer's scores, so that the totals and the game's end are
        compared along the peer's own (``set_position`` carries no totals over rounds)."""
        state = self.referee.state
        if state is None or actual.get("ok") is not True or state.round.scores is None:
            return
        chosen = whole_numbers(actual.get("scores"))
        if chosen is None or len(chosen) != state.config.players:
            self.uncompared.append(f"after request {len(self.exchanges)}: the peer's scores are "
                                   "not one whole number per seat; the game's end was compared "
                                   "on the library's totals")
            return
        # The totals before the round: the library's own, less the library's scores of it.
        before = tuple(t - s for t, s in zip(state.totals, state.round.scores))
        self._move_to(evolve(state, round=evolve(state.round, scores=chosen),
                             totals=add_totals(before, chosen)))

    def _resync(self, failed: bool, before: GameState | None, request: dict[str, JSON],
                expected: dict[str, JSON], actual: dict[str, JSON]) -> None:
        """Put the peer back on the library's round with ``set_position`` where it takes it,
        else the library on the peer's, else say why neither can be."""
        self.tell_dealer = True
        state = self.referee.state
        if state is not None and not failed and self.capabilities.set_position:
            self.trajectories.append(SET_POSITION)
            self.trajectory = SET_POSITION
            self.ask(set_position_request(state))
            return
        if actual.get("ok") is False:
            self.rollbacks += 1
        if state is None:
            lost = "the library has no round to compare"
        elif failed:
            lost = "the peer does not take the library's position"
        elif before is None:
            lost = "the peer was sent the setups in another order than the library"
        elif expected.get("ok") is False and actual.get("ok") is not False:
            lost = (f"the peer accepts a request the library refuses with rule "
                    f"{expected.get('rule')}: its round is in no position the rules reach")
        elif actual.get("ok") is False and (request.get("op") not in ("setup", "play")
                                            or self.rollbacks > 3):
            lost = (f"the peer refuses a legal {request.get('op')} "
                    "and the harness has no other request that both sides take")
        else:
            followed = follow_peer(before, state, request, actual)
            if not isinstance(followed, Lost):
                self.trajectories.append(PEER)
                self._move_to(followed)
                return
            self._judge_on_answers(before, state, request, actual)
            lost = followed.reason
        self._lose(lost)

    def _judge_on_answers(self, before: GameState, after: GameState, request: dict[str, JSON],
                          actual: dict[str, JSON]) -> None:
        """Where the peer's answers fix no position after its last setup or a play, keep its
        round as it describes it, to judge each later answer by the rules that need none."""
        op = request.get("op")
        dealer = self.peer_dealer if self.peer_dealer is not None else before.round.dealer
        if op == "setup" and "hands" in actual:
            peer_round = PeerRound(after, dealer)
            if peer_round.take_setup(actual):
                self.peer_round = peer_round
        elif op == "play" and actual.get("ok") is True and before.phase is Phase.PLAY:
            seat, card = request.get("seat"), request.get("card")
            if isinstance(seat, int) and isinstance(card, (int, float)):
                peer_round = PeerRound(before, dealer)
                peer_round.judge_play(seat, before.config.card(card), actual)
                peer_round.faults.clear()  # this answer's disagreement is recorded already
                self.peer_round = peer_round

    def _ask_on_answers(self, request: dict[str, JSON]) -> dict[str, JSON] | None:
        """Send ``request`` to the peer alone, its round judged on its own answers; ``None``
        when it refuses it (nothing more can be judged in the round)."""
        actual = self._send(request, {}, self.referee.state)
        return actual if actual.get("ok") is True else None

    def _record_faults(self, peer_round: PeerRound) -> None:
        """Each fault the last answer showed, as a disagreement judged on the peer's answers."""
        if not peer_round.faults:
            return
        last = self.exchanges[-1]
        for fault in peer_round.faults:
            rules_give = fault.detail.get("rules_give")
            self.exchanges[-1] = Exchange(last.request, {"ok": True, "_rules_give": rules_give},
                                          last.actual)
            self.trajectory = ANSWERS
            self._disagree(fault, None)
        self.trajectories.append(ANSWERS)
        peer_round.faults.clear()

    def _play_on_answers(self, choose: Callable[[int], int]) -> None:
        """The rest of the round the peer's answers describe, each answer judged on its own:
        the plays (from the cards it allows and its hand holds), its scores and its next
        dealer."""
        peer_round = self.peer_round
        assert peer_round is not None
        self._record_faults(peer_round)
        stopped = ""
        for _ in range(4 * len(self.config.cards)):
            if peer_round.to_act is None:
                break
            answer = self._ask_on_answers({"op": "legal_plays"})
            if answer is None:
                stopped = "the peer refuses legal_plays"
                break
            allowed = peer_round.judge_legal_plays(answer)
            self._record_faults(peer_round)
            seat = answer.get("seat")
            if not allowed or not isinstance(seat, int):
                stopped = "the peer allows no card its own hand holds"
                break
            card = allowed[choose(len(allowed))]
            answer = self._ask_on_answers({"op": "play", "seat": seat, "card": card.rank})
            if answer is None:
                stopped = f"the peer refuses to let seat {seat} play {card.rank}, which it allowed"
                break
            peer_round.judge_play(seat, card, answer)
            self._record_faults(peer_round)
        if stopped:
            self.uncompared.append(f"round {len(self.finished) + 1}: judging the peer's own "
                                   f"answers stopped: {stopped}")
            return
        answer = self._ask_on_answers({"op": "scores"})
        if answer is not None:
            peer_round.judge_scores(answer)
            self._record_faults(peer_round)
        answer = self._ask_on_answers({"op": "end_round"})
        if answer is not None:
            peer_round.judge_end_round(answer)
            self._record_faults(peer_round)

    def _move_to(self, state: GameState) -> None:
        """Put the library into ``state``, a position on the peer's trajectory."""
        if self.legal_game is None:
            self.legal_game = self.game_state()
            self.followed_from = len(self.exchanges)
        self.trajectory = PEER
        self.referee.state = state

    def game_state(self) -> GameState | None:
        """The library's game so far: the finished rounds and the current one (before the next
        round's ``new_round`` is answered, the last finished one), with the game's end."""
        current = self.referee.state
        if current is None:
            return None
        finished = self.finished
        if finished and current.round is finished[-1]:
            finished = finished[:-1]  # the next round has not begun: no round twice
        past = tuple(evolve(round_, index=i) for i, round_ in enumerate(finished))
        # Each protocol round starts from zero totals: add the finished rounds' scores.
        totals = functools.reduce(add_totals, (r.scores for r in past if r.scores), current.totals)
        config = evolve(current.config, rounds=self.config.rounds,
                        target_score=self.config.target_score)
        return evolve(current, config=config, round=evolve(current.round, index=len(past)),
                      past_rounds=past, totals=totals)

    def play(self) -> GameResult:
        with contextlib.suppress(Stop):  # the game ended early
            self._mistakes_at("start", self.script.rounds[0].mistakes if self.script.rounds else ())
            self.ask({"op": "hello", "protocol": PROTOCOL})
            if self.fresh:  # once per peer process: a round request before any new_round
                pick = self.script.rounds[0].deal_seed if self.script.rounds else 0
                self._mistakes_at("fresh", [Mistake(0, _FRESH, pick)])
            for index in range(self.script.most_rounds):
                self._play_round(index, self.script.rounds[index % len(self.script.rounds)])
                state = self.referee.state
                assert state is not None
                self.finished.append(state.round)
                if not self._game_goes_on(index):
                    break
        refusals = tuple(
            Refusal(ex.refusal, str(ex.expected.get("rule")),
                    ex.actual is not None and compare(ex.expected, ex.actual) is None,
                    ex.actual is not None and _unsupported(ex.actual))
            for ex in self.exchanges if ex.refusal is not None)
        started = any(ex.request.get("op") == "new_round" and ex.refusal is None
                      for ex in self.exchanges)
        return GameResult(self.outcome, refusals, tuple(self.failures), self.script, started,
                          tuple(self.exchanges) if self.keep else (), tuple(self.notes),
                          tuple(self.uncompared), tuple(self.trajectories))

    def _game_goes_on(self, index: int) -> bool:
        """Whether another round is played after round ``index``: the library's game goes on
        (its ``end_round``), and so does the peer's, with totals the library can follow."""
        ended = self.referee.ended or {}
        library_over = ended.get("game_over") is True
        answer = self.peer_answer if not self.detached else None
        peer_over = isinstance(answer, dict) and answer.get("game_over") is True
        if library_over != peer_over and answer is not None:
            self.uncompared.append(
                f"after round {index + 1}: the {'library' if library_over else 'peer'} ends the "
                f"game and the {'peer' if library_over else 'library'} plays on: its later "
                "rounds were not compared")
            return False
        if library_over:
            return False
        if self.config.target_score is not None and not self.totals_known:
            self.uncompared.append(
                f"after round {index + 1}: the peer sat out part of a round, so its totals are "
                "not known: the game's end by target score could not be compared further")
            return False
        return True

    def _mistakes_at(self, when: str, mistakes: Sequence[Mistake],
                     new_round: dict[str, JSON] | None = None,
                     step: int | None = None, period: int = 1,
                     fired: set[int] | None = None) -> None:
        """Send the round's illegal requests whose moment is ``when`` (for ``setup`` and ``play``:
        those due at decision ``step``, counted modulo ``period``)."""
        for number, mistake in enumerate(mistakes):
            if self.detached:
                return
            kind = REFUSALS[mistake.kind % len(REFUSALS)]
            if kind.when != when and not (kind.when == "any" and when in ("deal", "setup", "play")):
                continue
            if not_applicable(kind, self.capabilities) is not None:
                continue
            if fired is not None and number in fired:
                continue
            if step is not None and step < mistake.step % period:
                continue
            request = kind.build(Moment(self.config, self.referee.state, new_round or {}),
                                 mistake.pick)
            if request is None:
                continue
            if fired is not None:
                fired.add(number)
            self.ask(request, kind.name)

    def _dealer(self, index: int) -> int:
        """The dealer of round ``index``: the first dealer, then one seat clockwise each round."""
        dealer = first_dealer(self.config, self.script.first_dealer % self.config.players)
        for _ in range(index):
            dealer = next_dealer(self.config, dealer)
        return dealer

    def _play_round(self, index: int, script: RoundScript) -> None:
        config = self.config
        dealer = self._dealer(index)
        hands, face_up = deal(config, script.deal_seed, index, dealer)
        # The dealer is named in a game's first round and after a resynchronisation; else the
        # peer's own rotation deals (it answered end_round with it).
        named = self.tell_dealer or not self.capabilities.dealer
        request = round_request(config, dealer if named else None, hands, face_up,
                                self.capabilities.playing_deck(config), index)
        self.detached = False
        self.peer_round = None
        self.peer_dealer = None
        self.rollbacks = 0
        # Both sides start the round from the same deal: a common position again.
        self.trajectory = LIBRARY
        self._mistakes_at("deal", script.mistakes, request)
        self.tell_dealer = False
        self.ask(request)
        rng = random.Random(script.play_seed)
        decision = 0
        setup_step = play_step = 0
        fired: set[int] = set()

        def choose(options: int) -> int:
            nonlocal decision
            value = script.choices[decision] if decision < len(script.choices) else rng.randrange(256)
            decision += 1
            return value % options

        while True:
            state = self.referee.state
            assert state is not None
            if state.phase is Phase.SETUP and setup_step == 0 and self._setups_at_once():
                self._setups_in_another_order(choose, lambda: self._mistakes_at(
                    "setup", script.mistakes, request, config.players, config.players, fired))
                setup_step += config.players
            elif state.phase is Phase.SETUP:
                self._mistakes_at("setup", script.mistakes, request, setup_step,
                                  config.players, fired)
                self.ask(_setup_request(state, choose)[0])
                setup_step += 1
            elif state.phase is Phase.PLAY:
                # legal_plays first: a colour fault shows there before any refusal depends on it.
                self.ask({"op": "legal_plays"})
                allowed = self._peer_cards()
                self._mistakes_at("play", script.mistakes, request, play_step, 24, fired)
                state = self.referee.state
                assert state is not None
                options = legal_actions(state)
                # A card both sides allow, where the peer's legal plays differ from the library's.
                both = [o for o in options if isinstance(o, Play)
                        and (allowed is None or o.card.rank in allowed)]
                if not both and not self.detached:
                    self._lose(f"no card is legal for seat {state.to_act} by both sides' rules "
                               "(each allows only cards the other forbids): no play follows both")
                play = (both or options)[choose(len(both or options))]
                assert isinstance(play, Play)
                self.ask({"op": "play", "seat": play.seat, "card": play.card.rank})
                play_step += 1
            else:
                break
        self.ask({"op": "scores"})
        self._mistakes_at("after", script.mistakes, request, fired=fired)
        self.ask({"op": "end_round"})
        if self.peer_round is not None:
            self._play_on_answers(choose)
        if self.detached:
            self.tell_dealer = True
            self.totals_known = False

    def _peer_cards(self) -> set[float] | None:
        """The cards the peer's last ``legal_plays`` answer allows (``None``: no such answer)."""
        answer = self.peer_answer
        cards = None if answer is None or answer.get("ok") is not True else answer.get("cards")
        if not isinstance(cards, list):
            return None
        return {card for card in cards if isinstance(card, (int, float))
                and not isinstance(card, bool)}

    def _setups_at_once(self) -> bool:
        """Whether the round's setups go to the peer in another order than the library's: it
        declares that it takes them in any order, and takes part in the round."""
        return self.capabilities.setups_any_order and not self.detached

    def _setups_in_another_order(self, choose: Callable[[int], int],
                                 mistakes: Callable[[], None]) -> None:
        """Every seat's setup, chosen as the library's order would have it; the library takes
        them in its order, the peer the seats before the last in reverse order, then the last
        (so both sides resolve the same last request). Until the last, the peer's answers are
        compared on being accepted, not on the seat they name next (its order is its own).
        The round's illegal setup requests are sent before the last, when both sides wait for
        the same seat."""
        state = self.referee.state
        assert state is not None
        requests = []
        while state.phase is Phase.SETUP:
            request, state = _setup_request(state, choose)
            requests.append(request)
        for request in requests[:-1]:
            self.referee.handle(request)
        for request in reversed(requests[:-1]):
            self.ask(request, expected={"ok": True}, loose=("to_act",))
            if self.detached:
                # The library plays the round alone: its state already holds these setups.
                break
        mistakes()
        self.ask(requests[-1])


def _setup_request(state: GameState, choose: Callable[[int], int]
                   ) -> tuple[dict[str, JSON], GameState]:
    """The seat to act's whole setup, each card chosen among its legal gives, and the state
    once it is given."""
    seat = state.to_act
    assert seat is not None
    gives: list[Give] = []
    while state.phase is Phase.SETUP and state.to_act == seat:
        options = legal_actions(state)
        give = options[choose(len(options))]
        assert isinstance(give, Give)
        gives.append(give)
        state = apply(state, give)
    return {"op": "setup", "seat": seat, **entry_from_gives(gives)}, state


def play_game(script: GameScript, peer: Peer) -> Failure | None:
    """Play ``script`` against ``peer``; the first failure, or ``None`` when every answer agrees
    (or the peer does not support the game)."""
    return _Game(script, peer).play().failure


def negotiate(peer: Peer) -> Capabilities:
    """Greet a freshly started peer: its capabilities. A greeting that is not
    ``bottleimp-protocol/3``'s raises ``PeerFault``."""
    answer = peer.ask({"op": "hello", "protocol": PROTOCOL})
    if answer.get("ok") is True and answer.get("protocol") == PROTOCOL:
        try:
            return capabilities_from_json(answer.get("capabilities"))
        except RecordError as error:
            raise PeerFault("malformed", f"the peer's capabilities are malformed: {error}",
                            answer) from None
    # A wrong greeting is the peer's fault, reported as such (never a traceback of ours).
    raise PeerFault("disagreement", f"the peer answers hello with {clip(json.dumps(answer), 300)}: "
                    f"it does not speak {PROTOCOL}", answer)


class GameRunner:
    """One run: the peer slot, its capabilities, the games played."""

    def __init__(self, slot: PeerSlot, capabilities: Capabilities) -> None:
        self.slot = slot
        self.capabilities = capabilities
        self.greeted: set[int] = set()

    def play(self, script: GameScript, until: int | None = None) -> GameResult:
        """Play ``script`` against the peer; with ``until``, play it again up to its first so
        many requests, keeping every exchange (to compare the peer's answers)."""
        peer = self.slot.get()
        fresh = id(peer) not in self.greeted
        self.greeted.add(id(peer))
        result = _Game(script, peer, capabilities=self.capabilities,
                       fresh=fresh, keep=until is not None, until=until).play()
        if result.peer_fault is not None:
            self.slot.discard()
        return result

"""Every kind of illegal request ``spec/protocol.md`` lists, and how to build one.

Each ``RefusalKind`` has a name, the rule the library refuses it with (for ``follow-suit`` the
rule of the variant), the moment it can be sent (``start`` of a game, before a round's
``new_round``, during the ``setup``, during trick ``play``, ``after`` the round's last trick) and
a builder that makes the request from the library's state, or ``None`` when the moment does not
allow it. The harness sends every kind a minimum number of times and counts the agreements.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Final

from attrs import frozen

from ..actions import Give, Play
from ..cards import START_PRICE, Card, rank_key
from ..config import Config
from ..engine import legal_actions
from ..formats.config_json import deck_to_json
from ..formats.json_input import JSON
from ..formats.setup_entries import entry_from_gives
from ..rules.setup import setup_steps
from ..state import GameState, Phase

__all__ = ["Moment", "RefusalKind", "REFUSALS", "refusal_kind", "round_request",
           "ANY_ORDER_LEGAL"]

ANY_ORDER_LEGAL: Final = "setup-wrong-seat"
"""The kind of illegal request that is legal for a peer taking the setups in any order (its
rule, SETUP-ORDER, is a convention of the library): never sent to such a peer."""


@frozen
class Moment:
    """What a builder may look at: the game's configuration, the library's state (``None``
    before the first round), the round's ``new_round`` request and whether the peer may be asked about teams."""

    config: Config
    state: GameState | None
    new_round: dict[str, JSON]
    teams: bool


Builder = Callable[[Moment, int], "dict[str, JSON] | None"]


@frozen
class RefusalKind:
    """One kind of illegal request: its name, rule(s), moment and builder."""

    name: str
    rules: tuple[str, ...]
    when: str
    build: Builder
    note: str


def round_request(config: Config, dealer: int, hands: tuple[tuple[Card, ...], ...],
                  face_up: tuple[tuple[Card, ...], ...] | None,
                  deck: tuple[Card, ...] | None) -> dict[str, JSON]:
    """A ``new_round`` request (``deck``: the cards to carry, protocol 2)."""
    request: dict[str, JSON] = {
        "op": "new_round",
        "config": {"edition": config.edition, "players": config.players,
                   "bottles": config.bottles,
                   "teams": None if config.teams is None else [list(t) for t in config.teams]},
        "dealer": dealer,
        "hands": [[card.rank for card in hand] for hand in hands],
        "face_up": None if face_up is None else [[card.rank for card in row] for row in face_up],
    }
    if deck is not None:
        request["deck"] = deck_to_json(deck)
    return request


def _copy(request: dict[str, JSON]) -> dict[str, JSON]:
    import json

    value = json.loads(json.dumps(request))
    assert isinstance(value, dict)
    return value


def _with_config(moment: Moment, **changes: JSON) -> dict[str, JSON]:
    request = _copy(moment.new_round)
    config = request["config"]
    assert isinstance(config, dict)
    config.update(changes)
    return request


# --- protocol ---------------------------------------------------------------------------------


def _hello_version(moment: Moment, pick: int) -> dict[str, JSON] | None:
    return {"op": "hello", "protocol": f"bottleimp-protocol/{90 + pick % 9}"}


def _before_round(moment: Moment, pick: int) -> dict[str, JSON] | None:
    return {"op": ("legal_plays", "scores")[pick % 2]}


def _unknown_op(moment: Moment, pick: int) -> dict[str, JSON] | None:
    return {"op": ("dance", "undo", "deal")[pick % 3]}


def _missing_key(moment: Moment, pick: int) -> dict[str, JSON] | None:
    options: list[dict[str, JSON]] = [{"op": "play", "seat": 0}, {"op": "setup", "discard": []},
                                      {"op": "hello"}]
    return options[pick % 3]


def _wrong_type(moment: Moment, pick: int) -> dict[str, JSON] | None:
    options: list[dict[str, JSON]] = [{"op": "play", "seat": "one", "card": 1},
                                      {"op": "play", "seat": 0, "card": "1"},
                                      {"op": "setup", "seat": 0, "discard": 3}]
    return options[pick % 3]


def _unknown_key(moment: Moment, pick: int) -> dict[str, JSON] | None:
    options: list[dict[str, JSON]] = [{"op": "legal_plays", "seat": 0},
                                      {"op": "scores", "round": 0}]
    return options[pick % 2]


# --- new_round --------------------------------------------------------------------------------


def _config_players(moment: Moment, pick: int) -> dict[str, JSON] | None:
    # One fault only: seat 0, a dealer every player count from 1 has.
    request = _with_config(moment, players=(1, 7, 8)[pick % 3])
    request["dealer"] = 0
    return request


def _config_edition(moment: Moment, pick: int) -> dict[str, JSON] | None:
    return _with_config(moment, edition=("standard", "classic-1952", "")[pick % 3])


def _config_bottles(moment: Moment, pick: int) -> dict[str, JSON] | None:
    if moment.config.players < 5 and pick % 2:
        return _with_config(moment, bottles=2)
    return _with_config(moment, bottles=(0, 3)[pick % 2])


def _config_teams(moment: Moment, pick: int) -> dict[str, JSON] | None:
    players = moment.config.players
    if not moment.teams:
        return None
    singles: list[JSON] = [[seat] for seat in range(3, players)]
    if players < 4:
        few: list[JSON] = [[0, 1], [2]]
        return _with_config(moment, teams=few[:players] if pick % 2 else [list(range(players))])
    # A team of three, or a seat named twice.
    bad: list[JSON] = [[0, 1, 2], *singles] if pick % 2 else [[0, 1], [1, 2], *singles]
    return _with_config(moment, teams=bad, bottles=1)


def _config_game_end(moment: Moment, pick: int) -> dict[str, JSON] | None:
    ends: list[dict[str, JSON]] = [{"rounds": 0, "target_score": None},
                                   {"rounds": 3, "target_score": 50},
                                   {"rounds": None, "target_score": -5}]
    return _with_config(moment, **ends[pick % len(ends)])


def _target_zero(moment: Moment, pick: int) -> dict[str, JSON] | None:
    # The boundary below the lowest target the rules allow (1, which the games play).
    return _with_config(moment, rounds=None, target_score=0)


def _config_deck(moment: Moment, pick: int) -> dict[str, JSON] | None:
    deck = moment.new_round.get("deck")
    if not isinstance(deck, list) or not deck:
        return None
    request = _copy(moment.new_round)
    changed = request["deck"]
    assert isinstance(changed, list)
    index = pick % len(changed)
    item = changed[index]
    assert isinstance(item, list)
    changed[index] = [START_PRICE, item[1], item[2]] if pick % 2 else changed[(index + 1) % len(changed)]
    return request


def _deal_counts(moment: Moment, pick: int) -> dict[str, JSON] | None:
    request = _copy(moment.new_round)
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


def _legal_plays_query(moment: Moment, pick: int) -> dict[str, JSON] | None:
    return {"op": "legal_plays"}


def _scores_query(moment: Moment, pick: int) -> dict[str, JSON] | None:
    return {"op": "scores"}


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


def _after_play(moment: Moment, pick: int) -> dict[str, JSON] | None:
    state = moment.state
    if state is None:
        return None
    card = state.config.cards[pick % len(state.config.cards)]
    return {"op": "play", "seat": pick % state.config.players, "card": card.rank}


def _after_setup(moment: Moment, pick: int) -> dict[str, JSON] | None:
    state = moment.state
    if state is None:
        return None
    card = state.config.cards[pick % len(state.config.cards)]
    return {"op": "setup", "seat": pick % state.config.players, "discard": [card.rank]}


_FOLLOW: Final = ("FOLLOW-SUIT", "EYE-FOLLOW-SUIT")

REFUSALS: Final[tuple[RefusalKind, ...]] = (
    RefusalKind("hello-version", ("PROTOCOL",), "start", _hello_version,
                "hello naming a protocol version nobody speaks"),
    RefusalKind("before-round", ("PROTOCOL",), "fresh", _before_round,
                "a round request before any new_round (sent to a freshly started peer)"),
    RefusalKind("unknown-op", ("PROTOCOL",), "any", _unknown_op, "an op the protocol lacks"),
    RefusalKind("missing-key", ("PROTOCOL",), "any", _missing_key, "a required key left out"),
    RefusalKind("wrong-type", ("PROTOCOL",), "any", _wrong_type, "a key of the wrong JSON type"),
    RefusalKind("unknown-key", ("PROTOCOL",), "any", _unknown_key, "a key the request lacks"),
    RefusalKind("config-players", ("CONFIG-PLAYERS",), "deal", _config_players,
                "new_round for 0, 1 or 7 players"),
    RefusalKind("config-edition", ("CONFIG-EDITION",), "deal", _config_edition,
                "new_round with an edition no source defines"),
    RefusalKind("config-bottles", ("CONFIG-BOTTLES",), "deal", _config_bottles,
                "new_round with 0 or 3 bottles, or 2 bottles for 2-4 players"),
    RefusalKind("config-teams", ("CONFIG-TEAMS",), "deal", _config_teams,
                "new_round with teams that are no partition into pairs and singles"),
    RefusalKind("config-game-end", ("CONFIG-GAME-END",), "deal", _config_game_end,
                "new_round whose rounds or target score no source allows"),
    RefusalKind("config-target-zero", ("CONFIG-GAME-END",), "deal", _target_zero,
                "new_round with a target score of 0 (the lowest allowed is 1)"),
    RefusalKind("config-deck", ("CONFIG-DECK",), "deal", _config_deck,
                "new_round whose deck holds the start card 19 or a rank twice (protocol 2)"),
    RefusalKind("deal-counts", ("DEAL-COUNTS",), "deal", _deal_counts,
                "new_round whose deal is not the deck dealt once, the right counts per seat"),
    RefusalKind("setup-not-dealt", ("SETUP-FROM-DEALT",), "setup", _not_dealt,
                "a setup card the seat was not dealt"),
    RefusalKind("setup-wrong-seat", ("SETUP-ORDER",), "setup", _not_your_turn,
                "a setup from a seat whose turn it is not"),
    RefusalKind("setup-no-such-seat", ("SETUP-ORDER",), "setup", _no_such_seat,
                "a setup from a seat the game lacks"),
    RefusalKind("setup-again", ("SETUP-STEPS",), "setup", _already_given,
                "a second setup from a seat that gave its setup"),
    RefusalKind("setup-missing-part", ("SETUP-STEPS",), "setup", _missing_part,
                "a setup without one of its passes"),
    RefusalKind("setup-wrong-step", ("SETUP-STEPS",), "setup", _wrong_step,
                "a setup with a discard too many or too few, or the other variant's pass"),
    RefusalKind("play-in-setup", ("PHASE",), "setup", _play_in_setup, "a play during the setup"),
    RefusalKind("legal-plays-in-setup", ("PHASE",), "setup", _legal_plays_query,
                "legal_plays during the setup"),
    RefusalKind("scores-in-setup", ("ROUND-END",), "setup", _scores_query,
                "scores during the setup"),
    RefusalKind("setup-in-play", ("PHASE",), "play", _setup_in_play, "a setup during trick play"),
    RefusalKind("play-wrong-seat", ("TURN-ORDER",), "play", _wrong_turn,
                "a play from a seat whose turn it is not"),
    RefusalKind("play-no-such-seat", ("TURN-ORDER",), "play", _play_no_such_seat,
                "a play from a seat the game lacks"),
    RefusalKind("play-not-held", ("CARD-HELD",), "play", _not_held,
                "a card the seat does not hold (or no card at all)"),
    RefusalKind("play-not-following", _FOLLOW, "play", _not_following,
                "a card that does not follow the led colour though it must"),
    RefusalKind("scores-in-play", ("ROUND-END",), "play", _scores_query,
                "scores while cards remain"),
    RefusalKind("play-after-round", ("PHASE",), "after", _after_play,
                "a play once the round is over"),
    RefusalKind("legal-plays-after-round", ("PHASE",), "after", _legal_plays_query,
                "legal_plays once the round is over"),
    RefusalKind("setup-after-round", ("PHASE",), "after", _after_setup,
                "a setup once the round is over"),
)
"""Every kind of illegal request the harness sends, in the order of the coverage table."""


def refusal_kind(name: str) -> RefusalKind:
    """The refusal kind called ``name``."""
    for kind in REFUSALS:
        if kind.name == name:
            return kind
    raise KeyError(name)


def moment_phase(state: GameState | None) -> str:
    """The moment a state is in: ``setup``, ``play`` or ``after``."""
    if state is None:
        return "deal"
    if state.phase is Phase.SETUP:
        return "setup"
    if state.phase is Phase.PLAY:
        return "play"
    return "after"


__all__ += ["moment_phase"]

"""Lossless JSON for states and actions.

A state is written as what determines it: its configuration, its seed, and per round the deal
and every action taken (``bottleimp-state/1``). Reading replays those actions through the engine,
so a state read back is equal to the state written, and a state file that breaks a rule is
refused with that rule's ID, never turned into an impossible state.
"""

from __future__ import annotations

import json

from .._actions import Action, Destination, Give, Play, StartRound
from .._arguments import describe
from .._config import expect_config
from .._view import expect_state
from .._cards import Card
from .._config import Config
from .._engine import apply, new_game, with_deal
from .._errors import ArgumentError, IllegalActionError, RecordError
from ..rules.setup import setup_to_act
from .._state import GameState, Phase, RoundState
from ._config_json import config_from_json, config_to_json
from ._json_input import (
    JSON,
    check_keys,
    child,
    expect_card,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
    loads_json,
)

STATE_FORMAT = "bottleimp-state/1"

def action_to_json(action: Action) -> dict[str, JSON]:
    """An action as JSON: ``{"type": "play", "seat": 1, "card": 17}`` and the like."""
    if isinstance(action, Play):
        return {"type": "play", "seat": action.seat, "card": action.card.rank}
    if isinstance(action, Give):
        return {"type": "give", "seat": action.seat, "to": action.to.value, "card": action.card.rank}
    if isinstance(action, StartRound):
        return {"type": "start_round", "seat": action.seat}
    raise ArgumentError("action_to_json(action)", f"needs an action, not {describe(action)}")


def action_from_json(value: JSON, config: Config, path: str = "$") -> Action:
    """An action from JSON, its card taken from ``config``'s deck; faults name their JSON path."""
    config = expect_config(config, "action_from_json(config)")
    return _action_from_json(value, config, path)


def _action_from_json(value: JSON, config: Config, path: str) -> Action:
    players = config.players
    obj = expect_object(value, path)
    kind = expect_str(obj.get("type"), child(path, "type"))
    if kind == "start_round":
        check_keys(obj, path, {"type", "seat"}, set())
        return StartRound(expect_int(obj["seat"], child(path, "seat"), 0, players - 1))
    if kind == "play":
        check_keys(obj, path, {"type", "seat", "card"}, set())
        return Play(
            expect_int(obj["seat"], child(path, "seat"), 0, players - 1),
            expect_card(obj["card"], config, child(path, "card")),
        )
    if kind == "give":
        check_keys(obj, path, {"type", "seat", "card", "to"}, set())
        to = expect_str(obj["to"], child(path, "to"))
        try:
            destination = Destination(to)
        except ValueError:
            raise RecordError(child(path, "to"), f"unknown destination {to!r}") from None
        return Give(
            expect_int(obj["seat"], child(path, "seat"), 0, players - 1),
            expect_card(obj["card"], config, child(path, "card")),
            destination,
        )
    raise RecordError(child(path, "type"), f"unknown action type {kind!r}")


def _cards(cards: tuple[Card, ...]) -> list[JSON]:
    return [card.rank for card in cards]


def _round_actions(config: Config, round_: RoundState) -> list[Action]:
    """The round's setup gives in the order they were taken, then its plays."""
    gives: list[Action] = []
    taken = [0] * config.players
    progress: tuple[tuple[Give, ...], ...] = ((),) * config.players
    total = sum(len(chosen) for chosen in round_.setup)
    while len(gives) < total:
        seat = setup_to_act(config, round_.dealer, progress)
        assert seat is not None
        give = round_.setup[seat][taken[seat]]
        taken[seat] += 1
        gives.append(give)
        progress = progress[:seat] + (progress[seat] + (give,),) + progress[seat + 1 :]
    return gives + list(round_.plays)


def state_to_json(state: GameState) -> dict[str, JSON]:
    """A state as JSON; ``state_from_json`` of the result is equal to ``state``."""
    state = expect_state(state, "state_to_json(state)")
    rounds: list[JSON] = []
    for round_ in state.rounds:
        rounds.append(
            {
                "dealer": round_.dealer,
                "hands": [_cards(hand) for hand in round_.dealt],
                "face_up": None
                if round_.dealt_face_up is None
                else [_cards(cards) for cards in round_.dealt_face_up],
                "actions": [action_to_json(a) for a in _round_actions(state.config, round_)],
            }
        )
    return {
        "format": STATE_FORMAT,
        "config": config_to_json(state.config),
        "seed": state.seed,
        "rounds": rounds,
    }


def state_from_json(value: JSON) -> GameState:
    """A state from JSON, by replaying it; malformed input raises ``RecordError`` at its path,
    and an action the rules forbid raises ``RecordError`` quoting the rule."""
    obj = expect_object(value, "$")
    check_keys(obj, "$", {"format", "config", "seed", "rounds"}, set())
    if obj["format"] != STATE_FORMAT:
        raise RecordError("$.format", f"expected {STATE_FORMAT!r}")
    config = config_from_json(obj["config"], "$.config")
    seed = expect_int(obj["seed"], "$.seed")
    rounds = expect_list(obj["rounds"], "$.rounds")
    if not rounds:
        raise RecordError("$.rounds", "a state has at least one round")
    for index, round_value in enumerate(rounds):
        path = child("$.rounds", index)
        round_obj = expect_object(round_value, path)
        check_keys(round_obj, path, {"dealer", "hands", "actions"}, {"face_up"})
        if index == 0:
            # Any seat may deal first (rule FIRST-DEALER): the first round names it.
            first_dealer = expect_int(round_obj["dealer"], child(path, "dealer"), 0,
                                      config.players - 1)
            state = new_game(config, seed, first_dealer=first_dealer)
        try:
            if index > 0:
                if state.phase is not Phase.ROUND_OVER:
                    raise RecordError(path, "a round follows a round that has not ended")
                # The next round's dealer (rule DEALER-ROTATION refuses any other seat).
                state = apply(state, StartRound(expect_int(round_obj["dealer"], child(path, "dealer"))))
            state = _with_written_deal(state, round_obj, path)
            actions = expect_list(round_obj["actions"], child(path, "actions"))
            for i, action_value in enumerate(actions):
                action_path = child(child(path, "actions"), i)
                action = _action_from_json(action_value, config, action_path)
                try:
                    state = apply(state, action)
                except IllegalActionError as error:
                    raise RecordError(action_path, str(error), error.rule_id) from error
        except IllegalActionError as error:
            raise RecordError(path, str(error), error.rule_id) from error
    return state


def _with_written_deal(
    state: GameState, round_obj: dict[str, JSON], path: str
) -> GameState:
    hands_path = child(path, "hands")
    hands = tuple(
        tuple(expect_card(c, state.config, child(child(hands_path, s), i)) for i, c in
              enumerate(expect_list(hand, child(hands_path, s))))
        for s, hand in enumerate(expect_list(round_obj["hands"], hands_path))
    )
    face_up = None
    if round_obj.get("face_up") is not None:
        up_path = child(path, "face_up")
        face_up = tuple(
            tuple(expect_card(c, state.config, child(child(up_path, s), i)) for i, c in
                  enumerate(expect_list(cards, child(up_path, s))))
            for s, cards in enumerate(expect_list(round_obj["face_up"], up_path))
        )
    if hands == state.round.dealt and face_up == state.round.dealt_face_up:
        return state
    return with_deal(state, hands, face_up)


def state_dumps(state: GameState) -> str:
    """A state as a JSON string."""
    return json.dumps(state_to_json(state), separators=(",", ":"))


def state_loads(text: str | bytes) -> GameState:
    """A state from JSON text, read by the hardened reader (see ``state_from_json``)."""
    return state_from_json(loads_json(text))

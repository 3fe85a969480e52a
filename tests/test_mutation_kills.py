"""Tests written to kill mutants that survived the rest of the suite (``scripts/mutate.py``):
each pins a behaviour no other test observed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from bottleimp import (
    ArgumentError,
    Config,
    IllegalActionError,
    RecordError,
    StartRound,
    apply,
    check_action,
    new_game,
)


def test_a_value_that_is_no_action_is_a_wrong_argument_not_a_rule_PHASE() -> None:
    """PHASE judges which kind of action a phase admits; a value that is no action at all is a
    wrong argument (the error policy), refused before any rule is asked."""
    state = new_game(Config(players=4), 1)
    for value in (object(), "play 17", None):
        with pytest.raises(ArgumentError, match="needs a Give, a Play or a StartRound"):
            apply(state, value)  # type: ignore[arg-type]
        with pytest.raises(ArgumentError, match="needs a Give, a Play or a StartRound"):
            check_action(state, value)  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError) as refused:
        apply(state, StartRound(1))
    assert refused.value.rule_id == "PHASE"


def test_a_card_at_the_price_does_not_buy_the_bottle_BOTTLE_PURCHASE() -> None:
    # In play no card ever equals a price (ranks are distinct and 19 is no card), so only the
    # rule function itself shows that the purchase needs a card strictly below the price.
    from bottleimp import Card, Colour
    from bottleimp.rules.play import buys_bottle

    card = Card(17, Colour.BLUE, 3)
    assert not buys_bottle(card, 17)
    assert buys_bottle(card, 17.5) and buys_bottle(card, 19)
    assert not buys_bottle(card, 16.5)


def test_a_card_at_the_price_is_not_below_it_TRICK_WINNER() -> None:
    # Likewise only the rule function can be asked about a card equal to the price.
    from bottleimp import Card, Colour
    from bottleimp.rules.play import trick_winner

    cards = (Card(17, Colour.BLUE, 3), Card(12, Colour.YELLOW, 4), Card(20, Colour.BLUE, 4))
    assert trick_winner(cards, 17) == 1
    assert trick_winner(cards, 17.5) == 0
    assert trick_winner(cards, 12) == 2


def test_new_game_without_arguments_is_the_default_configuration_and_seed_7() -> None:
    assert new_game() == new_game(Config(), 7) == new_game(None, 7)
    assert new_game().config == Config(players=4)


def test_legal_actions_registers_a_card_it_has_never_seen() -> None:
    # A state can come from elsewhere (unpickled in a new process) holding cards whose actions
    # are not in the engine's tables yet: legal_actions registers them on the way.
    import attrs

    from bottleimp import Card, Colour, Phase, Play, legal_actions

    state = new_game(Config(players=3), 4)
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[0])
    seat = state.to_act
    assert seat is not None
    strange = Card(41.25, Colour.GREEN, 2)  # a card of no deck: never registered
    hands = list(state.round.hands)
    hands[seat] = (strange,)
    odd = attrs.evolve(state, round=attrs.evolve(state.round, hands=tuple(hands)))
    assert legal_actions(odd) == (Play(seat, strange),)


def test_a_devils_eye_setup_entry_with_left_and_right_is_unreadable_not_broken() -> None:
    """A 2-player record whose setup entry is written as a 3-6 player one (``left``/``right``
    instead of ``to_face_up``/``to_hidden``) is unreadable (status 2, "unknown key" at the
    entry), not a record that breaks rule SETUP-STEPS (status 1): the inline reading of the
    usual entry is for 3-6 players only (kills records:_parse_setup ``players > 2`` -> ``>= 2``,
    once listed as equivalent)."""
    from bottleimp.formats._records import parse_record, record_from_state, record_to_json
    from bottleimp.validation import validate_json
    from games import random_game

    state = random_game(Config(players=2), 5, 8)  # the whole setup given
    document: Any = json.loads(json.dumps(record_to_json(record_from_state(state))))
    setup = document["rounds"][0]["setup"]
    entry = setup[0]
    setup[0] = {"discard": entry["discard"], "left": entry["to_face_up"],
                "right": entry["to_hidden"]}
    with pytest.raises(RecordError, match="unknown key") as unreadable:
        parse_record(document)
    assert unreadable.value.path == "$.rounds[0].setup[0].left"
    assert validate_json(document).status == 2


_RECORDS = Path(__file__).resolve().parent / "data" / "records"


def _without_extensions(name: str) -> dict[str, Any]:
    record = json.loads((_RECORDS / name).read_text())
    return {key: value for key, value in record.items() if not key.startswith("_")}


def _left_to_the_engine_cases() -> list[tuple[str, dict[str, Any], int]]:
    two = _without_extensions("valid/partial-2p-mid-trick.json")
    four = _without_extensions("valid/partial-4p-mid-setup.json")
    return [
        ("rounds an object", {**two, "rounds": {}}, 2),
        ("rounds a string", {**four, "rounds": "x"}, 2),
        ("a setup that is an object", {**four, "rounds": [{**four["rounds"][0], "setup": {}}]}, 2),
        ("a broken 4-player record without its extension",
         _without_extensions("broken/score-round.json"), 1),
    ]


@pytest.mark.parametrize("case", _left_to_the_engine_cases(), ids=lambda case: case[0])
def test_records_the_batch_replay_leaves_to_the_engine_get_the_engine_replays_report(
    case: tuple[str, dict[str, Any], int],
) -> None:
    """Records that are unreadable or broken in shapes the batch replay must leave to the engine
    replay: ``validate_values`` gives them the engine replay's report, not valid."""
    from bottleimp.validation import report_to_json, validate_json, validate_values

    _, record, status = case
    together = report_to_json(validate_values([record], ["<record>"])[0])
    assert together == report_to_json(validate_json(record))
    assert together["status"] == status and together["valid"] is False

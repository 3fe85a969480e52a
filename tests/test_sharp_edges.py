"""No sharp edges in the core: each finding as a regression test.

Cards cannot be changed by building another card and refuse fields of the wrong type; every
public function refuses a value of the wrong type with a ``BottleImpError`` naming what is wrong
(never an ``AttributeError`` from deep inside, never a bool taken for a seat); a scores helper;
a compact printable table and a short ``repr``. And the reference engine's states are plain attrs
values: slotted, no instance dict.
"""

from __future__ import annotations

import json
import pickle
from collections.abc import Callable

import pytest

import bottleimp
from bottleimp import (
    ArgumentError,
    BottleImpError,
    Card,
    Colour,
    Config,
    GameState,
    IllegalActionError,
    Play,
    RoundState,
    apply,
    legal_actions,
    new_game,
    view,
)
from bottleimp.formats import _state_json as state_json


def _played(config: Config, seed: int, decisions: int) -> GameState:
    state = new_game(config, seed)
    for _ in range(decisions):
        state = apply(state, legal_actions(state)[0])
    return state


def _finished(config: Config, seed: int) -> GameState:
    state = new_game(config, seed)
    while not state.is_over:
        state = apply(state, legal_actions(state)[-1])
    return state


# -- cards -------------------------------------------------------------------------------------


def test_building_a_card_with_float_coins_changes_no_existing_card_or_state_CARD_RANK() -> None:
    """Once, ``Card(rank, colour, 2.0)`` found the interned card (2.0 == 2) and rewrote its coins
    in place: every state changed and later games scored in floats."""
    config = Config(players=3)
    state = _played(config, 7, 20)
    before = state_json.state_dumps(state)
    card = config.cards[3]
    with pytest.raises(ArgumentError, match="Card.coins") as error:
        Card(card.rank, card.colour, float(card.coins))
    assert isinstance(error.value, BottleImpError) and error.value.field == "Card.coins"
    assert type(card.coins) is int
    assert state_json.state_dumps(state) == before
    assert all(type(total) is int for total in _finished(Config(players=3, rounds=1), 1).totals)


@pytest.mark.parametrize(
    "rank, colour, coins, field",
    [
        (17, "red", 1, "Card.colour"),
        (17, None, 1, "Card.colour"),
        (True, Colour.RED, 1, "Card.rank"),
        ("17", Colour.RED, 1, "Card.rank"),
        (float("nan"), Colour.RED, 1, "Card.rank"),
        (float("inf"), Colour.RED, 1, "Card.rank"),
        (17, Colour.RED, True, "Card.coins"),
        (17, Colour.RED, "1", "Card.coins"),
        (17, Colour.RED, 1.5, "Card.coins"),
        (17, Colour.RED, -1, "Card.coins"),
    ],
)
def test_a_card_with_a_field_of_the_wrong_type_is_refused_when_built_CARD_RANK(
    rank: object, colour: object, coins: object, field: str
) -> None:
    with pytest.raises(ArgumentError) as error:
        Card(rank, colour, coins)
    assert error.value.field == field and field in str(error.value)


def test_a_str_colour_is_refused_with_the_colour_to_write_instead() -> None:
    with pytest.raises(ArgumentError, match=r"write Colour\.RED"):
        Card(17, "red", 1)


def test_numpy_integers_build_the_same_card_with_plain_ints() -> None:
    numpy = pytest.importorskip("numpy")
    card = Card(numpy.int64(17), Colour.BLUE, numpy.int32(3))
    assert card == Card(17, Colour.BLUE, 3) and hash(card) == hash(Card(17, Colour.BLUE, 3))
    assert type(card.rank) is int and type(card.coins) is int
    half = Card(numpy.float64(2.5), Colour.RED, 1)
    assert half == Card(2.5, Colour.RED, 1) and type(half.rank) is float
    state = new_game(Config(players=4), numpy.int64(5))
    assert type(state.seed) is int
    json.dumps(state_json.state_to_json(state))


def test_a_card_of_the_wrong_colour_for_the_deck_is_refused_by_the_rules_CARD_HELD() -> None:
    """A card is built before any game knows it; a card the game's deck does not hold (the 17 in
    a colour the deck does not give it) is no card a seat holds, refused when played."""
    state = _played(Config(players=3), 7, 9)  # the setup is over: trick play
    seat = state.to_act
    assert seat is not None and state.phase is bottleimp.Phase.PLAY
    held = state.round.hands[seat][0]
    other = next(colour for colour in Colour if colour is not held.colour)
    with pytest.raises(IllegalActionError) as error:
        apply(state, Play(seat, Card(held.rank, other, held.coins)))
    assert error.value.rule_id == "CARD-HELD"


def test_cards_are_frozen_values_equal_through_copies() -> None:
    card = Config().cards[0]
    copy = pickle.loads(pickle.dumps(card))
    assert copy == card and hash(copy) == hash(card)
    assert Card(card.rank, card.colour, card.coins + 1) != card
    with pytest.raises(AttributeError):
        card.coins = 5  # type: ignore[misc]
    assert card.coins == Config().cards[0].coins


# -- every public function refuses a value of the wrong type -----------------------------------

_STATE = new_game(Config(players=4), 3)
_VIEW = view(_STATE, 1)
_CONFIG = Config(players=4)

REFUSALS: list[tuple[str, Callable[[], object], type[BottleImpError], str]] = [
    ("new_game(4)", lambda: new_game(4), ArgumentError, "new_game(config)"),  # type: ignore[arg-type]
    ("new_game seed 7.0", lambda: new_game(_CONFIG, 7.0), ArgumentError, "new_game(seed)"),  # type: ignore[arg-type]
    ("new_game seed True", lambda: new_game(_CONFIG, True), ArgumentError, "new_game(seed)"),
    ("new_game first dealer True", lambda: new_game(_CONFIG, 1, first_dealer=True),
     ArgumentError, "seat True"),
    ("apply(view, action)", lambda: apply(_VIEW, legal_actions(_STATE)[0]),  # type: ignore[arg-type]
     ArgumentError, "SeatView"),
    ("apply(None, action)", lambda: apply(None, legal_actions(_STATE)[0]),  # type: ignore[arg-type]
     ArgumentError, "apply(state)"),
    ("legal_actions(None)", lambda: legal_actions(None), ArgumentError, "legal_actions(state)"),  # type: ignore[arg-type]
    ("check_action(view)", lambda: bottleimp.check_action(_VIEW, legal_actions(_STATE)[0]),  # type: ignore[arg-type]
     ArgumentError, "check_action(state)"),
    ("is_legal(None)", lambda: bottleimp.is_legal(None, legal_actions(_STATE)[0]),  # type: ignore[arg-type]
     ArgumentError, "check_action(state)"),
    ("with_deal(None)", lambda: bottleimp.with_deal(None, ()), ArgumentError, "with_deal(state)"),  # type: ignore[arg-type]
    ("with_deal hands None", lambda: bottleimp.with_deal(_STATE, None),  # type: ignore[arg-type]
     ArgumentError, "with_deal(hands)"),
    ("view(None, 0)", lambda: view(None, 0), ArgumentError, "view(state)"),  # type: ignore[arg-type]
    ("view(state, True)", lambda: view(_STATE, True), ArgumentError, "seat True"),
    ("view(state, 1.0)", lambda: view(_STATE, 1.0), ArgumentError, "seat 1.0"),  # type: ignore[arg-type]
    ("winners([])", lambda: bottleimp.winners([]), ArgumentError, "at least one total"),
    ("winners(None)", lambda: bottleimp.winners(None), ArgumentError, "winners(source)"),  # type: ignore[arg-type]
    ("winners(['a'])", lambda: bottleimp.winners(["a"]), ArgumentError, "a total is a number"),  # type: ignore[list-item]
    ("returns(view)", lambda: bottleimp.returns(_VIEW), ArgumentError, "returns(state)"),  # type: ignore[arg-type]
    ("totals(None)", lambda: bottleimp.totals(None), ArgumentError, "totals(source)"),  # type: ignore[arg-type]
    ("action_from_int seat True", lambda: bottleimp.action_from_int(_CONFIG, 0, True),
     ArgumentError, "seat True"),
    ("action_from_int config 4", lambda: bottleimp.action_from_int(4, 0, 0),  # type: ignore[arg-type]
     ArgumentError, "action_from_int(config)"),
    ("action_to_int None", lambda: bottleimp.action_to_int(_CONFIG, None),  # type: ignore[arg-type]
     ArgumentError, "action_to_int(action)"),
    ("num_actions(4)", lambda: bottleimp.num_actions(4), ArgumentError, "num_actions(config)"),  # type: ignore[arg-type]
    ("legal_action_mask(None)", lambda: bottleimp.legal_action_mask(None),  # type: ignore[arg-type]
     ArgumentError, "legal_action_mask(source)"),
    ("legal_action_ints(None)", lambda: bottleimp.legal_action_ints(None),  # type: ignore[arg-type]
     ArgumentError, "legal_action_ints(source)"),
    ("observation(state)", lambda: bottleimp.observation(_STATE),  # type: ignore[arg-type]
     ArgumentError, "view(state, seat)"),
    ("observation_string(None)", lambda: bottleimp.observation_string(None),  # type: ignore[arg-type]
     ArgumentError, "observation_string(source)"),
    ("state_to_json(view)", lambda: bottleimp.state_to_json(_VIEW),  # type: ignore[arg-type]
     ArgumentError, "state_to_json(state)"),
    ("view_to_json(state)", lambda: bottleimp.view_to_json(_STATE),  # type: ignore[arg-type]
     ArgumentError, "view_to_json(seen)"),
    ("action_to_json(None)", lambda: bottleimp.action_to_json(None),  # type: ignore[arg-type]
     ArgumentError, "action_to_json(action)"),
    ("action_from_json config 4", lambda: bottleimp.action_from_json({"type": "start_round",
     "seat": 0}, 4), ArgumentError, "action_from_json(config)"),  # type: ignore[arg-type]
]


@pytest.mark.parametrize("call, error_type, text", [r[1:] for r in REFUSALS],
                         ids=[r[0] for r in REFUSALS])
def test_a_public_function_refuses_a_wrong_value_naming_it(
    call: Callable[[], object], error_type: type[BottleImpError], text: str
) -> None:
    with pytest.raises(error_type) as error:
        call()
    assert isinstance(error.value, BottleImpError) and text in str(error.value)


def test_a_bool_is_never_taken_for_a_seat() -> None:
    """``True == 1``: once, ``view(state, True)`` wrote ``"seat": true`` and
    ``action_from_int(config, 0, True)`` gave seat 1's action."""
    for call in (lambda: view(_STATE, False), lambda: bottleimp.action_from_int(_CONFIG, 0, False),
                 lambda: Play(True, _CONFIG.cards[0])):
        with pytest.raises(BottleImpError):
            call()


def test_argument_errors_are_value_errors_as_every_error_of_the_policy() -> None:
    """The four errors of the policy are ``ValueError``: the value handed in is wrong."""
    with pytest.raises(ValueError):
        new_game(_CONFIG, "7")  # type: ignore[arg-type]
    assert not issubclass(ArgumentError, TypeError)


# -- scores, the printed table, the repr --------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_scores_are_the_sum_of_every_scored_round_GAME_TOTALS(players: int) -> None:
    state = new_game(Config(players=players, rounds=2), 11)
    while not state.is_over:
        scored = [r.scores for r in state.rounds if r.scores is not None]
        expected = tuple(sum(column) for column in zip(*scored)) if scored else (0,) * players
        assert bottleimp.totals(state) == expected
        assert bottleimp.totals(view(state, players - 1)) == expected
        state = apply(state, legal_actions(state)[0])
    assert bottleimp.winners(state) == bottleimp.winners(bottleimp.totals(state))


def _hand_text(hand: tuple[Card, ...]) -> str:
    return " ".join(f"{bottleimp._cards.format_rank(c.rank)}{c.colour.value[0]}" for c in hand)


@pytest.mark.parametrize("players, decisions", [(2, 30), (3, 20), (4, 0), (5, 25)])
def test_the_printed_table_shows_every_hand_and_a_view_only_its_own(
    players: int, decisions: int
) -> None:
    state = _played(Config(players=players), 5, decisions)
    text = str(state)
    assert len(text.splitlines()) <= players + 6
    round_ = state.round
    for seat, hand in enumerate(round_.hands):
        assert f"seat {seat}: {_hand_text(hand)}" in text
    price = bottleimp._cards.format_rank(max(b.price for b in round_.bottles))
    assert f"price {price}" in text
    seen = view(state, 0)
    shown = str(seen)
    assert shown.startswith("Seat 0's view.")
    assert f"seat 0: {_hand_text(round_.hands[0])}" in shown
    for seat in range(1, players):
        size = len(round_.hands[seat])
        assert f"seat {seat}: {size} card" in shown
        if size:
            assert _hand_text(round_.hands[seat]) not in shown


def test_a_finished_game_prints_its_round_scores_and_winners() -> None:
    state = _finished(Config(players=3, rounds=1), 2)
    text = str(state)
    assert state.round.scores is not None
    assert "Round scores: " + " ".join(map(str, state.round.scores)) in text
    assert "Winners: " + ", ".join(f"seat {s}" for s in bottleimp.winners(state)) in text
    assert "game over" in text


def test_the_repr_of_a_state_round_and_view_is_one_short_line() -> None:
    state = _finished(Config(players=4, rounds=2), 3)
    for value in (state, state.round, view(state, 2)):
        text = repr(value)
        assert "\n" not in text and len(text) < 120, text
    assert repr(state).startswith("<GameState: 4 players, seed 3, round 2, game over, won by")
    assert "game_over" not in repr(state)


# -- the reference's states are plain attrs values -----------------------------------------


def test_states_are_slotted_frozen_attrs_values_with_no_instance_dict() -> None:
    state = _played(Config(players=4), 1, 30)
    for value in (state, state.round):
        assert not hasattr(value, "__dict__")
        with pytest.raises(AttributeError):
            value.seed = 3  # type: ignore[misc, union-attr]
    rebuilt = state_json.state_loads(state_json.state_dumps(state))
    assert rebuilt == state and hash(rebuilt) == hash(state)
    assert isinstance(state.round, RoundState)


def test_a_trick_is_resolved_into_the_one_trick_result_type() -> None:
    from bottleimp.rules.play import resolve_trick
    from bottleimp._state import TrickResult

    cards = Config(players=3).cards
    trick = tuple(Play(seat, card) for seat, card in enumerate(cards[:3]))
    result, bottles, captured = resolve_trick(trick, (bottleimp.Bottle(),), ((), (), ()))
    assert type(result) is TrickResult and result.plays == trick
    assert result.winner == 2 and result.bottle == 0 and bottles == (bottleimp.Bottle(cards[2], 2),)
    assert captured == ((), (), cards[:2])

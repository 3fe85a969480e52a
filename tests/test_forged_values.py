"""Values that cannot be forged: every kind of forged value the hostile campaigns handed to the
engine is refused with an ``ArgumentError`` naming the argument, and the state handed in is
unchanged.

A forged value passes ``isinstance`` or compares equal to a real one without being one the
library built: subclasses of ``Card``, ``Give``, ``Play``, ``GameState`` and ``Config`` that
override ``__eq__``, ``__hash__``, ``__iter__`` or ``__len__``; values built around the
constructor (``object.__new__`` and ``object.__setattr__``) holding numpy scalars, ``bool``
for an int, NaN; tuples that lie about their contents; seats past any game's, as huge ints.
The boundary (``expect_card``, ``expect_action``, ``expect_config``, ``expect_state``) checks
exact types and field values before any rule runs (rule CARD-HELD would otherwise take a card
that equals every card as held). A state checks its own fields when it is built, so a forged
part slipped into one with ``attrs.evolve`` is refused there, naming the field
(``RoundState.hands[1][0]``, ``GameState.config``), before the engine is called."""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from typing import Any

import attrs
import pytest

from bottleimp import (
    ArgumentError,
    Card,
    Colour,
    Config,
    Destination,
    GameState,
    Give,
    IllegalActionError,
    Phase,
    Play,
    StartRound,
    apply,
    check_action,
    legal_actions,
    new_game,
    view,
    with_deal,
)


class EqualToEveryCard(Card):
    """A card worth 1,000 coins at rank 99.5 that claims to be any card."""

    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class LyingGive(Give):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class LyingPlay(Play):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class LyingState(GameState):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0


class LyingConfig(Config):
    def __eq__(self, other: object) -> bool:
        return True

    def __hash__(self) -> int:
        return 0

    def __iter__(self) -> Iterator[int]:
        return iter(())

    def __len__(self) -> int:
        return 0


class LyingTuple(tuple):  # type: ignore[type-arg]
    """A tuple whose length and contents lie."""

    def __len__(self) -> int:
        return 0

    def __iter__(self) -> Iterator[Any]:
        return iter(())


def _bypass(kind: type, **fields: object) -> Any:
    """A value of ``kind`` built around its constructor, its fields set as given."""
    value: Any = object.__new__(kind)
    for name, field_value in fields.items():
        object.__setattr__(value, name, field_value)
    return value


def _in_play() -> GameState:
    state = new_game(Config(players=4), seed=5)
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[0])
    return state


def _forged_card() -> Card:
    return EqualToEveryCard(99.5, Colour.RED, 1000)


def _real_card(state: GameState) -> Card:
    seat = state.to_act
    assert seat is not None
    return state.round.hands[seat][0]


def _cases() -> dict[str, tuple[Callable[[], GameState], Callable[[GameState], object], str]]:
    """name -> (the state handed in, the call with the forged value, the argument named)."""
    setup = lambda: new_game(Config(players=4), seed=5)  # noqa: E731
    numpy = pytest.importorskip("numpy")

    def seat(state: GameState) -> int:
        assert state.to_act is not None
        return state.to_act

    def play_of(card: object) -> Callable[[GameState], object]:
        return lambda state: apply(state, _bypass(Play, seat=seat(state), card=card))

    def state_with_hand(state: GameState, hand: object) -> GameState:
        hands = list(state.round.hands)
        hands[seat(state)] = hand  # type: ignore[call-overload]
        return attrs.evolve(state, round=attrs.evolve(state.round, hands=tuple(hands)))

    def real_card_changed(state: GameState, **fields: object) -> Card:
        card = _real_card(state)
        forged: Card = _bypass(Card, **{"rank": card.rank, "colour": card.colour,
                                        "coins": card.coins, **fields})
        return forged

    def config_with(**fields: object) -> Config:
        config = Config(players=4)
        forged: Config = _bypass(Config, **{name: getattr(config, name)
                                            for name in attrs.fields_dict(Config)})
        for name, value in fields.items():
            object.__setattr__(forged, name, value)
        return forged

    return {
        "a Card subclass equal to every card, played": (
            _in_play, play_of(_forged_card()), "apply(action).card"),
        "a Card subclass equal to every card, given": (
            setup, lambda state: apply(state, _bypass(
                Give, seat=seat(state), card=_forged_card(), to=Destination.DEVILS_TRICK)),
            "apply(action).card"),
        "a Card subclass equal to every card, checked": (
            _in_play, lambda state: check_action(state, _bypass(
                Play, seat=seat(state), card=_forged_card())), "check_action(action).card"),
        "a Give subclass with a lying __eq__ and __hash__": (
            setup, lambda state: apply(state, LyingGive(
                seat(state), _real_card(state), Destination.DEVILS_TRICK)), "apply(action)"),
        "a Play subclass with a lying __eq__ and __hash__": (
            _in_play, lambda state: apply(state, LyingPlay(seat(state), _real_card(state))),
            "apply(action)"),
        "a GameState subclass with a lying __eq__ and __hash__": (
            _in_play, lambda state: apply(
                _bypass(LyingState, **{name: getattr(state, name)
                                       for name in attrs.fields_dict(GameState)}),
                legal_actions(state)[0]), "apply(state)"),
        "a state whose hand holds a card equal to every card": (
            _in_play, lambda state: apply(
                state_with_hand(state, (_forged_card(),) + state.round.hands[seat(state)]),
                legal_actions(state)[0]), "RoundState.hands[1][0]"),
        "a state whose hand is a tuple with a lying __len__ and __iter__": (
            _in_play, lambda state: legal_actions(
                state_with_hand(state, LyingTuple(state.round.hands[seat(state)]))),
            "RoundState.hands"),
        "a Config subclass with a lying __eq__, __hash__, __iter__ and __len__": (
            setup, lambda state: new_game(LyingConfig(players=4)), "new_game(config)"),
        "a Config whose cards hold a card equal to every card": (
            setup, lambda state: new_game(config_with(cards=(_forged_card(),) * 36)),
            "new_game(config).cards"),
        "a Config whose players is a numpy integer": (
            setup, lambda state: new_game(config_with(players=numpy.int64(4))),
            "new_game(config)"),
        "a state whose config is a Config subclass": (
            _in_play, lambda state: apply(attrs.evolve(state, config=_bypass(
                LyingConfig, **{name: getattr(state.config, name)
                                for name in attrs.fields_dict(Config)})),
                legal_actions(state)[0]), "GameState.config"),
        "a play whose seat is a numpy integer": (
            _in_play, lambda state: apply(state, _bypass(
                Play, seat=numpy.int64(seat(state)), card=_real_card(state))),
            "apply(action).seat"),
        "a card whose coins are a numpy integer": (
            _in_play, lambda state: apply(state, _bypass(
                Play, seat=seat(state), card=real_card_changed(state, coins=numpy.int64(1)))),
            "apply(action).card.coins"),
        "a play whose seat is True": (
            _in_play, lambda state: apply(state, _bypass(
                Play, seat=True, card=_real_card(state))), "apply(action).seat"),
        "a card whose coins are True": (
            _in_play, lambda state: apply(state, _bypass(
                Play, seat=seat(state), card=real_card_changed(state, coins=True))),
            "apply(action).card.coins"),
        "a play of no card": (
            _in_play, play_of(None), "apply(action).card"),
        "a card whose rank is a bool": (
            _in_play, lambda state: apply(state, _bypass(
                Play, seat=seat(state), card=real_card_changed(state, rank=True))),
            "apply(action).card.rank"),
        "a view of a seat past every game's, a huge int": (
            _in_play, lambda state: view(state, 2**100), "view(seat)"),
        "a first dealer past every game's, a huge int": (
            setup, lambda state: new_game(Config(players=4), first_dealer=2**70),
            "new_game(first_dealer)"),
        "a card whose rank is NaN": (
            _in_play, lambda state: apply(state, _bypass(
                Play, seat=seat(state), card=real_card_changed(state, rank=float("nan")))),
            "apply(action).card.rank"),
        "a deal holding a card equal to every card": (
            setup, lambda state: with_deal(state, ((_forged_card(),) * 9,) * 4),
            "with_deal(hands)[0][0]"),
        "an action that is a number": (
            _in_play, lambda state: apply(state, 3), "apply(action)"),  # type: ignore[arg-type]
        "a StartRound subclass": (
            _in_play, lambda state: apply(state, type("Lying", (StartRound,), {
                "__eq__": lambda self, other: True, "__hash__": lambda self: 0})(0)),
            "apply(action)"),
    }


CASES = _cases()


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_forged_value_is_refused_naming_the_argument_and_the_state_is_unchanged(
    name: str,
) -> None:
    build, call, argument = CASES[name]
    state = build()
    before = pickle.dumps(state)
    with pytest.raises(ArgumentError) as raised:
        call(state)
    assert raised.value.field.startswith(argument), (raised.value.field, raised.value.message)
    assert pickle.dumps(state) == before
    assert pickle.loads(before) == state


def test_the_forged_card_of_the_hostile_campaign_never_leaves_a_hand_CARD_HELD() -> None:
    """The card of rank 99.5 worth 1,000 coins that equals every card: refused when a Play is
    built with it, and when it is slipped into a Play built around the constructor."""
    state = _in_play()
    seat = state.to_act
    assert seat is not None
    with pytest.raises(ArgumentError, match="Play.card"):
        Play(seat, _forged_card())
    with pytest.raises(ArgumentError, match="Give.card"):
        Give(seat, _forged_card(), Destination.LEFT)
    forged = _bypass(Play, seat=seat, card=_forged_card())
    with pytest.raises(ArgumentError):
        apply(state, forged)
    assert apply(state, legal_actions(state)[0]).round.hands[seat] != state.round.hands[seat]


def test_a_numpy_integer_given_to_a_constructor_is_taken_as_the_int_it_is() -> None:
    """Not a forgery: the constructors convert another library's integers (the one policy of
    ``arguments.integer``), so the value the engine meets is an ``int``."""
    numpy = pytest.importorskip("numpy")
    state = _in_play()
    seat = state.to_act
    assert seat is not None
    play = Play(numpy.int64(seat), legal_actions(state)[0].card)  # type: ignore[union-attr]
    assert type(play.seat) is int and apply(state, play) == apply(state, legal_actions(state)[0])


@pytest.mark.parametrize("seat", [2**64, -(2**70), 7])
def test_a_move_by_a_seat_the_game_does_not_have_is_refused_by_the_rules_TURN_ORDER(
    seat: int,
) -> None:
    """A huge int is an int: a play by a seat past the game's is a move against the rules, refused
    as any play out of turn, and the state is unchanged."""
    state = _in_play()
    before = pickle.dumps(state)
    with pytest.raises(IllegalActionError) as raised:
        apply(state, Play(seat, _real_card(state)))
    assert raised.value.rule_id == "TURN-ORDER"
    assert pickle.dumps(state) == before

"""The engine: ``new_game``, ``legal_actions``, ``check_action``/``is_legal``/``apply``.

The engine holds no rule of its own: it finds the phase, asks the rule functions in
``bottleimp.rules`` what they decide, and builds the next immutable state from their answers.
"""

from __future__ import annotations

from . import _transitions as transitions
from ._actions import Action, Give, Play, expect_action
from ._arguments import describe, expect_int
from ._cards import Card, expect_card, rank_key
from ._config import Config, expect_config
from ._errors import ArgumentError, IllegalActionError
from .rules import deal as deal_rules
from .rules import game, setup
from .rules import play as play_rules
from ._state import GameState, Phase
from ._transitions import new_round
from ._view import SeatView, expect_state

__all__ = ["new_game", "new_round", "with_deal", "legal_actions", "check_action", "is_legal", "apply"]


def new_game(config: Config | None = None, seed: int = 7, *, first_dealer: int = 0) -> GameState:
    """The state at the start of a game: the first round dealt by ``first_dealer`` (any seat may
    deal first: rule FIRST-DEALER) from ``seed``, setup to begin.

    Later rounds are dealt from the same seed and their round index, so a whole game follows
    deterministically from ``(config, seed, first_dealer)``. The seed is any integer (numpy's
    integers are taken as the ``int`` of the same value); anything else, a configuration that is
    not a ``Config``, and a first dealer the game does not have are refused:

    >>> new_game(4)
    Traceback (most recent call last):
    ...
    bottleimp.ArgumentError: new_game(config): needs a Config, not 4 (an int) (for 4 ...

    Examples:
        >>> from bottleimp import Config, new_game
        >>> state = new_game(Config(players=3), seed=1)
        >>> state.phase, state.to_act, state.round.dealer, len(state.round.hands[0])
        (Phase.SETUP, 1, 0, 12)
        >>> new_game(Config(players=3), seed=1) == state  # the seed decides the deal
        True
    """
    config = Config() if config is None else expect_config(config, "new_game(config)")
    seed = expect_int(seed, "new_game(seed)", "a seed, an int")
    first = transitions.new_round(config, seed, 0, deal_rules.first_dealer(config, first_dealer))
    return GameState(
        config=config,
        seed=seed,
        phase=Phase.SETUP,
        to_act=setup.setup_to_act(config, first.dealer, first.setup),
        round=first,
        past_rounds=(),
        totals=(0,) * config.players,
    )


def _expect_rows(rows: object, where: str) -> tuple[tuple[Card, ...], ...]:
    """A deal's rows: a tuple (or list) of tuples (or lists) of cards (``expect_card``), one per
    seat; whether the counts and cards make a deal is rule DEAL-COUNTS's business."""
    if not (type(rows) is tuple or type(rows) is list) or not all(
        type(row) is tuple or type(row) is list for row in rows
    ):
        raise ArgumentError(where, f"needs one tuple of cards per seat, not {describe(rows)}")
    return tuple(
        tuple(expect_card(card, f"{where}[{seat}][{position}]") for position, card in enumerate(row))
        for seat, row in enumerate(rows)
    )


def with_deal(
    state: GameState,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None = None,
) -> GameState:
    """The state with a round dealt as given instead of from the seed.

    For replaying a record, whose deals come from another implementation. Before anyone has
    given a setup card, it replaces the current round's deal; between rounds (phase
    ``ROUND_OVER``) it starts the next round, dealt by the next dealer, with this deal (as
    ``apply(state, StartRound(next dealer))`` would, but without dealing from the seed).
    The deal must satisfy rule DEAL-COUNTS, else ``IllegalActionError``.

    Examples:
        >>> from bottleimp import Config, new_game
        >>> state = new_game(Config(players=3), seed=1)
        >>> hands = state.round.hands
        >>> moved = with_deal(state, hands[1:] + hands[:1])  # each seat gets the next one's
        >>> moved.round.hands[0] == hands[1], moved.to_act == state.to_act
        (True, True)
    """
    state = expect_state(state, "with_deal(state)")
    hands = _expect_rows(hands, "with_deal(hands)")
    if face_up is not None:
        face_up = _expect_rows(face_up, "with_deal(face_up)")
    config = state.config
    round_ = state.round
    if state.phase is Phase.ROUND_OVER:
        index, dealer = round_.index + 1, deal_rules.next_dealer(config, round_.dealer)
        past_rounds = state.past_rounds + (round_,)
    elif state.phase is Phase.SETUP and not any(round_.setup):
        index, dealer, past_rounds = round_.index, round_.dealer, state.past_rounds
    else:
        raise IllegalActionError(
            "DEAL", "a deal can be given only between rounds or before the setup begins"
        )
    deal_rules.check_deal(config, dealer, hands, face_up)
    hands = tuple(tuple(sorted(hand, key=rank_key)) for hand in hands)
    if face_up is not None:
        face_up = tuple(tuple(sorted(cards, key=rank_key)) for cards in face_up)
    dealt = transitions.dealt_round(config, index, dealer, hands, face_up)
    return transitions.game_at_setup(state, dealt, past_rounds)


def legal_actions(state: GameState | SeatView) -> tuple[Action, ...]:
    """Every legal action of the seat to act, sorted (by card rank); empty once the game is over.

    Given a ``SeatView`` instead of a state, the legal actions of the view's seat when it is the
    seat to act (the same as the state's), else ``()``: a view holds all its seat needs to know.
    Anything else is refused with an ``ArgumentError``.

    Examples:
        >>> from bottleimp import Config, new_game, view
        >>> state = new_game(Config(players=3), seed=1)
        >>> legal_actions(state)[0]
        Give(seat=1, card=Card(rank=1, colour=Colour.YELLOW, coins=1), to=Destination.DEVILS_TRICK)
        >>> legal_actions(view(state, 1)) == legal_actions(state), legal_actions(view(state, 0))
        (True, ())
    """
    if type(state) is SeatView:
        seen = state
        if seen.to_act != seen.seat:
            return ()
        return transitions.seat_actions(
            seen.config, seen.phase, seen.seat, seen.dealer, seen.hand,
            None if seen.face_up is None else seen.face_up[seen.seat],
            seen.current_trick, len(seen.my_setup),
        )
    state = expect_state(state, "legal_actions(state)")
    if state.to_act is None:
        return ()
    return transitions.legal_actions_of(state, state.to_act)


def _check_seat(state: GameState, seat: int, rule_id: str) -> None:
    if seat != state.to_act:
        raise IllegalActionError(rule_id, f"it is seat {state.to_act}'s turn, not seat {seat}'s")


def _check_give(state: GameState, action: Give) -> None:
    round_ = state.round
    config = state.config
    seat = action.seat
    if not 0 <= seat < config.players:
        raise IllegalActionError("SETUP-ORDER", f"there is no seat {seat}")
    steps = setup.setup_steps(config, round_.dealer, seat)
    done = len(round_.setup[seat])
    if done == len(steps):
        raise IllegalActionError(
            "SETUP-STEPS", f"seat {seat} has already given all {len(steps)} of its setup cards"
        )
    _check_seat(state, seat, "SETUP-ORDER")
    if action.to is not steps[done]:
        raise IllegalActionError(
            "SETUP-STEPS",
            f"seat {seat}'s next setup card goes to {steps[done].value}, not {action.to.value}",
        )
    if not setup.can_give(round_.hands[seat], action.card):
        raise IllegalActionError(
            "SETUP-FROM-DEALT",
            f"seat {seat} cannot give {action.card}: setup cards come from the cards it was dealt"
            " and has not yet given",
        )


def _check_play(state: GameState, action: Play) -> None:
    round_ = state.round
    seat, card = action.seat, action.card
    _check_seat(state, seat, "TURN-ORDER")
    hand = round_.hands[seat]
    face_up = round_.face_up[seat] if round_.face_up is not None else ()
    if not play_rules.holds(hand, face_up, card):
        raise IllegalActionError("CARD-HELD", f"seat {seat} does not hold {card}")
    trick = state.current_trick()
    led = play_rules.led_colour(trick)
    if round_.face_up is None:
        if not play_rules.follows_suit(hand, led, card):
            assert led is not None
            raise IllegalActionError(
                "FOLLOW-SUIT", f"seat {seat} must follow {led.value}: it cannot play {card}"
            )
    elif not play_rules.devils_eye_follows_suit(hand, face_up, led, card):
        assert led is not None
        raise IllegalActionError(
            "EYE-FOLLOW-SUIT",
            f"seat {seat} must follow {led.value} from its face-up cards: it cannot play the "
            f"face-up {card}",
        )


def check_action(state: GameState, action: Action) -> None:
    """Raise ``IllegalActionError`` (with the broken rule's ID) unless ``action`` is legal now;
    ``ArgumentError`` when ``state`` or ``action`` is not one the library builds (a subclass, a
    look-alike, a seat the game does not have).

    Examples:
        >>> from bottleimp import Config, IllegalActionError, Play, new_game
        >>> state = new_game(Config(players=3), seed=1)
        >>> try:
        ...     check_action(state, Play(seat=1, card=state.round.hands[1][0]))
        ... except IllegalActionError as error:
        ...     print(error.rule_id, error.message)
        PHASE a Play is not possible in the setup phase; it needs a Give
    """
    state = expect_state(state, "check_action(state)")
    _check(state, expect_action(action, "check_action(action)"))


def _check(state: GameState, action: Action) -> None:
    """``check_action`` of a ``GameState``."""
    game.check_not_over(state.phase)
    game.check_phase_admits(state.phase, action)
    if isinstance(action, Give):
        _check_give(state, action)
    elif isinstance(action, Play):
        _check_play(state, action)
    else:
        _check_seat(state, action.seat, "DEALER-ROTATION")


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is legal in ``state``.

    Examples:
        >>> from bottleimp import Config, Play, new_game
        >>> state = new_game(Config(players=3), seed=1)
        >>> is_legal(state, legal_actions(state)[0])
        True
        >>> is_legal(state, Play(seat=1, card=state.round.hands[1][0]))
        False
    """
    try:
        check_action(state, action)
    except IllegalActionError:
        return False
    return True


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``. An illegal action raises ``IllegalActionError``; a state or
    action the library does not build (``apply(state, 3)``, a subclass of ``Play``) raises
    ``ArgumentError``; ``state`` is immutable, so it is unchanged either way. Only a
    ``GameState`` can be advanced:

    >>> import bottleimp
    >>> state = bottleimp.new_game(bottleimp.Config(players=3), seed=7)
    >>> apply(bottleimp.view(state, 1), bottleimp.legal_actions(state)[0])
    Traceback (most recent call last):
    ...
    bottleimp.ArgumentError: apply(state): needs a GameState, not a SeatView: ...

    Examples:
        >>> from bottleimp import Config, new_game
        >>> state = new_game(Config(players=3), seed=1)
        >>> after = apply(state, legal_actions(state)[0])
        >>> after.round.setup[1], state.round.setup[1]
        ((Give(seat=1, card=Card(rank=1, colour=Colour.YELLOW, coins=1), to=Destination.DEVILS_TRICK),), ())
        >>> while not after.is_over:  # a whole game, the first legal action each time
        ...     after = apply(after, legal_actions(after)[0])
        >>> len(after.rounds), legal_actions(after)
        (9, ())
    """
    state = expect_state(state, "apply(state)")
    action = expect_action(action, "apply(action)")
    _check(state, action)
    if isinstance(action, Play):
        return transitions.after_play(state, action)
    if isinstance(action, Give):
        return transitions.after_give(state, action)
    return transitions.after_start_round(state)

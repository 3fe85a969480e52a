"""The engine: ``new_game``, ``legal_actions``, ``check_action``/``is_legal``/``apply``.

The engine holds no rule of its own: it finds the phase, asks the rule functions in
``bottleimp.rules`` what they decide, and builds the next immutable state from their answers.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import repeat
from operator import attrgetter, is_
from typing import Final

from .actions import Action, Destination, Give, Play, StartRound
from .cards import Card, Colour, position, rank_key
from .config import Config
from .errors import IllegalActionError, NoSuchSeatError
from .rules import deal as deal_rules
from .rules import game, scoring, setup
from .rules import play as play_rules
from .state import (
    Bottle,
    GameState,
    Phase,
    RoundState,
    TrickResult,
    game_after,
    game_after_turn,
    round_after_give,
    round_after_play,
    round_after_setup,
    round_after_trick,
)
from .view import SeatView

__all__ = ["new_game", "new_round", "with_deal", "legal_actions", "check_action", "is_legal", "apply"]


def new_round(config: Config, seed: int, index: int, dealer: int) -> RoundState:
    """The state at the start of round ``index``: dealt from the seed, bottles at the start price."""
    hands, face_up = deal_rules.deal(config, seed, index, dealer)
    _register_deck(config)
    return _dealt_round(config, index, dealer, hands, face_up)


def _dealt_round(
    config: Config,
    index: int,
    dealer: int,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
) -> RoundState:
    players = config.players
    return RoundState(
        index=index,
        dealer=dealer,
        dealt=hands,
        dealt_face_up=face_up,
        hands=hands,
        face_up=face_up,
        setup=((),) * players,
        devils_trick=(),
        plays=(),
        leader=play_rules.first_leader(config, dealer),
        bottles=(Bottle(),) * config.bottles,
        captured=((),) * players,
        tricks=(),
        scores=None,
    )


def new_game(config: Config | None = None, seed: int = 7, *, first_dealer: int = 0) -> GameState:
    """The state at the start of a game: the first round dealt by ``first_dealer`` (any seat may
    deal first: rule FIRST-DEALER) from ``seed``, setup to begin.

    Later rounds are dealt from the same seed and their round index, so a whole game follows
    deterministically from ``(config, seed, first_dealer)``.
    """
    config = Config() if config is None else config
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {seed!r}")
    if type(first_dealer) is not int:  # checked here: a compiled rule would refuse it otherwise
        raise NoSuchSeatError(first_dealer, config.players)
    first = new_round(config, seed, 0, deal_rules.first_dealer(config, first_dealer))
    return GameState(
        config=config,
        seed=seed,
        phase=Phase.SETUP,
        to_act=setup.setup_to_act(config, first.dealer, first.setup),
        round=first,
        past_rounds=(),
        totals=(0,) * config.players,
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
    """
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
    _register_deck(config)
    hands = tuple(tuple(sorted(hand, key=rank_key)) for hand in hands)
    if face_up is not None:
        face_up = tuple(tuple(sorted(cards, key=rank_key)) for cards in face_up)
    dealt = _dealt_round(config, index, dealer, hands, face_up)
    return GameState(
        config=config,
        seed=state.seed,
        phase=Phase.SETUP,
        to_act=setup.setup_to_act(config, dealer, dealt.setup),
        round=dealt,
        past_rounds=past_rounds,
        totals=state.totals,
    )


# Actions are immutable values, so one object per (card, seat, destination) serves every state:
# ``legal_actions`` looks them up instead of building them. One table per seat (and per setup
# destination) maps a card to its action, so a whole list of legal actions is one C-level
# ``map`` over the playable cards.
_SEATS: Final = range(6)
_PLAY_TABLES: Final[tuple[dict[Card, Play], ...]] = tuple({} for _ in _SEATS)
_GIVE_TABLES: Final[dict[Destination, tuple[dict[Card, Give], ...]]] = {
    destination: tuple({} for _ in _SEATS) for destination in Destination
}


def _register(card: Card) -> None:
    if card not in _PLAY_TABLES[0]:
        for seat in _SEATS:
            _PLAY_TABLES[seat][card] = Play(seat, card)
            for destination, tables in _GIVE_TABLES.items():
                tables[seat][card] = Give(seat, card, destination)


@lru_cache(maxsize=64)
def _register_deck(config: Config) -> None:
    """Put the actions of every card of the game in the tables (once per configuration)."""
    for card in config.cards:
        _register(card)


def _led_colour(state: GameState) -> Colour | None:
    plays = state.round.plays
    in_trick = len(plays) % state.config.trick_size
    return play_rules.led_colour((plays[-in_trick].card,) if in_trick else ())


# Enum members read as globals: reading a class attribute is not specialised by the interpreter.
_SETUP: Final = Phase.SETUP
_PLAY: Final = Phase.PLAY

# The last answer of legal_actions: apply() trusts an action found in it (by identity) for the
# same state object, which spares the usual legal_actions-then-apply loop a second legality check.
_last_legal: tuple[GameState | None, tuple[Action, ...]] = (None, ())


def legal_actions(state: GameState | SeatView) -> tuple[Action, ...]:
    """Every legal action of the seat to act, sorted (by card rank); empty once the game is over.

    Given a ``SeatView`` instead of a state, the legal actions of the view's seat when it is the
    seat to act (the same as the state's), else ``()``: a view holds all its seat needs to know.
    """
    global _last_legal
    seat = state.to_act
    if seat is None:
        return ()
    if isinstance(state, SeatView):
        return _view_legal_actions(state, seat)
    phase = state.phase
    round_ = state.round
    cards: tuple[Card, ...]
    table: dict[Card, Play] | dict[Card, Give]
    if phase is _PLAY:
        plays = round_.plays
        in_trick = len(plays) % state.config.trick_size
        led = play_rules.led_colour((plays[-in_trick].card,) if in_trick else ())
        if round_.face_up is None:
            cards = play_rules.follow_suit(round_.hands[seat], led)
        else:
            cards = play_rules.devils_eye_playable(round_.hands[seat], round_.face_up[seat], led)
        table = _PLAY_TABLES[seat]
    elif phase is _SETUP:
        steps = setup.setup_steps(state.config, round_.dealer, seat)
        cards = round_.hands[seat]
        table = _GIVE_TABLES[steps[len(round_.setup[seat])]][seat]
    else:
        _last_legal = (state, (StartRound(seat),))
        return _last_legal[1]
    try:
        actions: tuple[Action, ...] = tuple(map(table.__getitem__, cards))
    except KeyError:
        # A state can come from elsewhere (unpickled in a new process) without its deck ever
        # being registered.
        for card in cards:
            _register(card)
        actions = tuple(map(table.__getitem__, cards))
    _last_legal = (state, actions)
    return actions


def _view_legal_actions(seen: SeatView, seat: int) -> tuple[Action, ...]:
    """``legal_actions`` from what the seat to act sees: its hand (and face-up cards), the led
    colour from the current trick, and its setup steps from the configuration and the dealer."""
    if seen.seat != seat:
        return ()
    phase = seen.phase
    cards: tuple[Card, ...]
    table: dict[Card, Play] | dict[Card, Give]
    if phase is _PLAY:
        led = play_rules.led_colour(tuple(play.card for play in seen.current_trick[:1]))
        if seen.face_up is not None:
            cards = play_rules.devils_eye_playable(seen.hand, seen.face_up[seat], led)
        else:
            cards = play_rules.follow_suit(seen.hand, led)
        table = _PLAY_TABLES[seat]
    elif phase is _SETUP:
        steps = setup.setup_steps(seen.config, seen.dealer, seat)
        cards = seen.hand
        table = _GIVE_TABLES[steps[len(seen.my_setup)]][seat]
    else:
        return (StartRound(seat),)
    for card in cards:
        _register(card)
    return tuple(map(table.__getitem__, cards))


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
    led = _led_colour(state)
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
    """Raise ``IllegalActionError`` (with the broken rule's ID) unless ``action`` is legal now."""
    game.check_not_over(state.phase)
    game.check_phase_admits(state.phase, action)
    if isinstance(action, Give):
        _check_give(state, action)
    elif isinstance(action, Play):
        _check_play(state, action)
    else:
        _check_seat(state, action.seat, "DEALER-ROTATION")


def is_legal(state: GameState, action: Action) -> bool:
    """Whether ``action`` is legal in ``state``."""
    try:
        check_action(state, action)
    except IllegalActionError:
        return False
    return True


def apply(state: GameState, action: Action) -> GameState:
    """The state after ``action``. An illegal action raises ``IllegalActionError``; ``state`` is
    immutable, so it is unchanged either way."""
    cached_state, cached_actions = _last_legal
    if cached_state is not state or not any(map(is_, cached_actions, repeat(action))):
        check_action(state, action)
    if type(action) is Play:
        return _apply_play(state, action)
    if isinstance(action, Give):
        return _apply_give(state, action)
    return _start_next_round(state)


def _apply_give(state: GameState, action: Give) -> GameState:
    config = state.config
    round_ = state.round
    seat = action.seat
    hands = _take_at(round_.hands, seat, position(round_.hands[seat], action.card))
    given = round_.setup
    chosen = given[:seat] + (given[seat] + (action,),) + given[seat + 1 :]
    to_act = setup.setup_to_act(config, round_.dealer, chosen)
    if to_act is None:
        hands, face_up, devils_trick = setup.resolve_setup(config, hands, round_.face_up, chosen)
        after = round_after_setup(round_, hands, face_up, chosen, devils_trick)
        return game_after(state, Phase.PLAY, round_.leader, after, state.totals)
    # Setup goes on: only the hand and the setup change.
    return game_after_turn(state, to_act, round_after_give(round_, hands, chosen))


def _apply_play(state: GameState, action: Play) -> GameState:
    config = state.config
    round_ = state.round
    seat = action.seat
    hands, face_up = round_.hands, round_.face_up
    hand = hands[seat]
    try:
        index = hand.index(action.card)  # cards are interned: this compares identities
    except ValueError:
        assert face_up is not None
        face_up = _take_at(face_up, seat, position(face_up[seat], action.card))
    else:
        hands = _take_at(hands, seat, index)
    plays = round_.plays + (action,)
    trick_size = config.trick_size
    if len(plays) % trick_size:
        # The trick goes on: only the zones, the plays and the seat to act change.
        after = round_after_play(round_, hands, face_up, plays)
        return game_after_turn(state, play_rules.next_to_play(config, seat), after)
    result, bottles, captured = _resolve_trick(plays[-trick_size:], round_.bottles, round_.captured)
    leader = play_rules.next_leader(result.winner)
    over = scoring.round_is_over(hands, face_up)
    scores = scoring.round_scores(config, captured, bottles, round_.devils_trick) if over else None
    after = round_after_trick(
        round_, hands=hands, face_up=face_up, plays=plays, leader=leader, bottles=bottles,
        captured=captured, tricks=round_.tricks + (result,), scores=scores,
    )
    if scores is None:
        return game_after(state, Phase.PLAY, leader, after, state.totals)
    totals = game.add_totals(state.totals, scores)
    if game.game_is_over(config, round_.index + 1, totals):
        return game_after(state, Phase.GAME_OVER, None, after, totals)
    next_dealer = deal_rules.next_dealer(config, round_.dealer)
    return game_after(state, Phase.ROUND_OVER, next_dealer, after, totals)


def _take_at(
    zones: tuple[tuple[Card, ...], ...], seat: int, index: int
) -> tuple[tuple[Card, ...], ...]:
    """``zones`` with the card at ``index`` of ``seat``'s zone taken out."""
    zone = zones[seat]
    taken = list(zones)
    taken[seat] = zone[:index] + zone[index + 1 :]
    return tuple(taken)


def _resolve_trick(
    trick: tuple[Play, ...],
    bottles: tuple[Bottle, ...],
    captured: tuple[tuple[Card, ...], ...],
) -> tuple[TrickResult, tuple[Bottle, ...], tuple[tuple[Card, ...], ...]]:
    """The trick's result, the bottles and the captured piles after it (``resolve_trick``)."""
    cards = tuple(map(_card_of, trick))
    outcome = play_rules.resolve_trick(cards, tuple(map(_seat_of, trick)), bottles)
    winner = trick[outcome.winning].seat
    piles = list(captured)
    piles[winner] = piles[winner] + outcome.captured
    if outcome.returned is not None:
        owner, price_card = outcome.returned
        piles[owner] = piles[owner] + (price_card,)
    # By position, in field order: plays, winner, winning_card, bottle, price_before, price_after.
    result = TrickResult(
        trick, winner, cards[outcome.winning], outcome.bottle, outcome.price_before,
        outcome.price_after,
    )
    return result, outcome.bottles, tuple(piles)


_card_of: Final = attrgetter("card")
_seat_of: Final = attrgetter("seat")


def _start_next_round(state: GameState) -> GameState:
    config = state.config
    previous = state.round
    dealer = deal_rules.next_dealer(config, previous.dealer)
    next_round = new_round(config, state.seed, previous.index + 1, dealer)
    return GameState(
        config=config,
        seed=state.seed,
        phase=Phase.SETUP,
        to_act=setup.setup_to_act(config, dealer, next_round.setup),
        round=next_round,
        past_rounds=state.past_rounds + (previous,),
        totals=state.totals,
    )

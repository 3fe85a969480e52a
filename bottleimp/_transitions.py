"""How each action changes the state: the engine's core, which ``engine`` calls once an action
is known to be legal.

It holds no rule of its own: it asks the rule functions in ``bottleimp.rules`` what they decide
and derives the next immutable state from their answers with ``state.derive`` (the zones an
action leaves alone are shared with the state before, not copied; the fields' checks, which a
state built otherwise runs, are not run again on a state derived from a checked one by the
rules).
"""

from __future__ import annotations

from typing import TypeVar


from ._actions import Action, Give, Play, StartRound
from ._cards import Card
from ._config import Config
from .rules import deal as deal_rules
from .rules import game, scoring, setup
from .rules import play as play_rules
from ._state import Bottle, GameState, Phase, RoundState, derive

T = TypeVar("T")

__all__ = [
    "new_round", "seat_actions", "legal_actions_of", "after_give", "after_play",
    "after_start_round", "dealt_round", "game_at_setup",
]


def new_round(config: Config, seed: int, index: int, dealer: int) -> RoundState:
    """The state at the start of round ``index``: dealt from the seed, bottles at the start price."""
    hands, face_up = deal_rules.deal(config, seed, index, dealer)
    return dealt_round(config, index, dealer, hands, face_up)


def dealt_round(
    config: Config,
    index: int,
    dealer: int,
    hands: tuple[tuple[Card, ...], ...],
    face_up: tuple[tuple[Card, ...], ...] | None,
) -> RoundState:
    """Round ``index`` dealt by ``dealer`` as given: nothing chosen or played yet, the bottles at
    the start price, the first trick led from the dealer's left (rule FIRST-LEADER)."""
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


def seat_actions(
    config: Config,
    phase: Phase,
    seat: int,
    dealer: int,
    hand: tuple[Card, ...],
    face_up: tuple[Card, ...] | None,
    trick: tuple[Play, ...],
    given: int,
) -> tuple[Action, ...]:
    """The legal actions of ``seat``, the seat to act, from what that seat knows: its hand and,
    in Devil's Eye, its face-up cards; the trick in progress; how many setup cards it has given.
    A state and a seat's view both answer ``legal_actions`` with it.

    Trick play: the cards that follow suit (FOLLOW-SUIT, or EYE-FOLLOW-SUIT). Setup: every card
    of the hand, to the destination of the seat's next setup step (SETUP-STEPS). Between rounds:
    the next deal."""
    if phase is Phase.PLAY:
        led = play_rules.led_colour(trick)
        if face_up is None:
            cards = play_rules.follow_suit(hand, led)
        else:
            cards = play_rules.devils_eye_playable(hand, face_up, led)
        return tuple([Play(seat, card) for card in cards])
    if phase is Phase.SETUP:
        destination = setup.setup_steps(config, dealer, seat)[given]
        return tuple([Give(seat, card, destination) for card in hand])
    if phase is Phase.ROUND_OVER:
        return (StartRound(seat),)
    raise ValueError(f"no seat acts in the phase {phase!r}")


def legal_actions_of(state: GameState, seat: int) -> tuple[Action, ...]:
    """The legal actions of ``seat``, the seat to act in ``state`` (``seat_actions``)."""
    round_ = state.round
    return seat_actions(
        state.config, state.phase, seat, round_.dealer, round_.hands[seat],
        None if round_.face_up is None else round_.face_up[seat],
        state.current_trick(), len(round_.setup[seat]),
    )


def after_give(state: GameState, action: Give) -> GameState:
    """``state`` after a legal setup card: it leaves the seat's hand at once; once every seat has
    chosen, the given cards move (SETUP-RESOLVE) and the round's leader begins trick play."""
    config = state.config
    r = state.round
    seat = action.seat
    hands = _without(r.hands, seat, action.card)
    chosen = _replaced(r.setup, seat, r.setup[seat] + (action,))
    to_act = setup.setup_to_act(config, r.dealer, chosen)
    if to_act is not None:
        return derive(state, to_act=to_act, round=derive(r, hands=hands, setup=chosen))
    hands, face_up, devils_trick = setup.resolve_setup(config, hands, r.face_up, chosen)
    return derive(
        state,
        phase=Phase.PLAY,
        to_act=r.leader,
        round=derive(r, hands=hands, face_up=face_up, setup=chosen, devils_trick=devils_trick),
    )


def after_play(state: GameState, action: Play) -> GameState:
    """``state`` after a legal play: the card leaves the seat's hand (or its face-up cards) and
    the next seat plays (TURN-ORDER); a completed trick is resolved (``resolve_trick``) and its
    winner leads the next (NEXT-LEADER); the last trick of a round scores it (SCORE-ROUND), and
    the next dealer deals the next round (DEALER-ROTATION) unless the game is over (GAME-END),
    whose winners are then named (WINNERS)."""
    config = state.config
    r = state.round
    seat, card = action.seat, action.card
    plays = r.plays + (action,)
    hands, face_up = r.hands, r.face_up
    if face_up is not None and card in face_up[seat]:
        face_up = _without(face_up, seat, card)
    else:
        hands = _without(hands, seat, card)
    if len(plays) % config.trick_size:
        return derive(state, to_act=play_rules.next_to_play(config, seat),
                      round=derive(r, hands=hands, face_up=face_up, plays=plays))
    result, bottles, captured = play_rules.resolve_trick(
        plays[-config.trick_size:], r.bottles, r.captured)
    leader = play_rules.next_leader(result.winner)
    trick_done = {"hands": hands, "face_up": face_up, "plays": plays, "leader": leader,
                  "bottles": bottles, "captured": captured, "tricks": r.tricks + (result,)}
    if not scoring.round_is_over(hands, face_up):
        return derive(state, to_act=leader, round=derive(r, **trick_done))
    scores = scoring.round_scores(config, captured, bottles, r.devils_trick)
    scored = derive(r, scores=scores, **trick_done)
    totals = game.add_totals(state.totals, scores)
    if game.game_is_over(config, r.index + 1, totals):
        return derive(state, phase=Phase.GAME_OVER, to_act=None, round=scored, totals=totals,
                      winners=game.winners(totals))
    return derive(state, phase=Phase.ROUND_OVER, to_act=deal_rules.next_dealer(config, r.dealer),
                  round=scored, totals=totals)


def _without(
    zones: tuple[tuple[Card, ...], ...], seat: int, card: Card
) -> tuple[tuple[Card, ...], ...]:
    """``zones`` with ``card`` taken out of ``seat``'s zone."""
    zone = zones[seat]
    index = zone.index(card)
    return _replaced(zones, seat, zone[:index] + zone[index + 1 :])


def _replaced(items: tuple[T, ...], index: int, item: T) -> tuple[T, ...]:
    return items[:index] + (item,) + items[index + 1 :]


def after_start_round(state: GameState) -> GameState:
    """``state`` after ``StartRound``: the next dealer (DEALER-ROTATION) deals the next round from
    the game's seed."""
    config = state.config
    previous = state.round
    dealer = deal_rules.next_dealer(config, previous.dealer)
    next_round = new_round(config, state.seed, previous.index + 1, dealer)
    return game_at_setup(state, next_round, state.past_rounds + (previous,))


def game_at_setup(
    state: GameState, round_: RoundState, past_rounds: tuple[RoundState, ...]
) -> GameState:
    """``state``'s game with ``round_`` just dealt and the rounds before it: setup begins, the
    seat to choose first given by SETUP-ORDER."""
    return derive(
        state,
        phase=Phase.SETUP,
        to_act=setup.setup_to_act(state.config, round_.dealer, round_.setup),
        round=round_,
        past_rounds=past_rounds,
    )

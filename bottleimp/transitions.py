"""How each action changes the state: the engine's core, which ``engine`` calls once an action
is known to be legal (and the module the optional compiled build compiles: ``engine`` stays
Python, so wrong values meet its checks, which name the rule they break, before any compiled
code would refuse their type).

It holds no rule of its own: it asks the rule functions in ``bottleimp.rules`` what they decide
and derives the next immutable state from their answers.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .actions import Action, Destination, Give, Play, StartRound
from .cards import Card
from .config import Config
from .rules import deal as deal_rules
from .rules import game, scoring, setup
from .rules import play as play_rules
from .state import (
    Bottle,
    GameState,
    Phase,
    RoundState,
    TrickResult,
    game_after_give,
    game_after_play,
    game_after_setup,
    game_after_trick,
)

__all__ = [
    "new_round", "legal_actions_of", "after_give", "after_play", "after_start_round",
    "dealt_round", "game_at_setup", "register_card", "register_deck", "PLAY_ACTIONS", "GIVE_ACTIONS",
]


def new_round(config: Config, seed: int, index: int, dealer: int) -> RoundState:
    """The state at the start of round ``index``: dealt from the seed, bottles at the start price."""
    hands, face_up = deal_rules.deal(config, seed, index, dealer)
    register_deck(config)
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


# Actions are immutable values, so one object per (card, seat, destination) serves every state:
# ``legal_actions`` looks them up instead of building them. One table per seat (and per setup
# destination) maps a card to its action, so a list of legal actions is one lookup per playable
# card.
_SEATS: Final = range(6)
PLAY_ACTIONS: Final[tuple[dict[Card, Play], ...]] = tuple({} for _ in _SEATS)
GIVE_ACTIONS: Final[dict[Destination, tuple[dict[Card, Give], ...]]] = {
    destination: tuple({} for _ in _SEATS) for destination in Destination
}


def register_card(card: Card) -> None:
    if card not in PLAY_ACTIONS[0]:
        for seat in _SEATS:
            PLAY_ACTIONS[seat][card] = Play(seat, card)
            for destination, tables in GIVE_ACTIONS.items():
                tables[seat][card] = Give(seat, card, destination)


@lru_cache(maxsize=64)
def register_deck(config: Config) -> None:
    """Put the actions of every card of the game in the tables (once per configuration)."""
    for card in config.cards:
        register_card(card)


# Enum members read as globals: reading a class attribute is not specialised by the interpreter.
_SETUP: Final = Phase.SETUP
_PLAY: Final = Phase.PLAY


def legal_actions_of(state: GameState, seat: int) -> tuple[Action, ...]:
    """The legal actions of ``seat``, the seat to act in ``state`` (``engine.legal_actions``
    answers for views and finished games, and keeps this answer for ``apply``)."""
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
        table = PLAY_ACTIONS[seat]
    elif phase is _SETUP:
        steps = setup.setup_steps(state.config, round_.dealer, seat)
        cards = round_.hands[seat]
        table = GIVE_ACTIONS[steps[len(round_.setup[seat])]][seat]
    else:
        return (StartRound(seat),)
    actions: list[Action] = []
    try:
        for card in cards:  # a plain loop costs less than tuple(map(table.__getitem__, cards))
            actions.append(table[card])
    except KeyError:
        # A state can come from elsewhere (unpickled in a new process) without its deck ever
        # being registered.
        for card in cards:
            register_card(card)
        return legal_actions_of(state, seat)
    return tuple(actions)


def after_give(state: GameState, action: Give) -> GameState:
    config = state.config
    round_ = state.round
    seat = action.seat
    hands = _take_at(round_.hands, seat, round_.hands[seat].index(action.card))
    given = round_.setup
    chosen = given[:seat] + (given[seat] + (action,),) + given[seat + 1 :]
    to_act = setup.setup_to_act(config, round_.dealer, chosen)
    if to_act is None:
        hands, face_up, devils_trick = setup.resolve_setup(config, hands, round_.face_up, chosen)
        return game_after_setup(state, hands, face_up, chosen, devils_trick)
    return game_after_give(state, to_act, hands, chosen)


def after_play(state: GameState, action: Play) -> GameState:
    config = state.config
    round_ = state.round
    seat = action.seat
    hands, face_up = round_.hands, round_.face_up
    hand = hands[seat]
    try:
        index = hand.index(action.card)  # cards are interned: this compares identities
    except ValueError:
        assert face_up is not None
        face_up = _take_at(face_up, seat, face_up[seat].index(action.card))
    else:
        hands = _take_at(hands, seat, index)
    plays = round_.plays + (action,)
    trick_size = config.trick_size
    if len(plays) % trick_size:
        return game_after_play(state, play_rules.next_to_play(config, seat), hands, face_up, plays)
    result, bottles, captured = _resolve_trick(plays[-trick_size:], round_.bottles, round_.captured)
    leader = play_rules.next_leader(result.winner)
    over = scoring.round_is_over(hands, face_up)
    scores = scoring.round_scores(config, captured, bottles, round_.devils_trick) if over else None
    tricks = round_.tricks + (result,)
    to_act: int | None
    if scores is None:
        phase, to_act, totals = _PLAY, leader, state.totals
    else:
        totals = game.add_totals(state.totals, scores)
        if game.game_is_over(config, round_.index + 1, totals):
            phase, to_act = Phase.GAME_OVER, None
        else:
            phase, to_act = Phase.ROUND_OVER, deal_rules.next_dealer(config, round_.dealer)
    return game_after_trick(
        state, phase, to_act, totals, hands=hands, face_up=face_up, plays=plays, leader=leader,
        bottles=bottles, captured=captured, tricks=tricks, scores=scores,
    )


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
    played: list[Card] = []
    seats: list[int] = []
    for play in trick:  # a plain loop: ``map(attrgetter(...))`` reads each attribute generically
        played.append(play.card)
        seats.append(play.seat)
    cards = tuple(played)
    # The outcome unpacked once, in field order (a named tuple's fields read by name are not
    # specialised by the interpreter).
    winning, bottle, price_before, price_after, bottles_after, won, returned = (
        play_rules.resolve_trick(cards, seats, bottles)
    )
    winner = seats[winning]
    piles = list(captured)
    piles[winner] = piles[winner] + won
    if returned is not None:
        owner, price_card = returned
        piles[owner] = piles[owner] + (price_card,)
    # By position, in field order: plays, winner, winning_card, bottle, price_before, price_after.
    result = TrickResult(trick, winner, cards[winning], bottle, price_before, price_after)
    return result, bottles_after, tuple(piles)


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
    return GameState(
        config=state.config,
        seed=state.seed,
        phase=Phase.SETUP,
        to_act=setup.setup_to_act(state.config, round_.dealer, round_.setup),
        round=round_,
        past_rounds=past_rounds,
        totals=state.totals,
    )

"""Possible worlds for search: a whole state that agrees with everything one seat has seen.

A search bot sees only its seat's view (rule VIEW-HIDDEN). To look ahead it samples a
*determinisation*: the cards it has not seen dealt at random to the places they may be (the
other hands, the other seats' setup cards in flight, the hidden Devil's Trick), with every card
it knows the place of put there (the cards it passed, its own discards). A seat that showed it
lacks a colour (by not following it) is dealt no card of that colour when a draw allows it
(``_deal``, the one draw both functions below use).

- ``sample_world(view, rng)`` builds the state directly from a view (what a bot has). The world
  is meant for looking ahead within the current round: the other seats' setup choices of a
  world in trick play are not known and are left empty, and its seed is the view's round number
  (a world is never played into the next round).
- ``resample(state, seat, rng)`` starts from a whole state (what OpenSpiel's
  ``resample_from_infostate`` has): it deals the cards ``seat`` has not seen anew and replays the
  round with them, so the world is a state reached by legal play, with its history, that plays on
  to the end of the game:

    >>> import random
    >>> import bottleimp
    >>> from bottleimp.bots._worlds import resample
    >>> state = bottleimp.new_game(bottleimp.Config(players=4), seed=7)
    >>> for _ in range(20):
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> world = resample(state, 2, random.Random(1))
    >>> bottleimp.view(world, 2) == bottleimp.view(state, 2), world.round.hands == state.round.hands
    (True, False)

  A world of ``resample`` is a permutation of the unseen cards: the round's deal and every
  action are rewritten with it. It keeps the view, and keeps every play legal when no seat that
  showed itself void in a colour is given a card of that colour; when the draw cannot respect
  that, the cards are permuted within their colours, which always keeps every play legal.
"""

from __future__ import annotations

import random
from collections import defaultdict

from .._actions import Action, Destination, Give, Play
from .._cards import Card, Colour, rank_key
from .._engine import apply, new_game, with_deal
from .._errors import IllegalActionError
from ..rules.setup import receiving_seat, setup_steps
from .._state import GameState, Phase, RoundState
from .._view import SeatView, shown_voids, view as seat_view

__all__ = ["resample", "sample_world", "unseen_cards"]

_TRIES = 50
"""Random draws tried before the constrained hands are filled first."""


def _deal(
    places: list[tuple[int, int]],
    pool: list[Card],
    voids: dict[int, set[Colour]],
    rng: random.Random,
) -> dict[int, list[Card]]:
    """``pool`` dealt to ``places`` (a seat, or -1 for the Devil's Trick, and how many cards),
    giving no seat a colour it lacks when a draw allows it."""

    def fits(place: int, card: Card) -> bool:
        return card.colour not in voids.get(place, ())

    cards = pool[:]
    for _ in range(_TRIES):
        rng.shuffle(cards)
        dealt: dict[int, list[Card]] = {}
        start = 0
        for place, count in places:
            dealt[place] = cards[start : start + count]
            start += count
        if all(fits(place, card) for place, given in dealt.items() for card in given):
            return dealt
    # The most constrained places first, each card drawn among those that fit; if even that
    # fails the last draw stands (a world for looking ahead, with every play still legal in it).
    remaining = cards[:]
    greedy: dict[int, list[Card]] = {}
    for place, count in sorted(places, key=lambda item: -len(voids.get(item[0], ()))):
        fitting = [card for card in remaining if fits(place, card)]
        if len(fitting) < count:
            return dealt
        chosen = rng.sample(fitting, count)
        for card in chosen:
            remaining.remove(card)
        greedy[place] = chosen
    return greedy


def _sorted(cards: list[Card] | tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted(cards, key=rank_key))


def sample_world(view: SeatView, rng: random.Random) -> GameState:
    """A state of the current round that ``view``'s seat cannot tell from the real one, drawn
    at random (see the module's docstring). Only for views in the setup or trick play.

    >>> import random
    >>> import bottleimp
    >>> from bottleimp.bots._worlds import sample_world
    >>> state = bottleimp.new_game(bottleimp.Config(players=4), seed=7)
    >>> for _ in range(20):
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> world = sample_world(bottleimp.view(state, 2), random.Random(1))
    >>> bottleimp.view(world, 2).hand == state.round.hands[2], world.round.hands == state.round.hands
    (True, False)
    >>> bottleimp.legal_actions(bottleimp.view(world, 2)) == bottleimp.legal_actions(bottleimp.view(state, 2))
    True
    """
    if view.phase is Phase.SETUP:
        return _setup_world(view, rng)
    if view.phase is Phase.PLAY:
        return _play_world(view, rng)
    raise IllegalActionError(
        "PHASE", f"a world is sampled in the setup or trick play, not in the {view.phase.value} phase"
    )


def _setup_world(view: SeatView, rng: random.Random) -> GameState:
    """During the setup: every other seat's hand and the cards it has given so far (to the
    destinations its setup steps name) drawn from the cards this seat has not seen."""
    config, seat = view.config, view.seat
    seen = view.cards()
    pool = [card for card in config.cards if card not in seen]
    others = [other for other in range(config.players) if other != seat]
    places = [(other, view.hand_sizes[other] + view.setup_given[other]) for other in others]
    dealt = _deal(places, pool, {}, rng)
    hands: list[tuple[Card, ...]] = []
    setup = []
    for other in range(config.players):
        if other == seat:
            hands.append(view.hand)
            setup.append(view.my_setup)
            continue
        cards = dealt[other]
        given = view.setup_given[other]
        steps = setup_steps(config, view.dealer, other)
        setup.append(tuple(Give(other, cards[step], steps[step]) for step in range(given)))
        hands.append(_sorted(cards[given:]))
    dealt_hands = tuple(
        _sorted(list(hands[other]) + [give.card for give in setup[other]])
        for other in range(config.players)
    )
    return _game(view, dealt_hands, tuple(hands), tuple(setup), ())


def _known_places(view: SeatView) -> tuple[dict[int, list[Card]], list[Card]]:
    """In trick play, the cards this seat knows the place of: the cards it passed (in the
    receiving hand until played) and its own discards (in the Devil's Trick)."""
    config, seat = view.config, view.seat
    played = {play.card for play in view.plays}
    known: dict[int, list[Card]] = defaultdict(list)
    discards: list[Card] = []
    for give in view.my_setup:
        receiver = receiving_seat(config.players, seat, give.to)
        if receiver is None:
            discards.append(give.card)
        elif give.card in played or give.to is Destination.OPPONENT_FACE_UP:
            continue  # played already, or among the public face-up cards
        else:
            known[receiver].append(give.card)
    return known, discards


def _play_world(view: SeatView, rng: random.Random) -> GameState:
    """During trick play: the other hands and the hidden part of the Devil's Trick drawn from
    the cards this seat has not seen, the cards it passed still in the hands it passed them to."""
    config, seat = view.config, view.seat
    seen = view.cards()
    known, discards = _known_places(view)
    pool = [card for card in config.cards if card not in seen]
    others = [other for other in range(config.players) if other != seat]
    places = [(other, view.hand_sizes[other] - len(known[other])) for other in others]
    places.append((-1, view.devils_trick_size - len(discards)))
    dealt = _deal(places, pool, shown_voids(view.config, view.plays, view.seat), rng)
    hands = tuple(
        view.hand if other == seat else _sorted(known[other] + dealt[other])
        for other in range(config.players)
    )
    setup = tuple(view.my_setup if other == seat else () for other in range(config.players))
    return _game(view, hands, hands, setup, _sorted(discards + dealt[-1]))


def _game(
    view: SeatView,
    dealt: tuple[tuple[Card, ...], ...],
    hands: tuple[tuple[Card, ...], ...],
    setup: tuple[tuple[Give, ...], ...],
    devils_trick: tuple[Card, ...],
) -> GameState:
    """The world: the drawn zones, everything else as the view shows it."""
    round_ = RoundState(
        index=view.round_index,
        dealer=view.dealer,
        dealt=dealt,
        dealt_face_up=view.face_up,
        hands=hands,
        face_up=view.face_up,
        setup=setup,
        devils_trick=devils_trick,
        plays=view.plays,
        leader=view.leader,
        bottles=view.bottles,
        captured=view.captured,
        tricks=view.tricks,
        scores=None,
    )
    return GameState(
        config=view.config,
        seed=view.round_index,
        phase=view.phase,
        to_act=view.to_act,
        round=round_,
        past_rounds=(),
        totals=view.totals,
    )


# --- from a whole state ----------------------------------------------------------------------


def unseen_cards(state: GameState, seat: int) -> tuple[Card, ...]:
    """The cards of the current round that ``seat`` has not seen, in deck order."""
    seen = seat_view(state, seat).cards()
    return tuple(card for card in state.config.cards if card not in seen)


def _permutation(
    state: GameState, seat: int, unseen: tuple[Card, ...], rng: random.Random
) -> dict[Card, Card]:
    """Each unseen card's stand-in: the unseen cards dealt anew to the places they are in (a
    hand, or -1: in flight in a setup or in the Devil's Trick), with ``_deal``; within their
    colours when the draw gives a seat a colour it showed it lacks."""
    voids = shown_voids(state.config, state.round.plays, seat)
    holder = {card: s for s, hand in enumerate(state.round.hands) for card in hand}
    originals: dict[int, list[Card]] = defaultdict(list)
    for card in unseen:
        originals[holder.get(card, -1)].append(card)
    places = [(place, len(cards)) for place, cards in originals.items()]
    dealt = _deal(places, list(unseen), voids, rng)
    mapping = {original: new for place, cards in originals.items()
               for original, new in zip(cards, dealt[place])}
    if any(new.colour in voids.get(place, ()) for place, given in dealt.items() for new in given):
        return _same_colour_permutation(unseen, rng)
    return mapping


def _same_colour_permutation(unseen: tuple[Card, ...], rng: random.Random) -> dict[Card, Card]:
    """A permutation within each colour: it always keeps every play legal."""
    mapping: dict[Card, Card] = {}
    by_colour: dict[Colour, list[Card]] = defaultdict(list)
    for card in unseen:
        by_colour[card.colour].append(card)
    for cards in by_colour.values():
        shuffled = cards[:]
        rng.shuffle(shuffled)
        mapping.update(zip(cards, shuffled))
    return mapping


def _round_actions(state: GameState) -> list[Action]:
    """The current round's actions in the order they were taken (setup gives, then plays)."""
    round_ = state.round
    replay = _round_start(state)
    taken = [0] * state.config.players
    actions: list[Action] = []
    total = sum(len(gives) for gives in round_.setup)
    while len(actions) < total:
        seat = replay.to_act
        assert seat is not None
        give = round_.setup[seat][taken[seat]]
        taken[seat] += 1
        actions.append(give)
        replay = apply(replay, give)
    return actions + list(round_.plays)


def _round_start(
    state: GameState,
    hands: tuple[tuple[Card, ...], ...] | None = None,
    face_up: tuple[tuple[Card, ...], ...] | None = None,
) -> GameState:
    """The current round as dealt (with ``hands``/``face_up`` instead, if given)."""
    round_ = state.round
    hands = round_.dealt if hands is None else hands
    face_up = round_.dealt_face_up if hands is round_.dealt else face_up
    if not state.past_rounds:
        start = new_game(state.config, state.seed)
    else:
        start = GameState(
            config=state.config,
            seed=state.seed,
            phase=Phase.ROUND_OVER,
            to_act=round_.dealer,
            round=state.past_rounds[-1],
            past_rounds=state.past_rounds[:-1],
            totals=state.totals,
        )
    return with_deal(start, hands, face_up)


def resample(state: GameState, seat: int, rng: random.Random | None = None) -> GameState:
    """A state ``seat`` cannot tell from ``state``, with the cards it has not seen dealt anew
    and the round replayed with them (see the module's docstring). Between rounds and once the
    game is over nothing is hidden, and ``state`` itself is returned."""
    if state.phase not in (Phase.SETUP, Phase.PLAY):
        return state
    rng = rng or random.Random()
    unseen = unseen_cards(state, seat)
    if len(unseen) < 2:
        return state
    swap = _permutation(state, seat, unseen, rng)
    round_ = state.round
    hands = tuple(tuple(swap.get(card, card) for card in hand) for hand in round_.dealt)
    world = _round_start(state, hands, round_.dealt_face_up)
    for action in _round_actions(state):
        if isinstance(action, Give):
            action = Give(action.seat, swap.get(action.card, action.card), action.to)
        elif isinstance(action, Play):
            action = Play(action.seat, swap.get(action.card, action.card))
        world = apply(world, action)
    return world

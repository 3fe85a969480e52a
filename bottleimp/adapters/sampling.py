"""Determinisation for search: a state a seat cannot tell apart from the real one.

Information-set search (ISMCTS, perfect-information Monte Carlo) plays out possible worlds
consistent with what one seat has seen. ``resample(state, seat, rng)`` deals the cards ``seat``
has not seen anew and replays the round with them: the result is a state reached by legal play,
with the same view for ``seat``:

    >>> import random
    >>> import bottleimp
    >>> from bottleimp.adapters.sampling import resample
    >>> state = bottleimp.new_game(bottleimp.Config(players=4), seed=7)
    >>> for _ in range(20):
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> world = resample(state, 2, random.Random(1))
    >>> bottleimp.view(world, 2) == bottleimp.view(state, 2), world.round.hands == state.round.hands
    (True, False)

The unseen cards are the other seats' hands, their setup cards that did not come to ``seat``
and the hidden Devil's Trick. A new world is a permutation of the unseen cards: the round's
deal and every action are rewritten with it. It keeps the view, and keeps every play legal when
no seat that showed itself void in a colour (by not following it) is given a card of that
colour, which the draw respects: it is uniform among such permutations when rejection sampling
finds one within a few hundred draws, and otherwise fills the most constrained hands first.
"""

from __future__ import annotations

import random
from collections import defaultdict

from ..actions import Action, Give, Play
from ..cards import Card, Colour
from ..engine import apply, new_game, with_deal
from ..state import GameState, Phase
from ..view import shown_voids, view

__all__ = ["resample", "unseen_cards"]

_TRIES = 200


def unseen_cards(state: GameState, seat: int) -> tuple[Card, ...]:
    """The cards of the current round that ``seat`` has not seen, in deck order."""
    seen = view(state, seat).cards()
    return tuple(card for card in state.config.cards if card not in seen)


def _permutation(
    state: GameState, seat: int, unseen: tuple[Card, ...], rng: random.Random
) -> dict[Card, Card]:
    voids = shown_voids(state.config, state.round.plays, seat)
    holder = {card: s for s, hand in enumerate(state.round.hands) for card in hand}

    def allowed(original: Card, new: Card) -> bool:
        owner = holder.get(original)
        return owner is None or new.colour not in voids.get(owner, ())

    targets = list(unseen)
    for _ in range(_TRIES):
        rng.shuffle(targets)
        if all(allowed(original, new) for original, new in zip(unseen, targets)):
            return dict(zip(unseen, targets))
    # Fill the most constrained places first, each with a card allowed there.
    order = sorted(unseen, key=lambda c: -len(voids.get(holder.get(c, -1), ())))
    pool = list(unseen)
    mapping: dict[Card, Card] = {}
    for original in order:
        choices = [card for card in pool if allowed(original, card)]
        if not choices:
            return _same_colour_permutation(unseen, rng)
        chosen = rng.choice(choices)
        pool.remove(chosen)
        mapping[original] = chosen
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
    (see the module's docstring). Between rounds and once the game is over nothing is hidden,
    and ``state`` itself is returned."""
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

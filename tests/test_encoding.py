"""The action encoding, the mask, legal actions from a view, view JSON, observations, results."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from bottleimp import (
    Action,
    Card,
    Config,
    Destination,
    ArgumentError,
    GameState,
    Give,
    Phase,
    Play,
    RecordError,
    StartRound,
    action_from_int,
    action_to_int,
    apply,
    legal_action_ints,
    legal_action_mask,
    legal_actions,
    new_game,
    num_actions,
    observation,
    observation_string,
    returns,
    view,
    view_from_json,
    view_to_json,
    winners,
    with_deal,
)
from bottleimp._encoding import observation_layout, observation_size, setup_destinations
from games import VARIANTS, random_game

SHORT = {name: config for name, config in VARIANTS.items()}


def states(config: Config, games: int = 3) -> Iterator[GameState]:
    """Every state of a few random games (a round each, to keep it quick), in order."""
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(config, seed)
        yield state
        while not state.is_over and len(state.rounds) <= 2:
            state = apply(state, rng.choice(legal_actions(state)))
            yield state


@pytest.mark.parametrize("name", SHORT)
def test_every_action_number_round_trips(name: str) -> None:
    config = SHORT[name]
    size = num_actions(config)
    assert size == 4 * len(config.cards) + 1
    for seat in range(config.players):
        decoded = [action_from_int(config, n, seat) for n in range(size)]
        assert len(set(decoded)) == size
        assert [action_to_int(config, action) for action in decoded] == list(range(size))
        assert all(action.seat == seat for action in decoded)
        assert decoded[-1] == StartRound(seat)
    first, second, third = setup_destinations(config)
    card = config.cards[5]
    n = len(config.cards)
    assert action_to_int(config, Give(0, card, first)) == 5
    assert action_to_int(config, Give(0, card, second)) == n + 5
    assert action_to_int(config, Give(0, card, third)) == 2 * n + 5
    assert action_to_int(config, Play(0, card)) == 3 * n + 5


def test_numbers_and_actions_outside_the_configuration_are_refused() -> None:
    config = Config(players=4)
    for bad in (-1, num_actions(config), 2.0, True):
        with pytest.raises(ArgumentError):
            action_from_int(config, bad, 0)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError):
        action_from_int(config, 0, 4)
    with pytest.raises(ArgumentError):
        action_to_int(config, Give(0, config.cards[0], Destination.OPPONENT_HIDDEN))
    with pytest.raises(ArgumentError):
        action_to_int(Config(players=2), Give(0, config.cards[0], Destination.LEFT))
    half = next(card for card in Config(players=5, edition="matagot-2024").cards
                if isinstance(card.rank, float))
    with pytest.raises(ArgumentError):
        action_to_int(config, Play(0, half))
    with pytest.raises(ArgumentError):
        action_to_int(config, Play(4, config.cards[0]))


@pytest.mark.parametrize("name", SHORT)
def test_mask_and_numbers_are_the_legal_actions_and_a_view_knows_them(name: str) -> None:
    config = SHORT[name]
    for state in states(config, games=2):
        legal = legal_actions(state)
        numbers = legal_action_ints(state)
        assert numbers == sorted(numbers)
        assert [action_from_int(config, n, state.to_act) for n in numbers] == list(legal) \
            if state.to_act is not None else numbers == []
        mask = legal_action_mask(state)
        assert len(mask) == num_actions(config)
        assert [n for n, bit in enumerate(mask) if bit] == numbers
        for seat in range(config.players):
            seen = view(state, seat)
            if seat == state.to_act:
                assert legal_actions(seen) == legal
                assert legal_action_mask(seen) == mask
            else:
                assert legal_actions(seen) == ()
                assert not any(legal_action_mask(seen))


def test_a_decoded_number_is_the_legal_action_it_numbers() -> None:
    state = new_game(Config(players=4), 3)
    for _ in range(40):
        legal = legal_actions(state)
        number = legal_action_ints(state)[-1]
        action = action_from_int(state.config, number, state.to_act or 0)
        assert action == legal[-1]
        state = apply(state, action)


@pytest.mark.parametrize("name", SHORT)
def test_a_view_round_trips_through_json(name: str) -> None:
    config = SHORT[name]
    for index, state in enumerate(states(config, games=1)):
        if index % 3:
            continue
        for seat in range(config.players):
            seen = view(state, seat)
            text = json.dumps(view_to_json(seen))
            assert view_from_json(json.loads(text)) == seen


def test_view_json_faults_name_their_path() -> None:
    state = random_game(Config(players=4), 1, actions=20)
    doc = view_to_json(view(state, 2))
    for key, value, path in [
        ("hand", [3, 999], "$.hand[1]"),
        ("phase", "dancing", "$.phase"),
        ("seat", 4, "$.seat"),
        ("totals", [0, 0], "$.totals"),
        ("my_setup", [{"type": "play", "seat": 2, "card": 3}], "$.my_setup[0]"),
    ]:
        broken: dict[str, Any] = dict(doc, **{key: value})
        with pytest.raises(RecordError) as caught:
            view_from_json(broken)
        assert caught.value.path == path, (key, caught.value)
    with pytest.raises(RecordError):
        view_from_json(dict(doc, extra=1))


def test_views_show_the_setup_cards_received() -> None:
    state = random_game(Config(players=4), 5, actions=12)
    assert state.phase is Phase.PLAY
    for seat in range(4):
        received = view(state, seat).received
        assert sorted(g.to.value for g in received) == ["left", "right"]
        assert {g.seat for g in received} == {(seat - 1) % 4, (seat + 1) % 4}
    eye = random_game(Config(players=2), 5, actions=8)
    assert eye.phase is Phase.PLAY
    received = view(eye, 0).received
    assert [g.to for g in received] == [Destination.OPPONENT_FACE_UP, Destination.OPPONENT_HIDDEN]
    assert all(g.seat == 1 for g in received)
    assert view(new_game(Config(players=4), 5), 1).received == ()


# --- the numeric observation ---------------------------------------------------------------


@pytest.mark.parametrize("name", SHORT)
def test_observation_layout_is_contiguous_and_each_segment_means_what_it_says(name: str) -> None:
    config = SHORT[name]
    layout = observation_layout(config)
    offset = 0
    for segment in layout:
        assert segment.offset == offset
        offset += segment.size
    assert offset == observation_size(config)
    at = {segment.name: segment for segment in layout}
    n, p = len(config.cards), config.players
    index = {card: i for i, card in enumerate(config.cards)}

    def part(vector: list[float], name: str) -> list[float]:
        s = at[name]
        return vector[s.offset : s.offset + s.size]

    def cards_of(vector: list[float], name: str, row: int = 0) -> set[Card]:
        values = part(vector, name)[row * n : (row + 1) * n]
        assert set(values) <= {0.0, 1.0}
        return {config.cards[i] for i, v in enumerate(values) if v}

    for k, state in enumerate(states(config, games=1)):
        if k % 4:
            continue
        for seat in range(p):
            seen = view(state, seat)
            vector = observation(seen)
            assert len(vector) == observation_size(config)
            rel = [(seat + r) % p for r in range(p)]  # row r is this seat
            assert cards_of(vector, "hand") == set(seen.hand)
            for r, s in enumerate(rel):
                face_up = seen.face_up[s] if seen.face_up is not None else ()
                assert cards_of(vector, "face_up", r) == set(face_up)
                assert cards_of(vector, "received", r) == {
                    g.card for g in seen.received if g.seat == s}
                assert cards_of(vector, "trick", r) == {
                    play.card for play in seen.current_trick if play.seat == s}
                assert cards_of(vector, "captured", r) == set(seen.captured[s])
                assert part(vector, "hand_sizes")[r] == seen.hand_sizes[s] / n
                assert part(vector, "setup_given")[r] == seen.setup_given[s] / 4
                assert part(vector, "to_act")[r] == (s == seen.to_act)
                assert part(vector, "dealer")[r] == (s == seen.dealer)
                teammates = next((t for t in config.teams or () if seat in t), (seat,))
                assert part(vector, "team")[r] == (s in teammates)
                assert (part(vector, "scores")[r] != 0) == bool(seen.scores and seen.scores[s])
                assert (part(vector, "totals")[r] != 0) == bool(seen.totals[s])
            for slot, destination in enumerate(setup_destinations(config)):
                assert cards_of(vector, "my_setup", slot) == {
                    g.card for g in seen.my_setup if g.to is destination}
            leader = part(vector, "trick_leader")
            if seen.current_trick:
                assert leader.index(1.0) == (seen.current_trick[0].seat - seat) % p
            else:
                assert not any(leader)
            assert cards_of(vector, "played") == {play.card for play in seen.plays}
            for b, bottle in enumerate(seen.bottles):
                price = cards_of(vector, "bottle_price", b)
                assert price == ({bottle.price_card} if bottle.price_card else set())
                owner = part(vector, "bottle_owner")[b * p : (b + 1) * p]
                if bottle.owner is None:
                    assert not any(owner)
                else:
                    assert owner.index(1.0) == (bottle.owner - seat) % p
            assert cards_of(vector, "devils_trick") == set(seen.devils_trick or ())
            assert part(vector, "devils_trick_size") == [seen.devils_trick_size / n]
            phases = [Phase.SETUP, Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER]
            assert part(vector, "phase") == [float(ph is seen.phase) for ph in phases]
            assert 0.0 <= part(vector, "progress")[0] <= 1.0
            assert index  # every card has a position


def _substituted(action: Action, swap: dict[Card, Card]) -> Action:
    if isinstance(action, Give):
        return Give(action.seat, swap.get(action.card, action.card), action.to)
    if isinstance(action, Play):
        return Play(action.seat, swap.get(action.card, action.card))
    return action


def _visible_to(config: Config, seat: int, action: Action) -> bool:
    """Whether ``seat`` sees the card of ``action`` (its own, a play, or a card given to it)."""
    if action.seat == seat or isinstance(action, Play):
        return True
    if isinstance(action, Give):
        to = action.to
        p = config.players
        return (
            (to is Destination.LEFT and (action.seat + 1) % p == seat)
            or (to is Destination.RIGHT and (action.seat - 1) % p == seat)
            or to in (Destination.OPPONENT_FACE_UP, Destination.OPPONENT_HIDDEN)
        )
    return False


@pytest.mark.parametrize("name", SHORT)
def test_what_a_seat_cannot_see_does_not_change_its_observation(name: str) -> None:
    """Two states that differ only in cards a seat has not seen (swapped between hidden places:
    other seats' hands, their setup cards in flight, the hidden Devil's Trick) give that seat the
    same view, observation and observation string."""
    config = SHORT[name]
    differing = 0
    for seed in range(4):
        rng = random.Random(seed)
        start = new_game(config, seed)
        history: list[Action] = []
        state = start
        for _ in range(rng.randrange(1, 60)):
            if state.phase not in (Phase.SETUP, Phase.PLAY):
                break
            action = rng.choice(legal_actions(state))
            history.append(action)
            state = apply(state, action)
        if state.phase not in (Phase.SETUP, Phase.PLAY):
            continue
        dealt, face_up = start.round.dealt, start.round.dealt_face_up
        for seat in range(config.players):
            seen_cards = set(dealt[seat]) | {c for row in face_up or () for c in row}
            seen_cards |= {a.card for a in history
                           if isinstance(a, (Give, Play)) and _visible_to(config, seat, a)}
            hidden = [c for c in config.cards if c not in seen_cards]
            pairs = [(x, y) for x in hidden for y in hidden if x.rank < y.rank
                     and x.colour is y.colour]
            for x, y in rng.sample(pairs, min(3, len(pairs))):
                swap = {x: y, y: x}
                hands = tuple(tuple(swap.get(c, c) for c in hand) for hand in dealt)
                other = with_deal(start, hands, face_up)
                for action in history:
                    other = apply(other, _substituted(action, swap))
                differing += other != state
                assert view(other, seat) == view(state, seat)
                assert observation(view(other, seat)) == observation(view(state, seat))
                assert observation_string(view(other, seat)) == observation_string(
                    view(state, seat))
    assert differing > 0


@pytest.mark.parametrize("name", ["classic-2p", "classic-4p", "matagot-6p-two-bottles"])
def test_observation_strings_tell_different_views_apart(name: str) -> None:
    config = SHORT[name]
    seen: dict[str, object] = {}
    for state in states(config, games=2):
        for seat in range(config.players):
            v = view(state, seat)
            text = observation_string(v)
            assert seen.setdefault(text, v) == v


# --- results --------------------------------------------------------------------------------


def test_winners_and_returns_from_a_finished_state() -> None:
    state = random_game(Config(players=4, rounds=1), 3)
    assert state.is_over
    best = max(state.totals)
    assert winners(state) == winners(state.totals) == tuple(
        seat for seat, total in enumerate(state.totals) if total == best)
    assert returns(state) == tuple(1.0 if s in winners(state) else -1.0 for s in range(4))
    unfinished = new_game(Config(players=4), 3)
    assert returns(unfinished) == (0.0,) * 4
    with pytest.raises(ArgumentError):
        winners(unfinished)
    assert winners([5, 9, 9]) == (1, 2)


def test_teammates_share_their_result() -> None:
    config = Config(players=4, edition="matagot-2024", teams=((0, 2), (1, 3)), rounds=1)
    for seed in range(5):
        state = random_game(config, seed)
        result = returns(state)
        assert result[0] == result[2] and result[1] == result[3]

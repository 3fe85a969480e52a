"""What each seat may see (rule VIEW-HIDDEN)."""

from __future__ import annotations

import random

import pytest

from bottleimp import Config, GameState, Phase, Play, apply, legal_actions, new_game
from bottleimp._view import shown_voids, view
from games import VARIANTS
from helpers import position, ranks_of
from invariants import visible_cards

FOUR = Config(players=4)


def advance(state: GameState, actions: int) -> GameState:
    for _ in range(actions):
        state = apply(state, legal_actions(state)[0])
    return state


def test_a_seat_sees_its_own_hand_and_no_other_VIEW_HIDDEN() -> None:
    state = new_game(FOUR, 3)
    for seat in range(4):
        seen = view(state, seat)
        assert seen.hand == state.round.hands[seat]
        others = {c for s in range(4) if s != seat for c in state.round.hands[s]}
        assert not seen.cards() & others
        assert seen.hand_sizes == (9, 9, 9, 9)


def test_setup_choices_are_seen_only_by_their_owner_VIEW_HIDDEN() -> None:
    state = advance(new_game(FOUR, 3), 3)  # seat 1 has given all three of its cards
    given = {g.card for g in state.round.setup[1]}
    assert given <= view(state, 1).cards()
    assert view(state, 1).my_setup == state.round.setup[1]
    for seat in (0, 2, 3):
        assert not given & view(state, seat).cards()
        assert view(state, seat).my_setup == ()
        assert view(state, seat).setup_given == (0, 3, 0, 0)
    assert view(state, 2).devils_trick is None and view(state, 2).devils_trick_size == 1


def test_devils_trick_hidden_until_the_round_is_over_VIEW_HIDDEN() -> None:
    state = advance(new_game(FOUR, 3), 12)
    assert state.phase is Phase.PLAY
    trick = set(state.round.devils_trick)
    for seat in range(4):
        seen = view(state, seat)
        assert seen.devils_trick is None and seen.devils_trick_size == 4
        own_discard = {g.card for g in state.round.setup[seat] if g.to.value == "devils_trick"}
        assert seen.cards() & trick == own_discard
    while state.phase is Phase.PLAY:
        state = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.ROUND_OVER
    for seat in range(4):
        assert view(state, seat).devils_trick == state.round.devils_trick
        assert trick <= view(state, seat).cards()


def test_played_captured_and_price_cards_are_public_VIEW_HIDDEN() -> None:
    state = advance(new_game(FOUR, 3), 12 + 9)  # two tricks and one card of the third
    for seat in range(4):
        seen = view(state, seat)
        assert {p.card for p in state.round.plays} <= seen.cards()
        assert seen.captured == state.round.captured and seen.bottles == state.round.bottles
        assert len(seen.current_trick) == 1
        assert seen.cards() <= visible_cards(state, seat)


def test_devils_eye_face_up_cards_are_seen_by_both_VIEW_HIDDEN() -> None:
    config = Config(players=2)
    state = position(
        config,
        hands=[[4, 6, 8, 10, 13, 17, 20, 31, 33], [5, 7, 9, 12, 16, 21, 23, 26, 29]],
        face_up=[[15, 18, 22, 25, 28, 30, 32], [1, 2, 3, 11, 14, 24, 27]],
    )
    for seat in (0, 1):
        seen = view(state, seat)
        assert seen.face_up == state.round.face_up
        assert ranks_of(seen.hand) == ranks_of(state.round.hands[seat])
        # The one hidden card of the opponent's that a seat knows is the one it passed there.
        passed = {g.card for g in state.round.setup[seat]}
        assert set(state.round.hands[1 - seat]) & seen.cards() == (
            set(state.round.hands[1 - seat]) & passed
        )
        assert len(set(state.round.hands[1 - seat]) & passed) == 1


def test_there_is_no_view_for_a_seat_not_in_the_game_VIEW_HIDDEN() -> None:
    with pytest.raises(ValueError, match="no seat 4"):
        view(new_game(FOUR, 3), 4)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_a_view_knows_the_legal_actions_of_its_seat_and_no_others(name: str) -> None:
    """``legal_actions(view)`` is the state's legal actions for the seat to act (setup, play,
    Devil's Eye's face-up cards, between rounds) and ``()`` for every other seat."""
    config = VARIANTS[name]
    rng = random.Random(name)
    state = new_game(config, 11, first_dealer=config.players - 1)
    phases = set()
    while True:
        phases.add(state.phase)
        expected = legal_actions(state)
        for seat in range(config.players):
            seen = view(state, seat)
            assert legal_actions(seen) == (expected if seat == state.to_act else ())
        if state.is_over:
            break
        state = apply(state, rng.choice(expected))
    assert phases == set(Phase)


def test_a_view_read_in_a_new_process_knows_its_legal_actions() -> None:
    """A bot that receives its view as JSON in a process that has never dealt a game still gets
    its legal actions: the engine registers the actions of cards it has not seen yet."""
    import json
    import subprocess
    import sys

    from bottleimp.formats._view_json import view_to_json

    program = (
        "import json, sys\n"
        "from bottleimp import legal_actions\n"
        "from bottleimp.formats._view_json import view_from_json\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps([str(a) for a in legal_actions(view_from_json(json.loads(line)))]))\n"
    )
    rng = random.Random(5)
    lines, expected = [], []
    for config in (Config(players=2), FOUR, Config(players=6, edition="matagot-2024")):
        state = new_game(config, 21)
        for _ in range(rng.randrange(3, 40)):
            state = apply(state, rng.choice(legal_actions(state)))
        seat = state.to_act
        assert seat is not None
        lines.append(json.dumps(view_to_json(view(state, seat))))
        expected.append([str(action) for action in legal_actions(state)])
    # The child imports the very package this test imports (a copy under test, a compiled build).
    import os
    from pathlib import Path

    import bottleimp

    package_root = str(Path(bottleimp.__file__).resolve().parent.parent)
    env = dict(os.environ, PYTHONPATH=package_root)
    done = subprocess.run([sys.executable, "-c", program], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, check=True, timeout=60, env=env)
    assert [json.loads(line) for line in done.stdout.splitlines()] == expected


def test_a_view_of_cards_no_state_has_dealt_knows_its_legal_actions() -> None:
    """A view read from JSON may hold cards that no state of this process has dealt (a custom
    deck seen first in a bot's input): the engine registers their actions as it meets them."""
    from bottleimp._cards import Card, Colour
    from bottleimp.formats._view_json import view_from_json, view_to_json

    colours = (Colour.YELLOW, Colour.BLUE, Colour.RED)
    dealt = tuple(Card(rank, colours[rank % 3], 1) for rank in range(1, 13))
    state = new_game(Config(players=3, deck=dealt), 2)
    rng = random.Random(2)
    seen_phases: set[Phase] = set()
    while not state.is_over and len(seen_phases) < 2:
        seat = state.to_act
        assert seat is not None
        document = view_to_json(view(state, seat))
        # The same game with cards of 97 coins each: card values no state has ever dealt.
        config = document["config"]
        assert isinstance(config, dict) and isinstance(config["deck"], list)
        config["deck"] = [[card.rank, card.colour.value, 97] for card in dealt]
        fresh = view_from_json(document)
        expected = [(a.seat, getattr(a, "card").rank, getattr(a, "to", None))
                    for a in legal_actions(state)]
        assert [(a.seat, getattr(a, "card").rank, getattr(a, "to", None))
                for a in legal_actions(fresh)] == expected
        assert all(getattr(a, "card").coins == 97 for a in legal_actions(fresh))
        seen_phases.add(state.phase)
        state = apply(state, rng.choice(legal_actions(state)))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_shown_voids_are_colours_the_seat_lacked_when_it_missed_them_follow_suit(name: str) -> None:
    """FOLLOW-SUIT: a seat that did not follow the led colour held none of it then, so every void
    ``shown_voids`` infers is true of the hand at that moment, and each is inferred as it happens."""
    config = VARIANTS[name]
    rng = random.Random(name)
    state = new_game(config, seed=7)
    seen_misses = 0
    while not state.is_over and state.round.index == 0:
        if state.phase is Phase.PLAY:
            seat = state.to_act
            assert seat is not None
            hand = state.round.hands[seat]
            before = shown_voids(config, state.round.plays, (seat + 1) % config.players)
            action = rng.choice(legal_actions(state))
            assert isinstance(action, Play)
            after_state = apply(state, action)
            after = shown_voids(config, after_state.round.plays, (seat + 1) % config.players)
            trick_plays = len(state.round.plays) % config.trick_size
            led = state.round.plays[-trick_plays].card.colour if trick_plays else None
            missed = led is not None and action.card.colour is not led and not config.devils_eye
            if missed:
                seen_misses += 1
                assert all(card.colour is not led for card in hand)
                assert led in after[seat]
            else:
                assert after.get(seat, set()) == before.get(seat, set())
            state = after_state
        else:
            state = apply(state, rng.choice(legal_actions(state)))
    if config.devils_eye:
        assert shown_voids(config, state.round.plays, 0) == {}
    else:
        assert seen_misses > 0, "no seat missed the led colour: the check saw nothing"

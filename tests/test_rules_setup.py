"""Example tests for the deal and the setup, each named after its rule ID."""

from __future__ import annotations

import pytest

from bottleimp import (
    CLASSIC,
    Config,
    Destination,
    GameState,
    Give,
    IllegalActionError,
    Phase,
    StartRound,
    apply,
    legal_actions,
    new_game,
)
from bottleimp._engine import with_deal
from bottleimp.rules.deal import shuffle, splitmix64
from helpers import card, cards, dealt_game, give_setups, ranks_of

DT, LEFT, RIGHT = Destination.DEVILS_TRICK, Destination.LEFT, Destination.RIGHT
FACE_UP, HIDDEN = Destination.OPPONENT_FACE_UP, Destination.OPPONENT_HIDDEN

FOUR = Config(players=4)

# A classic 4-player deal (dealer seat 0), chosen by hand: seat s holds nine cards.
FOUR_HANDS = (
    (1, 2, 3, 5, 7, 9, 12, 15, 18),
    (4, 6, 8, 10, 13, 17, 20, 24, 27),
    (11, 14, 16, 21, 23, 26, 29, 31, 33),
    (22, 25, 28, 30, 32, 34, 35, 36, 37),
)


def refused(state: GameState, action: Give | StartRound, rule_id: str) -> IllegalActionError:
    """Apply an illegal action: it raises with ``rule_id`` and the state is left alone."""
    before = state
    with pytest.raises(IllegalActionError) as error:
        apply(state, action)
    assert error.value.rule_id == rule_id, error.value
    assert state == before
    return error.value


def finish_round(state: GameState) -> GameState:
    """Play the rest of the round with the first legal action each time."""
    index = state.round.index
    while state.round.index == index and state.phase in (Phase.SETUP, Phase.PLAY):
        state = apply(state, legal_actions(state)[0])
    return state


# -- DEAL-SHUFFLE ------------------------------------------------------------------------------


def test_splitmix64_matches_the_reference_outputs_DEAL_SHUFFLE() -> None:
    state, first = splitmix64(0)
    _, second = splitmix64(state)
    assert (first, second) == (0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4)


def test_same_seed_same_deal_DEAL_SHUFFLE() -> None:
    for config in (FOUR, Config(players=2), Config(players=5, edition="matagot-2024")):
        first, again = new_game(config, 12345), new_game(config, 12345)
        assert first.round.dealt == again.round.dealt
        assert first.round.dealt_face_up == again.round.dealt_face_up
        assert first == again and hash(first) == hash(again)
    assert new_game(FOUR, 1).round.dealt != new_game(FOUR, 2).round.dealt


def test_first_round_hands_of_seed_7_are_pinned_DEAL_SHUFFLE() -> None:
    """A change to the shuffle or the deal changes these hands (and every stored record)."""
    state = new_game(FOUR, 7)
    assert [ranks_of(hand) for hand in state.round.dealt] == [
        [4, 6, 8, 9, 14, 16, 21, 28, 32],
        [1, 3, 5, 10, 17, 18, 27, 34, 35],
        [11, 12, 13, 23, 25, 30, 31, 36, 37],
        [2, 7, 15, 20, 22, 24, 26, 29, 33],
    ]
    eye = new_game(Config(players=2, edition="matagot-2024"), 7)
    assert [ranks_of(hand) for hand in eye.round.dealt] == [
        [6, 8, 9, 11, 12, 16, 21, 23, 25, 32, 36, 37],
        [2, 3, 5, 10, 18, 20, 22, 24, 29, 33, 34, 35],
    ]
    assert eye.round.dealt_face_up is not None
    assert [ranks_of(row) for row in eye.round.dealt_face_up] == [
        [4, 13, 14, 28, 30, 31],
        [1, 7, 15, 17, 26, 27],
    ]


def test_each_round_is_shuffled_afresh_DEAL_SHUFFLE() -> None:
    assert shuffle(CLASSIC, 7, 0) != shuffle(CLASSIC, 7, 1)
    assert sorted(ranks_of(shuffle(CLASSIC, 7, 3))) == ranks_of(CLASSIC)
    state = finish_round(new_game(Config(players=4, rounds=2), 7))
    second = apply(state, StartRound(1))
    assert second.round.dealt != state.round.dealt
    # The second round is dealt from the seed and the round index, not from the play.
    other_play = new_game(Config(players=4, rounds=2), 7)
    while other_play.phase is not Phase.ROUND_OVER:
        other_play = apply(other_play, legal_actions(other_play)[-1])
    assert other_play.round.plays != state.round.plays
    assert apply(other_play, StartRound(1)).round.dealt == second.round.dealt


# -- DEAL --------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer_round", [0, 1])
def test_cards_are_dealt_one_at_a_time_from_the_dealers_left_DEAL(dealer_round: int) -> None:
    config = Config(players=5, edition="matagot-2024", rounds=2)
    state = new_game(config, 99)
    if dealer_round:
        state = apply(finish_round(state), StartRound(1))
    dealer = state.round.dealer
    order = shuffle(config.cards, 99, dealer_round)
    expected: list[list[float]] = [[] for _ in range(5)]
    for k, dealt in enumerate(order):
        expected[(dealer + 1 + k) % 5].append(dealt.rank)
    assert [ranks_of(hand) for hand in state.round.dealt] == [sorted(h) for h in expected]


def test_devils_eye_deals_two_thirds_hidden_then_one_third_face_up_DEAL() -> None:
    config = Config(players=2)
    state = new_game(config, 3)
    order = shuffle(config.cards, 3, 0)
    hidden, face_up = order[:24], order[24:]
    assert state.round.dealt_face_up is not None
    for seat in (0, 1):
        mine = [c.rank for k, c in enumerate(hidden) if (1 + k) % 2 == seat]
        up = [c.rank for k, c in enumerate(face_up) if (1 + k) % 2 == seat]
        assert ranks_of(state.round.dealt[seat]) == sorted(mine)
        assert ranks_of(state.round.dealt_face_up[seat]) == sorted(up)


# -- DEAL-COUNTS -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("config", "hidden", "face_up"),
    [
        (Config(players=2), [12, 12], [6, 6]),
        (Config(players=2, edition="matagot-2024"), [12, 12], [6, 6]),
        (Config(players=3), [12, 12, 12], None),
        (Config(players=4), [9, 9, 9, 9], None),
        (Config(players=5, edition="matagot-2024"), [10, 11, 11, 11, 11], None),
        (Config(players=6, edition="matagot-2024"), [9] * 6, None),
    ],
    ids=["2p-classic", "2p-matagot", "3p", "4p", "5p", "6p"],
)
def test_cards_dealt_per_player_count_DEAL_COUNTS(
    config: Config, hidden: list[int], face_up: list[int] | None
) -> None:
    round_ = new_game(config, 11).round
    assert [len(hand) for hand in round_.dealt] == hidden
    assert (
        None if round_.dealt_face_up is None else [len(row) for row in round_.dealt_face_up]
    ) == face_up


def test_a_deal_with_wrong_counts_is_refused_DEAL_COUNTS() -> None:
    state = new_game(FOUR, 0)
    short = FOUR_HANDS[:3] + (FOUR_HANDS[3][:8],)
    with pytest.raises(IllegalActionError) as error:
        dealt_game(FOUR, short)
    assert error.value.rule_id == "DEAL-COUNTS" and "seat 3" in error.value.message
    twice = FOUR_HANDS[:3] + (FOUR_HANDS[3][:8] + (1,),)
    with pytest.raises(IllegalActionError) as error:
        dealt_game(FOUR, twice)
    assert error.value.rule_id == "DEAL-COUNTS" and "twice" in error.value.message
    with pytest.raises(IllegalActionError) as error:
        with_deal(state, tuple(cards(FOUR, hand) for hand in FOUR_HANDS[:3]))
    assert error.value.rule_id == "DEAL-COUNTS"
    with pytest.raises(IllegalActionError) as error:
        with_deal(state, tuple(cards(FOUR, hand) for hand in FOUR_HANDS), ((), (), (), ()))
    assert error.value.rule_id == "DEAL-COUNTS" and "face-up" in error.value.message


def test_a_deal_is_replaced_only_before_the_setup_DEAL() -> None:
    state = dealt_game(FOUR, FOUR_HANDS)
    assert [ranks_of(hand) for hand in state.round.hands] == [list(h) for h in FOUR_HANDS]
    begun = apply(state, Give(1, card(FOUR, 4), DT))
    with pytest.raises(IllegalActionError) as error:
        with_deal(begun, tuple(cards(FOUR, hand) for hand in FOUR_HANDS))
    assert error.value.rule_id == "DEAL"


# -- FIRST-DEALER, DEALER-ROTATION ---------------------------------------------------------------


def test_seat_0_deals_first_FIRST_DEALER() -> None:
    for config in (Config(players=2), FOUR, Config(players=6, edition="matagot-2024")):
        assert new_game(config, 5).round.dealer == 0


def test_the_deal_moves_one_seat_clockwise_each_round_DEALER_ROTATION() -> None:
    state = new_game(Config(players=3, rounds=4), 5)
    dealers = [state.round.dealer]
    while not state.is_over:
        if state.phase is Phase.ROUND_OVER:
            assert legal_actions(state) == (StartRound((state.round.dealer + 1) % 3),)
            refused(state, StartRound(state.round.dealer), "DEALER-ROTATION")
            state = apply(state, StartRound((state.round.dealer + 1) % 3))
            dealers.append(state.round.dealer)
        else:
            state = apply(state, legal_actions(state)[0])
    assert dealers == [0, 1, 2, 0]


def test_five_players_the_short_hand_moves_with_the_deal_DEALER_ROTATION() -> None:
    state = finish_round(new_game(Config(players=5, edition="matagot-2024"), 5))
    state = apply(state, StartRound(1))
    assert [len(hand) for hand in state.round.dealt] == [11, 10, 11, 11, 11]
    assert state.to_act == 2


# -- SETUP-STEPS -------------------------------------------------------------------------------


def _destinations(state: GameState) -> list[Destination]:
    """The destinations the engine asks for, seat by seat, through the whole setup."""
    found = []
    while state.phase is Phase.SETUP:
        action = legal_actions(state)[0]
        assert isinstance(action, Give)
        assert {a.to for a in legal_actions(state) if isinstance(a, Give)} == {action.to}
        found.append(action.to)
        state = apply(state, action)
    return found


def test_discard_then_left_then_right_SETUP_STEPS() -> None:
    assert _destinations(new_game(FOUR, 2)) == [DT, LEFT, RIGHT] * 4
    assert _destinations(new_game(Config(players=3), 2)) == [DT, LEFT, RIGHT] * 3
    six = Config(players=6, edition="matagot-2024")
    assert _destinations(new_game(six, 2)) == [DT, LEFT, RIGHT] * 6


def test_five_player_dealer_gives_only_left_and_right_SETUP_STEPS() -> None:
    state = new_game(Config(players=5, edition="matagot-2024"), 2)
    assert _destinations(state) == [DT, LEFT, RIGHT] * 4 + [LEFT, RIGHT]


def test_devils_eye_two_discards_then_to_the_opponent_SETUP_STEPS() -> None:
    assert _destinations(new_game(Config(players=2), 2)) == [DT, DT, FACE_UP, HIDDEN] * 2


def test_a_setup_card_to_the_wrong_place_is_refused_SETUP_STEPS() -> None:
    state = dealt_game(FOUR, FOUR_HANDS)
    error = refused(state, Give(1, card(FOUR, 4), LEFT), "SETUP-STEPS")
    assert "devils_trick" in error.message
    state = apply(state, Give(1, card(FOUR, 4), DT))
    refused(state, Give(1, card(FOUR, 6), DT), "SETUP-STEPS")


def test_a_second_setup_from_a_seat_that_has_finished_is_refused_SETUP_STEPS() -> None:
    state = dealt_game(FOUR, FOUR_HANDS)
    for give in (Give(1, card(FOUR, 4), DT), Give(1, card(FOUR, 6), LEFT)):
        state = apply(state, give)
    state = apply(state, Give(1, card(FOUR, 8), RIGHT))
    error = refused(state, Give(1, card(FOUR, 10), DT), "SETUP-STEPS")
    assert "already" in error.message


# -- SETUP-ORDER -------------------------------------------------------------------------------


def test_seats_choose_in_turn_from_the_dealers_left_SETUP_ORDER() -> None:
    state = new_game(FOUR, 4)
    order = []
    while state.phase is Phase.SETUP:
        order.append(state.to_act)
        state = apply(state, legal_actions(state)[0])
    assert order == [1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 0]


def test_a_give_out_of_turn_is_refused_SETUP_ORDER() -> None:
    state = dealt_game(FOUR, FOUR_HANDS)
    refused(state, Give(2, card(FOUR, 11), DT), "SETUP-ORDER")
    refused(state, Give(0, card(FOUR, 1), DT), "SETUP-ORDER")
    refused(state, Give(4, card(FOUR, 1), DT), "SETUP-ORDER")


# -- SETUP-FROM-DEALT --------------------------------------------------------------------------


def test_setup_cards_come_from_the_cards_dealt_SETUP_FROM_DEALT() -> None:
    state = dealt_game(FOUR, FOUR_HANDS)
    refused(state, Give(1, card(FOUR, 1), DT), "SETUP-FROM-DEALT")  # seat 0's card
    state = apply(state, Give(1, card(FOUR, 4), DT))
    refused(state, Give(1, card(FOUR, 4), LEFT), "SETUP-FROM-DEALT")  # given already
    state = apply(state, Give(1, card(FOUR, 6), LEFT))  # 6 goes to seat 2...
    state = apply(state, Give(1, card(FOUR, 8), RIGHT))
    # ... but seat 2 does not hold it until every seat has chosen, so it cannot pass it on.
    assert card(FOUR, 6) not in state.round.hands[2]
    refused(state, Give(2, card(FOUR, 6), DT), "SETUP-FROM-DEALT")


# -- SETUP-RESOLVE -----------------------------------------------------------------------------


def test_passed_cards_arrive_only_after_every_seat_has_chosen_SETUP_RESOLVE() -> None:
    state = dealt_game(FOUR, FOUR_HANDS)
    setups = {1: (4, 6, 8), 2: (11, 14, 16), 3: (22, 25, 28), 0: (1, 2, 3)}
    for seat in (1, 2, 3, 0):
        for step, rank in zip((DT, LEFT, RIGHT), setups[seat]):
            before = state
            state = apply(state, Give(seat, card(FOUR, rank), step))
            for other in range(4):
                expected = before.round.hands[other]
                if other == seat:
                    expected = tuple(c for c in expected if c.rank != rank)
                if state.phase is Phase.SETUP:
                    assert state.round.hands[other] == expected
    assert state.phase is Phase.PLAY
    # Seat s passed its second card left (to s + 1) and its third right (to s - 1).
    assert [ranks_of(hand) for hand in state.round.hands] == [
        [5, 7, 8, 9, 12, 15, 18, 25],  # 8 from seat 1 (its right), 25 from seat 3 (its left)
        [2, 10, 13, 16, 17, 20, 24, 27],  # 2 from seat 0, 16 from seat 2
        [6, 21, 23, 26, 28, 29, 31, 33],  # 6 from seat 1, 28 from seat 3
        [3, 14, 30, 32, 34, 35, 36, 37],  # 14 from seat 2, 3 from seat 0
    ]
    assert ranks_of(state.round.devils_trick) == [1, 4, 11, 22]


def test_devils_eye_gives_reach_the_opponents_two_hands_SETUP_RESOLVE() -> None:
    config = Config(players=2)
    hidden = (
        (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12),
        (13, 14, 15, 16, 17, 18, 20, 21, 22, 23, 24, 25),
    )
    face_up = ((26, 27, 28, 29, 30, 31), (32, 33, 34, 35, 36, 37))
    state = dealt_game(config, hidden, face_up)
    state = give_setups(state, {1: (13, 14, 15, 16), 0: (1, 2, 3, 4)})
    assert state.phase is Phase.PLAY
    assert state.round.face_up is not None
    assert ranks_of(state.round.devils_trick) == [1, 2, 13, 14]
    assert ranks_of(state.round.face_up[0]) == [15, 26, 27, 28, 29, 30, 31]
    assert ranks_of(state.round.hands[0]) == [5, 6, 7, 8, 9, 10, 11, 12, 16]
    assert ranks_of(state.round.face_up[1]) == [3, 32, 33, 34, 35, 36, 37]
    assert ranks_of(state.round.hands[1]) == [4, 17, 18, 20, 21, 22, 23, 24, 25]


# -- FIRST-LEADER ------------------------------------------------------------------------------


def test_the_player_left_of_the_dealer_leads_first_FIRST_LEADER() -> None:
    first_cards = {seat: hand[:3] for seat, hand in enumerate(FOUR_HANDS)}
    state = give_setups(dealt_game(FOUR, FOUR_HANDS), first_cards)
    assert state.phase is Phase.PLAY and state.to_act == 1 and state.round.leader == 1
    later = apply(finish_round(new_game(Config(players=4, rounds=2), 8)), StartRound(1))
    later = give_setups(later, {s: ranks_of(later.round.hands[s][:3]) for s in range(4)})
    assert later.round.dealer == 1 and later.to_act == 2 and later.round.leader == 2
    eye = new_game(Config(players=2), 8)
    eye = give_setups(eye, {s: ranks_of(eye.round.hands[s][:4]) for s in range(2)})
    assert eye.phase is Phase.PLAY and eye.to_act == 1

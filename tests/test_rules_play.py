"""Example tests for trick play and the bottle, each named after its rule ID.

Most start from seed 001's worked example: four players, classic deck, dealer seat 0, so seat 1
(Adam) leads, then Betty (2), Christian (3) and Doris (0).
"""

from __future__ import annotations

import pytest

from bottleimp import (
    START_PRICE,
    Bottle,
    Config,
    GameState,
    IllegalActionError,
    Phase,
    Play,
    apply,
    legal_actions,
)
from helpers import card, deck, play, position, ranks_of
from invariants import zones

FOUR = Config(players=4)
DORIS, ADAM, BETTY, CHRISTIAN = 0, 1, 2, 3


def worked_example() -> GameState:
    """The hands after the setup, chosen so that seed 001's trick can be played: Betty holds no
    blue, so she may answer Adam's blue 24 with her yellow 15."""
    return position(
        FOUR,
        [
            [20, 25, 27, 28, 30, 31, 32, 34],  # Doris
            [1, 2, 3, 11, 14, 16, 21, 24],  # Adam
            [5, 7, 9, 12, 15, 23, 26, 29],  # Betty: yellow and red only
            [4, 6, 8, 10, 13, 17, 18, 22],  # Christian: blue and yellow only
        ],
    )


def after_first_trick() -> GameState:
    """Seed 001: Adam 24, Betty 15, Christian 17, Doris 32."""
    return play(worked_example(), 24, 15, 17, 32)


def after_buy_back() -> GameState:
    """Christian leads 13 and buys his own bottle back: Doris 20, Adam 1, Betty 5."""
    return play(after_first_trick(), 13, 20, 1, 5)


def after_resale() -> GameState:
    """Christian leads 10; Doris 27, Adam 16 (between the price 13 and 19), Betty 12 buys."""
    return play(after_buy_back(), 10, 27, 16, 12)


def refused(state: GameState, action: Play, rule_id: str) -> IllegalActionError:
    """Apply an illegal play: it raises with ``rule_id`` and the state is left alone."""
    before = state
    with pytest.raises(IllegalActionError) as error:
        apply(state, action)
    assert error.value.rule_id == rule_id, error.value
    assert state == before
    return error.value


def captured_ranks(state: GameState, seat: int) -> list[float]:
    return sorted(ranks_of(state.round.captured[seat]))


def no_start_card_anywhere(state: GameState) -> bool:
    return all(c.rank != START_PRICE for _, c in zones(state))


# -- seed 001's worked example -----------------------------------------------------------------


def test_trick_winner_highest_card_below_price_TRICK_WINNER() -> None:
    """Price 19; 24, 15, 17, 32: the 17 is the highest card below 19 and wins."""
    state = after_first_trick()
    result = state.round.tricks[0]
    assert (result.winner, result.winning_card) == (CHRISTIAN, card(FOUR, 17))
    assert (result.price_before, result.price_after, result.bottle) == (19, 17, 0)


def test_the_winning_card_below_the_price_buys_the_bottle_BOTTLE_PURCHASE() -> None:
    state = after_first_trick()
    assert state.round.bottles == (Bottle(price_card=card(FOUR, 17), owner=CHRISTIAN),)
    assert state.round.bottles[0].price == 17


def test_winner_takes_the_other_cards_and_nobody_the_19_TRICK_CAPTURE() -> None:
    state = after_first_trick()
    assert captured_ranks(state, CHRISTIAN) == [15, 24, 32]
    assert [captured_ranks(state, seat) for seat in (DORIS, ADAM, BETTY)] == [[], [], []]
    assert no_start_card_anywhere(state)
    assert no_start_card_anywhere(after_resale())


def test_the_trick_winner_leads_the_next_trick_NEXT_LEADER() -> None:
    state = after_first_trick()
    assert state.to_act == CHRISTIAN and state.round.leader == CHRISTIAN
    state = play(state, 13, 20, 1, 5)
    assert state.to_act == CHRISTIAN
    state = play(state, 10, 27, 16, 12)
    assert state.to_act == BETTY and state.round.leader == BETTY


# -- the bottle changing hands -----------------------------------------------------------------


def test_owner_buys_the_bottle_back_and_keeps_the_old_price_card_PRICE_CARD_RETURN() -> None:
    """13 beats 1 and 5 under the price 17; the 17 goes back to Christian, its former owner."""
    state = after_buy_back()
    assert state.round.bottles == (Bottle(price_card=card(FOUR, 13), owner=CHRISTIAN),)
    assert captured_ranks(state, CHRISTIAN) == [1, 5, 15, 17, 20, 24, 32]


def test_price_card_returns_to_the_former_owner_PRICE_CARD_RETURN() -> None:
    """Betty's 12 buys the bottle from Christian; the 13 that set its price goes to him."""
    state = after_resale()
    assert state.round.bottles == (Bottle(price_card=card(FOUR, 12), owner=BETTY),)
    assert captured_ranks(state, BETTY) == [10, 16, 27]
    assert 13 in captured_ranks(state, CHRISTIAN)
    assert 12 not in captured_ranks(state, BETTY)


def test_trick_judged_against_the_current_price_TRICK_PRICE() -> None:
    """Under the price 13, Adam's 16 is not below the price: Betty's 12 wins, not the 16."""
    state = after_resale()
    result = state.round.tricks[-1]
    assert result.price_before == 13 and result.winner == BETTY
    assert result.winning_card == card(FOUR, 12)


def test_all_cards_above_the_price_highest_wins_and_bottle_stays_TRICK_WINNER() -> None:
    """Price 12: 23, 18, 31, 21 are all above it; Doris's 31 wins; Betty keeps the bottle."""
    state = play(after_resale(), 23, 18, 31, 21)
    result = state.round.tricks[-1]
    assert (result.winner, result.winning_card.rank, result.bottle) == (DORIS, 31, None)
    assert result.price_before == result.price_after == 12
    assert state.round.bottles == (Bottle(price_card=card(FOUR, 12), owner=BETTY),)
    assert captured_ranks(state, DORIS) == [18, 21, 23, 31]
    assert state.to_act == DORIS


def test_first_trick_all_above_19_leaves_the_bottle_unowned_TRICK_WINNER() -> None:
    state = play(worked_example(), 21, 23, 22, 31)
    result = state.round.tricks[0]
    assert (result.winner, result.winning_card.rank, result.bottle) == (DORIS, 31, None)
    assert state.round.bottles == (Bottle(),)
    assert captured_ranks(state, DORIS) == [21, 22, 23, 31]


def test_colour_never_decides_the_winner_TRICK_WINNER() -> None:
    """Adam leads blue; Betty's yellow 15, off the led colour, beats Christian's blue 4: the
    highest card below the price wins whatever its colour."""
    state = play(worked_example(), 24, 15, 4, 30)
    assert state.round.tricks[0].winner == BETTY


def test_half_rank_buys_the_bottle_and_orders_between_whole_ranks_BOTTLE_PURCHASE() -> None:
    """With 54 cards: 18.5 is below 19 and buys; then under 18.5, 16.5 beats 16 and 14.5."""
    config = Config(players=5, edition="matagot-2024")
    state = position(
        config,
        [[28.5, 26], [18.5, 16.5], [22, 14.5], [25, 16], [28, 24]],
        fill=True,
    )
    state = play(state, 18.5, 22, 25, 28, 28.5)
    assert state.round.bottles == (Bottle(price_card=card(config, 18.5), owner=1),)
    state = play(state, 16.5, 14.5, 16, 24, 26)
    result = state.round.tricks[-1]
    assert (result.winner, result.winning_card.rank, result.price_before) == (1, 16.5, 18.5)
    assert state.round.bottles[0].price == 16.5
    assert 18.5 in captured_ranks(state, 1)  # the old price card, back to its owner


def test_17_point_5_beats_17_below_19_TRICK_WINNER() -> None:
    cards = deck("17B3 17.5B3 30B4 31B4 5B2 2B1 32B6 16.5B2 1B1 3B2 4B1 6B1")
    config = Config(players=4, deck=cards)
    state = position(config, [[31, 32], [17, 16.5], [17.5, 5], [30, 2]])
    state = play(state, 17, 17.5, 30, 31)
    assert state.round.tricks[0].winner == 2
    assert state.round.bottles[0].price == 17.5
    state = play(state, 5, 2, 32, 16.5)
    assert state.round.tricks[1].winner == 1
    assert state.round.bottles[0].price == 16.5
    assert captured_ranks(state, 2) == [17, 17.5, 30, 31]


# -- legality ----------------------------------------------------------------------------------


def test_play_goes_clockwise_from_the_leader_TURN_ORDER() -> None:
    state = worked_example()
    seats = []
    for rank in (24, 15, 17, 32):
        seats.append(state.to_act)
        state = play(state, rank)
    assert seats == [ADAM, BETTY, CHRISTIAN, DORIS]


def test_playing_out_of_turn_is_refused_TURN_ORDER() -> None:
    state = worked_example()
    refused(state, Play(BETTY, card(FOUR, 15)), "TURN-ORDER")
    state = play(state, 24)
    refused(state, Play(DORIS, card(FOUR, 32)), "TURN-ORDER")
    refused(state, Play(ADAM, card(FOUR, 1)), "TURN-ORDER")


def test_a_card_not_held_is_refused_CARD_HELD() -> None:
    state = worked_example()
    error = refused(state, Play(ADAM, card(FOUR, 15)), "CARD-HELD")
    assert "15" in error.message
    state = play(state, 24)
    refused(state, Play(BETTY, card(FOUR, 24)), "CARD-HELD")  # already played
    refused(state, Play(BETTY, card(FOUR, 33)), "CARD-HELD")  # in the Devil's Trick


def test_must_follow_the_led_colour_FOLLOW_SUIT() -> None:
    state = play(worked_example(), 24, 15, 17)
    # Doris holds blue: she must play it.
    assert {a.card.rank for a in legal_actions(state) if isinstance(a, Play)} == {
        20,
        27,
        30,
        32,
        34,
    }
    error = refused(state, Play(DORIS, card(FOUR, 31)), "FOLLOW-SUIT")
    assert "blue" in error.message


def test_without_the_led_colour_any_card_FOLLOW_SUIT() -> None:
    state = play(worked_example(), 24)
    betty = {a.card.rank for a in legal_actions(state) if isinstance(a, Play)}
    assert betty == {5, 7, 9, 12, 15, 23, 26, 29}


def test_the_leader_plays_any_card_FOLLOW_SUIT() -> None:
    state = worked_example()
    assert len(legal_actions(state)) == 8
    assert state.phase is Phase.PLAY


def test_each_rule_function_knows_its_rule_id_and_other_functions_have_none() -> None:
    from bottleimp.rules import play as play_rules
    from bottleimp.rules._registry import rule_id_of

    assert rule_id_of(play_rules.follow_suit) == "FOLLOW-SUIT"
    assert rule_id_of(play_rules.trick_winner) == "TRICK-WINNER"
    assert rule_id_of(play_rules.resolve_trick) is None  # composes rules; is none itself

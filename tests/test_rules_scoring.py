"""Example tests for scoring, totals, the end of the game and its winners, each named after its
rule ID. Whole rounds are played on small custom decks so every number can be checked by hand.
"""

from __future__ import annotations

import pytest

from bottleimp import (
    Bottle,
    Config,
    Destination,
    GameState,
    Give,
    IllegalActionError,
    Phase,
    Play,
    StartRound,
    apply,
    legal_actions,
    new_game,
    winners,
)
from bottleimp.rules.scoring import bottle_penalty, captured_points, round_scores
from helpers import card, deck, play, position

# Four players, twelve cards: three each, two tricks after the setup.
SMALL = deck("1Y1 5Y2 9Y3 22Y6 4B1 10B2 17B3 24B4 11R1 21R2 26R3 36R6")
SMALL_HANDS = [[17, 36], [24, 21], [10, 26], [4, 11]]  # the Devil's Trick: 1, 5, 9, 22 (12)


def small_round(config: Config, start: GameState | None = None) -> GameState:
    """Trick 1, led by seat 1: 24, 10, 4, 17; the 17 buys the bottle for seat 0, who takes
    24, 10 and 4 (7 coins). Trick 2, led by seat 0: 36, 21, 26, 11; the 11 buys it for seat 3,
    who takes 36, 21, 26 (11 coins), and the 17 (3 coins) goes back to seat 0."""
    state = position(config, SMALL_HANDS, start=start)
    return play(state, 24, 10, 4, 17, 36, 21, 26, 11)


def small(
    teams: tuple[tuple[int, ...], ...] | None = None,
    rounds: int | None = None,
    target_score: int | None = None,
) -> Config:
    """Four players with the twelve-card deck."""
    return Config(players=4, deck=SMALL, teams=teams, rounds=rounds, target_score=target_score)


# -- one round, individually -------------------------------------------------------------------


def test_a_round_scored_with_the_devils_trick_penalty_SCORE_ROUND() -> None:
    state = small_round(small())
    assert state.round.bottles == (Bottle(price_card=card(state.config, 11), owner=3),)
    assert state.round.scores == (10, 0, 0, -12)
    assert state.totals == (10, 0, 0, -12)


def test_everyone_else_scores_the_coins_they_captured_SCORE_CAPTURED() -> None:
    state = small_round(small())
    assert sorted(c.rank for c in state.round.captured[0]) == [4, 10, 17, 24]
    assert captured_points(state.round.captured[0]) == 10
    assert state.round.scores is not None and state.round.scores[0] == 10


def test_the_owner_scores_minus_the_devils_trick_not_its_cards_SCORE_BOTTLE_PENALTY() -> None:
    state = small_round(small())
    assert captured_points(state.round.captured[3]) == 11  # worth nothing to the owner
    assert sum(c.coins for c in state.round.devils_trick) == 12
    assert state.round.scores is not None and state.round.scores[3] == -12
    assert bottle_penalty(state.round.devils_trick, 2) == -24


def test_individual_scores_ignore_partners_SCORE_INDIVIDUAL() -> None:
    state = small_round(small())
    round_ = state.round
    scores = round_scores(state.config, round_.captured, round_.bottles, round_.devils_trick)
    assert scores == (10, 0, 0, -12)


# -- one round, in teams -----------------------------------------------------------------------


def test_a_partner_owning_the_bottle_penalises_both_SCORE_TEAMS() -> None:
    """Default teams {0,2} {1,3}: seat 3 owns the bottle, so seats 1 and 3 both take -12; seats
    0 and 2 pool 10 + 0."""
    state = small_round(small(teams=((0, 2), (1, 3))))
    assert state.round.scores == (10, -12, 10, -12)


def test_a_player_without_a_partner_doubles_the_penalty_SCORE_TEAMS() -> None:
    state = small_round(small(teams=((0, 1), (2,), (3,))))
    assert state.round.scores == (10, 10, 0, -24)


def test_a_player_without_a_partner_doubles_their_points_SCORE_TEAMS() -> None:
    state = small_round(small(teams=((1, 3), (0,), (2,))))
    assert state.round.scores == (20, -12, 0, -12)


def test_five_players_default_teams_the_single_seat_doubles_SCORE_TEAMS() -> None:
    """Teams {0,3} {1,4} {2}. Trick 1 (all above 19): seat 2's 30 takes 25, 30, 26, 27, 28
    (25 coins). Trick 2: seat 1's 18 buys the bottle, so seats 1 and 4 take -14."""
    cards = deck("1R1 2R1 3R2 5R2 10R2 12R4 18R5 25R6 26R3 27R5 28R6 30R5 31R4 33R5 34R5")
    config = Config(players=5, deck=cards, teams=((0, 3), (1, 4), (2,)))
    state = position(config, [[28, 31], [25, 18], [30, 12], [26, 5], [27, 10]])
    state = play(state, 25, 30, 26, 27, 28, 12, 5, 10, 31, 18)
    assert state.round.bottles[0].owner == 1
    assert state.round.scores == (0, -14, 50, 0, -14)


# -- ROUND-END, GAME-TOTALS --------------------------------------------------------------------


def test_the_round_ends_when_every_card_is_played_ROUND_END() -> None:
    state = play(position(small(), SMALL_HANDS), 24, 10, 4, 17)
    assert state.phase is Phase.PLAY and state.round.scores is None
    state = play(state, 36, 21, 26)
    assert state.phase is Phase.PLAY and state.round.scores is None
    state = play(state, 11)
    assert state.phase is Phase.ROUND_OVER and state.round.scores is not None
    assert not any(state.round.hands)
    assert state.to_act == 1 and legal_actions(state) == (StartRound(1),)


def test_totals_are_the_sums_of_the_round_scores_GAME_TOTALS() -> None:
    """Round 2 repeats round 1 one seat further round (dealer 1, seat 2 leads)."""
    first = small_round(small(rounds=2))
    second = apply(first, StartRound(1))
    state = position(second.config, [SMALL_HANDS[(s - 1) % 4] for s in range(4)], start=second)
    state = play(state, 24, 10, 4, 17, 36, 21, 26, 11)
    assert state.round.scores == (-12, 10, 0, 0)
    assert state.totals == (-2, 10, 0, -12)
    assert [r.scores for r in state.rounds] == [(10, 0, 0, -12), (-12, 10, 0, 0)]
    assert state.phase is Phase.GAME_OVER


# -- GAME-END ----------------------------------------------------------------------------------


def test_the_game_ends_after_the_configured_rounds_GAME_END() -> None:
    state = new_game(Config(players=3, rounds=2), 4)
    rounds_seen = 0
    while not state.is_over:
        if state.phase is Phase.ROUND_OVER:
            rounds_seen += 1
        state = apply(state, legal_actions(state)[0])
    assert len(state.rounds) == 2 and rounds_seen == 1


def test_the_default_game_lasts_the_default_rounds_GAME_END() -> None:
    state = new_game(Config(players=4), 4)
    while not state.is_over:
        state = apply(state, legal_actions(state)[-1])
    assert len(state.rounds) == 8


def test_the_game_ends_after_the_round_a_total_reaches_the_target_GAME_END() -> None:
    """Seat 0 scores exactly 10: reaching the target (not passing it) ends the game."""
    assert small_round(small(target_score=10)).phase is Phase.GAME_OVER
    going_on = small_round(small(target_score=11))
    assert going_on.phase is Phase.ROUND_OVER and going_on.to_act == 1


def test_a_target_score_game_plays_as_many_rounds_as_it_takes_GAME_END() -> None:
    state = new_game(Config(players=4, target_score=150), 3)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    totals_by_round = []
    running: tuple[int, ...] = (0, 0, 0, 0)
    for round_ in state.rounds:
        assert round_.scores is not None
        running = tuple(t + s for t, s in zip(running, round_.scores))
        totals_by_round.append(running)
    assert max(totals_by_round[-1]) >= 150
    assert all(max(totals) < 150 for totals in totals_by_round[:-1])
    assert len(state.rounds) > 1


# -- WINNERS -----------------------------------------------------------------------------------


def test_highest_total_wins_WINNERS() -> None:
    assert winners((10, 0, 0, -12)) == (0,)
    assert winners((-5, -3, -9)) == (1,)


def test_a_tie_shares_the_win_WINNERS() -> None:
    assert winners((10, -12, 10, -12)) == (0, 2)
    assert winners((0, 0)) == (0, 1)
    state = small_round(small(teams=((0, 2), (1, 3)), rounds=1))
    assert state.is_over and winners(state.totals) == (0, 2)


# -- GAME-OVER, PHASE --------------------------------------------------------------------------


def test_no_action_after_the_game_is_over_GAME_OVER() -> None:
    state = small_round(small(rounds=1))
    assert state.is_over and state.to_act is None and legal_actions(state) == ()
    for action in (
        StartRound(1),
        Play(0, card(state.config, 17)),
        Give(1, card(state.config, 24), Destination.DEVILS_TRICK),
    ):
        with pytest.raises(IllegalActionError) as error:
            apply(state, action)
        assert error.value.rule_id == "GAME-OVER"


def test_each_phase_admits_one_kind_of_action_PHASE() -> None:
    config = small()
    setup = new_game(config, 1)
    hand_card = setup.round.hands[1][0]
    trick_play = position(config, SMALL_HANDS)
    between = small_round(config)
    for state, action in (
        (setup, Play(1, hand_card)),
        (setup, StartRound(1)),
        (trick_play, Give(1, card(config, 24), Destination.DEVILS_TRICK)),
        (trick_play, StartRound(1)),
        (between, Play(1, card(config, 24))),
        (between, Give(1, card(config, 24), Destination.LEFT)),
    ):
        with pytest.raises(IllegalActionError) as error:
            apply(state, action)
        assert error.value.rule_id == "PHASE", (state.phase, action)
        assert state.phase.value in error.value.message

"""The sampling bot (``bottleimp.bots._sampling``): worlds from the determinisation, each solved
open-hand. It plays legal cards, is deterministic for a seed, refuses a bad budget by name, and
when every world it draws is the real deal it plays a card of the best open-hand value."""

from __future__ import annotations

import pytest

from bottleimp import Config, Phase, Play, apply, legal_actions, new_game, view
from bottleimp.analysis import card_values
from bottleimp.bots import SamplingBot
from bottleimp._errors import BotError


def test_the_sampling_bot_plays_a_whole_round_legally_and_deterministically() -> None:
    def play(seed: int) -> tuple[int, ...]:
        bots = [SamplingBot(seed + seat, worlds=2, node_budget=100) for seat in range(3)]
        state = new_game(Config(players=3, rounds=1), seed=9)
        while state.to_act is not None:
            seat = state.to_act
            legal = legal_actions(state)
            choice = bots[seat].choose(view(state, seat), legal)
            assert choice in legal
            state = apply(state, choice)
        return state.totals

    assert play(1) == play(1)


def test_when_every_world_is_the_real_deal_the_bot_plays_a_best_open_hand_card(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bottleimp.bots import _sampling as sampling

    state = new_game(Config(players=4, rounds=1), seed=3)
    while state.phase is Phase.SETUP or len(state.round.plays) < 24 or len(
            legal_actions(state)) < 2:
        state = apply(state, legal_actions(state)[-1])
    monkeypatch.setattr(sampling, "sample_world", lambda seen, rng: state)
    seat = state.to_act
    assert seat is not None
    values = {play: value.lower for play, value in card_values(state)}
    choice = SamplingBot(0, worlds=2, node_budget=10**6).choose(view(state, seat),
                                                               legal_actions(state))
    assert isinstance(choice, Play) and values[choice] == max(values.values())


def test_a_bad_budget_is_refused_by_name() -> None:
    with pytest.raises(BotError, match="worlds"):
        SamplingBot(0, worlds=0)
    with pytest.raises(BotError, match="node budget"):
        SamplingBot(0, node_budget=-1)

"""The OpenSpiel game: OpenSpiel's own random simulation test for every variant, observations
from the views, the deal as chance nodes, serialisation, resampling, and search bots. Under the
``dev`` profile (``depth.py``) the simulation test plays one game per variant (``ci`` two), the
resampling test three seeds (six) and the information-set MCTS bot one game (two)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
from absl import flags
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import bottleimp
from bottleimp import Config, Phase, observation, observation_string, view
from bottleimp.adapters.openspiel import (
    GAME_NAME,
    BottleImpState,
    ISMCTSBot,
    PerfectRecallObserver,
    action_text,
    config_from_params,
)
from bottleimp._encoding import observation_size
from bottleimp.bots._worlds import resample, unseen_cards
from depth import scaled
from games import VARIANTS, random_game

PARAMS: dict[str, dict[str, Any]] = {
    "classic-2p": {"players": 2, "rounds": 1},
    "matagot-2p": {"players": 2, "edition": "matagot-2024", "rounds": 1},
    "classic-3p": {"players": 3, "rounds": 1},
    "classic-4p": {"players": 4, "rounds": 1},
    "matagot-4p-target": {"players": 4, "edition": "matagot-2024", "target_score": 25},
    "matagot-5p": {"players": 5, "rounds": 1},
    "matagot-5p-two-bottles": {"players": 5, "bottles": 2, "rounds": 1},
    "matagot-6p": {"players": 6, "rounds": 1},
    "matagot-6p-two-bottles": {"players": 6, "bottles": 2, "rounds": 1},
    "matagot-4p-teams": {"players": 4, "edition": "matagot-2024", "teams": "0 2|1 3",
                         "rounds": 1},
    "matagot-5p-teams": {"players": 5, "teams": "default", "rounds": 1},
    "matagot-6p-teams": {"players": 6, "teams": "0 3|1 4|2 5", "rounds": 1},
}


def load(params: dict[str, Any]) -> Any:
    return pyspiel.load_game(GAME_NAME, params)


@pytest.mark.parametrize("name", PARAMS)
def test_openspiel_random_simulation_test_passes(name: str) -> None:
    game = load(PARAMS[name])
    pyspiel.random_sim_test(game, num_sims=scaled(ci=2, dev=1), serialize=True, verbose=False)


def test_parameters_make_the_configuration() -> None:
    assert config_from_params({"players": 5, "teams": "default"}) == Config(
        players=5, edition="matagot-2024", teams=((0, 3), (1, 4), (2,)))
    assert config_from_params({}) == Config(players=4)
    assert config_from_params({"players": 3, "target_score": 50}) == Config(
        players=3, target_score=50)
    with pytest.raises(bottleimp.ConfigError):
        config_from_params({"players": 3, "bottles": 2})
    game = load({"players": 3, "rounds": 2})
    assert game.num_players() == 3
    assert game.num_distinct_actions() == bottleimp.num_actions(Config(players=3))
    assert game.max_chance_outcomes() == 36
    assert game.get_type().short_name == "python_bottle_imp"


def play_randomly(game: Any, rng: random.Random, stop: int | None = None) -> Any:
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal() and (stop is None or decisions < stop):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
            state.apply_action(rng.choice(outcomes)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return state


@pytest.mark.parametrize("name", ["classic-2p", "classic-4p", "matagot-5p-two-bottles"])
def test_the_deal_is_chance_nodes_one_card_each_in_deal_order(name: str) -> None:
    game = load(PARAMS[name])
    config = game.config
    state = game.new_initial_state()
    order: list[bottleimp.Card] = []
    while state.is_chance_node():
        assert state.legal_actions() == sorted(i for i, _ in state.chance_outcomes())
        index = random.Random(len(order)).choice(state.legal_actions())
        order.append(config.cards[index])
        state.apply_action(index)
    assert len(order) == len(config.cards)
    dealt = state.game_state.round
    players = config.players
    hidden = len(order) * 2 // 3 if config.devils_eye else len(order)
    for k, card in enumerate(order[:hidden]):
        assert card in dealt.hands[(1 + k) % players]
    for k, card in enumerate(order[hidden:]):
        assert dealt.face_up is not None and card in dealt.face_up[(1 + k) % players]


@pytest.mark.parametrize("name", ["classic-2p", "classic-3p", "matagot-6p-teams"])
def test_observations_and_information_states_are_the_views(name: str) -> None:
    game = load(PARAMS[name])
    rng = random.Random(3)
    for stop in (0, 5, 17, 30):
        state = play_randomly(game, rng, stop)
        if state.is_chance_node():
            continue
        library_state = state.game_state
        for seat in range(game.num_players()):
            seen = view(library_state, seat)
            assert state.observation_string(seat) == observation_string(seen)
            assert state.information_state_string(seat) == observation_string(seen)
            expected = np.array(observation(seen), np.float32)
            assert np.array_equal(np.array(state.observation_tensor(seat)), expected)
            assert np.array_equal(np.array(state.information_state_tensor(seat)), expected)
        mask = state.legal_actions_mask()
        assert [n for n, bit in enumerate(mask) if bit] == bottleimp.legal_action_ints(
            library_state)


def test_during_a_deal_a_player_observes_only_its_own_cards() -> None:
    game = load({"players": 3, "rounds": 1})
    state = game.new_initial_state()
    for index in (0, 1, 2, 3):  # cards 1, 2, 3, 4 to seats 1, 2, 0, 1
        state.apply_action(index)
    ranks = [card.rank for card in game.config.cards]
    assert state.observation_string(1) == f"s1|r0|deal|t0 0 0|h{ranks[0]} {ranks[3]}"
    assert state.observation_string(0) == f"s0|r0|deal|t0 0 0|h{ranks[2]}"
    tensor = np.array(state.observation_tensor(1))
    assert tensor.sum() == 2 and tensor[0] == 1 and tensor[3] == 1


def test_rounds_follow_one_another_through_chance_and_returns_are_the_results() -> None:
    game = load({"players": 4, "rounds": 2})
    state = play_randomly(game, random.Random(8))
    library_state = state.game_state
    assert library_state.is_over and len(library_state.rounds) == 2
    assert state.returns() == list(bottleimp.returns(library_state))
    assert sorted(set(state.returns())) in ([-1.0, 1.0], [1.0])
    # two deals of 36 chance nodes each, and every decision a setup card or a card played
    chance = [a for a in state.full_history() if a.player == pyspiel.PlayerId.CHANCE]
    assert len(chance) == 72


def test_a_state_serialises_and_clones() -> None:
    game = load({"players": 5, "bottles": 2, "rounds": 1})
    state = play_randomly(game, random.Random(2), stop=30)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history()
    assert again.game_state == state.game_state
    clone = state.clone()
    assert clone.game_state == state.game_state
    clone.apply_action(clone.legal_actions()[0])
    assert clone.game_state != state.game_state


@pytest.mark.parametrize("name", ["classic-2p", "classic-4p", "matagot-5p-two-bottles",
                                  "matagot-6p-teams"])
def test_resampled_worlds_look_the_same_to_the_seat_and_play_on(name: str) -> None:
    config = VARIANTS[name]
    rng = random.Random(4)
    for seed in range(scaled(ci=6, dev=3)):
        state = random_game(config, seed, actions=rng.randrange(1, 60))
        if state.phase not in (Phase.SETUP, Phase.PLAY):
            continue
        for seat in range(config.players):
            world = resample(state, seat, rng)
            assert view(world, seat) == view(state, seat)
            assert unseen_cards(world, seat) == unseen_cards(state, seat)
            while not world.is_over and world.round.index == state.round.index:
                world = bottleimp.apply(world, rng.choice(bottleimp.legal_actions(world)))


def test_resampling_from_the_information_state_follows_the_sampler() -> None:
    game = load({"players": 4, "rounds": 1})
    state = play_randomly(game, random.Random(6), stop=20)
    seat = state.current_player()

    def sampler(k: int) -> Any:
        draws = random.Random(k)
        return draws.random

    first = state.resample_from_infostate(seat, sampler(1))
    again = state.resample_from_infostate(seat, sampler(1))
    other = state.resample_from_infostate(seat, sampler(2))
    assert first.game_state == again.game_state != other.game_state
    assert first.history() == state.history()
    assert first.information_state_string(seat) == state.information_state_string(seat)
    assert first.legal_actions() == state.legal_actions()


def test_resampling_changes_what_the_seat_has_not_seen() -> None:
    state = random_game(Config(players=4), 1, actions=20)
    worlds = {resample(state, 0, random.Random(k)).round.hands for k in range(10)}
    assert len(worlds) > 5
    assert all(hands[0] == state.round.hands[0] for hands in worlds)


def test_an_information_set_mcts_bot_plays_whole_games() -> None:
    game = load({"players": 3, "rounds": 1})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = ismcts.ISMCTSBot(
        game=game, evaluator=evaluator, uct_c=2.0, max_simulations=10, random_state=rng)
    for _ in range(scaled(ci=2, dev=1)):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            elif state.current_player() == 0:
                action = bot.step(state)
                assert action in state.legal_actions()
                state.apply_action(action)
            else:
                actions = state.legal_actions()
                state.apply_action(actions[rng.randint(len(actions))])
        assert isinstance(state, BottleImpState)
        assert state.game_state.is_over
        assert state.returns() == list(bottleimp.returns(state.game_state))


def test_an_mcts_bot_plays_a_whole_game_through_chance_nodes() -> None:
    game = load({"players": 2, "rounds": 1})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, 2.0, 8, evaluator, random_state=rng) for _ in range(2)]
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            state.apply_action(bots[state.current_player()].step(state))
    assert state.game_state.is_over


@pytest.mark.xdist_group("openspiel-playthrough")
@pytest.mark.parametrize("name", ["classic-2p", "classic-3p"])
def test_openspiel_playthrough_replays_identically_with_perfect_recall(
    name: str, tmp_path: Any
) -> None:
    # Imported here, on one worker: it imports OpenSpiel's mean-field games and with them
    # scipy.stats, about 5 s that every worker paid at collection.
    from open_spiel.python.algorithms import generate_playthrough

    # OpenSpiel's playthrough generator calls every API function (strings, tensors, legal
    # actions, returns, serialisation...) at every state of a game; replaying it must give the
    # same text, as OpenSpiel's own playthrough tests require. (Two small variants: a
    # playthrough prints every tensor of every state; random_sim_test covers all variants.)
    params = dict(PARAMS[name], perfect_recall=True)
    text = ",".join(f"{key}={value}" for key, value in params.items())
    path = tmp_path / "playthrough.txt"
    if not flags.FLAGS.is_parsed():  # replay reads an absl flag, as under OpenSpiel's absltest
        flags.FLAGS.mark_as_parsed()
    path.write_text(generate_playthrough.playthrough(
        f"{GAME_NAME}({text})", action_sequence=None, seed=3))
    original, again = generate_playthrough.replay(str(path))
    assert original == again
    assert "InformationStateString(0)" in original


@pytest.mark.parametrize("name", ["classic-4p", "matagot-6p-teams"])
def test_openspiel_random_simulation_test_passes_with_perfect_recall(name: str) -> None:
    game = load(dict(PARAMS[name], rounds=2, perfect_recall=True))
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_perfect_recall_information_states_remember_every_earlier_round() -> None:
    params = {"players": 3, "rounds": 3}
    recall, plain = load(dict(params, perfect_recall=True)), load(params)
    config = recall.config
    size, cards = observation_size(config), len(config.cards)
    assert recall.information_state_tensor_size() == 4 * (size + cards)
    assert plain.information_state_tensor_size() == size
    rng, checked = random.Random(9), 0
    state, other = recall.new_initial_state(), plain.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            action = rng.choice(state.legal_actions())
        else:
            action = rng.choice(state.legal_actions())
            seat = state.current_player()
            ended = state.rounds_ended()
            assert len(ended) == state.game_state.round.index
            lines = state.information_state_string(seat).split("\n")
            assert lines == [observation_string(view(e, seat)) for e in ended] + [
                observation_string(view(state.game_state, seat))]
            assert other.information_state_string(seat) == lines[-1]
            tensor = np.array(state.information_state_tensor(seat))
            current, rest = np.split(tensor, [size + cards])
            rounds, orders = np.split(rest, [3 * size])
            records = [(current[:size], current[size:])] + list(
                zip(rounds.reshape(3, size), orders.reshape(3, cards)))
            for (vector, order), past in zip(records, [state.game_state, *ended]):
                assert np.array_equal(vector, np.array(observation(view(past, seat)), np.float32))
                plays = past.round.plays
                assert [config.cards[i] for i in np.argsort(order)[cards - len(plays):]] == [
                    play.card for play in plays]
            for vector, order in records[1 + len(ended):]:
                assert not vector.any() and not order.any()
            checked += 1
        state.apply_action(action)
        other.apply_action(action)
    assert checked > 60


def test_the_order_of_play_tells_apart_what_the_plain_information_state_does_not() -> None:
    # Two rounds in which a seat played the same cards in a different order leave the same
    # view once over; only the perfect-recall information state tells them apart.
    game = load({"players": 2, "rounds": 2, "perfect_recall": True})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    observer = PerfectRecallObserver(game.config)
    observer.set_from(state, 0)
    size = observation_size(game.config)
    assert not observer.dict["current_order"].any()
    state.apply_action(state.legal_actions()[0])
    while state.game_state.phase is not Phase.PLAY:
        state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    observer.set_from(state, 0)
    played = state.game_state.round.plays[0].card
    assert observer.dict["current_order"][game.config.cards.index(played)] == np.float32(1 / 36)
    assert observer.tensor[size + game.config.cards.index(played)] == np.float32(1 / 36)
    assert np.array_equal(observer.tensor, np.array(state.information_state_tensor(0)))


def test_unknown_parameters_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown game parameters: rounds_"):
        config_from_params({"rounds_": 2})


def test_people_read_rounds_from_one_and_actions_in_words() -> None:
    game = load({"players": 4, "rounds": 2})
    state = game.new_initial_state()
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 0) == "deal 1 yellow"
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert str(state).startswith("round 1 setup to act 1 |")
    seat = state.current_player()
    texts = [state.action_to_string(seat, n) for n in state.legal_actions()]
    assert texts[0] == f"seat 1 gives {game.config.cards[state.legal_actions()[0]].rank} " \
        f"{game.config.cards[state.legal_actions()[0]].colour.value} to the Devil's Trick"
    assert all("devils_trick" not in text for text in texts)
    config = game.config
    card = config.cards[5]
    assert action_text(config, bottleimp.Give(3, card, bottleimp.Destination.LEFT)) == \
        f"seat 3 gives {card.rank} {card.colour.value} to seat 0 (left)"
    assert action_text(config, bottleimp.Give(0, card, bottleimp.Destination.RIGHT)) == \
        f"seat 0 gives {card.rank} {card.colour.value} to seat 3 (right)"
    assert action_text(config, bottleimp.Play(2, card)) == \
        f"seat 2 plays {card.rank} {card.colour.value}"
    eye = Config(players=2)
    assert action_text(eye, bottleimp.Give(1, card, bottleimp.Destination.OPPONENT_HIDDEN)) == \
        f"seat 1 gives {card.rank} {card.colour.value} to seat 0's hidden hand"
    assert action_text(eye, bottleimp.Give(0, card, bottleimp.Destination.OPPONENT_FACE_UP)) == \
        f"seat 0 gives {card.rank} {card.colour.value} to seat 1's face-up cards"
    while not state.is_terminal() and state.game_state.round.index == 0:
        state.apply_action(state.legal_actions()[0])
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    assert str(state).startswith("round 2 setup")


def test_evaluate_bots_plays_information_set_mcts_against_random_bots() -> None:
    # OpenSpiel's evaluate_bots calls restart_at on every bot; OpenSpiel's own ISMCTSBot lacks
    # it (pyspiel raises "RestartAt(state) not implemented"); the adapter's ISMCTSBot has it.
    game = load({"players": 3, "rounds": 1})
    rng = np.random.RandomState(2)
    bot = ISMCTSBot(game=game, evaluator=mcts.RandomRolloutEvaluator(1, rng), uct_c=2.0,
                    max_simulations=5, random_state=rng)
    bots = [bot, pyspiel.make_uniform_random_bot(1, 1), pyspiel.make_uniform_random_bot(2, 2)]
    results = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, rng)
    assert sorted(set(results)) in ([-1.0, 1.0], [1.0])

"""The batch engine as the vector environments learners use: Gymnasium's own checker on one
game (``BottleImpEnv``), ``BottleImpVectorEnv`` step for step against Gymnasium's own
``SyncVectorEnv`` of single games in same-step auto-reset mode, and a driver of the public API
that replays every game finished under auto-reset in the reference."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest

import bottleimp
from bottleimp import Config
from bottleimp.batch import BatchGames
from bottleimp._encoding import action_from_int
from test_batch import ON_THE_KERNEL

gymnasium = pytest.importorskip("gymnasium", minversion="1.0")

from gymnasium.utils.env_checker import check_env, data_equivalence  # noqa: E402
from gymnasium.vector import AutoresetMode, SyncVectorEnv  # noqa: E402

from bottleimp.batch.vector import BottleImpEnv, BottleImpVectorEnv  # noqa: E402

CONFIG = Config(players=3, rounds=1)


pytestmark = ON_THE_KERNEL


def test_one_game_passes_gymnasiums_environment_checker_without_a_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(BottleImpEnv(CONFIG), skip_render_check=True)


def _legal(rng: np.random.Generator, mask: Any) -> Any:
    """One random legal action per row of an ``int8`` mask."""
    return np.array([rng.choice(np.flatnonzero(row)) for row in mask])


def test_the_vector_env_steps_as_gymnasiums_own_sync_vector_env_of_single_games() -> None:
    """Observations, rewards, terminations, truncations and infos (``final_obs`` and
    ``final_info`` included) equal Gymnasium's ``SyncVectorEnv`` in same-step mode over the
    same games, through games ended by the rules, by an illegal action and by a partial reset;
    every observation lies in the declared space."""
    size = 4
    ours = BottleImpVectorEnv(CONFIG, size)
    theirs = SyncVectorEnv([lambda: BottleImpEnv(CONFIG)] * size,
                           autoreset_mode=AutoresetMode.SAME_STEP)
    assert ours.metadata["autoreset_mode"] == theirs.metadata["autoreset_mode"]
    assert ours.single_observation_space == theirs.single_observation_space
    assert ours.observation_space == theirs.observation_space
    assert ours.action_space == theirs.action_space
    seeds: list[int | None] = [3, 4, 5, 6]
    got, expected = ours.reset(seed=seeds), theirs.reset(seed=seeds)
    assert data_equivalence(got, expected, exact=True)
    rng = np.random.default_rng(1)
    ended = illegal = 0
    for step in range(260):
        actions = _legal(rng, got[0]["action_mask"])
        if step % 53 == 7:
            actions[step % size] = 4 * len(CONFIG.cards) + 2  # illegal: ends that game
        if step == 150:
            mask = np.array([True, False, True, False])
            got = ours.reset(options={"reset_mask": mask})
            expected = theirs.reset(options={"reset_mask": mask})
            assert data_equivalence(got[1], expected[1], exact=True)
            continue
        kept = {name: np.array(value) for name, value in got[0].items()}
        got_step, expected_step = ours.step(actions), theirs.step(actions)
        assert data_equivalence(got_step, expected_step, exact=True), step
        assert data_equivalence(got[0], kept, exact=True), step  # no reused buffer
        assert ours.observation_space.contains(got_step[0]), step
        if got_step[2].any():
            ended += int(got_step[2].sum())
            illegal += int(got_step[4]["final_info"]["illegal"].sum())
        got = (got_step[0], got_step[4])
    assert ended > illegal > 0


def test_a_driver_gets_the_final_scores_of_every_game_finished_under_auto_reset() -> None:
    """Only the public API: every game that ends under auto-reset is replayed in the reference
    from its seed and first dealer with the actions taken, and its final totals and last
    round's scores (``infos["final_info"]``) and the last observation (``infos["final_obs"]``,
    of the seat whose action ended it) are the reference's."""
    size = 4
    games = BatchGames(CONFIG, size)
    games.reset(np.random.SeedSequence(11))
    rng = np.random.default_rng(2)
    started = [(int(games.seeds[b]), int(games.first_dealer[b])) for b in range(size)]
    taken: list[list[int]] = [[] for _ in range(size)]
    finished = 0
    for _ in range(400):
        actions = games.random_actions(rng)
        seats = np.array(games.to_act)
        _, _, terminated, _, infos = games.step(actions)
        for b in range(size):
            taken[b].append(int(actions[b]))
        for b in map(int, np.flatnonzero(terminated)):
            seed, dealer = started[b]
            state = bottleimp.new_game(CONFIG, seed, first_dealer=dealer)
            for action in taken[b]:
                assert state.to_act is not None
                state = bottleimp.apply(state, action_from_int(CONFIG, action, state.to_act))
            assert state.is_over
            assert list(infos["final_info"]["totals"][b]) == list(state.totals)
            assert list(infos["final_info"]["scores"][b]) == list(state.round.scores or ())
            seen = bottleimp.observation(bottleimp.view(state, int(seats[b])))
            assert (infos["final_obs"][b] == np.array(seen, dtype=np.float32)).all()
            started[b] = (int(games.seeds[b]), int(games.first_dealer[b]))
            assert started[b][1] == (dealer + 1) % CONFIG.players  # FIRST-DEALER, rotated
            taken[b] = []
            finished += 1
    assert finished >= size


def test_two_batches_from_one_root_or_neighbouring_seeds_share_no_deal() -> None:
    first, second = BatchGames(CONFIG, 4), BatchGames(CONFIG, 4)
    for seeds in ((list(range(4)), list(range(4, 8))), (7, 8)):
        first.reset(seeds[0])
        second.reset(seeds[1])
        seen: list[set[int]] = [set(), set()]
        rng = np.random.default_rng(0)
        for _ in range(300):
            for index, games in enumerate((first, second)):
                seen[index] |= set(np.array(games.seeds).tolist())
                games.step(games.random_actions(rng))
        assert len(seen[0]) > 8 and not seen[0] & seen[1]


def test_the_wrappers_take_the_librarys_seeds_where_gymnasium_refuses_them() -> None:
    """Any integer, negative or numpy, taken mod ``2**64`` (the library's policy): Gymnasium's
    own ``reset`` sees the seed so taken, and the environment's ``np_random`` follows it."""
    vector, single = BottleImpVectorEnv(CONFIG, 2), BottleImpEnv(CONFIG)
    for env in (vector, single):
        negative = env.reset(seed=-1)
        wrapped = env.reset(seed=2**64 - 1)
        assert data_equivalence(negative, wrapped, exact=True)
        assert data_equivalence(env.reset(seed=np.int64(5)), env.reset(seed=5), exact=True)
    assert (single.reset(seed=np.uint64(7))[0]["observation"]
            == BottleImpEnv(CONFIG).reset(seed=7)[0]["observation"]).all()

"""The batch engine (bottleimp.batch) against the reference: the same deals bit for bit, the
same legal-action masks and observations at every state of games of every variant, the perft
counts of spec/conformance/perft, the conformance cases through its protocol peer, records that
validate, and a core that still imports without numpy."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from attrs import evolve

import bottleimp
from bottleimp import Config, IllegalActionError
from bottleimp.actions import Destination
from bottleimp.batch import BatchError, BatchGames
from bottleimp.batch.backends import BACKENDS, backend_missing, batch_games
from bottleimp.batch.check import VARIANTS, Mismatch, compare_games
from bottleimp.batch.perft import perft_counts
from bottleimp.batch.records import RecordingGames
from bottleimp.batch.shuffle import game_seeds, shuffle_many, shuffle_one
from bottleimp.encoding import setup_destinations
from bottleimp.formats.config_json import config_from_json
from bottleimp.rules.deal import shuffle
from bottleimp.validation.replay import validate_json

ROOT = Path(__file__).resolve().parent.parent


ON_THE_KERNEL = pytest.mark.xdist_group("numba-kernel")
"""Every test that runs the compiled backend goes to one pytest-xdist worker: the first one
compiles the kernel and writes numba's cache, the later ones load it. Spread over two workers,
both compiled it at the same time, as numba writes the cache only once a compile is done."""


def skip_without_numba() -> None:
    """Skip, saying why, where the compiled backend cannot run. Asked when a test runs, not in a
    ``skipif`` at collection: asking imports numba (about half a second), which only the worker
    that runs the kernel's group needs."""
    missing = backend_missing("numba")
    if missing:
        pytest.skip(missing)


@pytest.fixture(params=[pytest.param(name, marks=ON_THE_KERNEL) if name == "numba" else name
                        for name in BACKENDS])
def backend(request: pytest.FixtureRequest) -> str:
    """Each test that takes it runs on every backend: ``numpy`` (the readable array engine) and
    ``numba`` (its compiled kernel; skipped, saying why, where numba is not installed: the
    ``test`` extra installs it, so CI runs both)."""
    name: str = request.param
    if name == "numba":
        skip_without_numba()
    return name

@pytest.mark.parametrize("config", VARIANTS, ids=repr)
def test_masks_observations_and_totals_equal_the_reference_at_every_state(config: Config, backend: str) -> None:
    short = config if config.target_score is not None else evolve(config, rounds=1)
    assert compare_games(short, [11, 1011], seed=3, backend=backend) > 40


def test_rounds_past_the_deals_shuffled_ahead_are_dealt_as_the_reference_deals_them(backend: str) -> None:
    # A target score far away: more than the 8 rounds of deals the batch shuffles ahead.
    assert compare_games(Config(players=3, target_score=250), [3], seed=1, backend=backend) > 8 * 42


def test_a_planted_difference_is_reported_with_its_segment(monkeypatch: pytest.MonkeyPatch) -> None:
    from bottleimp.batch import observe

    values = observe.Observer.values

    def wrong(self: observe.Observer, games: BatchGames, observer: np.ndarray, out: np.ndarray) -> None:
        values(self, games, observer, out)
        out[:, self.at["totals"]] += 1.0

    monkeypatch.setattr(observe.Observer, "values", wrong)
    with pytest.raises(Mismatch, match="totals"):
        compare_games(Config(players=3, rounds=1), [1])


def test_deals_are_the_reference_shuffle_bit_for_bit_DEAL_SHUFFLE() -> None:
    cards = Config(players=5).cards
    seeds = [0, 1, 7, 2**64 - 1, 2**63, 123456789123456789] + list(range(100, 140))
    rounds = [0, 3, 1, 7, 2, 100] + list(range(40))
    batch = shuffle_many(len(cards), np.array(seeds, dtype=np.uint64), np.array(rounds))
    for row, seed, round_index in zip(batch, seeds, rounds):
        reference = shuffle(cards, seed, round_index)
        assert [cards[i] for i in row] == list(reference)
        assert [cards[i] for i in shuffle_one(len(cards), seed, round_index)] == list(reference)


def test_reset_deals_every_round_as_new_game_does_negative_seeds_too(backend: str) -> None:
    config = Config(players=4)
    games = batch_games(config, 3, backend=backend)
    games.reset([-5, 2**70 + 3, 9], first_dealer=[1, 2, 3])
    for game, (seed, dealer) in enumerate([(-5, 1), (2**70 + 3, 2), (9, 3)]):
        state = bottleimp.new_game(config, seed, first_dealer=dealer)
        for seat in range(4):
            held = {config.cards[i] for i in np.flatnonzero(games.hand[game, seat])}
            assert held == set(state.round.hands[seat])


def test_auto_reset_restarts_an_ended_game_with_the_slots_next_seed_and_dealer_and_rewards_the_winners(backend: str) -> None:
    """Slot ``b``'s game 1 has the seed ``game_seeds`` draws from the slot's key (not ``seed +
    B``, another slot's first seed) and the next first dealer (FIRST-DEALER, rotated); the
    ended game's totals and last observation are in the infos."""
    config = Config(players=3, rounds=1)
    games = batch_games(config, 2, backend=backend)
    games.reset([4, 5])
    rng = np.random.default_rng(0)
    ended = None
    for _ in range(200):
        totals = games.totals.copy()
        result = games.step(games.random_actions(rng))
        if result.done.any():
            ended = int(np.flatnonzero(result.done)[0])
            break
    assert ended is not None
    assert set(result.rewards[ended].tolist()) <= {1.0, -1.0} and 1.0 in result.rewards[ended]
    final = result.infos["final_info"]["totals"][ended]
    assert result.infos["_final_obs"][ended] and final.sum() != 0
    assert (final >= totals[ended]).all() or (final != totals[ended]).any()
    assert games.phase[ended] == 0 and games.totals[ended].sum() == 0
    seed = int(game_seeds(games.base_seeds[[ended]], games.slot_keys[[ended]], np.array([1]))[0])
    assert seed not in (4, 5, 6, 7) and int(games.seeds[ended]) == seed
    state = bottleimp.new_game(config, seed, first_dealer=1)
    for seat in range(3):
        held = {config.cards[i] for i in np.flatnonzero(games.hand[ended, seat])}
        assert held == set(state.round.hands[seat])


def test_an_illegal_action_raises_with_its_rule_and_changes_no_game(backend: str) -> None:
    config = Config(players=4)
    games = batch_games(config, 2, backend=backend)
    games.reset([1, 2])
    hand = games.hand.copy()
    not_held = int(np.flatnonzero(~games.hand[1, games.to_act[1]])[0])
    first_legal = int(np.flatnonzero(games.legal_mask()[0])[0])
    with pytest.raises(IllegalActionError) as caught:
        games.step([first_legal, not_held])
    assert caught.value.rule_id == "SETUP-FROM-DEALT"
    assert (games.hand == hand).all() and games.setup_given.sum() == 0
    with pytest.raises(IllegalActionError) as caught:
        games.step([first_legal, 3 * len(config.cards)])
    assert caught.value.rule_id == "PHASE"


def test_bad_batch_input_is_a_batch_error_naming_it(backend: str) -> None:
    games = batch_games(Config(players=3), 2, backend=backend)
    with pytest.raises(BatchError, match="seeds must hold 2 values"):
        games.reset([1, 2, 3])
    with pytest.raises(BatchError, match="first_dealer: 3 .* no seat"):
        games.reset([1, 2], first_dealer=3)
    with pytest.raises(BatchError, match="first_dealer must hold 2"):
        games.reset([1, 2], first_dealer=[0, 1, 2])
    games.reset([1, 2])
    with pytest.raises(BatchError, match="actions must hold 2 values"):
        games.step([0])
    with pytest.raises(BatchError, match="batch_size"):
        batch_games(Config(players=3), 0, backend=backend)


def test_copies_taken_from_a_batch_play_on_as_the_originals(backend: str) -> None:
    games = batch_games(Config(players=3), 2, backend=backend)
    games.reset([5, 6])
    rng = np.random.default_rng(2)
    for _ in range(40):  # into trick play
        games.step([rng.choice(np.flatnonzero(row)) for row in games.legal_mask()])
    copies = games.take([1, 0, 1])
    for _ in range(30):
        actions = [rng.choice(np.flatnonzero(row)) for row in games.legal_mask()]
        games.step(actions)
        copies.step([actions[1], actions[0], actions[1]])
        assert (copies.observe() == games.observe()[[1, 0, 1]]).all()
        assert (copies.legal_mask() == games.legal_mask()[[1, 0, 1]]).all()


def test_observations_are_read_only_so_a_caller_cannot_spoil_the_next_ones(backend: str) -> None:
    # The compiled backend never rewrites the cells that are zero in every observation.
    games = batch_games(Config(players=4), 2, backend=backend)
    games.reset([1, 2])
    seen = games.observe()
    with pytest.raises(ValueError, match="read-only"):
        seen[0, 0] = 5.0
    kept = seen.copy()
    kept[0, 0] = 5.0
    assert games.observe()[0, 0] != 5.0


@pytest.mark.parametrize("config", [Config(players=4, rounds=1), Config(players=2, rounds=1)],
                         ids=repr)
def test_the_compact_observation_is_the_float_ones_0_1_cells_in_bytes(config: Config, backend: str) -> None:
    """``compact=True``: ``uint8`` in the same layout, every 0/1 cell equal to the float32
    observation's, the value cells 0, and ``observe_values`` the float32 value cells, at every
    step of games played through their ends."""
    from bottleimp.batch.games import VALUE_SEGMENTS
    from bottleimp.encoding import observation_layout

    values = np.zeros(sum(segment.size for segment in observation_layout(config)), dtype=np.bool_)
    for segment in observation_layout(config):
        if segment.name in VALUE_SEGMENTS:
            values[segment.offset:segment.offset + segment.size] = True
    compact = batch_games(config, 8, backend=backend, compact=True)
    wide = batch_games(config, 8, backend=backend)
    for games in (compact, wide):
        games.reset(np.arange(8))
    rng = np.random.default_rng(4)
    for step in range(160):
        small, full = compact.observe(), wide.observe()
        assert small.dtype == np.uint8 and small.shape == full.shape
        assert (small[:, ~values] == full[:, ~values]).all() and not small[:, values].any(), step
        assert (compact.observe_values() == full[:, values]).all(), step
        seats = (compact.to_act + 1) % config.players
        assert (compact.observe(seats)[:, ~values] == wide.observe(seats)[:, ~values]).all()
        actions = compact.random_actions(rng)
        compact.step(actions)
        wide.step(actions)


def _position(config: Config, case: Any, backend: str) -> BatchGames:
    games = batch_games(config, 1, backend=backend, autoreset=False, observations=False)
    input_ = case["input"]
    n = len(config.cards)
    index = {card.rank: i for i, card in enumerate(config.cards)}

    def plane(rows: Any) -> np.ndarray:
        out = np.zeros((config.players, n), dtype=np.bool_)
        for seat, row in enumerate(rows or []):
            out[seat, [index[rank] for rank in row]] = True
        return out

    games.load_round(0, int(input_["dealer"]), plane(input_["hands"]),
                     plane(input_.get("face_up")))
    for action in input_["actions"]:
        games.step([_number(config, action)])
    return games


def _number(config: Config, action: Any) -> int:
    card = [c.rank for c in config.cards].index(action["card"])
    if action["type"] == "play":
        return 3 * len(config.cards) + card
    block = setup_destinations(config).index(Destination(action["to"]))
    return block * len(config.cards) + card


def _perft_cases() -> list[tuple[Config, Any]]:
    data = json.loads((ROOT / "spec" / "conformance" / "perft" / "counts.json").read_text())
    return [(config_from_json(group["config"], "$"), case)
            for group in data["groups"] for case in group["cases"]]


@pytest.mark.parametrize("config, case", _perft_cases(), ids=lambda v: getattr(v, "players", ""))
def test_perft_counts_equal_the_stored_counts(config: Config, case: Any, backend: str) -> None:
    expected = case["expected"]
    assert isinstance(expected, dict)
    position = _position(config, case, backend)
    depths = {int(depth): count for depth, count in expected["depths"].items()}
    deepest = max(depths)
    counts, _ = perft_counts(position, deepest)
    assert {depth: counts[depth - 1] for depth in depths} == depths
    if expected.get("round") is not None:
        counts, _ = perft_counts(position, int(expected["remaining"]))
        assert counts[-1] == expected["round"]
    divide = expected.get("divide")
    if divide is not None:
        assert isinstance(divide, dict)
        _, under = perft_counts(position, int(divide["depth"]))
        wanted = {_number(config, item["action"]): item["count"]
                  for item in divide["counts"]}
        assert {a: c for a, c in enumerate(under) if c} == wanted


@pytest.mark.parametrize("config", [Config(players=2, rounds=1), Config(players=5, bottles=2, rounds=2),
                                    Config(players=4, teams=((0, 2), (1, 3)), target_score=30)],
                         ids=repr)
def test_records_of_batch_games_validate(config: Config, backend: str) -> None:
    games = RecordingGames(batch_games(config, 2, backend=backend, autoreset=False))
    games.reset([8, 9])
    rng = np.random.default_rng(1)
    steps = 0
    while (games.games.phase != 3).any():
        mask = games.games.legal_mask()
        games.step([rng.choice(np.flatnonzero(row)) if row.any() else 0 for row in mask])
        steps += 1
        if steps == 7:  # a record cut during the setup validates too
            report = validate_json(games.records()[0])
            assert report.valid, report
    for record in games.records():
        report = validate_json(record)
        assert report.valid and report.complete, report


def test_importing_bottleimp_does_not_import_numpy() -> None:
    code = "import sys, bottleimp; sys.exit('numpy' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], cwd=ROOT).returncode == 0


def test_a_backend_that_cannot_run_is_a_clear_error_never_a_traceback() -> None:
    with pytest.raises(BatchError, match="unknown batch backend 'jax'"):
        batch_games(Config(players=3), 2, backend="jax")
    # Without numba (its import blocked): the library names the package.
    code = ("import sys; sys.modules['numba'] = None\n"
            "import bottleimp\n"
            "from bottleimp.batch import BatchError\n"
            "from bottleimp.batch.backends import batch_games\n"
            "try:\n"
            "    batch_games(bottleimp.Config(players=3), 2, backend='numba')\n"
            "except BatchError as error:\n"
            "    print(error)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         input="")
    assert "needs numba, which is not installed: pip install 'bottleimp[batch-fast]'" in run.stdout
    assert "Traceback" not in run.stderr


@ON_THE_KERNEL
def test_each_kernel_function_is_compiled_once_whatever_arrays_the_caller_gives() -> None:
    """Every array a caller gives reaches the kernel writable and C-contiguous (``kernel_ints``),
    so numba compiles each entry point once per configuration, whatever the caller passes (a
    read-only broadcast of the seats, a caller's frozen array or a list of actions, numpy
    integers of another width), whether games end by the rules or by an illegal action, restart
    by auto-reset or by a partial reset, or are copied: a second compile costs seconds."""
    skip_without_numba()
    from bottleimp.batch import kernel

    config = Config(players=3, rounds=1)
    games = batch_games(config, 4, backend="numba", illegal="end")
    games.reset(np.arange(4))
    for seats in (None, 1, np.array([0, 1, 2, 0]), np.arange(4) % 3, [2, 2, 1, 0],
                  np.int32(2), np.array([0, 1, 2, 0], dtype=np.uint8)):
        games.observe(seats)
    rng = np.random.default_rng(0)
    games.step(games.random_actions(rng).copy())
    frozen = games.random_actions(rng).copy()
    frozen.flags.writeable = False
    games.step(frozen)
    games.step(games.random_actions(rng)[::-1][::-1].tolist())
    games.step(games.random_actions(np.random.RandomState(1)).astype(np.int32))
    illegal = games.random_actions(rng)
    illegal[1] = 4 * len(config.cards) + 9
    games.step(illegal)
    games.reset([5, 6], games=[0, 2])
    games.reset(games=np.array([False, True, False, True]))
    copy = games.take([3, 3, 0])
    for _ in range(120):
        games.step(games.random_actions(rng))
        copy.step(copy.random_actions(rng))
    entry_points = (kernel.start_games, kernel.masks, kernel.observe, kernel.random_actions,
                    kernel.step)
    for function in entry_points:
        compiled: list[Any] = getattr(function, "signatures")  # numba's dispatcher
        if function in (kernel.observe, kernel.step):  # one more for the compact observation
            kinds = [str(signature[6 if function is kernel.observe else 13].dtype)
                     for signature in compiled]
            assert "float32" in kinds and sorted(set(kinds)) == sorted(kinds), compiled
        else:
            assert len(compiled) == 1, (function, compiled)


@ON_THE_KERNEL
@pytest.mark.parametrize("players", [2, 4, 6])
def test_both_backends_pick_the_same_legal_actions_from_the_same_generator(players: int) -> None:
    """``random_actions``: legal action ``floor(u * count)`` in ascending order, the numpy way
    and the kernel's (which counts from the row's end), the same in every game at every step of
    games played to their ends and reset."""
    skip_without_numba()
    config = Config(players=players, rounds=1)
    games = {backend: batch_games(config, 64, backend=backend) for backend in BACKENDS}
    rngs = {backend: np.random.default_rng(5) for backend in BACKENDS}
    for batch in games.values():
        batch.reset(np.arange(64))
    for _ in range(150):
        chosen = {backend: batch.random_actions(rngs[backend]) for backend, batch in games.items()}
        legacy = {backend: batch.random_actions(np.random.RandomState(len(chosen["numpy"])))
                  for backend, batch in games.items()}
        assert (legacy["numpy"] == legacy["numba"]).all()
        assert (chosen["numpy"] == chosen["numba"]).all()
        mask = games["numpy"].legal_mask()
        assert mask[np.arange(64), chosen["numpy"]].all()
        for backend, batch in games.items():
            batch.step(chosen[backend])


@ON_THE_KERNEL
@pytest.mark.parametrize("config", [Config(players=2, rounds=1), Config(players=4, rounds=1),
                                    Config(players=5, bottles=2, rounds=1),
                                    Config(players=4, edition="matagot-2024", rounds=1)], ids=repr)
def test_both_backends_give_the_same_masks_observations_rewards_and_infos_at_every_step(config: Config) -> None:
    """The compiled backend's masks (with the legal sets its random choice reads), observations
    of the seat to act and of other seats, and everything ``step`` returns (observation,
    rewards, terminated, truncated, infos with the final observations, totals and scores:
    values, shapes and dtypes) equal the numpy backend's at every step of games played to their ends and restarted (``check.py`` compares the numpy
    backend with the reference, without auto-reset)."""
    skip_without_numba()
    from gymnasium.utils.env_checker import data_equivalence

    games = {backend: batch_games(config, 32, backend=backend) for backend in BACKENDS}
    rng = np.random.default_rng(7)
    for batch in games.values():
        batch.reset(np.arange(32) + 3, first_dealer=np.arange(32) % config.players)
    restarted = 0
    for step in range(300):
        numpy_games, numba_games = games["numpy"], games["numba"]
        assert (numpy_games.legal_mask() == numba_games.legal_mask()).all(), step
        assert (numpy_games.observe() == numba_games.observe()).all(), step
        if step % 7 == 0:
            seats = (numpy_games.to_act + 1 + step) % config.players
            assert (numpy_games.observe(seats) == numba_games.observe(seats)).all(), step
            assert (numpy_games.observe() == numba_games.observe()).all(), step
        actions = numpy_games.random_actions(rng).copy()
        results = [batch.step(actions) for batch in games.values()]
        for got, expected in zip(results[1], results[0]):  # observation, rewards, ..., infos
            assert data_equivalence(got, expected, exact=True), step
        restarted += int(results[0].done.sum())
    assert restarted > 0


@ON_THE_KERNEL
def test_a_batch_of_more_than_one_chunk_steps_as_the_numpy_backend_in_every_chunk() -> None:
    """The compiled step takes, masks and observes ``STEP_CHUNK`` games at a time: a batch of
    one chunk and a part (4 players, one round, to its end) gives the numpy backend's masks,
    observations, rewards and ends at every step, in the games of the second chunk too."""
    skip_without_numba()
    from bottleimp.batch.kernel import STEP_CHUNK
    from bottleimp.batch.tables import GAME_OVER

    size, config = STEP_CHUNK + 44, Config(players=4, rounds=1)
    games = {backend: batch_games(config, size, backend=backend, autoreset=False)
             for backend in BACKENDS}
    for batch in games.values():
        batch.reset(np.arange(size))
    rng = np.random.default_rng(5)
    numpy_games, numba_games = games["numpy"], games["numba"]
    steps = 0
    while not (numpy_games.phase == GAME_OVER).all():
        assert (numpy_games.legal_mask() == numba_games.legal_mask()).all(), steps
        actions = numpy_games.random_actions(rng).copy()
        (numpy_obs, numpy_rewards, numpy_done, _, _), (numba_obs, numba_rewards, numba_done, _, _) = (
            batch.step(actions) for batch in (numpy_games, numba_games))
        assert (numpy_obs == numba_obs).all(), steps
        assert (numpy_rewards == numba_rewards).all() and (numpy_done == numba_done).all(), steps
        steps += 1
    assert (numba_games.phase == GAME_OVER).all() and steps > 40

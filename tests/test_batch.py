"""The batch engine (bottleimp.batch) against the reference: the same deals bit for bit, the
same legal-action masks, observations and rewards at every state of games of every variant (the
kernel compiled, and as plain Python under ``NUMBA_DISABLE_JIT``), the perft counts of
spec/conformance/perft, records that validate, the same results on 1 thread and on N, memory
computed before it is taken and flat over one-game resets, and a core that still imports
without numpy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from attrs import evolve

import bottleimp
from bottleimp import Config, IllegalActionError
from bottleimp._actions import Destination
from bottleimp.batch import BatchError, BatchGames, bytes_per_game
from bottleimp.batch import _kernel as kernel
from bottleimp.batch.check import VARIANTS, Mismatch, compare_games
from bottleimp.batch._engine import fixed_bytes
from bottleimp.batch._perft import perft_counts
from bottleimp.batch._records import RecordingGames
from bottleimp.batch._shuffle import game_seeds
from bottleimp._encoding import setup_destinations
from bottleimp.formats._config_json import config_from_json
from bottleimp.rules.deal import shuffle
from bottleimp.validation._replay import validate_json
from depth import scaled

ROOT = Path(__file__).resolve().parent.parent


ON_THE_KERNEL = pytest.mark.xdist_group("numba-kernel")
"""Every test that runs the compiled kernel goes to one pytest-xdist worker: the first one
compiles the kernel and writes numba's cache, the later ones load it. Spread over two workers,
both compiled it at the same time, as numba writes the cache only once a compile is done."""
pytestmark = ON_THE_KERNEL


def batch_games(config: Config, size: int, **options: Any) -> BatchGames:
    """A batch (``BatchGames``), as the tests make them."""
    return BatchGames(config, size, **options)


@pytest.mark.parametrize("config", VARIANTS, ids=repr)
def test_masks_observations_rewards_and_totals_equal_the_reference_at_every_state(config: Config) -> None:
    short = config if config.target_score is not None else evolve(config, rounds=1)
    assert compare_games(short, [11, 1011], seed=3) > 40


def test_many_rounds_are_dealt_as_the_reference_deals_them() -> None:
    assert compare_games(Config(players=3, target_score=250), [3], seed=1) > 8 * 42


def test_a_planted_difference_is_reported_with_its_segment(monkeypatch: pytest.MonkeyPatch) -> None:
    observe = BatchGames.observe

    def wrong(self: BatchGames, seats: object = None) -> np.ndarray:
        out = np.array(observe(self, seats))
        out[:, self._observer.at["totals"]] += 1.0
        return out

    monkeypatch.setattr(BatchGames, "observe", wrong)
    with pytest.raises(Mismatch, match="totals"):
        compare_games(Config(players=3, rounds=1), [1])


def test_a_planted_reward_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    step = BatchGames.step

    def wrong(self: BatchGames, actions: object) -> Any:
        result = step(self, actions)
        rewards = result.rewards.copy()
        rewards[result.done] *= -1.0
        return result._replace(rewards=rewards)

    monkeypatch.setattr(BatchGames, "step", wrong)
    with pytest.raises(Mismatch, match="rewards"):
        compare_games(Config(players=3, rounds=1), [1])


def test_the_kernel_as_plain_python_agrees_with_the_reference_on_every_variant() -> None:
    """``NUMBA_DISABLE_JIT=1``: the kernel's functions run as plain Python (to step through in a
    debugger) and ``python -m bottleimp.batch.check`` finds them equal to the reference on one
    game of every variant."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run([sys.executable, "-c", (
        "import sys; from bottleimp.batch import _kernel as kernel, check; assert not kernel.COMPILED; "
        "sys.exit(check.main(['--games', '1', '--batch', '1', '--seed', '4']))")],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=1200)
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(run.stdout.splitlines()) == len(VARIANTS) + 1
    assert "states: masks, observations" in run.stdout


def test_deals_are_the_reference_shuffle_bit_for_bit_DEAL_SHUFFLE() -> None:
    cards = Config(players=5).cards
    seeds = [0, 1, 7, 2**64 - 1, 2**63, 123456789123456789] + list(range(100, 140))
    rounds = [0, 3, 1, 7, 2, 100] + list(range(40))
    order = np.zeros(len(cards), dtype=np.int64)
    for seed, round_index in zip(seeds, rounds):
        kernel.shuffle_into(order, len(cards), np.uint64(seed), round_index)
        assert [cards[i] for i in order] == list(shuffle(cards, seed, round_index))


def test_reset_deals_every_round_as_new_game_does_negative_seeds_too() -> None:
    config = Config(players=4)
    games = batch_games(config, 3)
    games.reset([-5, 2**70 + 3, 9], first_dealer=[1, 2, 3])
    for game, (seed, dealer) in enumerate([(-5, 1), (2**70 + 3, 2), (9, 3)]):
        state = bottleimp.new_game(config, seed, first_dealer=dealer)
        for seat in range(4):
            held = {config.cards[i] for i in np.flatnonzero(games.hand[game, seat])}
            assert held == set(state.round.hands[seat])


def test_auto_reset_restarts_an_ended_game_with_the_slots_next_seed_and_dealer_and_rewards_the_winners() -> None:
    """Slot ``b``'s game 1 has the seed ``game_seeds`` draws from the slot's key (not ``seed +
    B``, another slot's first seed) and the next first dealer (FIRST-DEALER, rotated); the
    ended game's totals and last observation are in the infos."""
    config = Config(players=3, rounds=1)
    games = batch_games(config, 2)
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


def test_an_illegal_action_raises_with_its_rule_and_changes_no_game() -> None:
    config = Config(players=4)
    games = batch_games(config, 2)
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


def test_bad_batch_input_is_a_batch_error_naming_it() -> None:
    games = batch_games(Config(players=3), 2)
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
        batch_games(Config(players=3), 0)


def test_copies_taken_from_a_batch_play_on_as_the_originals() -> None:
    games = batch_games(Config(players=3), 2)
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


def test_observations_are_read_only_so_a_caller_cannot_spoil_the_next_ones() -> None:
    # The kernel never rewrites the cells that are zero in every observation.
    games = batch_games(Config(players=4), 2)
    games.reset([1, 2])
    seen = games.observe()
    with pytest.raises(ValueError, match="read-only"):
        seen[0, 0] = 5.0
    kept = seen.copy()
    kept[0, 0] = 5.0
    assert games.observe()[0, 0] != 5.0


@pytest.mark.parametrize("config", [Config(players=4, rounds=1), Config(players=2, rounds=1)],
                         ids=repr)
def test_the_compact_observation_is_the_float_ones_0_1_cells_in_bytes(config: Config) -> None:
    """``compact=True``: ``uint8`` in the same layout, every 0/1 cell equal to the float32
    observation's, the value cells 0, and ``observe_values`` the float32 value cells, at every
    step of games played through their ends."""
    from bottleimp.batch._engine import VALUE_SEGMENTS
    from bottleimp._encoding import observation_layout

    values = np.zeros(sum(segment.size for segment in observation_layout(config)), dtype=np.bool_)
    for segment in observation_layout(config):
        if segment.name in VALUE_SEGMENTS:
            values[segment.offset:segment.offset + segment.size] = True
    compact = batch_games(config, 8, compact=True)
    wide = batch_games(config, 8)
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


def _position(config: Config, case: Any) -> BatchGames:
    games = batch_games(config, 1, autoreset=False, observations=False)
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
def test_perft_counts_equal_the_stored_counts(config: Config, case: Any) -> None:
    expected = case["expected"]
    assert isinstance(expected, dict)
    position = _position(config, case)
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
def test_records_of_batch_games_validate(config: Config) -> None:
    games = RecordingGames(batch_games(config, 2, autoreset=False))
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


def test_without_numba_the_batch_engine_says_what_to_install() -> None:
    code = ("import sys; sys.modules['numba'] = None\n"
            "import bottleimp\n"
            "try:\n"
            "    import bottleimp.batch\n"
            "except ImportError as error:\n"
            "    print(error)\n")
    run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert "bottleimp.batch needs numpy and numba (numba is not installed): pip install " \
           "'bottleimp[batch]'" in run.stdout


def test_each_kernel_function_is_compiled_once_whatever_arrays_the_caller_gives() -> None:
    """Every array a caller gives reaches the kernel writable and C-contiguous (``kernel_ints``),
    so numba compiles each entry point once per configuration, whatever the caller passes (a
    read-only broadcast of the seats, a caller's frozen array or a list of actions, numpy
    integers of another width), whether games end by the rules or by an illegal action, restart
    by auto-reset or by a partial reset, or are copied: a second compile costs seconds."""
    if not kernel.COMPILED:
        pytest.skip("NUMBA_DISABLE_JIT: nothing is compiled")
    config = Config(players=3, rounds=1)
    games = batch_games(config, 4, illegal="end")
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
            kinds = [str(signature[3 if function is kernel.observe else 2].dtype)
                     for signature in compiled]
            assert "float32" in kinds and sorted(set(kinds)) == sorted(kinds), compiled
        else:
            assert len(compiled) == 1, (function, compiled)


def test_copy_items_counts_both_offsets_in_items_compiled_and_as_plain_python() -> None:
    """``kernel.copy_items`` moves ``count`` items from item ``src_at`` to item ``dst_at``, for
    arrays of bytes and of 64-bit integers alike, compiled as in its plain-Python fallback (a
    source offset counted in bytes would copy the wrong int64 items)."""
    if not kernel.COMPILED:
        pytest.skip("NUMBA_DISABLE_JIT: the fallback is the only copy")
    import numba

    @numba.njit(cache=False)
    def compiled(dst: Any, dst_at: int, src: Any, src_at: int, count: int) -> None:
        kernel.copy_items(dst, dst_at, src, src_at, count)

    for dtype in (np.bool_, np.uint8, np.int64):
        source = (np.arange(24) % 7 > 2 if dtype is np.bool_ else np.arange(24)).astype(dtype)
        source = source.reshape(4, 6)
        ours, reference = np.zeros_like(source), np.zeros_like(source)
        compiled(ours, 7, source, 13, 5)
        kernel._copy_items_python(reference, 7, source, 13, 5)
        assert ours.tolist() == reference.tolist(), dtype
        assert reference.reshape(-1)[7:12].tolist() == source.reshape(-1)[13:18].tolist()


def test_pack_cards_sets_bit_card_and_unpack_cards_undoes_it() -> None:
    """``pack_cards``: a word per row, bit ``card`` set where the row is True (from 1 to 64
    cards, the highest bit included); ``unpack_cards`` gives the planes back."""
    from bottleimp.batch._engine import pack_cards, unpack_cards

    rng = np.random.default_rng(0)
    for n in (1, 7, 8, 9, 36, 54, 63, 64):
        plane = rng.random((3, 2, n)) < 0.5
        plane[0, 0, n - 1] = True
        words = pack_cards(plane)
        assert words.dtype == np.uint64 and words.shape == (3, 2)
        for index in np.ndindex(3, 2):
            assert int(words[index]) == sum(1 << int(card) for card in np.flatnonzero(plane[index]))
        assert (unpack_cards(words, n) == plane).all()


def test_put_word_writes_bit_i_to_cell_i_compiled_and_as_plain_python() -> None:
    """``kernel.put_word`` writes bits ``0 .. count - 1`` of a word as 0/1 cells from item
    ``dst_at`` on, into float32 and into bytes, for every count from 0 to 64 (whole groups of 8
    and the rest) and the highest bit, compiled as in its plain-Python fallback; the cells
    around are left as they were."""
    words = [np.uint64(0), np.uint64(0xFFFFFFFFFFFFFFFF), np.uint64(0x8000000000000001),
             np.uint64(0x0123456789ABCDEF), np.uint64(0xA5A5A5A5A5A5A5A5)]
    writers = [kernel._put_word_python]
    if kernel.COMPILED:
        import numba

        @numba.njit(cache=False)
        def compiled(dst: Any, dst_at: int, word: np.uint64, count: int) -> None:
            kernel.put_word(dst, dst_at, word, count)

        writers.append(compiled)
    for dtype in (np.float32, np.uint8):
        for word in words:
            for count in range(65):
                expected = np.full((2, 40), 7, dtype=dtype)
                expected.reshape(-1)[3:3 + count] = [(int(word) >> i) & 1 for i in range(count)]
                for write in writers:
                    out = np.full((2, 40), 7, dtype=dtype)
                    write(out, 3, word, count)
                    assert out.tolist() == expected.tolist(), (write, dtype, hex(word), count)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_actions_pick_legal_action_floor_u_times_count_in_ascending_order(players: int) -> None:
    """``random_actions``: legal action ``floor(u * count)`` of the mask's row in ascending
    order, from the generator's ``B`` uniforms, at every step of games played to their ends
    and reset (the kernel reads the legal sets it wrote beside the mask, not the mask)."""
    config = Config(players=players, rounds=1)
    games = batch_games(config, 64)
    games.reset(np.arange(64))
    for step in range(150):
        uniforms = np.random.default_rng(step).random(64)
        chosen = games.random_actions(np.random.default_rng(step))
        mask = games.legal_mask()
        for game in range(64):
            legal = np.flatnonzero(mask[game])
            assert chosen[game] == legal[int(uniforms[game] * len(legal))], (step, game)
        games.step(chosen)


def _every_byte(games: BatchGames) -> list[bytes]:
    return [np.ascontiguousarray(getattr(games, name)).tobytes() for name in games._FIELDS]


def test_a_games_result_is_byte_identical_on_one_thread_and_on_every_core() -> None:
    """Chunks of games run in parallel: a batch of three chunks and a part stepped on one thread
    and on every core (``threads``) holds the same bytes in every state array, mask, observation
    and step result at every step, through games that end and restart."""
    from gymnasium.utils.env_checker import data_equivalence

    most = int(__import__("numba").config.NUMBA_NUM_THREADS)
    if most < 2:
        pytest.skip("numba sees one core")
    size, config = 3 * kernel.STEP_CHUNK + 44, Config(players=4, rounds=1)
    one, every = batch_games(config, size, threads=1), batch_games(config, size, threads=most)
    assert (one.threads, every.threads) == (1, most)
    for games in (one, every):
        games.reset(np.random.SeedSequence(9))
    rng = np.random.default_rng(5)
    ended = 0
    for step in range(220):
        actions = one.random_actions(rng)
        results = one.step(actions), every.step(actions)
        assert data_equivalence(results[0], results[1], exact=True), step
        assert _every_byte(one) == _every_byte(every), step
        assert one.legal_mask().tobytes() == every.legal_mask().tobytes(), step
        ended += int(results[0].done.sum())
    assert ended > size


def test_the_workers_take_part_in_the_steps_of_a_batch_on_two_threads() -> None:
    """A batch on two threads steps with the process's worker (``_workers.py``): over steps of
    a batch of many chunks, the worker does some of them (``control[BY_WORKERS]``), and the
    calling thread never waits for one: one thread's batch leaves that count alone."""
    from bottleimp.batch import _workers

    if not kernel.COMPILED:
        pytest.skip("NUMBA_DISABLE_JIT: every job runs on the calling thread")
    if int(__import__("numba").config.NUMBA_NUM_THREADS) < 2:
        pytest.skip("numba sees one core")
    control = _workers.shared().control
    rng = np.random.default_rng(3)
    alone = batch_games(Config(players=4), 64 * kernel.STEP_CHUNK, threads=1)
    alone.reset(np.arange(alone.size))
    before = int(control[kernel.BY_WORKERS])
    for _ in range(20):
        alone.step(alone.random_actions(rng))
    assert int(control[kernel.BY_WORKERS]) == before
    games = batch_games(Config(players=4), 64 * kernel.STEP_CHUNK, threads=2)
    games.reset(np.arange(games.size))
    deadline = time.monotonic() + 120  # a worker's first job may wait for numba to compile
    while int(control[kernel.BY_WORKERS]) == before and time.monotonic() < deadline:
        games.step(games.random_actions(rng))
    assert int(control[kernel.BY_WORKERS]) > before


def test_after_a_long_wait_for_the_workers_the_next_jobs_run_alone() -> None:
    """A job whose caller waited long for the workers (``WAIT_SECONDS``, and four chunks' time:
    the system paused one) sends the next 64 jobs to the calling thread alone, then the workers
    serve again; a second such wait, twice as many; a job without one, one fewer."""
    from bottleimp.batch import _workers

    if not kernel.COMPILED:
        pytest.skip("NUMBA_DISABLE_JIT: every job runs on the calling thread")
    pool = _workers.Workers()  # a set of its own: its policy, no thread started
    pool._spins, pool._turns_per_second = 1000, 1e9  # a turn a nanosecond
    pool.control[kernel.CHUNKS] = 10**6  # so that four chunks' time is below WAIT_SECONDS
    long = int(1e9 * _workers.WAIT_SECONDS) + 1
    for first, after in ((_workers.FIRST_BACKOFF, 2 * _workers.FIRST_BACKOFF),
                         (2 * _workers.FIRST_BACKOFF, 4 * _workers.FIRST_BACKOFF)):
        assert pool._leased.acquire(blocking=False)
        pool._began = __import__("time").perf_counter()
        pool.control[kernel.WAITED] = long
        pool.release(2)
        assert [pool.lease(2) for _ in range(first)] == [1] * first
        assert pool._backoff == after
    pool._threads = [None] * 3  # type: ignore[list-item]  # as if started: lease starts none
    assert pool.lease(2) == 2
    pool.control[kernel.WAITED] = long - 2
    pool.release(2)
    assert pool._backoff == 4 * _workers.FIRST_BACKOFF - 1 and pool.lease(2) == 2
    pool.release(2)


def test_threads_taking_chunks_of_one_job_take_each_chunk_once() -> None:
    """``kernel.take_chunk``, how the threads of a job share its chunks: three threads each
    taking chunks of their own run from the front, then the others' from the back, take each
    of 30,000 chunks once; a thread that holds the generation before (a worker that woke late)
    takes none, nor does anyone once the runs are empty. In plain Python (no job has workers
    there) the threads take in turn."""
    import threading

    import numba

    def taking(runs: npt.NDArray[np.int64], me: int, generation: int,
               hits: npt.NDArray[np.int64]) -> None:
        workers = len(runs) // kernel.RUN_CELLS
        for other in range(workers):
            run = (me + other) % workers
            chunk = kernel.take_chunk(runs, run, generation, other == 0)
            while chunk >= 0:
                work = chunk
                for step in range(300):  # work enough that the threads take at the same time
                    work = (work * 31 + step) % 1_000_003
                kernel.fetch_add(hits[chunk:chunk + 1], 1 + (work < 0))
                chunk = kernel.take_chunk(runs, run, generation, other == 0)

    take = numba.njit(nogil=True, cache=False)(taking) if kernel.COMPILED else taking
    chunks, generation = 30_000, 5
    runs = np.zeros(3 * kernel.RUN_CELLS, dtype=np.int64)
    runs[::kernel.RUN_CELLS] = [kernel.run_word(generation, w * chunks // 3, (w + 1) * chunks // 3)
                                for w in range(3)]
    hits = np.zeros(chunks, dtype=np.int64)
    take(runs, 0, generation - 1, hits)
    assert hits.sum() == 0
    threads = [threading.Thread(target=take, args=(runs, me, generation, hits))
               for me in range(1, 3)]
    for thread in threads if kernel.COMPILED else ():
        thread.start()
    take(runs, 0, generation, hits)
    for thread in threads if kernel.COMPILED else ():
        thread.join()
    for me in () if kernel.COMPILED else range(1, 3):
        take(runs, me, generation, hits)
    assert hits.min() == hits.max() == 1
    take(runs, 0, generation, hits)
    assert hits.max() == 1
    runs = np.array([kernel.run_word(7, 2, 5)], dtype=np.int64)
    assert [kernel.take_chunk(runs, 0, 7, front) for front in (True, False, True, True)] == [
        2, 4, 3, -1]


def test_a_run_word_holds_the_chunks_of_the_largest_batch() -> None:
    """A run's word keeps its first and end chunk in 16 bits each: the largest batch accepted
    has fewer chunks than that, and a word gives back the generation's low bits and both ends."""
    from bottleimp.batch._engine import MAX_BATCH

    chunks = -(-MAX_BATCH // kernel.STEP_CHUNK)
    assert chunks < 1 << 16
    word = kernel.run_word((1 << 40) + 9, chunks - 1, chunks)
    assert (word >> 32, (word >> 16) & 0xFFFF, word & 0xFFFF) == (9, chunks - 1, chunks)


def test_random_choices_in_parallel_chunks_are_those_of_one_thread() -> None:
    """``random_actions`` chooses ``kernel.STEP_CHUNK`` games at a time, the chunks on every
    thread: a batch of several chunks and a part, given the same uniform numbers, chooses on one
    thread and on every core the legal action ``floor(u * count)`` of each game's mask, in
    ascending order."""
    most = int(__import__("numba").config.NUMBA_NUM_THREADS)
    if most < 2:
        pytest.skip("numba sees one core")
    size, config = 5 * kernel.STEP_CHUNK + 5, Config(players=3)
    one, every = batch_games(config, size, threads=1), batch_games(config, size, threads=most)
    for games in (one, every):
        games.reset(np.arange(size))
    for step in range(12):
        chosen = [games.random_actions(np.random.default_rng(step)) for games in (one, every)]
        assert chosen[0].tolist() == chosen[1].tolist(), step
        uniforms, mask = np.random.default_rng(step).random(size), one.legal_mask()
        assert chosen[0].tolist() == [
            int(np.flatnonzero(row)[int(u * row.sum())]) for u, row in zip(uniforms, mask)], step
        for games in (one, every):
            games.step(chosen[0])
    assert (one.phase == every.phase).all() and (one.totals == every.totals).all()


def test_two_threads_stepping_two_batches_at_once_get_what_each_gets_alone() -> None:
    """One job runs on the workers at a time: two Python threads stepping a batch each on two
    threads at once (one of them then runs alone) end with the bytes each batch has when
    stepped by itself."""
    import threading

    size, config = 9 * kernel.STEP_CHUNK + 3, Config(players=4, rounds=1)

    def play(games: BatchGames, seed: int) -> None:
        rng = np.random.default_rng(seed)
        for _ in range(150):
            games.step(games.random_actions(rng))

    pairs = [[batch_games(config, size, threads=2) for _ in range(2)] for _ in range(2)]
    for seed, (together, alone) in enumerate(pairs):
        together.reset(np.arange(size) + seed)
        alone.reset(np.arange(size) + seed)
    threads = [threading.Thread(target=play, args=(pair[0], seed))
               for seed, pair in enumerate(pairs)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for seed, (together, alone) in enumerate(pairs):
        play(alone, seed)
        assert _every_byte(together) == _every_byte(alone), seed


def _step_in_child(seed: int) -> bytes:
    games = batch_games(Config(players=4, rounds=1), 6 * kernel.STEP_CHUNK, threads=2)
    games.reset(np.arange(games.size) + seed)
    rng = np.random.default_rng(seed)
    for _ in range(60):
        games.step(games.random_actions(rng))
    return b"".join(_every_byte(games))


def test_a_process_forked_after_a_step_starts_workers_of_its_own() -> None:
    """A forked child has none of its parent's threads: the batch's workers start again there
    (``os.register_at_fork``), and a child's steps on two threads give the parent's bytes."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork on this platform")
    expected = _step_in_child(4)  # the parent's workers are running when it forks
    with multiprocessing.get_context("fork").Pool(1) as pool:
        assert pool.apply(_step_in_child, (4,)) == expected


def test_a_game_plays_alike_in_any_chunk_of_a_batch() -> None:
    """Games in the second and third chunks of a large batch play exactly as the same games in
    a batch of their own (seeds, first dealers and actions alike)."""
    size, config = 2 * kernel.STEP_CHUNK + 44, Config(players=4, rounds=1)
    games = batch_games(config, size, autoreset=False)
    games.reset(np.arange(size), first_dealer=np.arange(size) % 4)
    picked = [kernel.STEP_CHUNK + 3, 2 * kernel.STEP_CHUNK + 43]
    alone = [batch_games(config, 1, autoreset=False) for _ in picked]
    for game, single in zip(picked, alone):
        single.reset([game], first_dealer=game % 4)
    rng = np.random.default_rng(5)
    while not (games.phase == 3).all():
        actions = games.random_actions(rng)
        observation = np.array(games.step(actions).observation)
        for game, single in zip(picked, alone):
            got = single.step([actions[game]]).observation
            assert (got[0] == observation[game]).all()
    for game, single in zip(picked, alone):
        assert single.totals[0].tolist() == games.totals[game].tolist()


@pytest.mark.parametrize("config, observations, compact, figure", [
    (Config(players=4), True, False, 4267), (Config(players=4), True, True, 1657),
    (Config(players=4), False, False, 787), (Config(players=6, bottles=2), True, False, 8267),
    (Config(players=6, bottles=2), True, True, 2885),
    (Config(players=6, bottles=2), False, False, 1091)], ids=str)
def test_the_bytes_per_game_of_the_docstring_are_what_a_batch_holds(
        config: Config, observations: bool, compact: bool, figure: int) -> None:
    assert bytes_per_game(config, observations, compact) == figure
    assert f"{figure:,}" in (bottleimp.batch._engine.__doc__ or "")
    for size in (1, 300):
        games = batch_games(config, size, observations=observations, compact=compact)
        games.reset(np.arange(size))
        games.step(games.random_actions(np.random.default_rng(0)))
        assert games.nbytes() == size * figure + fixed_bytes(config, size, observations, compact)


def test_a_batch_past_the_memory_limit_is_refused_before_anything_is_allocated() -> None:
    config = Config(players=6, bottles=2)
    with pytest.raises(BatchError, match=r"batch of 1,048,576 games .* needs [\d,]+ bytes, more "
                                         r"than the memory limit"):
        batch_games(config, 2**20)
    with pytest.raises(BatchError, match="needs 8,278,696 bytes, more than the memory limit of 1,000,000 bytes"):
        batch_games(config, 1000, memory_limit=1_000_000)
    assert batch_games(config, 96, memory_limit=1_000_000).nbytes() <= 1_000_000


def test_memory_is_flat_over_ten_thousand_one_game_resets() -> None:
    """A reset of one game touches only that game and keeps nothing for the others (no deals
    shuffled ahead): over 10,000 one-game resets of a batch of 4,096 (``reset(games=...)``, with
    seeds and without), the batch's arrays and the memory numpy allocates stay as they were."""
    games = batch_games(Config(players=4), 4096)
    games.reset(np.random.SeedSequence(1))
    before = [np.array(getattr(games, name)) for name in games._FIELDS]
    size = games.nbytes()
    games.reset([7], games=[5])
    games.reset(games=[6])
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    for index in range(10_000):
        game = 1 + index * 7919 % 4095
        if index % 2:
            games.reset(games=[game])
        else:
            games.reset([index], games=[game])
    current, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert games.nbytes() == size
    assert current - start < 64 * 1024 and peak - start < 1024 * 1024, (current, peak)
    touched = [name for name, old in zip(games._FIELDS, before)
               if (np.array(getattr(games, name))[:1] != old[:1]).any()]
    assert not touched, touched  # game 0 was never reset


def test_final_observations_kept_by_the_caller_are_never_rewritten() -> None:
    """``infos["final_obs"]``: zeros but at the games that ended, on every step; the batch
    reuses one of its last two such arrays only when nothing else refers to it, so an array
    the caller keeps (or a view of one) holds what it held when it was given."""
    size = 40
    games = batch_games(Config(players=4, rounds=1), size, compact=True)
    games.reset(np.arange(size))
    rng = np.random.default_rng(3)
    kept: list[tuple[npt.NDArray[Any], npt.NDArray[Any]]] = []
    given = 0
    for step in range(1500):
        result = games.step(games.random_actions(rng))
        if not result.infos:
            continue
        given += 1
        final = result.infos["final_obs"]
        ended = result.terminated
        assert final[ended].any(axis=1).all() and not final[~ended].any(), step
        if given % 3 == 0:
            kept.append((final, final.copy()))
        elif given % 3 == 1:
            kept.append((final[np.flatnonzero(ended)[0]], final[np.flatnonzero(ended)[0]].copy()))
    assert given > 20
    for array, copy in kept:
        assert np.array_equal(array, copy)

"""Hostile calls of the batch engine's public API, one case each, run by
``tests/test_batch_hostile.py`` in subprocesses (``python tests/batch_hostile.py BACKEND CASE...``).

Each case makes calls a careless or hostile caller could make and checks what came back: a
``BatchError`` (or ``IllegalActionError``, or numpy's ``ValueError`` for a read-only array)
where the call must be refused, the documented answer where it must be served, and no game
changed by a refused call. A case that finds its call accepted raises ``Accepted``. The runner
prints ``START name`` before a case and ``RESULT name ok`` (or ``RESULT name FAIL why``) after
it, flushed, so a case that kills the process (a signal) or hangs (a watchdog ends the process
after ``CASE_SECONDS``) is the one whose ``START`` has no ``RESULT``.
"""

from __future__ import annotations

import faulthandler
import sys
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

from bottleimp import Config, IllegalActionError
from bottleimp.batch import BatchError, BatchGames
from bottleimp.batch.backends import batch_games

CASE_SECONDS = 60
"""How long one case may run before the watchdog ends the process (a hang)."""

CONFIG = Config(players=4)
B = 3


class Accepted(AssertionError):
    """A call that must be refused was accepted, or a refused call changed a game."""


def refused(call: Callable[[], object], *kinds: type[BaseException],
            case: object = "") -> BaseException:
    """Run ``call``; return what it raised if it is one of ``kinds`` (default ``BatchError``),
    else raise ``Accepted`` naming ``case`` (another exception propagates, failing the case)."""
    try:
        call()
    except kinds or (BatchError,) as caught:
        return caught
    raise Accepted(f"accepted: {case!r}" if case != "" else "accepted")


def fresh(backend: str, **options: Any) -> BatchGames:
    games = batch_games(CONFIG, B, backend=backend, **options)
    games.reset([11, 12, 13])
    return games


def snapshot(games: BatchGames) -> dict[str, np.ndarray]:
    """Every state array, copied (the private arrays' public twins)."""
    return {name: np.array(getattr(games, name)) for name in BatchGames._FIELDS}


def unchanged(games: BatchGames, before: dict[str, np.ndarray]) -> None:
    for name, array in snapshot(games).items():
        if not np.array_equal(array, before[name]):
            raise Accepted(f"a refused call changed {name}")


def into_play(games: BatchGames, seed: int = 0) -> None:
    """Random legal steps until every game is in trick play."""
    rng = np.random.default_rng(seed)
    for _ in range(200):
        if (games.phase == 1).all():
            return
        games.step(games.random_actions(rng))
    raise AssertionError("never reached trick play")


# -- observations --------------------------------------------------------------------------------


def observe_seats_out_of_range(backend: str) -> None:
    games = fresh(backend)
    for seats in (4, 5, 7, 100, -1, 2**62, [0, 1, 4], np.array([0, 100, 1]),
                  np.array([0, 1, -3])):
        refused(lambda: games.observe(seats), case=seats)


def observe_seats_far_out_of_range(backend: str) -> None:
    games = fresh(backend)
    for seats in (10**6, -10**6, [0, 10**6, 1], 10**5):
        refused(lambda: games.observe(seats), case=seats)


def observe_seats_of_the_wrong_type_or_shape(backend: str) -> None:
    games = fresh(backend)
    for seats in (1.0, 1.5, True, np.bool_(True), "1", b"1", 1j, [0, 1], [0, 1, 2, 3],
                  np.zeros((B, 1), dtype=np.int64), np.zeros(B, dtype=np.float64),
                  np.zeros(B, dtype=np.bool_), [0, 1.0, 2], [0, True, 2], object()):
        refused(lambda: games.observe(seats), case=seats)


def observe_numpy_seats_are_accepted(backend: str) -> None:
    games = fresh(backend)
    first = np.array(games.observe(np.int64(2)))
    assert (first == games.observe(np.full(B, 2, dtype=np.int32))).all()
    assert (first == games.observe([2, 2, 2])).all()


def observations_cannot_be_made_writable(backend: str) -> None:
    games = fresh(backend)
    seen = games.observe()
    refused(lambda: seen.__setitem__((0, 0), 5.0), ValueError)
    refused(lambda: setattr(seen.flags, "writeable", True), ValueError)
    view = seen.view()
    refused(lambda: setattr(view.flags, "writeable", True), ValueError)
    refused(lambda: seen[0:1].__setitem__(0, 1.0), ValueError)


def a_changed_copy_of_an_observation_spoils_no_later_one(backend: str) -> None:
    """The step's observation is read-only for good, and a copy of it written all over changes
    nothing the batch shows later (the cells the compiled backend never rewrites included)."""
    games, twin = fresh(backend), fresh(backend)
    rng, rng_twin = np.random.default_rng(3), np.random.default_rng(3)
    for _ in range(60):
        observation = games.step(games.random_actions(rng)).observation
        refused(lambda: observation.__setitem__(0, 7.0), ValueError)
        copied = np.array(observation)
        copied[...] = 7.0
        twin.step(twin.random_actions(rng_twin))
        assert (games.observe() == twin.observe()).all()
        assert (games.observe((games.to_act + 1) % 4) == twin.observe((twin.to_act + 1) % 4)).all()


# -- the state ------------------------------------------------------------------------------------


def public_state_arrays_are_read_only_for_good(backend: str) -> None:
    games = fresh(backend)
    for name in BatchGames._FIELDS:
        array = getattr(games, name)
        if array.size:
            refused(lambda: array.reshape(-1).__setitem__(0, 99), ValueError)
        refused(lambda: setattr(array.flags, "writeable", True), ValueError)
    refused(lambda: games.to_act.__setitem__(0, 99), ValueError)
    refused(lambda: np.copyto(games.hand, True), ValueError)
    games.step(games.random_actions(np.random.default_rng(0)))  # still plays


def a_written_mask_buffer_makes_no_illegal_action_legal(backend: str) -> None:
    games = fresh(backend)
    mask = games.legal_mask()
    refused(lambda: mask.__setitem__((0, 0), True), ValueError)
    refused(lambda: setattr(mask.flags, "writeable", True), ValueError)
    forged = np.array(mask)
    forged[:, :] = True  # the caller's copy says all is legal; the batch does not read it
    seat = int(games.to_act[1])
    not_held = int(np.flatnonzero(~games.hand[1, seat])[0])
    actions = forged.argmax(axis=1)
    actions[1] = not_held
    before = snapshot(games)
    refused(lambda: games.step(actions), IllegalActionError, case=actions)
    unchanged(games, before)


def illegal_actions_change_no_game(backend: str) -> None:
    games = fresh(backend)
    into_play(games)
    n = len(CONFIG.cards)
    legal = games.legal_mask().argmax(axis=1)
    seat = int(games.to_act[2])
    held = np.flatnonzero(games.hand[2, seat] | games.face_up[2, seat])
    not_held = int(np.flatnonzero(~(games.hand[2, seat] | games.face_up[2, seat]))[0])
    for wrong in (3 * n + not_held, -1, 4 * n + 1, 10**9, 0, 4 * n, -(2**62),
                  3 * n + int(held[0]) if not games.legal_mask()[2, 3 * n + held[0]] else -5):
        actions = legal.copy()
        actions[2] = wrong
        before = snapshot(games)
        refused(lambda: games.step(actions), IllegalActionError, case=actions)
        unchanged(games, before)


def illegal_setup_actions_change_no_game(backend: str) -> None:
    games = fresh(backend)
    n = len(CONFIG.cards)
    legal = games.legal_mask().argmax(axis=1)
    seat = int(games.to_act[0])
    not_held = int(np.flatnonzero(~games.hand[0, seat])[0])
    for wrong in (not_held, n + int(legal[0]) % n, 2 * n + not_held, 3 * n + int(legal[0]), 4 * n):
        actions = legal.copy()
        actions[0] = wrong
        before = snapshot(games)
        refused(lambda: games.step(actions), IllegalActionError, case=actions)
        unchanged(games, before)


def an_illegal_action_ends_only_its_game_when_asked(backend: str) -> None:
    games = fresh(backend, illegal="end", autoreset=False)
    legal = games.legal_mask().argmax(axis=1)
    seat = int(games.to_act[1])
    actions = legal.copy()
    actions[1] = 4 * len(CONFIG.cards) + 7
    result = games.step(actions)
    assert result.terminated.tolist() == [False, True, False]
    assert result.rewards[1, seat] == -1.0 and result.rewards[1].sum() == -1.0
    assert result.infos["final_info"]["illegal"].tolist() == [False, True, False]
    assert games.phase[1] == 3 and (games.setup_given[[0, 2]].sum(axis=1) == 1).all()


# -- actions --------------------------------------------------------------------------------------


def actions_of_the_wrong_type_are_refused(backend: str) -> None:
    games = fresh(backend)
    legal = games.legal_mask().argmax(axis=1)
    before = snapshot(games)
    for actions in (legal.astype(np.float64), legal + 0.5, legal.astype(np.complex128),
                    legal.astype(str), legal.astype(np.bool_), [float(a) for a in legal],
                    [True, False, True], [str(a) for a in legal], legal.reshape(B, 1),
                    legal.reshape(1, B), [[a] for a in legal], None, int(legal[0]),
                    legal.astype(object), [int(legal[0]), int(legal[1]), 2**70],
                    legal[:2], list(legal) + [0], {"a": 1}, "abc", b"abc", legal.astype(np.float32)):
        refused(lambda: games.step(actions), case=actions)
    unchanged(games, before)


def numpy_integer_actions_are_accepted(backend: str) -> None:
    games, twin = fresh(backend), fresh(backend)
    legal = games.legal_mask().argmax(axis=1)
    games.step(legal.astype(np.int32))
    twin.step([np.int16(a) for a in legal])
    assert (games.observe() == twin.observe()).all()
    frozen = games.legal_mask().argmax(axis=1).astype(np.uint8)
    frozen.flags.writeable = False
    games.step(frozen)


def a_caller_changing_its_actions_after_the_step_changes_nothing(backend: str) -> None:
    games = fresh(backend)
    actions = games.legal_mask().argmax(axis=1)
    games.step(actions)
    before = snapshot(games)
    actions[:] = 10**6
    unchanged(games, before)


# -- starting games -------------------------------------------------------------------------------


def seeds_of_the_wrong_type_are_refused(backend: str) -> None:
    games = batch_games(CONFIG, B, backend=backend)
    for seeds in (1.5, 2.0, "7", b"7", True, np.bool_(False), 1j, [1.5, 2, 3], [1, 2, "3"],
                  [True, False, True], [1, 2, b"3"], np.array([1.0, 2.0, 3.0]),
                  np.array([True, False, True]), np.array(["1", "2", "3"]), [1, 2],
                  [1, 2, 3, 4], np.zeros((B, 1), dtype=np.int64), {"seed": 1}, None, object()):
        refused(lambda: games.reset(seeds), case=seeds)
    refused(lambda: games.step([0, 0, 0]))  # still never reset


def seeds_the_reference_takes_are_taken(backend: str) -> None:
    games = batch_games(CONFIG, B, backend=backend)
    games.reset([-5, 2**200 + 3, np.int64(9)])
    assert games.seeds.tolist() == [(-5) % 2**64, 3, 9]
    games.reset(np.array([1, 2, 3], dtype=np.uint64))
    games.reset(7)
    games.reset(np.random.SeedSequence(7))


def first_dealers_of_the_wrong_type_or_range_are_refused(backend: str) -> None:
    games = batch_games(CONFIG, B, backend=backend)
    for dealer in (1.5, 1.0, True, np.bool_(True), "0", -1, 4, 10**20, [0, 1.0, 2],
                   [0, True, 1], [0, 1], [0, 1, 4], np.array([0.0, 1.0, 2.0]), None, 1j):
        refused(lambda: games.reset([1, 2, 3], first_dealer=dealer), case=dealer)
    games.reset([1, 2, 3], first_dealer=np.int8(3))
    assert games.dealer.tolist() == [3, 3, 3]


def a_batch_never_reset_refuses_every_call(backend: str) -> None:
    games = batch_games(CONFIG, B, backend=backend)
    refused(lambda: games.step([0, 0, 0]))
    refused(lambda: games.legal_mask())
    refused(lambda: games.observe())
    refused(lambda: games.random_actions(np.random.default_rng(0)))
    refused(lambda: games.take([0]))
    refused(lambda: games.reset(games=[0]))


def flags_and_sizes_are_type_checked(backend: str) -> None:
    for options in ({"autoreset": None}, {"autoreset": 0.0}, {"autoreset": 1},
                    {"autoreset": "yes"}, {"observations": None}, {"observations": 0},
                    {"illegal": "ignore"}, {"illegal": None}, {"illegal_reward": float("nan")},
                    {"illegal_reward": "-1"}, {"illegal_reward": True}):
        refused(lambda: batch_games(CONFIG, B, backend=backend, **options), case=options)
    for size in (0, -1, 2.0, True, "4", None, 2**40, np.float64(4)):
        refused(lambda: batch_games(CONFIG, size, backend=backend), case=size)  # type: ignore[arg-type]
    refused(lambda: batch_games(4, B, backend=backend))  # type: ignore[arg-type]
    games = batch_games(CONFIG, np.int64(2), backend=backend)  # type: ignore[arg-type]
    games.reset([1, 2])
    assert type(games.size) is int and games.legal_mask().shape == (2, 145)


def partial_resets_check_their_games(backend: str) -> None:
    games = fresh(backend)
    for chosen in ([], [0, 0], [3], [-1], np.zeros(B, dtype=np.bool_), [True, False],
                   np.array([0.0]), 1.5, "0"):
        refused(lambda: games.reset([5], games=chosen), case=chosen)
    before = snapshot(games)
    refused(lambda: games.reset([5, 6], games=[1]))
    unchanged(games, before)
    games.reset([5], games=np.array([False, True, False]))
    assert games.seeds.tolist()[1] == 5 and games.seeds.tolist()[0] == 11


# -- copies and the random choice -----------------------------------------------------------------


def take_checks_its_games(backend: str) -> None:
    games = fresh(backend)
    for chosen in ([], np.array([], dtype=np.int64), [3], [-1], [0.0], 1.5, "0", [True, False],
                   np.zeros(B, dtype=np.bool_), np.array([[0, 1]]), None, [0, 10**30]):
        refused(lambda: games.take(chosen), case=chosen)


def take_reads_a_boolean_mask_as_a_mask(backend: str) -> None:
    games = fresh(backend)
    by_mask = games.take(np.array([True, False, True]))
    by_list = games.take([True, False, True])
    by_index = games.take([0, 2])
    assert by_mask.size == by_list.size == by_index.size == 2
    assert (by_mask.observe() == by_index.observe()).all()
    assert (by_list.legal_mask() == by_index.legal_mask()).all()


def random_actions_take_generators_only_and_hand_out_new_arrays(backend: str) -> None:
    games = fresh(backend)
    for rng in (None, 0, "rng", np.random, np.random.default_rng(0).bit_generator):
        refused(lambda: games.random_actions(rng), case=rng)
    first = games.random_actions(np.random.default_rng(1))
    second = games.random_actions(np.random.default_rng(2))
    assert first is not second and not np.shares_memory(first, second)
    kept = first.copy()
    games.random_actions(np.random.default_rng(3))
    assert (first == kept).all()
    legacy = games.random_actions(np.random.RandomState(4))
    assert games.legal_mask()[np.arange(B), legacy].all()


def other_public_methods_check_their_games(backend: str) -> None:
    games = fresh(backend)
    refused(lambda: games.refusal(3, 0))
    refused(lambda: games.refusal(-1, 0))
    refused(lambda: games.refusal(0, 1.5))
    n = len(CONFIG.cards)
    hands = np.zeros((4, n), dtype=np.bool_)
    refused(lambda: games.load_round(7, 0, hands, hands))


BAD_GAMES: tuple[object, ...] = (B, -1, 10**30, True, np.True_, 1.0, 0.0, np.float64(1), "0",
                                 b"0", None, 1j, [0])
"""Game indices a per-game query must refuse: out of range, a bool, a float, a string, bytes,
None, a complex number, a list."""


def legal_cards_checks_its_games(backend: str) -> None:
    games = fresh(backend)
    for chosen in ([], [B], [-1], [0.0], 1.5, "0", np.zeros(B, dtype=np.bool_), [True, False],
                   np.array([[0, 1]]), 0, np.int64(0)):
        refused(lambda: games.legal_cards(chosen), case=chosen)
    every = games.legal_cards()
    assert (games.legal_cards([2, 0]) == every[[2, 0]]).all()
    assert (games.legal_cards(np.array([False, True, True])) == every[1:]).all()
    chosen = games.legal_cards(np.array([1], dtype=np.uint8))
    chosen[:] = True  # a new array: the batch's state is not in it
    assert (games.legal_cards() == every).all()


def play_refusal_checks_its_arguments(backend: str) -> None:
    games = fresh(backend)
    into_play(games)
    seat, card = int(games.to_act[1]), int(np.flatnonzero(games.legal_cards()[1])[0])
    before = snapshot(games)
    for game in BAD_GAMES:
        error = refused(lambda: games.play_refusal(game, seat, card), case=game)
        assert "play_refusal(game)" in str(error), error
    n = len(CONFIG.cards)
    for bad_card in (n, -1, -n, 10**30, True, 1.0, "0", None):
        error = refused(lambda: games.play_refusal(1, seat, bad_card), case=bad_card)
        assert "play_refusal(card)" in str(error), error
    for bad_seat in (True, 1.0, "0", None):
        error = refused(lambda: games.play_refusal(1, bad_seat, card), case=bad_seat)
        assert "play_refusal(seat)" in str(error), error
    unchanged(games, before)
    assert games.play_refusal(np.int64(1), np.int8(seat), np.uint16(card)) == ""
    assert games.play_refusal(1, -1, card) == games.play_refusal(1, 4, card) == "TURN-ORDER"


def give_refusal_checks_its_arguments(backend: str) -> None:
    from bottleimp.actions import Destination

    games = fresh(backend)
    seat = int(games.to_act[0])
    card = int(np.flatnonzero(games.legal_cards()[0])[0])
    give = [(Destination.DEVILS_TRICK, card)]
    before = snapshot(games)
    for game in BAD_GAMES:
        error = refused(lambda: games.give_refusal(game, seat, give), case=game)
        assert "give_refusal(game)" in str(error), error
    n = len(CONFIG.cards)
    for gives in (None, "x", {Destination.LEFT: card}, [card], [(Destination.LEFT,)],
                  [("left", card)], [(Destination.LEFT, n)], [(Destination.LEFT, -2)],
                  [(Destination.LEFT, 1.0)], [(Destination.LEFT, True)]):
        refused(lambda: games.give_refusal(0, seat, gives), case=gives)  # type: ignore[arg-type]
    for bad_seat in (True, 1.0, "0", None):
        refused(lambda: games.give_refusal(0, bad_seat, give), case=bad_seat)
    refused(lambda: games.give_refusal(0, seat, give, whole=None))  # type: ignore[arg-type]
    unchanged(games, before)
    assert games.give_refusal(np.int64(0), seat, give, whole=False) == ""
    assert games.give_refusal(0, seat, [(Destination.DEVILS_TRICK, -1)]) == "SETUP-FROM-DEALT"
    assert games.give_refusal(0, 99, give) == "SETUP-ORDER"


def refusal_checks_its_arguments(backend: str) -> None:
    games = fresh(backend)
    for game in BAD_GAMES:
        error = refused(lambda: games.refusal(game, 0), case=game)
        assert "refusal(game)" in str(error), error
    for action in (True, 1.0, "0", None, 1j):
        refused(lambda: games.refusal(0, action), case=action)
    assert games.refusal(np.int32(0), np.int64(10**6)) == "PHASE"


def per_game_queries_of_a_batch_never_reset_are_refused(backend: str) -> None:
    from bottleimp.actions import Destination

    games = batch_games(CONFIG, B, backend=backend)
    refused(lambda: games.legal_cards())
    refused(lambda: games.refusal(0, 0))
    refused(lambda: games.play_refusal(0, 0, 0))
    refused(lambda: games.give_refusal(0, 0, [(Destination.LEFT, 0)]))


def a_game_over_has_one_mask_action_and_ignores_any_action(backend: str) -> None:
    games = batch_games(Config(players=3, rounds=1), B, backend=backend, autoreset=False)
    games.reset([1, 2, 3])
    rng = np.random.default_rng(0)
    while not (games.phase == 3).all():
        games.step(games.random_actions(rng))
    mask = games.legal_mask()
    assert (mask.sum(axis=1) == 1).all() and mask[:, -1].all()
    logits = np.where(mask, 0.0, -np.inf)
    probabilities = np.exp(logits - logits.max(axis=1, keepdims=True))
    assert np.isfinite(probabilities / probabilities.sum(axis=1, keepdims=True)).all()
    before = snapshot(games)
    result = games.step([10**6, -1, 0])
    assert not result.terminated.any() and not result.rewards.any()
    unchanged(games, before)


def observe_without_observations_is_refused(backend: str) -> None:
    games = fresh(backend, observations=False)
    refused(lambda: games.observe())
    assert games.step(games.random_actions(np.random.default_rng(0))).observation.shape == (B, 0)


def batches_of_neighbouring_seeds_share_no_game(backend: str) -> None:
    """Slot seeds ``0..B-1`` and ``B..2B-1`` (or one root reset twice): no game of one batch is
    dealt from a seed of the other, over 50 games per slot."""
    from bottleimp.batch.shuffle import game_seeds

    def seeds_of(games: BatchGames) -> set[int]:
        generations = np.repeat(np.arange(50), B)
        return set(game_seeds(np.tile(games.base_seeds, 50), np.tile(games.slot_keys, 50),
                              generations).tolist())

    first, second = batch_games(CONFIG, B, backend=backend), batch_games(CONFIG, B, backend=backend)
    first.reset(list(range(B)))
    second.reset(list(range(B, 2 * B)))
    assert not seeds_of(first) & seeds_of(second) and len(seeds_of(first)) == 50 * B
    root = np.random.SeedSequence(5)
    first.reset(root)
    second.reset(root)
    assert not seeds_of(first) & seeds_of(second)


CASES: dict[str, Callable[[str], None]] = {
    name: value for name, value in list(globals().items())
    if callable(value) and getattr(value, "__module__", None) == __name__
    and name not in ("refused", "fresh", "snapshot", "unchanged", "into_play", "main")
    and not name.startswith("_") and not isinstance(value, type)
}
"""Every case, by name."""


def main(argv: list[str]) -> int:
    faulthandler.enable()  # a signal prints the Python stack of the case it killed
    backend, names = argv[0], argv[1:] or list(CASES)
    for name in names:
        print(f"START {name}", flush=True)
        faulthandler.dump_traceback_later(CASE_SECONDS, exit=True)
        try:
            CASES[name](backend)
        except Exception as error:  # noqa: BLE001 - every failure is reported, by case
            why = f"{type(error).__name__}: {error}".replace("\n", " ")[:300]
            print(f"RESULT {name} FAIL {why}", flush=True)
            traceback.print_exc()
        else:
            print(f"RESULT {name} ok", flush=True)
        finally:
            faulthandler.cancel_dump_traceback_later()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""Hostile calls of the batch engine's public API, one case each, run by
``tests/test_batch_hostile.py`` in subprocesses (``python tests/batch_hostile.py CASE...``; with
``NUMBA_DISABLE_JIT=1`` the kernel runs as plain Python).

Each case makes calls a careless or hostile caller could make and checks what came back: a
``BatchError`` (or ``IllegalActionError``, or numpy's ``ValueError`` for a read-only array)
where the call must be refused, the documented answer where it must be served, and no game
changed by a refused call. A case that finds its call accepted raises ``Accepted``. The runner
prints ``START name`` before a case and ``RESULT name ok`` (or ``RESULT name FAIL why``) after
it, flushed, so a case that kills the process (a signal) or hangs (a watchdog ends the process
after ``CASE_SECONDS``) is the one whose ``START`` has no ``RESULT``.
"""

# Every case passes values of the wrong type on purpose.
# mypy: disable-error-code="arg-type"
from __future__ import annotations

import faulthandler
import sys
import traceback
from collections.abc import Callable
from typing import Any

import numpy as np

from bottleimp import Config, IllegalActionError
from bottleimp.batch import BatchError, BatchGames

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


def fresh(**options: Any) -> BatchGames:
    games = BatchGames(CONFIG, B, **options)
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


def observe_seats_out_of_range() -> None:
    games = fresh()
    for seats in (4, 5, 7, 100, -1, 2**62, [0, 1, 4], np.array([0, 100, 1]),
                  np.array([0, 1, -3])):
        refused(lambda: games.observe(seats), case=seats)


def observe_seats_far_out_of_range() -> None:
    games = fresh()
    for seats in (10**6, -10**6, [0, 10**6, 1], 10**5):
        refused(lambda: games.observe(seats), case=seats)


def observe_seats_of_the_wrong_type_or_shape() -> None:
    games = fresh()
    for seats in (1.0, 1.5, True, np.bool_(True), "1", b"1", 1j, [0, 1], [0, 1, 2, 3],
                  np.zeros((B, 1), dtype=np.int64), np.zeros(B, dtype=np.float64),
                  np.zeros(B, dtype=np.bool_), [0, 1.0, 2], [0, True, 2], object()):
        refused(lambda: games.observe(seats), case=seats)


def observe_numpy_seats_are_accepted() -> None:
    games = fresh()
    first = np.array(games.observe(np.int64(2)))
    assert (first == games.observe(np.full(B, 2, dtype=np.int32))).all()
    assert (first == games.observe([2, 2, 2])).all()


def observations_cannot_be_made_writable() -> None:
    games = fresh()
    seen = games.observe()
    refused(lambda: seen.__setitem__((0, 0), 5.0), ValueError)
    refused(lambda: setattr(seen.flags, "writeable", True), ValueError)
    view = seen.view()
    refused(lambda: setattr(view.flags, "writeable", True), ValueError)
    refused(lambda: seen[0:1].__setitem__(0, 1.0), ValueError)


def a_changed_copy_of_an_observation_spoils_no_later_one() -> None:
    """The step's observation is read-only for good, and a copy of it written all over changes
    nothing the batch shows later (the cells the compiled backend never rewrites included)."""
    games, twin = fresh(), fresh()
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


def public_state_arrays_are_read_only_for_good() -> None:
    games = fresh()
    for name in BatchGames._FIELDS:
        array = getattr(games, name)
        if array.size:
            refused(lambda: array.reshape(-1).__setitem__(0, 99), ValueError)
        refused(lambda: setattr(array.flags, "writeable", True), ValueError)
    refused(lambda: games.to_act.__setitem__(0, 99), ValueError)
    refused(lambda: np.copyto(games.hand, True), ValueError)
    games.step(games.random_actions(np.random.default_rng(0)))  # still plays


def a_written_mask_buffer_makes_no_illegal_action_legal() -> None:
    games = fresh()
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


def illegal_actions_change_no_game() -> None:
    games = fresh()
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


def illegal_setup_actions_change_no_game() -> None:
    games = fresh()
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


def an_illegal_action_ends_only_its_game_when_asked() -> None:
    games = fresh(illegal="end", autoreset=False)
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


def actions_of_the_wrong_type_are_refused() -> None:
    games = fresh()
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


def numpy_integer_actions_are_accepted() -> None:
    games, twin = fresh(), fresh()
    legal = games.legal_mask().argmax(axis=1)
    games.step(legal.astype(np.int32))
    twin.step([np.int16(a) for a in legal])
    assert (games.observe() == twin.observe()).all()
    frozen = games.legal_mask().argmax(axis=1).astype(np.uint8)
    frozen.flags.writeable = False
    games.step(frozen)


def a_caller_changing_its_actions_after_the_step_changes_nothing() -> None:
    games = fresh()
    actions = games.legal_mask().argmax(axis=1)
    games.step(actions)
    before = snapshot(games)
    actions[:] = 10**6
    unchanged(games, before)


# -- starting games -------------------------------------------------------------------------------


def seeds_of_the_wrong_type_are_refused() -> None:
    games = BatchGames(CONFIG, B)
    for seeds in (1.5, 2.0, "7", b"7", True, np.bool_(False), 1j, [1.5, 2, 3], [1, 2, "3"],
                  [True, False, True], [1, 2, b"3"], np.array([1.0, 2.0, 3.0]),
                  np.array([True, False, True]), np.array(["1", "2", "3"]), [1, 2],
                  [1, 2, 3, 4], np.zeros((B, 1), dtype=np.int64), {"seed": 1}, None, object()):
        refused(lambda: games.reset(seeds), case=seeds)
    refused(lambda: games.step([0, 0, 0]))  # still never reset


def seeds_the_reference_takes_are_taken() -> None:
    games = BatchGames(CONFIG, B)
    games.reset([-5, 2**200 + 3, np.int64(9)])
    assert games.seeds.tolist() == [(-5) % 2**64, 3, 9]
    games.reset(np.array([1, 2, 3], dtype=np.uint64))
    games.reset(7)
    games.reset(np.random.SeedSequence(7))


def first_dealers_of_the_wrong_type_or_range_are_refused() -> None:
    games = BatchGames(CONFIG, B)
    for dealer in (1.5, 1.0, True, np.bool_(True), "0", -1, 4, 10**20, [0, 1.0, 2],
                   [0, True, 1], [0, 1], [0, 1, 4], np.array([0.0, 1.0, 2.0]), None, 1j):
        refused(lambda: games.reset([1, 2, 3], first_dealer=dealer), case=dealer)
    games.reset([1, 2, 3], first_dealer=np.int8(3))
    assert games.dealer.tolist() == [3, 3, 3]


def a_batch_never_reset_refuses_every_call() -> None:
    games = BatchGames(CONFIG, B)
    refused(lambda: games.step([0, 0, 0]))
    refused(lambda: games.legal_mask())
    refused(lambda: games.observe())
    refused(lambda: games.random_actions(np.random.default_rng(0)))
    refused(lambda: games.take([0]))
    refused(lambda: games.reset(games=[0]))


def flags_and_sizes_are_type_checked() -> None:
    for options in ({"autoreset": None}, {"autoreset": 0.0}, {"autoreset": 1},
                    {"autoreset": "yes"}, {"observations": None}, {"observations": 0},
                    {"illegal": "ignore"}, {"illegal": None}, {"illegal_reward": float("nan")},
                    {"illegal_reward": "-1"}, {"illegal_reward": True}):
        refused(lambda: BatchGames(CONFIG, B, **options), case=options)
    for size in (0, -1, 2.0, True, "4", None, 2**40, np.float64(4)):
        refused(lambda: BatchGames(CONFIG, size), case=size)
    refused(lambda: BatchGames(4, B))
    games = BatchGames(CONFIG, np.int64(2))
    games.reset([1, 2])
    assert type(games.size) is int and games.legal_mask().shape == (2, 145)


def partial_resets_check_their_games() -> None:
    games = fresh()
    for chosen in ([], [0, 0], [3], [-1], np.zeros(B, dtype=np.bool_), [True, False],
                   np.array([0.0]), 1.5, "0"):
        refused(lambda: games.reset([5], games=chosen), case=chosen)
    before = snapshot(games)
    refused(lambda: games.reset([5, 6], games=[1]))
    unchanged(games, before)
    games.reset([5], games=np.array([False, True, False]))
    assert games.seeds.tolist()[1] == 5 and games.seeds.tolist()[0] == 11


# -- copies and the random choice -----------------------------------------------------------------


def take_checks_its_games() -> None:
    games = fresh()
    for chosen in ([], np.array([], dtype=np.int64), [3], [-1], [0.0], 1.5, "0", [True, False],
                   np.zeros(B, dtype=np.bool_), np.array([[0, 1]]), None, [0, 10**30]):
        refused(lambda: games.take(chosen), case=chosen)


def take_reads_a_boolean_mask_as_a_mask() -> None:
    games = fresh()
    by_mask = games.take(np.array([True, False, True]))
    by_list = games.take([True, False, True])
    by_index = games.take([0, 2])
    assert by_mask.size == by_list.size == by_index.size == 2
    assert (by_mask.observe() == by_index.observe()).all()
    assert (by_list.legal_mask() == by_index.legal_mask()).all()


def random_actions_take_generators_only_and_hand_out_new_arrays() -> None:
    games = fresh()
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


def other_public_methods_check_their_games() -> None:
    games = fresh()
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


def legal_cards_checks_its_games() -> None:
    games = fresh()
    for chosen in ([], [B], [-1], [0.0], 1.5, "0", np.zeros(B, dtype=np.bool_), [True, False],
                   np.array([[0, 1]]), 0, np.int64(0)):
        refused(lambda: games.legal_cards(chosen), case=chosen)
    every = games.legal_cards()
    assert (games.legal_cards([2, 0]) == every[[2, 0]]).all()
    assert (games.legal_cards(np.array([False, True, True])) == every[1:]).all()
    chosen = games.legal_cards(np.array([1], dtype=np.uint8))
    chosen[:] = True  # a new array: the batch's state is not in it
    assert (games.legal_cards() == every).all()


def play_refusal_checks_its_arguments() -> None:
    games = fresh()
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


def give_refusal_checks_its_arguments() -> None:
    from bottleimp._actions import Destination

    games = fresh()
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
        refused(lambda: games.give_refusal(0, seat, gives), case=gives)
    for bad_seat in (True, 1.0, "0", None):
        refused(lambda: games.give_refusal(0, bad_seat, give), case=bad_seat)
    refused(lambda: games.give_refusal(0, seat, give, whole=None))
    unchanged(games, before)
    assert games.give_refusal(np.int64(0), seat, give, whole=False) == ""
    assert games.give_refusal(0, seat, [(Destination.DEVILS_TRICK, -1)]) == "SETUP-FROM-DEALT"
    assert games.give_refusal(0, 99, give) == "SETUP-ORDER"


def refusal_checks_its_arguments() -> None:
    games = fresh()
    for game in BAD_GAMES:
        error = refused(lambda: games.refusal(game, 0), case=game)
        assert "refusal(game)" in str(error), error
    for action in (True, 1.0, "0", None, 1j):
        refused(lambda: games.refusal(0, action), case=action)
    assert games.refusal(np.int32(0), np.int64(10**6)) == "PHASE"


def per_game_queries_of_a_batch_never_reset_are_refused() -> None:
    from bottleimp._actions import Destination

    games = BatchGames(CONFIG, B)
    refused(lambda: games.legal_cards())
    refused(lambda: games.refusal(0, 0))
    refused(lambda: games.play_refusal(0, 0, 0))
    refused(lambda: games.give_refusal(0, 0, [(Destination.LEFT, 0)]))


def a_game_over_has_one_mask_action_and_ignores_any_action() -> None:
    games = BatchGames(Config(players=3, rounds=1), B, autoreset=False)
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


def observe_without_observations_is_refused() -> None:
    games = fresh(observations=False)
    refused(lambda: games.observe())
    assert games.step(games.random_actions(np.random.default_rng(0))).observation.shape == (B, 0)


def batches_of_neighbouring_seeds_share_no_game() -> None:
    """Slot seeds ``0..B-1`` and ``B..2B-1`` (or one root reset twice): no game of one batch is
    dealt from a seed of the other, over 50 games per slot."""
    from bottleimp.batch._shuffle import game_seeds

    def seeds_of(games: BatchGames) -> set[int]:
        generations = np.repeat(np.arange(50), B)
        return set(game_seeds(np.tile(games.base_seeds, 50), np.tile(games.slot_keys, 50),
                              generations).tolist())

    first, second = BatchGames(CONFIG, B), BatchGames(CONFIG, B)
    first.reset(list(range(B)))
    second.reset(list(range(B, 2 * B)))
    assert not seeds_of(first) & seeds_of(second) and len(seeds_of(first)) == 50 * B
    root = np.random.SeedSequence(5)
    first.reset(root)
    second.reset(root)
    assert not seeds_of(first) & seeds_of(second)


# -- loading positions ----------------------------------------------------------------------------


def _deal(config: Config, dealer: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A legal deal of ``config`` (``new_game``'s), as planes."""
    import bottleimp

    state = bottleimp.new_game(config, 5, first_dealer=dealer)
    cards = list(config.cards)
    hands = np.zeros((config.players, len(cards)), dtype=np.bool_)
    face_up = np.zeros_like(hands)
    for seat in range(config.players):
        hands[seat, [cards.index(card) for card in state.round.hands[seat]]] = True
    return hands, face_up


def load_round_checks_its_game_dealer_and_deal() -> None:
    """Dealer 3 of a 3-player game killed the compiled process (SIGSEGV): every argument of
    ``load_round`` is checked first, and a refused call changes no game."""
    config = Config(players=3)
    games = BatchGames(config, B)
    games.reset([1, 2, 3])
    hands, face_up = _deal(config)
    before = snapshot(games)
    for dealer in (3, 4, -1, 2**70, -(2**70), 1.0, True, np.bool_(False), "0", None, [0]):
        error = refused(lambda: games.load_round(0, dealer, hands, face_up), case=dealer)
        assert "load_round(dealer)" in str(error), error
    for game in BAD_GAMES:
        refused(lambda: games.load_round(game, 0, hands, face_up), case=game)
    twice = hands.copy()
    twice[1] |= hands[0]
    n = len(config.cards)
    for plane in (hands.astype(np.int64), hands.tolist(), None, hands[:, :-1],
                  np.zeros((4, n), dtype=np.bool_), hands[None], twice, "hands"):
        refused(lambda: games.load_round(0, 0, plane, face_up), case=plane)
    refused(lambda: games.load_round(0, 0, hands, hands))  # face-up cards outside Devil's Eye
    unchanged(games, before)
    games.load_round(np.int64(1), np.int8(2), hands, face_up)
    assert games.dealer[1] == 2 and games.to_act[1] == 0 and games.phase[1] == 0
    games.step(games.random_actions(np.random.default_rng(0)))


def load_play_checks_every_value() -> None:
    config = Config(players=3)
    games = BatchGames(config, B)
    games.reset([1, 2, 3])
    hands, face_up = _deal(config)
    n = len(config.cards)
    free = int(np.flatnonzero(hands[0])[0])
    hands[0, free] = False  # on the table
    held = int(np.flatnonzero(hands[1])[0])
    good_bottles, good_trick = [(-1, -1)], [(0, free)]
    before = snapshot(games)
    for bottles in ([], [(-1, -1), (-1, -1)], [(n, 0)], [(-2, -1)], [(free, -1)], [(-1, 0)],
                    [(free, 3)], [(free, 2**70)], [(1.0, 0)], [(free,)], None, "b", [[-1, -1, 0]]):
        refused(lambda: games.load_play(0, hands, face_up, bottles, good_trick, 1), case=bottles)
    for trick in ([(0, free), (1, held), (2, held)], [(0, free)] * 3, [(3, free)], [(0, n)],
                  [(0, held)], [(0, free), (1, free)], [(-1, free)], [(0, 1.5)], None, [free]):
        refused(lambda: games.load_play(0, hands, face_up, good_bottles, trick, 1), case=trick)
    for to_act in (3, -1, 2**64, 1.0, None, True):
        refused(lambda: games.load_play(0, hands, face_up, good_bottles, good_trick, to_act),
                case=to_act)
    for game in BAD_GAMES:
        refused(lambda: games.load_play(game, hands, face_up, good_bottles, good_trick, 1),
                case=game)
    unchanged(games, before)
    games.load_play(0, hands, face_up, good_bottles, good_trick, 1)
    assert games.phase[0] == 1 and games.to_act[0] == 1 and games.trick_length[0] == 1
    assert games.legal_mask()[0].any()
    rng = np.random.default_rng(1)
    for _ in range(60):
        games.step(games.random_actions(rng))


# -- the batch itself -----------------------------------------------------------------------------


def huge_or_odd_illegal_rewards_are_refused() -> None:
    for reward in (10**400, -(10**400), 1e39, -1e300, float("inf"), np.float64(np.inf), np.nan,
                   "1", None, True, np.bool_(True), 1j, [1.0]):
        error = refused(lambda: BatchGames(CONFIG, B, illegal_reward=reward), case=reward)
        assert "illegal_reward" in str(error), error
    for accepted in (np.float32(-2.5), np.int64(-3), 10**20, -0.5):
        games = BatchGames(CONFIG, B, illegal_reward=accepted, illegal="end", autoreset=False)
        games.reset([1, 2, 3])
        result = games.step([4 * len(CONFIG.cards) + 5] * B)
        assert (result.rewards.sum(axis=1) == np.float32(float(accepted))).all()


def a_batch_too_large_for_memory_is_refused_naming_its_size() -> None:
    """The largest batch size allocated 7.7 to 24 GB, too large a batch raised numpy's
    ``MemoryError``: the bytes are computed first and a batch past the limit refused."""
    error = refused(lambda: BatchGames(Config(players=6, bottles=2), 2**20))
    assert "1,048,576 games" in str(error) and "memory limit" in str(error), error
    refused(lambda: BatchGames(CONFIG, 2**20 + 1))
    for limit in ("1", 1.5, True, -1, 0, 10**3):
        refused(lambda: BatchGames(CONFIG, B, memory_limit=limit), case=limit)
    assert BatchGames(CONFIG, B, memory_limit=np.int64(10**6)).nbytes() <= 10**6


def decks_the_engine_cannot_hold_exactly_are_refused_when_the_batch_is_made() -> None:
    from bottleimp._cards import Card
    from bottleimp._editions import CLASSIC

    def deck_with(index: int, rank: object = None, coins: object = None) -> Config:
        cards = list(CLASSIC[:15])
        old = cards[index]
        cards[index] = Card(old.rank if rank is None else rank, old.colour,
                            old.coins if coins is None else coins)
        return Config(players=3, deck=tuple(cards), rounds=3)

    for config, word in ((deck_with(14, rank=2**60), "rank"), (deck_with(14, rank=2**53), "rank"),
                         (deck_with(0, rank=-(2**60)), "rank"),
                         (deck_with(3, coins=2**62), "coins"), (deck_with(3, coins=2**59), "coins"),
                         (Config(players=3, target_score=2**62), "target score")):
        error = refused(lambda: BatchGames(config, B), case=config)
        assert word in str(error), error
    for config in (deck_with(14, rank=2**50), deck_with(3, coins=2**40)):
        games = BatchGames(config, B)
        games.reset([1, 2, 3])
        rng = np.random.default_rng(0)
        for _ in range(50):
            games.step(games.random_actions(rng))


def every_call_after_close_raises() -> None:
    from bottleimp._actions import Destination

    games = fresh()
    hands, face_up = _deal(CONFIG)
    games.close()
    games.close()
    assert games.closed
    rng = np.random.default_rng(0)
    calls: list[Callable[[], object]] = [
        lambda: games.reset([1, 2, 3]), lambda: games.reset(games=[0]),
        lambda: games.step([0, 0, 0]), games.legal_mask, games.observe, games.observe_values,
        lambda: games.random_actions(rng), lambda: games.take([0]), games.legal_cards,
        lambda: games.refusal(0, 0), lambda: games.play_refusal(0, 0, 0),
        lambda: games.give_refusal(0, 0, [(Destination.LEFT, 0)]),
        lambda: games.load_round(0, 0, hands, face_up),
        lambda: games.load_play(0, hands, face_up, [(-1, -1)], [], 0), games.nbytes,
        lambda: games.hand, lambda: games.to_act]
    for call in calls:
        error = refused(call, case=call)
        assert "closed" in str(error), error


def thread_counts_are_checked() -> None:
    import numba

    most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
    for threads in (0, -1, most + 1, 10**6, 1.0, True, "2", [1]):
        refused(lambda: BatchGames(CONFIG, B, threads=threads), case=threads)
    assert BatchGames(CONFIG, B, threads=np.int64(1)).threads == 1
    assert BatchGames(CONFIG, B).threads == most


# -- the Gymnasium wrappers -----------------------------------------------------------------------


def the_gymnasium_wrappers_take_the_librarys_seeds_and_refuse_others() -> None:
    """``VectorEnv.reset(seed=-1)`` and ``BottleImpEnv.reset(seed=np.int64(5))`` raised
    Gymnasium's error; ``reset(options=[])`` an ``AttributeError``."""
    from bottleimp.batch.vector import BottleImpEnv, BottleImpVectorEnv

    vector, single = BottleImpVectorEnv(CONFIG, B), BottleImpEnv(CONFIG)
    for seed in (-1, np.int64(5), 2**70, np.uint64(2**63), -(2**70)):
        vector.reset(seed=seed)
        single.reset(seed=seed)
    first = vector.reset(seed=-1)[0]["observation"].copy()
    assert (vector.reset(seed=2**64 - 1)[0]["observation"] == first).all()
    odd: tuple[object, ...] = (1.5, "1", True, np.bool_(True), b"1", object())
    for bad in odd:
        refused(lambda: vector.reset(seed=bad), case=bad)
        refused(lambda: single.reset(seed=bad), case=bad)
    refused(lambda: single.reset(seed=[1]))
    not_dicts: tuple[object, ...] = ([], "x", 1, ("reset_mask",))
    for options in not_dicts:
        refused(lambda: vector.reset(options=options), case=options)
        refused(lambda: single.reset(options=options), case=options)
    for mask in ("x", [1.5], np.zeros(B + 1, dtype=np.bool_), np.zeros(B, dtype=np.bool_)):
        refused(lambda: vector.reset(options={"reset_mask": mask}), case=mask)
    vector.close()
    single.close()
    for call in (lambda: vector.reset(seed=1), lambda: vector.step(np.zeros(B, dtype=np.int64)),
                 lambda: single.reset(seed=1), lambda: single.step(0)):
        refused(call, case=call)


def one_game_resets_of_a_vector_env_keep_no_memory() -> None:
    """300 one-game resets at B = 4096 (``reset_mask``) took 405 MB: now the memory numpy
    holds after 300 more is what it held after the first (as plain Python, 100 at B =
    64)."""
    import tracemalloc

    from bottleimp.batch import _kernel as kernel
    from bottleimp.batch.vector import BottleImpVectorEnv

    size, resets = (4096, 300) if kernel.COMPILED else (64, 100)  # plain Python: slow
    env = BottleImpVectorEnv(CONFIG, size)
    env.reset(seed=3)
    mask = np.zeros(size, dtype=np.bool_)
    mask[17] = True
    env.reset(options={"reset_mask": mask})
    tracemalloc.start()
    start, _ = tracemalloc.get_traced_memory()
    for index in range(resets):
        mask[:] = False
        mask[index * 31 % size] = True
        env.reset(options={"reset_mask": mask})
    current, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert current - start < 256 * 1024, current - start


# -- fuzzing: every public call with values drawn from a hostile pool ------------------------------


def _pool(rng: np.random.Generator) -> list[object]:
    """Values a careless or hostile caller could pass anywhere: integers of every size and type,
    floats, bools, strings, containers and arrays of every kind, and plausible values too."""
    from bottleimp._actions import Destination

    p, n = CONFIG.players, len(CONFIG.cards)
    a = 4 * n + 1
    return [
        0, 1, 2, -1, 3, 4, n - 1, n, a - 1, a, 2**31, 2**63, 2**64, -(2**63) - 1, 10**30,
        np.int8(-1), np.uint64(2**64 - 1), np.int64(-(2**63)), np.int32(2), np.uint8(255),
        0.0, 1.5, float("nan"), float("inf"), -1e308, np.float32(1), True, np.bool_(False),
        None, "0", b"0", 1j, [], (), {}, {"reset_mask": [True]}, [0] * B, [0] * (B + 1),
        [[0]] * B, list(rng.integers(-5, a + 5, B)), list(rng.integers(0, a, B)),
        rng.integers(-5, a + 5, B), rng.integers(0, p, B).astype(np.uint8),
        np.zeros((B, 1), dtype=np.int64), np.zeros(0, dtype=np.int64), rng.random(B),
        rng.random(B) < 0.5, np.array([object()] * B), np.array(["a"] * B),
        np.zeros((p, n), dtype=np.bool_), rng.random((p, n)) < 0.3, np.ones((p, n), dtype=np.bool_),
        np.zeros((p, n), dtype=np.int64), [(-1, -1)], [(0, 1)], [(0, n)], [(5, 5), (6, 6)],
        [(Destination.LEFT, 0)], [(Destination.DEVILS_TRICK, int(rng.integers(-2, n + 2)))],
        np.random.SeedSequence(1), np.random.default_rng(0), np.random.RandomState(0), object(),
    ]


_FUZZED: dict[str, int] = {
    "reset": 3, "step": 1, "observe": 1, "observe_values": 1, "legal_cards": 1,
    "random_actions": 1, "take": 1, "refusal": 2, "play_refusal": 3, "give_refusal": 4,
    "load_round": 4, "load_play": 6, "legal_mask": 0, "nbytes": 0}
"""Each public method fuzzed, with its number of arguments (``reset``'s third: ``games=``)."""

_OK_ERRORS = (BatchError, IllegalActionError)


def _fuzz(method: str, rounds: int = 150) -> None:
    """``rounds`` calls of ``method`` with arguments drawn from ``_pool`` (and a few plausible
    ones): each returns or raises the library's error, never anything else; a refused call
    changes no game; after an accepted one, the batch still steps."""
    rng = np.random.default_rng(sorted(_FUZZED).index(method))
    games = fresh(illegal="end")
    arity = _FUZZED[method]
    for index in range(rounds):
        pool = _pool(rng)
        args = [pool[int(rng.integers(len(pool)))] for _ in range(arity)]
        before = snapshot(games)
        call = getattr(games, method)
        try:
            if method == "reset":
                call(args[0], args[1], games=args[2] if index % 2 else None)
            else:
                call(*args)
        except _OK_ERRORS:
            if method != "step":  # an illegal action ends its game (illegal="end"): not refused
                unchanged(games, before)
            continue
        except Exception as error:
            raise AssertionError(f"{method}{tuple(map(describe_value, args))} raised "
                                 f"{type(error).__name__}: {error}") from error
        try:
            games.step(games.random_actions(rng))
        except IllegalActionError:
            pass  # a loaded position where the seat to act holds nothing
        except BatchError as error:
            assert "never reset" in str(error), error


def describe_value(value: object) -> str:
    return f"{type(value).__name__}:{value!r}"[:60]


def fuzz_the_constructor() -> None:
    rng = np.random.default_rng(99)
    options = ("autoreset", "observations", "illegal", "illegal_reward", "compact", "threads",
               "memory_limit")
    for _ in range(150):
        pool = _pool(rng) + [CONFIG, "end", "raise", -1.0, 10**400]
        config = CONFIG if rng.random() < 0.8 else pool[int(rng.integers(len(pool)))]
        size = pool[int(rng.integers(len(pool)))] if rng.random() < 0.7 else B
        chosen = {name: pool[int(rng.integers(len(pool)))] for name in options
                  if rng.random() < 0.3}
        try:
            games = BatchGames(config, size, **chosen)
        except BatchError:
            continue
        except Exception as error:
            raise AssertionError(f"BatchGames({describe_value(config)}, {describe_value(size)}, "
                                 f"{ {k: describe_value(v) for k, v in chosen.items()} }) raised "
                                 f"{type(error).__name__}: {error}") from error
        if games.size <= 64:
            games.reset(list(range(games.size)))
            games.step(games.random_actions(rng))


def fuzz_reset() -> None:
    _fuzz("reset")


def fuzz_step() -> None:
    _fuzz("step")


def fuzz_observe() -> None:
    _fuzz("observe")


def fuzz_observe_values() -> None:
    _fuzz("observe_values")


def fuzz_legal_cards() -> None:
    _fuzz("legal_cards")


def fuzz_random_actions() -> None:
    _fuzz("random_actions")


def fuzz_take() -> None:
    _fuzz("take")


def fuzz_refusal() -> None:
    _fuzz("refusal")


def fuzz_play_refusal() -> None:
    _fuzz("play_refusal")


def fuzz_give_refusal() -> None:
    _fuzz("give_refusal")


def fuzz_load_round() -> None:
    _fuzz("load_round")


def fuzz_load_play() -> None:
    _fuzz("load_play")


def fuzz_legal_mask() -> None:
    _fuzz("legal_mask")


def fuzz_nbytes() -> None:
    _fuzz("nbytes")


CASES: dict[str, Callable[[], None]] = {
    name: value for name, value in list(globals().items())
    if callable(value) and getattr(value, "__module__", None) == __name__
    and name not in ("refused", "fresh", "snapshot", "unchanged", "into_play", "main", "_deal", "_fuzz", "_pool", "describe_value", "_warm")
    and not name.startswith("_") and not isinstance(value, type)
}
"""Every case, by name."""


def _warm() -> None:
    """Compile the kernel's entry points (or load them from numba's cache) before any case and
    its watchdog: a cold compile on a loaded machine takes minutes, no hang."""
    for compact in (False, True):
        games = BatchGames(CONFIG, B, compact=compact, illegal="end")
        games.reset([1, 2, 3])
        games.observe([0, 1, 2])
        games.observe_values()
        games.take([0]).step([0])
        games.step(games.random_actions(np.random.default_rng(0)))
        games.reset([4], games=[1])


def main(argv: list[str]) -> int:
    faulthandler.enable()  # a signal prints the Python stack of the case it killed
    names = argv or list(CASES)
    _warm()
    for name in names:
        print(f"START {name}", flush=True)
        faulthandler.dump_traceback_later(CASE_SECONDS, exit=True)
        try:
            CASES[name]()
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

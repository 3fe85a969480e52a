"""Perft counts (spec/conformance/perft/): every stored count recomputed, the divide counts add
up, the memoized count equals a plain count, and the generated file is what
scripts/generate_perft.py writes today.

The recomputed counts and those the generator writes are the same computations on equal
positions: both go through ``counted`` and ``divided`` (cached), and the tests that use them run
on one worker (``xdist_group``), so each count is computed once."""

from __future__ import annotations

import importlib.util
import json
import os
import pty
import select
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

from bottleimp import Action, Config, GameState, apply, legal_actions, new_game
from bottleimp.perft import (
    PerftCase,
    divide,
    in_round,
    perft,
    perft_case_to_json,
    read_perft_file,
    remaining,
)
from bottleimp.cli._perft import DEFAULT_DEPTH, depth_argument
from bottleimp.formats._json_input import JSON
from bottleimp.formats._state_json import action_to_json

ROOT = Path(__file__).resolve().parent.parent
FILE = ROOT / "spec" / "conformance" / "perft" / "counts.json"
CASES = read_perft_file(FILE)
SHARED = pytest.mark.xdist_group("perft-counts")


@cache
def counted(state: GameState, depth: int) -> int:
    """``perft(state, depth)``, once per position and depth."""
    return perft(state, depth)


@cache
def divided(state: GameState, depth: int) -> tuple[tuple[Action, int], ...]:
    """``divide(state, depth)``, once per position and depth."""
    return tuple(divide(state, depth))


def plain_perft(state: GameState, depth: int) -> int:
    """Perft by the definition, without memo: every sequence of ``depth`` actions in the round."""
    if depth == 0:
        return 1
    if not in_round(state):
        return 0
    return sum(plain_perft(apply(state, action), depth - 1) for action in legal_actions(state))


@SHARED
@pytest.mark.parametrize("case", CASES, ids=lambda case: case.where.split(":", 1)[1])
def test_every_stored_perft_count_is_recomputed(case: PerftCase) -> None:
    state = case.state
    assert remaining(state) == case.remaining
    for depth, count in case.depths.items():
        assert counted(state, depth) == count, (case.description, depth)
    if case.round is not None:
        # perft(state) counts to the end of the round: test_the_memoized_count_is_the_plain_count
        assert counted(state, case.remaining) == case.round
    if case.divide_depth is not None:
        assert divided(state, case.divide_depth) == case.divide
        assert sum(count for _, count in case.divide) == case.depths[case.divide_depth]
        assert [action for action, _ in case.divide] == list(legal_actions(state))


def test_the_cases_cover_every_variant_setup_play_and_bottles() -> None:
    configs = {(c.config.players, c.config.bottles, c.config.teams is not None, c.config.edition)
               for c in CASES}
    assert {players for players, *_ in configs} == {2, 3, 4, 5, 6}
    assert any(bottles == 2 for _, bottles, _, _ in configs)
    assert any(teams for _, _, teams, _ in configs)
    assert {edition for *_, edition in configs} == {"classic", "matagot-2024"}
    assert any(c.state.phase.value == "setup" for c in CASES)
    assert any(c.state.phase.value == "play" for c in CASES)
    assert any(c.round is not None and c.state.phase.value == "setup" for c in CASES)
    assert any(any(b.owner is not None for b in c.state.round.bottles) for c in CASES)
    assert any(all(b.owner is not None for b in c.state.round.bottles) and c.config.bottles == 2
               for c in CASES)
    assert any(c.state.round.dealer != 0 for c in CASES)


@pytest.mark.parametrize("case", [c for c in CASES if c.round is not None and c.round <= 4000],
                         ids=lambda case: case.where.split(":", 1)[1])
def test_the_memoized_count_is_the_plain_count(case: PerftCase) -> None:
    assert perft(case.state) == plain_perft(case.state, case.remaining)


def test_perft_counts_at_depth_zero_and_past_the_round() -> None:
    state = new_game(Config(players=3), 4)
    assert perft(state, 0) == 1
    assert perft(state, remaining(state) + 1) == 0
    with pytest.raises(ValueError):
        perft(state, -1)
    with pytest.raises(ValueError):
        divide(state, 0)
    assert [count for _, count in divide(state, 1)] == [1] * len(legal_actions(state))


@SHARED
def test_the_generated_file_is_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location("generate_perft", ROOT / "scripts" / "generate_perft.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from bottleimp.formats._cases import format_case_file

    def case(description: str, start: GameState, actions: list[Action], depths: list[int],
             to_end: bool, divide_depth: int | None) -> JSON:
        return perft_case_to_json(description, start, actions, depths, to_end, divide_depth,
                                  count=counted, divided=divided)

    assert format_case_file(module.build(case)) == FILE.read_text(encoding="utf-8"), (
        "run scripts/generate_perft.py"
    )


def _on_a_terminal(*argv: str) -> tuple[int, str, str]:
    """``bottleimp ARGV`` with its standard error on a pseudo-terminal (as in a terminal) and
    its standard output piped: the exit status, the output, what the terminal showed."""
    leader, follower = pty.openpty()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100", "TERM": "xterm"}
    process = subprocess.Popen([sys.executable, "-m", "bottleimp", *argv], stdout=subprocess.PIPE,
                               stderr=follower, env=env)
    os.close(follower)
    shown = b""
    while True:
        ready, _, _ = select.select([leader], [], [], 300)
        assert ready, f"nothing shown within 300 s: {shown!r}"
        try:
            data = os.read(leader, 65536)
        except OSError:  # the terminal's other end closed: the process ended
            break
        if not data:
            break
        shown += data
    os.close(leader)
    assert process.stdout is not None
    out = process.stdout.read().decode()
    return process.wait(timeout=60), out, shown.decode(errors="replace")


def test_perft_with_no_options_counts_a_few_actions_in_seconds() -> None:
    """``bottleimp perft`` alone counts from the first deal of a seeded 4-player game to the
    default depth (the whole round, 44 actions, is far beyond counting)."""
    status, out, _ = _on_a_terminal("perft")
    state = new_game(Config(players=4), 7)
    assert status == 0
    assert out == f"depth {DEFAULT_DEPTH}: {plain_perft(state, DEFAULT_DEPTH)}\n"
    assert DEFAULT_DEPTH < remaining(state)


def test_perft_shows_its_progress_on_a_terminal_and_prints_only_the_count() -> None:
    pytest.importorskip("rich", reason="the cli extra (rich) draws the progress bar")
    status, out, shown = _on_a_terminal("perft", "--players", "3", "--depth", "5")
    assert status == 0 and out == f"depth 5: {perft(new_game(Config(players=3), 7), 5)}\n"
    assert "depth 5, first actions" in shown and "12/12" in shown


def test_the_depth_round_counts_to_the_end_of_the_round() -> None:
    assert depth_argument("round") is None and depth_argument("3") == 3
    state = new_game(Config(players=2, edition="classic"), 1)
    actions: list[Action] = []
    while remaining(state) > 6:
        action = legal_actions(state)[0]
        actions.append(action)
        state = apply(state, action)
    status, out, _ = _on_a_terminal("perft", "--players", "2", "--seed", "1", "--depth", "round",
                                    "--actions", json.dumps([action_to_json(a) for a in actions]))
    assert status == 0 and out == f"depth 6: {plain_perft(state, 6)}\n"


def test_the_arena_shows_the_deals_played_on_a_terminal() -> None:
    pytest.importorskip("rich", reason="the cli extra (rich) draws the progress bar")
    status, out, shown = _on_a_terminal("arena", "--players", "3", "--agents", "random",
                                        "--games", "3")
    assert status == 0 and "random" in out
    assert "deals" in shown and "3/3" in shown

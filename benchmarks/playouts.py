"""Random legal playouts: decisions per second and rounds per second, with legality checks.

Every decision is ``legal_actions(state)`` then ``apply(state, action)`` (which checks the action
again). Prints figures for the 3- and 4-player game; when ``open_spiel`` is installed (the
``bench`` extra), it also plays Hearts with OpenSpiel's C++ engine driven from Python in the same
process and prints the ratio (decisions only on both sides: OpenSpiel's chance nodes, the deal,
are played but not counted). The contenders run in short interleaved slices, so a load that comes
and goes on a shared machine slows them alike: compare ratios, which hold from machine to machine
better than the figures do.

When the compiled build exists (``python scripts/build_compiled.py``, which puts it in
``build/compiled``), the same measurement runs again in a subprocess with the compiled package
first on its path, and its figures are printed beside the pure ones (each ratio against the
Hearts figure measured in its own process).

    python benchmarks/playouts.py [--seconds S] [--compiled DIR | --no-compiled]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_COMPILED = ROOT / "build" / "compiled"

Slice = Callable[[float], tuple[int, int]]
"""Plays for about the given seconds; returns (decisions, rounds)."""


def bottleimp_slice(players: int) -> Slice:
    """Random legal games of ``players`` seats, continued from slice to slice."""
    import bottleimp

    config = bottleimp.Config(players=players)
    rng = random.Random(1)
    legal_actions, apply, new_game = bottleimp.legal_actions, bottleimp.apply, bottleimp.new_game
    seeds = iter(range(1 << 62))

    def play(seconds: float) -> tuple[int, int]:
        decisions = rounds = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = new_game(config, next(seeds))
            while state.to_act is not None:
                actions = legal_actions(state)
                state = apply(state, actions[rng.randrange(len(actions))])
                decisions += 1
            rounds += len(state.past_rounds) + 1
        return decisions, rounds

    return play


def hearts_slice() -> Slice | None:
    """OpenSpiel's Hearts with random legal play, or None when ``open_spiel`` is missing."""
    try:
        import pyspiel  # type: ignore[import-not-found]
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    rng = random.Random(1)

    def play(seconds: float) -> tuple[int, int]:
        decisions = games = 0
        deadline = time.perf_counter() + seconds
        while time.perf_counter() < deadline:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    actions = state.legal_actions()
                    state.apply_action(actions[rng.randrange(len(actions))])
                    decisions += 1
            games += 1
        return decisions, games

    return play


def measure(seconds: float) -> dict[str, float]:
    """Decisions/s (and rounds/s) of every contender, interleaved in slices of 0.25 s."""
    contenders: dict[str, Slice] = {"3": bottleimp_slice(3), "4": bottleimp_slice(4)}
    hearts = hearts_slice()
    if hearts is not None:
        contenders["hearts"] = hearts
    totals = {name: [0.0, 0.0, 0.0] for name in contenders}  # decisions, rounds, seconds
    for play in contenders.values():  # warm up
        play(0.05)
    slices = max(1, round(seconds / 0.25))
    for _ in range(slices):
        for name, play in contenders.items():
            start = time.perf_counter()
            decisions, rounds = play(seconds / slices)
            total = totals[name]
            total[0] += decisions
            total[1] += rounds
            total[2] += time.perf_counter() - start
    figures: dict[str, float] = {}
    for name, (all_decisions, all_rounds, elapsed) in totals.items():
        figures[name] = all_decisions / elapsed
        figures[name + " rounds"] = all_rounds / elapsed
    return figures


def compiled_figures(directory: Path, seconds: float) -> dict[str, float] | None:
    """The figures of the compiled build in ``directory``, measured in a subprocess."""
    if not directory.is_dir():
        return None
    # Run in ``directory``: the current directory comes first on the path of ``python -c``.
    env = dict(os.environ, PYTHONPATH=str(directory))
    check = "import bottleimp._state as e, sys; sys.exit(0 if e.__file__.endswith(('.so', '.pyd')) else 1)"
    if subprocess.run([sys.executable, "-c", check], env=env, cwd=directory).returncode != 0:
        print(f"({directory} holds no compiled bottleimp for this Python: not measured)")
        return None
    output = subprocess.run(
        [sys.executable, __file__, "--seconds", str(seconds), "--json", "--no-compiled"],
        env=env, cwd=directory, check=True, capture_output=True, text=True,
    ).stdout
    figures: dict[str, float] = json.loads(output)
    return figures


def report(label: str, figures: dict[str, float]) -> None:
    hearts = figures.get("hearts")
    for players in ("3", "4"):
        line = (
            f"bottleimp {label:8} {players} players: {figures[players]:9,.0f} decisions/s, "
            f"{figures[players + ' rounds']:6,.0f} rounds/s"
        )
        if hearts is not None:
            line += f" ({figures[players] / hearts:.2f} x OpenSpiel Hearts)"
        print(line)
    if hearts is not None:
        print(f"OpenSpiel Hearts (C++ from Python, same process): {hearts:,.0f} decisions/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="time per contender")
    parser.add_argument("--compiled", type=Path, default=DEFAULT_COMPILED,
                        help="where the compiled build is (default build/compiled)")
    parser.add_argument("--no-compiled", action="store_true", help="measure the pure package only")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    figures = measure(args.seconds)
    if args.json:
        print(json.dumps(figures))
        return
    import bottleimp._state

    label = "compiled" if bottleimp._state.__file__.endswith((".so", ".pyd")) else "pure"
    report(label, figures)
    if "hearts" not in figures:
        print("OpenSpiel Hearts: not measured (pip install -e '.[bench]' to compare)")
    if not args.no_compiled and label == "pure":
        compiled = compiled_figures(args.compiled, args.seconds)
        if compiled is None:
            print("compiled build: not built (python scripts/build_compiled.py)")
        else:
            report("compiled", compiled)


if __name__ == "__main__":
    main()

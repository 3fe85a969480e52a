"""Positions the open-hand solver visits on fixed positions: the measure of the search's size
(unlike seconds, it does not move with the machine's load).

Each position is a seeded 4-player classic deal after the setup and ``k`` plays of the first
legal card, solved for the seat to act by a fresh ``Solver`` within ``--budget`` positions.
Printed per position: the value (or bounds), the positions visited and the CPU seconds (the
compiled code loaded beforehand); then the totals.

    python benchmarks/analysis_positions.py [--seeds 6] [--plays 8 12] [--budget 20000000]
        [--test GAMMA]

``--test GAMMA`` runs, instead of a whole solve, the one zero-window test "does the side get at
least GAMMA?" (with a value of minus the penalty or at least 0, a test at 0 or just above minus
the penalty asks whether the side can end owning no bottle): what one test of the search costs,
the solver's first guess and its order of tests aside. It drives the solver's compiled search
through its private arrays, as ``Solver.solve`` does.

Figures go in ``benchmarks/analysis_results.md``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bottleimp import Config, GameState, Phase, apply, legal_actions, new_game  # noqa: E402
from bottleimp.analysis import Solver  # noqa: E402
from bottleimp.analysis import _solver  # noqa: E402


def position(config: Config, seed: int, plays: int) -> GameState:
    """Seed ``seed``'s deal after the setup and ``plays`` plays of the first legal card."""
    state = new_game(config, seed)
    while state.phase is Phase.SETUP or len(state.round.plays) < plays:
        state = apply(state, legal_actions(state)[0])
    return state


def one_test(solver: Solver, state: GameState, gamma: int) -> tuple[str, bool]:
    """What one zero-window test at ``gamma`` proves of ``state``'s value (``>= v`` or ``<= v``,
    ``Solver.solve`` with the interval ``[gamma - 1, gamma]`` known beforehand, which one test
    settles), and whether it finished within the budget."""
    ctl = solver._ctl
    solver._load(state)
    ctl[_solver._NODES] = ctl[_solver._STOPPED] = ctl[_solver._CHECK] = 0
    ctl[_solver._LIMIT] = solver.node_budget or 1 << 62
    ctl[_solver._DEADLINE] = -1
    solver._known[:] = gamma - 1, gamma, _solver._NONE
    _solver._solve_row(solver._state, solver._consts, solver._side_mask, ctl, solver._keys,
                       solver._bounds, solver._scratch, solver._frames, solver._moves,
                       solver._history, solver._in_play, solver._side_cards, solver._kinds,
                       solver._known)
    solver.nodes += int(ctl[_solver._NODES])
    lower, upper = int(solver._known[0]), int(solver._known[1])
    if lower >= gamma:
        return f">= {lower}", True
    if upper < gamma:
        return f"<= {upper}", True
    return "stopped", False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--plays", type=int, nargs="+", default=[8, 12])
    parser.add_argument("--budget", type=int, default=20_000_000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--test", type=int, default=None, metavar="GAMMA")
    args = parser.parse_args()
    config = Config(players=args.players, rounds=1)
    warm = position(config, 0, 3 * config.trick_size)  # the compiled code loaded, not timed
    Solver(warm.to_act or 0, config, node_budget=1000).solve(warm)
    total_nodes = exact = 0
    total_cpu = 0.0
    for plays in args.plays:
        for seed in range(args.seeds):
            state = position(config, seed, plays)
            assert state.to_act is not None
            solver = Solver(state.to_act, config, node_budget=args.budget)
            cpu = time.process_time()
            if args.test is None:
                valuation = solver.solve(state)
                value, done = str(valuation), valuation.exact
            else:
                value, done = one_test(solver, state, args.test)
            cpu = time.process_time() - cpu
            total_nodes += solver.nodes
            total_cpu += cpu
            exact += done
            print(f"seed {seed} after {plays:2} plays: {value:>10} {solver.nodes:>11,} "
                  f"positions {cpu:6.2f} s CPU", flush=True)
    settled = "exact" if args.test is None else "finished"
    print(f"total: {total_nodes:,} positions, {exact} of {args.seeds * len(args.plays)} "
          f"{settled}, {total_cpu:.2f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

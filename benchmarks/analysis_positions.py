"""Positions the open-hand solver visits on fixed positions: the measure of the search's size
(unlike seconds, it does not move with the machine's load).

Each position is a seeded 4-player classic deal after the setup and ``k`` plays of the first
legal card, solved for the seat to act by a fresh ``Solver`` within ``--budget`` positions.
Printed per position: the value (or bounds), the positions visited and the CPU seconds (the
compiled code loaded beforehand); then the totals.

    python benchmarks/analysis_positions.py [--seeds 6] [--plays 8 12] [--budget 20000000]

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


def position(config: Config, seed: int, plays: int) -> GameState:
    """Seed ``seed``'s deal after the setup and ``plays`` plays of the first legal card."""
    state = new_game(config, seed)
    while state.phase is Phase.SETUP or len(state.round.plays) < plays:
        state = apply(state, legal_actions(state)[0])
    return state


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--plays", type=int, nargs="+", default=[8, 12])
    parser.add_argument("--budget", type=int, default=20_000_000)
    parser.add_argument("--players", type=int, default=4)
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
            value = solver.solve(state)
            cpu = time.process_time() - cpu
            total_nodes += solver.nodes
            total_cpu += cpu
            exact += value.exact
            print(f"seed {seed} after {plays:2} plays: {str(value):>10} {solver.nodes:>11,} "
                  f"positions {cpu:6.2f} s CPU", flush=True)
    print(f"total: {total_nodes:,} positions, {exact} of {args.seeds * len(args.plays)} exact, "
          f"{total_cpu:.2f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

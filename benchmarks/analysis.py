"""The time to analyse every play of one round (``bottleimp analyse``), per variant, with the
instructions one solve executes (valgrind) beside the seconds.

For each variant and each of ``--deals`` seeded deals, one round is played by heuristic bots and
its record analysed (``bottleimp.analysis.record.analyse_json``): every legal card of every play
solved for the acting seat's side, and the deal's value for every seat. Printed per variant: the
median and the worst wall-clock seconds per round, the CPU seconds, the median positions the
solver visited per round, and the share of values that are bounds (past the node budget,
``--nodes``, or the round's time budget, ``--round-seconds``, 60 by default: no round runs much
past it). ``--round-seconds 0`` sets no time budget: every figure but the seconds then depends
on the node budget alone, not on the machine's load (but a round may take long). The goal: a whole 4-player classic round in at most 1 s
median on one core, every value exact.

The clock moves with the machine's load (printed); the instruction count does not:
``--valgrind`` runs a fixed workload (the open-hand solves of every card of the last five
tricks of seeded 4-player rounds, one solver a seat) under ``valgrind --tool=callgrind`` at two sizes and prints
the difference of the counts per solve and per position visited (start-up excluded).

    python benchmarks/analysis.py [--deals 100] [--variants NAME ...] [--jobs N] [--valgrind]

A round that the solver cannot finish runs to its budget, so the whole run lasts up to
``deals x variants x round-seconds / jobs`` (100 deals of the 6 variants at 60 s on 2 idle
cores: up to 5 hours; ``--deals 20 --jobs 2``: up to 1 hour).

Figures go in ``benchmarks/analysis_results.md``.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from bottleimp import Config, GameState, apply, legal_actions, new_game, view  # noqa: E402
from bottleimp.analysis import record as record_module  # noqa: E402
from bottleimp.analysis.record import analyse_json  # noqa: E402
from bottleimp.analysis import Solver, Valuation  # noqa: E402
from bottleimp.analysis._solver import DEFAULT_NODE_BUDGET  # noqa: E402
from bottleimp.bots import make_bot  # noqa: E402
from bottleimp.formats._records import record_from_state, record_to_json  # noqa: E402

VARIANTS = {
    "3p": Config(players=3, rounds=1),
    "4p": Config(players=4, rounds=1),
    "5p": Config(players=5, rounds=1),
    "6p": Config(players=6, rounds=1),
    "devils-eye": Config(players=2, rounds=1),
    "second-bottle-5p": Config(players=5, bottles=2, rounds=1),
}

WORKLOAD = """\
import sys
from bottleimp import Config, Phase, apply, legal_actions, new_game
from bottleimp.analysis import Solver, card_values
solves = nodes = 0
for seed in range(int(sys.argv[1])):
    state = new_game(Config(players=4, rounds=1), seed)
    while state.phase is Phase.SETUP or len(state.round.plays) < 16:
        state = apply(state, legal_actions(state)[0])
    solvers = [Solver(seat, state.config, node_budget=None) for seat in range(4)]
    while state.phase is Phase.PLAY:
        solves += len(card_values(state, solvers[state.to_act]))
        state = apply(state, legal_actions(state)[-1])
    nodes += sum(solver.nodes for solver in solvers)
print(solves, nodes)
"""


def round_record(config: Config, seed: int) -> object:
    """One round played by heuristic bots, as a record."""
    bots = [make_bot("heuristic", seed * 7 + seat) for seat in range(config.players)]
    state = new_game(config, seed)
    while state.to_act is not None:
        seat = state.to_act
        state = apply(state, bots[seat].choose(view(state, seat), legal_actions(state)))
    return record_to_json(record_from_state(state))


class _Counted(Solver):
    """The analysis's solver, adding up the positions its solves visit (``positions``)."""

    positions = 0

    def _solve_within(self, state: GameState, *, at_least: int | None = None,
                      at_most: int | None = None) -> Valuation:
        before = self.nodes
        value = super()._solve_within(state, at_least=at_least, at_most=at_most)
        _Counted.positions += self.nodes - before
        return value


def analyse_round(job: tuple[str, int, int, float]) -> tuple[float, float, int, int, int]:
    """One deal of a variant analysed: wall and CPU seconds, the values found, how many of
    them are bounds and the positions visited."""
    name, seed, nodes, round_seconds = job
    record = round_record(VARIANTS[name], seed)
    record_module.Solver = _Counted  # type: ignore[attr-defined]  # its solves, counted
    _Counted.positions = 0
    wall, cpu = time.perf_counter(), time.process_time()
    analysis = analyse_json(record, node_budget=nodes,  # type: ignore[arg-type]
                            round_seconds=round_seconds or None)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    values = bounds = 0
    for round_ in analysis.rounds:
        found = [v for play in round_.plays for _, v in play.values] + list(round_.deal_values)
        values += len(found)
        bounds += sum(1 for v in found if not v.exact)
    return wall, cpu, values, bounds, _Counted.positions


def instructions(deals: int) -> tuple[int, int, int]:
    """Instructions of the workload over ``deals`` deals, and its solves and positions."""
    with tempfile.TemporaryDirectory() as work:
        script = Path(work) / "workload.py"
        script.write_text(WORKLOAD)
        out = Path(work) / "callgrind.out"
        # valgrind's emulated processor is not the host's, and numba's disk cache is kept per
        # processor: compiled for the "generic" one first, outside valgrind, the cache is what
        # the run under valgrind loads (else it compiles the solver again, under valgrind).
        env = dict(os.environ, PYTHONPATH=str(ROOT), NUMBA_CPU_NAME="generic")
        subprocess.run([sys.executable, str(script), "1"], capture_output=True, env=env,
                       check=True)
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable,
             str(script), str(deals)], capture_output=True, text=True, env=env, check=True)
        solves, nodes = map(int, done.stdout.split())
        total = re.search(r"Collected : (\d+)", done.stderr)
        assert total is not None, done.stderr[-2000:]
        return int(total.group(1)), solves, nodes


def warm() -> None:
    """Compile the solver, or load it from numba's cache, before any round is timed: one deal
    of 3 players analysed under a budget of 2,000 positions a solve. Without it the first round
    of a process counts the compilation (about 20 s when the solver's code changed) or the
    cache's load (about 1 s): in the main process, and in each worker the pool starts."""
    analyse_json(round_record(VARIANTS["3p"], 0), node_budget=2_000,  # type: ignore[arg-type]
                 round_seconds=None)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--variants", nargs="*", default=list(VARIANTS))
    parser.add_argument("--nodes", type=int, default=DEFAULT_NODE_BUDGET)
    parser.add_argument("--round-seconds", type=float, default=60.0,
                        help="each round's time budget; 0: none (the node budget alone)")
    parser.add_argument("--valgrind", action="store_true")
    parser.add_argument("--jobs", type=int, default=1,
                        help="deals analysed at once, one process each (one per idle core: "
                             "each round's seconds are still one core's)")
    args = parser.parse_args()
    print(f"load average at start: {', '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores); {args.deals} deals per variant, node budget {args.nodes}, "
          f"round budget {f'{args.round_seconds:g} s' if args.round_seconds else 'none'}")
    print(f"{'variant':<18} {'median s':>9} {'worst s':>8} {'median cpu':>11} "
          f"{'positions':>12} {'bounds':>8} {'solves':>7}  goal")
    warm()
    for name in args.variants:
        jobs = [(name, args.seed + deal, args.nodes, args.round_seconds)
                for deal in range(args.deals)]
        if args.jobs > 1:
            with multiprocessing.get_context("spawn").Pool(args.jobs, initializer=warm) as pool:
                rounds = pool.map(analyse_round, jobs, chunksize=1)
        else:
            rounds = [analyse_round(job) for job in jobs]
        walls = [wall for wall, _, _, _, _ in rounds]
        cpus = [cpu for _, cpu, _, _, _ in rounds]
        values = sum(count for _, _, count, _, _ in rounds)
        bounds = sum(bound for _, _, _, bound, _ in rounds)
        positions = statistics.median(count for *_, count in rounds)
        median = statistics.median(walls)
        goal = ""
        if name == "4p":
            goal = "reached" if statistics.median(cpus) <= 1.0 and bounds == 0 else "not reached"
        print(f"{name:<18} {median:>9.2f} {max(walls):>8.2f} {statistics.median(cpus):>11.2f} "
              f"{positions:>12,.0f} {bounds / max(1, values):>7.1%} {values:>7}  {goal}",
              flush=True)
    print(f"load average at end: {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    if args.valgrind:
        if shutil.which("valgrind") is None:
            print("valgrind is not installed: no instruction counts")
            return 0
        small, large = instructions(1), instructions(3)
        per_solve = (large[0] - small[0]) / (large[1] - small[1])
        per_node = (large[0] - small[0]) / (large[2] - small[2])
        print(f"instructions (callgrind), the last five tricks of 4-player rounds: "
              f"{per_solve:,.0f} per solve ({large[1] - small[1]} solves), "
              f"{per_node:,.0f} per position visited ({large[2] - small[2]} positions)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Instructions per decision of random playouts, counted by valgrind: a figure load cannot move.

On a shared machine the clock-based figures of ``playouts.py`` move with the load; the number
of instructions a decision executes does not. Each contender plays a few games and then more
games under ``valgrind --tool=callgrind``; the difference of the two counts divided by the
difference of the decisions is the cost of one decision, start-up excluded (the driver loop,
``random`` and the deals of new rounds included, as in ``playouts.py``). Contenders: the pure
package, the compiled build when ``build/compiled`` holds one, and OpenSpiel's Hearts when
``open_spiel`` is installed (its chance nodes played, not counted). Fewer instructions is not
always less time (the C++ engine runs more instructions per cycle than the interpreter), so
compare like with like: a change of the package against its previous count.

    python benchmarks/instructions.py [--players 4] [--games 5 25]

Needs valgrind (Debian: ``apt-get install valgrind``); several minutes per contender.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
COMPILED = ROOT / "build" / "compiled"

BOTTLEIMP = """\
import random, sys
import bottleimp
config = bottleimp.Config(players=int(sys.argv[1]))
rng = random.Random(1)
decisions = 0
for seed in range(int(sys.argv[2])):
    state = bottleimp.new_game(config, seed)
    while state.to_act is not None:
        actions = bottleimp.legal_actions(state)
        state = bottleimp.apply(state, actions[rng.randrange(len(actions))])
        decisions += 1
print(decisions)
"""

HEARTS = """\
import random, sys
import pyspiel
game = pyspiel.load_game("hearts")
rng = random.Random(1)
decisions = 0
for _ in range(int(sys.argv[2])):
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
        else:
            actions = state.legal_actions()
            state.apply_action(actions[rng.randrange(len(actions))])
            decisions += 1
print(decisions)
"""


def count(program: str, players: int, games: int, path: str | None,
          extra_env: dict[str, str] | None = None) -> tuple[int, int]:
    """(instructions, decisions) of one run of ``program`` under callgrind (``extra_env``: more
    environment variables for it)."""
    with tempfile.TemporaryDirectory() as temp:
        out = Path(temp) / "callgrind.out"
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        env.update(extra_env or {})
        if path is not None:
            env["PYTHONPATH"] = path
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
             sys.executable, "-c", program, str(players), str(games)],
            env=env, cwd=temp, capture_output=True, text=True, check=True,
        )
        totals = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.MULTILINE)
        assert totals is not None, "callgrind wrote no total"
        return int(totals.group(1)), int(done.stdout.split()[-1])


def per_decision(program: str, players: int, games: tuple[int, int], path: str | None,
                 extra_env: dict[str, str] | None = None) -> float:
    few_instructions, few_decisions = count(program, players, games[0], path, extra_env)
    many_instructions, many_decisions = count(program, players, games[1], path, extra_env)
    return (many_instructions - few_instructions) / (many_decisions - few_decisions)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, nargs=2, default=(5, 25), metavar=("FEW", "MANY"))
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    games = (args.games[0], args.games[1])
    contenders: list[tuple[str, str, str | None]] = [("bottleimp pure", BOTTLEIMP, str(ROOT))]
    if any(COMPILED.glob("bottleimp/*.so")):
        contenders.append(("bottleimp compiled", BOTTLEIMP, str(COMPILED)))
    try:
        import pyspiel  # type: ignore[import-not-found, unused-ignore]  # noqa: F401
    except ImportError:
        pass
    else:
        contenders.append(("OpenSpiel Hearts", HEARTS, None))
    for name, program, path in contenders:
        players = 4 if program is HEARTS else args.players
        figure = per_decision(program, players, games, path)
        print(f"{name:20} {players} players: {figure:9,.0f} instructions per decision", flush=True)


if __name__ == "__main__":
    main()

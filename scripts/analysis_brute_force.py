"""The open-hand solver against the plain brute force (``tests/analysis_brute.py``) at full size.

- ``--endgames N`` (default 10,000): ``N`` random endgames of every variant with up to four
  tricks left (``--most-tricks``), the value for the seat to act;
- ``--every-deal``: every position of trick play of every deal of the smallest exhaustive game
  (``3p-8cards-every-deal`` of ``scripts/exhaustive.py``), for every seat.

Prints, per variant and every 500 endgames, the endgames compared so far, the disagreements
and the CPU time. Run from the
repository root: ``python scripts/analysis_brute_force.py [--variants NAME ...]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from itertools import islice
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
for _path in (str(REPO), str(REPO / "tests")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from analysis_brute import VARIANTS, random_endgames  # noqa: E402
from test_analysis_solver import disagreements, small_game_positions  # noqa: E402
from test_exhaustive import BY_NAME  # noqa: E402

CHUNK = 500
"""Endgames compared with one brute-force memo, and between two progress lines."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--endgames", type=int, default=10_000)
    parser.add_argument("--most-tricks", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variants", nargs="*", default=sorted(VARIANTS))
    parser.add_argument("--every-deal", action="store_true")
    args = parser.parse_args()
    failed = False
    if args.every_deal:
        spec = BY_NAME["3p-8cards-every-deal"]
        start = time.perf_counter()
        compared, wrong = disagreements(small_game_positions(spec))
        print(f"{spec.name}: {compared} (position, seat) pairs, {wrong} disagreements, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        failed |= wrong > 0
    for name in args.variants:
        start = time.process_time()
        positions = random_endgames(VARIANTS[name], args.endgames, args.seed, args.most_tricks)
        compared = wrong = 0
        while compared < args.endgames:  # in chunks: a memo per chunk, and a line per chunk
            chunk = islice(positions, min(CHUNK, args.endgames - compared))
            done, bad = disagreements(chunk, every_seat=False)
            if done == 0:
                break
            compared, wrong = compared + done, wrong + bad
            print(f"{name}: {compared} endgames (up to {args.most_tricks} tricks left), {wrong} "
                  f"disagreements, {time.process_time() - start:.0f} s CPU", flush=True)
        failed |= wrong > 0
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The open-hand solver against the plain brute force (``tests/analysis_brute.py``) at full size.

- ``--endgames N`` (default 10,000): ``N`` random endgames of every variant with up to four
  tricks left (``--most-tricks``), the value for every seat (a seat whose side is not to act
  once got a wrong value the seat to act never showed);
- ``--every-deal``: every position of trick play of every deal of the smallest exhaustive game
  (``3p-8cards-every-deal`` of ``scripts/exhaustive.py``), for every seat.

Prints, per variant and every 500 endgames, the endgames compared so far, the (endgame, seat)
pairs that disagree and the CPU time. Run from the
repository root: ``python scripts/analysis_brute_force.py [--variants NAME ...]``.

A full-size run takes many CPU hours (endgames of 5 and 6 players and of Devil's Eye about a
second each, a brute force per seat). ``--log FILE`` appends one JSON line per chunk (variant,
seed, tricks, the endgames compared so far, the disagreeing (endgame, seat) pairs, the CPU
seconds); ``--resume`` reads it back and goes on after the last chunk logged for each variant
under the same seed, tricks and code (a hash of the solver's and the kernel's source and of the
brute force: chunks of other code, or of the seat to act alone, are not counted; the endgames
before the last chunk are drawn again, as the run drew them, and skipped), so a run stopped at
any point loses at most one chunk.
"""

from __future__ import annotations

import argparse
import hashlib
import json
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

CODE = hashlib.sha256(b"".join(
    path.read_bytes() for path in sorted(REPO.glob("bottleimp/rules/*.py")) + [
        REPO / name for name in ("bottleimp/analysis/_solver.py", "bottleimp/batch/_kernel.py",
                                 "tests/analysis_brute.py", "bottleimp/_transitions.py",
                                 "bottleimp/_state.py", "bottleimp/_engine.py")])
).hexdigest()[:16]
"""The code a logged chunk checked: the solver, the kernel it calls, the brute force and the
rules it plays by."""

CHUNK = 500
"""Endgames compared with one brute-force memo, and between two progress lines."""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--endgames", type=int, default=10_000)
    parser.add_argument("--most-tricks", type=int, default=4)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--variants", nargs="*", default=sorted(VARIANTS))
    parser.add_argument("--every-deal", action="store_true")
    parser.add_argument("--log", type=Path, default=None,
                        help="append a JSON line per chunk to this file")
    parser.add_argument("--resume", action="store_true",
                        help="go on after the chunks --log already holds")
    args = parser.parse_args()
    if args.resume and args.log is None:
        parser.error("--resume needs --log")
    if args.endgames < 1 or args.most_tricks < 1:
        parser.error("--endgames and --most-tricks must be at least 1")
    unknown = sorted(set(args.variants) - set(VARIANTS))
    if unknown:
        parser.error(f"unknown variant {unknown[0]!r}; known: {', '.join(sorted(VARIANTS))}")
    logged = _logged(args.log, args.seed, args.most_tricks) if args.resume else {}
    failed = False
    if args.every_deal:
        spec = BY_NAME["3p-8cards-every-deal"]
        start = time.perf_counter()
        compared, wrong = disagreements(small_game_positions(spec))
        print(f"{spec.name}: {compared} (position, seat) pairs, {wrong} disagreements, "
              f"{time.perf_counter() - start:.0f} s", flush=True)
        failed |= wrong > 0
    for name in args.variants:
        compared, wrong, cpu = logged.get(name, (0, 0, 0.0))
        start = time.process_time() - cpu
        positions = random_endgames(VARIANTS[name], args.endgames, args.seed, args.most_tricks)
        for _ in islice(positions, compared):  # drawn again as the logged run drew them
            pass
        while compared < args.endgames:  # in chunks, a line each
            chunk = list(islice(positions, min(CHUNK, args.endgames - compared)))
            if not chunk:
                break
            # Every seat; a memo per endgame (one per chunk of 5-player endgames of four
            # tricks passed 24 GB): the memory of one endgame's positions between tricks.
            bad = sum(disagreements([endgame])[1] for endgame in chunk)
            compared, wrong = compared + len(chunk), wrong + bad
            seconds = time.process_time() - start
            print(f"{name}: {compared} endgames (up to {args.most_tricks} tricks left), {wrong} "
                  f"(endgame, seat) disagreements, {seconds:.0f} s CPU", flush=True)
            if args.log is not None:
                with args.log.open("a", encoding="utf-8") as log:
                    log.write(json.dumps({"variant": name, "seats": "every", "seed": args.seed,
                                          "most_tricks": args.most_tricks, "code": CODE,
                                          "compared": compared,
                                          "disagreements": wrong, "cpu_seconds": round(seconds, 1)})
                              + "\n")
        failed |= wrong > 0
    return 1 if failed else 0


def _logged(log: Path, seed: int, most_tricks: int) -> dict[str, tuple[int, int, float]]:
    """Per variant, the last chunk ``log`` holds for ``seed``, ``most_tricks`` and ``CODE``, with
    every seat compared (older lines compared the seat to act alone): the endgames compared,
    the disagreeing (endgame, seat) pairs and the CPU seconds so far (none if the file does not
    exist)."""
    last: dict[str, tuple[int, int, float]] = {}
    if not log.exists():
        return last
    for number, line in enumerate(log.read_text(encoding="utf-8").splitlines(), 1):
        try:
            entry = json.loads(line)
            if (entry["seed"], entry["most_tricks"], entry.get("code"),
                    entry.get("seats")) == (seed, most_tricks, CODE, "every"):
                last[str(entry["variant"])] = (int(entry["compared"]), int(entry["disagreements"]),
                                               float(entry["cpu_seconds"]))
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"{log}:{number}: not a line this script wrote: {line[:80]!r}")
    return last


if __name__ == "__main__":
    raise SystemExit(main())

"""Write the tables of ``docs/guide/trust.md`` from the checks' own output.

Each table sits between ``<!-- generated: NAME -->`` and ``<!-- end generated: NAME -->`` in the
page; the prose around the tables is written by hand. The tables, and what produces each:

- ``walks``: the CI set of ``scripts/exhaustive.py``, each configuration walked (``run``) with its
  counts of deals, states, transitions and game ends and the events it reached. The counts do
  not depend on the level of checks (the walk visits the same tree); the walks run here at level
  ``sweep``, and ``tests/test_exhaustive.py`` runs them with every check and pins the same counts;
- ``differential``: ``restatement/differential.py`` over the same CI walks (``run_walk``): states,
  transitions and disagreements;
- ``symbolic``: every property of ``scripts/symbolic.py`` at CI's bounds (``--ci``): its claim,
  method, bounds, cases and result;
- ``plants``: the plant table of ``scripts/plants.py``: each plant, its rule ID, where it comes
  from and the checks of CI's formal set that catch it (``tests/test_plants.py`` runs every one);
- ``mutation``: the last whole mutation run's table, as ``scripts/mutate.py --report`` prints it
  from the run's results file (``scripts/mutation-results.json``).

Seconds and machine loads are never written to the page (they change from run to run); with
``--results FILE`` the times of this run are written to that file instead.

Run from the repository root: ``python scripts/trust_tables.py`` (rewrite the page),
``--check`` (exit 1, printing a diff, when the page differs from what the checks print now; what
CI runs), ``--only NAME ...`` (only those tables).
"""

from __future__ import annotations

import argparse
import dataclasses
import difflib
import importlib.util
import io
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from contextlib import redirect_stdout
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
PAGE = REPO / "docs" / "guide" / "trust.md"
MUTATION_RESULTS = REPO / "scripts" / "mutation-results.json"
for _path in (str(REPO), str(REPO / "tests"), str(REPO / "scripts")):
    if _path not in sys.path:
        sys.path.insert(0, _path)


def _load(name: str) -> Any:
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module: ModuleType = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


class CheckFailed(Exception):
    """A check failed while its table was being written: the page is not rewritten."""


def _ci_walks() -> list[Any]:
    return [spec for spec in _load("exhaustive").CONFIGURATIONS if spec.ci]


def _big(number: int) -> str:
    """A count as the page writes it: with separators, or as a power of ten past 10^7."""
    if number < 10**7:
        return f"{number:,}"
    exponent = len(str(number)) - 1
    return f"{number / 10**exponent:.1f} x 10^{exponent}"


def table_walks(times: dict[str, float]) -> str:
    exhaustive = _load("exhaustive")
    rows = ["| configuration | what is walked | deals walked (of all, one dealer) | states | "
            "transitions | game ends | events required and reached |",
            "|---|---|---|---|---|---|---|"]
    for spec in _ci_walks():
        started = time.perf_counter()
        sweep = dataclasses.replace(spec, level="sweep")
        try:
            summary = exhaustive.run(sweep)
        except AssertionError as violation:
            raise CheckFailed(f"walk {spec.name}: {violation}") from None
        times[f"walk {spec.name}"] = time.perf_counter() - started
        required = ", ".join(f"{event} {summary.counters[event]:,}" for event in spec.requires)
        rows.append(f"| `{spec.name}` | {spec.note} | {summary.deals} ({_big(summary.all_deals)}) "
                    f"| {summary.states:,} | {summary.transitions:,} | {summary.terminal:,} | "
                    f"{required or '-'} |")
    return "\n".join(rows)


def table_differential(times: dict[str, float]) -> str:
    from restatement.differential import Differential, run_walk

    diff = Differential()
    walks = _ci_walks()
    started = time.perf_counter()
    for spec in walks:
        run_walk(spec.name, differential=diff)
    times["differential walk --ci"] = time.perf_counter() - started
    if diff.disagreements:
        raise CheckFailed(diff.report())
    return "\n".join([
        "| run (`python -m restatement.differential ...`) | what | states | transitions | "
        "disagreements |",
        "|---|---|---|---|---|",
        f"| `walk --ci` | the {len(walks)} CI walks of `scripts/exhaustive.py` | "
        f"{diff.states:,} | {diff.transitions:,} | {diff.disagreements} |"])


SYMBOLIC_JSON: Path | None = None
"""The output of ``python scripts/symbolic.py --ci --json FILE`` to read (``--symbolic FILE``);
``None``: the pass is run here."""


def _symbolic_outcomes(times: dict[str, float]) -> list[dict[str, Any]]:
    """Every property's outcome at CI's bounds: read from the pass's JSON, or run here."""
    symbolic = _load("symbolic")
    names = [prop.name for prop in symbolic.PROPERTIES]
    if SYMBOLIC_JSON is not None:
        import json

        found = json.loads(SYMBOLIC_JSON.read_text())
        if found.get("format") != "bottleimp-symbolic-pass" or found.get("method") != "ci":
            raise CheckFailed(f"{SYMBOLIC_JSON} is not the output of symbolic.py --ci --json")
        rows: list[dict[str, Any]] = found["properties"]
        if [row["name"] for row in rows] != names:
            raise CheckFailed(f"{SYMBOLIC_JSON} does not hold every property, in order")
    else:
        rows = []
        for prop in symbolic.PROPERTIES:
            outcome = symbolic.check(prop, "ci", 0)
            rows.append({**dataclasses.asdict(outcome), "claim": symbolic.claim_of(prop),
                         "method": symbolic.method_of(prop, "ci"),
                         "bounds": symbolic.bounds_of(prop, "ci")})
    for row in rows:
        times[f"symbolic {row['name']}"] = row["seconds"]
    return rows


def table_symbolic(times: dict[str, float]) -> str:
    rows = ["| rule function | claim | method | bounds (CI's) | cases | result |",
            "|---|---|---|---|---|---|"]
    claims: dict[str, int] = {}
    methods: dict[str, int] = {}
    outcomes = _symbolic_outcomes(times)
    for outcome in outcomes:
        if outcome["status"] != "verified":
            raise CheckFailed(f"{outcome['name']}: {outcome['status']} "
                              f"{outcome['counterexample']}")
        claim, method = outcome["claim"], outcome["method"]
        claims[claim] = claims.get(claim, 0) + 1
        methods[method] = methods.get(method, 0) + 1
        cases = f"{outcome['paths']:,} claims" if method == "z3" else f"{outcome['paths']:,}"
        rows.append(f"| `{outcome['name']}` | {claim} | {method} | {outcome['bounds']} | "
                    f"{cases} | {outcome['status']} |")
    total = len(outcomes)
    summary = (f"\n\nAll {total} properties verified at CI's bounds ("
               + ", ".join(f"{n} by {m}" for m, n in sorted(methods.items())) + "); "
               + ", ".join(f"{n} labelled `{c}`" for c, n in sorted(claims.items())) + ".")
    return "\n".join(rows) + summary


def table_plants(times: dict[str, float]) -> str:
    plants = _load("plants")
    rows = ["| rule ID | planted bug | origin | checks of CI's formal set that catch it |",
            "|---|---|---|---|"]
    for plant in plants.PLANTS:
        catchers = ", ".join(f"`{check}`" for check in plant.catchers)
        rows.append(f"| `{plant.rule}` | {plant.name} | {plant.origin or '-'} | {catchers} |")
    rules = {plant.rule for plant in plants.PLANTS}
    missing = [rule for rule in plants.rule_ids() if rule not in rules]
    if missing:
        raise CheckFailed(f"rule IDs without a plant: {missing}")
    kinds = {kind: sum(1 for p in plants.PLANTS if any(c.startswith(kind) for c in p.catchers))
             for kind in ("walk", "differential", "symbolic")}
    return "\n".join(rows) + (
        f"\n\n{len(plants.PLANTS)} plants of {len(rules)} rule IDs (every rule ID of "
        f"`spec/rules.toml`); named as caught by a walk {kinds['walk']}, by the differential "
        f"{kinds['differential']}, by the symbolic pass {kinds['symbolic']}.")


def table_mutation(times: dict[str, float]) -> str:
    if not MUTATION_RESULTS.exists():
        return (f"No results file of a run of the `rules` and `engine` targets is in the "
                f"repository (`{MUTATION_RESULTS.relative_to(REPO)}`): no figure.")
    done = subprocess.run(
        [sys.executable, "scripts/mutate.py", "--target", "rules", "--target", "engine",
         "--results", str(MUTATION_RESULTS), "--report"],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False)
    lines = [line.rstrip() for line in done.stdout.splitlines()]
    start = next((k for k, line in enumerate(lines) if line.startswith("file ")), None)
    if start is None:
        raise CheckFailed(f"mutate.py --report printed no table:\n{done.stdout}{done.stderr}")
    table = [line for line in lines[start:] if line]
    end = next(k for k, line in enumerate(table) if line.startswith("total"))
    return "```text\n" + "\n".join([*lines[:start], *table[:end + 1]]).strip() + "\n```"


TABLES: dict[str, Callable[[dict[str, float]], str]] = {
    "walks": table_walks,
    "differential": table_differential,
    "symbolic": table_symbolic,
    "plants": table_plants,
    "mutation": table_mutation,
}


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated: {name} -->)(.*?)(<!-- end generated: {name} -->)",
                      re.DOTALL)


def render(page: str, names: Sequence[str], times: dict[str, float]) -> str:
    """``page`` with the tables ``names`` written again from the checks."""
    for name in names:
        pattern = _block(name)
        if not pattern.search(page):
            raise CheckFailed(f"{PAGE.relative_to(REPO)} has no block '{name}'")
        with redirect_stdout(io.StringIO()):
            table = TABLES[name](times)
        page = pattern.sub(lambda match: f"{match.group(1)}\n{table}\n{match.group(3)}", page)
    return page


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if the page differs from what the checks print now")
    parser.add_argument("--only", nargs="+", choices=sorted(TABLES), default=sorted(TABLES))
    parser.add_argument("--symbolic", metavar="FILE", type=Path,
                        help="the symbolic table from this output of symbolic.py --ci --json "
                             "(default: run the pass here)")
    parser.add_argument("--results", metavar="FILE",
                        help="append the seconds each check took, with the load, to FILE")
    args = parser.parse_args(argv)
    global SYMBOLIC_JSON
    SYMBOLIC_JSON = args.symbolic
    page = PAGE.read_text()
    times: dict[str, float] = {}
    try:
        new = render(page, args.only, times)
    except CheckFailed as failure:
        print(f"a check failed; {PAGE.relative_to(REPO)} left as it is:\n{failure}")
        return 1
    if args.results:
        import os

        with open(args.results, "a") as file:
            file.write(f"\n{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
                       f"{os.getloadavg()[0]:.2f}:\n")
            for name, seconds in times.items():
                file.write(f"    {name}: {seconds:.1f} s\n")
    if args.check:
        if new != page:
            sys.stdout.writelines(difflib.unified_diff(
                page.splitlines(keepends=True), new.splitlines(keepends=True),
                str(PAGE.relative_to(REPO)), "as the checks print it now"))
            print(f"{PAGE.relative_to(REPO)} differs from the checks' output: run "
                  "python scripts/trust_tables.py")
            return 1
        print(f"{PAGE.relative_to(REPO)}: the tables {', '.join(args.only)} are the checks' output")
        return 0
    PAGE.write_text(new)
    print(f"{PAGE.relative_to(REPO)}: tables {', '.join(args.only)} written")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The tables of ``docs/guide/trust.md`` are written by ``scripts/trust_tables.py`` from the
checks' own output, and CI (``.ci/run``) writes them again and fails when the page differs. Here,
the cheap part: the plant table's block is what the plant table prints now, a doctored figure in
a block is found, and no block holds seconds or loads."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _trust_tables() -> Any:
    spec = importlib.util.spec_from_file_location("trust_tables", ROOT / "scripts" / "trust_tables.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["trust_tables"] = module
    spec.loader.exec_module(module)
    return module


TRUST = _trust_tables()
PAGE = (ROOT / "docs" / "guide" / "trust.md").read_text()


def test_every_table_has_its_block_and_ci_checks_the_page() -> None:
    for name in TRUST.TABLES:
        assert PAGE.count(f"<!-- generated: {name} -->") == 1, name
        assert PAGE.count(f"<!-- end generated: {name} -->") == 1, name
    ci_run = (ROOT / ".ci" / "run").read_text()
    assert "python scripts/trust_tables.py --check" in ci_run


def test_the_plant_block_is_what_the_plant_table_prints() -> None:
    assert TRUST.render(PAGE, ["plants"], {}) == PAGE


def test_a_doctored_figure_is_found() -> None:
    doctored = PAGE.replace("| `FOLLOW-SUIT` | play: no obligation to follow suit |",
                            "| `FOLLOW-SUIT` | play: no obligation to follow the led colour |")
    assert doctored != PAGE
    assert TRUST.render(doctored, ["plants"], {}) == PAGE


def test_no_generated_block_holds_seconds_or_a_load() -> None:
    for name in TRUST.TABLES:
        block = PAGE.split(f"<!-- generated: {name} -->")[1].split("<!-- end generated")[0]
        assert not re.search(r"\d\s*s\b|seconds|load average", block), name

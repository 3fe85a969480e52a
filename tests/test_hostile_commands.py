"""Commands on hostile input: ``perft --check`` reads its files through the one JSON reader (a
deep nesting, ``/dev/zero``, a missing key: exit 2 with a message and the ``--json`` object);
``arena --json`` prints its versioned object on every exit path; ``render`` draws at most
``MAX_PAGE_ROUNDS`` rounds (a clear error past it, no page), with a fuzzing test of the
record's size; and every subcommand with ``--json`` prints one object when it refuses its
options."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp.cli import main
from bottleimp._errors import RecordError
from bottleimp.formats._view_json import view_loads
from bottleimp.pictures._replay import MAX_PAGE_ROUNDS, PageTooLargeError, render_record

from depth import scaled
from buggy_writer import write_game

ROOT = Path(__file__).resolve().parent.parent
REPORTS = ROOT / "spec" / "reports"


def _schema(name: str) -> Any:
    return Draft202012Validator(json.loads((REPORTS / name).read_text(encoding="utf-8")))


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


def _one_object(out: str, schema: str) -> dict[str, Any]:
    """The one JSON object ``out`` holds, checked against its schema."""
    value = json.loads(out)
    assert isinstance(value, dict)
    assert [error.message for error in _schema(schema).iter_errors(value)] == []
    return value


# --- perft --check ---------------------------------------------------------------------------

def test_perft_check_of_a_deeply_nested_file_exits_2_with_its_json_object(tmp_path: Path) -> None:
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000, encoding="utf-8")
    status, out, err = _run("perft", "--check", str(deep), "--json")
    report = _one_object(out, "perft-report.schema.json")
    assert status == 2 and report["status"] == 2 and "Traceback" not in err
    assert "nest more than 64 deep" in report["error"]["message"]
    status, out, _ = _run("perft", "--check", str(deep))
    assert status == 2 and "nest more than 64 deep" in out


def test_perft_check_of_dev_zero_is_refused_without_reading_it() -> None:
    run = subprocess.run([sys.executable, "-m", "bottleimp", "perft", "--check", "/dev/zero",
                          "--json"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    report = _one_object(run.stdout, "perft-report.schema.json")
    assert run.returncode == 2 and "Traceback" not in run.stderr
    assert report["error"]["message"] == "/dev/zero is not a regular file"


def test_perft_check_names_the_json_path_of_a_missing_or_mistyped_key(tmp_path: Path) -> None:
    stored = json.loads((ROOT / "spec" / "conformance" / "perft" / "counts.json")
                        .read_text(encoding="utf-8"))
    for part, key, path in [("input", "dealer", ".input.dealer"), (None, "expected", ".expected"),
                            ("expected", "remaining", ".expected.remaining")]:
        document = copy.deepcopy(stored)
        document["groups"] = document["groups"][:1]
        case = document["groups"][0]["cases"][0]
        if part is None:
            case[key] = []
        else:
            del case[part][key]
        file = tmp_path / "perft.json"
        file.write_text(json.dumps(document), encoding="utf-8")
        status, out, err = _run("perft", "--check", str(file), "--json")
        report = _one_object(out, "perft-report.schema.json")
        assert status == 2 and "Traceback" not in err
        assert report["error"]["path"] == f"{file}:$.groups[0].cases[0]{path}"


# --- arena --json ----------------------------------------------------------------------------

@pytest.mark.parametrize("argv", [("--games", "x"), ("--players", "9"), ("--agents", "bogus"),
                                  ("--rounds", "0"), ("--players", "3", "--teams")])
def test_arena_json_prints_its_object_when_it_refuses_its_options(argv: tuple[str, ...]) -> None:
    status, out, err = _run("arena", *argv, "--json")
    report = _one_object(out, "arena-report.schema.json")
    assert status == 2 and report == {"format": "bottleimp-arena-report/1", "status": 2,
                                      "error": {"message": report["error"]["message"],
                                                "source": "options"}}
    assert report["error"]["message"] in err


def test_every_json_report_schema_is_in_the_reports_table() -> None:
    table = (REPORTS / "README.md").read_text(encoding="utf-8")
    for schema in sorted(REPORTS.glob("*.schema.json")):
        assert f"`{schema.name}`" in table


@pytest.mark.parametrize(("command", "schema"), [
    ("validate", "validate-report.schema.json"), ("perft", "perft-report.schema.json"),
    ("arena", "arena-report.schema.json"), ("conformance", "conformance-report.schema.json"),
])
def test_every_subcommand_with_json_prints_one_object_for_a_bad_option(
    command: str, schema: str,
) -> None:
    status, out, _ = _run(command, "--no-such-option", "--json")
    report = _one_object(out, schema)
    assert status == 2 and report.get("status", report.get("exit_status")) == 2


def test_conformance_vectors_reads_case_files_through_the_one_reader(tmp_path: Path) -> None:
    (tmp_path / "trick").mkdir()
    (tmp_path / "trick" / "deep.json").write_text("[" * 100_000, encoding="utf-8")
    status, out, err = _run("conformance", "--vectors", str(tmp_path), "--json")
    report = _one_object(out, "conformance-report.schema.json")
    assert status == 2 and "Traceback" not in err
    assert report["error"].endswith("not a readable JSON file: arrays and objects nest more "
                                    "than 64 deep")


def test_a_view_read_from_text_goes_through_the_one_reader() -> None:
    with pytest.raises(RecordError, match="nest more than 64 deep"):
        view_loads("[" * 100_000)


# --- render ----------------------------------------------------------------------------------

def test_render_refuses_a_record_of_more_rounds_than_a_page_draws(tmp_path: Path) -> None:
    record = tmp_path / "long.json"
    record.write_text(json.dumps(write_game(4, MAX_PAGE_ROUNDS + 1, 3)), encoding="utf-8")
    page = tmp_path / "long.html"
    status, out, err = _run("render", str(record), "-o", str(page))
    assert status == 2 and out == "" and not page.exists()
    assert (f"no page written: the replay would draw {MAX_PAGE_ROUNDS + 1} rounds; a replay "
            f"page draws at most {MAX_PAGE_ROUNDS}") in err


def test_render_draws_a_long_record_broken_early_up_to_its_fault(tmp_path: Path) -> None:
    doc = write_game(4, 300, 3)
    doc["rounds"][1]["dealer"] = (doc["rounds"][1]["dealer"] + 1) % 4
    replay = render_record(doc)
    assert replay.steps[-1].rule == "DEALER-ROTATION"
    assert {step.round for step in replay.steps} == {0, 1}


PAGE_BYTES_PER_ROUND = 40_000
"""More than a round's share of a page (about 28 KB), for the fuzzing test's bound."""


@settings(deadline=None, max_examples=scaled(ci=30, dev=15))
@given(rounds=st.one_of(st.integers(1, 4), st.integers(MAX_PAGE_ROUNDS + 1, 200)),
       broken=st.one_of(st.none(), st.integers(1, 199)), seed=st.integers(0, 2**16))
def test_fuzzed_record_sizes_get_a_bounded_page_or_a_clear_refusal(
    rounds: int, broken: int | None, seed: int,
) -> None:
    doc = write_game(3, rounds, seed)
    drawn = rounds
    if broken is not None and broken < rounds:
        # A later dealer out of turn: the replay stops before that round is dealt.
        doc["rounds"][broken]["dealer"] = (doc["rounds"][broken]["dealer"] + 1) % 3
        drawn = broken
    try:
        replay = render_record(doc)
    except PageTooLargeError as error:
        assert drawn > MAX_PAGE_ROUNDS and str(drawn) in error.message
        return
    assert drawn <= MAX_PAGE_ROUNDS and len(replay.report.rounds) == drawn
    assert len(replay.page) <= PAGE_BYTES_PER_ROUND * drawn + 60_000

"""``bottleimp conformance --json`` prints exactly one JSON object in every mode, exit status 2
included, and every such object validates against ``spec/reports/conformance-report.schema.json``
(format ``bottleimp-conformance-report/3``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp.cli import main
from bottleimp.conformance._report import REPORT_FORMAT
from depth import MIN_SENT, scaled

ROOT = Path(__file__).resolve().parent.parent
PEER = f"{sys.executable} {ROOT / 'examples' / 'reference_peer' / 'peer.py'}"
SCHEMA = json.loads((ROOT / "spec" / "reports" / "conformance-report.schema.json").read_text())
VALIDATOR = Draft202012Validator(SCHEMA)


def _one_object(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, Any]:
    try:
        status = main(argv)
    except SystemExit as leaving:  # argparse's usage errors leave through SystemExit
        status = int(leaving.code or 0)
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, out
    value = json.loads(lines[0])
    errors = sorted(VALIDATOR.iter_errors(value), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors]
    assert value["format"] == REPORT_FORMAT and value["exit_status"] == status
    return status, value


def test_a_differential_run_with_planted_bugs_is_one_valid_object(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, value = _one_object(capsys, [
        "conformance", "--cmd", PEER + " --players 3 --editions classic --no-teams "
        # Shrinking in CI only (dev: 0.01 s, under what a group needs): the object is the point.
        "--bug wrong-coins --bug random-dealer", "--examples", "8",
        "--shrink-seconds", f"{scaled(ci=1000, dev=10) / 1000:g}",
        "--out", str(tmp_path), "--min-refusals", str(MIN_SENT), "--json"])
    assert status == 1 and value["mode"] == "differential"
    assert {(g["request"], g["rule"]) for g in value["groups"]} >= {("coins", "DECK")}
    assert value["summary"]["disagreements"] >= value["summary"]["failed"] > 0


def test_a_faithful_run_is_one_valid_object(capsys: pytest.CaptureFixture[str]) -> None:
    status, value = _one_object(capsys, ["conformance", "--cmd", PEER, "--examples", "4",
                                         "--min-refusals", str(MIN_SENT), "--json"])
    assert status == 0 and value["groups"] == [] and value["protocol"] == "bottleimp-protocol/3"


def test_the_vectors_local_and_through_the_protocol_are_valid_objects(
    capsys: pytest.CaptureFixture[str]
) -> None:
    suite = str(ROOT / "spec" / "conformance")
    status, value = _one_object(capsys, ["conformance", "--vectors", suite, "--json"])
    assert (status, value["mode"]) == (0, "vectors")
    status, value = _one_object(capsys, ["conformance", "--vectors", suite, "--cmd",
                                         PEER + " --bug keep-winning-card", "--json"])
    assert (status, value["mode"]) == (1, "remote-vectors") and value["failures"]


@pytest.mark.parametrize("argv", [
    ["conformance", "--cmd", "no-such-program-bottleimp", "--json"],
    ["conformance", "--cmd", "'unclosed", "--json"],
    ["conformance", "--vectors", "/no/such/dir", "--json"],
    ["conformance", "--cmd", "x", "--examples", "0", "--json"],
    ["conformance", "--json"],
])
def test_a_run_that_cannot_start_still_prints_one_valid_object(
    capsys: pytest.CaptureFixture[str], argv: list[str]
) -> None:
    status, value = _one_object(capsys, argv)
    assert (status, value["mode"]) == (2, "error") and value["error"]


def test_without_json_a_usage_error_prints_nothing_on_stdout(
    capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["conformance", "--cmd", "x", "--examples", "0"])
    captured = capsys.readouterr()
    assert captured.out == "" and "--examples" in captured.err

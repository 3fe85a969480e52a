"""Every ``--json`` output of ``bottleimp validate`` and ``bottleimp perft`` is one JSON object per
line (one in all for perft), on every exit status, that its schema in ``spec/reports/`` accepts:
valid, broken and unreadable records, skipped entries of a folder, refused options, perft counts
and divides, the check of perft data (passing, failing and unreadable), and refused positions.
The schemas themselves refuse what a reader must not receive (no ``format``, a renamed key).
"""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path
from typing import Any

import pytest

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp import Config, legal_actions, new_game
from bottleimp.cli import main
from bottleimp.formats._state_json import action_to_json

from games import VARIANTS, doc_of, random_game

REPORTS = Path(__file__).resolve().parent.parent / "spec" / "reports"
VALIDATE = Draft202012Validator(
    json.loads((REPORTS / "validate-report.schema.json").read_text(encoding="utf-8")))
PERFT = Draft202012Validator(
    json.loads((REPORTS / "perft-report.schema.json").read_text(encoding="utf-8")))
PERFT_DATA = Path(__file__).resolve().parent.parent / "spec" / "conformance" / "perft" / "counts.json"


def errors(validator: Any, obj: Any) -> list[str]:
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(obj)]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[Any]]:
    """The exit status and the JSON objects printed, one per line (``SystemExit`` included)."""
    try:
        status = main(list(argv))
    except SystemExit as exit_:
        status = int(exit_.code or 0)
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("name", ["validate-report", "perft-report"])
def test_the_schemas_are_draft_2020_12_schemas(name: str) -> None:
    Draft202012Validator.check_schema(
        json.loads((REPORTS / f"{name}.schema.json").read_text(encoding="utf-8")))


def _records(folder: Path) -> dict[str, Path]:
    good = doc_of(random_game(VARIANTS["classic-4p"], 3))
    broken = copy.deepcopy(good)
    plays = broken["rounds"][1]["plays"]
    plays[4], plays[5] = plays[5], plays[4]
    wrong_score = copy.deepcopy(good)
    wrong_score["rounds"][0]["scores"][0] += 1
    partial = doc_of(random_game(VARIANTS["matagot-5p-two-bottles"], 3, 40))
    teams = copy.deepcopy(good)
    teams["config"]["teams"] = [[0, 1], [2, 3], [0]]
    # Setups recorded in another seat order than the library's: a convention, noted.
    noted = doc_of(random_game(VARIANTS["classic-4p"], 11, 5))
    del noted["rounds"][0]["setup"][1]["right"]
    texts = {
        "good.json": json.dumps(good), "broken.json": json.dumps(broken),
        "score.json": json.dumps(wrong_score), "partial.json": json.dumps(partial),
        "teams.json": json.dumps(teams), "not-json.json": "{", "nan.json": '{"a": NaN}',
        "deep.json": "[" * 5000, "array.json": "[]", "noted.json": json.dumps(noted),
    }
    paths = {}
    for name, text in texts.items():
        paths[name] = folder / name
        paths[name].write_text(text, encoding="utf-8")
    return paths


def test_validate_json_of_valid_broken_and_malformed_records_fits_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paths = _records(tmp_path)
    status, objects = run_json(capsys, "validate", "--json", *map(str, paths.values()),
                               str(tmp_path / "absent.json"))
    assert status == 2
    assert len(objects) == len(paths) + 1
    for obj in objects:
        assert errors(VALIDATE, obj) == [], obj["file"]
        assert obj["format"] == "bottleimp-validate-report/1"
    by_file = {Path(obj["file"]).name: obj for obj in objects}
    assert by_file["good.json"]["status"] == 0
    assert by_file["broken.json"]["status"] == by_file["score.json"]["status"] == 1
    assert by_file["deep.json"]["status"] == by_file["absent.json"]["status"] == 2
    assert by_file["teams.json"]["errors"][0]["path"] == "$.config.teams"
    assert by_file["noted.json"]["status"] == 0 and by_file["noted.json"]["errors"] == []
    assert [note["rule"] for note in by_file["noted.json"]["notes"]] == ["SETUP-ORDER"]
    tricks = by_file["good.json"]["rounds"][0]["tricks"]
    assert tricks and all({"price_before", "price_after"} <= trick.keys() for trick in tricks)


def test_validate_json_of_each_single_file_is_one_object_even_on_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name, path in _records(tmp_path).items():
        status, objects = run_json(capsys, "validate", "--json", str(path))
        assert len(objects) == 1 and objects[0]["status"] == status, name
        assert errors(VALIDATE, objects[0]) == [], name
    empty = tmp_path / "empty"
    empty.mkdir()
    status, (obj,) = run_json(capsys, "validate", "--json", str(empty))
    assert status == 2 and errors(VALIDATE, obj) == [] and obj["errors"][0]["path"] == "$"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are a POSIX feature")
def test_validate_json_names_skipped_entries_and_fits_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "records"
    (folder / "inner").mkdir(parents=True)
    (folder / "good.json").write_text(json.dumps(doc_of(random_game(VARIANTS["classic-3p"], 1))),
                                      encoding="utf-8")
    os.mkfifo(folder / "pipe.json")
    (folder / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    (folder / "to-pipe.json").symlink_to(folder / "pipe.json")
    (folder / "loop").symlink_to(folder)
    (folder / "notes.txt").write_text("not a record", encoding="utf-8")
    status, objects = run_json(capsys, "validate", "--json", str(folder))
    assert status == 0
    for obj in objects:
        assert errors(VALIDATE, obj) == [], obj
    skipped = {Path(obj["file"]).name: obj["skipped"] for obj in objects if "skipped" in obj}
    assert skipped == {
        "dangling.json": "a link to nothing (its target does not exist)",
        "pipe.json": "a FIFO, not a regular file",
        "to-pipe.json": "a link to a FIFO, not a regular file",
        "loop": "a link to a folder, not followed (a loop of links would never end)",
    }
    assert main(["validate", str(folder)]) == 0
    text = capsys.readouterr().out
    assert f"{folder / 'pipe.json'}: skipped: a FIFO, not a regular file" in text
    assert f"{folder / 'loop'}: skipped: a link to a folder" in text


def test_validate_json_of_refused_options_is_one_object(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    status, (obj,) = run_json(capsys, "validate", "--json", "--jobs", "0", str(tmp_path))
    assert status == 2 and errors(VALIDATE, obj) == []
    assert "--jobs" in obj["error"]["message"]


def _small_perft_file(folder: Path, wrong: bool = False) -> Path:
    """The perft data cut to two cheap cases (3 players), one count made wrong if asked."""
    data = json.loads(PERFT_DATA.read_text(encoding="utf-8"))
    group = next(g for g in data["groups"] if g["config"] == {"edition": "classic", "players": 3})
    group["cases"] = [case for case in group["cases"] if case["expected"].get("round") == 4]
    group["cases"].append(copy.deepcopy(group["cases"][0]))
    if wrong:
        group["cases"][1]["expected"]["depths"]["1"] += 1
    data["groups"] = [group]
    path = folder / ("wrong.json" if wrong else "small.json")
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def test_perft_json_of_counts_divides_and_checks_fits_the_schema(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = legal_actions(new_game(Config(players=4), 2))[0]
    give = json.dumps([action_to_json(first)])
    runs: list[tuple[tuple[str, ...], int]] = [
        (("--players", "3", "--depth", "2"), 0),
        (("--players", "3", "--depth", "2", "--divide"), 0),
        (("--players", "4", "--seed", "2", "--actions", give, "--depth", "1"), 0),
        (("--check", str(_small_perft_file(tmp_path))), 0),
        (("--check", str(_small_perft_file(tmp_path, wrong=True))), 1),
    ]
    for argv, expected in runs:
        status, objects = run_json(capsys, "perft", "--json", *argv)
        assert status == expected and len(objects) == 1, argv
        (obj,) = objects
        assert errors(PERFT, obj) == [] and obj["status"] == status, argv
    status, (divided,) = run_json(capsys, "perft", "--json", "--players", "3", "--depth", "2",
                                  "--divide")
    assert divided["count"] == sum(item["count"] for item in divided["divide"]) == 132
    status, (checked,) = run_json(capsys, "perft", "--json", "--check",
                                  str(_small_perft_file(tmp_path, wrong=True)))
    assert (checked["passed"], checked["failed"]) == (1, 1)
    assert checked["cases"][1]["differences"] == ["depth 1: expected 3, got 2"]


@pytest.mark.parametrize(
    ("argv", "source", "path"),
    [
        (("--actions", "[{"), "--actions", "$"),
        (("--actions", '[{"type": "give", "seat": 1, "to": "devils_trick", "card": 99}]'),
         "--actions", "$[0].card"),
        (("--actions", '[{"type": "play", "seat": 1, "card": 3}]'), "--actions", "$[0]"),
        (("--depth", "-1"), "--depth", None),
        (("--players", "9"), "options", None),
        (("--check", "{missing}"), "{missing}", "{missing}:$"),
        (("--check", "{not-json}"), "{not-json}", "{not-json}:$"),
    ],
)
def test_perft_json_on_exit_2_is_one_object_saying_what_and_where(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], source: str,
    path: str | None,
) -> None:
    not_json = tmp_path / "not-json.json"
    not_json.write_text('{"format": ', encoding="utf-8")
    places = {"{missing}": str(tmp_path / "missing.json"), "{not-json}": str(not_json)}
    argv = tuple(places.get(item, item) for item in argv)
    status, objects = run_json(capsys, "perft", "--json", *argv)
    assert status == 2 and len(objects) == 1
    (obj,) = objects
    assert errors(PERFT, obj) == [], obj
    assert obj["error"]["source"] == places.get(source, source)
    for place, name in places.items():
        path = None if path is None else path.replace(place, name)
    assert obj["error"]["path"] == path and obj["error"]["message"]


def test_the_schemas_refuse_an_object_without_its_format_or_with_a_renamed_key(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, (report,) = run_json(capsys, "validate", "--json", str(_records(tmp_path)["good.json"]))
    without = {key: value for key, value in report.items() if key != "format"}
    assert errors(VALIDATE, without)
    renamed = copy.deepcopy(report)
    trick = renamed["rounds"][0]["tricks"][0]
    trick["price"] = trick.pop("price_after")
    assert errors(VALIDATE, renamed)
    _, (count,) = run_json(capsys, "perft", "--json", "--players", "3", "--depth", "1")
    assert errors(PERFT, {**count, "format": "bottleimp-perft-report/2"})
    assert errors(PERFT, {key: value for key, value in count.items() if key != "count"})


def test_the_package_data_globs_ship_every_conformance_file() -> None:
    """``bottleimp/data/conformance`` (a link to ``spec/conformance``) is copied into a wheel by
    the package-data globs of ``pyproject.toml``: each of its files must match one, or a wheel
    installed outside this repository would lack it (``scripts/check_wheel.py`` runs the
    shipped data from such a wheel)."""
    import fnmatch
    import tomllib

    from bottleimp.conformance._vectors import conformance_data

    root = Path(__file__).resolve().parent.parent
    pyproject = tomllib.loads((root / "pyproject.toml").read_text(encoding="utf-8"))
    globs = pyproject["tool"]["setuptools"]["package-data"]["bottleimp"]
    data = conformance_data()
    assert data.resolve() == (root / "spec" / "conformance").resolve()
    files = [path for path in data.rglob("*") if path.is_file()]
    assert len(files) > 10
    for path in files:
        # fnmatch's * crosses "/", setuptools' does not: compare folder depths too.
        name = path.relative_to(data.parent.parent).as_posix()
        assert any(fnmatch.fnmatch(name, glob) and name.count("/") == glob.count("/")
                   for glob in globs), name

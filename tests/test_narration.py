"""The narration of ``bottleimp simulate`` as a reader sees it: plain text that fits 80 columns
for every variant, without escape codes when piped, under ``NO_COLOR`` or with ``--plain``;
colours, word wrapping and a score table on a terminal (rich)."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.console import Console

from bottleimp._cards import Colour
from bottleimp.cli import build_parser, main
from bottleimp.cli._arguments import config_from_args
from bottleimp.cli._simulate import play_game
from bottleimp.cli._narrate import (
    CARD_STYLES,
    Block,
    Paragraph,
    PlainRenderer,
    RichRenderer,
    Span,
    plain_width,
    wrap,
)

from test_simulate import VARIANT_OPTIONS

REPO = Path(__file__).resolve().parents[1]
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(autouse=True)
def _no_colour_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("COLUMNS", "NO_COLOR", "FORCE_COLOR", "TERM"):
        monkeypatch.delenv(name, raising=False)


def _options(name: str) -> list[str]:
    options = VARIANT_OPTIONS[name]
    return options if "--target-score" in options else [*options, "--rounds", "2"]


@pytest.mark.parametrize("rules", [False, True])
@pytest.mark.parametrize("name", sorted(VARIANT_OPTIONS))
def test_plain_narration_fits_80_columns_for_every_variant(
    name: str, rules: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["simulate", *_options(name), *(["--rules"] if rules else [])]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert len(lines) > 10
    too_long = [line for line in lines if len(line) > 80]
    assert not too_long, too_long
    assert "\x1b" not in out
    # Cards are written with their colours as words, so a reader sees why a card was forced.
    assert re.search(r"seat \d: \d+(\.5)? (yellow|blue|red|green)", out)
    assert "Coins won" in out and "Total" in out


@pytest.mark.parametrize("width", [40, 60, 100])
def test_plain_narration_fits_any_width_given_by_the_columns_variable(
    width: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(["simulate", "--players", "6", "--rounds", "1", "--rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert max(len(line) for line in lines if not line.startswith("    ")) <= width
    if width >= 60:  # the score table fits from 60 columns on
        assert max(len(line) for line in lines) <= width


def test_no_escape_codes_with_plain_or_no_color_even_when_colour_is_forced(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main(["simulate", "--rounds", "1", "--plain"]) == 0
    assert "\x1b" not in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    assert main(["simulate", "--rounds", "1"]) == 0
    assert "\x1b" not in capsys.readouterr().out


def test_no_escape_codes_when_piped() -> None:
    environment = {
        key: value for key, value in os.environ.items()
        if key not in ("FORCE_COLOR", "NO_COLOR", "COLUMNS")
    }
    environment["PYTHONPATH"] = str(REPO)
    command = [sys.executable, "-m", "bottleimp", "simulate", "--rounds", "1"]
    result = subprocess.run(
        command, capture_output=True, text=True, timeout=120, env=environment, cwd=REPO
    )
    assert result.returncode == 0, result.stderr
    assert "\x1b" not in result.stdout
    assert max(len(line) for line in result.stdout.splitlines()) <= 80


def _rich_narration(options: list[str], width: int = 80, rules: bool = True) -> str:
    out = io.StringIO()
    console = Console(
        file=out, force_terminal=True, width=width, color_system="standard", highlight=False
    )
    renderer = RichRenderer(console, show_rules=rules)
    args = build_parser().parse_args(["simulate", *options])
    play_game(config_from_args(args), args.seed, args.bot, renderer.write)
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(VARIANT_OPTIONS))
def test_a_terminal_gets_colours_and_lines_that_fit_80_columns(name: str) -> None:
    text = _rich_narration(_options(name))
    assert "\x1b[" in text
    plain = ANSI.sub("", text)
    too_long = [line for line in plain.splitlines() if len(line) > 80]
    assert not too_long, too_long
    assert "Round 1 scores" in plain and "Coins won" in plain
    # Rule IDs are dimmed (SGR 2).
    assert re.search(r"\x1b\[2m(?:\x1b\[[0-9;]*m)*TRICK-WINNER", text)


@pytest.mark.parametrize("width", [40, 60, 120])
def test_a_terminal_of_any_width_gets_lines_that_fit(width: int) -> None:
    text = _rich_narration(["--players", "6", "--rounds", "1"], width=width)
    lines = ANSI.sub("", text).splitlines()
    assert max(len(line) for line in lines) <= width
    assert any(len(line) > width - 12 for line in lines)  # the width is used, not just 80


def test_each_card_is_drawn_in_its_colour() -> None:
    text = _rich_narration(["--players", "4", "--rounds", "1"])
    # classic: yellow (43), blue (44) and red (41) backgrounds; matagot: green (42)
    for code in ("43", "44", "41"):
        assert re.search(rf"\x1b\[[0-9;]*{code}m \d+ ", text), code
    green = _rich_narration(["--players", "5", "--rounds", "1"])
    assert re.search(r"\x1b\[[0-9;]*42m \d+(\.5)? ", green)
    assert set(CARD_STYLES) == set(Colour)


def test_force_color_gives_a_rich_narration_through_the_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert main(["simulate", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "\x1b[" in out
    assert max(len(line) for line in ANSI.sub("", out).splitlines()) <= 80


def test_wrapping_breaks_only_between_words() -> None:
    spans = [Span("alpha beta "), Span("seat 3: ", keep=True), Span("12 red", keep=True),
             Span(" gamma")]
    lines = wrap([(span, (span.text, "")) for span in spans], 12, "", "  ")
    texts = ["".join(text for text, _ in line) for line in lines]
    assert texts == ["alpha beta", "  seat 3: 12 red", "  gamma"]
    renderer = PlainRenderer(width=40)
    block: Block = Paragraph("Trick 1", (Span("word " * 30),))
    assert all(len(line) <= 40 for line in renderer.lines(block))
    assert all(line.endswith("word") for line in renderer.lines(block))


def test_plain_width_is_80_when_not_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    assert plain_width(io.StringIO()) == 80
    monkeypatch.setenv("COLUMNS", "72")
    assert plain_width(io.StringIO()) == 72


NUMBER_CUT = re.compile(r"\b(?:seats?|round|trick|play)$", re.IGNORECASE)


@pytest.mark.parametrize("name", ["devils-eye", "second-bottle-five", "teams-six"])
@pytest.mark.parametrize("width", [40, 60, 80])
def test_a_line_never_breaks_between_a_seat_and_its_number_nor_before_punctuation(
    name: str, width: int
) -> None:
    plain = ANSI.sub("", _rich_narration(_options(name), width=width)).splitlines()
    plain_text = io.StringIO()
    args = build_parser().parse_args(["simulate", *_options(name)])
    renderer = PlainRenderer(width=width, show_rules=True)
    play_game(config_from_args(args), args.seed, args.bot,
              lambda blocks: renderer.write(blocks, plain_text))
    for lines in (plain, plain_text.getvalue().splitlines()):
        cut = [
            f"{line.strip()!r} / {after.strip()!r}" for line, after in zip(lines, lines[1:])
            if NUMBER_CUT.search(line.rstrip()) and after.strip()[:1].isdigit()
        ]
        assert not cut, cut
        # A card's chip touches the punctuation after it ("36." and never "36 .").
        spaced = [line for line in lines if re.search(r"\d [.,:;](?: |$)", line)]
        assert not spaced, spaced


# -- one numbering: rounds, tricks and plays from 1 wherever people read them ------------------

OTHER_NUMBERING = re.compile(
    r"\b(?:rounds?|tricks?|plays?)\b[^.]{0,60}?\b(?:numbered|counted) from 0\b"
    r"|\b(?:round|trick|play) 0\b",
    re.IGNORECASE,
)
"""Rounds, tricks or plays counted from 0 in text for people (seats and JSON indices are)."""
CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.MULTILINE | re.DOTALL)


def other_numbering(text: str) -> list[str]:
    """The places in ``text`` (code and code spans left out) that number rounds, tricks or plays
    from 0."""
    prose = " ".join(CODE.sub(" ", text).split())
    return [match[0] for match in OTHER_NUMBERING.finditer(prose)]


def test_other_numbering_is_found() -> None:
    assert other_numbering("Rounds, tricks and plays are numbered from 0, as in") == [
        "Rounds, tricks and plays are numbered from 0"
    ]
    assert other_numbering("the fault lies in round 0, play 5.") == ["round 0"]
    assert other_numbering("Seats are numbered from 0. `round 0` is code.") == []


def test_the_docs_number_rounds_tricks_and_plays_from_1() -> None:
    pages = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md")),
             *sorted((REPO / "spec").glob("*.md"))]
    found = [f"{page.relative_to(REPO)}: {match!r}" for page in pages
             for match in other_numbering(page.read_text(encoding="utf-8"))]
    assert not found, found


def test_the_messages_number_rounds_tricks_and_plays_from_1() -> None:
    from bottleimp.formats._cases import read_suite
    from bottleimp.pictures._replay import render_record_html
    from bottleimp.validation import validate_json

    records = [case.input["record"] for case in read_suite(REPO / "spec" / "conformance")
               if case.kind == "record" and isinstance(case.input, dict)
               and isinstance(case.expected, dict) and case.expected.get("verdict") == "broken"]
    messages = []
    for record in records:
        report = validate_json(record)
        messages += [fault.message for fault in report.errors]
    assert len(messages) > 20
    pages = [render_record_html(record) for record in records[::10]]
    narration = ANSI.sub("", _rich_narration(["--players", "4", "--rounds", "2"]))
    found = [match for text in (*messages, *pages, narration) for match in other_numbering(text)]
    assert not found, found
    assert any("round 1" in message for message in messages)

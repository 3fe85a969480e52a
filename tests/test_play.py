"""``bottleimp play`` driven as a person would: a separate process, its screen read up to each
prompt, the answers typed in. A garbage line, a number out of range and a card the rules refuse
(with its rule ID and statement), then legal cards to the end of the game; the saved record is
checked by ``bottleimp validate``."""

from __future__ import annotations

import contextlib
import io
import os
import re
import select
import subprocess
import sys
from pathlib import Path

from bottleimp.cli import main

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"(q to quit\]|Enter to skip\)): $")
CARD_LINE = re.compile(r"^\s+(\d+)([* ]) (.+)$")


class Person:
    """Someone at the terminal of a ``bottleimp play`` process: reads what it shows up to its
    next question, and types an answer."""

    def __init__(self, *argv: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bottleimp", "play", *argv],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
        )
        self.transcript = ""

    def read_screen(self) -> str | None:
        """What appears up to the next question, or ``None`` once the program has ended."""
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        shown = ""
        while not PROMPT.search(shown):
            ready, _, _ = select.select([fd], [], [], 120)
            assert ready, f"no question within 120 s; the screen so far:\n{shown}"
            data = os.read(fd, 65536)
            if not data:
                self.transcript += shown
                return None
            shown += data.decode()
        self.transcript += shown
        return shown

    def type(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(f"{line}\n".encode())
        self.process.stdin.flush()

    def finish(self) -> tuple[int, str]:
        status = self.process.wait(timeout=60)
        assert self.process.stderr is not None
        return status, self.process.stderr.read().decode()


def _offered(screen: str) -> tuple[list[int], list[int]]:
    """The numbers of the cards last listed on the screen: those marked playable, the others."""
    listing = screen[screen.rindex("Your cards") :]
    playable: list[int] = []
    refused: list[int] = []
    for line in listing.splitlines():
        match = CARD_LINE.match(line)
        if match:
            (playable if match.group(2) == "*" or "Your cards:" in listing else refused).append(
                int(match.group(1))
            )
    return playable, refused


def _validate(path: Path) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        status = main(["validate", str(path)])
    return status, out.getvalue()


def test_a_person_plays_a_whole_game_and_saves_the_record_FOLLOW_SUIT(tmp_path: Path) -> None:
    person = Person("--players", "3", "--rounds", "1", "--seed", "3", "--agents", "heuristic,random")
    record = tmp_path / "game.json"
    tried = {"garbage": False, "range": False, "illegal": False}
    while (screen := person.read_screen()) is not None:
        if screen.rstrip().endswith("Enter to skip):"):
            person.type(str(record))
            continue
        playable, refused = _offered(screen)
        if not tried["garbage"]:
            tried["garbage"] = True
            person.type("seven")
            assert "Type a card's number" in (person.read_screen() or "")
        if not tried["range"]:
            tried["range"] = True
            person.type("99")
            assert "There is no card 99" in (person.read_screen() or "")
        if refused and not tried["illegal"]:
            tried["illegal"] = True
            person.type(str(refused[0]))
            answer = person.read_screen() or ""
            assert "Refused: [FOLLOW-SUIT] seat 0 must follow" in answer
            assert "Follow the led colour: The leader may play any card." in answer
        person.type(str(playable[-1]))
    status, errors = person.finish()
    assert (status, errors) == (0, "")
    assert all(tried.values()), tried
    assert "The game is over. Winner" in person.transcript
    assert f"Record written to {record}." in person.transcript
    assert "Round 1 is over. The Devil's Trick: " in person.transcript
    shown_totals = re.findall(r"(?:you|seat \d) (-?\d+)", person.transcript[person.transcript.rindex("Totals: ") :].splitlines()[0])
    status, report = _validate(record)
    assert status == 0
    assert f"valid: a complete game of 1 round; totals [{', '.join(shown_totals)}]" in report


def test_a_person_who_quits_keeps_the_game_so_far(tmp_path: Path) -> None:
    record = tmp_path / "unfinished.json"
    person = Person("--players", "4", "--seat", "2", "--seed", "5", "--save", str(record))
    screen = person.read_screen() or ""
    assert "You are seat 2" in screen and "Choose a card for the Devil's Trick" in screen
    person.type("q")
    assert person.read_screen() is None
    status, errors = person.finish()
    assert (status, errors) == (1, "")
    assert "Game abandoned (you quit)." in person.transcript
    status, report = _validate(record)
    assert status == 0 and "valid: an unfinished game" in report


def test_a_seat_outside_the_table_is_refused() -> None:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            main(["play", "--players", "3", "--seat", "3"])
        except SystemExit as exit_:
            status = exit_.code
    assert status == 2 and "--seat must be 0 to 2 for 3 players" in err.getvalue()

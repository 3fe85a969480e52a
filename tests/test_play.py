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
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from bottleimp import Config, apply, legal_actions, new_game
from bottleimp.cli import main
from bottleimp.cli import _play as play_command

ROOT = Path(__file__).resolve().parent.parent
PROMPT = re.compile(r"(q to quit\]|not to save\)): $")
CARD_LINE = re.compile(r"^\s+(\d+)([* ]) (.+)$")


def _at_a_terminal() -> None:
    """In the child before it runs ``bottleimp play``: Ctrl-C (SIGINT) handled as at a terminal,
    even when the suite itself was started in the background (``nohup``, ``cmd &``), which
    ignores SIGINT for every program it starts."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


class Person:
    """Someone at the terminal of a ``bottleimp play`` process: reads what it shows up to its
    next question, and types an answer."""

    def __init__(self, *argv: str, columns: int = 80, cwd: Path | None = None) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": str(columns)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "bottleimp", "play", *argv], cwd=cwd,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
            preexec_fn=_at_a_terminal,
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


def _play_a_whole_game(tmp_path: Path, columns: int) -> Person:
    """A person plays a 1-round game to its end in a terminal ``columns`` wide, trying a
    garbage answer, a number out of range and a refused card on the way, and saves it."""
    person = Person("--players", "3", "--rounds", "1", "--seed", "3", "--agents",
                    "heuristic,random", columns=columns)
    record = tmp_path / "game.json"
    tried = {"garbage": False, "range": False, "illegal": False}
    while (screen := person.read_screen()) is not None:
        if screen.rstrip().endswith("not to save):"):
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
            assert "Refused: [FOLLOW-SUIT] seat 0 must follow" in _words(answer)
            assert "Follow the led colour: The leader may play any card." in _words(answer)
        person.type(str(playable[-1]))
    status, errors = person.finish()
    assert (status, errors) == (0, "")
    assert all(tried.values()), tried
    return person


def _words(text: str) -> str:
    return " ".join(text.split())


def test_a_person_plays_a_whole_game_and_saves_the_record_FOLLOW_SUIT(tmp_path: Path) -> None:
    person = _play_a_whole_game(tmp_path, 80)
    record = tmp_path / "game.json"
    said = _words(person.transcript)
    assert "The game is over. Winner" in said
    assert f"Record written to {record}." in said
    assert "Round 1 is over. The Devil's Trick: " in said
    shown_totals = re.findall(r"(?:you|seat \d) (-?\d+)", said[said.rindex("Totals: "):].split(".")[0])
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


@pytest.mark.parametrize("columns", [80, 40])
def test_the_game_is_wrapped_to_the_terminal_at_word_boundaries(tmp_path: Path, columns: int) -> None:
    """Every line fits the terminal (``$COLUMNS``, as ``simulate``'s plain text), and the words
    are those of the same game in a terminal too wide to wrap anything: none is split."""
    narrow = _play_a_whole_game(tmp_path, columns).transcript
    wide = _play_a_whole_game(tmp_path, 1000).transcript
    record = str(tmp_path / "game.json")
    too_long = [line for line in narrow.splitlines() if len(line) > columns and record not in line]
    assert not too_long, too_long
    assert narrow.split() == wide.split()
    assert any(len(line) > columns for line in wide.splitlines())  # there was something to wrap
    assert "q to quit]:" in narrow and "[1-1," not in narrow


def test_the_prompt_for_a_single_card_names_one_number() -> None:
    screen = play_command.Screen(io.StringIO(), 80)
    assert screen.ask(io.StringIO("x\n"), "Play a card", "[1, q to quit]:") == "x"
    assert isinstance(screen.out, io.StringIO)
    assert screen.out.getvalue() == "Play a card [1, q to quit]: x\n"


def _hostile(stdin: bytes, *argv: str) -> tuple[int, str, str]:
    """``bottleimp play`` with ``stdin`` piped in, decoded strictly as UTF-8 (a UTF-8 locale's
    default; under the C locale Python would escape undecodable bytes instead)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1", "COLUMNS": "80",
           "PYTHONIOENCODING": "utf-8:strict"}
    done = subprocess.run([sys.executable, "-m", "bottleimp", "play", *argv], input=stdin,
                          capture_output=True, env=env, timeout=60)
    return done.returncode, done.stdout.decode(errors="replace"), done.stderr.decode(errors="replace")


def test_a_line_that_is_not_utf8_is_a_wrong_answer_not_a_traceback() -> None:
    status, out, err = _hostile(b"\xff\xfe7\n\x80\nq\n", "--players", "3", "--seed", "2")
    assert (status, err) == (1, ""), err
    assert out.count("Type a card's number, 1 to 12, or q to quit") == 2
    assert "Game abandoned (you quit)." in out


def test_a_nul_byte_in_the_file_name_at_the_save_prompt_is_refused_and_asked_again(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    state = new_game(Config(players=2, edition="classic"), 1)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    monkeypatch.setattr(play_command, "play_session", lambda *args: state)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "stdin", io.StringIO("a\0b.json\n\n"))
    assert main(["play", "--players", "2", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    assert "cannot write the record to a\\x00b.json: a file name cannot hold a NUL byte" in captured.err
    assert "Record written to bottleimp-4.json." in captured.out
    assert _validate(tmp_path / "bottleimp-4.json")[0] == 0


def test_an_answer_line_is_read_in_bounded_pieces_and_never_echoed_whole() -> None:
    """A line of 8 MiB is refused as too long; what is written back is a few hundred bytes of
    it, and the game goes on to the next answer."""
    status, out, err = _hostile(b"7" * (8 << 20) + b"\nq\n", "--players", "3", "--seed", "2")
    assert (status, err) == (1, "")
    assert "That answer is longer than 200 characters." in out
    assert len(out) < 4000 and "Game abandoned (you quit)." in out


def test_ctrl_c_while_waiting_for_an_answer_abandons_the_game_without_a_traceback() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    process = subprocess.Popen([sys.executable, "-m", "bottleimp", "play", "--players", "3"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, env=env, preexec_fn=_at_a_terminal)
    assert process.stdout is not None
    shown = b""
    while not shown.rstrip().endswith(b"q to quit]:"):
        ready, _, _ = select.select([process.stdout], [], [], 60)
        assert ready, shown
        shown += os.read(process.stdout.fileno(), 65536)
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 1 and err == b"", err.decode()
    assert b"Game abandoned (interrupted)." in out


def test_a_save_path_that_cannot_be_written_is_refused_before_the_first_card(tmp_path: Path) -> None:
    person = Person("--players", "3", "--save", str(tmp_path / "no-such-folder" / "game.json"))
    assert person.read_screen() is None
    status, errors = person.finish()
    assert status == 2
    assert "cannot write the record to" in errors and "No such file or directory" in errors
    assert "Choose a card" not in person.transcript


def test_a_bad_name_at_the_end_is_asked_again_and_the_default_name_works(tmp_path: Path) -> None:
    """A whole game, then a file name in a folder that does not exist: refused, asked again;
    Enter then takes the offered default name, in the current folder, and the record is valid."""
    person = Person("--players", "3", "--rounds", "1", "--seed", "8", cwd=tmp_path)
    asked = 0
    while (screen := person.read_screen()) is not None:
        if screen.rstrip().endswith("not to save):"):
            asked += 1
            assert "(Enter for bottleimp-8.json, a file name, or n not to save):" in _words(screen)
            person.type(str(tmp_path / "typo" / "game.json") if asked == 1 else "")
            continue
        playable, _ = _offered(screen)
        person.type(str(playable[0]))
    status, errors = person.finish()
    assert asked == 2 and status == 0
    assert "cannot write the record to" in errors and "typo" in errors
    assert "Type another file name, or n not to save." in _words(person.transcript)
    assert "Record written to bottleimp-8.json." in person.transcript
    status, report = _validate(tmp_path / "bottleimp-8.json")
    assert status == 0 and "valid: a complete game of 1 round" in report


def test_a_save_file_gone_by_the_end_of_the_game_leads_to_the_prompt(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    person = Person("--players", "3", "--seed", "5", "--save", str(folder / "game.json"))
    assert "Choose a card" in (person.read_screen() or "")
    folder.rmdir()  # the folder --save named goes away during the game
    person.type("q")
    screen = person.read_screen() or ""
    assert "The game's record is kept: name another file." in _words(screen)
    person.type(str(tmp_path / "kept.json"))
    assert person.read_screen() is None
    status, errors = person.finish()
    assert status == 1 and "cannot write the record to" in errors
    status, report = _validate(tmp_path / "kept.json")
    assert status == 0 and "valid: an unfinished game" in report


def test_a_game_interrupted_by_ctrl_c_can_still_be_saved(tmp_path: Path) -> None:
    """Ctrl-C at a question abandons the game; the prompt then offers to save the game so far."""
    person = Person("--players", "3", "--seed", "6")
    assert "Choose a card" in (person.read_screen() or "")
    person.type("1")  # one setup card chosen, then Ctrl-C at the next question
    assert "Choose a card" in (person.read_screen() or "")
    person.process.send_signal(signal.SIGINT)
    screen = person.read_screen() or ""
    assert "Game abandoned (interrupted)." in screen
    assert "Save the record of the game so far to" in _words(screen)
    person.type(str(tmp_path / "so-far.json"))
    assert person.read_screen() is None
    status, errors = person.finish()
    assert (status, errors) == (1, "")
    status, report = _validate(tmp_path / "so-far.json")
    assert status == 0 and "valid: an unfinished game" in report


def test_a_game_whose_input_ends_says_it_is_not_saved() -> None:
    status, out, err = _hostile(b"1\n", "--players", "3", "--seed", "2")
    assert (status, err) == (1, "")
    assert "Game abandoned (input ended)." in out and "The record is not saved." in out


def test_devils_eye_labels_the_hand_and_the_face_up_row_and_the_legend_comes_once() -> None:
    """Two players (Devil's Eye, rule EYE-FOLLOW-SUIT): at a trick the list has the hidden hand,
    then the face-up row, numbered on; the legend of the marks is said once, at the start."""
    person = Person("--players", "2", "--seed", "3")
    screen = person.read_screen() or ""
    while "Play a card" not in screen:
        playable, _ = _offered(screen)
        person.type(str(playable[0]))
        screen = person.read_screen() or ""
    listing = screen[screen.rindex("Your cards (* may be played now):"):].splitlines()
    hand_at = listing.index("  Your hidden hand:")
    row_at = listing.index("  Your face-up row:")
    numbers = [int(match.group(1)) for line in listing if (match := CARD_LINE.match(line))]
    assert hand_at == 1 and numbers == list(range(1, len(numbers) + 1))
    assert CARD_LINE.match(listing[row_at + 1]).group(1) == str(row_at - hand_at)  # type: ignore[union-attr]
    person.type("q")
    person.read_screen()
    person.type("n")
    assert person.read_screen() is None
    assert person.finish()[0] == 1
    said = _words(person.transcript)
    assert said.count("How to read the screen:") == 1
    assert "(24 blue (5): the 24 of blue, worth 5 coins)" in said
    assert "A * marks the cards the rules allow you now" in said
    assert said.count("Devil's Eye: you play from your hidden hand and from your face-up row") == 1


def test_the_legend_says_nothing_of_face_up_rows_with_more_players() -> None:
    assert all("face-up" not in line for line in play_command.legend(Config(players=4)))
    assert any("face-up row" in line for line in play_command.legend(Config(players=2)))

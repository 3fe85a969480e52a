"""Hostile peers and clients: each case found by a fuzzing campaign is a
regression test here.

Against the harness, a hostile peer must be reported within its timeout plus a second, the
harness must stay under 200 MB (measured as the peak resident size of a harness run in its own
process), nothing the harness started may outlive the run, and every failure record it writes
must pass ``bottleimp validate`` (status 0 or 1, never 2). Against ``--serve``, a hostile request
line is refused with rule ``PROTOCOL`` and serving goes on, in bounded memory.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest

from bottleimp.conformance._peer import MAX_LINE_BYTES, clip, printable
from bottleimp.formats._json_input import limited_lines
from bottleimp.conformance._peer import (
    RECORDED_ANSWER_CHARS,
    STDERR_LINE_BYTES,
    STDERR_LINES,
    answer_for_record,
)
from bottleimp.formats._json_input import JSON
from bottleimp.validation import validate_file
from depth import scaled

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_PEER = ROOT / "examples" / "reference_peer" / "peer.py"
HARNESS_LIMIT_MB = 200
POSIX_ONLY = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="measures processes through /proc and resource")

# A harness run in a process of its own: the caps it is run under keep a regression from
# taking the machine down (it fails instead), and its peak resident size is measured.
_HARNESS = """
import json, resource, sys, time
resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))
import hypothesis  # imported before the clock starts: the run is what is timed
from bottleimp.cli._conformance import describe
from bottleimp.conformance._harness import run_harness
command, timeout, out = json.loads(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
shrink_seconds = float(sys.argv[4])
started = time.monotonic()
report = run_harness(command, examples=2, timeout=timeout, out_dir=out,
                     shrink_seconds=shrink_seconds)
elapsed = time.monotonic() - started
failure = report.failure
print(json.dumps({
    "elapsed": elapsed,
    "summary": report.summary,
    "kind": None if failure is None else failure.kind,
    "message": None if failure is None else failure.message,
    "described": None if failure is None else describe(failure),
    "written": None if report.written is None else str(report.written),
    # The high-water mark of this process's own memory: ru_maxrss would carry over the peak of
    # the process that started it (it survives exec), here the whole test session's.
    "peak_mb": int(next(line for line in open("/proc/self/status")
                        if line.startswith("VmHWM:")).split()[1]) / 1024,
}))
"""


def _peer(tmp_path: Path, body: str) -> list[str]:
    """A hostile peer script; it writes its own pid to ``peer.pid`` first."""
    path = tmp_path / "hostile_peer.py"
    path.write_text(
        "import os, subprocess, sys, time\n"
        f"open({str(tmp_path / 'peer.pid')!r}, 'w').write(str(os.getpid()))\n" + body,
        encoding="utf-8",
    )
    return [sys.executable, str(path)]


def _run_harness(tmp_path: Path, command: list[str], timeout: float) -> dict[str, Any]:
    out = tmp_path / "out"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    # Shrinking a hostile peer's disagreement is not what these tests check: CI gives it 1 s,
    # dev none.
    shrink_seconds = str(scaled(ci=1, dev=0))
    finished = subprocess.run(
        [sys.executable, "-c", _HARNESS, json.dumps(command), str(timeout), str(out),
         shrink_seconds],
        check=False, capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path,
    )
    assert finished.returncode == 0, finished.stderr[-3000:]
    # The harness prints its result and nothing else, however much the peer wrote.
    assert len(finished.stdout) < 64 * 1024 and len(finished.stderr) < 64 * 1024
    result: dict[str, Any] = json.loads(finished.stdout)
    return result


def _running(pid: int) -> bool:
    """Whether process ``pid`` still runs (a zombie waiting to be reaped does not)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as handle:
            stat = handle.read()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _pid(path: Path) -> int:
    return int(path.read_text(encoding="utf-8"))


def _check_reported(result: dict[str, Any], kind: str, timeout: float, tmp_path: Path) -> None:
    """The common aims: the right fault, in time, in bounded memory, a readable record, and
    no process left behind."""
    assert result["kind"] == kind, result["message"]
    # In time: cut at the timeout, not at a hostile peer's 60 s sleep or endless output. The
    # margin covers starting the peer and its earlier answers on a loaded machine.
    assert result["elapsed"] < timeout + 10.0, result["elapsed"]
    assert result["peak_mb"] < HARNESS_LIMIT_MB, result["peak_mb"]
    assert len(result["message"]) < 8000 and len(result["described"]) < 20000
    assert result["written"] is not None
    written = Path(result["written"])
    assert written.stat().st_size < 64 * 1024
    assert validate_file(written).status in (0, 1)
    assert not _running(_pid(tmp_path / "peer.pid"))


# --- answers the hardened reader refuses -----------------------------------------------------


_REFUSED_ANSWERS = {
    # name: Python expression for the answer's bytes, evaluated by the peer
    "nested 100k deep": "b'{\"ok\": ' * 100_000 + b'true' + b'}' * 100_000",
    "a number of 5000 digits": "b'{\"ok\": true, \"protocol\": ' + b'7' * 5000 + b'}'",
    "NaN": "b'{\"ok\": true, \"protocol\": NaN}'",
    "Infinity": "b'{\"ok\": true, \"to_act\": -Infinity}'",
    "not UTF-8": "b'{\"ok\": \"\\xff\\xfe\"}'",
}


@POSIX_ONLY
@pytest.mark.parametrize("name", sorted(_REFUSED_ANSWERS))
def test_a_peer_answering_what_json_input_refuses_is_malformed_not_a_traceback(
    tmp_path: Path, name: str
) -> None:
    command = _peer(tmp_path, f"answer = {_REFUSED_ANSWERS[name]} + b'\\n'\n"
                              "for line in sys.stdin:\n"
                              "    sys.stdout.buffer.write(answer)\n"
                              "    sys.stdout.flush()\n")
    result = _run_harness(tmp_path, command, timeout=2.0)
    _check_reported(result, "malformed", 2.0, tmp_path)
    assert "not JSON the protocol allows" in result["message"]


@POSIX_ONLY
def test_a_deep_answer_the_reader_accepts_is_kept_as_text_in_the_record(tmp_path: Path) -> None:
    # 60 deep: readable as an answer, but too deep to keep whole inside a record's _harness.
    answer = '{"ok": true, "protocol": ' + "[" * 59 + "]" * 59 + "}"
    (tmp_path / "answer.txt").write_text(answer, encoding="utf-8")
    command = _peer(tmp_path, "for line in sys.stdin:\n"
                              f"    print(open({str(tmp_path / 'answer.txt')!r}).read(), "
                              "flush=True)\n")
    result = _run_harness(tmp_path, command, timeout=2.0)
    assert result["kind"] == "disagreement"
    written = Path(result["written"])
    assert validate_file(written).status in (0, 1)
    harness = json.loads(written.read_text(encoding="utf-8"))["_harness"]
    assert harness["peer"] == answer.replace(" ", "")


# --- floods ----------------------------------------------------------------------------------


@POSIX_ONLY
def test_a_peer_flooding_stdout_without_newlines_is_malformed_at_once(tmp_path: Path) -> None:
    command = _peer(tmp_path, "sys.stdin.readline()\n"
                              "chunk = b'x' * 65536\n"
                              "while True:\n    sys.stdout.buffer.write(chunk)\n")
    result = _run_harness(tmp_path, command, timeout=30.0)
    _check_reported(result, "malformed", 30.0, tmp_path)
    assert f"longer than {MAX_LINE_BYTES} bytes" in result["message"]
    # At once: well before the (long) timeout, however loaded the machine.
    assert result["elapsed"] < 15.0


@POSIX_ONLY
def test_a_peer_flooding_stdout_with_short_lines_keeps_the_harness_bounded(
    tmp_path: Path,
) -> None:
    # Answer lines of 60 KB each, as fast as the pipe takes them, never reading a request.
    command = _peer(tmp_path, "line = b'{\"ok\": true, \"_pad\": \"' + b'x' * 60_000 + b'\"}\\n'\n"
                              "while True:\n    sys.stdout.buffer.write(line)\n")
    result = _run_harness(tmp_path, command, timeout=1.0)
    assert result["kind"] == "disagreement"
    assert result["peak_mb"] < HARNESS_LIMIT_MB, result["peak_mb"]
    written = Path(result["written"])
    assert validate_file(written).status in (0, 1)
    assert written.stat().st_size < 64 * 1024
    assert not _running(_pid(tmp_path / "peer.pid"))


@POSIX_ONLY
def test_a_peer_flooding_stderr_and_never_answering_times_out_in_bounded_memory(
    tmp_path: Path,
) -> None:
    # One endless line: no newline ever comes.
    command = _peer(tmp_path, "chunk = b'e' * 65536\n"
                              "while True:\n    sys.stderr.buffer.write(chunk)\n")
    result = _run_harness(tmp_path, command, timeout=1.0)
    _check_reported(result, "timeout", 1.0, tmp_path)


@POSIX_ONLY
def test_a_peer_writing_100_mb_to_stderr_then_exiting_gets_a_few_kb_into_message_and_record(
    tmp_path: Path,
) -> None:
    command = _peer(tmp_path, "sys.stdin.readline()\n"
                              "chunk = b'\\x1b[31m' + b'e' * (1024 * 1024 - 5)\n"
                              "for _ in range(100):\n    sys.stderr.buffer.write(chunk)\n"
                              "sys.stderr.buffer.write(b'\\nlast words\\n')\n"
                              "sys.exit(4)\n")
    # The peer exits once its 100 MB are drained; the timeout only bounds how long that may
    # take (over 2 s on a loaded machine, which then saw a timeout, not the crash).
    result = _run_harness(tmp_path, command, timeout=10.0)
    _check_reported(result, "crash", 10.0, tmp_path)
    message = result["message"]
    assert "exit status 4" in message and "last words" in message
    assert f"cut at {STDERR_LINE_BYTES} bytes" in message
    assert "\x1b" not in message and "\\x1b" in message  # no terminal escapes printed raw
    assert len(message) < STDERR_LINES * (STDERR_LINE_BYTES + 40) + 200
    harness = json.loads(Path(result["written"]).read_text(encoding="utf-8"))["_harness"]
    assert harness["message"] == message


# --- processes left behind -------------------------------------------------------------------


def _reference_peer_with_a_child(tmp_path: Path, then: str) -> list[str]:
    """The faithful reference peer, which first starts a child that sleeps for a minute (in its
    process group) and writes the child's pid to ``child.pid``."""
    return _peer(tmp_path, (
        "import importlib.util, json\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'],\n"
        "                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)\n"
        f"open({str(tmp_path / 'child.pid')!r}, 'w').write(str(child.pid))\n"
        f"spec = importlib.util.spec_from_file_location('peer', {str(REFERENCE_PEER)!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "peer = module.Peer(set())\n"
        "for count, line in enumerate(sys.stdin, 1):\n"
        + then +
        "    answer = peer.answer(json.loads(line))\n"
        "    print(json.dumps(answer), flush=True)\n"
        "    if json.loads(line).get('op') == 'quit':\n"
        "        sys.exit(0)\n"
    ))


@POSIX_ONLY
def test_a_child_of_a_peer_that_exits_cleanly_does_not_outlive_the_run(tmp_path: Path) -> None:
    command = _reference_peer_with_a_child(tmp_path, "")
    result = _run_harness(tmp_path, command, timeout=2.0)
    assert result["summary"].endswith(" passed, 0 failed"), result["summary"]
    assert not _running(_pid(tmp_path / "peer.pid"))
    assert not _running(_pid(tmp_path / "child.pid"))


@POSIX_ONLY
def test_a_child_of_a_peer_that_hangs_does_not_outlive_the_run(tmp_path: Path) -> None:
    command = _reference_peer_with_a_child(tmp_path, "    if count == 5:\n"
                                                     "        time.sleep(60)\n")
    result = _run_harness(tmp_path, command, timeout=1.0)
    _check_reported(result, "timeout", 1.0, tmp_path)
    assert not _running(_pid(tmp_path / "child.pid"))


@POSIX_ONLY
def test_a_peer_left_running_is_ended_with_its_children_when_the_harness_exits(
    tmp_path: Path,
) -> None:
    # The harness process exits without closing the peer: the exit handler ends its group.
    command = _reference_peer_with_a_child(tmp_path, "")
    program = (
        "import json, sys\n"
        "from bottleimp.conformance._peer import Peer\n"
        "peer = Peer(json.loads(sys.argv[1]), 2.0)\n"
        "print(json.dumps(peer.ask({'op': 'hello', 'protocol': 'bottleimp-protocol/3'})))\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    finished = subprocess.run([sys.executable, "-c", program, json.dumps(command)],
                              check=False, capture_output=True, text=True, timeout=60, env=env)
    assert finished.returncode == 0, finished.stderr
    assert json.loads(finished.stdout)["ok"] is True
    deadline = time.monotonic() + 5
    while _running(_pid(tmp_path / "child.pid")) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _running(_pid(tmp_path / "peer.pid"))
    assert not _running(_pid(tmp_path / "child.pid"))


# --- hostile clients of --serve --------------------------------------------------------------


def _serve_process() -> subprocess.Popen[bytes]:
    # ``--serve`` through the command line, reporting its own peak memory on stderr at the end.
    program = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (2 * 1024**3, 2 * 1024**3))\n"
        "from bottleimp.cli import main\n"
        "status = main(['conformance', '--serve'])\n"
        "hwm = next(l for l in open('/proc/self/status') if l.startswith('VmHWM:'))\n"
        "sys.stderr.write('peak_mb=%d\\n' % (int(hwm.split()[1]) // 1024))\n"
        "sys.exit(status)\n"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.Popen([sys.executable, "-c", program], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)


def _answer(stream: IO[bytes], seconds: float) -> dict[str, JSON]:
    """One answer line from ``stream`` within ``seconds``."""
    lines: list[bytes] = []
    reader = threading.Thread(target=lambda: lines.append(stream.readline()), daemon=True)
    reader.start()
    reader.join(seconds)
    assert lines and lines[0], "no answer in time"
    value = json.loads(lines[0])
    assert isinstance(value, dict)
    return value


@POSIX_ONLY
def test_serve_refuses_hostile_first_lines_on_its_real_stdin_and_goes_on() -> None:
    process = _serve_process()
    hostile = [b"not json", b"\xff\xfe\x00 garbage", b"{" * 100_000, b"[" * 100_000,
               b'{"op": "hello", "protocol": ' + b"9" * 5000 + b"}",
               b'{"op": "hello", "protocol": NaN}']
    hello = b'{"op": "hello", "protocol": "bottleimp-protocol/3"}'
    out, err = process.communicate(b"\n".join(hostile + [hello, b'{"op": "quit"}']) + b"\n",
                                   timeout=60)
    answers = [json.loads(line) for line in out.splitlines()]
    assert [a["rule"] for a in answers[: len(hostile)]] == ["PROTOCOL"] * len(hostile)
    assert answers[len(hostile)]["ok"] is True
    assert answers[len(hostile)]["protocol"] == "bottleimp-protocol/3"
    assert process.returncode == 0 and b"Traceback" not in err


@POSIX_ONLY
def test_serve_refuses_a_line_of_unbounded_length_before_it_ends_in_bounded_memory() -> None:
    process = _serve_process()
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    stop = threading.Event()
    written = [0]

    def flood() -> None:
        assert process.stdin is not None
        chunk = b"x" * 65536
        try:
            while not stop.is_set():
                process.stdin.write(chunk)
                written[0] += len(chunk)
            # 200 MB of one line in all, then its end and a greeting.
            while written[0] < 200 * 1024 * 1024:
                process.stdin.write(chunk)
                written[0] += len(chunk)
            process.stdin.write(b'\n{"op": "hello", "protocol": "bottleimp-protocol/3"}\n')
            process.stdin.close()
        except BrokenPipeError:
            pass

    writer = threading.Thread(target=flood, daemon=True)
    started = time.monotonic()
    writer.start()
    try:
        # The refusal comes while the line is still being written: it was not read whole.
        refusal = _answer(process.stdout, 10.0)
        assert refusal["ok"] is False and refusal["rule"] == "PROTOCOL"
        assert f"longer than {MAX_LINE_BYTES} bytes" in str(refusal["error"])
        assert time.monotonic() - started < 5.0
        stop.set()
        greeting = _answer(process.stdout, 60.0)
        assert greeting["ok"] is True and greeting["protocol"] == "bottleimp-protocol/3"
        writer.join(60)
        process.wait(60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    err = process.stderr.read().decode()
    peak = int(err.split("peak_mb=")[1].split()[0])
    assert process.returncode == 0 and "Traceback" not in err
    assert written[0] >= 200 * 1024 * 1024
    assert peak < HARNESS_LIMIT_MB, peak


# --- the pieces ------------------------------------------------------------------------------


def test_limited_lines_cuts_long_lines_and_drops_their_rest() -> None:
    import io

    stream = io.BytesIO(b"short\n" + b"y" * 100 + b"\nok\nexactly10\n" + b"z" * 11)
    got = list(limited_lines(stream.readline, 10))
    assert got == [(b"short\n", False), (b"y" * 10, True), (b"ok\n", False),
                   (b"exactly10\n", False), (b"z" * 10, True)]
    text = io.StringIO("a" * 30 + "\nb\n")
    assert list(limited_lines(text.readline, 5)) == [("a" * 5, True), ("b\n", False)]


def test_printable_and_clip_keep_hostile_text_short_and_harmless() -> None:
    assert printable("a\x1b[2Jb\x00\tc\u2028") == "a\\x1b[2Jb\\x00\tc\\u2028"
    assert clip("abc", 5) == "abc"
    assert clip("a" * 10, 4) == "aaaa... (10 characters in all)"


def test_answer_for_record_keeps_small_answers_and_cuts_the_rest_to_text() -> None:
    small: dict[str, JSON] = {"ok": True, "to_act": 1}
    assert answer_for_record(small) == small
    assert answer_for_record(None) is None
    big: dict[str, JSON] = {"ok": True, "junk": "x" * 100_000}
    kept = answer_for_record(big)
    assert isinstance(kept, str) and len(kept) < RECORDED_ANSWER_CHARS + 100
    assert kept.startswith('{"ok":true,"junk":"xxx')
    deep: JSON = 1
    for _ in range(40):
        deep = [deep]
    assert isinstance(answer_for_record({"ok": True, "deep": deep}), str)

"""Nothing a peer starts outlives the harness, whatever it does to its process
group or session: a descendant that calls ``setsid`` (``setsid sleep 1000``), one that double
forks into a session of its own and is orphaned, with the peer closed, crashed, timed out, or
the harness itself killed with SIGKILL. Linux only: the launcher is a child subreaper
(``bottleimp/conformance/_peer.py``), and the processes are looked up in ``/proc``.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bottleimp.conformance._peer import Peer
from bottleimp._errors import PeerFault
from depth import scaled

ROOT = Path(__file__).resolve().parent.parent
REFERENCE_PEER = ROOT / "examples" / "reference_peer" / "peer.py"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not Path("/proc/self/stat").exists(),
    reason="the launcher is a Linux child subreaper; processes are looked up in /proc",
)


def _running(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not)."""
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except (FileNotFoundError, ProcessLookupError):
        return False
    return text.rsplit(")", 1)[1].split()[0] != "Z"


def _session(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text(encoding="utf-8").rsplit(")", 1)[1].split()[3])


def _gone_within(pids: list[int], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while any(_running(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.02)
    return not any(_running(pid) for pid in pids)


@pytest.fixture
def leftovers() -> Iterator[list[int]]:
    """Pids a test expects ended; any still running afterwards is killed, so that a failing
    test does not itself leave a ``sleep 1000`` behind."""
    pids: list[int] = []
    yield pids
    for pid in pids:
        if _running(pid):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


_ESCAPES = {
    # A descendant that starts its own session and writes its pid first.
    "setsid": "subprocess.Popen(['setsid', 'sh', '-c', 'echo $$ > {pids}.setsid; exec sleep 1000'])\n",
    # A double fork: the middle process starts a session, forks the sleeper and exits, so the
    # sleeper is orphaned (reparented) and in a session of its own.
    "double fork": (
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        open('{pids}.double', 'w').write(str(os.getpid()))\n"
        "        time.sleep(1000)\n"
        "    os._exit(0)\n"
    ),
}


def _escaping_peer(tmp_path: Path, then: str) -> list[str]:
    """A peer that starts both escapes, waits until their pids are written, then answers each
    request line with ``{"ok": true}`` after doing ``then`` (for the line's number ``count``)."""
    pids = tmp_path / "pid"
    body = "import os, subprocess, sys, time\n" + "".join(
        code.format(pids=pids) for code in _ESCAPES.values()
    ) + (
        f"while not (os.path.exists({str(pids)!r} + '.setsid') and "
        f"os.path.exists({str(pids)!r} + '.double')):\n"
        "    time.sleep(0.01)\n"
        "time.sleep(0.05)\n"
        "for count, line in enumerate(sys.stdin, 1):\n"
        + then +
        "    print(json.dumps({'ok': True}), flush=True)\n"
        "    if json.loads(line).get('op') == 'quit':\n"
        "        sys.exit(0)\n"
    )
    path = tmp_path / "escaping_peer.py"
    path.write_text("import json\n" + body, encoding="utf-8")
    return [sys.executable, str(path)]


def _escaped(tmp_path: Path, leftovers: list[int]) -> list[int]:
    """The pids of the two escaped sleepers, checked to be running in sessions of their own."""
    deadline = time.monotonic() + 30
    files = [tmp_path / "pid.setsid", tmp_path / "pid.double"]
    while not all(f.exists() and f.read_text().strip() for f in files):
        assert time.monotonic() < deadline, "the peer did not start its escapes"
        time.sleep(0.02)
    pids = [int(f.read_text()) for f in files]
    leftovers.extend(pids)
    assert all(_running(pid) for pid in pids)
    assert len({_session(pid) for pid in pids} | {_session(os.getpid())}) == 3
    return pids


@pytest.mark.parametrize("how", ["closed", "crashed", "timed out"])
def test_no_descendant_of_a_peer_survives_in_a_session_of_its_own(
    tmp_path: Path, leftovers: list[int], how: str
) -> None:
    then = {"closed": "", "crashed": "    if count == 2:\n        sys.exit(3)\n",
            "timed out": "    if count == 2:\n        time.sleep(1000)\n"}[how]
    peer = Peer(_escaping_peer(tmp_path, then), timeout=30.0 if how != "timed out" else 1.0)
    assert peer.ask({"op": "hello"}) == {"ok": True}
    pids = _escaped(tmp_path, leftovers)
    if how == "closed":
        peer.close()
    else:
        with pytest.raises(PeerFault) as fault:
            peer.ask({"op": "next"})
        assert fault.value.kind == ("crash" if how == "crashed" else "timeout")
        if how == "crashed":
            assert "exit status 3" in str(fault.value)  # the launcher exits as the peer did
        peer.close()
    assert _gone_within(pids + [peer.process.pid], 5.0), [p for p in pids if _running(p)]


def test_no_descendant_survives_when_the_harness_is_killed(
    tmp_path: Path, leftovers: list[int]
) -> None:
    """The harness gets SIGKILL (no exit handler runs): the launcher is told by the kernel
    (``PR_SET_PDEATHSIG``) and ends the peer's subtree."""
    program = (
        "import json, sys, time\n"
        "from bottleimp.conformance._peer import Peer\n"
        "peer = Peer(json.loads(sys.argv[1]), 30.0)\n"
        "print(json.dumps(peer.ask({'op': 'hello'})), flush=True)\n"
        "time.sleep(1000)\n"
    )
    harness = subprocess.Popen(
        [sys.executable, "-c", program, json.dumps(_escaping_peer(tmp_path, ""))],
        stdout=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    leftovers.append(harness.pid)
    assert harness.stdout is not None
    assert json.loads(harness.stdout.readline()) == {"ok": True}
    pids = _escaped(tmp_path, leftovers)
    harness.kill()
    harness.wait()
    harness.stdout.close()
    assert _gone_within(pids, 5.0), [p for p in pids if _running(p)]


def test_a_conformance_run_against_a_peer_that_setsids_leaves_nothing(
    tmp_path: Path, leftovers: list[int]
) -> None:
    """``bottleimp conformance --cmd`` against the faithful reference peer wrapped so that it
    first starts ``setsid sleep 1000``: the run passes, and the sleeper is gone after it."""
    wrapper = tmp_path / "wrapped_peer.py"
    wrapper.write_text(
        "import runpy, subprocess, sys\n"
        f"subprocess.Popen(['setsid', 'sh', '-c', 'echo $$ > {tmp_path / 'pid.sleeper'}; "
        "exec sleep 1000'])\n"
        f"sys.argv = [{str(REFERENCE_PEER)!r}]\n"
        f"runpy.run_path({str(REFERENCE_PEER)!r}, run_name='__main__')\n",
        encoding="utf-8",
    )
    finished = subprocess.run(
        [sys.executable, "-m", "bottleimp", "conformance", "--cmd",
         f"{sys.executable} {wrapper}", "--examples", "2", "--out", str(tmp_path / "out"),
         # CI: the defaults (100 rounds of questions, each illegal request 3 times); dev: less.
         "--questions", str(scaled(ci=100, dev=10)), "--min-refusals", str(scaled(ci=3, dev=1))],
        capture_output=True, text=True, timeout=300, check=False, cwd=tmp_path,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    sleepers = [int(line) for line in
                (tmp_path / "pid.sleeper").read_text().split()] if (
        tmp_path / "pid.sleeper").exists() else []
    leftovers.extend(sleepers)
    assert finished.returncode == 0, finished.stdout[-2000:] + finished.stderr[-2000:]
    assert sleepers, "the wrapped peer did not start its sleeper"
    assert _gone_within(sleepers, 5.0)

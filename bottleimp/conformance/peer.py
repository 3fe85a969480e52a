"""The implementation under test as a subprocess speaking the protocol: one request line out,
one answer line back within a timeout; a hang, an exit or a malformed answer is a ``PeerFault``.

The peer is not trusted. Its answers are read in lines of at most ``MAX_LINE_BYTES`` (a longer
one is malformed at once) and parsed by the hardened reader (``loads_json``: no deep nesting,
no huge numbers, no ``NaN``); of its error output only the last ``STDERR_LINES`` lines are kept,
each cut to ``STDERR_LINE_BYTES``; at most ``QUEUED_LINES`` unread answer lines wait in memory
(then the peer waits for the harness). The peer runs in its own process group (POSIX), and the
whole group is ended when the peer is closed, after a fault, and when the harness exits, even
if the peer's main process has already exited: a child it left behind does not outlive the run.
On Linux the peer is started under a launcher (``reaper.py``) that is a child subreaper: a
descendant that leaves the group with ``setsid`` (or a double fork) stays in the launcher's
subtree, and the launcher kills the whole subtree when the peer exits or is ended.
"""

from __future__ import annotations

import atexit
import json
import os
import queue
import select
import shlex
import signal
import subprocess
import sys
import threading
import weakref
from collections import deque
from collections.abc import Sequence
from typing import IO, Final, NoReturn

from ..errors import HarnessError, PeerFault, RecordError
from ..formats.json_input import JSON, check_json_value, loads_json
from .lines import MAX_LINE_BYTES, clip, limited_lines, printable
from .reaper import become_launcher

DEFAULT_TIMEOUT: Final = 5.0
"""Seconds the other side has to answer one request."""

STDERR_LINES: Final = 20
"""How many of the peer's last error output lines are kept (and shown when it exits)."""

STDERR_LINE_BYTES: Final = 200
"""How much of one error output line is kept."""

QUEUED_LINES: Final = 4
"""How many answer lines the peer may write ahead of the requests before it has to wait."""

RECORDED_ANSWER_CHARS: Final = 4000
"""The longest peer answer (as JSON text) that a failure record keeps whole."""

RECORDED_ANSWER_NESTING: Final = 16
"""The deepest peer answer that a failure record keeps as JSON (deeper ones are kept as text)."""


class _Overlong:
    """An answer line longer than ``MAX_LINE_BYTES``; ``start`` is how it begins."""

    def __init__(self, start: bytes) -> None:
        self.start = start


_LIVE: Final[weakref.WeakSet[Peer]] = weakref.WeakSet()


@atexit.register
def _end_every_peer() -> None:
    """When the harness exits, end every peer still running, with its process group."""
    for peer in list(_LIVE):
        peer._end_group()


class Peer:
    """The other implementation as a subprocess speaking the protocol.

    ``ask`` writes one request line and waits at most ``timeout`` seconds for one answer line;
    a hang, an exit or an answer that is not a JSON object raises ``PeerFault``. Threads do the
    reading and the writing, so that a peer that stops reading its input cannot block the
    harness either; whatever the peer writes, the memory they use stays bounded."""

    def __init__(self, command: Sequence[str], timeout: float,
                 cwd: str | os.PathLike[str] | None = None) -> None:
        self.command = tuple(command)
        self.timeout = timeout
        self.process = _launch(self.command, cwd)
        _LIVE.add(self)
        self._lines: queue.Queue[bytes | _Overlong | None] = queue.Queue(maxsize=QUEUED_LINES)
        self._requests: queue.Queue[bytes | None] = queue.Queue()
        self._write_failed = threading.Event()
        self._closed = threading.Event()
        self._stderr_done = threading.Event()
        self._faulted = False
        self.stderr_tail: deque[str] = deque(maxlen=STDERR_LINES)
        self._stderr_lock = threading.Lock()
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(process.stderr,), daemon=True).start()
        threading.Thread(target=self._write, args=(process.stdin,), daemon=True).start()

    def _write(self, stream: IO[bytes]) -> None:
        while (line := self._requests.get()) is not None:
            try:
                stream.write(line)
                stream.flush()
            except (OSError, ValueError):
                self._write_failed.set()
                return
        try:
            stream.close()
        except (OSError, ValueError):
            pass

    def _put(self, item: bytes | _Overlong | None) -> bool:
        """Queue one line for ``ask``, waiting while the queue is full; False once closed."""
        while not self._closed.is_set():
            try:
                self._lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    def _read(self, stream: IO[bytes]) -> None:
        try:
            for line, overlong in limited_lines(stream.readline, MAX_LINE_BYTES):
                if not self._put(_Overlong(line[:200]) if overlong else line):
                    return
        except (OSError, ValueError):
            pass
        finally:
            self._put(None)
            stream.close()

    def _drain(self, stream: IO[bytes]) -> None:
        try:
            for line, overlong in limited_lines(stream.readline, STDERR_LINE_BYTES):
                text = printable(line.decode("utf-8", "replace").rstrip("\r\n"))
                if overlong:
                    text += f"... (cut at {STDERR_LINE_BYTES} bytes)"
                with self._stderr_lock:
                    self.stderr_tail.append(text)
        except (OSError, ValueError):
            pass
        finally:
            self._stderr_done.set()
            stream.close()

    def _exit_text(self) -> str:
        try:
            status = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return ""
        # The last lines may still be in the pipe (or a child may hold it open): wait a little.
        self._stderr_done.wait(timeout=0.5)
        with self._stderr_lock:
            tail = list(self.stderr_tail)
        text = "; its last error output: " + " | ".join(tail) if tail else ""
        return f" (exit status {status}{text})"

    def _fault(self, kind: str, message: str) -> NoReturn:
        self._faulted = True
        raise PeerFault(kind, message)

    def ask(self, request: dict[str, JSON]) -> dict[str, JSON]:
        """Send ``request`` and return the answer, or raise ``PeerFault``."""
        if self._write_failed.is_set():
            self._fault("crash", f"the peer no longer reads its input{self._exit_text()}")
        self._requests.put((json.dumps(request) + "\n").encode("utf-8"))
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            if self._write_failed.is_set():
                self._fault("crash", f"the peer no longer reads its input{self._exit_text()}")
            self._fault("timeout", f"no answer within {self.timeout:g} s")
        if line is None:
            self._fault("crash", f"the peer exited without answering{self._exit_text()}")
        if isinstance(line, _Overlong):
            self._fault("malformed", f"the answer line is longer than {MAX_LINE_BYTES} bytes; "
                                     f"it begins {_shown(line.start)}")
        try:
            value = loads_json(line)
        except RecordError as error:
            self._fault("malformed", f"the answer is not JSON the protocol allows "
                                     f"({clip(error.message, 200)}): {_shown(line)}")
        if not isinstance(value, dict):
            self._fault("malformed", f"the answer is not a JSON object: {_shown(line)}")
        return value

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def close(self) -> None:
        """Ask the peer to quit (unless it has failed), then end its process group: what the
        peer started does not outlive it, even when the peer itself has exited cleanly."""
        if self.alive and not self._faulted:
            self._requests.put((json.dumps({"op": "quit"}) + "\n").encode("utf-8"))
            self._requests.put(None)
            try:
                self.process.wait(timeout=min(self.timeout, 1.0))
            except subprocess.TimeoutExpired:
                pass
        self._end_group()
        self._closed.set()
        self._requests.put(None)
        _LIVE.discard(self)

    def _end_group(self) -> None:
        """End every process the peer started, then SIGKILL the peer's process group (POSIX;
        elsewhere the process) and reap the peer. On Linux the launcher (``reaper.py``) is told
        first (SIGTERM) and kills its whole subtree, sessions of their own included; it is
        given a moment, since killing it first would orphan that subtree to init."""
        if _USE_REAPER and self.process.poll() is None:
            try:
                self.process.terminate()
            except OSError:
                pass
            _wait_for_exit(self.process, 5.0)
        if os.name == "posix":
            try:
                os.killpg(self.process.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        if self.process.poll() is None:
            try:
                self.process.kill()
            except OSError:
                pass
        try:
            self.process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass


_USE_REAPER: Final = sys.platform.startswith("linux") and os.path.isdir("/proc")
"""Whether peers start through the subreaper launcher (Linux, with ``/proc``)."""



def _wait_for_exit(process: subprocess.Popen[bytes], timeout: float) -> None:
    """Wait at most ``timeout`` seconds for ``process`` to exit, told by the kernel the moment
    it does (a pidfd, Linux 5.3+), not by ``Popen.wait``'s polling, which can oversleep by up to
    50 ms each time a peer is ended."""
    try:
        pidfd = os.pidfd_open(process.pid)
    except (AttributeError, OSError):
        pidfd = -1
    if pidfd >= 0:
        try:
            select.select([pidfd], [], [], timeout)
        finally:
            os.close(pidfd)
    try:
        process.wait(timeout=timeout if pidfd < 0 else 0.5)
    except subprocess.TimeoutExpired:
        pass


def _launch(command: tuple[str, ...], cwd: str | os.PathLike[str] | None) -> subprocess.Popen[bytes]:
    """Start the peer, on Linux as the child of a launcher (``reaper.become_launcher``) that
    ends its whole subtree; ``HarnessError`` when it cannot start."""
    try:
        return subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            start_new_session=os.name == "posix",
            cwd=cwd,
            preexec_fn=become_launcher if _USE_REAPER else None,
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise HarnessError(f"cannot start {shlex.join(command)}: {error}") from error


def _shown(line: bytes) -> str:
    """The start of a peer's line, printable and short."""
    text = line.decode("utf-8", "replace").strip()
    return repr(printable(clip(text, 200)))


def answer_for_record(answer: dict[str, JSON] | None) -> JSON:
    """A peer's answer as a failure record keeps it: the answer itself when it is short and
    shallow enough for any record reader, else its JSON text cut to ``RECORDED_ANSWER_CHARS``
    (so that a hostile answer cannot make the record unreadable or huge)."""
    if answer is None:
        return None
    try:
        check_json_value(answer)
        text = json.dumps(answer, separators=(",", ":"))
    except (RecordError, ValueError):
        return clip(repr(answer), RECORDED_ANSWER_CHARS)
    if len(text) <= RECORDED_ANSWER_CHARS and _depth(answer) <= RECORDED_ANSWER_NESTING:
        return answer
    return clip(text, RECORDED_ANSWER_CHARS)


def _depth(value: JSON) -> int:
    """How deep ``value`` nests (without recursion): 0 for a scalar."""
    deepest = 0
    stack: list[tuple[JSON, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, dict):
            stack.extend((inner, depth + 1) for inner in item.values())
        elif isinstance(item, list):
            stack.extend((inner, depth + 1) for inner in item)
    return deepest


class PeerSlot:
    """One running peer at a time, started on demand and restarted after a fault."""

    def __init__(self, command: Sequence[str], timeout: float,
                 cwd: str | os.PathLike[str] | None = None) -> None:
        self.command = command
        self.timeout = timeout
        self.cwd = cwd
        self.peer: Peer | None = None

    def get(self) -> Peer:
        if self.peer is None or not self.peer.alive:
            self.discard()
            self.peer = Peer(self.command, self.timeout, self.cwd)
        return self.peer

    def discard(self) -> None:
        if self.peer is not None:
            self.peer.close()
            self.peer = None

"""The implementation under test as an untrusted process: bounded reading, timeouts, the
subtree kill. On Linux the peer runs under a launcher that is a child subreaper
(``become_launcher``), so that no process it starts outlives the run, whatever it does to its
process group or session; whatever it writes is kept short in reports (``clip``)."""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import json
import os
import queue
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
import weakref
from collections import deque
from collections.abc import Callable, Sequence
from typing import IO, Final, NoReturn

from .._errors import HarnessError, PeerFault, RecordError
from ..formats._json_input import JSON, check_json_value, limited_lines, loads_json


# --- peer -------------------------------------------------------------------------------

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


_LIVE: Final[weakref.WeakSet[Peer]] = weakref.WeakSet()


@atexit.register
def _end_every_peer() -> None:
    """When the harness exits, end every peer still running, with its process group."""
    for peer in list(_LIVE):
        peer._end_group()


class Peer:
    """The other implementation as a subprocess speaking the protocol, in a process group of
    its own. Threads do the reading and the writing, so that a peer that stops reading cannot
    block the harness; whatever it writes, the memory they use stays bounded."""

    def __init__(self, command: Sequence[str], timeout: float,
                 cwd: str | os.PathLike[str] | None = None) -> None:
        self.command = tuple(command)
        self.timeout = timeout
        self.process = _launch(self.command, cwd)
        _LIVE.add(self)
        # Each answer line, and whether it was too long (then only its start is kept).
        self._lines: queue.Queue[tuple[bytes, bool] | None] = queue.Queue(maxsize=QUEUED_LINES)
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
        with contextlib.suppress(OSError, ValueError):
            stream.close()

    def _put(self, item: tuple[bytes, bool] | None) -> bool:
        """Queue one line for ``ask``, waiting while the queue is full; False once closed."""
        while not self._closed.is_set():
            with contextlib.suppress(queue.Full):
                self._lines.put(item, timeout=0.1)
                return True
        return False

    def _read(self, stream: IO[bytes]) -> None:
        try:
            for line, overlong in limited_lines(stream.readline, MAX_LINE_BYTES):
                if not self._put((line[:200] if overlong else line, overlong)):
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
            item = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            if self._write_failed.is_set():
                self._fault("crash", f"the peer no longer reads its input{self._exit_text()}")
            self._fault("timeout", f"no answer within {self.timeout:g} s")
        if item is None:
            self._fault("crash", f"the peer exited without answering{self._exit_text()}")
        line, overlong = item
        if overlong:
            self._fault("malformed", f"the answer line is longer than {MAX_LINE_BYTES} bytes; "
                                     f"it begins {_shown(line)}")
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
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(timeout=min(self.timeout, 1.0))
        self._end_group()
        self._closed.set()
        self._requests.put(None)
        _LIVE.discard(self)

    def _end_group(self) -> None:
        """End every process the peer started, then SIGKILL the peer's process group (POSIX;
        elsewhere the process) and reap the peer. On Linux the launcher (``become_launcher``) is told
        first (SIGTERM) and kills its whole subtree, sessions of their own included; it is
        given a moment, since killing it first would orphan that subtree to init."""
        if _USE_REAPER and self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.process.terminate()
            _wait_for_exit(self.process, 5.0)
        if os.name == "posix":
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self.process.pid, signal.SIGKILL)
        if self.process.poll() is None:
            with contextlib.suppress(OSError):
                self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(timeout=5.0)


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
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=timeout if pidfd < 0 else 0.5)


def _launch(command: tuple[str, ...], cwd: str | os.PathLike[str] | None) -> subprocess.Popen[bytes]:
    """Start the peer, on Linux as the child of a launcher (``become_launcher``) that
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
    try:
        check_json_value(answer, nesting=RECORDED_ANSWER_NESTING)
    except RecordError:
        return clip(text, RECORDED_ANSWER_CHARS)
    return answer if len(text) <= RECORDED_ANSWER_CHARS else clip(text, RECORDED_ANSWER_CHARS)


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


# --- lines ------------------------------------------------------------------------------

MAX_LINE_BYTES: Final = 1024 * 1024
"""The longest protocol line read: 1 MiB (the longest request or answer a game needs is under
2 KiB). A longer request is refused with rule ``PROTOCOL``; a longer answer is malformed."""

_UNPRINTABLE: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` with control characters shown as escapes (``\\x1b``), safe to print to a
    terminal and to keep in a record."""
    return _UNPRINTABLE.sub(lambda match: f"\\x{ord(match.group()):02x}"
                            if ord(match.group()) < 256 else f"\\u{ord(match.group()):04x}", text)


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most about ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters in all)"


def plural(count: object, noun: str) -> str:
    """A count and its noun, singular for one: ``1 coin``, ``2 coins``, ``-1 coin``."""
    return f"{count} {noun}" if count in (1, -1) else f"{count} {noun}s"


# --- reaper -----------------------------------------------------------------------------

PR_SET_PDEATHSIG: Final = 1
PR_SET_CHILD_SUBREAPER: Final = 36

_PASSES: Final = 200
"""The most kill-and-rescan passes (a subtree that forks faster than it is killed is bounded)."""


def _load_prctl() -> Callable[..., int] | None:
    """libc's ``prctl``, resolved in the harness: the forked launcher only calls it (loading a
    library after a fork could wait for a lock another thread held at the fork)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        function: Callable[..., int] = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return None
    return function


_PRCTL: Final = _load_prctl()


def _prctl(option: int, value: int) -> bool:
    if _PRCTL is None:
        return False
    return int(_PRCTL(option, value, 0, 0, 0)) == 0


def _stat(pid: int | str) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command name (the state letter, ``Z`` for a
    zombie, then the parent), none once the process is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return []
    # pid (comm) state ppid ...; comm may hold spaces and parentheses: split after the last ")".
    return text[text.rfind(")") + 2:].split()


def descendants(root: int) -> list[int]:
    """The live (not zombie) processes below ``root``, found by the parent field of every
    ``/proc/PID/stat``."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        fields = _stat(name) if name.isdigit() else []
        if len(fields) >= 2 and fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(name))
    below: list[int] = []
    stack = [root]
    while stack:
        stack.extend(found := children.get(stack.pop(), []))
        below.extend(found)
    return below


def _reap() -> None:
    """Collect every child that has exited (orphans reparented to the launcher included), until
    none has or none is left."""
    with contextlib.suppress(ChildProcessError):
        while os.waitpid(-1, os.WNOHANG)[0] != 0:
            pass


def end_subtree() -> None:
    """SIGKILL every process below the launcher until none is left, reaping as it goes."""
    me = os.getpid()
    for _ in range(_PASSES):
        alive = descendants(me)
        if not alive:
            break
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        time.sleep(0.005)
        _reap()
    _reap()


def _exit_as(status: int) -> NoReturn:
    """Exit as a child with wait status ``status`` did: its exit code, or its signal."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        signal.signal(number, signal.SIG_DFL)
        os.kill(os.getpid(), number)
        os._exit(128 + number)
    os._exit(os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1)


def _on_signal(number: int, _frame: object) -> None:
    end_subtree()
    os._exit(128 + number)


_ENDING_SIGNALS: Final = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def become_launcher() -> None:
    """``Popen``'s ``preexec_fn`` for a peer (see the module docstring): returns in the process
    that is to execute the peer; the process ``Popen`` forked stays behind as the launcher and
    never returns."""
    harness = os.getppid()
    _prctl(PR_SET_CHILD_SUBREAPER, 1)
    # Before the fork, so that no moment exists with a peer and a launcher that SIGTERM would
    # kill without its subtree; the peer's exec resets these handlers to the default.
    for number in _ENDING_SIGNALS:
        signal.signal(number, _on_signal)
    peer = os.fork()
    if peer == 0:
        return
    try:
        _prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() != harness:  # the harness died before the death signal was asked for
            end_subtree()
            os._exit(1)
        # Let go of the pipes and of every other file the harness had open.
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        os.closerange(3, os.sysconf("SC_OPEN_MAX") if hasattr(os, "sysconf") else 65536)
        while True:
            try:
                pid, status = os.waitpid(-1, 0)
            except ChildProcessError:
                os._exit(1)
            if pid == peer:
                end_subtree()
                _exit_as(status)
    finally:
        os._exit(1)

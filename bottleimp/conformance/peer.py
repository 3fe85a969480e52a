"""The implementation under test as a subprocess speaking the protocol: one request line out,
one answer line back within a timeout; a hang, an exit or a malformed answer is a ``PeerFault``.
"""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import threading
from collections import deque
from collections.abc import Sequence
from typing import IO, Final

from ..errors import HarnessError, PeerFault
from ..formats.json_input import JSON

DEFAULT_TIMEOUT: Final = 5.0
"""Seconds the other side has to answer one request."""


class Peer:
    """The other implementation as a subprocess speaking the protocol.

    ``ask`` writes one request line and waits at most ``timeout`` seconds for one answer line;
    a hang, an exit or an answer that is not a JSON object raises ``PeerFault``. Threads do the
    reading and the writing, so that a peer that stops reading its input cannot block the
    harness either."""

    def __init__(self, command: Sequence[str], timeout: float,
                 cwd: str | os.PathLike[str] | None = None) -> None:
        self.command = tuple(command)
        self.timeout = timeout
        try:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                start_new_session=os.name == "posix",
                cwd=cwd,
            )
        except OSError as error:
            raise HarnessError(f"cannot start {shlex.join(self.command)}: {error}") from error
        self._lines: queue.Queue[str | None] = queue.Queue()
        self._requests: queue.Queue[str | None] = queue.Queue()
        self._write_failed = threading.Event()
        self.stderr_tail: deque[str] = deque(maxlen=20)
        process = self.process
        assert process.stdin is not None and process.stdout is not None
        assert process.stderr is not None
        threading.Thread(target=self._read, args=(process.stdout,), daemon=True).start()
        threading.Thread(target=self._drain, args=(process.stderr,), daemon=True).start()
        threading.Thread(target=self._write, args=(process.stdin,), daemon=True).start()

    def _write(self, stream: IO[str]) -> None:
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

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)
            stream.close()

    def _drain(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                self.stderr_tail.append(line.rstrip("\n"))
        except (OSError, ValueError):
            pass
        finally:
            stream.close()

    def _exit_text(self) -> str:
        try:
            status = self.process.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            return ""
        tail = "; its last error output: " + " | ".join(self.stderr_tail) if self.stderr_tail else ""
        return f" (exit status {status}{tail})"

    def ask(self, request: dict[str, JSON]) -> dict[str, JSON]:
        """Send ``request`` and return the answer, or raise ``PeerFault``."""
        if self._write_failed.is_set():
            raise PeerFault("crash", f"the peer no longer reads its input{self._exit_text()}")
        self._requests.put(json.dumps(request) + "\n")
        try:
            line = self._lines.get(timeout=self.timeout)
        except queue.Empty:
            if self._write_failed.is_set():
                raise PeerFault("crash", f"the peer no longer reads its input{self._exit_text()}") from None
            raise PeerFault("timeout", f"no answer within {self.timeout:g} s") from None
        if line is None:
            raise PeerFault("crash", f"the peer exited without answering{self._exit_text()}")
        try:
            value: JSON = json.loads(line)
        except json.JSONDecodeError:
            raise PeerFault("malformed", f"the answer is not JSON: {line.strip()[:200]!r}") from None
        if not isinstance(value, dict):
            raise PeerFault("malformed", f"the answer is not a JSON object: {line.strip()[:200]!r}")
        return value

    @property
    def alive(self) -> bool:
        """True while the process runs."""
        return self.process.poll() is None

    def close(self) -> None:
        """Ask the peer to quit, then end it (and its process group) if it does not."""
        if self.alive:
            self._requests.put(json.dumps({"op": "quit"}) + "\n")
            self._requests.put(None)
            try:
                self.process.wait(timeout=min(self.timeout, 1.0))
            except subprocess.TimeoutExpired:
                pass
        if self.alive:
            self._kill()
        self._requests.put(None)

    def _kill(self) -> None:
        try:
            if os.name == "posix":
                os.killpg(self.process.pid, signal.SIGKILL)
            else:
                self.process.kill()
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.process.wait(timeout=5.0)
        except subprocess.TimeoutExpired:
            pass


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

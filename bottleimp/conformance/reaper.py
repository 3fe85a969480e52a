"""The launcher that ends every process a peer starts, whatever they do to their process group
or session (Linux).

Killing a peer's process group misses a descendant that called ``setsid`` (or ``setpgid``): it
has left the group. So on Linux the peer does not run as the harness's child but as the child of
a *launcher*: ``become_launcher`` is the ``preexec_fn`` of the peer's ``Popen``. In the process
``Popen`` has just forked (already in a session of its own), it makes that process a *child
subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``): every descendant orphaned by its parent's exit is
reparented to the launcher instead of to init, so no descendant can leave the launcher's
subtree, whatever its session. It forks once more: the new child returns to ``Popen``, which
executes the peer in it with the pipes already in place; the launcher itself never returns. It
lets go of the pipes (so the harness sees the peer's end of file), asks for ``SIGTERM`` if the
harness dies (``PR_SET_PDEATHSIG``), and waits. When the peer exits, or on
``SIGTERM``/``SIGINT``/``SIGHUP`` (what ``Peer`` sends to end it), it kills its whole subtree with
``SIGKILL`` until none is left (a process that forks meanwhile is found on the next pass), found
through ``/proc/PID/task/*/children`` (or every ``/proc/PID/stat`` when the kernel lacks those
files), reaps it, and exits as the peer did (the same exit status, or the same signal).

A forked copy of the harness rather than a new interpreter: it costs a fork, not the start of a
Python (tens of milliseconds, far more on a loaded machine, for every peer started). It runs only
system calls and file reads, no lock another thread of the harness could hold. Linux only;
elsewhere the harness ends the peer's process group as before.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import time
from collections.abc import Callable
from typing import Final, NoReturn

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


def _state(pid: int) -> str | None:
    """A process's state letter (``Z`` for a zombie), or ``None`` once it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            text = handle.read().decode("ascii", "replace")
    except OSError:
        return None
    # pid (comm) state ppid ...; comm may hold spaces and parentheses: split after the last ")".
    fields = text[text.rfind(")") + 2:].split()
    return fields[0] if fields else None


def _children(pid: int) -> list[int] | None:
    """The children of ``pid`` from ``/proc/PID/task/*/children``; ``None`` when the kernel
    does not offer those files."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    found: list[int] = []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children", "rb") as handle:
                found.extend(int(item) for item in handle.read().split())
        except FileNotFoundError:
            if not os.path.exists(f"/proc/{pid}/task/{task}"):
                continue  # the thread ended meanwhile
            return None
        except OSError:
            continue
    return found


def _all_children() -> dict[int, list[int]]:
    """Every process's children, from the parent field of every ``/proc/PID/stat``."""
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as handle:
                text = handle.read().decode("ascii", "replace")
        except OSError:
            continue
        fields = text[text.rfind(")") + 2:].split()
        if len(fields) >= 2:
            children.setdefault(int(fields[1]), []).append(int(name))
    return children


def descendants(root: int) -> list[int]:
    """The live (not zombie) processes below ``root``, found by their parent links: through
    the ``children`` files of the subtree alone when the kernel offers them, else by reading
    every process's parent."""
    scanned: dict[int, list[int]] | None = None
    below: list[int] = []
    stack = [root]
    while stack:
        pid = stack.pop()
        if pid != root and _state(pid) not in (None, "Z"):
            below.append(pid)
        children = _children(pid) if scanned is None else None
        if children is None:
            if scanned is None:
                scanned = _all_children()
            children = scanned.get(pid, [])
        stack.extend(children)
    return below


def _reap() -> None:
    """Collect every child that has exited (orphans reparented to the launcher included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def end_subtree() -> None:
    """SIGKILL every process below the launcher until none is left, reaping as it goes."""
    me = os.getpid()
    for _ in range(_PASSES):
        alive = descendants(me)
        if not alive:
            break
        for pid in alive:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
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

"""The threads a batch's jobs run on beside the calling thread (``kernel.run_job``): one set per
process, started when a batch first asks for them.

Each worker is a daemon thread that runs ``kernel.serve`` without the GIL: it spins (x86's
``pause``) waiting for the next job, takes its part, and after ``SPIN_SECONDS`` without a job
sleeps on a condition until a caller leases the workers again. A spinning worker joins a job
within a fraction of a microsecond, where a pool that sleeps between jobs, or makes its
threads join anew each time (numba's parallel loops do, on every call), loses tens of
microseconds a job: at B = 1024 a step is about a hundred. One job runs at a time: a caller
that finds the workers leased by another thread runs its job alone. After a fork the child
starts its own workers.

On a machine whose cores are busy, the system may pause a worker in the middle of a chunk, and
the caller then waits for it for the rest of a time slice (milliseconds, where a step takes a
tenth of one). When a job's caller waited long for the workers' last chunks (``WAIT_SECONDS``), the next jobs run on the calling thread alone: 64 of them at first, twice as many after
each such wait (at most ``2 ** 16``), one fewer after each job on the workers without one: on a
busy machine the jobs soon run alone nearly always, on an idle one a rare pause costs little."""

from __future__ import annotations

import atexit
import os
import threading
import time
from collections.abc import Callable
from typing import Any, Final

import numba
import numpy as np

from . import _kernel as kernel
from ._tables import IntArray

SPIN_SECONDS: Final = 0.0005
"""How long an idle worker spins before it sleeps: longer than the gap between the calls of a
loop that steps and chooses (tens of microseconds), short enough that a worker left idle soon
gives its core back."""


WAIT_SECONDS: Final = 0.00005
"""A wait for the workers' last chunks longer than this and than four times a chunk's time
(the job's time per chunk and thread; a chunk of 64 games takes a few microseconds to a few
tens) means the system paused a worker."""
FIRST_BACKOFF, MOST_BACKOFF = 64, 1 << 16
"""Jobs run alone after a long wait, first and at most (``Workers.release``)."""


class Workers:
    """The process's worker threads and the two arrays they share a job by (``kernel``'s
    ``control`` and ``runs``)."""

    def __init__(self) -> None:
        self.most = int(numba.config.NUMBA_NUM_THREADS)  # type: ignore[attr-defined]
        """The most threads a job runs on (the calling one included)."""
        self.control = cache_lines(kernel.CONTROL_CELLS)
        self.runs = cache_lines(max(self.most, 1) * kernel.RUN_CELLS)
        self._threads: list[threading.Thread] = []
        self._leased = threading.Lock()
        """Held by the caller whose job the workers serve."""
        self._bell = threading.Condition()
        self._rings = 0
        """How many times a caller woke the sleeping workers (under ``_bell``)."""
        self._sleeping = 0
        self._spins = 0
        """Idle turns of ``kernel.serve`` before a worker sleeps (``SPIN_SECONDS``)."""
        self._turns_per_second = 0.0
        """How fast a caller's wait for the workers turns (``kernel.run_job``, ``WAITED``)."""
        self._began = 0.0
        """When the job now leased began."""
        self._alone = 0
        """Jobs still to run on the calling thread alone after a long wait."""
        self._backoff = FIRST_BACKOFF

    def run(self, threads: int, job: Callable[..., Any], *arguments: Any) -> Any:
        """``job(*arguments, control, runs, leased)``, a kernel entry that runs a job
        (``kernel.run_job``) on ``leased`` threads: ``threads`` or fewer (``lease``)."""
        leased = self.lease(threads)
        try:
            return job(*arguments, self.control, self.runs, leased)
        finally:
            self.release(leased)

    def lease(self, threads: int) -> int:
        """The threads the caller's next job runs on, ``threads`` or fewer: 1 without
        numba, or when another thread holds the workers; else the workers are the caller's
        until ``release``, started or woken as needed."""
        if threads <= 1 or not kernel.COMPILED:
            return 1
        if self._alone:
            self._alone -= 1
            return 1
        if not self._leased.acquire(blocking=False):
            return 1
        if len(self._threads) < threads - 1:
            self._start(threads - 1)
        if self._sleeping:
            with self._bell:
                self._rings += 1
                self._bell.notify_all()
        self._began = time.perf_counter()
        return threads

    def release(self, threads: int) -> None:
        """Give the workers back after a job leased on ``threads`` threads; after a long wait for
        them, the next jobs run alone."""
        if threads > 1:
            took = time.perf_counter() - self._began
            chunk = took * threads / max(int(self.control[kernel.CHUNKS]), 1)
            if self.control[kernel.WAITED] > self._turns_per_second * max(WAIT_SECONDS,
                                                                         4 * chunk):
                self._alone = self._backoff
                self._backoff = min(2 * self._backoff, MOST_BACKOFF)
            elif self._backoff > FIRST_BACKOFF:
                self._backoff -= 1
            self._leased.release()

    def stop(self) -> None:
        """End every worker's loop (at the process's exit)."""
        self.control[kernel.STOP] = 1
        with self._bell:
            self._rings += 1
            self._bell.notify_all()

    def _start(self, count: int) -> None:
        if not self._spins:
            cell = np.zeros(1, dtype=np.int64)
            kernel.spin(cell, 1000)  # loaded (or compiled) before it is timed
            turns = 200_000
            start = time.perf_counter()
            kernel.spin(cell, turns)
            self._turns_per_second = turns / (time.perf_counter() - start)
            self._spins = max(1000, int(self._turns_per_second * SPIN_SECONDS))
        while len(self._threads) < count:
            thread = threading.Thread(target=self._serve, args=(len(self._threads) + 1,),
                                      name=f"bottleimp-batch-{len(self._threads) + 1}",
                                      daemon=True)
            self._threads.append(thread)
            thread.start()

    def _serve(self, me: int) -> None:
        seen = int(self.control[kernel.GENERATION])
        while True:
            seen = kernel.serve(self.control, self.runs, me, seen, self._spins)
            if seen < 0:
                return
            with self._bell:
                self._sleeping += 1
                rings = self._rings
                while self._rings == rings:
                    self._bell.wait()
                self._sleeping -= 1


def cache_lines(cells: int) -> IntArray:
    """``cells`` int64 zeros from the start of a cache line (64 bytes)."""
    block = np.zeros(cells + 8, dtype=np.int64)
    start = (-block.ctypes.data % 64) // 8
    cells_aligned: IntArray = block[start:start + cells]
    return cells_aligned


_shared = Workers()


def shared() -> Workers:
    """This process's workers."""
    return _shared


def _after_fork() -> None:
    global _shared
    _shared = Workers()  # the parent's threads do not exist in the child


os.register_at_fork(after_in_child=_after_fork)
atexit.register(lambda: _shared.stop())

"""The threads a batch's jobs run on beside the calling thread (``kernel.run_job``): one set per
process, started when a batch first asks for them.

Each worker is a daemon thread that runs ``kernel.serve`` without the GIL: it spins (x86's
``pause``) waiting for the next job, takes its part, and after ``SPIN_SECONDS`` without a job
sleeps on a condition until a caller leases the workers again. A spinning worker joins a job
within a fraction of a microsecond, where a pool that sleeps between jobs, or makes its
threads join anew each time (numba's parallel loops do, on every call), loses tens of
microseconds a job: at B = 1024 a step is about a hundred. One job runs at a time: a caller
that finds the workers leased by another thread runs its job alone. After a fork the child
starts its own workers."""

from __future__ import annotations

import atexit
import os
import threading
import time
from typing import Final

import numba
import numpy as np

from . import _kernel as kernel
from ._tables import IntArray

SPIN_SECONDS: Final = 0.0005
"""How long an idle worker spins before it sleeps: longer than the gap between the calls of a
loop that steps and chooses (tens of microseconds), short enough that a worker left idle soon
gives its core back."""


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

    def lease(self, threads: int) -> int:
        """The threads the caller's next job runs on, ``threads`` or fewer: 1 without
        numba, or when another thread holds the workers; else the workers are the caller's
        until ``release``, started or woken as needed."""
        if threads <= 1 or not kernel.COMPILED or not self._leased.acquire(blocking=False):
            return 1
        if len(self._threads) < threads - 1:
            self._start(threads - 1)
        if self._sleeping:
            with self._bell:
                self._rings += 1
                self._bell.notify_all()
        return threads

    def release(self, threads: int) -> None:
        """Give the workers back after a job leased on ``threads`` threads."""
        if threads > 1:
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
            self._spins = max(1000, int(turns * SPIN_SECONDS / (time.perf_counter() - start)))
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

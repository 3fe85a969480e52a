"""Progress of a long command on a terminal: a bar drawn by ``rich`` (the ``cli`` extra) on
standard error, erased when the work is done, so that what the command prints on standard
output (a table, a JSON report) is left as it is. Nothing is drawn when standard error is not a
terminal (piped, redirected, under a test), when ``rich`` is not installed, or for fewer than
two steps."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(total: int, description: str) -> Iterator[Callable[[int], None]]:
    """A bar of ``total`` steps named ``description`` while the ``with`` block runs; it gives
    a function that moves the bar on by its argument's number of steps."""
    if total < 2 or not sys.stderr.isatty():
        yield lambda steps: None
        return
    try:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )
    except ImportError:
        yield lambda steps: None
        return
    progress = Progress(
        TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
        TimeElapsedColumn(), TimeRemainingColumn(),
        console=Console(stderr=True), transient=True, redirect_stdout=False,
        redirect_stderr=False,
    )
    task = progress.add_task(description, total=total)
    with progress:
        yield lambda steps: progress.advance(task, steps)

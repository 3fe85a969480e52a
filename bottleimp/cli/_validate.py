"""``bottleimp validate FILE... [--json] [--jobs N]``: check game records against the rules.

Each FILE is a ``bottleimp-record/1`` file, or a directory whose ``*.json`` files (searched
recursively, in sorted order) are checked. One report per file, in the order given; the exit
status is the worst of them: 0 every record is legal and its claims hold, 1 a record breaks a
rule or claims a wrong score, 2 a file is not a readable record (or cannot be read).

An entry of a directory that is not read is named with the reason, never skipped silently:
a ``*.json`` name that is not a regular file (a FIFO, a socket, a device, a link to one or to
nothing), a link to a folder (not followed) or a folder that cannot be read. A skipped entry
leaves the exit status as it is.

``--json`` prints one object per line (format ``bottleimp-validate-report/1``, JSON Schema
``spec/reports/validate-report.schema.json``): a record's report, a skipped entry (``file`` and
``skipped``), or, for options argparse refused, an ``error`` (exit 2).
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from functools import partial
from pathlib import Path
from typing import Any, Final, Protocol

from ..formats._json_input import JSON, printable_name
from ..validation import (
    UNREADABLE,
    VALID,
    VALIDATE_REPORT_FORMAT,
    Fault,
    ValidationReport,
    report_to_json,
    report_to_text,
    validate_files,
)
from ._arguments import positive_int

_CHUNKS_PER_JOB = 8
"""Chunks of files per worker process: enough that the workers finish together."""
_CHUNK = 64
"""Files a worker validates (each on its own) before it sends their reports back: few enough
that reports are printed as the run goes, enough that sending them costs little."""


def add_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``validate``."""
    parser = subparsers.add_parser(
        "validate",
        help="check game records against the rules",
        description=(
            "Replay each game record (bottleimp-record/1) under the rules and check every claim "
            "in it. Exit status: 0 all valid, 1 a record breaks a rule or claims a wrong score, "
            "2 a file is not a readable record. A directory stands for the *.json files in it."
        ),
    )
    parser.add_argument("files", nargs="+", metavar="FILE", help="record files or directories")
    parser.add_argument(
        "--json", action="store_true",
        help=f"print one JSON object ({VALIDATE_REPORT_FORMAT}) per file or skipped entry "
        "(JSON Lines)"
    )
    parser.add_argument(
        "--jobs", type=positive_int, default=None, metavar="N",
        help="check files in N processes (default: one per core of the machine)"
    )
    parser.set_defaults(run=run)


class _Target:
    """A file to validate, a directory argument that held no record files, or an entry of a
    directory that was not read (``skipped`` says why)."""

    def __init__(self, path: Path, empty_directory: bool = False, skipped: str | None = None) -> None:
        self.path = path
        self.empty_directory = empty_directory
        self.skipped = skipped


def _not_regular(mode: int) -> str:
    """What a file that is not a regular file is, in words."""
    for test, kind in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISDIR, "a folder")):
        if test(mode):
            return kind
    return "not a regular file"


def _skip_reason(entry: os.DirEntry[str]) -> str | None:
    """Why an entry of a folder that is neither a folder to walk nor a ``*.json`` regular file
    is left unread, when it might have been meant as a record: ``None`` for any other file."""
    if entry.is_symlink():
        try:
            info = entry.stat()  # the link's target
        except OSError:
            return "a link to nothing (its target does not exist)" if entry.name.endswith(
                ".json") else None
        if stat.S_ISDIR(info.st_mode):
            return "a link to a folder, not followed (a loop of links would never end)"
        if entry.name.endswith(".json") and not stat.S_ISREG(info.st_mode):
            return f"a link to {_not_regular(info.st_mode)}, not a regular file"
        return None
    if entry.name.endswith(".json"):
        return f"{_not_regular(entry.stat(follow_symlinks=False).st_mode)}, not a regular file"
    return None


def _json_files(directory: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The ``*.json`` regular files under ``directory``, sorted, found with an explicit stack of
    folders (no recursion, so a tree of any depth is walked); and the entries left unread, with
    why: ``*.json`` names that are not regular files (FIFOs, sockets, devices, links to them or
    to nothing), links to folders (not followed, so a loop of links cannot run on forever) and
    folders that cannot be read."""
    found: list[Path] = []
    skipped: list[tuple[Path, str]] = []
    folders = [directory]
    while folders:
        folder = folders.pop()
        try:
            entries = list(os.scandir(folder))
        except OSError as error:
            skipped.append((folder, f"a folder that cannot be read: {error.strerror or error}"))
            continue
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(Path(entry.path))
                elif entry.name.endswith(".json") and entry.is_file():
                    found.append(Path(entry.path))
                else:
                    reason = _skip_reason(entry)
                    if reason is not None:
                        skipped.append((Path(entry.path), reason))
            except OSError as error:
                skipped.append((Path(entry.path), f"cannot be read: {error.strerror or error}"))
    return sorted(found), sorted(skipped)


def _targets(arguments: Sequence[str]) -> list[_Target]:
    targets: list[_Target] = []
    for argument in arguments:
        path = Path(argument)
        try:
            is_directory = path.is_dir()
            found, skipped = _json_files(path) if is_directory else ([], [])
        except OSError:
            # A name the system refuses (too long, unreadable folder): reading it reports why.
            is_directory, found, skipped = False, [], []
        targets.extend(_Target(p) for p in found)
        targets.extend(_Target(p, skipped=reason) for p, reason in skipped)
        if not is_directory:
            targets.append(_Target(path))
        elif not found:
            targets.append(_Target(path, empty_directory=True))
    return targets


def _empty_directory_report(target: _Target) -> ValidationReport:
    name = printable_name(target.path)
    fault = Fault(None, None, None, None, f"the directory {name} holds no .json files", "$")
    return ValidationReport(name, UNREADABLE, (fault,), (), None, False, None)


def _skipped_line(target: _Target, as_json: bool) -> str:
    """The line that says an entry was not read, and why."""
    name = printable_name(target.path)
    if as_json:
        return json.dumps({"format": VALIDATE_REPORT_FORMAT, "file": name,
                           "skipped": target.skipped}, separators=(",", ":"))
    return f"{name}: skipped: {target.skipped}"


def usage_error_json(message: str) -> dict[str, JSON]:
    """The object ``--json`` prints for options argparse refused (exit 2)."""
    return {"format": VALIDATE_REPORT_FORMAT, "status": UNREADABLE,
            "error": {"message": message, "source": "options"}}


def _line(report: ValidationReport, as_json: bool) -> str:
    """The report as printed: one JSON line, or the text report."""
    if as_json:
        return json.dumps(report_to_json(report), separators=(",", ":"))
    return report_to_text(report)


def _validate_paths(as_json: bool, paths: list[str]) -> list[tuple[int, str]]:
    """The worker function (module level, so that worker processes can import it): each file
    of ``paths`` validated on its own (``validate_files``), and each report formatted in the
    worker, so that only its status and printed line go back to the parent (a report holds
    dozens of objects that would be pickled, sent and unpickled one by one, work that the
    parent, the one process that cannot be parallel, would do for every file)."""
    return [(report.status, _line(report, as_json))
            for report in validate_files(paths, causes=True)]


def _chunks(paths: list[str], size: int) -> list[list[str]]:
    return [paths[start:start + size] for start in range(0, len(paths), size)]


def _reports(targets: list[_Target], jobs: int | None, as_json: bool) -> Iterator[tuple[int, str]]:
    """The status and printed line of each target's report, in order (a skipped entry's line
    says so and leaves the status as it is). Files go to the worker processes in chunks of up
    to ``_CHUNK`` files; ``jobs`` ``None`` is one process per core."""
    files = [target for target in targets if not target.empty_directory and not target.skipped]
    cores = os.cpu_count() or 1
    # More processes than cores (or files) only cost start-up time.
    jobs = min(cores if jobs is None else jobs, cores, len(files))
    # Paths go to the workers as strings, which pickle much faster than ``Path`` objects.
    paths = [str(target.path) for target in files]
    if jobs <= 1:
        chunks: Iterable[list[tuple[int, str]]] = map(
            partial(_validate_paths, as_json), _chunks(paths, _CHUNK))
        yield from _in_order(targets, chunks, as_json)
        return
    size = max(1, min(_CHUNK, -(-len(paths) // (jobs * _CHUNKS_PER_JOB))))
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from _in_order(
            targets, pool.map(partial(_validate_paths, as_json), _chunks(paths, size)), as_json)


def _in_order(targets: list[_Target], chunks: Iterable[list[tuple[int, str]]], as_json: bool
              ) -> Iterator[tuple[int, str]]:
    """Each target's status and line, the files' taken in turn from ``chunks`` (each chunk
    validated only when its first file's line is due)."""
    results = (result for chunk in chunks for result in chunk)
    for target in targets:
        if target.skipped:
            yield VALID, _skipped_line(target, as_json)
        elif target.empty_directory:
            report = _empty_directory_report(target)
            yield report.status, _line(report, as_json)
        else:
            yield next(results)


class _Output(Protocol):
    """Where the reports go, and the progress of the run beside them."""

    def line(self, text: str) -> None: ...

    def advance(self) -> None: ...


class _Plain:
    """Reports written to standard output as they are, with no progress bar."""

    def line(self, text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.write("\n")

    def advance(self) -> None:
        pass


class _Bar:
    """A rich progress bar on a terminal: reports printed above it when standard output is the
    terminal, else written to standard output as they are while the bar stays on standard
    error."""

    def __init__(self, progress: Any, on_stdout: bool, total: int) -> None:
        self.progress = progress
        self.on_stdout = on_stdout
        self.task = progress.add_task("validating", total=total)

    def line(self, text: str) -> None:
        if self.on_stdout:
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            sys.stdout.write(text)
            sys.stdout.write("\n")

    def advance(self) -> None:
        self.progress.advance(self.task)


_ARCHIVE: Final = 2
"""Files from which a run shows a progress bar on a terminal."""


@contextmanager
def _output(total: int) -> Iterator[_Output]:
    """The reports' output: with a progress bar (rich, the ``cli`` extra) when ``total`` files are
    validated and standard output or standard error is a terminal, else plain."""
    on_stdout = sys.stdout.isatty()
    if total < _ARCHIVE or not (on_stdout or sys.stderr.isatty()):
        yield _Plain()
        return
    try:
        from rich.console import Console
        from rich.progress import Progress
    except ImportError:
        yield _Plain()
        return
    console = Console(stderr=not on_stdout)
    with Progress(console=console, transient=True, redirect_stdout=False,
                  redirect_stderr=False) as progress:
        yield _Bar(progress, on_stdout, total)


def _emit(reports: Iterable[tuple[int, str]], output: _Output) -> int:
    worst = 0
    for status, line in reports:
        output.advance()
        output.line(line)
        worst = max(worst, status)
    sys.stdout.flush()
    return worst


def run(args: argparse.Namespace) -> int:
    """Validate every file; the exit status is the worst report's."""
    targets = _targets(args.files)
    try:
        with _output(len(targets)) as output:
            return _emit(_reports(targets, args.jobs, args.json), output)
    except BrokenPipeError:
        # The reader went away (``| head``): stop quietly, as other command-line tools do.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1

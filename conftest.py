"""Executable documentation: Sybil collects every example in README.md, docs/ and the package's
docstrings, runs it and checks its output.

- Markdown (README.md, docs/): ```python blocks run; blocks that start with ``>>>`` are doctests
  whose output is checked. ```console blocks run their ``$ bottleimp ...`` commands in-process
  (in the document's temporary directory, ``tmp_path``) and check their output; a command ending
  in ``; echo $?`` also prints its exit status. ``<!-- skip: next -->`` skips a block and
  ``<!-- invisible-code-block: python -->`` runs code the page does not show.
- Docstrings (bottleimp/): doctest examples.

Examples of one page share a namespace, in page order, so a page can build a state step by step.
"""

from __future__ import annotations

import contextlib
import doctest
import io
import os
import shlex
from collections.abc import Iterator
from pathlib import Path

from sybil import Example, Sybil
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser
from sybil.parsers.rest import DocTestParser

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@contextlib.contextmanager
def _working_directory(path: Path | None) -> Iterator[None]:
    if path is None:
        yield
        return
    previous = os.getcwd()
    os.chdir(path)
    try:
        yield
    finally:
        os.chdir(previous)


def _run_command(line: str) -> str:
    """Run one ``bottleimp ...`` command line in-process; its stdout and stderr, merged."""
    from bottleimp.cli import main

    echo_status = line.endswith("; echo $?")
    if echo_status:
        line = line.removesuffix("; echo $?")
    words = shlex.split(line)
    if not words or words[0] != "bottleimp":
        raise ValueError(f"console examples run bottleimp commands only, not {line!r}")
    output = io.StringIO()
    with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
        try:
            status = main(words[1:])
        except SystemExit as leaving:  # argparse exits on bad options
            status = leaving.code if isinstance(leaving.code, int) else 1
    text = output.getvalue()
    if echo_status:
        text += f"{status}\n"
    return text


def evaluate_console(example: Example) -> str | None:
    """Run each ``$ `` line of a console block and compare with the lines that follow it."""
    checker = doctest.OutputChecker()
    commands: list[tuple[str, list[str]]] = []
    for line in str(example.parsed).splitlines():
        if line.startswith("$ "):
            commands.append((line[2:].strip(), []))
        elif commands:
            commands[-1][1].append(line)
        elif line.strip():
            return f"console block: output {line!r} before any command"
    workdir = example.namespace.get("tmp_path")
    with _working_directory(workdir):
        for command, expected_lines in commands:
            got = _run_command(command)
            want = "\n".join(expected_lines).strip() + "\n"
            if not checker.check_output(want, got, OPTIONS):
                return f"$ {command}\nexpected:\n{want}got:\n{got}"
    return None


markdown = Sybil(
    parsers=[
        PythonCodeBlockParser(doctest_optionflags=OPTIONS),
        CodeBlockParser(language="console", evaluator=evaluate_console),
        SkipParser(),
    ],
    patterns=["README.md", "docs/*.md", "docs/*/*.md"],
    fixtures=["tmp_path"],
    name="markdown",
)

docstrings = Sybil(
    parsers=[DocTestParser(optionflags=OPTIONS)],
    patterns=["bottleimp/*.py", "bottleimp/*/*.py"],
    name="docstrings",
)

pytest_collect_file = (markdown + docstrings).pytest()

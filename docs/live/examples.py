"""A page's examples, run in the reader's browser as the test suite runs them.

``docs/live/live.js`` loads this file into Pyodide next to the ``bottleimp`` wheel (the loader
that the page "Play a game" uses too, ``docs/live/python.js``) and sends it the text of a page's
examples, in page order, up to the one the reader runs. As Sybil does (``conftest.py``), the
examples of a page share one namespace, in order, in a fresh working directory: a block that
starts with ``>>>`` is a doctest whose examples run one by one, each output compared with the
page's; any other block runs as a script, and the value of its last line, if it is an
expression, is shown. Only stdlib: the same file runs in CPython (``tests/test_live_examples.py``).

``run_up_to`` answers in JSON: for each block it ran, each statement's output, whether it is
the output the page shows, the error it raised (with the rule ID that the library's errors
carry) and any picture (an SVG string) it returned.
"""

from __future__ import annotations

import ast
import contextlib
import doctest
import io
import json
import os
import shlex
import shutil
import sys
import tempfile
import traceback
from collections.abc import Sequence
from typing import Any

OPTIONS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
"""The doctest options of the test suite (``conftest.py``)."""

_checker = doctest.OutputChecker()
_parser = doctest.DocTestParser()


class _Shown:
    """What ``sys.displayhook`` shows while a statement runs: the text, or the picture when the
    value is an SVG string (its repr would be a screenful of markup)."""

    def __init__(self) -> None:
        self.svg: str | None = None

    def __call__(self, value: object) -> None:
        if value is None:
            return
        if isinstance(value, str) and value.lstrip().startswith("<svg") and value.rstrip(
        ).endswith("</svg>"):
            self.svg = value
        sys.stdout.write(repr(value) + "\n")


def _error(error: BaseException) -> dict[str, Any]:
    """An exception as the page shows it: the last line of its traceback, its rule ID."""
    line = traceback.format_exception_only(type(error), error)[-1].rstrip("\n")
    rule = getattr(error, "rule_id", None)
    return {"line": line, "message": str(error), "rule": rule if isinstance(rule, str) else None}


def _failed(source: str, error: BaseException) -> dict[str, Any]:
    """A statement that could not run (it does not compile)."""
    return {"source": source, "output": "", "error": _error(error), "svg": None, "matches": None}


def _statement(source: str, code: Any, namespace: dict[str, Any]) -> dict[str, Any]:
    """Run one compiled statement; its output, the error it raised and the picture it shows."""
    output, shown = io.StringIO(), _Shown()
    error: dict[str, Any] | None = None
    previous_hook = sys.displayhook
    sys.displayhook = shown
    try:
        with contextlib.redirect_stdout(output), contextlib.redirect_stderr(output):
            exec(code, namespace)
    except (Exception, SystemExit) as raised:  # the reader's code: shown, never raised
        error = _error(raised)
    finally:
        sys.displayhook = previous_hook
    text = output.getvalue()
    if shown.svg is not None:  # the picture, not its markup
        text = text.replace(repr(shown.svg) + "\n", "")
    return {"source": source, "output": text, "error": error, "svg": shown.svg, "matches": None}


def _doctest(text: str, namespace: dict[str, Any], where: str) -> list[dict[str, Any]]:
    items = []
    for example in _parser.get_examples(text, where):
        try:
            code = compile(example.source, where, "single")
        except SyntaxError as error:
            items.append(dict(_failed(example.source, error),
                              matches=False if example.want else None))
            continue
        item = _statement(example.source, code, namespace)
        if item["svg"] is not None:
            got = repr(item["svg"]) + "\n"
        else:
            got = item["output"]
        if item["error"] is not None:
            got += "Traceback (most recent call last):\n  ...\n" + item["error"]["line"] + "\n"
        if example.exc_msg is not None:
            item["matches"] = item["error"] is not None and _checker.check_output(
                example.exc_msg, item["error"]["line"] + "\n", OPTIONS)
        elif example.want:
            item["matches"] = item["error"] is None and _checker.check_output(
                example.want, got, OPTIONS)
        item["want"] = example.want or (
            "Traceback (most recent call last):\n  ...\n" + example.exc_msg
            if example.exc_msg else "")
        items.append(item)
    return items


def _script(text: str, namespace: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """A block of plain Python: run as a whole; the value of its last line, if an expression,
    is shown (as a notebook shows it)."""
    try:
        tree = ast.parse(text, where)
    except SyntaxError as error:
        return [_failed("", error)]
    last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    body = ast.Module(body=tree.body[:-1] if last else tree.body, type_ignores=[])
    try:  # ast.parse lets through what only the compiler refuses ('return' outside a function)
        code = compile(body, where, "exec")
    except SyntaxError as error:
        return [_failed("", error)]
    item = _statement("", code, namespace)
    if last is not None and item["error"] is None:
        shown = _statement("", compile(ast.Interactive(body=[last]), where, "single"), namespace)
        item["output"] += shown["output"]
        item["error"], item["svg"] = shown["error"], shown["svg"]
    return [item]


def _statements(text: str, namespace: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """Plain Python typed into a Python console, one statement at a time: each expression's
    value is shown (an edited doctest: the reader edits the statements without prompts)."""
    try:
        tree = ast.parse(text, where)
    except SyntaxError as error:
        return [_failed("", error)]
    lines = text.splitlines()
    items = []
    for statement in tree.body:
        first = min([statement.lineno, *(d.lineno for d in getattr(statement, "decorator_list", []))])
        source = "\n".join(lines[first - 1:statement.end_lineno]) + "\n"
        try:
            code = compile(ast.Interactive(body=[statement]), where, "single")
        except SyntaxError as error:
            items.append(_failed(source, error))
            continue
        items.append(_statement(source, code, namespace))
    return items


def run_command(line: str) -> str:
    """Run one ``bottleimp ...`` command line in-process: its stdout and stderr, merged; a line
    ending in ``; echo $?`` also prints its exit status (the pages' ```` ```console ```` blocks;
    ``conftest.py`` runs them with this too)."""
    return run_command_with_status(line)[0]


def run_command_with_status(line: str) -> tuple[str, int]:
    """``run_command``'s output, and the command's exit status."""
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
    return text, status


def _commands(lines: Sequence[tuple[str, list[str] | None]]) -> list[dict[str, Any]]:
    """Each command with its output, compared with the expected lines when there are any."""
    items = []
    for command, expected in lines:
        item: dict[str, Any] = {"source": f"$ {command}\n", "output": "", "error": None,
                                "svg": None, "matches": None, "status": None}
        try:
            item["output"], item["status"] = run_command_with_status(command)
        except Exception as error:  # the reader's command: shown, never raised
            item["error"] = _error(error)
        if expected is not None:
            item["want"] = "\n".join(expected).strip() + "\n"
            item["matches"] = item["error"] is None and _checker.check_output(
                item["want"], item["output"], OPTIONS)
        items.append(item)
    return items


def _shell(text: str, namespace: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """A page's console block: each ``$ bottleimp ...`` line run, its output compared with the
    lines under it (a line before any command is an error of the page)."""
    commands: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        if line.startswith("$ "):
            commands.append((line[2:].strip(), []))
        elif commands:
            commands[-1][1].append(line)
        elif line.strip():
            return [_failed("", ValueError(f"{where}: output {line!r} before any command"))]
    return _commands(commands)


def _typed_commands(text: str, namespace: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """An edited console block: every line a command (its ``$ `` prompt optional)."""
    lines = [line.strip().removeprefix("$ ") for line in text.splitlines()]
    return _commands([(line, None) for line in lines if line])


MODES = {"doctest": _doctest, "statements": _statements, "script": _script, "shell": _shell,
         "commands": _typed_commands}
"""How a block runs: a page's doctest, or its statements edited as plain Python; a script; a
page's console block, or its commands edited."""


def run_block(text: str, namespace: dict[str, Any], where: str, mode: str = "") -> dict[str, Any]:
    """Run one block in ``namespace`` (as a doctest when it starts with ``>>>``, unless ``mode``
    says otherwise): its statements' outputs; ``ok`` when nothing failed and every output the
    page shows is the output it gives."""
    mode = mode or ("doctest" if text.lstrip().startswith(">>>") else "script")
    items = MODES[mode](text, namespace, where)
    unexpected = [item for item in items if item["error"] and item["matches"] is not True]
    ok = not unexpected and all(item["matches"] is not False for item in items)
    return {"mode": mode, "items": items, "ok": ok}


class Page:
    """The namespace of one page's examples and the blocks it has run, in order."""

    def __init__(self) -> None:
        self.ran: list[dict[str, str]] = []
        self.namespace: dict[str, Any] = {}
        self.directory: str | None = None

    def reset(self) -> None:
        """A fresh namespace in a fresh working directory, as each page gets in the tests (the
        previous directory is removed)."""
        self.close()
        self.ran = []
        self.namespace = {"__name__": "__docs__"}
        self.directory = tempfile.mkdtemp(prefix="bottleimp-example-")
        os.chdir(self.directory)

    def close(self) -> None:
        """Remove the working directory of the examples run so far, if any."""
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None

    def run_up_to(self, blocks: list[dict[str, str]]) -> list[dict[str, Any]]:
        """Run the last of ``blocks`` (a page's blocks in order as the reader sees them now,
        each ``{"text": ..., "mode": ...}``), after the ones before it unless the namespace
        already holds exactly those."""
        if self.directory is None or self.ran != blocks[:-1]:
            self.reset()
        results = []
        for number in range(len(self.ran), len(blocks)):
            block = blocks[number]
            result = run_block(block["text"], self.namespace, f"example {number + 1}",
                               block.get("mode", ""))
            result["index"] = number
            results.append(result)
            self.ran.append(block)
        return results


page = Page()


def run_up_to(blocks: str) -> str:
    """What ``docs/live/live.js`` calls: ``blocks`` a JSON list of the page's blocks up to the
    one to run (``{"text": ..., "mode": ...}``, a mode of ``MODES``); the results of the blocks
    run, as JSON."""
    return json.dumps(page.run_up_to([
        {"text": str(block["text"]), "mode": str(block.get("mode", ""))}
        for block in json.loads(blocks)
    ]))

"""Finding rule IDs in text and Python sources: the traceability test and the docs use this to
check that every rule ID named anywhere is in the catalogue, and every rule is tested."""

from __future__ import annotations

import ast
import re
from typing import Final

from attrs import frozen

# A rule ID's first word has two characters or more, so regular expressions' ``A-Z`` and
# ``A-Z0-9`` are not taken for IDs; an interpretation ID is ``I-`` and such words.
_HYPHENATED: Final = re.compile(
    r"(?<![A-Za-z0-9_-])((?:I-)?[A-Z][A-Z0-9]+(?:-[A-Z0-9]+)*)(?![A-Za-z0-9_-])"
)
_BRACKETED_WORD: Final = re.compile(r"\\?\[([A-Z][A-Z0-9]*)\\?\]")
_UPPER_TOKEN: Final = re.compile(r"[A-Z0-9]+")
_UPPER_WORD: Final = re.compile(r"[A-Z][A-Z0-9]*")

NOT_RULE_IDS: Final = frozenset({"UTF-8", "UTF-16", "UTF-32", "SHA-1", "SHA-256", "ISO-8601"})
"""Hyphenated upper-case tokens that are not rule IDs."""

UNKNOWN_ID_PREFIX: Final = "NO-SUCH-"
"""IDs that start with this (``NO-SUCH-RULE``) are deliberately unknown, for tests that check
that an unknown rule ID is refused; the traceability checks pass over them."""


@frozen
class Reference:
    """Rule-ID-like names found in one test function of a Python source.

    - ``name_runs``: runs of upper-case words in the function's name (``test_x_TRICK_WINNER``
      gives ``("TRICK", "WINNER")``), each to be split into catalogue IDs with ``split_run``.
    - ``mentions``: hyphenated upper-case tokens (``"TRICK-WINNER"``, ``I-MATAGOT-17``) in the
      function's decorators and body.
    - ``words``: string constants that are one upper-case word (``"DEAL"``), or that hold one in
      brackets (``match=r"\\[DEAL\\]"``): a mention when the word is a catalogue ID, nothing
      otherwise (``"A"`` or ``"JSON"`` are not rule IDs).
    """

    function: str
    line: int
    name_runs: tuple[tuple[str, ...], ...]
    mentions: frozenset[str]
    words: frozenset[str]


def _name_runs(name: str) -> tuple[tuple[str, ...], ...]:
    runs: list[tuple[str, ...]] = []
    current: list[str] = []
    for token in name.split("_"):
        if token and _UPPER_TOKEN.fullmatch(token):
            current.append(token)
            continue
        if current:
            runs.append(tuple(current))
        current = []
    if current:
        runs.append(tuple(current))
    # a run of digits alone (test_case_2) names no rule
    return tuple(run for run in runs if any(not token.isdigit() for token in run))


def mentions_in_text(text: str) -> frozenset[str]:
    """Hyphenated upper-case tokens (``TRICK-WINNER``, ``I-MATAGOT-17``) in ``text``, without
    the known non-rule tokens such as ``UTF-8`` and the deliberately unknown ``NO-SUCH-...``."""
    return frozenset(
        token
        for token in _HYPHENATED.findall(text)
        if "-" in token and token not in NOT_RULE_IDS and not token.startswith(UNKNOWN_ID_PREFIX)
    )


def _words(value: str) -> set[str]:
    if _UPPER_WORD.fullmatch(value):
        return {value}
    return set(_BRACKETED_WORD.findall(value))


def references_in_python(source: str, filename: str = "<source>") -> tuple[Reference, ...]:
    """The rule-ID-like names in every function of ``source`` whose name starts with ``test``,
    looking at the name, the decorators (``pytest.mark.parametrize``) and the body."""
    tree = ast.parse(source, filename)
    lines = source.splitlines()
    found: list[Reference] = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        if not node.name.startswith("test"):
            continue
        first = min([node.lineno] + [decorator.lineno for decorator in node.decorator_list])
        text = "\n".join(lines[first - 1 : node.end_lineno])
        words: set[str] = set()
        for inner in ast.walk(node):
            if isinstance(inner, ast.Constant) and isinstance(inner.value, str):
                words |= _words(inner.value)
        found.append(
            Reference(
                function=node.name,
                line=node.lineno,
                name_runs=_name_runs(node.name),
                mentions=mentions_in_text(text),
                words=frozenset(words),
            )
        )
    return tuple(sorted(found, key=lambda reference: reference.line))


def split_run(run: tuple[str, ...], known: frozenset[str]) -> tuple[str, ...] | None:
    """Split a run of upper-case name tokens into known IDs (``("DEAL", "COUNTS")`` ->
    ``("DEAL-COUNTS",)``), preferring the fewest, longest IDs; ``None`` if it cannot be split.

    A number that is not part of an ID is passed over: in ``test_below_19_TRICK_WINNER`` the
    run is ``("19", "TRICK", "WINNER")`` and names ``TRICK-WINNER``.
    """
    best: list[tuple[str, ...] | None] = [None] * (len(run) + 1)
    best[0] = ()
    for end in range(1, len(run) + 1):
        skipped = best[end - 1]
        if run[end - 1].isdigit() and skipped is not None:
            best[end] = skipped
        for start in range(end):
            prefix = best[start]
            candidate = "-".join(run[start:end])
            if prefix is None or candidate not in known:
                continue
            option = prefix + (candidate,)
            current = best[end]
            if current is None or len(option) < len(current):
                best[end] = option
    return best[len(run)]

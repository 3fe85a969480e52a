"""A Griffe extension for the API reference: every doctest in a docstring is shown as code.

The docstrings are in Google style, where only an ``Examples:`` section is read as Python
sessions; elsewhere a docstring is Markdown, in which a line that starts with ``>>>`` is a
blockquote three deep. A docstring may hold an example anywhere (an argument's refusal beside
the sentence that states it reads better than at the end), and the test suite runs every one
of them (Sybil), so the reference must show every one as the session it is: outside an
``Examples:`` section, each doctest block (from its first ``>>>`` line to the blank line that
ends it, as ``doctest`` reads it) is fenced as a ``pycon`` code block before the docstring is
parsed. ``mkdocs.yml`` loads this file; ``tests/test_docs_site.py`` checks in a browser that
no example of the reference is drawn as prose.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

SECTION = re.compile(r"^(\w[\w ]*):\s*$")
"""A Google-style section title alone on its line, at the docstring's left margin."""

EXAMPLES = frozenset({"Examples", "Example"})


def fence_doctests(text: str) -> str:
    """``text`` with each doctest block outside an ``Examples:`` section fenced as ``pycon``
    at its own indentation (an example inside an argument's description stays in it)."""
    out: list[str] = []
    in_examples = False
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        line = lines[index]
        title = SECTION.match(line)
        if title:
            in_examples = title[1] in EXAMPLES
        elif line and not line[0].isspace():
            in_examples = False
        stripped = line.lstrip()
        if in_examples or not (stripped == ">>>" or stripped.startswith(">>> ")):
            out.append(line)
            index += 1
            continue
        indent = line[: len(line) - len(stripped)]
        if out and out[-1].strip():
            out.append("")  # a fence opens a block of its own, never inside a paragraph
        out.append(f"{indent}```pycon")
        while index < len(lines) and lines[index].strip():
            out.append(lines[index])
            index += 1
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestsAsCode(griffe.Extension):
    """Fences the doctests of every docstring Griffe reads (see the module's docstring)."""

    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)

"""Lines read under a length cap, so that no line, however long, is held in memory whole.

Both sides of the protocol read JSON lines from a process they do not trust: ``serve`` reads
requests on stdin, the harness reads a peer's answers and error output. ``limited_lines`` reads
a stream one line at a time through its ``readline(size)``, never asking for more than the cap:
a line longer than the cap is given as its first ``limit`` characters (or bytes) with
``overlong`` set, and the rest of it is read in chunks and dropped. Memory stays bounded by the
cap whatever the other side writes, a line without an end included.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import AnyStr, Final, overload

MAX_LINE_BYTES: Final = 1024 * 1024
"""The longest protocol line read: 1 MiB (the longest request or answer a game needs is under
2 KiB). A longer request is refused with rule ``PROTOCOL``; a longer answer is malformed."""

_CHUNK: Final = 64 * 1024
"""How much of an over-long line's rest is read (and dropped) at a time."""


@overload
def limited_lines(readline: Callable[[int], str], limit: int) -> Iterator[tuple[str, bool]]: ...


@overload
def limited_lines(readline: Callable[[int], bytes], limit: int) -> Iterator[tuple[bytes, bool]]:
    ...


def limited_lines(readline: Callable[[int], AnyStr], limit: int) -> Iterator[tuple[AnyStr, bool]]:
    """The lines ``readline`` gives, each as ``(line, overlong)``.

    ``line`` keeps its newline when it fits; a line longer than ``limit`` (newline not counted)
    comes as its first ``limit`` characters with ``overlong`` true, once its first ``limit + 1``
    characters are read: the rest of it is then read in chunks of at most 64 KiB and dropped
    before the next line is given. The last line may lack its newline. Ends at the end of the
    stream."""
    while True:
        line = readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line[-1:] in ("\n", b"\n"):
            yield line, False
            continue
        yield line[:limit], True
        while True:
            rest = readline(_CHUNK)
            if not rest or rest[-1:] in ("\n", b"\n"):
                break


_UNPRINTABLE: Final = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")


def printable(text: str) -> str:
    """``text`` with control characters shown as escapes (``\\x1b``), safe to print to a
    terminal and to keep in a record."""
    return _UNPRINTABLE.sub(lambda match: f"\\x{ord(match.group()):02x}"
                            if ord(match.group()) < 256 else f"\\u{ord(match.group()):04x}", text)


def clip(text: str, limit: int) -> str:
    """``text`` cut to at most about ``limit`` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters in all)"


def plural(count: object, noun: str) -> str:
    """A count and its noun, singular for one: ``1 coin``, ``2 coins``, ``-1 coin``."""
    return f"{count} {noun}" if count in (1, -1) else f"{count} {noun}s"

"""The one input path for JSON: text read under limits, values checked with their JSON path.

Every entry point that reads JSON (records, states, actions, protocol lines, conformance case
files) reads it here, so that all refuse the same hostile input the same way and every fault is
a ``RecordError`` naming its JSON path (``$.rounds[2].plays[5][1]``):

- ``loads_json`` parses text under limits: at most ``MAX_RECORD_BYTES``, nesting at most
  ``MAX_NESTING`` deep (checked before the parser recurses), numbers of at most
  ``MAX_NUMBER_DIGITS`` digits, no ``NaN``/``Infinity``, no key given twice in one object.
- ``read_json_file`` reads a file under the same limits (the size checked before reading).
- ``check_json_value`` holds a value built in Python to the same limits, without recursion.
- ``expect_object``, ``expect_int``, ... read one value of a parsed document with its path.
- ``limited_lines`` reads lines of a stream under a length cap (a protocol's JSON lines).
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping
from typing import AnyStr, Final, Protocol, TypeAlias, overload

from .._cards import Card, Rank, normalize_rank
from .._errors import RecordError, ArgumentError

JSON: TypeAlias = "None | bool | int | float | str | list[JSON] | dict[str, JSON]"


_PLAIN_KEY: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@functools.lru_cache(maxsize=4096)
def child(path: str, key: str | int) -> str:
    """The JSON path of ``key`` under ``path``: ``$.rounds`` then ``$.rounds[0]``.

    A key that is not a plain name is written quoted and ASCII-escaped (``$["a b"]``), so a
    path can always be printed, whatever bytes the key holds."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    if _PLAIN_KEY.fullmatch(key):
        return f"{path}.{key}"
    return f"{path}[{json.dumps(key)}]"


def expect_object(value: JSON, path: str) -> dict[str, JSON]:
    """``value`` as a JSON object, or a ``RecordError`` at ``path``."""
    if not isinstance(value, dict):
        raise RecordError(path, f"expected an object, found {_kind(value)}")
    return value


def expect_list(value: JSON, path: str) -> list[JSON]:
    """``value`` as a JSON array, or a ``RecordError`` at ``path``."""
    if not isinstance(value, list):
        raise RecordError(path, f"expected an array, found {_kind(value)}")
    return value


def expect_int(value: JSON, path: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` as an integer within ``[low, high]``, or a ``RecordError`` at ``path``."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        value = int(value)
    if not isinstance(value, int) or isinstance(value, bool):
        raise RecordError(path, f"expected an integer, found {_kind(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        bounds = f"{low if low is not None else '-inf'} to {high if high is not None else 'inf'}"
        raise RecordError(path, f"expected an integer from {bounds}, found {value}")
    return value


def expect_str(value: JSON, path: str) -> str:
    """``value`` as a string, or a ``RecordError`` at ``path``."""
    if not isinstance(value, str):
        raise RecordError(path, f"expected a string, found {_kind(value)}")
    return value


def expect_rank(value: JSON, path: str) -> Rank:
    """``value`` as a finite card rank, or a ``RecordError`` at ``path``."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RecordError(path, f"expected a card rank (a number), found {_kind(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        raise RecordError(path, f"expected a card rank, found {value}")
    return normalize_rank(value)


class CardLookup(Protocol):
    """What finds a card by its rank: a ``Config`` (``config.card``). A protocol, so that this
    module, which the decks and hence the configuration are read through, imports neither."""

    def card(self, rank: Rank) -> Card:
        """The card of rank ``rank``; ``ArgumentError`` if the deck has none."""
        ...


def expect_card(value: JSON, config: CardLookup, path: str) -> Card:
    """The card of ``config``'s deck whose rank is ``value``, or a ``RecordError`` at ``path``
    (rule ``DECK``)."""
    rank = expect_rank(value, path)
    try:
        return config.card(rank)
    except ArgumentError as error:
        raise RecordError(path, error.message, "DECK") from None


def check_keys(obj: Mapping[str, JSON], path: str, required: set[str], optional: set[str]) -> None:
    """Refuse missing and unknown keys; keys that start with ``_`` are extensions, ignored."""
    for key in sorted(required - obj.keys()):
        raise RecordError(child(path, key), "missing")
    for key in obj:
        if key not in required and key not in optional and not key.startswith("_"):
            raise RecordError(child(path, key), "unknown key")


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return f"the number {value!r}"
    if isinstance(value, str):
        return f"the string {json.dumps(value)[:40]}"
    if isinstance(value, list):
        return "an array"
    return "an object"


# --- JSON text and files, read under limits ---------------------------------------------

MAX_RECORD_BYTES: Final = 16 * 1024 * 1024
"""The largest record file read: 16 MiB (a complete 6-player game is about 20 KiB)."""

MAX_NESTING: Final = 64
"""The deepest nesting of arrays and objects read (a record needs 6; extensions may use more)."""

MAX_NUMBER_DIGITS: Final = 100
"""The most digits in a row a number may have (no card, seat or score comes close)."""

Extensions: TypeAlias = tuple[tuple[str, str], ...]
"""Extension keys (``_``-prefixed) with their values as compact JSON text, sorted by key."""


class _Refused(Exception):
    """Raised from inside the JSON parser's hooks; turned into a ``RecordError``."""


# A JSON string, or an unterminated one up to the end of the text; possessive, so linear time.
_STRING: Final = re.compile(r'"(?:[^"\\]++|\\.)*+(?:"|\\?\Z)', re.DOTALL)
_NOT_BRACKET_BYTES: Final = bytes(code for code in range(256) if chr(code) not in '[]{}')
_NOT_BRACKET_OR_QUOTE_BYTES: Final = bytes(code for code in range(256) if chr(code) not in '[]{}"')
_SQUARE: Final = bytes.maketrans(b"{}", b"[]")
_QUOTED_BYTES: Final = re.compile(rb'"[^"]*(?:"|\Z)')
_DIGITS_AS_ZERO: Final = str.maketrans("123456789", "000000000")
_LONG_RUN: Final = "0" * (MAX_NUMBER_DIGITS + 1)
_DIGIT_BYTES_AS_ZERO: Final = bytes.maketrans(b"123456789", b"000000000")
_LONG_RUN_BYTES: Final = _LONG_RUN.encode()
_TOO_MANY_DIGITS: Final = 10**MAX_NUMBER_DIGITS


def _without_strings(text: str) -> str:
    return _STRING.sub('""', text)


def _brackets(text: str, dropped: bytes) -> bytes:
    """The text's UTF-8 bytes without ``dropped`` (no byte of a multi-byte character is a
    bracket or a quote), braces turned into square brackets."""
    return text.encode("utf-8", "surrogatepass").translate(_SQUARE, dropped)


def _check_nesting(text: str, encoded: bytes) -> None:
    """Refuse nesting deeper than ``MAX_NESTING`` before the parser sees the text, so that the
    parser never recurses deep enough to raise ``RecursionError``.

    With the strings taken out, the brackets alone are kept and every adjacent open-close pair
    removed, over and over: each pass takes one level off every nest, so balanced brackets
    vanish after exactly as many passes as they nest deep. Brackets left over are unbalanced
    (the parser refuses them); more than ``MAX_NESTING`` openers left unclosed are refused
    too, since the parser would recurse into them before finding the fault."""
    if "\\" in text:
        # Escapes: a quote may be part of a string, so take the strings out properly.
        brackets = _brackets(_without_strings(text), _NOT_BRACKET_BYTES)
    else:
        # No escapes: every quote opens or closes a string, so keep the quotes with the brackets
        # and drop each string's remains (an unterminated last string runs to the end).
        brackets = encoded.translate(_SQUARE, _NOT_BRACKET_OR_QUOTE_BYTES).replace(b'""', b"")
        if b'"' in brackets:
            brackets = _QUOTED_BYTES.sub(b"", brackets)
    for _ in range(MAX_NESTING):
        shorter = brackets.replace(b"[]", b"")
        if len(shorter) == len(brackets):
            break
        brackets = shorter
    if b"[]" in brackets or brackets.count(b"[") > MAX_NESTING:
        raise RecordError("$", f"arrays and objects nest more than {MAX_NESTING} deep")


def _check_number_lengths(text: str, encoded: bytes) -> None:
    """Refuse a number with more than ``MAX_NUMBER_DIGITS`` digits before parsing (Python refuses
    to convert integers of more than 4300 digits, and no record needs a long number). Digits
    inside strings do not count."""
    if _LONG_RUN_BYTES not in encoded.translate(_DIGIT_BYTES_AS_ZERO):
        return
    if _LONG_RUN in _without_strings(text).translate(_DIGITS_AS_ZERO):
        raise RecordError(
            "$", f"a number of more than {MAX_NUMBER_DIGITS} digits; the limit is "
            f"{MAX_NUMBER_DIGITS}",
        )


def _parse_float(token: str) -> float:
    number = float(token)
    if not math.isfinite(number):
        raise _Refused(f"the number {token[:40]} is too large to represent")
    return number


def _parse_constant(token: str) -> float:
    raise _Refused(f"{token} is not a JSON number")


class _KeyedObject(dict[str, JSON]):
    """An object in which a key occurred twice; ``duplicate`` is that key."""

    duplicate: str = ""


def _pairs(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    obj: dict[str, JSON] = dict(pairs)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    keyed = _KeyedObject(pairs)
    for key, _ in pairs:
        if key in seen:
            keyed.duplicate = key
            break
        seen.add(key)
    return keyed


def _find_duplicate(value: JSON, path: str) -> tuple[str, str] | None:
    if isinstance(value, _KeyedObject):
        return path, value.duplicate
    if isinstance(value, dict):
        for key, item in value.items():
            found = _find_duplicate(item, child(path, key))
            if found is not None:
                return found
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found = _find_duplicate(item, child(path, index))
            if found is not None:
                return found
    return None


def loads_json(text: str | bytes) -> JSON:
    """Parse record text (UTF-8 bytes or a string) into JSON values, refusing what a record never
    needs and a hostile input could use: more than ``MAX_RECORD_BYTES``, nesting deeper than
    ``MAX_NESTING``, numbers longer than ``MAX_NUMBER_DIGITS``, ``NaN`` and ``Infinity``, and a
    key given twice in one object. Every refusal is a ``RecordError``."""
    if isinstance(text, bytes):
        if len(text) > MAX_RECORD_BYTES:
            raise RecordError("$", f"the input is larger than {MAX_RECORD_BYTES} bytes")
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise RecordError("$", f"not UTF-8 text: byte {error.start} is invalid") from None
    elif len(text) > MAX_RECORD_BYTES:
        raise RecordError("$", f"the input is larger than {MAX_RECORD_BYTES} characters")
    encoded = text.encode("utf-8", "surrogatepass")
    _check_nesting(text, encoded)
    _check_number_lengths(text, encoded)
    duplicates_seen = False

    def pairs_hook(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
        nonlocal duplicates_seen
        obj = _pairs(pairs)
        if isinstance(obj, _KeyedObject):
            duplicates_seen = True
        return obj

    try:
        value: JSON = json.loads(
            text,
            object_pairs_hook=pairs_hook,
            parse_float=_parse_float,
            parse_constant=_parse_constant,
        )
    except json.JSONDecodeError as error:
        raise RecordError(
            "$", f"not JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except _Refused as error:
        raise RecordError("$", str(error)) from None
    except (ValueError, RecursionError) as error:
        # Belt and braces: the limits above keep the parser from raising these.
        raise RecordError("$", f"not JSON: {type(error).__name__}") from None
    if duplicates_seen:
        found = _find_duplicate(value, "$")
        if found is not None:
            where, key = found
            raise RecordError(child(where, key), "this key occurs more than once in its object")
    return value


def printable_name(path: str | os.PathLike[str]) -> str:
    """A file name that can always be printed (undecodable bytes shown as escapes)."""
    return os.fsdecode(path).encode("utf-8", "backslashreplace").decode("utf-8")


def read_json_file(path: str | os.PathLike[str]) -> JSON:
    """The JSON value of a record file, read under the limits of ``loads_json``."""
    name = printable_name(path)
    try:
        # Checked before opening: opening a FIFO would wait for a writer.
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise RecordError("$", f"{name} is a directory, not a record file")
        if not stat.S_ISREG(info.st_mode):
            raise RecordError("$", f"{name} is not a regular file")
        if info.st_size > MAX_RECORD_BYTES:
            raise RecordError(
                "$", f"{name} has {info.st_size} bytes; the limit is {MAX_RECORD_BYTES}"
            )
        with open(path, "rb") as handle:
            data = handle.read(MAX_RECORD_BYTES + 1)
    except FileNotFoundError:
        raise RecordError("$", f"{name}: no such file") from None
    except OSError as error:
        raise RecordError("$", f"cannot read {name}: {error.strerror or error}") from None
    return loads_json(data)


def check_json_value(value: object, path: str = "$", nesting: int = MAX_NESTING) -> None:
    """Refuse a value built in Python that text read by ``loads_json`` could not hold: a type
    that is not JSON, a non-string key, a float that is not finite, an integer of more than
    ``MAX_NUMBER_DIGITS`` digits, or nesting deeper than ``nesting`` (``MAX_NESTING``). Walks
    the value with an explicit stack, so that no nesting, however deep, can exhaust Python's
    recursion."""
    stack: list[tuple[object, str, int]] = [(value, path, 0)]
    while stack:
        item, where, depth = stack.pop()
        if item is None or isinstance(item, (bool, str)):
            continue
        if isinstance(item, int):
            if abs(item) >= _TOO_MANY_DIGITS:
                raise RecordError(where, f"an integer of more than {MAX_NUMBER_DIGITS} digits")
            continue
        if isinstance(item, float):
            if not math.isfinite(item):
                raise RecordError(where, f"{item} is not a JSON number")
            continue
        if isinstance(item, (list, tuple, dict)):
            if depth >= nesting:
                raise RecordError(where, f"arrays and objects nest more than {nesting} deep")
            if isinstance(item, dict):
                for key, inner in item.items():
                    if not isinstance(key, str):
                        raise RecordError(where, f"an object key must be a string, not {key!r}")
                    stack.append((inner, child(where, key), depth + 1))
            else:
                stack.extend((inner, child(where, i), depth + 1) for i, inner in enumerate(item))
            continue
        raise RecordError(where, f"not a JSON value: a Python {type(item).__name__}")


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

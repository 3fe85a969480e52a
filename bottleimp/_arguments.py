"""The checks of the public functions' arguments: a value of the wrong type, or one a function
cannot handle, is refused with an ``ArgumentError`` naming what is wrong, before it can meet the
rules.

One policy for whole numbers holds everywhere (``integer``): an ``int``, or another library's
integer (numpy's, say: any type with ``__index__``), taken as the ``int`` of the same value; a
``bool``, a float (even a whole one) and a string are refused. They are type checks only:
whether a value is legal is the rules' business. The checks of the core's own types live with
those types (``expect_card`` in ``cards``, ``expect_action`` in ``actions``, ``expect_config``
in ``config``, ``expect_state`` and ``expect_view`` in ``view``): each is the type itself, not
a subclass, so a value with a lying ``__eq__`` or ``__hash__`` never reaches the rules. A state
and its parts check their own fields when they are built (``state``), so the type is all a
state's check asks.
"""

from __future__ import annotations

import operator

from ._errors import ArgumentError


def describe(value: object) -> str:
    """A short description of a wrong value for a message: its type, and the value if short."""
    try:
        text = repr(value)
    except Exception:  # a forged value's __repr__ may fail: the message must not
        text = "<unprintable>"
    if len(text) > 60:
        text = text[:57] + "..."
    kind = type(value).__name__
    return f"{text} ({'an' if kind[0] in 'aeiouAEIOU' else 'a'} {kind})"


def integer(value: object) -> int | None:
    """``value`` as an ``int`` if it is a whole number by the library's one policy (an ``int`` or
    another library's integer, not a ``bool``), else ``None``.

    >>> integer(3), integer(True), integer(3.0), integer("3")
    (3, None, None, None)
    """
    if type(value) is int:
        return value
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        return None
    try:
        return operator.index(value)  # type: ignore[arg-type]  # checked: it has __index__
    except TypeError:  # numpy's bool has __index__ but refuses it
        return None


def expect_int(value: object, where: str, what: str = "a whole number (an int)") -> int:
    """``value`` as an ``int`` (see ``integer``), else an ``ArgumentError`` for ``where``."""
    number = integer(value)
    if number is None:
        raise ArgumentError(where, f"needs {what}, not {describe(value)}")
    return number


def expect_seat(value: object, players: int, where: str) -> int:
    """``value`` as a seat of a ``players``-player game: a whole number (see ``integer``) from 0
    to ``players - 1``; else an ``ArgumentError`` for ``where``."""
    seat = integer(value)
    if seat is None or not 0 <= seat < players:
        shown = describe(value) if seat is None else str(seat)
        raise ArgumentError(where, f"there is no seat {shown} in a {players}-player game (the "
                                   f"seats are 0 to {players - 1})")
    return seat

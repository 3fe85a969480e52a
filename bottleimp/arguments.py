"""The checks of the public functions' arguments: a value of the wrong type, or one a function
cannot handle, is refused with an ``ArgumentError`` (or, for a seat, ``NoSuchSeatError``) naming
what is wrong, before it can meet the rules as an ``AttributeError`` deep inside.

They are type checks only (the hot path, ``legal_actions`` and ``apply`` on a ``GameState``,
pays one ``type(...) is`` test): whether a value is legal is the rules' business.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .config import Config
from .errors import ArgumentError, NoSuchSeatError
from .state import GameState

if TYPE_CHECKING:
    from .view import SeatView


def describe(value: object) -> str:
    """A short description of a wrong value for a message: its type, and the value if short."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    kind = type(value).__name__
    return f"{text} ({'an' if kind[0] in 'aeiouAEIOU' else 'a'} {kind})"


def expect_state(value: object, where: str) -> GameState:
    """``value`` if it is a ``GameState``, else an ``ArgumentError`` for ``where`` (a
    ``SeatView`` gets a word of its own: a view holds what one seat knows, not the game)."""
    if isinstance(value, GameState):
        return value
    from .view import SeatView  # here, not above: view.py imports this module

    if isinstance(value, SeatView):
        raise ArgumentError(
            where,
            "needs a GameState, not a SeatView: a view holds what one seat knows, not the whole "
            "game (keep the GameState and pass it)",
        )
    raise ArgumentError(where, f"needs a GameState, not {describe(value)}")


def expect_view(value: object, where: str) -> SeatView:
    """``value`` if it is a ``SeatView``, else an ``ArgumentError`` for ``where``."""
    from .view import SeatView

    if isinstance(value, SeatView):
        return value
    hint = " (a seat's view is view(state, seat))" if isinstance(value, GameState) else ""
    raise ArgumentError(where, f"needs a SeatView, not {describe(value)}{hint}")


def expect_source(value: object, where: str) -> GameState | SeatView:
    """``value`` if it is a ``GameState`` or a ``SeatView``, else an ``ArgumentError``."""
    from .view import SeatView

    if isinstance(value, (GameState, SeatView)):
        return value
    raise ArgumentError(where, f"needs a GameState or a SeatView, not {describe(value)}")


def expect_config(value: object, where: str) -> Config:
    """``value`` if it is a ``Config``, else an ``ArgumentError`` for ``where``."""
    if isinstance(value, Config):
        return value
    hint = ""
    if type(value) is int:
        hint = f" (for {value} players write Config(players={value}))"
    raise ArgumentError(where, f"needs a Config, not {describe(value)}{hint}")


def expect_seat(value: object, players: int) -> int:
    """``value`` if it is a seat of a ``players``-player game: an ``int`` (not a ``bool``, not a
    float) from 0 to ``players - 1``; else ``NoSuchSeatError``."""
    if type(value) is not int or not 0 <= value < players:
        raise NoSuchSeatError(value, players)
    return value

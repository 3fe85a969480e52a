"""The rules of the configuration and the cards, defined beside the types they check.

``Config`` checks itself with these functions when it is made, and ``Card`` normalises its rank
with ``normalize_rank``; they are tagged with their rule IDs like every rule function, and named
here so that the rules of ``bottleimp.rules`` are all in one place. The view's rule,
VIEW-HIDDEN, is ``bottleimp.view``.
"""

from .._cards import normalize_rank
from .._config import (
    check_bottles,
    check_deck,
    check_edition,
    check_game_end,
    check_players,
    check_teams,
)
from .._editions import edition_deck

__all__ = [
    "check_bottles", "check_deck", "check_edition", "check_game_end", "check_players",
    "check_teams", "edition_deck", "normalize_rank",
]

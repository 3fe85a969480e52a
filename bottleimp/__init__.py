"""bottleimp: the executable reference for the rules of The Bottle Imp.

Drive a whole game with four names::

    >>> import bottleimp
    >>> state = bottleimp.new_game(bottleimp.Config(players=4), seed=7)
    >>> while not state.is_over:
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> len(state.rounds), sum(state.round.scores) != 0
    (8, True)
"""

from typing import TYPE_CHECKING

from ._actions import Action, Destination, Give, Play, StartRound
from ._cards import START_PRICE, Card, Colour, Rank, coins
from ._config import DEFAULT_ROUNDS, Config, default_teams
from ._editions import CLASSIC, EDITIONS, MATAGOT_2024, MATAGOT_2024_54
from ._encoding import (
    action_from_int,
    action_to_int,
    legal_action_ints,
    legal_action_mask,
    num_actions,
    observation,
    observation_entries,
    observation_layout,
    observation_size,
    observation_string,
    returns,
    totals,
    winners,
)
from ._engine import apply, check_action, is_legal, legal_actions, new_game, with_deal
from ._errors import (
    ArgumentError,
    BottleImpError,
    ConfigError,
    IllegalActionError,
    RecordError,
)
from .formats._state_json import (
    action_from_json,
    action_to_json,
    state_from_json,
    state_to_json,
)
from .formats._view_json import view_from_json, view_to_json
from ._state import Bottle, GameState, Phase, RoundState, TrickResult
from ._view import SeatView, view

if TYPE_CHECKING:
    __version__: str
else:

    def __getattr__(name: str) -> str:
        """``__version__``, the installed distribution's version, looked up when first asked
        for: importing ``importlib.metadata`` costs about a third of ``import bottleimp`` (more
        in the browser's Pyodide), which a program that never asks should not pay."""
        if name != "__version__":
            raise AttributeError(f"module 'bottleimp' has no attribute {name!r}")
        from importlib.metadata import PackageNotFoundError, version

        try:
            found = version("bottleimp")
        except PackageNotFoundError:  # run from a source tree that was never installed
            found = "0+unknown"
        globals()["__version__"] = found
        return found

__all__ = [
    "__version__",
    "Action",
    "ArgumentError",
    "Bottle",
    "BottleImpError",
    "CLASSIC",
    "Card",
    "Colour",
    "Config",
    "ConfigError",
    "DEFAULT_ROUNDS",
    "Destination",
    "EDITIONS",
    "GameState",
    "Give",
    "IllegalActionError",
    "MATAGOT_2024",
    "MATAGOT_2024_54",
    "Phase",
    "Play",
    "Rank",
    "RecordError",
    "RoundState",
    "START_PRICE",
    "SeatView",
    "StartRound",
    "TrickResult",
    "action_from_int",
    "action_from_json",
    "action_to_int",
    "action_to_json",
    "apply",
    "check_action",
    "coins",
    "default_teams",
    "is_legal",
    "legal_action_ints",
    "legal_action_mask",
    "legal_actions",
    "new_game",
    "num_actions",
    "observation",
    "observation_entries",
    "observation_layout",
    "observation_size",
    "observation_string",
    "returns",
    "state_from_json",
    "state_to_json",
    "totals",
    "view",
    "view_from_json",
    "view_to_json",
    "winners",
    "with_deal",
]

"""Game records (``bottleimp-record/1``, ``spec/record.md``) of games played by the batch
engine, so that ``bottleimp validate`` can check them like any other implementation's.

``RecordingGames`` steps a ``BatchGames`` (without auto-reset) and writes down, per game, each
round's deal (read from the batch's sets of cards when it is dealt), each seat's setup, every play and
the scores the batch engine computed; ``records()`` gives one record per game. It is for checks,
not for speed: it loops over the games in Python at every step.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from .._actions import Give
from ..formats._config_json import config_to_json
from ..formats._json_input import JSON
from ..formats._setup_entries import entry_from_gives
from .._encoding import setup_destinations
from ._engine import PLAY, SETUP, BatchError, BatchGames, StepResult, unpack_cards


class RecordingGames:
    """A ``BatchGames`` whose games are written down as records as they are played."""

    def __init__(self, games: BatchGames) -> None:
        if games.autoreset:
            raise BatchError("records are written of games without auto-reset")
        self.games = games
        self.rounds: list[list[dict[str, JSON]]] = [[] for _ in range(games.size)]
        self._gives: list[list[list[Give]]] = [[] for _ in range(games.size)]

    def reset(self, seeds: npt.ArrayLike, first_dealer: npt.ArrayLike = 0) -> None:
        """``games.reset(seeds, first_dealer)``, and new records begun."""
        self.games.reset(seeds, first_dealer)
        for game in range(self.games.size):
            self.rounds[game] = []
            self._start_round(game)

    def _ranks(self, row: npt.NDArray[np.bool_]) -> list[JSON]:
        cards = self.games.config.cards
        return [cards[int(index)].rank for index in np.flatnonzero(row)]

    def _start_round(self, game: int) -> None:
        games = self.games
        n = games.t.cards
        self.rounds[game].append({
            "dealer": int(games.dealer[game]),
            "hands": [self._ranks(row) for row in unpack_cards(games._hand[game], n)],
            "face_up": [self._ranks(row) for row in unpack_cards(games._face_up[game], n)]
            if games.t.devils_eye else None,
            "setup": [],
            "plays": [],
        })
        self._gives[game] = [[] for _ in range(games.t.players)]

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """``games.step(actions)``, written down."""
        games = self.games
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        before = games.phase.copy()
        seats = games.to_act.copy()
        result = games.step(acts)
        config = games.config
        n = games.t.cards
        for game in range(games.size):
            seat, action = int(seats[game]), int(acts[game])
            current = self.rounds[game][-1] if self.rounds[game] else None
            if before[game] == SETUP and current is not None:
                destination = setup_destinations(config)[action // n]
                self._gives[game][seat].append(Give(seat, config.cards[action % n], destination))
                if games.phase[game] != SETUP:
                    current["setup"] = [entry_from_gives(g) for g in self._gives[game]]
            elif before[game] == PLAY and current is not None:
                plays = current["plays"]
                assert isinstance(plays, list)
                plays.append([seat, config.cards[action - 3 * n].rank])
                if games.phase[game] > PLAY:
                    current["scores"] = [int(score) for score in games.scores[game]]
            elif games.phase[game] == SETUP and before[game] != SETUP:
                self._start_round(game)
        return result

    def records(self) -> list[dict[str, JSON]]:
        """One record per game: every round so far (an unfinished setup as partial entries)."""
        games = self.games
        out: list[dict[str, JSON]] = []
        for game in range(games.size):
            rounds: list[JSON] = []
            for index, round_ in enumerate(self.rounds[game]):
                round_ = dict(round_)
                if index == len(self.rounds[game]) - 1 and games.phase[game] == SETUP:
                    round_["setup"] = [entry_from_gives(g) for g in self._gives[game]]
                rounds.append(round_)
            out.append({
                "format": "bottleimp-record/1",
                "config": config_to_json(games.config),
                "rounds": rounds,
                "totals": [int(total) for total in games.totals[game]],
                "_generator": "bottleimp.batch",
            })
        return out

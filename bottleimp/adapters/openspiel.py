"""The Bottle Imp as an OpenSpiel game (extra ``openspiel``: ``pip install 'bottleimp[openspiel]'``).

Importing this module registers the game with pyspiel as ``python_bottle_imp``::

    import pyspiel
    import bottleimp.adapters.openspiel  # registers the game
    game = pyspiel.load_game("python_bottle_imp", {"players": 3, "rounds": 1})

Parameters (every variant of ``bottleimp.Config``):

- ``players`` (int, 4): 2 to 6; 2 is Devil's Eye.
- ``edition`` (str, ``""``): ``"classic"`` or ``"matagot-2024"``; empty: classic for 2-4 players,
  matagot-2024 for 5-6.
- ``bottles`` (int, 1): 2 for the Second Bottle variant (5-6 players).
- ``teams`` (str, ``""``): empty for no teams, ``"default"`` for the default partition, or seats
  written ``"0 2|1 3"`` (teams separated by ``|``, seats by spaces).
- ``rounds`` (int, 0): the number of rounds; 0 for the default of the player count.
- ``target_score`` (int, 0): end after the round in which a total reaches it; 0 for none.
- ``perfect_recall`` (bool, false): the information state remembers every earlier round (see
  below); false: it is the seat's view of the current round, as the observation.

The game:

- **Chance**: each round's deal is a run of chance nodes, one per card dealt, in the order of
  rule DEAL (one card at a time clockwise from the dealer's left; in Devil's Eye the last third
  face up). The outcome is the card's index in ``config.cards``, uniform over the cards not yet
  dealt, so search can sample deals. After a round is scored the next deal starts at once (the
  library's ``StartRound`` action is implied, never a decision).
- **Decisions**: the action numbers of ``bottleimp._encoding`` (``num_actions(config)``).
- **Observations**: the observation string and tensor are ``bottleimp.observation_string`` and
  ``bottleimp.observation`` of the player's ``SeatView``. The information state is by default
  the same view (it holds everything the seat has seen this round in order, the running totals
  and the round number; earlier rounds' cards are not in it, and matter to the future only
  through the totals). With ``perfect_recall`` it remembers every round: the string is the
  view strings of each earlier round as it ended (Devil's Trick revealed) and of the current
  round, one a line; the tensor is the current round's observation vector and order of play
  (for each card, its place among the round's plays / cards, 0 if unplayed: the observation
  alone holds which cards were played, not in what order), then for each round slot of the game
  (``config.round_limit``, or 100 with only a target score) the observation vector of the
  round as it ended, then each slot's order of play; zero for rounds not yet played. During a deal a player observes the cards dealt to it so far.
- **Text for people**: rounds count from 1 in ``str(state)``; action strings read
  ``seat 2 gives 17 red to the Devil's Trick``, ``seat 0 gives 4 blue to seat 1 (left)``,
  ``seat 3 plays 23 yellow``, and chance outcomes ``deal 17 red``.
- **Returns**: ``bottleimp.returns``: +1 for each winner, -1 for everyone else (general sum).
- **Serialisation**: OpenSpiel's own, by replaying the action history.
- ``resample_from_infostate(player, sampler)`` deals the cards the player has not seen anew,
  consistently with everything it has seen, for information-set search (``ismcts``). Earlier
  rounds are kept as they were.
- **Bots**: OpenSpiel's ``evaluate_bots`` calls ``restart_at`` on every bot, and its Python
  ``ismcts.ISMCTSBot`` does not implement it (pyspiel.Bot's default raises ``RestartAt(state)
  not implemented``). ISMCTS keeps nothing from one move to the next, so ``ISMCTSBot`` here is
  OpenSpiel's with a ``restart_at`` that does nothing, for ``evaluate_bots``.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Final, Generic, TypeVar

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from .. import (
    Action,
    Card,
    Config,
    Destination,
    GameState,
    Give,
    Phase,
    Play,
    apply,
    default_teams,
    legal_actions,
    new_game,
    returns,
    view,
    with_deal,
)
from .._encoding import (
    action_table,
    observation_entries,
    observation_layout,
    observation_size,
    observation_string,
)
from .._cards import coins, format_rank
from ..bots._worlds import resample
from ..rules.deal import deal_target, next_dealer
from ..rules.setup import receiving_seat

__all__ = [
    "GAME_NAME",
    "BottleImpGame",
    "BottleImpObserver",
    "BottleImpState",
    "ISMCTSBot",
    "PerfectRecallObserver",
    "action_of",
    "action_text",
    "config_from_params",
]

GAME_NAME: Final = "python_bottle_imp"

_DEFAULTS: Final[dict[str, Any]] = {
    "players": 4,
    "edition": "",
    "bottles": 1,
    "teams": "",
    "rounds": 0,
    "target_score": 0,
    "perfect_recall": False,
}

_CHANCE: Final[int] = int(pyspiel.PlayerId.CHANCE)
_TERMINAL: Final[int] = int(pyspiel.PlayerId.TERMINAL)

_TARGET_ROUNDS_CAP: Final = 100
"""The nominal round count behind ``max_game_length`` when the game ends at a target score."""


def config_from_params(params: dict[str, Any]) -> Config:
    """The ``Config`` of a set of game parameters (see the module's docstring)."""
    values = dict(_DEFAULTS, **params)
    players = int(values["players"])
    edition = str(values["edition"]) or ("classic" if players <= 4 else "matagot-2024")
    teams_text = str(values["teams"]).strip()
    teams: Sequence[Sequence[int]] | None
    if not teams_text:
        teams = None
    elif teams_text == "default":
        teams = default_teams(players)
    else:
        teams = [[int(seat) for seat in team.split()] for team in teams_text.split("|")]
    unknown = set(values) - set(_DEFAULTS)
    if unknown:
        raise ValueError(f"unknown game parameters: {', '.join(sorted(unknown))}")
    return Config(
        players=players,
        edition=edition,
        bottles=int(values["bottles"]),
        teams=teams,
        rounds=int(values["rounds"]) or None,
        target_score=int(values["target_score"]) or None,
    )


_GAME_TYPE: Final = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python The Bottle Imp (bottleimp)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=6,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def _round_slots(config: Config) -> int:
    """The rounds a game can have: its limit, or a nominal cap when only a score ends it."""
    return config.round_limit or _TARGET_ROUNDS_CAP


def _max_game_length(config: Config) -> int:
    rounds = _round_slots(config)
    setup_steps = 8 if config.devils_eye else 3 * config.players
    return rounds * (setup_steps + len(config.cards))


class BottleImpGame(pyspiel.Game):  # type: ignore[misc]
    """The Bottle Imp for pyspiel; ``config`` is the game's ``bottleimp.Config``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(_DEFAULTS, **(params or {}))
        self.config = config_from_params(params)
        self.perfect_recall = bool(params["perfect_recall"])
        """Whether information states remember earlier rounds (parameter ``perfect_recall``)."""
        config = self.config
        info = pyspiel.GameInfo(
            num_distinct_actions=action_table(config).size,
            max_chance_outcomes=len(config.cards),
            num_players=config.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=_max_game_length(config),
        )
        super().__init__(_GAME_TYPE, info, params)
        self._fixed = _Fixed(config)

    def new_initial_state(self) -> BottleImpState:
        """The start of a game: the first deal's chance nodes."""
        return BottleImpState(self)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> BottleImpObserver | None:
        """The observer of the views: of the current round's view, or for information states
        with ``perfect_recall``, of every round's. Only a seat's own view is observable (public
        and single-player private information together): for any other kind of observation
        (public alone, private alone) it returns ``None``, which OpenSpiel reads as not
        supported."""
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and (
            iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
            or not iig_obs_type.public_info
        ):
            return None
        if self.perfect_recall and iig_obs_type is not None and iig_obs_type.perfect_recall:
            return PerfectRecallObserver(self.config)
        return BottleImpObserver(self.config)


class _Fixed:
    """What every state of one game shares and never changes: the configuration and the action
    tables. Copies of a state (pyspiel clones them with ``copy.deepcopy``) share it."""

    __slots__ = ("config", "decode", "encode", "numbers", "ranks", "cards", "initial", "outcomes",
                 "names")

    def __init__(self, config: Config) -> None:
        self.config = config
        table = action_table(config)
        self.decode = table.decode
        self.encode = table.encode
        self.numbers = table.numbers
        self.cards = config.cards
        self.ranks = [str(card.rank) for card in config.cards]
        self.names = [f"{card.rank} {card.colour.value}" for card in config.cards]
        """Each card as people write it: ``17 red``."""
        self.initial = new_game(config, 0)
        """The placeholder before the first deal (its cards are replaced by the chance deal)."""
        count = len(config.cards)
        self.outcomes = [
            [(index, 1.0 / left) for index in range(count)] if left else []
            for left in range(count + 1)
        ]
        """``outcomes[left][index]``: the chance outcome of dealing card ``index`` when ``left``
        cards are still to be dealt."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Fixed:
        return self

    def __copy__(self) -> _Fixed:
        return self

    def __reduce__(self) -> tuple[type[_Fixed], tuple[Config]]:
        return _Fixed, (self.config,)


_Value = TypeVar("_Value")


class _Shared(Generic[_Value]):
    """An immutable value that copies of a state share: ``copy.deepcopy`` (pyspiel's clone of a
    Python state) returns it as it is instead of walking the whole frozen game state."""

    __slots__ = ("value",)

    def __init__(self, value: _Value) -> None:
        self.value = value

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared[_Value]:
        return self

    def __copy__(self) -> _Shared[_Value]:
        return self

    def __reduce__(self) -> tuple[type[_Shared[_Value]], tuple[_Value]]:
        return _Shared, (self.value,)


class BottleImpState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel state holding a ``bottleimp.GameState`` (``game_state``) and, during a deal,
    the cards dealt so far."""

    def __init__(self, game: BottleImpGame) -> None:
        super().__init__(game)
        self._fixed = game._fixed
        self._shared = _Shared(self._fixed.initial)
        self._ended: _Shared[tuple[GameState, ...]] = _Shared(())
        """Each earlier round as it ended (phase ``ROUND_OVER``), for perfect recall."""
        self._dealt: list[int] | None = []
        self._undealt: list[int] = list(range(len(game.config.cards)))
        self._player: int = _CHANCE
        """The player to act, kept up to date: pyspiel asks for it several times per action."""

    @property
    def game_state(self) -> GameState:
        """The library's state (during a deal: the state before the deal, or for the first deal
        a placeholder whose cards are not the ones being dealt)."""
        return self._shared.value

    @property
    def dealing(self) -> bool:
        """True while the round's cards are being dealt (chance nodes)."""
        return self._dealt is not None

    def current_player(self) -> int:
        return self._player

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    # Python callers reach these directly; pyspiel's C++ (and C++ algorithms) reach the same
    # answers through current_player, is_terminal, _legal_actions and chance_outcomes. Answering
    # in Python spares a Python caller several crossings into C++ and back per call.

    def is_chance_node(self) -> bool:
        return self._player == _CHANCE

    def is_player_node(self) -> bool:
        return self._player >= 0

    def legal_actions(self, player: int | None = None) -> list[int]:
        """The legal action numbers of ``player`` (default: the player to act); at a chance
        node, the cards that can be dealt."""
        current = self._player
        if player is None:
            player = current
        if player != current or current == _TERMINAL:
            return []
        if current == _CHANCE:
            return list(self._undealt)
        return self._fixed.numbers(legal_actions(self._shared.value))

    def _legal_actions(self, player: int) -> list[int]:
        state = self._shared.value
        if player != state.to_act:
            return []
        return self._fixed.numbers(legal_actions(state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        undealt = self._undealt
        outcomes = self._fixed.outcomes[len(undealt)]
        return [outcomes[index] for index in undealt]

    def _apply_action(self, action: int) -> None:
        dealt = self._dealt
        if dealt is None:
            state = apply(self._shared.value, self._fixed.decode[self._player][action])
            self._shared = _Shared(state)
            seat = state.to_act
            if seat is None:
                self._player = _TERMINAL
            elif state.phase is Phase.ROUND_OVER:
                self._dealt, self._undealt = [], list(range(len(self._fixed.cards)))
                self._player = _CHANCE
                self._ended = _Shared(self._ended.value + (state,))
            else:
                self._player = seat
            return
        self._undealt.remove(action)
        dealt.append(action)
        if not self._undealt:
            state = _dealt_state(self._shared.value, dealt)
            self._shared = _Shared(state)
            self._dealt = None
            assert state.to_act is not None
            self._player = state.to_act

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {self._fixed.names[action]}"
        seat = player if player >= 0 else (self._shared.value.to_act or 0)
        return action_text(self._fixed.config, self._fixed.decode[seat][action])

    def returns(self) -> list[float]:
        if self._dealt is not None:
            return [0.0] * self._fixed.config.players
        return list(returns(self._shared.value))

    def observation_of(self, player: int) -> str:
        """The observation string of ``player`` (what the observer's ``string_from`` returns)."""
        if self._dealt is not None:
            state = self._shared.value
            index = 0 if not state.past_rounds and state.phase is Phase.SETUP else (
                state.round.index + 1)
            mine = sorted(self._dealt_to(player), key=lambda card: card.rank)
            return (
                f"s{player}|r{index}|deal|t{' '.join(map(str, state.totals))}"
                f"|h{' '.join(str(card.rank) for card in mine) or '-'}"
            )
        return observation_string(view(self._shared.value, player))

    def rounds_ended(self) -> tuple[GameState, ...]:
        """Each earlier round as it ended (its last state, phase ``ROUND_OVER``), in order."""
        return self._ended.value

    def perfect_recall_string(self, player: int) -> str:
        """The information-state string with perfect recall: ``player``'s view string of each
        earlier round as it ended and of the current state, one a line."""
        lines = [observation_string(view(ended, player)) for ended in self._ended.value]
        return "\n".join([*lines, self.observation_of(player)])

    def _dealt_to(self, player: int) -> list[Card]:
        """The cards dealt to ``player`` so far in the deal in progress."""
        assert self._dealt is not None
        dealer = _next_dealer(self._shared.value)
        config = self._fixed.config
        cards = config.cards
        return [
            cards[index] for k, index in enumerate(self._dealt)
            if deal_target(config, dealer, k)[1] == player
        ]

    def resample_from_infostate(self, player: int, sampler: Any = None) -> BottleImpState:
        """A state that ``player`` cannot tell from this one: the cards it has not seen dealt
        anew, consistently with everything it has seen (see ``bottleimp.bots._worlds.resample``).
        ``sampler`` is OpenSpiel's: a callable returning a float in [0, 1), such as
        ``pyspiel.UniformProbabilitySampler``; one draw of it seeds the deal, so a seeded
        sampler makes resampling reproducible. Without one, Python's ``random`` seeds it."""
        clone: BottleImpState = self.clone()
        if self._dealt is not None or self.is_terminal():
            return clone
        seed = int(sampler() * 2**53) if callable(sampler) else random.getrandbits(64)
        clone._shared = _Shared(resample(self._shared.value, player, random.Random(seed)))
        return clone

    def __str__(self) -> str:
        if self._dealt is not None:
            return f"dealing: {' '.join(self._fixed.ranks[i] for i in self._dealt)}"
        state = self._shared.value
        round_ = state.round
        hands = " / ".join(" ".join(str(card.rank) for card in hand) for hand in round_.hands)
        plays = " ".join(f"{p.seat}:{p.card.rank}" for p in round_.plays)
        return (
            f"round {round_.index + 1} {state.phase.value} to act {state.to_act} | "
            f"hands {hands} | plays {plays} | totals {state.totals}"
        )


def _next_dealer(state: GameState) -> int:
    """The dealer of the deal in progress: the first round's, or the next round's."""
    if state.phase is Phase.ROUND_OVER:
        return next_dealer(state.config, state.round.dealer)
    return state.round.dealer


def _dealt_state(state: GameState, dealt: list[int]) -> GameState:
    """``state`` with the chance nodes' deal: the first round's deal replaced, or the next round
    started with it."""
    config = state.config
    dealer = _next_dealer(state)
    cards = config.cards
    hands: list[list[Card]] = [[] for _ in range(config.players)]
    face_up: list[list[Card]] | None = [[] for _ in range(config.players)] if config.devils_eye \
        else None
    for k, index in enumerate(dealt):
        up, seat = deal_target(config, dealer, k)
        if up:
            assert face_up is not None
            face_up[seat].append(cards[index])
        else:
            hands[seat].append(cards[index])
    return with_deal(
        state,
        tuple(map(tuple, hands)),
        None if face_up is None else tuple(map(tuple, face_up)),
    )


class BottleImpObserver:
    """pyspiel's Python observer: ``tensor`` (and its named views in ``dict``) and the string,
    from a player's view."""

    def __init__(self, config: Config) -> None:
        self.config = config
        self.tensor = np.zeros(observation_size(config), np.float32)
        self.dict = _segments(self.tensor, config)
        self._totals_at = next(s.offset for s in observation_layout(config) if s.name == "totals")
        self._index = action_table(config).card_index
        self._coins = float(coins(config.cards))

    def set_from(self, state: BottleImpState, player: int) -> None:
        self.tensor.fill(0.0)
        self._write_current(state, player, self.tensor)

    def _write_current(self, state: BottleImpState, player: int, tensor: np.ndarray[Any, Any]) -> (
        None
    ):
        """``player``'s observation of ``state`` into ``tensor`` (all zero to begin with)."""
        if state._dealt is not None:
            index = self._index  # the hand comes first
            for card in state._dealt_to(player):
                tensor[index[card]] = 1.0
            totals = state.game_state.totals
            players = self.config.players
            for seat in range(players):
                tensor[self._totals_at + (seat - player) % players] = totals[seat] / self._coins
            return
        _write_view(tensor, state.game_state, player)

    def string_from(self, state: BottleImpState, player: int) -> str:
        return state.observation_of(player)


def _segments(tensor: np.ndarray[Any, Any], config: Config) -> dict[str, np.ndarray[Any, Any]]:
    """The named views of an observation vector."""
    return {
        segment.name: tensor[segment.offset : segment.offset + segment.size].reshape(
            segment.shape)
        for segment in observation_layout(config)
    }


def _write_view(tensor: np.ndarray[Any, Any], state: GameState, player: int) -> None:
    """``bottleimp.observation`` of ``player``'s view of ``state`` into ``tensor`` (all zero)."""
    ones, values = observation_entries(view(state, player))
    tensor[ones] = 1.0
    for position, value in values:
        tensor[position] = value


class PerfectRecallObserver(BottleImpObserver):
    """The information state with perfect recall (game parameter ``perfect_recall``): for the
    current round and then for each round slot, the observation vector and the order of play
    (see the module's docstring); the string is ``BottleImpState.perfect_recall_string``."""

    def __init__(self, config: Config) -> None:
        super().__init__(config)
        size, cards, slots = self.tensor.size, len(config.cards), _round_slots(config)
        self.tensor = np.zeros((1 + slots) * (size + cards), np.float32)
        # pyspiel reads the tensor as the concatenation of ``dict``'s arrays, in this order.
        current_order, rounds = size + cards, size + cards + slots * size
        self.dict = {
            "current": self.tensor[:size],
            "current_order": self.tensor[size:current_order],
            "rounds": self.tensor[current_order:rounds].reshape(slots, size),
            "rounds_order": self.tensor[rounds:].reshape(slots, cards),
        }
        self._cards = float(cards)

    def set_from(self, state: BottleImpState, player: int) -> None:
        self.tensor.fill(0.0)
        self._write_current(state, player, self.dict["current"])
        if not state.dealing:
            self._write_order(state.game_state, self.dict["current_order"])
        rounds, orders = self.dict["rounds"], self.dict["rounds_order"]
        for number, ended in enumerate(state.rounds_ended()):
            _write_view(rounds[number], ended, player)
            self._write_order(ended, orders[number])

    def _write_order(self, state: GameState, order: np.ndarray[Any, Any]) -> None:
        """For each card played in ``state``'s round, its place among the plays / cards."""
        index = self._index
        for place, play in enumerate(state.round.plays, 1):
            order[index[play.card]] = place / self._cards

    def string_from(self, state: BottleImpState, player: int) -> str:
        return state.perfect_recall_string(player)


class ISMCTSBot(ismcts.ISMCTSBot):  # type: ignore[misc]
    """OpenSpiel's information-set MCTS bot, usable with ``evaluate_bots``: ``restart_at`` (which
    OpenSpiel's Python bot lacks) does nothing, since the bot searches anew at every move."""

    def restart_at(self, state: Any) -> None:
        self.reset()


def action_text(config: Config, action: Action) -> str:
    """An action as people read it: ``seat 2 gives 17 red to the Devil's Trick``, ``seat 0 gives
    4 blue to seat 1 (left)``, ``seat 3 plays 23 yellow``."""
    if isinstance(action, Play):
        return f"seat {action.seat} plays {format_rank(action.card.rank)} {action.card.colour.value}"
    if not isinstance(action, Give):
        return str(action)
    seat = action.seat
    receiver = receiving_seat(config.players, seat, action.to)
    to = {
        Destination.DEVILS_TRICK: "the Devil's Trick",
        Destination.LEFT: f"seat {receiver} (left)",
        Destination.RIGHT: f"seat {receiver} (right)",
        Destination.OPPONENT_FACE_UP: f"seat {receiver}'s face-up cards",
        Destination.OPPONENT_HIDDEN: f"seat {receiver}'s hidden hand",
    }[action.to]
    card = action.card
    return f"seat {seat} gives {format_rank(card.rank)} {card.colour.value} to {to}"


def action_of(state: BottleImpState, number: int) -> Action:
    """The library's action for an action number at ``state`` (of the seat to act)."""
    seat = state.game_state.to_act
    if seat is None:
        raise ValueError("no one acts in this state")
    return state._fixed.decode[seat][number]


pyspiel.register_game(_GAME_TYPE, BottleImpGame)

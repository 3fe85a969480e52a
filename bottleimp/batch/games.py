"""``BatchGames``: B games of one configuration stepped in lockstep on numpy arrays.

A second implementation of the rules, checked against the reference by the conformance tools
(``python -m bottleimp.conformance.batch_peer``) and by ``tests/test_batch*.py``. Every game of a
batch shares one ``Config``; each game has its own seed, first dealer and state.

State (``B`` games, ``P`` seats, ``N`` cards indexed by position in ``config.cards``, ascending
rank; ``K`` bottles): boolean planes ``hand``, ``face_up``, ``captured``, ``trick`` of shape
``(B, P, N)``, ``given`` ``(B, P, 3, N)`` (each seat's setup cards by destination slot, in the
order of ``encoding.setup_destinations``), ``played`` and ``devils_trick`` ``(B, N)``; the bottles'
price cards and owners ``(B, K)`` (``-1``: the start card 19, no owner); the current trick in
play order; and per game the phase (0 setup, 1 play, 2 round over, 3 game over), seat to act
(``-1`` once over), dealer, leader, round index, setup cards given per seat, the round's scores
and the totals.

The batch keeps its state in private arrays; the public attributes (``to_act``, ``hand``, ...)
are read-only twins over the same memory, which cannot be made writable again
(``read_only``): a caller reads the state, and only the batch's methods change it.

Actions are numbered as in ``bottleimp.encoding`` (``4 * N + 1`` numbers, the seat to act's).
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

import numpy as np
import numpy.typing as npt

from ..actions import Destination
from ..cards import START_PRICE
from ..config import Config
from ..errors import IllegalActionError
from .arguments import BatchError as BatchError
from .arguments import (describe, expect_flag, expect_integer, games_of, int64_values,
                        seats_of, uniforms_from)
from .observe import Observer
from .shuffle import game_seeds, shuffle_many, slot_seeds
from .tables import GAME_OVER as GAME_OVER
from .tables import PLAY as PLAY
from .tables import ROUND_OVER as ROUND_OVER
from .tables import SETUP as SETUP
from .tables import BoolArray as BoolArray
from .tables import FloatArray as FloatArray
from .tables import IntArray as IntArray
from .tables import Tables as Tables
from .tables import UInt8Array as UInt8Array
from .tables import tables_of as tables_of

_MASK: Final = (1 << 64) - 1
_BANK_ROUNDS: Final = 8
"""Rounds of deals shuffled ahead per game with a target score (no round limit)."""
VALUE_SEGMENTS: Final = ("devils_trick_size", "hand_sizes", "setup_given", "scores", "totals",
                         "progress")
"""The observation's segments of values (fractions, not 0/1), in the layout's order: what the
compact observation leaves at 0 and ``BatchGames.observe_values`` gives."""
MAX_BATCH: Final = 1 << 20
"""The largest batch size accepted (a game holds a few kilobytes: a larger batch is refused
before any memory is taken)."""
ILLEGAL_MODES: Final = ("raise", "end")
"""What ``step`` does with an illegal action: raise ``IllegalActionError`` (no game changed), or
end that game with ``illegal_reward`` for the seat that chose it and 0 for the others (as
PettingZoo's ``TerminateIllegalWrapper``, which ``bottleimp.adapters.pettingzoo.env`` uses)."""


def read_only(array: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """A read-only array over ``array``'s memory whose ``writeable`` flag cannot be set again
    (its base is a read-only buffer): the caller sees every later change, and writes none."""
    twin: npt.NDArray[Any] = np.asarray(memoryview(array).toreadonly())  # type: ignore[arg-type]
    return twin


class _Published:
    """A state array as the caller sees it: the read-only twin (``read_only``) of the private
    array ``_<name>``, made once per array."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.private = "_" + name

    def __get__(self, games: Any, owner: type | None = None) -> npt.NDArray[Any]:
        array = getattr(games, self.private)
        twins: dict[str, tuple[npt.NDArray[Any], npt.NDArray[Any]]] = games._twins
        twin = twins.get(self.name)
        if twin is None or twin[0] is not array:
            twin = (array, read_only(array))
            twins[self.name] = twin
        return twin[1]


class StepResult(NamedTuple):
    """What ``BatchGames.step`` returns, as a Gymnasium ``VectorEnv``'s ``step`` does:
    ``observation, rewards, terminated, truncated, infos = games.step(actions)``."""

    observation: npt.NDArray[Any]
    """``(B, D)``: the observation of each game's seat to act after the step (a game that ended
    and restarted: the new game's), ``observe()``'s array (read-only, rewritten by the next step
    or call: copy it to keep it); ``(B, 0)`` with ``observations=False``."""
    rewards: FloatArray
    """``(B, P)`` rewards: ``1.0`` to each winner and ``-1.0`` to every other seat on the step
    that ends a game (as ``encoding.returns``); a game ended by an illegal action
    (``illegal="end"``): ``illegal_reward`` to its author, 0 to the others; else ``0.0``."""
    terminated: BoolArray
    """``(B,)``: the games that ended on this step (with auto-reset, already restarted)."""
    truncated: BoolArray
    """``(B,)``: all False (a game always ends by the rules, never by a limit)."""
    infos: dict[str, Any]
    """When some game ended: ``final_obs`` ``(B, D)`` (the ended games' last observation, of the
    seat whose action ended it; zeros elsewhere) and ``final_info`` (``totals`` and ``scores``
    ``(B, P)``: the final totals and the last round's scores, ``illegal`` ``(B,)``: ended by an
    illegal action), each with its mask ``_final_obs``, ``_final_info``, ``_totals``, ... True
    at the games that ended, as Gymnasium's same-step auto-reset gives them; else empty."""

    @property
    def done(self) -> BoolArray:
        """``terminated | truncated``: the games that ended on this step."""
        ended: BoolArray = self.terminated | self.truncated
        return ended


class BatchGames:
    """``batch_size`` games of ``config`` stepped together.

    ``reset(seeds)`` starts every game (game ``b`` as ``new_game(config, seeds[b],
    first_dealer=...)`` would); ``legal_mask()``, ``observe()`` and ``to_act`` describe the seat
    to act of every game; ``step(actions)`` takes one action number per game. With
    ``autoreset`` (the default), a game that ends on a step starts again at once, with the
    slot's next seed (``shuffle.game_seeds``) and the next first dealer.
    """

    hand = _Published()
    face_up = _Published()
    captured = _Published()
    trick = _Published()
    given = _Published()
    played = _Published()
    devils_trick = _Published()
    bottle_card = _Published()
    bottle_owner = _Published()
    trick_cards = _Published()
    trick_seats = _Published()
    trick_length = _Published()
    phase = _Published()
    to_act = _Published()
    dealer = _Published()
    leader = _Published()
    round_index = _Published()
    setup_given = _Published()
    hand_count = _Published()
    scores = _Published()
    totals = _Published()
    last_winner = _Published()
    last_card = _Published()
    last_bottle = _Published()
    seeds = _Published()
    generation = _Published()
    first_dealer = _Published()
    base_seeds = _Published()
    slot_keys = _Published()
    obs_bits = _Published()

    def __init__(self, config: Config, batch_size: int, *, autoreset: bool = True,
                 observations: bool = True, illegal: str = "raise",
                 illegal_reward: float = -1.0, compact: bool = False) -> None:
        if not isinstance(config, Config):
            raise BatchError(f"config must be a Config, not {describe(config)}")
        size = expect_integer(batch_size, "batch_size")
        if not 1 <= size <= MAX_BATCH:
            raise BatchError(f"batch_size must be from 1 to {MAX_BATCH}, not {size}")
        if illegal not in ILLEGAL_MODES:
            raise BatchError(f"illegal must be one of {', '.join(ILLEGAL_MODES)}, not "
                             f"{describe(illegal)}")
        if type(illegal_reward) not in (int, float) or not np.isfinite(illegal_reward):
            raise BatchError(f"illegal_reward must be a finite number, not "
                             f"{describe(illegal_reward)}")
        self.config = config
        self.t = tables_of(config)
        self.size = size
        self.autoreset = expect_flag(autoreset, "autoreset")
        self.observations = expect_flag(observations, "observations")
        """Whether observations are kept (``observe`` needs them; search and perft, which never
        observe, run faster and smaller without)."""
        self.compact = expect_flag(compact, "compact")
        """Whether ``observe`` gives the compact observation: ``uint8``, the same layout, its
        0/1 cells as in the float32 one and its value cells 0 (``observe_values`` gives
        those): a quarter of the bytes."""
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self._twins: dict[str, tuple[npt.NDArray[Any], npt.NDArray[Any]]] = {}
        self._started = False
        """Whether the games were started (``reset`` or a ``load_*``): before, every call but
        ``reset`` is refused."""
        t, b = self.t, size
        p, n, k = t.players, t.cards, t.bottles
        self.num_actions = 4 * n + 1
        self.rows = np.arange(b)
        self._hand = np.zeros((b, p, n), dtype=np.bool_)
        self._face_up = np.zeros((b, p, n), dtype=np.bool_)
        self._captured = np.zeros((b, p, n), dtype=np.bool_)
        self._trick = np.zeros((b, p, n), dtype=np.bool_)
        self._given = np.zeros((b, p, 3, n), dtype=np.bool_)
        self._played = np.zeros((b, n), dtype=np.bool_)
        self._devils_trick = np.zeros((b, n), dtype=np.bool_)
        self._bottle_card = np.full((b, k), -1, dtype=np.int64)
        self._bottle_owner = np.full((b, k), -1, dtype=np.int64)
        self._trick_cards = np.zeros((b, t.trick_size), dtype=np.int64)
        self._trick_seats = np.zeros((b, t.trick_size), dtype=np.int64)
        self._trick_length = np.zeros(b, dtype=np.int64)
        self._phase = np.full(b, GAME_OVER, dtype=np.int64)
        self._to_act = np.full(b, -1, dtype=np.int64)
        self._dealer = np.zeros(b, dtype=np.int64)
        self._leader = np.zeros(b, dtype=np.int64)
        self._round_index = np.zeros(b, dtype=np.int64)
        self._setup_given = np.zeros((b, p), dtype=np.int64)
        self._hand_count = np.zeros((b, p), dtype=np.int64)
        """Cards in each seat's hidden hand (``hand.sum(axis=2)``, kept by each step)."""
        self._scores = np.zeros((b, p), dtype=np.int64)
        self._totals = np.zeros((b, p), dtype=np.int64)
        self._last_winner = np.full(b, -1, dtype=np.int64)
        self._last_card = np.full(b, -1, dtype=np.int64)
        self._last_bottle = np.full(b, -1, dtype=np.int64)
        self._seeds = np.zeros(b, dtype=np.uint64)
        self._generation = np.zeros(b, dtype=np.int64)
        self._first_dealer = np.zeros(b, dtype=np.int64)
        """The first dealer of each slot's current game."""
        self._base_seeds = np.zeros(b, dtype=np.uint64)
        """Each slot's first seed (its game 0's)."""
        self._slot_keys = np.zeros(b, dtype=np.uint64)
        """Each slot's key, from which its later games' seeds are drawn (``game_seeds``)."""
        self._bank: dict[int, npt.NDArray[np.int8]] = {}
        self._mask: BoolArray | None = None
        self._mask_buffer = np.zeros((b, self.num_actions), dtype=np.bool_)
        self._mask_blocks = self._mask_buffer[:, :4 * n].reshape(b, 4, n)
        assert np.shares_memory(self._mask_blocks, self._mask_buffer)
        self._mask_view = read_only(self._mask_buffer)
        colours = int(t.colour.max()) + 1
        self._colour_cards = np.zeros((colours + 1, n), dtype=np.bool_)
        """Row ``c``: the cards of colour ``c``; the last row: no card (no led colour)."""
        self._colour_cards[t.colour, np.arange(n)] = True
        self._observer = Observer(config)
        at = self._observer.at
        self._at_hand, self._at_face_up, self._at_my_setup = at["hand"], at["face_up"], at["my_setup"]
        self._at_trick, self._at_leader, self._at_played = at["trick"], at["trick_leader"], at["played"]
        self._at_captured, self._at_price = at["captured"], at["bottle_price"]
        self._at_owner, self._at_to_act = at["bottle_owner"], at["to_act"]
        self.seats = np.arange(p)[None, :]
        self._obs_bits = np.zeros((b, p, self._observer.size if self.observations else 0),
                                  dtype=np.uint8)
        """``obs_bits[b, s]``: the 0/1 part of seat ``s``'s observation in game ``b``, kept up to
        date by every step (each play sets a few cells per seat; a deal, the end of a setup or of
        a round rewrites the game's rows)."""
        self._obs_size = self._obs_bits.shape[2]
        self._flat_bits = self._obs_bits.reshape(-1)
        width = self._observer.size if self.observations else 0
        self._obs_out: npt.NDArray[Any] = np.zeros(
            (b, width), dtype=np.uint8 if self.compact else np.float32)
        self._obs_view = read_only(self._obs_out)
        """What ``observe`` returns: ``_obs_out`` read-only, for good (the compiled backend relies
        on the cells it never writes staying zero)."""
        self._obs_rows = np.zeros((b, width), dtype=np.uint8)
        self._uniforms = np.zeros(b, dtype=np.float64)
        self._rewards = np.zeros((b, p), dtype=np.float32)
        self._done = np.zeros(b, dtype=np.bool_)
        self._actors = np.zeros(b, dtype=np.int64)
        """The seat that acted in each game on the last step (``-1``: a game over)."""
        self._no_games = self.rows[:0]
        self._not_truncated = read_only(np.zeros(b, dtype=np.bool_))
        """``step``'s ``truncated``: all False, never written."""
        self._no_observation = read_only(np.zeros((b, 0), dtype=np.float32))
        self._stale: list[IntArray] = []

    # -- starting games -----------------------------------------------------------------------

    def reset(self, seeds: object = None, first_dealer: object = 0, *,
              games: object = None) -> None:
        """Start games: every game, or those of ``games`` (indices, or a boolean mask of B).

        ``seeds``: one integer seed per game started (game ``b`` is ``new_game(config,
        seeds[b], first_dealer=...)``: any integers, taken mod ``2**64`` as the reference does);
        or one integer or ``np.random.SeedSequence`` for them all, spawned into one child per
        game (``shuffle.slot_seeds``: two batches from different roots, or from one
        ``SeedSequence`` reset twice, share no game); or ``None`` with ``games`` to start each
        chosen slot's next game, as auto-reset would. ``first_dealer``: one seat or one per game
        started, dealing its round 0 (with ``seeds=None`` the next one clockwise)."""
        if games is None:
            chosen = self.rows
        else:
            chosen = games_of(games, "reset(games)", self.size)
            if len(np.unique(chosen)) != len(chosen):
                raise BatchError("reset(games) names a game twice")
        if seeds is None:
            if games is None or not self._started:
                raise BatchError("reset needs seeds (seeds=None only restarts chosen games of "
                                 "a batch already reset: reset(games=...))")
            self._restart(chosen)
            self._refresh()
            return
        dealers = seats_of(first_dealer, "first_dealer", len(chosen), self.t.players)
        bases, keys = slot_seeds(seeds, len(chosen))
        self._base_seeds[chosen] = bases
        self._slot_keys[chosen] = keys
        self._bank = {}
        self._generation[chosen] = 0
        self._first_dealer[chosen] = dealers
        self._started = True
        self._start_games(chosen)
        self._refresh()

    def _restart(self, games: IntArray) -> None:
        """Start the next game of each slot of ``games``: its next seed, its first dealer the
        seat after the last game's (a convention of the batch: rule FIRST-DEALER lets the
        players choose, and rotating it deals every seat first in turn)."""
        self._generation[games] += 1
        self._first_dealer[games] = (self._first_dealer[games] + 1) % self.t.players
        self._start_games(games)

    def _game(self, game: object, where: str) -> int:
        """``game`` if it is a game of the batch (an integer from 0 to B - 1), else a
        ``BatchError`` naming ``where``."""
        index = expect_integer(game, where)
        if not 0 <= index < self.size:
            raise BatchError(f"{where}: {index} is no game of a batch of {self.size}")
        return index

    def _card(self, card: object, where: str, lowest: int) -> int:
        """``card`` if it is a card index of the deck (an integer from 0, or ``lowest``, to
        N - 1), else a ``BatchError`` naming ``where``."""
        index = expect_integer(card, where)
        if not lowest <= index < self.t.cards:
            raise BatchError(f"{where}: {index} is no card index of a deck of {self.t.cards} "
                             f"(from {lowest} to {self.t.cards - 1})")
        return index

    @property
    def started(self) -> bool:
        """Whether the games were started (``reset``, or a position loaded)."""
        return self._started

    def _require_started(self, where: str) -> None:
        if not self._started:
            raise BatchError(f"{where}: the batch was never reset (call reset(seeds) first)")

    def _start_games(self, games: IntArray) -> None:
        """Start a new game in each slot of ``games`` (its current generation's seed)."""
        self._seeds[games] = game_seeds(self._base_seeds[games], self._slot_keys[games],
                                        self._generation[games])
        self._totals[games] = 0
        self._round_index[games] = 0
        self._dealer[games] = self._first_dealer[games]
        self._deal(games)

    def _orders(self, games: IntArray) -> IntArray:
        """The shuffled deck of each game's current round, from the bank of deals shuffled ahead
        (every slot's deals of a generation at once: one shuffle call per generation)."""
        n = self.t.cards
        rounds = self._round_index[games]
        gens = self._generation[games]
        banked = self.t.round_limit or _BANK_ROUNDS
        orders = np.empty((len(games), n), dtype=np.int64)
        inside = rounds < banked
        for gen in np.unique(gens[inside]):
            bank = self._bank.get(int(gen))
            if bank is None:
                bank = self._shuffle_generation(int(gen), banked)
                self._bank[int(gen)] = bank
                for old in [g for g in self._bank if g < int(self._generation.min())]:
                    del self._bank[old]
            pick = inside & (gens == gen)
            orders[pick] = bank[games[pick], rounds[pick]]
        outside = ~inside
        if outside.any():
            orders[outside] = shuffle_many(n, self._seeds[games[outside]], rounds[outside])
        return orders

    def _shuffle_generation(self, gen: int, rounds: int) -> npt.NDArray[np.int8]:
        seeds = game_seeds(self._base_seeds, self._slot_keys, np.full(self.size, gen))
        all_seeds = np.repeat(seeds, rounds)
        all_rounds = np.tile(np.arange(rounds, dtype=np.int64), self.size)
        orders = shuffle_many(self.t.cards, all_seeds, all_rounds).reshape(self.size, rounds, -1)
        return orders.astype(np.int8)  # positions below 54: a byte each

    def _deal(self, games: IntArray) -> None:
        """Deal the current round of ``games`` (rule DEAL): card ``k`` of the shuffled deck to
        seat ``(dealer + 1 + k) % P``; in Devil's Eye the last third face up, again from the
        dealer's left."""
        t = self.t
        orders = self._orders(games)
        hands = np.zeros((len(games), t.players, t.cards), dtype=np.bool_)
        face_up = np.zeros_like(hands)
        rows = np.arange(len(games))[:, None]
        dealer = self._dealer[games][:, None]
        hidden = t.hidden_count
        seats = (dealer + 1 + np.arange(hidden)[None, :]) % t.players
        hands[rows, seats, orders[:, :hidden]] = True
        if t.devils_eye:
            rest = t.cards - hidden
            seats = (dealer + 1 + np.arange(rest)[None, :]) % t.players
            face_up[rows, seats, orders[:, hidden:]] = True
        self._begin_round(games, hands, face_up)

    def load_round(self, game: int, dealer: int, hands: BoolArray, face_up: BoolArray) -> None:
        """Start round 0 of game ``game`` dealt as given (``(P, N)`` planes; the protocol's
        ``new_round`` and the perft positions), totals at 0."""
        games = np.array([self._game(game, "load_round(game)")])
        self._started = True
        self._totals[games] = 0
        self._round_index[games] = 0
        self._dealer[games] = dealer
        self._first_dealer[games] = dealer
        self._begin_round(games, hands[None], face_up[None])
        self._refresh()

    def load_next_round(self, game: int, hands: BoolArray, face_up: BoolArray) -> None:
        """Start the next round of game ``game`` (between rounds) dealt as given, by the next
        dealer (rule DEALER-ROTATION), the totals kept (for replaying a record's deals)."""
        games = np.array([self._game(game, "load_next_round(game)")])
        self._round_index[games] += 1
        self._dealer[games] = (self._dealer[games] + 1) % self.t.players
        self._begin_round(games, hands[None], face_up[None])
        self._refresh()

    def load_rounds(self, games: IntArray, hands: BoolArray, face_up: BoolArray,
                    dealers: IntArray | None = None) -> None:
        """``load_round`` for each of ``games`` dealt by ``dealers``, or without ``dealers``
        ``load_next_round`` for each: several games at once (``hands``, ``face_up``: ``(G, P,
        N)`` planes; for replaying many records' deals)."""
        if dealers is None:
            self._round_index[games] += 1
            self._dealer[games] = (self._dealer[games] + 1) % self.t.players
        else:
            self._totals[games] = 0
            self._round_index[games] = 0
            self._dealer[games] = dealers
            self._first_dealer[games] = dealers
        self._started = True
        self._begin_round(games, hands, face_up)
        self._refresh()

    def _begin_round(self, games: IntArray, hands: BoolArray, face_up: BoolArray) -> None:
        self._hand[games] = hands
        self._hand_count[games] = hands.sum(axis=2)
        self._face_up[games] = face_up
        self._captured[games] = False
        self._trick[games] = False
        self._given[games] = False
        self._played[games] = False
        self._devils_trick[games] = False
        self._bottle_card[games] = -1
        self._bottle_owner[games] = -1
        self._trick_length[games] = 0
        self._setup_given[games] = 0
        self._scores[games] = 0
        self._last_winner[games] = -1
        self._last_card[games] = -1
        self._last_bottle[games] = -1
        first = (self._dealer[games] + 1) % self.t.players  # FIRST-LEADER, SETUP-ORDER
        self._leader[games] = first
        self._to_act[games] = first
        self._phase[games] = SETUP
        self._mask = None
        self._stale.append(games)

    # -- what the seat to act may do ----------------------------------------------------------

    def legal_cards(self, games: object = None) -> BoolArray:
        """``(G, N)``, a new array: the cards the seat to act may give (setup) or play (trick
        play) in each of ``games`` (indices from 0 to B - 1, or a boolean mask of B games;
        default: all); all False between rounds and once over."""
        self._require_started("legal_cards")
        if games is None:
            return self._legal_cards(self.rows)
        return self._legal_cards(games_of(games, "legal_cards(games)", self.size))

    def _legal_cards(self, games: IntArray) -> BoolArray:
        t = self.t
        phase = self._phase[games]
        seat = np.maximum(self._to_act[games], 0)
        hand = self._hand[games, seat]
        playing = phase == PLAY
        if not playing.any():
            giving: BoolArray = hand & (phase == SETUP)[:, None]
            return giving
        # FOLLOW-SUIT: the led colour's cards (the last row of ``colour_cards``: none, to lead).
        led = np.where(self._trick_length[games] > 0, t.colour[self._trick_cards[games, 0]],
                       len(self._colour_cards) - 1)
        of_led = self._colour_cards[led]
        if t.devils_eye:  # EYE-FOLLOW-SUIT: hidden cards always; face-up ones follow
            up = self._face_up[games, seat]
            up_led: BoolArray = up & of_led
            playable: BoolArray = hand | np.where(np.any(up_led, axis=1)[:, None], up_led, up)
        else:
            hand_led: BoolArray = hand & of_led
            playable = np.where(np.any(hand_led, axis=1)[:, None], hand_led, hand)
        if playing.all():
            return playable
        return np.where(playing[:, None], playable, hand & (phase == SETUP)[:, None])

    def legal_mask(self) -> BoolArray:
        """``(B, 4N + 1)``: True at each legal action number of the seat to act (as
        ``encoding.legal_action_mask``). A game over has one True, at the last number ``4N``
        (the next round's start, which a game over does not have): a masked softmax over a row
        then stays finite, and ``step`` ignores a game over's action whatever it is. The array is
        read-only for good and rewritten by the next step: copy it to keep it."""
        self._require_started("legal_mask")
        self._legal_now()
        return self._mask_view

    def _legal_now(self) -> BoolArray:
        """The private mask buffer, up to date (computed from the state when a step or a reset
        made it stale): what ``step`` judges actions by, never the caller's copy."""
        if self._mask is not None:
            return self._mask
        t = self.t
        mask, blocks = self._mask_buffer, self._mask_blocks
        mask.fill(False)
        phase = self._phase
        first = int(phase[0])
        same = bool((phase == first).all())
        if same and first == PLAY:
            blocks[:, 3] = self._legal_cards(self.rows)
        elif same and first in (ROUND_OVER, GAME_OVER):
            mask[:, 4 * t.cards] = True
        else:
            block = np.where(phase == PLAY, 3, 0)
            setup = phase == SETUP
            if setup.any():
                seat = np.maximum(self._to_act, 0)
                count = self._setup_given[self.rows, seat]
                slot = t.step_slot[self._dealer, seat, np.minimum(count, 4)]
                block = np.where(setup, slot, block)
            blocks[self.rows, block] = self._legal_cards(self.rows)
            mask[:, 4 * t.cards] = phase >= ROUND_OVER
        self._mask = mask
        return mask

    def observe(self, seats: object = None) -> npt.NDArray[Any]:
        """``(B, D)`` float32 observations in ``encoding.observation``'s layout (``uint8`` with
        ``compact``): of the seat to act in each game (seat 0 once over), or of ``seats`` (one
        seat, or ``seats[b]`` in game ``b``). The array is read-only for good and rewritten by
        the next call: copy it to keep it or change it."""
        self._require_started("observe")
        if not self.observations:
            raise BatchError("this batch keeps no observations (observations=False)")
        if seats is None:
            observer = np.maximum(self._to_act, 0)
        else:
            observer = seats_of(seats, "observe(seats)", self.size, self.t.players)
        self._observe_into(observer)
        return self._obs_view

    def _observe_into(self, observer: IntArray) -> None:
        """Write every game's observation of seat ``observer[b]`` into ``_obs_out``."""
        flat = self._obs_bits.reshape(self.size * self.t.players, -1)
        rows = self.rows * self.t.players + observer
        if self.compact:
            np.take(flat, rows, axis=0, out=self._obs_out)
            return
        np.take(flat, rows, axis=0, out=self._obs_rows)
        out = self._obs_out
        np.copyto(out, self._obs_rows)
        self._observer.values(self, observer, out)

    def observe_values(self, seats: object = None) -> FloatArray:
        """``(B, 4P + 2)`` float32, a new array: the value cells of the observations ``observe``
        gives (of the same seats), in the layout's order (``VALUE_SEGMENTS``: the Devil's
        Trick's size, the hand sizes, the setup cards given, the scores, the totals, the
        progress); with ``compact``, what the compact observation leaves out."""
        self._require_started("observe_values")
        if not self.observations:
            raise BatchError("this batch keeps no observations (observations=False)")
        if seats is None:
            observer = np.maximum(self._to_act, 0)
        else:
            observer = seats_of(seats, "observe_values(seats)", self.size, self.t.players)
        p = self.t.players
        at, start = {}, 0
        for name in VALUE_SEGMENTS:
            at[name] = start
            start += 1 if name in ("devils_trick_size", "progress") else p
        out = np.zeros((self.size, start), dtype=np.float32)
        self._observer.values(self, observer, out, at)
        return out

    def _final_observations(self, games: IntArray, observer: IntArray) -> FloatArray:
        """``(G, D)``: a new array of the observation of seat ``observer[i]`` in game
        ``games[i]`` (the games that just ended, before they restart)."""
        seats = np.maximum(self._to_act, 0)
        seats[games] = observer
        self._observe_into(seats)
        rows: FloatArray = self._obs_out[games]
        return rows

    def random_actions(self, rng: object) -> IntArray:
        """One uniformly random legal action number per game, a new array, from ``B`` uniform
        numbers of ``rng`` (a numpy ``Generator``: ``rng.random(B)``, or a ``RandomState``:
        ``rng.random_sample(B)``): in game ``b``, legal action ``floor(u_b * count_b)`` in
        ascending order (a game over: its mask's one action, ``4N``). Both backends pick the
        same actions from the same generator."""
        self._require_started("random_actions")
        uniforms = uniforms_from(rng, self._uniforms)
        return self._choose(uniforms)

    def _choose(self, uniforms: npt.NDArray[np.float64]) -> IntArray:
        mask = self._legal_now()
        rows, columns = np.nonzero(mask)  # row by row, columns ascending
        counts = np.bincount(rows, minlength=self.size)
        firsts = np.cumsum(counts) - counts
        picks = (uniforms * counts).astype(np.int64)
        chosen: IntArray = columns[firsts + np.minimum(picks, counts - 1)]
        return chosen

    def _refresh(self) -> None:
        """Rewrite the observation rows of every game whose deal, setup or round ended."""
        if not self._stale or not self.observations:
            self._stale = []
            return
        games = np.unique(np.concatenate(self._stale))
        self._stale = []
        p = self.t.players
        index = np.repeat(games, p)
        observer = np.tile(np.arange(p), len(games))
        self._obs_bits[index, observer] = self._observer.binary(self, index, observer)

    def _put(self, games: IntArray, seats: IntArray, positions: IntArray, value: int) -> None:
        """``obs_bits[games, seats, positions] = value`` (broadcast), through flat indices: one
        index array instead of three."""
        flat = (games * self.t.players + seats) * self._obs_size + positions
        self._flat_bits[flat.ravel()] = value

    def _move_to_act(self, games: IntArray, new: IntArray) -> None:
        """Set the seat to act of ``games`` and its cell in every seat's observation."""
        if not self.observations:
            self._to_act[games] = new
            return
        p = self.t.players
        g = games[:, None]
        self._put(g, self.seats, self._at_to_act + (self._to_act[games][:, None] - self.seats) % p, 0)
        self._put(g, self.seats, self._at_to_act + (new[:, None] - self.seats) % p, 1)
        self._to_act[games] = new

    # -- stepping -----------------------------------------------------------------------------

    def step(self, actions: object) -> StepResult:
        """Take ``actions[b]`` (an action number of the seat to act: an integer, a ``(B,)``
        integer array or a sequence of B integers) in every game ``b`` that is not over (the
        action of a game over is ignored), and return ``(observation, rewards, terminated,
        truncated, infos)`` (``StepResult``).

        An illegal action, with ``illegal="raise"`` (the default), raises
        ``IllegalActionError`` naming the game and the broken rule, with no game changed; with
        ``illegal="end"`` it ends its game (``illegal_reward`` to its author, 0 to the others,
        ``final_info["illegal"]``) and the other games step. With auto-reset an ended game starts
        again at once: its last observation, final totals and last round's scores are in
        ``infos`` (``StepResult.infos``)."""
        self._require_started("step")
        acts = int64_values(actions, "actions", self.size)  # a new array: no caller reaches it
        outcome = self._apply(acts)
        ended_illegally = self._no_games
        if outcome >= 0:
            refused = outcome
            if self.illegal == "raise":
                rule = self.refusal(refused, int(acts[refused]))
                raise IllegalActionError(rule, f"game {refused}: action {int(acts[refused])} is "
                                               f"not legal for seat {int(self._to_act[refused])}")
            seat = self._to_act.copy()
            ended_illegally = self._illegal_games(acts)
            self._phase[ended_illegally] = GAME_OVER
            self._to_act[ended_illegally] = -1
            self._stale.append(ended_illegally)  # their observation rows rewritten whole
            self._mask = None
            outcome = self._apply(acts)
            assert outcome < 0
            self._actors[ended_illegally] = seat[ended_illegally]
            self._rewards[ended_illegally] = 0.0
            self._rewards[ended_illegally, seat[ended_illegally]] = self.illegal_reward
            self._done[ended_illegally] = True
        rewards, done = self._rewards.copy(), self._done.copy()
        infos: dict[str, Any] = {}
        self._refresh()  # the observation bits of the ended games, before their last observation
        restarted = self._no_games
        if outcome < -1 or len(ended_illegally):
            ended = np.flatnonzero(done)
            infos = self._final_infos(ended, self._actors[ended], ended_illegally)
            if self.autoreset:
                self._restart(ended)
                restarted = ended
            self._refresh()
        if not self.observations:
            return StepResult(self._no_observation, rewards, done, self._not_truncated, infos)
        return StepResult(self._step_observation(restarted), rewards, done, self._not_truncated,
                          infos)

    def _step_observation(self, restarted: IntArray) -> npt.NDArray[Any]:
        """``observe()`` after a step (``restarted``: the games restarted by auto-reset)."""
        self._observe_into(np.maximum(self._to_act, 0))
        return self._obs_view

    def _illegal_games(self, acts: IntArray) -> IntArray:
        """The games not over whose action is not in their legal set."""
        live = self._phase != GAME_OVER
        inside = (acts >= 0) & (acts < self.num_actions)
        legal = np.zeros(self.size, dtype=np.bool_)
        legal[inside] = self._legal_now()[self.rows[inside], acts[inside]]
        games: IntArray = np.flatnonzero(live & ~legal)
        return games

    def _final_infos(self, ended: IntArray, seat: IntArray, illegal: IntArray) -> dict[str, Any]:
        """The infos of a step on which the games ``ended`` ended (``StepResult.infos``)."""
        mask = np.zeros(self.size, dtype=np.bool_)
        mask[ended] = True
        if self.observations:
            final_obs = np.zeros_like(self._obs_out)
            final_obs[ended] = self._final_observations(ended, np.maximum(seat, 0))
        else:
            final_obs = np.zeros((self.size, 0), dtype=np.float32)
        totals = np.zeros_like(self._totals)
        totals[ended] = self._totals[ended]
        scores = np.zeros_like(self._scores)
        scores[ended] = self._scores[ended]
        by_illegal = np.zeros(self.size, dtype=np.bool_)
        by_illegal[illegal] = True
        info = {"totals": totals, "_totals": mask.copy(), "scores": scores,
                "_scores": mask.copy(), "illegal": by_illegal, "_illegal": mask.copy()}
        return {"final_obs": final_obs, "_final_obs": mask.copy(), "final_info": info,
                "_final_info": mask.copy()}

    def _apply(self, acts: IntArray) -> int:
        """Take every game's action (no auto-reset), writing ``_rewards``, ``_done`` and
        ``_actors`` and returning ``-1 - k``, ``k`` the number of games that ended; or, when
        some live game's action is illegal, change nothing and return the first such game."""
        live = self._phase != GAME_OVER
        inside = (acts >= 0) & (acts < self.num_actions)
        if inside.all():
            legal = self._legal_now()[self.rows, acts]
        else:
            legal = np.zeros(self.size, dtype=np.bool_)
            legal[inside] = self._legal_now()[self.rows[inside], acts[inside]]
        if not (legal | ~live).all():
            return int(np.flatnonzero(live & ~legal)[0])
        n = self.t.cards
        phase = self._phase
        self._mask = None
        done, rewards = self._done, self._rewards
        done.fill(False)
        rewards.fill(0.0)
        np.copyto(self._actors, self._to_act)
        ended_count = 0
        empty = self.rows[:0]
        first = int(phase[0])
        if (phase == first).all():  # the usual case: games in lockstep share their phase
            giving = self.rows if first == SETUP else empty
            playing = self.rows if first == PLAY else empty
            starting = self.rows if first == ROUND_OVER else empty
        else:
            giving = np.flatnonzero(phase == SETUP)
            playing = np.flatnonzero(phase == PLAY)
            starting = np.flatnonzero(phase == ROUND_OVER)
        if len(giving):
            self._give(giving, acts[giving] // n, acts[giving] % n)
        if len(playing):
            ended = self._play(playing, acts[playing] - 3 * n)
            ended_count = len(ended)
            if ended_count:
                done[ended] = True
                best = self._totals[ended].max(axis=1, keepdims=True)
                rewards[ended] = np.where(self._totals[ended] == best, 1.0, -1.0)
        if len(starting):
            self._round_index[starting] += 1
            self._dealer[starting] = (self._dealer[starting] + 1) % self.t.players
            self._deal(starting)
        self._mask = None
        return -1 - ended_count

    def _give(self, games: IntArray, slots: IntArray, cards: IntArray) -> None:
        """Each seat to act gives one setup card (rules SETUP-STEPS, SETUP-ORDER); the last give
        of the dealer, who chooses last, resolves the setup (SETUP-RESOLVE)."""
        t = self.t
        seat = self._to_act[games]
        self._hand[games, seat, cards] = False
        self._hand_count[games, seat] -= 1
        self._given[games, seat, slots, cards] = True
        self._setup_given[games, seat] += 1
        if self.observations:
            self._put(games, seat, self._at_hand + cards, 0)
            self._put(games, seat, self._at_my_setup + slots * t.cards + cards, 1)
        finished = self._setup_given[games, seat] == t.step_count[self._dealer[games], seat]
        if finished.any():
            self._move_to_act(games[finished], (seat[finished] + 1) % t.players)
        resolving = games[finished & (seat == self._dealer[games])]
        if len(resolving):
            self._resolve_setup(resolving)

    def _resolve_setup(self, games: IntArray) -> None:
        """Every given card moves at once (rule SETUP-RESOLVE): left to the next seat, right to
        the one before; in Devil's Eye to the opponent's face-up cards and hidden hand. The
        player to the dealer's left leads (FIRST-LEADER)."""
        given = self._given[games]
        if self.t.devils_eye:
            self._face_up[games] |= given[:, ::-1, 1]
            self._hand[games] |= given[:, ::-1, 2]
        else:
            self._hand[games] |= np.roll(given[:, :, 1], 1, axis=1)
            self._hand[games] |= np.roll(given[:, :, 2], -1, axis=1)
        self._hand_count[games] = self._hand[games].sum(axis=2)
        self._devils_trick[games] = given[:, :, 0].any(axis=1)
        self._phase[games] = PLAY
        self._to_act[games] = self._leader[games]
        self._stale.append(games)

    def _play(self, games: IntArray, cards: IntArray) -> IntArray:
        """Each seat to act plays a card (rule TURN-ORDER: clockwise; A, B, A, B in Devil's Eye);
        a completed trick is resolved. Returns the games that ended."""
        t = self.t
        p = t.players
        seat = self._to_act[games]
        if t.devils_eye:
            self._hand_count[games, seat] -= self._hand[games, seat, cards]
        else:
            self._hand_count[games, seat] -= 1
        self._hand[games, seat, cards] = False
        if t.devils_eye:
            self._face_up[games, seat, cards] = False
        self._trick[games, seat, cards] = True
        self._played[games, cards] = True
        length = self._trick_length[games]
        self._trick_cards[games, length] = cards
        self._trick_seats[games, length] = seat
        self._trick_length[games] = length + 1
        if self.observations:
            self._play_bits(games, seat, cards, length)
        self._move_to_act(games, (seat + 1) % p)
        complete: IntArray = games[length + 1 == t.trick_size]
        if not len(complete):
            return complete
        return self._end_trick(complete)

    def _play_bits(self, games: IntArray, seat: IntArray, cards: IntArray, length: IntArray) -> None:
        """The observation cells a play changes, in every seat's rows."""
        t = self.t
        p, n = t.players, t.cards
        g, seats = games[:, None], self.seats
        relative = (seat[:, None] - seats) % p
        column = cards[:, None]
        self._put(games, seat, self._at_hand + cards, 0)
        if t.devils_eye:
            self._put(g, seats, self._at_face_up + relative * n + column, 0)
        self._put(g, seats, self._at_trick + relative * n + column, 1)
        self._put(g, seats, self._at_played + column, 1)
        leads = length == 0
        self._put(g[leads], seats, self._at_leader + relative[leads], 1)

    def _end_trick(self, games: IntArray) -> IntArray:
        """Resolve each completed trick (TRICK-PRICE, TRICK-WINNER, BOTTLE-PURCHASE,
        PRICE-CARD-RETURN, TRICK-CAPTURE, NEXT-LEADER), then score each round that ended
        (ROUND-END). Returns the games that ended."""
        t = self.t
        g = np.arange(len(games))
        cards = self._trick_cards[games]
        winning, bottle, buys = resolve_tricks(t, cards, self._bottle_card[games])
        won_card = cards[g, winning]
        winner = self._trick_seats[games, winning]
        taken: BoolArray = np.any(self._trick[games], axis=1)
        taken[g[buys], won_card[buys]] = False
        self._captured[games, winner] |= taken
        buyers = games[buys]
        if len(buyers):
            index = bottle[buys]
            old_card = self._bottle_card[buyers, index]
            old_owner = self._bottle_owner[buyers, index]
            back = (old_card >= 0) & (old_owner >= 0)
            self._captured[buyers[back], old_owner[back], old_card[back]] = True
        self._trick_bits(games, winner, taken, buyers, bottle[buys], won_card[buys], winner[buys])
        self._trick[games] = False
        self._trick_length[games] = 0
        self._leader[games] = winner
        self._move_to_act(games, winner)
        self._last_winner[games] = winner
        self._last_card[games] = won_card
        self._last_bottle[games] = np.where(buys, bottle, -1)
        left = self._hand_count[games].any(axis=1)
        if t.devils_eye:
            left |= self._face_up[games].any(axis=(1, 2))
        over = games[~left]
        if not len(over):
            return over
        return self._end_round(over)

    def _trick_bits(self, games: IntArray, winner: IntArray, taken: BoolArray, buyers: IntArray,
                    index: IntArray, card: IntArray, buyer: IntArray) -> None:
        """The observation cells a completed trick changes, in every seat's rows: the trick
        cleared, the captured cards (and a returned price card) in the winner's (the former
        owner's) row, each bought bottle's price card and owner; then the bottles themselves."""
        t = self.t
        p, n = t.players, t.cards
        bits, seats = self._obs_bits, self.seats
        if not self.observations:
            self._bottle_card[buyers, index] = card
            self._bottle_owner[buyers, index] = buyer
            return
        bits[games, :, self._at_trick:self._at_trick + p * n] = 0
        bits[games, :, self._at_leader:self._at_leader + p] = 0
        at, cards = np.nonzero(taken)
        self._put(games[at][:, None], seats,
             self._at_captured + ((winner[at][:, None] - seats) % p) * n + cards[:, None], 1)
        if not len(buyers):
            return
        g = buyers[:, None]
        old_card = self._bottle_card[buyers, index]
        old_owner = self._bottle_owner[buyers, index]
        back = (old_card >= 0) & (old_owner >= 0)
        self._put(g[back], seats, self._at_captured + ((old_owner[back][:, None] - seats) % p) * n
             + old_card[back][:, None], 1)
        priced = old_card >= 0
        self._put(g[priced], seats, (self._at_price + index * n + old_card)[priced][:, None], 0)
        self._put(g, seats, (self._at_price + index * n + card)[:, None], 1)
        owned = old_owner >= 0
        self._put(g[owned], seats, self._at_owner + index[owned][:, None] * p
             + (old_owner[owned][:, None] - seats) % p, 0)
        self._put(g, seats, self._at_owner + index[:, None] * p + (buyer[:, None] - seats) % p, 1)
        self._bottle_card[buyers, index] = card
        self._bottle_owner[buyers, index] = buyer

    def _end_round(self, games: IntArray) -> IntArray:
        """Score each round (SCORE-ROUND), add the totals (GAME-TOTALS) and end the games whose
        end has come (GAME-END). Returns the games that ended."""
        t = self.t
        scores = round_scores(t, self._captured[games], self._bottle_owner[games],
                              self._devils_trick[games])
        self._scores[games] = scores
        totals = self._totals[games] + scores
        self._totals[games] = totals
        if t.target_score is not None:
            ending = totals.max(axis=1) >= t.target_score
        else:
            assert t.round_limit is not None
            ending = self._round_index[games] + 1 >= t.round_limit
        self._phase[games] = np.where(ending, GAME_OVER, ROUND_OVER)
        self._to_act[games] = np.where(ending, -1, (self._dealer[games] + 1) % t.players)
        self._stale.append(games)
        ended: IntArray = games[ending]
        return ended

    # -- why an action is refused ---------------------------------------------------------------

    def refusal(self, game: object, action: object) -> str:
        """The rule an action number breaks in game ``game`` (checked in the reference's
        order), or ``""`` when it is legal."""
        self._require_started("refusal")
        game = self._game(game, "refusal(game)")
        action = expect_integer(action, "refusal(action)")
        t = self.t
        n = t.cards
        phase = int(self._phase[game])
        if phase == GAME_OVER:
            return "GAME-OVER"
        if not 0 <= action < self.num_actions:
            return "PHASE"
        block = action // n
        wanted = {SETUP: (0, 1, 2), PLAY: (3,), ROUND_OVER: (4,)}[phase]
        if block not in wanted:
            return "PHASE"
        if phase == ROUND_OVER:
            return ""
        seat = int(self._to_act[game])
        card = action % n
        if phase == SETUP:
            count = int(self._setup_given[game, seat])
            if int(t.step_slot[self._dealer[game], seat, count]) != block:
                return "SETUP-STEPS"
            return "" if self._hand[game, seat, card] else "SETUP-FROM-DEALT"
        return self.play_refusal(game, seat, card)

    def play_refusal(self, game: object, seat: object, card: object) -> str:
        """The rule that forbids ``seat`` to play ``card`` now in game ``game`` (trick play),
        or ``""``: TURN-ORDER (a seat that is not the one to act, or no seat of the game),
        CARD-HELD, then FOLLOW-SUIT (EYE-FOLLOW-SUIT in Devil's Eye). ``card``: a card index,
        from 0 to N - 1."""
        self._require_started("play_refusal")
        game = self._game(game, "play_refusal(game)")
        seat = expect_integer(seat, "play_refusal(seat)")
        card = self._card(card, "play_refusal(card)", 0)
        if not 0 <= seat < self.t.players or seat != int(self._to_act[game]):
            return "TURN-ORDER"
        if not (self._hand[game, seat, card] or self._face_up[game, seat, card]):
            return "CARD-HELD"
        if self._legal_cards(np.array([game]))[0, card]:
            return ""
        return "EYE-FOLLOW-SUIT" if self.t.devils_eye else "FOLLOW-SUIT"

    def give_refusal(self, game: object, seat: object, gives: list[tuple[Destination, int]],
                     whole: bool = True) -> str:
        """The rule that forbids ``seat`` to give ``gives`` (destination, card index; ``-1``: no
        card of the deck) in turn in game ``game``, or ``""``: the checks of a setup in the
        reference's order (SETUP-ORDER, SETUP-STEPS, SETUP-ORDER; per card SETUP-STEPS then
        SETUP-FROM-DEALT; with ``whole``, SETUP-STEPS when parts are missing)."""
        self._require_started("give_refusal")
        game = self._game(game, "give_refusal(game)")
        seat = expect_integer(seat, "give_refusal(seat)")
        whole = expect_flag(whole, "give_refusal(whole)")
        if not isinstance(gives, (list, tuple)):
            raise BatchError(f"give_refusal(gives) must be a list of (destination, card) pairs, "
                             f"not {describe(gives)}")
        checked: list[tuple[Destination, int]] = []
        for index, give in enumerate(gives):
            if not isinstance(give, tuple) or len(give) != 2:
                raise BatchError(f"give_refusal(gives)[{index}] must be a (destination, card) "
                                 f"pair, not {describe(give)}")
            destination, card = give
            if not isinstance(destination, Destination):
                raise BatchError(f"give_refusal(gives)[{index}]: the destination must be a "
                                 f"Destination, not {describe(destination)}")
            checked.append((destination, self._card(card, f"give_refusal(gives)[{index}]", -1)))
        gives = checked
        t = self.t
        if not 0 <= seat < t.players:
            return "SETUP-ORDER"
        dealer = int(self._dealer[game])
        steps = t.steps[dealer][seat]
        done = int(self._setup_given[game, seat])
        if done == len(steps):
            return "SETUP-STEPS"
        if seat != int(self._to_act[game]):
            return "SETUP-ORDER"
        hand = self._hand[game, seat].copy()
        for destination, card in gives:
            if done == len(steps) or steps[done] is not destination:
                return "SETUP-STEPS"
            if card < 0 or not hand[card]:
                return "SETUP-FROM-DEALT"
            hand[card] = False
            done += 1
        return "" if done == len(steps) or not whole else "SETUP-STEPS"

    def load_play(self, game: int, hands: BoolArray, face_up: BoolArray,
                  bottles: list[tuple[int, int]], trick: list[tuple[int, int]], to_act: int) -> None:
        """Put game ``game`` in trick play: the seats hold ``hands`` (and ``face_up``), the
        bottles are ``(price card, owner)`` (``-1`` for the start card, no owner) and ``trick``
        (``(seat, card)`` pairs) is the trick so far, and ``to_act`` plays next (for the
        conformance cases, which give a position rather than a game)."""
        games = np.array([self._game(game, "load_play(game)")])
        self._started = True
        self._begin_round(games, hands[None], face_up[None])
        for index, (card, owner) in enumerate(bottles):
            self._bottle_card[game, index] = card
            self._bottle_owner[game, index] = owner
        self._phase[game] = PLAY
        for position, (seat, card) in enumerate(trick):
            self._trick[game, seat, card] = True
            self._played[game, card] = True
            self._trick_cards[game, position] = card
            self._trick_seats[game, position] = seat
        self._trick_length[game] = len(trick)
        self._leader[game] = trick[0][0] if trick else to_act
        self._to_act[game] = to_act
        self._refresh()

    # -- copies (perft, the protocol's all-or-nothing setup) ------------------------------------

    _FIELDS: Final = (
        "hand", "face_up", "captured", "trick", "given", "played", "devils_trick",
        "bottle_card", "bottle_owner", "trick_cards", "trick_seats", "trick_length", "phase",
        "to_act", "dealer", "leader", "round_index", "setup_given", "hand_count", "scores", "totals",
        "last_winner", "last_card", "last_bottle", "seeds", "generation", "first_dealer",
        "base_seeds", "slot_keys", "obs_bits",
    )
    """The state of a game, each in the private array ``_<name>``."""

    def take(self, games: object) -> BatchGames:
        """A new batch whose game ``i`` is a copy of this batch's game ``games[i]`` (indices
        from 0 to B - 1, at least one; or a boolean mask of B games, taking those where it is
        True), for search and perft: repeat a game once per action to try."""
        self._require_started("take")
        picked = games_of(games, "take(games)", self.size)
        copy = type(self)(self.config, len(picked), autoreset=self.autoreset,
                          observations=self.observations, illegal=self.illegal,
                          illegal_reward=self.illegal_reward, compact=self.compact)
        for name in self._FIELDS:
            np.copyto(getattr(copy, "_" + name), getattr(self, "_" + name)[picked])
        copy._started = True
        return copy

    def nbytes(self) -> int:
        """The bytes a batch holds beyond its configuration's tables: every array it owns (the
        state, the mask, observation and result buffers, a backend's scratch) and the bank of
        shuffled deals; divided by B, a game's share."""
        owned = [value for value in vars(self).values()
                 if isinstance(value, np.ndarray) and value.base is None]
        owned += [array for group in self._buffer_groups() for array in group
                  if isinstance(array, np.ndarray) and array.base is None]
        total = sum(int(array.nbytes) for array in owned)
        return total + sum(int(bank.nbytes) for bank in self._bank.values())

    def _buffer_groups(self) -> list[tuple[Any, ...]]:
        """Tuples of arrays a backend holds beyond its attributes (``nbytes`` counts them)."""
        return []


def dealt_counts(t: Tables, dealer: int) -> tuple[list[int], list[int]]:
    """How many hidden and face-up cards each seat is dealt (rule DEAL-COUNTS): the deal goes
    round from the dealer's left, so the seats nearest it get one more when cards are left over."""
    def split(total: int) -> list[int]:
        return [total // t.players + ((seat - dealer - 1) % t.players < total % t.players)
                for seat in range(t.players)]

    return split(t.hidden_count), split(t.cards - t.hidden_count)


def deal_refusal(t: Tables, dealer: int, hands: list[list[int]], face_up: list[list[int]] | None) -> str:
    """``"DEAL-COUNTS"`` unless ``hands`` (and in Devil's Eye ``face_up``), card indices per
    seat, deal the whole deck once with each seat's count; else ``""``."""
    hidden, up = dealt_counts(t, dealer)
    if len(hands) != t.players or (face_up is None) == t.devils_eye:
        return "DEAL-COUNTS"
    zones = [(hands, hidden)] + ([(face_up, up)] if face_up is not None else [])
    seen: list[int] = []
    for rows, counts in zones:
        if len(rows) != t.players:
            return "DEAL-COUNTS"
        for row, count in zip(rows, counts):
            if len(row) != count:
                return "DEAL-COUNTS"
            seen.extend(row)
    return "" if sorted(seen) == list(range(t.cards)) else "DEAL-COUNTS"


def resolve_tricks(
    t: Tables, cards: IntArray, bottle_card: IntArray
) -> tuple[IntArray, IntArray, BoolArray]:
    """For completed tricks (``cards``: ``(G, T)`` card indices in play order) and the bottles
    before them: the index in the trick of the winning card, the bottle judged against and
    whether the winner buys it. The highest price is judged, the first bottle on a tie
    (TRICK-PRICE); the highest card below it wins, else the highest card (TRICK-WINNER); a
    winning card below the price buys the bottle (BOTTLE-PURCHASE)."""
    prices = np.where(bottle_card >= 0, t.rank[np.maximum(bottle_card, 0)], float(START_PRICE))
    bottle = prices.argmax(axis=1)
    price = prices[np.arange(len(cards)), bottle]
    ranks = t.rank[cards]
    below = ranks < price[:, None]
    # Every rank below the price ranks above every other card: the highest below wins if any.
    winning = np.where(below, ranks + 1000.0, ranks).argmax(axis=1)
    buys = below[np.arange(len(cards)), winning]
    return winning, bottle, buys


def round_scores(
    t: Tables, captured: BoolArray, bottle_owner: IntArray, devils_trick: BoolArray
) -> IntArray:
    """``(G, P)`` round scores (SCORE-ROUND): a seat owning no bottle scores its captured coins
    (SCORE-CAPTURED), an owner minus the Devil's Trick's coins once per bottle it owns
    (SCORE-BOTTLE-PENALTY); in team mode teammates share the team's result and a player without
    a partner doubles it (SCORE-TEAMS)."""
    games = len(captured)
    gained = captured.astype(np.int64) @ t.coins
    owned = np.zeros((games, t.players), dtype=np.int64)
    for index in range(t.bottles):
        owner = bottle_owner[:, index]
        has = owner >= 0
        owned[np.flatnonzero(has), owner[has]] += 1
    penalty = devils_trick.astype(np.int64) @ t.coins
    team_owned = owned @ t.same_team
    team_gained = gained @ t.same_team
    result = np.where(team_owned > 0, -penalty[:, None] * team_owned, team_gained)
    scores: IntArray = result * t.team_factor[None, :]
    return scores

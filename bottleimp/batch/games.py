"""``BatchGames``: B games of one configuration stepped in lockstep on numpy arrays.

A second implementation of the rules, checked against the reference by the conformance tools
(``python -m bottleimp.batch.peer``) and by ``tests/test_batch*.py``. Every game of a batch
shares one ``Config``; each game has its own seed, first dealer and state.

State (``B`` games, ``P`` seats, ``N`` cards indexed by position in ``config.cards``, ascending
rank; ``K`` bottles): boolean planes ``hand``, ``face_up``, ``captured``, ``trick`` of shape
``(B, P, N)``, ``given`` ``(B, P, 3, N)`` (each seat's setup cards by destination slot, in the
order of ``encoding.setup_destinations``), ``played`` and ``devils_trick`` ``(B, N)``; the bottles'
price cards and owners ``(B, K)`` (``-1``: the start card 19, no owner); the current trick in
play order; and per game the phase (0 setup, 1 play, 2 round over, 3 game over), seat to act
(``-1`` once over), dealer, leader, round index, setup cards given per seat, the round's scores
and the totals.

Actions are numbered as in ``bottleimp.encoding`` (``4 * N + 1`` numbers, the seat to act's).
"""

from __future__ import annotations

from typing import Final

import numpy as np
import numpy.typing as npt
from attrs import frozen

from ..actions import Destination
from ..cards import START_PRICE
from ..config import Config
from ..errors import BottleImpError, IllegalActionError
from .observe import Observer
from .shuffle import shuffle_many
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


class BatchError(BottleImpError, ValueError):
    """A batch request that cannot be served: wrong shapes, or a variant the batch engine
    refuses (naming it)."""


@frozen
class StepResult:
    """What ``BatchGames.step`` returns: each seat's reward (``1.0`` to a winner and ``-1.0`` to
    every other seat on the step that ends a game, as ``encoding.returns``; else ``0.0``) and
    which games ended on this step."""

    rewards: FloatArray
    """``(B, P)`` rewards."""
    done: BoolArray
    """``(B,)``: the games that ended on this step (with auto-reset, already restarted)."""


class BatchGames:
    """``batch_size`` games of ``config`` stepped together.

    ``reset(seeds)`` starts every game (game ``b`` as ``new_game(config, seeds[b],
    first_dealer=...)`` would); ``legal_mask()``, ``observe()`` and ``to_act`` describe the seat
    to act of every game; ``step(actions)`` takes one action number per game. With
    ``autoreset`` (the default), a game that ends on a step starts again at once: the ``k``-th
    game played in slot ``b`` uses the seed ``seeds[b] + k * batch_size``.
    """

    def __init__(self, config: Config, batch_size: int, *, autoreset: bool = True,
                 observations: bool = True) -> None:
        if type(batch_size) is not int or batch_size < 1:
            raise BatchError(f"batch_size must be a positive int, not {batch_size!r}")
        self.config = config
        self.t = tables_of(config)
        self.size = batch_size
        self.autoreset = autoreset
        self.observations = observations
        """Whether the observation bits are kept up to date (``observe`` needs them; search and
        perft, which never observe, run faster and smaller without)."""
        t, b = self.t, batch_size
        p, n, k = t.players, t.cards, t.bottles
        self.num_actions = 4 * n + 1
        self.rows = np.arange(b)
        self.hand = np.zeros((b, p, n), dtype=np.bool_)
        self.face_up = np.zeros((b, p, n), dtype=np.bool_)
        self.captured = np.zeros((b, p, n), dtype=np.bool_)
        self.trick = np.zeros((b, p, n), dtype=np.bool_)
        self.given = np.zeros((b, p, 3, n), dtype=np.bool_)
        self.played = np.zeros((b, n), dtype=np.bool_)
        self.devils_trick = np.zeros((b, n), dtype=np.bool_)
        self.bottle_card = np.full((b, k), -1, dtype=np.int64)
        self.bottle_owner = np.full((b, k), -1, dtype=np.int64)
        self.trick_cards = np.zeros((b, t.trick_size), dtype=np.int64)
        self.trick_seats = np.zeros((b, t.trick_size), dtype=np.int64)
        self.trick_length = np.zeros(b, dtype=np.int64)
        self.phase = np.full(b, GAME_OVER, dtype=np.int64)
        self.to_act = np.full(b, -1, dtype=np.int64)
        self.dealer = np.zeros(b, dtype=np.int64)
        self.leader = np.zeros(b, dtype=np.int64)
        self.round_index = np.zeros(b, dtype=np.int64)
        self.setup_given = np.zeros((b, p), dtype=np.int64)
        self.hand_count = np.zeros((b, p), dtype=np.int64)
        """Cards in each seat's hidden hand (``hand.sum(axis=2)``, kept by each step)."""
        self.scores = np.zeros((b, p), dtype=np.int64)
        self.totals = np.zeros((b, p), dtype=np.int64)
        self.last_winner = np.full(b, -1, dtype=np.int64)
        self.last_card = np.full(b, -1, dtype=np.int64)
        self.last_bottle = np.full(b, -1, dtype=np.int64)
        self.seeds = np.zeros(b, dtype=np.uint64)
        self.generation = np.zeros(b, dtype=np.int64)
        self.first_dealer = np.zeros(b, dtype=np.int64)
        self._base_seeds = np.zeros(b, dtype=np.uint64)
        self._stride = b
        """Slot ``b``'s ``k``-th game has the seed ``base + k * stride`` (the batch size at reset)."""
        self._bank: dict[int, npt.NDArray[np.int8]] = {}
        self._mask: BoolArray | None = None
        self._mask_buffer = np.zeros((b, self.num_actions), dtype=np.bool_)
        self._mask_blocks = self._mask_buffer[:, :4 * n].reshape(b, 4, n)
        assert np.shares_memory(self._mask_blocks, self._mask_buffer)
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
        self.obs_bits = np.zeros((b, p, self._observer.size if observations else 0), dtype=np.uint8)
        """``obs_bits[b, s]``: the 0/1 part of seat ``s``'s observation in game ``b``, kept up to
        date by every step (each play sets a few cells per seat; a deal, the end of a setup or of
        a round rewrites the game's rows)."""
        self._obs_size = self.obs_bits.shape[2]
        self._flat_bits = self.obs_bits.reshape(-1)
        self._obs_out = np.zeros((b, self._observer.size), dtype=np.float32)
        self._obs_view = self._obs_out.view()
        """What ``observe`` returns: ``_obs_out`` read-only (the compiled backend relies on the
        cells it never writes staying zero)."""
        self._obs_view.flags.writeable = False
        self._obs_rows = np.zeros((b, self._observer.size), dtype=np.uint8)
        self._stale: list[IntArray] = []

    # -- starting games -----------------------------------------------------------------------

    def reset(self, seeds: npt.ArrayLike, first_dealer: npt.ArrayLike = 0) -> None:
        """Start every game: game ``b`` from ``seeds[b]`` (any integers; taken mod ``2**64`` as
        the reference does) with ``first_dealer`` (one seat, or one per game) dealing round 0."""
        values = [int(seed) & _MASK for seed in np.asarray(seeds, dtype=object).reshape(-1)]
        if len(values) != self.size:
            raise BatchError(f"reset needs {self.size} seeds, not {len(values)}")
        try:
            dealers = np.broadcast_to(np.asarray(first_dealer, dtype=np.int64), (self.size,)).copy()
        except (TypeError, ValueError):
            raise BatchError(f"first_dealer must be one seat or {self.size} seats, "
                             f"not {first_dealer!r}") from None
        if ((dealers < 0) | (dealers >= self.t.players)).any():
            raise BatchError(f"a first dealer is no seat of a {self.t.players}-player game")
        self._base_seeds = np.array(values, dtype=np.uint64)
        self._stride = self.size
        self._bank = {}
        self.generation[:] = 0
        self.first_dealer = dealers
        self._start_games(self.rows)
        self._refresh()

    def _start_games(self, games: IntArray) -> None:
        """Start a new game in each slot of ``games`` (its current generation's seed)."""
        gen = self.generation[games]
        self.seeds[games] = self._base_seeds[games] + (gen * self._stride).astype(np.uint64)
        self.totals[games] = 0
        self.round_index[games] = 0
        self.dealer[games] = self.first_dealer[games]
        self._deal(games)

    def _orders(self, games: IntArray) -> IntArray:
        """The shuffled deck of each game's current round, from the bank of deals shuffled ahead
        (every slot's deals of a generation at once: one shuffle call per generation)."""
        n = self.t.cards
        rounds = self.round_index[games]
        gens = self.generation[games]
        banked = self.t.round_limit or _BANK_ROUNDS
        orders = np.empty((len(games), n), dtype=np.int64)
        inside = rounds < banked
        for gen in np.unique(gens[inside]):
            bank = self._bank.get(int(gen))
            if bank is None:
                bank = self._shuffle_generation(int(gen), banked)
                self._bank[int(gen)] = bank
                for old in [g for g in self._bank if g < int(self.generation.min())]:
                    del self._bank[old]
            pick = inside & (gens == gen)
            orders[pick] = bank[games[pick], rounds[pick]]
        outside = ~inside
        if outside.any():
            orders[outside] = shuffle_many(n, self.seeds[games[outside]], rounds[outside])
        return orders

    def _shuffle_generation(self, gen: int, rounds: int) -> npt.NDArray[np.int8]:
        seeds = self._base_seeds + np.uint64((gen * self._stride) & _MASK)
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
        dealer = self.dealer[games][:, None]
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
        games = np.array([game])
        self.totals[games] = 0
        self.round_index[games] = 0
        self.dealer[games] = dealer
        self.first_dealer[games] = dealer
        self._begin_round(games, hands[None], face_up[None])
        self._refresh()

    def load_next_round(self, game: int, hands: BoolArray, face_up: BoolArray) -> None:
        """Start the next round of game ``game`` (between rounds) dealt as given, by the next
        dealer (rule DEALER-ROTATION), the totals kept (for replaying a record's deals)."""
        games = np.array([game])
        self.round_index[games] += 1
        self.dealer[games] = (self.dealer[games] + 1) % self.t.players
        self._begin_round(games, hands[None], face_up[None])
        self._refresh()

    def load_rounds(self, games: IntArray, hands: BoolArray, face_up: BoolArray,
                    dealers: IntArray | None = None) -> None:
        """``load_round`` for each of ``games`` dealt by ``dealers``, or without ``dealers``
        ``load_next_round`` for each: several games at once (``hands``, ``face_up``: ``(G, P,
        N)`` planes; for replaying many records' deals)."""
        if dealers is None:
            self.round_index[games] += 1
            self.dealer[games] = (self.dealer[games] + 1) % self.t.players
        else:
            self.totals[games] = 0
            self.round_index[games] = 0
            self.dealer[games] = dealers
            self.first_dealer[games] = dealers
        self._begin_round(games, hands, face_up)
        self._refresh()

    def _begin_round(self, games: IntArray, hands: BoolArray, face_up: BoolArray) -> None:
        self.hand[games] = hands
        self.hand_count[games] = hands.sum(axis=2)
        self.face_up[games] = face_up
        self.captured[games] = False
        self.trick[games] = False
        self.given[games] = False
        self.played[games] = False
        self.devils_trick[games] = False
        self.bottle_card[games] = -1
        self.bottle_owner[games] = -1
        self.trick_length[games] = 0
        self.setup_given[games] = 0
        self.scores[games] = 0
        self.last_winner[games] = -1
        self.last_card[games] = -1
        self.last_bottle[games] = -1
        first = (self.dealer[games] + 1) % self.t.players  # FIRST-LEADER, SETUP-ORDER
        self.leader[games] = first
        self.to_act[games] = first
        self.phase[games] = SETUP
        self._mask = None
        self._stale.append(games)

    # -- what the seat to act may do ----------------------------------------------------------

    def legal_cards(self, games: IntArray | None = None) -> BoolArray:
        """``(G, N)``: the cards the seat to act may give (setup) or play (trick play) in each of
        ``games`` (default: all); all False between rounds and once over."""
        games = self.rows if games is None else games
        t = self.t
        phase = self.phase[games]
        seat = np.maximum(self.to_act[games], 0)
        hand = self.hand[games, seat]
        playing = phase == PLAY
        if not playing.any():
            giving: BoolArray = hand & (phase == SETUP)[:, None]
            return giving
        # FOLLOW-SUIT: the led colour's cards (the last row of ``colour_cards``: none, to lead).
        led = np.where(self.trick_length[games] > 0, t.colour[self.trick_cards[games, 0]],
                       len(self._colour_cards) - 1)
        of_led = self._colour_cards[led]
        if t.devils_eye:  # EYE-FOLLOW-SUIT: hidden cards always; face-up ones follow
            up = self.face_up[games, seat]
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
        ``encoding.legal_action_mask``). The array is reused after the next step: copy it to
        keep it."""
        if self._mask is not None:
            return self._mask
        t = self.t
        mask, blocks = self._mask_buffer, self._mask_blocks
        mask.fill(False)
        phase = self.phase
        first = int(phase[0])
        same = bool((phase == first).all())
        if same and first == PLAY:
            blocks[:, 3] = self.legal_cards()
        elif same and first in (ROUND_OVER, GAME_OVER):
            mask[:, 4 * t.cards] = first == ROUND_OVER
        else:
            block = np.where(phase == PLAY, 3, 0)
            setup = phase == SETUP
            if setup.any():
                seat = np.maximum(self.to_act, 0)
                count = self.setup_given[self.rows, seat]
                slot = t.step_slot[self.dealer, seat, np.minimum(count, 4)]
                block = np.where(setup, slot, block)
            blocks[self.rows, block] = self.legal_cards()
            mask[:, 4 * t.cards] = phase == ROUND_OVER
        self._mask = mask
        return mask

    def observe(self, seats: npt.ArrayLike | None = None) -> FloatArray:
        """``(B, D)`` float32 observations in ``encoding.observation``'s layout: of the seat to
        act in each game (seat 0 once over), or of ``seats[b]`` in game ``b``. The array is
        read-only and reused by the next call: copy it to keep it or change it."""
        if not self.observations:
            raise BatchError("this batch keeps no observations (observations=False)")
        if seats is None:
            observer = np.maximum(self.to_act, 0)
        else:
            observer = np.broadcast_to(np.asarray(seats, dtype=np.int64), (self.size,))
        flat = self.obs_bits.reshape(self.size * self.t.players, -1)
        np.take(flat, self.rows * self.t.players + observer, axis=0, out=self._obs_rows)
        out = self._obs_out
        np.copyto(out, self._obs_rows)
        self._observer.values(self, observer, out)
        return self._obs_view

    def random_actions(self, rng: np.random.Generator) -> IntArray:
        """One uniformly random legal action number per game, from ``rng.random(B)``: in game
        ``b``, legal action ``floor(u_b * count_b)`` in ascending order (``-1`` in a game with
        none). Both backends pick the same actions from the same generator."""
        mask = self.legal_mask()
        rows, columns = np.nonzero(mask)  # row by row, columns ascending
        counts = np.bincount(rows, minlength=self.size)
        firsts = np.cumsum(counts) - counts
        picks = (rng.random(self.size) * counts).astype(np.int64)
        chosen: IntArray = np.where(counts > 0, columns[np.minimum(firsts + picks, len(columns) - 1)]
                                    if len(columns) else -1, -1)
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
        self.obs_bits[index, observer] = self._observer.binary(self, index, observer)

    def _put(self, games: IntArray, seats: IntArray, positions: IntArray, value: int) -> None:
        """``obs_bits[games, seats, positions] = value`` (broadcast), through flat indices: one
        index array instead of three."""
        flat = (games * self.t.players + seats) * self._obs_size + positions
        self._flat_bits[flat.ravel()] = value

    def _move_to_act(self, games: IntArray, new: IntArray) -> None:
        """Set the seat to act of ``games`` and its cell in every seat's observation."""
        if not self.observations:
            self.to_act[games] = new
            return
        p = self.t.players
        g = games[:, None]
        self._put(g, self.seats, self._at_to_act + (self.to_act[games][:, None] - self.seats) % p, 0)
        self._put(g, self.seats, self._at_to_act + (new[:, None] - self.seats) % p, 1)
        self.to_act[games] = new

    # -- stepping -----------------------------------------------------------------------------

    def step(self, actions: npt.ArrayLike) -> StepResult:
        """Take ``actions[b]`` (an action number of the seat to act) in every game ``b`` that is
        not over (the action of a game over is ignored). An illegal action raises
        ``IllegalActionError`` naming the game and the broken rule, with no game changed."""
        acts = np.asarray(actions).astype(np.int64, copy=False).reshape(-1)
        if acts.shape != (self.size,):
            raise BatchError(f"step needs {self.size} actions, not {acts.shape}")
        live = self.phase != GAME_OVER
        inside = (acts >= 0) & (acts < self.num_actions)
        if inside.all():
            legal = self.legal_mask()[self.rows, acts]
        else:
            legal = np.zeros(self.size, dtype=np.bool_)
            legal[inside] = self.legal_mask()[self.rows[inside], acts[inside]]
        if not (legal | ~live).all():
            game = int(np.flatnonzero(live & ~legal)[0])
            rule = self.refusal(game, int(acts[game]))
            raise IllegalActionError(rule, f"game {game}: action {int(acts[game])} is not legal "
                                           f"for seat {int(self.to_act[game])}")
        n = self.t.cards
        phase = self.phase
        self._mask = None
        done = np.zeros(self.size, dtype=np.bool_)
        rewards = np.zeros((self.size, self.t.players), dtype=np.float32)
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
            if len(ended):
                done[ended] = True
                best = self.totals[ended].max(axis=1, keepdims=True)
                rewards[ended] = np.where(self.totals[ended] == best, 1.0, -1.0)
                if self.autoreset:
                    self.generation[ended] += 1
                    self._start_games(ended)
        if len(starting):
            self.round_index[starting] += 1
            self.dealer[starting] = (self.dealer[starting] + 1) % self.t.players
            self._deal(starting)
        self._mask = None
        self._refresh()
        return StepResult(rewards, done)

    def _give(self, games: IntArray, slots: IntArray, cards: IntArray) -> None:
        """Each seat to act gives one setup card (rules SETUP-STEPS, SETUP-ORDER); the last give
        of the dealer, who chooses last, resolves the setup (SETUP-RESOLVE)."""
        t = self.t
        seat = self.to_act[games]
        self.hand[games, seat, cards] = False
        self.hand_count[games, seat] -= 1
        self.given[games, seat, slots, cards] = True
        self.setup_given[games, seat] += 1
        if self.observations:
            self._put(games, seat, self._at_hand + cards, 0)
            self._put(games, seat, self._at_my_setup + slots * t.cards + cards, 1)
        finished = self.setup_given[games, seat] == t.step_count[self.dealer[games], seat]
        if finished.any():
            self._move_to_act(games[finished], (seat[finished] + 1) % t.players)
        resolving = games[finished & (seat == self.dealer[games])]
        if len(resolving):
            self._resolve_setup(resolving)

    def _resolve_setup(self, games: IntArray) -> None:
        """Every given card moves at once (rule SETUP-RESOLVE): left to the next seat, right to
        the one before; in Devil's Eye to the opponent's face-up cards and hidden hand. The
        player to the dealer's left leads (FIRST-LEADER)."""
        given = self.given[games]
        if self.t.devils_eye:
            self.face_up[games] |= given[:, ::-1, 1]
            self.hand[games] |= given[:, ::-1, 2]
        else:
            self.hand[games] |= np.roll(given[:, :, 1], 1, axis=1)
            self.hand[games] |= np.roll(given[:, :, 2], -1, axis=1)
        self.hand_count[games] = self.hand[games].sum(axis=2)
        self.devils_trick[games] = given[:, :, 0].any(axis=1)
        self.phase[games] = PLAY
        self.to_act[games] = self.leader[games]
        self._stale.append(games)

    def _play(self, games: IntArray, cards: IntArray) -> IntArray:
        """Each seat to act plays a card (rule TURN-ORDER: clockwise; A, B, A, B in Devil's Eye);
        a completed trick is resolved. Returns the games that ended."""
        t = self.t
        p = t.players
        seat = self.to_act[games]
        if t.devils_eye:
            self.hand_count[games, seat] -= self.hand[games, seat, cards]
        else:
            self.hand_count[games, seat] -= 1
        self.hand[games, seat, cards] = False
        if t.devils_eye:
            self.face_up[games, seat, cards] = False
        self.trick[games, seat, cards] = True
        self.played[games, cards] = True
        length = self.trick_length[games]
        self.trick_cards[games, length] = cards
        self.trick_seats[games, length] = seat
        self.trick_length[games] = length + 1
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
        cards = self.trick_cards[games]
        winning, bottle, buys = resolve_tricks(t, cards, self.bottle_card[games])
        won_card = cards[g, winning]
        winner = self.trick_seats[games, winning]
        taken: BoolArray = np.any(self.trick[games], axis=1)
        taken[g[buys], won_card[buys]] = False
        self.captured[games, winner] |= taken
        buyers = games[buys]
        if len(buyers):
            index = bottle[buys]
            old_card = self.bottle_card[buyers, index]
            old_owner = self.bottle_owner[buyers, index]
            back = (old_card >= 0) & (old_owner >= 0)
            self.captured[buyers[back], old_owner[back], old_card[back]] = True
        self._trick_bits(games, winner, taken, buyers, bottle[buys], won_card[buys], winner[buys])
        self.trick[games] = False
        self.trick_length[games] = 0
        self.leader[games] = winner
        self._move_to_act(games, winner)
        self.last_winner[games] = winner
        self.last_card[games] = won_card
        self.last_bottle[games] = np.where(buys, bottle, -1)
        left = self.hand_count[games].any(axis=1)
        if t.devils_eye:
            left |= self.face_up[games].any(axis=(1, 2))
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
        bits, seats = self.obs_bits, self.seats
        if not self.observations:
            self.bottle_card[buyers, index] = card
            self.bottle_owner[buyers, index] = buyer
            return
        bits[games, :, self._at_trick:self._at_trick + p * n] = 0
        bits[games, :, self._at_leader:self._at_leader + p] = 0
        at, cards = np.nonzero(taken)
        self._put(games[at][:, None], seats,
             self._at_captured + ((winner[at][:, None] - seats) % p) * n + cards[:, None], 1)
        if not len(buyers):
            return
        g = buyers[:, None]
        old_card = self.bottle_card[buyers, index]
        old_owner = self.bottle_owner[buyers, index]
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
        self.bottle_card[buyers, index] = card
        self.bottle_owner[buyers, index] = buyer

    def _end_round(self, games: IntArray) -> IntArray:
        """Score each round (SCORE-ROUND), add the totals (GAME-TOTALS) and end the games whose
        end has come (GAME-END). Returns the games that ended."""
        t = self.t
        scores = round_scores(t, self.captured[games], self.bottle_owner[games],
                              self.devils_trick[games])
        self.scores[games] = scores
        totals = self.totals[games] + scores
        self.totals[games] = totals
        if t.target_score is not None:
            ending = totals.max(axis=1) >= t.target_score
        else:
            assert t.round_limit is not None
            ending = self.round_index[games] + 1 >= t.round_limit
        self.phase[games] = np.where(ending, GAME_OVER, ROUND_OVER)
        self.to_act[games] = np.where(ending, -1, (self.dealer[games] + 1) % t.players)
        self._stale.append(games)
        ended: IntArray = games[ending]
        return ended

    # -- why an action is refused ---------------------------------------------------------------

    def refusal(self, game: int, action: int) -> str:
        """The rule an action number breaks in game ``game`` (checked in the reference's
        order), or ``""`` when it is legal."""
        t = self.t
        n = t.cards
        phase = int(self.phase[game])
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
        seat = int(self.to_act[game])
        card = action % n
        if phase == SETUP:
            count = int(self.setup_given[game, seat])
            if int(t.step_slot[self.dealer[game], seat, count]) != block:
                return "SETUP-STEPS"
            return "" if self.hand[game, seat, card] else "SETUP-FROM-DEALT"
        return self.play_refusal(game, seat, card)

    def play_refusal(self, game: int, seat: int, card: int) -> str:
        """The rule that forbids ``seat`` to play ``card`` now in game ``game`` (trick play),
        or ``""``: TURN-ORDER, CARD-HELD, then FOLLOW-SUIT (EYE-FOLLOW-SUIT in Devil's Eye)."""
        if seat != int(self.to_act[game]):
            return "TURN-ORDER"
        if not (self.hand[game, seat, card] or self.face_up[game, seat, card]):
            return "CARD-HELD"
        if self.legal_cards(np.array([game]))[0, card]:
            return ""
        return "EYE-FOLLOW-SUIT" if self.t.devils_eye else "FOLLOW-SUIT"

    def give_refusal(self, game: int, seat: int, gives: list[tuple[Destination, int]],
                     whole: bool = True) -> str:
        """The rule that forbids ``seat`` to give ``gives`` (destination, card index; ``-1``: no
        card of the deck) in turn in game ``game``, or ``""``: the checks of a setup in the
        reference's order (SETUP-ORDER, SETUP-STEPS, SETUP-ORDER; per card SETUP-STEPS then
        SETUP-FROM-DEALT; with ``whole``, SETUP-STEPS when parts are missing)."""
        t = self.t
        if not 0 <= seat < t.players:
            return "SETUP-ORDER"
        dealer = int(self.dealer[game])
        steps = t.steps[dealer][seat]
        done = int(self.setup_given[game, seat])
        if done == len(steps):
            return "SETUP-STEPS"
        if seat != int(self.to_act[game]):
            return "SETUP-ORDER"
        hand = self.hand[game, seat].copy()
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
        games = np.array([game])
        self._begin_round(games, hands[None], face_up[None])
        for index, (card, owner) in enumerate(bottles):
            self.bottle_card[game, index] = card
            self.bottle_owner[game, index] = owner
        self.phase[game] = PLAY
        for position, (seat, card) in enumerate(trick):
            self.trick[game, seat, card] = True
            self.played[game, card] = True
            self.trick_cards[game, position] = card
            self.trick_seats[game, position] = seat
        self.trick_length[game] = len(trick)
        self.leader[game] = trick[0][0] if trick else to_act
        self.to_act[game] = to_act
        self._refresh()

    # -- copies (perft, the protocol's all-or-nothing setup) ------------------------------------

    _FIELDS: Final = (
        "hand", "face_up", "captured", "trick", "given", "played", "devils_trick",
        "bottle_card", "bottle_owner", "trick_cards", "trick_seats", "trick_length", "phase",
        "to_act", "dealer", "leader", "round_index", "setup_given", "hand_count", "scores", "totals",
        "last_winner", "last_card", "last_bottle", "seeds", "generation", "first_dealer",
        "_base_seeds", "obs_bits",
    )

    def take(self, games: npt.ArrayLike) -> BatchGames:
        """A new batch whose game ``i`` is a copy of this batch's game ``games[i]`` (for search
        and perft: repeat a game once per action to try)."""
        picked = np.asarray(games, dtype=np.int64).reshape(-1)
        copy = type(self)(self.config, max(1, len(picked)), autoreset=self.autoreset,
                          observations=self.observations)
        copy.t = self.t
        for name in self._FIELDS:
            setattr(copy, name, getattr(self, name)[picked].copy())
        copy._stride = self._stride
        copy._flat_bits = copy.obs_bits.reshape(-1)
        copy._bank = {}
        return copy

    def nbytes(self) -> int:
        """The bytes the state arrays hold (the bank of shuffled deals included)."""
        total = sum(int(getattr(self, name).nbytes) for name in self._FIELDS)
        return total + sum(int(bank.nbytes) for bank in self._bank.values())


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

"""The validator's fast lane: one pass over a record that is well formed and legal.

Archives hold mostly valid records, and replaying one through ``apply`` builds two frozen states
for every card given or played. The fast lane checks a record on plain working zones instead
(a set of cards per seat, emptied as the cards are played), composing the same rule functions
the engine composes: the deal, the setup steps and where given cards go, turn order, holding the
card, following suit, the trick's price and winner, the purchase, the price card's return,
capture, the end of the round, scoring and the end of the game. It reads the JSON value directly
instead of building a ``GameRecord`` first.

It never names a fault. The moment anything is unusual (a shape the reader would refuse or
would have to normalise, a broken rule, a claim that does not hold, extension keys, a record
that ends during a setup, a custom deck) it gives up and returns ``None``, and
``bottleimp.validation`` replays the record through the engine, which names the fault with its
rule ID and JSON path. So the fast lane only ever answers "valid", with the very report the
engine replay gives; ``tests/test_fast_lane.py`` checks both on every variant, on every
conformance record case and on records with planted faults.

    >>> from bottleimp import Config, apply, legal_actions, new_game
    >>> from bottleimp.formats.records import record_from_state, record_to_json
    >>> state = new_game(Config(players=5, edition="matagot-2024"), seed=3)
    >>> while not state.is_over:
    ...     state = apply(state, legal_actions(state)[-1])
    >>> record = record_to_json(record_from_state(state))
    >>> report = validate_fast(record)
    >>> report is not None and report.valid and report.totals == state.totals
    True
    >>> record["rounds"][0]["plays"][0][0] = 4  # out of turn: the engine replay must say why
    >>> validate_fast(record) is None
    True
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping
from functools import lru_cache
from operator import attrgetter
from typing import Final, cast

from ..actions import Destination, Give, Play
from ..cards import Card, Colour, Rank, rank_key
from ..config import Config
from ..errors import IllegalActionError, RecordError
from ..formats.config_json import config_from_json
from ..formats.json_input import JSON
from ..formats.records import RECORD_FORMAT
from ..rules import deal as deal_rules
from ..rules import game, scoring, setup
from ..rules import play as play_rules
from ..state import Bottle
from .reports import VALID, RoundReport, TrickReport, ValidationReport

__all__ = ["validate_fast"]

_RECORD_KEYS: Final = frozenset({"format", "config", "rounds", "totals"})
_CONFIG_KEYS: Final = frozenset({"edition", "players", "bottles", "teams", "rounds", "target_score"})
_ROUND_KEYS: Final = frozenset({"dealer", "hands", "face_up", "setup", "plays", "scores"})
_UNSOLD: Final = Bottle()
_owner: Final[Callable[[Bottle], int | None]] = attrgetter("owner")
_INT_TYPE: Final = frozenset({int})


class _GiveUp(Exception):
    """The record is not one the fast lane accepts: the engine replay decides."""


def validate_fast(value: JSON, source: str = "<record>") -> ValidationReport | None:
    """The report of a well-formed, legal record whose every claim holds, or ``None`` when the
    record is anything else (then only the engine replay can say what is wrong)."""
    try:
        return _validate(value, source)
    except (_GiveUp, IllegalActionError, RecordError, LookupError, TypeError, ValueError,
            RecursionError):
        # LookupError, TypeError, ValueError: a part of the record of the wrong shape.
        return None


def _validate(value: JSON, source: str) -> ValidationReport:
    """The rounds in turn, the first dealt by any seat (FIRST-DEALER), each later one by the next
    seat (DEALER-ROTATION), none
    after the game's end (GAME-END); the totals (GAME-TOTALS) and the winners (WINNERS)."""
    if type(value) is not dict or not value.keys() <= _RECORD_KEYS:
        raise _GiveUp
    if value.get("format") != RECORD_FORMAT:
        raise _GiveUp
    game_ = _Game.of(value["config"])
    config = game_.config
    rounds = value["rounds"]
    if type(rounds) is not list:
        raise _GiveUp
    totals = (0,) * config.players
    reports: list[RoundReport] = []
    over = False
    dealer: int
    for index, round_value in enumerate(rounds):
        if over or type(round_value) is not dict:
            raise _GiveUp
        if index:
            dealer = deal_rules.next_dealer(config, dealer)
        else:
            dealer = deal_rules.first_dealer(config, round_value.get("dealer"))  # type: ignore[arg-type]
        report = game_.round(index, dealer, round_value, index == len(rounds) - 1)
        reports.append(report)
        if report.scores is not None:
            totals = game.add_totals(totals, report.scores)
            over = game.game_is_over(config, index + 1, totals)
    claimed = value.get("totals")
    if claimed is not None and _per_seat(claimed, config.players) != totals:
        raise _GiveUp
    return ValidationReport(
        source=source,
        status=VALID,
        errors=(),
        rounds=tuple(reports),
        totals=totals,
        complete=over,
        winners=game.winners(totals) if over else None,
    )


def _per_seat(value: JSON, players: int) -> tuple[int, ...]:
    if type(value) is not list or len(value) != players or not _INT_TYPE.issuperset(map(type, value)):
        raise _GiveUp
    return tuple(cast(list[int], value))


def _frozen(value: JSON) -> Hashable:
    """A configuration value as a key that keeps JSON types apart (``true`` is not ``1``)."""
    if type(value) is list:
        return (list, tuple(_frozen(item) for item in value))
    if type(value) is dict:
        raise _GiveUp
    return (type(value), value)


def _thawed(key: Hashable) -> JSON:
    kind, value = cast(tuple[type, JSON], key)
    if kind is list:
        return [_thawed(item) for item in cast(tuple[Hashable, ...], value)]
    return value


# A setup entry's keys, and the keys of its two passes in the order they are given.
_PASS_SETUP: Final = (frozenset({"discard", "left", "right"}), ("left", "right"))
_EYE_SETUP: Final = (frozenset({"discard", "to_face_up", "to_hidden"}), ("to_face_up", "to_hidden"))


class _Game:
    """What the fast lane needs of one configuration, worked out once from the rule functions:
    the deck by rank, the order of the seats in a trick by its leader (TURN-ORDER), the setup
    steps of each seat for each dealer (SETUP-STEPS), and the ``Give`` actions."""

    def __init__(self, config: Config) -> None:
        players = config.players
        self.config = config
        self.deck: Mapping[Rank, Card] = config.cards_by_rank
        # The seats of a trick in the order they play it, by its leader (TURN-ORDER).
        self.orders = tuple(_trick_order(config, leader) for leader in range(players))
        self.steps = tuple(
            tuple(setup.setup_steps(config, dealer, seat) for seat in range(players))
            for dealer in range(players)
        )
        self.setup_keys, self.pass_keys = _EYE_SETUP if config.devils_eye else _PASS_SETUP
        # One Give action per (seat, card, destination), made once, as the engine does.
        self.gives = tuple(
            {(card, to): Give(seat, card, to) for card in config.cards for to in Destination}
            for seat in range(players)
        )

    @staticmethod
    def of(value: JSON) -> _Game:
        """The game of a record's ``config`` value (any but a custom deck)."""
        if type(value) is not dict or not value.keys() <= _CONFIG_KEYS:
            raise _GiveUp
        return _game_of(tuple((name, _frozen(item)) for name, item in value.items()))

    def cards(self, value: JSON) -> tuple[Card, ...]:
        """The deck's cards named by an array of ranks. Anything but a number is not a rank of
        the deck, except ``true``, which is equal to 1: looked for only when a 1 is there."""
        if type(value) is not list or (True in value and any(item is True for item in value)):
            raise _GiveUp
        return tuple(map(self.deck.__getitem__, value))  # type: ignore[arg-type]

    def rows(self, value: JSON) -> tuple[tuple[Card, ...], ...]:
        """A card array per seat (in any order: the rule functions sort what they keep). The
        number of rows is the deal's to check (DEAL-COUNTS); an object or a string gives keys
        or characters, which ``cards`` refuses."""
        return tuple([self.cards(row) for row in value])  # type: ignore[union-attr]

    def round(self, index: int, dealer: int, value: JSON, is_last: bool) -> RoundReport:
        """One round: the deal (DEAL-COUNTS), the setups (SETUP-STEPS, SETUP-FROM-DEALT,
        SETUP-RESOLVE), the tricks, and the scores once it is over (ROUND-END, SCORE-ROUND)
        compared with those the record claims; only the last round may be unfinished."""
        if type(value) is not dict or not value.keys() <= _ROUND_KEYS:
            raise _GiveUp
        config = self.config
        if type(value["dealer"]) is not int or value["dealer"] != dealer:
            raise _GiveUp
        dealt = self.rows(value["hands"])
        face_up_value = value.get("face_up")
        dealt_face_up = None if face_up_value is None else self.rows(face_up_value)
        # Also refuses face-up rows a variant without them is given, or the other way round.
        deal_rules.check_deal(config, dealer, dealt, dealt_face_up)
        kept, chosen = self.setups(dealer, dealt, value["setup"])
        hands, face_up, devils_trick = setup.resolve_setup(config, kept, dealt_face_up, chosen)
        tricks = _Tricks(self, dealer, hands, face_up)
        complete = tricks.play(value["plays"])
        claimed = value.get("scores")
        scores = None
        if complete:
            captured = tuple(map(tuple, tricks.captured))
            scores = scoring.round_scores(config, captured, tricks.bottles, devils_trick)
            if claimed is not None and _per_seat(claimed, config.players) != scores:
                raise _GiveUp
        elif not is_last or claimed is not None:
            raise _GiveUp
        return RoundReport(  # index, dealer, complete, scores, bottle owners, Devil's Trick, tricks
            index,
            dealer,
            complete,
            scores,
            tuple(map(_owner, tricks.bottles)),
            tuple(map(rank_key, devils_trick)),
            tuple(tricks.reports),
        )

    def setups(
        self, dealer: int, dealt: tuple[tuple[Card, ...], ...], value: JSON
    ) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Give, ...], ...]]:
        """Every seat's complete setup as the engine's ``Give`` actions, each card one the seat
        was dealt and has not given before (SETUP-STEPS, SETUP-FROM-DEALT), and the hands
        without the cards given."""
        if type(value) is not list or len(value) != self.config.players:
            raise _GiveUp
        first_key, second_key = self.pass_keys
        steps = self.steps[dealer]
        gives = self.gives
        chosen = []
        kept = []
        for seat, entry in enumerate(value):
            if type(entry) is not dict or entry.keys() != self.setup_keys:
                raise _GiveUp
            discarded = entry["discard"]
            if type(discarded) is not list:
                raise _GiveUp
            cards = self.cards([*discarded, entry[first_key], entry[second_key]])
            # A seat's steps are its discards, then its two passes (SETUP-STEPS), as an entry
            # lists them: as many cards as steps is the same destination for each card.
            destinations = tuple(zip(cards, steps[seat], strict=True))
            hand = set(dealt[seat])
            for card in cards:
                if not setup.can_give(hand, card):
                    raise _GiveUp
                hand.discard(card)  # held: the rule above is what refuses a card not held
            chosen.append(tuple(map(gives[seat].__getitem__, destinations)))
            kept.append(tuple(hand))
        return tuple(kept), tuple(chosen)


def _trick_order(config: Config, leader: int) -> tuple[int, ...]:
    seats = [leader]
    while len(seats) < config.trick_size:
        seats.append(play_rules.next_to_play(config, seats[-1]))
    return tuple(seats)


@lru_cache(maxsize=64)
def _game_of(key: tuple[tuple[str, Hashable], ...]) -> _Game:
    config = config_from_json({name: _thawed(item) for name, item in key}, "$.config")
    if config.deck is not None:
        raise _GiveUp
    return _Game(config)


class _Tricks:
    """A round's trick play on working zones (a set of cards per seat): each play checked
    (TURN-ORDER, CARD-HELD, FOLLOW-SUIT or EYE-FOLLOW-SUIT), each trick resolved as the engine
    resolves it."""

    __slots__ = ("game", "hands", "face_up", "bottles", "captured", "reports", "leader")

    def __init__(
        self,
        game_: _Game,
        dealer: int,
        hands: tuple[tuple[Card, ...], ...],
        face_up: tuple[tuple[Card, ...], ...] | None,
    ) -> None:
        config = game_.config
        self.game = game_
        self.hands = [set(hand) for hand in hands]
        self.face_up = None if face_up is None else [set(row) for row in face_up]
        self.bottles = (_UNSOLD,) * config.bottles
        self.captured: list[list[Card]] = [[] for _ in range(config.players)]
        self.reports: list[TrickReport] = []
        self.leader = play_rules.first_leader(config, dealer)

    def play(self, plays: JSON) -> bool:
        """Check and play every recorded ``[seat, card]`` in order; whether the round is over.
        A play after the round's end is of a card no seat holds any more (CARD-HELD)."""
        if type(plays) is not list:
            raise _GiveUp
        holds, follows_suit = play_rules.holds, play_rules.follows_suit
        eye_follows_suit = play_rules.devils_eye_follows_suit
        deck, orders = self.game.deck, self.game.orders
        trick_size = self.game.config.trick_size
        hands, face_up = self.hands, self.face_up
        no_face_up: frozenset[Card] = frozenset()
        pairs = cast(list[tuple[int, Rank]], plays)
        leader = self.leader
        for start in range(0, len(pairs), trick_size):
            seats = orders[leader]
            trick: list[Card] = []
            led: Colour | None = None
            for (seat, rank), to_act in zip(pairs[start : start + trick_size], seats):
                if seat != to_act or type(seat) is not int:
                    raise _GiveUp
                card = deck[rank]
                if type(rank) is bool:  # ``true`` would find card 1
                    raise _GiveUp
                hand = hands[seat]
                if face_up is None:
                    if not holds(hand, no_face_up, card) or not follows_suit(hand, led, card):
                        raise _GiveUp
                    hand.remove(card)
                else:
                    row = face_up[seat]
                    if not holds(hand, row, card) or not eye_follows_suit(hand, row, led, card):
                        raise _GiveUp
                    (hand if card in hand else row).remove(card)
                trick.append(card)
                if led is None:
                    led = play_rules.led_colour(trick)
            if len(trick) == trick_size:
                leader = self._resolve(tuple(trick), seats)
        return scoring.round_is_over(hands, face_up)

    def _resolve(self, cards: tuple[Card, ...], seats: tuple[int, ...]) -> int:
        """Resolve a trick as the engine does (``resolve_trick``); returns the next leader."""
        trick = tuple(map(Play, seats, cards))
        piles = tuple(map(tuple, self.captured))
        result, self.bottles, piles = play_rules.resolve_trick(trick, self.bottles, piles)
        self.captured = [list(pile) for pile in piles]
        self.reports.append(
            TrickReport(result.winner, result.bottle, result.price_before, result.price_after)
        )
        return play_rules.next_leader(result.winner)

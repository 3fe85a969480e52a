"""Numbers for programs that learn or search: an integer per action, the legal-action mask,
observations of a seat's view as a string and as a fixed-length vector, and game results.

Everything here reads a ``GameState`` or a ``SeatView`` and never changes the rules: it is a
stable translation, per configuration, between the game and the arrays a learning program
wants. The layouts are documented in ``docs/guide/bots.md``.

**Actions.** With ``N = len(config.cards)`` cards (indexed by position in ``config.cards``, in
ascending rank order), the ``4 * N + 1`` action numbers of a configuration are:

| numbers | action of the seat to act |
| --- | --- |
| ``0 .. N-1`` | ``Give`` card ``n`` to the first setup destination (the Devil's Trick) |
| ``N .. 2N-1`` | ``Give`` card ``n - N`` to the second (left; Devil's Eye: opponent face-up) |
| ``2N .. 3N-1`` | ``Give`` card ``n - 2N`` to the third (right; Devil's Eye: opponent hidden) |
| ``3N .. 4N-1`` | ``Play`` card ``n - 3N`` |
| ``4N`` | ``StartRound`` |

The seat is not encoded: an action number is always the seat to act's, so decoding it needs
the seat (``action_from_int(config, n, seat)``).

    >>> import bottleimp
    >>> from bottleimp._encoding import action_from_int, action_to_int, num_actions
    >>> config = bottleimp.Config(players=4)
    >>> num_actions(config)
    145
    >>> state = bottleimp.new_game(config, seed=7)
    >>> first = bottleimp.legal_actions(state)[0]
    >>> action_to_int(config, first), action_from_int(config, 0, seat=1) == first
    (0, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from types import MappingProxyType
from typing import Final

from attrs import frozen

from ._actions import Action, Destination, Give, Play, StartRound, expect_action
from ._arguments import describe, expect_seat, integer
from ._cards import Card, coins, format_rank
from ._config import Config, expect_config
from ._engine import legal_actions
from ._errors import ArgumentError
from .rules.game import winners as _winners_of_totals
from .rules.setup import setup_steps
from ._state import GameState, Phase
from ._view import SeatView, expect_source, expect_state, expect_view, view

__all__ = [
    "ObservationSegment",
    "action_from_int",
    "action_to_int",
    "legal_action_ints",
    "legal_action_mask",
    "num_actions",
    "observation",
    "observation_entries",
    "observation_layout",
    "observe",
    "observation_size",
    "observation_string",
    "returns",
    "setup_destinations",
    "totals",
    "winners",
]

def setup_destinations(config: Config) -> tuple[Destination, Destination, Destination]:
    """The three setup destinations of a configuration, in the order of the action numbers: the
    distinct destinations of a seat's setup steps (rule SETUP-STEPS), in the order given (Devil's
    Trick, left, right; in Devil's Eye, Devil's Trick, opponent face-up, opponent hidden)."""
    first, second, third = dict.fromkeys(setup_steps(config, 0, 1))
    return first, second, third


def card_numbers(config: Config) -> dict[Card, int]:
    """Each card of ``config``'s deck and its number, its place in the deck in rank order (the
    card's column in every segment of the observation, and in each block of action numbers)."""
    return {card: index for index, card in enumerate(config.cards)}


@frozen(eq=False)
class ActionTable:
    """Every action number of a configuration, both ways, for a caller that numbers many actions
    of one game (the adapters build one when they start)."""

    size: int
    """How many action numbers there are (``num_actions``)."""
    card_index: dict[Card, int]
    """Each card's number (``card_numbers``)."""
    encode: dict[Action, int]
    """Each action's number."""
    decode: tuple[tuple[Action, ...], ...]
    """``decode[seat][n]``: the action number ``n`` of ``seat``."""

    def numbers(self, actions: Sequence[Action]) -> list[int]:
        """The numbers of ``actions`` (actions of this configuration)."""
        return [self.encode[action] for action in actions]


def action_table(config: Config) -> ActionTable:
    """The ``ActionTable`` of ``config``: ``decode[seat]`` lists ``action_from_int(config, n,
    seat)`` for every number ``n``."""
    config = expect_config(config, "action_table(config)")
    decode = tuple(
        tuple(_decoded(config, number, seat) for number in range(num_actions(config)))
        for seat in range(config.players)
    )
    return ActionTable(
        size=num_actions(config),
        card_index=card_numbers(config),
        encode={action: number for row in decode for number, action in enumerate(row)},
        decode=decode,
    )


def _decoded(config: Config, number: int, seat: int) -> Action:
    """The action numbered ``number`` (from 0 to ``4 * len(config.cards)``) for ``seat``: a give
    to each setup destination, a play, then the next deal (the module's table)."""
    cards = config.cards
    if number == 4 * len(cards):
        return StartRound(seat)
    block, index = divmod(number, len(cards))
    if block == 3:
        return Play(seat, cards[index])
    return Give(seat, cards[index], setup_destinations(config)[block])


def _number(config: Config, numbers: dict[Card, int], action: Action) -> int:
    """The number of ``action``, one ``expect_action`` accepts (``numbers``:
    ``card_numbers(config)``); ``ArgumentError`` when no game of ``config`` has it."""
    index = None if isinstance(action, StartRound) else numbers.get(action.card)
    destinations = setup_destinations(config)
    if (not 0 <= action.seat < config.players
            or (index is None and not isinstance(action, StartRound))
            or (isinstance(action, Give) and action.to not in destinations)):
        raise ArgumentError("action_to_int(action)",
                            f"{action!r} is not an action of {config!r}")
    if isinstance(action, StartRound):
        return 4 * len(numbers)
    assert index is not None
    if isinstance(action, Play):
        return 3 * len(numbers) + index
    return destinations.index(action.to) * len(numbers) + index


def num_actions(config: Config) -> int:
    """How many action numbers a configuration has: ``4 * len(config.cards) + 1``."""
    config = expect_config(config, "num_actions(config)")
    return 4 * len(config.cards) + 1


def action_to_int(config: Config, action: Action) -> int:
    """The number of ``action`` in ``config``'s layout (see the module's table).

    Raises ``ArgumentError`` for an action no game of this configuration has (a card not in
    its deck, a setup destination it does not use, a seat it does not have).
    """
    config = expect_config(config, "action_to_int(config)")
    action = expect_action(action, "action_to_int(action)")
    return _number(config, card_numbers(config), action)


def action_from_int(config: Config, number: int, seat: int) -> Action:
    """The action numbered ``number`` for ``seat`` (the seat to act); ``ArgumentError`` if no
    action has that number or there is no such seat (a seat is an ``int``, never a ``bool``)."""
    config = expect_config(config, "action_from_int(config)")
    whole_seat = expect_seat(seat, config.players, "action_from_int(seat)")
    whole_number = integer(number)
    if whole_number is None or not 0 <= whole_number < num_actions(config):
        raise ArgumentError("action_from_int(number)",
                            f"{number!r} is not an action number of {config!r}")
    return _decoded(config, whole_number, whole_seat)


def legal_action_ints(source: GameState | SeatView) -> list[int]:
    """The numbers of the legal actions, ascending (of the seat to act; from a view, of the
    view's seat if it is the seat to act, else empty)."""
    source = expect_source(source, "legal_action_ints(source)")
    numbers = card_numbers(source.config)
    return [_number(source.config, numbers, action) for action in legal_actions(source)]


def legal_action_mask(source: GameState | SeatView) -> list[int]:
    """A list of ``num_actions(config)`` zeros with a one at each legal action's number."""
    source = expect_source(source, "legal_action_mask(source)")
    mask = [0] * num_actions(source.config)
    for number in legal_action_ints(source):
        mask[number] = 1
    return mask


# ---------------------------------------------------------------------------------------------
# The numeric observation


@frozen
class ObservationSegment:
    """One named stretch of the observation vector: ``vector[offset : offset + size]``, read as
    an array of ``shape`` (rows are seats relative to the observer, bottles or setup steps)."""

    name: str
    offset: int
    shape: tuple[int, ...]
    meaning: str

    @property
    def size(self) -> int:
        """How many numbers the segment holds."""
        result = 1
        for length in self.shape:
            result *= length
        return result


_SEGMENTS: Final = (
    # name, shape as a function of (N cards, P players, B bottles), meaning
    ("hand", "N", "1 for each card in the observer's hidden hand"),
    ("face_up", "PxN", "1 for each face-up card, per relative seat (Devil's Eye; else 0)"),
    ("my_setup", "3xN", "1 for each card the observer gave, per setup destination (action order)"),
    ("received", "PxN", "1 for each setup card the observer received, per relative giver"),
    ("trick", "PxN", "1 for each card in the current trick, per relative seat that played it"),
    ("trick_leader", "P", "1 at the relative seat that led the current trick (0 between tricks)"),
    ("played", "N", "1 for each card played this round, the current trick included"),
    ("captured", "PxN", "1 for each card in each relative seat's captured pile"),
    ("bottle_price", "BxN", "1 at each bottle's price card (all 0 at the start price 19)"),
    ("bottle_owner", "BxP", "1 at each bottle's owner, relative seat (all 0: no owner)"),
    ("devils_trick", "N", "1 for each card of the Devil's Trick once revealed (round over)"),
    ("devils_trick_size", "1", "cards in the Devil's Trick so far / N"),
    ("hand_sizes", "P", "cards in each relative seat's hidden hand / N"),
    ("setup_given", "P", "setup cards each relative seat has given this round / 4"),
    ("phase", "4", "one-hot: setup, play, round over, game over"),
    ("to_act", "P", "1 at the relative seat to act (all 0 once the game is over)"),
    ("dealer", "P", "1 at the relative seat of this round's dealer"),
    ("team", "P", "1 at the observer and at each relative seat of its team"),
    ("scores", "P", "each relative seat's score of this round once scored / coins in deck"),
    ("totals", "P", "each relative seat's total / coins in deck"),
    ("progress", "1", "rounds finished / round limit; with a target score, best total / target"),
)


def observation_layout(config: Config) -> tuple[ObservationSegment, ...]:
    """The segments of ``observation`` for ``config``, in order. Seats are relative to the
    observer: row ``r`` is seat ``(observer + r) % players``, so row 0 is the observer."""
    sizes = {"N": len(config.cards), "P": config.players, "B": config.bottles}
    segments = []
    offset = 0
    for name, shape_text, meaning in _SEGMENTS:
        shape = tuple(sizes.get(part, 0) or int(part) for part in shape_text.split("x"))
        segment = ObservationSegment(name, offset, shape, meaning)
        segments.append(segment)
        offset += segment.size
    return tuple(segments)


def observation_size(config: Config) -> int:
    """The length of ``observation`` for ``config``."""
    last = observation_layout(config)[-1]
    return last.offset + last.size


Positions = dict[Card, int]
"""Where each card's 1 goes in one row of a segment."""


@frozen(eq=False)
class ObservationTables:
    """Per-configuration positions of every card in every segment of the observation, for a
    caller that writes many observations of one game (``observation`` computes each position
    from the layout instead).

    Rows of per-seat segments are indexed by ``[observer][seat]`` (the relative row already
    chosen)."""

    size: int
    cards: int
    players: int
    coins: float
    at: dict[str, int]
    hand: Positions
    played: Positions
    devils_trick: Positions
    my_setup: dict[Destination, Positions]
    bottle_price: tuple[Positions, ...]
    face_up: tuple[tuple[Positions, ...], ...]
    received: tuple[tuple[Positions, ...], ...]
    trick: tuple[tuple[Positions, ...], ...]
    captured: tuple[tuple[Positions, ...], ...]
    relative: tuple[tuple[int, ...], ...]
    """``relative[observer][seat]``: the seat's row, ``(seat - observer) % players``."""
    fixed: tuple[tuple[int, ...], ...]
    """``fixed[observer]``: the 1s that never change for an observer (its team)."""


def observation_tables(config: Config) -> ObservationTables:
    """The ``ObservationTables`` of ``config``."""
    teams = config.teams or tuple((seat,) for seat in range(config.players))
    team_of: list[tuple[int, ...]] = [()] * config.players
    for team in teams:
        for seat in team:
            team_of[seat] = team
    at = {segment.name: segment.offset for segment in observation_layout(config)}
    cards, n, p = config.cards, len(config.cards), config.players

    def positions(offset: int) -> Positions:
        return {card: offset + index for index, card in enumerate(cards)}

    def by_seat(name: str) -> tuple[tuple[Positions, ...], ...]:
        rows = [positions(at[name] + row * n) for row in range(p)]
        return tuple(
            tuple(rows[(seat - observer) % p] for seat in range(p)) for observer in range(p)
        )

    return ObservationTables(
        size=observation_size(config),
        cards=n,
        players=p,
        coins=float(coins(cards)),
        at=at,
        hand=positions(at["hand"]),
        played=positions(at["played"]),
        devils_trick=positions(at["devils_trick"]),
        my_setup={
            destination: positions(at["my_setup"] + slot * n)
            for slot, destination in enumerate(setup_destinations(config))
        },
        bottle_price=tuple(
            positions(at["bottle_price"] + bottle * n) for bottle in range(config.bottles)
        ),
        face_up=by_seat("face_up"),
        received=by_seat("received"),
        trick=by_seat("trick"),
        captured=by_seat("captured"),
        relative=tuple(
            tuple((seat - observer) % p for seat in range(p)) for observer in range(p)
        ),
        fixed=tuple(
            tuple(at["team"] + (seat - observer) % p for seat in team_of[observer])
            for observer in range(p)
        ),
    )


_PHASES: Final = (Phase.SETUP, Phase.PLAY, Phase.ROUND_OVER, Phase.GAME_OVER)
"""The phases in the order of the ``phase`` segment."""


def observation(source: SeatView) -> list[float]:
    """The fixed-length numeric observation of a seat's view (``observation_layout`` names each
    stretch of it). It is a function of the view alone, so it holds nothing the seat may not see.
    """
    source = expect_view(source, "observation(source)")
    ones, values = observation_entries(source)
    vector = [0.0] * observation_size(source.config)
    for index in ones:
        vector[index] = 1.0
    for index, value in values:
        vector[index] = value
    return vector


def observation_entries(seen: SeatView) -> tuple[list[int], list[tuple[int, float]]]:
    """``observation`` in sparse form: the positions that hold 1, and the other positions that
    may be nonzero with their values (every other position is 0). For filling a preallocated
    array: ``array[:] = 0; array[ones] = 1; for i, v in values: array[i] = v``."""
    config = seen.config
    at = {segment.name: segment.offset for segment in observation_layout(config)}
    numbers = card_numbers(config)
    n, p = len(config.cards), config.players
    observer = seen.seat

    def row(seat: int) -> int:
        """The seat's row in a per-seat segment: seats are relative to the observer."""
        return (seat - observer) % p

    def card_at(segment: str, card: Card, row_index: int = 0) -> int:
        return at[segment] + row_index * n + numbers[card]

    ones = [at["team"] + row(seat) for seat in config.team_of(observer)]
    ones += [card_at("hand", card) for card in seen.hand]
    for seat, up in enumerate(seen.face_up or ()):
        ones += [card_at("face_up", card, row(seat)) for card in up]
    destinations = setup_destinations(config)
    ones += [card_at("my_setup", g.card, destinations.index(g.to)) for g in seen.my_setup]
    ones += [card_at("received", give.card, row(give.seat)) for give in seen.received]
    trick = seen.current_trick
    ones += [card_at("trick", play.card, row(play.seat)) for play in trick]
    if trick:
        ones.append(at["trick_leader"] + row(trick[0].seat))
    ones += [card_at("played", play.card) for play in seen.plays]
    for seat, pile in enumerate(seen.captured):
        ones += [card_at("captured", card, row(seat)) for card in pile]
    for number, bottle in enumerate(seen.bottles):
        if bottle.price_card is not None:
            ones.append(card_at("bottle_price", bottle.price_card, number))
        if bottle.owner is not None:
            ones.append(at["bottle_owner"] + number * p + row(bottle.owner))
    ones += [card_at("devils_trick", card) for card in seen.devils_trick or ()]
    ones.append(at["phase"] + _PHASES.index(seen.phase))
    if seen.to_act is not None:
        ones.append(at["to_act"] + row(seen.to_act))
    ones.append(at["dealer"] + row(seen.dealer))
    deck_coins = coins(config.cards)
    values: list[tuple[int, float]] = [(at["devils_trick_size"], seen.devils_trick_size / n)]
    for seat in range(p):
        values.append((at["hand_sizes"] + row(seat), seen.hand_sizes[seat] / n))
        values.append((at["setup_given"] + row(seat), seen.setup_given[seat] / 4))
        values.append((at["totals"] + row(seat), seen.totals[seat] / deck_coins))
    if seen.scores is not None:
        for seat in range(p):
            values.append((at["scores"] + row(seat), seen.scores[seat] / deck_coins))
    values.append((at["progress"], _progress(seen)))
    return ones, values


def _progress(seen: SeatView) -> float:
    config = seen.config
    if config.target_score is not None:
        return min(1.0, max(seen.totals) / config.target_score)
    limit = config.round_limit
    assert limit is not None
    finished = seen.round_index + (seen.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
    return finished / limit


# ---------------------------------------------------------------------------------------------
# The observation string


def _ranks(cards: Sequence[Card]) -> str:
    return " ".join(format_rank(card.rank) for card in cards) or "-"


_DESTINATION_LETTERS: Final = MappingProxyType({
    Destination.DEVILS_TRICK: "D",
    Destination.LEFT: "L",
    Destination.RIGHT: "R",
    Destination.OPPONENT_FACE_UP: "U",
    Destination.OPPONENT_HIDDEN: "H",
})


def observation_string(source: SeatView) -> str:
    """A compact one-line text of a seat's view: ``|``-separated fields, each a letter and its
    value (see ``docs/guide/bots.md`` for every field). Two views of one game give the same
    string only when they are equal, so it serves as an information-state key.

    >>> import bottleimp
    >>> state = bottleimp.new_game(bottleimp.Config(players=3), seed=7)
    >>> observation_string(bottleimp.view(state, 1))
    's1|r0|d0|setup|a1|t0 0 0|h3 6 7 13 14 16 17 18 20 22 25 36|g0 0 0|b19'
    """
    source = expect_view(source, "observation_string(source)")
    parts = [
        f"s{source.seat}",
        f"r{source.round_index}",
        f"d{source.dealer}",
        source.phase.value,
        f"a{'-' if source.to_act is None else source.to_act}",
        "t" + " ".join(map(str, source.totals)),
        "h" + _ranks(source.hand),
    ]
    if source.face_up is not None:
        parts.append("u" + ",".join(_ranks(row) for row in source.face_up))
    parts.append("g" + " ".join(map(str, source.setup_given)))
    if source.my_setup:
        parts.append(
            "m" + " ".join(
                f"{_DESTINATION_LETTERS[g.to]}{format_rank(g.card.rank)}" for g in source.my_setup
            )
        )
    if source.received:
        parts.append(
            "x" + " ".join(f"{g.seat}:{format_rank(g.card.rank)}" for g in source.received)
        )
    parts.append(
        "b" + " ".join(
            format_rank(b.price) + ("" if b.owner is None else f"@{b.owner}")
            for b in source.bottles
        )
    )
    if source.plays:
        parts.append(
            "p" + " ".join(f"{play.seat}:{format_rank(play.card.rank)}" for play in source.plays)
        )
    if source.devils_trick is not None:
        parts.append("v" + _ranks(source.devils_trick))
    if source.scores is not None:
        parts.append("c" + " ".join(map(str, source.scores)))
    return "|".join(parts)


# ---------------------------------------------------------------------------------------------
# Results


def winners(source: GameState | Sequence[int]) -> tuple[int, ...]:
    """The seats with the highest total, from a finished state or from totals (rule WINNERS);
    a tie shares the win: a state's ``winners``, as ``totals`` gives its ``totals``. A state
    whose game is not over, and totals that are not a non-empty sequence of numbers, raise
    ``ArgumentError``.

    >>> import bottleimp
    >>> bottleimp.winners((12, 30, 30, -4))
    (1, 2)
    """
    if type(source) is GameState:
        won = source.winners
        if won is None:
            raise ArgumentError("winners(source)", "the game is not over: no one has won yet")
        return won
    return _winners_of_totals(_totals(source))


def _totals(source: object) -> tuple[int, ...]:
    if isinstance(source, (str, bytes)) or not isinstance(source, Sequence):
        raise ArgumentError(
            "winners(source)", f"needs a finished GameState or totals, not {describe(source)}"
        )
    if not source:
        raise ArgumentError("winners(source)", "needs at least one total")
    for total in source:
        if isinstance(total, bool) or not isinstance(total, (int, float)):
            raise ArgumentError("winners(source)", f"a total is a number, not {describe(total)}")
    return tuple(source)


def returns(state: GameState) -> tuple[float, ...]:
    """Each seat's result: ``1.0`` for a winner (rule WINNERS, ties share the win) and ``-1.0``
    for every other seat once the game is over; ``0.0`` for every seat before it ends."""
    state = expect_state(state, "returns(state)")
    if not state.is_over:
        return (0.0,) * state.config.players
    best = set(_winners_of_totals(state.totals))
    return tuple(1.0 if seat in best else -1.0 for seat in range(state.config.players))


def totals(source: GameState | SeatView) -> tuple[int, ...]:
    """Each seat's points so far: the sum of its scores over every round scored (rule
    GAME-TOTALS). A round's points count from the play that ends it; the round in progress adds
    nothing until then. ``winners`` names the seats with the most once the game is over.

    >>> import bottleimp
    >>> state = bottleimp.new_game(bottleimp.Config(players=3, rounds=2), seed=7)
    >>> while state.round.scores is None:
    ...     state = bottleimp.apply(state, bottleimp.legal_actions(state)[0])
    >>> state.round.scores, totals(state)
    ((-4, 12, 62), (-4, 12, 62))
    >>> totals(bottleimp.view(state, 2)) == totals(state)
    True
    """
    return expect_source(source, "totals(source)").totals


def observe(state: GameState, seat: int) -> list[float]:
    """``observation(view(state, seat))``."""
    return observation(view(state, seat))

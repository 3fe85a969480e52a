"""What one seat may see (rule VIEW-HIDDEN).

A seat sees its own hidden hand, every face-up card, every card played, every captured pile
and price card, its own setup choices and the setup cards it received, and how many cards each
seat holds. It does not see the other seats' hands, the cards in flight during setup (other than its own), or the Devil's
Trick before the round ends (except the cards it discarded itself).
"""

from __future__ import annotations

from attrs import frozen

from ._actions import Destination, Give, Play
from ._arguments import describe, expect_seat
from ._cards import Card, Colour
from ._config import Config
from ._errors import ArgumentError
from .rules.game import winners
from .rules._registry import rule
from .rules.setup import receiving_seat
from ._state import Bottle, GameState, Phase, TrickResult
from ._table import bottle_text, cards_text, hand_text, heading, table_text


@frozen
class SeatView:
    """The information available to ``seat``."""

    seat: int
    """The seat whose view this is."""
    config: Config
    """The game's configuration."""
    phase: Phase
    """The phase of the game, which says what kind of action comes next."""
    to_act: int | None
    """The seat to act; ``None`` once the game is over."""
    round_index: int
    """The current round, from 0."""
    dealer: int
    """The current round's dealer."""
    hand: tuple[Card, ...]
    """This seat's hidden hand, in ascending rank order."""
    face_up: tuple[tuple[Card, ...], ...] | None
    """Devil's Eye: every seat's face-up cards (public); ``None`` in other games."""
    hand_sizes: tuple[int, ...]
    """How many cards each seat holds in its hidden hand."""
    setup_given: tuple[int, ...]
    """How many setup cards each seat has given this round."""
    my_setup: tuple[Give, ...]
    """This seat's own setup gives this round, in the order given."""
    devils_trick: tuple[Card, ...] | None
    """The Devil's Trick once the round is over; ``None`` while it is hidden (a seat's own
    discards are in ``my_setup``)."""
    devils_trick_size: int
    """How many cards lie in the Devil's Trick (during the setup: discarded so far)."""
    plays: tuple[Play, ...]
    """Every card played this round, in order (the current trick is the tail)."""
    current_trick: tuple[Play, ...]
    """The plays of the trick in progress (empty between tricks)."""
    leader: int
    """The seat that leads (or led) the current trick."""
    bottles: tuple[Bottle, ...]
    """Every bottle: its price card and owner."""
    captured: tuple[tuple[Card, ...], ...]
    """Each seat's captured cards, in the order captured."""
    tricks: tuple[TrickResult, ...]
    """What each completed trick of the round decided."""
    scores: tuple[int, ...] | None
    """Each seat's score for the round once it is scored; ``None`` before."""
    totals: tuple[int, ...]
    """Each seat's running total."""
    received: tuple[Give, ...] = ()
    """The setup cards other seats gave to this seat (left, right, or in Devil's Eye the
    opponent's two), once the setup is resolved and the cards have arrived; empty before."""

    def __str__(self) -> str:
        """The table as this seat sees it, in a few lines (``bottleimp._table``): the other
        hidden hands as counts."""
        hands = [
            hand_text(
                cards_text(self.hand) if seat == self.seat
                else f"{size} card{'' if size == 1 else 's'}",
                self.face_up, seat,
            )
            for seat, size in enumerate(self.hand_sizes)
        ]
        first = heading(self.config, self.phase, self.to_act, self.round_index, self.dealer)
        return table_text(
            f"Seat {self.seat}'s view. {first}",
            hands,
            self.captured,
            self.setup_given if self.phase is Phase.SETUP else None,
            self.totals,
            self.current_trick,
            [bottle_text(bottle.price, bottle.owner) for bottle in self.bottles],
            self.scores,
            winners(self.totals) if self.phase is Phase.GAME_OVER else None,
        )

    def __repr__(self) -> str:
        acting = "game over" if self.to_act is None else f"seat {self.to_act} to act"
        return (
            f"<SeatView of seat {self.seat}: {self.config.players} players, "
            f"round {self.round_index + 1}, {self.phase.value}, {acting}, totals {self.totals}>"
        )

    def cards(self) -> frozenset[Card]:
        """Every card this view shows."""
        seen: set[Card] = set(self.hand)
        for row in self.face_up or ():
            seen.update(row)
        seen.update(give.card for give in self.my_setup)
        seen.update(give.card for give in self.received)
        seen.update(self.devils_trick or ())
        seen.update(play.card for play in self.plays)
        for pile in self.captured:
            seen.update(pile)
        seen.update(b.price_card for b in self.bottles if b.price_card is not None)
        return frozenset(seen)


@rule("VIEW-HIDDEN")
def view(state: GameState, seat: int) -> SeatView:
    """The state as ``seat`` may see it (rule VIEW-HIDDEN). ``seat`` is an ``int`` of the game
    (not a ``bool``): anything else raises ``ArgumentError``."""
    state = expect_state(state, "view(state)")
    seat = expect_seat(seat, state.config.players, "view(seat)")
    round_ = state.round
    revealed = state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    dealt_sizes = [len(hand) for hand in round_.hands]
    return SeatView(
        seat=seat,
        config=state.config,
        phase=state.phase,
        to_act=state.to_act,
        round_index=round_.index,
        dealer=round_.dealer,
        hand=round_.hands[seat],
        face_up=round_.face_up,
        hand_sizes=tuple(dealt_sizes),
        setup_given=tuple(len(chosen) for chosen in round_.setup),
        my_setup=round_.setup[seat],
        devils_trick=round_.devils_trick if revealed else None,
        devils_trick_size=len(round_.devils_trick)
        if state.phase is not Phase.SETUP
        else sum(1 for chosen in round_.setup for g in chosen if g.to is Destination.DEVILS_TRICK),
        plays=round_.plays,
        current_trick=state.current_trick(),
        leader=round_.leader,
        bottles=round_.bottles,
        captured=round_.captured,
        tricks=round_.tricks,
        scores=round_.scores,
        totals=state.totals,
        received=() if state.phase is Phase.SETUP else received_gives(state.config, round_.setup, seat),
    )


def shown_voids(config: Config, plays: tuple[Play, ...], seat: int) -> dict[int, set[Colour]]:
    """The colours each seat but ``seat`` has shown it lacks this round, by not following the led
    colour (rule ``FOLLOW-SUIT``): what any seat may infer from the plays. Empty in Devil's Eye,
    where a hidden card may always be played and so a miss shows nothing."""
    voids: dict[int, set[Colour]] = {}
    if config.devils_eye:
        return voids
    size = config.trick_size
    for start in range(0, len(plays), size):
        trick = plays[start : start + size]
        led = trick[0].card.colour
        for play in trick[1:]:
            if play.card.colour is not led and play.seat != seat:
                voids.setdefault(play.seat, set()).add(led)
    return voids


def received_gives(
    config: Config, setup: tuple[tuple[Give, ...], ...], seat: int
) -> tuple[Give, ...]:
    """The gives whose cards went to ``seat`` when the setup resolved (rule SETUP-RESOLVE)."""
    players = config.players
    return tuple(
        give
        for gives in setup
        for give in gives
        if receiving_seat(players, give.seat, give.to) == seat
    )



def expect_state(value: object, where: str) -> GameState:
    """``value`` if it is a ``GameState`` itself, else an ``ArgumentError`` for ``where`` (a
    ``SeatView`` gets a word of its own: a view holds what one seat knows, not the game).

    The exact type is the whole check: a state checks its own fields when it is built
    (``attrs.evolve`` builds one too), so every ``GameState`` is well-formed, and a subclass,
    whose ``__eq__`` or ``__hash__`` could lie, is refused. An object made around the
    constructor (``object.__new__``, ``object.__setattr__`` on a frozen instance) deliberately
    circumvents the library; it is not a forged value and is not looked for."""
    if type(value) is SeatView:
        raise ArgumentError(
            where,
            "needs a GameState, not a SeatView: a view holds what one seat knows, not the whole "
            "game (keep the GameState and pass it)",
        )
    if type(value) is not GameState:
        raise ArgumentError(where, f"needs a GameState, not {describe(value)}")
    return value


def expect_view(value: object, where: str) -> SeatView:
    """``value`` if it is a ``SeatView`` itself (not a subclass), else an ``ArgumentError`` for
    ``where``."""
    if type(value) is SeatView:
        return value
    hint = " (a seat's view is view(state, seat))" if type(value) is GameState else ""
    raise ArgumentError(where, f"needs a SeatView, not {describe(value)}{hint}")


def expect_source(value: object, where: str) -> GameState | SeatView:
    """``value`` if it is a state (``expect_state``) or a ``SeatView``, else an
    ``ArgumentError``."""
    if type(value) is SeatView:
        return value
    if type(value) is GameState:
        return value
    raise ArgumentError(where, f"needs a GameState or a SeatView, not {describe(value)}")

"""An independent model of The Bottle Imp's setup, trick play, scoring and game end.

Written from the rules documents only (``shared/seeds``), the project's research notes
(``shared/research/sources.md``) and the prose of ``spec/interpretations.md``, by an engineer
who had not read the engine (``bottleimp/``) or its tests.  See ``restatement/README.md``.

Everything here is plain Python with no dependency on ``bottleimp``.  Seats are numbered
``0 .. players-1`` clockwise; the left neighbour of seat ``s`` is ``s + 1`` (the next to play),
the right neighbour ``s - 1`` (I-SEATS-CLOCKWISE).

Rules modelled, each with the source sentence it comes from:

* follow suit: "You must follow the led color if possible.  If you cannot follow suit, you may
  play any card." (Board Game Arena's help page; English rulebook; Korean summary)
* Devil's Eye follow suit: "When playing from the face-up hand, you must follow suit if
  possible.  When playing from the face-down hand, you may play any card." (BGA help page;
  I-EYE-FOLLOW-SUIT: "if possible" is judged on the face-up cards alone)
* trick winner and bottle: "If at least one card is lower than the Bottle Imp's value: The
  highest card below that value wins the trick and takes the Bottle Imp.  Its value is reduced
  to the value of the winning card.  If all cards are higher ...: The highest card wins the
  trick, but the Bottle Imp stays with its current owner."  Colours never matter.
* cards: "the card that won it is placed face up under the Bottle Imp.  The card that
  previously determined its value is added to its former owner's captured tricks."  "you never
  take the 19 card and the cards under it."  The winner takes the other cards (English rulebook).
* two bottles: "The first player to win a trick with a card below 19 takes one of the bottles
  ... From then on, only the bottle with the higher current value can be claimed."
  (I-TWO-BOTTLE-TIE: judged against the higher price; on a tie the first bottle.)
* leader: "The player to the left of the dealer leads the first trick.  The winner of each
  trick leads the next one."
* scoring: "Each player scores the merit points on the cards in their captured tricks.  The
  player who owns the Bottle Imp instead receives the total merit points of the Devil's Trick
  as negative points."  Two bottles: "If one player owns both bottles, they receive the
  penalty twice."  Teams (I-TEAM-SCORING): "Teammates combine their scores and both receive the
  same result.  If either teammate owns the Bottle Imp ..., both receive the penalty ...
  Individual players double their score, including any penalty."  An unowned bottle penalises
  nobody (I-UNSOLD-BOTTLE).
* deal (DEAL, DEAL-SHUFFLE of ``spec/rules.toml``, I-EYE-DEAL): the deck in ascending rank order
  shuffled by Fisher-Yates from the last position down, each index drawn below ``i + 1`` by
  rejection from SplitMix64 (Vigna's published generator, 64-bit arithmetic) started at
  ``(seed mod 2^64) XOR (round index * 0xD1B54A32D192ED03 mod 2^64)``; then dealt one card at a
  time clockwise from the dealer's left, in Devil's Eye the first two thirds as hidden hands and
  the last third face up.
* game end: a number of rounds, or a target score reached by some total at the end of a round
  (I-GAME-END); every seat with the highest total wins (I-WINNERS-TIE).
* setup (sources.md's table, I-FIVE-PLAYER-DEALER, I-EYE-DEAL, I-EYE-SETUP, I-CUSTOM-DECK):
  each seat discards one card to the Devil's Trick and passes one left and one right; a dealer
  dealt one card fewer (5 players) only passes; in Devil's Eye each seat gives four cards from
  its hidden hand: two discards, one to the opponent's face-up cards, one to the opponent's
  hidden hand.  All given cards move at once, after every seat has chosen.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Literal, Union

Rank = Union[int, float]

START_PRICE: Rank = 19
"""The neutral start card: every bottle's price at the start of a round."""

DEFAULT_ROUNDS: dict[int, int] = {2: 6, 3: 9, 4: 8, 5: 5, 6: 6}
"""Round counts when a game names neither rounds nor a target (sources.md: BGA's defaults)."""


class ModelError(ValueError):
    """A configuration or an action the model refuses."""


@dataclass(frozen=True, order=True)
class Card:
    """A numbered card: its rank (whole or half), its colour and its coins (merit points)."""

    rank: Rank
    colour: str
    coins: int


@dataclass(frozen=True)
class Config:
    """What a game is: seats, deck, bottles, teams and how it ends.

    ``teams`` is a partition of the seats into pairs and singles (empty: individual play).
    ``rounds`` and ``target`` are exclusive; with neither, ``DEFAULT_ROUNDS`` applies.
    Two players always play Devil's Eye (the only two-player game in the sources).
    """

    players: int
    deck: tuple[Card, ...]
    bottles: int = 1
    teams: tuple[tuple[int, ...], ...] = ()
    rounds: int | None = None
    target: int | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.players <= 6:
            raise ModelError(f"players: {self.players} is not 2..6")
        if self.bottles not in (1, 2):
            raise ModelError(f"bottles: {self.bottles} is not 1 or 2")
        if self.rounds is not None and self.target is not None:
            raise ModelError("rounds and target are exclusive")
        ranks = [card.rank for card in self.deck]
        if len(set(ranks)) != len(ranks) or START_PRICE in ranks:
            raise ModelError("deck: ranks must be distinct and never 19")
        if self.teams:
            if self.bottles == 2:
                raise ModelError("teams with two bottles are not defined (I-TEAMS-TWO-BOTTLES)")
            seats = sorted(seat for team in self.teams for seat in team)
            if seats != list(range(self.players)):
                raise ModelError("teams must partition the seats")
            if any(len(team) not in (1, 2) for team in self.teams):
                raise ModelError("teams are pairs and singles")

    @property
    def devils_eye(self) -> bool:
        return self.players == 2

    @property
    def total_rounds(self) -> int | None:
        """The number of rounds, or None when the game plays to a target."""
        if self.target is not None:
            return None
        return self.rounds if self.rounds is not None else DEFAULT_ROUNDS[self.players]


# --------------------------------------------------------------------------------------------
# Setup


@dataclass(frozen=True)
class SetupShape:
    """What one seat must give during the setup of a round."""

    discards: int
    left: int  # cards passed to seat + 1 (Devil's Eye: to the opponent's face-up cards)
    right: int  # cards passed to seat - 1 (Devil's Eye: to the opponent's hidden hand)


def deal_sizes(config: Config, dealer: int) -> tuple[int, ...]:
    """How many cards each seat is dealt (Devil's Eye: hidden and face-up together).

    All cards are dealt.  When the deck is one short of a multiple of the players, the dealer
    (dealt last, clockwise from their left) gets one card fewer (I-FIVE-PLAYER-DEALER,
    I-CUSTOM-DECK).
    """
    n, p = len(config.deck), config.players
    if config.devils_eye:
        if n % 12 or n == 0:
            raise ModelError("deck: Devil's Eye needs a positive multiple of 12 cards")
        return (n // 2, n // 2)
    base, extra = divmod(n, p)
    if extra == 0:
        return tuple(base for _ in range(p))
    if extra == p - 1:
        return tuple(base if seat == dealer else base + 1 for seat in range(p))
    raise ModelError(f"deck: {n} cards cannot be dealt to {p} players")


def eye_split(config: Config) -> tuple[int, int]:
    """Devil's Eye: (hidden, face-up) cards dealt to each player: two thirds and one third."""
    per_player = len(config.deck) // 2
    return (per_player * 2 // 3, per_player // 3)


def setup_shape(config: Config, dealer: int, seat: int) -> SetupShape:
    """What ``seat`` gives: Devil's Eye 2 discards + 1 + 1; a short-dealt dealer only passes."""
    if config.devils_eye:
        return SetupShape(discards=2, left=1, right=1)
    sizes = deal_sizes(config, dealer)
    short = min(sizes) != max(sizes) and sizes[seat] == min(sizes)
    return SetupShape(discards=0 if short else 1, left=1, right=1)


SetupStep = Literal["discard", "left", "right"]


def setup_sequence(config: Config, dealer: int, seat: int) -> tuple[SetupStep, ...]:
    """The order in which ``seat`` gives its setup cards, one card a step (I-SETUP-SEQUENCED:
    discard, then left, then right; I-EYE-SETUP: two discards, then the opponent's face-up cards
    ("left" here), then the opponent's hidden hand ("right"))."""
    shape = setup_shape(config, dealer, seat)
    discard: tuple[SetupStep, ...] = ("discard",)
    left: tuple[SetupStep, ...] = ("left",)
    right: tuple[SetupStep, ...] = ("right",)
    return discard * shape.discards + left * shape.left + right * shape.right


def setup_order(config: Config, dealer: int) -> tuple[int, ...]:
    """The seats in the order they choose their setup: clockwise from the dealer's left, each
    seat its whole setup before the next (I-SETUP-SEQUENCED)."""
    return tuple((dealer + 1 + k) % config.players for k in range(config.players))


@dataclass(frozen=True)
class Gives:
    """The cards one seat chose to give in the setup."""

    discards: tuple[Card, ...]
    left: Card
    right: Card


def check_gives(config: Config, dealer: int, seat: int, dealt: tuple[Card, ...],
                gives: Gives) -> None:
    """Raise unless ``gives`` has the seat's shape and only distinct cards it was dealt.

    ``dealt`` is the hand the cards must come from (Devil's Eye: the hidden hand as dealt).
    """
    shape = setup_shape(config, dealer, seat)
    cards = [*gives.discards, gives.left, gives.right]
    if len(gives.discards) != shape.discards:
        raise ModelError(f"seat {seat}: {len(gives.discards)} discards, not {shape.discards}")
    if len(set(cards)) != len(cards) or any(card not in dealt for card in cards):
        raise ModelError(f"seat {seat}: gives cards it was not dealt, or one card twice")


@dataclass(frozen=True)
class SetupResult:
    hands: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...]
    devils_trick: tuple[Card, ...]


def resolve_setup(config: Config, dealer: int, hands: tuple[tuple[Card, ...], ...],
                  face_up: tuple[tuple[Card, ...], ...], gives: tuple[Gives, ...]) -> SetupResult:
    """Move every given card at once: discards to the Devil's Trick, passes to the neighbours.

    ``hands`` are the hands as dealt (Devil's Eye: hidden hands; ``face_up`` the face-up cards,
    otherwise empty tuples).  Returns the hands after the setup, as sets sorted by rank.
    """
    p = config.players
    for seat in range(p):
        check_gives(config, dealer, seat, hands[seat], gives[seat])
    new_hands = [set(hands[seat]) for seat in range(p)]
    new_face_up = [set(face_up[seat]) if face_up else set() for seat in range(p)]
    devils_trick: list[Card] = []
    for seat in range(p):
        g = gives[seat]
        new_hands[seat] -= {*g.discards, g.left, g.right}
        devils_trick.extend(g.discards)
    for seat in range(p):
        g = gives[seat]
        if config.devils_eye:
            other = 1 - seat
            new_face_up[other].add(g.left)
            new_hands[other].add(g.right)
        else:
            new_hands[(seat + 1) % p].add(g.left)
            new_hands[(seat - 1) % p].add(g.right)
    return SetupResult(
        hands=tuple(tuple(sorted(h)) for h in new_hands),
        face_up=tuple(tuple(sorted(f)) for f in new_face_up) if config.devils_eye else (),
        devils_trick=tuple(sorted(devils_trick)),
    )


# --------------------------------------------------------------------------------------------
# Trick play


def first_leader(config: Config, dealer: int) -> int:
    """The player to the left of the dealer leads the first trick."""
    return (dealer + 1) % config.players


def trick_size(config: Config) -> int:
    """Cards in a trick: one a player; Devil's Eye four (two a player)."""
    return 4 if config.devils_eye else config.players


def seat_to_play(config: Config, leader: int, cards_played: int) -> int:
    """Clockwise from the leader; Devil's Eye alternates A, B, A, B (I-EYE-TURN-ORDER)."""
    return (leader + cards_played) % config.players


def legal_plays(hand: tuple[Card, ...], trick: tuple[Card, ...]) -> frozenset[Card]:
    """Follow the led colour if the hand holds it; otherwise (or when leading) any card."""
    if not trick:
        return frozenset(hand)
    led = trick[0].colour
    following = frozenset(card for card in hand if card.colour == led)
    return following or frozenset(hand)


def eye_legal_plays(face_up: tuple[Card, ...], hidden: tuple[Card, ...],
                    trick: tuple[Card, ...]) -> frozenset[Card]:
    """Devil's Eye: face-up cards follow suit among the face-up cards; hidden cards are free."""
    return legal_plays(face_up, trick) | frozenset(hidden)


@dataclass(frozen=True)
class Bottle:
    """A bottle: its owner (None while unsold) and the card under it (None: the start 19)."""

    owner: int | None = None
    price_card: Card | None = None

    @property
    def price(self) -> Rank:
        return START_PRICE if self.price_card is None else self.price_card.rank


def contested_bottle(bottles: tuple[Bottle, ...]) -> int:
    """Index of the bottle a trick is judged against: the higher price, the first on a tie."""
    best = 0
    for index, bottle in enumerate(bottles):
        if bottle.price > bottles[best].price:
            best = index
    return best


@dataclass(frozen=True)
class TrickOutcome:
    """What a completed trick does.

    ``captured`` lists, per seat, the cards that go to that seat's captured pile (the winner's
    trick cards, and the returned price card for the bottle's former owner).  ``bought`` is the
    index of the bottle bought, or None; ``returned`` the previous price card given back (None
    when there was none to give: the start 19, which nobody takes).
    """

    winner: int
    winning_card: Card
    bottles: tuple[Bottle, ...]
    captured: tuple[tuple[Card, ...], ...]
    bought: int | None
    returned: Card | None
    returned_to: int | None


def resolve_trick(players: int, bottles: tuple[Bottle, ...],
                  plays: tuple[tuple[int, Card], ...]) -> TrickOutcome:
    """Who wins a completed trick and what happens to the bottle(s) and the cards."""
    index = contested_bottle(bottles)
    price = bottles[index].price
    below = [(card.rank, seat, card) for seat, card in plays if card.rank < price]
    captured: list[list[Card]] = [[] for _ in range(players)]
    if not below:
        _, winner, winning_card = max((card.rank, seat, card) for seat, card in plays)
        captured[winner].extend(card for _, card in plays)
        return TrickOutcome(winner, winning_card, bottles, tuple(map(tuple, captured)), None, None, None)
    _, winner, winning_card = max(below)
    captured[winner].extend(card for _, card in plays if card != winning_card)
    old = bottles[index]
    returned_to = None
    if old.price_card is not None:
        assert old.owner is not None  # a price card under the bottle means it was bought
        captured[old.owner].append(old.price_card)
        returned_to = old.owner
    new_bottles = tuple(Bottle(winner, winning_card) if i == index else b
                        for i, b in enumerate(bottles))
    return TrickOutcome(winner, winning_card, new_bottles, tuple(map(tuple, captured)), index,
                        old.price_card, returned_to)


# --------------------------------------------------------------------------------------------
# A round as a state machine


@dataclass(frozen=True)
class RoundState:
    """A round after its setup: hands, Devil's Trick, captured piles, bottles, current trick.

    ``face_up`` holds the Devil's Eye face-up cards (empty tuple otherwise); ``hands`` the
    hidden hands there.
    """

    config: Config
    dealer: int
    hands: tuple[tuple[Card, ...], ...]
    face_up: tuple[tuple[Card, ...], ...]
    devils_trick: tuple[Card, ...]
    captured: tuple[tuple[Card, ...], ...]
    bottles: tuple[Bottle, ...]
    leader: int
    trick: tuple[tuple[int, Card], ...] = ()
    last_outcome: TrickOutcome | None = field(default=None, compare=False)

    @classmethod
    def start(cls, config: Config, dealer: int, setup: SetupResult) -> RoundState:
        p = config.players
        return cls(config=config, dealer=dealer, hands=setup.hands, face_up=setup.face_up,
                   devils_trick=setup.devils_trick, captured=tuple(() for _ in range(p)),
                   bottles=tuple(Bottle() for _ in range(config.bottles)),
                   leader=first_leader(config, dealer))

    @property
    def over(self) -> bool:
        """The round ends when all cards have been played."""
        return not self.trick and all(not h for h in self.hands) and \
            all(not f for f in self.face_up)

    @property
    def to_play(self) -> int:
        return seat_to_play(self.config, self.leader, len(self.trick))

    def legal(self) -> frozenset[Card]:
        """The cards the seat to play may play."""
        if self.over:
            return frozenset()
        seat = self.to_play
        led = tuple(card for _, card in self.trick)
        if self.config.devils_eye:
            return eye_legal_plays(self.face_up[seat], self.hands[seat], led)
        return legal_plays(self.hands[seat], led)

    def play(self, card: Card) -> RoundState:
        """The seat to play plays ``card``; a completed trick is resolved at once."""
        if card not in self.legal():
            raise ModelError(f"seat {self.to_play} may not play {card}")
        seat = self.to_play
        hands = tuple(tuple(c for c in h if c != card) for h in self.hands)
        face_up = tuple(tuple(c for c in f if c != card) for f in self.face_up)
        trick = (*self.trick, (seat, card))
        if len(trick) < trick_size(self.config):
            return replace(self, hands=hands, face_up=face_up, trick=trick, last_outcome=None)
        outcome = resolve_trick(self.config.players, self.bottles, trick)
        captured = tuple((*pile, *more) for pile, more in zip(self.captured, outcome.captured))
        return replace(self, hands=hands, face_up=face_up, trick=(), captured=captured,
                       bottles=outcome.bottles, leader=outcome.winner, last_outcome=outcome)


# --------------------------------------------------------------------------------------------
# Scoring and the end of the game


def coins(cards: tuple[Card, ...]) -> int:
    return sum(card.coins for card in cards)


def individual_scores(players: int, captured: tuple[tuple[Card, ...], ...],
                      bottles: tuple[Bottle, ...], devils_trick: tuple[Card, ...]) -> list[int]:
    """Each seat's own score: captured coins, or minus the Devil's Trick once per bottle owned."""
    penalty = coins(devils_trick)
    scores = []
    for seat in range(players):
        owned = sum(1 for bottle in bottles if bottle.owner == seat)
        scores.append(-penalty * owned if owned else coins(captured[seat]))
    return scores


def round_scores(config: Config, captured: tuple[tuple[Card, ...], ...],
                 bottles: tuple[Bottle, ...], devils_trick: tuple[Card, ...]) -> tuple[int, ...]:
    """Every seat's score for a finished round, teams combined as the help page says."""
    own = individual_scores(config.players, captured, bottles, devils_trick)
    if not config.teams:
        return tuple(own)
    penalty = coins(devils_trick)
    scores = [0] * config.players
    for team in config.teams:
        if len(team) == 1:
            scores[team[0]] = 2 * own[team[0]]
            continue
        owners = sum(1 for bottle in bottles if bottle.owner in team)
        result = -penalty * owners if owners else sum(coins(captured[s]) for s in team)
        for seat in team:
            scores[seat] = result
    return tuple(scores)


def game_over(config: Config, rounds_played: int, totals: tuple[int, ...]) -> bool:
    """After the agreed rounds, or after the round at whose end some total reaches the target."""
    if config.target is not None:
        return max(totals) >= config.target
    total = config.total_rounds
    assert total is not None
    return rounds_played >= total


def winners(totals: tuple[int, ...]) -> frozenset[int]:
    """Every seat with the highest total wins."""
    best = max(totals)
    return frozenset(seat for seat, total in enumerate(totals) if total == best)


@dataclass(frozen=True)
class RoundEnd:
    """What the end of a round decides: its scores, the new totals, the end, the winners."""

    scores: tuple[int, ...]
    totals: tuple[int, ...]
    game_over: bool
    winners: frozenset[int]


def end_round(state: RoundState, totals: tuple[int, ...], rounds_played: int) -> RoundEnd:
    """Score a finished round (``rounds_played`` counts it) and decide whether the game ends."""
    if not state.over:
        raise ModelError("the round is not over")
    config = state.config
    scores = round_scores(config, state.captured, state.bottles, state.devils_trick)
    new_totals = tuple(t + s for t, s in zip(totals, scores))
    over = game_over(config, rounds_played, new_totals)
    return RoundEnd(scores, new_totals, over, winners(new_totals) if over else frozenset())


def next_dealer(config: Config, dealer: int) -> int:
    """The deal moves one seat clockwise each round."""
    return (dealer + 1) % config.players


# --------------------------------------------------------------------------------------------
# The seeded deal

_TWO_TO_64 = 2**64


def splitmix64(state: int) -> tuple[int, int]:
    """Vigna's SplitMix64, every operation modulo 2^64: ``(next state, output)``."""
    state = (state + 0x9E3779B97F4A7C15) % _TWO_TO_64
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) % _TWO_TO_64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % _TWO_TO_64
    return state, z ^ (z >> 31)


def shuffled(deck: tuple[Card, ...], seed: int, round_index: int) -> list[Card]:
    """The deck, in ascending rank order, after the round's Fisher-Yates shuffle."""
    state = (seed % _TWO_TO_64) ^ ((round_index * 0xD1B54A32D192ED03) % _TWO_TO_64)
    order = sorted(deck, key=lambda card: card.rank)
    for i in range(len(order) - 1, 0, -1):
        accepted_below = _TWO_TO_64 - _TWO_TO_64 % (i + 1)
        state, draw = splitmix64(state)
        while draw >= accepted_below:
            state, draw = splitmix64(state)
        j = draw % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def seeded_deal(config: Config, seed: int, round_index: int, dealer: int) -> tuple[
        tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...]]:
    """Each seat's hidden hand and face-up cards (empty outside Devil's Eye), each sorted by
    rank: the shuffled deck dealt one card at a time clockwise from the dealer's left."""
    order = shuffled(config.deck, seed, round_index)
    hidden_count = len(order) * 2 // 3 if config.devils_eye else len(order)
    hidden: list[list[Card]] = [[] for _ in range(config.players)]
    face_up: list[list[Card]] = [[] for _ in range(config.players)]
    for k, card in enumerate(order[:hidden_count]):
        hidden[(dealer + 1 + k) % config.players].append(card)
    for k, card in enumerate(order[hidden_count:]):
        face_up[(dealer + 1 + k) % config.players].append(card)

    def by_rank(rows: list[list[Card]]) -> tuple[tuple[Card, ...], ...]:
        return tuple(tuple(sorted(row, key=lambda card: card.rank)) for row in rows)

    return by_rank(hidden), by_rank(face_up) if config.devils_eye else ()


# --------------------------------------------------------------------------------------------
# The decks of sources.md (as data, copied from its tables)

_CLASSIC = {
    "yellow": "1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
    "blue": "4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6",
    "red": "11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6",
}
_MATAGOT = {
    "red": "1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6",
    "blue": "3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6",
    "green": "11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6",
}
_MATAGOT_HALVES = ("2.5:red:1 4.5:red:2 6.5:blue:1 8.5:blue:2 10.5:blue:2 12.5:red:4 "
                   "14.5:green:1 16.5:green:2 18.5:red:5 20.5:blue:4 22.5:red:5 24.5:green:3 "
                   "26.5:green:3 28.5:red:6 30.5:blue:5 32.5:blue:6 34.5:green:5 36.5:green:6")


def _rank(text: str) -> Rank:
    return float(text) if "." in text else int(text)


def _deck(table: dict[str, str]) -> tuple[Card, ...]:
    cards = [Card(_rank(r), colour, int(c))
             for colour, row in table.items() for r, c in (pair.split(":") for pair in row.split())]
    return tuple(sorted(cards))


def classic_deck() -> tuple[Card, ...]:
    """The classic 36-card deck (sources.md; 126 coins)."""
    return _deck(_CLASSIC)


def matagot_deck(players: int) -> tuple[Card, ...]:
    """The Matagot 2024 deck: 36 cards for 2-4 players, 54 (with half ranks) for 5-6."""
    cards = list(_deck(_MATAGOT))
    if players >= 5:
        for item in _MATAGOT_HALVES.split():
            rank, colour, coin = item.split(":")
            cards.append(Card(_rank(rank), colour, int(coin)))
    return tuple(sorted(cards))

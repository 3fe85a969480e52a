"""Independent recomputations of the rules, for checking the engine.

Nothing here calls ``bottleimp.rules`` or the engine's own helpers: each function restates one
rule from the sources in the plainest way, so that the state machines and the example tests can
compare the engine's answers with a second implementation. Only the data types (cards, actions,
states) and the configuration's deck are shared.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from bottleimp import (
    START_PRICE,
    Action,
    Bottle,
    Card,
    Colour,
    Config,
    Destination,
    GameState,
    Give,
    Phase,
    Play,
    Rank,
    StartRound,
)

Hands = tuple[tuple[Card, ...], ...]


def is_devils_eye(config: Config) -> bool:
    """Two players play Devil's Eye (seed 000)."""
    return config.players == 2


def cards_per_trick(config: Config) -> int:
    """One card a player, but four (two each) in Devil's Eye."""
    return 4 if is_devils_eye(config) else config.players


def dealer_is_short(config: Config) -> bool:
    """With 54 cards and 5 players (or a custom deck like it) the dealer gets one card fewer."""
    return not is_devils_eye(config) and len(config.cards) % config.players != 0


def expected_setup_steps(config: Config, dealer: int, seat: int) -> tuple[Destination, ...]:
    """The destinations of a seat's setup cards, in order (sources.md, Setup)."""
    if is_devils_eye(config):
        return (
            Destination.DEVILS_TRICK,
            Destination.DEVILS_TRICK,
            Destination.OPPONENT_FACE_UP,
            Destination.OPPONENT_HIDDEN,
        )
    if seat == dealer and dealer_is_short(config):
        return (Destination.LEFT, Destination.RIGHT)
    return (Destination.DEVILS_TRICK, Destination.LEFT, Destination.RIGHT)


def expected_devils_trick_size(config: Config) -> int:
    """2 players 4; 3-6 players one a seat, but none from a short dealer (5 players: 4)."""
    if is_devils_eye(config):
        return 4
    return config.players - 1 if dealer_is_short(config) else config.players


def expected_dealt_counts(config: Config, dealer: int) -> tuple[tuple[int, int], ...]:
    """``(hidden, face_up)`` dealt to each seat: the deck is dealt evenly, the seats after the
    dealer first; in Devil's Eye two thirds are hidden and one third face up."""
    players, size = config.players, len(config.cards)
    if is_devils_eye(config):
        return ((size // 3, size // 6),) * 2
    counts = []
    for seat in range(players):
        extra = 1 if dealer_is_short(config) and seat != dealer else 0
        counts.append((size // players + extra, 0))
    return tuple(counts)


def seat_order_from(first: int, players: int) -> list[int]:
    """Every seat once, clockwise, starting at ``first``."""
    return [(first + offset) % players for offset in range(players)]


def expected_setup_actor(state: GameState) -> int | None:
    """Seats give their whole setup one after another, from the dealer's left."""
    round_ = state.round
    for seat in seat_order_from(round_.dealer + 1, state.config.players):
        if len(round_.setup[seat]) < len(expected_setup_steps(state.config, round_.dealer, seat)):
            return seat
    return None


def current_trick(state: GameState) -> tuple[Play, ...]:
    """The plays of the unfinished trick, found by counting the round's plays."""
    plays = state.round.plays
    return plays[len(plays) - len(plays) % cards_per_trick(state.config) :]


def expected_play_actor(state: GameState) -> int:
    """The trick's leader starts; then clockwise (Devil's Eye: A, B, A, B)."""
    trick = current_trick(state)
    if not trick:
        return state.round.leader
    return (trick[-1].seat + 1) % state.config.players


def playable(
    hand: Sequence[Card], face_up: Sequence[Card], led: Colour | None, devils_eye: bool
) -> set[Card]:
    """The cards a seat may play: it must follow the led colour if it can. In Devil's Eye the
    duty binds the face-up cards only (a face-up card off the led colour only when no face-up
    card has it) and any hidden card may be played."""
    if led is None:
        return set(hand) | set(face_up)
    if devils_eye:
        following_up = [card for card in face_up if card.colour is led]
        return set(hand) | set(following_up if following_up else face_up)
    following = [card for card in hand if card.colour is led]
    return set(following if following else hand)


def seat_cards(state: GameState, seat: int) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """A seat's hidden hand and face-up cards (empty outside Devil's Eye)."""
    round_ = state.round
    face_up = round_.face_up[seat] if round_.face_up is not None else ()
    return round_.hands[seat], face_up


def expected_legal_actions(state: GameState) -> set[Action]:
    """Every action the rules allow now, computed from the rules as the sources state them."""
    config, round_ = state.config, state.round
    if state.phase is Phase.GAME_OVER:
        return set()
    if state.phase is Phase.ROUND_OVER:
        return {StartRound((round_.dealer + 1) % config.players)}
    if state.phase is Phase.SETUP:
        seat = expected_setup_actor(state)
        assert seat is not None
        steps = expected_setup_steps(config, round_.dealer, seat)
        destination = steps[len(round_.setup[seat])]
        return {Give(seat, card, destination) for card in round_.hands[seat]}
    seat = expected_play_actor(state)
    trick = current_trick(state)
    led = trick[0].card.colour if trick else None
    hand, face_up = seat_cards(state, seat)
    return {Play(seat, card) for card in playable(hand, face_up, led, is_devils_eye(config))}


def expected_to_act(state: GameState) -> int | None:
    """Who acts: the next seat to give, to play, or the next dealer; nobody once it is over."""
    if state.phase is Phase.GAME_OVER:
        return None
    if state.phase is Phase.ROUND_OVER:
        return (state.round.dealer + 1) % state.config.players
    if state.phase is Phase.SETUP:
        return expected_setup_actor(state)
    return expected_play_actor(state)


def zones(state: GameState) -> list[tuple[str, Card]]:
    """Every card of the round with the zone it lies in (a card listed twice is a bug)."""
    round_ = state.round
    found: list[tuple[str, Card]] = []
    for seat, hand in enumerate(round_.hands):
        found += [(f"hand {seat}", card) for card in hand]
    for seat, cards in enumerate(round_.face_up or ()):
        found += [(f"face-up {seat}", card) for card in cards]
    if state.phase is Phase.SETUP:
        for seat, gives in enumerate(round_.setup):
            found += [(f"given by {seat}", give.card) for give in gives]
    found += [("devil's trick", card) for card in round_.devils_trick]
    found += [("current trick", play.card) for play in current_trick(state)]
    for seat, pile in enumerate(round_.captured):
        found += [(f"captured by {seat}", card) for card in pile]
    for index, bottle in enumerate(round_.bottles):
        if bottle.price_card is not None:
            found.append((f"under bottle {index}", bottle.price_card))
    return found


def zone_faults(state: GameState) -> list[str]:
    """Why the zones are not a partition of the deck (empty when they are)."""
    faults = []
    found = zones(state)
    deck = Counter(state.config.cards)
    held = Counter(card for _, card in found)
    for card, count in held.items():
        if card.rank == START_PRICE:
            faults.append(f"the start card 19 lies in {[z for z, c in found if c == card]}")
        if count > 1:
            faults.append(f"{card} lies in {[z for z, c in found if c == card]}")
        if card not in deck:
            faults.append(f"{card} is not a card of the deck")
    for card in deck:
        if card not in held:
            faults.append(f"{card} is in no zone")
    return faults


def resolve_trick(
    plays: Sequence[Play], bottles: Sequence[Bottle], captured: Hands
) -> tuple[int, Card, int | None, tuple[Bottle, ...], Hands]:
    """Judge a complete trick from scratch (seeds 000 and 001, the Second Bottle).

    The trick is judged against the highest price (the first bottle on a tie). The highest card
    below it wins and buys that bottle: the card goes under the bottle and the old price card (not
    the 19) goes to the bottle's former owner; else the highest card wins and the bottle stays.
    The winner takes the other cards. Returns the winner, the winning card, the bottle bought (or
    ``None``), the bottles and the captured piles afterwards.
    """
    prices = [START_PRICE if b.price_card is None else b.price_card.rank for b in bottles]
    price = max(prices)
    index = prices.index(price)
    below = [play for play in plays if play.card.rank < price]
    winning = max(below or plays, key=lambda play: play.card.rank)
    piles = [list(pile) for pile in captured]
    new_bottles = list(bottles)
    bought: int | None = None
    if below:
        bought = index
        old = bottles[index]
        if old.price_card is not None:
            assert old.owner is not None
            piles[old.owner].append(old.price_card)
        new_bottles[index] = Bottle(price_card=winning.card, owner=winning.seat)
        piles[winning.seat] += [play.card for play in plays if play is not winning]
    else:
        piles[winning.seat] += [play.card for play in plays]
    return (
        winning.seat,
        winning.card,
        bought,
        tuple(new_bottles),
        tuple(tuple(pile) for pile in piles),
    )


def coin_sum(cards: Iterable[Card]) -> int:
    """The coins on some cards."""
    return sum(card.coins for card in cards)


def recompute_round_scores(
    config: Config, captured: Hands, bottles: Sequence[Bottle], devils_trick: Sequence[Card]
) -> tuple[int, ...]:
    """A round's scores from its final zones (seed 000, Scoring and Team Mode).

    Individually: an owner of bottles scores minus the Devil's Trick once per bottle owned, every
    other seat the coins it captured. Teams: partners pool their captured coins, unless either owns
    the bottle, when both take the penalty; a player without a partner doubles the result.
    """
    penalty = coin_sum(devils_trick)
    owned = Counter(bottle.owner for bottle in bottles if bottle.owner is not None)
    singles = tuple((seat,) for seat in range(config.players))
    groups = config.teams if config.teams is not None else singles
    scores = [0] * config.players
    for group in groups:
        bottles_in_group = sum(owned[seat] for seat in group)
        if bottles_in_group:
            result = -penalty * bottles_in_group
        else:
            result = sum(coin_sum(captured[seat]) for seat in group)
        if config.teams is not None and len(group) == 1:
            result *= 2
        for seat in group:
            scores[seat] = result
    return tuple(scores)


def game_should_end(config: Config, totals_after_each_round: Sequence[Sequence[int]]) -> bool:
    """After a fixed number of rounds, or after the round in which a total reaches the target."""
    if not totals_after_each_round:
        return False
    if config.target_score is not None:
        return max(totals_after_each_round[-1]) >= config.target_score
    limit = config.rounds if config.rounds is not None else {2: 6, 3: 9, 4: 8, 5: 5, 6: 6}[
        config.players
    ]
    return len(totals_after_each_round) >= limit


def expected_winners(totals: Sequence[int]) -> tuple[int, ...]:
    """Every seat with the highest total wins."""
    best = max(totals)
    return tuple(seat for seat, total in enumerate(totals) if total == best)


def visible_cards(state: GameState, seat: int) -> set[Card]:
    """The cards a seat may know the place of: its hand, every face-up card, its own setup gives,
    every card played this round, every captured pile and price card, and the Devil's Trick
    once the round is over."""
    round_ = state.round
    allowed = set(round_.hands[seat])
    for cards in round_.face_up or ():
        allowed.update(cards)
    allowed.update(give.card for give in round_.setup[seat])
    allowed.update(play.card for play in round_.plays)
    for pile in round_.captured:
        allowed.update(pile)
    allowed.update(b.price_card for b in round_.bottles if b.price_card is not None)
    if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER):
        allowed.update(round_.devils_trick)
    return allowed


def price_of(bottle: Bottle) -> Rank:
    """A bottle's price, read from its price card (19 with none)."""
    return START_PRICE if bottle.price_card is None else bottle.price_card.rank


_MASK = (1 << 64) - 1


def _splitmix64(state: int) -> tuple[int, int]:
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def expected_shuffle(cards: Sequence[Card], seed: int, round_index: int) -> list[Card]:
    """The documented shuffle (rule DEAL-SHUFFLE), written again from its description:
    SplitMix64 from ``seed XOR (round_index * 0xD1B54A32D192ED03)`` (mod 2**64), Fisher-Yates
    from the last position down, each index drawn below ``i + 1`` by rejection."""
    state = (seed & _MASK) ^ ((round_index * 0xD1B54A32D192ED03) & _MASK)
    order = list(cards)
    for i in range(len(order) - 1, 0, -1):
        bound = i + 1
        limit = (1 << 64) - (1 << 64) % bound
        state, draw = _splitmix64(state)
        while draw >= limit:
            state, draw = _splitmix64(state)
        j = draw % bound
        order[i], order[j] = order[j], order[i]
    return order


def expected_deal(
    config: Config, seed: int, round_index: int, dealer: int
) -> tuple[list[list[Rank]], list[list[Rank]] | None]:
    """The ranks each seat is dealt (sorted): the shuffled deck one card at a time from the
    dealer's left; in Devil's Eye the first two thirds hidden, the rest face up."""
    order = expected_shuffle(config.cards, seed, round_index)
    players = config.players
    hidden_count = len(order) * 2 // 3 if is_devils_eye(config) else len(order)

    def deal_out(cards: Sequence[Card]) -> list[list[Rank]]:
        hands: list[list[Rank]] = [[] for _ in range(players)]
        for k, card in enumerate(cards):
            hands[(dealer + 1 + k) % players].append(card.rank)
        return [sorted(hand) for hand in hands]

    face_up = deal_out(order[hidden_count:]) if is_devils_eye(config) else None
    return deal_out(order[:hidden_count]), face_up


_GOLDEN = 0x9E3779B97F4A7C15


def _unshift_xor(value: int, shift: int) -> int:
    """The inverse of ``x ^ (x >> shift)`` on 64 bits."""
    result = value
    for _ in range(64 // shift + 1):
        result = value ^ (result >> shift)
    return result & _MASK


def splitmix64_seed_for_output(output: int) -> int:
    """The SplitMix64 state from which the next step outputs ``output``: every step of the mix is
    invertible (xor-shifts, and products by odd constants, which have inverses mod 2**64)."""
    z = _unshift_xor(output, 31)
    z = (z * pow(0x94D049BB133111EB, -1, 1 << 64)) & _MASK
    z = _unshift_xor(z, 27)
    z = (z * pow(0xBF58476D1CE4E5B9, -1, 1 << 64)) & _MASK
    z = _unshift_xor(z, 30)
    return (z - _GOLDEN) & _MASK


REJECTING_SEED = splitmix64_seed_for_output(_MASK)
"""A seed whose first shuffle draw of round 0 is 2**64 - 1, which the rejection rule discards for
every deck whose size does not divide 2**64 (every edition's deck: 36 and 54 cards)."""


def first_draw_rejected(size: int, seed: int) -> bool:
    """Whether the shuffle of a ``size``-card deck in round 0 discards its first draw."""
    _, draw = _splitmix64(seed & _MASK)
    return draw >= (1 << 64) - (1 << 64) % size

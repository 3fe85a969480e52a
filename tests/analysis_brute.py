"""A plain brute-force minimax over the public API, the solver's judge.

Written only from ``legal_actions``, ``apply`` and the round scores a state carries once its round
is over: the seat's side (its team in team mode, from ``Config.teams``) takes the best value,
every other seat the worst, every legal card of every position is tried, nothing is pruned.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Iterator

from bottleimp import Config, GameState, Phase, apply, legal_actions, new_game


Memo = dict[Hashable, int]
"""Values already found, by ``memo_key``."""


def memo_key(state: GameState, seat: int) -> Hashable:
    """What the rest of ``state``'s round (a position between two tricks) is played from, for
    ``seat``: the state with the record of its past left out (the plays of the finished tricks,
    their results, the order in which each seat captured its cards). ``apply`` reads the hands,
    the face-up rows, the bottles, the captured cards and the Devil's Trick; positions reached by
    different orders of the same tricks share one key. A card is named by its rank (unique in a
    configuration's deck). ``plain_value`` is the same minimax with no memo, and a test holds the
    two equal."""
    round_ = state.round
    return (state.config, state.to_act,
            tuple(tuple(card.rank for card in hand) for hand in round_.hands),
            None if round_.face_up is None else tuple(
                tuple(card.rank for card in row) for row in round_.face_up),
            tuple((None if bottle.price_card is None else bottle.price_card.rank, bottle.owner)
                  for bottle in round_.bottles),
            tuple(frozenset(card.rank for card in cards) for cards in round_.captured),
            tuple(card.rank for card in round_.devils_trick), seat)


def _side(state: GameState, seat: int) -> tuple[int, ...]:
    return next((team for team in state.config.teams or () if seat in team), (seat,))


def paranoid_value(state: GameState, seat: int, memo: Memo) -> int:
    """``seat``'s round score with its side maximising and everyone else minimising it."""
    if state.phase is not Phase.PLAY:
        scores = state.round.scores
        assert scores is not None
        return scores[seat]
    between_tricks = not state.current_trick()  # positions in a trick are reached one way only
    key = memo_key(state, seat) if between_tricks else None
    known = memo.get(key) if between_tricks else None
    if known is not None:
        return known
    values = [paranoid_value(apply(state, action), seat, memo) for action in legal_actions(state)]
    value = max(values) if state.to_act in _side(state, seat) else min(values)
    if between_tricks:
        memo[key] = value
    return value


def plain_value(state: GameState, seat: int) -> int:
    """``paranoid_value`` without a memo: every line of play to the end of the round."""
    if state.phase is not Phase.PLAY:
        scores = state.round.scores
        assert scores is not None
        return scores[seat]
    values = [plain_value(apply(state, action), seat) for action in legal_actions(state)]
    return max(values) if state.to_act in _side(state, seat) else min(values)


VARIANTS: dict[str, Config] = {
    "2p-devils-eye-classic": Config(players=2, rounds=1),
    "2p-devils-eye-matagot": Config(players=2, edition="matagot-2024", rounds=1),
    "3p-classic": Config(players=3, rounds=1),
    "3p-matagot": Config(players=3, edition="matagot-2024", rounds=1),
    "4p-classic": Config(players=4, rounds=1),
    "4p-matagot": Config(players=4, edition="matagot-2024", rounds=1),
    "4p-teams": Config(players=4, teams=((0, 2), (1, 3)), rounds=1),
    "5p": Config(players=5, rounds=1),
    "5p-second-bottle": Config(players=5, bottles=2, rounds=1),
    "5p-teams": Config(players=5, teams=((0, 3), (1, 4), (2,)), rounds=1),
    "6p": Config(players=6, rounds=1),
    "6p-second-bottle": Config(players=6, bottles=2, rounds=1),
    "6p-teams": Config(players=6, teams=((0, 3), (1, 4), (2, 5)), rounds=1),
}
"""Every variant: player counts 2-6, both editions' decks, teams, the Second Bottle, Devil's
Eye (two players)."""


def tricks_left(state: GameState) -> int:
    """Whole tricks still to be played after the trick in progress, plus that trick."""
    round_ = state.round
    cards = sum(len(hand) for hand in round_.hands) + sum(len(row) for row in round_.face_up or ())
    cards += len(state.current_trick())
    return -(-cards // state.config.trick_size)


def random_endgames(config: Config, count: int, seed: int, most_tricks: int = 4
                    ) -> Iterator[GameState]:
    """``count`` positions of trick play with at most ``most_tricks`` tricks left (the trick in
    progress counted), reached by random legal actions from seeded deals; some mid-trick."""
    rng = random.Random(seed)
    for index in range(count):
        state = new_game(config, seed=seed * 1_000_003 + index)
        tricks = rng.randint(1, most_tricks)
        extra = rng.randrange(config.trick_size)
        while state.phase is Phase.SETUP or tricks_left(state) > tricks:
            state = apply(state, rng.choice(legal_actions(state)))
        for _ in range(extra):
            if state.phase is not Phase.PLAY:
                break
            state = apply(state, rng.choice(legal_actions(state)))
        if state.phase is Phase.PLAY:
            yield state
        else:
            yield from random_endgames(config, 1, seed + index + 7919, most_tricks)

"""A plain brute-force minimax over the public API, the solver's judge.

Written only from ``legal_actions``, ``apply`` and the round scores a state carries once its round
is over: the seat's side (its team in team mode, from ``Config.teams``) takes the best value,
every other seat the worst, every legal card of every position is tried, nothing is pruned.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from bottleimp import Config, GameState, Phase, apply, legal_actions, new_game


def paranoid_value(state: GameState, seat: int, memo: dict[tuple[GameState, int], int]) -> int:
    """``seat``'s round score with its side maximising and everyone else minimising it."""
    if state.phase is not Phase.PLAY:
        scores = state.round.scores
        assert scores is not None
        return scores[seat]
    known = memo.get((state, seat))
    if known is not None:
        return known
    team = next((team for team in state.config.teams or () if seat in team), (seat,))
    values = [paranoid_value(apply(state, action), seat, memo) for action in legal_actions(state)]
    value = max(values) if state.to_act in team else min(values)
    memo[(state, seat)] = value
    return value


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

"""The engine's API: legal actions, legality checks, immutability, copies and deals."""

from __future__ import annotations

import copy
import pickle

from bottleimp import Card, Config, Give, Phase, apply, legal_actions, new_game


def test_legal_actions_of_a_deep_copied_or_unpickled_state_PHASE() -> None:
    """A copied state (deepcopy, pickle: new card objects) has the same legal actions."""
    state = new_game(Config(players=4), seed=1)
    for _ in range(14):  # through the setup and into trick play
        state = apply(state, legal_actions(state)[0])
    assert state.phase is Phase.PLAY
    for copied in (copy.deepcopy(state), pickle.loads(pickle.dumps(state))):
        assert copied == state
        assert legal_actions(copied) == legal_actions(state)
        assert apply(copied, legal_actions(copied)[0]) == apply(state, legal_actions(state)[0])


def test_cards_built_by_the_caller_are_the_same_cards_SETUP_RESOLVE() -> None:
    """Gives naming a card by an equal value (not the deck's own object) work like any other:
    the cards received are playable afterwards."""
    state = new_game(Config(players=3), seed=1)
    while state.phase is Phase.SETUP:
        chosen = legal_actions(state)[0]
        assert isinstance(chosen, Give)
        fresh = Card(chosen.card.rank, chosen.card.colour, chosen.card.coins)
        state = apply(state, Give(chosen.seat, fresh, chosen.to))
    assert state.phase is Phase.PLAY
    assert len(legal_actions(state)) == len(state.round.hands[1])

"""A round's position as ``set_position`` carries it (``bottleimp-protocol/3``): the library's
state of the round (``bottleimp-state/1``, its deal and every action) and its zones as they are
now, so that a peer can take the position whole without replaying the actions by its own rules.

The harness sends it to put a peer that disagreed back on the library's answer (a
resynchronisation); ``Referee`` checks that the zones are the ones the state reaches.

    >>> from bottleimp import Config, apply, legal_actions, new_game
    >>> state = new_game(Config(players=3), seed=1)
    >>> for _ in range(4):
    ...     state = apply(state, legal_actions(state)[0])
    >>> position = position_to_json(state)
    >>> position["phase"], position["to_act"], position["setup"][1]
    ('setup', 2, {'discard': [1], 'left': 2, 'right': 7})
    >>> sorted(set_position_request(state))
    ['op', 'position', 'state']
"""

from __future__ import annotations

from attrs import evolve

from ..formats.config_json import deck_to_json
from ..formats.json_input import JSON
from ..formats.setup_entries import entry_from_gives
from ..formats.state_json import state_to_json
from ..rules.setup import setup_steps
from ..state import GameState, Phase
from .vectors import bottles_to_json, ranks

__all__ = ["position_to_json", "set_position_request"]


def position_to_json(state: GameState) -> dict[str, JSON]:
    """The current round's zones: the phase (``setup``, ``play`` or ``over``), the dealer, the
    seat to act (``null`` once the round is over), every hidden hand and face-up row now, each
    seat's setup given so far (``null`` for a seat yet to give it; all given once the setup is
    over), the Devil's Trick, the bottles, the captured piles and the trick in progress as
    ``[seat, card]`` pairs."""
    round_ = state.round
    config = state.config
    phase = {Phase.SETUP: "setup", Phase.PLAY: "play"}.get(state.phase, "over")
    complete = [len(round_.setup[seat]) == len(setup_steps(config, round_.dealer, seat))
                for seat in range(config.players)]
    trick = round_.plays[len(round_.plays) - len(round_.plays) % config.trick_size:] \
        if phase == "play" else ()
    return {
        "phase": phase,
        "deck": deck_to_json(config.cards),
        "dealer": round_.dealer,
        "to_act": state.to_act if phase != "over" else None,
        "hands": [ranks(hand) for hand in round_.hands],
        "face_up": None if round_.face_up is None else [ranks(row) for row in round_.face_up],
        "setup": [entry_from_gives(round_.setup[seat]) if complete[seat] else None
                  for seat in range(config.players)],
        "devils_trick": ranks(round_.devils_trick),
        "bottles": bottles_to_json(round_.bottles),
        "captured": [ranks(pile) for pile in round_.captured],
        "trick": [[play.seat, play.card.rank] for play in trick],
    }


def set_position_request(state: GameState) -> dict[str, JSON]:
    """The ``set_position`` request that puts a peer into ``state``'s current round."""
    alone = evolve(state, past_rounds=()) if state.past_rounds else state
    return {"op": "set_position", "state": state_to_json(alone), "position": position_to_json(alone)}

"""The engine's API: legal actions, legality checks, immutability, copies and deals."""

from __future__ import annotations

import ast
import copy
import pickle
import re
from pathlib import Path

import pytest

from bottleimp import (
    ArgumentError,
    Card,
    Config,
    Destination,
    GameState,
    Give,
    IllegalActionError,
    Phase,
    Play,
    apply,
    check_action,
    is_legal,
    legal_actions,
    new_game,
)
from bottleimp.rules._registry import RULE_FUNCTIONS


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


def test_legal_actions_are_sorted_and_each_is_legal() -> None:
    state = new_game(Config(players=5, edition="matagot-2024"), seed=3)
    while not state.is_over:
        legal = legal_actions(state)
        ranks = [a.card.rank for a in legal if isinstance(a, (Give, Play))]
        assert ranks == sorted(ranks) and len(set(legal)) == len(legal)
        assert all(is_legal(state, action) for action in legal)
        state = apply(state, legal[len(legal) // 3])
    assert legal_actions(state) == () and state.to_act is None


def test_apply_leaves_the_state_it_was_given_unchanged() -> None:
    state = new_game(Config(players=3), seed=9)
    snapshot = copy.deepcopy(state)
    for action in legal_actions(state):
        apply(state, action)
    assert state == snapshot
    with pytest.raises(IllegalActionError):
        apply(state, Play(1, state.round.hands[1][0]))
    assert state == snapshot


def test_check_action_raises_what_apply_raises() -> None:
    state = new_game(Config(players=3), seed=9)
    action = Give(2, state.round.hands[2][0], Destination.DEVILS_TRICK)
    with pytest.raises(IllegalActionError) as from_check:
        check_action(state, action)
    with pytest.raises(IllegalActionError) as from_apply:
        apply(state, action)
    assert from_check.value.rule_id == from_apply.value.rule_id == "SETUP-ORDER"
    assert not is_legal(state, action)


@pytest.mark.parametrize("seed", [True, "7", 7.0])
def test_the_seed_is_an_int(seed: object) -> None:
    with pytest.raises(ArgumentError, match=r"new_game\(seed\)"):
        new_game(Config(), seed)  # type: ignore[arg-type]


def test_a_game_is_determined_by_config_and_seed() -> None:
    def playout(seed: int) -> GameState:
        state = new_game(Config(players=2, rounds=2), seed)
        while not state.is_over:
            legal = legal_actions(state)
            state = apply(state, legal[len(legal) // 2])
        return state

    assert playout(11) == playout(11)
    assert playout(11) != playout(12)


def _rule_ids_in(suffix: str, known: list[str]) -> list[str] | None:
    """Split an upper-case test name suffix into known rule IDs (longest first), or ``None``."""
    if not suffix:
        return []
    for rule_id in known:
        token = rule_id.replace("-", "_")
        if suffix == token or suffix.startswith(token + "_"):
            rest = _rule_ids_in(suffix[len(token) + 1 :], known)
            if rest is not None:
                return [rule_id, *rest]
    return None


def test_every_rule_id_has_a_named_example_test() -> None:
    """Each rule ID in the code has a test whose name ends with it (hyphens as underscores):
    ``test_trick_winner_highest_card_below_price_TRICK_WINNER`` names ``TRICK-WINNER``; a
    name may end with several IDs. An upper-case suffix that is not made of rule IDs fails."""
    assert RULE_FUNCTIONS, "no rule functions registered"
    known = sorted(RULE_FUNCTIONS, key=len, reverse=True)
    named: set[str] = set()
    unknown = []
    for path in sorted(Path(__file__).parent.glob("test_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                suffix = re.search(r"_([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)$", node.name)
                if suffix is None:
                    continue
                ids = _rule_ids_in(suffix.group(1), known)
                if ids is None:
                    unknown.append(f"{path.name}::{node.name}")
                else:
                    named.update(ids)
    missing = sorted(set(RULE_FUNCTIONS) - named)
    assert not missing, f"rule IDs without a named test: {missing}"
    assert not unknown, f"tests named after rule IDs that the code does not have: {unknown}"


def test_a_phase_shows_as_the_expression_that_names_it() -> None:
    for phase in Phase:
        assert repr(phase) == f"Phase.{phase.name}"
        assert eval(repr(phase), {"Phase": Phase}) is phase

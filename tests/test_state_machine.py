"""Random legal games over every variant, checked against independent recomputations.

One Hypothesis state machine plays whole games by choosing among ``legal_actions``; a subclass
per family of configurations (Devil's Eye, 3-4 players, 5-6 players, the Second Bottle, teams,
custom decks) draws its configuration in ``@initialize``, so every family is played on every run.
After every action the machine checks the transition (follow suit, trick judgement, setup
resolution, scoring, dealer rotation) and the whole state (zones, bottles, hand sizes, legal
actions, totals, game end, codec round trip, views); it also tries illegal actions and checks
that each is refused with the right rule ID and leaves the state unchanged.

Example counts scale with the Hypothesis profile (``tests/conftest.py``): a quarter of its
``max_examples`` per family (``dev`` 5, ``ci`` 50), at most 40 steps each; under ``ci`` failures
are not shrunk (see ``_machine_settings``).
"""

from __future__ import annotations

import os
import random
from collections import Counter
from typing import ClassVar

import attrs
import pytest
from hypothesis import Phase as HypothesisPhase
from hypothesis import event as hypothesis_event
from hypothesis import settings
from hypothesis.control import _current_build_context
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, rule

from bottleimp import (
    MATAGOT_2024_54,
    START_PRICE,
    Action,
    Card,
    Config,
    Destination,
    GameState,
    Give,
    IllegalActionError,
    Phase,
    Play,
    StartRound,
    apply,
    check_action,
    default_teams,
    is_legal,
    legal_actions,
    new_game,
    winners,
)
from bottleimp.formats._state_json import state_dumps as dumps, state_loads as loads
from bottleimp._engine import with_deal
from bottleimp._view import view
from invariants import (
    cards_per_trick,
    current_trick,
    expected_deal,
    expected_dealt_counts,
    expected_devils_trick_size,
    expected_legal_actions,
    expected_play_actor,
    expected_setup_actor,
    expected_setup_steps,
    expected_to_act,
    REJECTING_SEED,
    expected_winners,
    first_draw_rejected,
    game_should_end,
    is_devils_eye,
    playable,
    price_of,
    recompute_round_scores,
    resolve_trick,
    seat_cards,
    visible_cards,
    zone_faults,
)

EDITIONS = st.sampled_from(["classic", "matagot-2024"])


def event(value: str) -> None:
    """Note a Hypothesis event, when inside a Hypothesis test (the checks below also serve the
    exhaustive checker, ``scripts/exhaustive.py``, outside any)."""
    if _current_build_context.value is not None:
        hypothesis_event(value)



GameEnd = tuple[int | None, int | None]


def game_ends(deck_coins: int, players: int) -> st.SearchStrategy[GameEnd]:
    """``(rounds, target_score)``: a number of rounds or a target score.

    Games are kept to a few rounds so that the codec round trip after every action stays cheap
    (the default round counts have example tests): the target is at most about two rounds' worth
    of one seat's share of the coins."""
    return st.one_of(
        st.tuples(st.integers(1, 3), st.none()),
        st.tuples(st.none(), st.integers(1, max(1, 2 * deck_coins // players))),
    )


def custom_game_ends(deck_coins: int, players: int) -> st.SearchStrategy[GameEnd]:
    """``game_ends``, or neither (the default round count for the player count, rule GAME-END):
    a small custom deck's rounds are short enough to play the default count to the end."""
    return st.one_of(st.just((None, None)), game_ends(deck_coins, players))


def edition_game_ends(players: int) -> st.SearchStrategy[GameEnd]:
    """``game_ends`` for an edition's deck (about 126 coins, 190 with 54 cards)."""
    return game_ends(190 if players >= 5 else 126, players)


@st.composite
def devils_eye_configs(draw: st.DrawFn) -> Config:
    """Two players, either edition (Devil's Eye)."""
    rounds, target = draw(edition_game_ends(2))
    return Config(players=2, edition=draw(EDITIONS), rounds=rounds, target_score=target)


@st.composite
def three_four_configs(draw: st.DrawFn) -> Config:
    """Three or four players, either edition."""
    players = draw(st.sampled_from([3, 4]))
    rounds, target = draw(edition_game_ends(players))
    return Config(players=players, edition=draw(EDITIONS), rounds=rounds, target_score=target)


@st.composite
def five_six_configs(draw: st.DrawFn) -> Config:
    """Five or six players with the 54-card deck, one bottle."""
    players = draw(st.sampled_from([5, 6]))
    rounds, target = draw(edition_game_ends(players))
    return Config(players=players, edition="matagot-2024", rounds=rounds, target_score=target)


@st.composite
def second_bottle_configs(draw: st.DrawFn) -> Config:
    """Five or six players with two bottles."""
    players = draw(st.sampled_from([5, 6]))
    rounds, target = draw(edition_game_ends(players))
    return Config(
        players=players, edition="matagot-2024", bottles=2, rounds=rounds, target_score=target
    )


@st.composite
def partitions(draw: st.DrawFn, players: int) -> tuple[tuple[int, ...], ...]:
    """Any partition of the seats into pairs and singles with at least one pair."""
    seats = draw(st.permutations(range(players)))
    pairs = draw(st.integers(1, players // 2))
    return tuple(tuple(seats[2 * i : 2 * i + 2]) for i in range(pairs)) + tuple(
        (seat,) for seat in seats[2 * pairs :]
    )


@st.composite
def team_configs(draw: st.DrawFn) -> Config:
    """Four to six players in teams: the default partition or any other."""
    players = draw(st.sampled_from([4, 5, 6]))
    teams = draw(st.one_of(st.just(default_teams(players)), partitions(players)))
    edition = "matagot-2024" if players > 4 else draw(EDITIONS)
    rounds, target = draw(edition_game_ends(players))
    return Config(players=players, edition=edition, teams=teams, rounds=rounds, target_score=target)


def custom_deck_sizes(players: int, largest: int = 30) -> list[int]:
    """Deck sizes the deal can split: 2 players a multiple of 12; else every seat the same
    count (at least 3), or every seat but the dealer one more (the dealer at least 2)."""
    if players == 2:
        return [12, 24]
    return [
        size
        for size in range(players * 2, largest + 1)
        if (size % players == 0 and size // players >= 3)
        or (size % players == players - 1 and size // players >= 2)
    ]


@st.composite
def custom_deck_configs(draw: st.DrawFn) -> Config:
    """A small custom deck drawn from the 54 cards, any player count; two bottles or teams
    sometimes where the player count allows them."""
    players = draw(st.integers(2, 6))
    size = draw(st.sampled_from(custom_deck_sizes(players)))
    deck = draw(st.permutations(MATAGOT_2024_54))[:size]
    bottles = draw(st.sampled_from([1, 2])) if players >= 5 else 1
    teams = None
    if players >= 4 and bottles == 1 and draw(st.booleans()):
        teams = draw(partitions(players))
    rounds, target = draw(custom_game_ends(sum(card.coins for card in deck), players))
    return Config(
        players=players, bottles=bottles, teams=teams, deck=deck, rounds=rounds, target_score=target
    )


def cards_in(value: object) -> list[Card]:
    """Every card inside a value (attrs classes and collections), the configuration aside, in
    no particular order. (Walked with a list of what is left to open rather than by recursive
    generators: every step checks every view, and nested generators made this the state
    machines' costliest line.)"""
    found: list[Card] = []
    to_open = [value]
    while to_open:
        item = to_open.pop()
        if isinstance(item, Card):
            found.append(item)
        elif isinstance(item, (tuple, list, set, frozenset)):
            to_open.extend(item)
        elif not isinstance(item, Config):
            cls = type(item)
            if attrs.has(cls):
                to_open.extend(getattr(item, field.name) for field in attrs.fields(cls))
    return found


def sorted_ranks(cards: object) -> list[float]:
    """The ranks of the cards inside a value, sorted: compares zones as multisets."""
    return sorted(card.rank for card in cards_in(cards))


@st.composite
def deals(
    draw: st.DrawFn, config: Config, dealer: int
) -> tuple[tuple[tuple[Card, ...], ...], tuple[tuple[Card, ...], ...] | None]:
    """Any deal with the right counts (hands, and face-up cards in Devil's Eye), as a record
    from another implementation would give it to ``with_deal``."""
    order = draw(st.permutations(config.cards))
    counts = expected_dealt_counts(config, dealer)
    hands, face_up, start = [], [], 0
    for hidden, up in counts:
        hands.append(tuple(order[start : start + hidden]))
        face_up.append(tuple(order[start + hidden : start + hidden + up]))
        start += hidden + up
    return tuple(hands), (tuple(face_up) if is_devils_eye(config) else None)


def rebuilt(action: Action) -> Action:
    """An equal action built afresh, card included: the engine must not depend on receiving
    the very objects ``legal_actions`` returned."""
    if isinstance(action, StartRound):
        return StartRound(action.seat)
    fresh = Card(action.card.rank, action.card.colour, action.card.coins)
    if isinstance(action, Give):
        return Give(action.seat, fresh, action.to)
    return Play(action.seat, fresh)


class GameMachine(RuleBasedStateMachine):
    """Plays one random legal game and checks every step; subclasses choose the configurations."""

    configs: ClassVar[st.SearchStrategy[Config]] = three_four_configs()

    def __init__(self) -> None:
        super().__init__()
        self.state: GameState = new_game(Config(), 0)

    # -- rules ------------------------------------------------------------------------------

    @initialize(
        data=st.data(),
        seed=st.one_of(st.integers(0, 2**64 - 1), st.just(REJECTING_SEED)),
    )
    def start(self, data: st.DataObject, seed: int) -> None:
        config = data.draw(self.configs, label="config")
        state = new_game(config, seed)
        assert state.round.dealer == 0, "FIRST-DEALER: seat 0 deals the first round"
        assert state.round.index == 0 and state.past_rounds == () and state.totals == (0,) * config.players
        if first_draw_rejected(len(config.cards), seed):
            event("the shuffle discarded a draw (DEAL-SHUFFLE rejection)")
        if data.draw(st.booleans(), label="replace the deal"):
            state = with_deal(state, *data.draw(deals(config, state.round.dealer), label="deal"))
        else:
            check_seeded_deal(state)
        self.state = state
        self.check_state()

    # ``act`` and ``act_many`` stay enabled once the game is over (and then only confirm that
    # nothing is legal): a precondition there makes Hypothesis discard those runs as invalid.

    @rule(data=st.data())
    def act(self, data: st.DataObject) -> None:
        """Take one legal action, chosen by Hypothesis."""
        legal = legal_actions(self.state)
        if self.state.is_over:
            assert legal == ()
            return
        action = data.draw(st.sampled_from(legal), label="action")
        if data.draw(st.booleans(), label="rebuilt"):
            action = rebuilt(action)
        self.step(action)

    @rule(data=st.data())
    def deal_next_round(self, data: st.DataObject) -> None:
        """Between rounds, start the next one with a deal given from outside (``with_deal``,
        as a replayed record does) instead of ``StartRound``."""
        before = self.state
        if before.phase is not Phase.ROUND_OVER:
            return
        dealer = (before.round.dealer + 1) % before.config.players
        hands, face_up = data.draw(deals(before.config, dealer), label="deal")
        after = with_deal(before, hands, face_up)
        check_start_round(before, after, seeded=False)
        assert [sorted(c.rank for c in h) for h in hands] == [
            [c.rank for c in h] for h in after.round.dealt
        ]
        self.state = after
        self.check_state()
        event("next round dealt by with_deal")

    @rule(seed=st.integers(0, 2**32), count=st.integers(1, 80))
    def act_many(self, seed: int, count: int) -> None:
        """Take up to ``count`` legal actions chosen by a seeded generator (whole rounds in few
        Hypothesis steps), stopping at the end of a round; every action is checked as in
        ``act``."""
        chooser = random.Random(seed)
        for _ in range(count):
            legal = legal_actions(self.state)
            if self.state.is_over:
                assert legal == ()
                return
            action = chooser.choice(legal)
            self.step(rebuilt(action) if chooser.random() < 0.25 else action)
            if self.state.phase is Phase.ROUND_OVER:
                return

    def teardown(self) -> None:
        event(f"ended in phase {self.state.phase.name}")

    # -- checks ------------------------------------------------------------------------------

    def step(self, action: Action) -> None:
        before = self.state
        after = apply(before, action)
        check_transition(before, action, after)
        self.state = after
        self.check_state()
        check_actions_of_other_states(before, after)

    def check_state(self) -> None:
        state = self.state
        check_zones_and_bottles(state)
        check_hand_sizes(state)
        check_legal_actions(state)
        check_totals_and_game_end(state)
        copy = check_round_trip(state)
        check_views(state)
        check_refusals(state, copy)


# -- transition checks ------------------------------------------------------------------------


def check_transition(before: GameState, action: Action, after: GameState) -> None:
    """What one action changed, against the rules restated in ``invariants``."""
    assert action in expected_legal_actions(before)
    if isinstance(action, Give):
        check_give(before, action, after)
    elif isinstance(action, Play):
        check_play(before, action, after)
    else:
        check_start_round(before, after)
    if after.round.index == before.round.index and before.phase is not Phase.SETUP:
        assert after.round.devils_trick == before.round.devils_trick, "the Devil's Trick moved"
    if after.round.index == before.round.index:
        for old, new in zip(before.round.bottles, after.round.bottles):
            assert price_of(new) <= price_of(old), "a bottle's price rose within a round"


def check_give(before: GameState, action: Give, after: GameState) -> None:
    config, seat = before.config, action.seat
    assert seat == expected_setup_actor(before)
    steps = expected_setup_steps(config, before.round.dealer, seat)
    assert action.to is steps[len(before.round.setup[seat])]
    assert action.card in before.round.hands[seat]
    assert after.round.setup[seat] == before.round.setup[seat] + (action,)
    hands = [list(hand) for hand in before.round.hands]
    hands[seat].remove(action.card)
    if after.phase is Phase.SETUP:
        # Nobody receives anything before every seat has chosen (seed 002).
        assert [sorted_ranks(h) for h in after.round.hands] == [sorted_ranks(h) for h in hands]
        assert after.round.face_up == before.round.face_up
        assert after.round.devils_trick == ()
        return
    assert after.phase is Phase.PLAY
    assert after.to_act == (before.round.dealer + 1) % config.players, "FIRST-LEADER"
    face_up = [list(row) for row in before.round.face_up or ()]
    trick: list[Card] = []
    players = config.players
    for gives in after.round.setup:
        for give in gives:
            if give.to is Destination.DEVILS_TRICK:
                trick.append(give.card)
            elif give.to is Destination.LEFT:
                hands[(give.seat + 1) % players].append(give.card)
            elif give.to is Destination.RIGHT:
                hands[(give.seat + players - 1) % players].append(give.card)
            elif give.to is Destination.OPPONENT_HIDDEN:
                hands[1 - give.seat].append(give.card)
            else:
                face_up[1 - give.seat].append(give.card)
    assert [sorted_ranks(h) for h in after.round.hands] == [sorted_ranks(h) for h in hands]
    assert [sorted_ranks(r) for r in after.round.face_up or ()] == [
        sorted_ranks(r) for r in face_up
    ]
    assert sorted_ranks(after.round.devils_trick) == sorted_ranks(trick)
    assert len(trick) == expected_devils_trick_size(config)


def check_play(before: GameState, action: Play, after: GameState) -> None:
    config, seat, played = before.config, action.seat, action.card
    assert seat == expected_play_actor(before), "TURN-ORDER"
    hand, face_up = seat_cards(before, seat)
    trick = current_trick(before)
    if trick:
        led = trick[0].card.colour
        if is_devils_eye(config):
            if played in face_up and any(c.colour is led for c in face_up):
                assert played.colour is led, "EYE-FOLLOW-SUIT: a face-up card revoked"
        elif any(c.colour is led for c in hand):
            assert played.colour is led, "FOLLOW-SUIT: a revoke was accepted"
    after_hand, after_face_up = seat_cards(after, seat)
    if played in hand:
        assert Counter(after_hand) == Counter(hand) - Counter([played])
        assert after_face_up == face_up
    else:
        assert Counter(after_face_up) == Counter(face_up) - Counter([played])
        assert after_hand == hand
    assert after.round.plays == before.round.plays + (action,)
    full = trick + (action,)
    if len(full) < cards_per_trick(config):
        assert after.round.bottles == before.round.bottles
        assert after.round.captured == before.round.captured
        assert after.round.tricks == before.round.tricks
        assert after.to_act == (seat + 1) % config.players
        return
    winner, winning, bought, bottles, captured = resolve_trick(
        full, before.round.bottles, before.round.captured
    )
    result = after.round.tricks[-1]
    assert len(after.round.tricks) == len(before.round.tricks) + 1
    assert (result.winner, result.winning_card, result.bottle) == (winner, winning, bought)
    assert result.price_before == max(price_of(b) for b in before.round.bottles)
    assert result.price_after == (winning.rank if bought is not None else result.price_before), (
        "a trick's price after is the winning card's rank when it buys, else the price before"
    )
    assert result.plays == full
    assert after.round.bottles == bottles, "TRICK-WINNER/BOTTLE-PURCHASE/TRICK-PRICE"
    assert [sorted_ranks(p) for p in after.round.captured] == [sorted_ranks(p) for p in captured]
    assert after.round.leader == winner, "NEXT-LEADER"
    if bought is not None:
        event(f"bottle {bought} bought")
    if after.round.scores is None:
        assert after.phase is Phase.PLAY and after.to_act == winner
        return
    # The round is over: every card has been played, and it is scored from its final zones.
    assert all(not h for h in after.round.hands) and not any(after.round.face_up or ())
    expected = recompute_round_scores(
        config, after.round.captured, after.round.bottles, after.round.devils_trick
    )
    assert after.round.scores == expected, "SCORE-ROUND"
    assert after.totals == tuple(t + s for t, s in zip(before.totals, expected)), "GAME-TOTALS"
    assert after.phase in (Phase.ROUND_OVER, Phase.GAME_OVER)
    if any(b.owner is not None and sum(o.owner == b.owner for o in after.round.bottles) == 2
           for b in after.round.bottles):
        event("one seat owns both bottles")


def check_start_round(before: GameState, after: GameState, seeded: bool = True) -> None:
    config = before.config
    assert before.phase is Phase.ROUND_OVER
    assert after.phase is Phase.SETUP
    assert after.round.index == before.round.index + 1
    assert after.round.dealer == (before.round.dealer + 1) % config.players, "DEALER-ROTATION"
    assert after.past_rounds == before.past_rounds + (before.round,)
    assert after.totals == before.totals
    assert all(b.price_card is None and b.owner is None for b in after.round.bottles)
    assert not any(after.round.captured) and not after.round.plays and not after.round.tricks
    assert after.round.scores is None and after.round.devils_trick == ()
    assert after.round.leader == (after.round.dealer + 1) % config.players, "FIRST-LEADER"
    if seeded:
        check_seeded_deal(after)


def check_seeded_deal(state: GameState) -> None:
    """The round is dealt from the seed and its index as rules DEAL-SHUFFLE and DEAL say."""
    round_ = state.round
    hands, face_up = expected_deal(state.config, state.seed, round_.index, round_.dealer)
    assert [[c.rank for c in hand] for hand in round_.dealt] == hands, "DEAL-SHUFFLE/DEAL"
    dealt_up = round_.dealt_face_up
    assert (None if dealt_up is None else [[c.rank for c in r] for r in dealt_up]) == face_up


# -- state checks ----------------------------------------------------------------------------


def check_zones_and_bottles(state: GameState) -> None:
    config, round_ = state.config, state.round
    faults = zone_faults(state)
    assert not faults, faults
    assert len(round_.bottles) == config.bottles
    for bottle in round_.bottles:
        assert (bottle.owner is None) == (bottle.price_card is None), bottle
        if bottle.owner is not None:
            assert 0 <= bottle.owner < config.players
            assert price_of(bottle) < START_PRICE
    if state.phase is Phase.SETUP:
        assert round_.devils_trick == ()
    else:
        assert len(round_.devils_trick) == expected_devils_trick_size(config)
        discarded = [g.card for gives in round_.setup for g in gives
                     if g.to is Destination.DEVILS_TRICK]
        assert Counter(round_.devils_trick) == Counter(discarded)


def check_hand_sizes(state: GameState) -> None:
    config, round_ = state.config, state.round
    dealt = expected_dealt_counts(config, round_.dealer)
    if state.phase is Phase.SETUP:
        for seat, (hidden, up) in enumerate(dealt):
            assert len(round_.hands[seat]) == hidden - len(round_.setup[seat])
            assert len(round_.face_up[seat] if round_.face_up is not None else ()) == up
        return
    if is_devils_eye(config):
        start = dealt[0][0] - 4 + 1 + dealt[0][1] + 1
        if not round_.plays:
            assert round_.face_up is not None
            for seat in range(2):
                assert len(round_.hands[seat]) == dealt[0][0] - 3, "Devil's Eye hidden count"
                assert len(round_.face_up[seat]) == dealt[0][1] + 1, "Devil's Eye face-up count"
    else:
        starts = {
            hidden - len(expected_setup_steps(config, round_.dealer, seat)) + 2
            for seat, (hidden, _) in enumerate(dealt)
        }
        assert len(starts) == 1, "seats start trick play with different numbers of cards"
        start = starts.pop()
    played = Counter(play.seat for play in round_.plays)
    for seat in range(config.players):
        hand, face_up = seat_cards(state, seat)
        assert len(hand) + len(face_up) == start - played[seat]
    if state.phase is Phase.PLAY and not current_trick(state):
        sizes = {len(h) + len(u) for h, u in (seat_cards(state, s) for s in range(config.players))}
        assert len(sizes) == 1, "seats hold different numbers of cards at the start of a trick"


def check_legal_actions(state: GameState) -> None:
    legal = legal_actions(state)
    over = state.phase is Phase.GAME_OVER
    assert (not legal) == (state.to_act is None) == over
    assert state.to_act == expected_to_act(state)
    assert len(set(legal)) == len(legal)
    assert set(legal) == expected_legal_actions(state)
    ranks = [a.card.rank for a in legal if isinstance(a, (Give, Play))]
    assert ranks == sorted(ranks), "legal_actions is not sorted"
    for action in legal:
        assert is_legal(state, action), action
        assert isinstance(apply(state, action), GameState)


def check_totals_and_game_end(state: GameState) -> None:
    config = state.config
    finished = [r for r in state.rounds if r.scores is not None]
    assert all(r.scores is not None for r in state.past_rounds)
    running: list[tuple[int, ...]] = []
    totals = (0,) * config.players
    for round_ in finished:
        assert round_.scores is not None
        totals = tuple(t + s for t, s in zip(totals, round_.scores))
        running.append(totals)
    assert state.totals == totals, "GAME-TOTALS"
    for index in range(len(running) - 1):
        assert not game_should_end(config, running[: index + 1]), "the game went on too long"
    if state.phase is Phase.GAME_OVER:
        assert game_should_end(config, running), "GAME-END: ended early"
        assert winners(state.totals) == expected_winners(state.totals), "WINNERS"
    elif state.phase is Phase.ROUND_OVER:
        assert not game_should_end(config, running), "GAME-END: should have ended"


def check_round_trip(state: GameState) -> GameState:
    """The JSON round trip gives an equal state with an equal hash; returns that copy."""
    loaded = loads(dumps(state))
    assert loaded == state, "codec round trip changed the state"
    assert hash(loaded) == hash(state)
    assert legal_actions(loaded) == legal_actions(state)
    return loaded


def check_views(state: GameState) -> None:
    for seat in range(state.config.players):
        seen = view(state, seat)
        allowed = visible_cards(state, seat)
        shown = seen.cards()
        assert shown <= allowed, f"seat {seat} sees {sorted_ranks(shown - allowed)}"
        assert set(state.round.hands[seat]) <= shown
        leaked = set(cards_in(seen)) - allowed
        assert not leaked, f"seat {seat}'s view holds {sorted_ranks(leaked)}"


# -- illegal actions -------------------------------------------------------------------------


def refused_by_apply(state: GameState, action: Action) -> bool:
    """Whether ``apply`` refuses ``action`` in ``state``."""
    try:
        apply(state, action)
    except IllegalActionError:
        return True
    return False


def check_actions_of_other_states(first: GameState, second: GameState) -> None:
    """Actions are shared objects, and ``apply`` trusts the last answer of ``legal_actions`` for
    the same state: after ``legal_actions`` of both states, in either order, each state still
    refuses every action legal only in the other."""
    legal_first, legal_second = legal_actions(first), legal_actions(second)
    pairs = [(second, a) for a in legal_first if a not in legal_second]
    pairs += [(first, a) for a in legal_second if a not in legal_first]
    for state, action in pairs:
        for asked in ((first, second), (second, first), (first,), (second,)):
            for other in asked:
                legal_actions(other)
            assert refused_by_apply(state, action), f"apply accepted {action} of another state"
        event("an action of another state refused")


def check_refusals(state: GameState, copy: GameState) -> None:
    """Every kind of illegal action that exists now is refused with its rule ID, and the state
    is left equal to ``copy``, an equal state built separately before the attempts."""
    attempts = illegal_attempts(state)
    assert attempts, f"no illegal action found to try in phase {state.phase}"
    for action, rule_id in attempts:
        with pytest.raises(IllegalActionError) as refused:
            apply(state, action)
        assert refused.value.rule_id == rule_id, (action, refused.value)
        with pytest.raises(IllegalActionError):
            check_action(state, action)
        assert not is_legal(state, action), action
        event(f"refused {rule_id}")
    assert state == copy and hash(state) == hash(copy)


def illegal_attempts(state: GameState) -> list[tuple[Action, str]]:
    """Illegal actions that exist in this state, each with the rule ID that forbids it."""
    config, round_ = state.config, state.round
    deck = config.cards
    any_card = deck[0]
    if state.phase is Phase.GAME_OVER:
        return [
            (StartRound(0), "GAME-OVER"),
            (Play(0, any_card), "GAME-OVER"),
            (Give(0, any_card, Destination.DEVILS_TRICK), "GAME-OVER"),
        ]
    seat = state.to_act
    assert seat is not None
    others = [s for s in range(config.players) if s != seat]
    attempts: list[tuple[Action, str]] = []
    if state.phase is Phase.ROUND_OVER:
        attempts += [(StartRound(s), "DEALER-ROTATION") for s in others]
        attempts.append((Play(seat, any_card), "PHASE"))
        attempts.append((Give(seat, any_card, Destination.LEFT), "PHASE"))
        return attempts
    hand, face_up = seat_cards(state, seat)
    held = hand + face_up
    not_held = [c for c in deck if c not in held]
    if state.phase is Phase.SETUP:
        steps = expected_setup_steps(config, round_.dealer, seat)
        destination = steps[len(round_.setup[seat])]
        if not_held:
            attempts.append((Give(seat, not_held[0], destination), "SETUP-FROM-DEALT"))
        wrong = [d for d in Destination if d is not destination]
        attempts.append((Give(seat, hand[0], wrong[0]), "SETUP-STEPS"))
        for other in others:
            other_steps = expected_setup_steps(config, round_.dealer, other)
            done = len(round_.setup[other])
            if done == len(other_steps):
                # A second setup from a seat that has finished its own.
                attempts.append((Give(other, deck[-1], other_steps[0]), "SETUP-STEPS"))
            elif round_.hands[other]:
                attempts.append(
                    (Give(other, round_.hands[other][0], other_steps[done]), "SETUP-ORDER")
                )
        attempts.append((Play(seat, hand[0]), "PHASE"))
        attempts.append((StartRound(seat), "PHASE"))
        return attempts
    if not_held:
        attempts.append((Play(seat, not_held[-1]), "CARD-HELD"))
    trick = current_trick(state)
    led = trick[0].card.colour if trick else None
    revokes = set(held) - playable(hand, face_up, led, is_devils_eye(config))
    if revokes:
        rule_id = "EYE-FOLLOW-SUIT" if is_devils_eye(config) else "FOLLOW-SUIT"
        attempts.append((Play(seat, min(revokes, key=lambda c: c.rank)), rule_id))
        event(f"revoke tried ({rule_id})")
    for other in others:
        other_hand, other_up = seat_cards(state, other)
        if other_hand or other_up:
            attempts.append((Play(other, (other_hand + other_up)[0]), "TURN-ORDER"))
    attempts.append((Give(seat, held[0], Destination.DEVILS_TRICK), "PHASE"))
    attempts.append((StartRound(seat), "PHASE"))
    return attempts


# -- one machine per family of configurations --------------------------------------------------


def _machine_settings() -> settings:
    """A quarter of the profile's examples per family. Under ``ci`` a failure is reported
    without shrinking: shrinking a long game can take minutes per family, and the printed
    blob (``print_blob``) reproduces it locally, where it shrinks."""
    profile = settings.default
    assert profile is not None
    examples = max(1, profile.max_examples // 4)
    phases = profile.phases
    if os.environ.get("HYPOTHESIS_PROFILE", "dev") == "ci":
        phases = tuple(phase for phase in phases if phase is not HypothesisPhase.shrink)
    return settings(max_examples=examples, stateful_step_count=40, phases=phases)


class DevilsEyeGames(GameMachine):
    """Two players, both editions."""

    configs = devils_eye_configs()


class ThreeFourPlayerGames(GameMachine):
    """Three and four players, both editions."""

    configs = three_four_configs()


class FiveSixPlayerGames(GameMachine):
    """Five and six players, 54 cards, one bottle."""

    configs = five_six_configs()


class SecondBottleGames(GameMachine):
    """Five and six players with two bottles."""

    configs = second_bottle_configs()


class TeamGames(GameMachine):
    """Team mode, default and other partitions."""

    configs = team_configs()


class CustomDeckGames(GameMachine):
    """Small custom decks, any player count."""

    configs = custom_deck_configs()


TestDevilsEyeGames = DevilsEyeGames.TestCase
TestThreeFourPlayerGames = ThreeFourPlayerGames.TestCase
TestFiveSixPlayerGames = FiveSixPlayerGames.TestCase
TestSecondBottleGames = SecondBottleGames.TestCase
TestTeamGames = TeamGames.TestCase
TestCustomDeckGames = CustomDeckGames.TestCase
for _case in (
    TestDevilsEyeGames,
    TestThreeFourPlayerGames,
    TestFiveSixPlayerGames,
    TestSecondBottleGames,
    TestTeamGames,
    TestCustomDeckGames,
):
    _case.settings = _machine_settings()
del _case

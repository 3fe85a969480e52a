"""One bug never hides another: a game goes on after a disagreement (the peer put back on the
library's round with ``set_position``, else the library put on the peer's, following its
answers), what the rules decide is asked of the peer (the next dealer, the game's end), deck faults are told apart (colours, coins, a mere renaming), a peer
that answers the same requests differently is reported, and position questions compare each
rule family whatever happened in the games. The peer is the reference peer limited as a real
engine is (3-4 players, classic deck, one bottle, no teams) with bugs planted."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from bottleimp.cli._conformance import deck_lines
from bottleimp.conformance._harness import run_harness
from bottleimp.conformance._session import Lost, follow_peer
from bottleimp.formats._cases import ranks
from bottleimp.formats._json_input import JSON
from bottleimp._state import GameState, Phase
from bottleimp.conformance._session import ANSWERS, LIBRARY, PEER, SET_POSITION
from bottleimp.conformance._protocol import set_position_request
from bottleimp.conformance._protocol import PROTOCOL, Referee
from bottleimp._config import Config
from bottleimp._engine import apply, legal_actions, new_game
from depth import MIN_SENT, scaled

ROOT = Path(__file__).resolve().parent.parent
LIMITED = [sys.executable, str(ROOT / "examples" / "reference_peer" / "peer.py"),
           "--players", "3,4", "--editions", "classic", "--bottles", "1", "--no-teams"]
FOUR_BUGS = ["--bug", "pass-reversed", "--bug", "swap-colours", "--bug", "wrong-coins",
             "--bug", "random-dealer"]


def _keys(report: object) -> set[tuple[str, str]]:
    return {(group.op, group.rule) for group in getattr(report, "groups")}


def test_four_bugs_in_a_limited_peer_give_four_groups_each_with_its_root_rule() -> None:
    report = run_harness(LIMITED + FOUR_BUGS, examples=scaled(ci=25, dev=10), seed=0,
                         shrink_seconds=scaled(ci=1, dev=0), questions=0, min_refusals=MIN_SENT)
    assert _keys(report) == {("setup", "SETUP-RESOLVE"), ("colours", "DECK"),
                             ("coins", "DECK"), ("end_round", "DEALER-ROTATION")}
    by_op = {group.op: group for group in report.groups}
    colours, coins = by_op["colours"].deck, by_op["coins"].deck
    assert colours is not None and coins is not None
    assert {card.rank for card in colours.cards} == {3, 4}
    assert deck_lines(coins) == ("card 9 scores as 5 coins, the deck gives 3",
                                 "card 33 scores as 2 coins, the deck gives 5")
    # Every game met the pass bug first, and still met the others after it.
    assert set(by_op["setup"].games) >= set(by_op["coins"].games) | set(by_op["end_round"].games)
    assert report.disagreements > report.failed


def test_answers_that_describe_no_position_are_still_judged_NEXT_LEADER_DEALER_ROTATION() -> None:
    # The C# engine's three bugs: its passes duplicate a card and lose another, so no position
    # can be followed after the setup; seat 0 leads every trick; the dealer never rotates. With
    # no set_position, each later answer is judged by the rule that needs no whole position.
    bugs = ["--bug", "pass-back", "--bug", "seat-zero-leads-every-trick",
            "--bug", "dealer-never-rotates", "--no-set-position"]
    peer = [sys.executable, str(ROOT / "examples" / "reference_peer" / "peer.py")] + bugs
    report = run_harness(peer, examples=scaled(ci=40, dev=20), seed=1,
                         shrink_seconds=scaled(ci=1, dev=0), questions=0, min_refusals=1)
    assert _keys(report) == {("setup", "SETUP-RESOLVE"), ("play", "NEXT-LEADER"),
                             ("end_round", "DEALER-ROTATION")}
    on_answers = {group.rule for group in report.groups
                  if ANSWERS in dict(group.trajectories)}
    assert on_answers == {"NEXT-LEADER", "DEALER-ROTATION"}


def test_a_peer_without_those_bugs_is_judged_on_its_answers_with_no_false_fault() -> None:
    # The pass bug alone: every answer after it is judged on its own, and none is faulted.
    peer = [sys.executable, str(ROOT / "examples" / "reference_peer" / "peer.py"),
            "--bug", "pass-back", "--no-set-position"]
    report = run_harness(peer, examples=scaled(ci=30, dev=12), seed=2, shrink_seconds=0,
                         questions=0, min_refusals=1)
    assert _keys(report) == {("setup", "SETUP-RESOLVE")}
    assert any("judged on their own" in what for _, what in report.uncompared)


def test_without_set_position_or_a_declared_deck_four_bugs_give_four_groups_on_the_peer_trajectory(
) -> None:
    # The pass bug is met at every last setup: the library then takes the peer's hands and goes
    # on along the peer's own answers, so its colours, coins and dealer are still compared.
    report = run_harness(LIMITED + ["--no-set-position"] + FOUR_BUGS,
                         examples=scaled(ci=25, dev=12), seed=0,
                         shrink_seconds=scaled(ci=1, dev=0), questions=0, min_refusals=MIN_SENT)
    assert _keys(report) == {("setup", "SETUP-RESOLVE"), ("colours", "DECK"),
                             ("coins", "DECK"), ("end_round", "DEALER-ROTATION")}
    by_op = {group.op: group for group in report.groups}
    coins = by_op["coins"].deck
    assert coins is not None and deck_lines(coins) == (
        "card 9 scores as 5 coins, the deck gives 3", "card 33 scores as 2 coins, the deck gives 5")
    first = by_op["setup"].failure
    assert first is not None and first.trajectory == LIBRARY and first.followed_from is None
    for op in ("colours", "coins", "end_round"):
        failure = by_op[op].failure
        assert failure is not None and failure.trajectory == PEER
        assert failure.followed_from is not None and failure.followed_from < len(failure.exchanges)
    for op in ("colours", "coins"):
        assert dict(by_op[op].trajectories) == {PEER: by_op[op].count}
    ways = dict(report.resynchronised)
    assert ways.get("peer", 0) >= len(by_op["setup"].games) and SET_POSITION not in ways
    assert report.conventions == ()
    # Where the two sides allow disjoint cards, no play follows both: said, not hidden.
    assert all("no play follows both" in what or "refuses" in what or "game" in what
               for _, what in report.uncompared)


def test_a_peer_with_set_position_is_put_back_on_the_library_trajectory_and_says_so() -> None:
    report = run_harness(LIMITED + ["--bug", "pass-reversed", "--bug", "wrong-coins"],
                         examples=8, seed=0, shrink_seconds=0, questions=0,
                         min_refusals=MIN_SENT)
    by_op = {group.op: group for group in report.groups}
    assert set(by_op) == {"setup", "coins"}
    coins = by_op["coins"].failure
    assert coins is not None and coins.trajectory == SET_POSITION
    assert dict(report.resynchronised).get(SET_POSITION, 0) >= 1
    assert "peer" not in dict(report.resynchronised)


def test_the_c_sharp_shape_gets_its_three_bugs_without_set_position() -> None:
    # Passes to the wrong seat, seat 0 leading every trick, a dealer that never moves.
    report = run_harness(LIMITED + ["--no-set-position", "--bug", "dealer-never-rotates", "--bug",
                                    "pass-reversed", "--bug", "seat-zero-leads-every-trick"],
                         examples=10, seed=0, shrink_seconds=0, questions=0,
                         min_refusals=MIN_SENT)
    assert _keys(report) == {("setup", "SETUP-RESOLVE"), ("play", "NEXT-LEADER"),
                             ("end_round", "DEALER-ROTATION")}


def test_set_position_puts_the_referee_into_the_library_round_and_checks_the_zones() -> None:
    state = new_game(Config(players=4), seed=3, first_dealer=2)
    for _ in range(20):
        state = apply(state, legal_actions(state)[0])
    referee = Referee()
    assert referee.handle({"op": "hello", "protocol": PROTOCOL})["ok"] is True
    # A position is a round of the game a new_round starts.
    assert referee.handle({"op": "new_round", "config": {"players": 4}, "dealer": 2,
                           "hands": [[card.rank for card in hand]
                                     for hand in state.round.dealt]})["ok"] is True
    request = set_position_request(state)
    assert referee.handle(request) == {"ok": True, "to_act": state.to_act}
    assert referee.state == state
    position = request["position"]
    assert isinstance(position, dict)
    position["to_act"] = 0 if state.to_act else 1
    assert referee.handle(request)["rule"] == "PROTOCOL"


def test_a_peer_that_answers_the_same_requests_differently_is_reported_not_shrunk() -> None:
    report = run_harness(LIMITED + ["--bug", "flaky-scores"], examples=scaled(ci=12, dev=6),
                         seed=3, shrink_seconds=1, questions=0, min_refusals=MIN_SENT)
    assert report.nondeterministic and not report.ok
    finding = report.nondeterministic[0]
    assert finding.request == {"op": "scores"} and finding.first != finding.again
    group = next(g for g in report.groups if g.number == finding.group)
    assert group.not_shrunk is not None and "not deterministic" in group.not_shrunk


def test_a_declared_deck_with_renamed_colours_is_a_note_and_its_faults_two_groups() -> None:
    report = run_harness(LIMITED + ["--declare-deck", "--bug", "renamed-colours"],
                         examples=5, seed=0, shrink_seconds=0.01, questions=0,
                         min_refusals=MIN_SENT)
    assert report.groups == () and len(report.notes) == 1 and report.ok
    assert "yellow is its blue" in report.notes[0]
    faults = run_harness(LIMITED + ["--declare-deck", "--bug", "renamed-colours", "--bug",
                                    "swap-colours", "--bug", "wrong-coins"],
                         examples=5, seed=0, shrink_seconds=0.01, questions=0,
                         min_refusals=MIN_SENT)
    assert _keys(faults) == {("colours", "DECK"), ("coins", "DECK")} and faults.notes
    by_op = {group.op: group.deck for group in faults.groups}
    colours, coins = by_op["colours"], by_op["coins"]
    assert colours is not None and coins is not None
    assert [(c.rank, c.library_colour, c.peer_colour) for c in colours.cards] == [
        (3, "yellow", "blue"), (4, "blue", "yellow")]
    assert [(c.rank, c.library_coins, c.peer_coins) for c in coins.cards] == [(9, 3, 5), (33, 5, 2)]


def test_position_questions_compare_each_rule_family_whatever_the_games_met() -> None:
    rounds = scaled(ci=30, dev=15)  # rounds' worth of questions: one of each kind a round
    report = run_harness(LIMITED + FOUR_BUGS, examples=2, seed=0, shrink_seconds=0.01,
                         questions=rounds, min_refusals=1)
    rows = {row.kind: row for row in report.questions}
    assert rows["setup"].failed == rows["setup"].asked == rounds
    assert dict(rows["setup"].rules) == {"SETUP-RESOLVE": rounds}
    assert rows["trick"].failed == 0 and rows["trick"].asked > 0
    # The colour and coin faults of the deck explain the legal plays and the scores: DECK.
    assert dict(rows["legal_plays"].rules) == {"DECK": rows["legal_plays"].failed} != {"DECK": 0}
    assert dict(rows["scoring"].rules) == {"DECK": rows["scoring"].failed} != {"DECK": 0}
    faithful = run_harness(LIMITED, examples=2, seed=0, questions=rounds, min_refusals=1)
    assert faithful.ok and all(row.failed == 0 for row in faithful.questions)


# --- the library put into the peer's position ---------------------------------------------------


def _after_setup(seed: int) -> GameState:
    state = new_game(Config(players=3), seed=seed)
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[0])
    return state


def test_the_library_takes_the_peer_hands_after_the_setup_SETUP_RESOLVE() -> None:
    after = _after_setup(5)
    hands = after.round.hands
    theirs: list[JSON] = [ranks(hands[1]), ranks(hands[2]), ranks(hands[0])]
    answer: dict[str, JSON] = {"ok": True, "to_act": 0, "hands": theirs, "face_up": None,
                               "devils_trick": ranks(after.round.devils_trick)}
    followed = follow_peer(after, after, {"op": "setup"}, answer)
    assert isinstance(followed, GameState)
    assert followed.round.hands == (hands[1], hands[2], hands[0])
    assert followed.to_act == followed.round.leader == 0
    # A card duplicated and one lost: no position of the rules; the message names both.
    first, second = ranks(hands[1]), ranks(hands[2])
    duplicated: list[JSON] = [first[:-1] + [second[0]], second, ranks(hands[0])]
    lost = follow_peer(after, after, {"op": "setup"}, {**answer, "hands": duplicated})
    assert isinstance(lost, Lost)
    assert f"hold {second[0]} more often" in lost.reason
    assert f"lack {first[-1]}" in lost.reason


def test_the_library_takes_the_peer_trick_result_and_its_captured_piles_follow() -> None:
    state = _after_setup(6)
    while len(state.round.plays) < 2:
        state = apply(state, legal_actions(state)[0])
    before = state
    after = apply(state, legal_actions(state)[0])
    plays = after.round.tricks[-1].plays
    other = next(play for play in plays if play.seat != after.round.tricks[-1].winner)
    result: dict[str, JSON] = {"winner": other.seat, "card": other.card.rank, "bottle": None,
                               "bottles": [{"price": b.price, "owner": b.owner}
                                           for b in before.round.bottles]}
    request: dict[str, JSON] = {"op": "play"}
    followed = follow_peer(before, after, request,
                           {"ok": True, "to_act": other.seat, "trick": result})
    assert isinstance(followed, GameState)
    assert set(followed.round.captured[other.seat]) == {play.card for play in plays}
    assert followed.round.bottles == before.round.bottles
    assert followed.to_act == followed.round.leader == other.seat
    # A winner that did not play its winning card fixes no position.
    wrong = {**result, "winner": (other.seat + 1) % 3}
    assert isinstance(follow_peer(before, after, request,
                                  {"ok": True, "to_act": 0, "trick": wrong}), Lost)


def test_a_peer_with_its_own_card_zones_takes_the_library_position_and_agrees() -> None:
    # The price card in the buyer's pile: set_position's zones, sent in the middle of trick
    # play after each half-rank price, are moved there by the peer, and every later score
    # agrees (the price bug is the only group).
    peer = LIMITED[:2] + ["--players", "5,6", "--editions", "matagot-2024", "--shape",
                          "own-zones", "--bug", "half-rank-int"]
    report = run_harness(peer, examples=10, seed=2, shrink_seconds=0, questions=0,
                         min_refusals=MIN_SENT)
    assert {rule for _, rule in _keys(report)} == {"TRICK-PRICE"}
    assert dict(report.resynchronised).get(SET_POSITION, 0) >= 10


def test_random_words_in_the_messages_are_no_nondeterminism() -> None:
    report = run_harness(LIMITED + ["--no-set-position", "--shape", "random-words", "--bug",
                                    "devils-trick-assign"],
                         examples=6, seed=0, shrink_seconds=scaled(ci=2, dev=1), questions=0,
                         min_refusals=MIN_SENT)
    assert _keys(report) == {("scores", "SCORE-BOTTLE-PENALTY")}
    assert report.nondeterministic == ()


def test_a_one_round_no_dealer_two_stage_peer_with_no_bug_passes_every_game() -> None:
    peer = [sys.executable, str(ROOT / "examples" / "reference_peer" / "peer.py"),
            "--shape", "one-round", "--shape", "no-dealer", "--shape", "two-stage",
            "--no-set-position"]
    report = run_harness(peer, examples=scaled(ci=40, dev=15), seed=4, shrink_seconds=0,
                         questions=scaled(ci=20, dev=5), min_refusals=MIN_SENT)
    assert report.failed == 0 and report.unsupported == 0 and report.groups == ()
    assert report.passed > 0 and report.conventions == ()
    assert report.capabilities.one_round and not report.capabilities.dealer
    assert [line.split(":")[0] for line in report.not_asked] == [
        "set_position", "dealer", "one round only"]
    players = next(row for row in report.coverage if row.kind == "config-players")
    assert players.sent >= MIN_SENT and players.agreed == players.sent


def test_a_one_round_peer_is_sent_only_one_round_games() -> None:
    from games import game_scripts
    from bottleimp.conformance._protocol import Capabilities
    from hypothesis import given, settings

    @settings(max_examples=30, database=None)
    @given(game_scripts(Capabilities().variants(), ("rounds",), one_round=True))
    def check(script: object) -> None:
        assert getattr(script, "most_rounds") == 1

    check()


def test_set_position_finds_a_refusal_bug_that_following_the_peer_cannot_TURN_ORDER() -> None:
    # Why set_position stays: after a pass bug no position can be followed, so the illegal
    # requests of trick play (built on the library's position) are never sent; put back on the
    # library's position, the peer is sent them and its missing TURN-ORDER check shows.
    bugs = ["--bug", "pass-back", "--bug", "any-seat-plays"]
    with_position = run_harness(LIMITED + bugs, examples=20, seed=5, shrink_seconds=0,
                                questions=0, min_refusals=MIN_SENT)
    following = run_harness(LIMITED + bugs + ["--no-set-position"], examples=20, seed=5,
                            shrink_seconds=0, questions=0, min_refusals=MIN_SENT)
    assert ("play", "TURN-ORDER") in _keys(with_position)
    assert _keys(following) == {("setup", "SETUP-RESOLVE")}
    assert any(line.startswith("set_position") for line in following.not_asked)


@pytest.mark.parametrize("bug, kind", [("swap-colours", "colours"), ("wrong-coins", "coins")])
def test_a_deck_fault_behind_answers_judged_alone_is_a_DECK_group_not_a_rule(bug: str,
                                                                             kind: str) -> None:
    # After a duplicating pass bug the peer's answers are judged on their own; a colour or coin
    # fault of its undeclared deck then shows there, and the deck inference still names it.
    report = run_harness(LIMITED + ["--no-set-position", "--bug", "pass-back", "--bug", bug],
                         examples=scaled(ci=30, dev=15), seed=0, shrink_seconds=0,
                         questions=scaled(ci=20, dev=10), min_refusals=1)
    assert _keys(report) == {("setup", "SETUP-RESOLVE"), (kind, "DECK")}

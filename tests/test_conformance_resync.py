"""One bug never hides another: a game goes on after a disagreement (resynchronised with
``set_position``, else at the next round), what the rules decide is asked of the peer (the next
dealer, the game's end), deck faults are told apart (colours, coins, a mere renaming), a peer
that answers the same requests differently is reported, and position questions compare each
rule family whatever happened in the games. The peer is the reference peer limited as a real
engine is (3-4 players, classic deck, one bottle, no teams) with bugs planted."""

from __future__ import annotations

import sys
from pathlib import Path

from bottleimp.conformance.differential import run_harness
from bottleimp.conformance.position import set_position_request
from bottleimp.conformance.protocol import PROTOCOL, Referee
from bottleimp.config import Config
from bottleimp.engine import apply, legal_actions, new_game
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
    assert coins.lines == ("card 9 scores as 5 coins, the deck gives 3",
                           "card 33 scores as 2 coins, the deck gives 5")
    # Every game met the pass bug first, and still met the others after it.
    assert set(by_op["setup"].games) >= set(by_op["coins"].games) | set(by_op["end_round"].games)
    assert report.disagreements > report.failed


def test_without_set_position_the_peer_rejoins_at_the_next_round() -> None:
    # The random dealer hides nothing else here: the peer finishes every round, is asked who
    # deals next, and after a wrong answer is told the dealer of the next round.
    report = run_harness(LIMITED + ["--no-set-position", "--bug", "random-dealer"],
                         examples=8, seed=1, shrink_seconds=scaled(ci=1, dev=0), questions=0,
                         min_refusals=MIN_SENT)
    assert _keys(report) == {("end_round", "DEALER-ROTATION")}
    # A game of two rounds after a pass bug: the second round is still played and compared.
    passes = run_harness(LIMITED + ["--no-set-position", "--bug", "pass-reversed"],
                         examples=8, seed=1, shrink_seconds=0.01, questions=0,
                         min_refusals=MIN_SENT)
    group = next(iter(passes.groups))
    assert (group.op, group.rule) == ("setup", "SETUP-RESOLVE")
    assert group.count > len(group.games)  # two rounds' setups in some games


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


def test_a_version_1_peer_that_lacks_a_variant_gets_no_config_group() -> None:
    report = run_harness(LIMITED + ["--protocol", "1"], examples=scaled(ci=20, dev=8), seed=0,
                         shrink_seconds=0.01, min_refusals=MIN_SENT)
    assert report.groups == () and report.unsupported > 0 and report.failed == 0


def test_position_questions_compare_each_rule_family_whatever_the_games_met() -> None:
    rounds = scaled(ci=30, dev=15)  # rounds' worth of questions: one of each kind a round
    report = run_harness(LIMITED + FOUR_BUGS, examples=2, seed=0, shrink_seconds=0.01,
                         questions=rounds, min_refusals=1)
    rows = {row.kind: row for row in report.questions}
    assert rows["setup"].failed == rows["setup"].asked == rounds
    assert dict(rows["setup"].rules) == {"SETUP-RESOLVE": rounds}
    assert rows["trick"].failed == 0 and rows["trick"].asked > 0
    assert set(dict(rows["legal_plays"].rules)) <= {"FOLLOW-SUIT"} and rows["legal_plays"].failed
    assert set(dict(rows["scoring"].rules)) <= {"SCORE-CAPTURED", "SCORE-BOTTLE-PENALTY"}
    faithful = run_harness(LIMITED, examples=2, seed=0, questions=rounds, min_refusals=1)
    assert faithful.ok and all(row.failed == 0 for row in faithful.questions)

"""Protocol 2 and the harness on a peer with several bugs: capabilities, one group per bug with
its rule, a minimal difference per disagreement, deck data faults (declared or inferred), every
kind of illegal request sent and counted, vectors through the protocol, the command's options."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from bottleimp.cli import main
from bottleimp.cli._conformance import deck_lines
from bottleimp.conformance._protocol import Capabilities, capabilities_from_json
from bottleimp.conformance._harness import HarnessReport, run_harness
from bottleimp.conformance._protocol import PROTOCOL, Referee
from bottleimp.conformance._session import REFUSALS
from bottleimp.conformance._cases import run_remote_vectors
from bottleimp._errors import RecordError
from bottleimp._cards import rank_key
from bottleimp._config import Config
from bottleimp._state import GameState
from bottleimp.formats._json_input import JSON
from bottleimp.validation import validate_file
from depth import MIN_SENT, scaled

ROOT = Path(__file__).resolve().parent.parent
PEER = [sys.executable, str(ROOT / "examples" / "reference_peer" / "peer.py")]
SUITE = ROOT / "spec" / "conformance"
# ``--shrink-seconds`` of the command-line tests: 2 in CI; in dev 0.01, under the 0.05 s a group
# needs to be shrunk at all, as these tests check what is found, not how small it gets.
SHRINK_2 = f"{scaled(ci=2000, dev=10) / 1000:g}"


def _bugs(*bugs: str) -> list[str]:
    return PEER + [part for bug in bugs for part in ("--bug", bug)]


def _rules(report: HarnessReport) -> list[str]:
    return sorted(group.rule for group in report.groups)


# --- every bug in one run --------------------------------------------------------------------


def test_four_independent_bugs_give_four_groups_each_with_its_rule(tmp_path: Path) -> None:
    report = run_harness(_bugs("pass-reversed", "swap-colours", "random-dealer",
                               "devils-trick-assign"),
                         examples=scaled(ci=30, dev=10), seed=0,
                         shrink_seconds=scaled(ci=2, dev=0), out_dir=tmp_path, questions=0,
                         min_refusals=MIN_SENT)
    assert _rules(report) == ["DEALER-ROTATION", "DECK", "SCORE-BOTTLE-PENALTY", "SETUP-RESOLVE"]
    by_rule = {group.rule: group for group in report.groups}
    assert by_rule["DEALER-ROTATION"].op == "end_round"
    assert by_rule["SETUP-RESOLVE"].op == "setup"
    assert by_rule["SCORE-BOTTLE-PENALTY"].op == "scores"
    assert by_rule["DECK"].op == "colours"
    deck = by_rule["DECK"].deck
    assert deck is not None and deck.source == "inferred" and deck.kind == "colours"
    assert {card.rank for card in deck.cards} <= {3, 4, 4.5}
    # Games go on after a disagreement: a game can be in several groups.
    assert sum(len(group.games) for group in report.groups) > report.failed
    for group in report.groups:
        assert group.written is not None and validate_file(group.written).valid
        note = json.loads(dict(read_extensions(group.written))["_harness"])
        assert note["group"] == group.number and note["rule"] in (group.rule, "EYE-FOLLOW-SUIT",
                                                                  "FOLLOW-SUIT")


def read_extensions(path: Path) -> tuple[tuple[str, str], ...]:
    from bottleimp.formats._records import read_record_file

    return read_record_file(path).extensions


@pytest.mark.parametrize(("bug", "rule", "editions"), [
    ("pass-reversed", "SETUP-RESOLVE", None),
    ("random-dealer", "DEALER-ROTATION", None),
    ("half-rank-int", "TRICK-PRICE", None),
    ("swap-colours", "DECK", None),
    # In the 54-card deck the bug also gives 9.5 and 33.5 the wrong coins: inferring four cards'
    # coins needs more games than this test plays.
    ("wrong-coins", "DECK", ["classic"]),
])
def test_one_planted_bug_is_one_group_with_its_rule(bug: str, rule: str,
                                                    editions: list[str] | None) -> None:
    report = run_harness(_bugs(bug), examples=scaled(ci=40, dev=10), seed=3,
                         shrink_seconds=scaled(ci=2, dev=0), editions=editions,
                         min_refusals=MIN_SENT)
    assert _rules(report) == [rule]


def test_the_faithful_peer_gives_no_group_and_agrees_on_every_refusal() -> None:
    report = run_harness(PEER, examples=scaled(ci=60, dev=15), seed=11, shrink_seconds=1)
    assert report.groups == () and report.failed == 0 and report.unsupported == 0
    assert report.protocol == PROTOCOL
    for row in report.coverage:
        assert row.agreed == row.sent
        wanted = 1 if row.kind == "before-round" else 3
        assert row.sent >= wanted, row.kind
        kind = next(k for k in REFUSALS if k.name == row.kind)
        assert set(row.rules) <= set(kind.rules), row


# --- a minimal difference for every disagreement ---------------------------------------------


def test_a_setup_disagreement_says_which_cards_went_where_SETUP_RESOLVE() -> None:
    failure = run_harness(_bugs("pass-reversed"), examples=scaled(ci=20, dev=5), seed=1,
                          shrink_seconds=scaled(ci=1, dev=0), min_refusals=MIN_SENT).failure
    assert failure is not None and failure.disagreement is not None
    assert failure.rule == "SETUP-RESOLVE"
    cards = failure.disagreement.detail["cards"]
    assert isinstance(cards, list) and cards
    first = cards[0]
    assert isinstance(first, dict)
    assert {"card", "library", "peer", "given_by", "given_to"} <= set(first)
    assert "gives it left" in failure.message or "gives it right" in failure.message


def test_a_legal_plays_disagreement_shows_the_led_card_and_only_the_differing_cards() -> None:
    failure = run_harness(_bugs("swap-colours"), examples=scaled(ci=20, dev=8), seed=1,
                          shrink_seconds=scaled(ci=1, dev=0), min_refusals=MIN_SENT).failure
    assert failure is not None and failure.disagreement is not None
    assert failure.rule in ("FOLLOW-SUIT", "EYE-FOLLOW-SUIT")
    detail = failure.disagreement.detail
    led = detail["led"]
    assert isinstance(led, dict) and {"card", "colour", "coins"} <= set(led)
    only = [item for key in ("only_library", "only_peer") for item in detail[key]  # type: ignore[union-attr]
            ]
    assert only and all(isinstance(item, dict) and "colour" in item for item in only)
    last = failure.exchanges[-1]
    assert last.expected is not None and last.actual is not None
    assert len(only) < len(last.expected["cards"]) + len(last.actual["cards"])  # type: ignore[arg-type]


def test_a_score_disagreement_shows_the_cards_and_coins_behind_each_number() -> None:
    failure = run_harness(_bugs("wrong-coins"), examples=10, seed=1,
                          shrink_seconds=scaled(ci=1, dev=0), min_refusals=MIN_SENT).failure
    assert failure is not None and failure.disagreement is not None
    seats = failure.disagreement.detail["seats"]
    assert isinstance(seats, list) and seats
    for row in seats:
        assert isinstance(row, dict)
        assert "captured_coins" in row or "devils_trick_coins" in row


# --- decks -----------------------------------------------------------------------------------


def test_a_declared_deck_is_one_data_fault_and_the_logic_is_checked_on_it() -> None:
    report = run_harness(_bugs("swap-colours", "wrong-coins", "pass-reversed") + ["--declare-deck"],
                         examples=scaled(ci=30, dev=8), seed=2,
                         shrink_seconds=scaled(ci=2, dev=0), min_refusals=MIN_SENT)
    assert _rules(report) == ["DECK", "DECK", "SETUP-RESOLVE"]
    decks = {group.op: group.deck for group in report.groups if group.rule == "DECK"}
    colours, coins = decks["colours"], decks["coins"]
    assert colours is not None and colours.source == "declared"
    assert coins is not None and coins.source == "declared"
    assert {(card.edition, card.rank) for card in colours.cards} == {
        (edition, rank) for edition in ("classic", "matagot-2024") for rank in (3, 4)
    } | {("matagot-2024", 4.5)}
    assert {(card.edition, card.rank) for card in coins.cards} == {
        (edition, rank) for edition in ("classic", "matagot-2024") for rank in (9, 33)}


def test_new_round_carries_the_deck_and_the_referee_plays_it() -> None:
    referee = Referee()
    referee.handle({"op": "hello", "protocol": PROTOCOL})
    from bottleimp._config import Config
    from bottleimp.formats._config_json import deck_to_json
    from bottleimp.rules.deal import deal

    config = Config(players=3)
    hands, _ = deal(config, 5, 0, 0)
    deck = deck_to_json(config.cards)
    first = deck[0]
    assert isinstance(first, list)
    deck[0] = [first[0], "green", 9]
    answer = referee.handle({"op": "new_round", "config": {"players": 3}, "dealer": 0,
                             "hands": [[c.rank for c in h] for h in hands], "deck": deck})
    assert answer == {"ok": True, "dealer": 0, "to_act": 1}
    state = referee.state
    assert state is not None and state.config.card(1).coins == 9
    deck[1] = [19, "blue", 1]
    refused = referee.handle({"op": "new_round", "config": {"players": 3}, "dealer": 0,
                              "hands": [[c.rank for c in h] for h in hands], "deck": deck})
    assert refused["rule"] == "CONFIG-DECK"


# --- capabilities ----------------------------------------------------------------------------


def test_games_stay_inside_the_declared_capabilities() -> None:
    limited = PEER + ["--players", "3,4", "--editions", "classic", "--bottles", "1", "--no-teams"]
    report = run_harness(limited, examples=scaled(ci=60, dev=10), seed=4, shrink_seconds=1,
                         min_refusals=MIN_SENT)
    assert report.capabilities == Capabilities(players=(3, 4), editions=("classic",),
                                               bottles=(1,), teams=False, set_position=True)
    assert report.failed == 0 and report.unsupported == 0 and report.groups == ()
    assert all(row.unsupported == 0 for row in report.coverage)
    teams = next(row for row in report.coverage if row.kind == "config-teams")
    assert teams.sent == 0  # the peer plays no teams: never asked


def test_no_variant_left_is_a_harness_error() -> None:
    from bottleimp._errors import HarnessError

    with pytest.raises(HarnessError, match="no variant"):
        run_harness(PEER + ["--players", "3,4"], examples=2, players=[5])


def test_an_unsupported_refusal_of_an_illegal_request_counts_as_coverage(tmp_path: Path) -> None:
    script = tmp_path / "picky.py"
    script.write_text(
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('peer', {str(PEER[1])!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "peer = module.Peer(set())\n"
        "for line in sys.stdin:\n"
        "    request = json.loads(line)\n"
        "    if request.get('op') in ('dance', 'undo', 'deal'):\n"
        "        answer = {'ok': False, 'error': 'not here', 'rule': 'UNSUPPORTED'}\n"
        "    else:\n"
        "        answer = peer.answer(request)\n"
        "    print(json.dumps(answer), flush=True)\n", encoding="utf-8")
    report = run_harness([sys.executable, str(script)], examples=scaled(ci=40, dev=10), seed=1,
                         shrink_seconds=1)
    row = next(row for row in report.coverage if row.kind == "unknown-op")
    assert row.sent >= 3 and row.unsupported == row.sent and row.agreed == 0
    assert report.failed == 0 and report.groups == ()


def test_capabilities_are_read_with_json_paths() -> None:
    parsed = capabilities_from_json({"players": [4, 3], "editions": ["classic", "other"],
                                     "bottles": [1], "teams": False, "ignore": ["winner_takes"]})
    assert parsed.players == (3, 4) and parsed.editions == ("classic",)
    assert parsed.ignore == ("winner_takes",)
    with pytest.raises(RecordError, match=r"\$\.capabilities\.players\[0\]"):
        capabilities_from_json({"players": [9]})
    with pytest.raises(RecordError, match="teams"):
        capabilities_from_json({"teams": "yes"})


# --- vectors through the protocol ------------------------------------------------------------


def test_every_case_through_the_protocol_against_the_reference_peer() -> None:
    report = run_remote_vectors(PEER, SUITE)
    counts = report.counts()
    assert report.failed == 0
    for kind in ("trick", "legal_plays", "setup", "scoring"):
        assert counts[kind]["passed"] > 10 and counts[kind]["skipped"] == 0
    assert counts["record"]["passed"] == 0 and counts["record"]["skipped"] > 0


def test_a_peer_that_keeps_the_winning_card_is_compared_on_what_decides_the_result() -> None:
    keeping = run_remote_vectors(_bugs("keep-winning-card"), SUITE)
    failing = [o for o in keeping.outcomes if o.status == "failed"]
    assert failing and all(o.case.kind == "trick" and o.differs == ("winner_takes",)
                           for o in failing)
    ignoring = run_remote_vectors(_bugs("keep-winning-card") + ["--ignore", "winner_takes"], SUITE)
    assert ignoring.failed == 0


def test_vectors_through_the_protocol_from_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    command = " ".join(f"'{part}'" for part in _bugs("swap-colours"))
    status = main(["conformance", "--vectors", str(SUITE), "--cmd", command, "--json"])
    result = json.loads(capsys.readouterr().out)
    assert status == 1
    assert result["kinds"]["legal_plays"]["failed"] > 0
    assert all(f["kind"] == "legal_plays" for f in result["failures"])


def test_a_case_names_the_keys_that_decide_it() -> None:
    from bottleimp.formats._cases import cases_from_json

    value: JSON = {"format": "bottleimp-conformance/1", "kind": "scoring", "description": "x",
                   "groups": [{"description": "g", "config": {"players": 4}, "cases": [
                       {"description": "c", "decides": ["scores"],
                        "input": {"captured": [[1], [], [], []],
                                  "bottles": [{"price": 19, "owner": None}],
                                  "devils_trick": []},
                        "expected": {"scores": [1, 0, 0, 0]}}]}]}
    (case,) = cases_from_json(value)
    assert case.deciding_keys == ("scores",)


# --- the command line ------------------------------------------------------------------------


def test_json_output_holds_the_groups_and_the_coverage(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    command = " ".join(f"'{part}'" for part in _bugs("pass-reversed"))
    status = main(["conformance", "--cmd", command, "--examples", str(scaled(ci=20, dev=5)),
                   "--json", "--shrink-seconds", SHRINK_2, "--out", str(tmp_path),
                   "--min-refusals", str(MIN_SENT)])
    result = json.loads(capsys.readouterr().out)
    assert status == 1
    assert [group["rule"] for group in result["groups"]] == ["SETUP-RESOLVE"]
    failure = result["groups"][0]["failure"]
    assert failure["request"]["op"] == "setup" and failure["detail"]["cards"]
    assert {row["kind"] for row in result["coverage"]} == {kind.name for kind in REFUSALS}
    assert result["summary"]["failed"] > 0


def test_the_table_and_the_printed_failures_are_json_not_python(
    capsys: pytest.CaptureFixture[str], tmp_path: Path,
) -> None:
    command = " ".join(f"'{part}'" for part in _bugs("devils-trick-assign"))
    main(["conformance", "--cmd", command, "--examples", "10", "--shrink-seconds", SHRINK_2,
          "--out", str(tmp_path), "--min-refusals", str(MIN_SENT)])
    out = capsys.readouterr().out
    assert "group  games  disagreements  request  rule" in out and "SCORE-BOTTLE-PENALTY" in out
    for line in out.splitlines():
        for label in ("request:", "library:", "peer:   ", "detail: "):
            if line.strip().startswith(label.strip()):
                json.loads(line.split(label.strip(), 1)[1])
    assert "'ok'" not in out and "True" not in out
    assert "refusal coverage:" in out and "SETUP-FROM-DEALT" in out


def test_cwd_is_the_peers_working_directory(capsys: pytest.CaptureFixture[str]) -> None:
    command = f"'{sys.executable}' reference_peer/peer.py"
    status = main(["conformance", "--cmd", command, "--cwd", str(ROOT / "examples"),
                   "--examples", "3", "--min-refusals", str(MIN_SENT)])
    assert status == 0
    assert capsys.readouterr().out.splitlines()[-1].endswith(" passed, 0 failed")


def test_narrowing_options_are_checked(capsys: pytest.CaptureFixture[str]) -> None:
    for option in (["--players", "7"], ["--players", "x"], ["--bottles", "3"],
                   ["--edition", "nope"]):
        with pytest.raises(SystemExit) as exit_:
            main(["conformance", "--cmd", "x", *option])
        assert exit_.value.code == 2
    with pytest.raises(SystemExit):
        main(["conformance", "--serve", "--cmd", "x"])


# --- the rule named from what differs --------------------------------------------------------


LibraryExchange = tuple[GameState, dict[str, JSON], dict[str, JSON], GameState]


def _library_round(players: int = 4, seed: int = 5) -> list[LibraryExchange]:
    """One round the library answers alone: per request the state before it, the request, the
    library's answer and the state after."""
    from bottleimp._actions import Give, Play
    from bottleimp._engine import apply, legal_actions
    from bottleimp.formats._setup_entries import entry_from_gives
    from bottleimp.rules.deal import deal
    from bottleimp.conformance._session import round_request
    from bottleimp._state import Phase

    config = Config(players=players)
    referee = Referee()
    referee.handle({"op": "hello", "protocol": PROTOCOL})
    hands, face_up = deal(config, seed, 0, 0)
    referee.handle(round_request(config, 0, hands, face_up, config.cards))
    found: list[LibraryExchange] = []
    while True:
        state = referee.state
        assert state is not None
        if state.phase is Phase.SETUP:
            seat, gives, ahead = state.to_act, [], state
            while ahead.phase is Phase.SETUP and ahead.to_act == seat:
                give = legal_actions(ahead)[0]
                assert isinstance(give, Give)
                gives.append(give)
                ahead = apply(ahead, give)
            request: dict[str, JSON] = {"op": "setup", "seat": seat, **entry_from_gives(gives)}
        elif state.phase is Phase.PLAY:
            play = legal_actions(state)[-1]
            assert isinstance(play, Play)
            request = {"op": "play", "seat": play.seat, "card": play.card.rank}
        else:
            return found
        answer = referee.handle(request)
        assert answer["ok"] is True
        after = referee.state
        assert after is not None
        found.append((state, request, answer, after))


def _rule_of(exchange: LibraryExchange, change: dict[str, object]) -> tuple[str, str]:
    """The rule and message ``explain`` gives when the peer answers ``exchange``'s request with
    the library's answer changed by ``change`` (a key mapped to ``...`` is dropped)."""
    from bottleimp.conformance._diagnose import explain
    from bottleimp.conformance._protocol import compare

    before, request, expected, after = exchange
    actual: Any = json.loads(json.dumps(expected))
    for key, value in change.items():
        target: Any = actual
        *path, last = key.split(".")
        for part in path:
            target = target[int(part)] if isinstance(target, list) else target[part]
        if value is Ellipsis:
            del target[last]
        elif isinstance(target, list):
            target[int(last)] = value
        else:
            target[last] = value
    problem = compare(expected, actual)
    assert problem is not None
    found = explain(before, after, request, expected, actual, problem)
    return found.rule, found.message


def _trick_end(exchanges: list[LibraryExchange], last: bool = False) -> LibraryExchange:
    ends = [e for e in exchanges if isinstance(e[2].get("trick"), dict)]
    if last:
        return ends[-1]
    return next(e for e in ends if cast(dict[str, JSON], e[2]["trick"])["bottle"] is not None)


def test_a_play_answered_otherwise_in_to_act_alone_names_the_leader_rules() -> None:
    exchanges = _library_round()
    trick = _trick_end(exchanges)
    winner = trick[2]["to_act"]
    assert isinstance(winner, int)
    rule, message = _rule_of(trick, {"to_act": (winner + 1) % 4})
    assert rule == "NEXT-LEADER" and f"seat {winner} won the trick and leads" in message
    within = next(e for e in exchanges if e[1]["op"] == "play" and "trick" not in e[2])
    seat = within[2]["to_act"]
    assert isinstance(seat, int)
    assert _rule_of(within, {"to_act": (seat + 1) % 4})[0] == "TURN-ORDER"


def test_a_round_that_ends_early_or_late_names_ROUND_END() -> None:
    exchanges = _library_round()
    last = _trick_end(exchanges, last=True)
    assert last[2]["to_act"] is None
    rule, message = _rule_of(last, {"to_act": 2})
    assert rule == "ROUND-END" and "no one plays next" in message
    early = _trick_end(exchanges)
    rule, message = _rule_of(early, {"to_act": None})
    assert rule == "ROUND-END" and "the peer ends the round" in message


def test_a_trick_result_names_its_rule_by_the_field_that_differs() -> None:
    exchanges = _library_round()
    trick = _trick_end(exchanges)
    result = trick[2]["trick"]
    assert isinstance(result, dict)
    winner = result["winner"]
    assert isinstance(winner, int)
    other = (winner + 1) % 4
    assert _rule_of(trick, {"trick.winner": other, "to_act": other})[0] == "TRICK-WINNER"
    assert _rule_of(trick, {"trick.bottle": None})[0] == "BOTTLE-PURCHASE"
    assert _rule_of(trick, {"trick.bottle": 1})[0] == "TRICK-PRICE"
    assert _rule_of(trick, {"trick.bottles.0.price": 12})[0] == "TRICK-PRICE"
    assert _rule_of(trick, {"trick.bottles.0.owner": other})[0] == "BOTTLE-PURCHASE"
    assert _rule_of(trick, {"trick": ...})[0] == "TURN-ORDER"  # the peer's trick goes on
    assert _rule_of(trick, {"trick.extra": 1})[0] == "PROTOCOL"


def test_a_setup_answered_otherwise_names_its_rule_by_what_differs() -> None:
    exchanges = _library_round()
    setups = [e for e in exchanges if e[1]["op"] == "setup"]
    first, last = setups[0], setups[-1]
    assert _rule_of(first, {"to_act": 3})[0] == "SETUP-ORDER"
    assert _rule_of(first, {"hands": [[], [], [], []]})[0] == "SETUP-RESOLVE"
    assert _rule_of(last, {"hands": ..., "face_up": ..., "devils_trick": ...})[0] == \
        "SETUP-RESOLVE"
    assert _rule_of(last, {"to_act": 0})[0] == "FIRST-LEADER"


def test_a_setup_message_names_each_duplicated_and_lost_card_SETUP_RESOLVE() -> None:
    exchanges = _library_round()
    last = [e for e in exchanges if e[1]["op"] == "setup"][-1]
    hands = last[2]["hands"]
    assert isinstance(hands, list)
    kept, gone = hands[1][0], hands[2][0]  # type: ignore[index]
    changed = [list(hand) for hand in hands]  # type: ignore[arg-type]
    changed[2] = [kept] + changed[2][1:]  # 'kept' twice, 'gone' nowhere
    rule, message = _rule_of(last, {"hands": changed})
    assert rule == "SETUP-RESOLVE"
    assert f"{kept}" in message and "is duplicated: the peer puts it in hands[1] and hands[2]" \
        in message
    assert f"{gone}" in message and "is lost: the peer puts it nowhere" in message
    assert "None" not in message


def test_legal_plays_answered_otherwise_name_the_seat_the_card_held_or_the_colour() -> None:
    from bottleimp.conformance._diagnose import explain
    from bottleimp.conformance._protocol import compare

    exchanges = _library_round()
    following = next(e for e in exchanges if e[1]["op"] == "play" and "trick" not in e[2])
    state = following[3]
    referee_answer: dict[str, JSON] = {"ok": True, "seat": state.to_act,
                                      "cards": [c.rank for c in sorted(
                                          state.round.hands[state.to_act or 0], key=rank_key)]}
    request: dict[str, JSON] = {"op": "legal_plays"}

    def rule(actual: dict[str, JSON]) -> str:
        from bottleimp._actions import Play
        from bottleimp._engine import legal_actions

        legal: list[JSON] = [rank for rank in sorted(a.card.rank for a in legal_actions(state)
                                                     if isinstance(a, Play))]
        expected: dict[str, JSON] = {"ok": True, "seat": state.to_act, "cards": legal}
        problem = compare(expected, actual)
        assert problem is not None
        return explain(state, state, request, expected, actual, problem).rule

    assert rule({**referee_answer, "seat": ((state.to_act or 0) + 1) % 4}) == "TURN-ORDER"
    held = referee_answer["cards"]
    assert isinstance(held, list)
    elsewhere = state.round.hands[((state.to_act or 0) + 1) % 4][0].rank
    assert rule({**referee_answer, "cards": [*held, elsewhere]}) == "CARD-HELD"
    assert rule({**referee_answer, "cards": held + [99]}) == "CARD-HELD"
    # The whole hand, though the seat holds the led colour.
    assert rule(referee_answer) == "FOLLOW-SUIT"


def _patched_peer(tmp_path: Path, name: str, patch: str, bugs: tuple[str, ...] = ()) -> list[str]:
    """The reference peer with ``patch`` (Python run on its module ``peer``) applied: a small
    fake peer with one bug of its own."""
    script = tmp_path / f"{name}.py"
    script.write_text(
        "import importlib.util, json, sys\n"
        f"spec = importlib.util.spec_from_file_location('peer', {str(PEER[1])!r})\n"
        "peer = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(peer)\n"
        f"{patch}\n"
        f"engine = peer.Peer({list(bugs)!r}, {{'players': [3, 4], 'editions': ['classic'], "
        "'bottles': [1], 'teams': False})\n"
        "for line in sys.stdin:\n"
        "    print(json.dumps(engine.answer(json.loads(line))), flush=True)\n",
        encoding="utf-8")
    return [sys.executable, str(script)]


SEAT_ZERO_LEADS_EVERY_TRICK = """
resolve = peer.Round.resolve_trick
def resolve_trick(self):
    result = resolve(self)
    self.to_act = 0
    return result
peer.Round.resolve_trick = resolve_trick
"""

ROUND_ENDS_LATE = """
play = peer.Round.play
def late_play(self, seat, card):
    answer = play(self, seat, card)
    if "trick" in answer and answer["to_act"] is None:
        answer["to_act"] = answer["trick"]["winner"]
    return answer
peer.Round.play = late_play
"""


@pytest.mark.parametrize(("name", "patch", "rule"), [
    ("seat-zero-leads-every-trick", SEAT_ZERO_LEADS_EVERY_TRICK, "NEXT-LEADER"),
    ("round-ends-late", ROUND_ENDS_LATE, "ROUND-END"),
], ids=["seat-zero-leads-every-trick", "round-ends-late"])
def test_a_peer_that_leads_or_ends_the_round_wrongly_is_one_play_group_with_its_rule(
        tmp_path: Path, name: str, patch: str, rule: str) -> None:
    report = run_harness(_patched_peer(tmp_path, name, patch), examples=scaled(ci=10, dev=4),
                         seed=1, shrink_seconds=0, min_refusals=MIN_SENT)
    assert [(group.op, group.rule) for group in report.groups] == [("play", rule)]


RANDOM_NAMES_IN_REFUSALS = """
import random
answer = peer.Peer.answer
def named_answer(self, request):
    # A refusal names a random player; after a round in which it refused something it names
    # the wrong next dealer (a bug met only after refusals, whose messages differ every time).
    if request.get("op") == "new_round":
        self.refused = False
    reply = answer(self, request)
    if reply.get("ok") is False:
        self.refused = True
        name = random.SystemRandom().choice(["Ada", "Brook", "Chen", "Dara", "Eli", "Femi"])
        reply["error"] = f"{name}: {reply['error']}"
    elif request.get("op") == "end_round" and reply.get("dealer") is not None \\
            and getattr(self, "refused", False):
        reply = {**reply, "dealer": (reply["dealer"] + 1) % self.round.players}
    return reply
peer.Peer.answer = named_answer
"""


def test_refusals_whose_messages_differ_in_a_random_name_are_deterministic(
        tmp_path: Path) -> None:
    from bottleimp.conformance._groups import same_verdict

    command = _patched_peer(tmp_path, "random-names", RANDOM_NAMES_IN_REFUSALS)
    for seconds in (0, 2):
        report = run_harness(command, examples=scaled(ci=10, dev=4), seed=2,
                             shrink_seconds=seconds, min_refusals=MIN_SENT)
        assert report.nondeterministic == ()
        (group,) = report.groups
        assert group.rule == "DEALER-ROTATION" and group.failure is not None
        if seconds == 0:
            # The game played again holds refusals, whose messages differ every time.
            assert any(e.refusal is not None and e.refusal != "before-round"
                       for e in group.failure.exchanges)
        else:
            assert group.shrunk or "deterministic" not in (group.not_shrunk or "")
    # Judged on rules and values: another rule, or another value, is still another answer.
    refusal: dict[str, JSON] = {"ok": False, "error": "Ada: no", "rule": "TURN-ORDER"}
    assert same_verdict(refusal, {**refusal, "error": "Chen: no"})
    assert not same_verdict(refusal, {**refusal, "rule": "CARD-HELD"})
    assert not same_verdict({"ok": True, "scores": [1, 2]}, {"ok": True, "scores": [1, 3]})
    assert same_verdict({"ok": True, "scores": [1, 2], "_took": 3},
                        {"ok": True, "scores": [1.0, 2], "_took": 9})


INVENTED_DECK = """
build = peer.build_deck
def invented_deck(edition, players, bugs=()):
    # Six cards of another colour (31-36), and 29 cards (1-30) scoring one coin more.
    deck = build(edition, players, bugs)
    colours = ("yellow", "blue", "red")
    for rank in range(31, 37):
        colour, coins = deck[rank]
        deck[rank] = (colours[(colours.index(colour) + 1) % 3], coins)
    for rank in range(1, 31):
        if rank in deck:
            colour, coins = deck[rank]
            deck[rank] = (colour, coins + 1)
    return deck
peer.build_deck = invented_deck
"""


def test_many_coin_faults_do_not_use_up_a_limit_the_colour_faults_need_DECK(
        tmp_path: Path) -> None:
    report = run_harness(_patched_peer(tmp_path, "invented-deck", INVENTED_DECK),
                         examples=scaled(ci=20, dev=10), seed=0, shrink_seconds=0,
                         min_refusals=MIN_SENT)
    assert [(group.op, group.rule) for group in report.groups] == [("colours", "DECK"),
                                                                  ("coins", "DECK")]
    colours, coins = (group.deck for group in report.groups)
    assert colours is not None and coins is not None
    assert not colours.stopped and not coins.stopped
    assert [(card.rank, card.library_colour, card.peer_colour) for card in colours.cards] == [
        (31, "red", "yellow"), (32, "blue", "red"), (33, "red", "yellow"), (34, "blue", "red"),
        (35, "red", "yellow"), (36, "red", "yellow")]
    assert [(card.rank, card.peer_coins) for card in coins.cards] == [
        (card.rank, card.coins + 1) for card in Config(players=4).cards if card.rank <= 30]


WRONG_COINS_IN_CASES_ONLY = """
scoring = peer.case_scoring
peer.CASES["scoring"] = lambda config, given, bugs: scoring(config, given, ["wrong-coins"])
"""


def test_position_questions_a_deck_fault_explains_are_counted_under_DECK(
        tmp_path: Path) -> None:
    limited = PEER + ["--players", "3,4", "--editions", "classic", "--bottles", "1",
                      "--no-teams"]
    mixed = run_harness(limited + ["--bug", "swap-colours", "--bug", "devils-trick-assign"],
                        examples=4, seed=0, shrink_seconds=0, questions=15,
                        min_refusals=MIN_SENT)
    rows = {row.kind: row for row in mixed.questions}
    assert dict(rows["legal_plays"].rules) == {"DECK": rows["legal_plays"].failed} != {"DECK": 0}
    # A logic fault of the scores is no data fault: it keeps its rule.
    assert dict(rows["scoring"].rules) == {"SCORE-BOTTLE-PENALTY": rows["scoring"].failed}
    example = rows["legal_plays"].example
    assert example is not None and example["rule"] == "DECK"
    # A fault the games do not show (the peer scores its games right, its scoring cases
    # wrong): the questions alone show the coins, as a group with no game.
    alone = run_harness(_patched_peer(tmp_path, "cases-only", WRONG_COINS_IN_CASES_ONLY),
                        examples=4, seed=0, shrink_seconds=0, questions=15,
                        min_refusals=MIN_SENT)
    (coins,) = alone.groups
    assert (coins.op, coins.rule, coins.games) == ("coins", "DECK", ())
    assert coins.deck is not None and alone.failed == 0
    assert deck_lines(coins.deck) == ("card 9 scores as 5 coins, the deck gives 3",
                                      "card 33 scores as 2 coins, the deck gives 5")
    scoring = next(row for row in alone.questions if row.kind == "scoring")
    assert dict(scoring.rules) == {"DECK": scoring.failed} != {"DECK": 0}


def test_the_pass_back_bug_names_every_card_it_duplicates_and_loses_SETUP_RESOLVE() -> None:
    report = run_harness(_bugs("pass-back") + ["--players", "4"], examples=3, seed=2,
                         shrink_seconds=0, min_refusals=MIN_SENT)
    failure = report.failure
    assert failure is not None and failure.rule == "SETUP-RESOLVE"
    # Each seat gets back the card it passed left, and the card it passed right is lost.
    assert failure.message.count("is duplicated: the peer puts it in") == 4
    assert failure.message.count("is lost: the peer puts it nowhere") == 4
    assert "None" not in failure.message
    cards = failure.disagreement.detail["cards"] if failure.disagreement else []
    assert isinstance(cards, list)
    copies = sorted(item.get("peer_copies") for item in cards if isinstance(item, dict))  # type: ignore[type-var]
    assert copies == [0, 0, 0, 0, 2, 2, 2, 2]


def test_a_legal_plays_question_names_CARD_HELD_for_a_card_not_held_else_FOLLOW_SUIT() -> None:
    from bottleimp.conformance._cases import _case, _rule

    case = _case("legal_plays", Config(players=4), {"seat": 1, "hand": [1, 4, 11],
                                                    "trick": [[0, 2]]})
    assert case.expected == {"legal": [1]}
    assert _rule(case, ["legal"], {"legal": [1, 4, 11, 37]}) == "CARD-HELD"
    assert _rule(case, ["legal"], {"legal": [1, 4, 11]}) == "FOLLOW-SUIT"


# --- a declared deck is input like any other -------------------------------------------------


@pytest.mark.parametrize("kind, says", [
    ("rank-twice", "[CONFIG-DECK] every card of a deck needs a distinct rank"),
    ("negative-coin", "expected an integer from 0"),
    ("unknown-colour", "purple"),
    ("extra-cards", "a declared deck holds at most 108"),
])
def test_a_hostile_declared_deck_is_the_peers_fault_in_a_bounded_report(
        kind: str, says: str, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    command = f"{sys.executable} {ROOT / 'tests' / 'hostile_deck_peer.py'} {kind}"
    status = main(["conformance", "--cmd", command, "--examples", "2", "--questions", "0",
                   "--shrink-seconds", "0", "--out", str(tmp_path), "--json"])
    out = capsys.readouterr().out
    report = json.loads(out)
    assert status == 1 and report["peer_fault"]["kind"] == "malformed"
    assert says in report["peer_fault"]["message"]
    assert len(out) < 20_000  # whatever the peer declares
    status = main(["conformance", "--cmd", command, "--examples", "2", "--questions", "0",
                   "--shrink-seconds", "0", "--out", str(tmp_path)])
    captured = capsys.readouterr()
    assert status == 1 and "Traceback" not in captured.out + captured.err
    assert len(captured.out) < 20_000


def test_no_follow_suit_on_a_declared_deck_identical_to_the_librarys_is_FOLLOW_SUIT_and_no_DECK(
) -> None:
    peer = PEER + ["--declare-deck", "--no-set-position", "--bug", "no-follow-suit"]
    report = run_harness(peer, examples=scaled(ci=30, dev=15), seed=3, shrink_seconds=0,
                         questions=scaled(ci=20, dev=10), min_refusals=1)
    assert {group.rule for group in report.groups} == {"FOLLOW-SUIT"}

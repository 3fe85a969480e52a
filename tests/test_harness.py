"""The differential harness: it passes a correct peer, catches and shrinks planted bugs, and
reports a peer that hangs, crashes or prints garbage as a failure within the timeout."""

from __future__ import annotations

import builtins
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from typing import cast

from attrs import evolve

from bottleimp.cli import main
from bottleimp.conformance._protocol import GAME_ENDS, capabilities_from_json
from bottleimp.conformance._harness import Failure, play_game, run_harness
from bottleimp.conformance._session import is_convention
from bottleimp.conformance._groups import Group
from bottleimp.conformance._peer import Peer
from bottleimp.conformance._session import REFUSALS, not_applicable
from bottleimp.conformance._report import write_group
from bottleimp.conformance._session import (
    MAX_TARGET,
    GameScript,
    Mistake,
    RoundScript,
)
from games import game_scripts
from bottleimp._errors import RecordError
from bottleimp.formats._records import record_from_state, record_to_json
from bottleimp.validation._replay import validate_json
from bottleimp.conformance._protocol import PROTOCOL, Referee, compare
from bottleimp._errors import HarnessError
from bottleimp.formats._json_input import JSON
from bottleimp.formats._records import read_record_file
from bottleimp.rules.deal import deal
from bottleimp._config import Config
from bottleimp.validation import validate_file
from depth import MIN_SENT, scaled

ROOT = Path(__file__).resolve().parent.parent
PEER = [sys.executable, str(ROOT / "examples" / "reference_peer" / "peer.py")]


def _peer_script(tmp_path: Path, name: str, body: str) -> list[str]:
    path = tmp_path / name
    path.write_text("import sys, time\n" + body, encoding="utf-8")
    return [sys.executable, str(path)]


def _failure(report_failure: Failure | None) -> Failure:
    assert report_failure is not None
    return report_failure


# --- the correct peer and planted bugs -------------------------------------------------------


def test_the_reference_peer_agrees_on_every_generated_game() -> None:
    examples = scaled(ci=30, dev=10)
    report = run_harness(PEER, examples=examples, seed=1, min_refusals=MIN_SENT)
    assert report.passed == examples + report.added and report.failed == 0
    assert report.groups == () and report.failure is None and report.written is None


def test_devils_trick_assign_bug_is_caught_shrunk_and_written_SCORE_BOTTLE_PENALTY(
    tmp_path: Path,
) -> None:
    report = run_harness(PEER + ["--bug", "devils-trick-assign"], examples=10, seed=0,
                         out_dir=tmp_path, min_refusals=MIN_SENT)
    assert report.failed >= 1 and report.passed + report.failed == 10 + report.added
    assert [group.rule for group in report.groups] == ["SCORE-BOTTLE-PENALTY"]
    failure = _failure(report.failure)
    assert failure.kind == "disagreement"
    last = failure.exchanges[-1]
    assert last.request == {"op": "scores"}
    assert "scores" in failure.message
    # Shrunk to the smallest game that shows the bug: one round of the 2-player game.
    assert failure.script.config.players == 2
    assert len(failure.script.rounds) == 1
    assert report.written is not None and report.written.exists()
    record = read_record_file(report.written)
    assert len(record.rounds) == 1 and record.config.players == 2
    assert len(record.rounds[0].plays) == 32
    harness_note = dict(record.extensions)["_harness"]
    assert json.loads(harness_note)["request"] == {"op": "scores"}
    # Only legal actions are recorded: the record itself is valid; the peer is what is wrong.
    assert validate_file(report.written).valid


def test_half_rank_int_bug_is_caught_on_a_half_rank_price_CARD_RANK(tmp_path: Path) -> None:
    # Any game of this bug shows it on a half-rank price: shrinking is not what is checked.
    report = run_harness(PEER + ["--bug", "half-rank-int"], examples=scaled(ci=40, dev=10),
                         seed=0, out_dir=tmp_path, shrink_seconds=scaled(ci=60, dev=0),
                         min_refusals=MIN_SENT)
    failure = _failure(report.failure)
    assert failure.kind == "disagreement"
    assert failure.script.config.edition == "matagot-2024"
    assert failure.script.config.players >= 5
    assert failure.exchanges[-1].request["op"] == "play"
    assert ".5" in json.dumps(failure.exchanges[-1].expected["trick"])
    assert report.written is not None and report.written.exists()


@pytest.mark.parametrize(("bug", "rule"), [("seat-zero-leads", "FIRST-LEADER"),
                                          ("pass-back", "SETUP-RESOLVE")])
def test_setup_bugs_are_caught_at_the_last_setup_SETUP_RESOLVE_FIRST_LEADER(
    bug: str, rule: str
) -> None:
    report = run_harness(PEER + ["--bug", bug], examples=5, seed=2,
                         shrink_seconds=scaled(ci=60, dev=0), min_refusals=MIN_SENT)
    failure = _failure(report.failure)
    assert failure.exchanges[-1].request["op"] == "setup"
    assert failure.rule == rule


def test_same_seed_same_games_same_verdict() -> None:
    # CI shrinks to the end (no time limit reached) in both runs, so the shrunk games are
    # compared; dev does not shrink (about 3 s a run) and compares the first failing games.
    examples, shrink_seconds = scaled(ci=15, dev=12), scaled(ci=60, dev=0)
    first = run_harness(PEER + ["--bug", "half-rank-int"], examples=examples, seed=4,
                        shrink_seconds=shrink_seconds, min_refusals=MIN_SENT)
    second = run_harness(PEER + ["--bug", "half-rank-int"], examples=examples, seed=4,
                         shrink_seconds=shrink_seconds, min_refusals=MIN_SENT)
    assert first.summary == second.summary
    assert _failure(first.failure).script == _failure(second.failure).script


def test_the_seed_alone_decides_the_games_whatever_else_is_imported() -> None:
    # Hypothesis mixes literals of imported local modules into generation; the harness must not:
    # importing the command line's modules first must not change the games.
    program = (
        "import sys\n"
        "if sys.argv[1] == 'import':\n"
        "    import bottleimp.cli\n"
        "from bottleimp.conformance._harness import run_harness\n"
        f"report = run_harness({PEER + ['--bug', 'half-rank-int']!r},\n"
        f"                      examples={scaled(ci=20, dev=10)}, seed=5,\n"
        f"                      shrink_seconds=0.001, min_refusals={MIN_SENT})\n"
        "print(report.summary, report.failure and report.failure.script)\n"
    )
    outputs = [
        subprocess.run([sys.executable, "-c", program, mode], capture_output=True, text=True,
                       check=True, timeout=120).stdout
        for mode in ("plain", "import")
    ]
    assert outputs[0] == outputs[1]
    assert "failed" in outputs[0] and " 0 failed" not in outputs[0]  # the bug was met


# --- peers that misbehave --------------------------------------------------------------------


def test_a_peer_that_hangs_is_a_failure_within_the_timeout(tmp_path: Path) -> None:
    command = _peer_script(tmp_path, "hang.py", "sys.stdin.readline()\ntime.sleep(60)\n")
    started = time.monotonic()
    report = run_harness(command, examples=5, timeout=0.5, out_dir=tmp_path)
    assert time.monotonic() - started < 10
    assert report.summary == "0 passed, 1 failed"
    failure = _failure(report.failure)
    assert failure.kind == "timeout" and "0.5 s" in failure.message
    assert (tmp_path / "harness-failure-seed0.json").exists()


def test_a_peer_that_hangs_midway_is_a_failure(tmp_path: Path) -> None:
    # The reference peer, made to hang at its tenth request (the greeting is the first), in the
    # middle of a round.
    body = (
        "import importlib.util, json\n"
        f"spec = importlib.util.spec_from_file_location('peer', {str(PEER[1])!r})\n"
        "module = importlib.util.module_from_spec(spec)\n"
        "spec.loader.exec_module(module)\n"
        "peer = module.Peer(set())\n"
        "for count, line in enumerate(sys.stdin, 1):\n"
        "    if count == 10:\n"
        "        time.sleep(60)\n"
        "    print(json.dumps(peer.answer(json.loads(line))), flush=True)\n"
    )
    # The hang is waited out: 5 s in CI (room for a loaded machine's first nine answers), 2 s
    # in dev.
    report = run_harness(_peer_script(tmp_path, "late.py", body), examples=3,
                         timeout=scaled(ci=5, dev=2))
    assert report.summary == "0 passed, 1 failed"
    failure = _failure(report.failure)
    assert failure.kind == "timeout" and len(failure.exchanges) == 9


def test_a_peer_that_prints_garbage_is_a_malformed_failure(tmp_path: Path) -> None:
    command = _peer_script(tmp_path, "garbage.py", "for line in sys.stdin:\n"
                                                   "    print('hello world', flush=True)\n")
    report = run_harness(command, examples=5, timeout=2)
    assert report.summary == "0 passed, 1 failed"
    failure = _failure(report.failure)
    assert failure.kind == "malformed" and "hello world" in failure.message


def test_a_peer_that_answers_with_a_json_array_is_malformed(tmp_path: Path) -> None:
    command = _peer_script(tmp_path, "array.py", "for line in sys.stdin:\n"
                                                 "    print('[1, 2]', flush=True)\n")
    report = run_harness(command, examples=2, timeout=2)
    assert _failure(report.failure).kind == "malformed"


def test_a_peer_that_crashes_is_a_failure_naming_its_exit_status(tmp_path: Path) -> None:
    command = _peer_script(tmp_path, "crash.py", "sys.stdin.readline()\n"
                                                 "sys.stderr.write('boom\\n')\nsys.exit(3)\n")
    report = run_harness(command, examples=5, timeout=2)
    assert report.summary == "0 passed, 1 failed"
    failure = _failure(report.failure)
    assert failure.kind == "crash"
    assert "exit status 3" in failure.message and "boom" in failure.message


def test_a_command_that_cannot_start_is_a_harness_error() -> None:
    with pytest.raises(HarnessError, match="cannot start"):
        run_harness(["/no/such/peer-program"], examples=1)


# --- the command line ------------------------------------------------------------------------


def _command_line(command: list[str]) -> str:
    return " ".join(f"'{part}'" for part in command)


def test_command_prints_the_summary_line_last(capsys: pytest.CaptureFixture[str]) -> None:
    status = main(["conformance", "--cmd", _command_line(PEER), "--examples", "5", "--seed", "9",
                   "--min-refusals", str(MIN_SENT)])
    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert re.fullmatch(r"\d+ passed, 0 failed", lines[-1])
    assert lines[-2].startswith("5 games generated, ")


def test_command_reports_a_planted_bug_and_the_record_it_wrote(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status = main(["conformance", "--cmd", _command_line(PEER + ["--bug", "devils-trick-assign"]),
                   "--examples", "4", "--out", str(tmp_path), "--min-refusals", str(MIN_SENT)])
    out = capsys.readouterr().out
    assert status == 1
    assert re.fullmatch(r"0 passed, \d+ failed \(\d+ disagreements?\)", out.splitlines()[-1])
    assert "SCORE-BOTTLE-PENALTY" in out and "owns 1 bottle;" in out
    assert list(tmp_path.glob("harness-failure-seed0-group1.json"))


def test_command_against_the_library_serving_itself(capsys: pytest.CaptureFixture[str]) -> None:
    serve = [sys.executable, "-m", "bottleimp", "conformance", "--serve"]
    # CI: the default 100 rounds of position questions; dev: 10.
    status = main(["conformance", "--cmd", _command_line(serve), "--examples", "5",
                   "--questions", str(scaled(ci=100, dev=10)), "--min-refusals", str(MIN_SENT)])
    assert status == 0
    assert re.fullmatch(r"\d+ passed, 0 failed", capsys.readouterr().out.splitlines()[-1])


def test_a_run_needs_no_hypothesis_its_seed_alone_draws_and_shrinks_the_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    real_import = builtins.__import__

    def no_hypothesis(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "hypothesis" or name.startswith("hypothesis."):
            raise ImportError("No module named 'hypothesis'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_hypothesis)
    status = main(["conformance", "--cmd", _command_line(PEER + ["--bug", "devils-trick-assign"]),
                   "--examples", "4", "--seed", "0", "--shrink-seconds", "5", "--questions", "0",
                   "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert status == 1 and "SCORE-BOTTLE-PENALTY" in out


def test_no_shipped_module_imports_a_hypothesis_internal() -> None:
    import ast

    offenders = []
    for path in sorted((ROOT / "bottleimp").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([alias.name for alias in node.names] if isinstance(node, ast.Import) else
                     [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            offenders += [f"{path.relative_to(ROOT)}: {name}" for name in names
                          if name.startswith("hypothesis.internal")]
    assert offenders == []


def test_command_with_a_missing_program_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["conformance", "--cmd", "/no/such/peer-program"]) == 2
    assert "cannot start" in capsys.readouterr().err


@pytest.mark.parametrize("option", [["--timeout", "0"], ["--examples", "0"],
                                    ["--timeout", "soon"], ["--shrink-seconds", "-1"]])
def test_command_refuses_bad_option_values(option: list[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["conformance", "--cmd", "x", *option])
    assert exit_.value.code == 2


def test_command_takes_no_shrinking_time(capsys: pytest.CaptureFixture[str],
                                         tmp_path: Path) -> None:
    status = main(["conformance", "--cmd", " ".join(PEER + ["--bug", "devils-trick-assign"]),
                   "--examples", "4", "--shrink-seconds", "0", "--out", str(tmp_path), "--json"])
    out = json.loads(capsys.readouterr().out)
    assert status == 1 and out["groups"][0]["not_shrunk"].startswith("no shrinking time left")


def test_command_checks_the_library_against_the_vectors(
    capsys: pytest.CaptureFixture[str],
) -> None:
    status = main(["conformance", "--vectors", str(ROOT / "spec" / "conformance")])
    last = capsys.readouterr().out.splitlines()[-1]
    assert status == 0 and last.endswith(" passed, 0 failed")


# --- game ends, setups at once, conventions ---------------------------------------------------


def test_generated_games_end_by_rounds_by_target_score_and_by_default_GAME_END() -> None:
    from hypothesis import given, settings

    seen: set[str] = set()

    @settings(max_examples=60, database=None, deadline=None)
    @given(game_scripts(ends=GAME_ENDS))
    def draw(script: GameScript) -> None:
        config = script.config
        assert config.rounds is None or config.target_score is None
        seen.add("rounds" if config.rounds is not None else
                 "target_score" if config.target_score is not None else "default")
        if config.rounds is not None:
            assert config.rounds == len(script.rounds) == script.most_rounds
        if config.target_score is not None:
            assert 1 <= config.target_score <= MAX_TARGET

    draw()
    assert seen == set(GAME_ENDS)


def test_a_target_only_peer_taking_setups_in_any_order_passes_every_game() -> None:
    # Without set_position, with its own card zones and random words in its messages too.
    shaped = PEER + ["--no-set-position", "--shape", "target-only", "--shape",
                     "setups-any-order", "--shape", "own-zones", "--shape", "random-words"]
    report = run_harness(shaped, examples=scaled(ci=40, dev=12), seed=4, min_refusals=MIN_SENT)
    assert report.ok and report.failed == 0 and report.unsupported == 0
    assert report.passed == scaled(ci=40, dev=12) + report.added
    assert report.capabilities.game_ends == ("target_score",)
    assert report.capabilities.setups_any_order and report.conventions == ()
    rows = {row.kind: row for row in report.coverage}
    assert rows["setup-wrong-seat"].sent == 0
    wrong_seat = next(kind for kind in REFUSALS if kind.name == "setup-wrong-seat")
    assert "any order" in (not_applicable(wrong_seat, report.capabilities) or "")
    assert rows["config-game-end"].sent == rows["config-game-end"].agreed > 0


def test_a_peer_that_accepts_a_target_of_zero_fails_CONFIG_GAME_END() -> None:
    report = run_harness(PEER + ["--shape", "target-only", "--bug", "target-zero"],
                         examples=10, seed=0, shrink_seconds=0, min_refusals=scaled(ci=8, dev=8))
    assert [(group.op, group.rule) for group in report.groups] == [("new_round",
                                                                   "CONFIG-GAME-END")]
    failure = report.groups[0].failure
    assert failure is not None
    config = failure.exchanges[-1].request["config"]
    assert isinstance(config, dict) and config.get("target_score") == 0


def test_the_library_one_seat_at_a_time_is_a_convention_noted_never_failed_SETUP_ORDER() -> None:
    assert is_convention("SETUP-ORDER")
    assert not is_convention("SETUP-RESOLVE") and not is_convention("DECK")
    # A peer that takes setups in any order without declaring it is sent setups out of turn,
    # takes them, and is noted for it, never failed.
    report = run_harness(PEER + ["--shape", "setups-any-order-undeclared"],
                         examples=6, seed=0, shrink_seconds=0, min_refusals=MIN_SENT)
    assert report.failed == 0 and report.groups == ()
    assert [note.rule for note in report.conventions] == ["SETUP-ORDER"]
    assert report.conventions[0].times >= MIN_SENT
    assert report.groups == ()  # so no group is a convention


def test_capabilities_declare_game_ends_and_setups_in_any_order() -> None:
    declared = capabilities_from_json({"game_ends": ["target_score"], "setups_any_order": True})
    assert declared.game_ends == ("target_score",) and declared.setups_any_order
    assert capabilities_from_json(None).game_ends == GAME_ENDS
    malformed: list[JSON] = [{"game_ends": []}, {"game_ends": ["sudden-death"]},
                             {"setups_any_order": "yes"}]
    for bad in malformed:
        with pytest.raises(RecordError):
            capabilities_from_json(bad)


# --- the records the harness writes ------------------------------------------------------------


class _AcceptsOtherPlayerCounts:
    """The library's side, but a new_round for another player count is taken (as a round that
    starts over), as a careless engine would."""

    def __init__(self) -> None:
        self.referee = Referee()

    def ask(self, request: dict[str, JSON]) -> dict[str, JSON]:
        config = request.get("config")
        if request.get("op") == "new_round" and isinstance(config, dict) \
                and config.get("players") != 3:
            return {"ok": True, "dealer": 0, "to_act": 1}
        return self.referee.handle(request)


def test_a_failure_before_a_later_round_begins_records_no_round_twice() -> None:
    kind = next(i for i, k in enumerate(REFUSALS) if k.name == "config-players")
    rounds = (RoundScript(1, 2, (), ()), RoundScript(3, 4, (), (Mistake(0, kind, 0),)))
    script = GameScript(Config(players=3, rounds=2), rounds, 0)
    failure = play_game(script, cast(Peer, _AcceptsOtherPlayerCounts()))
    assert failure is not None and failure.rule == "CONFIG-PLAYERS"
    assert failure.state is not None and len(failure.state.rounds) == 1
    assert failure.state.config.rounds == 2  # the game's end, as the game was sent it
    record = record_from_state(failure.state)
    assert validate_json(record_to_json(record)).valid


def test_a_record_that_does_not_validate_is_reported_not_written(tmp_path: Path) -> None:
    kind = next(i for i, k in enumerate(REFUSALS) if k.name == "config-players")
    rounds = (RoundScript(1, 2, (), ()), RoundScript(3, 4, (), (Mistake(0, kind, 0),)))
    failure = play_game(GameScript(Config(players=3, rounds=2), rounds, 0),
                        cast(Peer, _AcceptsOtherPlayerCounts()))
    assert failure is not None and failure.state is not None
    # Round 2 as a copy of round 1: the dealer did not pass, which validate rejects.
    copied = evolve(failure.state, past_rounds=(failure.state.round,))
    group = Group(1, "new_round", "CONFIG-PLAYERS", (1,), evolve(failure, state=copied))
    written = write_group(group, tmp_path, 0)
    assert written.written is None and list(tmp_path.iterdir()) == []
    assert written.write_error is not None and "DEALER-ROTATION" in written.write_error
    assert write_group(evolve(group, failure=failure), tmp_path, 0).written is not None


# --- the library's side of the protocol ------------------------------------------------------


def _new_round(players: int = 4, edition: str = "classic", **config: JSON) -> dict[str, JSON]:
    hands, face_up = deal(Config(players=players, edition=edition), 11, 0, 0)
    return {
        "op": "new_round",
        "config": {"players": players, "edition": edition, **config},
        "dealer": 0,
        "hands": [[card.rank for card in hand] for hand in hands],
        "face_up": None if face_up is None else [[card.rank for card in row] for row in face_up],
    }


def test_referee_greets_with_the_protocol_version() -> None:
    referee = Referee()
    greeting = referee.handle({"op": "hello", "protocol": PROTOCOL})
    assert greeting["ok"] is True and greeting["protocol"] == PROTOCOL
    assert isinstance(greeting["capabilities"], dict)
    assert greeting["capabilities"]["players"] == [2, 3, 4, 5, 6]
    for other in ("bottleimp-protocol/1", "bottleimp-protocol/2"):
        assert Referee().handle({"op": "hello", "protocol": other})["rule"] == "PROTOCOL"
    assert referee.handle({"op": "hello", "protocol": "other/9"})["rule"] == "PROTOCOL"


@pytest.mark.parametrize("request_", [{"op": "dance"}, {"op": "legal_plays"}, [1], "x",
                                      {"op": "new_round"}])
def test_referee_refuses_requests_the_protocol_does_not_define(request_: JSON) -> None:
    answer = Referee().handle(request_)
    assert answer["ok"] is False and answer["rule"] == "PROTOCOL"
    assert isinstance(answer["error"], str)


def test_referee_refuses_a_configuration_with_its_rule_CONFIG_BOTTLES() -> None:
    answer = Referee().handle(_new_round(4, bottles=2))
    assert answer["rule"] == "CONFIG-BOTTLES"


def test_referee_refuses_a_deal_that_is_not_the_deck_DEAL_COUNTS() -> None:
    request = _new_round(4)
    hands = request["hands"]
    assert isinstance(hands, list) and isinstance(hands[0], list)
    hands[0][0] = 19
    assert Referee().handle(request)["rule"] == "DEAL-COUNTS"


def test_referee_takes_a_setup_whole_or_not_at_all_SETUP_FROM_DEALT() -> None:
    referee = Referee()
    assert referee.handle(_new_round(4)) == {"ok": True, "dealer": 0, "to_act": 1}
    state = referee.state
    assert state is not None
    hand = [card.rank for card in state.round.hands[1]]
    other = state.round.hands[2][0].rank
    refused = referee.handle({"op": "setup", "seat": 1, "discard": [hand[0]], "left": hand[1],
                              "right": other})
    assert refused["rule"] == "SETUP-FROM-DEALT"
    assert referee.state is state
    accepted = referee.handle({"op": "setup", "seat": 1, "discard": [hand[0]], "left": hand[1],
                               "right": hand[2]})
    assert accepted == {"ok": True, "to_act": 2}


def test_referee_names_the_setup_rules_in_order_SETUP_ORDER_SETUP_STEPS() -> None:
    referee = Referee()
    referee.handle(_new_round(4))
    state = referee.state
    assert state is not None
    hand = [card.rank for card in state.round.hands[2]]
    assert referee.handle({"op": "setup", "seat": 2, "discard": [hand[0]], "left": hand[1],
                           "right": hand[2]})["rule"] == "SETUP-ORDER"
    own = [card.rank for card in state.round.hands[1]]
    assert referee.handle({"op": "setup", "seat": 1, "discard": [own[0]],
                           "left": own[1]})["rule"] == "SETUP-STEPS"
    assert referee.handle({"op": "setup", "seat": 1, "discard": [],
                           "left": own[1], "right": own[2]})["rule"] == "SETUP-STEPS"
    assert referee.handle({"op": "play", "seat": 1, "card": own[0]})["rule"] == "PHASE"
    assert referee.handle({"op": "scores"})["rule"] == "ROUND-END"


def test_compare_matches_refusals_by_rule_and_numbers_by_value() -> None:
    refusal: dict[str, JSON] = {"ok": False, "error": "x", "rule": "FOLLOW-SUIT"}
    assert compare(refusal, {"ok": False, "error": "other words", "rule": "FOLLOW-SUIT"}) is None
    assert compare(refusal, {"ok": False, "error": "x", "rule": "CARD-HELD"}) is not None
    assert compare(refusal, {"ok": True, "to_act": 1}) is not None
    assert compare({"ok": True, "to_act": 1}, {"ok": True, "to_act": 1.0, "_note": "x"}) is None
    assert compare({"ok": True, "to_act": 1}, {"ok": True, "to_act": True}) is not None
    assert compare({"ok": True, "to_act": 1}, {"ok": True, "to_act": 1, "extra": 2}) is not None

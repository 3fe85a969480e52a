"""The analysis of a record (``bottleimp.analysis.record``, ``bottleimp analyse``): it gives the
values of solving each position on its own, names the broken rule of an illegal record and
analyses the plays before it, answers a malformed record with the validator's error, prints
JSON that its schema (``spec/reports/analysis.schema.json``) accepts, and reads the records
written by ``simulate``, by games between the arena's bots, by the browser game's session and by
the conformance harness."""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped, unused-ignore]

from bottleimp import Card, Colour, Config, GameState, Phase, apply, legal_actions, new_game, view
from bottleimp.analysis import Solver, card_values, solve
from bottleimp.analysis import record as record_module
from bottleimp.analysis.record import analyse_json, analysis_to_json, analysis_to_text
from bottleimp.bots import make_bot
from bottleimp.cli import main
from bottleimp.formats._records import record_from_state, record_to_json

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = Draft202012Validator(json.loads(
    (ROOT / "spec" / "reports" / "analysis.schema.json").read_text(encoding="utf-8")))



def test_the_schema_is_a_draft_2020_12_schema() -> None:
    Draft202012Validator.check_schema(SCHEMA.schema)


SMALL_DECK = tuple(
    Card(rank, (Colour.YELLOW, Colour.BLUE, Colour.RED)[index % 3], 1 + index % 3)
    for index, rank in enumerate([3, 21, 7, 12, 26, 5, 16, 9, 30, 14, 2, 11, 18, 24, 6]))


def played_states(config: Config, seed: int, bots: str = "heuristic") -> list[GameState]:
    """Every state of a whole game between bots of one kind, as the arena seats them."""
    players = [make_bot(bots, seed * 7 + seat) for seat in range(config.players)]
    states = [new_game(config, seed)]
    while states[-1].to_act is not None:
        state = states[-1]
        seat = state.to_act
        assert seat is not None
        states.append(apply(state, players[seat].choose(view(state, seat), legal_actions(state))))
    return states


def played_game(config: Config, seed: int, bots: str = "heuristic") -> GameState:
    return played_states(config, seed, bots)[-1]


def record_of(state: GameState) -> Any:
    return record_to_json(record_from_state(state))


SMALL_RECORD = record_of(played_game(Config(players=3, deck=SMALL_DECK, rounds=2), seed=4))


def differences(analysis: Any) -> int:
    """The values (deal values and card values) of the analysis of ``SMALL_RECORD`` that differ
    from solving each position on its own."""
    assert analysis.fault is None and len(analysis.rounds) == 2
    states = played_states(Config(players=3, deck=SMALL_DECK, rounds=2), seed=4)
    different = checked = 0
    for round_ in analysis.rounds:
        positions = [state for state in states
                     if state.phase is Phase.PLAY and state.round.index == round_.round]
        for seat in range(3):
            different += round_.deal_values[seat] != solve(positions[0], seat, node_budget=None)
        assert len(positions) == len(round_.plays)
        for state, play in zip(positions, round_.plays):
            assert play.play == len(state.round.plays)
            alone = card_values(state, Solver(play.seat, state.config, node_budget=None))
            different += sum(mine != (p.card.rank, v) for mine, (p, v) in zip(play.values, alone))
            checked += 1
    assert checked == sum(len(r.plays) for r in analysis.rounds) > 0
    return different


def test_the_analysis_of_a_record_equals_solving_each_position_alone() -> None:
    analysis = analyse_json(SMALL_RECORD, node_budget=None, round_seconds=None)
    assert differences(analysis) == 0
    for round_ in analysis.rounds:
        for play in round_.plays:
            best = max(v.lower for _, v in play.values)
            assert play.loss.exact and play.loss.lower == best - dict(play.values)[play.card].lower
        assert [sum(p.loss.lower for p in round_.plays if p.seat == s) for s in range(3)] == [
            lost.lower for lost in round_.coins_lost]


def test_a_wrong_bound_carried_from_the_next_position_is_caught(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A plant: the analysis gives each played card's solve the bounds of the position after it
    (``record._before``); keeping a side's lower bound across another side's turn (where the
    value can fall) must give values that differ from solving each position alone."""
    def keeps_the_lower_bound(later: Any, acting: Any, best: Any) -> Any:
        return {side: (best.lower, best.upper) if side == acting else bounds
                for side, bounds in later.items()}
    monkeypatch.setattr(record_module, "_before", keeps_the_lower_bound)
    assert differences(analyse_json(SMALL_RECORD, node_budget=None, round_seconds=None)) > 0


def test_an_illegal_record_is_analysed_up_to_the_broken_rule_which_is_named() -> None:
    broken = copy.deepcopy(SMALL_RECORD)
    plays = broken["rounds"][0]["plays"]
    plays[5], plays[6] = plays[6], plays[5]  # two seats swap turns
    analysis = analyse_json(broken, "broken.json", node_budget=None, round_seconds=None)
    assert analysis.fault is not None and analysis.fault.rule == "TURN-ORDER"
    assert analysis.fault.path == "$.rounds[0].plays[5]"
    assert [play.play for play in analysis.rounds[0].plays] == [0, 1, 2, 3, 4]
    assert "The replay stops at rule TURN-ORDER" in analysis_to_text(analysis)
    SCHEMA.validate(analysis_to_json(analysis))


def test_a_malformed_record_gets_the_validators_error() -> None:
    analysis = analyse_json({"format": "bottleimp-record/9"}, "bad.json")
    assert analysis.unreadable and analysis.rounds == ()
    assert analysis.fault is not None and analysis.fault.path == "$.format"
    SCHEMA.validate(analysis_to_json(analysis))


def test_the_cli_prints_json_its_schema_accepts_on_every_exit_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SMALL_RECORD))
    assert main(["analyse", str(good), "--json"]) == 0
    answer = json.loads(capsys.readouterr().out)
    SCHEMA.validate(answer)
    assert answer["format"] == "bottleimp-analysis/1" and answer["status"] == "valid"
    assert all(value["exact"] for r in answer["rounds"] for value in r["deal_values"])
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    assert main(["analyse", str(bad), "--json"]) == 2
    refused = json.loads(capsys.readouterr().out)
    SCHEMA.validate(refused)
    assert refused["status"] == "unreadable"
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", str(good), "--json", "--worlds", "-1"])
    assert exit_.value.code == 2
    SCHEMA.validate(json.loads(capsys.readouterr().out))


def test_worlds_give_an_estimate_with_its_spread(capsys: pytest.CaptureFixture[str],
                                                  tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(SMALL_RECORD))
    assert main(["analyse", str(good), "--json", "--worlds", "3"]) == 0
    answer = json.loads(capsys.readouterr().out)
    SCHEMA.validate(answer)
    play = answer["rounds"][0]["plays"][0]
    estimate = play["estimate"]
    assert estimate["label"] == "estimate" and estimate["worlds"] == 3
    assert {v["card"] for v in estimate["values"]} == {v["card"] for v in play["values"]}
    assert main(["analyse", str(good), "--worlds", "2"]) == 0
    assert "estimate over 2 worlds" in capsys.readouterr().out


def test_past_the_budget_values_and_losses_are_bounds_that_hold() -> None:
    record = record_of(played_game(Config(players=3, rounds=1), seed=2))
    analysis = analyse_json(record, node_budget=200, round_seconds=None)
    (round_,) = analysis.rounds
    first = round_.plays[0]
    assert not all(value.exact for _, value in first.values)
    assert all(v.lower <= v.upper for _, v in first.values) and first.loss.lower >= 0
    last = round_.plays[-1]
    assert last.loss.exact
    SCHEMA.validate(analysis_to_json(analysis))


# --- records written by every writer ---------------------------------------------------------

def _analysed(value: Any) -> None:
    analysis = analyse_json(value, node_budget=100, round_seconds=None)
    assert analysis.fault is None and not analysis.unreadable
    assert any(round_.plays for round_ in analysis.rounds)
    SCHEMA.validate(analysis_to_json(analysis))


def test_a_record_of_simulate_is_analysed(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                          ) -> None:
    path = tmp_path / "sim.json"
    assert main(["simulate", "--players", "4", "--rounds", "1", "--seed", "3",
                 "--record", str(path)]) == 0
    capsys.readouterr()
    _analysed(json.loads(path.read_text()))


def test_a_record_of_the_arenas_bots_is_analysed() -> None:
    _analysed(record_of(played_game(Config(players=5, bottles=2, rounds=1), 1, "random")))


def test_a_record_of_the_browser_game_is_analysed() -> None:
    sys.path.insert(0, str(ROOT / "docs" / "play"))
    from session import Session  # type: ignore[import-not-found]

    session = Session()
    session.start(json.dumps(["--players", "3", "--rounds", "1", "--seed", "2"]))
    rng = random.Random(0)
    while session.state is not None and session.state.to_act is not None:
        legal = legal_actions(session.state)
        session.choose(str(rng.choice(legal).card.rank))  # type: ignore[union-attr]
    _analysed(json.loads(session.record()))


def test_a_record_written_by_the_conformance_harness_is_analysed(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]
                                                                 ) -> None:
    peer = [sys.executable, str(ROOT / "examples" / "reference_peer" / "peer.py"),
            "--bug", "devils-trick-assign"]
    main(["conformance", "--cmd", " ".join(f"'{part}'" for part in peer), "--examples", "6",
          "--shrink-seconds", "1", "--out", str(tmp_path), "--min-refusals", "1"])
    capsys.readouterr()
    records = sorted(tmp_path.glob("*.json"))
    assert records
    for path in records:
        _analysed(json.loads(path.read_text()))


def test_the_command_lines_format_id_is_the_analysis_format() -> None:
    from bottleimp.analysis.record import ANALYSIS_FORMAT
    from bottleimp.cli._analyse import FORMAT

    assert FORMAT == ANALYSIS_FORMAT


WITHOUT_NUMBA = """
import json, sys
sys.modules["numba"] = None  # as if numba were not installed
from bottleimp.bots import BOTS, NEEDS_NUMBA, make_bot
from bottleimp._errors import BotError
from bottleimp.cli import main
try:
    make_bot("sampling", 0)
except BotError as error:
    print("bot:", error)
print("status:", main(["analyse", sys.argv[1], "--json"]))
print("offered:", [bot for bot in BOTS if bot not in NEEDS_NUMBA])
"""


def test_without_numba_the_analysis_and_the_sampling_bot_say_what_to_install(
        tmp_path: Path) -> None:
    import subprocess

    record = tmp_path / "game.json"
    record.write_text(json.dumps(SMALL_RECORD))
    done = subprocess.run([sys.executable, "-c", WITHOUT_NUMBA, str(record)],
                          capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("bot: the sampling bot") and "pip install" in lines[0]
    answer = json.loads(lines[1])
    SCHEMA.validate(answer)
    assert answer["status"] == "usage" and "pip install 'bottleimp[batch]'" in answer["error"]
    assert lines[2] == "status: 2"
    assert lines[3] == "offered: ['random', 'heuristic', 'search']"
    assert "numba" in done.stderr

"""``bottleimp simulate`` and the built-in bots: a whole seeded game, narrated trick by trick with
the rules that decided, written as a record that the validator accepts for every variant."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from bottleimp import Config, apply, legal_actions, new_game, view
from bottleimp.bots import HeuristicBot, RandomBot, make_bot
from bottleimp.cli import main
from bottleimp.validation import VALID, validate_file

VARIANT_OPTIONS = {
    "devils-eye": ["--players", "2"],
    "devils-eye-matagot": ["--players", "2", "--edition", "matagot-2024"],
    "three": ["--players", "3"],
    "four": ["--players", "4"],
    "four-matagot-target": ["--players", "4", "--edition", "matagot-2024", "--target-score", "90"],
    "five": ["--players", "5"],
    "six": ["--players", "6"],
    "second-bottle-five": ["--players", "5", "--bottles", "2"],
    "second-bottle-six": ["--players", "6", "--bottles", "2"],
    "teams-four": ["--players", "4", "--teams"],
    "teams-five": ["--players", "5", "--teams"],
    "teams-six": ["--players", "6", "--teams"],
}


@pytest.mark.parametrize("name", sorted(VARIANT_OPTIONS))
def test_simulate_writes_a_record_the_validator_accepts_for_every_variant_WINNERS(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / f"{name}.json"
    options = VARIANT_OPTIONS[name]
    end = [] if "--target-score" in options else ["--rounds", "2"]
    assert main(["simulate", *options, *end, "--rules", "--record", str(record)]) == 0
    out = capsys.readouterr().out
    document = json.loads(record.read_text())
    rounds = len(document["rounds"])
    plural = "s" if rounds != 1 else ""
    assert f"Game over after {rounds} round{plural}. Seat" in out and "[WINNERS]" in out
    report = validate_file(record)
    assert report.status == VALID, report
    assert document["format"] == "bottleimp-record/1"
    if end:
        assert rounds == 2
    else:
        assert max(document["totals"]) >= 90
    assert all("scores" in round_ for round_ in document["rounds"])
    assert document["totals"] == [sum(column) for column in
                                  zip(*(round_["scores"] for round_ in document["rounds"]))]


def test_narration_names_the_trick_rules_and_prints_scores_TRICK_WINNER_BOTTLE_PURCHASE(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--players", "4", "--rounds", "1", "--seed", "3", "--rules"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "Round 1: seat 0 deals. [DEAL, DEALER-ROTATION]"
    tricks = [line for line in lines if line.startswith("  Trick ")]
    assert [line.split(":")[0] for line in tricks][:2] == ["  Trick 1 at 19", "  Trick 2 at 17"]
    assert len(tricks) == 8
    # The rules of a trick close its paragraph, which may wrap: read the paragraphs whole.
    assert "[TRICK-WINNER, BOTTLE-PURCHASE]" in " ".join(out.split())
    assert "Seat  Coins won  Bottle  Round  Total" in out
    assert "[SCORE-INDIVIDUAL, GAME-TOTALS]" in out


def test_without_rules_the_narration_names_no_rule_and_says_who_keeps_the_bottle(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Random bots: the heuristic buys the bottle at the first trick, so nobody buying is rare.
    assert main(["simulate", "--players", "4", "--rounds", "2", "--seed", "6", "--bot", "random"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "TRICK-WINNER" not in out and "[" not in out
    assert "stays with nobody" not in out
    assert "Nobody buys the bottle; it stays in the middle at 19." in out
    assert "Seat 3 keeps the bottle at 5." in out


def test_a_card_off_the_led_colour_says_the_seat_had_none_FOLLOW_SUIT(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--players", "4", "--rounds", "1", "--seed", "3"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    # Seats 1 and 2 have no yellow left, so their blue cards are allowed; seat 3's 3 buys the
    # bottle from itself, and its old price card comes back to it.
    assert (
        "Trick 4 at 15: seat 3: 3 yellow, seat 0: 18 yellow, seat 1: 20 blue (no yellow), "
        "seat 2: 30 blue (no yellow). 3 is the highest card below the price 15: seat 3 wins "
        "and buys the bottle, price now 3. The old price card 15 yellow goes to its buyer, seat 3."
    ) in out


def test_a_devils_eye_hidden_card_is_marked_free_EYE_FOLLOW_SUIT(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--players", "2", "--rounds", "1"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "seat 1: 11 red (hidden hand)" in out


def test_the_same_seed_narrates_the_same_game_DEAL_SHUFFLE(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["simulate", "--players", "3", "--rounds", "2", "--seed", "11", "--bot", "random"])
    first = capsys.readouterr().out
    main(["simulate", "--players", "3", "--rounds", "2", "--seed", "11", "--bot", "random"])
    assert capsys.readouterr().out == first


def test_json_prints_the_record(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--players", "3", "--rounds", "1", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    assert document["config"]["players"] == 3 and len(document["rounds"]) == 1


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--players", "7"], "argument --players: invalid choice: 7"),
        (["--rounds", "0"], "argument --rounds: expected a positive integer, not 0"),
        (["--rounds", "2", "--target-score", "50"], "not allowed with argument"),
        (["--players", "4", "--bottles", "2"], "[CONFIG-BOTTLES]"),
        (["--players", "3", "--teams"], "[CONFIG-TEAMS]"),
        (["--players", "5", "--edition", "classic"], "[CONFIG-EDITION]"),
    ],
)
def test_a_bad_option_gets_a_message_and_exit_status_2_CONFIG_BOTTLES(
    arguments: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["simulate", *arguments])
    assert caught.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("where", ["missing-folder", "directory"])
def test_an_unwritable_record_path_fails_before_the_game_with_exit_status_2(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "no-such-folder" / "game.json" if where == "missing-folder" else tmp_path
    assert main(["simulate", "--rounds", "1", "--record", str(path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""  # no game was played
    assert f"bottleimp simulate: cannot write the record to {path}: " in captured.err
    assert "directory" in captured.err


def test_a_writable_record_path_is_not_left_behind_when_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    assert main(["simulate", "--rounds", "1", "--record", str(path)]) == 0
    assert validate_file(path).status == VALID
    assert " ".join(capsys.readouterr().out.split()).endswith(f"Record written to {path}.")


def test_a_closed_pipe_ends_the_narration_quietly() -> None:
    command = [sys.executable, "-c", "from bottleimp.cli import main; main(['simulate'])"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.readline()
    process.stdout.close()
    errors = process.stderr.read().decode()
    process.wait(timeout=60)
    assert "Traceback" not in errors


@pytest.mark.parametrize("kind", ["random", "heuristic"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_bots_choose_only_legal_actions_from_their_view_VIEW_HIDDEN(kind: str, players: int) -> None:
    config = Config(players=players, edition="matagot-2024", rounds=1)
    bots = [make_bot(kind, seat) for seat in range(players)]
    state = new_game(config, seed=5)
    while state.to_act is not None:
        legal = legal_actions(state)
        action = bots[state.to_act].choose(view(state, state.to_act), legal)
        assert action in legal
        state = apply(state, action)
    assert state.round.scores is not None


def test_the_random_bot_is_deterministic_for_a_seed() -> None:
    state = new_game(Config(players=4), seed=2)
    legal = legal_actions(state)
    seen = view(state, state.to_act or 0)
    assert [RandomBot(9).choose(seen, legal) for _ in range(3)] == [
        RandomBot(9).choose(seen, legal) for _ in range(3)
    ]


def test_the_heuristic_bot_gives_its_lowest_card_away_first_SETUP_STEPS() -> None:
    state = new_game(Config(players=4), seed=2)
    legal = legal_actions(state)
    assert HeuristicBot().choose(view(state, state.to_act or 0), legal) == legal[0]


def test_an_unknown_bot_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        make_bot("clever", 0)


def test_rules_with_json_is_refused_not_ignored(capsys: pytest.CaptureFixture[str]) -> None:
    """``--rules`` names the rules in the narration, which ``--json`` replaces."""
    with pytest.raises(SystemExit) as leaving:
        main(["simulate", "--json", "--rules"])
    assert leaving.value.code == 2
    assert "argument --rules: not allowed with argument --json" in capsys.readouterr().err

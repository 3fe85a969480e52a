"""The validator: valid records of every variant, every kind of fault (built by mutating a valid
record of a seeded game) named by its rule ID and located, the report, and the command line.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bottleimp import Config, GameState, Phase, catalogue
from bottleimp.cli import main
from bottleimp.cli import _validate as validate_command
from bottleimp.formats._json_input import check_json_value
from bottleimp.rules.game import winners
from bottleimp.validation import (
    BROKEN,
    UNREADABLE,
    Fault,
    VALID,
    ValidationReport,
    report_to_json,
    report_to_text,
    validate_file,
    validate_files,
    validate_json,
    validate_values,
)

from games import VARIANTS, Doc, doc_of, json_slots, random_game


_GAMES: dict[tuple[str, int], GameState] = {}


def game(name: str, seed: int = 11) -> GameState:
    key = (name, seed)
    if key not in _GAMES:
        _GAMES[key] = random_game(VARIANTS[name], seed)
    return _GAMES[key]


def game_doc(name: str = "classic-4p", seed: int = 11, rounds: int | None = None) -> Doc:
    """A complete game's record; with ``rounds``, only its first rounds (a valid partial game),
    claims kept: the totals are those of the rounds kept."""
    doc = doc_of(game(name, seed))
    if rounds is not None:
        doc["rounds"] = doc["rounds"][:rounds]
        doc["totals"] = [sum(r["scores"][s] for r in doc["rounds"]) for s in range(len(doc["totals"]))]
    return doc


def check(doc: Doc) -> ValidationReport:
    return validate_json(copy.deepcopy(doc))


def assert_fault(
    doc: Doc, rule: str, round_: int | None, play: int | None, seat: int | None, path: str
) -> ValidationReport:
    report = check(doc)
    assert report.status == BROKEN, report_to_text(report)
    (fault,) = report.errors
    assert (fault.rule, fault.round, fault.play, fault.seat, fault.path) == (
        rule, round_, play, seat, path
    ), fault
    assert not report.valid and not report.complete and report.winners is None
    assert fault.message.strip()
    return report


def seat_plays(doc: Doc, round_: int, seat: int) -> list[int]:
    """The indices of the plays of ``seat`` in round ``round_``."""
    return [i for i, (s, _) in enumerate(doc["rounds"][round_]["plays"]) if s == seat]


# --- valid records -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_complete_game_of_every_variant_is_valid_and_reported_as_the_engine_played_it(
    name: str,
) -> None:
    state = game(name)
    report = check(doc_of(state))
    assert report.status == VALID and report.valid and report.errors == ()
    assert report.complete
    assert report.totals == state.totals
    assert report.winners == winners(state.totals)
    assert len(report.rounds) == len(state.rounds)
    for reported, played in zip(report.rounds, state.rounds):
        assert reported.complete and reported.scores == played.scores
        assert reported.dealer == played.dealer
        assert reported.bottle_owners == tuple(bottle.owner for bottle in played.bottles)
        assert reported.devils_trick == tuple(card.rank for card in played.devils_trick)
        assert [(t.winner, t.bottle, t.price_before, t.price_after) for t in reported.tricks] == [
            (t.winner, t.bottle, t.price_before, t.price_after) for t in played.tricks
        ]


def test_record_without_claims_is_valid() -> None:
    doc = game_doc()
    del doc["totals"]
    for round_ in doc["rounds"]:
        del round_["scores"]
    report = check(doc)
    assert report.valid and report.complete and report.totals == game("classic-4p").totals


@pytest.mark.parametrize("name", ["classic-2p", "classic-4p", "matagot-5p-two-bottles"])
def test_game_cut_after_any_action_is_a_valid_partial_record(name: str) -> None:
    config = VARIANTS[name]
    full = game(name, 3)
    actions = sum(
        sum(len(g) for g in r.setup) + len(r.plays) + (1 if r.index else 0) for r in full.rounds
    )
    for cut in [*range(0, 60), *range(60, actions, 23), actions - 1]:
        state = random_game(config, 3, cut)
        report = check(doc_of(state))
        assert report.valid, (cut, report_to_text(report))
        assert report.complete == state.is_over
        assert report.totals == state.totals
        last = report.rounds[-1]
        assert last.complete == (state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER))
        assert (last.devils_trick is None) == (state.phase is Phase.SETUP)


def test_record_with_no_rounds_is_valid_and_unfinished() -> None:
    doc = game_doc()
    doc["rounds"] = []
    doc["totals"] = [0, 0, 0, 0]
    report = check(doc)
    assert report.valid and not report.complete and report.rounds == ()


def test_extension_keys_do_not_change_the_verdict() -> None:
    doc = game_doc()
    doc["_by"] = {"engine": "elsewhere"}
    doc["rounds"][3]["_note"] = [1, 2, 3]
    doc["rounds"][3]["setup"][2]["_why"] = "keeps the 5"
    assert check(doc).valid


# --- deal faults -------------------------------------------------------------------------------


def test_hand_with_a_card_too_many_breaks_DEAL_COUNTS() -> None:
    doc = game_doc()
    doc["rounds"][2]["hands"][1].append(doc["rounds"][2]["hands"][0].pop())
    assert_fault(doc, "DEAL-COUNTS", 2, None, None, "$.rounds[2].hands")


def test_card_dealt_twice_breaks_DEAL_COUNTS() -> None:
    doc = game_doc()
    hands = doc["rounds"][0]["hands"]
    hands[0][0] = hands[1][0]
    report = assert_fault(doc, "DEAL-COUNTS", 0, None, None, "$.rounds[0].hands")
    assert "twice" in report.errors[0].message


def test_rank_that_is_no_card_of_the_deck_breaks_DEAL_COUNTS() -> None:
    doc = game_doc()
    doc["rounds"][0]["hands"][2][4] = 38
    report = assert_fault(doc, "DEAL-COUNTS", 0, None, 2, "$.rounds[0].hands[2][4]")
    assert "38 is not a card" in report.errors[0].message


def test_start_card_19_in_a_hand_breaks_DEAL_COUNTS() -> None:
    doc = game_doc()
    doc["rounds"][0]["hands"][1][0] = 19
    assert_fault(doc, "DEAL-COUNTS", 0, None, 1, "$.rounds[0].hands[1][0]")


def test_devils_eye_face_up_row_with_a_card_too_many_breaks_DEAL_COUNTS() -> None:
    doc = game_doc("classic-2p")
    face_up = doc["rounds"][1]["face_up"]
    face_up[0].append(face_up[1].pop())
    assert_fault(doc, "DEAL-COUNTS", 1, None, None, "$.rounds[1].hands")


def test_cards_swapped_between_hands_are_caught_where_first_played_CARD_HELD() -> None:
    """Swap two same-coloured cards two seats kept and played, so following suit is unchanged:
    whichever of the two is played first is not held by its player."""
    doc = game_doc()
    round_ = doc["rounds"][0]
    given = {c for entry in round_["setup"] for c in [*entry["discard"], entry["left"], entry["right"]]}
    colour = {card.rank: card.colour for card in VARIANTS["classic-4p"].cards}
    kept = {
        seat: [c for c in round_["hands"][seat] if c not in given] for seat in range(4)
    }
    x, y = next(
        (x, y) for x in kept[0] for y in kept[1] if colour[x] is colour[y]
    )
    hands = round_["hands"]
    hands[0][hands[0].index(x)], hands[1][hands[1].index(y)] = y, x
    plays = round_["plays"]
    first = min(i for i, (_, card) in enumerate(plays) if card in (x, y))
    assert_fault(doc, "CARD-HELD", 0, first, plays[first][0], f"$.rounds[0].plays[{first}]")


# --- dealer faults -----------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_any_seat_may_deal_the_first_round_FIRST_DEALER(name: str) -> None:
    config = VARIANTS[name]
    for first in range(config.players):
        state = random_game(config, 5 + first, first_dealer=first)
        doc = doc_of(state)
        assert doc["rounds"][0]["dealer"] == first
        report = validate_json(doc)
        assert report.valid and report.totals == state.totals, report_to_text(report)


def test_a_game_dealt_first_by_seat_2_then_rotates_from_there_DEALER_ROTATION() -> None:
    doc = doc_of(random_game(VARIANTS["classic-4p"], 11, first_dealer=2))
    assert [round_["dealer"] for round_ in doc["rounds"]][:4] == [2, 3, 0, 1]
    doc["rounds"][1]["dealer"] = 0
    assert_fault(doc, "DEALER-ROTATION", 1, None, 0, "$.rounds[1].dealer")


def test_later_round_dealt_out_of_rotation_breaks_DEALER_ROTATION() -> None:
    doc = game_doc()
    doc["rounds"][3]["dealer"] = 1
    report = assert_fault(doc, "DEALER-ROTATION", 3, None, 1, "$.rounds[3].dealer")
    assert len(report.rounds) == 3  # the rounds before the fault are reported
    assert report.errors[0].message == (
        "the deal passes one seat clockwise each round: seat 3 deals round 4, not seat 1"
    )


def test_round_after_the_last_breaks_GAME_OVER() -> None:
    doc = game_doc()
    extra = copy.deepcopy(doc["rounds"][0])
    extra["dealer"] = 0  # the dealer that would come next, so that only the game's end is at fault
    doc["rounds"].append(extra)
    report = assert_fault(doc, "GAME-OVER", 8, None, 0, "$.rounds[8].dealer")
    assert report.errors[0].message == "the game ended with round 8: no round 9 follows"


def test_round_after_the_target_score_breaks_GAME_OVER() -> None:
    state = game("matagot-4p-target")
    doc = doc_of(state)
    extra = copy.deepcopy(doc["rounds"][0])
    extra["dealer"] = (state.round.dealer + 1) % 4
    doc["rounds"].append(extra)
    last = len(state.rounds)
    assert_fault(doc, "GAME-OVER", last, None, extra["dealer"], f"$.rounds[{last}].dealer")


# --- setup faults ------------------------------------------------------------------------------


def test_passing_a_card_not_dealt_breaks_SETUP_FROM_DEALT() -> None:
    doc = game_doc()
    round_ = doc["rounds"][1]  # dealer 1: seat 2 chooses first, then 3, 0, 1
    stranger = round_["hands"][0][0]
    round_["setup"][3]["left"] = stranger
    assert_fault(doc, "SETUP-FROM-DEALT", 1, None, 3, "$.rounds[1].setup[3].left")


def test_discarding_a_rank_that_is_no_card_breaks_SETUP_FROM_DEALT() -> None:
    doc = game_doc()
    doc["rounds"][0]["setup"][2]["discard"] = [12.5]
    assert_fault(doc, "SETUP-FROM-DEALT", 0, None, 2, "$.rounds[0].setup[2].discard[0]")


def test_devils_eye_setup_from_the_face_up_cards_breaks_SETUP_FROM_DEALT() -> None:
    doc = game_doc("classic-2p")
    round_ = doc["rounds"][0]  # dealer 0: seat 1 chooses first
    round_["setup"][1]["discard"][1] = round_["face_up"][1][0]
    assert_fault(doc, "SETUP-FROM-DEALT", 0, None, 1, "$.rounds[0].setup[1].discard[1]")


def test_missing_discard_breaks_SETUP_STEPS() -> None:
    doc = game_doc()
    doc["rounds"][0]["setup"][1]["discard"] = []
    assert_fault(doc, "SETUP-STEPS", 0, None, 1, "$.rounds[0].setup[1].left")


def test_two_discards_with_four_players_break_SETUP_STEPS() -> None:
    doc = game_doc()
    entry = doc["rounds"][0]["setup"][1]
    entry["discard"].append(entry.pop("left"))
    assert_fault(doc, "SETUP-STEPS", 0, None, 1, "$.rounds[0].setup[1].discard[1]")


def test_five_player_dealer_who_discards_breaks_SETUP_STEPS() -> None:
    doc = game_doc("matagot-5p")
    round_ = doc["rounds"][0]
    entry = round_["setup"][0]
    kept = [c for c in round_["hands"][0] if c not in (entry["left"], entry["right"])]
    entry["discard"] = [kept[0]]
    assert_fault(doc, "SETUP-STEPS", 0, None, 0, "$.rounds[0].setup[0].discard[0]")


def test_devils_eye_with_one_discard_breaks_SETUP_STEPS() -> None:
    doc = game_doc("classic-2p")
    doc["rounds"][0]["setup"][1]["discard"].pop()
    assert_fault(doc, "SETUP-STEPS", 0, None, 1, "$.rounds[0].setup[1].to_face_up")


def test_incomplete_setup_followed_by_plays_breaks_SETUP_STEPS() -> None:
    doc = game_doc()
    del doc["rounds"][0]["setup"][3]["right"]
    report = assert_fault(doc, "SETUP-STEPS", 0, None, 3, "$.rounds[0].setup[3]")
    assert "seat 3 has given 2 of its 3 setup cards, yet the record goes on with plays" in (
        report.errors[0].message
    )


def test_incomplete_setup_followed_by_a_round_breaks_SETUP_STEPS() -> None:
    doc = game_doc(rounds=2)
    del doc["rounds"][0]["setup"][0]["right"]
    doc["rounds"][0]["plays"] = []
    del doc["rounds"][0]["scores"]
    report = assert_fault(doc, "SETUP-STEPS", 0, None, 0, "$.rounds[0].setup[0]")
    assert "seat 0 has given 2 of its 3 setup cards, yet the record goes on with round 2" in (
        report.errors[0].message
    )


def assert_noted(doc: Doc, rule: str, seat: int, path: str) -> ValidationReport:
    """The record is valid (status 0) and notes one departure from the convention ``rule``."""
    report = check(doc)
    assert report.status == VALID and report.errors == (), report_to_text(report)
    (note,) = report.notes
    assert (note.rule, note.round, note.play, note.seat, note.path) == (rule, 0, None, seat, path)
    assert catalogue.is_convention(rule)
    return report


def test_partial_setups_in_another_seat_order_are_valid_with_a_SETUP_ORDER_note() -> None:
    """A record ending mid-setup in which seat 2 has chosen while seat 1 has not: the library
    takes the setups in turn from the dealer's left, a convention (SETUP-ORDER, interpretation
    I-CONVENTION-SETUP-ORDER); the sources have every seat choose at once. Noted, not failed."""
    doc = doc_of(random_game(VARIANTS["classic-4p"], 11, actions=5))
    assert check(doc).valid and check(doc).notes == ()
    del doc["rounds"][0]["setup"][1]["right"]
    report = assert_noted(doc, "SETUP-ORDER", 2, "$.rounds[0].setup[2].discard[0]")
    text = report_to_text(report)
    assert text.splitlines()[0].endswith("valid: an unfinished game (1 round recorded)")
    assert "note: SETUP-ORDER is a convention of the library" in text
    assert report_to_json(report)["notes"] == [{
        "rule": "SETUP-ORDER", "round": 0, "play": None, "seat": 2,
        "message": report.notes[0].message, "path": "$.rounds[0].setup[2].discard[0]"}]


def test_setups_given_past_a_seat_that_gave_none_are_noted_from_the_first_seat_on() -> None:
    """Dealer 0: the library takes the seats in the order 1, 2, 3, 0. Seat 2 gave nothing, yet
    seats 3 and 0 did: the note names seat 3, the first to give past seat 2."""
    doc = doc_of(random_game(VARIANTS["classic-4p"], 11, actions=12))
    assert doc["rounds"][0]["plays"] == [] and check(doc).valid
    doc["rounds"][0]["setup"][2] = {"discard": []}
    assert_noted(doc, "SETUP-ORDER", 3, "$.rounds[0].setup[3].discard[0]")


def test_setups_in_another_seat_order_are_still_judged_by_the_rules_of_the_sources() -> None:
    """Out of the library's order, a card the seat was not dealt still breaks SETUP-FROM-DEALT,
    a pass before the discard SETUP-STEPS: only the order of the seats is a convention."""
    doc = doc_of(random_game(VARIANTS["classic-4p"], 11, actions=12))
    round_ = doc["rounds"][0]
    round_["setup"][2] = {"discard": []}
    stolen = copy.deepcopy(doc)
    stolen["rounds"][0]["setup"][3]["left"] = round_["hands"][1][0]
    assert_fault(stolen, "SETUP-FROM-DEALT", 0, None, 3, "$.rounds[0].setup[3].left")
    skipped = copy.deepcopy(doc)
    skipped["rounds"][0]["setup"][0] = {"discard": [], "right": round_["setup"][0]["right"]}
    assert_fault(skipped, "SETUP-STEPS", 0, None, 0, "$.rounds[0].setup[0].right")


def test_a_record_noted_for_a_convention_exits_0_and_prints_the_note(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = doc_of(random_game(VARIANTS["classic-4p"], 11, actions=5))
    del doc["rounds"][0]["setup"][1]["right"]
    path = tmp_path / "other-order.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    assert "note: SETUP-ORDER is a convention" in capsys.readouterr().out
    assert main(["validate", "--json", str(path)]) == 0
    (line,) = capsys.readouterr().out.splitlines()
    report = json.loads(line)
    assert report["status"] == 0 and report["errors"] == []
    assert [note["rule"] for note in report["notes"]] == ["SETUP-ORDER"]


# --- play faults -------------------------------------------------------------------------------


def test_play_out_of_turn_breaks_TURN_ORDER() -> None:
    doc = game_doc()
    plays = doc["rounds"][2]["plays"]
    plays[8], plays[9] = plays[9], plays[8]
    seat = plays[8][0]
    report = assert_fault(doc, "TURN-ORDER", 2, 8, seat, "$.rounds[2].plays[8]")
    assert len(report.rounds) == 3 and not report.rounds[2].complete  # the round so far


def test_devils_eye_seat_playing_twice_in_a_row_breaks_TURN_ORDER() -> None:
    doc = game_doc("classic-2p")
    plays = doc["rounds"][0]["plays"]
    seat = plays[0][0]
    later = seat_plays(doc, 0, seat)[1]
    plays.insert(1, plays.pop(later))
    assert_fault(doc, "TURN-ORDER", 0, 1, seat, "$.rounds[0].plays[1]")


def test_card_held_by_another_seat_breaks_CARD_HELD() -> None:
    doc = game_doc()
    plays = doc["rounds"][4]["plays"]
    seat = plays[0][0]
    other = next(i for i, (s, _) in enumerate(plays) if s != seat)
    plays[0][1] = plays[other][1]
    assert_fault(doc, "CARD-HELD", 4, 0, seat, "$.rounds[4].plays[0]")


def test_card_already_played_breaks_CARD_HELD() -> None:
    doc = game_doc()
    plays = doc["rounds"][0]["plays"]
    seat = plays[0][0]
    again = seat_plays(doc, 0, seat)[1]
    plays[again][1] = plays[0][1]
    assert_fault(doc, "CARD-HELD", 0, again, seat, f"$.rounds[0].plays[{again}]")


def test_rank_that_is_no_card_played_breaks_CARD_HELD() -> None:
    doc = game_doc()
    doc["rounds"][0]["plays"][5][1] = 0
    seat = doc["rounds"][0]["plays"][5][0]
    assert_fault(doc, "CARD-HELD", 0, 5, seat, "$.rounds[0].plays[5][1]")


def _find_swap(doc: Doc, rule: str) -> tuple[Doc, int, int]:
    """A copy of the first round of ``doc`` in which one seat's cards at two of its plays are
    exchanged so that the earlier play breaks ``rule``; returns it, the play index and the seat."""
    base = copy.deepcopy(doc)
    base["rounds"] = base["rounds"][:1]
    base["totals"] = base["rounds"][0]["scores"]
    plays = base["rounds"][0]["plays"]
    for seat in range(len(base["rounds"][0]["hands"])):
        mine = seat_plays(base, 0, seat)
        for a, i in enumerate(mine):
            for j in mine[a + 1:]:
                trial = copy.deepcopy(base)
                swapped = trial["rounds"][0]["plays"]
                swapped[i][1], swapped[j][1] = plays[j][1], plays[i][1]
                faults = check(trial).errors
                if faults and faults[0].rule == rule and faults[0].play == i:
                    return trial, i, seat
    raise AssertionError(f"no exchange of plays breaks {rule}")


def test_revoke_breaks_FOLLOW_SUIT() -> None:
    doc, play, seat = _find_swap(game_doc(), "FOLLOW-SUIT")
    report = assert_fault(doc, "FOLLOW-SUIT", 0, play, seat, f"$.rounds[0].plays[{play}]")
    assert "must follow" in report.errors[0].message


def test_revoke_from_the_face_up_cards_breaks_EYE_FOLLOW_SUIT() -> None:
    doc, play, seat = _find_swap(game_doc("classic-2p"), "EYE-FOLLOW-SUIT")
    assert_fault(doc, "EYE-FOLLOW-SUIT", 0, play, seat, f"$.rounds[0].plays[{play}]")


def test_card_after_the_round_is_over_breaks_ROUND_END() -> None:
    doc = game_doc()
    plays = doc["rounds"][0]["plays"]
    assert len(plays) == 32  # 36 cards, 4 in the Devil's Trick
    plays.append([plays[-4][0], plays[-4][1]])
    assert_fault(doc, "ROUND-END", 0, 32, plays[-1][0], "$.rounds[0].plays[32]")


def test_card_after_the_last_round_is_over_breaks_ROUND_END() -> None:
    doc = game_doc()
    plays = doc["rounds"][7]["plays"]
    plays.append(list(plays[0]))
    assert_fault(doc, "ROUND-END", 7, 32, plays[0][0], "$.rounds[7].plays[32]")


def test_round_that_follows_an_unfinished_round_breaks_ROUND_END() -> None:
    doc = game_doc(rounds=3)
    doc["rounds"][1]["plays"].pop()
    report = assert_fault(doc, "ROUND-END", 1, None, None, "$.rounds[2]")
    assert "1 cards are still to be played" in report.errors[0].message


def test_unplayed_cards_of_an_unfinished_devils_eye_round_count_the_face_up_rows_ROUND_END() -> None:
    doc = game_doc("classic-2p", rounds=2)
    doc["rounds"][0]["plays"] = doc["rounds"][0]["plays"][:3]
    del doc["rounds"][0]["scores"]
    doc["totals"] = [0, 0]
    report = assert_fault(doc, "ROUND-END", 0, None, None, "$.rounds[1]")
    round_ = doc["rounds"][0]
    dealt = sum(map(len, round_["hands"])) + sum(map(len, round_["face_up"]))
    discarded = sum(len(entry["discard"]) for entry in round_["setup"])
    left = dealt - discarded - 3  # the cards given to the opponent stay in play
    assert f"round 1 has not ended ({left} cards are still to be played)" in report.errors[0].message


# --- claims ------------------------------------------------------------------------------------


def test_wrong_round_score_breaks_SCORE_ROUND() -> None:
    doc = game_doc()
    doc["rounds"][5]["scores"][2] += 1
    report = assert_fault(doc, "SCORE-ROUND", 5, None, 2, "$.rounds[5].scores[2]")
    assert len(report.rounds) == 6 and report.rounds[5].scores is not None
    assert report.rounds[5].complete  # the round ended: its claim is what is wrong


def test_team_round_scored_individually_breaks_SCORE_ROUND() -> None:
    state = game("matagot-4p-teams")
    doc = doc_of(state)
    captured = state.rounds[0].captured
    owners = {bottle.owner for bottle in state.rounds[0].bottles}
    individual = [
        -sum(c.coins for c in state.rounds[0].devils_trick) if seat in owners
        else sum(c.coins for c in captured[seat])
        for seat in range(4)
    ]
    assert individual != doc["rounds"][0]["scores"]
    doc["rounds"][0]["scores"] = individual
    report = check(doc)
    assert report.errors[0].rule == "SCORE-ROUND" and report.errors[0].round == 0


def test_scores_claimed_for_an_unfinished_round_break_SCORE_ROUND() -> None:
    doc = game_doc(rounds=2)
    doc["rounds"][1]["plays"] = doc["rounds"][1]["plays"][:10]
    doc["totals"] = doc["rounds"][0]["scores"]
    assert_fault(doc, "SCORE-ROUND", 1, None, None, "$.rounds[1].scores")


def test_wrong_totals_break_GAME_TOTALS() -> None:
    doc = game_doc()
    doc["totals"][3] -= 5
    report = assert_fault(doc, "GAME-TOTALS", None, None, 3, "$.totals[3]")
    assert len(report.rounds) == 8
    totals = game("classic-4p").totals
    claimed = ", ".join(map(str, totals[:3] + (totals[3] - 5,)))
    assert report.errors[0].message.startswith(
        f"the record claims totals [{claimed}], but its rounds sum to [{', '.join(map(str, totals))}]"
    )
    assert report_to_text(report) == (
        "<record>: breaks rule GAME-TOTALS: seat 3 ($.totals[3])\n  " + report.errors[0].message
    )


def test_totals_of_a_partial_game_sum_its_complete_rounds_GAME_TOTALS() -> None:
    doc = game_doc(rounds=3)
    doc["rounds"][2]["plays"] = doc["rounds"][2]["plays"][:7]
    del doc["rounds"][2]["scores"]
    assert not check(doc).valid
    doc["totals"] = [a + b for a, b in zip(doc["rounds"][0]["scores"], doc["rounds"][1]["scores"])]
    assert check(doc).valid


# --- unreadable records ------------------------------------------------------------------------


def test_invalid_configuration_is_unreadable_with_its_rule_and_path() -> None:
    doc = game_doc()
    doc["config"]["bottles"] = 2
    report = check(doc)
    assert report.status == UNREADABLE
    (fault,) = report.errors
    assert (fault.rule, fault.path) == ("CONFIG-BOTTLES", "$.config.bottles")
    assert "CONFIG-BOTTLES" in report_to_text(report)


def test_shape_fault_is_unreadable_with_its_path() -> None:
    doc = game_doc()
    doc["rounds"][1]["plays"][3] = [1]
    report = check(doc)
    assert report.status == UNREADABLE and report.errors[0].path == "$.rounds[1].plays[3]"
    assert report.errors[0].rule is None
    assert (report.rounds, report.totals, report.complete, report.winners) == ((), None, False, None)


# --- what an observer of the engine replay is told ----------------------------------------------


def _events(doc: Doc) -> list[tuple[str, int, str | None]]:
    """The events of the engine replay of ``doc``: (event, cards played in the round, action)."""
    from bottleimp.formats._records import parse_record
    from bottleimp.validation import validate_record

    told: list[tuple[str, int, str | None]] = []

    def observer(event: str, state: GameState, action: Any, fault: Any) -> None:
        told.append((event, len(state.round.plays), None if action is None else repr(action)))

    validate_record(parse_record(copy.deepcopy(doc)), observer=observer)
    return told


def test_observer_is_told_of_the_deal_the_setup_each_trick_the_round_and_the_end() -> None:
    state = random_game(Config(players=3, rounds=1), 2)
    doc = doc_of(state)
    (round_,) = state.rounds
    plays = round_.plays
    tricks = [("trick", n, repr(plays[n - 1])) for n in range(3, len(plays) + 1, 3)]
    assert _events(doc) == [
        ("deal", 0, None), ("setup", 0, None), *tricks, ("round", len(plays), None),
        ("end", len(plays), None),
    ]


def test_observer_is_not_told_of_a_setup_the_record_leaves_unfinished() -> None:
    doc = doc_of(random_game(VARIANTS["classic-3p"], 2, 4))
    assert [event for event, _, _ in _events(doc)] == ["deal", "round", "end"]


# --- which replay validates ------------------------------------------------------------------


class _Spy:
    """Stands in for a function of the validator and counts its calls."""

    def __init__(self, answer: Any = None, calls: Any = None) -> None:
        self.answer, self.calls, self.then = answer, 0, calls

    def __call__(self, *args: Any) -> Any:
        self.calls += 1
        return self.then(*args) if self.then is not None else self.answer


def _files(tmp_path: Path, docs: list[Doc]) -> list[Path]:
    paths = [tmp_path / f"game{number}.json" for number in range(len(docs))]
    for path, doc in zip(paths, docs):
        path.write_text(json.dumps(doc), encoding="utf-8")
    return paths


def test_validate_files_walks_no_value_the_json_reader_has_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A file's value comes from the JSON reader, within its limits: it is not walked again
    (``check_json_value``) before the replay; a value built in Python is."""
    import bottleimp.validation._replay as replay

    walked = _Spy(calls=check_json_value)
    monkeypatch.setattr(replay, "check_json_value", walked)
    paths = _files(tmp_path, [game_doc(seed=seed) for seed in range(3)])
    assert all(report.valid for report in validate_files(paths)) and walked.calls == 0
    path = _files(tmp_path, [broken_doc()])[0]
    assert validate_file(path).status == BROKEN and walked.calls == 0
    assert validate_json(broken_doc()).status == BROKEN and walked.calls == 1


# --- the report and the command line -----------------------------------------------------------


def write(path: Path, doc: Doc | str) -> Path:
    path.write_text(doc if isinstance(doc, str) else json.dumps(doc), encoding="utf-8")
    return path


def broken_doc() -> Doc:
    doc = game_doc()
    plays = doc["rounds"][2]["plays"]
    plays[8], plays[9] = plays[9], plays[8]
    return doc


def test_json_report_has_the_contract_shape() -> None:
    report = report_to_json(check(game_doc()))
    assert report.keys() >= {"valid", "errors", "rounds", "totals", "complete", "winners"}
    assert report["valid"] is True and report["errors"] == [] and report["complete"] is True
    rounds = report["rounds"]
    assert isinstance(rounds, list) and len(rounds) == 8
    first = rounds[0]
    assert isinstance(first, dict)
    assert first.keys() >= {"scores", "bottle_owners", "devils_trick", "tricks"}
    tricks = first["tricks"]
    assert isinstance(tricks, list) and len(tricks) == 8
    assert all(isinstance(t, dict) and t.keys() == {"winner", "bottle", "price_before", "price_after"} for t in tricks)
    broken: Doc = dict(report_to_json(check(broken_doc())))
    (error,) = broken["errors"]
    assert error.keys() == {"rule", "round", "play", "seat", "message", "path"}
    assert (error["rule"], error["round"], error["play"], error["path"]) == (
        "TURN-ORDER", 2, 8, "$.rounds[2].plays[8]"
    )
    assert error["seat"] == broken_doc()["rounds"][2]["plays"][8][0]
    assert broken["valid"] is False and broken["winners"] is None


def _rounds_as_played(state: GameState) -> list[dict[str, Any]]:
    return [
        {
            "dealer": round_.dealer,
            "complete": round_.scores is not None,
            "scores": None if round_.scores is None else list(round_.scores),
            "bottle_owners": [bottle.owner for bottle in round_.bottles],
            "devils_trick": None if index == len(state.rounds) - 1 and state.phase is Phase.SETUP
            else [card.rank for card in round_.devils_trick],
            "tricks": [
                {"winner": trick.winner, "bottle": trick.bottle,
                 "price_before": trick.price_before, "price_after": trick.price_after}
                for trick in round_.tricks
            ],
        }
        for index, round_ in enumerate(state.rounds)
    ]


@pytest.mark.parametrize("actions", [None, 3, 150])
def test_json_report_gives_each_round_totals_and_winners_as_the_engine_played_them(
    actions: int | None,
) -> None:
    """A complete Devil's Eye game, one cut during its first setup and one cut during play."""
    state = random_game(VARIANTS["classic-2p"], 4, actions)
    report = report_to_json(check(doc_of(state)))
    assert report == {
        "format": "bottleimp-validate-report/1", "file": "<record>", "status": VALID, "valid": True, "errors": [],
        "rounds": _rounds_as_played(state), "totals": list(state.totals),
        "complete": state.is_over,
        "winners": list(winners(state.totals)) if state.is_over else None,
        "causes": [], "causes_cut_short": False, "notes": [],
    }


def test_text_report_of_a_fault_located_by_nothing_but_its_path() -> None:
    fault = Fault("GAME-TOTALS", None, None, None, "wrong", "$.totals")
    report = ValidationReport("r.json", BROKEN, (fault,), (), (0, 0), False, None)
    assert report_to_text(report) == "r.json: breaks rule GAME-TOTALS: ($.totals)\n  wrong"


def test_command_exit_status_0_for_a_valid_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "good.json", game_doc())
    assert main(["validate", str(path)]) == 0
    out = capsys.readouterr().out
    assert "valid" in out and "complete game of 8 rounds" in out


def test_command_exit_status_1_names_rule_round_play_and_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path / "bad.json", broken_doc())
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    # Counted from 1 for people; the JSON path keeps the 0-based indices.
    assert "TURN-ORDER: round 3, play 9, seat 3 ($.rounds[2].plays[8])" in out
    assert "$.rounds[2].plays[8]" in out


@pytest.mark.parametrize(
    "content",
    ["not json at all", '{"a": NaN}', "[" * 10_000, '{"format": "bottleimp-record/1"}', "\ufeff{}",
     '{"a": 1, "a": 2}', '{"x": ' + "1" * 5000 + "}"],
)
def test_command_exit_status_2_for_unreadable_input_without_a_traceback(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    path = write(tmp_path / "odd.json", content)
    assert main(["validate", str(path)]) == 2
    captured = capsys.readouterr()
    assert "not a readable record" in captured.out and "$" in captured.out
    assert "Traceback" not in captured.out + captured.err


def test_command_exit_status_2_for_a_bad_configuration_names_rule_and_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = game_doc()
    doc["config"]["teams"] = [[0, 1], [2, 3], [0]]
    path = write(tmp_path / "teams.json", doc)
    assert main(["validate", str(path)]) == 2
    out = capsys.readouterr().out
    assert "$.config.teams" in out and "CONFIG-TEAMS" in out


def test_command_missing_file_and_empty_directory_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["validate", str(tmp_path / "absent.json")]) == 2
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["validate", str(empty)]) == 2
    assert main(["validate", str(tmp_path / ("x" * 5000))]) == 2  # a name the system refuses
    out = capsys.readouterr().out
    assert "no such file" in out and "holds no .json files" in out
    assert "cannot read" in out and "too long" in out


def test_several_files_one_report_each_and_the_worst_status(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = write(tmp_path / "a.json", game_doc())
    bad = write(tmp_path / "b.json", broken_doc())
    odd = write(tmp_path / "c.json", "{")
    assert main(["validate", str(good), str(good)]) == 0
    assert main(["validate", str(good), str(bad), str(good)]) == 1
    assert main(["validate", str(bad), str(odd), str(good)]) == 2
    lines = capsys.readouterr().out.splitlines()
    assert sum(1 for line in lines if line.startswith(str(tmp_path))) == 2 + 3 + 3


def test_json_output_is_one_object_per_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = [write(tmp_path / "a.json", game_doc()), write(tmp_path / "b.json", broken_doc()),
             write(tmp_path / "c.json", "[]")]
    assert main(["validate", "--json", *map(str, files)]) == 2
    objects = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["status"] for o in objects] == [0, 1, 2]
    assert [o["file"] for o in objects] == [str(f) for f in files]
    assert objects[2]["errors"][0]["path"] == "$"
    for obj in objects:
        assert obj.keys() >= {"valid", "errors", "rounds", "totals", "complete", "winners"}


def test_directory_with_several_jobs_gives_the_same_reports_in_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "records"
    (folder / "sub").mkdir(parents=True)
    for seed in range(5):
        write(folder / f"game-{seed}.json", doc_of(random_game(VARIANTS["classic-3p"], seed)))
    write(folder / "sub" / "broken.json", broken_doc())
    write(folder / "notes.txt", "not a record")
    assert main(["validate", "--json", str(folder)]) == 1
    single = capsys.readouterr().out
    assert main(["validate", "--json", "--jobs", "2", str(folder)]) == 1
    assert capsys.readouterr().out == single
    names = [json.loads(line)["file"] for line in single.splitlines()]
    assert len(names) == 6 and names == sorted(names)


def test_jobs_must_be_a_positive_number(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["validate", "--jobs", "0", "x.json"])
    assert caught.value.code == 2
    assert "--jobs: expected a positive integer, not 0" in capsys.readouterr().err


def test_validate_file_never_raises_for_a_directory(tmp_path: Path) -> None:
    report = validate_file(tmp_path)
    assert report.status == UNREADABLE and "directory" in report.errors[0].message


# --- fuzzing: whatever the input, a status and no exception ------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6)
    | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)


@given(json_values)
def test_arbitrary_json_gets_a_status_and_never_an_exception(value: Any) -> None:
    assert validate_json(value).status in (VALID, BROKEN, UNREADABLE)


_SMALL = game_doc("classic-3p", rounds=1)
_SMALL_SLOTS = len(list(json_slots(copy.deepcopy(_SMALL))))

_replacements = json_values | st.integers(-3, 40) | st.sampled_from([2.5, 19, 1.0, -1, 10**30])


@given(st.lists(st.tuples(st.integers(0, 10**6), _replacements, st.booleans()), min_size=1,
                max_size=3))
def test_mutated_valid_records_get_a_status_and_never_an_exception(
    edits: list[tuple[int, Any, bool]]
) -> None:
    doc = copy.deepcopy(_SMALL)
    for where, item, delete in edits:
        slots = list(json_slots(doc))
        if not slots:
            break
        container, key = slots[where % len(slots)]
        if delete:
            del container[key]
        else:
            container[key] = item
    report = validate_json(doc)
    assert report.status in (VALID, BROKEN, UNREADABLE)
    report_to_text(report).encode("utf-8")
    json.dumps(report_to_json(report), allow_nan=False)


@given(st.lists(st.tuples(st.integers(0, 10**6), st.integers(-1, 38)), min_size=1, max_size=4))
def test_records_with_numbers_changed_stay_readable_and_get_a_verdict(
    edits: list[tuple[int, int]]
) -> None:
    """Changing seats, ranks and scores keeps a record readable (when seats stay in range): the
    validator must then judge it under the rules, never fail."""
    doc = copy.deepcopy(_SMALL)
    for where, number in edits:
        numeric = [(c, k) for c, k in json_slots(doc) if type(c[k]) is int]
        container, key = numeric[where % len(numeric)]
        container[key] = number
    report = validate_json(doc)
    assert report.status in (VALID, BROKEN, UNREADABLE)
    if report.status == UNREADABLE:
        assert report.errors[0].path != "$"


@given(st.binary(max_size=200))
def test_arbitrary_bytes_through_the_command_exit_0_1_or_2(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "fuzz.json"
        path.write_bytes(data)
        report = validate_file(path)
    assert report.status == UNREADABLE or report.status in (VALID, BROKEN)


# --- the fixtures in tests/data/records (made by tests/data/records/regenerate.py) -------------

FIXTURES = Path(__file__).resolve().parent / "data" / "records"


def _fixture_names(folder: str) -> list[str]:
    return sorted(path.name for path in (FIXTURES / folder).glob("*.json"))


@pytest.mark.parametrize(
    "name", [f"{folder}/{name}" for folder in ("valid", "broken") for name in _fixture_names(folder)]
)
def test_fixture_verdict_is_the_one_it_expects(name: str) -> None:
    path = FIXTURES / name
    expected = json.loads(path.read_text(encoding="utf-8"))["_expected"]
    report = validate_file(path)
    assert report.status == expected["status"], report_to_text(report)
    assert [note.rule for note in report.notes] == expected.get("notes", [])
    if report.errors:
        fault = report.errors[0]
        assert {
            "status": report.status, "rule": fault.rule, "round": fault.round,
            "play": fault.play, "seat": fault.seat, "path": fault.path,
        } == expected


def test_every_rule_the_validator_names_has_a_broken_fixture() -> None:
    named = {json.loads((FIXTURES / "broken" / name).read_text())["_expected"]["rule"]
             for name in _fixture_names("broken")}
    assert named >= {
        "DEAL-COUNTS", "DEALER-ROTATION", "GAME-OVER", "SETUP-FROM-DEALT",
        "SETUP-STEPS", "TURN-ORDER", "CARD-HELD", "FOLLOW-SUIT", "EYE-FOLLOW-SUIT",
        "ROUND-END", "SCORE-ROUND", "GAME-TOTALS",
    }


def _unreadable_expectations() -> list[tuple[str, str]]:
    lines = (FIXTURES / "unreadable" / "expected.tsv").read_text(encoding="utf-8").splitlines()
    return [(name, path) for name, path in (line.split("\t") for line in lines)]


@pytest.mark.parametrize(("name", "path"), _unreadable_expectations())
def test_unreadable_fixture_is_refused_at_its_path(name: str, path: str) -> None:
    report = validate_file(FIXTURES / "unreadable" / name)
    assert report.status == UNREADABLE and report.errors[0].path == path


def test_fixture_folder_through_the_command_reports_every_file_with_the_worst_status(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["validate", "--jobs", "2", str(FIXTURES / "valid")]) == 0
    assert main(["validate", "--json", "--jobs", "2", str(FIXTURES)]) == 2
    lines = capsys.readouterr().out.splitlines()
    total = sum(len(_fixture_names(folder)) for folder in ("valid", "broken", "unreadable"))
    notes = sum(len(json.loads((FIXTURES / "valid" / name).read_text())["_expected"].get("notes", []))
                for name in _fixture_names("valid"))
    assert len(lines) == len(_fixture_names("valid")) + notes + total

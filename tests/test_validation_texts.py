"""What a person reads of a validation report (``report_to_text``): the round of a note and the
winners of a complete game, counted and worded for people. The tests read the texts of reports
of real records (games played by ``games.random_game``), not only their JSON."""

from __future__ import annotations

import copy

from bottleimp import Config, Phase
from bottleimp.validation import VALID, ValidationReport, report_to_text, validate_json

from games import VARIANTS, Doc, doc_of, random_game


def _check(doc: Doc) -> ValidationReport:
    return validate_json(copy.deepcopy(doc))


def _setup_in_another_order(config: Config, round_index: int) -> Doc:
    """A record that stops in the setup of round ``round_index`` once the first two seats from the
    dealer's left have given all their cards and the third its discard; then the first seat's
    last card is taken out, so the second gave past a seat that has not finished (a departure
    from the library's convention SETUP-ORDER, noted, not failed)."""
    actions = 1
    while True:
        state = random_game(config, 11, actions=actions)
        gives = sum(len(seat) for seat in state.round.setup)
        if state.round.index == round_index and state.phase is Phase.SETUP and gives == 7:
            break
        actions += 1
    doc = doc_of(state)
    first = (state.round.dealer + 1) % config.players
    del doc["rounds"][round_index]["setup"][first]["right"]
    return doc


def test_a_note_of_the_first_round_says_round_1_and_one_of_the_second_round_2() -> None:
    for round_index in (0, 1):
        report = _check(_setup_in_another_order(VARIANTS["classic-4p-rounds-2"], round_index))
        assert report.status == VALID, report_to_text(report)
        (note,) = report.notes
        assert note.round == round_index and note.rule == "SETUP-ORDER"
        lines = report_to_text(report).splitlines()
        assert lines[1] == (
            f"  note: SETUP-ORDER is a convention of the library, not a rule of the game: "
            f"round {round_index + 1} ({note.path}): {note.message}")


def _complete(config: Config, want_winners: int) -> ValidationReport:
    """The report on a complete random game of ``config`` with ``want_winners`` winners."""
    for seed in range(400):
        state = random_game(config, seed)
        report = _check(doc_of(state))
        assert report.status == VALID, report_to_text(report)
        if report.winners is not None and len(report.winners) == want_winners:
            return report
    raise AssertionError(f"no game of 400 with {want_winners} winners")


def test_a_single_winner_is_won_by_seat_and_a_shared_win_by_seats() -> None:
    config = Config(players=3, rounds=1)
    single = _complete(config, 1)
    (seat,) = single.winners or ()
    text = report_to_text(single)
    assert text.endswith(f"; won by seat {seat}"), text
    assert "won by seats" not in text
    assert text.startswith(f"{single.source}: valid: a complete game of 1 round; totals ")
    shared = _complete(config, 2)
    first, second = shared.winners or ()
    assert report_to_text(shared).endswith(f"; won by seats {first}, {second}")

"""A record's verdict does not depend on the records validated with it: ``bottleimp validate``
run on each file alone and on many files at once (in one process and in several) gives every
record the same report, records with custom decks whose ranks reach 2**53 and whose coins pass
2**63 included (rules CARD-RANK and CONFIG-DECK: a rank and a card's coins are exact numbers,
judged with Python's integers)."""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from bottleimp import Card, Config
from bottleimp.cli import main
from bottleimp.validation import BROKEN, VALID, report_to_json, validate_file, validate_files
from games import doc_of, random_game

HUGE_RANK = 2**53
"""From here on, float64 (what a vectorised engine holds ranks in) skips odd whole numbers."""
HUGE_COINS = 2**63 + 5
"""Above the largest int64."""


def _huge_deck(players: int, edition: str) -> tuple[Card, ...]:
    """The edition's deck with every rank above the start price moved past 2**53 (their order
    kept, each still distinct) and one card worth more coins than an int64 holds."""
    cards = Config(players=players, edition=edition).cards
    moved = [Card(card.rank + HUGE_RANK if card.rank > 19 and type(card.rank) is int else card.rank,
                  card.colour, card.coins)
             for card in cards]
    moved[0] = Card(moved[0].rank, moved[0].colour, HUGE_COINS)
    return tuple(moved)


def _docs() -> list[Any]:
    """Legal and broken records: plain decks, custom decks with huge numbers, 2 to 5 players."""
    docs: list[Any] = []
    for players, edition in ((3, "classic"), (4, "classic"), (2, "classic"), (5, "matagot-2024")):
        for custom in (False, True):
            config = Config(players=players, edition=edition,
                            deck=_huge_deck(players, edition) if custom else None)
            doc = doc_of(random_game(config, seed=players))
            docs.append(doc)
            broken = copy.deepcopy(doc)
            plays = broken["rounds"][0]["plays"]
            plays[1], plays[2] = plays[2], plays[1]
            docs.append(broken)
    return docs


def _write(tmp_path: Path, docs: list[Any]) -> list[Path]:
    paths = [tmp_path / f"game{number:02}.json" for number in range(len(docs))]
    for path, doc in zip(paths, docs):
        path.write_text(json.dumps(doc), encoding="utf-8")
    return paths


def _command(arguments: list[str], capsys: pytest.CaptureFixture[str]) -> list[Any]:
    main(["validate", "--json", *arguments])
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_each_record_gets_the_same_report_alone_and_among_many(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    docs = _docs()
    paths = _write(tmp_path, docs)
    assert len(paths) >= 8
    alone = [_command(["--jobs", "1", str(path)], capsys)[0] for path in paths]
    together = _command(["--jobs", "1", *map(str, paths)], capsys)
    in_processes = _command(["--jobs", "2", str(tmp_path)], capsys)
    assert together == alone
    assert in_processes == alone
    assert [report_to_json(report) for report in validate_files(paths)] == alone
    statuses = [report["status"] for report in alone]
    # Every legal record, custom decks with huge numbers included, is valid; every swap breaks.
    assert statuses == [VALID, BROKEN] * (len(docs) // 2)


def test_a_record_with_huge_ranks_and_coins_is_scored_exactly(tmp_path: Path) -> None:
    """The totals the validator reports are the engine's, to the coin: a capture of the card
    worth 2**63 + 5 coins is scored with every digit."""
    config = Config(players=3, deck=_huge_deck(3, "classic"))
    state = random_game(config, seed=3)
    path = _write(tmp_path, [doc_of(state)])[0]
    report = validate_file(path)
    assert report.valid and report.totals == state.totals
    assert any(abs(total) >= HUGE_COINS - 100 for total in state.totals)


def test_an_archive_on_a_terminal_shows_a_progress_bar_and_every_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """On a terminal, validating many files draws a rich progress bar, the reports printed above
    it; with the reports redirected the bar goes to standard error; neither terminal, or one
    file, and the output is the reports alone."""
    pytest.importorskip("rich.progress", reason="the cli extra (rich) is not installed")
    from bottleimp.cli import _validate as command

    assert type(command._output(10).__enter__()).__name__ == "_Plain"  # no terminal here
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    with command._output(1) as one:
        assert type(one).__name__ == "_Plain"
    with command._output(10) as shown:
        assert isinstance(shown, command._Bar) and shown.on_stdout
    monkeypatch.setattr(sys.stdout, "isatty", lambda: False)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    with command._output(10) as beside:
        assert isinstance(beside, command._Bar) and not beside.on_stdout
    paths = _write(tmp_path, [doc_of(random_game(Config(players=3), seed)) for seed in (1, 2)])
    capsys.readouterr()
    assert main(["validate", "--jobs", "1", *map(str, paths)]) == 0
    printed = capsys.readouterr()
    assert [line.split(":")[0] for line in printed.out.splitlines()] == list(map(str, paths))
    assert "validating" in printed.err
    monkeypatch.setitem(sys.modules, "rich.progress", None)
    with command._output(10) as plain:
        assert type(plain).__name__ == "_Plain"

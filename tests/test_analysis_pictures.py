"""The replay page with the analysis (``bottleimp render --analyse``): under each trick the value
of every legal card of its plays, the card played framed with its loss; at each round's scores
the table of every seat's deal value and coins lost; all of it what the analysis reported."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bottleimp.analysis.record import analyse_json, analysis_to_json
from bottleimp.cli import main
from bottleimp.pictures._replay import render_record
from test_analysis_record import SMALL_RECORD


def test_the_page_shows_each_tricks_values_the_played_card_and_the_coins_lost() -> None:
    analysis = analysis_to_json(analyse_json(SMALL_RECORD, node_budget=None, round_seconds=None))
    page = render_record(SMALL_RECORD, "small.json", analysis).page
    plain = render_record(SMALL_RECORD, "small.json").page
    assert 'class="analysis"' in page and 'class="analysis"' not in plain
    first = analysis["rounds"][0]["plays"][0]
    played = next(v for v in first["values"] if v["card"] == first["card"])
    assert f'<span class="value played" title="the card played">{first["card"]}: ' \
           f'{played["lower"]}</span>' in page
    framed = re.findall(r'class="value played"', page)
    assert len(framed) == sum(len(r["plays"]) for r in analysis["rounds"])
    for round_ in analysis["rounds"]:
        for seat, lost in enumerate(round_["coins_lost"]):
            assert f"<td>seat {seat}</td><td>{round_['deal_values'][seat]['lower']}</td>" \
                   f"<td>{lost['lower']}</td>" in page
    losing = [p for r in analysis["rounds"] for p in r["plays"] if p["loss"]["upper"] > 0]
    assert page.count('class="lost"') == len(losing)


def test_render_analyse_writes_the_page_with_the_analysis(tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]
                                                         ) -> None:
    record = tmp_path / "small.json"
    record.write_text(json.dumps(SMALL_RECORD))
    assert main(["render", str(record), "--analyse", "-o", str(tmp_path / "page.html")]) == 0
    assert "steps of a valid record" in capsys.readouterr().out
    assert "Where each seat lost coins" in (tmp_path / "page.html").read_text()

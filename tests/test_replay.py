"""The replay page (``bottleimp render``): its steps follow the record and the validator, the page
is self-contained, and a real headless Chromium loads it without a script error and steps
through it with the keyboard and the buttons.

The browser tests run whenever Chromium is installed, and always under CI (``CI`` set): there a
missing browser fails instead of skipping.
"""

from __future__ import annotations

import copy
import html.parser
import json
import os
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bottleimp import Config, GameState, apply, legal_actions, new_game
from bottleimp.cli import main
from bottleimp._errors import RecordError
from bottleimp.pictures._replay import (
    render_record,
    render_record_html,
    replay_steps,
    unpack_pictures,
)
from bottleimp.formats._json_input import JSON
from bottleimp.formats._records import record_from_state, record_to_json
from bottleimp.validation import validate_json
from browser import Chromium, find_chromium
from depth import scaled


def finished(config: Config, seed: int) -> GameState:
    state = new_game(config, seed)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    return state


def record_of(state: GameState) -> dict[str, JSON]:
    return record_to_json(record_from_state(state))


@pytest.fixture(scope="module")
def valid() -> dict[str, JSON]:
    return record_of(finished(Config(players=4, rounds=2), 3))


def play_rank(record: dict[str, JSON], round_: int, play: int) -> list[Any]:
    rounds = record["rounds"]
    assert isinstance(rounds, list)
    entry = rounds[round_]
    assert isinstance(entry, dict)
    plays = entry["plays"]
    assert isinstance(plays, list)
    found = plays[play]
    assert isinstance(found, list)
    return found


def broken_copy(record: dict[str, JSON]) -> dict[str, JSON]:
    """The record with round 1's play 9 replaced by a card its seat does not hold."""
    broken = copy.deepcopy(record)
    play_rank(broken, 1, 9)[1] = play_rank(broken, 1, 10)[1]
    return broken


class _Sections(html.parser.HTMLParser):
    """The steps of a page: each section's id, kind and whether it is hidden."""

    def __init__(self) -> None:
        super().__init__()
        self.sections: list[dict[str, str | None]] = []
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "section":
            self.sections.append(attributes)
        for name in ("src", "href"):
            value = attributes.get(name)
            if value and not (name == "href" and value.startswith("#")):  # links to steps
                self.sources.append(value)


def page_pictures(page: str) -> str:
    """The packed pictures a page carries."""
    found = re.search(r'<script type="application/octet-stream" id="pictures">([^<]*)</script>',
                      page)
    assert found is not None
    return found[1]


def sections(page: str) -> list[dict[str, str | None]]:
    parser = _Sections()
    parser.feed(page)
    assert not parser.sources, f"the page loads something: {parser.sources}"
    return parser.sections


# --- the steps -----------------------------------------------------------------------------


def test_steps_of_a_valid_record(valid: dict[str, JSON]) -> None:
    report, steps = replay_steps(valid)
    assert report.valid
    kinds = [step.kind for step in steps]
    tricks = 8  # 4 players, classic deck: 9 cards dealt each, 8 left after the setup
    per_round = ["deal", "setup"] + ["trick"] * tricks + ["round-end"]
    assert kinds == per_round * 2 + ["game-end"]
    assert all(step.pictures for step in steps)
    for picture in (p for step in steps for p in step.pictures):
        ET.fromstring(picture)


def test_steps_of_a_broken_record_stop_at_the_fault(valid: dict[str, JSON]) -> None:
    broken = broken_copy(valid)
    report, steps = replay_steps(broken)
    (fault,) = report.errors
    assert (fault.rule, fault.round, fault.play) == ("CARD-HELD", 1, 9)
    last = steps[-1]
    assert last.kind == "broken"
    assert (last.rule, last.path) == ("CARD-HELD", "$.rounds[1].plays[9]")
    # Counted from 1 for people, as the command line says it; the JSON path stays 0-based.
    assert last.place == "round 2, play 10, seat 2" and last.title.endswith(last.place)
    assert fault.message in last.caption
    # Round 1 whole, round 2's deal, setup and its two complete tricks (plays 1-8).
    assert [s.kind for s in steps[-5:-1]] == ["deal", "setup", "trick", "trick"]
    svg = ET.fromstring(last.pictures[0])
    refused = [g for g in svg.iter("{http://www.w3.org/2000/svg}g") if g.get("data-zone") == "attempted"]
    assert [g.get("data-rank") for g in refused] == [str(play_rank(broken, 1, 9)[1])]


def test_a_wrong_score_claim_stops_at_the_round_end(valid: dict[str, JSON]) -> None:
    claimed = copy.deepcopy(valid)
    rounds = claimed["rounds"]
    assert isinstance(rounds, list) and isinstance(rounds[0], dict)
    scores = rounds[0]["scores"]
    assert isinstance(scores, list) and isinstance(scores[0], int)
    scores[0] += 1
    report, steps = replay_steps(claimed)
    assert report.errors[0].rule == "SCORE-ROUND"
    assert [s.kind for s in steps][-2:] == ["round-end", "broken"]
    assert steps[-1].round == 0


def test_a_wrong_dealer_stops_before_the_round(valid: dict[str, JSON]) -> None:
    wrong = copy.deepcopy(valid)
    rounds = wrong["rounds"]
    assert isinstance(rounds, list) and isinstance(rounds[1], dict)
    rounds[1]["dealer"] = 3
    report, steps = replay_steps(wrong)
    assert report.errors[0].rule == "DEALER-ROTATION"
    assert [s.kind for s in steps][-2:] == ["round-end", "broken"]


def test_devils_eye_and_second_bottle_records_replay() -> None:
    for config in (Config(players=2, rounds=1), Config(players=6, edition="matagot-2024", bottles=2, rounds=1)):
        record = record_of(finished(config, 9))
        report, steps = replay_steps(record)
        assert report.valid
        assert steps[-1].kind == "game-end"
        assert sum(s.kind == "trick" for s in steps) == len(finished(config, 9).round.tricks)


def test_an_unfinished_record_ends_with_the_trick_in_progress() -> None:
    state = new_game(Config(players=3), seed=2)
    while len(state.round.plays) < 4:
        state = apply(state, legal_actions(state)[0])
    report, steps = replay_steps(record_of(state))
    assert report.valid and not report.complete
    assert [s.kind for s in steps] == ["deal", "setup", "trick", "trick-so-far"]


def test_an_unreadable_record_raises_with_its_path(valid: dict[str, JSON]) -> None:
    bad = copy.deepcopy(valid)
    config = bad["config"]
    assert isinstance(config, dict)
    config["players"] = 9
    with pytest.raises(RecordError) as raised:
        render_record_html(bad)
    assert raised.value.path == "$.config.players"
    assert raised.value.path == validate_json(bad).errors[0].path


# --- the page ------------------------------------------------------------------------------


def test_page_is_self_contained_and_holds_every_step(valid: dict[str, JSON]) -> None:
    replay = render_record(valid, "game <1>.json")
    page = replay.page
    found = sections(page)
    assert len(found) == len(replay.steps)
    assert [s.get("data-kind") for s in found] == [step.kind for step in replay.steps]
    assert [("hidden" in s) for s in found] == [False] + [True] * (len(found) - 1)
    assert "game &lt;1&gt;.json" in page and "game <1>.json" not in page
    # No address but the SVG namespace: nothing is fetched.
    pictures = unpack_pictures(page_pictures(page))
    addresses = set(re.findall(r"https?://[^\s\"'<>)]+", page + "".join(pictures)))
    assert addresses == {"http://www.w3.org/2000/svg"}
    assert len(pictures) == len(set(pictures)) >= len(replay.steps)
    for svg in pictures:
        ET.fromstring(svg)
    # Each figure names a picture of the list; in step order they are the steps' pictures.
    numbers = [int(n) for n in re.findall(r'<figure data-picture="(\d+)">', page)]
    assert [pictures[n] for n in numbers] == [p for step in replay.steps for p in step.pictures]
    assert [s.get("id") for s in found][:3] == ["round-1-deal", "round-1-setup", "round-1-trick-1"]
    assert len({s.get("id") for s in found}) == len(found)


def test_broken_page_names_the_rule_and_the_message(valid: dict[str, JSON]) -> None:
    broken = broken_copy(valid)
    page = render_record_html(broken)
    fault = validate_json(broken).errors[0]
    last = sections(page)[-1]
    assert last.get("data-kind") == "broken"
    assert 'id="to-fault"' in page
    escaped = fault.message.replace("(", "(")  # the message holds no markup characters
    assert page.count(escaped) >= 2  # in the header and in the broken step
    assert '<code class="rule">CARD-HELD</code>' in page
    # Where, as the command line says it (counted from 1), then the 0-based JSON path.
    assert "at round 2, play 10, seat 2 (<code>$.rounds[1].plays[9]</code>)" in page
    assert "Breaks rule CARD-HELD: round 2, play 10, seat 2 ($.rounds[1].plays[9])" in page


# --- the command ---------------------------------------------------------------------------


def test_render_command(valid: dict[str, JSON], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "game.json"
    good.write_text(json.dumps(valid))
    assert main(["render", str(good), "-o", str(tmp_path / "out.html")]) == 0
    assert "out.html: 23 steps of a valid record" in capsys.readouterr().out
    assert sections((tmp_path / "out.html").read_text("utf-8"))

    bad = tmp_path / "broken.json"
    bad.write_text(json.dumps(broken_copy(valid)))
    assert main(["render", str(bad)]) == 1  # the page is written next to the record
    assert ("stops at rule CARD-HELD: round 2, play 10, seat 2 ($.rounds[1].plays[9])"
            in capsys.readouterr().out)
    assert (tmp_path / "broken.html").exists()


@pytest.mark.parametrize(
    ("text", "path"),
    [
        ("{", "$"),
        ('{"format": "bottleimp-record/1", "config": {"players": 9}, "rounds": []}', "$.config.players"),
        ('{"format": "bottleimp-record/1", "config": {"players": 3}, "rounds": [{"dealer": 0}]}', "$.rounds[0]"),
    ],
)
def test_render_command_refuses_an_unreadable_record(
    text: str, path: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "bad.json"
    source.write_text(text)
    assert main(["render", str(source), "-o", str(tmp_path / "bad.html")]) == 2
    error = capsys.readouterr().err
    assert f"not a readable record: {path}" in error
    assert not (tmp_path / "bad.html").exists()


def test_render_command_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", str(tmp_path / "nope.json")]) == 2
    assert "no such file" in capsys.readouterr().err


# --- in a real browser ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[Chromium]:
    executable = find_chromium()
    if executable is None:
        if os.environ.get("CI"):
            pytest.fail("CI needs Chromium for the replay page tests (apt-get install chromium)")
        pytest.skip("Chromium is not installed")
    with Chromium(executable, timeout=30) as chromium:
        yield chromium


def shown(browser: Chromium) -> dict[str, Any]:
    value = browser.evaluate(
        "(function(){var s=[].filter.call(document.querySelectorAll('section.step'),"
        "function(e){return !e.hidden;});return {counter: document.getElementById('counter')"
        ".textContent, visible: s.map(function(e){return e.id;}), title: s.length ? "
        "s[0].querySelector('h2').firstChild.textContent : null, address: location.hash,"
        " drawn: s.length ? s[0].querySelectorAll('figure > svg').length : 0,"
        " kind: s.length ? s[0].dataset.kind : null,"
        " width: document.documentElement.scrollWidth};})()"
    )
    assert isinstance(value, dict)
    return value


def open_replay(browser: Chromium, page: Path, anchor: str = "") -> None:
    """Load a replay page (at the step ``anchor``) and wait until its script has drawn it."""
    browser.events.clear()
    browser.call("Page.navigate", url=page.resolve().as_uri() + (f"#{anchor}" if anchor else ""))
    browser.wait_for("Page.loadEventFired")
    deadline = time.monotonic() + 20
    while browser.evaluate("document.body.dataset.ready") != "true":
        assert time.monotonic() < deadline, f"the page did not start: {browser.errors}"
        time.sleep(0.05)


def save_screenshot(browser: Chromium, tmp_path: Path, name: str) -> Path:
    """A screenshot in the test's directory (and in $BOTTLEIMP_SCREENSHOTS when set)."""
    path = tmp_path / name
    browser.screenshot(path)
    assert path.read_bytes().startswith(b"\x89PNG")
    folder = os.environ.get("BOTTLEIMP_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        (Path(folder) / name).write_bytes(path.read_bytes())
    return path


@pytest.mark.xdist_group("replay-browser")  # one browser for these tests
def test_browser_steps_through_a_valid_record(
    browser: Chromium, valid: dict[str, JSON], tmp_path: Path
) -> None:
    page = tmp_path / "game.html"
    replay = render_record(valid, "game.json")
    page.write_text(replay.page, encoding="utf-8")
    total = len(replay.steps)
    browser.errors.clear()
    open_replay(browser, page)
    first = shown(browser)
    assert first == {"counter": f"Step 1 of {total}", "visible": ["round-1-deal"],
                     "title": "Round 1 · the deal", "kind": "deal", "width": first["width"],
                     "address": "#round-1-deal", "drawn": 1}
    browser.press("ArrowRight")
    assert shown(browser)["visible"] == ["round-1-setup"]
    browser.click("#next")
    after = shown(browser)
    assert after["counter"] == f"Step 3 of {total}" and after["kind"] == "trick"
    assert after["title"] == "Round 1 · trick 1"
    save_screenshot(browser, tmp_path, "replay-trick.png")
    browser.press("End")
    assert shown(browser)["kind"] == "game-end"
    browser.click("#prev")
    assert shown(browser)["counter"] == f"Step {total - 1} of {total}"
    browser.press("Home")
    assert shown(browser)["visible"] == ["round-1-deal"]
    browser.press("ArrowLeft")  # nothing before the first step
    assert shown(browser)["visible"] == ["round-1-deal"]
    assert browser.evaluate("document.getElementById('prev').disabled") is True
    assert browser.errors == []


@pytest.mark.xdist_group("replay-browser")  # one browser for these tests
def test_browser_stops_a_broken_record_at_the_fault(
    browser: Chromium, valid: dict[str, JSON], tmp_path: Path
) -> None:
    broken = broken_copy(valid)
    fault = validate_json(broken).errors[0]
    page = tmp_path / "broken.html"
    replay = render_record(broken, "broken.json")
    page.write_text(replay.page, encoding="utf-8")
    browser.errors.clear()
    open_replay(browser, page)
    assert shown(browser)["kind"] == "deal"
    browser.click("#to-fault")
    last = shown(browser)
    assert last["kind"] == "broken"
    assert last["counter"] == f"Step {len(replay.steps)} of {len(replay.steps)}"
    assert last["title"] == "Breaks rule CARD-HELD: round 2, play 10, seat 2"
    message = browser.evaluate(
        "document.querySelector('section.step:not([hidden]) .fault').textContent"
    )
    assert "CARD-HELD" in message and fault.message in message and fault.path in message
    save_screenshot(browser, tmp_path, "replay-broken.png")
    browser.press("ArrowRight")  # the replay stops at the broken step
    assert shown(browser)["kind"] == "broken"
    browser.press("ArrowLeft")
    assert shown(browser)["kind"] == "trick"
    assert browser.errors == []


def _records_in(value: JSON) -> Iterator[JSON]:
    if isinstance(value, dict):
        if "record" in value:
            yield value["record"]
        for item in value.values():
            yield from _records_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from _records_in(item)


CONFORMANCE = Path(__file__).resolve().parents[1] / "spec" / "conformance" / "record"


def test_every_conformance_record_replays_to_its_verdict() -> None:
    """Every record vector: a readable one renders; a broken one ends at a broken step naming the
    validator's rule, after exactly the tricks completed before the fault."""
    seen = 0
    for path in sorted(CONFORMANCE.glob("*.json")):
        records = list(_records_in(json.loads(path.read_text("utf-8"))))
        # Dev replays every fourth generated fault (each kind of fault still met); CI all of them.
        every = scaled(ci=1, dev=4) if path.name == "generated-faults.json" else 1
        for record in records[::every]:
            seen += 1
            report = validate_json(record)
            if report.status == 2:
                with pytest.raises(RecordError):
                    render_record(record)
                continue
            replay = render_record(record)
            kinds = [step.kind for step in replay.steps]
            if report.valid:
                assert "broken" not in kinds
                continue
            fault = report.errors[0]
            assert kinds[-1] == "broken" and kinds.count("broken") == 1
            assert replay.steps[-1].rule == fault.rule
            if fault.play is not None and fault.round is not None:
                in_round = [s.kind for s in replay.steps if s.round == fault.round]
                tricks_before = report.rounds[fault.round].tricks
                assert in_round.count("trick") == len(tricks_before), (path.name, fault)
    assert seen > scaled(ci=100, dev=50)


def eight_round_record(players: int) -> dict[str, JSON]:
    return record_of(finished(Config(players=players, rounds=8), 3))


@pytest.mark.parametrize("players", [4, 6])
def test_an_eight_round_page_is_small_enough_to_share(players: int) -> None:
    replay = render_record(eight_round_record(players), "game.json")
    limit = 400_000 if players == 4 else 450_000
    assert len(replay.page.encode("utf-8")) <= limit
    assert len(replay.steps) > 80


@pytest.mark.xdist_group("replay-browser")  # one browser for these tests
def test_browser_opens_a_linked_step_and_the_address_follows_the_steps(
    browser: Chromium, tmp_path: Path
) -> None:
    page = tmp_path / "eight.html"
    replay = render_record(eight_round_record(4), "eight.json")
    page.write_bytes(replay.page.encode("utf-8"))
    browser.errors.clear()
    open_replay(browser, page, "round-2-trick-3")
    there = shown(browser)
    index = [step.anchor for step in replay.steps].index("round-2-trick-3")
    assert there["visible"] == ["round-2-trick-3"] and there["title"] == "Round 2 · trick 3"
    assert there["counter"] == f"Step {index + 1} of {len(replay.steps)}"
    assert there["drawn"] == 2 and there["width"] <= 1280  # the trick and the table
    browser.press("ArrowRight")
    assert shown(browser)["address"] == "#round-2-trick-4"
    browser.click("#last")
    assert shown(browser)["address"] == "#game-end"
    # Following a link to another step of the page (as pasting an address would).
    browser.evaluate("location.hash = '#round-8-scores'")
    deadline = time.monotonic() + 10
    while shown(browser)["visible"] != ["round-8-scores"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    assert shown(browser)["title"] == "Round 8 · the scores"
    # Every picture the page draws is the library's own drawing of that step.
    browser.press("Home")
    drawn = browser.evaluate(
        "(function(){var svg=document.querySelector('section.step figure > svg');"
        "return [svg.getAttribute('aria-label'), [].map.call(svg.querySelectorAll('text'),"
        "function(t){return t.textContent;}), [].map.call(svg.querySelectorAll('g.card'),"
        "function(g){return g.getAttribute('data-rank');})];})()"
    )
    picture = ET.fromstring(replay.steps[0].pictures[0])
    svg = "{http://www.w3.org/2000/svg}"
    assert drawn == [picture.get("aria-label"),
                     [t.text for t in picture.iter(f"{svg}text")],
                     [g.get("data-rank") for g in picture.iter(f"{svg}g")
                      if "card" in (g.get("class") or "").split()]]
    assert browser.errors == []

"""A replay page for a game record: one self-contained HTML file (inline SVG, CSS and script; no
network) that steps through the game trick by trick, drawn with ``bottleimp.pictures``.

The validator (``validate_json``) gives the verdict. The page draws the validator's own engine
replay (``validate_record`` with an observer): a step for each deal, each setup, each trick and
each round's end. A record that breaks a rule stops at the broken step, which names the rule and
gives the validator's message.

    >>> from bottleimp import Config, apply, legal_actions, new_game
    >>> from bottleimp.formats._records import record_from_state, record_to_json
    >>> state = new_game(Config(players=3), seed=5)
    >>> while len(state.round.tricks) < 2:
    ...     state = apply(state, legal_actions(state)[0])
    >>> record = record_to_json(record_from_state(state))
    >>> report, steps = replay_steps(record)
    >>> report.valid, [step.kind for step in steps]
    (True, ['deal', 'setup', 'trick', 'trick'])
    >>> record["rounds"][0]["plays"][4][1] = 36   # seat 1 does not hold the 36
    >>> report, steps = replay_steps(record)
    >>> [step.kind for step in steps], steps[-1].rule
    (['deal', 'setup', 'trick', 'broken'], 'CARD-HELD')
"""

from __future__ import annotations

import base64
import gzip
import html
import json
from collections.abc import Mapping, Sequence
from typing import Any, Final

from attrs import frozen

from .._actions import Action, Play
from .._errors import BottleImpError, RecordError
from ..formats._json_input import JSON
from ..formats._records import GameRecord, parse_record
from ..rules.game import winners
from .._state import GameState
from ..validation import (
    UNREADABLE,
    Fault,
    ValidationReport,
    validate_json,
    validate_record,
)
from ._analysis import ANALYSIS_CSS, round_table_html, trick_values_html
from ._svg import round_svg, trick_svg

__all__ = [
    "MAX_PAGE_ROUNDS",
    "PageTooLargeError",
    "Replay",
    "Step",
    "pack_pictures",
    "render_record",
    "render_record_html",
    "replay_steps",
    "unpack_pictures",
]


MAX_PAGE_ROUNDS: Final = 50
"""The most rounds a replay page draws. Each round drawn costs about 1.3 MB of memory while the
page is built and 28 KB of page (a dozen steps of pictures); a game has 8 rounds by default and
a game to a target score seldom more than 20, so 50 rounds (about 65 MB, a page of 1.4 MB) draw
every real game, where the reader's 16 MiB limit would let a record ask for 25,000."""


class PageTooLargeError(BottleImpError, ValueError):
    """A record whose replay would draw more than ``MAX_PAGE_ROUNDS`` rounds: no page is built."""

    def __init__(self, rounds: int) -> None:
        super().__init__(f"the replay would draw {rounds} rounds; a replay page draws at most "
                         f"{MAX_PAGE_ROUNDS}")
        self.rounds = rounds
        self.message = str(self)


@frozen
class Step:
    """One step of a replay: what kind it is (``deal``, ``setup``, ``trick``, ``trick-so-far``,
    ``round-end``, ``game-end`` or ``broken``), the round it belongs to, a title, a sentence,
    and its pictures (SVG text). A ``broken`` step carries the rule, message and JSON path of the
    validator's fault."""

    kind: str
    round: int | None
    title: str
    caption: str
    pictures: tuple[str, ...]
    rule: str | None = None
    path: str | None = None
    anchor: str = ""
    """The step's name in the page's address (``round-2-trick-3``), unique within a replay: a
    link to ``page.html#round-2-trick-3`` opens the page at that step."""
    place: str = ""
    """Where a ``broken`` step's fault is, for people (``fault_place``: ``round 2, play 10``)."""


def _numbers(values: Sequence[int]) -> str:
    return ", ".join(f"seat {seat} {value:+d}" if value else f"seat {seat} 0"
                     for seat, value in enumerate(values))


class _Steps:
    """A ``ReplayObserver``: turns each moment of the validator's engine replay into a step.
    Rounds, tricks and plays are numbered from 1 for people (as in the validator's messages)."""

    def __init__(self) -> None:
        self.steps: list[Step] = []

    def __call__(
        self, event: str, state: GameState, action: Action | None, fault: Fault | None
    ) -> None:
        round_ = state.round
        number = round_.index + 1
        if event == "deal":
            self._add(state, "deal", f"round-{number}-deal", f"Round {number} · the deal",
                      f"Seat {round_.dealer} deals round {number}; the bottle starts at the "
                      "price 19.")
        elif event == "setup":
            self._add(state, "setup", f"round-{number}-setup", f"Round {number} · the setup",
                      f"Every seat has given its setup cards: {len(round_.devils_trick)} lie "
                      f"face down in the Devil's Trick. Seat {state.to_act} leads the first "
                      "trick.")
        elif event == "trick":
            result = round_.tricks[-1]
            last = len(round_.plays)
            first = last + 1 - len(result.plays)
            self._add(state, "trick", f"round-{number}-trick-{len(round_.tricks)}",
                      f"Round {number} · trick {len(round_.tricks)}",
                      f"Plays {first} to {last} of round {number}.",
                      trick_svg(result, bottles=len(round_.bottles)))
        elif event == "round":
            done = sum(len(trick.plays) for trick in round_.tricks)
            if len(round_.plays) > done:
                self._add(state, "trick-so-far", f"round-{number}-trick-{len(round_.tricks) + 1}",
                          f"Round {number} · trick {len(round_.tricks) + 1} (unfinished)",
                          f"The record ends during this trick, after play {len(round_.plays)}.")
            self._round_end(state)
        elif event == "end" and state.is_over:
            totals = state.totals
            won = [str(seat) for seat in winners(totals)]
            self._add(state, "game-end", "game-end", "The game is over",
                      f"Totals: {_numbers(totals)}. Won by seat{'s' if len(won) > 1 else ''} "
                      f"{', '.join(won)}.")
        elif event == "broken" and fault is not None:
            self._broken(state, action, fault)

    def _round_end(self, state: GameState) -> None:
        round_ = state.round
        if round_.scores is not None:
            number = round_.index + 1
            self._add(state, "round-end", f"round-{number}-scores", f"Round {number} · the scores",
                      f"The round is over; the Devil's Trick is revealed. Round scores: "
                      f"{_numbers(round_.scores)}. Totals: {_numbers(state.totals)}.")

    def _add(self, state: GameState, kind: str, anchor: str, title: str, caption: str,
             *pictures: str) -> None:
        self.steps.append(Step(kind, state.round.index, title, caption,
                               (*pictures, round_svg(state)), anchor=anchor))

    def _broken(self, state: GameState, action: Action | None, fault: Fault) -> None:
        if fault.rule in ("SCORE-ROUND", "GAME-TOTALS"):
            self._round_end(state)  # the round ended: a claim about it is what is wrong
        attempted = action if isinstance(action, Play) else None
        where = fault_place(fault)
        title = f"Breaks rule {fault.rule}" + (f": {where}" if where else "")
        dealt = bool(self.steps)
        pictures = (round_svg(state, attempted=attempted),) if dealt else ()
        played = (f"Seat {attempted.seat} plays {attempted.card}, refused: "
                  if attempted is not None else "")
        self.steps.append(Step("broken", fault.round, title, played + fault.message, pictures,
                               fault.rule, fault.path, anchor="broken", place=where))


def fault_place(fault: Fault) -> str:
    """Where a fault is, for people: ``round 2, play 10, seat 1``, rounds and plays counted from
    1 as the command line counts them (the JSON path keeps 0-based indices); empty when the
    fault is in no round."""
    return ", ".join(
        f"{name} {value}"
        for name, value in (("round", None if fault.round is None else fault.round + 1),
                            ("play", None if fault.play is None else fault.play + 1),
                            ("seat", fault.seat))
        if value is not None
    )


def _located(place: str | None, path: str | None) -> str:
    """``round 2, play 10 ($.rounds[1].plays[9])``, or the JSON path alone."""
    return f"{place} ({path})" if place else str(path)


def replay_steps(value: JSON, source: str = "<record>") -> tuple[ValidationReport, tuple[Step, ...]]:
    """The validator's report on ``value`` and the steps of its engine replay (the very replay
    that decides the report, observed). An unreadable record raises ``RecordError`` with the JSON
    path of the fault; one whose replay draws more than ``MAX_PAGE_ROUNDS`` rounds (up to its
    end or its fault) raises ``PageTooLargeError`` before anything is drawn."""
    report = validate_json(value, source)
    if report.status == UNREADABLE:
        fault = report.errors[0]
        raise RecordError(fault.path, fault.message, fault.rule)
    if len(report.rounds) > MAX_PAGE_ROUNDS:
        raise PageTooLargeError(len(report.rounds))
    steps = _Steps()
    replayed = validate_record(parse_record(value), source, observer=steps)
    assert replayed == report, "the batch-backed verdict and the engine replay disagree"
    if not steps.steps:
        steps.steps.append(Step("empty", None, "No round recorded",
                                "The record holds no round to replay.", (), anchor="empty"))
    return report, tuple(steps.steps)


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


_CSS: Final = """
:root { color-scheme: light dark; --ink: #1d1b22; --paper: #fbfaf7; --accent: #5b3a86;
  --bad: #c4161c; --muted: #66606e; }
@media (prefers-color-scheme: dark) { :root { --ink: #ece8f3; --paper: #1c1a21;
  --accent: #b99ae6; --bad: #ff6b6b; --muted: #a9a2b4; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: var(--ink); background: var(--paper); }
header { padding: 12px 20px; border-bottom: 1px solid #8884; }
header h1 { margin: 0 0 4px; font-size: 20px; }
header p { margin: 2px 0; color: var(--muted); }
.verdict.valid { color: #1a7f37; font-weight: 600; }
.verdict.broken { color: var(--bad); font-weight: 600; }
nav { position: sticky; top: 0; z-index: 2; display: flex; gap: 8px; align-items: center;
  flex-wrap: wrap; padding: 8px 20px; background: var(--paper); border-bottom: 1px solid #8884; }
nav button { font: inherit; padding: 4px 12px; border-radius: 6px; border: 1px solid #8888;
  background: transparent; color: inherit; cursor: pointer; }
nav button:disabled { opacity: .4; cursor: default; }
nav button:focus-visible { outline: 2px solid var(--accent); }
#counter { font-variant-numeric: tabular-nums; margin-left: 8px; }
.keys { color: var(--muted); font-size: 13px; margin-left: auto; }
main { padding: 12px 20px 40px; }
.step h2 { margin: 6px 0; font-size: 18px; }
.step p { margin: 4px 0 12px; max-width: 70em; }
.step h2 a { color: var(--muted); text-decoration: none; margin-left: 6px; font-size: 15px; }
.step figure { margin: 0 0 14px; }
.fault { border: 2px solid var(--bad); border-radius: 8px; padding: 8px 12px; margin: 8px 0 14px; }
.fault strong { color: var(--bad); }
.fault code { font-size: 14px; }
"""

_SCRIPT: Final = """
(function () {
  "use strict";
  var steps = Array.prototype.slice.call(document.querySelectorAll("section.step"));
  var counter = document.getElementById("counter");
  var buttons = {
    first: document.getElementById("first"), prev: document.getElementById("prev"),
    next: document.getElementById("next"), last: document.getElementById("last")
  };
  var pictures = null;
  var current = 0;
  function draw(step) {
    Array.prototype.forEach.call(step.querySelectorAll("figure[data-picture]"), function (f) {
      if (!f.firstChild) { f.innerHTML = pictures[Number(f.dataset.picture)]; }
    });
  }
  function show(index) {
    current = Math.max(0, Math.min(steps.length - 1, index));
    steps.forEach(function (step, i) { step.hidden = i !== current; });
    draw(steps[current]);
    counter.textContent = "Step " + (current + 1) + " of " + steps.length;
    document.body.dataset.step = String(current);
    buttons.first.disabled = buttons.prev.disabled = current === 0;
    buttons.next.disabled = buttons.last.disabled = current === steps.length - 1;
    var address = "#" + steps[current].id;
    if (location.hash !== address) {
      try { history.replaceState(null, "", address); } catch (error) { location.replace(address); }
    }
  }
  function fromAddress() {
    var id = decodeURIComponent(location.hash.slice(1));
    for (var i = 0; i < steps.length; i += 1) { if (steps[i].id === id) { return i; } }
    return null;
  }
  function start() {
    buttons.first.addEventListener("click", function () { show(0); });
    buttons.prev.addEventListener("click", function () { show(current - 1); });
    buttons.next.addEventListener("click", function () { show(current + 1); });
    buttons.last.addEventListener("click", function () { show(steps.length - 1); });
    var fault = document.getElementById("to-fault");
    if (fault) { fault.addEventListener("click", function () { show(steps.length - 1); }); }
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      var moves = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0,
                    End: steps.length - 1 };
      if (Object.prototype.hasOwnProperty.call(moves, event.key)) {
        event.preventDefault();
        show(moves[event.key]);
      }
    });
    window.addEventListener("hashchange", function () {
      var index = fromAddress();
      if (index !== null && index !== current) { show(index); }
    });
    var linked = fromAddress();
    show(linked === null ? 0 : linked);
    document.body.dataset.ready = "true";
  }
  // The pictures travel as one gzip-compressed JSON list (base64): many steps share most of
  // their drawing, so the page stays small; each is drawn the first time its step is shown.
  var packed = atob(document.getElementById("pictures").textContent.trim());
  var bytes = new Uint8Array(packed.length);
  for (var i = 0; i < packed.length; i += 1) { bytes[i] = packed.charCodeAt(i); }
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  new Response(stream).json().then(function (list) { pictures = list; start(); });
})();
"""


def _config_text(record: GameRecord) -> str:
    config = record.config
    parts = [f"{config.players} players", f"edition {config.edition}"]
    if config.bottles > 1:
        parts.append("two bottles")
    if config.teams is not None:
        parts.append("teams " + " ".join("{" + ",".join(map(str, t)) + "}" for t in config.teams))
    if config.players == 2:
        parts.append("Devil's Eye")
    return ", ".join(parts)


def _step_html(index: int, step: Step, pictures: Sequence[int], extra: str = "") -> str:
    """A step's section; its figures name their pictures by their place in the page's list;
    ``extra`` (the analysis of the step, when there is one) follows them."""
    round_attr = "" if step.round is None else f' data-round="{step.round}"'
    hidden = "" if index == 0 else " hidden"
    anchor = step.anchor or f"step-{index + 1}"
    parts = [
        f'<section class="step {_esc(step.kind)}" id="{_esc(anchor)}" '
        f'data-kind="{_esc(step.kind)}"{round_attr}{hidden}>',
        f'<h2>{_esc(step.title)}<a href="#{_esc(anchor)}" title="a link to this step">#</a></h2>',
    ]
    if step.kind == "broken":
        parts.append(
            f'<div class="fault" role="alert"><strong>Rule <code class="rule">{_esc(step.rule)}'
            f"</code></strong> at "
            + (f"{_esc(step.place)} (<code>{_esc(step.path)}</code>): " if step.place
               else f"<code>{_esc(step.path)}</code>: ")
            + f'<span class="message">{_esc(step.caption)}</span></div>'
        )
    else:
        parts.append(f"<p>{_esc(step.caption)}</p>")
    parts += [f'<figure data-picture="{number}"></figure>' for number in pictures]
    parts.append(extra)
    parts.append("</section>")
    return "".join(parts)


def pack_pictures(pictures: Sequence[str]) -> str:
    """The pictures of a page as the page carries them: a JSON list, gzip-compressed, base64."""
    text = json.dumps(list(pictures), separators=(",", ":"), ensure_ascii=True)
    return base64.b64encode(gzip.compress(text.encode("ascii"), 9, mtime=0)).decode("ascii")


def unpack_pictures(packed: str) -> list[str]:
    """The pictures ``pack_pictures`` packed (what the page's script reads)."""
    value = json.loads(gzip.decompress(base64.b64decode(packed)))
    assert isinstance(value, list) and all(isinstance(item, str) for item in value)
    return value


@frozen
class Replay:
    """A rendered replay: the validator's report, the steps, and the page (HTML text)."""

    report: ValidationReport
    steps: tuple[Step, ...]
    page: str


def render_record(value: JSON, source: str = "<record>",
                  analysis: Mapping[str, Any] | None = None) -> Replay:
    """The report, the steps and the replay page of the record ``value`` (parsed JSON); with
    ``analysis`` (its ``bottleimp-analysis/1`` JSON form), the page shows each trick's open-hand
    values and a table of the coins each seat lost (``bottleimp.pictures._analysis``).

    An unreadable record raises ``RecordError`` (with the JSON path of the fault), as
    ``bottleimp validate`` would report it with status 2; a record of more rounds than a page
    draws, ``PageTooLargeError`` (``MAX_PAGE_ROUNDS``)."""
    report, steps = replay_steps(value, source)
    page = _page(report, parse_record(value), steps, source, analysis)
    return Replay(report, steps, page)


def render_record_html(value: JSON, source: str = "<record>") -> str:
    """The replay page of the record ``value`` (parsed JSON) as one self-contained HTML document.

    An unreadable record raises ``RecordError`` (with the JSON path of the fault)."""
    return render_record(value, source).page


def _analysis_html(step: Step, record: GameRecord, analysis: Mapping[str, Any] | None) -> str:
    """The analysis under a trick (its plays' values) or at a round's scores (the table)."""
    if analysis is None or step.round is None:
        return ""
    if step.kind in ("trick", "trick-so-far"):
        trick = int(step.anchor.rsplit("-", 1)[1]) - 1
        size = record.config.trick_size
        return trick_values_html(analysis, step.round, trick * size, trick * size + size - 1)
    if step.kind in ("round-end", "broken"):
        return round_table_html(analysis, step.round, record.config.players)
    return ""


def _page(report: ValidationReport, record: GameRecord, steps: tuple[Step, ...],
          source: str, analysis: Mapping[str, Any] | None = None) -> str:
    if report.valid:
        verdict = ('<p class="verdict valid">Valid: '
                   + ("a complete game." if report.complete else "an unfinished game.") + "</p>")
        jump = ""
    else:
        fault = report.errors[0]
        verdict = (f'<p class="verdict broken">Breaks rule {_esc(fault.rule)}: '
                   f"{_esc(_located(fault_place(fault), fault.path))}: {_esc(fault.message)}</p>")
        jump = '<button type="button" id="to-fault">Go to the broken step</button>'
    title = f"{source}: replay"
    pictures: dict[str, int] = {}  # each distinct picture once
    sections = []
    for index, step in enumerate(steps):
        numbers = [pictures.setdefault(picture, len(pictures)) for picture in step.pictures]
        sections.append(_step_html(index, step, numbers, _analysis_html(step, record, analysis)))
    body = "".join(sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\">"
        f"<title>{_esc(title)}</title><style>{_CSS}{ANALYSIS_CSS if analysis else ''}</style>"
        "</head><body>"
        f"<header><h1>{_esc(source)}</h1><p>{_esc(_config_text(record))}; "
        f"{len(record.rounds)} round{'s' if len(record.rounds) != 1 else ''} recorded. "
        "Rounds, tricks and plays are numbered from 1, as in the validator's messages; seats from 0.</p>"
        f"{verdict}</header>"
        '<nav aria-label="steps">'
        '<button type="button" id="first" aria-label="first step">« First</button>'
        '<button type="button" id="prev" aria-label="previous step">◀ Previous</button>'
        '<button type="button" id="next" aria-label="next step">Next ▶</button>'
        '<button type="button" id="last" aria-label="last step">Last »</button>'
        f'<output id="counter">Step 1 of {len(steps)}</output>{jump}'
        '<span class="keys">Keys: ← → Home End</span></nav>'
        f"<main>{body}</main>"
        f'<script type="application/octet-stream" id="pictures">{pack_pictures(list(pictures))}'
        f"</script><script>{_SCRIPT}</script></body></html>\n"
    )

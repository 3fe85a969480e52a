"""The documentation's runnable examples: the Run and Edit buttons that ``docs/hooks.py`` gives
every example the tests run (``live_examples``), and what they run (``docs/live/examples.py``).

In CPython: the runner gives each doctest's output and compares it with the page's, shows an
edited block's values as a console does, names an error's rule, shows a picture, and replays a
page's examples in order in one namespace. Every page that gets the buttons runs all its
examples clean with only what the browser has (the standard library, ``bottleimp`` and
``attrs``), and every page left without them (``NOT_LIVE``) would not. With Chromium, a headless
browser runs, edits and reruns the examples of the page on trick play on the built site, with
the library in Pyodide.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from browser import Page
from helpers import load_module

pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
RUNNER = DOCS / "live" / "examples.py"

examples = load_module("bottleimp_live_examples", RUNNER)
hooks = load_module("bottleimp_docs_hooks_under_test", DOCS / "hooks.py")


def _run(*blocks: str | tuple[str, str]) -> list[dict[str, Any]]:
    """The results of running ``blocks`` (text, or (text, mode)) as a page's, the last one asked."""
    page = examples.Page()
    previous = os.getcwd()
    try:
        return list(page.run_up_to([
            {"text": block, "mode": ""} if isinstance(block, str)
            else {"text": block[0], "mode": block[1]}
            for block in blocks
        ]))
    finally:
        os.chdir(previous)
        page.close()


# -- the runner, in CPython ---------------------------------------------------------------------

TRICK = """\
>>> from bottleimp import CLASSIC
>>> from bottleimp.rules.play import trick_winner
>>> card = {c.rank: c for c in CLASSIC}
>>> trick_winner((card[24], card[15], card[17], card[32]), price=19)
2
"""


def test_a_doctest_gives_each_output_and_compares_it_with_the_pages() -> None:
    (result,) = _run(TRICK)
    assert result["ok"] and result["mode"] == "doctest"
    last = result["items"][-1]
    assert (last["output"], last["matches"], last["want"]) == ("2\n", True, "2\n")
    assert all(item["matches"] is None for item in result["items"][:-1])
    (changed,) = _run(TRICK.replace("price=19", "price=16"))
    assert not changed["ok"]
    assert (changed["items"][-1]["output"], changed["items"][-1]["matches"]) == ("1\n", False)


def test_an_illegal_action_shows_its_rule_and_an_expected_one_matches() -> None:
    play = (">>> from bottleimp import Config, Play, apply, new_game, CLASSIC\n"
            ">>> state = new_game(Config(players=3), seed=1)\n"
            ">>> apply(state, Play(0, CLASSIC[0]))\n")
    (result,) = _run(play)
    error = result["items"][-1]["error"]
    assert not result["ok"] and error["rule"] == "PHASE"
    assert error["line"] == ("bottleimp.IllegalActionError: [PHASE] a Play is not "
                             "possible in the setup phase; it needs a Give")
    expected = play + "Traceback (most recent call last):\n...\n" + error["line"] + "\n"
    (documented,) = _run(expected)
    assert documented["ok"] and documented["items"][-1]["matches"] is True


def test_an_edited_doctest_runs_as_a_console_and_a_script_shows_its_last_value() -> None:
    console = "x = 20\nfor n in (1, 2):\n    print(n)\n\nx + 1\nx * 2\n"
    (result,) = _run((console, "statements"))
    assert [item["source"] for item in result["items"]] == [
        "x = 20\n", "for n in (1, 2):\n    print(n)\n", "x + 1\n", "x * 2\n"]
    assert [item["output"] for item in result["items"]] == ["", "1\n2\n", "21\n", "40\n"]
    (script,) = _run(console)
    assert script["mode"] == "script" and [item["output"] for item in script["items"]] == ["1\n2\n40\n"]
    (broken,) = _run(("x = (", "statements"))
    assert broken["items"][0]["error"]["line"].startswith("SyntaxError")
    for mode in ("statements", "script"):  # what only the compiler refuses; leaving Python
        (refused,) = _run(("return 1\nraise SystemExit(3)", mode))
        assert refused["items"][0]["error"]["line"] == "SyntaxError: 'return' outside function"
        (left,) = _run(("x = 1\nraise SystemExit(3)", mode))
        assert left["items"][-1]["error"]["line"] == "SystemExit: 3" and not left["ok"]


def test_a_console_block_runs_its_commands_in_the_page_s_directory() -> None:
    shell = ("$ bottleimp validate missing.json; echo $?\n"
             "missing.json: not a readable record: $: missing.json: no such file\n2\n")
    (result,) = _run((shell, "shell"))
    assert result["ok"] and result["items"][0]["matches"] is True
    (wrong,) = _run((shell.replace("2\n", "0\n"), "shell"))
    assert not wrong["ok"] and wrong["items"][0]["output"].endswith("2\n")
    (typed,) = _run(("bottleimp perft --players 3 --depth 1\n$ ls\n", "commands"))
    assert typed["items"][0]["output"] and typed["items"][0]["matches"] is None
    assert typed["items"][1]["error"]["line"].startswith("ValueError: console examples run "
                                                         "bottleimp commands only")
    written, read = _run("open('record.json', 'w').write('[]')",
                         ("$ bottleimp validate record.json; echo $?\n", "commands"))
    assert "no such file" not in read["items"][0]["output"]
    assert "record.json" in read["items"][0]["output"] and written["ok"]
    (stray,) = _run(("output first\n$ bottleimp --help\n", "shell"))
    assert "before any command" in stray["items"][0]["error"]["line"] and not stray["ok"]


def test_a_picture_that_an_example_returns_is_shown_not_its_markup() -> None:
    (result,) = _run(("from bottleimp import CLASSIC\nfrom bottleimp.pictures import card_svg\n"
                      "card_svg(CLASSIC[0])\ncard_svg(CLASSIC[0])[:20]\n", "statements"))
    picture, cut = result["items"][2], result["items"][3]
    assert picture["svg"].startswith("<svg") and picture["output"] == ""
    assert cut["svg"] is None and cut["output"].startswith("'<svg")


def test_a_page_s_examples_share_one_namespace_replayed_when_an_earlier_one_changes() -> None:
    page = examples.Page()
    previous = os.getcwd()
    try:
        first = {"text": ">>> n = 1\n", "mode": ""}
        second = {"text": ">>> n += 1\n>>> n\n2\n", "mode": ""}
        ran = page.run_up_to([first, second])
        assert [result["index"] for result in ran] == [0, 1] and ran[1]["ok"]
        again = page.run_up_to([first, second])  # run twice, it still starts from n = 1
        assert [result["index"] for result in again] == [0, 1] and again[1]["ok"]
        third = {"text": ">>> n\n2\n", "mode": ""}
        assert [result["index"] for result in page.run_up_to([first, second, third])] == [2]
        edited = {"text": "n = 10", "mode": "script"}
        after = page.run_up_to([edited, second])
        assert [result["index"] for result in after] == [0, 1]
        assert after[1]["items"][-1]["output"] == "11\n" and not after[1]["ok"]
        directory = page.directory
        assert directory is not None and Path(directory).samefile(os.getcwd())
    finally:
        os.chdir(previous)
        page.close()
    assert not Path(directory).exists()


def test_the_build_draws_pictures_with_the_same_runner_and_stops_at_a_failing_example() -> None:
    from mkdocs.exceptions import PluginError

    pictures = hooks.pictures
    assert pictures.examples.run_block is not None  # docs/pictures.py runs blocks with it
    expected = ("<!-- example: a -->\n```python\n>>> from bottleimp import CLASSIC\n"
                ">>> CLASSIC[99]\nTraceback (most recent call last):\n...\n"
                "IndexError: tuple index out of range\n```\n")
    drawn = pictures.pictures(expected + "<!-- picture: a | card_svg(CLASSIC[3]) -->\n", "t.md")
    assert 'data-rank="4"' in drawn[0]
    with pytest.raises(PluginError, match=r"example failed .*'CLASSIC\[99\]'.*IndexError"):
        pictures.pictures(expected.replace("Traceback", "oops").replace("IndexError:", "x")
                          + "<!-- picture: a | card_svg(CLASSIC[3]) -->\n", "t.md")


# -- which pages get the buttons ----------------------------------------------------------------

MARKED = """\
```python
>>> 1 + 1
2
```

<!-- skip: next -->
```python
import numpy
```

??? example "Folded"

    ```python
    x = 1
    ```

```json
{"not": "python"}
```
"""


def test_every_example_the_tests_run_gets_the_buttons_and_no_other_block() -> None:
    marked = hooks.live_examples(hooks.console_sessions(MARKED), "rules/tricks.md")
    assert marked.count("{ .live-example }") == 2
    assert "```pycon { .live-example }\n>>> 1 + 1" in marked
    assert "    ```python { .live-example }\n    x = 1" in marked
    assert "```python\nimport numpy" in marked and "```json\n" in marked
    assert hooks.live_examples(MARKED, "guide/bots.md") == MARKED


GUARD = """
import importlib.abc, json, os, subprocess, sys, threading
import multiprocessing.process, concurrent.futures
import examples, pictures
# What Pyodide with the bottleimp and attrs wheels has: its standard library, less the modules
# it ships as separate packages, and no processes or threads.
ALLOWED = set(sys.stdlib_module_names) | {"bottleimp", "attr", "attrs"}
UNVENDORED = {"ssl", "_ssl", "sqlite3", "_sqlite3", "lzma", "_lzma", "_hashlib", "tkinter",
              "_tkinter", "curses", "_curses", "readline"}
class Browser(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        top = name.partition(".")[0]
        if top not in ALLOWED or top in UNVENDORED:
            raise ModuleNotFoundError(f"No module named {name!r} in the browser")
        return None
def refused(*args, **kwargs):
    raise OSError("no processes or threads in the browser")
subprocess.Popen.__init__ = refused
os.fork = refused
threading.Thread.start = refused
multiprocessing.process.BaseProcess.start = refused
concurrent.futures.ProcessPoolExecutor.__init__ = refused
for name in list(sys.modules):  # what the runner's own imports brought (mkdocs, click, ...)
    if name.partition(".")[0] not in ALLOWED or name.partition(".")[0] in UNVENDORED:
        del sys.modules[name]
sys.meta_path.insert(0, Browser())
answer = {}
for page, to_first_failure in json.loads(sys.stdin.read()):
    blocks = [block for block in pictures.python_blocks(open(page, encoding="utf-8").read(),
                                                        ("python", "console"))
              if not block.skipped]
    sources = [{"text": block.source, "mode": "shell" if block.kind == "console" else ""}
               for block in blocks]
    runner = examples.Page()
    if to_first_failure:  # a page that should fail: one block at a time, up to its first failure
        results = []
        for count in range(1, len(sources) + 1):
            results += runner.run_up_to(sources[:count])
            if not results[-1]["ok"]:
                break
    else:
        results = runner.run_up_to(sources)
    runner.close()
    answer[page] = [(result["index"] + 1, [item["error"]["line"] for item in result["items"]
                                           if item["error"]][:1]) for result in results
                    if not result["ok"]]
print(json.dumps(answer))
"""


def test_every_page_with_buttons_runs_clean_with_what_the_browser_has() -> None:
    """Each page's examples (python and console blocks), in order in one namespace, in a
    process that can import only what
    Pyodide with the two wheels holds: every page that gets the buttons runs clean; every page
    of ``NOT_LIVE`` fails (the list says why; its examples run up to the first that fails)."""
    pages = [path for path in sorted(DOCS.rglob("*.md"))
             if "```python" in path.read_text("utf-8") or "```console" in path.read_text("utf-8")]
    # docs/pictures.py (which finds a page's blocks as the hook marks them) needs mkdocs; the
    # modules it brings are forgotten before the guard is in place.
    search = os.pathsep.join(map(str, (DOCS / "live", DOCS, REPO)))
    done = subprocess.run(
        [sys.executable, "-c", GUARD],
        input=json.dumps([(str(page), page.relative_to(DOCS).as_posix() in hooks.NOT_LIVE)
                          for page in pages]), capture_output=True, text=True,
        cwd=REPO, env=dict(os.environ, PYTHONPATH=search), timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    failures = json.loads(done.stdout)
    names = {str(page): page.relative_to(DOCS).as_posix() for page in pages}
    live = {names[page]: failed for page, failed in failures.items()
            if names[page] not in hooks.NOT_LIVE}
    assert len(live) >= 15 and all(name in live for name in ("rules/tricks.md", "index.md"))
    assert {name: failed for name, failed in live.items() if failed} == {}
    stale = [name for name in hooks.NOT_LIVE if not failures.get(str(DOCS / name))]
    assert stale == [], f"these pages' examples run in the browser after all: {stale}"


# -- in a real browser --------------------------------------------------------------------------

CHROMIUM = load_module("bottleimp_screenshots_for_live", REPO / "scripts" / "screenshots.py"
                       ).find_chromium(os.environ.get("BOTTLEIMP_CHROMIUM"))

EXAMPLE = """(function(index){
  var output = document.querySelector('.live-output[data-live-index="' + index + '"]');
  var bar = document.querySelector('.live-bar[data-live-index="' + index + '"]');
  var code = document.querySelector('.live-example[data-live-index="' + index + '"] code');
  var transcript = [].map.call(output.querySelectorAll('pre.live-transcript'),
                               function(pre){ return pre.textContent; }).join('');
  return {state: output.dataset.state || null, hidden: output.hidden,
          status: bar.querySelector('.live-status').textContent, code: code.textContent,
          transcript: transcript, text: output.textContent,
          rules: [].map.call(output.querySelectorAll('.live-rule a'), function(a){
            return [a.textContent, a.href]; }),
          pictures: output.querySelectorAll('svg.bottleimp-picture').length,
          editing: !!bar.parentNode.querySelector(
            'textarea.live-editor + .live-bar[data-live-index="' + index + '"]')};
})(%d)"""


def _example(browser: Page, index: int) -> dict[str, Any]:
    found = browser.evaluate(EXAMPLE % index)
    assert isinstance(found, dict)
    return found


def _run_in_browser(browser: Page, index: int, seconds: float) -> dict[str, Any]:
    """Click the example's Run button as a person would; what it shows once the run is over."""
    browser.click(f'.live-bar[data-live-index="{index}"] .live-run', scroll=True)
    over = browser.wait_until(
        f"""['ok', 'failed', 'broken'].indexOf(document.querySelector(
            '.live-output[data-live-index="{index}"]').dataset.state) >= 0""", seconds)
    found = _example(browser, index)
    assert over, f"example {index + 1} did not run: {found} {browser.errors}"
    return found


def _edit(browser: Page, index: int, text: str) -> None:
    """Click Edit, select the text box's whole text and type ``text`` over it."""
    if not _example(browser, index)["editing"]:
        browser.click(f'.live-bar[data-live-index="{index}"] .live-edit', scroll=True)
        assert _example(browser, index)["editing"]
    browser.evaluate(f"""document.querySelector('.live-bar[data-live-index="{index}"]')"""
                     ".previousElementSibling.select(), true")
    browser.call("Input.insertText", text=text)


def _lines(text: str) -> list[str]:
    """A console session's lines, without the comment lines (doctest does not run them)."""
    return [line.rstrip() for line in text.strip().splitlines() if not line.startswith(">>> #")]


# The browser test shares the built site, its server and the browser with tests/test_docs_site.py
# (conftest.py's `site`, `site_server`, `site_browser`): in one xdist group, one worker builds
# the site once for both files and starts one browser.
@pytest.mark.xdist_group("docs-site")
@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_a_reader_runs_and_edits_the_examples_of_the_tricks_page_in_the_browser(
        site: Path, site_server: str, site_tab: Page) -> None:
    """On the built page on trick play, with the library in Pyodide served by the site: the
    first example, run unchanged, gives the page's output; edited (a card changed), it gives
    the new winner; the third example runs the two above it first and gives the page's output;
    edited into an illegal play, it shows the error with its rule and a link to the rule;
    edited to return a picture, it draws it; nothing is loaded from elsewhere. On the home page,
    the console block's ``bottleimp simulate`` gives the page's story, and another seed another."""
    base, browser = site_server, site_tab
    browser.navigate(base + "rules/tricks/")
    assert browser.evaluate("document.querySelectorAll('.live-example').length") == 9
    assert browser.evaluate("performance.getEntriesByType('resource').filter(function(e){"
                            "return /pyodide/.test(e.name);}).length") == 0  # not yet

    first = _run_in_browser(browser, 0, 150)  # loads Pyodide and the library
    print("example 1, as on the page:", first["status"], repr(first["transcript"]))
    assert first["state"] == "ok" and first["status"] == "Ran: the output is the page's."
    assert _lines(first["transcript"]) == _lines(first["code"])

    _edit(browser, 0, "from bottleimp import CLASSIC\n"
                      "from bottleimp.rules.play import trick_winner\n"
                      "card = {c.rank: c for c in CLASSIC}\n"
                      "trick = (card[24], card[15], card[21], card[32])\n"
                      "trick_winner(trick, price=19)\n")
    edited = _run_in_browser(browser, 0, 30)
    print("example 1, Christian's 17 made a 21:", repr(edited["transcript"]))
    assert edited["state"] == "ok"
    assert _lines(edited["transcript"])[-2:] == [">>> trick_winner(trick, price=19)", "1"]

    third = _run_in_browser(browser, 2, 30)
    print("example 3, as on the page:", repr(third["text"]))
    assert third["state"] == "ok" and "Ran the 2 examples above it first" in third["text"]
    assert _lines(third["transcript"]) == _lines(third["code"])
    assert "[TURN-ORDER] it is seat 3's turn, not seat 0's" in third["transcript"]

    _edit(browser, 2, "apply(state, Play(DORIS, card[28]))\n")
    refused = _run_in_browser(browser, 2, 30)
    print("example 3, an illegal play:", repr(refused["text"]), refused["rules"])
    assert refused["state"] == "failed"
    assert "IllegalActionError: [TURN-ORDER] it is seat 3's turn, not seat 0's" in refused[
        "transcript"]
    (rule, href), = refused["rules"]
    assert rule == "TURN-ORDER" and href == base + "reference/rules/#turn-order"
    assert 'id="turn-order"' in (site / "reference" / "rules" / "index.html").read_text(
        encoding="utf-8")

    _edit(browser, 2, "from bottleimp.pictures import trick_svg\n"
                      "trick_svg(state.round.tricks[0], names=NAMES)\n")
    drawn = _run_in_browser(browser, 2, 30)
    print("example 3, a picture:", drawn["status"], drawn["pictures"], "picture(s)")
    assert drawn["state"] == "ok" and drawn["pictures"] == 1, drawn

    loaded = browser.evaluate(
        "performance.getEntriesByType('resource').map(function(e){return e.name;})")
    assert loaded and all(name.startswith(base) for name in loaded), loaded
    assert any(name.endswith("pyodide.asm.wasm") for name in loaded)

    # The home page's console block: the command line, run by the library in the page.
    browser.navigate(base)
    shell = browser.evaluate("document.querySelector('.live-example.language-console')"
                             ".dataset.liveIndex")
    simulated = _run_in_browser(browser, int(shell), 150)
    print("home page, bottleimp simulate:", simulated["status"],
          repr(simulated["transcript"][-120:]))
    assert simulated["state"] == "ok" and simulated["status"] == "Ran: the output is the page's."
    assert simulated["transcript"].endswith("Game over after 1 round. Seat 0 wins with 41.\n")
    _edit(browser, int(shell), "bottleimp simulate --players 4 --rounds 1 --seed 4\n")
    reseeded = _run_in_browser(browser, int(shell), 30)
    print("home page, another seed:", repr(reseeded["transcript"][-60:]))
    assert reseeded["state"] == "ok" and "Game over after 1 round." in reseeded["transcript"]
    assert reseeded["transcript"] != simulated["transcript"]
    _edit(browser, int(shell), "bottleimp simulate --players 9\n")
    refused = _run_in_browser(browser, int(shell), 30)
    print("home page, a refused option:", refused["status"])
    assert refused["status"] == "Ran. The command exited with status 2 (an error).", refused
    assert "--players" in refused["transcript"]
    assert browser.errors == []

"""The documentation as a reader gets it: the site that ``mkdocs build --strict`` writes.

Every page has content, every image it shows is in the site, sources are named as readers know
them (never "seed 000"), and examples' output is not highlighted as Python. With Chromium
installed (Debian: ``apt-get install chromium``), a headless browser also draws the home page at
a phone's width (``scripts/screenshots.py`` takes every page at any width, for people to look
at)."""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlsplit

import pytest
from browser import Page

REPO = Path(__file__).resolve().parents[1]

pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")

# One worker builds the site once for every test of this file (under pytest-xdist).
pytestmark = pytest.mark.xdist_group("docs-site")


def _load_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("screenshots", REPO / "scripts" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("screenshots", module)
    spec.loader.exec_module(module)
    return module


screenshots = _load_script()


# The fixture `site`, the built site, is in conftest.py: test_live_examples.py shares it.


class _Page(HTMLParser):
    """The text of a page's main content (Material's ``<article>``), its images and its code
    blocks (their classes and text)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0  # inside <article> when > 0
        self.text: list[str] = []
        self.images: list[str] = []
        self.blocks: list[tuple[str, list[str]]] = []
        self._block_depth = 0
        self._in_script = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if tag in ("script", "style"):
            self._in_script = True
        if tag == "article":
            self.depth += 1
        if tag == "img":
            self.images.append(values.get("src") or "")
        if tag == "div" and "highlight" in (values.get("class") or "").split():
            self.blocks.append((values.get("class") or "", []))
            self._block_depth = 1
        elif tag == "div" and self._block_depth:
            self._block_depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._in_script = False
        if tag == "article":
            self.depth -= 1
        if tag == "div" and self._block_depth:
            self._block_depth -= 1

    def handle_data(self, data: str) -> None:
        if self._in_script:
            return
        if self.depth > 0:
            self.text.append(data)
        if self._block_depth:
            self.blocks[-1][1].append(data)


def _pages(site: Path) -> Iterator[tuple[Path, _Page]]:
    yield from _parsed(site)


@functools.lru_cache(maxsize=4)
def _parsed(site: Path) -> tuple[tuple[Path, _Page], ...]:
    """Every HTML file of the folder ``site``, parsed once for all the tests that read them
    (the built site is never changed by a test; a test's own folder has its own path)."""
    parsed = []
    for path in sorted(site.rglob("*.html")):
        parser = _Page()
        parser.feed(path.read_text(encoding="utf-8"))
        parsed.append((path, parser))
    return tuple(parsed)


def test_the_site_has_every_page_of_the_navigation(site: Path) -> None:
    pages = screenshots.pages(site)
    assert "" in pages and "rules/tricks/" in pages and "reference/rules/" in pages
    assert len(pages) >= 20


def empty_pages(site: Path) -> list[str]:
    """Pages whose main content has fewer than 200 characters of text."""
    empty = []
    for path, page in _pages(site):
        if path.name == "404.html":
            continue
        words = " ".join("".join(page.text).split())
        if len(words) < 200:
            empty.append(f"{path.relative_to(site)}: {words[:80]!r}")
    return empty


def broken_images(site: Path) -> list[str]:
    """Images whose ``src`` is empty, remote, or names no file of the site."""
    broken = []
    for path, page in _pages(site):
        for source in page.images:
            address = urlsplit(source)
            if address.scheme == "data":
                continue
            if address.scheme or address.netloc:
                broken.append(f"{path.relative_to(site)}: {source} (the docs load nothing remote)")
                continue
            target = (path.parent / unquote(address.path)).resolve()
            if not source or not target.is_file() or site.resolve() not in target.parents:
                broken.append(f"{path.relative_to(site)}: {source!r}")
    return broken


def test_every_page_has_main_content(site: Path) -> None:
    empty = empty_pages(site)
    assert not empty, "pages with an empty or nearly empty body:\n" + "\n".join(empty)


def test_every_image_is_in_the_site(site: Path) -> None:
    broken = broken_images(site)
    assert not broken, "broken images:\n" + "\n".join(broken)


def test_an_empty_page_and_broken_images_are_found(tmp_path: Path) -> None:
    text = "A paragraph of the rules. " * 10
    (tmp_path / "pictures").mkdir()
    (tmp_path / "pictures" / "trick.svg").write_text("<svg/>")
    (tmp_path / "good.html").write_text(
        f'<article><p>{text}</p><img src="pictures/trick.svg"><img src="data:,x"></article>'
    )
    (tmp_path / "empty.html").write_text("<article><h1>Title</h1></article>")
    (tmp_path / "broken.html").write_text(
        f'<article><p>{text}</p><img src="pictures/bottle.svg">'
        '<img src="https://example.org/a.png"><img src=""></article>'
    )
    assert empty_pages(tmp_path) == ["empty.html: 'Title'"]
    assert broken_images(tmp_path) == [
        "broken.html: 'pictures/bottle.svg'",
        "broken.html: https://example.org/a.png (the docs load nothing remote)",
        "broken.html: ''",
    ]


def test_sources_are_named_as_readers_know_them(site: Path) -> None:
    seeds = re.compile(r"\b[Ss]eeds? 0\d\d\b|\b[Ss]eed [`‘']?0\d\d_|\bseed documents\b")
    found = []
    for path, page in _pages(site):
        text = " ".join("".join(page.text).split())
        found += [f"{path.relative_to(site)}: {m[0]!r}" for m in seeds.finditer(text)]
    assert not found, found
    rules = (site / "reference" / "rules" / "index.html").read_text(encoding="utf-8")
    # The reference keeps the file names for those who check quotes.
    assert "The English rulebook" in rules and "001_dddb4cddf81a40dc.txt" in rules


def test_example_output_is_not_highlighted_as_python(site: Path) -> None:
    python_sessions = []
    for path, page in _pages(site):
        for classes, parts in page.blocks:
            text = "".join(parts).lstrip()
            if "language-python" in classes.split() and text.startswith(">>>"):
                python_sessions.append(f"{path.relative_to(site)}: {text[:40]!r}")
    assert not python_sessions, python_sessions
    home = (site / "index.html").read_text(encoding="utf-8")
    assert "language-pycon" in home and "language-sh" in home


CHROMIUM = screenshots.find_chromium(os.environ.get("BOTTLEIMP_CHROMIUM"))


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_a_headless_browser_draws_the_home_page_at_a_phones_width(
    site_server: str, site_tab: Page, tmp_path: Path
) -> None:
    """``scripts/screenshots.py`` takes the home page at 360 px, and the page that the browser
    made of it, scripts run, at that width, holds the home page's text."""
    assert CHROMIUM is not None
    out = tmp_path / "index-360.png"
    why = screenshots.screenshot(CHROMIUM, site_server, out, 360, 800, 90)
    assert why is None, why
    png = out.read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000
    # 360 CSS pixels wide, as asked.
    assert int.from_bytes(png[16:20], "big") == 360
    site_tab.call("Emulation.setDeviceMetricsOverride", width=360, height=800,
                  deviceScaleFactor=1, mobile=False)
    site_tab.navigate(site_server)
    assert site_tab.evaluate("innerWidth") == 360
    body = _Page()
    body.feed(site_tab.evaluate("document.documentElement.outerHTML"))
    assert "executable reference for the rules" in " ".join("".join(body.text).split())
    assert site_tab.errors == []


# -- pictures that read everywhere --------------------------------------------------------------

WIDTHS = (1280, 768, 390)

MEASURE_PICTURES = """(function(){
  var small = [], wide = [];
  document.querySelectorAll('svg.bottleimp-picture').forEach(function(svg, index){
    var box = svg.getBoundingClientRect(), scale = box.width / svg.viewBox.baseVal.width;
    svg.querySelectorAll('text').forEach(function(text){
      var size = parseFloat(getComputedStyle(text).fontSize) * scale;
      if (size < 9.95) small.push('picture ' + index + ': ' + JSON.stringify(text.textContent)
                                + ' at ' + size.toFixed(1) + ' px');
    });
    var figure = svg.closest('figure') || svg.parentElement;
    if (figure.scrollWidth > figure.clientWidth + 1 || box.right > innerWidth)
      wide.push('picture ' + index + ' scrolls sideways');
  });
  var broken = [].filter.call(document.querySelectorAll('article :not(pre) > code'), function(code){
    return /-/.test(code.textContent) && !/\\s/.test(code.textContent)
      && code.getClientRects().length > 1;
  }).map(function(code){ return code.textContent + ' breaks across lines'; });
  return {pictures: document.querySelectorAll('svg.bottleimp-picture').length,
          small: small, wide: wide, broken: broken,
          page_scrolls: document.documentElement.scrollWidth > innerWidth};
})()"""


SETTLED = """new Promise(function (done) {
  requestAnimationFrame(function () {
    requestAnimationFrame(function still() {
      if (document.getAnimations().length) { requestAnimationFrame(still); } else { done(); }
    });
  });
})"""
"""A promise that resolves once the page has laid itself out and drawn after a resize, with no
transition or animation running (with the reader's setting "reduce motion", which
``unreadable_pictures`` asks for, Material's transitions are off: there are none)."""

REDUCED_MOTION = [{"name": "prefers-reduced-motion", "value": "reduce"}]


def picture_pages(site: Path) -> list[str]:
    """The pages of the site that show a picture drawn by the library."""
    return [page for page in screenshots.pages(site)
            if "bottleimp-picture" in (site / page / "index.html").read_text(encoding="utf-8")]


def unreadable_pictures(browser: Page, base: str, pages: list[str]) -> list[str]:
    """For each page and width: labels of pictures smaller than 10 CSS px on screen, pictures
    that scroll sideways, inline code such as ``--plain`` broken across lines.

    Each page loads at the window's width (1280 px) and is then narrowed to 768 and 390 px;
    the reader has asked to reduce motion, so the theme's sliding menus do not move while a
    page is measured (the theme turns its transitions off; the layout is the same)."""
    problems = []
    browser.call("Emulation.setEmulatedMedia", features=REDUCED_MOTION)
    for page in pages:
        browser.call("Emulation.clearDeviceMetricsOverride")
        browser.navigate(base + page)
        for width in WIDTHS:  # the page lays itself out anew at each width
            browser.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                         deviceScaleFactor=1, mobile=False)
            browser.evaluate(SETTLED)
            found = browser.evaluate(MEASURE_PICTURES)
            if page and not found["pictures"]:
                problems.append(f"{page} at {width} px: no picture drawn")
            for problem in found["small"][:3] + found["wide"] + found["broken"]:
                problems.append(f"{page or 'home'} at {width} px: {problem}")
            if found["page_scrolls"]:
                problems.append(f"{page or 'home'} at {width} px: the page scrolls sideways")
    return problems


def empty_search_index(site: Path) -> bytes:
    """The site's search index with its settings and no page: what the theme's search loads on
    every page, which the pictures' test has no use for (indexing the whole site takes the
    browser about half a second of work per page load)."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    return json.dumps({**index, "docs": []}).encode()


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_every_picture_reads_at_390_768_and_1280_px(
    site: Path, site_server: str, site_tab: Page
) -> None:
    pages = picture_pages(site)
    assert len(pages) >= 10 and "rules/passing/" in pages
    site_tab.answer("*/search/search_index.json", 200, "application/json",
                    empty_search_index(site))
    problems = unreadable_pictures(site_tab, site_server, ["", *pages])
    assert site_tab.errors == []
    assert not problems, "\n".join(problems)


# -- play a game in the browser -----------------------------------------------------------------

PLAY_STATE = """(function(){
  var root = document.getElementById('bottleimp-play');
  var refused = document.getElementById('play-refused');
  return {ready: root.dataset.ready || null, phase: root.dataset.phase || null,
          legal: document.querySelectorAll('#play-hand .play-card.legal').length,
          illegal: document.querySelectorAll('#play-hand .play-card:not(.legal)').length,
          deal: !document.getElementById('play-next-round').hidden,
          prompt: document.getElementById('play-prompt').textContent,
          refused: refused.hidden ? null : refused.textContent,
          rule_href: refused.hidden ? null : (refused.querySelector('a.rule-page') || {}).href,
          download: document.getElementById('play-download').hidden ? null
                    : document.getElementById('play-download').href,
          story: document.getElementById('play-story').textContent.length};
})()"""


def _play_state(browser: Page) -> dict[str, Any]:
    found = browser.evaluate(PLAY_STATE)
    assert isinstance(found, dict)
    return found


def _wait(browser: Page, condition: str, seconds: float, what: str) -> dict[str, Any]:
    """The page's state once ``condition``, JavaScript about that state ``s``, holds (the page
    tests it whenever it changes); fails saying ``what`` did not happen within ``seconds``."""
    held = browser.wait_until(f"(function(s){{return {condition};}})({PLAY_STATE})", seconds)
    found = _play_state(browser)
    assert held, f"{what}: {found} {browser.errors}"
    return found


def _round_end(browser: Page) -> dict[str, Any]:
    """What the page shows at the end of a round: the score sheet, the prompt, the button to go
    on; and at 1280, 768 and 390 px, any text wrapped twice or control that does not look like
    one (the story and the score table are on the page then)."""
    shown = browser.evaluate(
        "({scores: !document.getElementById('play-scores').hidden && !!document.querySelector("
        "'#play-scores svg.scores-picture'), prompt: document.getElementById('play-prompt')"
        ".textContent, button: document.getElementById('play-next-round').textContent, "
        "tables: document.querySelectorAll('#play-story > .play-story-table').length})")
    problems = []
    for width in WIDTHS:
        problems += _layout_problems(browser, f"play at {width} px", width)
        problems += [f"play at {width} px: {problem}" for problem in control_problems(browser)[0]]
    browser.call("Emulation.clearDeviceMetricsOverride")
    assert shown["tables"] >= 3, shown
    return {**shown, "problems": problems}


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_a_reader_plays_a_whole_game_in_the_browser_against_the_bots(
    site: Path, site_server: str, site_tab: Page
) -> None:
    """The library itself, in Pyodide served by the site: the page is driven by clicks as a
    person would; an illegal card is refused with its rule and a link to the rule's page; the
    first round ends on its scores though a bot deals the second, and the page then reads well
    at every width; the record downloaded at the end is a valid complete game; nothing is
    loaded from elsewhere."""
    from bottleimp.validation import validate_json

    assert (site / "assets" / "pyodide" / "pyodide.asm.wasm").is_file()
    base, browser = site_server, site_tab
    browser.navigate(base + "play/")
    _wait(browser, "s.ready === 'true'", 150, "Pyodide and the library load")
    # ``namedItem``: ``elements.length`` is the number of the form's controls, not the select.
    # Two rounds: seat 0 deals the first, a bot (seat 1) the second.
    browser.evaluate("(function(){var f=document.getElementById('play-options');"
                     "f.elements.namedItem('players').value='3';"
                     "var length=f.elements.namedItem('length');"
                     "length.add(new Option('two rounds','--rounds 2'));"
                     "length.value='--rounds 2';return true;})()")
    browser.click("#play-start", scroll=True)
    state = _wait(browser, "s.legal > 0", 30, "the game starts")
    refused_once = None
    round_ends = []
    for _ in range(400):
        if state["phase"] == "over":
            break
        if state["deal"]:
            round_ends.append(_round_end(browser))
            browser.click("#play-next-round", scroll=True)
        elif refused_once is None and state["phase"] == "play" and state["illegal"]:
            browser.click("#play-hand .play-card:not(.legal)", scroll=True)
            refused_once = _wait(browser, "!!s.refused", 10, "a refusal")
        else:
            before = state["legal"] + state["illegal"]
            browser.click("#play-hand .play-card.legal", scroll=True)
            state = _wait(browser, f"s.legal + s.illegal !== {before} || s.phase === 'over'",
                          30, "the card is played")
            continue
        state = _play_state(browser)
    assert state["phase"] == "over", state
    assert refused_once is not None, "no illegal card was ever offered"
    # The first round ended on its scores although a bot deals the next one.
    assert [end["button"] for end in round_ends] == ["Go on: seat 1 deals round 2"], round_ends
    assert all(end["scores"] and "its scores are below" in end["prompt"] for end in round_ends)
    assert all(not end["problems"] for end in round_ends), round_ends
    assert re.search(r"Refused by rule (FOLLOW-SUIT|DEVILS-EYE-\S+|\S+-\S+): ",
                     refused_once["refused"])
    rule = refused_once["refused"].split("Refused by rule ")[1].split(":")[0]
    page = urlsplit(refused_once["rule_href"]).path
    assert (site / page.lstrip("/") / "index.html").is_file(), page
    assert f"<code>{rule}</code>" in (site / page.lstrip("/") / "index.html").read_text(
        encoding="utf-8") or rule in (site / page.lstrip("/") / "index.html").read_text(
        encoding="utf-8")
    assert state["download"] and state["download"].startswith("blob:")
    record = browser.evaluate("fetch(document.getElementById('play-download').href)"
                              ".then(function(r){return r.text();})")
    report = validate_json(json.loads(record))
    assert report.valid and report.complete, report
    played = json.loads(record)
    assert (played["config"]["players"], len(played["rounds"])) == (3, 2), played["config"]
    loaded = browser.evaluate(
        "performance.getEntriesByType('resource').map(function(e){return e.name;})"
    )
    assert loaded and all(name.startswith(base) for name in loaded), loaded
    assert browser.errors == []


def test_the_api_reference_starts_where_a_reader_starts(site: Path) -> None:
    core = (site / "reference" / "api" / "core" / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h[23] id="([^"]+)"', core)
    assert headings[:5] == ["playing-a-game", "bottleimp.new_game", "bottleimp.legal_actions",
                            "bottleimp.apply", "bottleimp.check_action"]
    assert headings.index("bottleimp.view") < headings.index("bottleimp.Config")
    for name in ("new_game", "legal_actions", "apply", "check_action", "is_legal", "with_deal"):
        start = core.index(f'id="bottleimp.{name}"')
        section = core[start:core.index("<h3", start + 10)]
        assert "&gt;&gt;&gt;" in section, f"{name} has no example"
    for page in sorted((site / "reference" / "api").rglob("index.html")):
        text = page.read_text(encoding="utf-8")
        assert "Factory" not in text and "lambda self" not in text, page
        assert "field(" not in re.sub(r"<[^>]+>", "", text), page
    assert "edition: str = default_edition(players)" in re.sub(r"<[^>]+>", "", core)


# -- every example of the API reference is code ------------------------------------------------

DOCTESTS_AS_PROSE = """(function(){
  var article = document.querySelector('article'), found = [];
  article.querySelectorAll('blockquote blockquote:not(:has(blockquote))').forEach(function(quote){
    found.push('a blockquote in a blockquote: ' + JSON.stringify(quote.textContent.trim().slice(0, 60)));
  });
  var walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT), node;
  while ((node = walker.nextNode())) {
    if (node.parentElement.closest('pre, code')) { continue; }
    if (/>>>|Traceback \\(most recent call last\\)/.test(node.textContent)) {
      found.push('a doctest in prose: ' + JSON.stringify(node.textContent.trim().slice(0, 60)));
    }
  }
  return {found: found, sessions: article.querySelectorAll('.language-pycon pre').length};
})()"""
"""What of a doctest the browser shows outside code: Markdown reads ``>>>`` as three nested
blockquotes; any ``>>>`` or traceback header in prose is an example drawn as text."""


def doctests_as_prose(browser: Page, base: str, pages: list[str]) -> tuple[list[str], int]:
    """Every doctest of ``pages`` drawn as prose, and how many Python sessions they show."""
    problems, sessions = [], 0
    for page in pages:
        browser.navigate(base + page)
        found = browser.evaluate(DOCTESTS_AS_PROSE)
        problems += [f"{page}: {problem}" for problem in found["found"]]
        sessions += found["sessions"]
    return problems, sessions


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_every_example_of_the_api_reference_is_drawn_as_code(
    site: Path, site_server: str, site_tab: Page
) -> None:
    """Each page of the API reference as the browser draws it: no doctest of a docstring (in an
    ``Examples:`` section or in the text, ``docs/doctests.py``) is shown as prose."""
    pages = [page for page in screenshots.pages(site) if page.startswith("reference/api/")]
    assert len(pages) >= 8
    site_tab.answer("*/search/search_index.json", 200, "application/json",
                    empty_search_index(site))
    problems, sessions = doctests_as_prose(site_tab, site_server, pages)
    assert not problems, "\n".join(problems)
    assert sessions >= 12
    core = (site / "reference" / "api" / "core" / "index.html").read_text(encoding="utf-8")
    start = core.index('id="bottleimp.new_game"')
    assert "new_game</span><span class=\"p\">(</span><span class=\"mi\">4" in core[start:]


def test_a_doctest_outside_an_examples_section_is_fenced_as_code() -> None:
    doctests = _load_docs_module("doctests")
    text = ("Refused:\n>>> f(4)\nTraceback (most recent call last):\n...\nValueError: 4\n\n"
            "Args:\n    n: a number:\n\n        >>> f(1)\n        1\n\n"
            "Examples:\n    >>> f(2)\n    2\n")
    assert doctests.fence_doctests(text) == (
        "Refused:\n\n```pycon\n>>> f(4)\nTraceback (most recent call last):\n...\n"
        "ValueError: 4\n```\n\nArgs:\n    n: a number:\n\n        ```pycon\n        >>> f(1)\n"
        "        1\n        ```\n\nExamples:\n    >>> f(2)\n    2")


def _load_docs_module(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bottleimp_docs_{name}",
                                                  REPO / "docs" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# -- the site publishes no bytecode --------------------------------------------------------------


def test_the_site_holds_no_bytecode(site: Path) -> None:
    assert [str(path.relative_to(site)) for path in site.rglob("*.pyc")] == []
    assert [str(path.relative_to(site)) for path in site.rglob("__pycache__")] == []


def test_bytecode_beside_the_docs_is_left_out_of_the_site(tmp_path: Path) -> None:
    """The bytecode Python writes beside ``docs/hooks.py`` and ``docs/pictures.py`` when the
    build loads them (``docs/__pycache__``) is not a file of the site: mkdocs's own list of the
    site's files, for a copy of the docs with bytecode planted in it."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    docs = tmp_path / "docs"
    (docs / "__pycache__").mkdir(parents=True)
    (docs / "index.md").write_text("# Home\n")
    (docs / "__pycache__" / "hooks.cpython-311.pyc").write_bytes(b"\x00")
    (docs / "play").mkdir()
    (docs / "play" / "session.cpython-311.pyc").write_bytes(b"\x00")
    settings = (REPO / "mkdocs.yml").read_text(encoding="utf-8")
    exclude = settings[settings.index("exclude_docs:"):].split("\n\n")[0]
    (tmp_path / "mkdocs.yml").write_text(f"site_name: probe\n{exclude}\n")
    config = load_config(str(tmp_path / "mkdocs.yml"))
    published = sorted(file.src_uri for file in get_files(config)
                       if not file.inclusion.is_excluded())  # type: ignore[no-untyped-call]
    assert published == ["index.md"], published


# -- program output is wrapped once, the copy button covers no code ------------------------------

WRAPPED_TWICE = """(function(selectors){
  var found = [];
  document.querySelectorAll(selectors).forEach(function(element){
    if (!element.getClientRects().length) { return; }
    var lines = element.textContent.split('\\n').filter(function(l){ return l.trim(); }).length;
    if (lines < 2) { return; }  // one line, wrapped by the browser only: wrapped once
    var range = document.createRange();
    range.selectNodeContents(element);
    var step = parseFloat(getComputedStyle(element).lineHeight) || 16, tops = [];
    [].forEach.call(range.getClientRects(), function(rect){
      if (rect.width < 1) { return; }
      if (!tops.some(function(top){ return Math.abs(top - rect.top) < step / 2; })) {
        tops.push(rect.top);
      }
    });
    if (tops.length > lines) {
      found.push(JSON.stringify(element.textContent.trim().slice(0, 50)) + ': ' + lines +
                 ' line(s) drawn on ' + tops.length);
    }
  });
  return found;
})(%s)"""
"""Text that a program broke into lines and the browser breaks again: elements (``selectors``,
a program's output) of several lines drawn on more lines than they have. An element of one
line (a paragraph of the play page's story) may wrap: it is wrapped once."""

OUTPUT = (".md-typeset .language-console pre > code, .md-typeset .language-text pre > code, "
          ".md-typeset .language-pycon pre > code, #play-story, #play-story > *")

COPY_COVERS_CODE = """(function(){
  var found = [];
  // The theme's copy button: in a <nav> at the block's top right (an older theme: a button).
  document.querySelectorAll('.md-typeset pre > .md-code__nav, .md-typeset pre > .md-clipboard')
    .forEach(function(button){
    var box = button.getBoundingClientRect(), code = button.parentElement.querySelector('code');
    if (!code || !box.width) { return; }
    var range = document.createRange();
    range.selectNodeContents(code);
    var covered = [].some.call(range.getClientRects(), function(rect){
      return rect.width > 0 && rect.left < box.right && rect.right > box.left
        && rect.top < box.bottom && rect.bottom > box.top;
    });
    if (covered) { found.push('the copy button covers ' + JSON.stringify(code.textContent.slice(0, 40))); }
  });
  return found;
})()"""


def output_problems(browser: Page, base: str, pages: list[str],
                    widths: tuple[int, ...] = WIDTHS) -> list[str]:
    """For each page and width: output wrapped twice, code under a copy button, a page that
    scrolls sideways."""
    problems = []
    browser.call("Emulation.setEmulatedMedia", features=REDUCED_MOTION)
    for page in pages:
        browser.call("Emulation.clearDeviceMetricsOverride")
        browser.navigate(base + page)
        for width in widths:
            problems += _layout_problems(browser, f"{page or 'home'} at {width} px", width)
    return problems


def _layout_problems(browser: Page, where: str, width: int) -> list[str]:
    browser.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                 deviceScaleFactor=1, mobile=False)
    browser.evaluate(SETTLED)
    found = browser.evaluate(WRAPPED_TWICE % json.dumps(OUTPUT)) + browser.evaluate(COPY_COVERS_CODE)
    if browser.evaluate("document.documentElement.scrollWidth > innerWidth"):
        found.append("the page scrolls sideways")
    return [f"{where}: {problem}" for problem in found]


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_console_output_is_wrapped_once_and_the_copy_button_covers_no_code(
    site: Path, site_server: str, site_tab: Page
) -> None:
    site_tab.answer("*/search/search_index.json", 200, "application/json",
                    empty_search_index(site))
    problems = output_problems(site_tab, site_server,
                               ["", "rules/tricks/", "guide/agents/", "reference/api/core/"])
    assert site_tab.errors == []
    assert not problems, "\n".join(problems)


# -- the page "Play a game": controls, menus, layout -------------------------------------------

CONTROLS = """(function(){
  function rgba(text){ var m = text.match(/[\\d.]+/g) || [0, 0, 0, 0];
    return m.map(Number).concat([1]).slice(0, 4); }
  function apart(a, b){ return Math.abs(a[0]-b[0]) + Math.abs(a[1]-b[1]) + Math.abs(a[2]-b[2]); }
  var page = rgba(getComputedStyle(document.body).backgroundColor), found = [];
  document.querySelectorAll('#play-options select, #play-options input[type=number], ' +
                            '#play-options button, #play-next-round:not([hidden])')
    .forEach(function(control){
      var style = getComputedStyle(control), fill = rgba(style.backgroundColor);
      var edge = rgba(style.borderTopColor), width = parseFloat(style.borderTopWidth);
      var filled = fill[3] > 0.5 && apart(fill, page) > 60;
      var bordered = width >= 1 && edge[3] > 0.5 && apart(edge, page) > 90;
      if (!filled && !bordered) {
        found.push((control.id || control.name) + ': no border or background to see (background '
                   + style.backgroundColor + ', border ' + style.borderTopWidth + ' '
                   + style.borderTopColor + ' on ' + getComputedStyle(document.body).backgroundColor + ')');
      }
    });
  document.querySelectorAll('#play-options select').forEach(function(select){
    var natural = select.cloneNode(true);
    natural.style.cssText = 'position:absolute;visibility:hidden;max-width:none;width:auto';
    select.parentElement.appendChild(natural);
    if (select.offsetWidth + 1 < natural.offsetWidth) {
      found.push(select.name + ' menu cut off: ' + select.offsetWidth + ' px of ' + natural.offsetWidth);
    }
    natural.remove();
  });
  document.querySelectorAll('#bottleimp-play [hidden]').forEach(function(element){
    if (element.getClientRects().length) { found.push((element.id || element.tagName) + ' is shown though hidden'); }
  });
  return {found: found, scheme: document.body.getAttribute('data-md-color-scheme')};
})()"""
"""Controls of the play page that do not look like controls (neither a background nor a border
that stands out from the page's background), menus narrower than their longest choice, and
elements the page hides that are drawn all the same."""


def control_problems(browser: Page) -> tuple[list[str], str]:
    found = browser.evaluate(CONTROLS)
    return found["found"], found["scheme"]


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_play_pages_controls_look_like_controls_in_both_colour_schemes(
    site_server: str, site_tab: Page, scheme: str
) -> None:
    site_tab.call("Emulation.setEmulatedMedia", features=[
        {"name": "prefers-color-scheme", "value": scheme}, *REDUCED_MOTION])
    site_tab.navigate(site_server + "play/")
    # The theme keeps a reader's choice of scheme; a choice made in another tab would win.
    site_tab.evaluate("localStorage.clear()")
    site_tab.navigate(site_server + "play/")
    expected = {"light": "default", "dark": "slate"}[scheme]
    assert site_tab.wait_until(
        f"document.body.getAttribute('data-md-color-scheme') === '{expected}'", 10)
    problems: list[str] = []
    for width in WIDTHS:
        site_tab.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                      deviceScaleFactor=1, mobile=False)
        site_tab.evaluate(SETTLED)
        found, drawn = control_problems(site_tab)
        assert drawn == expected
        problems += [f"{width} px: {problem}" for problem in found]
    assert not problems, "\n".join(problems)

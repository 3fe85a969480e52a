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


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (apt-get install chromium)")
def test_a_reader_plays_a_whole_game_in_the_browser_against_the_bots(
    site: Path, site_server: str, site_tab: Page
) -> None:
    """The library itself, in Pyodide served by the site: the page is driven by clicks as a
    person would; an illegal card is refused with its rule and a link to the rule's page; the
    record downloaded at the end is a valid complete game; nothing is loaded from elsewhere."""
    from bottleimp.validation import validate_json

    assert (site / "assets" / "pyodide" / "pyodide.asm.wasm").is_file()
    base, browser = site_server, site_tab
    browser.navigate(base + "play/")
    _wait(browser, "s.ready === 'true'", 150, "Pyodide and the library load")
    # ``namedItem``: ``elements.length`` is the number of the form's controls, not the select.
    browser.evaluate("(function(){var f=document.getElementById('play-options');"
                     "f.elements.namedItem('players').value='3';"
                     "f.elements.namedItem('length').value='--rounds 1';return true;})()")
    browser.click("#play-start", scroll=True)
    state = _wait(browser, "s.legal > 0", 30, "the game starts")
    refused_once = None
    for _ in range(200):
        if state["phase"] == "over":
            break
        if state["deal"]:
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
    assert (played["config"]["players"], len(played["rounds"])) == (3, 1), played["config"]
    loaded = browser.evaluate(
        "performance.getEntriesByType('resource').map(function(e){return e.name;})"
    )
    assert loaded and all(name.startswith(base) for name in loaded), loaded
    assert browser.errors == []


def test_the_api_reference_starts_where_a_reader_starts(site: Path) -> None:
    core = (site / "reference" / "api" / "core" / "index.html").read_text(encoding="utf-8")
    headings = re.findall(r'<h[23] id="([^"]+)"', core)
    assert headings[:5] == ["playing-a-game", "bottleimp.engine.new_game",
                            "bottleimp.engine.legal_actions", "bottleimp.engine.apply",
                            "bottleimp.engine.check_action"]
    assert headings.index("bottleimp.view.view") < headings.index("bottleimp.config.Config")
    for name in ("new_game", "legal_actions", "apply", "check_action", "is_legal", "with_deal"):
        start = core.index(f'id="bottleimp.engine.{name}"')
        section = core[start:core.index("<h3", start + 10)]
        assert "&gt;&gt;&gt;" in section, f"{name} has no example"
    for page in sorted((site / "reference" / "api").rglob("index.html")):
        text = page.read_text(encoding="utf-8")
        assert "Factory" not in text and "lambda self" not in text, page
        assert "field(" not in re.sub(r"<[^>]+>", "", text), page
    assert "edition: str = default_edition(players)" in re.sub(r"<[^>]+>", "", core)

"""Hypothesis settings profiles for the whole suite, chosen with ``HYPOTHESIS_PROFILE``
(registered in ``profiles.py``, which the tests' own Python processes import too):

- ``dev`` (the default, the README's test command): quick enough to run before every commit,
  every test still run, with a tenth of CI's examples (20; a state machine family plays 5 games).
- ``ci`` (``.ci/run``): the strongest, 200 examples, no example database (CI starts clean every
  run), and the blob of any failure printed so it can be reproduced with
  ``@reproduce_failure``.
- Hypothesis's own ``default`` works too (without its deadline: see ``profiles.py``).

The state machines in ``test_state_machine.py`` derive their own example counts from the
profile's ``max_examples``, and the fixed-size checks (game counts, walks, corpora) take theirs
from ``depth.scaled``, so one switch scales the whole suite.

The fixture ``site`` is the built documentation, shared by the tests of the site
(``test_docs_site.py``, ``test_live_examples.py``); their browser tests share one headless
Chromium (``site_browser``), each in a tab of its own (``site_tab``), and one local server of the
site (``site_server``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import settings

from browser import Chromium, Page
from depth import PROFILE
from profiles import suite_profile

REPO = Path(__file__).resolve().parents[1]

settings.load_profile(suite_profile(PROFILE))


def _screenshots() -> ModuleType:
    """``scripts/screenshots.py``: it builds the site, serves it and finds Chromium."""
    from helpers import load_module

    return load_module("bottleimp_screenshots_for_site", REPO / "scripts" / "screenshots.py")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documentation site as ``mkdocs build --strict`` writes it (with Pyodide and the
    wheels of the page "Play a game"), built once per test process: about 20 s. Every test
    that uses it (or the browser fixtures below) is marked ``pytest.mark.xdist_group("docs-site")``,
    so that under pytest-xdist one worker builds it for all of them."""
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
    from helpers import load_module
    play = load_module("bottleimp_build_play_for_site", REPO / "scripts" / "build_play.py")
    if shutil.which("npm") is None and not (play.CACHE / f"pyodide-{play.PYODIDE_VERSION}").is_dir():
        reason = ("no npm (Node 18 or later): the site's build fetches Pyodide with npm for the "
                  "page \"Play a game\"")
        if os.environ.get("CI"):
            pytest.fail(f"CI needs npm for the tests of the built site: {reason}")
        pytest.skip(reason)
    folder = tmp_path_factory.mktemp("site")
    _screenshots().build_site(folder)
    return folder


@pytest.fixture(scope="session")
def site_server(site: Path) -> Iterator[str]:
    """The built site served on a free localhost port for the whole session: its base URL.
    One address for every browser test, so that what the shared browser cached for one page
    (the compiled Pyodide among it) serves the next."""
    with _screenshots().serve(site) as base:
        yield base


@pytest.fixture(scope="session")
def site_browser() -> Iterator[Chromium]:
    """One headless Chromium for the browser tests of the site (``$BOTTLEIMP_CHROMIUM`` or the
    first Chromium on the PATH); skips when there is none."""
    executable = _screenshots().find_chromium(os.environ.get("BOTTLEIMP_CHROMIUM"))
    if executable is None:
        pytest.skip("no Chromium (apt-get install chromium)")
    with Chromium(executable, timeout=120) as browser:
        yield browser


@pytest.fixture
def site_tab(site_browser: Chromium) -> Iterator[Page]:
    """A new tab of the shared browser for one test, closed after it: its errors, its viewport
    and what it loaded are its own."""
    with site_browser.new_page() as tab:
        yield tab

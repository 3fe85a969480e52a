"""Hypothesis settings profiles for the whole suite, chosen with ``HYPOTHESIS_PROFILE``.

- ``dev`` (the default, the README's test command): quick enough to run before every commit,
  every test still run, with a tenth of CI's examples (20; a state machine family plays 5 games).
- ``ci`` (``.ci/run``): the strongest, 200 examples, no example database (CI starts clean every
  run), and the blob of any failure printed so it can be reproduced with
  ``@reproduce_failure``.

The state machines in ``test_state_machine.py`` derive their own example counts from the
profile's ``max_examples``, and the fixed-size checks (game counts, walks, corpora) take theirs
from ``depth.scaled``, so one switch scales the whole suite.

The fixture ``site`` is the built documentation, shared by the tests of the site
(``test_docs_site.py``, ``test_live_examples.py``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from depth import PROFILE

REPO = Path(__file__).resolve().parents[1]

settings.register_profile(
    "dev",
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile(
    "ci",
    max_examples=200,
    deadline=None,
    database=None,
    print_blob=True,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile(PROFILE)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The documentation site as ``mkdocs build --strict`` writes it (with Pyodide and the
    wheels of the page "Play a game"), built once per test process: about a minute. Every test
    file that uses it marks itself ``pytest.mark.xdist_group("docs-site")``, so that under
    pytest-xdist one worker builds it for all of them."""
    pytest.importorskip("mkdocs", reason="the docs extra (mkdocs) is not installed")
    from helpers import load_module

    screenshots = load_module("bottleimp_screenshots_for_site",
                              REPO / "scripts" / "screenshots.py")
    folder = tmp_path_factory.mktemp("site")
    screenshots.build_site(folder)
    return folder

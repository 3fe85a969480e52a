"""How deep the suite's fixed-size checks go: one switch, ``HYPOTHESIS_PROFILE``, for them and
for Hypothesis (``conftest.py`` loads the profile of the same name).

- ``ci`` (``.ci/run``): every check at its full size: the game counts, walks and corpora that the
  docs' claims are about.
- ``dev`` (the default, the README's test command): every test still runs, on fewer games and
  smaller walks, so that the command is quick (about 2 min 20 s on two cores;
  ``docs/guide/testing.md`` has the figures).

A test whose size differs between the two says so with ``scaled(ci=..., dev=...)``; what it
asserts is the same in both.
"""

from __future__ import annotations

import os

from bottleimp.conformance._harness import MIN_REFUSALS

PROFILE = os.environ.get("HYPOTHESIS_PROFILE", "dev")
"""The profile's name; every name but ``ci`` (``dev``, Hypothesis's ``default``...) runs the
``dev`` sizes."""
FULL = PROFILE == "ci"


def scaled(*, ci: int, dev: int) -> int:
    """``ci`` under the ``ci`` profile, ``dev`` otherwise."""
    return ci if FULL else dev


MIN_SENT = scaled(ci=MIN_REFUSALS, dev=1)
"""How often the conformance tests' top-up games send each kind of illegal request: the
harness's default (3) in CI, once in dev."""

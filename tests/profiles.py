"""The suite's Hypothesis profiles, registered in any process that imports this module: the test
session (``conftest.py``) and the Python processes the tests start (a planted kill-suite of the
mutation tool loads the profile its environment names, as a fresh pytest of the suite does).

- ``dev`` (the default, the README's test command): 20 examples a test, no deadline.
- ``ci`` (``.ci/run``): the strongest, 200 examples, no example database (CI starts clean every
  run), and the blob of any failure printed so it can be reproduced with ``@reproduce_failure``.

``HYPOTHESIS_PROFILE`` may also name Hypothesis's own ``default``: the suite then runs it with no
deadline and the slow-data health check off, as it runs its own profiles (``suite_profile``), so
a loaded machine does not fail a test by its clock.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, settings

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


def profile_name() -> str:
    """The profile ``HYPOTHESIS_PROFILE`` names, ``dev`` when it names none."""
    return os.environ.get("HYPOTHESIS_PROFILE", "dev")


def suite_profile(name: str) -> str:
    """Register and return the name of the profile the suite runs under for profile ``name``:
    ``name``'s settings without a deadline and with the slow-data health check off. An unknown
    ``name`` raises Hypothesis's ``InvalidArgument`` naming it."""
    base = settings.get_profile(name)
    checks = sorted({*base.suppress_health_check, HealthCheck.too_slow}, key=lambda c: c.value)
    settings.register_profile(f"{name}-suite", base, deadline=None,
                              suppress_health_check=checks)
    return f"{name}-suite"

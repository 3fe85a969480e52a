"""Hypothesis settings profiles for the whole suite, chosen with ``HYPOTHESIS_PROFILE``.

- ``dev`` (the default, the README's test command): quick enough to run before every commit,
  every test still run, with a tenth of CI's examples (20; a state machine family plays 5 games).
- ``ci`` (``.ci/run``): the strongest, 200 examples, no example database (CI starts clean every
  run), and the blob of any failure printed so it can be reproduced with
  ``@reproduce_failure``.

The state machines in ``test_state_machine.py`` derive their own example counts from the
profile's ``max_examples``, so one switch scales the whole suite.
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
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

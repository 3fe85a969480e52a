"""Conformance: checking another implementation against the library.

Its modules, each importing only those listed after it (an import-linter contract):

- ``harness``: the entry point, one differential run (``run_harness``).
- ``report``: the run's report, as text, JSON (``bottleimp-conformance-report/3``) and records.
- ``groups``: disagreements grouped, a non-deterministic peer found, one game per group shrunk.
- ``cases``: the ``case`` requests on one path: the vectors and the random position questions.
- ``session``: one scripted game with its illegal requests and its resynchronisation.
- ``diagnose``: the rule behind a difference, and the faults of a peer's deck data.
- ``protocol``: the wire format, the referee (``Referee``), ``--serve`` and the capabilities.
- ``peer``: the untrusted process: bounded reading, timeouts, the subtree kill.
- ``vectors``: language-neutral cases (``spec/conformance/``) and the library's answers to them.
"""

from .vectors import (
    CONFORMANCE_FORMAT,
    KINDS,
    Case,
    Outcome,
    answer,
    check_case,
    check_suite,
    read_case_file,
    read_suite,
)

__all__ = [
    "CONFORMANCE_FORMAT",
    "KINDS",
    "Case",
    "Outcome",
    "answer",
    "check_case",
    "check_suite",
    "read_case_file",
    "read_suite",
]

"""Conformance: checking another implementation against the library.

Its modules, each importing only those listed after it (an import-linter contract):

- ``_harness``: the entry point, one differential run (``run_harness``).
- ``_report``: the run's report, as JSON (``bottleimp-conformance-report/3``) and records (its text
  is the command line's, ``cli._conformance``).
- ``_groups``: disagreements grouped, a non-deterministic peer found, one game per group shrunk.
- ``_cases``: the ``case`` requests on one path: the vectors and the random position questions.
- ``_session``: one scripted game with its illegal requests and its resynchronisation.
- ``_diagnose``: the rule behind a difference, and the faults of a peer's deck data.
- ``_protocol``: the wire format, the referee (``Referee``), ``--serve`` and the capabilities.
- ``_peer``: the untrusted process: bounded reading, timeouts, the subtree kill.
- ``_vectors``: language-neutral cases (``spec/conformance/``) and the library's answers to them.
"""

from .._errors import HarnessError, PeerFault
from ..formats._cases import CONFORMANCE_FORMAT, KINDS, Case, read_case_file, read_suite
from ._harness import run_harness
from ._vectors import Outcome, answer, check_case, check_suite, conformance_data

__all__ = [
    "HarnessError",
    "PeerFault",
    "conformance_data",
    "run_harness",
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

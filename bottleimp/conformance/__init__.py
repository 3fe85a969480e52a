"""Conformance: checking another implementation against the library.

- ``vectors``: language-neutral cases (``spec/conformance/``) and the library's answers to them.
- ``protocol``: the library's side of ``bottleimp-protocol/1`` (``Referee``, ``serve``).
- ``peer``: the implementation under test as a subprocess, within timeouts.
- ``differential``: games generated and played against a peer, disagreements shrunk and written.
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

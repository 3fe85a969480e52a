"""Conformance: checking another implementation against the library.

- ``vectors``: language-neutral cases (``spec/conformance/``) and the library's answers to them.
- ``protocol``: the library's side of ``bottleimp-protocol/2`` and /1 (``Referee``, ``serve``).
- ``capabilities``: what a peer declares it supports, and the variants inside it.
- ``peer``: the implementation under test as a subprocess, within timeouts.
- ``refusals``: every kind of illegal request the harness sends.
- ``explain``: the rule and the minimal difference of a disagreement.
- ``deckcheck``: deck data faults, declared or inferred.
- ``differential``: games generated and played against a peer, failures grouped, shrunk and
  written, refusal coverage counted.
- ``remote_vectors``: the conformance cases asked of a peer through the protocol.
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

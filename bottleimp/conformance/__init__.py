"""Conformance: checking another implementation against the library.

- ``vectors``: language-neutral cases (``spec/conformance/``) and the library's answers to them.
- ``protocol``: the library's side of ``bottleimp-protocol/3`` (``Referee``, ``serve``).
- ``capabilities``: what a peer declares it supports, and the variants inside it.
- ``peer``: the implementation under test as a subprocess, within timeouts.
- ``refusals``: every kind of illegal request the harness sends.
- ``explain``: the rule and the minimal difference of a disagreement.
- ``deckcheck``: deck data faults, declared or inferred.
- ``scripts``: the games Hypothesis generates.
- ``game``: one game played against a peer, going on after each disagreement on one trajectory.
- ``follow``: the library put into the position a peer's answers describe.
- ``position``: a round's position as ``set_position`` carries it.
- ``groups``: disagreements grouped, a non-deterministic peer found, one game per group shrunk.
- ``questions``: position-level questions asked apart from the games.
- ``report``: the run's report, as text, JSON (``bottleimp-conformance-report/3``) and records.
- ``differential``: the run itself (``run_harness``).
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

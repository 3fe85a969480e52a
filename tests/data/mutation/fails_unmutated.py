"""A planted kill-suite that fails unmutated, for ``tests/test_mutation_script.py``: the mutation
tool must stop before any mutant and say which test failed and why. Not a test of the suite (its
name is not ``test_*.py``); the mutation tool runs it only when told to (``--tests``)."""

from __future__ import annotations

from bottleimp.rules.play import trick_winner


def test_a_planted_failure_the_baseline_must_name() -> None:
    assert trick_winner.__name__ == "a planted failure"

"""A planted weak kill-suite for ``tests/test_mutation_script.py``: it runs the trick's rule
functions and checks nothing of what they return, so every mutant of their lines that does not
raise survives it. Not a test of the suite (its name is not ``test_*.py``); the mutation tool
runs it only when told to (``--tests``)."""

from __future__ import annotations

import bottleimp
from bottleimp.rules.play import trick_winner


def test_calls_the_trick_winner_and_ignores_what_it_returns() -> None:
    deck = {card.rank: card for card in bottleimp.CLASSIC}
    trick_winner(tuple(deck[rank] for rank in (24, 15, 17, 32)), price=19)

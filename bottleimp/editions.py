"""The decks of each edition, as cited data (rule ``DECK``; sources: spec/rules.toml).

``classic``: 36 cards in yellow, blue and red, 12 a colour, coins 1,1,2,2,...,6,6 per colour
(126 coins; the Korean rules summary, the Russian game description, IRC and HEK agree card
for card).
``matagot-2024``: 36 cards in red, blue and green (127 coins; BGA ``material.inc.php``), and for
5-6 players the 54-card deck: those 36 plus 18 half ranks with the colour and coins of the whole
rank just below them (190 coins).
"""

from __future__ import annotations

from typing import Final

from .cards import Card, Colour, Rank
from .rules.registry import rule

EDITIONS: Final = ("classic", "matagot-2024")

_Y, _B, _R, _G = Colour.YELLOW, Colour.BLUE, Colour.RED, Colour.GREEN


def _colour(colour: Colour, cards: str) -> tuple[Card, ...]:
    """Parse ``"1:1 2:1 3:2"`` (rank:coins pairs) into cards of one colour."""
    result = []
    for pair in cards.split():
        rank, coin = pair.split(":")
        value: Rank = float(rank) if "." in rank else int(rank)
        result.append(Card(value, colour, int(coin)))
    return tuple(result)


def _sorted(*groups: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(sorted((card for group in groups for card in group), key=lambda c: c.rank))


CLASSIC: Final = _sorted(
    _colour(_Y, "1:1 2:1 3:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6"),
    _colour(_B, "4:1 6:1 8:2 10:2 13:3 17:3 20:4 24:4 27:5 30:5 32:6 34:6"),
    _colour(_R, "11:1 14:1 16:2 21:2 23:3 26:3 29:4 31:4 33:5 35:5 36:6 37:6"),
)
"""The classic 36-card deck, in ascending rank order."""

MATAGOT_2024: Final = _sorted(
    _colour(_R, "1:1 2:1 4:2 5:2 7:3 9:3 12:4 15:4 18:5 22:5 25:6 28:6"),
    # 17 has 4 coins in BGA's data, which breaks the 1,1,2,2,...,6,6 pattern: kept as the data
    # says (interpretation I-MATAGOT-17 in spec/interpretations.md).
    _colour(_B, "3:1 6:1 8:2 10:2 13:3 17:4 20:4 23:4 27:5 30:5 32:6 35:6"),
    _colour(_G, "11:1 14:1 16:2 21:2 24:3 26:3 29:4 31:4 33:5 34:5 36:6 37:6"),
)
"""The Matagot 2024 36-card deck, in ascending rank order."""

MATAGOT_2024_HALF_RANKS: Final = _sorted(
    _colour(_R, "2.5:1 4.5:2 12.5:4 18.5:5 22.5:5 28.5:6"),
    _colour(_B, "6.5:1 8.5:2 10.5:2 20.5:4 30.5:5 32.5:6"),
    _colour(_G, "14.5:1 16.5:2 24.5:3 26.5:3 34.5:5 36.5:6"),
)
"""The 18 half ranks added for 5-6 players."""

MATAGOT_2024_54: Final = _sorted(MATAGOT_2024, MATAGOT_2024_HALF_RANKS)
"""The Matagot 2024 54-card deck for 5-6 players, in ascending rank order."""


@rule("DECK")
def edition_deck(edition: str, players: int) -> tuple[Card, ...]:
    """The deck an edition uses for a player count (rule ``DECK``): 54 cards for 5-6 players."""
    if edition == "classic":
        return CLASSIC
    if edition == "matagot-2024":
        return MATAGOT_2024_54 if players >= 5 else MATAGOT_2024
    raise ValueError(f"unknown edition {edition!r}; known editions: {', '.join(EDITIONS)}")

"""Pictures of the game drawn by the library itself, as SVG text, from real library values.

These are what a reader sees in the documentation and in a replay page (``bottleimp render``):
because they are drawn from the same ``Card``, ``TrickResult``, ``RoundState`` and ``GameState``
values the engine computes, a picture cannot drift from the rules.

- ``card_svg``: one card in its colour, with its rank, its coins and its colour's letter (Y, B, R,
  G), so that colour-blind readers can tell the colours apart;
- ``trick_svg``: a trick against the price, the winning card marked, the new price shown;
- ``bottles_svg``: the bottle (or both bottles), its price card and its owner;
- ``round_svg``: a round's zones: hands (and face-up rows in Devil's Eye), the face-down Devil's
  Trick, captured piles, the bottles, the trick in progress;
- ``scores_svg``: a game's score sheet, round by round, with the totals and the winners;
- ``deck_svg``: a deck as a coloured table, one row per colour;
- ``render_record`` and ``render_record_html``: a game record's replay page, one self-contained
  HTML file drawn from the validator's own replay (``replay_steps`` gives its steps; at most
  ``MAX_PAGE_ROUNDS`` rounds, else ``PageTooLargeError``).

Every function returns a complete ``<svg>`` element as a string, with no dependency beyond the
standard library; every text in it is escaped. A picture is at most 320 px wide (what is wider
flows onto further lines) and no label is smaller than 10 px, so it reads on a phone as it
does on a desktop, never scaled down below its size.

    >>> from bottleimp import CLASSIC
    >>> svg = card_svg(CLASSIC[16])
    >>> 'data-rank="17"' in svg, 'data-colour="blue"' in svg, 'data-coins="3"' in svg
    (True, True, True)
"""

from __future__ import annotations

from ._svg import (
    COLOUR_FILLS,
    COLOUR_LETTERS,
    bottles_svg,
    card_svg,
    deck_svg,
    round_svg,
    scores_svg,
    trick_svg,
)

from ._replay import (
    MAX_PAGE_ROUNDS,
    PageTooLargeError,
    Replay,
    Step,
    render_record,
    render_record_html,
    replay_steps,
)

__all__ = [
    "MAX_PAGE_ROUNDS", "PageTooLargeError", "Replay", "Step", "render_record", "render_record_html",
    "replay_steps",
    "COLOUR_FILLS",
    "COLOUR_LETTERS",
    "bottles_svg",
    "card_svg",
    "deck_svg",
    "round_svg",
    "scores_svg",
    "trick_svg",
]

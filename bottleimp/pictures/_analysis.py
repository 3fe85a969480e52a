"""The analysis section of the replay page: the open-hand values under each trick, the card
played marked with its loss, and a table of the coins each seat lost per round.

It reads an analysis in its JSON form (``bottleimp-analysis/1``, what ``bottleimp analyse
--json`` prints and ``bottleimp.analysis.record.analysis_to_json`` returns), so the page draws
exactly what the analysis reported.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Any, Final

__all__ = ["ANALYSIS_CSS", "round_table_html", "trick_values_html"]

ANALYSIS_CSS: Final = """
.analysis { margin: 0 0 14px; font-size: 0.92em; overflow-x: auto; }
.analysis table { border-collapse: collapse; }
.analysis th, .analysis td { padding: 2px 8px; text-align: left; vertical-align: top;
  border-bottom: 1px solid color-mix(in srgb, var(--muted) 35%, transparent); }
.analysis .value { display: inline-block; margin: 0 6px 2px 0; white-space: nowrap;
  font-variant-numeric: tabular-nums; }
.analysis .played { font-weight: bold; outline: 2px solid var(--accent); padding: 0 3px;
  border-radius: 3px; }
.analysis .lost { color: var(--bad); font-weight: bold; }
.analysis .note { color: var(--muted); }
.analysis td:first-child, .analysis td:nth-child(2) { white-space: nowrap; }
"""


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _rank(rank: float) -> str:
    return str(int(rank)) if rank == int(rank) else str(rank)


def _value(entry: Mapping[str, Any]) -> str:
    lower, upper = entry["lower"], entry["upper"]
    return str(lower) if lower == upper else f"[{lower}, {upper}]"


def _round(analysis: Mapping[str, Any], index: int) -> Mapping[str, Any] | None:
    for round_ in analysis.get("rounds", ()):
        if round_["round"] == index and round_["analysed"]:
            return round_  # type: ignore[no-any-return]
    return None


def trick_values_html(analysis: Mapping[str, Any], round_index: int, first: int, last: int
                      ) -> str:
    """The values of the plays ``first`` to ``last`` (indices in the round's plays) of one
    trick: a row per play, each legal card with its value, the card played marked with its
    loss. Empty when the analysis has none of those plays."""
    round_ = _round(analysis, round_index)
    if round_ is None:
        return ""
    plays = [play for play in round_["plays"] if first <= play["play"] <= last]
    if not plays:
        return ""
    rows = []
    for play in plays:
        cells = []
        for entry in play["values"]:
            text = f"{_rank(entry['card'])}: {_value(entry)}"
            if entry["card"] == play["card"]:
                cells.append(f'<span class="value played" title="the card played">{_esc(text)}'
                             "</span>")
            else:
                cells.append(f'<span class="value">{_esc(text)}</span>')
        loss = play["loss"]
        lost = ("0" if loss["upper"] == 0 else
                f'<span class="lost">−{_esc(_value(loss))}</span>')
        rows.append(f"<tr><td>{play['play'] + 1}</td><td>seat {play['seat']}</td>"
                    f"<td>{''.join(cells)}</td><td>{lost}</td></tr>")
    return ('<div class="analysis"><table><caption class="note">Open-hand values for the '
            "acting seat's side (paranoid: everyone else against it); [a, b]: bounds past the "
            "budget</caption><thead><tr><th>play</th><th>seat</th><th>value of each card "
            "(played card framed)</th><th>coins lost</th></tr></thead><tbody>"
            + "".join(rows) + "</tbody></table></div>")


def round_table_html(analysis: Mapping[str, Any], round_index: int, players: int) -> str:
    """The table of one round: per seat, the value of the deal after the setup and the coins
    its plays lost."""
    round_ = _round(analysis, round_index)
    if round_ is None:
        return ""
    deal: Sequence[Mapping[str, Any]] = round_["deal_values"]
    lost: Sequence[Mapping[str, Any]] = round_["coins_lost"]
    rows = "".join(
        f"<tr><td>seat {seat}</td><td>{_esc(_value(deal[seat]))}</td>"
        f"<td>{_esc(_value(lost[seat]))}</td></tr>" for seat in range(players))
    return ('<div class="analysis"><table><caption class="note">Where each seat lost coins '
            "(open-hand, paranoid)</caption><thead><tr><th>seat</th><th>deal value after the "
            "setup</th><th>coins lost</th></tr></thead><tbody>" + rows + "</tbody></table></div>")

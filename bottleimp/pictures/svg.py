"""The SVG drawings: pure functions from library values to ``<svg>`` text.

Each drawing is built from groups (``<g>``) that carry what they show as data attributes
(``data-rank``, ``data-colour``, ``data-coins``, ``data-seat``, ``data-zone``) and classes
(``card``, ``winner``, ``broken``, ``face-down``, ``price``), so that a test, a stylesheet or a
script can find a card in a picture without reading the drawing.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from typing import Final

from ..actions import Play
from ..cards import START_PRICE, Card, Colour, Rank, format_rank
from ..config import Config
from ..state import Bottle, GameState, Phase, RoundState, TrickResult

__all__ = [
    "COLOUR_FILLS",
    "COLOUR_LETTERS",
    "bottles_svg",
    "card_svg",
    "deck_svg",
    "round_svg",
    "scores_svg",
    "trick_svg",
]

COLOUR_FILLS: Final[Mapping[Colour, str]] = {
    Colour.YELLOW: "#f0e442",
    Colour.BLUE: "#0072b2",
    Colour.RED: "#d55e00",
    Colour.GREEN: "#009e73",
}
"""The fill of each colour (the Okabe-Ito palette, told apart by most colour-blind readers)."""

COLOUR_LETTERS: Final[Mapping[Colour, str]] = {
    Colour.YELLOW: "Y",
    Colour.BLUE: "B",
    Colour.RED: "R",
    Colour.GREEN: "G",
}
"""The letter printed in a card's corner, so that its colour never rests on the fill alone."""

_INK: Final[Mapping[Colour, str]] = {
    Colour.YELLOW: "#222222",
    Colour.BLUE: "#ffffff",
    Colour.RED: "#ffffff",
    Colour.GREEN: "#ffffff",
}

CARD_W: Final = 44
CARD_H: Final = 62
_GAP: Final = 6
_STEP: Final = CARD_W + _GAP
_PILE_STEP: Final = 16
_MARK: Final = "#f5a700"
_BROKEN: Final = "#c4161c"
_BACK: Final = "#5b3a86"
_START_FILL: Final = "#e9e3d2"
_FONT: Final = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def _esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def _svg(width: float, height: float, body: str, label: str, kind: str) -> str:
    """A complete ``<svg>`` element; it scales down to the width of its container."""
    w, h = _num(width), _num(height)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="bottleimp-picture {kind}" '
        f'viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        f'aria-label="{_esc(label)}" font-family="{_esc(_FONT)}" '
        f'style="max-width:100%;height:auto">'
        f"<title>{_esc(label)}</title>{body}</svg>"
    )


def _num(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.1f}"


def _text(x: float, y: float, text: object, *, size: int = 12, anchor: str = "start",
          weight: str = "normal", cls: str = "label", fill: str = "currentColor") -> str:
    extra = f' text-anchor="{anchor}"' if anchor != "start" else ""
    extra += f' font-weight="{weight}"' if weight != "normal" else ""
    return (
        f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{size}"{extra} '
        f'fill="{fill}">{_esc(text)}</text>'
    )


def _seat_name(seat: int | None, names: Sequence[str] | None) -> str:
    if seat is None:
        return "nobody"
    if names is not None and 0 <= seat < len(names):
        return names[seat]
    return f"seat {seat}"


def _card(card: Card, x: float, y: float, *, classes: str = "", zone: str | None = None,
          seat: int | None = None) -> str:
    """One card as a group: its colour, its colour's letter, its rank and its coins."""
    fill, ink, letter = COLOUR_FILLS[card.colour], _INK[card.colour], COLOUR_LETTERS[card.colour]
    rank = format_rank(card.rank)
    extra = f' data-zone="{_esc(zone)}"' if zone else ""
    extra += f' data-seat="{seat}"' if seat is not None else ""
    parts = [
        f'<g class="card {_esc(classes)}" data-rank="{_esc(rank)}" '
        f'data-colour="{card.colour.value}" data-coins="{card.coins}"{extra} '
        f'transform="translate({_num(x)},{_num(y)})">',
        f"<title>{_esc(str(card))}</title>",
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{fill}" stroke="#222" '
        'stroke-width="1"/>',
        _text(4, 11, letter, size=10, weight="bold", cls="letter", fill=ink),
        _text(4, 22, rank, size=8, cls="corner", fill=ink),
        _text(CARD_W / 2, 36, rank, size=17 if len(rank) < 4 else 14, anchor="middle",
              weight="bold", cls="rank", fill=ink),
    ]
    spacing = 6.5
    for index in range(card.coins):
        cx = CARD_W / 2 + (index - (card.coins - 1) / 2) * spacing
        parts.append(
            f'<circle class="coin" cx="{_num(cx)}" cy="52" r="2.6" fill="#f7c948" '
            'stroke="#6b4e00" stroke-width="0.8"/>'
        )
    parts.append("</g>")
    return "".join(parts)


def _back(x: float, y: float, *, zone: str, seat: int | None = None) -> str:
    """A face-down card."""
    seat_attr = f' data-seat="{seat}"' if seat is not None else ""
    return (
        f'<g class="card face-down" data-zone="{_esc(zone)}"{seat_attr} '
        f'transform="translate({_num(x)},{_num(y)})"><title>a face-down card</title>'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_BACK}" stroke="#222"/>'
        f'<rect x="5" y="5" width="{CARD_W - 10}" height="{CARD_H - 10}" rx="3" fill="none" '
        'stroke="#c9b3e6" stroke-dasharray="3 2"/></g>'
    )


def _price_tile(price: Rank, card: Card | None, x: float, y: float, cls: str = "price") -> str:
    """The card that sets a price: ``card`` in its colour, or the neutral start card 19."""
    if card is not None and card.rank == price:
        return _card(card, x, y, classes=cls, zone="price")
    rank = format_rank(price)
    label = "the start card 19" if price == START_PRICE else f"price {rank}"
    return (
        f'<g class="card {cls} start" data-rank="{_esc(rank)}" data-zone="price" '
        f'transform="translate({_num(x)},{_num(y)})"><title>{_esc(label)}</title>'
        f'<rect width="{CARD_W}" height="{CARD_H}" rx="5" fill="{_START_FILL}" stroke="#222" '
        'stroke-dasharray="4 2"/>'
        + _text(CARD_W / 2, 36, rank, size=17, anchor="middle", weight="bold", cls="rank",
                fill="#222222")
        + _text(CARD_W / 2, 53, "price", size=9, anchor="middle", fill="#555555")
        + "</g>"
    )


def _outline(x: float, y: float, colour: str, *, dashed: bool = False) -> str:
    dash = ' stroke-dasharray="5 3"' if dashed else ""
    return (
        f'<rect class="mark" x="{_num(x - 3)}" y="{_num(y - 3)}" width="{CARD_W + 6}" '
        f'height="{CARD_H + 6}" rx="7" fill="none" stroke="{colour}" stroke-width="3.5"{dash}/>'
    )


# --- one card ------------------------------------------------------------------------------


def card_svg(card: Card) -> str:
    """One card: its colour (and the colour's letter in the corner), its rank and its coins."""
    body = _card(card, 3, 3)
    return _svg(CARD_W + 6, CARD_H + 6, body, str(card), "card-picture")


# --- a trick -------------------------------------------------------------------------------


def trick_svg(result: TrickResult, *, names: Sequence[str] | None = None,
              bottles: int = 1) -> str:
    """A completed trick against the price: the price it was played against, the cards in the
    order played with their seats, the winning card marked, and the new price (the winning card)
    when it bought the bottle. ``names`` names the seats; ``bottles`` is the number of bottles
    in the game (with two, the bottle bought is named)."""
    top = 24
    parts = [
        _text(10, 14, "price", size=12, weight="bold"),
        _price_tile(result.price_before, None, 10, top, "price before"),
    ]
    x0 = 10 + CARD_W + 26
    parts.append(_text(x0 - 14, top + CARD_H / 2 + 5, "vs", size=12, anchor="middle"))
    for index, play in enumerate(result.plays):
        x = x0 + index * (_STEP + 4)
        won = play.card is result.winning_card
        parts.append(
            f'<g class="play{" winning" if won else ""}" data-seat="{play.seat}" '
            f'data-order="{index}">'
        )
        parts.append(_text(x + CARD_W / 2, 14, _seat_name(play.seat, names), size=11,
                           anchor="middle", weight="bold" if won else "normal"))
        if won:
            parts.append(_outline(x, top, _MARK))
        parts.append(_card(play.card, x, top, classes="winner" if won else "", zone="trick",
                           seat=play.seat))
        if won:
            parts.append(_text(x + CARD_W / 2, top + CARD_H + 16, "wins", size=12,
                               anchor="middle", weight="bold", cls="label win-label"))
        parts.append("</g>")
    x_end: float = x0 + len(result.plays) * (_STEP + 4) + 8
    winner = _seat_name(result.winner, names)
    rank = format_rank(result.winning_card.rank)
    before = format_rank(result.price_before)
    if result.bottle is not None:
        which = f" {result.bottle + 1}" if bottles > 1 else ""
        parts.append(_text(x_end + 8, top + CARD_H / 2 + 5, "→", size=20, anchor="middle"))
        parts.append(_text(x_end + 24, 14, "new price", size=12, weight="bold"))
        parts.append(_outline(x_end + 24, top, _MARK))
        parts.append(_card(result.winning_card, x_end + 24, top, classes="price after",
                           zone="new-price"))
        caption = (f"{winner} wins with {rank}, below the price {before}, and buys the "
                   f"bottle{which}: the price falls to {rank}")
        width: float = x_end + 24 + CARD_W + 16
    else:
        caption = (f"{winner} wins with {rank}: no card is below the price {before}, so the "
                   "highest card wins and nobody buys the bottle")
        width = x_end + 8
    parts.append(_text(10, top + CARD_H + 40, caption, size=12, cls="label caption"))
    width = max(width, 10 + len(caption) * 6.2)
    return _svg(width, top + CARD_H + 50, "".join(parts), caption, "trick-picture")


# --- the bottles ---------------------------------------------------------------------------


def _bottle(bottle: Bottle, index: int, count: int, x: float, y: float,
            names: Sequence[str] | None) -> tuple[str, float]:
    """One bottle with its price card beside it and its owner below; and its width."""
    owner = _seat_name(bottle.owner, names)
    title = "the bottle" if count == 1 else f"bottle {index + 1}"
    parts = [
        f'<g class="bottle" data-bottle="{index}" data-price="{_esc(format_rank(bottle.price))}" '
        f'data-owner="{"" if bottle.owner is None else bottle.owner}">',
        _text(x, y + 12, title, size=12, weight="bold"),
        f'<path d="M{_num(x + 15)},{_num(y + 20)} h14 v14 q14,6 14,22 v36 q0,6 -6,6 h-30 '
        f'q-6,0 -6,-6 v-36 q0,-16 14,-22 z" fill="#7b4fa8" fill-opacity="0.85" '
        'stroke="#2d1a40" stroke-width="1.5"/>',
        f'<rect x="{_num(x + 13)}" y="{_num(y + 16)}" width="18" height="6" rx="2" '
        'fill="#8a6a3a"/>',
        _price_tile(bottle.price, bottle.price_card, x + 52, y + 30),
        _text(x, y + 116, f"price {format_rank(bottle.price)}", size=12),
        _text(x, y + 131, "owned by nobody yet" if bottle.owner is None else f"owned by {owner}",
              size=12, cls="label owner"),
        "</g>",
    ]
    return "".join(parts), 130.0


def bottles_svg(bottles: Sequence[Bottle], *, names: Sequence[str] | None = None) -> str:
    """The bottle (both, in the Second Bottle variant): its price card (the neutral start card
    19 until someone buys it) and its owner."""
    parts, x = [], 10.0
    for index, bottle in enumerate(bottles):
        drawn, width = _bottle(bottle, index, len(bottles), x, 4, names)
        parts.append(drawn)
        x += width + 20
    label = "; ".join(
        f"{'the bottle' if len(bottles) == 1 else f'bottle {i + 1}'}: price "
        f"{format_rank(b.price)}, owned by {_seat_name(b.owner, names)}"
        for i, b in enumerate(bottles)
    )
    return _svg(x, 142, "".join(parts), label, "bottles-picture")


# --- a round's zones -----------------------------------------------------------------------


def _current_trick(round_: RoundState) -> tuple[Play, ...]:
    done = sum(len(trick.plays) for trick in round_.tricks)
    return round_.plays[done:]


def _row(cards: Sequence[Card], x: float, y: float, step: float, zone: str, seat: int | None,
         classes: str = "") -> str:
    return "".join(
        _card(card, x + i * step, y, classes=classes, zone=zone, seat=seat)
        for i, card in enumerate(cards)
    )


def _row_width(count: int, step: float) -> float:
    return 0.0 if count == 0 else CARD_W + (count - 1) * step


def _hidden_row(count: int, x: float, y: float, step: float, zone: str, seat: int) -> str:
    return "".join(_back(x + i * step, y, zone=zone, seat=seat) for i in range(count))


def round_svg(state: GameState | RoundState, *, names: Sequence[str] | None = None,
              attempted: Play | None = None, viewer: int | None = None) -> str:
    """A round's zones: the bottles with their price cards, the Devil's Trick (face down until
    the round is scored), the trick in progress, and for each seat its hand (in Devil's Eye
    also its face-up row), the cards it has given during the setup, and its captured pile.

    From a ``GameState`` the seat to act is marked. ``attempted`` is a play the rules refused:
    it is drawn at the end of the trick in progress, marked as refused. With ``viewer``, the
    table is drawn as that seat sees it (rule ``VIEW-HIDDEN``): the other seats' hands and the
    cards they gave in the setup face down."""
    if isinstance(state, GameState):
        round_, to_act = state.round, state.to_act
        in_setup = state.phase is Phase.SETUP
    else:
        round_, to_act = state, None
        in_setup = not round_.devils_trick and round_.scores is None
    players = len(round_.hands)
    parts: list[str] = []

    # The top band: bottles, Devil's Trick, trick in progress.
    x = 10.0
    for index, bottle in enumerate(round_.bottles):
        drawn, width = _bottle(bottle, index, len(round_.bottles), x, 4, names)
        parts.append(drawn)
        x += width + 14
    revealed = round_.scores is not None
    dt_cards = round_.devils_trick
    parts.append(f'<g class="zone devils-trick" data-zone="devils-trick" '
                 f'data-count="{len(dt_cards)}">')
    parts.append(_text(x, 16, "Devil's Trick", size=12, weight="bold"))
    if not dt_cards:
        parts.append(_text(x, 50, "empty until the setup ends" if in_setup else "empty",
                           size=11))
    for i, card in enumerate(dt_cards):
        if revealed:
            parts.append(_card(card, x + i * _PILE_STEP, 24, zone="devils-trick"))
        else:
            parts.append(_back(x + i * _PILE_STEP, 24, zone="devils-trick"))
    if dt_cards:
        state_of = "revealed" if revealed else "face down"
        plural = "s" if len(dt_cards) != 1 else ""
        parts.append(_text(x, 104, f"{len(dt_cards)} card{plural} {state_of}", size=11))
    parts.append("</g>")
    x += max(_row_width(len(dt_cards), _PILE_STEP), 150) + 24

    trick = _current_trick(round_)
    shown = trick + ((attempted,) if attempted is not None else ())
    if shown:
        parts.append('<g class="zone current-trick" data-zone="current-trick">')
        parts.append(_text(x, 16, "trick in progress", size=12, weight="bold"))
        for i, play in enumerate(shown):
            px = x + i * (_STEP + 4)
            refused = attempted is not None and i == len(shown) - 1
            parts.append(_text(px + CARD_W / 2, 104, _seat_name(play.seat, names), size=10,
                               anchor="middle"))
            if refused:
                parts.append(_outline(px, 30, _BROKEN, dashed=True))
                parts.append(_card(play.card, px, 30, classes="broken", zone="attempted",
                                   seat=play.seat))
                parts.append(_text(px + CARD_W / 2, 118, "refused", size=11, anchor="middle",
                                   weight="bold", cls="label broken-label", fill=_BROKEN))
            else:
                parts.append(_card(play.card, px, 30, zone="current-trick", seat=play.seat))
        parts.append("</g>")
        x += len(shown) * (_STEP + 4)
    width = x + 10

    # One band per seat.
    eye = round_.face_up is not None
    given = [tuple(give.card for give in gives) for gives in round_.setup] if in_setup else []
    hand_w = max(_row_width(len(hand), _STEP) for hand in round_.hands)
    if round_.face_up is not None:
        hand_w = max(hand_w, max(_row_width(len(row), _STEP) for row in round_.face_up))
    hand_w = max(hand_w, 120) if hand_w else 0.0  # every hand played out: no hand zone
    y = 140.0
    longest = max(len(_seat_name(seat, names)) for seat in range(players))
    label_w = max(120, int(longest * 7.6) + 16)
    for seat in range(players):
        band = CARD_H * (2 if eye else 1) + (40 if eye else 26)
        parts.append(f'<g class="seat{" to-act" if seat == to_act else ""}" data-seat="{seat}">')
        parts.append(f'<rect x="4" y="{_num(y - 4)}" width="__W__" height="{_num(band + 4)}" '
                     f'rx="8" fill="{_MARK if seat == to_act else "#888888"}" '
                     f'fill-opacity="{0.16 if seat == to_act else 0.07}"/>')
        parts.append(_text(12, y + 16, _seat_name(seat, names), size=13, weight="bold"))
        notes = []
        if seat == round_.dealer:
            notes.append("dealer")
        if seat == to_act:
            notes.append("to act")
        for n, note in enumerate(notes):
            parts.append(_text(12, y + 32 + 14 * n, note, size=11, cls=f"label {note.replace(' ', '-')}"))
        hx = 10 + label_w
        hand = round_.hands[seat]
        if hand_w:
            parts.append(_text(hx, y + 12, "hidden hand" if eye else "hand", size=10))
        if viewer is not None and seat != viewer:
            parts.append(_hidden_row(len(hand), hx, y + 18, _STEP, "hand", seat))
        else:
            parts.append(_row(hand, hx, y + 18, _STEP, "hand", seat))
        if round_.face_up is not None:
            fy = y + 18 + CARD_H + 16
            parts.append(_text(hx, fy - 4, "face-up row", size=10))
            parts.append(_row(round_.face_up[seat], hx, fy, _STEP, "face-up", seat))
        cx = hx + hand_w + (24 if hand_w else 0)
        if given and given[seat]:
            parts.append(_text(cx, y + 12, "given in the setup", size=10))
            if viewer is not None and seat != viewer:
                parts.append(_hidden_row(len(given[seat]), cx, y + 18, _PILE_STEP, "given", seat))
            else:
                parts.append(_row(given[seat], cx, y + 18, _PILE_STEP, "given", seat))
            cx += max(_row_width(len(given[seat]), _PILE_STEP), 100) + 24
        pile = round_.captured[seat]
        coins = sum(card.coins for card in pile)
        parts.append(f'<g class="zone captured" data-zone="captured" data-seat="{seat}" '
                     f'data-count="{len(pile)}" data-coins="{coins}">')
        parts.append(_text(cx, y + 12, f"captured: {len(pile)} card{'s' if len(pile) != 1 else ''}"
                           f", {coins} coin{'s' if coins != 1 else ''}", size=10))
        parts.append(_row(pile, cx, y + 18, _PILE_STEP, "captured", seat))
        parts.append("</g>")
        if round_.scores is not None:
            sx = cx + max(_row_width(len(pile), _PILE_STEP), 130) + 20
            score = round_.scores[seat]
            parts.append(_text(sx, y + 44, f"scores {score:+d}" if score else "scores 0",
                               size=14, weight="bold", cls="label score"))
            cx = sx + 90
        else:
            cx += max(_row_width(len(pile), _PILE_STEP), 130)
        width = max(width, cx + 16)
        parts.append("</g>")
        y += band + 10
    body = "".join(parts).replace("__W__", _num(width - 8))
    seen = "the table" if viewer is None else f"the table as {_seat_name(viewer, names)} sees it"
    label = f"round {round_.index}: {seen}" + (
        f", seat {to_act} to act" if to_act is not None else ""
    )
    return _svg(width, y, body, label, "round-picture")


# --- the scores ----------------------------------------------------------------------------


def scores_svg(state: GameState, *, names: Sequence[str] | None = None) -> str:
    """The score sheet of a game: each scored round's scores per seat and the totals; once the
    game is over, the winners (the highest total) marked."""
    scored = [round_ for round_ in state.rounds if round_.scores is not None]
    players = state.config.players
    best = max(state.totals) if state.is_over else None
    col, label_w, row_h = 64, 110, 24
    width = 10 + label_w + col * (len(scored) + 1) + 10
    parts = [_text(10 + label_w + col * i + col / 2, 18, f"round {r.index}", size=11,
                   anchor="middle") for i, r in enumerate(scored)]
    total_x = 10 + label_w + col * len(scored)
    parts.append(_text(total_x + col / 2, 18, "total", size=12, anchor="middle", weight="bold"))
    for seat in range(players):
        y = 28 + seat * row_h
        won = best is not None and state.totals[seat] == best
        parts.append(f'<g class="score-row{" winner" if won else ""}" data-seat="{seat}" '
                     f'data-total="{state.totals[seat]}">')
        parts.append(f'<rect x="4" y="{y}" width="{width - 8}" height="{row_h - 2}" rx="4" '
                     f'fill="{_MARK if won else "#888888"}" '
                     f'fill-opacity="{0.25 if won else 0.07 if seat % 2 else 0.0}"/>')
        name = _seat_name(seat, names) + (" (wins)" if won else "")
        parts.append(_text(12, y + 16, name, size=12, weight="bold" if won else "normal"))
        for i, round_ in enumerate(scored):
            assert round_.scores is not None
            parts.append(_text(10 + label_w + col * i + col / 2, y + 16, round_.scores[seat],
                               size=12, anchor="middle", cls="label score"))
        parts.append(_text(total_x + col / 2, y + 16, state.totals[seat], size=13,
                           anchor="middle", weight="bold", cls="label total"))
        parts.append("</g>")
    label = "the scores: totals " + ", ".join(
        f"{_seat_name(seat, names)} {total}" for seat, total in enumerate(state.totals)
    )
    return _svg(width, 28 + players * row_h + 6, "".join(parts), label, "scores-picture")


# --- a deck --------------------------------------------------------------------------------


def deck_svg(deck: Sequence[Card] | Config, *, title: str | None = None) -> str:
    """A deck as a coloured table: one row per colour, its cards in ascending rank order, with
    each colour's count of cards and coins. ``deck`` is a sequence of cards or a ``Config``
    (whose dealt cards are drawn)."""
    cards = tuple(deck.cards if isinstance(deck, Config) else deck)
    by_colour = {colour: sorted((c for c in cards if c.colour is colour), key=lambda c: c.rank)
                 for colour in Colour}
    total = sum(card.coins for card in cards)
    heading = title or "the deck"
    heading += f": {len(cards)} cards, {total} coins"
    parts = [_text(10, 18, heading, size=14, weight="bold", cls="label heading")]
    y, width = 32.0, 300.0
    label_w = 130
    for colour, row in by_colour.items():
        if not row:
            continue
        coins = sum(card.coins for card in row)
        parts.append(f'<g class="deck-row" data-colour="{colour.value}" data-count="{len(row)}" '
                     f'data-coins="{coins}">')
        parts.append(f'<rect x="4" y="{_num(y - 4)}" width="__W__" height="{CARD_H + 8}" rx="6" '
                     f'fill="{COLOUR_FILLS[colour]}" fill-opacity="0.14"/>')
        parts.append(_text(12, y + 22, f"{colour.value} ({COLOUR_LETTERS[colour]})", size=13,
                           weight="bold"))
        parts.append(_text(12, y + 40, f"{len(row)} cards, {coins} coins", size=11))
        parts.append(_row(row, 10 + label_w, y, _STEP, "deck", None))
        parts.append("</g>")
        width = max(width, 10 + label_w + _row_width(len(row), _STEP) + 14)
        y += CARD_H + 14
    body = "".join(parts).replace("__W__", _num(width - 8))
    return _svg(width, y, body, heading, "deck-picture")

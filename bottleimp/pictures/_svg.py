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

from .._actions import Play
from .._cards import START_PRICE, Card, Colour, Rank, coins, format_rank
from .._config import Config
from .._state import Bottle, GameState, Phase, RoundState, TrickResult

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


MAX_WIDTH: Final = 320
"""The widest a picture is drawn, in CSS pixels: it fits a phone's screen (390 px, less the
page's margins) without being scaled down, so every label keeps its size on any screen. Wider
content flows onto further lines (``_Flow``)."""

MIN_FONT: Final = 10
"""The smallest font size of any label, in CSS pixels (``tests/test_pictures.py`` holds every
picture to it; the docs' browser test checks it on screen at 390, 768 and 1280 px)."""

_CHAR_W: Final = 0.6
"""The width of an average character of the sans-serif font, in ems (an upper estimate used to
wrap captions and to size label columns)."""


def _svg(width: float, height: float, body: str, label: str, kind: str) -> str:
    """A complete ``<svg>`` element, drawn at its own size (never wider than ``MAX_WIDTH``) and
    scaled down only on a container narrower than that."""
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
    assert size >= MIN_FONT, size
    extra = f' text-anchor="{anchor}"' if anchor != "start" else ""
    extra += f' font-weight="{weight}"' if weight != "normal" else ""
    return (
        f'<text class="{cls}" x="{_num(x)}" y="{_num(y)}" font-size="{size}"{extra} '
        f'fill="{fill}">{_esc(text)}</text>'
    )


def _text_width(text: object, size: int) -> float:
    return len(str(text)) * size * _CHAR_W


def _wrapped(x: float, y: float, text: str, width: float, *, size: int = 12,
             cls: str = "label", weight: str = "normal") -> tuple[str, float]:
    """``text`` as lines no wider than ``width`` (broken at spaces), from baseline ``y``; the
    lines and the height they take."""
    per_line = max(8, int(width / (size * _CHAR_W)))
    lines: list[str] = []
    for word in text.split(" "):
        if lines and len(lines[-1]) + 1 + len(word) <= per_line:
            lines[-1] += " " + word
        else:
            lines.append(word)
    step = size * 1.3
    drawn = "".join(_text(x, y + i * step, line, size=size, cls=cls, weight=weight)
                    for i, line in enumerate(lines))
    return drawn, len(lines) * step


class _Flow:
    """Blocks placed left to right, onto a new line when the next one would pass ``right``."""

    def __init__(self, left: float, top: float, right: float = MAX_WIDTH - 8,
                 gap: float = 14) -> None:
        self.left, self.right, self.gap = left, right, gap
        self.x, self.y, self.line_height, self.widest = left, top, 0.0, left

    def place(self, width: float, height: float) -> tuple[float, float]:
        """The top-left corner of the next block of ``width`` x ``height``."""
        if self.x > self.left and self.x + width > self.right:
            self.newline()
        at = (self.x, self.y)
        self.x += width + self.gap
        self.line_height = max(self.line_height, height)
        self.widest = max(self.widest, at[0] + width)
        return at

    def newline(self) -> None:
        if self.x > self.left:
            self.y += self.line_height + self.gap / 2
        self.x, self.line_height = self.left, 0.0

    @property
    def bottom(self) -> float:
        """The bottom of the last line."""
        return self.y + self.line_height


def _per_row(step: float, width: float) -> int:
    """How many cards ``step`` apart fit in ``width``."""
    return max(1, int((width - CARD_W) // step) + 1)


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
        _text(4, 12, letter, size=11, weight="bold", cls="letter", fill=ink),
        _text(CARD_W / 2, 38, rank, size=17 if len(rank) < 4 else 14, anchor="middle",
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
        + _text(CARD_W / 2, 34, rank, size=17, anchor="middle", weight="bold", cls="rank",
                fill="#222222")
        + _text(CARD_W / 2, 53, "price", size=10, anchor="middle", fill="#555555")
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
    flow = _Flow(10, 4, gap=10)
    block_h = 16 + CARD_H + 20
    x, y = flow.place(CARD_W, block_h)
    parts = [
        _text(x, y + 12, "price", size=12, weight="bold"),
        _price_tile(result.price_before, None, x, y + 18, "price before"),
    ]
    for index, play in enumerate(result.plays):
        x, y = flow.place(CARD_W, block_h)
        won = play.card is result.winning_card
        parts.append(
            f'<g class="play{" winning" if won else ""}" data-seat="{play.seat}" '
            f'data-order="{index}">'
        )
        parts.append(_text(x + CARD_W / 2, y + 12, _seat_name(play.seat, names), size=11,
                           anchor="middle", weight="bold" if won else "normal"))
        if won:
            parts.append(_outline(x, y + 18, _MARK))
        parts.append(_card(play.card, x, y + 18, classes="winner" if won else "", zone="trick",
                           seat=play.seat))
        if won:
            parts.append(_text(x + CARD_W / 2, y + 18 + CARD_H + 16, "wins", size=12,
                               anchor="middle", weight="bold", cls="label win-label"))
        parts.append("</g>")
    winner = _seat_name(result.winner, names)
    rank = format_rank(result.winning_card.rank)
    before = format_rank(result.price_before)
    if result.bottle is not None:
        which = f" {result.bottle + 1}" if bottles > 1 else ""
        x, y = flow.place(CARD_W + 22, block_h)
        parts.append(_text(x, y + 18 + CARD_H / 2 + 6, "→", size=18))
        parts.append(_text(x + 22, y + 12, "new price", size=12, weight="bold"))
        parts.append(_outline(x + 22, y + 18, _MARK))
        parts.append(_card(result.winning_card, x + 22, y + 18, classes="price after",
                           zone="new-price"))
        caption = (f"{winner} wins with {rank}, below the price {before}, and buys the "
                   f"bottle{which}: the price falls to {rank}")
    else:
        caption = (f"{winner} wins with {rank}: no card is below the price {before}, so the "
                   "highest card wins and nobody buys the bottle")
    width = max(flow.widest + 10, 200)
    lines, height = _wrapped(10, flow.bottom + 18, caption, width - 20, cls="label caption")
    parts.append(lines)
    return _svg(width, flow.bottom + 10 + height, "".join(parts), caption, "trick-picture")


# --- the bottles ---------------------------------------------------------------------------

_BOTTLE_W: Final = 130.0
_BOTTLE_H: Final = 136.0


def _bottle(bottle: Bottle, index: int, count: int, x: float, y: float,
            names: Sequence[str] | None) -> str:
    """One bottle with its price card beside it and its owner below (``_BOTTLE_W`` wide)."""
    owner = _seat_name(bottle.owner, names)
    title = "the bottle" if count == 1 else f"bottle {index + 1}"
    return "".join([
        f'<g class="bottle" data-bottle="{index}" data-price="{_esc(format_rank(bottle.price))}" '
        f'data-owner="{"" if bottle.owner is None else bottle.owner}">',
        _text(x, y + 12, title, size=12, weight="bold"),
        f'<path d="M{_num(x + 15)},{_num(y + 20)} h14 v14 q14,6 14,22 v36 q0,6 -6,6 h-30 '
        f'q-6,0 -6,-6 v-36 q0,-16 14,-22 z" fill="#7b4fa8" fill-opacity="0.85" '
        'stroke="#2d1a40" stroke-width="1.5"/>',
        f'<rect x="{_num(x + 13)}" y="{_num(y + 16)}" width="18" height="6" rx="2" '
        'fill="#8a6a3a"/>',
        _price_tile(bottle.price, bottle.price_card, x + 56, y + 30),
        _text(x, y + 116, f"price {format_rank(bottle.price)}", size=12),
        _text(x, y + 131, "owned by nobody yet" if bottle.owner is None else f"owned by {owner}",
              size=11, cls="label owner"),
        "</g>",
    ])


def bottles_svg(bottles: Sequence[Bottle], *, names: Sequence[str] | None = None) -> str:
    """The bottle (both, in the Second Bottle variant): its price card (the neutral start card
    19 until someone buys it) and its owner."""
    flow = _Flow(10, 4, gap=20)
    parts = []
    for index, bottle in enumerate(bottles):
        x, y = flow.place(_BOTTLE_W, _BOTTLE_H)
        parts.append(_bottle(bottle, index, len(bottles), x, y, names))
    label = "; ".join(
        f"{'the bottle' if len(bottles) == 1 else f'bottle {i + 1}'}: price "
        f"{format_rank(b.price)}, owned by {_seat_name(b.owner, names)}"
        for i, b in enumerate(bottles)
    )
    return _svg(flow.widest + 10, flow.bottom + 6, "".join(parts), label, "bottles-picture")


# --- a round's zones -----------------------------------------------------------------------


def _current_trick(round_: RoundState) -> tuple[Play, ...]:
    done = sum(len(trick.plays) for trick in round_.tricks)
    return round_.plays[done:]


def _grid(cards: Sequence[Card | None], x: float, y: float, step: float, width: float,
          zone: str, seat: int | None, row_step: float = CARD_H + 8) -> tuple[str, float]:
    """Cards (``None``: face down) in rows ``step`` apart, as many per row as fit in
    ``width``; the drawing and its height."""
    per_row = _per_row(step, width)
    parts = []
    for i, card in enumerate(cards):
        cx, cy = x + (i % per_row) * step, y + (i // per_row) * row_step
        if card is None:
            parts.append(_back(cx, cy, zone=zone, seat=seat))
        else:
            parts.append(_card(card, cx, cy, zone=zone, seat=seat))
    rows = -(-len(cards) // per_row) if cards else 0
    return "".join(parts), (rows - 1) * row_step + CARD_H if rows else 0.0


def _grid_width(count: int, step: float, width: float) -> float:
    return 0.0 if count == 0 else CARD_W + (min(count, _per_row(step, width)) - 1) * step


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
    inner = MAX_WIDTH - 20  # the width of a line of cards

    # The table: bottles, Devil's Trick, trick in progress.
    flow = _Flow(10, 4)
    for index, bottle in enumerate(round_.bottles):
        x, y = flow.place(_BOTTLE_W, _BOTTLE_H)
        parts.append(_bottle(bottle, index, len(round_.bottles), x, y, names))
    revealed = round_.scores is not None
    dt_cards = round_.devils_trick
    dt_w = max(_grid_width(len(dt_cards), _PILE_STEP, inner), 140)
    x, y = flow.place(dt_w, 110)
    parts.append(f'<g class="zone devils-trick" data-zone="devils-trick" '
                 f'data-count="{len(dt_cards)}">')
    parts.append(_text(x, y + 12, "Devil's Trick", size=12, weight="bold"))
    if not dt_cards:
        parts.append(_text(x, y + 46, "empty until the setup ends" if in_setup else "empty",
                           size=11))
    drawn, _ = _grid([c if revealed else None for c in dt_cards], x, y + 20, _PILE_STEP,
                     inner, "devils-trick", None)
    parts.append(drawn)
    if dt_cards:
        state_of = "revealed" if revealed else "face down"
        plural = "s" if len(dt_cards) != 1 else ""
        parts.append(_text(x, y + 100, f"{len(dt_cards)} card{plural} {state_of}", size=11))
    parts.append("</g>")

    trick = _current_trick(round_)
    shown = trick + ((attempted,) if attempted is not None else ())
    if shown:
        flow.newline()
        step = _STEP + 4
        per_row = _per_row(step, inner)
        rows = -(-len(shown) // per_row)
        block_h = 18 + rows * (CARD_H + 36)
        x, y = flow.place(_grid_width(len(shown), step, inner), block_h)
        parts.append('<g class="zone current-trick" data-zone="current-trick">')
        parts.append(_text(x, y + 12, "trick in progress", size=12, weight="bold"))
        for i, play in enumerate(shown):
            px, py = x + (i % per_row) * step, y + 20 + (i // per_row) * (CARD_H + 36)
            refused = attempted is not None and i == len(shown) - 1
            parts.append(_text(px + CARD_W / 2, py + CARD_H + 14, _seat_name(play.seat, names),
                               size=10, anchor="middle"))
            if refused:
                parts.append(_outline(px, py, _BROKEN, dashed=True))
                parts.append(_card(play.card, px, py, classes="broken", zone="attempted",
                                   seat=play.seat))
                parts.append(_text(px + CARD_W / 2, py + CARD_H + 28, "refused", size=11,
                                   anchor="middle", weight="bold", cls="label broken-label",
                                   fill=_BROKEN))
            else:
                parts.append(_card(play.card, px, py, zone="current-trick", seat=play.seat))
        parts.append("</g>")

    # One band per seat.
    eye = round_.face_up is not None
    given = [tuple(give.card for give in gives) for gives in round_.setup] if in_setup else []
    y = flow.bottom + 16
    band_w = MAX_WIDTH - 8
    for seat in range(players):
        top = y
        hidden = viewer is not None and seat != viewer
        notes = [note for note, yes in (("dealer", seat == round_.dealer),
                                        ("to act", seat == to_act)) if yes]
        body = [_text(12, y + 16, _seat_name(seat, names), size=13, weight="bold")]
        nx = 12 + _text_width(_seat_name(seat, names), 13) + 8
        for note in notes:
            body.append(_text(nx, y + 16, note, size=11, cls=f"label {note.replace(' ', '-')}"))
            nx += _text_width(note, 11) + 8
        zones = _Flow(12, y + 24, right=band_w - 4, gap=16)
        hand = round_.hands[seat]
        if hand or any(round_.hands):
            shown_hand: Sequence[Card | None] = [None] * len(hand) if hidden else hand
            hand_w = max(_grid_width(len(hand), _STEP, inner - 8), 100)
            rows = -(-len(hand) // _per_row(_STEP, inner - 8)) if hand else 1
            hx, hy = zones.place(hand_w, 14 + rows * (CARD_H + 8))
            body.append(_text(hx, hy + 10, "hidden hand" if eye else "hand", size=10))
            body.append(_grid(shown_hand, hx, hy + 16, _STEP, inner - 8, "hand", seat)[0])
        if round_.face_up is not None:
            row = round_.face_up[seat]
            rows = -(-len(row) // _per_row(_STEP, inner - 8)) if row else 1
            fx, fy = zones.place(max(_grid_width(len(row), _STEP, inner - 8), 100),
                                 14 + rows * (CARD_H + 8))
            body.append(_text(fx, fy + 10, "face-up row", size=10))
            body.append(_grid(row, fx, fy + 16, _STEP, inner - 8, "face-up", seat)[0])
        if given and given[seat]:
            cards = [None] * len(given[seat]) if hidden else list(given[seat])
            gx, gy = zones.place(max(_grid_width(len(cards), _PILE_STEP, inner), 110),
                                 16 + CARD_H + 8)
            body.append(_text(gx, gy + 10, "given in the setup", size=10))
            body.append(_grid(cards, gx, gy + 16, _PILE_STEP, inner - 8, "given", seat)[0])
        pile = round_.captured[seat]
        pile_coins = coins(pile)
        pile_rows = -(-len(pile) // _per_row(_PILE_STEP, inner - 8))
        px, py = zones.place(max(_grid_width(len(pile), _PILE_STEP, inner - 8), 170),
                             16 + pile_rows * (CARD_H + 8))
        body.append(f'<g class="zone captured" data-zone="captured" data-seat="{seat}" '
                    f'data-count="{len(pile)}" data-coins="{pile_coins}">')
        body.append(_text(px, py + 10, f"captured: {len(pile)} card{'s' if len(pile) != 1 else ''}"
                          f", {pile_coins} coin{'s' if pile_coins != 1 else ''}", size=10))
        body.append(_grid(pile, px, py + 16, _PILE_STEP, inner - 8, "captured", seat)[0])
        body.append("</g>")
        if round_.scores is not None:
            score = round_.scores[seat]
            sx, sy = zones.place(90, 30)
            body.append(_text(sx, sy + 20, f"scores {score:+d}" if score else "scores 0",
                              size=14, weight="bold", cls="label score"))
        y = zones.bottom + 10
        parts.append(f'<g class="seat{" to-act" if seat == to_act else ""}" data-seat="{seat}">')
        parts.append(f'<rect x="4" y="{_num(top)}" width="{_num(band_w - 4)}" '
                     f'height="{_num(y - top)}" rx="8" '
                     f'fill="{_MARK if seat == to_act else "#888888"}" '
                     f'fill-opacity="{0.16 if seat == to_act else 0.07}"/>')
        parts += body
        parts.append("</g>")
        y += 8
    seen = "the table" if viewer is None else f"the table as {_seat_name(viewer, names)} sees it"
    label = f"round {round_.index + 1}: {seen}" + (
        f", seat {to_act} to act" if to_act is not None else ""
    )
    return _svg(band_w + 4, y, "".join(parts), label, "round-picture")


# --- the scores ----------------------------------------------------------------------------


def scores_svg(state: GameState, *, names: Sequence[str] | None = None) -> str:
    """The score sheet of a game: each scored round's scores per seat and the totals; once the
    game is over, the winners (the highest total) marked. Many rounds take several blocks of
    columns, one under the other."""
    scored = [round_ for round_ in state.rounds if round_.scores is not None]
    players = state.config.players
    best = max(state.totals) if state.is_over else None
    col, row_h = 48, 24
    label_w = max(60, max(_text_width(_seat_name(seat, names) + " (wins)", 12)
                          for seat in range(players)) + 8)
    per_block = max(1, int((MAX_WIDTH - 20 - label_w) // col))
    columns: list[RoundState | None] = [*scored, None]  # None: the totals
    blocks = [columns[i:i + per_block] for i in range(0, len(columns), per_block)]
    width = 10 + label_w + col * min(per_block, len(columns)) + 10
    block_h = 24 + players * row_h + 12
    parts = []
    for b, block in enumerate(blocks):
        top = b * block_h
        for i, round_ in enumerate(block):
            x = 10 + label_w + col * i + col / 2
            if round_ is None:
                parts.append(_text(x, top + 18, "total", size=12, anchor="middle", weight="bold"))
            else:
                parts.append(_text(x, top + 18, f"round {round_.index + 1}", size=11,
                                   anchor="middle"))
    for seat in range(players):
        won = best is not None and state.totals[seat] == best
        parts.append(f'<g class="score-row{" winner" if won else ""}" data-seat="{seat}" '
                     f'data-total="{state.totals[seat]}">')
        for b, block in enumerate(blocks):
            y = b * block_h + 28 + seat * row_h
            parts.append(f'<rect x="4" y="{y}" width="{width - 8}" height="{row_h - 2}" rx="4" '
                         f'fill="{_MARK if won else "#888888"}" '
                         f'fill-opacity="{0.25 if won else 0.07 if seat % 2 else 0.0}"/>')
            name = _seat_name(seat, names) + (" (wins)" if won else "")
            parts.append(_text(12, y + 16, name, size=12, weight="bold" if won else "normal"))
            for i, round_ in enumerate(block):
                x = 10 + label_w + col * i + col / 2
                if round_ is None:
                    parts.append(_text(x, y + 16, state.totals[seat], size=13, anchor="middle",
                                       weight="bold", cls="label total"))
                else:
                    assert round_.scores is not None
                    parts.append(_text(x, y + 16, round_.scores[seat], size=12,
                                       anchor="middle", cls="label score"))
        parts.append("</g>")
    label = "the scores: totals " + ", ".join(
        f"{_seat_name(seat, names)} {total}" for seat, total in enumerate(state.totals)
    )
    return _svg(width, len(blocks) * block_h - 6, "".join(parts), label, "scores-picture")


# --- a deck --------------------------------------------------------------------------------


def deck_svg(deck: Sequence[Card] | Config, *, title: str | None = None) -> str:
    """A deck as a coloured table: one row per colour, its cards in ascending rank order, with
    each colour's count of cards and coins. ``deck`` is a sequence of cards or a ``Config``
    (whose dealt cards are drawn)."""
    cards = tuple(deck.cards if isinstance(deck, Config) else deck)
    by_colour = {colour: sorted((c for c in cards if c.colour is colour), key=lambda c: c.rank)
                 for colour in Colour}
    total = coins(cards)
    heading = title or "the deck"
    heading += f": {len(cards)} cards, {total} coins"
    width = MAX_WIDTH - 8
    drawn, height = _wrapped(10, 18, heading, width - 20, size=14, cls="label heading",
                             weight="bold")
    parts = [drawn]
    y = 8 + height + 8
    for colour, row in by_colour.items():
        if not row:
            continue
        row_coins = coins(row)
        cards_drawn, cards_h = _grid(row, 12, y + 26, _STEP, width - 16, "deck", None)
        parts.append(f'<g class="deck-row" data-colour="{colour.value}" data-count="{len(row)}" '
                     f'data-coins="{row_coins}">')
        parts.append(f'<rect x="4" y="{_num(y)}" width="{width - 8}" '
                     f'height="{_num(cards_h + 34)}" rx="6" '
                     f'fill="{COLOUR_FILLS[colour]}" fill-opacity="0.14"/>')
        parts.append(_text(12, y + 18, f"{colour.value} ({COLOUR_LETTERS[colour]}): "
                           f"{len(row)} cards, {row_coins} coins", size=12, weight="bold"))
        parts.append(cards_drawn)
        parts.append("</g>")
        y += cards_h + 34 + 8
    return _svg(width, y, "".join(parts), heading, "deck-picture")

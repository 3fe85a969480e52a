"""A game told for people, trick by trick: what was played, who won, what the bottle did.

A ``Narrator`` watches a game step by step (the state before an action, the action, the state
after it, and the legal actions the seat had) and tells it as blocks: a ``Paragraph`` (a label
such as ``Trick 3``, text in spans, and the IDs of the rules that decided) or a ``ScoreTable``
at the end of each round. Two renderers draw the blocks:

- ``PlainRenderer``: plain text wrapped at word boundaries to a width (80 columns unless told
  otherwise), each card written with its colour as a word (``24 blue``), so that a reader sees
  why a card was forced;
- ``RichRenderer``: the same blocks on a ``rich`` console, each card in its colour, rule IDs
  dimmed, a table of scores per round; it fits the console's width.

Rounds and tricks are numbered from 1 in everything written for people; seats are named by
their number, from 0, as in records. Rule IDs are shown only when asked (``show_rules``).

    >>> from bottleimp import Config, apply, legal_actions, new_game
    >>> state = new_game(Config(players=4, rounds=1), seed=3)
    >>> narrator = Narrator()
    >>> blocks = list(narrator.start(state))
    >>> while not state.is_over:
    ...     legal = legal_actions(state)
    ...     after = apply(state, legal[0])
    ...     blocks += narrator.step(state, legal[0], after, legal)
    ...     state = after
    >>> blocks += narrator.finish(state)
    >>> renderer = PlainRenderer(width=60)
    >>> lines = [line for block in blocks for line in renderer.lines(block)]
    >>> print("\\n".join(lines[8:13]))
      Trick 2 at 6: seat 2: 8 blue, seat 3: 3 yellow (no blue),
        seat 0: 34 blue, seat 1: 10 blue. 3 is the highest card
        below the price 6: seat 3 wins and buys the bottle,
        price now 3. The old price card 6 blue goes to its
        former owner, seat 2.
    >>> max(len(line) for line in lines) <= 60
    True
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable, Iterator, Sequence
from typing import IO, TYPE_CHECKING, Final

from attrs import frozen

from .._actions import Action, Destination, Play
from .._cards import START_PRICE, Card, Colour, coins, format_rank
from ..rules.play import led_colour, returned_price_card
from .._state import GameState, Phase, RoundState, TrickResult

if TYPE_CHECKING:
    from rich.console import Console, RenderableType

__all__ = [
    "Span",
    "Paragraph",
    "ScoreTable",
    "Block",
    "Narrator",
    "PlainRenderer",
    "RichRenderer",
    "plain_width",
]

DEFAULT_WIDTH: Final = 80
"""The width of plain text when the output is not a terminal (piped to a file or a pager)."""


@frozen
class Span:
    """A piece of a paragraph: text, or a card (``card`` set, ``text`` its plain form), with a
    style name the renderers understand: ``""``, ``"strong"``, ``"note"``, ``"sep"`` (a
    separator between cards, which a renderer that draws cards as coloured chips may shorten)."""

    text: str
    style: str = ""
    card: Card | None = None
    keep: bool = False
    """Plain text does not break a line inside this span (``seat 3:``, ``24 blue``)."""


@frozen
class Paragraph:
    """A paragraph: ``label`` (``"Trick 3"``, or ``""``), its spans, the rules that decided it,
    and its depth (0 opens a round or ends the game, 1 is inside a round)."""

    label: str
    spans: tuple[Span, ...]
    rules: tuple[str, ...] = ()
    depth: int = 1


@frozen
class ScoreTable:
    """A round's scores: one row per seat, under ``headers``; ``marked`` seats own a bottle."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    marked: frozenset[int]
    rules: tuple[str, ...] = ()


Block = Paragraph | ScoreTable


def _text(text: str, style: str = "") -> Span:
    return Span(text, style)


def _card(card: Card) -> Span:
    return Span(f"{format_rank(card.rank)} {card.colour.value}", card=card, keep=True)


def _cards(cards: Sequence[Card]) -> list[Span]:
    spans: list[Span] = []
    for position, card in enumerate(cards):
        if position:
            spans.append(_text(", ", "sep"))
        spans.append(_card(card))
    return spans or [_text("no card")]


def _seats(seats: Sequence[int]) -> str:
    names = [str(seat) for seat in seats]
    if len(names) == 1:
        return f"seat {names[0]}"
    return "seats " + ", ".join(names[:-1]) + " and " + names[-1]


def _bottle(index: int, bottles: int) -> str:
    return "the bottle" if bottles == 1 else f"bottle {index + 1}"


class Narrator:
    """Turns the steps of a game into blocks. Feed it ``start(state)`` once, then
    ``step(before, action, after, legal)`` for every action, then ``finish(state)``.

    ``legal`` (the legal actions in ``before``) tells why a card off the led colour was allowed:
    the seat had no card of that colour it could play (``no blue``), or it played from the
    hidden hand of Devil's Eye, which may play any card (``hidden hand``)."""

    def __init__(self) -> None:
        self._notes: list[str | None] = []

    def start(self, state: GameState) -> Iterator[Block]:
        """The blocks that open the game: the first deal."""
        yield self._deal(state.round, state.config.bottles)

    def step(
        self, before: GameState, action: Action, after: GameState, legal: Sequence[Action]
    ) -> Iterator[Block]:
        """The blocks for one action (often none: a trick is told once it is complete)."""
        if after.round.index != before.round.index:
            yield self._deal(after.round, after.config.bottles)
            return
        if before.phase is Phase.SETUP and after.phase is not Phase.SETUP:
            yield self._setup_done(after)
        if isinstance(action, Play):
            self._notes.append(self._note(before, action, legal))
        done = len(before.round.tricks)
        for number, result in enumerate(after.round.tricks[done:], start=done + 1):
            yield self._trick(number, result, before, after)
            self._notes = []
        if after.round.scores is not None and before.round.scores is None:
            yield from self._round_end(after)

    def finish(self, state: GameState) -> Iterator[Block]:
        """The closing line: who won the game."""
        best = state.winners
        assert best is not None, "finish is told of a game that is over"
        played = len(state.rounds)
        verb = "wins" if len(best) == 1 else "win"
        yield Paragraph(
            "",
            (
                _text(f"Game over after {played} round{'s' if played != 1 else ''}. "),
                _text(f"{_seats(best).capitalize()} {verb} with {state.totals[best[0]]}.", "strong"),
            ),
            ("WINNERS",),
            depth=0,
        )

    # --- the pieces ------------------------------------------------------------------------

    def _deal(self, round_: RoundState, bottles: int) -> Paragraph:
        text = f"seat {round_.dealer} deals."
        if bottles > 1:
            text += f" {bottles} bottles, each at {format_rank(START_PRICE)}."
        return Paragraph(
            f"Round {round_.index + 1}", (_text(text),), ("DEAL", "DEALER-ROTATION"), depth=0
        )

    def _setup_done(self, state: GameState) -> Paragraph:
        round_ = state.round
        discards = [
            sum(1 for give in given if give.to is Destination.DEVILS_TRICK)
            for given in round_.setup
        ]
        laid = max(discards)
        cards = "card" if laid == 1 else "cards"
        who = "every seat but the dealer" if min(discards) != laid else "each seat"
        if state.config.devils_eye:
            passes = "gave the other player 1 card for each of its hands, face-up and hidden"
        else:
            passes = "passed 1 card to each neighbour"
        text = (
            f"{who} laid {laid} {cards} face down in the Devil's Trick "
            f"({len(round_.devils_trick)} cards there) and {passes}. Seat {round_.leader} leads."
        )
        return Paragraph("Setup", (_text(text),), ("SETUP-RESOLVE", "FIRST-LEADER"))

    @staticmethod
    def _note(before: GameState, action: Play, legal: Sequence[Action]) -> str | None:
        """Why a card off the led colour was allowed: the seat had none of it, or (Devil's Eye)
        it came from the hidden hand, which may play any card."""
        led = led_colour(before.current_trick())
        if led is None or action.card.colour is led:
            return None
        could_follow = any(
            isinstance(other, Play) and other.card.colour is led for other in legal
        )
        return "hidden hand" if could_follow else f"no {led.value}"

    def _trick(
        self, number: int, result: TrickResult, before: GameState, after: GameState
    ) -> Paragraph:
        notes = self._notes + [None] * (len(result.plays) - len(self._notes))
        spans: list[Span] = []
        for position, (play, note) in enumerate(zip(result.plays, notes)):
            if position:
                spans.append(_text(", ", "sep"))
            # "seat 1: 34 blue (no red)" stays on one line.
            spans += [Span(f"seat {play.seat}: ", keep=True), _card(play.card)]
            if note:
                spans.append(Span(f" ({note})", "note", keep=True))
        price = format_rank(result.price_before)
        winning = format_rank(result.winning_card.rank)
        bottles = len(before.round.bottles)
        rules = ["TRICK-WINNER"]
        if result.bottle is None:
            spans.append(_text(f". Every card is above the price {price}: "))
            spans.append(_text(f"seat {result.winner} wins with the highest, {winning}", "strong"))
            owners = [bottle.owner for bottle in after.round.bottles]
            if bottles == 1:
                owner = owners[0]
                keeps = (
                    "Nobody buys the bottle; it stays in the middle at "
                    f"{format_rank(START_PRICE)}"
                    if owner is None
                    else f"Seat {owner} keeps the bottle at {format_rank(after.round.bottles[0].price)}"
                )
            else:
                keeps = "Nobody buys a bottle (" + ", ".join(
                    f"{_bottle(index, bottles)} at {format_rank(bottle.price)}"
                    for index, bottle in enumerate(after.round.bottles)
                ) + ")"
            spans.append(_text(f". {keeps}."))
        else:
            spans.append(_text(f". {winning} is the highest card below the price {price}: "))
            spans.append(
                _text(
                    f"seat {result.winner} wins and buys {_bottle(result.bottle, bottles)}", "strong"
                )
            )
            spans.append(_text(f", price now {format_rank(result.price_after)}."))
            rules.append("BOTTLE-PURCHASE")
            returned = returned_price_card(before.round.bottles[result.bottle])
            if returned is not None:
                owner, price_card = returned
                whose = "its buyer" if owner == result.winner else "its former owner"
                spans += [
                    _text(" The old price card "),
                    _card(price_card),
                    _text(f" goes to {whose}, seat {owner}."),
                ]
                rules.append("PRICE-CARD-RETURN")
        if bottles > 1:
            rules.insert(0, "TRICK-PRICE")
        label = f"Trick {number} at {price}"
        return Paragraph(label, tuple(spans), tuple(rules))

    def _round_end(self, state: GameState) -> Iterator[Block]:
        round_ = state.round
        config = state.config
        devils = coins(round_.devils_trick)
        spans = [_text("the Devil's Trick holds ")] + _cards(round_.devils_trick)
        spans.append(_text(f": {devils} coin{'s' if devils != 1 else ''}."))
        owners = {bottle.owner for bottle in round_.bottles if bottle.owner is not None}
        for index, bottle in enumerate(round_.bottles):
            name = _bottle(index, len(round_.bottles))
            if bottle.owner is None:
                spans.append(_text(f" Nobody bought {name}."))
            else:
                spans.append(
                    _text(
                        f" Seat {bottle.owner} holds {name} at {format_rank(bottle.price)} and "
                        f"pays for it: -{devils} instead of its captured coins.",
                    )
                )
        yield Paragraph(
            f"End of round {round_.index + 1}", tuple(spans), ("SCORE-BOTTLE-PENALTY",)
        )
        assert round_.scores is not None
        teams = config.teams
        headers = ["Seat"] + (["Team"] if teams is not None else []) + [
            "Coins won",
            "Bottle",
            "Round",
            "Total",
        ]
        rows = []
        for seat in range(config.players):
            held = [
                index for index, bottle in enumerate(round_.bottles) if bottle.owner == seat
            ]
            if not held:
                bottle_text = ""
            elif len(round_.bottles) == 1:
                bottle_text = f"at {format_rank(round_.bottles[0].price)}"
            else:
                bottle_text = ", ".join(
                    f"{index + 1} at {format_rank(round_.bottles[index].price)}" for index in held
                )
            row = [str(seat)]
            if teams is not None:
                team = next(team for team in teams if seat in team)
                row.append(" & ".join(str(member) for member in team) if len(team) > 1 else "alone")
            row += [
                str(coins(round_.captured[seat])),
                bottle_text,
                f"{round_.scores[seat]:+d}",
                f"{state.totals[seat]:+d}",
            ]
            rows.append(tuple(row))
        rule = "SCORE-TEAMS" if teams is not None else "SCORE-INDIVIDUAL"
        yield ScoreTable(
            f"Round {round_.index + 1} scores",
            tuple(headers),
            tuple(rows),
            frozenset(owners),
            (rule, "GAME-TOTALS"),
        )


# --- wrapping ------------------------------------------------------------------------------

Fragment = tuple[str, str]
"""A piece of a line: its text and a style (a ``rich`` style for ``RichRenderer``, ignored in
plain text)."""


_NUMBERED: Final = frozenset({"seat", "seats", "round", "trick", "play", "price"})
"""Words that name the number after them: a line never breaks between the two (``seat 2``)."""


def _words(pieces: Sequence[tuple[Span, Fragment]]) -> list[list[Fragment]]:
    """Split rendered spans into words: a line may break only at a space of a span that is
    neither a card nor kept whole, and never between a word of ``_NUMBERED`` and its number;
    the spaces that separate words are dropped."""
    words: list[list[Fragment]] = [[]]
    previous = ""
    for span, (text, style) in pieces:
        if span.keep or span.card is not None:
            if text:
                words[-1].append((text, style))
                previous = text
            continue
        for position, part in enumerate(text.split(" ")):
            if position:
                if previous.lower() in _NUMBERED and part[:1].isdigit():
                    words[-1].append((" ", style))
                else:
                    words.append([])
            if part:
                words[-1].append((part, style))
                previous = part
    return [word for word in words if word]


def wrap(
    pieces: Sequence[tuple[Span, Fragment]], width: int, first: str, rest: str
) -> list[list[Fragment]]:
    """Greedy word wrap: lines that start with ``first`` (then ``rest``) and are no longer than
    ``width`` (a single word longer than a line stays whole on its own line)."""
    lines: list[list[Fragment]] = []
    line: list[Fragment] = [(first, "")]
    used = len(first)
    empty = True
    for word in _words(pieces):
        size = sum(len(text) for text, _ in word)
        if not empty and used + 1 + size > width:
            lines.append(line)
            line, used, empty = [(rest, "")], len(rest), True
        if not empty:
            line.append((" ", ""))
            used += 1
        line += word
        used += size
        empty = False
    lines.append(line)
    return lines


# --- plain text ----------------------------------------------------------------------------


def plain_width(stream: IO[str]) -> int:
    """The width for plain text: ``$COLUMNS`` if set, the terminal's width if ``stream`` is a
    terminal, else 80."""
    columns = os.environ.get("COLUMNS", "")
    if columns.isdigit() and int(columns) > 0:
        return int(columns)
    try:
        if stream.isatty():
            return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    except (AttributeError, ValueError, OSError):
        pass
    return DEFAULT_WIDTH


class PlainRenderer:
    """Blocks as plain text lines no longer than ``width``, wrapped at word boundaries; a card
    is written with its colour as a word (``24 blue``)."""

    def __init__(self, width: int = DEFAULT_WIDTH, show_rules: bool = False) -> None:
        self.width = max(width, 40)
        self.show_rules = show_rules

    def lines(self, block: Block) -> list[str]:
        """The lines of one block."""
        if isinstance(block, ScoreTable):
            return self._table(block)
        indent = "  " * block.depth
        spans = list(block.spans)
        if self.show_rules and block.rules:
            spans.append(_text(f" [{', '.join(block.rules)}]"))
        first = f"{indent}{block.label}: " if block.label else indent
        pieces = [(span, (span.text, "")) for span in spans]
        wrapped = wrap(pieces, self.width, first, indent + "  ")
        return ["".join(text for text, _ in line).rstrip() for line in wrapped]

    def _table(self, table: ScoreTable) -> list[str]:
        columns = list(zip(table.headers, *table.rows))
        widths = [max(len(cell) for cell in column) for column in columns]
        numeric = [all(_numeric(cell) for cell in column[1:]) for column in columns]

        def line(cells: Sequence[str]) -> str:
            parts = [
                cell.rjust(width) if is_number else cell.ljust(width)
                for cell, width, is_number in zip(cells, widths, numeric)
            ]
            return ("    " + "  ".join(parts)).rstrip()

        out = [line(table.headers)]
        out.append("    " + "  ".join("-" * width for width in widths))
        out += [line(row) for row in table.rows]
        if self.show_rules and table.rules:
            out.append(f"    [{', '.join(table.rules)}]")
        return out

    def write(self, blocks: Iterable[Block], stream: IO[str]) -> None:
        """Write blocks to ``stream``."""
        for block in blocks:
            for line in self.lines(block):
                stream.write(line + "\n")


def _numeric(cell: str) -> bool:
    return cell.lstrip("+-").isdigit()


# --- rich ----------------------------------------------------------------------------------

CARD_STYLES: Final = {
    Colour.YELLOW: "bold black on yellow",
    Colour.BLUE: "bold bright_white on blue",
    Colour.RED: "bold bright_white on red",
    Colour.GREEN: "bold black on green",
}
"""How ``RichRenderer`` draws a card: its rank on its colour."""

_SPAN_STYLES: Final = {"": "", "strong": "bold", "note": "italic", "sep": ""}

LABEL_WIDTH: Final = 16
"""The width of the label column (``Trick 11 at 14.5``) in ``RichRenderer``'s paragraphs."""


class RichRenderer:
    """Blocks on a ``rich`` console: cards in their colours, rule IDs dimmed, a table of scores
    per round, every line within the console's width (wrapped at word boundaries)."""

    def __init__(self, console: Console, show_rules: bool = False) -> None:
        self.console = console
        self.show_rules = show_rules

    def write(self, blocks: Iterable[Block]) -> None:
        """Print blocks on the console."""
        for block in blocks:
            self.console.print(self.renderable(block))

    def _fragment(self, span: Span) -> Fragment:
        if span.card is not None:
            return f" {format_rank(span.card.rank)} ", CARD_STYLES[span.card.colour]
        if span.style == "sep":
            return " ", ""
        return span.text, _SPAN_STYLES.get(span.style, "")

    def renderable(self, block: Block) -> RenderableType:
        """A ``rich`` renderable for one block."""
        from rich import box
        from rich.padding import Padding
        from rich.table import Table
        from rich.text import Text

        if isinstance(block, ScoreTable):
            table = Table(title=block.title, box=box.SIMPLE_HEAD, title_justify="left")
            numeric = [
                all(_numeric(row[column]) for row in block.rows)
                for column in range(len(block.headers))
            ]
            for header, is_number in zip(block.headers, numeric):
                table.add_column(header, justify="right" if is_number else "left")
            for seat, row in enumerate(block.rows):
                table.add_row(*row, style="bold" if seat in block.marked else None)
            if self.show_rules and block.rules:
                table.caption = " ".join(block.rules)
                table.caption_style = "dim"
                table.caption_justify = "left"
            return Padding(table, (0, 0, 0, 4))
        pieces = [(span, self._fragment(span)) for span in block.spans]
        for index, (span, (chip, style)) in enumerate(pieces[:-1]):
            # A card's chip touches the punctuation after it: "36." rather than "36 .".
            if span.card is not None and pieces[index + 1][1][0][:1] in tuple(".,:;)"):
                pieces[index] = (span, (chip.rstrip(), style))
        if self.show_rules and block.rules:
            for rule in block.rules:
                pieces += [(_text(" "), (" ", "")), (Span(rule, keep=True), (rule, "dim"))]
        indent = "  " * block.depth
        if block.depth == 0:
            if block.label:
                label = f"{block.label} ·"
                pieces[:0] = [
                    (Span(label, keep=True), (label, "bold magenta")),
                    (_text(" "), (" ", "")),
                ]
            first = rest = indent
        elif self.console.width - len(indent) - LABEL_WIDTH - 1 >= 40:
            first = indent + block.label.ljust(LABEL_WIDTH) + " "
            rest = indent + " " * (LABEL_WIDTH + 1)
        else:  # a narrow terminal: the label opens the paragraph, as in plain text
            first = f"{indent}{block.label} " if block.label else indent
            rest = indent + "  "
        text = Text(no_wrap=True, overflow="fold")
        for number, line in enumerate(wrap(pieces, self.console.width, first, rest)):
            if number:
                text.append("\n")
            for position, (part, style) in enumerate(line):
                bold_label = position == 0 and number == 0 and block.depth > 0
                text.append(part, "bold" if bold_label else style)
        return text

"""A game between a reader and the reference bots, run by the library itself in the browser.

The page "Play a game" (``docs/play.md``) loads this file into Pyodide next to the ``bottleimp``
wheel and talks to it in JSON: ``start`` a game from the options of ``bottleimp simulate``, then
``choose`` a card (or ``next_round``) until the game is over, then take the ``record``. The rules
are the library's: the legal cards are ``legal_actions``, a refused card is the
``IllegalActionError`` that ``apply`` raises, with its rule ID; the bots are ``bottleimp.bots``;
the table is ``round_svg`` as the reader's seat sees it; the story is the narration of
``bottleimp simulate``. Nothing here decides a rule.

The same file runs in CPython: ``tests/test_play_page.py`` plays whole games with it before a
browser plays one through the page.
"""

from __future__ import annotations

import json
from typing import Any

from bottleimp import (
    Config,
    GameState,
    IllegalActionError,
    Phase,
    apply,
    legal_actions,
    new_game,
    view,
)
from bottleimp._actions import Action, Destination, Give, Play
from bottleimp.bots import BOTS, NEEDS_NUMBA, make_bot
from bottleimp._cards import Card, format_rank
from bottleimp.cli import build_parser
from bottleimp.cli._narrate import Narrator, PlainRenderer, ScoreTable
from bottleimp.cli._arguments import config_from_args
from bottleimp._errors import BottleImpError
from bottleimp.formats._records import record_from_state, record_to_json
from bottleimp.pictures import card_svg, round_svg, scores_svg

SEAT = 0
"""The reader's seat; the bots play every other seat."""

UNWRAPPED = 10_000
"""The story's width in characters: wide enough that no paragraph of it is wrapped."""

PROMPTS = {
    Destination.DEVILS_TRICK: "Lay a card face down in the Devil's Trick.",
    Destination.LEFT: "Pass a card to the player on your left.",
    Destination.RIGHT: "Pass a card to the player on your right.",
    Destination.OPPONENT_FACE_UP: "Give a card to your opponent's face-up row.",
    Destination.OPPONENT_HIDDEN: "Give a card to your opponent's hidden hand.",
}


def bot_names() -> str:
    """The bots the library offers (``bottleimp.bots.BOTS``) but those that need numba
    (``NEEDS_NUMBA``), which Pyodide does not have, as a JSON list."""
    return json.dumps([bot for bot in BOTS if bot not in NEEDS_NUMBA])


class Session:
    """One game: the reader at seat 0, a bot of the chosen kind at each other seat."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.narrator = Narrator()
        self.story: list[str] = []
        self.table_lines: list[int] = []
        self.bots: list[Any] = []
        # One line a paragraph: the page wraps the story to its own width, once (a score table's
        # lines are kept whole, and scroll on a narrow screen).
        self.renderer = PlainRenderer(width=UNWRAPPED)

    # --- what the page calls (JSON in, JSON out) -----------------------------------------

    def start(self, options: str) -> str:
        """A new game from ``bottleimp simulate``'s options (a JSON list of strings); plays
        the bots up to the reader's first turn. A configuration no source defines is refused
        with its rule."""
        words = [str(word) for word in json.loads(options)]
        try:
            args = build_parser().parse_args(["simulate", *words])
            config: Config = config_from_args(args)
        except SystemExit:
            return json.dumps({"error": "options that bottleimp simulate refuses: " + " ".join(words)})
        except BottleImpError as error:
            return json.dumps({"error": str(error), "rule": getattr(error, "rule_id", None)})
        self.bots = [make_bot(args.bot, args.seed * 31 + seat) for seat in range(config.players)]
        self.state = new_game(config, args.seed)
        self.narrator = Narrator()
        self.story, self.table_lines = [], []
        self._tell(self.narrator.start(self.state))
        self._play_bots()
        return self.show()

    def choose(self, rank: str) -> str:
        """The reader plays or gives the card of rank ``rank`` from its hand (or face-up row):
        the legal action with that card, else the refusal of the rules with its rule ID."""
        state = self._state()
        card = self._card(rank)
        if card is None or state.to_act != SEAT:
            return self.show(refused=("TURN-ORDER" if card is not None else "CARD-HELD",
                                      "it is not your turn" if card is not None
                                      else f"you hold no card {rank}"))
        legal = legal_actions(state)
        chosen = next((action for action in legal if getattr(action, "card", None) == card), None)
        if chosen is None:
            attempt: Action = Play(SEAT, card)
            if state.phase is Phase.SETUP:
                to = next((a.to for a in legal if isinstance(a, Give)), Destination.DEVILS_TRICK)
                attempt = Give(SEAT, card, to)
            try:
                apply(state, attempt)
            except IllegalActionError as error:
                return self.show(refused=(error.rule_id, error.message))
            raise AssertionError(f"{attempt} is not legal, yet the rules accepted it")
        self._apply(chosen)
        self._play_bots()
        return self.show()

    def next_round(self) -> str:
        """The next round, once the reader has seen the scores of the last one: dealt by the
        reader or by the bot whose turn it is to deal."""
        state = self._state()
        if state.phase is Phase.ROUND_OVER:
            dealer = state.to_act
            assert dealer is not None
            legal = legal_actions(state)
            self._apply(legal[0] if dealer == SEAT
                        else self.bots[dealer].choose(view(state, dealer), legal))
            self._play_bots()
        return self.show()

    def record(self) -> str:
        """The game's record (``bottleimp-record/1``), as ``bottleimp validate`` reads it."""
        return json.dumps(record_to_json(record_from_state(self._state())), indent=1)

    def show(self, refused: tuple[str, str] | None = None) -> str:
        """What the page draws: the table as the reader sees it, the reader's cards (the legal
        ones marked), what to do, the story so far and the scores."""
        state = self._state()
        seen = view(state, SEAT)
        legal = legal_actions(state) if state.to_act == SEAT else ()
        legal_cards = {getattr(action, "card", None) for action in legal}
        rows = [("hand", seen.hand)]
        if seen.face_up is not None:
            rows.append(("face-up row", seen.face_up[SEAT]))
        gives = [action.to for action in legal if isinstance(action, Give)]
        if state.is_over:
            prompt = "The game is over."
        elif state.phase is Phase.ROUND_OVER:
            prompt = ("The round is over: its scores are below. "
                      + ("Deal the next round." if state.to_act == SEAT
                         else f"Seat {state.to_act} deals the next round."))
        elif state.to_act != SEAT:
            prompt = f"Seat {state.to_act} to act."
        elif gives:
            prompt = PROMPTS[gives[0]]
        else:
            prompt = "Your turn: play a card (the cards you may play are marked)."
        return json.dumps({
            "seat": SEAT,
            "over": state.is_over,
            "phase": state.phase.value,
            "round": state.round.index + 1,
            "prompt": prompt,
            "deal_next": state.phase is Phase.ROUND_OVER,
            "dealer": state.to_act if state.phase is Phase.ROUND_OVER else None,
            "scores": (scores_svg(state)
                       if state.phase in (Phase.ROUND_OVER, Phase.GAME_OVER) else None),
            "cards": [
                {"rank": format_rank(card.rank), "row": row, "legal": card in legal_cards,
                 "label": str(card), "svg": card_svg(card)}
                for row, cards in rows for card in cards
            ],
            "table": round_svg(state, viewer=SEAT),
            "totals": list(state.totals),
            "story": self.story,
            "table_lines": self.table_lines,
            "refused": None if refused is None else {"rule": refused[0], "message": refused[1]},
        })

    # --- the game ------------------------------------------------------------------------

    def _state(self) -> GameState:
        if self.state is None:
            raise RuntimeError("no game: call start first")
        return self.state

    def _card(self, rank: str) -> Card | None:
        seen = view(self._state(), SEAT)
        cards = seen.hand + (seen.face_up[SEAT] if seen.face_up is not None else ())
        return next((card for card in cards if format_rank(card.rank) == rank), None)

    def _apply(self, action: Action) -> None:
        before = self._state()
        legal = legal_actions(before)
        after = apply(before, action)
        self._tell(self.narrator.step(before, action, after, legal))
        if after.is_over:
            self._tell(self.narrator.finish(after))
        self.state = after

    def _play_bots(self) -> None:
        """The bots act until it is the reader's turn, a round is over (the page shows its
        scores, whoever deals next) or the game is."""
        while True:
            state = self._state()
            if state.to_act is None or state.to_act == SEAT or state.phase is Phase.ROUND_OVER:
                return
            seat = state.to_act
            self._apply(self.bots[seat].choose(view(state, seat), legal_actions(state)))

    def _tell(self, blocks: Any) -> None:
        """The narration's blocks added to the story, the lines of score tables marked."""
        for block in blocks:
            lines = self.renderer.lines(block)
            if isinstance(block, ScoreTable):
                self.table_lines += range(len(self.story), len(self.story) + len(lines))
            self.story += lines


session = Session()

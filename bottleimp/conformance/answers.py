"""The peer's answers judged on their own, where they describe no position the rules reach.

When a peer's zones hold a card twice or lose one, the library cannot take its position, yet
each later answer can still be judged by the rules that need no whole position: ``PeerRound``
keeps the round as the peer describes it (its hands, Devil's Trick, bottles and the piles its
trick results give) and asks one rule function for each verdict: the first leader
(FIRST-LEADER), the next seat within a trick (TURN-ORDER), a played or playable card in the hand
the peer described (CARD-HELD), the trick's winner (TRICK-WINNER), the bottle bought
(BOTTLE-PURCHASE), the next leader (NEXT-LEADER), the round's end (ROUND-END), the scores from
the piles and the bottles (SCORE-ROUND) and the next dealer (DEALER-ROTATION).
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen

from ..cards import Card, rank_key
from ..config import Config
from ..errors import UnknownCardError
from ..formats.json_input import JSON
from ..rules.deal import next_dealer
from ..rules.play import (
    bottle_after_purchase,
    buys_bottle,
    captured_by_winner,
    first_leader,
    holds,
    next_leader,
    next_to_play,
    returned_price_card,
    trick_price,
    trick_winner,
)
from ..rules.registry import rule_id_of
from ..rules.scoring import round_is_over, round_scores
from ..state import GameState

__all__ = ["Fault", "PeerRound"]


@frozen
class Fault:
    """One answer of the peer that a rule contradicts, judged with no position: the rule, a
    sentence and what the rule gives beside what the peer said."""

    rule: str
    message: str
    detail: dict[str, JSON]


def _rule(function: Callable[..., object]) -> str:
    found = rule_id_of(function)
    assert found is not None, function
    return found


def _is_rank(value: JSON) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


class PeerRound:
    """A round as the peer's answers describe it (its zones may hold a card twice), judged
    answer by answer with the rule functions."""

    def __init__(self, state: GameState, dealer: int) -> None:
        round_ = state.round
        self.config: Config = state.config
        self.dealer = dealer
        self.hands = [list(hand) for hand in round_.hands]
        self.face_up = None if round_.face_up is None else [list(row) for row in round_.face_up]
        self.devils_trick = list(round_.devils_trick)
        self.bottles = list(round_.bottles)
        self.captured = [list(pile) for pile in round_.captured]
        self.trick = [(play.seat, play.card) for play in state.current_trick()]
        self.to_act: int | None = state.to_act
        self.faults: list[Fault] = []

    # -- reading the peer's answers ------------------------------------------------------------

    def _card(self, value: JSON) -> Card | None:
        if not _is_rank(value):
            return None
        assert isinstance(value, (int, float))
        try:
            return self.config.card(value)
        except UnknownCardError:
            return None

    def _rows(self, value: JSON) -> list[list[Card]] | None:
        if not isinstance(value, list) or len(value) != self.config.players:
            return None
        rows = []
        for row in value:
            cards = [self._card(item) for item in row] if isinstance(row, list) else [None]
            if any(card is None for card in cards):
                return None
            rows.append([card for card in cards if card is not None])
        return rows

    def _fault(self, function: Callable[..., object], message: str, rules_give: JSON,
               peer_says: JSON) -> None:
        self.faults.append(Fault(_rule(function), message,
                                 {"rules_give": rules_give, "peer": peer_says,
                                  "judged_on": "the peer's own answers (no position)"}))

    def take_setup(self, answer: dict[str, JSON]) -> bool:
        """The peer's zones after the last setup, and its first leader (FIRST-LEADER). False
        when they are no card lists (nothing left to judge on)."""
        hands = self._rows(answer.get("hands"))
        trick = self._rows([answer.get("devils_trick")] + [[]] * (self.config.players - 1))
        face_up = None if self.face_up is None else self._rows(answer.get("face_up"))
        if hands is None or trick is None or (self.face_up is not None and face_up is None):
            return False
        self.hands, self.face_up, self.devils_trick = hands, face_up, trick[0]
        leader = first_leader(self.config, self.dealer)
        to_act = answer.get("to_act")
        if to_act != leader:
            self._fault(first_leader, f"the peer names {to_act!r} to lead the first trick; the "
                        f"dealer is seat {self.dealer}, so seat {leader} leads", leader, to_act)
        self.to_act = to_act if isinstance(to_act, int) and not isinstance(to_act, bool) \
            else leader
        return True

    def _held(self, seat: int, card: Card) -> bool:
        face_up = self.face_up[seat] if self.face_up is not None else ()
        return 0 <= seat < self.config.players and holds(self.hands[seat], face_up, card)

    def judge_legal_plays(self, answer: dict[str, JSON]) -> list[Card]:
        """The cards the peer allows that its own hand holds; each other one is a CARD-HELD
        fault."""
        seat = answer.get("seat")
        cards = answer.get("cards")
        if not isinstance(seat, int) or isinstance(seat, bool) or not isinstance(cards, list):
            return []
        allowed = []
        for item in cards:
            card = self._card(item)
            if card is not None and self._held(seat, card):
                allowed.append(card)
            else:
                self._fault(holds, f"the peer lets seat {seat} play {item!r}, which the hand it "
                            f"described for that seat does not hold", False, item)
        return allowed

    def judge_play(self, seat: int, card: Card, answer: dict[str, JSON]) -> None:
        """A play the peer accepted: the next seat within the trick (TURN-ORDER), or the trick's
        result (TRICK-WINNER, BOTTLE-PURCHASE), the next leader (NEXT-LEADER) and the round's end
        (ROUND-END)."""
        row = self.hands[seat] if card in self.hands[seat] or self.face_up is None \
            else self.face_up[seat]
        if card in row:
            row.remove(card)
        self.trick.append((seat, card))
        to_act = answer.get("to_act")
        if len(self.trick) < self.config.trick_size:
            wanted = next_to_play(self.config, seat)
            if to_act != wanted:
                self._fault(next_to_play, f"after seat {seat} plays within the trick the peer "
                            f"gives the turn to {to_act!r}, not seat {wanted}", wanted, to_act)
            self.to_act = wanted
            return
        self._judge_trick(answer.get("trick"), to_act)

    def _judge_trick(self, result: JSON, to_act: JSON) -> None:
        cards = tuple(card for _, card in self.trick)
        seats = [seat for seat, _ in self.trick]
        price, index = trick_price(tuple(self.bottles))
        winning = trick_winner(cards, price)
        winner, card = seats[winning], cards[winning]
        bought = buys_bottle(card, price)
        claimed = result if isinstance(result, dict) else {}
        played = ", ".join(str(c.rank) for c in cards)
        if len(set(cards)) < len(cards):
            pass  # a card played twice: no rule decides between the two copies
        elif (claimed.get("winner"), claimed.get("card")) != (winner, card.rank):
            self._fault(trick_winner, f"the trick {played} against a price of {price} is won by "
                        f"seat {winner} with {card.rank}; the peer says seat "
                        f"{claimed.get('winner')!r} with {claimed.get('card')!r}",
                        {"winner": winner, "card": card.rank},
                        {"winner": claimed.get("winner"), "card": claimed.get("card")})
        elif claimed.get("bottle") != (index if bought else None):
            self._fault(buys_bottle, f"{card.rank} against a price of {price} "
                        f"{'buys' if bought else 'does not buy'} the bottle; the peer says "
                        f"bottle {claimed.get('bottle')!r}", index if bought else None,
                        claimed.get("bottle"))
        # Go on along the peer's own result: its winner, its purchase.
        peer_card = self._card(claimed.get("card"))
        peer_winner = claimed.get("winner")
        if peer_card is None or peer_card not in cards or not isinstance(peer_winner, int) \
                or isinstance(peer_winner, bool) or not 0 <= peer_winner < self.config.players:
            peer_card, peer_winner = card, winner
        peer_index = cards.index(peer_card)
        bottle = claimed.get("bottle")
        peer_bought = isinstance(bottle, int) and not isinstance(bottle, bool) \
            and 0 <= bottle < len(self.bottles)
        self.captured[peer_winner] += captured_by_winner(cards, peer_index, peer_bought)
        if peer_bought:
            assert isinstance(bottle, int)
            returned = returned_price_card(self.bottles[bottle])
            if returned is not None:
                self.captured[returned[0]].append(returned[1])
            self.bottles[bottle] = bottle_after_purchase(peer_winner, peer_card)
        self.trick = []
        over = round_is_over(self.hands, self.face_up)
        if over != (to_act is None):
            self._fault(round_is_over, "the peer ends the round where cards remain" if not over
                        else "the peer goes on where every card has been played", over,
                        to_act)
        elif not over:
            leader = next_leader(peer_winner)
            if to_act != leader:
                self._fault(next_leader, f"seat {peer_winner} won the trick (the peer's own "
                            f"result), so it leads the next one; the peer names {to_act!r}",
                            leader, to_act)
        self.to_act = None if over else next_leader(peer_winner)

    def judge_scores(self, answer: dict[str, JSON]) -> None:
        """The round's scores from the piles the peer's trick results give and the bottles it
        named (SCORE-ROUND)."""
        piles = tuple(tuple(sorted(pile, key=rank_key)) for pile in self.captured)
        wanted = round_scores(self.config, piles, tuple(self.bottles),
                              tuple(sorted(self.devils_trick, key=rank_key)))
        scores = answer.get("scores")
        if scores != list(wanted):
            owners = [bottle.owner for bottle in self.bottles]
            self._fault(round_scores, f"with the piles its own trick results give and the "
                        f"bottles owned by {owners}, the scores are {list(wanted)}; the peer "
                        f"says {scores!r}", list(wanted), scores)

    def judge_end_round(self, answer: dict[str, JSON]) -> None:
        """The next dealer, one seat clockwise from the dealer of the round the peer played
        (DEALER-ROTATION)."""
        if answer.get("game_over") is not False:
            return
        wanted = next_dealer(self.config, self.dealer)
        if answer.get("dealer") != wanted:
            self._fault(next_dealer, f"seat {self.dealer} dealt this round, so seat {wanted} "
                        f"deals the next; the peer names {answer.get('dealer')!r}", wanted,
                        answer.get("dealer"))

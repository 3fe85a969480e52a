"""The library put into the position a peer's answers describe, so that a game goes on along
the peer's own trajectory after a disagreement (for a peer that cannot be sent the library's
position with ``set_position``).

``follow_peer`` takes the library's state before a request and after it, and the peer's
answer: after the last setup, the peer's hands, face-up cards, Devil's Trick and first leader;
after a trick, the peer's winner, bottle bought, bottles and next leader (the captured piles
follow from them); after ``scores``, the peer's scores (and so its totals). It returns the
library's state moved there, or the reason the answers fix no position of the rules (``Lost``):
a card duplicated or lost, a hand of the wrong size, a turn given within a trick to a seat that
has played, a trick result no trick can have.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from attrs import evolve, frozen

from ..cards import Card, rank_key
from ..config import Config
from ..errors import ArgumentError
from ..formats.json_input import JSON
from ..rules.scoring import round_scores
from ..state import Bottle, GameState, Phase, TrickResult

__all__ = ["Lost", "follow_peer", "follow_scores"]


@frozen
class Lost:
    """Why the peer's answers fix no position the library can take: what could not be
    compared from there on, and why."""

    reason: str


def _seat(config: Config, value: JSON) -> int | None:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < config.players:
        return None
    return value


def _rows(config: Config, value: JSON, what: str) -> tuple[tuple[Card, ...], ...] | Lost:
    """A card list per seat from the peer's answer, sorted as the library keeps hands."""
    if not isinstance(value, list) or len(value) != config.players:
        return Lost(f"the peer's {what} are not one card list per seat")
    rows = []
    for row in value:
        if not isinstance(row, list):
            return Lost(f"the peer's {what} are not one card list per seat")
        cards = []
        for item in row:
            if isinstance(item, bool) or not isinstance(item, (int, float)):
                return Lost(f"the peer's {what} hold {item!r}, which is no card")
            try:
                cards.append(config.card(item))
            except ArgumentError:
                return Lost(f"the peer's {what} hold {item}, which is no card of the deck")
        rows.append(tuple(sorted(cards, key=rank_key)))
    return tuple(rows)


def _same_cards(mine: Sequence[Card], theirs: Sequence[Card], what: str) -> Lost | None:
    """The peer's zones must hold the library's cards, each once."""
    extra = Counter(theirs) - Counter(mine)
    missing = Counter(mine) - Counter(theirs)
    if not extra and not missing:
        return None
    parts = []
    if extra:
        parts.append("hold " + ", ".join(str(card.rank) for card in sorted(extra, key=rank_key))
                     + " more often than the deal has it")
    if missing:
        parts.append("lack " + ", ".join(str(card.rank) for card in sorted(missing, key=rank_key)))
    return Lost(f"the peer's {what} {' and '.join(parts)}: no position of the rules has them")


def follow_peer(before: GameState, after: GameState, request: dict[str, JSON],
                answer: dict[str, JSON]) -> GameState | Lost:
    """The library's state ``after`` (its answer to ``request``, made in ``before``) moved to the
    position the peer's ``answer`` describes, or why it cannot be."""
    op = request.get("op")
    if answer.get("ok") is False:
        # A refused request changes nothing: the peer is where the library was before it.
        return before
    if op == "setup" and after.phase is Phase.PLAY:
        return _after_setup(after, answer)
    if op == "setup":
        return Lost("the library takes the setups one seat after another, clockwise from the "
                    f"dealer's left (a convention); the peer names seat {answer.get('to_act')} "
                    "next, an order the library cannot follow")
    if op == "play":
        return _after_play(before, after, request, answer)
    return Lost(f"after a disagreement on {op}, the peer's answer does not say where its round "
                "stands")


def _after_setup(after: GameState, answer: dict[str, JSON]) -> GameState | Lost:
    config = after.config
    round_ = after.round
    if "hands" not in answer:
        return Lost("the peer goes on with the setup where every seat has given it")
    hands = _rows(config, answer.get("hands"), "hands after the setup")
    if isinstance(hands, Lost):
        return hands
    face_up: tuple[tuple[Card, ...], ...] | None = None
    if round_.face_up is not None:
        rows = _rows(config, answer.get("face_up"), "face-up cards after the setup")
        if isinstance(rows, Lost):
            return rows
        face_up = rows
    trick = _rows(config, [answer.get("devils_trick")] + [[]] * (config.players - 1),
                  "Devil's Trick")
    if isinstance(trick, Lost):
        return trick
    devils_trick = trick[0]
    mine = [c for h in round_.hands for c in h] + [c for r in round_.face_up or () for c in r] \
        + list(round_.devils_trick)
    theirs = [c for h in hands for c in h] + [c for r in face_up or () for c in r] \
        + list(devils_trick)
    lost = _same_cards(mine, theirs, "zones after the setup")
    if lost is not None:
        return lost
    for seat in range(config.players):
        held = len(round_.hands[seat]) + (len(round_.face_up[seat]) if round_.face_up else 0)
        theirs_held = len(hands[seat]) + (len(face_up[seat]) if face_up else 0)
        if held != theirs_held:
            return Lost(f"the peer leaves seat {seat} {theirs_held} cards after the setup, where "
                        f"every trick needs {held}")
    if len(devils_trick) != len(round_.devils_trick):
        return Lost(f"the peer's Devil's Trick holds {len(devils_trick)} cards, not "
                    f"{len(round_.devils_trick)}")
    leader = _seat(config, answer.get("to_act"))
    if leader is None:
        return Lost(f"the peer names {answer.get('to_act')!r} to lead the first trick, which is "
                    "no seat")
    followed = evolve(round_, hands=hands, face_up=face_up, devils_trick=devils_trick,
                      leader=leader)
    return evolve(after, round=followed, to_act=leader)


def _after_play(before: GameState, after: GameState, request: dict[str, JSON],
                answer: dict[str, JSON]) -> GameState | Lost:
    config = after.config
    completed = len(after.round.tricks) > len(before.round.tricks)
    result = answer.get("trick")
    if not completed:
        if result is not None:
            return Lost("the peer ends a trick before every seat has played to it")
        seat = _seat(config, answer.get("to_act"))
        played = {play.seat for play in after.current_trick()}
        if seat is None or seat in played:
            return Lost(f"the peer gives the next play of the trick to {answer.get('to_act')!r}, "
                        "a seat that has played to it or no seat: no trick is played so")
        return evolve(after, to_act=seat)
    if not isinstance(result, dict):
        return Lost("the peer's answer completes no trick where every seat has played to it")
    return _trick_result(before, after, result, answer.get("to_act"))


def _trick_result(before: GameState, after: GameState, result: dict[str, JSON],
                  to_act: JSON) -> GameState | Lost:
    config = after.config
    old = before.round
    done = after.round.tricks[-1]
    plays = done.plays
    by_rank = {play.card.rank: play for play in plays}
    card = result.get("card")
    winner = _seat(config, result.get("winner"))
    if isinstance(card, bool) or not isinstance(card, (int, float)) or card not in by_rank:
        return Lost(f"the peer's winning card {card!r} was not played to the trick")
    if winner is None or by_rank[card].seat != winner:
        return Lost(f"the peer's trick winner {result.get('winner')!r} did not play its winning "
                    f"card {card}")
    winning = by_rank[card].card
    bottle = result.get("bottle")
    bottles = list(old.bottles)
    captured = [list(pile) for pile in old.captured]
    taken = [play.card for play in plays]
    if bottle is not None:
        if isinstance(bottle, bool) or not isinstance(bottle, int) \
                or not 0 <= bottle < len(bottles):
            return Lost(f"the peer buys bottle {bottle!r}, which the game lacks")
        previous = bottles[bottle]
        if previous.price_card is not None and previous.owner is not None:
            captured[previous.owner].append(previous.price_card)
        bottles[bottle] = Bottle(winning, winner)
        taken.remove(winning)
    claimed = result.get("bottles")
    wanted = [{"price": b.price, "owner": b.owner} for b in bottles]
    if claimed != wanted:
        return Lost(f"the peer's bottles after the trick, {claimed!r}, are not the ones its "
                    f"winner and bottle make ({wanted!r})")
    captured[winner].extend(taken)
    piles = tuple(tuple(sorted(pile, key=rank_key)) for pile in captured)
    over = after.phase is not Phase.PLAY
    if over != (to_act is None):
        return Lost("the peer ends the round where cards remain, or goes on where none do")
    leader = winner if over else _seat(config, to_act)
    if leader is None:
        return Lost(f"the peer names {to_act!r} to lead the next trick, which is no seat")
    trick = TrickResult(plays, winner, winning, bottle, done.price_before,
                        winning.rank if bottle is not None else done.price_after)
    scores = round_scores(config, piles, tuple(bottles), old.devils_trick) if over else None
    round_ = evolve(after.round, leader=leader, bottles=tuple(bottles), captured=piles,
                    tricks=after.round.tricks[:-1] + (trick,), scores=scores)
    totals = before.totals if scores is None else tuple(
        total + score for total, score in zip(before.totals, scores))
    return evolve(after, round=round_, to_act=None if over else leader, totals=totals)


def follow_scores(state: GameState, answer: dict[str, JSON]) -> GameState | Lost:
    """``state`` (a round that is over) with the peer's scores, so that its totals, and the game's
    end they decide, follow the peer's."""
    scores = answer.get("scores")
    chosen = tuple(s for s in scores if isinstance(s, int) and not isinstance(s, bool)) \
        if isinstance(scores, list) else ()
    if not isinstance(scores, list) or len(chosen) != len(scores) \
            or len(chosen) != state.config.players:
        return Lost("the peer's scores are not one whole number per seat")
    before = tuple(t - s for t, s in zip(state.totals, state.round.scores or ()))
    return evolve(state, round=evolve(state.round, scores=chosen),
                  totals=tuple(t + s for t, s in zip(before, chosen)))

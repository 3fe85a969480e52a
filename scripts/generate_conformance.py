#!/usr/bin/env python3
"""Write the generated conformance cases: ``spec/conformance/<kind>/generated.json``.

Plays seeded random games (random legal actions from ``random.Random(seed)``) in every variant
and writes, from what the engine did in them:

- ``trick``: every trick of the first round (bottles before, cards in play order -> result);
- ``legal_plays``: every third decision of the first round's trick play (hand, face-up cards,
  trick so far -> legal cards), trying one card that breaks the follow rule if the seat holds
  one, and one card the seat does not hold;
- ``setup``: the deal and setup of the first two rounds -> hands after the passes, Devil's
  Trick, first leader;
- ``scoring``: the end of the first two rounds -> scores;
- ``record``: each game's first two rounds as a record (valid), and copies with one fault
  planted (an illegal play, a wrong claimed score) -> the validator's verdict.

Running it twice writes identical files; ``tests/test_conformance_vectors.py`` fails when the
files on disk differ from what it writes. Usage: ``python scripts/generate_conformance.py``
(``--check`` reports stale files and exits 1 instead of writing).
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from pathlib import Path
from typing import Final

from bottleimp import Config, GameState, Give, Phase, Play, apply, legal_actions, new_game
from bottleimp._actions import Destination
from bottleimp._cards import Card, rank_key
from bottleimp.conformance._vectors import trick_outcome
from bottleimp.formats._cases import bottles_to_json, ranks
from bottleimp.formats._cases import CONFORMANCE_FORMAT, format_case_file
from bottleimp._engine import check_action
from bottleimp._errors import IllegalActionError
from bottleimp.formats._config_json import config_to_json
from bottleimp.formats._json_input import JSON
from bottleimp.formats._records import record_from_state, record_to_json
from bottleimp.rules.scoring import round_scores
from bottleimp._state import RoundState

ROOT: Final = Path(__file__).resolve().parent.parent
SUITE: Final = ROOT / "spec" / "conformance"
GENERATED_BY: Final = "scripts/generate_conformance.py"

VARIANTS: Final[tuple[tuple[str, Config, int], ...]] = (
    ("classic, 2 players (Devil's Eye)", Config(players=2, edition="classic"), 101),
    ("classic, 3 players", Config(players=3, edition="classic"), 102),
    ("classic, 4 players", Config(players=4, edition="classic"), 103),
    ("matagot-2024, 2 players (Devil's Eye)", Config(players=2, edition="matagot-2024"), 104),
    ("matagot-2024, 3 players", Config(players=3, edition="matagot-2024"), 105),
    ("matagot-2024, 4 players", Config(players=4, edition="matagot-2024"), 106),
    ("matagot-2024, 5 players", Config(players=5, edition="matagot-2024"), 107),
    ("matagot-2024, 6 players", Config(players=6, edition="matagot-2024"), 108),
    ("matagot-2024, 5 players, two bottles",
     Config(players=5, edition="matagot-2024", bottles=2), 109),
    ("matagot-2024, 6 players, two bottles",
     Config(players=6, edition="matagot-2024", bottles=2), 110),
    ("classic, 4 players, teams {0,2} {1,3}",
     Config(players=4, edition="classic", teams=((0, 2), (1, 3))), 111),
    ("classic, 4 players, teams {0,1} {2} {3}",
     Config(players=4, edition="classic", teams=((0, 1), (2,), (3,))), 112),
    ("matagot-2024, 5 players, teams {0,3} {1,4} {2}",
     Config(players=5, edition="matagot-2024", teams=((0, 3), (1, 4), (2,))), 113),
    ("matagot-2024, 6 players, teams {0,3} {1,4} {2,5}",
     Config(players=6, edition="matagot-2024", teams=((0, 3), (1, 4), (2, 5))), 114),
)
"""Every variant: a description, its configuration and the seed of its game."""

ROUNDS: Final = 2
"""Rounds played per game."""

DESCRIPTIONS: Final = {
    "trick": "Generated from seeded random games: every trick of each game's first round.",
    "legal_plays": "Generated from seeded random games: every third decision of each game's "
    "first round, with a card that breaks the follow rule and a card not held where possible.",
    "setup": "Generated from seeded random games: the deal and setup of each game's first two "
    "rounds.",
    "scoring": "Generated from seeded random games: the end of each game's first two rounds.",
    "record": "Generated from seeded random games: the first two rounds of each game as a "
    "record, which the validator accepts.",
    "record-faults": "Generated from seeded random games: copies of each game's record with one "
    "fault planted; the expected verdict is the fault planted.",
}


def _config_json(config: Config) -> dict[str, JSON]:
    data = config_to_json(config)
    return {key: data[key] for key in ("edition", "players", "bottles", "teams")}


def _setup_entry(config: Config, gives: tuple[Give, ...]) -> dict[str, JSON]:
    entry: dict[str, JSON] = {
        "discard": [g.card.rank for g in gives if g.to is Destination.DEVILS_TRICK]
    }
    names = {
        Destination.LEFT: "left",
        Destination.RIGHT: "right",
        Destination.OPPONENT_FACE_UP: "to_face_up",
        Destination.OPPONENT_HIDDEN: "to_hidden",
    }
    for give in gives:
        if give.to in names:
            entry[names[give.to]] = give.card.rank
    return entry


class _Game:
    """One seeded random game, with the cases taken from it as it is played."""

    def __init__(self, config: Config, seed: int) -> None:
        self.config = config
        self.random = random.Random(seed)
        self.state = new_game(config, seed)
        self.tricks: list[JSON] = []
        self.legal: list[JSON] = []
        self.setups: list[JSON] = []
        self.scorings: list[JSON] = []
        self.decisions = 0
        self.first_round_plays: list[tuple[GameState, Play]] = []
        """Every play of the first round with the state it was played in."""

    def play(self, rounds: int) -> GameState:
        """Play ``rounds`` rounds (or to the end of the game), collecting cases."""
        while not self.state.is_over and len(self.state.past_rounds) < rounds:
            if self.state.phase is Phase.ROUND_OVER:
                if len(self.state.past_rounds) + 1 == rounds:
                    break
            self._step()
        return self.state

    def _step(self) -> None:
        state = self.state
        first_round = not state.past_rounds
        if state.phase is Phase.PLAY and first_round:
            self.decisions += 1
            if self.decisions % 3 == 1:
                self.legal.append(self._legal_case(state))
        action = self.random.choice(legal_actions(state))
        if isinstance(action, Play) and first_round:
            self.first_round_plays.append((state, action))
        after = apply(state, action)
        if state.phase is Phase.SETUP and after.phase is Phase.PLAY:
            self.setups.append(self._setup_case(after))
        if isinstance(action, Play) and len(after.round.tricks) > len(state.round.tricks):
            if first_round:
                self.tricks.append(self._trick_case(state, after))
            if after.round.scores is not None:
                self.scorings.append(self._scoring_case(after.round))
        self.state = after

    def _legal_case(self, state: GameState) -> JSON:
        seat = state.to_act
        assert seat is not None
        round_ = state.round
        hand = round_.hands[seat]
        face_up = round_.face_up[seat] if round_.face_up is not None else ()
        legal = [a.card for a in legal_actions(state) if isinstance(a, Play)]
        attempts: list[Card] = []
        refused = [card for card in sorted(hand + face_up, key=rank_key) if card not in legal]
        if refused:
            attempts.append(self.random.choice(refused))
        others = [card for s, h in enumerate(round_.hands) if s != seat for card in h]
        if others:
            attempts.append(self.random.choice(sorted(others, key=rank_key)))
        rules: list[JSON] = []
        for card in attempts:
            try:
                check_action(state, Play(seat, card))
            except IllegalActionError as error:
                rules.append(error.rule_id)
            else:
                rules.append(None)
        input_: dict[str, JSON] = {"seat": seat, "hand": ranks(hand)}
        if round_.face_up is not None:
            input_["face_up"] = ranks(face_up)
        input_["trick"] = [[p.seat, p.card.rank] for p in state.current_trick()]
        input_["attempts"] = [card.rank for card in attempts]
        led = "leads" if not state.current_trick() else f"plays card {len(state.current_trick()) + 1}"
        return {
            "description": f"round 1, seat {seat} {led} of trick {len(round_.tricks) + 1}",
            "rules": ["FOLLOW-SUIT" if round_.face_up is None else "EYE-FOLLOW-SUIT", "CARD-HELD"],
            "input": input_,
            "expected": {"legal": ranks(legal), "attempts": rules},
        }

    def _trick_case(self, before: GameState, after: GameState) -> JSON:
        result = after.round.tricks[-1]
        bottles_before = before.round.bottles
        return {
            "description": f"round 1, trick {len(after.round.tricks)}",
            "rules": ["TRICK-PRICE", "TRICK-WINNER", "BOTTLE-PURCHASE", "PRICE-CARD-RETURN",
                      "TRICK-CAPTURE"],
            "input": {
                "bottles": bottles_to_json(bottles_before),
                "trick": [[p.seat, p.card.rank] for p in result.plays],
            },
            "expected": trick_outcome(bottles_before, before.round.captured, after.round),
        }

    def _setup_case(self, after: GameState) -> JSON:
        round_ = after.round
        input_: dict[str, JSON] = {"dealer": round_.dealer,
                                   "hands": [ranks(h) for h in round_.dealt]}
        if round_.dealt_face_up is not None:
            input_["face_up"] = [ranks(f) for f in round_.dealt_face_up]
        input_["setup"] = [_setup_entry(self.config, gives) for gives in round_.setup]
        return {
            "description": f"round {round_.index + 1}, dealer {round_.dealer}",
            "rules": ["SETUP-STEPS", "SETUP-RESOLVE", "FIRST-LEADER"],
            "input": input_,
            "expected": {
                "hands": [ranks(h) for h in round_.hands],
                "face_up": None if round_.face_up is None else [ranks(f) for f in round_.face_up],
                "devils_trick": ranks(round_.devils_trick),
                "leader": after.to_act,
            },
        }

    def _scoring_case(self, round_: RoundState) -> JSON:
        assert round_.scores is not None
        return {
            "description": f"the end of round {round_.index + 1}",
            "rules": ["SCORE-ROUND"],
            "input": {
                "captured": [ranks(pile) for pile in round_.captured],
                "bottles": bottles_to_json(round_.bottles),
                "devils_trick": ranks(round_.devils_trick),
            },
            "expected": {"scores": list(round_.scores)},
        }


def _broken(rule: str, round_: int | None, play: int | None, seat: int | None) -> JSON:
    return {"verdict": "broken", "rule": rule, "round": round_, "play": play, "seat": seat}


def _record_cases(game: _Game) -> tuple[list[JSON], list[JSON]]:
    """The game as a valid record, and copies of it with one fault planted each; the expected
    verdict of each copy is the fault planted, found by nothing but the planting."""
    state = game.state
    config = state.config
    record = record_to_json(record_from_state(state))
    valid: list[JSON] = [{
        "description": f"{len(state.rounds)} complete rounds with their scores and totals",
        "rules": ["SCORE-ROUND", "GAME-TOTALS"],
        "input": {"record": record},
        "expected": {"verdict": "valid"},
    }]
    faults: list[JSON] = []

    def planted(description: str, rules: list[str], change: dict[str, JSON], expected: JSON,
                bug: str | None = None) -> None:
        copied = copy.deepcopy(record)
        assert isinstance(copied, dict)
        for path, value in change.items():
            target: JSON = copied
            *steps, last = path.split("/")
            for step in steps:
                if isinstance(target, list):
                    target = target[int(step)]
                elif isinstance(target, dict):
                    target = target[step]
            if isinstance(target, list):
                target[int(last)] = value
            else:
                assert isinstance(target, dict)
                target[last] = value
        case: dict[str, JSON] = {"description": description, "rules": list(rules)}
        if bug is not None:
            case["bug"] = bug
        case.update({"input": {"record": copied}, "expected": expected})
        faults.append(case)

    first = state.rounds[0]
    players = config.players
    start, _ = game.first_round_plays[0]
    dealer = first.dealer
    dealer_cards = start.round.hands[dealer] + (start.round.face_up[dealer] if start.round.face_up else ())
    planted(
        f"the dealer, seat {dealer}, leads the first trick instead of seat "
        f"{(dealer + 1) % players} on its left",
        ["FIRST-LEADER", "TURN-ORDER"],
        {"rounds/0/plays/0": [dealer, dealer_cards[0].rank]},
        _broken("TURN-ORDER", 0, 0, dealer),
        bug="seat 0 always leads the first trick (HEK)",
    )
    for index, (before, play) in enumerate(game.first_round_plays):
        legal = {a.card for a in legal_actions(before) if isinstance(a, Play)}
        held = before.round.hands[play.seat] + (
            before.round.face_up[play.seat] if before.round.face_up else ())
        refused = sorted((c for c in held if c not in legal), key=rank_key)
        if refused:
            rule = "EYE-FOLLOW-SUIT" if config.devils_eye else "FOLLOW-SUIT"
            planted(
                f"play {index}: seat {play.seat} plays {refused[0].rank}, which does not follow "
                "the led colour though it could",
                [rule], {f"rounds/0/plays/{index}": [play.seat, refused[0].rank]},
                _broken(rule, 0, index, play.seat),
            )
            break
    index = min(5, len(game.first_round_plays) - 1)
    before, play = game.first_round_plays[index]
    elsewhere = sorted((c for s, h in enumerate(before.round.hands) if s != play.seat for c in h),
                       key=rank_key)
    planted(
        f"play {index}: seat {play.seat} plays {elsewhere[0].rank}, which another seat holds",
        ["CARD-HELD"], {f"rounds/0/plays/{index}": [play.seat, elsewhere[0].rank]},
        _broken("CARD-HELD", 0, index, play.seat),
    )
    setup_seat = (dealer + 1) % players
    pass_key = "to_face_up" if config.devils_eye else "left"
    not_dealt = first.dealt[(setup_seat + 1) % players][0]
    planted(
        f"seat {setup_seat} passes {not_dealt.rank}, a card it was not dealt",
        ["SETUP-FROM-DEALT"], {f"rounds/0/setup/{setup_seat}/{pass_key}": not_dealt.rank},
        _broken("SETUP-FROM-DEALT", 0, None, setup_seat),
    )
    scores = first.scores
    assert scores is not None
    planted(
        "round 1 claims one point too many for seat 0",
        ["SCORE-ROUND"], {"rounds/0/scores/0": scores[0] + 1},
        _broken("SCORE-ROUND", 0, None, 0),
    )
    owners = sorted({b.owner for b in first.bottles if b.owner is not None})
    if owners and config.teams is None and len(first.devils_trick) > 1:
        # The Devil's Trick "summed" with = : only the last card counts.
        last_only = (first.devils_trick[-1],)
        wrong = round_scores(config, first.captured, first.bottles, last_only)
        planted(
            "round 1 claims the owner's penalty as the coins of the last card of the Devil's "
            "Trick only",
            ["SCORE-BOTTLE-PENALTY", "SCORE-ROUND"], {"rounds/0/scores": list(wrong)},
            _broken("SCORE-ROUND", 0, None, owners[0]),
            bug="Devil's Trick summed with = instead of += (BGA bug #125174)",
        )
    totals = state.totals
    planted(
        f"the totals claim one point too few for seat {players - 1}",
        ["GAME-TOTALS"], {f"totals/{players - 1}": totals[players - 1] - 1},
        _broken("GAME-TOTALS", None, None, players - 1),
    )
    planted(
        f"round 2 is dealt by seat {dealer} again instead of seat {(dealer + 1) % players}",
        ["DEALER-ROTATION"], {"rounds/1/dealer": dealer},
        _broken("DEALER-ROTATION", 1, None, dealer),
    )
    return valid, faults


def _file(kind: str, groups: list[JSON], description: str | None = None) -> str:
    return format_case_file(
        {
            "format": CONFORMANCE_FORMAT,
            "kind": kind,
            "description": description or DESCRIPTIONS[kind],
            "generated_by": GENERATED_BY,
            "groups": groups,
        }
    )


def generate() -> dict[str, str]:
    """Every generated case file, by path relative to ``spec/conformance``, as its text."""
    groups: dict[str, list[JSON]] = {kind: [] for kind in ("trick", "legal_plays", "setup",
                                                           "scoring")}
    records: list[JSON] = []
    faults: list[JSON] = []
    for description, config, seed in VARIANTS:
        game = _Game(config, seed)
        game.play(ROUNDS)
        valid, planted = _record_cases(game)
        for kind, cases in (("trick", game.tricks), ("legal_plays", game.legal),
                            ("setup", game.setups), ("scoring", game.scorings),
                            ("record", valid), ("record-faults", planted)):
            group: JSON = {
                "description": f"{description}, game seed {seed}",
                "config": _config_json(config),
                "cases": cases,
            }
            if kind == "record":
                records.append(group)
            elif kind == "record-faults":
                faults.append(group)
            else:
                groups[kind].append(group)
    files = {f"{kind}/generated.json": _file(kind, kind_groups)
             for kind, kind_groups in groups.items()}
    files["record/generated.json"] = _file("record", records)
    files["record/generated-faults.json"] = _file("record", faults, DESCRIPTIONS["record-faults"])
    return files


def main(argv: list[str] | None = None) -> int:
    """Write (or with ``--check`` compare) the generated files; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true",
                        help="report generated files that are out of date instead of writing")
    args = parser.parse_args(argv)
    stale = 0
    for relative, text in generate().items():
        path = SUITE / relative
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        if args.check:
            print(f"out of date: {path.relative_to(ROOT)}")
            stale += 1
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())

"""Regenerate the record fixtures in this folder: ``python tests/data/records/regenerate.py``.

- ``valid/``: records of seeded random games (every action drawn from the legal ones), complete
  or cut, of every variant; each carries ``"_expected": {"status": 0, ...}``.
  A valid record that departs from a convention of the library (``kind = "convention"`` in
  ``spec/rules.toml``) carries ``"_expected": {"status": 0, "notes": [RULE, ...]}``.
- ``broken/``: one valid record mutated to break one rule; ``_expected`` names the status (1),
  the rule, round, play, seat and JSON path, all known from how the mutation was made.
- ``unreadable/``: texts that are not readable records; ``expected.tsv`` gives, per file name,
  the JSON path its refusal names.

Readers ignore ``_``-prefixed keys, so the expectations can live inside the records.
"""

from __future__ import annotations

import copy
import sys
from collections.abc import Callable
from pathlib import Path

from bottleimp import Config
from bottleimp.formats._records import dumps_record, parse_record

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))  # the tests folder, for its seeded games

from games import Doc, doc_of, random_game  # noqa: E402


CLASSIC_4 = Config(players=4)
VALID: dict[str, tuple[Config, int, int | None]] = {
    "classic-3p-first-dealer-seat-2": (Config(players=3), 12, None),
    "classic-2p-devils-eye": (Config(players=2), 1, None),
    "classic-3p": (Config(players=3), 2, None),
    "classic-4p": (CLASSIC_4, 3, None),
    "matagot-4p-target-score-60": (Config(players=4, edition="matagot-2024", target_score=60), 4, None),
    "matagot-5p-second-bottle": (Config(players=5, edition="matagot-2024", bottles=2), 5, None),
    "matagot-6p-teams": (
        Config(players=6, edition="matagot-2024", teams=((0, 3), (1, 4), (2, 5))), 6, None
    ),
    "matagot-5p-teams-with-a-single": (
        Config(players=5, edition="matagot-2024", teams=((0, 3), (1, 4), (2,))), 7, None
    ),
    "partial-4p-mid-setup": (CLASSIC_4, 8, 5),
    "partial-2p-mid-trick": (Config(players=2), 9, 30),
    "partial-5p-between-rounds": (Config(players=5, edition="matagot-2024"), 10, 96),
    "partial-3p-no-action-yet": (Config(players=3), 11, 0),
}


def expected(status: int, rule: str | None = None, round_: int | None = None,
             play: int | None = None, seat: int | None = None, path: str | None = None) -> Doc:
    result: Doc = {"status": status}
    if status:
        result.update(rule=rule, round=round_, play=play, seat=seat, path=path)
    return result


def _base() -> Doc:
    return doc_of(random_game(CLASSIC_4, 3))


def deal_card_too_many() -> tuple[Doc, Doc]:
    doc = _base()
    doc["rounds"][2]["hands"][1].append(doc["rounds"][2]["hands"][0].pop())
    return doc, expected(1, "DEAL-COUNTS", 2, None, None, "$.rounds[2].hands")


def deal_unknown_card() -> tuple[Doc, Doc]:
    doc = _base()
    doc["rounds"][0]["hands"][3][2] = 38
    return doc, expected(1, "DEAL-COUNTS", 0, None, 3, "$.rounds[0].hands[3][2]")


def dealer_rotation() -> tuple[Doc, Doc]:
    doc = _base()
    doc["rounds"][4]["dealer"] = 2
    return doc, expected(1, "DEALER-ROTATION", 4, None, 2, "$.rounds[4].dealer")


def game_over() -> tuple[Doc, Doc]:
    doc = _base()
    extra = copy.deepcopy(doc["rounds"][0])
    doc["rounds"].append(extra)
    return doc, expected(1, "GAME-OVER", 8, None, 0, "$.rounds[8].dealer")


def setup_from_dealt() -> tuple[Doc, Doc]:
    doc = _base()
    round_ = doc["rounds"][0]
    round_["setup"][2]["right"] = round_["hands"][3][0]
    return doc, expected(1, "SETUP-FROM-DEALT", 0, None, 2, "$.rounds[0].setup[2].right")


def setup_steps() -> tuple[Doc, Doc]:
    doc = _base()
    doc["rounds"][0]["setup"][1]["discard"] = []
    return doc, expected(1, "SETUP-STEPS", 0, None, 1, "$.rounds[0].setup[1].left")


def setups_in_another_order() -> tuple[Doc, Doc]:
    # Seat 2 has given cards while seat 1 has not completed its setup: the library takes the
    # setups clockwise from the dealer's left, a convention (the sources: all at once).
    doc = doc_of(random_game(CLASSIC_4, 8, 5))
    del doc["rounds"][0]["setup"][1]["right"]
    return doc, {**expected(0), "notes": ["SETUP-ORDER"]}


def turn_order() -> tuple[Doc, Doc]:
    doc = _base()
    plays = doc["rounds"][1]["plays"]
    plays[4], plays[5] = plays[5], plays[4]
    return doc, expected(1, "TURN-ORDER", 1, 4, plays[4][0], "$.rounds[1].plays[4]")


def card_held() -> tuple[Doc, Doc]:
    doc = _base()
    plays = doc["rounds"][0]["plays"]
    plays[0][1] = plays[1][1]
    return doc, expected(1, "CARD-HELD", 0, 0, plays[0][0], "$.rounds[0].plays[0]")


def _revoke(config: Config, seed: int, face_up_only: bool) -> tuple[Doc, int, int]:
    """The record of the seeded game with the cards of two plays of one seat in round 0
    exchanged, so that the earlier one is of another colour while the seat holds the led colour
    (in its face-up cards when ``face_up_only``). The states come from replaying the game."""
    doc = doc_of(random_game(config, seed))
    gives = sum(len(entry["discard"]) + len(entry) - 1 for entry in doc["rounds"][0]["setup"])
    deck = {card.rank: card for card in config.cards}
    plays = doc["rounds"][0]["plays"]
    for i, (seat, rank) in enumerate(plays):
        state = random_game(config, seed, gives + i)
        assert state.to_act == seat
        trick = state.current_trick()
        if not trick:
            continue
        led = trick[0].card.colour
        face_up = state.round.face_up
        pool = face_up[seat] if face_up_only and face_up is not None else state.round.hands[seat]
        if not any(card.colour is led for card in pool):
            continue
        for j in range(i + 1, len(plays)):
            other = deck[plays[j][1]]
            if plays[j][0] == seat and other.colour is not led and other in pool:
                plays[i][1], plays[j][1] = plays[j][1], rank
                return doc, i, seat
    raise AssertionError("no revoke can be made in round 0")


def follow_suit() -> tuple[Doc, Doc]:
    doc, play, seat = _revoke(CLASSIC_4, 3, face_up_only=False)
    return doc, expected(1, "FOLLOW-SUIT", 0, play, seat, f"$.rounds[0].plays[{play}]")


def eye_follow_suit() -> tuple[Doc, Doc]:
    doc, play, seat = _revoke(Config(players=2), 1, face_up_only=True)
    return doc, expected(1, "EYE-FOLLOW-SUIT", 0, play, seat, f"$.rounds[0].plays[{play}]")


def round_end() -> tuple[Doc, Doc]:
    doc = _base()
    plays = doc["rounds"][0]["plays"]
    plays.append(list(plays[0]))
    return doc, expected(1, "ROUND-END", 0, 32, plays[0][0], "$.rounds[0].plays[32]")


def score_round() -> tuple[Doc, Doc]:
    doc = _base()
    doc["rounds"][6]["scores"][1] -= 3
    return doc, expected(1, "SCORE-ROUND", 6, None, 1, "$.rounds[6].scores[1]")


def game_totals() -> tuple[Doc, Doc]:
    doc = _base()
    doc["totals"][0] += 10
    return doc, expected(1, "GAME-TOTALS", None, None, 0, "$.totals[0]")


BROKEN: dict[str, Callable[[], tuple[Doc, Doc]]] = {
    "deal-counts-card-too-many": deal_card_too_many,
    "deal-counts-unknown-card": deal_unknown_card,
    "dealer-rotation": dealer_rotation,
    "game-over": game_over,
    "setup-from-dealt": setup_from_dealt,
    "setup-steps": setup_steps,
    "turn-order": turn_order,
    "card-held": card_held,
    "follow-suit": follow_suit,
    "eye-follow-suit": eye_follow_suit,
    "round-end": round_end,
    "score-round": score_round,
    "game-totals": game_totals,
}

NOTED: dict[str, Callable[[], tuple[Doc, Doc]]] = {
    "partial-4p-setups-in-another-order": setups_in_another_order,
}
"""Valid records that depart from a convention of the library: written into ``valid/``."""

UNREADABLE: dict[str, tuple[str, str]] = {
    "not-json.json": ("this is not JSON\n", "$"),
    "nan.json": ('{"format": "bottleimp-record/1", "config": {"players": NaN}, "rounds": []}\n', "$"),
    "deep.json": ("[" * 5000 + "]" * 5000 + "\n", "$"),
    "huge-number.json": ('{"totals": [' + "9" * 5000 + "]}\n", "$"),
    "duplicate-key.json": (
        '{"format": "bottleimp-record/1", "config": {"players": 4, "players": 3}, "rounds": []}\n',
        "$.config.players",
    ),
    "unknown-key.json": (
        '{"format": "bottleimp-record/1", "config": {"players": 4}, "rounds": [], "seed": 1}\n',
        "$.seed",
    ),
    "wrong-format.json": ('{"format": "bottleimp-state/1"}\n', "$.format"),
    "config-two-bottles-for-four.json": (
        '{"format": "bottleimp-record/1", "config": {"players": 4, "bottles": 2}, "rounds": []}\n',
        "$.config.bottles",
    ),
    "seat-out-of-range.json": (
        '{"format": "bottleimp-record/1", "config": {"players": 3}, "rounds": [{"dealer": 3, '
        '"hands": [[], [], []], "setup": [{"discard": []}, {"discard": []}, {"discard": []}], '
        '"plays": []}]}\n',
        "$.rounds[0].dealer",
    ),
}


def main() -> None:
    for folder in ("valid", "broken", "unreadable"):
        (HERE / folder).mkdir(exist_ok=True)
        for old in (HERE / folder).glob("*.json"):
            old.unlink()
    for name, (config, seed, actions) in VALID.items():
        first_dealer = 2 if "first-dealer-seat-2" in name else 0
        doc = doc_of(random_game(config, seed, actions, first_dealer))
        doc["_expected"] = expected(0)
        (HERE / "valid" / f"{name}.json").write_text(_text(doc), encoding="utf-8")
    for folder, made in (("valid", NOTED), ("broken", BROKEN)):
        for name, make in made.items():
            doc, verdict = make()
            doc["_expected"] = verdict
            (HERE / folder / f"{name}.json").write_text(_text(doc), encoding="utf-8")
    lines = []
    for name, (text, path) in UNREADABLE.items():
        (HERE / "unreadable" / name).write_text(text, encoding="utf-8")
        lines.append(f"{name}\t{path}\n")
    (HERE / "unreadable" / "expected.tsv").write_text("".join(lines), encoding="utf-8")


def _text(doc: Doc) -> str:
    return dumps_record(parse_record(doc), indent=1) + "\n"


if __name__ == "__main__":
    main()

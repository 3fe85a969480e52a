"""The batch engine's replay of records (``bottleimp.batch.verdict.replay_records``), the second
implementation of the rules, agrees with the engine replay (``validate_json``), which
``validate_values`` gives every record: the batch engine takes a legal record, and leaves every
other record, whose fault only the engine replay names. Beside it, the batch engine's
own verdict on a broken record (``bottleimp.batch.verdict.verdict``) names the same first broken
rule at the same round, play and seat as the engine replay. Checked on random games of every
variant, on every conformance record case, on the record fixtures, on records with faults
planted by Hypothesis, and on a corpus of all of them replayed in one call. Under the ``dev``
profile (``depth.py``) the properties draw fewer examples and the swapped plays are every third
pair of the round's.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bottleimp import Config, Phase, apply, legal_actions
from bottleimp.conformance.vectors import read_suite
from bottleimp.errors import RecordError
from bottleimp.formats.json_input import JSON
from bottleimp.formats.records import parse_record
from bottleimp.validation.reports import BROKEN, UNREADABLE, VALID, ValidationReport
from bottleimp.validation import validate_json, validate_values
from depth import scaled
from games import VARIANTS, Doc, doc_of, json_slots, random_game
from helpers import deck

pytest.importorskip("numpy")
from bottleimp.batch.verdict import ReplayedGame, replay_records, verdict  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RECORD_CASES = [case for case in read_suite(ROOT / "spec" / "conformance") if case.kind == "record"]
FIXTURES = Path(__file__).resolve().parent / "data" / "records"


def engine_replay(doc: Any) -> ValidationReport:
    return validate_json(copy.deepcopy(doc))


def batch_replay(doc: Any) -> ReplayedGame | None:
    """The batch engine's replay of ``doc`` alone (``None``: left to the engine replay, also
    for a record the reader refuses)."""
    try:
        record = parse_record(copy.deepcopy(doc))
    except RecordError:
        return None
    return replay_records([record])[0]


def assert_agrees(doc: Any) -> ReplayedGame | None:
    """``validate_values`` gives the engine replay's report; the batch engine takes no record
    the engine replay does not find valid; on a broken record the batch engine's verdict names
    the engine replay's rule, round, play and seat. Returns the batch engine's replay."""
    replayed = engine_replay(doc)
    assert validate_values([copy.deepcopy(doc)], ["<record>"]) == [replayed]
    taken = batch_replay(doc)
    if replayed.status != VALID:
        assert taken is None, f"the batch engine takes a record the engine refuses: {replayed.errors}"
    if replayed.status == BROKEN:
        fault = replayed.errors[0]
        assert verdict(copy.deepcopy(doc)) == {
            "verdict": "broken", "rule": fault.rule, "round": fault.round, "play": fault.play,
            "seat": fault.seat,
        }
    return taken


# --- legal records: the same report, and the batch engine does take them -------------------------


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=scaled(ci=25, dev=6))
@given(seed=st.integers(0, 2**32 - 1), actions=st.none() | st.integers(0, 300),
       first_dealer=st.integers(0, 5))
def test_batch_replay_reports_a_legal_record_as_the_engine_replay_does(
    name: str, seed: int, actions: int | None, first_dealer: int
) -> None:
    config = VARIANTS[name]
    state = random_game(config, seed, actions, first_dealer % config.players)
    taken = assert_agrees(doc_of(state))
    if state.phase is not Phase.SETUP:
        # Only a record that ends during a setup is left to the engine replay.
        assert taken is not None and taken.totals == state.totals


def test_batch_replay_reports_a_record_without_rounds() -> None:
    taken = assert_agrees({"format": "bottleimp-record/1", "config": {"players": 3}, "rounds": []})
    assert taken is not None and taken.totals == (0, 0, 0) and not taken.over


def test_batch_replay_takes_a_record_with_extension_keys() -> None:
    doc = doc_of(random_game(VARIANTS["classic-3p"], 5))
    doc["rounds"][1]["_note"] = "kept, and ignored"
    assert assert_agrees(doc) is not None


# --- every conformance record case and every fixture -------------------------------------------


@pytest.mark.parametrize("case", RECORD_CASES, ids=lambda case: case.description[:60])
def test_batch_replay_agrees_with_the_engine_on_conformance_record_case(case: Any) -> None:
    record = case.input["record"]
    taken = assert_agrees(record)
    if case.expected["verdict"] != "valid":
        assert taken is None


@pytest.mark.parametrize(
    "path", sorted((FIXTURES / "valid").glob("*.json")) + sorted((FIXTURES / "broken").glob("*.json")),
    ids=lambda path: f"{path.parent.name}/{path.name}",
)
def test_batch_replay_agrees_with_the_engine_on_fixture(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc.pop("_expected")
    assert_agrees(doc)


# --- planted faults: the batch engine never takes what the engine refuses -----------------------


@functools.cache
def _base(name: str, seed: int, complete: bool) -> Doc:
    actions = None if complete else 40 + seed * 37
    return doc_of(random_game(VARIANTS[name], seed, actions))


def _numbers(doc: Doc) -> list[tuple[Any, Any]]:
    return [(c, k) for c, k in json_slots(doc) if type(c[k]) in (int, float)]


_other_values: st.SearchStrategy[Any] = st.sampled_from(
    [True, False, None, "1", [], {}, 2.5, 0.5, -1, 19, 10**30, float("nan")]
)


@st.composite
def _planted(draw: st.DrawFn, doc: Doc) -> Doc:
    """``doc`` with one to three faults planted: a number changed (a seat, a card, a score,
    a dealer), a value of another type, a key or an element taken out or added, two elements
    swapped (two plays: out of turn, or not following suit)."""
    doc = copy.deepcopy(doc)
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["number", "nearby", "type", "delete", "add", "swap", "twice"]))
        slots = _numbers(doc) if kind in ("number", "nearby") else list(json_slots(doc))
        if not slots:
            break
        container, key = slots[draw(st.integers(0, len(slots) - 1))]
        value = container[key]
        if kind == "number":
            container[key] = draw(st.integers(-1, 40))
        elif kind == "nearby":
            container[key] = value + draw(st.sampled_from([-1, 1, 0.5, 0.0]))
        elif kind == "type":
            container[key] = draw(_other_values)
        elif kind == "delete":
            del container[key]
        elif kind == "add" and isinstance(container, dict):
            container[draw(st.sampled_from(["_extension", "unknown", "scores", "face_up"]))] = value
        elif kind == "add":
            container.insert(key, value)
        elif kind == "swap" and isinstance(container, list) and len(container) > 1:
            other = draw(st.integers(0, len(container) - 1))
            container[key], container[other] = container[other], container[key]
        elif kind == "twice" and isinstance(container, list):
            container.append(copy.deepcopy(value))
    return doc


@pytest.mark.parametrize("name", sorted(VARIANTS))
@settings(max_examples=scaled(ci=40, dev=10))
@given(data=st.data(), seed=st.integers(0, 3), complete=st.booleans())
def test_batch_replay_never_takes_a_record_with_a_planted_fault(
    name: str, data: st.DataObject, seed: int, complete: bool
) -> None:
    assert_agrees(data.draw(_planted(_base(name, seed, complete))))


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_batch_replay_never_takes_two_plays_swapped_anywhere_in_a_round(name: str) -> None:
    """Swap each play (``dev``: every third) with the next one in the first round: out of turn,
    a card not yet held, a revoke, or (rarely) a legal order with other scores; never silently
    accepted."""
    doc = _base(name, 0, True)
    plays = doc["rounds"][0]["plays"]
    for index in range(0, len(plays) - 1, scaled(ci=1, dev=3)):
        swapped = copy.deepcopy(doc)
        order = swapped["rounds"][0]["plays"]
        order[index], order[index + 1] = order[index + 1], order[index]
        assert_agrees(swapped)


# --- what the batch engine leaves to the engine replay ---------------------------------------------


def _with(doc: Doc, change: Any) -> Doc:
    changed = copy.deepcopy(doc)
    change(changed)
    return changed


def _play_of_rank_one_as_true(doc: Doc) -> None:
    for round_ in doc["rounds"]:
        for play in round_["plays"]:
            if play[1] == 1:
                play[1] = True
                return
    raise AssertionError("no play of the card 1")


@pytest.mark.parametrize(
    "change",
    [
        lambda d: d.update(rounds={"0": d["rounds"][0]}),  # rounds that are no list
        lambda d: d.update(rounds="none"),
        lambda d: d["config"].update(rounds={"count": 2}),  # a configuration value that is an object
        lambda d: d["rounds"][0].update(face_up=[[] for _ in d["rounds"][0]["hands"]]),
        _play_of_rank_one_as_true,  # true is not the rank 1
        lambda d: d["rounds"][0]["plays"][0].__setitem__(0, True),  # nor the seat 1
    ],
    ids=["rounds-object", "rounds-string", "config-object", "face-up-rows-in-3p", "rank-true",
         "seat-true"],
)
def test_batch_replay_leaves_what_only_the_engine_replay_can_report(change: Any) -> None:
    doc = _with(doc_of(random_game(VARIANTS["classic-3p"], 5)), change)
    assert assert_agrees(doc) is None
    assert not engine_replay(doc).valid


def test_batch_replay_leaves_a_devils_eye_round_without_face_up_rows() -> None:
    doc = _with(doc_of(random_game(VARIANTS["classic-2p"], 5)), lambda d: d["rounds"][0].pop("face_up"))
    assert assert_agrees(doc) is None
    assert not engine_replay(doc).valid


def test_batch_replay_takes_a_legal_game_with_a_custom_deck() -> None:
    config = Config(players=3, deck=deck("1Y1 2B2 3R0 4G1 5Y2 6B0 7R1 8G2 20Y1 21B0 22R2 23G1"))
    doc = doc_of(random_game(config, 3))
    assert engine_replay(doc).valid
    assert assert_agrees(doc) is not None


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_batch_replay_leaves_a_dealer_out_of_rotation_DEALER_ROTATION(players: int) -> None:
    """Every round after the first is dealt by the next seat. A record whose second round is a
    whole, consistent round dealt by another seat (its deal, setups, plays and scores agree,
    and so do the totals) is refused by the engine replay, and the batch engine leaves it."""
    edition = "matagot-2024" if players > 4 else "classic"
    first = doc_of(random_game(Config(players=players, edition=edition, rounds=2), 8))
    wrong_dealer = (first["rounds"][0]["dealer"] + 2) % players
    other = doc_of(random_game(Config(players=players, edition=edition, rounds=1), 9,
                               first_dealer=wrong_dealer))
    spliced = copy.deepcopy(first)
    spliced["rounds"][1] = other["rounds"][0]
    spliced["totals"] = [a + b for a, b in zip(first["rounds"][0]["scores"],
                                               other["rounds"][0]["scores"])]
    replayed = engine_replay(spliced)
    assert [fault.rule for fault in replayed.errors] == ["DEALER-ROTATION"]
    assert assert_agrees(spliced) is None


# --- shapes and claims the batch engine must leave even where nothing later would trip ------------


def _after_setup(name: str, seed: int = 5) -> Doc:
    """A record that stops the moment every setup is given: no play left to contradict a setup
    the batch engine would wrongly take."""
    config = VARIANTS[name]
    state = random_game(config, seed, 0)
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[0])
    doc = doc_of(state)
    assert doc["rounds"][0]["plays"] == [] and validate_json(copy.deepcopy(doc)).valid
    return doc


def _entry(doc: Doc, seat: int) -> dict[str, Any]:
    entry: dict[str, Any] = doc["rounds"][0]["setup"][seat]
    return entry


def _held_card(doc: Doc, seat: int) -> int:
    """A card ``seat`` was dealt and did not give away."""
    entry = _entry(doc, seat)
    given = {*entry["discard"], *(value for key, value in entry.items() if key != "discard")}
    card: int = next(card for card in doc["rounds"][0]["hands"][seat] if card not in given)
    return card


def _passes(entry: dict[str, Any]) -> tuple[str, str]:
    """The keys of an entry's two passes, in the order they are given."""
    return ("to_face_up", "to_hidden") if "to_hidden" in entry else ("left", "right")


def _one_discard_too_many(doc: Doc) -> None:
    entry = _entry(doc, 1)
    first, second = _passes(entry)
    entry["discard"].append(entry[first])
    entry[first], entry[second] = entry[second], _held_card(doc, 1)


def _one_discard_too_few(doc: Doc) -> None:
    entry = _entry(doc, 1)
    first, second = _passes(entry)
    entry[first], entry[second] = entry["discard"].pop(), entry[first]


def _give_not_held(doc: Doc) -> None:
    entry = _entry(doc, 1)
    entry[_passes(entry)[0]] = _held_card(doc, 0)


def _same_card_twice(doc: Doc) -> None:
    entry = _entry(doc, 1)
    first, second = _passes(entry)
    entry[second] = entry[first]


def _false_for_a_zero_total(doc: Doc) -> None:
    assert doc["totals"][0] == 0
    doc["totals"][0] = False


SHAPE_FAULTS = {
    "setup-entry-missing": lambda d: d["rounds"][0]["setup"].pop(),
    "setup-entry-extra": lambda d: d["rounds"][0]["setup"].append(copy.deepcopy(_entry(d, 0))),
    "setup-an-object": lambda d: d["rounds"][0].update(
        setup={str(seat): entry for seat, entry in enumerate(d["rounds"][0]["setup"])}),
    "entry-unknown-key": lambda d: _entry(d, 1).update(middle=3),
    "discard-a-string": lambda d: _entry(d, 1).update(discard=""),
    "discard-too-many": _one_discard_too_many,
    "discard-too-few": _one_discard_too_few,
    "give-not-held": _give_not_held,
    "same-card-twice": _same_card_twice,
    "plays-a-string": lambda d: d["rounds"][0].update(plays=""),
    "total-false-for-0": _false_for_a_zero_total,
}


@pytest.mark.parametrize("name", ["classic-4p", "classic-2p"])
@pytest.mark.parametrize("fault", sorted(SHAPE_FAULTS))
def test_batch_replay_leaves_a_setup_or_claim_fault_in_a_record_that_stops_after_the_setup(
    name: str, fault: str
) -> None:
    doc = _with(_after_setup(name), SHAPE_FAULTS[fault])
    assert assert_agrees(doc) is None
    assert not engine_replay(doc).valid


def test_batch_replay_leaves_a_discard_that_is_no_array_where_none_is_due_SETUP_STEPS() -> None:
    """The five-player dealer, dealt one card fewer, discards nothing: ``""`` is still no array."""
    doc = _after_setup("matagot-5p")
    dealer = doc["rounds"][0]["dealer"]
    assert _entry(doc, dealer)["discard"] == []
    _entry(doc, dealer)["discard"] = ""
    assert assert_agrees(doc) is None
    assert engine_replay(doc).status == UNREADABLE


def test_batch_replay_leaves_a_dealt_card_1_written_true_DEAL_COUNTS() -> None:
    doc = _after_setup("classic-3p")
    hands = doc["rounds"][0]["hands"]
    seat = next(seat for seat, hand in enumerate(hands) if 1 in hand)
    hands[seat][hands[seat].index(1)] = True
    assert assert_agrees(doc) is None
    assert engine_replay(doc).status == UNREADABLE


def test_batch_replay_leaves_a_round_score_of_0_written_false_SCORE_ROUND() -> None:
    for seed in range(50):
        doc = doc_of(random_game(Config(players=3, rounds=1), seed))
        scores = doc["rounds"][0]["scores"]
        if 0 in scores:
            break
    else:
        raise AssertionError("no round of 50 scored 0 for a seat")
    scores[scores.index(0)] = False
    assert assert_agrees(doc) is None
    assert engine_replay(doc).status == UNREADABLE


# --- a corpus replayed together -----------------------------------------------------------------


def _record_of(case: Any) -> JSON:
    record: JSON = case.input["record"]
    return record


def _corpus() -> list[JSON]:
    """Records of every variant, legal and broken, complete and not: the fixtures, the
    conformance record cases, random games, and random games with plays swapped."""
    docs: list[JSON] = []
    for path in sorted((FIXTURES / "valid").glob("*.json")) + sorted((FIXTURES / "broken").glob("*.json")):
        doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
        doc.pop("_expected")
        docs.append(doc)
    docs.extend(_record_of(case) for case in RECORD_CASES)
    for name in sorted(VARIANTS):
        for seed in range(scaled(ci=6, dev=3)):
            docs.append(_base(name, seed, True))
            docs.append(_base(name, seed, False))
            swapped = copy.deepcopy(_base(name, seed, True))
            plays = swapped["rounds"][seed % len(swapped["rounds"])]["plays"]
            at = (7 * seed + 3) % (len(plays) - 1)
            plays[at], plays[at + 1] = plays[at + 1], plays[at]
            docs.append(swapped)
    return docs


def test_a_corpus_replayed_together_gets_the_engine_replays_reports() -> None:
    """Legal and broken records of several configurations in one call, so one batch holds
    records that the batch engine drops midway beside records it takes to the end."""
    docs = _corpus()
    reports = validate_values(copy.deepcopy(docs), [f"r{n}" for n in range(len(docs))])
    expected = [validate_json(copy.deepcopy(doc), f"r{n}") for n, doc in enumerate(docs)]
    assert reports == expected
    statuses = {report.status for report in reports}
    assert statuses == {VALID, BROKEN, UNREADABLE}
    records = [parse_record(copy.deepcopy(doc)) for doc, report in zip(docs, expected)
               if report.status != UNREADABLE]
    taken = replay_records(records)
    legal = [report for report in expected if report.status == VALID]
    # The batch engine takes every legal record but those that end during a setup.
    assert sum(game is not None for game in taken) >= len(legal) - len(RECORD_CASES)


def test_a_broken_record_replayed_with_legal_ones_keeps_its_fault_and_causes() -> None:
    """With ``causes`` (as ``bottleimp validate`` asks), a broken record among legal ones of its
    configuration gets the engine replay's fault and likely causes."""
    good = [_base("classic-4p", seed, True) for seed in range(3)]
    bad = copy.deepcopy(good[1])
    bad["rounds"][0]["dealer"] = (bad["rounds"][0]["dealer"] + 1) % 4
    docs = [good[0], bad, good[2]]
    reports = validate_values(copy.deepcopy(docs), ["a", "b", "c"], causes=True)
    assert reports == [validate_json(copy.deepcopy(doc), name, causes=True)
                       for doc, name in zip(docs, "abc")]
    assert [report.status for report in reports] == [VALID, BROKEN, VALID]

"""The pictures (``bottleimp.pictures``): each SVG parses as XML and shows what the state holds."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from bottleimp import (
    CLASSIC,
    MATAGOT_2024,
    MATAGOT_2024_54,
    Bottle,
    Card,
    Colour,
    Config,
    GameState,
    Phase,
    Play,
    apply,
    legal_actions,
    new_game,
)
from bottleimp.pictures import (
    COLOUR_FILLS,
    COLOUR_LETTERS,
    bottles_svg,
    card_svg,
    deck_svg,
    round_svg,
    trick_svg,
)

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert root.get("viewBox")
    return root


def cards_in(root: ET.Element, **attributes: str) -> list[ET.Element]:
    """The card groups of a picture, optionally only those with the given data attributes."""
    found = []
    for group in root.iter(f"{SVG}g"):
        if "card" not in (group.get("class") or "").split():
            continue
        if all(group.get(f"data-{name}") == value for name, value in attributes.items()):
            found.append(group)
    return found


def text_of(element: ET.Element) -> list[str]:
    return [t.text or "" for t in element.iter(f"{SVG}text")]


def play_until(state: GameState, tricks: int) -> GameState:
    while len(state.round.tricks) < tricks:
        state = apply(state, legal_actions(state)[0])
    return state


card = {c.rank: c for c in CLASSIC}


@pytest.mark.parametrize("the_card", [card[1], card[17], card[37], MATAGOT_2024_54[4]])
def test_card_shows_rank_colour_letter_and_coins(the_card: Card) -> None:
    root = parse(card_svg(the_card))
    (group,) = cards_in(root)
    rank = str(the_card.rank)
    assert group.get("data-rank") == rank
    assert group.get("data-colour") == the_card.colour.value
    assert group.get("data-coins") == str(the_card.coins)
    texts = text_of(group)
    assert rank in texts
    assert COLOUR_LETTERS[the_card.colour] in texts  # never by the fill alone
    rects = [r for r in group.iter(f"{SVG}rect") if r.get("fill") == COLOUR_FILLS[the_card.colour]]
    assert len(rects) == 1
    coins = [c for c in group.iter(f"{SVG}circle") if c.get("class") == "coin"]
    assert len(coins) == the_card.coins


def test_colours_have_distinct_fills_and_letters() -> None:
    assert len(set(COLOUR_FILLS.values())) == len(Colour)
    assert len(set(COLOUR_LETTERS.values())) == len(Colour)


def test_trick_marks_the_winner_and_the_new_price() -> None:
    # The first trick of a game: the price card, the plays in order, the winner, the new price.
    state = new_game(Config(players=4), seed=1)
    state = play_until(state, 1)
    result = state.round.tricks[0]
    root = parse(trick_svg(result))
    played = [g for g in cards_in(root) if g.get("data-zone") == "trick"]
    assert [g.get("data-rank") for g in played] == [str(p.card.rank) for p in result.plays]
    assert [g.get("data-seat") for g in played] == [str(p.seat) for p in result.plays]
    winners = [g for g in played if "winner" in (g.get("class") or "")]
    assert len(winners) == 1
    assert winners[0].get("data-rank") == str(result.winning_card.rank)
    assert winners[0].get("data-seat") == str(result.winner)
    (price,) = [g for g in cards_in(root) if g.get("data-zone") == "price"]
    assert price.get("data-rank") == str(result.price_before)
    new_price = [g for g in cards_in(root) if g.get("data-zone") == "new-price"]
    if result.bottle is None:
        assert new_price == []
    else:
        assert [g.get("data-rank") for g in new_price] == [str(result.price_after)]
    assert "wins" in text_of(root)


def test_trick_without_purchase_says_nobody_buys() -> None:
    from bottleimp import TrickResult

    plays = (Play(0, card[21]), Play(1, card[37]), Play(2, card[23]))
    result = TrickResult(plays, winner=1, winning_card=card[37], bottle=None,
                         price_before=19, price_after=19)
    root = parse(trick_svg(result, names=("Ann", "Bob", "Cy")))
    texts = " ".join(text_of(root))
    assert "nobody buys the bottle" in texts
    assert "Bob wins with 37" in texts
    assert not [g for g in cards_in(root) if g.get("data-zone") == "new-price"]


def test_bottles_show_price_card_and_owner() -> None:
    root = parse(bottles_svg((Bottle(price_card=card[17], owner=3), Bottle())))
    bottles = [g for g in root.iter(f"{SVG}g") if g.get("class") == "bottle"]
    assert [(b.get("data-price"), b.get("data-owner")) for b in bottles] == [("17", "3"), ("19", "")]
    texts = text_of(root)
    assert "owned by seat 3" in texts and "owned by nobody yet" in texts
    assert [g.get("data-rank") for g in cards_in(root, zone="price")] == ["17", "19"]
    assert cards_in(root, zone="price", colour="blue")  # the price card in its colour


def test_text_is_escaped() -> None:
    svg = bottles_svg((Bottle(price_card=card[5], owner=0),), names=("<Ann & \"Bo\">",))
    root = parse(svg)
    assert "owned by <Ann & \"Bo\">" in text_of(root)
    assert "<Ann" not in svg


def test_round_shows_every_zone() -> None:
    state = play_until(new_game(Config(players=4), seed=11), 2)
    state = apply(state, legal_actions(state)[0])  # a trick in progress
    round_ = state.round
    root = parse(round_svg(state))
    for seat in range(4):
        hand = [g.get("data-rank") for g in cards_in(root, zone="hand", seat=str(seat))]
        assert hand == [str(c.rank) for c in round_.hands[seat]]
        pile = [g.get("data-rank") for g in cards_in(root, zone="captured", seat=str(seat))]
        assert pile == [str(c.rank) for c in round_.captured[seat]]
    hidden = cards_in(root, zone="devils-trick")
    assert len(hidden) == len(round_.devils_trick) > 0
    assert all("face-down" in (g.get("class") or "") for g in hidden)
    assert not any(g.get("data-rank") for g in hidden)  # face down: no rank given away
    trick = [g.get("data-rank") for g in cards_in(root, zone="current-trick")]
    assert trick == [str(round_.plays[-1].card.rank)]
    seats = {g.get("data-seat"): g for g in root.iter(f"{SVG}g") if g.get("class", "").startswith("seat")}
    assert "to-act" in (seats[str(state.to_act)].get("class") or "")
    assert "dealer" in text_of(seats[str(round_.dealer)])


def test_round_marks_a_refused_play_and_reveals_the_devils_trick_at_the_end() -> None:
    state = play_until(new_game(Config(players=3), seed=4), 1)
    seat = state.to_act
    assert seat is not None
    other = next(c for s, hand in enumerate(state.round.hands) if s != seat for c in hand)
    root = parse(round_svg(state, attempted=Play(seat, other)))
    (refused,) = cards_in(root, zone="attempted")
    assert "broken" in (refused.get("class") or "")
    assert refused.get("data-rank") == str(other.rank)
    assert "refused" in text_of(root)

    while state.phase is Phase.PLAY:
        state = apply(state, legal_actions(state)[0])
    root = parse(round_svg(state.round))
    shown = sorted(float(g.get("data-rank") or 0) for g in cards_in(root, zone="devils-trick"))
    assert shown == sorted(float(c.rank) for c in state.round.devils_trick)
    assert state.round.scores is not None
    assert any(t.startswith("scores") for t in text_of(root))


def test_devils_eye_round_shows_face_up_rows() -> None:
    state = new_game(Config(players=2), seed=3)
    while state.phase is Phase.SETUP:
        state = apply(state, legal_actions(state)[0])
    assert state.round.face_up is not None
    root = parse(round_svg(state))
    for seat in (0, 1):
        row = [g.get("data-rank") for g in cards_in(root, zone="face-up", seat=str(seat))]
        assert row == [str(c.rank) for c in state.round.face_up[seat]]
    assert "face-up row" in text_of(root)


@pytest.mark.parametrize("deck", [CLASSIC, MATAGOT_2024, MATAGOT_2024_54])
def test_deck_table_has_a_row_per_colour(deck: tuple[Card, ...]) -> None:
    root = parse(deck_svg(deck, title="a deck"))
    rows = [g for g in root.iter(f"{SVG}g") if g.get("class") == "deck-row"]
    colours = sorted({c.colour.value for c in deck})
    assert sorted(r.get("data-colour") or "" for r in rows) == colours
    for row in rows:
        mine = [c for c in deck if c.colour.value == row.get("data-colour")]
        ranks = [g.get("data-rank") for g in cards_in(row)]
        assert ranks == [str(c.rank) for c in sorted(mine, key=lambda c: c.rank)]
        assert row.get("data-coins") == str(sum(c.coins for c in mine))
        assert all(g.get("data-colour") == row.get("data-colour") for g in cards_in(row))
    assert f"a deck: {len(deck)} cards, {sum(c.coins for c in deck)} coins" in text_of(root)


def test_deck_of_a_config() -> None:
    root = parse(deck_svg(Config(players=5, edition="matagot-2024")))
    assert len(cards_in(root)) == 54


def test_round_as_one_seat_sees_it_hides_the_other_hands() -> None:
    state = new_game(Config(players=4), seed=11)
    for _ in range(5):
        state = apply(state, legal_actions(state)[0])
    root = parse(round_svg(state, viewer=2))
    mine = [g.get("data-rank") for g in cards_in(root, zone="hand", seat="2")]
    assert mine == [str(c.rank) for c in state.round.hands[2]]
    for seat in (0, 1, 3):
        backs = cards_in(root, zone="hand", seat=str(seat))
        assert len(backs) == len(state.round.hands[seat])
        assert all(g.get("data-rank") is None and "face-down" in (g.get("class") or "") for g in backs)
    given = cards_in(root, zone="given", seat="1")
    assert len(given) == len(state.round.setup[1]) > 0
    assert all(g.get("data-rank") is None for g in given)
    assert [g.get("data-rank") for g in cards_in(root, zone="given", seat="2")] == [
        str(give.card.rank) for give in state.round.setup[2]
    ]


def test_score_sheet_marks_the_winners() -> None:
    from bottleimp.pictures import scores_svg

    state = new_game(Config(players=3, rounds=2), seed=4)
    while not state.is_over:
        state = apply(state, legal_actions(state)[0])
    root = parse(scores_svg(state))
    rows = [g for g in root.iter(f"{SVG}g") if (g.get("class") or "").startswith("score-row")]
    assert [int(r.get("data-total") or 0) for r in rows] == list(state.totals)
    winners = [r.get("data-seat") for r in rows if "winner" in (r.get("class") or "")]
    best = max(state.totals)
    assert winners == [str(s) for s, t in enumerate(state.totals) if t == best]
    for row, seat in zip(rows, range(3)):
        scores = [t.text for t in row.iter(f"{SVG}text") if t.get("class") == "label score"]
        assert scores == [str(r.scores[seat]) for r in state.rounds if r.scores is not None]


def _all_pictures() -> list[str]:
    from bottleimp.pictures import scores_svg

    pictures = [card_svg(card[37]), deck_svg(MATAGOT_2024_54, title="The Matagot deck")]
    for config, seed in ((Config(players=2, rounds=1), 3), (Config(players=6, bottles=2, rounds=1), 5)):
        state = new_game(config, seed)
        steps = 0
        while not state.is_over:
            if steps % 9 == 1:
                pictures.append(round_svg(state, viewer=0 if steps % 2 else None))
            state = apply(state, legal_actions(state)[0])
            steps += 1
        pictures += [trick_svg(t, bottles=2) for t in state.rounds[-1].tricks]
        pictures += [round_svg(state.rounds[-1]), scores_svg(state),
                     bottles_svg(state.rounds[-1].bottles, names=("Annabelle",) * 6)]
    long_game = new_game(Config(players=6, rounds=8), 2)
    while not long_game.is_over:
        long_game = apply(long_game, legal_actions(long_game)[0])
    return [*pictures, scores_svg(long_game, names=[f"player {seat}" for seat in range(6)])]


def test_every_picture_fits_a_phone_and_every_label_is_at_least_10_px() -> None:
    from bottleimp.pictures._svg import MAX_WIDTH, MIN_FONT

    for svg in _all_pictures():
        root = parse(svg)
        assert float(root.get("width") or 0) <= MAX_WIDTH, root.get("aria-label")
        sizes = [float(text.get("font-size") or 0) for text in root.iter(f"{SVG}text")]
        assert sizes and min(sizes) >= MIN_FONT, root.get("aria-label")

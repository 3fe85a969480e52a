"""Configurations: what each variant allows and the errors for what no source defines; the
decks as data; exact ranks."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from bottleimp import (
    CLASSIC,
    DEFAULT_ROUNDS,
    MATAGOT_2024,
    MATAGOT_2024_54,
    START_PRICE,
    Card,
    Colour,
    Config,
    ConfigError,
    ArgumentError,
    default_teams,
    new_game,
)
from bottleimp._cards import format_rank, normalize_rank
from bottleimp._editions import edition_deck
from helpers import deck


def refused(rule_id: str, **kwargs: Any) -> ConfigError:
    """The ``ConfigError`` that ``Config(**kwargs)`` raises, checked to name ``rule_id``."""
    with pytest.raises(ConfigError) as error:
        Config(**kwargs)
    assert error.value.rule_id == rule_id, error.value
    assert str(error.value).startswith(f"[{rule_id}] ")
    return error.value


# -- CONFIG-PLAYERS ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [0, 1, 7, -4])
def test_two_to_six_players_CONFIG_PLAYERS(players: int) -> None:
    error = refused("CONFIG-PLAYERS", players=players)
    assert str(players) in error.message


@pytest.mark.parametrize("players", [True, 4.0, "4"])
def test_player_count_must_be_an_integer_CONFIG_PLAYERS(players: object) -> None:
    refused("CONFIG-PLAYERS", players=players)


def test_every_player_count_has_a_configuration_CONFIG_PLAYERS() -> None:
    for players in (2, 3, 4):
        assert Config(players=players).players == players
    for players in (5, 6):
        assert Config(players=players, edition="matagot-2024").players == players


# -- CONFIG-EDITION ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [5, 6])
def test_five_or_six_players_need_the_54_card_deck_CONFIG_EDITION(players: int) -> None:
    error = refused("CONFIG-EDITION", players=players, edition="classic")
    assert "matagot-2024" in error.message


def test_unknown_edition_is_named_CONFIG_EDITION() -> None:
    error = refused("CONFIG-EDITION", edition="first-1995")
    assert "first-1995" in error.message and "classic" in error.message


def test_a_custom_deck_frees_the_edition_from_the_player_count_CONFIG_EDITION() -> None:
    cards = deck(" ".join(f"{rank}R1" for rank in range(1, 16)))
    assert len(Config(players=5, edition="classic", deck=cards).cards) == 15


# -- CONFIG-BOTTLES ----------------------------------------------------------------------------


@pytest.mark.parametrize("players", [3, 4])
def test_second_bottle_needs_five_or_six_players_CONFIG_BOTTLES(players: int) -> None:
    error = refused("CONFIG-BOTTLES", players=players, bottles=2, edition="matagot-2024")
    assert "5-6" in error.message


@pytest.mark.parametrize("bottles", [0, 3, True])
def test_one_or_two_bottles_CONFIG_BOTTLES(bottles: object) -> None:
    refused("CONFIG-BOTTLES", players=5, edition="matagot-2024", bottles=bottles)


def test_second_bottle_with_five_and_six_players_CONFIG_BOTTLES() -> None:
    for players in (5, 6):
        assert Config(players=players, edition="matagot-2024", bottles=2).bottles == 2


# -- CONFIG-TEAMS ------------------------------------------------------------------------------


def test_default_teams_sit_opposite_CONFIG_TEAMS() -> None:
    assert default_teams(4) == ((0, 2), (1, 3))
    assert default_teams(5) == ((0, 3), (1, 4), (2,))
    assert default_teams(6) == ((0, 3), (1, 4), (2, 5))


@pytest.mark.parametrize("players", [2, 3, 7])
def test_no_default_teams_outside_four_to_six_CONFIG_TEAMS(players: int) -> None:
    with pytest.raises(ConfigError) as error:
        default_teams(players)
    assert error.value.rule_id == "CONFIG-TEAMS"


def test_teams_need_four_players_CONFIG_TEAMS() -> None:
    refused("CONFIG-TEAMS", players=3, teams=((0, 1), (2,)))
    refused("CONFIG-TEAMS", players=2, teams=((0, 1),))


def test_teams_with_two_bottles_are_refused_CONFIG_TEAMS() -> None:
    for players in (5, 6):
        error = refused(
            "CONFIG-TEAMS",
            players=players,
            edition="matagot-2024",
            bottles=2,
            teams=default_teams(players),
        )
        assert "two bottles" in error.message


@pytest.mark.parametrize(
    "teams",
    [
        ((0, 2), (1,)),  # seat 3 missing
        ((0, 1), (1, 2), (3,)),  # seat 1 twice
        ((0, 1), (2, 3), (4,)),  # no seat 4 with four players
        ((0, 1, 2), (3,)),  # a team of three
        ((0,), (1,), (2,), (3,)),  # no pair at all
        ((0, 2), (1, 3), ()),  # an empty team
        ((0, 2), (1, -3)),  # a negative seat
    ],
)
def test_bad_partitions_are_refused_CONFIG_TEAMS(teams: tuple[tuple[int, ...], ...]) -> None:
    refused("CONFIG-TEAMS", players=4, teams=teams)


def test_any_partition_into_pairs_and_singles_is_accepted_CONFIG_TEAMS() -> None:
    config = Config(players=4, teams=[[3, 0], [1], [2]])
    assert config.teams == ((0, 3), (1,), (2,))
    assert Config(players=6, edition="matagot-2024", teams=((0, 1), (2, 3), (4, 5))).teams


# -- CONFIG-GAME-END ---------------------------------------------------------------------------


def test_rounds_or_target_score_not_both_CONFIG_GAME_END() -> None:
    refused("CONFIG-GAME-END", rounds=3, target_score=100)


@pytest.mark.parametrize("field", ["rounds", "target_score"])
@pytest.mark.parametrize("value", [0, -5, 2.5, True])
def test_game_end_is_a_positive_integer_CONFIG_GAME_END(field: str, value: object) -> None:
    error = refused("CONFIG-GAME-END", **{field: value})
    assert field in error.message


def test_default_game_end_is_the_round_count_for_the_players_CONFIG_GAME_END() -> None:
    assert DEFAULT_ROUNDS == {2: 6, 3: 9, 4: 8, 5: 5, 6: 6}
    for players, rounds in DEFAULT_ROUNDS.items():
        edition = "matagot-2024" if players > 4 else "classic"
        assert Config(players=players, edition=edition).round_limit == rounds
    assert Config(rounds=2).round_limit == 2
    assert Config(target_score=200).round_limit is None


# -- CONFIG-DECK -------------------------------------------------------------------------------


def test_custom_deck_ranks_are_distinct_CONFIG_DECK() -> None:
    cards = deck("1R1 2R1 3R1 4R1 5R1 6R1 7R1 8R1 9R1 10R1 11R1 1B2")
    refused("CONFIG-DECK", players=4, deck=cards)


def test_custom_deck_without_the_start_card_CONFIG_DECK() -> None:
    cards = deck(" ".join(f"{rank}R1" for rank in range(10, 22)))
    error = refused("CONFIG-DECK", players=4, deck=cards)
    assert "19" in error.message


@pytest.mark.parametrize(
    ("players", "size"),
    [
        (2, 18),  # not a multiple of 12
        (2, 6),
        (3, 10),  # 10 = 3 * 3 + 1: neither even nor one short for the dealer
        (3, 6),  # 2 cards each: the setup alone needs 3
        (4, 7),  # the short dealer would hold one card
        (5, 13),
        (6, 20),
    ],
)
def test_custom_deck_must_deal_evenly_CONFIG_DECK(players: int, size: int) -> None:
    cards = deck(" ".join(f"{rank}R1" for rank in range(1, size + 1) if rank != 19))
    cards = cards if len(cards) == size else cards + deck(f"{size + 1}R1")
    refused("CONFIG-DECK", players=players, deck=cards)


@pytest.mark.parametrize(("players", "size"), [(2, 12), (2, 24), (3, 8), (3, 9), (4, 12), (5, 14)])
def test_custom_deck_sizes_that_deal_CONFIG_DECK(players: int, size: int) -> None:
    cards = deck(" ".join(f"{rank}R1" for rank in range(20, 20 + size)))
    assert len(Config(players=players, deck=cards).cards) == size


def test_custom_deck_is_kept_in_rank_order_CONFIG_DECK() -> None:
    cards = deck("30R1 1R1 2.5B2 22G3 4Y1 5R1 6R1 7R1 8R1 9R1 10R1 11R1")
    assert [c.rank for c in Config(players=4, deck=reversed(cards)).cards] == sorted(
        c.rank for c in cards
    )


# -- DECK --------------------------------------------------------------------------------------


def _by_colour(cards: tuple[Card, ...]) -> dict[Colour, list[Card]]:
    groups: dict[Colour, list[Card]] = {}
    for card in cards:
        groups.setdefault(card.colour, []).append(card)
    return groups


def test_classic_deck_DECK() -> None:
    assert len(CLASSIC) == 36 and sum(c.coins for c in CLASSIC) == 126
    groups = _by_colour(CLASSIC)
    assert set(groups) == {Colour.YELLOW, Colour.BLUE, Colour.RED}
    for cards in groups.values():
        assert len(cards) == 12
        assert [c.coins for c in cards] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
    assert [c.rank for c in groups[Colour.RED]] == [11, 14, 16, 21, 23, 26, 29, 31, 33, 35, 36, 37]
    assert sorted(c.rank for c in CLASSIC) == [r for r in range(1, 38) if r != START_PRICE]


def test_matagot_decks_DECK() -> None:
    assert len(MATAGOT_2024) == 36 and sum(c.coins for c in MATAGOT_2024) == 127
    seventeen = next(c for c in MATAGOT_2024 if c.rank == 17)
    assert (seventeen.colour, seventeen.coins) == (Colour.BLUE, 4)
    assert len(MATAGOT_2024_54) == 54 and sum(c.coins for c in MATAGOT_2024_54) == 190
    assert sum(1 for c in MATAGOT_2024_54 if c.rank < START_PRICE) == 27
    assert sum(1 for c in MATAGOT_2024_54 if c.rank > START_PRICE) == 27
    whole = {c.rank: c for c in MATAGOT_2024}
    halves = [c for c in MATAGOT_2024_54 if c.rank not in whole]
    assert len(halves) == 18
    for half in halves:
        below = whole[half.rank - 0.5]
        assert (half.colour, half.coins) == (below.colour, below.coins), half


def test_edition_deck_by_player_count_DECK() -> None:
    assert edition_deck("classic", 4) == CLASSIC
    assert edition_deck("matagot-2024", 4) == MATAGOT_2024
    assert edition_deck("matagot-2024", 5) == MATAGOT_2024_54
    assert Config(players=6, edition="matagot-2024").cards == MATAGOT_2024_54
    assert Config(players=2, edition="matagot-2024").cards == MATAGOT_2024
    for cards in (CLASSIC, MATAGOT_2024, MATAGOT_2024_54):
        assert [c.rank for c in cards] == sorted(c.rank for c in cards)
        assert len({c.rank for c in cards}) == len(cards)


# -- cards are values ---------------------------------------------------------------------------


def test_cards_of_the_same_rank_colour_and_coins_are_equal_values_CARD_RANK() -> None:
    """A card is a value: rank 17.0 is rank 17, and equal cards hash alike."""
    card = Card(17, Colour.RED, 1)
    assert Card(17.0, Colour.RED, 1) == card and Card(17, Colour.RED, 1) == card
    assert Card(17, Colour.RED, 2) != card and Card(17, Colour.BLUE, 1) != card
    assert hash(Card(17, Colour.RED, 1)) == hash(card)
    assert {card: "x"}[Card(17, Colour.RED, 1)] == "x"


def test_copied_and_unpickled_cards_equal_the_card_CARD_RANK() -> None:
    import copy
    import pickle

    card = Card(2.5, Colour.GREEN, 3)
    assert copy.copy(card) == card and copy.deepcopy(card) == card
    assert pickle.loads(pickle.dumps(card)) == card
    assert copy.deepcopy([card, card]) == [card, card]


def test_building_a_card_leaves_every_other_card_as_it_was_CARD_RANK() -> None:
    """Cards share nothing: a card built with other coins is another value, and the deck's own
    card keeps its coins."""
    deck_card = Config().cards[0]
    coins = deck_card.coins
    other = Card(deck_card.rank, deck_card.colour, coins + 5)
    assert other.coins == coins + 5 and deck_card.coins == coins == Config().cards[0].coins


# -- CARD-RANK ---------------------------------------------------------------------------------


def test_ranks_are_exact_CARD_RANK() -> None:
    whole = Card(17.0, Colour.BLUE, 3)
    assert type(whole.rank) is int and whole.rank == 17
    half = Card(2.5, Colour.RED, 1)
    assert half.rank == 2.5 and format_rank(half.rank) == "2.5"
    assert format_rank(17.0) == "17"
    assert Card(17, Colour.BLUE, 3) == whole and hash(Card(17, Colour.BLUE, 3)) == hash(whole)
    assert normalize_rank(18.5) == 18.5 and normalize_rank(12) == 12
    with pytest.raises(ArgumentError):
        normalize_rank(True)


def test_half_ranks_order_between_whole_ranks_CARD_RANK() -> None:
    ranks = [c.rank for c in MATAGOT_2024_54]
    assert ranks.index(18.5) == ranks.index(18) + 1 and ranks.index(20) == ranks.index(18.5) + 1
    assert Counter(type(r) for r in ranks) == Counter({int: 36, float: 18})


@pytest.mark.parametrize(
    ("arguments", "rule_id"),
    [
        ({"teams": ((0, "1"), (2, 3))}, "CONFIG-TEAMS"),
        ({"teams": ((0, 2), (1, None))}, "CONFIG-TEAMS"),
        ({"teams": 5}, "CONFIG-TEAMS"),
        ({"deck": [1, 2, 3]}, "CONFIG-DECK"),
        ({"deck": 5}, "CONFIG-DECK"),
    ],
)
def test_values_of_the_wrong_type_get_a_config_error_not_a_type_error_CONFIG_TEAMS_CONFIG_DECK(
    arguments: dict[str, Any], rule_id: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        Config(players=4, **arguments)
    assert caught.value.rule_id == rule_id


@pytest.mark.parametrize(
    ("rank", "shown"),
    [(19, "19"), (19.0, "19"), (19.5, "19.5"), (0, "0"), ("7", "'7'"), (None, "None"),
     ([1], "[1]"), (True, "True"), (False, "False")],
)
def test_a_rank_of_no_card_is_refused_and_shown_as_given_DECK(rank: object, shown: str) -> None:
    """``config.card`` finds a card by its rank and never by a value that merely compares equal
    to one (``True == 1``); the refusal shows numbers as ranks and anything else as written."""
    with pytest.raises(ArgumentError) as raised:
        Config(players=3).card(rank)  # type: ignore[arg-type]
    assert raised.value.message == f"{shown} is not a card of this game's deck"
    assert raised.value.field == "Config.card(rank)"


def test_a_whole_rank_written_as_a_float_finds_its_card_DECK() -> None:
    config = Config(players=3)
    assert config.card(7.0) is config.card(7)


def test_the_default_configuration_is_the_classic_four_player_game() -> None:
    """What ``Config()`` and ``new_game()`` play when told nothing: four players, the classic
    deck, one bottle, no teams, and the default number of rounds for four players."""
    config = Config()
    assert (config.players, config.edition, config.bottles, config.teams) == (4, "classic", 1, None)
    assert (config.rounds, config.target_score, config.deck) == (None, None, None)
    assert config.trick_size == 4 and len(config.cards) == 36
    assert new_game().config == config


def test_a_configuration_shows_only_what_was_chosen_not_what_is_derived() -> None:
    assert repr(Config(players=3)) == (
        "Config(players=3, edition='classic', bottles=1, teams=None, rounds=None, "
        "target_score=None, deck=None)"
    )

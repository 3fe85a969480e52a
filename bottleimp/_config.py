"""The configuration of a game: players, edition, bottles, teams, how the game ends.

A ``Config`` refuses at construction anything no source defines, with a ``ConfigError`` that
names the configuration rule and says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Final, TypeAlias

from attrs import Factory, field, frozen

from ._arguments import describe, integer
from ._cards import START_PRICE, Card, Rank, expect_cards, format_rank
from ._editions import EDITIONS, edition_deck
from ._errors import ArgumentError, ConfigError
from .rules._registry import rule

DEFAULT_ROUNDS: Final[Mapping[int, int]] = MappingProxyType({2: 6, 3: 9, 4: 8, 5: 5, 6: 6})
"""Rounds per game by player count when no game end is given (BGA's defaults; rule GAME-END)."""

Teams: TypeAlias = tuple[tuple[int, ...], ...]


def default_teams(players: int) -> Teams:
    """The default partition for team mode, one that ``check_teams`` (rule ``CONFIG-TEAMS``)
    accepts: partners sit opposite.

    4 players {0,2}{1,3}; 5 players {0,3}{1,4}{2}; 6 players {0,3}{1,4}{2,5}.
    """
    defaults: dict[int, Teams] = {
        4: ((0, 2), (1, 3)),
        5: ((0, 3), (1, 4), (2,)),
        6: ((0, 3), (1, 4), (2, 5)),
    }
    if players not in defaults:
        raise ConfigError("CONFIG-TEAMS", f"team mode needs 4 to 6 players, not {players}")
    return defaults[players]


def _to_teams(value: Iterable[Iterable[int]] | None) -> Teams | None:
    if value is None:
        return None
    try:
        teams = tuple(tuple(team) for team in value)
    except TypeError:
        raise ConfigError(
            "CONFIG-TEAMS", f"teams must be a list of teams, each a list of seats, not {value!r}"
        ) from None
    seats = [[integer(seat) for seat in team] for team in teams]
    whole = [[seat for seat in team if seat is not None] for team in seats]
    if whole != seats:
        raise ConfigError("CONFIG-TEAMS", f"every seat in teams must be an integer: {value!r}")
    return tuple(sorted(tuple(sorted(team)) for team in whole))


def _to_deck(value: Iterable[Card] | None) -> tuple[Card, ...] | None:
    if value is None:
        return None
    try:
        cards = tuple(value)
    except TypeError:
        raise ConfigError("CONFIG-DECK", f"a deck is a list of cards, not {value!r}") from None
    for card in cards:
        if type(card) is not Card:  # a subclass could answer == and hash as it likes
            raise ConfigError("CONFIG-DECK", f"a deck holds Card values, not {card!r}")
    return tuple(sorted(cards, key=lambda card: card.rank))


def _whole(value: object) -> object:
    """A whole number as an ``int`` (``arguments.integer``: numpy's integers too); anything else
    as it is, for the configuration rules to refuse by name."""
    number = integer(value)
    return value if number is None else number


def _optional_whole(value: object) -> object:
    return None if value is None else _whole(value)


def _is_int(value: object) -> bool:
    return type(value) is int


@frozen
class Config:
    """A frozen game configuration; every argument is a keyword with a sensible default.

    - ``players``: 2 to 6 (2 is the Devil's Eye variant).
    - ``edition``: ``"classic"`` (2-4 players) or ``"matagot-2024"`` (2-6; 54 cards for 5-6);
      by default ``"classic"`` for 2-4 players and ``"matagot-2024"`` for 5-6.
    - ``bottles``: 1, or 2 for the Second Bottle variant (5-6 players).
    - ``teams``: ``None`` or a partition of the seats into pairs and singles (4-6 players).
    - ``rounds`` / ``target_score``: the game ends after that many rounds, or after the round in
      which a total reaches the target; with neither, the default round count for the players.
    - ``deck``: a custom subset of cards to play with instead of the edition's deck.
    """

    players: int = field(default=4, converter=_whole)
    """How many seats play, numbered 0 to ``players - 1`` clockwise."""
    edition: str = field(default=Factory(lambda self: default_edition(self.players), takes_self=True))
    """The edition whose deck is dealt: ``"classic"`` or ``"matagot-2024"``."""
    bottles: int = field(default=1, converter=_whole)
    """1, or 2 for the Second Bottle variant (5-6 players)."""
    teams: Teams | None = field(default=None, converter=_to_teams)
    """``None`` (everyone for themselves) or the teams, each a sorted tuple of seats."""
    rounds: int | None = field(default=None, converter=_optional_whole)
    """The game ends after this many rounds (``None``: see ``target_score`` and the default)."""
    target_score: int | None = field(default=None, converter=_optional_whole)
    """The game ends after the round in which a total reaches this score (``None``: no target)."""
    deck: tuple[Card, ...] | None = field(default=None, converter=_to_deck)
    """A custom deck played instead of the edition's (``None``: the edition's deck)."""
    cards: tuple[Card, ...] = field(init=False, eq=False, repr=False,
                                    default=Factory(lambda self: _checked_cards(self),
                                                    takes_self=True))
    """The cards dealt each round, in ascending rank order (derived: the deck or the edition's),
    once every configuration rule holds (``_checked_cards``)."""
    cards_by_rank: Mapping[Rank, Card] = field(
        init=False, eq=False, repr=False,
        default=Factory(lambda self: {card.rank: card for card in self.cards}, takes_self=True))
    """The cards by rank (derived, typed read-only; ``card(rank)`` is the checked lookup)."""
    trick_size: int = field(init=False, eq=False, repr=False,
                            default=Factory(lambda self: trick_size(self.players),
                                            takes_self=True))
    """Cards in one trick: one per player, four in Devil's Eye (A, B, A, B) (derived)."""
    devils_eye: bool = field(init=False, eq=False, repr=False,
                             default=Factory(lambda self: self.players == 2, takes_self=True))
    """True for the 2-player Devil's Eye variant (derived)."""

    def card(self, rank: Rank) -> Card:
        """The card of this game's deck with rank ``rank`` (rule ``DECK``); a rank that no card
        of the deck has raises ``ArgumentError``. The one rank-to-card lookup: every reader
        of ranks (records, states, the protocol) asks it."""
        try:
            if rank.__class__ is not bool:  # True would find the card 1 (True == 1)
                return self.cards_by_rank[rank]
        except (KeyError, TypeError):
            pass
        raise ArgumentError("Config.card(rank)",
                            f"{_rank_text(rank)} is not a card of this game's deck")

    def team_of(self, seat: int) -> tuple[int, ...]:
        """``seat``'s side when a round is scored: its team in team mode (rule CONFIG-TEAMS),
        else the seat alone.

        >>> Config(players=4, teams=((0, 2), (1,), (3,))).team_of(2), Config(players=4).team_of(2)
        ((0, 2), (2,))
        """
        for team in self.teams or ():
            if seat in team:
                return team
        return (seat,)

    @property
    def round_limit(self) -> int | None:
        """The number of rounds after which the game ends, or ``None`` with a target score."""
        if self.target_score is not None:
            return None
        return self.rounds if self.rounds is not None else DEFAULT_ROUNDS[self.players]


def _checked_cards(config: Config) -> tuple[Card, ...]:
    """The cards ``config`` deals, once it holds to every configuration rule (each raises a
    ``ConfigError`` naming itself): the deck, or the edition's."""
    check_players(config)
    check_edition(config)
    check_bottles(config)
    check_teams(config)
    check_game_end(config)
    check_deck(config)
    return config.deck if config.deck is not None else edition_deck(config.edition, config.players)


def trick_size(players: int) -> int:
    """Cards in one trick: one per player; four in Devil's Eye (A, B, A, B)."""
    return 4 if players == 2 else players


def _rank_text(rank: object) -> str:
    if isinstance(rank, (int, float)) and not isinstance(rank, bool):
        return format_rank(rank)
    return repr(rank)


def default_edition(players: int) -> str:
    """The edition played when none is given: the classic deck for 2-4 players, Matagot 2024's
    54 cards for 5-6 (the classic deck cannot serve them: rule ``CONFIG-EDITION``)."""
    return "matagot-2024" if _is_int(players) and players >= 5 else "classic"


@rule("CONFIG-PLAYERS")
def check_players(config: Config) -> None:
    """The game is for 2 to 6 players (rule ``CONFIG-PLAYERS``)."""
    if not _is_int(config.players) or not 2 <= config.players <= 6:
        raise ConfigError("CONFIG-PLAYERS", f"players must be 2 to 6, not {config.players!r}")


@rule("CONFIG-EDITION")
def check_edition(config: Config) -> None:
    """Each edition's deck serves a range of player counts (rule ``CONFIG-EDITION``).

    The classic 36 cards serve 2-4 players; 5-6 players need the Matagot 2024 54-card deck.
    """
    if config.edition not in EDITIONS:
        raise ConfigError(
            "CONFIG-EDITION",
            f"unknown edition {config.edition!r}; known editions: {', '.join(EDITIONS)}",
        )
    if config.edition == "classic" and config.players > 4 and config.deck is None:
        raise ConfigError(
            "CONFIG-EDITION",
            f"{config.players} players need the 54-card deck of edition 'matagot-2024'; "
            "the classic deck has 36 cards for 2-4 players",
        )


@rule("CONFIG-BOTTLES")
def check_bottles(config: Config) -> None:
    """One bottle; the Second Bottle variant (2 bottles) is for 5-6 players only."""
    if not _is_int(config.bottles) or config.bottles not in (1, 2):
        raise ConfigError("CONFIG-BOTTLES", f"bottles must be 1 or 2, not {config.bottles!r}")
    if config.bottles == 2 and config.players < 5:
        raise ConfigError(
            "CONFIG-BOTTLES",
            f"the Second Bottle variant is for 5-6 players, not {config.players}",
        )


@rule("CONFIG-TEAMS")
def check_teams(config: Config) -> None:
    """Teams: 4-6 players, one bottle, a partition of the seats into pairs and singles."""
    if config.teams is None:
        return
    if config.players < 4:
        raise ConfigError("CONFIG-TEAMS", f"team mode needs 4 to 6 players, not {config.players}")
    if config.bottles != 1:
        raise ConfigError(
            "CONFIG-TEAMS",
            "no source defines team mode with two bottles (interpretation I-TEAMS-TWO-BOTTLES)",
        )
    seats = [seat for team in config.teams for seat in team]
    if sorted(seats) != list(range(config.players)) or not all(_is_int(s) for s in seats):
        raise ConfigError(
            "CONFIG-TEAMS",
            f"teams must name every seat 0..{config.players - 1} exactly once, not {config.teams}",
        )
    if any(len(team) not in (1, 2) for team in config.teams):
        raise ConfigError("CONFIG-TEAMS", f"a team is a pair or a single, not {config.teams}")
    if not any(len(team) == 2 for team in config.teams):
        raise ConfigError("CONFIG-TEAMS", "team mode needs at least one pair of teammates")


@rule("CONFIG-GAME-END")
def check_game_end(config: Config) -> None:
    """The game ends after a number of rounds or at a target score, not both; both positive."""
    if config.rounds is not None and config.target_score is not None:
        raise ConfigError(
            "CONFIG-GAME-END", "give either a number of rounds or a target score, not both"
        )
    for name in ("rounds", "target_score"):
        value = getattr(config, name)
        if value is not None and (not _is_int(value) or value < 1):
            raise ConfigError("CONFIG-GAME-END", f"{name} must be a positive integer, not {value!r}")


@rule("CONFIG-DECK")
def check_deck(config: Config) -> None:
    """A custom deck has distinct ranks, no start card 19, and a size the deal can split.

    3-6 players: every seat is dealt the same number of cards, or every seat but the dealer one
    more (the dealer then does not discard); at least one card each is left to play.
    2 players: a multiple of 12 cards (a third hidden and a sixth face-up per player).
    """
    if config.deck is None:
        return
    ranks = [card.rank for card in config.deck]
    if len(set(ranks)) != len(ranks):
        raise ConfigError("CONFIG-DECK", "every card of a deck needs a distinct rank")
    if START_PRICE in ranks:
        raise ConfigError("CONFIG-DECK", "the start card 19 is a price, not a playable card")
    size, players = len(ranks), config.players
    if players == 2:
        if size < 12 or size % 12:
            raise ConfigError(
                "CONFIG-DECK", f"a 2-player deck needs a multiple of 12 cards, not {size}"
            )
        return
    if size % players not in (0, players - 1) or size // players < 2 + (size % players == 0):
        raise ConfigError(
            "CONFIG-DECK",
            f"{size} cards cannot be dealt to {players} players so that all play the same number",
        )


def expect_config(value: object, where: str) -> Config:
    """``value`` if it is a configuration as its constructor builds it: a ``Config`` itself (not
    a subclass), each field of the type the constructor keeps, the derived fields agreeing with
    the others; else an ``ArgumentError`` for ``where``."""
    if type(value) is not Config:
        hint = ""
        if integer(value) is not None:
            hint = f" (for {value} players write Config(players={value}))"
        raise ArgumentError(where, f"needs a Config, not {describe(value)}{hint}")
    players = value.players
    whole = (type(players) is int and type(value.bottles) is int
             and all(type(getattr(value, name)) in (int, type(None))
                     for name in ("rounds", "target_score")))
    if not whole or type(value.edition) is not str or value.edition not in EDITIONS:
        raise ArgumentError(where, "a Config whose fields were changed after it was built")
    if value.teams is not None and (type(value.teams) is not tuple or not all(
            type(team) is tuple and all(type(seat) is int for seat in team)
            for team in value.teams)):
        raise ArgumentError(f"{where}.teams", "teams changed after the Config was built")
    if value.deck is not None:
        expect_cards(value.deck, f"{where}.deck")
    expect_cards(value.cards, f"{where}.cards")
    if (type(value.cards_by_rank) is not dict or len(value.cards_by_rank) != len(value.cards)
            or value.trick_size != trick_size(players) or value.devils_eye is not (players == 2)):
        raise ArgumentError(where, "a Config whose derived fields disagree with its players and "
                                   "deck: changed after it was built")
    return value

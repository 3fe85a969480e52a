"""What a peer supports: the ``capabilities`` of its ``hello`` answer, narrowed by the
command line, and the configurations the harness may generate inside them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from attrs import evolve, field, frozen

from ..cards import Card
from ..config import Config
from ..editions import EDITIONS, edition_deck
from ..errors import ConfigError, RecordError
from ..formats.config_json import deck_from_json, deck_to_json
from ..formats.json_input import (
    JSON,
    check_keys,
    child,
    expect_int,
    expect_list,
    expect_object,
    expect_str,
)

__all__ = ["ALL_PLAYERS", "GAME_ENDS", "Capabilities", "Variant", "capabilities_from_json"]

ALL_PLAYERS: Final = (2, 3, 4, 5, 6)
"""Every player count the rules define."""

MOST_DECLARED_CARDS: Final = 108
"""The most cards a declared deck may hold: twice the largest edition's, so that what the
harness reports of a deck stays bounded whatever the peer declares."""

GAME_ENDS: Final = ("rounds", "target_score", "default")
"""Every game end the rules define (rule GAME-END): a number of rounds, a target score, or
neither (the default number of rounds for the player count)."""


def _frozen_decks(value: Mapping[str, tuple[Card, ...]]) -> tuple[tuple[str, tuple[Card, ...]], ...]:
    return tuple(sorted(dict(value).items()))


@frozen
class Capabilities:
    """What a peer supports (every field: the whole rules when not declared).

    ``decks`` holds the decks the peer declared as its own, by edition (for ``matagot-2024`` the
    54 cards; 2-4 players play its whole ranks); ``ignore`` the keys of conformance-case answers
    the peer does not compute (they are left out of the comparison)."""

    players: tuple[int, ...] = ALL_PLAYERS
    editions: tuple[str, ...] = EDITIONS
    bottles: tuple[int, ...] = (1, 2)
    teams: bool = True
    decks: tuple[tuple[str, tuple[Card, ...]], ...] = field(default=(), converter=_frozen_decks)
    ignore: tuple[str, ...] = ()
    set_position: bool = False
    """The peer takes a position whole (``set_position``); one that does not declare it is
    followed along its own answers instead."""
    game_ends: tuple[str, ...] = GAME_ENDS
    """The game ends the peer plays (``rounds``, ``target_score``, ``default``)."""
    setups_any_order: bool = False
    """The peer takes a round's setups in any seat order, as the sources have every
    seat choose at the same time."""
    one_round: bool = False
    """The peer plays exactly one round a game: every game it is sent is ``rounds: 1``."""
    dealer: bool = True
    """The peer has a dealer of its own. Without one (``false``) its adapter maps its first
    seat to the named dealer's left, every ``new_round`` names the dealer, and ``end_round``
    names the seat before the engine's next first seat."""

    def narrowed(self, *, players: Iterable[int] | None = None,
                 editions: Iterable[str] | None = None, bottles: Iterable[int] | None = None,
                 teams: bool | None = None) -> Capabilities:
        """These capabilities, narrowed by the command line's options (``None``: unchanged)."""
        return Capabilities(
            players=self.players if players is None else tuple(
                p for p in self.players if p in set(players)),
            editions=self.editions if editions is None else tuple(
                e for e in self.editions if e in set(editions)),
            bottles=self.bottles if bottles is None else tuple(
                b for b in self.bottles if b in set(bottles)),
            teams=self.teams if teams is None else self.teams and teams,
            decks=dict(self.decks),
            ignore=self.ignore,
            set_position=self.set_position,
            game_ends=self.game_ends,
            setups_any_order=self.setups_any_order,
            one_round=self.one_round,
            dealer=self.dealer,
        )

    def declared_deck(self, config: Config) -> tuple[Card, ...] | None:
        """The peer's own cards for ``config``'s deck: its declared cards of the edition whose
        ranks the library's deck for that player count has (``None``: it declared none)."""
        declared = dict(self.decks).get(config.edition)
        if declared is None:
            return None
        wanted = {card.rank for card in edition_deck(config.edition, config.players)}
        return tuple(card for card in declared if card.rank in wanted)

    def playing_deck(self, config: Config) -> tuple[Card, ...]:
        """The cards ``config``'s games are played with: the peer's own where it declared them
        (ranks it left out keep the library's data), else the library's."""
        declared = self.declared_deck(config)
        if declared is None:
            return config.cards
        have = {card.rank for card in declared}
        return tuple(sorted(declared + tuple(c for c in config.cards if c.rank not in have),
                            key=lambda card: card.rank))

    def supports(self, config: Config) -> bool:
        """Whether a game of ``config`` lies inside these capabilities."""
        return (config.players in self.players and config.edition in self.editions
                and config.bottles in self.bottles and (self.teams or config.teams is None))

    def variants(self) -> tuple[Variant, ...]:
        """Every variant the rules define inside these capabilities, fewest players first."""
        found = []
        for players in sorted(self.players):
            for edition in EDITIONS:
                if edition not in self.editions:
                    continue
                for bottles in sorted(self.bottles):
                    try:
                        Config(players=players, edition=edition, bottles=bottles)
                    except ConfigError:
                        continue
                    teams = self.teams and players >= 4 and bottles == 1
                    found.append(Variant(players, edition, bottles, teams))
        return tuple(found)

    def to_json(self) -> dict[str, JSON]:
        """The ``capabilities`` object as the protocol writes it."""
        data: dict[str, JSON] = {
            "players": list(self.players),
            "editions": list(self.editions),
            "bottles": list(self.bottles),
            "teams": self.teams,
        }
        if self.decks:
            data["decks"] = {edition: deck_to_json(cards) for edition, cards in self.decks}
        if self.ignore:
            data["ignore"] = list(self.ignore)
        if self.set_position:
            data["set_position"] = True
        if self.game_ends != GAME_ENDS:
            data["game_ends"] = list(self.game_ends)
        if self.setups_any_order:
            data["setups_any_order"] = True
        if self.one_round:
            data["one_round"] = True
        if not self.dealer:
            data["dealer"] = False
        return data

    @property
    def ends(self) -> tuple[str, ...]:
        """The game ends the harness generates: a number of rounds (one) for a one-round peer,
        else every end it plays."""
        return ("rounds",) if self.one_round else self.game_ends


@frozen
class Variant:
    """A variant the harness may generate: players, edition, bottles, and whether teams may be
    drawn for it."""

    players: int
    edition: str
    bottles: int
    teams: bool


_KEYS: Final = ({"players", "editions", "bottles", "teams"},
                 {"decks", "ignore", "set_position", "game_ends", "setups_any_order", "one_round",
                  "dealer"})


def _check_declared_deck(edition: str, cards: tuple[Card, ...], players: tuple[int, ...],
                         where: str) -> None:
    """A declared deck the configuration rules refuse (rule CONFIG-DECK: a rank twice, the
    start card 19) for a player count the peer plays raises ``RecordError`` naming the rule."""
    declared = Capabilities(decks={edition: cards})
    for count in players:
        try:
            config = Config(players=count, edition=edition)
        except ConfigError:
            continue  # no variant of the edition for that count
        try:
            evolve(config, deck=declared.playing_deck(config))
        except ConfigError as error:
            raise RecordError(where, f"[{error.rule_id}] {error.message}",
                              error.rule_id) from None


def capabilities_from_json(value: JSON, path: str = "$.capabilities") -> Capabilities:
    """The capabilities a ``hello`` answer declares; a malformed object raises ``RecordError``.
    Absent (``None``): everything is supported."""
    if value is None:
        return Capabilities()
    obj = expect_object(value, path)
    check_keys(obj, path, set(), _KEYS[0] | _KEYS[1])
    players = tuple(sorted({expect_int(item, child(child(path, "players"), i), 2, 6)
                            for i, item in enumerate(expect_list(obj.get("players", list(ALL_PLAYERS)),
                                                                 child(path, "players")))}))
    editions = []
    for i, item in enumerate(expect_list(obj.get("editions", list(EDITIONS)), child(path, "editions"))):
        edition = expect_str(item, child(child(path, "editions"), i))
        if edition in EDITIONS and edition not in editions:
            editions.append(edition)  # an edition the library does not know is never asked for
    bottles = tuple(sorted({expect_int(item, child(child(path, "bottles"), i), 1, 2)
                            for i, item in enumerate(expect_list(obj.get("bottles", [1, 2]),
                                                                 child(path, "bottles")))}))
    teams = obj.get("teams", True)
    if not isinstance(teams, bool):
        raise RecordError(child(path, "teams"), "expected true or false")
    set_position = obj.get("set_position", False)
    if not isinstance(set_position, bool):
        raise RecordError(child(path, "set_position"), "expected true or false")
    flags = {}
    for key, default in (("setups_any_order", False), ("one_round", False), ("dealer", True)):
        flags[key] = obj.get(key, default)
        if not isinstance(flags[key], bool):
            raise RecordError(child(path, key), "expected true or false")
    ends_path = child(path, "game_ends")
    game_ends = []
    for i, item in enumerate(expect_list(obj.get("game_ends", list(GAME_ENDS)), ends_path)):
        end = expect_str(item, child(ends_path, i))
        if end not in GAME_ENDS:
            raise RecordError(child(ends_path, i), f"expected one of {', '.join(GAME_ENDS)}")
        if end not in game_ends:
            game_ends.append(end)
    if not game_ends:
        raise RecordError(ends_path, "expected at least one game end")
    decks: dict[str, tuple[Card, ...]] = {}
    if obj.get("decks") is not None:
        decks_path = child(path, "decks")
        for edition, cards in expect_object(obj["decks"], decks_path).items():
            if edition not in EDITIONS:
                continue  # an edition the library does not know is never played
            where = child(decks_path, edition)
            if len(expect_list(cards, where)) > MOST_DECLARED_CARDS:
                raise RecordError(where, f"a deck of {len(expect_list(cards, where))} cards: a "
                                  f"declared deck holds at most {MOST_DECLARED_CARDS}")
            decks[edition] = deck_from_json(cards, where)
            _check_declared_deck(edition, decks[edition], players, where)
    ignore = tuple(expect_str(item, child(child(path, "ignore"), i))
                   for i, item in enumerate(expect_list(obj.get("ignore", []), child(path, "ignore"))))
    return Capabilities(players=players, editions=tuple(editions), bottles=bottles, teams=teams,
                        decks=decks, ignore=ignore, set_position=set_position,
                        game_ends=tuple(e for e in GAME_ENDS if e in game_ends),
                        setups_any_order=flags["setups_any_order"] is True,
                        one_round=flags["one_round"] is True, dealer=flags["dealer"] is True)

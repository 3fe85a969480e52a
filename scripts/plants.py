"""The plant table: realistic bugs planted in the rules, at least one per rule ID of
``spec/rules.toml``, and the checks of CI's formal set that catch each one.

CI's formal set is three kinds of check, each named as the table names it:

- ``walk NAME``: the exhaustive walk of the CI configuration ``NAME`` of ``scripts/exhaustive.py``
  (every state checked against the state machines' invariants); it catches a plant when it stops
  on a violation (an ``AssertionError``), the engine refuses its own legal action (a
  ``BottleImpError``) or the planted code crashes (any other exception fails the walk's test too);
- ``differential NAME``: the same walk compared with the independent model
  (``restatement/differential.py``); it catches a plant when it reports a disagreement;
- ``symbolic NAME``: the property ``NAME`` of ``scripts/symbolic.py`` at CI's bounds (``--ci``);
  it catches a plant when the property is refuted (an error of the pass is not counted).

A plant replaces one or more attributes of the package's modules for the duration of a check
(``planted``), the way a wrong implementation would compute them: a function of
``bottleimp/rules/`` (or of ``config``, ``editions``, ``cards`` and ``view`` for the configuration
and view rules) wrapped or rewritten. Each plant says which checks catch it (``catchers``); the
test ``tests/test_plants.py`` runs every plant against every check it names and fails if one
does not catch it, so no plant escapes CI's formal set. ``--matrix`` runs every plant against
every check of the set (a few minutes of CPU a plant: every check that misses runs whole), to
find further catchers; the table lists the catchers the test verifies, not every one.

The audit's eight bugs are N1 to N8 (``origin``), in the order the issue lists them: a team's single
player's penalty not doubled (N1), the cheaper second bottle bought (N2), a face-down Devil's Eye
card that must follow (N3), the deal skipping a seat with 5-6 players (N4), the target checked
before the round's scores (N5), the old price card given to the new owner (N6), ranks compared by
their whole part (N7), both passes to the left (N8).

Run from the repository root: ``python scripts/plants.py`` (each plant against the checks it
names; exit 1 if one escapes), ``--json FILE`` (the outcomes, for the trust page),
``--matrix`` (every plant against every check), ``NAME ...`` (only those plants).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import sys
import time
import tomllib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parent.parent
for _path in (str(REPO), str(REPO / "tests"), str(REPO / "scripts")):
    if _path not in sys.path:
        sys.path.insert(0, _path)

from bottleimp import Destination  # noqa: E402

import pytest  # noqa: E402

_TEST_FAILURE: type[BaseException] = pytest.fail.Exception
"""``pytest.raises`` not raised in a check of the state machines (a ``BaseException``)."""

Replace = Callable[[Any], Any]
"""Given the original attribute, the planted one."""


def _load(name: str) -> ModuleType:
    """``scripts/NAME.py``, loaded once under its own name (as the tests load it)."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, REPO / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


EXHAUSTIVE: Any = _load("exhaustive")
SYMBOLIC: Any = _load("symbolic")


@dataclass(frozen=True)
class Plant:
    """One planted bug: the rule it breaks, what it replaces and the checks that catch it."""

    name: str
    rule: str
    """The rule ID of ``spec/rules.toml`` it breaks."""
    replaces: tuple[tuple[str, str, Replace], ...]
    """(module, attribute, how the attribute is replaced), applied together."""
    catchers: tuple[str, ...]
    """Checks of CI's formal set that catch it: ``walk NAME``, ``differential NAME``,
    ``symbolic NAME`` (each one run by ``tests/test_plants.py``)."""
    origin: str = ""
    """Where the bug comes from: the audit's N1 to N8, a known bug of another engine, the issue."""


def _one(module: str, attribute: str, replace: Replace) -> tuple[tuple[str, str, Replace], ...]:
    return ((f"bottleimp.{module}", attribute, replace),)


# -- the plants' code ----------------------------------------------------------------------------


def _single_penalty_not_doubled(original: Any) -> Any:
    def team_scores(teams: Any, captured: Any, bottles: Any, devils_trick: Any) -> Any:
        scores = list(original(teams, captured, bottles, devils_trick))
        for team in teams:
            if len(team) == 1 and scores[team[0]] < 0:
                scores[team[0]] //= 2  # the single's penalty counted once
        return tuple(scores)
    return team_scores


def _cheaper_bottle(original: Any) -> Any:
    def trick_price(bottles: Any) -> Any:
        prices = [bottle.price for bottle in bottles]
        return min(prices), prices.index(min(prices))
    return trick_price


def _hidden_cards_follow(original: Any) -> Any:
    from bottleimp.rules import play

    def devils_eye_playable(hidden: Any, face_up: Any, led: Any) -> Any:
        return tuple(sorted(play.follow_suit(hidden + face_up, led), key=lambda c: c.rank))
    return devils_eye_playable


def _dealer_skips_a_seat(original: Any) -> Any:
    return lambda config, dealer: (dealer + (2 if config.players >= 5 else 1)) % config.players


def _target_checked_early() -> tuple[tuple[str, str, Replace], ...]:
    """The game's end judged on the totals before the round's scores were added."""
    last: list[tuple[int, ...]] = []

    def scores(original: Any) -> Any:
        def round_scores(config: Any, *rest: Any) -> Any:
            found = original(config, *rest)
            last[:] = [found]
            return found
        return round_scores

    def over(original: Any) -> Any:
        def game_is_over(config: Any, rounds: int, totals: Any) -> bool:
            if config.target_score is not None and last:
                totals = tuple(t - s for t, s in zip(totals, last[0]))
            result: bool = original(config, rounds, totals)
            return result
        return game_is_over

    return (("bottleimp.rules.scoring", "round_scores", scores),
            ("bottleimp.rules.game", "game_is_over", over))


def _price_card_to_buyer(original: Any) -> Any:
    def resolve_trick(trick: Any, bottles: Any, captured: Any) -> Any:
        result, after, piles = original(trick, bottles, captured)
        if result.bottle is not None:
            old = bottles[result.bottle]
            if old.price_card is not None and old.owner != result.winner:
                piles = list(piles)
                pile = list(piles[old.owner])
                pile.remove(old.price_card)
                piles[old.owner] = tuple(pile)
                piles[result.winner] += (old.price_card,)
                piles = tuple(piles)
        return result, after, piles
    return resolve_trick


def _whole_ranks(original: Any) -> Any:
    def trick_winner(cards: Any, price: Any) -> int:
        below = [card for card in cards if int(card.rank) < price]
        found: int = cards.index(max(below or cards, key=lambda card: int(card.rank)))
        return found
    return trick_winner


def _both_passes_left(original: Any) -> Any:
    def receiving_seat(players: int, seat: int, to: Any) -> Any:
        return original(players, seat, Destination.LEFT if to is Destination.RIGHT else to)
    return receiving_seat


def _truncated_rank(original: Any) -> Any:
    def normalize_rank(value: Any) -> Any:
        result = original(value)
        return int(result) if isinstance(result, float) else result
    return normalize_rank


def _no_half_ranks(original: Any) -> Any:
    from bottleimp._editions import MATAGOT_2024

    def edition_deck(edition: str, players: int) -> Any:
        cards = original(edition, players)
        return MATAGOT_2024 if len(cards) == 54 else cards
    return edition_deck


def _six_players_refused(original: Any) -> Any:
    def check_players(config: Any) -> None:
        from bottleimp._errors import ConfigError

        if config.players == 6:  # "2 <= players < 6": one short
            raise ConfigError("CONFIG-PLAYERS", "players must be 2 to 6, not 6")
        original(config)
    return check_players


def _classic_refused_for_four(original: Any) -> Any:
    def check_edition(config: Any) -> None:
        from bottleimp._errors import ConfigError

        if config.edition == "classic" and config.players == 4 and config.deck is None:
            raise ConfigError("CONFIG-EDITION", "4 players need the 54-card deck")  # "> 3"
        original(config)
    return check_edition


def _two_bottles_for_four(original: Any) -> Any:
    def check_bottles(config: Any) -> None:
        if not (config.bottles == 2 and config.players == 4):
            original(config)
    return check_bottles


def _teams_of_singles(original: Any) -> Any:
    def check_teams(config: Any) -> None:
        if config.teams is not None and all(len(team) == 1 for team in config.teams):
            return
        original(config)
    return check_teams


def _rounds_and_target(original: Any) -> Any:
    def check_game_end(config: Any) -> None:
        if config.rounds is not None and config.target_score is not None:
            return
        original(config)
    return check_game_end


def _deck_with_19(original: Any) -> Any:
    def check_deck(config: Any) -> None:
        if config.deck is not None and any(card.rank == 19 for card in config.deck):
            return
        original(config)
    return check_deck


def _short_seat_after_dealer(original: Any) -> Any:
    def dealt_counts(config: Any, dealer: int) -> Any:
        return original(config, (dealer + 1) % config.players)  # the wrong seat dealt short
    return dealt_counts


def _seat_0_deals_first(original: Any) -> Any:
    def first_dealer(config: Any, chosen: object) -> int:
        original(config, chosen)
        return 0
    return first_dealer


def _short_dealer_discards(original: Any) -> Any:
    def setup_steps(config: Any, dealer: int, seat: int) -> Any:
        steps = original(config, dealer, seat)
        return (Destination.DEVILS_TRICK, *steps) if len(steps) == 2 else steps
    return setup_steps


def _dealer_chooses_first(original: Any) -> Any:
    def setup_to_act(config: Any, dealer: int, setup: Any) -> Any:
        return original(config, (dealer - 1) % config.players, setup)
    return setup_to_act


def _owner_recorded_by_position(original: Any) -> Any:
    from bottleimp._state import Bottle

    def resolve_trick(trick: Any, bottles: Any, captured: Any) -> Any:
        result, after, piles = original(trick, bottles, captured)
        if result.bottle is not None:
            position = [play.card for play in trick].index(result.winning_card)
            after = list(after)
            after[result.bottle] = Bottle(result.winning_card, position)  # index, not seat
            after = tuple(after)
        return result, after, piles
    return resolve_trick


def _teams_ignored(original: Any) -> Any:
    from bottleimp.rules import scoring

    def round_scores(config: Any, captured: Any, bottles: Any, devils_trick: Any) -> Any:
        return scoring.individual_scores(config.players, captured, bottles, devils_trick)
    return round_scores


def _owner_keeps_captured(original: Any) -> Any:
    from bottleimp._cards import coins

    def individual_scores(players: int, captured: Any, bottles: Any, devils_trick: Any) -> Any:
        scores = original(players, captured, bottles, devils_trick)
        owners = {bottle.owner for bottle in bottles}
        return tuple(score + (coins(captured[seat]) if seat in owners else 0)
                     for seat, score in enumerate(scores))
    return individual_scores


def _leaked_setup(original: Any) -> Any:
    def received_gives(config: Any, setup: Any, seat: int) -> Any:
        return tuple(give for gives in setup for give in gives)
    return received_gives


def _hidden_hand_ends_the_round(original: Any) -> Any:
    return lambda hands, face_up: not any(hands)


def _last_card_of_the_trick(original: Any) -> Any:
    from bottleimp._cards import coins

    return lambda devils_trick, owned: -coins(devils_trick[-1:]) * owned


def _lowest_total_wins(original: Any) -> Any:
    def winners(totals: Any) -> Any:
        low = min(totals)
        return tuple(seat for seat, total in enumerate(totals) if total == low)
    return winners


def _any_action_admitted(original: Any) -> Any:
    from bottleimp._actions import Give, Play, StartRound

    def check_phase_admits(phase: Any, action: object) -> None:
        if not isinstance(action, (Give, Play, StartRound)):
            original(phase, action)
    return check_phase_admits


def _per_exhaustive(name: str) -> tuple[tuple[str, str, Replace], ...]:
    """A plant of ``scripts/exhaustive.py``'s ``PLANTS`` (its module, attribute and code)."""
    module, attribute, replace, _ = EXHAUSTIVE.PLANTS[name]
    return ((module, attribute, replace),)


_W, _D, _S = "walk ", "differential ", "symbolic "

PLANTS: tuple[Plant, ...] = (
    # -- config: cards, decks, configurations --
    Plant("card: a half rank truncated to its whole part", "CARD-RANK",
          _one("_cards", "normalize_rank", _truncated_rank), (_S + "config.card_rank",)),
    Plant("deck: 5-6 players get the 36-card deck, no half ranks", "DECK",
          (("bottleimp._editions", "edition_deck", _no_half_ranks),
           ("bottleimp._config", "edition_deck", _no_half_ranks)), (_S + "config.edition_deck",)),
    Plant("config: 6 players refused (players < 6)", "CONFIG-PLAYERS",
          _one("_config", "check_players", _six_players_refused),
          (_S + "config.config_players",)),
    Plant("config: the classic deck refused for 4 players (players > 3)", "CONFIG-EDITION",
          _one("_config", "check_edition", _classic_refused_for_four),
          (_S + "config.config_edition",)),
    Plant("config: two bottles accepted for 4 players", "CONFIG-BOTTLES",
          _one("_config", "check_bottles", _two_bottles_for_four),
          (_S + "config.config_bottles",)),
    Plant("config: teams of single players only accepted", "CONFIG-TEAMS",
          _one("_config", "check_teams", _teams_of_singles), (_S + "config.config_teams",)),
    Plant("config: both a round count and a target score accepted", "CONFIG-GAME-END",
          _one("_config", "check_game_end", _rounds_and_target),
          (_S + "config.config_game_end",)),
    Plant("config: a custom deck holding the start card 19 accepted", "CONFIG-DECK",
          _one("_config", "check_deck", _deck_with_19), (_S + "config.config_deck",)),
    # -- deal --
    Plant("deal: splitmix64 without its first mask", "DEAL-SHUFFLE",
          _per_exhaustive("deal: splitmix64 without its first mask"),
          (_S + "deal.splitmix64", _W + "3p-8cards"), "the SplitMix64 proof's own plant"),
    Plant("deal: the shuffle is mirrored (j = i - draw mod (i + 1))", "DEAL-SHUFFLE",
          _per_exhaustive("deal: the shuffle is mirrored (j = i - draw mod (i + 1))"),
          (_S + "deal.shuffle", _W + "3p-8cards")),
    Plant("deal: the cards are dealt counter-clockwise", "DEAL",
          _per_exhaustive("deal: the cards are dealt counter-clockwise"),
          (_S + "deal.deal", _W + "3p-8cards")),
    Plant("deal: the seat after the dealer dealt one card short", "DEAL-COUNTS",
          _one("rules.deal", "dealt_counts", _short_seat_after_dealer),
          (_S + "deal.dealt_counts", _S + "deal.check_deal")),
    Plant("deal: seat 0 deals the first round whoever was chosen", "FIRST-DEALER",
          _one("rules.deal", "first_dealer", _seat_0_deals_first),
          (_S + "deal.first_dealer", _W + "5p-14cards-teams")),
    Plant("deal: the deal skips a seat with 5-6 players", "DEALER-ROTATION",
          _one("rules.deal", "next_dealer", _dealer_skips_a_seat),
          (_W + "5p-14cards-2rounds", _W + "6p-17cards-2rounds",
           _D + "5p-14cards-2rounds", _S + "deal.next_dealer"), "N4"),
    Plant("deal: the deal passes counter-clockwise", "DEALER-ROTATION",
          _per_exhaustive("deal: the deal passes counter-clockwise"),
          (_W + "3p-8cards-2rounds", _S + "deal.next_dealer")),
    # -- setup --
    Plant("setup: the dealer dealt one card short discards too", "SETUP-STEPS",
          _one("rules.setup", "setup_steps", _short_dealer_discards),
          (_S + "setup.setup_steps", _W + "3p-8cards", _D + "3p-8cards")),
    Plant("setup: the dealer chooses first, not the seat on the dealer's left", "SETUP-ORDER",
          _one("rules.setup", "setup_to_act", _dealer_chooses_first),
          (_S + "setup.setup_to_act", _W + "3p-8cards")),
    Plant("setup: any card of the deck may be given", "SETUP-FROM-DEALT",
          _one("rules.setup", "can_give", lambda original: lambda hand, card: True),
          (_S + "setup.can_give", _W + "3p-8cards")),
    Plant("setup: both passes go to the left", "SETUP-RESOLVE",
          _one("rules.setup", "receiving_seat", _both_passes_left),
          (_S + "setup.resolve_setup", _W + "3p-8cards", _D + "3p-8cards"), "N8"),
    Plant("setup: the cards given left and right go the other way", "SETUP-RESOLVE",
          _per_exhaustive("setup: the cards given left and right go the other way"),
          (_W + "3p-8cards", _S + "setup.resolve_setup")),
    Plant("setup: a Devil's Eye face-up pass lands in the giver's own row", "SETUP-RESOLVE",
          _per_exhaustive("setup: a Devil's Eye face-up pass lands in the giver's own row"),
          (_W + "2p-devils-eye", _D + "2p-devils-eye")),
    # -- play --
    Plant("play: the dealer leads the first trick", "FIRST-LEADER",
          _one("rules.play", "first_leader", lambda original: lambda config, dealer: dealer),
          (_S + "play.first_leader", _W + "3p-8cards")),
    Plant("play: play goes counter-clockwise", "TURN-ORDER",
          _one("rules.play", "next_to_play",
               lambda original: lambda config, seat: (seat - 1) % config.players),
          (_S + "play.next_to_play", _W + "3p-8cards", _D + "4p-11cards")),
    Plant("play: Devil's Eye face-up cards cannot be played", "CARD-HELD",
          _one("rules.play", "holds", lambda original: lambda hand, face_up, card: card in hand),
          (_S + "play.holds", _W + "2p-devils-eye")),
    Plant("play: no obligation to follow suit", "FOLLOW-SUIT",
          _per_exhaustive("play: no obligation to follow suit"),
          (_W + "3p-8cards", _S + "play.follow_suit")),
    Plant("play: a face-down Devil's Eye card must follow suit", "EYE-FOLLOW-SUIT",
          _one("rules.play", "devils_eye_playable", _hidden_cards_follow),
          (_S + "play.devils_eye_playable", _W + "2p-devils-eye", _D + "2p-devils-eye"), "N3"),
    Plant("play: the cheaper second bottle is bought", "TRICK-PRICE",
          _one("rules.play", "trick_price", _cheaper_bottle),
          (_S + "play.trick_price", _S + "play.resolve_trick", _W + "5p-24cards-2bottles",
           _D + "5p-24cards-2bottles"), "N2"),
    Plant("play: at a tie of the two prices the last bottle is bought", "TRICK-PRICE",
          _per_exhaustive("play: at a tie of the two prices the last bottle is bought"),
          (_W + "5p-24cards-2bottles", _S + "play.trick_price")),
    Plant("play: ranks compared by their whole part (2 and 2.5 tie)", "TRICK-WINNER",
          _one("rules.play", "trick_winner", _whole_ranks),
          (_S + "play.trick_winner", _S + "play.resolve_trick", _W + "3p-8cards-54-pairs",
           _D + "3p-8cards-54-pairs"), "N7"),
    Plant("play: only the led colour can win the trick", "TRICK-WINNER",
          _per_exhaustive("play: only the led colour can win the trick"),
          (_W + "3p-8cards", _S + "play.trick_winner", _S + "play.resolve_trick")),
    Plant("play: the bottle's owner recorded as the winning card's place in the trick",
          "BOTTLE-PURCHASE", _one("rules.play", "resolve_trick", _owner_recorded_by_position),
          (_S + "play.resolve_trick", _W + "3p-8cards")),
    Plant("play: the old price card goes to the new owner", "PRICE-CARD-RETURN",
          _one("rules.play", "resolve_trick", _price_card_to_buyer),
          (_S + "play.resolve_trick", _W + "3p-8cards", _D + "3p-8cards"), "N6"),
    Plant("play: the second bottle's old price card is never returned", "PRICE-CARD-RETURN",
          _per_exhaustive("play: the second bottle's old price card is never returned"),
          (_W + "5p-24cards-2bottles", _D + "5p-24cards-2bottles")),
    Plant("play: the winning card that bought the bottle is captured too", "TRICK-CAPTURE",
          _one("rules.play", "captured_by_winner",
               lambda original: lambda cards, winning, bought: cards),
          (_S + "play.captured_by_winner", _S + "play.resolve_trick", _W + "3p-8cards"),
          "BGA's capture"),
    Plant("play: seat 0 leads every trick", "NEXT-LEADER",
          _one("rules.play", "next_leader", lambda original: lambda winner: 0),
          (_S + "play.next_leader", _W + "3p-8cards"), "HEK's bug"),
    # -- scoring --
    Plant("scoring: a Devil's Eye round ends when the hidden hands are empty", "ROUND-END",
          _one("rules.scoring", "round_is_over", _hidden_hand_ends_the_round),
          (_S + "scoring.round_is_over", _W + "2p-devils-eye")),
    Plant("scoring: captured cards count one point each, not their coins", "SCORE-CAPTURED",
          _per_exhaustive("scoring: captured cards count one point each, not their coins"),
          (_W + "3p-8cards", _S + "scoring.captured_points")),
    Plant("scoring: the penalty counts only the Devil's Trick's last card", "SCORE-BOTTLE-PENALTY",
          _one("rules.scoring", "bottle_penalty", _last_card_of_the_trick),
          (_S + "scoring.bottle_penalty", _W + "3p-8cards"), "BGA's bug #125174"),
    Plant("scoring: the bottle's owner also scores its captured coins", "SCORE-INDIVIDUAL",
          _one("rules.scoring", "individual_scores", _owner_keeps_captured),
          (_S + "scoring.individual_scores", _W + "3p-8cards")),
    Plant("scoring: a team's single player's penalty is not doubled", "SCORE-TEAMS",
          _one("rules.scoring", "team_scores", _single_penalty_not_doubled),
          (_S + "scoring.team_scores", _W + "5p-14cards-teams", _D + "5p-14cards-teams"), "N1"),
    Plant("scoring: team mode scored as individual scores", "SCORE-ROUND",
          _one("rules.scoring", "round_scores", _teams_ignored),
          (_W + "4p-12cards-teams", _S + "scoring.round_scores")),
    # -- game --
    Plant("game: the totals replaced by the last round's scores", "GAME-TOTALS",
          _one("rules.game", "add_totals", lambda original: lambda totals, scores: scores),
          (_S + "game.add_totals", _W + "3p-8cards-2rounds")),
    Plant("game: the target checked before the round's scores are added", "GAME-END",
          _target_checked_early(), (_W + "3p-8cards-target", _D + "3p-8cards-target"), "N5"),
    Plant("game: the game ends a round late", "GAME-END",
          _per_exhaustive("game: the game ends a round late"),
          (_W + "3p-8cards", _S + "game.game_is_over")),
    Plant("game: the lowest total wins", "WINNERS",
          (("bottleimp.rules.game", "winners", _lowest_total_wins),
           ("bottleimp._view", "winners", _lowest_total_wins),
           ("bottleimp._encoding", "_winners_of_totals", _lowest_total_wins)),
          (_S + "game.winners", _W + "3p-8cards", _D + "3p-8cards")),
    Plant("game: any action admitted in any phase", "PHASE",
          _one("rules.game", "check_phase_admits", _any_action_admitted),
          (_S + "game.check_phase_admits", _W + "3p-8cards")),
    Plant("game: actions admitted once the game is over", "GAME-OVER",
          _one("rules.game", "check_not_over", lambda original: lambda phase: None),
          (_S + "game.check_not_over",)),
    # -- views --
    Plant("view: a seat sees every setup card given, the Devil's Trick's among them",
          "VIEW-HIDDEN", _one("_view", "received_gives", _leaked_setup), (_W + "3p-8cards",)),
)
"""Every plant, in the order of the rule catalogue."""


@contextmanager
def planted(plant: Plant) -> Iterator[None]:
    """Apply ``plant`` for the duration of the block (every attribute it replaces)."""
    undo: list[tuple[ModuleType, str, Any]] = []
    try:
        for module_name, attribute, replace in plant.replaces:
            module = importlib.import_module(module_name)
            original = getattr(module, attribute)
            undo.append((module, attribute, original))
            setattr(module, attribute, replace(original))
        yield
    finally:
        for module, attribute, original in reversed(undo):
            setattr(module, attribute, original)


def checks() -> list[str]:
    """Every check of CI's formal set, by the names the table uses."""
    walks = [spec.name for spec in EXHAUSTIVE.CONFIGURATIONS if spec.ci]
    return ([_W + name for name in walks] + [_D + name for name in walks]
            + [_S + prop.name for prop in SYMBOLIC.PROPERTIES])


def run_check(check: str) -> str | None:
    """Run one check of CI's formal set; what it found (``None``: it passed)."""
    kind, _, name = check.partition(" ")
    if kind == "walk":
        spec = {s.name: s for s in EXHAUSTIVE.CONFIGURATIONS}[name]
        try:
            EXHAUSTIVE.run(spec)
        except (AssertionError, _TEST_FAILURE) as violation:
            # A check of the state machines failed (an assert, or pytest.raises not raised).
            return str(violation).splitlines()[0] if str(violation) else "AssertionError"
        except Exception as error:  # a refusal, or a crash of the planted code: the walk fails
            return f"{type(error).__name__}: {error}"
        return None
    if kind == "differential":
        from restatement.differential import Differential, run_walk

        diff = Differential(stop_at_first=True)
        try:
            run_walk(name, differential=diff)
        except Exception as error:  # the first disagreement, the walk's own checks, or a crash
            if not diff.examples:  # a disagreement, if any, came first
                return f"{type(error).__name__}: {error}"
        return str(diff.examples[0]).splitlines()[0] if diff.examples else None
    if kind == "symbolic":
        prop = {p.name: p for p in SYMBOLIC.PROPERTIES}[name]
        outcome = SYMBOLIC.check(prop, "ci", 0)
        return outcome.counterexample or "refuted" if outcome.status == "refuted" else None
    raise ValueError(f"unknown check {check!r}")


def caught_by(plant: Plant, check: str) -> str | None:
    """What ``check`` finds with ``plant`` planted (``None``: the plant escapes it)."""
    with planted(plant):
        return run_check(check)


def rule_ids() -> list[str]:
    """The rule IDs of ``spec/rules.toml``, in its order."""
    with open(REPO / "spec" / "rules.toml", "rb") as file:
        return [entry["id"] for entry in tomllib.load(file)["rules"]]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="plants to run (default: every plant)")
    parser.add_argument("--matrix", action="store_true",
                        help="every plant against every check of CI's formal set")
    parser.add_argument("--json", metavar="FILE", help="write the outcomes to FILE")
    args = parser.parse_args(argv)
    chosen = [p for p in PLANTS if not args.names or p.name in args.names]
    missing = [rule for rule in rule_ids() if not any(p.rule == rule for p in PLANTS)]
    escaped = 0
    rows = []
    for plant in chosen:
        started = time.perf_counter()
        found = {check: caught_by(plant, check)
                 for check in (checks() if args.matrix else plant.catchers)}
        catching = [check for check, what in found.items() if what is not None]
        missed = [check for check in plant.catchers if found.get(check) is None]
        escaped += not catching or bool(missed)
        print(f"{plant.rule:22} {plant.name}\n    caught by {len(catching)}: "
              f"{', '.join(catching) or 'NOTHING'}"
              + (f"\n    NOT CAUGHT by the listed {', '.join(missed)}" if missed else "")
              + f"  ({time.perf_counter() - started:.1f} s)", flush=True)
        rows.append({"name": plant.name, "rule": plant.rule, "origin": plant.origin,
                     "catchers": list(plant.catchers), "caught_by": catching,
                     "first_finding": {check: found[check] for check in catching}})
    if args.json:
        Path(args.json).write_text(json.dumps(
            {"format": "bottleimp-plant-table", "version": 1, "matrix": args.matrix,
             "rules_without_a_plant": missing, "plants": rows}, indent=1) + "\n")
    print(f"{len(chosen)} plants, {len({p.rule for p in chosen})} rule IDs; "
          f"{escaped} escaped a listed check; rule IDs without a plant: {missing or 'none'}")
    return 1 if escaped or (missing and not args.names) else 0


if __name__ == "__main__":
    sys.exit(main())

"""Data faults rather than logic faults: when the peer's deck data differ from the library's.

Three kinds are told apart: which cards share a colour (it changes play: a ``colours`` fault),
a consistent renaming of the colours' names (play cannot show it: a note, never a failure), and
the cards' coins (a ``coins`` fault). Two ways to find them:

- ``declared_deck_fault``: the peer declared its own deck in its ``hello`` answer; each card
  whose colour or coins differ from the library's (or a rank it lacks or adds) is reported once,
  and the games are then played on the peer's own data, so that its logic is checked apart.
- ``infer_deck_fault``: the peer declared nothing, and disagreements follow a card rather than a
  rule. Legal-play disagreements (and plays refused for not following) say which cards the peer
  takes for the led colour; score disagreements say which seats' coins differ, and so which
  card "scores as 2 coins, the deck gives 3". A few cards (at most ``MAX_CARDS``) that, given
  other colours or coins, make the library give exactly the peer's answers in several failed
  games are a data fault; the games they explain form one ``DECK`` group.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from attrs import evolve, field, frozen

from ..actions import Play
from ..cards import Card, Colour, rank_key
from ..editions import edition_deck
from ..engine import legal_actions
from ..formats.json_input import JSON
from ..rules.scoring import round_scores
from ..state import GameState, Phase
from .lines import plural
from .vectors import same_json

if TYPE_CHECKING:
    from .capabilities import Capabilities
    from .game import Failure

__all__ = ["CardFault", "DeckFault", "declared_deck_faults", "infer_deck_faults", "MAX_CARDS"]

MAX_CARDS: Final = 10
"""The most cards an inferred data fault may involve (more is a logic fault)."""

SAMPLE: Final = 150
"""How many failed games of each kind (legal plays, scores) choose the changes of an inferred
data fault."""

_COLOUR_RULES: Final = ("FOLLOW-SUIT", "EYE-FOLLOW-SUIT")
_SCORE_RULES: Final = ("SCORE-CAPTURED", "SCORE-BOTTLE-PENALTY", "SCORE-TEAMS", "SCORE-ROUND")


@frozen
class CardFault:
    """One card whose data differ: the library's colour and coins and the peer's (``None``:
    unknown, or the peer lacks the rank)."""

    edition: str | None
    rank: float
    library_colour: str | None
    library_coins: int | None
    peer_colour: str | None
    peer_coins: int | None

    def to_json(self) -> dict[str, JSON]:
        return {"edition": self.edition, "card": self.rank,
                "library": None if self.library_colour is None else
                {"colour": self.library_colour, "coins": self.library_coins},
                "peer": {"colour": self.peer_colour, "coins": self.peer_coins}}

    def inferred_text(self) -> str:
        """What the games show of the card: the colour it follows or the coins it scores."""
        if self.peer_colour is not None:
            return (f"card {self.rank} follows the library's {self.peer_colour} cards; the deck "
                    f"makes it {self.library_colour}")
        return (f"card {self.rank} scores as {plural(self.peer_coins, 'coin')}, the deck gives "
                f"{self.library_coins}")

    @property
    def text(self) -> str:
        library = "no such card" if self.library_colour is None else \
            f"{self.library_colour}, {plural(self.library_coins, 'coin')}"
        if self.peer_colour is None and self.peer_coins is None:
            peer = "unknown"
        else:
            peer = ", ".join(part for part in (
                self.peer_colour, None if self.peer_coins is None else plural(self.peer_coins, "coin"))
                if part)
        where = f"{self.edition} " if self.edition else ""
        return f"{where}{self.rank}: the library {library}; the peer {peer}"


@frozen
class DeckFault:
    """The cards whose data differ (``source``: ``declared`` or ``inferred``; ``kind``:
    ``colours`` or ``coins``), and for an inferred fault the colours and coin changes that
    explain the failed games."""

    source: str
    cards: tuple[CardFault, ...]
    colours: tuple[tuple[Card, Colour], ...] = ()
    coins: tuple[tuple[Card, int], ...] = ()
    explained: frozenset[int] = field(factory=frozenset, eq=False)
    kind: str = "colours"

    def explains(self, failure: Failure) -> bool:
        """Whether the failed game is one this data fault explains."""
        return id(failure) in self.explained or _explained(failure, dict(self.colours),
                                                          dict(self.coins))

    def to_json(self) -> dict[str, JSON]:
        return {"source": self.source, "kind": self.kind,
                "cards": [card.to_json() for card in self.cards]}

    @property
    def lines(self) -> tuple[str, ...]:
        """One line per card, as a person reads it."""
        if self.source == "inferred":
            return tuple(card.inferred_text() for card in self.cards)
        if self.kind == "colours":
            return tuple(card.text if card.library_colour is None or card.peer_colour is None
                         else f"{card.edition} {card.rank}: the library {card.library_colour}; "
                         f"the peer's deck puts it with the library's {card.peer_colour} cards"
                         for card in self.cards)
        return tuple(card.text for card in self.cards)

    @property
    def text(self) -> str:
        return "; ".join(self.lines)


def _renaming(pairs: Sequence[tuple[str, str]]) -> dict[str, str]:
    """The library colour -> peer colour naming that most cards follow (one to one)."""
    counts = Counter(pairs)
    naming: dict[str, str] = {}
    for (mine, theirs), _ in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        if mine not in naming and theirs not in naming.values():
            naming[mine] = theirs
    return naming


def declared_deck_faults(capabilities: Capabilities,
                         editions: Iterable[str]) -> tuple[tuple[DeckFault, ...], tuple[str, ...]]:
    """The differences between the decks the peer declared and the library's, for ``editions``:
    a ``colours`` fault (cards that share a colour in one deck and not in the other, and ranks
    one deck lacks), a ``coins`` fault, and notes for a consistent renaming of colours."""
    colour_faults: list[CardFault] = []
    coin_faults: list[CardFault] = []
    notes: list[str] = []
    declared = dict(capabilities.decks)
    for edition in sorted(editions):
        cards = declared.get(edition)
        if cards is None:
            continue
        library = {card.rank: card for card in edition_deck(edition, 6 if edition != "classic" else 4)}
        peer = {card.rank: card for card in cards}
        both = sorted(set(library) & set(peer))
        naming = _renaming([(library[r].colour.value, peer[r].colour.value) for r in both])
        renamed = {mine: theirs for mine, theirs in naming.items() if mine != theirs}
        if renamed:
            notes.append(f"{edition}: the peer's deck names the colours otherwise ("
                         + ", ".join(f"the library's {m} is its {p}" for m, p in sorted(renamed.items()))
                         + "); play cannot show a renaming, so it is no failure")
        back = {theirs: mine for mine, theirs in naming.items()}
        for rank in sorted(set(library) | set(peer)):
            mine, theirs = library.get(rank), peer.get(rank)
            if mine is None or theirs is None:
                colour_faults.append(CardFault(
                    edition, rank,
                    None if mine is None else mine.colour.value, None if mine is None else mine.coins,
                    None if theirs is None else theirs.colour.value,
                    None if theirs is None else theirs.coins))
                continue
            plays_as = back.get(theirs.colour.value, theirs.colour.value)
            if plays_as != mine.colour.value:
                colour_faults.append(CardFault(edition, rank, mine.colour.value, mine.coins,
                                               plays_as, None))
            if theirs.coins != mine.coins:
                coin_faults.append(CardFault(edition, rank, mine.colour.value, mine.coins,
                                             None, theirs.coins))
    faults = tuple(DeckFault("declared", tuple(found), kind=kind)
                   for kind, found in (("colours", colour_faults), ("coins", coin_faults)) if found)
    return faults, tuple(notes)


# --- inference --------------------------------------------------------------------------------


def _trick_so_far(state: GameState) -> tuple[Play, ...]:
    plays = state.round.plays
    return plays[len(plays) - len(plays) % state.config.trick_size:]


def _peer_cards(state: GameState, value: JSON) -> set[Card] | None:
    if not isinstance(value, list):
        return None
    found = set()
    for item in value:
        if isinstance(item, bool) or not isinstance(item, (int, float)):
            return None
        card = state.config.cards_by_rank.get(item)
        if card is None:
            return None
        found.add(card)
    return found


def _colour_pairs(failure: Failure) -> tuple[Card, list[Card]] | None:
    """For a legal-plays disagreement after a lead: the led card and the cards whose "same
    colour as the led card" the peer judges otherwise than the library."""
    before = failure.before
    last = failure.exchanges[-1]
    if (failure.disagreement is None or failure.disagreement.rule not in _COLOUR_RULES
            or before is None or before.phase is not Phase.PLAY or last.actual is None
            or last.request.get("op") != "legal_plays" or before.to_act is None):
        return None
    trick = _trick_so_far(before)
    if not trick:
        return None
    led = trick[0].card
    seat = before.to_act
    peer = _peer_cards(before, last.actual.get("cards"))
    if peer is None:
        return None
    round_ = before.round
    if round_.face_up is not None:
        hidden, judged = set(round_.hands[seat]), set(round_.face_up[seat])
        if not hidden <= peer or not peer <= hidden | judged:
            return None
        chosen = peer & judged
    else:
        judged = set(round_.hands[seat])
        if not peer <= judged:
            return None
        chosen = peer
    same = {card: card.colour is led.colour for card in judged}
    if chosen == judged:
        peer_same = dict(same) if all(same.values()) else {card: False for card in judged}
    else:
        peer_same = {card: card in chosen for card in judged}
    return led, [card for card in judged if peer_same[card] != same[card]]


def _recoloured(state: GameState, colours: dict[Card, Colour]) -> GameState:
    """``state`` with some cards given other colours (the legal plays then follow them)."""
    def swap(card: Card) -> Card:
        colour = colours.get(card)
        return card if colour is None else Card(card.rank, colour, card.coins)

    round_ = state.round
    return evolve(state, round=evolve(
        round_,
        hands=tuple(tuple(map(swap, hand)) for hand in round_.hands),
        face_up=None if round_.face_up is None else tuple(tuple(map(swap, f)) for f in round_.face_up),
        plays=tuple(Play(p.seat, swap(p.card)) for p in round_.plays),
    ))


def _play_refusal_explained(failure: Failure, colours: dict[Card, Colour]) -> bool:
    """A play the two sides judge otherwise for following the led colour, which the peer's
    judgement follows once the cards have the given colours."""
    before = failure.before
    last = failure.exchanges[-1]
    if before is None or last.actual is None or failure.disagreement is None \
            or failure.disagreement.rule not in _COLOUR_RULES or before.phase is not Phase.PLAY:
        return False
    card = before.config.cards_by_rank.get(last.request.get("card"))  # type: ignore[arg-type]
    if card is None:
        return False
    try:
        legal = {a.card.rank for a in legal_actions(_recoloured(before, colours))
                 if isinstance(a, Play)}
    except Exception:  # a recoloured state the engine rejects explains nothing
        return False
    return (card.rank in legal) == (last.actual.get("ok") is True)


def _colours_explain(failure: Failure, colours: dict[Card, Colour]) -> bool:
    before = failure.before
    last = failure.exchanges[-1]
    if before is None or last.actual is None or not colours:
        return False
    if last.request.get("op") == "play":
        return _play_refusal_explained(failure, colours)
    if _colour_pairs(failure) is None:
        return False
    try:
        legal: list[JSON] = [a.card.rank for a in legal_actions(_recoloured(before, colours))
                             if isinstance(a, Play)]
    except Exception:  # a recoloured state the engine rejects explains nothing
        return False
    return same_json(sorted(legal, key=lambda rank: float(rank) if isinstance(rank, (int, float))
                            else 0.0), last.actual.get("cards"))


def _score_equations(
        failure: Failure) -> tuple[list[tuple[frozenset[Card], int, int]], set[Card]] | None:
    """For a score disagreement: per differing seat the cards behind its number (captured or
    Devil's Trick), how many times each card's coins count in it (negative for a penalty,
    doubled for a player without a partner) and the difference; and the cards behind the numbers
    that agree."""
    before = failure.before
    last = failure.exchanges[-1]
    if (failure.disagreement is None or failure.disagreement.rule not in _SCORE_RULES
            or before is None or last.actual is None or last.request.get("op") != "scores"):
        return None
    want, got = last.expected.get("scores"), last.actual.get("scores")
    config = before.config
    if not isinstance(want, list) or not isinstance(got, list) or len(got) != config.players:
        return None
    round_ = before.round
    nonzero: list[tuple[frozenset[Card], int, int]] = []
    cleared: set[Card] = set()
    for seat in range(config.players):
        team = (seat,) if config.teams is None else next(t for t in config.teams if seat in t)
        owned = sum(1 for bottle in round_.bottles if bottle.owner in team)
        times = 2 if config.teams is not None and len(team) == 1 else 1
        if owned:
            cards, times = frozenset(round_.devils_trick), -owned * times
        else:
            cards = frozenset(c for s in team for c in round_.captured[s])
        w, g = want[seat], got[seat]
        if isinstance(g, bool) or not isinstance(g, (int, float)) or not isinstance(w, (int, float)):
            return None
        if w == g:
            cleared |= cards
        else:
            nonzero.append((cards, times, int(g - w)))
    return nonzero, cleared


def _coins_explain(failure: Failure, coins: dict[Card, int]) -> bool:
    before = failure.before
    last = failure.exchanges[-1]
    if before is None or last.actual is None or not coins:
        return False
    if _score_equations(failure) is None:
        return False

    def swap(card: Card) -> Card:
        delta = coins.get(card)
        return card if delta is None else Card(card.rank, card.colour, card.coins + delta)

    round_ = before.round
    try:
        scores = round_scores(before.config, tuple(tuple(map(swap, pile)) for pile in round_.captured),
                              round_.bottles, tuple(map(swap, round_.devils_trick)))
    except Exception:
        return False
    wanted: list[JSON] = list(scores)
    return same_json(wanted, last.actual.get("scores"))


def _explained(failure: Failure, colours: dict[Card, Colour], coins: dict[Card, int]) -> bool:
    return _colours_explain(failure, colours) or _coins_explain(failure, coins)


def _greedy(sets: Sequence[Iterable[Card]], limit: int) -> list[Card]:
    """Cards that recur across ``sets``: each picked card touches at least two of them."""
    remaining = [set(s) for s in sets]
    chosen: list[Card] = []
    while remaining and len(chosen) < limit:
        counts = Counter(card for s in remaining for card in s)
        if not counts:
            break
        card, count = max(counts.items(), key=lambda item: (item[1], -rank_key(item[0])))
        if count < 2:
            break
        chosen.append(card)
        remaining = [s for s in remaining if card not in s]
    return chosen


def infer_deck_faults(failures: Sequence[Failure]) -> tuple[DeckFault, ...]:
    """The data faults that explain several of ``failures`` (see the module): a ``colours``
    fault, a ``coins`` fault, either, both or none."""
    colour_failures = [(f, p) for f in failures if (p := _colour_pairs(f)) is not None and p[1]]
    colour_options: list[tuple[Card, Colour]] = []
    if len(colour_failures) >= 2:
        suspects = _greedy([{led} | set(cards) for _, (led, cards) in colour_failures], MAX_CARDS)
        for card in suspects:
            # Another colour of the same deck (a colour the deck lacks follows nothing).
            decks = [f.script.config.cards for f, _ in colour_failures
                     if card in f.script.config.cards_by_rank.values()]
            present = {c.colour for deck in decks for c in deck}
            colour_options += [(card, colour) for colour in Colour
                               if colour is not card.colour and colour in present]
    coins: dict[Card, int] = {}
    score_failures = [(f, e) for f in failures if (e := _score_equations(f)) is not None and e[0]]
    if len(score_failures) >= 2:
        cleared: set[Card] = set()
        for _, (_, clear) in score_failures:
            cleared |= clear
        piles = [set(behind) - cleared for _, (equations, _) in score_failures
                 for behind, _, _ in equations]
        coin_suspects = _greedy([pile for pile in piles if pile], MAX_CARDS)
        for suspect in coin_suspects:
            deltas: Counter[int] = Counter()
            for _, (equations, _) in score_failures:
                for behind, times, diff in equations:
                    unknown = (set(behind) - cleared) & set(coin_suspects)
                    if unknown == {suspect} and diff % times == 0:
                        deltas[diff // times] += 1
            if deltas:
                coins[suspect] = deltas.most_common(1)[0][0]
        # A card's coins are a few, never negative.
        coins = {suspect: delta for suspect, delta in coins.items()
                 if delta and 0 <= suspect.coins + delta <= 12}
    # Forward selection: add the change that explains the most further games, while it explains
    # at least two (one game can be a coincidence), at most MAX_CARDS changes.
    # (The first SAMPLE games of each kind decide the changes; all are then checked.)
    relevant = [f for f, _ in colour_failures[:SAMPLE]] + [f for f, _ in score_failures[:SAMPLE]]
    colours: dict[Card, Colour] = {}
    chosen_coins: dict[Card, int] = {}

    def count(colour_map: dict[Card, Colour], coin_map: dict[Card, int]) -> int:
        return sum(1 for f in relevant if _explained(f, colour_map, coin_map))

    best = 0
    while len(colours) + len(chosen_coins) < MAX_CARDS:
        trials: list[tuple[int, dict[Card, Colour], dict[Card, int]]] = []
        for card, colour in colour_options:
            if card not in colours:
                trial = {**colours, card: colour}
                trials.append((count(trial, chosen_coins), trial, chosen_coins))
        for card, delta in coins.items():
            if card not in chosen_coins:
                trial_coins = {**chosen_coins, card: delta}
                trials.append((count(colours, trial_coins), colours, trial_coins))
        if not trials:
            break
        score, next_colours, next_coins = max(trials, key=lambda trial: trial[0])
        if score < best + 2:
            break
        best, colours, chosen_coins = score, next_colours, next_coins
    faults: list[DeckFault] = []
    for kind, colour_map, coin_map in (("colours", colours, {}), ("coins", {}, chosen_coins)):
        explained = [f for f in failures if _explained(f, colour_map, coin_map)]
        if len(explained) < 2:
            continue
        cards: list[CardFault] = []
        for changed in sorted(set(colour_map) | set(coin_map),
                              key=lambda card: (rank_key(card), card.colour.value, card.coins)):
            new_colour = colour_map.get(changed)
            new_delta = coin_map.get(changed)
            editions = sorted({f.script.config.edition for f in explained
                               if changed in f.script.config.cards_by_rank.values()})
            cards.append(CardFault(", ".join(editions) or None, changed.rank,
                                   changed.colour.value, changed.coins,
                                   None if new_colour is None else new_colour.value,
                                   None if new_delta is None else changed.coins + new_delta))
        cards.sort(key=lambda fault: (fault.rank, fault.edition or ""))
        faults.append(DeckFault("inferred", tuple(cards),
                                tuple(sorted(colour_map.items(), key=lambda i: rank_key(i[0]))),
                                tuple(sorted(coin_map.items(), key=lambda i: rank_key(i[0]))),
                                frozenset(id(f) for f in explained), kind))
    return tuple(faults)

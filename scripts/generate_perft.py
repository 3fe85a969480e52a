"""Write spec/conformance/perft/counts.json: perft counts of positions in every variant.

Running it again writes an identical file (``tests/test_perft.py`` fails when it is out of
date). Positions are seeded deals, states reached by taking seeded random legal actions from
them, and whole rounds of small custom decks; see spec/conformance/README.md, kind ``perft``.

    python scripts/generate_perft.py            # write the file
    python scripts/generate_perft.py --check    # exit 1 if the file is out of date
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from bottleimp import Action, Card, Colour, Config, GameState, Phase, apply, legal_actions, new_game  # noqa: E402
from bottleimp.formats._cases import format_case_file  # noqa: E402
from bottleimp.perft import PERFT_FORMAT, config_json, perft_case_to_json, remaining  # noqa: E402
from bottleimp.formats._json_input import JSON  # noqa: E402

TARGET = REPO / "spec" / "conformance" / "perft" / "counts.json"

_SMALL = tuple(
    Card(rank, (Colour.YELLOW, Colour.BLUE, Colour.RED)[i % 3], 1 + i % 3)
    for i, rank in enumerate([3, 21, 7, 12, 26, 5, 16, 9, 30, 14, 2, 11, 18, 24, 6, 10, 33])
)


def seeded_round(config: Config, seed: int, dealer: int) -> GameState:
    """The round ``dealer`` deals in the seeded game (earlier rounds played by a seeded chooser)."""
    rng = random.Random(seed)
    state = new_game(config, seed)
    while state.round.dealer != dealer or state.phase is not Phase.SETUP:
        state = apply(state, rng.choice(legal_actions(state)))
    return state


def walk(state: GameState, count: int, seed: int,
         until: str | None = None) -> tuple[GameState, list[Action]]:
    """``count`` seeded random legal actions from ``state`` (or until a condition holds:
    ``"bought"`` a bottle owned, ``"both"`` both bottles owned)."""
    rng = random.Random(seed)
    actions: list[Action] = []
    while len(actions) < count or (until and not _holds(state, until)):
        action = rng.choice(legal_actions(state))
        state = apply(state, action)
        actions.append(action)
        if remaining(state) == 0:
            raise ValueError("the walk ended the round")
    return state, actions


def _holds(state: GameState, condition: str) -> bool:
    owned = [bottle.owner is not None for bottle in state.round.bottles]
    return any(owned) if condition == "bought" else all(owned)


CaseWriter = Callable[[str, GameState, list[Action], list[int], bool, int | None], JSON]
"""How ``build`` writes one case: ``perft_case_to_json``, or (tests/test_perft.py) the same with
cached counts."""


def group(description: str, config: Config, cases: list[JSON]) -> JSON:
    return {"description": description, "config": config_json(config), "cases": cases}


def play_start(state: GameState) -> tuple[GameState, list[Action]]:
    """Every setup card given (the first legal choice each time): trick play begins."""
    actions: list[Action] = []
    while state.phase is Phase.SETUP:
        action = legal_actions(state)[0]
        state = apply(state, action)
        actions.append(action)
    return state, actions


def late(state: GameState, left: int, seed: int, until: str | None = None) -> tuple[GameState, list[Action]]:
    """Seeded random actions until ``left`` actions remain in the round (and the condition)."""
    return walk(state, remaining(state) - left, seed, until)


def build(case: CaseWriter = perft_case_to_json) -> dict[str, JSON]:
    groups: list[JSON] = []

    # Devil's Eye, both editions.
    for edition in ("classic", "matagot-2024"):
        config = Config(players=2, edition=edition)
        deal = seeded_round(config, 2, 0)
        cases = [case("the deal: setup choices (two discards, a face-up and a hidden pass)",
                      deal, [], [1, 2, 3, 4], False, 3)]
        after, actions = play_start(deal)
        cases.append(case("trick play begins (A, B, A, B; hidden cards always playable)",
                          deal, actions, [1, 2, 3, 4], False, 2))
        mid, actions = late(deal, 10, 5)
        cases.append(case("the last ten plays: to the end of the round", deal, actions,
                          [1, 2, 3], True, 2))
        dealt_by_1 = seeded_round(config, 3, 1)
        mid, actions = late(dealt_by_1, 8, 6, "bought")
        cases.append(case("dealer 1, a bottle bought, the last eight plays", dealt_by_1, actions,
                          [1, 2, 3], True, 2))
        groups.append(group(f"{edition}, 2 players (Devil's Eye)", config, cases))

    # Three and four players, both editions.
    for players, edition in ((3, "classic"), (4, "classic"), (4, "matagot-2024")):
        config = Config(players=players, edition=edition)
        deal = seeded_round(config, 7, 0)
        cases = [case("the deal: each seat's discard, left and right passes", deal, [],
                      [1, 2, 3], False, 2)]
        _, actions = play_start(deal)
        cases.append(case("trick play begins", deal, actions, [1, 2, 3], False, 2))
        dealt = seeded_round(config, 8, players - 1)
        _, actions = late(dealt, 2 * players, 9, "bought")
        cases.append(case(f"dealer {players - 1}, a bottle bought, the last two tricks",
                          dealt, actions, [1, 2], True, 1))
        groups.append(group(f"{edition}, {players} players", config, cases))

    # Five and six players, 54 cards; the short dealer; the Second Bottle.
    for players, bottles in ((5, 1), (5, 2), (6, 2)):
        config = Config(players=players, edition="matagot-2024", bottles=bottles)
        deal = seeded_round(config, 11, 2)
        short = " (the dealer, dealt one card fewer, gives no discard)" if players == 5 else ""
        cases = [case(f"dealer 2: the deal{short}", deal, [], [1, 2], False, 2)]
        _, actions = play_start(deal)
        cases.append(case("trick play begins", deal, actions, [1, 2, 3], False, 1))
        until = "both" if bottles == 2 else "bought"
        _, actions = late(deal, 2 * players, 12, until)
        what = "both bottles bought" if bottles == 2 else "the bottle bought"
        cases.append(case(f"{what}, the last two tricks", deal, actions, [1, 2], True, 1))
        label = "two bottles" if bottles == 2 else "one bottle"
        groups.append(group(f"matagot-2024, {players} players, {label}", config, cases))

    # Teams.
    for players, teams in ((4, ((0, 2), (1, 3))), (5, ((0, 3), (1, 4), (2,))),
                           (6, ((0, 3), (1, 4), (2, 5)))):
        edition = "classic" if players == 4 else "matagot-2024"
        config = Config(players=players, edition=edition, teams=teams)
        deal = seeded_round(config, 13, 1)
        _, actions = late(deal, 2 * players, 14, "bought")
        cases = [case("dealer 1, the bottle bought, the last two tricks", deal, actions,
                      [1, 2], True, 1)]
        groups.append(group(f"{edition}, {players} players, teams", config, cases))

    # Whole rounds of small custom decks, setup included.
    for players, size, bottles in ((3, 8, 1), (3, 9, 1), (4, 11, 1), (5, 14, 2)):
        config = Config(players=players, deck=_SMALL[:size], bottles=bottles)
        deal = seeded_round(config, 15, 0)
        cases = [case("the deal: every action sequence of the round", deal, [], [1, 2, 3], True, 1)]
        if players == 5:
            _, actions = play_start(deal)
            cases.append(case("trick play with two bottles: to the end", deal, actions,
                              [1, 2], True, 1))
        groups.append(group(f"custom {size}-card deck, {players} players"
                            + (", two bottles" if bottles == 2 else ""), config, cases))
    return {
        "format": PERFT_FORMAT,
        "kind": "perft",
        "description": "Perft counts: the number of legal action sequences from a position to a "
        "depth and to the end of the round, and the divide counts under each first action",
        "generated_by": "scripts/generate_perft.py",
        "groups": groups,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is out of date")
    args = parser.parse_args(argv)
    text = format_case_file(build())
    if args.check:
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else ""
        if current != text:
            print(f"{TARGET} is out of date: run scripts/generate_perft.py")
            return 1
        return 0
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(text, encoding="utf-8")
    print(f"wrote {TARGET.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

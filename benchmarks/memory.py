"""Memory: bytes held per state along a long game, and per million positions in a search table.

States are immutable and share every part an action did not change (the tuples of the zones it
left alone, the configuration, the cards and the action objects), so a game's states cost far
less together than one state's full size times their number. Two measures:

- **per state in a long game**: every state of a game (4 players, 8 rounds, each kept), their
  unique objects summed with ``sys.getsizeof`` (each object counted once however many states
  hold it; the configuration, cards, actions and enum members, which exist once per process,
  left out), divided by the number of states; beside it the full size of the last state alone
  and what ``tracemalloc`` saw allocated while the states were kept.
- **per million positions in a search table**: a dict from state to a number, filled with the
  states of random games, measured with ``tracemalloc`` (keys, values and the dict itself),
  scaled to a million entries.

    python benchmarks/memory.py [--players 4] [--positions 100000]
"""

from __future__ import annotations

import argparse
import enum
import gc
import random
import sys
import tracemalloc

import bottleimp
from bottleimp._actions import Give, Play, StartRound
from bottleimp._cards import Card

SHARED = (Card, bottleimp.Config, Play, Give, StartRound, enum.Enum, type)
"""Objects that exist once per process whatever the states: not counted."""


def unique_bytes(roots: list[object]) -> tuple[int, int]:
    """(bytes, objects) of the objects reachable from ``roots``, each counted once."""
    seen: set[int] = set()
    total = count = 0
    stack = list(roots)
    while stack:
        item = stack.pop()
        if id(item) in seen or item is None or isinstance(item, SHARED):
            continue
        seen.add(id(item))
        total += sys.getsizeof(item)
        count += 1
        stack.extend(gc.get_referents(item))
    return total, count


def long_game(players: int, seed: int) -> list[bottleimp.GameState]:
    rng = random.Random(seed)
    state = bottleimp.new_game(bottleimp.Config(players=players), seed)
    states = [state]
    while not state.is_over:
        state = bottleimp.apply(state, rng.choice(bottleimp.legal_actions(state)))
        states.append(state)
    return states


def per_state(players: int) -> None:
    long_game(players, 0)  # every card and action object exists before measuring
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    states = long_game(players, 1)
    traced = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    together, objects = unique_bytes(list(states))
    alone, _ = unique_bytes([states[-1]])
    print(f"a {players}-player game of {len(states)} states, every state kept:")
    print(f"  {together / len(states):8,.0f} bytes per state (unique objects, {objects:,} of them:"
          f" {together:,} bytes)")
    print(f"  {traced / len(states):8,.0f} bytes per state allocated and kept (tracemalloc)")
    print(f"  {alone:8,.0f} bytes: the last state alone, with its whole history")


def search_table(players: int, positions: int) -> None:
    config = bottleimp.Config(players=players)
    rng = random.Random(2)
    bottleimp.new_game(config, 0)
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    table: dict[bottleimp.GameState, int] = {}
    seed = 0
    while len(table) < positions:
        state = bottleimp.new_game(config, seed)
        seed += 1
        while not state.is_over and len(table) < positions:
            table[state] = len(table)
            state = bottleimp.apply(state, rng.choice(bottleimp.legal_actions(state)))
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    print(f"a search table (dict state -> int) of {len(table):,} positions from random "
          f"{players}-player games:")
    print(f"  {held / len(table):8,.0f} bytes per position, {held / len(table) * 1e6 / 2**30:.2f} GiB"
          " per million positions (tracemalloc)")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    parser.add_argument("--positions", type=int, default=100_000, help="table size measured")
    args = parser.parse_args()
    per_state(args.players)
    search_table(args.players, args.positions)


if __name__ == "__main__":
    main()

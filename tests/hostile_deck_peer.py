"""A test-bed peer: the reference peer whose ``hello`` declares a hostile deck of its own.

``python tests/hostile_deck_peer.py KIND``, KIND one of ``rank-twice`` (a rank declared twice),
``negative-coin``, ``unknown-colour`` and ``extra-cards`` (20,000 cards the edition lacks).
Every other answer is the reference peer's."""

import json
import subprocess
import sys
from pathlib import Path

PEER = Path(__file__).resolve().parent.parent / "examples" / "reference_peer" / "peer.py"


def hostile(kind: str, deck: list[list[object]]) -> list[list[object]]:
    if kind == "rank-twice":
        deck[1] = [deck[0][0], deck[1][1], deck[1][2]]
    elif kind == "negative-coin":
        deck[2][2] = -4
    elif kind == "unknown-colour":
        deck[3][1] = "purple"
    elif kind == "extra-cards":
        deck += [[100 + i, "red", 1] for i in range(20_000)]
    return deck


def main() -> int:
    kind = sys.argv[1]
    inner = subprocess.Popen([sys.executable, str(PEER), "--declare-deck"], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert inner.stdin is not None and inner.stdout is not None
    for line in sys.stdin:
        inner.stdin.write(line)
        inner.stdin.flush()
        answer = json.loads(inner.stdout.readline())
        request = json.loads(line)
        if request.get("op") == "hello" and answer.get("ok"):
            decks = answer["capabilities"]["decks"]
            decks["classic"] = hostile(kind, decks["classic"])
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
        if request.get("op") == "quit":
            break
    inner.terminate()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The masked-PPO example (examples/sb3_train.py) trains and evaluates at a tiny size (skipped,
with a message, where the ``sb3`` extra is absent). The learning curve it prints at full size is
in docs/guide/bots.md."""

from __future__ import annotations

from typing import Any

import pytest

from example_scripts import load_example

pytest.importorskip("sb3_contrib", reason="sb3-contrib is not installed (extra sb3)")
pytest.importorskip("torch", reason="PyTorch is not installed (extra sb3)")


def test_the_masked_ppo_example_trains_and_prints_win_rates(capsys: Any) -> None:
    example = load_example("sb3_train")
    curve = example.main(["--players", "3", "--steps", "128", "--evaluations", "2",
                          "--games", "6", "--n-steps", "64"])
    assert list(curve) == ["0", "64", "128"]
    for rates in curve.values():
        assert set(rates) == {"random", "heuristic"}
        assert all(rate.games == 6 and 0 <= rate.wins <= 6 for rate in rates.values())
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].split("|")[1].strip() == "vs random"
    assert [line.split("|")[0].strip() for line in lines[2:5]] == ["0", "64", "128"]

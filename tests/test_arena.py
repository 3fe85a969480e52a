"""``bottleimp arena`` and ``bottleimp.bots._arena``: seats rotated over the same deals, Wilson's
interval, the table, the ``bottleimp-arena-report/1`` report against its schema, bad options."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

# No stubs unless types-jsonschema is installed; the ignore covers both cases.
import jsonschema  # type: ignore[import-untyped, unused-ignore]
import pytest

from bottleimp import Config
from bottleimp.bots._arena import ARENA_REPORT_FORMAT, fill_lineup, play_arena, play_deal, wilson_interval
from bottleimp.cli import main
from bottleimp._errors import BotError

SCHEMA = json.loads(
    (Path(__file__).resolve().parent.parent / "spec" / "reports" / "arena-report.schema.json")
    .read_text(encoding="utf-8")
)


def _run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main(list(argv))
        except SystemExit as exit_:
            status = int(exit_.code or 0)
    return status, out.getvalue(), err.getvalue()


# The expected bounds were computed with another implementation, SciPy 1.17's
# ``scipy.stats.binomtest(wins, games).proportion_ci(0.95, method="wilson")`` (not imported
# here: it takes seconds to load).
@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (0, 10, 0.0, 0.277533),
        (10, 10, 0.722467, 1.0),
        (40, 100, 0.309401, 0.497997),
        (3, 7, 0.15822, 0.749542),
        (81, 250, 0.26903, 0.384297),
        (499, 1000, 0.468073, 0.529934),
    ],
)
def test_wilson_intervals_agree_with_scipy(wins: int, games: int, low: float, high: float) -> None:
    assert wilson_interval(wins, games) == pytest.approx((low, high), abs=1e-6)


def test_the_lineup_is_filled_with_its_last_bot_and_checked() -> None:
    assert fill_lineup(("search", "random"), 4) == ("search", "random", "random", "random")
    with pytest.raises(BotError, match="3 bots cannot sit at a table of 2"):
        fill_lineup(("search", "random", "random"), 2)
    with pytest.raises(BotError, match="unknown bot 'clever'"):
        fill_lineup(("clever",), 3)


def test_every_bot_sits_in_every_seat_equally_often_on_the_same_deal() -> None:
    config = Config(players=3, rounds=1)
    outcomes = play_deal(config, ("heuristic", "random", "random"), seed=5, deal=0, worlds=1)
    assert len(outcomes) == 9
    seats = [(game_index % 3, name) for game_index, (name, _, _) in enumerate(outcomes)]
    for seat in range(3):
        assert sorted(name for s, name in seats if s == seat) == ["heuristic", "random", "random"]
    games = [outcomes[i : i + 3] for i in (0, 3, 6)]
    assert [sum(score for _, _, score in game) for game in games]  # every game was scored
    assert all(any(won for _, won, _ in game) for game in games)


def test_the_report_sums_every_seat_game() -> None:
    report = play_arena(Config(players=3, rounds=1), ("heuristic", "random"), deals=4, seed=9)
    assert report.games == 12
    assert [(r.agent, r.games) for r in report.results] == [("heuristic", 12), ("random", 24)]
    for result in report.results:
        assert result.win_rate == result.wins / result.games
        assert result.win_rate_ci95 == wilson_interval(result.wins, result.games)
        assert result.mean_score_ci95[0] <= result.mean_score <= result.mean_score_ci95[1]


def test_the_arena_prints_a_table_with_intervals() -> None:
    status, out, _ = _run("arena", "--players", "3", "--agents", "heuristic,random", "--games", "2")
    assert status == 0
    lines = out.splitlines()
    assert lines[0].startswith("3 players, one-round games, lineup heuristic,random,random: 2 deals")
    assert lines[1].split()[:5] == ["agent", "games", "wins", "win", "rate"]
    assert lines[2].split()[:2] == ["heuristic", "6"] and "%, " in lines[2]
    assert lines[3].split()[:2] == ["random", "12"]


def test_the_json_report_follows_its_schema_and_does_not_depend_on_jobs() -> None:
    argv = ("arena", "--players", "3", "--agents", "search,heuristic,random", "--games", "2",
            "--worlds", "1", "--rounds", "2", "--json")
    status, out, _ = _run(*argv)
    assert status == 0
    report = json.loads(out)
    jsonschema.validate(report, SCHEMA)
    assert report["format"] == ARENA_REPORT_FORMAT
    assert report["config"]["rounds"] == 2 and report["games"] == 6
    assert _run(*argv, "--jobs", "2")[1] == out


def test_the_schema_refuses_a_report_without_results() -> None:
    status, out, _ = _run("arena", "--players", "3", "--games", "1", "--worlds", "1", "--json")
    report = json.loads(out)
    del report["results"]
    with pytest.raises(jsonschema.ValidationError, match="results"):
        jsonschema.validate(report, SCHEMA)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("--agents", "search,clever"), "unknown bot 'clever'"),
        (("--players", "2", "--agents", "search,heuristic,random"), "3 bots cannot sit"),
        (("--games", "0"), "expected a positive integer, not 0"),
        (("--players", "5", "--edition", "classic"), "CONFIG-EDITION"),
    ],
)
def test_bad_options_exit_2_with_a_message(argv: tuple[str, ...], message: str) -> None:
    status, out, err = _run("arena", *argv)
    assert status == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_the_arena_help_names_every_bot_and_which_need_numba() -> None:
    """``bottleimp arena --help`` lists every bot ``--agents`` accepts (``bottleimp.bots.BOTS``),
    and says which need numba."""
    from bottleimp.bots import BOTS, NEEDS_NUMBA

    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit):
        main(["arena", "--help"])
    text = " ".join(out.getvalue().split())
    assert f"({', '.join(BOTS)};" in text, text
    assert all(f"{name} needs the batch extra, numba" in text for name in NEEDS_NUMBA), text

"""The command line's numbers have one set of argparse types (``bottleimp.cli._arguments``):
every option of every subcommand that takes a number uses one of them or plain ``int`` (seeds,
seats and counts checked by ``choices`` or later), and each refuses what it should with a usage
error naming the option (exit status 2), never a traceback and never a silent nan."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Callable

import pytest

from bottleimp.cli import build_parser, main
from bottleimp.cli import _arguments

Kind = Callable[[str], float]

SHARED: set[Kind] = {_arguments.positive_int, _arguments.non_negative_int, _arguments.seconds,
          _arguments.positive_seconds}
REFUSED: dict[Kind, list[str]] = {
    _arguments.positive_int: ["0", "-1", "x", "1.5"],
    _arguments.non_negative_int: ["-1", "x", "nan"],
    _arguments.seconds: ["-1", "nan", "inf", "x"],
    _arguments.positive_seconds: ["0", "-1", "nan", "inf", "x"],
}
ACCEPTED: dict[Kind, list[tuple[str, float]]] = {
    _arguments.positive_int: [("1", 1), ("12", 12)],
    _arguments.non_negative_int: [("0", 0), ("7", 7)],
    _arguments.seconds: [("0", 0.0), ("2.5", 2.5)],
    _arguments.positive_seconds: [("0.01", 0.01), ("60", 60.0)],
}


def _options() -> list[tuple[str, argparse.Action]]:
    parser = build_parser()
    subparsers = next(action for action in parser._actions
                      if isinstance(action, argparse._SubParsersAction))
    return [(command, action) for command, sub in subparsers.choices.items()
            for action in sub._actions if action.type is not None and action.option_strings]


def test_no_subcommand_has_a_number_type_of_its_own_or_a_bare_float() -> None:
    options = _options()
    numeric = [(command, action) for command, action in options
               if action.type in SHARED or action.type in (int, float)]
    assert len(numeric) >= 8, numeric  # the walk over the parsers found the options
    for command, action in options:
        assert action.type is not float, (command, action.option_strings)
        if action.type is int:
            continue
        module = getattr(action.type, "__module__", "")
        name = getattr(action.type, "__name__", "")
        if name.lstrip("_") in ("players", "bottles", "depth_argument", "bot_names"):
            continue  # lists and depths: not numbers, each parsed in one place
        assert action.type in SHARED, (command, action.option_strings, module, name)


@pytest.mark.parametrize("command,action",
                         [(command, action) for command, action in _options()
                          if action.type in SHARED],
                         ids=lambda value: value if isinstance(value, str) else "/".join(
                             getattr(value, "option_strings", [])))
def test_each_numeric_option_refuses_bad_numbers_naming_itself(
    command: str, action: argparse.Action
) -> None:
    assert action.type in SHARED
    kind: Kind = action.type
    option = action.option_strings[-1]
    for text in REFUSED[kind]:
        err = io.StringIO()
        with contextlib.redirect_stderr(err), pytest.raises(SystemExit) as leaving:
            main([command, f"{option}={text}"])
        assert leaving.value.code == 2, (option, text)
        assert f"argument {'/'.join(action.option_strings)}" in err.getvalue(), err.getvalue()
        assert "Traceback" not in err.getvalue()


@pytest.mark.parametrize("kind", sorted(SHARED, key=lambda kind: getattr(kind, "__name__", "")),
                         ids=lambda kind: getattr(kind, "__name__", "?"))
def test_each_shared_type_takes_its_numbers_and_refuses_the_rest(kind: Kind) -> None:
    for text, value in ACCEPTED[kind]:
        assert kind(text) == value
    for text in REFUSED[kind]:
        with pytest.raises(argparse.ArgumentTypeError, match=f"not '?{text}'?$"):
            kind(text)

"""Every ``--help`` of the command line reads right: each option and argument of every
subcommand has a text of its own, and no text shows argparse's escape ``%%`` (a ``%`` in a
``description`` is printed as written, only a ``help`` text is %-formatted)."""

from __future__ import annotations

import argparse
import contextlib
import io

import pytest

from bottleimp.cli import build_parser, main


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    subparsers = next(action for action in parser._actions
                      if isinstance(action, argparse._SubParsersAction))
    return {"": parser, **subparsers.choices}


def _help(command: str) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), pytest.raises(SystemExit) as leaving:
        main([command, "--help"] if command else ["--help"])
    assert leaving.value.code == 0
    return out.getvalue()


def options_without_text(parser: argparse.ArgumentParser) -> list[str]:
    """The options and arguments of ``parser`` whose ``--help`` line has no text."""
    return [action.option_strings[-1] if action.option_strings else action.dest
            for action in parser._actions
            if not isinstance(action, argparse._SubParsersAction)
            and action.help is not argparse.SUPPRESS and not (action.help or "").strip()]


SUBCOMMANDS = sorted(_subcommands())


def test_every_subcommand_is_checked() -> None:
    assert {"simulate", "play", "arena", "validate", "perft", "render",
            "conformance"} <= set(SUBCOMMANDS)


@pytest.mark.parametrize("command", SUBCOMMANDS)
def test_every_option_of_every_subcommand_has_a_help_text(command: str) -> None:
    parser = _subcommands()[command]
    assert options_without_text(parser) == []
    text = _help(command)
    assert "%%" not in text, [line for line in text.splitlines() if "%%" in line]
    assert parser.description or not command, f"{command} has no description"


def test_an_option_without_text_and_a_doubled_percent_are_found() -> None:
    """The checks can fail: a parser with a bare option, and a description escaped as a help
    text would be."""
    parser = argparse.ArgumentParser(description="95%% intervals")
    parser.add_argument("--players", type=int)
    parser.add_argument("--seed", help="the seed")
    assert options_without_text(parser) == ["--players"]
    assert "%%" in parser.format_help()

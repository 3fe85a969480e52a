"""``bottleimp conformance``: check another implementation against the library.

- ``--cmd "COMMAND"``: the differential harness. Runs COMMAND, speaks bottleimp-protocol/3 to it
  (spec/protocol.md), plays generated games inside what it declares it supports and
  compares every answer with the library's. Prints a table of the failure groups (one per first
  disagreement: request and rule), the smallest game of each, the refusal coverage table, and
  last the summary line ``N passed, N failed`` where N counts games; writes each group's
  smallest game as a record into ``--out``.
- ``--vectors DIR``: checks the library against the conformance cases in DIR
  (spec/conformance); with ``--cmd``, asks the peer every case through the protocol instead.
- ``--serve``: the library itself answers ``bottleimp-protocol/3`` on stdin/stdout;
  its answers are the protocol's JSON lines, so ``--json`` is refused with it.

Exit status: 0 everything agrees; 1 something failed; 2 the run could not start (bad options,
the command cannot be started, unreadable cases). With ``--json`` exactly one
JSON object is printed on stdout in every case, exit status 2 included (format
``bottleimp-conformance-report/3``, schema ``spec/reports/conformance-report.schema.json``).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from .._editions import EDITIONS
from .._errors import HarnessError, RecordError
from ..formats._json_input import JSON
from ..conformance._peer import clip, plural
from ._arguments import non_negative_int, positive_int, positive_seconds, seconds

if TYPE_CHECKING:
    from ..conformance._diagnose import DeckFault
    from ..conformance._harness import Failure, HarnessReport
    from ..conformance._cases import RemoteReport


def add_parser(subparsers: Any) -> None:
    """Register the ``conformance`` subcommand."""
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "conformance",
        help="differential harness: compare another implementation with the library",
        description="Play generated games against another implementation over "
        "bottleimp-protocol/3 (spec/protocol.md) and compare every answer with the library's; "
        "or check the library (or, with --cmd, the other implementation) against the "
        "conformance cases; or serve the protocol.",
    )
    parser.add_argument("--cmd", metavar="COMMAND",
                        help="the other implementation's command line (split like a POSIX shell)")
    parser.add_argument("--vectors", metavar="DIR", nargs="?", const="",
                        help="check the conformance cases in DIR (without DIR, those shipped "
                        "with the package): the library's answers, or "
                        "with --cmd the other implementation's, asked through the protocol")
    parser.add_argument("--serve", action="store_true",
                        help="answer bottleimp-protocol/3 requests on stdin/stdout "
                        "(the answers are the protocol's JSON lines: not with --json)")
    parser.add_argument("--cwd", metavar="DIR", help="the working directory of COMMAND")
    parser.add_argument("--examples", type=positive_int, default=100, metavar="N",
                        help="games to generate (default 100)")
    parser.add_argument("--seed", type=int, default=0, metavar="S",
                        help="seed of the generated games (default 0): same seed, same games")
    parser.add_argument("--timeout", type=positive_seconds, default=5.0, metavar="SECONDS",
                        help="time the other side has to answer one request (default 5)")
    parser.add_argument("--shrink-seconds", "--shrink-time", dest="shrink_seconds",
                        type=seconds, default=60.0, metavar="SECONDS",
                        help="time spent shrinking, shared by the failure groups (default 60; "
                        "0: no shrinking)")
    parser.add_argument("--out", default=".", metavar="DIR",
                        help="where each group's smallest failing game is written as a record "
                        "(default: the current directory)")
    parser.add_argument("--players", type=_players, metavar="N,N",
                        help="play only these player counts (within the peer's capabilities)")
    parser.add_argument("--edition", action="append", choices=EDITIONS, metavar="EDITION",
                        help="play only this edition (repeatable): " + ", ".join(EDITIONS))
    parser.add_argument("--bottles", type=_bottles, metavar="N,N",
                        help="play only these bottle counts: 1, 2 or 1,2")
    parser.add_argument("--no-teams", action="store_true", help="play no team games")
    parser.add_argument("--min-refusals", type=positive_int, default=3, metavar="N",
                        help="send every kind of illegal request at least N times (default 3)")
    parser.add_argument("--questions", type=non_negative_int, default=100, metavar="N",
                        help="ask position questions (legal plays, trick, setup, scores) drawn "
                        "from N random rounds, apart from the games, as case requests: up to "
                        "4 per round (default 100; 0: none)")
    parser.add_argument("--json", action="store_true",
                        help="print the result as one JSON object instead of tables")
    parser.set_defaults(run=run, parser=parser)
    _json_usage_errors(parser)


def _json_usage_errors(parser: argparse.ArgumentParser) -> None:
    """Make a usage error print the report's JSON object too when ``--json`` was given (the
    options are parsed before ``run`` can see them)."""
    parse_known = parser.parse_known_args
    usage_error = parser.error
    given: list[str] = []

    def remember(args: Sequence[str] | None = None, namespace: Any = None) -> Any:
        given[:] = list(args or [])
        return parse_known(args, namespace)

    def error(message: str) -> Any:
        if "--json" in given:
            _print_error(message, as_json=True)
            parser.exit(2)
        usage_error(message)

    setattr(parser, "parse_known_args", remember)
    setattr(parser, "error", error)


def usage_error_json(message: str) -> dict[str, JSON]:
    """The object ``--json`` prints for options the top-level parser refused (exit 2), such as
    an unknown option: the report's error object."""
    from ..conformance._report import error_to_json

    return error_to_json(message)


def _print_error(message: str, as_json: bool) -> int:
    """A run that could not start: the message on stderr, and with ``--json`` the report's one
    JSON object on stdout. Returns exit status 2."""
    from ..conformance._report import error_to_json

    print(f"bottleimp conformance: {message}", file=sys.stderr)
    if as_json:
        print(json.dumps(error_to_json(message)))
    return 2


def _numbers(text: str, low: int, high: int, what: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what} such as 3,4, not {text!r}") from None
    if not values or any(not low <= value <= high for value in values):
        raise argparse.ArgumentTypeError(f"{what} are {low} to {high}, not {text}")
    return values


def _players(text: str) -> tuple[int, ...]:
    return _numbers(text, 2, 6, "player counts")


def _bottles(text: str) -> tuple[int, ...]:
    return _numbers(text, 1, 2, "bottle counts")


def run(args: argparse.Namespace) -> int:
    """Run the chosen mode; returns the exit status."""
    chosen = sum(1 for mode in (args.serve, args.cmd is not None or args.vectors is not None)
                 if mode)
    if chosen != 1:
        args.parser.error("give one of --cmd, --vectors (either or both) or --serve")
    if args.serve and args.json:
        # --serve writes the protocol's answers on stdout; a report object there would be
        # read as an answer.
        args.parser.error("--serve answers the protocol on stdout, one JSON line per request; "
                          "it prints no report, so --json does not go with it")
    if args.serve:
        from ..conformance._protocol import main_serve

        return main_serve()
    command: list[str] | None = None
    if args.cmd is not None:
        try:
            command = shlex.split(args.cmd)
        except ValueError as error:
            return _print_error(f"--cmd: {error}", args.json)
        if not command:
            return _print_error("--cmd is empty", args.json)
    if args.vectors is not None:
        if not args.vectors:
            from ..conformance._vectors import conformance_data

            args.vectors = str(conformance_data())
        if command is not None:
            return _remote_vectors(command, args)
        return _vectors(args.vectors, args.json)
    assert command is not None
    return _differential(command, args)


def _vectors(directory: str, as_json: bool) -> int:
    from ..conformance._vectors import check_suite

    from ..conformance._report import REPORT_FORMAT

    try:
        outcomes = check_suite(directory)
    except RecordError as error:
        return _print_error(str(error), as_json)
    failed = [outcome for outcome in outcomes if not outcome.passed]
    if as_json:
        print(json.dumps({
            "format": REPORT_FORMAT, "mode": "vectors", "exit_status": 1 if failed else 0,
            "summary": {"passed": len(outcomes) - len(failed), "failed": len(failed)},
            "failures": [{"where": o.case.where, "description": o.case.description,
                          "expected": o.case.expected, "library": o.actual,
                          "message": o.message} for o in failed],
        }))
        return 1 if failed else 0
    for outcome in failed:
        case = outcome.case
        print(f"FAIL {case.where}: {case.description}")
        if outcome.message is not None:
            print(f"  {outcome.message}")
        else:
            print(f"  expected {json.dumps(case.expected)}\n  library  {json.dumps(outcome.actual)}")
    print(f"{len(outcomes) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def _remote_vectors(command: list[str], args: argparse.Namespace) -> int:
    from ..conformance._cases import run_remote_vectors

    try:
        report = run_remote_vectors(command, args.vectors, timeout=args.timeout, cwd=args.cwd)
    except (HarnessError, RecordError, OSError) as error:
        return _print_error(str(error), args.json)
    if args.json:
        print(json.dumps(_remote_json(report)))
    else:
        _print_remote(report)
    return 1 if report.failed else 0


def _remote_json(report: RemoteReport) -> dict[str, Any]:
    from ..conformance._report import REPORT_FORMAT

    return {
        "format": REPORT_FORMAT, "mode": "remote-vectors",
        "exit_status": 1 if report.failed else 0,
        "kinds": report.counts(),
        "failures": [{"where": o.case.where, "kind": o.case.kind,
                      "description": o.case.description, "keys": list(o.keys),
                      "differs": list(o.differs), "expected": o.case.expected,
                      "peer": o.output, "message": o.message}
                     for o in report.outcomes if o.status == "failed"],
        "summary": report.summary,
    }


def _print_remote(report: RemoteReport) -> None:
    shown = 0
    for outcome in report.outcomes:
        if outcome.status != "failed":
            continue
        shown += 1
        if shown > 20:
            continue
        case = outcome.case
        print(f"FAIL {case.where}: {case.description}")
        print(f"  {outcome.message}")
        expected = case.expected if not isinstance(case.expected, dict) else {
            key: case.expected.get(key) for key in (outcome.differs or outcome.keys)}
        output = outcome.output if not isinstance(outcome.output, dict) else {
            key: outcome.output.get(key) for key in (outcome.differs or outcome.keys)}
        print(f"  expected {json.dumps(expected)}\n  peer     {json.dumps(output)}")
    if shown > 20:
        print(f"... and {shown - 20} more failing cases")
    print(f"{'kind':<12} {'passed':>6} {'failed':>6} {'skipped':>7}")
    for kind, counts in report.counts().items():
        print(f"{kind:<12} {counts['passed']:>6} {counts['failed']:>6} {counts['skipped']:>7}")
    print(report.summary)


def _differential(command: list[str], args: argparse.Namespace) -> int:
    from ..conformance._harness import report_to_json, run_harness

    try:
        report = run_harness(
            command,
            examples=args.examples,
            seed=args.seed,
            timeout=args.timeout,
            out_dir=args.out,
            shrink_seconds=args.shrink_seconds,
            log=None if args.json else (lambda text: print(text, file=sys.stderr)),
            cwd=args.cwd,
            players=args.players,
            editions=args.edition,
            bottles=args.bottles,
            teams=False if args.no_teams else None,
            min_refusals=args.min_refusals,
            questions=args.questions,
        )
    except (HarnessError, OSError) as error:
        return _print_error(str(error), args.json)
    if args.json:
        print(json.dumps(report_to_json(report)))
        return 0 if report.ok else 1
    _print_report(report)
    return 0 if report.ok else 1


def _print_report(report: HarnessReport) -> None:
    greeted = bool(report.coverage)  # empty: the greeting itself failed
    if greeted:
        print(f"protocol {report.protocol}; {_capabilities_text(report)}")
    if report.peer_fault is not None:
        print("the run stops: " + describe(report.peer_fault))
    if report.groups:
        rows: list[tuple[str, ...]] = [("group", "games", "disagreements", "request", "rule",
                                        "compared on", "shrunk game", "record")]
        for group in report.groups:
            record = str(group.written) if group.written is not None else (
                "(not written)" if group.failure is not None else "-")
            size = group.size_text + ("" if group.shrunk or group.failure is None else
                                      " (not shrunk)")
            names = {"peer": "the peer's trajectory",
                     "library-set-position": "the library's trajectory (set_position)",
                     "library": "the library's trajectory", "peer-answers": "the peer's answers alone"}
            seen = dict(group.trajectories)
            trajectory = "-" if not seen else names[next(iter(seen))] \
                if len(seen) == 1 else ", ".join(f"{names[way]} {count}"
                                                  for way, count in sorted(seen.items()))
            rows.append((str(group.number), str(len(group.games)), str(group.count or "-"),
                         group.op, group.rule, trajectory, size, record))
        _table(rows)
        for group in report.groups:
            if group.deck is not None:
                origin = "declared by the peer" if group.deck.source == "declared" else \
                    "the same cards always differ: the deck data look wrong"
                what = "which cards share a colour" if group.deck.kind == "colours" else "coins"
                print(f"group {group.number} [DECK, {what}] ({origin}):")
                for line in deck_lines(group.deck):
                    print(f"  {line}")
            if group.failure is not None:
                print(f"group {group.number}, first in game {group.games[0]}; "
                      f"{'smallest game found' if group.shrunk else 'its game'}: "
                      + describe(group.failure))
            if group.not_shrunk is not None and group.failure is not None:
                print(f"  not shrunk: {group.not_shrunk}")
            if group.write_error is not None:
                print(f"bottleimp conformance: {group.write_error}", file=sys.stderr)
    for finding in report.nondeterministic:
        print(f"the peer is not deterministic (group {finding.group}, game {finding.game}): after "
              f"the same {finding.after} requests it answered {json.dumps(finding.request)}")
        print(f"  first: {json.dumps(finding.first)}")
        print(f"  again: {json.dumps(finding.again)}")
    for note in report.notes:
        print(f"note: {note}")
    for convention in report.conventions:
        print(f"note: {convention.rule} is a convention of the library, not a rule of the "
              f"sources: the peer chose otherwise {plural(convention.times, 'time')} in "
              f"{plural(convention.games, 'game')} (noted, not failed), first: "
              f"{clip(convention.example, 400)}")
    ways = dict(report.resynchronised)
    if ways:
        print(f"after a disagreement that changes the round: the library followed the peer "
              f"{ways.get('peer', 0)} times, the peer was put back on the library's round with "
              f"set_position {ways.get('library-set-position', 0)} times")
    if report.uncompared:
        print(f"not compared ({plural(len(report.uncompared), 'time')}, the peer's answers fixing "
              "no position to follow):")
        for game, what in report.uncompared[:5]:
            print(f"  game {game}, {what}")
        if len(report.uncompared) > 5:
            print(f"  ... and {len(report.uncompared) - 5} more (--json lists every one)")
    if report.not_asked:
        print("not asked, by the peer's shape:")
        for what in report.not_asked:
            print(f"  {what}")
    if report.questions:
        print("position questions (apart from the games):")
        asked: list[tuple[str, ...]] = [("kind", "asked", "agreed", "failed", "unsupported",
                                         "rules")]
        for question in report.questions:
            asked.append((question.kind, str(question.asked), str(question.agreed),
                          str(question.failed), str(question.unsupported),
                          ", ".join(f"{rule} {count}" for rule, count in question.rules) or "-"))
        _table(asked, indent="  ")
        for question in report.questions:
            example = question.example
            if example is not None:
                print(f"  first {question.kind} question that differs "
                      f"[{example.get('rule')}]: {json.dumps(example.get('request'))}")
                print(f"    library: {json.dumps(example.get('library'))}")
                print(f"    peer:    {clip(json.dumps(example.get('peer')), 4000)}")
    if report.questions_fault is not None:
        print(f"the position questions stop: the peer fails ({report.questions_fault})")
    if not greeted:
        print(report.summary)
        return
    print("refusal coverage:")
    table: list[tuple[str, ...]] = [("illegal request", "rule", "sent", "agreed", "unsupported")]
    for row in report.coverage:
        table.append((row.kind, ",".join(row.rules), str(row.sent), str(row.agreed),
                      str(row.unsupported)))
    _table(table, indent="  ")
    unsent = [row.kind for row in report.coverage if row.sent == 0]
    if unsent:
        print(f"  never sent: {', '.join(unsent)} (the games that could carry them ended "
              "earlier, failed or unsupported, or the capabilities rule them out)")
    if report.added:
        print(f"{report.passed + report.failed + report.unsupported - report.added} games "
              f"generated, {report.added} added to send every kind of illegal request")
    print(report.summary)


def describe(failure: Failure) -> str:
    """The failing exchange as a few lines a person reads (JSON, never Python reprs)."""
    from ..conformance._report import variant_text

    last = failure.exchanges[-1]
    config = failure.script.config
    where = "" if failure.state is None else f"; round {len(failure.state.rounds)}"
    game = (f"{variant_text(config)}, seat {failure.script.first_dealer} deals first{where}"
            if failure.script.rounds else "the greeting, before any game")
    lines = [
        f"{failure.kind} [{failure.rule}] after {len(failure.exchanges)} requests ({game}"
        f"{_trajectory_text(failure)}):",
        f"  request: {json.dumps(last.request)}",
        f"  library: {json.dumps(last.expected)}",
        f"  peer:    {'(no answer)' if last.actual is None else clip(json.dumps(last.actual), 4000)}",
        f"  {clip(failure.message, 4000)}",
    ]
    if failure.disagreement is not None and failure.disagreement.detail:
        lines.append(f"  detail:  {json.dumps(failure.disagreement.detail)}")
    return "\n".join(lines)


def _trajectory_text(failure: Failure) -> str:
    from ..conformance._session import ANSWERS, PEER, SET_POSITION

    if failure.trajectory == PEER:
        return (f"; on the peer's trajectory: the library followed its answers from request "
                f"{failure.followed_from}")
    if failure.trajectory == ANSWERS:
        return ("; judged on the peer's own answers alone (they describe no position the rules "
                "reach), by the rule that needs none")
    if failure.trajectory == SET_POSITION:
        return "; on the library's trajectory, the peer put back on it with set_position"
    if failure.followed_from is not None:
        return (f"; on the library's trajectory from the round's deal (the library followed the "
                f"peer's answers from request {failure.followed_from}, where its record ends)")
    return ""


def deck_lines(deck: DeckFault) -> tuple[str, ...]:
    """One line per card of a deck group, as a person reads it: for an inferred fault the
    colour the card follows or the coins it scores; for a declared one the card's data on each
    side (a colour as the library's cards it plays with)."""
    if deck.source == "inferred":
        stopped = ("the inference stopped at its bound of work: more cards may be wrong",) \
            if deck.stopped else ()
        return tuple(f"card {card.rank} follows the library's {card.peer_colour} cards; the deck "
                     f"makes it {card.library_colour}" if card.peer_colour is not None else
                     f"card {card.rank} scores as {plural(card.peer_coins, 'coin')}, the deck "
                     f"gives {card.library_coins}" for card in deck.cards) + stopped
    lines = []
    for card in deck.cards:
        where = f"{card.edition} " if card.edition else ""
        if deck.kind == "colours" and card.library_colour is not None \
                and card.peer_colour is not None:
            lines.append(f"{card.edition} {card.rank}: the library {card.library_colour}; the "
                         f"peer's deck puts it with the library's {card.peer_colour} cards")
            continue
        library = "no such card" if card.library_colour is None else \
            f"{card.library_colour}, {plural(card.library_coins, 'coin')}"
        peer = ", ".join(part for part in (card.peer_colour, None if card.peer_coins is None
                                           else plural(card.peer_coins, "coin")) if part)
        lines.append(f"{where}{card.rank}: the library {library}; the peer {peer or 'unknown'}")
    return tuple(lines)


def _capabilities_text(report: HarnessReport) -> str:
    caps = report.capabilities
    text = (f"the peer supports players {','.join(map(str, caps.players))}; editions "
            f"{','.join(caps.editions)}; bottles {','.join(map(str, caps.bottles))}; "
            f"{'teams' if caps.teams else 'no teams'}")
    if caps.decks:
        text += f"; its own deck for {','.join(edition for edition, _ in caps.decks)}"
    if caps.one_round:
        text += "; one round a game"
    if not caps.dealer:
        text += "; no dealer"
    if caps.setups_any_order:
        text += "; setups in any order"
    return text


def _table(rows: Sequence[Sequence[str]], indent: str = "") -> None:
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    for row in rows:
        print(indent + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())

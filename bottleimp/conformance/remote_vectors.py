"""The conformance vectors through the protocol: every case of ``spec/conformance`` asked of a
peer with the ``case`` request, its ``output`` compared with the
case's ``expected`` on the keys that decide the case.

A case decides on the keys its ``decides`` lists, else on every key of ``expected``; keys the
peer's ``hello`` declares in ``capabilities.ignore`` are left out (an engine that keeps the
winning card in the winner's pile, with the same scores, ignores ``winner_takes``). A case
whose configuration lies outside the peer's capabilities is not sent; one the peer answers
with ``UNSUPPORTED``, or whose deciding keys are all ignored, is skipped. Neither is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from attrs import frozen

from ..errors import HarnessError, PeerFault
from ..formats.config_json import config_to_json
from ..formats.json_input import JSON
from .capabilities import Capabilities
from .game import negotiate
from .peer import DEFAULT_TIMEOUT, Peer
from .protocol import UNSUPPORTED
from .vectors import KINDS, Case, read_suite, same_json

__all__ = ["RemoteOutcome", "RemoteReport", "run_remote_vectors", "case_outcome"]


@frozen
class RemoteOutcome:
    """A case and the peer's output: ``status`` is ``passed``, ``failed`` or ``skipped``;
    ``keys`` the keys it was compared on; ``differs`` the keys whose values differ."""

    case: Case
    status: str
    output: JSON
    keys: tuple[str, ...]
    differs: tuple[str, ...]
    message: str


@frozen
class RemoteReport:
    """Every case's outcome, and the capabilities the peer declared."""

    outcomes: tuple[RemoteOutcome, ...]
    capabilities: Capabilities

    def counts(self) -> dict[str, dict[str, int]]:
        """Per kind: passed, failed, skipped."""
        table = {kind: {"passed": 0, "failed": 0, "skipped": 0} for kind in KINDS}
        for outcome in self.outcomes:
            table[outcome.case.kind][outcome.status] += 1
        return table

    @property
    def failed(self) -> int:
        return sum(1 for outcome in self.outcomes if outcome.status == "failed")

    @property
    def summary(self) -> str:
        passed = sum(1 for outcome in self.outcomes if outcome.status == "passed")
        skipped = sum(1 for outcome in self.outcomes if outcome.status == "skipped")
        return f"{passed} passed, {self.failed} failed, {skipped} skipped"


def case_outcome(case: Case, answer: dict[str, JSON], ignore: Sequence[str]) -> RemoteOutcome:
    """The peer's answer to ``case`` compared on the keys that decide it, less ``ignore``."""
    keys = tuple(key for key in case.deciding_keys if key not in ignore)
    if answer.get("ok") is False:
        if answer.get("rule") == UNSUPPORTED:
            return RemoteOutcome(case, "skipped", None, keys, (), "the peer does not support it")
        return RemoteOutcome(case, "failed", None, keys, (),
                             f"the peer refuses the case: {answer.get('rule')} "
                             f"({answer.get('error')})")
    output = answer.get("output")
    if not isinstance(output, dict):
        return RemoteOutcome(case, "failed", output, keys, (), "the answer has no output object")
    if not keys:
        return RemoteOutcome(case, "skipped", output, keys, (),
                             "every key that decides it is ignored by the peer")
    expected = case.expected
    assert isinstance(expected, dict)
    differs = tuple(key for key in keys
                    if key not in output or not same_json(expected.get(key), output[key]))
    if differs:
        return RemoteOutcome(case, "failed", output, keys, differs,
                             "differs on " + ", ".join(differs))
    return RemoteOutcome(case, "passed", output, keys, (), "")


def run_remote_vectors(command: Sequence[str], directory: str | Path, *,
                       timeout: float = DEFAULT_TIMEOUT,
                       cwd: str | os.PathLike[str] | None = None) -> RemoteReport:
    """Ask the peer ``command`` every case under ``directory`` and compare its answers."""
    cases = read_suite(directory)
    peer = Peer(command, timeout, cwd)
    try:
        try:
            capabilities = negotiate(peer)
        except PeerFault as fault:
            raise HarnessError(f"the peer does not answer hello: {fault.message}") from None
        outcomes = []
        for case in cases:
            if not capabilities.supports(case.config):
                outcomes.append(RemoteOutcome(case, "skipped", None, (), (),
                                              "outside the peer's capabilities"))
                continue
            request: dict[str, JSON] = {"op": "case", "kind": case.kind,
                                        "config": config_to_json(case.config),
                                        "input": case.input}
            try:
                answer = peer.ask(request)
            except PeerFault as fault:
                raise HarnessError(f"{case.where}: the peer fails ({fault.kind}): "
                                   f"{fault.message}") from None
            outcomes.append(case_outcome(case, answer, capabilities.ignore))
    finally:
        peer.close()
    return RemoteReport(tuple(outcomes), capabilities)

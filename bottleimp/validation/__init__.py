"""Validation of game records: the engine replay that names the broken rule, the fast lane that
accepts legal records quickly, and the reports both give.

- ``replay``: ``validate_json``, ``validate_file``, ``validate_record``; the report as text or JSON.
- ``fast_lane``: an internal shortcut for legal records, checked against the replay by the tests.
- ``causes``: the likely root causes of a broken record's fault (the record replayed under the
  usual engine bugs: passes reversed, another deck's colours or coins, another dealer).
- ``reports``: the statuses (0 valid, 1 broken, 2 unreadable) and the report types.
"""

from .replay import (
    report_to_json,
    report_to_text,
    validate_file,
    validate_json,
    validate_record,
)
from .reports import (
    BROKEN,
    UNREADABLE,
    VALID,
    VALIDATE_REPORT_FORMAT,
    Cause,
    Fault,
    RoundReport,
    TrickReport,
    ValidationReport,
)

__all__ = [
    "BROKEN",
    "Cause",
    "Fault",
    "RoundReport",
    "TrickReport",
    "UNREADABLE",
    "VALID",
    "VALIDATE_REPORT_FORMAT",
    "ValidationReport",
    "report_to_json",
    "report_to_text",
    "validate_file",
    "validate_json",
    "validate_record",
]

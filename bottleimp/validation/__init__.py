"""Validation of game records: the engine replay that names the broken rule, and its reports.
Every record is replayed through the engine on its own, however many are given.

- ``replay``: ``validate_json``, ``validate_file``, ``validate_record``, and for many records
  ``validate_values``, ``validate_files``; the report as text or JSON.
- ``causes``: the likely root causes of a broken record's fault (the record replayed under the
  usual engine bugs: passes reversed, another deck's colours or coins, another dealer).
- ``reports``: the statuses (0 valid, 1 broken, 2 unreadable) and the report types.
"""

from .replay import (
    report_to_json,
    report_to_text,
    validate_file,
    validate_files,
    validate_json,
    validate_record,
    validate_values,
)
from .reports import (
    BROKEN,
    UNREADABLE,
    VALID,
    VALIDATE_REPORT_FORMAT,
    Cause,
    Fault,
    RoundReport,
    ValidationReport,
)

__all__ = [
    "BROKEN",
    "Cause",
    "Fault",
    "RoundReport",
    "UNREADABLE",
    "VALID",
    "VALIDATE_REPORT_FORMAT",
    "ValidationReport",
    "report_to_json",
    "report_to_text",
    "validate_file",
    "validate_files",
    "validate_json",
    "validate_record",
    "validate_values",
]

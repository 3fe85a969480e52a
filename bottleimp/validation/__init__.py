"""Validation of game records: the engine replay that names the broken rule, and its reports.
Every record is replayed through the engine on its own, however many are given.

- ``_replay``: ``validate_json``, ``validate_file``, ``validate_record``, and for many records
  ``validate_values``, ``validate_files``; the report as text or JSON.
- ``_causes``: the likely root causes of a broken record's fault (the record replayed under the
  usual engine bugs: passes reversed, another deck's colours or coins, another dealer).
- ``_reports``: the statuses (0 valid, 1 broken, 2 unreadable) and the report types.
"""

from ._causes import MAX_SEARCH_VALUES
from ._replay import (
    report_to_json,
    report_to_text,
    validate_file,
    validate_files,
    validate_json,
    validate_record,
    validate_values,
)
from ._reports import (
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
    "MAX_SEARCH_VALUES",
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

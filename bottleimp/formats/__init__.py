"""The interchange formats, and the one hardened path by which JSON comes in.

- game records (``bottleimp-record/1``, ``spec/record.md``): ``record_from_state``,
  ``record_to_json``, ``parse_record``, ``dumps_record``, ``loads_record``,
  ``read_record_file``, ``write_record_file`` and the record's types;
- seat views (``bottleimp-view/1``): ``view_dumps``, ``view_loads`` (and, at the top level,
  ``bottleimp.view_to_json`` and ``bottleimp.view_from_json``);
- states and actions (``bottleimp-state/1``): ``state_dumps``, ``state_loads`` (and, at the top
  level, ``bottleimp.state_to_json`` and the like);
- configurations and decks: ``config_to_json``, ``config_from_json``, ``read_deck``,
  ``read_deck_file``;
- conformance case files (``bottleimp-conformance/1``, ``spec/conformance/README.md``): read and
  written by ``_cases`` for ``bottleimp.conformance``, which exports its readers;
- JSON read under limits, every fault a ``RecordError`` with its JSON path: ``loads_json``,
  ``read_json_file``.
"""

from ._config_json import config_from_json, config_to_json
from ._decks import read_deck, read_deck_file
from ._json_input import loads_json, read_json_file
from ._records import (
    RECORD_FORMAT,
    Extensions,
    EyeSetup,
    GameRecord,
    PassSetup,
    RecordedPlay,
    RoundRecord,
    SetupEntry,
    dumps_record,
    loads_record,
    parse_record,
    read_record_file,
    record_from_state,
    record_to_json,
    write_record_file,
)
from ._state_json import STATE_FORMAT, state_dumps, state_loads
from ._view_json import VIEW_FORMAT, view_dumps, view_loads

__all__ = [
    "RECORD_FORMAT", "STATE_FORMAT", "VIEW_FORMAT", "Extensions", "EyeSetup", "GameRecord",
    "PassSetup", "RecordedPlay", "RoundRecord", "SetupEntry", "config_from_json", "config_to_json",
    "dumps_record", "loads_json", "loads_record", "parse_record", "read_deck", "read_deck_file",
    "read_json_file", "read_record_file", "record_from_state", "record_to_json", "state_dumps",
    "state_loads", "view_dumps", "view_loads", "write_record_file",
]

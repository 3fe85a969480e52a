"""The interchange formats, and the one hardened path by which JSON comes in.

- ``json_input``: JSON text and values read under limits, every fault a ``RecordError`` with
  its JSON path.
- ``config_json``: a configuration as JSON.
- ``setup_entries``: a seat's setup as JSON, both ways (the one setup-entry codec).
- ``state_json``: lossless JSON for states and actions (``bottleimp-state/1``).
- ``records``: game records (``bottleimp-record/1``, spec/record.md).
"""

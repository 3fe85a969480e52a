"""The normative rules catalogue (``spec/rules.toml``) and the interpretations log
(``spec/interpretations.md``) as frozen values, and the scan of rule IDs named in text and code.

- ``loader``: reads and checks both files; ``rule("TRICK-WINNER")``, ``describe(...)``, ...
- ``references``: finds the rule IDs a text or a Python source names (traceability, docs).
"""

from ..errors import CatalogueError, UnknownRuleError
from .loader import (
    CATALOGUE_FORMAT,
    INTERPRETATION_ID,
    RULE_ID,
    Catalogue,
    Document,
    Interpretation,
    Rule,
    SourceRef,
    catalogue,
    describe,
    document,
    interpretation,
    interpretations,
    interpretations_for,
    load,
    parse_interpretations,
    parse_rules,
    rule,
    rules,
)
from .references import (
    NOT_RULE_IDS,
    UNKNOWN_ID_PREFIX,
    Reference,
    mentions_in_text,
    references_in_python,
    split_run,
)

__all__ = [
    "CATALOGUE_FORMAT",
    "INTERPRETATION_ID",
    "RULE_ID",
    "Catalogue",
    "CatalogueError",
    "Document",
    "Interpretation",
    "NOT_RULE_IDS",
    "Reference",
    "Rule",
    "SourceRef",
    "UNKNOWN_ID_PREFIX",
    "UnknownRuleError",
    "catalogue",
    "describe",
    "document",
    "interpretation",
    "interpretations",
    "interpretations_for",
    "load",
    "mentions_in_text",
    "parse_interpretations",
    "parse_rules",
    "references_in_python",
    "rule",
    "rules",
    "split_run",
]

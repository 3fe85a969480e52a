"""The normative rules catalogue (``spec/rules.toml``) and the interpretations log
(``spec/interpretations.md``) as frozen values, and the scan of rule IDs named in text and code.

- ``_loader``: reads and checks both files; ``rule("TRICK-WINNER")``, ``describe(...)``,
  ``is_convention("SETUP-ORDER")`` (a convention of the library, not a rule of the sources), ...
- ``_references``: finds the rule IDs a text or a Python source names (traceability, docs).
"""

from .._errors import CatalogueError, UnknownRuleError
from ._loader import (
    CATALOGUE_FORMAT,
    INTERPRETATION_ID,
    RULE_ID,
    RULE_KINDS,
    Catalogue,
    Document,
    Interpretation,
    Rule,
    SourceRef,
    catalogue,
    conventions,
    describe,
    document,
    interpretation,
    interpretations,
    interpretations_for,
    is_convention,
    load,
    parse_interpretations,
    parse_rules,
    rule,
    rules,
)
from ._references import (
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
    "RULE_KINDS",
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
    "conventions",
    "describe",
    "document",
    "interpretation",
    "interpretations",
    "interpretations_for",
    "is_convention",
    "load",
    "mentions_in_text",
    "parse_interpretations",
    "parse_rules",
    "references_in_python",
    "rule",
    "rules",
    "split_run",
]

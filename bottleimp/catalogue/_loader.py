"""The normative rules catalogue (``spec/rules.toml``) and interpretations log
(``spec/interpretations.md``) as frozen values.

The package ships both files as data (``bottleimp/data/``, links to ``spec/``), so an installed
package reads the same catalogue as the repository::

    >>> from bottleimp import catalogue
    >>> rule = catalogue.rule("TRICK-WINNER")
    >>> rule.title, rule.phase
    ('Who wins a trick', 'play')
    >>> [ref.doc for ref in rule.sources][:2]
    ['000_038e15e03418daa8.txt', '000_038e15e03418daa8.txt']
    >>> catalogue.document(rule.sources[0].doc).name
    "Board Game Arena's help page"
    >>> catalogue.describe("FOLLOW-SUIT")[:56]
    '[FOLLOW-SUIT] Follow the led colour: The leader may play'
    >>> [i.id for i in catalogue.interpretations_for("DECK")]
    ['I-EDITIONS', 'I-MATAGOT-17', 'I-HALF-RANKS']

A rule is either a rule of the sources (``kind == "rule"``) or a convention of the library, a
choice where the sources leave one open (``kind == "convention"``): the validator and the
conformance harness note a departure from a convention and never fail it::

    >>> catalogue.rule("SETUP-ORDER").kind, catalogue.is_convention("TRICK-WINNER")
    ('convention', False)

A malformed catalogue raises ``CatalogueError`` naming the file and the place of the fault; an
unknown rule ID raises ``UnknownRuleError``. ``references_in_python`` finds the rule IDs that a
Python source (a test module, say) names, for the traceability test and the documentation.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Final

from attrs import frozen

from .._errors import CatalogueError, UnknownRuleError

CATALOGUE_FORMAT: Final = "bottleimp-rules/1"

RULE_ID: Final = re.compile(r"(?!I-)[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*")
"""A rule ID: upper-case words joined by hyphens (``TRICK-WINNER``), not starting with ``I-``."""

INTERPRETATION_ID: Final = re.compile(r"I-[A-Z0-9]+(?:-[A-Z0-9]+)*")
"""An interpretation ID: ``I-`` and upper-case words joined by hyphens (``I-MATAGOT-17``)."""

_SOURCE_KEYS: Final = frozenset({"doc", "at", "quote", "note"})
_RULE_KEYS: Final = frozenset({"id", "title", "phase", "variants", "statement", "sources"})
_OPTIONAL_RULE_KEYS: Final = frozenset({"kind"})

RULE_KINDS: Final = ("rule", "convention")
"""What a rule of the catalogue is: a rule of the sources (``"rule"``, the default when a rule
gives no ``kind``), or a convention of the library, a choice where the sources leave one open
(``"convention"``, e.g. SETUP-ORDER: the sources have every seat choose its setup at the same
time, the library takes the seats clockwise)."""
_DOCUMENT_KEYS: Final = frozenset({"name", "kind", "title", "language", "url"})
_DOCUMENT_KINDS: Final = ("seed", "implementation", "page")
_SECTIONS: Final = ("Sources", "Options", "Decision", "Why")



@frozen
class SourceRef:
    """Where a rule comes from: a document (a key of the catalogue's documents), the place in
    it, a verbatim quote (seeds only) and a note (a translation or a paraphrase)."""

    doc: str
    at: str | None = None
    quote: str | None = None
    note: str | None = None


@frozen
class Document:
    """A source document: a seed file (``kind == "seed"``), another implementation or a page.

    ``key`` is how the catalogue cites it (a seed's file name, so that quotes can be checked
    against the file); ``name`` is how a reader knows it (``"the English rulebook"``), written
    to read in the middle of a sentence."""

    key: str
    kind: str
    title: str
    language: str | None = None
    url: str | None = None
    name: str = ""


@frozen
class Rule:
    """One rule of the catalogue, identified by its stable ``id``."""

    id: str
    title: str
    phase: str
    variants: tuple[str, ...]
    statement: str
    sources: tuple[SourceRef, ...]
    kind: str = "rule"
    """``"rule"`` (a rule of the sources) or ``"convention"`` (a choice of the library where
    the sources leave one open: a departure from it is noted, never a failure)."""

    @property
    def is_convention(self) -> bool:
        """Whether the rule is a convention of the library rather than a rule of the sources."""
        return self.kind == "convention"

    def __str__(self) -> str:
        return f"{self.id} ({self.title})"


@frozen
class Interpretation:
    """One entry of the interpretations log: where the sources disagree or are silent."""

    id: str
    title: str
    rules: tuple[str, ...]
    sources: str
    options: str
    decision: str
    why: str


@frozen
class Catalogue:
    """The whole catalogue: phases and variants (key, label), documents, rules, interpretations."""

    phases: tuple[tuple[str, str], ...]
    variants: tuple[tuple[str, str], ...]
    documents: tuple[Document, ...]
    rules: tuple[Rule, ...]
    interpretations: tuple[Interpretation, ...]

    def rule(self, rule_id: str) -> Rule:
        """The rule with ID ``rule_id``; ``UnknownRuleError`` if there is none."""
        for candidate in self.rules:
            if candidate.id == rule_id:
                return candidate
        raise UnknownRuleError(rule_id, f"no rule {rule_id!r} in the catalogue (spec/rules.toml)")

    def interpretation(self, interpretation_id: str) -> Interpretation:
        """The interpretation with ID ``interpretation_id``; ``UnknownRuleError`` if none."""
        for candidate in self.interpretations:
            if candidate.id == interpretation_id:
                return candidate
        raise UnknownRuleError(
            interpretation_id,
            f"no interpretation {interpretation_id!r} in spec/interpretations.md",
        )

    def is_convention(self, rule_id: str) -> bool:
        """Whether rule ``rule_id`` is a convention of the library (``kind = "convention"``);
        ``UnknownRuleError`` if the catalogue has no such rule."""
        return self.rule(rule_id).is_convention

    def conventions(self) -> tuple[Rule, ...]:
        """The conventions of the library, in catalogue order."""
        return tuple(candidate for candidate in self.rules if candidate.is_convention)

    def interpretations_for(self, rule_id: str) -> tuple[Interpretation, ...]:
        """The interpretations that name rule ``rule_id``, in log order."""
        return tuple(entry for entry in self.interpretations if rule_id in entry.rules)

    def document(self, key: str) -> Document:
        """The source document ``key``; ``UnknownRuleError`` if none."""
        for candidate in self.documents:
            if candidate.key == key:
                return candidate
        raise UnknownRuleError(key, f"no document {key!r} in the catalogue")

    def rules_in_phase(self, phase: str) -> tuple[Rule, ...]:
        """The rules of one phase, in catalogue order."""
        return tuple(candidate for candidate in self.rules if candidate.phase == phase)

    def variant_label(self, variant: str) -> str:
        """The label of a variant key (``"devils-eye"`` -> ``"Devil's Eye (2 players)"``)."""
        return dict(self.variants)[variant]


# --- reading rules.toml --------------------------------------------------------------------


def _expect_str(value: object, where: str, *, optional: bool = False) -> str:
    if isinstance(value, str) and value.strip():
        return value.strip()
    if optional and value is None:
        return ""
    raise CatalogueError(where, f"expected a non-empty string, found {value!r}")


def _expect_table(value: object, where: str) -> Mapping[str, object]:
    if not isinstance(value, dict):
        raise CatalogueError(where, f"expected a table, found {type(value).__name__}")
    return value


def _expect_array(value: object, where: str) -> list[object]:
    if not isinstance(value, list):
        raise CatalogueError(where, f"expected an array, found {type(value).__name__}")
    return value


def _check_keys(table: Mapping[str, object], where: str, allowed: frozenset[str]) -> None:
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise CatalogueError(where, f"unknown key {unknown[0]!r}; allowed: {', '.join(sorted(allowed))}")


def _labels(data: Mapping[str, object], name: str, where: str) -> tuple[tuple[str, str], ...]:
    table = _expect_table(data.get(name), f"{where}: [{name}]")
    if not table:
        raise CatalogueError(f"{where}: [{name}]", "must not be empty")
    return tuple((key, _expect_str(label, f"{where}: {name}.{key}")) for key, label in table.items())


def _document(key: str, value: object, where: str) -> Document:
    table = _expect_table(value, where)
    _check_keys(table, where, _DOCUMENT_KEYS)
    kind = _expect_str(table.get("kind"), f"{where}.kind")
    if kind not in _DOCUMENT_KINDS:
        raise CatalogueError(f"{where}.kind", f"{kind!r} is not one of {', '.join(_DOCUMENT_KINDS)}")
    language = table.get("language")
    url = table.get("url")
    return Document(
        key=key,
        kind=kind,
        title=_expect_str(table.get("title"), f"{where}.title"),
        language=_expect_str(language, f"{where}.language") if language is not None else None,
        url=_expect_str(url, f"{where}.url") if url is not None else None,
        name=_expect_str(table.get("name"), f"{where}.name"),
    )


def _source(value: object, where: str, documents: Mapping[str, Document]) -> SourceRef:
    table = _expect_table(value, where)
    _check_keys(table, where, _SOURCE_KEYS)
    doc = _expect_str(table.get("doc"), f"{where}.doc")
    if doc not in documents:
        raise CatalogueError(f"{where}.doc", f"{doc!r} is not a document of the catalogue")
    fields: dict[str, str | None] = {}
    for name in ("at", "quote", "note"):
        raw = table.get(name)
        fields[name] = None if raw is None else _expect_str(raw, f"{where}.{name}")
    if fields["quote"] is not None and documents[doc].kind != "seed":
        raise CatalogueError(f"{where}.quote", "verbatim quotes are for seed documents; use note")
    if fields["quote"] is None and fields["note"] is None:
        raise CatalogueError(where, "a source needs a quote or a note")
    return SourceRef(doc=doc, at=fields["at"], quote=fields["quote"], note=fields["note"])


def _rule(
    value: object,
    where: str,
    phases: Iterable[str],
    variants: Iterable[str],
    documents: Mapping[str, Document],
) -> Rule:
    table = _expect_table(value, where)
    _check_keys(table, where, _RULE_KEYS | _OPTIONAL_RULE_KEYS)
    for key in sorted(_RULE_KEYS - set(table)):
        raise CatalogueError(f"{where}.{key}", "missing")
    rule_id = _expect_str(table["id"], f"{where}.id")
    where = f"{where} ({rule_id})"
    if not RULE_ID.fullmatch(rule_id):
        raise CatalogueError(f"{where}.id", "a rule ID is upper-case words joined by '-'")
    phase = _expect_str(table["phase"], f"{where}.phase")
    if phase not in phases:
        raise CatalogueError(f"{where}.phase", f"{phase!r} is not a phase of [phases]")
    variant_list = _expect_array(table["variants"], f"{where}.variants")
    if not variant_list:
        raise CatalogueError(f"{where}.variants", "name at least one variant (or 'all')")
    checked_variants = []
    for index, variant in enumerate(variant_list):
        name = _expect_str(variant, f"{where}.variants[{index}]")
        if name not in variants:
            raise CatalogueError(f"{where}.variants[{index}]", f"{name!r} is not in [variants]")
        checked_variants.append(name)
    sources = tuple(
        _source(item, f"{where}.sources[{index}]", documents)
        for index, item in enumerate(_expect_array(table["sources"], f"{where}.sources"))
    )
    kind = _expect_str(table.get("kind", "rule"), f"{where}.kind")
    if kind not in RULE_KINDS:
        raise CatalogueError(f"{where}.kind", f"{kind!r} is not one of {', '.join(RULE_KINDS)}")
    return Rule(
        id=rule_id,
        title=_expect_str(table["title"], f"{where}.title"),
        phase=phase,
        variants=tuple(checked_variants),
        statement=" ".join(_expect_str(table["statement"], f"{where}.statement").split()),
        sources=sources,
        kind=kind,
    )


def parse_rules(
    text: str, where: str = "rules.toml"
) -> tuple[
    tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], tuple[Document, ...], tuple[Rule, ...]
]:
    """Read the text of ``rules.toml``: ``(phases, variants, documents, rules)``.

    Raises ``CatalogueError`` at the first fault: not TOML, a wrong format tag, a missing or
    unknown key, an unknown phase, variant or document, a malformed or duplicate rule ID.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise CatalogueError(where, f"not TOML: {error}") from error
    if data.get("format") != CATALOGUE_FORMAT:
        raise CatalogueError(f"{where}: format", f"expected {CATALOGUE_FORMAT!r}")
    phases = _labels(data, "phases", where)
    variants = _labels(data, "variants", where)
    documents_table = _expect_table(data.get("documents"), f"{where}: [documents]")
    documents = tuple(
        _document(key, value, f"{where}: documents.{key}") for key, value in documents_table.items()
    )
    by_key = {document.key: document for document in documents}
    rules: list[Rule] = []
    seen: set[str] = set()
    for index, value in enumerate(_expect_array(data.get("rules"), f"{where}: rules")):
        parsed = _rule(value, f"{where}: rules[{index}]", dict(phases), dict(variants), by_key)
        if parsed.id in seen:
            raise CatalogueError(f"{where}: rules[{index}].id", f"duplicate rule ID {parsed.id}")
        seen.add(parsed.id)
        rules.append(parsed)
    return phases, variants, documents, tuple(rules)


# --- reading interpretations.md ------------------------------------------------------------

_HEADING: Final = re.compile(r"^## (?P<id>\S+): (?P<title>.+)$")
_RULES_LINE: Final = re.compile(r"^Rules: (?P<ids>.+)$")
_SECTION: Final = re.compile(r"^\*\*(?P<name>[A-Z][a-z]+)\.\*\*\s*")


def parse_interpretations(text: str, where: str = "interpretations.md") -> tuple[Interpretation, ...]:
    """Read the text of ``interpretations.md``.

    Each entry is a ``## I-ID: title`` heading, a ``Rules:`` line of rule IDs in backticks, and
    the paragraphs **Sources.**, **Options.**, **Decision.** and **Why.**, in that order.
    Raises ``CatalogueError`` naming the line of the first fault.
    """
    entries: list[Interpretation] = []
    seen: set[str] = set()
    lines = text.splitlines()
    starts = [number for number, line in enumerate(lines) if line.startswith("## ")]
    for position, start in enumerate(starts):
        end = starts[position + 1] if position + 1 < len(starts) else len(lines)
        entries.append(_interpretation(lines[start:end], start + 1, where))
        if entries[-1].id in seen:
            raise CatalogueError(f"{where}:{start + 1}", f"duplicate ID {entries[-1].id}")
        seen.add(entries[-1].id)
    if not entries:
        raise CatalogueError(where, "no entries (## I-ID: title)")
    return tuple(entries)


def _interpretation(lines: list[str], first_line: int, where: str) -> Interpretation:
    heading = _HEADING.match(lines[0])
    if heading is None or not INTERPRETATION_ID.fullmatch(heading["id"]):
        raise CatalogueError(f"{where}:{first_line}", "expected '## I-ID: title' (I- and upper case)")
    body = [(first_line + offset, line) for offset, line in enumerate(lines) if offset and line.strip()]
    if not body:
        raise CatalogueError(f"{where}:{first_line}", f"{heading['id']} has no body")
    number, rules_line = body[0]
    found = _RULES_LINE.match(rules_line)
    if found is None:
        raise CatalogueError(f"{where}:{number}", "expected 'Rules: `RULE-ID`, ...' after the heading")
    rule_ids = tuple(item.strip() for item in found["ids"].split(","))
    for item in rule_ids:
        if not (item.startswith("`") and item.endswith("`") and RULE_ID.fullmatch(item[1:-1])):
            raise CatalogueError(f"{where}:{number}", f"{item!r} is not a rule ID in backticks")
    sections: dict[str, list[str]] = {}
    current: list[str] | None = None
    for number, line in body[1:]:
        section = _SECTION.match(line)
        if section is not None:
            name = section["name"]
            if name not in _SECTIONS or name in sections:
                raise CatalogueError(
                    f"{where}:{number}", f"unexpected section {name!r}; sections: {', '.join(_SECTIONS)}"
                )
            current = sections[name] = [line[section.end() :]]
        elif current is None:
            raise CatalogueError(f"{where}:{number}", "text before the first **Sources.** section")
        else:
            current.append(line)
    if tuple(sections) != _SECTIONS:
        raise CatalogueError(
            f"{where}:{first_line}",
            f"{heading['id']} needs the sections {', '.join(_SECTIONS)} in that order, "
            f"found {', '.join(sections) or 'none'}",
        )
    text = {name: "\n".join(part for part in parts if part) for name, parts in sections.items()}
    return Interpretation(
        id=heading["id"],
        title=heading["title"].strip(),
        rules=tuple(item[1:-1] for item in rule_ids),
        sources=text["Sources"],
        options=text["Options"],
        decision=text["Decision"],
        why=text["Why"],
    )


# --- the packaged catalogue ----------------------------------------------------------------


def load(rules_text: str, interpretations_text: str) -> Catalogue:
    """A catalogue from the texts of ``rules.toml`` and ``interpretations.md``."""
    phases, variants, documents, rules = parse_rules(rules_text)
    return Catalogue(
        phases=phases,
        variants=variants,
        documents=documents,
        rules=rules,
        interpretations=parse_interpretations(interpretations_text),
    )


def _data(name: str) -> str:
    return (resources.files("bottleimp") / "data" / name).read_text(encoding="utf-8")


@cache
def catalogue() -> Catalogue:
    """The catalogue shipped with the package (``spec/rules.toml`` and ``interpretations.md``)."""
    return load(_data("rules.toml"), _data("interpretations.md"))


def rules() -> tuple[Rule, ...]:
    """Every rule, in catalogue order."""
    return catalogue().rules


def rule(rule_id: str) -> Rule:
    """The rule with ID ``rule_id``; ``UnknownRuleError`` if the catalogue does not list it."""
    return catalogue().rule(rule_id)


def is_convention(rule_id: str) -> bool:
    """Whether rule ``rule_id`` is a convention of the library, not a rule of the sources: a
    choice where the sources leave one open, noted when another implementation chooses
    otherwise and never failed. ``PROTOCOL`` and ``UNSUPPORTED`` (no rules of the game) are
    not conventions; any other unknown ID raises ``UnknownRuleError``."""
    if rule_id in ("PROTOCOL", "UNSUPPORTED"):
        return False
    return rule(rule_id).is_convention


def conventions() -> tuple[Rule, ...]:
    """The conventions of the library (``kind = "convention"``), in catalogue order."""
    return catalogue().conventions()


def interpretations() -> tuple[Interpretation, ...]:
    """Every interpretation, in log order."""
    return catalogue().interpretations


def interpretation(interpretation_id: str) -> Interpretation:
    """The interpretation with ID ``interpretation_id``."""
    return catalogue().interpretation(interpretation_id)


def interpretations_for(rule_id: str) -> tuple[Interpretation, ...]:
    """The interpretations that affect rule ``rule_id``."""
    return catalogue().interpretations_for(rule(rule_id).id)


def document(key: str) -> Document:
    """The source document ``key`` (a seed's file name or a tag such as ``"BGA"``)."""
    return catalogue().document(key)


def describe(rule_id: str) -> str:
    """One line for messages and narration: ``[ID] title: statement``."""
    found = rule(rule_id)
    return f"[{found.id}] {found.title}: {found.statement}"

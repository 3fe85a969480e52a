"""The rules catalogue: loading, lookups, clear errors on malformed files, and its ties to the
documentation (every rule shown on a rules page) and to the seed texts (quotes verbatim)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from bottleimp import catalogue as cat
from bottleimp.catalogue import (
    CatalogueError,
    UnknownRuleError,
    mentions_in_text,
    parse_interpretations,
    parse_rules,
    references_in_python,
    split_run,
)

REPO = Path(__file__).resolve().parents[1]
SPEC = REPO / "spec"

MINIMAL_RULES = """
format = "bottleimp-rules/1"
[phases]
play = "Trick play"
[variants]
all = "every game"
[documents."000_x.txt"]
name = "the example rulebook"
kind = "seed"
title = "A seed"
[documents.BGA]
name = "Board Game Arena's implementation"
kind = "implementation"
title = "An implementation"

[[rules]]
id = "TRICK-WINNER"
title = "Who wins"
phase = "play"
variants = ["all"]
statement = "The highest card below the price wins."
sources = [{ doc = "000_x.txt", quote = "The highest card below that value wins" }]
"""

MINIMAL_INTERPRETATIONS = """# Interpretations

## I-EXAMPLE: An example

Rules: `TRICK-WINNER`, `DECK`

**Sources.** Seed 000.

**Options.** (1) One. (2) Two.

**Decision.** One,
on two lines.

**Why.** Because.
"""


def test_the_packaged_catalogue_matches_the_spec_files() -> None:
    phases, variants, documents, rules = parse_rules((SPEC / "rules.toml").read_text("utf-8"))
    assert cat.rules() == rules
    assert cat.catalogue().documents == documents
    assert cat.catalogue().phases == phases and cat.catalogue().variants == variants
    assert cat.interpretations() == parse_interpretations(
        (SPEC / "interpretations.md").read_text("utf-8")
    )


def test_every_rule_names_a_known_phase_variant_and_document() -> None:
    catalogue = cat.catalogue()
    phases, variants = dict(catalogue.phases), dict(catalogue.variants)
    documents = {document.key for document in catalogue.documents}
    for rule in catalogue.rules:
        assert rule.phase in phases
        assert set(rule.variants) <= set(variants)
        assert {source.doc for source in rule.sources} <= documents
        assert rule.statement == " ".join(rule.statement.split())


def test_every_phase_has_rules_and_every_document_is_cited() -> None:
    catalogue = cat.catalogue()
    assert all(catalogue.rules_in_phase(phase) for phase, _ in catalogue.phases)
    cited = {source.doc for rule in catalogue.rules for source in rule.sources}
    assert cited == {document.key for document in catalogue.documents}


def test_the_four_seeds_are_documents_of_kind_seed() -> None:
    seeds = [d.key for d in cat.catalogue().documents if d.kind == "seed"]
    assert seeds == [
        "000_038e15e03418daa8.txt",
        "001_dddb4cddf81a40dc.txt",
        "002_6e38a32eabf324f5.txt",
        "003_51c484fb075b897c.txt",
    ]


def test_every_document_has_a_name_for_readers_and_no_two_share_one() -> None:
    documents = cat.catalogue().documents
    names = [document.name for document in documents]
    assert len(set(names)) == len(names)
    for document in documents:
        # A name a reader understands: words, not a file name or a tag.
        assert " " in document.name and not re.search(r"\.txt|^\d{3}|seed", document.name)
    assert cat.document("001_dddb4cddf81a40dc.txt").name == "the English rulebook"


def test_rule_lookup_returns_the_rule_and_refuses_unknown_ids() -> None:
    assert cat.rule("SCORE-TEAMS").phase == "scoring"
    with pytest.raises(UnknownRuleError, match="no rule 'TRICK-LOSER' in the catalogue"):
        cat.rule("TRICK-LOSER")
    with pytest.raises(UnknownRuleError, match="no interpretation 'I-NOPE'"):
        cat.interpretation("I-NOPE")


def test_interpretations_for_a_rule_are_those_that_name_it() -> None:
    found = cat.interpretations_for("SCORE-TEAMS")
    assert [entry.id for entry in found] == ["I-TEAM-SCORING", "I-UNSOLD-BOTTLE"]
    assert all("SCORE-TEAMS" in entry.rules for entry in found)


def test_the_interpretation_ids_the_code_cites_exist() -> None:
    assert cat.interpretation("I-MATAGOT-17").rules == ("DECK",)
    assert "CONFIG-TEAMS" in cat.interpretation("I-TEAMS-TWO-BOTTLES").rules


def test_describe_gives_the_id_title_and_statement() -> None:
    assert cat.describe("NEXT-LEADER") == (
        "[NEXT-LEADER] The winner leads: The winner of a trick leads the next trick."
    )


def test_a_minimal_catalogue_parses() -> None:
    phases, variants, documents, rules = parse_rules(MINIMAL_RULES)
    assert phases == (("play", "Trick play"),)
    assert [d.key for d in documents] == ["000_x.txt", "BGA"]
    assert rules[0].sources[0].quote == "The highest card below that value wins"
    entry = parse_interpretations(MINIMAL_INTERPRETATIONS)[0]
    assert (entry.id, entry.rules) == ("I-EXAMPLE", ("TRICK-WINNER", "DECK"))
    assert entry.decision == "One,\non two lines."


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (("format = \"bottleimp-rules/1\"", "format = \"x\""), "format", "expected 'bottleimp-rules/1'"),
        (("phase = \"play\"", "phase = \"bidding\""), "rules[0] (TRICK-WINNER).phase", "not a phase"),
        (("variants = [\"all\"]", "variants = [\"solo\"]"), "variants[0]", "'solo' is not in [variants]"),
        (("variants = [\"all\"]", "variants = []"), "variants", "name at least one variant"),
        (("doc = \"000_x.txt\"", "doc = \"999.txt\""), "sources[0].doc", "not a document"),
        (("id = \"TRICK-WINNER\"", "id = \"trick-winner\""), "id", "upper-case words"),
        (("title = \"Who wins\"", "title = \"\""), "title", "non-empty string"),
        (("title = \"Who wins\"", "tittle = \"Who wins\""), "rules[0]", "unknown key 'tittle'"),
        (("quote = \"The highest", "note = \"The highest"), "", ""),
        (("[[rules]]", "[rules"), "rules.toml", "not TOML"),
        (("name = \"the example rulebook\"\n", ""), "documents.000_x.txt.name", "non-empty string"),
        (("phase = \"play\"", "phase = \"play\"\nkind = \"custom\""), "kind",
         "'custom' is not one of rule, convention"),
        (("phase = \"play\"", "phase = \"play\"\nkind = 3"), "kind", "non-empty string"),
    ],
)
def test_a_malformed_catalogue_names_the_place_of_the_fault(
    change: tuple[str, str], where: str, message: str
) -> None:
    old, new = change
    text = MINIMAL_RULES.replace(old, new, 1)
    if not message:  # a note instead of a quote is fine
        assert parse_rules(text)[3][0].sources[0].note is not None
        return
    with pytest.raises(CatalogueError) as raised:
        parse_rules(text)
    assert where in raised.value.where or where in str(raised.value)
    assert message in raised.value.message


def test_a_rule_is_a_rule_of_the_sources_unless_its_kind_says_convention() -> None:
    plain = parse_rules(MINIMAL_RULES)[3][0]
    assert (plain.kind, plain.is_convention) == ("rule", False)
    marked = parse_rules(MINIMAL_RULES.replace('phase = "play"', 'phase = "play"\nkind = "convention"'))[3][0]
    assert (marked.kind, marked.is_convention) == ("convention", True)
    said = parse_rules(MINIMAL_RULES.replace('phase = "play"', 'phase = "play"\nkind = "rule"'))[3][0]
    assert said == plain


def test_the_conventions_of_the_library_are_the_setup_order_the_shuffle_and_the_deal() -> None:
    assert [rule.id for rule in cat.conventions()] == ["DEAL-SHUFFLE", "DEAL", "SETUP-ORDER"]
    assert cat.is_convention("SETUP-ORDER") and cat.rule("SETUP-ORDER").kind == "convention"
    assert not cat.is_convention("SETUP-RESOLVE") and not cat.is_convention("DEALER-ROTATION")
    assert not cat.is_convention("PROTOCOL") and not cat.is_convention("UNSUPPORTED")
    with pytest.raises(UnknownRuleError):
        cat.is_convention("TRICK-LOSER")


def test_every_convention_is_logged_as_one_with_its_sources() -> None:
    for rule in cat.conventions():
        logged = [entry for entry in cat.interpretations_for(rule.id)
                  if "convention" in entry.title and entry.sources]
        assert logged, f"{rule.id} is a convention that no interpretation logs as one"


def test_a_duplicate_rule_id_is_refused() -> None:
    rule = MINIMAL_RULES[MINIMAL_RULES.index("[[rules]]") :]
    with pytest.raises(CatalogueError, match="duplicate rule ID TRICK-WINNER"):
        parse_rules(MINIMAL_RULES + rule)


def test_a_quote_from_a_non_seed_document_is_refused() -> None:
    text = MINIMAL_RULES.replace('doc = "000_x.txt"', 'doc = "BGA"')
    with pytest.raises(CatalogueError, match="verbatim quotes are for seed documents"):
        parse_rules(text)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("## I-EXAMPLE: An example", "## EXAMPLE: An example", "expected '## I-ID: title'"),
        ("Rules: `TRICK-WINNER`, `DECK`", "Rules: TRICK-WINNER", "not a rule ID in backticks"),
        ("Rules: `TRICK-WINNER`, `DECK`", "Affects: `DECK`", "expected 'Rules:"),
        ("**Why.** Because.", "", "needs the sections Sources, Options, Decision, Why"),
        ("**Options.**", "**Choices.**", "unexpected section 'Choices'"),
        ("**Sources.** Seed 000.", "Seed 000.", "text before the first **Sources.**"),
    ],
)
def test_a_malformed_interpretations_log_names_the_line(old: str, new: str, message: str) -> None:
    with pytest.raises(CatalogueError) as raised:
        parse_interpretations(MINIMAL_INTERPRETATIONS.replace(old, new))
    assert message in raised.value.message
    assert re.fullmatch(r"interpretations\.md:\d+", raised.value.where)


def test_an_empty_interpretations_log_is_refused() -> None:
    with pytest.raises(CatalogueError, match="no entries"):
        parse_interpretations("# Interpretations\n")


def test_references_in_python_read_names_bodies_and_decorators() -> None:
    source = '''
import pytest

@pytest.mark.parametrize("rule_id", ["CARD-HELD"])
def test_x_TRICK_WINNER_and_DEAL_COUNTS(rule_id):
    assert error.rule_id == "DEAL"
    with pytest.raises(ValueError, match=r"\\[PHASE\\]"):
        pass
    assert "A" == "JSON" and "text UTF-8" and "I-MATAGOT-17" and "NO-SUCH-RULE"

def helper_SCORE_TEAMS():
    pass
'''
    (reference,) = references_in_python(source)
    assert reference.function == "test_x_TRICK_WINNER_and_DEAL_COUNTS"
    assert reference.name_runs == (("TRICK", "WINNER"), ("DEAL", "COUNTS"))
    assert reference.mentions == {"CARD-HELD", "I-MATAGOT-17"}
    assert {"DEAL", "PHASE", "A", "JSON"} <= reference.words


def test_split_run_prefers_the_longest_known_ids() -> None:
    known = frozenset({"DEAL", "DEAL-COUNTS", "COUNTS", "SETUP-STEPS"})
    assert split_run(("DEAL", "COUNTS"), known) == ("DEAL-COUNTS",)
    assert split_run(("DEAL", "SETUP", "STEPS"), known) == ("DEAL", "SETUP-STEPS")
    assert split_run(("JSON",), known) is None


def test_split_run_passes_over_numbers_that_are_not_part_of_an_id() -> None:
    known = frozenset({"TRICK-WINNER", "I-MATAGOT-17", "DECK"})
    assert split_run(("19", "TRICK", "WINNER"), known) == ("TRICK-WINNER",)
    assert split_run(("I", "MATAGOT", "17"), known) == ("I-MATAGOT-17",)
    assert split_run(("DECK", "36"), known) == ("DECK",)
    assert split_run(("19", "JSON"), known) is None


def test_regular_expression_ranges_are_not_taken_for_rule_ids() -> None:
    text = 're.compile(r"[A-Z][A-Z0-9]*"), "[DEAL-COUNTS] message", I-MATAGOT-17, A-B'
    assert mentions_in_text(text) == {"DEAL-COUNTS", "I-MATAGOT-17"}


def test_every_rule_is_shown_on_a_page_of_the_documentation() -> None:
    shown = set()
    for page in (REPO / "docs").rglob("*.md"):
        shown.update(re.findall(r"<!-- rule: ([A-Z0-9-]+) -->", page.read_text("utf-8")))
    missing = [rule.id for rule in cat.rules() if rule.id not in shown]
    assert not missing, f"rules not shown on any documentation page: {missing}"
    unknown = shown - {rule.id for rule in cat.rules()}
    assert not unknown, f"documentation shows unknown rules: {unknown}"


def _seed_folder() -> str | None:
    """The seed texts: $BOTTLEIMP_SEEDS, else ../shared/seeds beside the clone (as in CI)."""
    beside = REPO.parent / "shared" / "seeds"
    return os.environ.get("BOTTLEIMP_SEEDS") or (str(beside) if beside.is_dir() else None)


SEEDS = _seed_folder()


@pytest.mark.skipif(not SEEDS, reason="set BOTTLEIMP_SEEDS to the folder of the seed texts")
def test_seed_quotes_are_verbatim() -> None:
    assert SEEDS is not None
    texts = {path.name: path.read_text("utf-8") for path in Path(SEEDS).glob("*.txt")}
    wrong = [
        f"{rule.id}: {source.doc}: {source.quote!r}"
        for rule in cat.rules()
        for source in rule.sources
        if source.quote is not None and source.quote not in texts.get(source.doc, "")
    ]
    assert not wrong, "quotes not found verbatim in their seed:\n" + "\n".join(wrong)

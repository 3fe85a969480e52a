"""MkDocs hooks: the rules pages are generated from the catalogue, never written twice.

The catalogue (``spec/rules.toml`` and ``spec/interpretations.md``, read through
``bottleimp.catalogue``) fills these markers, each alone on its line in a page:

- ``<!-- rule: TRICK-WINNER -->``: the rule as a box (ID, title, statement, variants, the
  functions that implement it, its sources), on the narrative pages;
- ``<!-- catalogue -->``: every rule, grouped by phase, with its tests and the pages that explain
  it (the rules reference);
- ``<!-- interpretations -->``: the interpretations log;
- ``<!-- variant-rules: teams -->``: the rules that have something to say about a variant.

Every rule ID or interpretation ID written in backticks in a page (outside code blocks and
headings) becomes a link to its catalogue entry. An unknown ID in a marker fails the build.

``<!-- picture: ... -->`` markers become pictures drawn by the library from the states of the
page's own examples (``docs/pictures.py``).
Doctest blocks are shown as Python console sessions, their output plain (``console_sessions``).
"""

from __future__ import annotations

import ast
import html
import importlib
import importlib.util
import json
import logging
import os
import pkgutil
import posixpath
import re
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

import bottleimp
import bottleimp.rules
from bottleimp import catalogue as cat
from bottleimp.rules._registry import RULE_FUNCTIONS

REPO = Path(__file__).resolve().parents[1]
log = logging.getLogger("mkdocs.hooks.bottleimp")


def _load(name: str, path: Path) -> Any:
    """The module of the file ``path``, loaded by its path (MkDocs loads this file the same
    way): ``docs/pictures.py``, ``scripts/build_play.py``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pictures = _load("bottleimp_docs_pictures", Path(__file__).with_name("pictures.py"))
build_play = _load("bottleimp_build_play", REPO / "scripts" / "build_play.py")
RULES_PAGE = "reference/rules.md"
INTERPRETATIONS_PAGE = "reference/interpretations.md"
CATALOGUE_TESTS = frozenset({"test_traceability.py", "test_catalogue.py"})

MARKER = re.compile(
    r"^<!-- (?P<kind>rule|catalogue|interpretations|variant-rules)(?:: (?P<arg>[A-Za-z0-9-]+))? -->$",
    re.MULTILINE,
)
BACKTICKED_ID = re.compile(r"(?<!\[)`((?:I-)?[A-Z][A-Z0-9]*(?:-[A-Z0-9]+)*)`(?!\]\()")
FENCE = re.compile(r"^\s*(```|~~~)")

_catalogue: cat.Catalogue | None = None
_tests_by_rule: dict[str, list[str]] = {}
_pages_by_rule: dict[str, list[tuple[str, str]]] = {}
_wheel: Any = None  # the bottleimp wheel for docs/play.md, built while the pages are (build_play)
_wheel_folder: Path | None = None


def _import_rule_modules() -> None:
    """Import every module that tags rule functions (``RULE_FUNCTIONS``, which the rule boxes
    name): the core's modules at the top of the package and ``bottleimp.rules``. They need
    only attrs, so the build needs only the ``docs`` extra; the edge packages (numpy,
    OpenSpiel, rich...) are read by mkdocstrings from their source, never imported."""
    for module in pkgutil.iter_modules(bottleimp.__path__, "bottleimp."):
        if not module.ispkg and module.name != "bottleimp.__main__":
            importlib.import_module(module.name)
    importlib.import_module("bottleimp.rules")
    for module in pkgutil.walk_packages(bottleimp.rules.__path__, "bottleimp.rules."):
        importlib.import_module(module.name)


def _scan_tests(catalogue: cat.Catalogue) -> dict[str, list[str]]:
    known = frozenset(rule.id for rule in catalogue.rules) | frozenset(
        entry.id for entry in catalogue.interpretations
    )
    rule_ids = frozenset(rule.id for rule in catalogue.rules)
    found: dict[str, list[str]] = {rule_id: [] for rule_id in rule_ids}
    for path in sorted((REPO / "tests").rglob("*.py")):
        if path.name in CATALOGUE_TESTS:
            continue
        for reference in cat.references_in_python(path.read_text("utf-8"), str(path)):
            ids = set(reference.mentions) | set(reference.words)
            for run in reference.name_runs:
                ids.update(cat.split_run(run, known) or ())
            for rule_id in sorted(ids & rule_ids):
                found[rule_id].append(f"{path.relative_to(REPO)}::{reference.function}")
    return found


def _scan_pages(docs_dir: Path) -> dict[str, list[tuple[str, str]]]:
    found: dict[str, list[tuple[str, str]]] = {}
    for path in sorted(docs_dir.rglob("*.md")):
        text = path.read_text("utf-8")
        title = next((line[2:].strip() for line in text.splitlines() if line.startswith("# ")), "")
        uri = path.relative_to(docs_dir).as_posix()
        for match in MARKER.finditer(text):
            if match["kind"] == "rule" and match["arg"]:
                found.setdefault(match["arg"], []).append((uri, title))
    return found


def on_config(config: Any) -> Any:
    global _catalogue, _tests_by_rule, _pages_by_rule, _wheel, _wheel_folder
    _stop_wheel()
    # The wheel is built in a process of its own while the pages are built (about 1 s).
    _wheel_folder = Path(tempfile.mkdtemp(prefix="bottleimp-wheel-"))
    _wheel = build_play.WheelBuild(_wheel_folder)
    cat.catalogue.cache_clear()  # `mkdocs serve` rebuilds in the same process after an edit
    _catalogue = cat.catalogue()
    _import_rule_modules()
    _tests_by_rule = _scan_tests(_catalogue)
    _pages_by_rule = _scan_pages(Path(config["docs_dir"]))
    return config


def _the_catalogue() -> cat.Catalogue:
    if _catalogue is None:
        raise PluginError("docs/hooks.py: the catalogue was not loaded (on_config did not run)")
    return _catalogue


# --- links ---------------------------------------------------------------------------------


def _relative(src: str, target: str) -> str:
    if src == target:
        return posixpath.basename(target)
    return posixpath.relpath(target, posixpath.dirname(src) or ".")


def rule_link(src: str, rule_id: str) -> str:
    return f"{_relative(src, RULES_PAGE)}#{rule_id.lower()}"


def interpretation_link(src: str, interpretation_id: str) -> str:
    return f"{_relative(src, INTERPRETATIONS_PAGE)}#{interpretation_id.lower()}"


def source_anchor(key: str) -> str:
    return "source-" + (key[:3] if key[:3].isdigit() else key.lower())


def source_label(key: str) -> str:
    """A source document as readers know it (``the English rulebook``), not its key."""
    return _the_catalogue().document(key).name


def capital(text: str) -> str:
    """``text`` to open a sentence or a list item: its first letter in upper case."""
    return text[:1].upper() + text[1:]


def source_tooltip(key: str) -> str:
    """What a link to a source shows on hover: the file name of a seed, else the title."""
    document = _the_catalogue().document(key)
    text = f"{document.key}: {document.title}" if document.kind == "seed" else document.title
    return text.replace('"', "'")


def autolink(markdown: str, src: str) -> str:
    """Link every backticked rule or interpretation ID outside code blocks and headings."""
    catalogue = _the_catalogue()
    rule_ids = {rule.id for rule in catalogue.rules}
    interpretation_ids = {entry.id for entry in catalogue.interpretations}

    def replace(match: re.Match[str]) -> str:
        name = match[1]
        if name in rule_ids:
            return f"[`{name}`]({rule_link(src, name)})"
        if name in interpretation_ids:
            return f"[`{name}`]({interpretation_link(src, name)})"
        return match[0]

    lines, in_fence = [], False
    for line in markdown.splitlines():
        if FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and not line.lstrip().startswith("#"):
            line = BACKTICKED_ID.sub(replace, line)
        lines.append(line)
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")


# --- rendering -----------------------------------------------------------------------------


def _variants(rule: cat.Rule) -> str:
    catalogue = _the_catalogue()
    return "; ".join(catalogue.variant_label(variant) for variant in rule.variants)


def _functions(rule: cat.Rule) -> str:
    functions = RULE_FUNCTIONS.get(rule.id, [])
    if not functions:
        return "*no function yet*"
    return ", ".join(f"[`{f.__qualname__}`][{_public_path(f)}]" for f in functions)


def _public_path(function: Any) -> str:
    """Where the API reference documents a rule function: the public module that names it
    (``bottleimp.view``, ``bottleimp.rules.config.check_players``), not its private home."""
    for module in ("bottleimp", *(f"bottleimp.rules.{m}" for m in PUBLIC_RULE_MODULES)):
        if getattr(importlib.import_module(module), function.__name__, None) is function:
            return f"{module}.{function.__name__}"
    return f"{function.__module__}.{function.__qualname__}"


PUBLIC_RULE_MODULES = ("deal", "setup", "play", "scoring", "game", "config")


def _source_item(source: cat.SourceRef, src: str) -> str:
    label = (
        f"[{capital(source_label(source.doc))}]"
        f"({_relative(src, RULES_PAGE)}#{source_anchor(source.doc)} \"{source_tooltip(source.doc)}\")"
    )
    if source.at:
        label += f" ({source.at})"
    parts = [f"**{label}**"]
    if source.quote:
        parts.append(f"“{' '.join(source.quote.split())}”")
        if source.note:
            parts.append(f"*({source.note})*")
    elif source.note:
        parts.append(source.note)
    return "- " + " ".join(parts)


def _sources(rule: cat.Rule, src: str) -> list[str]:
    if not rule.sources:
        return ["- *The sources are silent; see the interpretations.*"]
    return [_source_item(source, src) for source in rule.sources]


def _interpretations(rule: cat.Rule, src: str) -> str:
    entries = _the_catalogue().interpretations_for(rule.id)
    return ", ".join(
        f"[`{entry.id}`]({interpretation_link(src, entry.id)} \"{entry.title}\")" for entry in entries
    )


def _indent(lines: list[str], depth: int) -> list[str]:
    pad = " " * depth
    return [pad + line if line else "" for line in lines]


def rule_card(rule_id: str, src: str) -> str:
    """A rule as an admonition box for a narrative page."""
    try:
        rule = _the_catalogue().rule(rule_id)
    except cat.UnknownRuleError as error:
        raise PluginError(f"{src}: {error}") from error
    meta = [f"**Applies to:** {_variants(rule)}", f"**Implemented by:** {_functions(rule)}"]
    interpretations = _interpretations(rule, src)
    if interpretations:
        meta.append(f"**Interpretations:** {interpretations}")
    meta.append(f"[Catalogue entry]({rule_link(src, rule.id)})")
    body = [rule.statement, "", " · ".join(meta), ""]
    body += [f'??? quote "Sources ({len(rule.sources)})"', ""]
    body += _indent(_sources(rule, src), 4)
    return "\n".join([f'!!! rule "{rule.id} · {rule.title}"', ""] + _indent(body, 4)) + "\n"


def catalogue_page(src: str) -> str:
    """Every rule of the catalogue, grouped by phase."""
    catalogue = _the_catalogue()
    out = [
        f"{len(catalogue.rules)} rules in {len(catalogue.phases)} phases, "
        f"{len(catalogue.interpretations)} [interpretations]({_relative(src, INTERPRETATIONS_PAGE)}), "
        f"{len(catalogue.documents)} [source documents](#sources).",
        "",
        "| Phase | Rules |",
        "|---|---|",
    ]
    for phase, title in catalogue.phases:
        links = ", ".join(
            f"[`{rule.id}`](#{rule.id.lower()})" for rule in catalogue.rules_in_phase(phase)
        )
        out.append(f"| [{title}](#phase-{phase}) | {links} |")
    out.append("")
    for phase, title in catalogue.phases:
        out += [f"## {title} {{ #phase-{phase} }}", ""]
        for rule in catalogue.rules_in_phase(phase):
            out += _catalogue_entry(rule, src)
    out += [
        "## Source documents { #sources }",
        "",
        "The first four are the project's sources: where they speak, they decide. The others "
        "(implementations and pages) fill their gaps, and the [interpretations]"
        f"({_relative(src, INTERPRETATIONS_PAGE)}) say what was decided where the sources "
        "disagree or are silent. Each document's key (for the four, its file name) is how "
        "`spec/rules.toml` cites it, so that every quote can be checked against its file.",
        "",
    ]
    for document in catalogue.documents:
        out += [
            f"### {capital(document.name)} {{ #{source_anchor(document.key)} }}",
            "",
            document.title,
        ]
        if document.url:
            out += ["", f"<{document.url}>"]
        small = [f"cited as `{document.key}`"]
        if document.kind == "seed":
            small.append("one of the four source texts, quoted word for word")
        if document.language:
            small.append(f"language: {document.language}")
        out += ["", f"<small>{capital('; '.join(small))}.</small>"]
        cited = [r.id for r in catalogue.rules if any(s.doc == document.key for s in r.sources)]
        out += ["", "Cited by " + ", ".join(f"[`{rule_id}`](#{rule_id.lower()})" for rule_id in cited), ""]
    return "\n".join(out) + "\n"


def _catalogue_entry(rule: cat.Rule, src: str) -> list[str]:
    tests = _tests_by_rule.get(rule.id, [])
    pages = _pages_by_rule.get(rule.id, [])
    out = [f"### {rule.id} · {rule.title} {{ #{rule.id.lower()} }}", "", rule.statement, ""]
    out.append(f"- **Applies to:** {_variants(rule)}")
    out.append(f"- **Implemented by:** {_functions(rule)}")
    interpretations = _interpretations(rule, src)
    if interpretations:
        out.append(f"- **Interpretations:** {interpretations}")
    if pages:
        out.append(
            "- **Explained in:** "
            + ", ".join(f"[{title}]({_relative(src, uri)})" for uri, title in pages)
        )
    if tests:
        out += ["", f'??? success "Tested by {len(tests)} test{"s" if len(tests) != 1 else ""}"', ""]
        out += [f"    - `{test}`" for test in tests]
    else:
        out += ["", '!!! failure "No test names this rule yet"']
    out += ["", "**Sources**", ""] + _sources(rule, src) + [""]
    return out


def interpretations_page(src: str) -> str:
    """The interpretations log, each entry with links to the rules it affects."""
    out: list[str] = []
    for entry in _the_catalogue().interpretations:
        rules = ", ".join(f"[`{rule_id}`]({rule_link(src, rule_id)})" for rule_id in entry.rules)
        out += [f"## {entry.id} · {entry.title} {{ #{entry.id.lower()} }}", "", f"**Rules:** {rules}", ""]
        for name, text in (
            ("Sources", entry.sources),
            ("Options", entry.options),
            ("Decision", entry.decision),
            ("Why", entry.why),
        ):
            out += [f"**{name}.** {autolink(text, src)}", ""]
    return "\n".join(out)


def variant_rules(variant: str, src: str) -> str:
    catalogue = _the_catalogue()
    if variant not in dict(catalogue.variants):
        raise PluginError(f"{src}: unknown variant {variant!r} in a variant-rules marker")
    return "\n".join(
        f"- [`{rule.id}`]({rule_link(src, rule.id)}): {rule.title}"
        for rule in catalogue.rules
        if variant in rule.variants
    ) + "\n"


def _expand(match: re.Match[str], src: str) -> str:
    kind, arg = match["kind"], match["arg"]
    renderers: dict[str, Callable[[], str]] = {
        "rule": lambda: rule_card(arg or "", src),
        "catalogue": lambda: catalogue_page(src),
        "interpretations": lambda: interpretations_page(src),
        "variant-rules": lambda: variant_rules(arg or "", src),
    }
    return renderers[kind]()


PYTHON_FENCE = re.compile(r"^(?P<indent>[ \t]*)```python[ \t]*\n(?=[ \t]*>>> )", re.MULTILINE)


def console_sessions(markdown: str) -> str:
    """Show doctest blocks (a ```python block that starts with ``>>>``) as Python console
    sessions (``pycon``): the code is highlighted as Python and its output as plain output,
    not as Python (an error message's "is" or "not" is no keyword). Only the rendering
    changes: the test suite still runs the page's ```python blocks."""
    return PYTHON_FENCE.sub(lambda match: f"{match['indent']}```pycon\n", markdown)


NOT_LIVE = {
    "guide/bots.md": "its examples need numpy, OpenSpiel, PettingZoo and Gymnasium",
    "guide/batch.md": "its examples need numpy",
    "guide/validating.md": "its examples read spec/ and run the reference peer as a process",
    "guide/trust.md": "an example imports the second restatement (restatement/, not in the wheel)",
    "guide/where-did-i-lose.md": "the open-hand solver runs on the batch kernel, which needs numba",
}
"""Pages whose examples cannot run in the browser (Pyodide with ``bottleimp`` and ``attrs``
only), and why; ``tests/test_live_examples.py`` checks both this list and every other page."""

LIVE_FENCE = re.compile(r"^(?P<head>[ \t]*```(?:python|pycon|console))[ \t]*$")


def live_examples(markdown: str, src: str) -> str:
    """Mark each example that the tests run (every ```python block, shown as ``pycon`` when
    it is a doctest, and every ```console block, not after ``<!-- skip: next -->``) with the
    class ``live-example``, which ``docs/live/live.js`` gives a Run and an Edit button; pages in
    ``NOT_LIVE`` are left alone."""
    if src in NOT_LIVE:
        return markdown
    lines, skip, in_fence = [], False, False
    for line in markdown.splitlines():
        if line.strip() == pictures.SKIP_NEXT:
            skip = True
        elif FENCE.match(line):
            opening = LIVE_FENCE.match(line) if not in_fence else None
            if opening and not skip:
                line = opening["head"] + " { .live-example }"
            if not in_fence:
                skip = False
            in_fence = not in_fence
        lines.append(line)
    return "\n".join(lines) + ("\n" if markdown.endswith("\n") else "")


def abbreviations() -> str:
    """Abbreviation definitions (the ``abbr`` extension) for the sources cited by a short tag
    (``BGA``, ``IRC``, ``HEK``): wherever a page names one, hovering shows what it is."""
    lines = [
        f"*[{document.key}]: {capital(document.name)}: {document.title}"
        for document in _the_catalogue().documents
        if re.fullmatch(r"[A-Z]{2,}", document.key)
    ]
    return "\n" + "\n".join(lines) + "\n"


RULE_LINKS = "<!-- rule-links -->"
"""In docs/play.md: becomes the JSON map from each rule ID to the page that explains it."""


def _site_url(src: str, target: str) -> str:
    """The address of the page ``target`` (``rules/tricks.md``) from the page ``src``, as the
    site has it (one folder per page)."""
    def folder(uri: str) -> str:
        stem = uri.removesuffix(".md")
        return "" if stem == "index" else stem.removesuffix("/index") + "/"
    relative = posixpath.relpath(folder(target) or ".", folder(src) or ".")
    return "./" if relative == "." else relative + "/"


def rule_links(src: str) -> str:
    """Each rule's page for a reader, as JSON: the first narrative page that holds its box, else
    its entry in the rules catalogue."""
    links = {}
    for rule in _the_catalogue().rules:
        pages = _pages_by_rule.get(rule.id, [])
        if pages:
            uri, title = pages[0]
            links[rule.id] = {"href": _site_url(src, uri), "title": title}
        else:
            links[rule.id] = {"href": _site_url(src, RULES_PAGE) + "#" + rule.id.lower(),
                              "title": "Rules catalogue"}
    return json.dumps(links, sort_keys=True).replace("</", "<\\/")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    src = page.file.src_uri
    if RULE_LINKS in markdown:
        markdown = markdown.replace(RULE_LINKS, rule_links(src))
    # Pictures first: they run the page's own python blocks, before those become console sessions.
    drawn = pictures.expand(markdown, src)
    linked = autolink(live_examples(console_sessions(drawn), src), src)
    return MARKER.sub(lambda match: _expand(match, src), linked) + abbreviations()


HYPHENATED_CODE = re.compile(r"<code>(?=[^<\s]{0,48}-)([^<\s]{1,48})</code>")
"""Inline code without spaces that holds a hyphen (``--plain``, ``TRICK-WINNER``): a browser
would break its line after the hyphen ("-" / "-plain")."""


def keep_hyphenated_code_whole(html: str) -> str:
    """Inline code such as ``--plain`` never breaks across lines (class ``nobreak``, see
    ``docs/stylesheets/extra.css``); code blocks (their text holds spans) are left alone."""
    return HYPHENATED_CODE.sub(r'<code class="nobreak">\1</code>', html)


SIGNATURE = re.compile(
    r'(<div class="language-python doc-signature highlight"><pre><span></span><code>)(.*?)'
    r"(</code></pre></div>)",
    re.DOTALL,
)
ATTRS_FIELD = re.compile(r"^(?P<name>\w+: .+?) = (?P<call>field\(.*\))$", re.DOTALL)


def _field_default(call: str) -> str | None:
    """What an attrs ``field(...)`` defaults to, as a person writes it (``None``: no default
    to show): ``Factory(lambda self: f(self.x), takes_self=True)`` reads ``f(x)``."""
    node = ast.parse(call, mode="eval").body
    assert isinstance(node, ast.Call)
    keywords = {keyword.arg: keyword.value for keyword in node.keywords}
    default, init = keywords.get("default"), keywords.get("init")
    if default is None or (isinstance(init, ast.Constant) and not init.value):
        return None
    if isinstance(default, ast.Call) and ast.unparse(default.func) == "Factory" and default.args:
        made = default.args[0]
        if isinstance(made, ast.Lambda):
            return ast.unparse(made.body).replace("self.", "")
        return f"{ast.unparse(made)}()"
    return ast.unparse(default)


def person_signatures(page_html: str) -> str:
    """Attribute signatures that show attrs' machinery (``field(...)``, ``Factory(lambda self:
    ...)``) rewritten as a person writes them: ``edition: str = default_edition(players)``,
    ``seat: int``."""

    def rewrite(match: re.Match[str]) -> str:
        text = html.unescape(re.sub(r"<[^>]+>", "", match[2])).strip()
        found = ATTRS_FIELD.match(text)
        if found is None:
            return match[0]
        default = _field_default(found["call"])
        plain = found["name"] + ("" if default is None else f" = {default}")
        return match[1] + html.escape(plain, quote=False) + match[3]

    return SIGNATURE.sub(rewrite, page_html)


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    if page.file.src_uri.startswith("reference/api/"):
        html = person_signatures(html)
    return keep_hyphenated_code_whole(html)


def _stop_wheel() -> None:
    """Forget the wheel build that ``on_config`` started (ending it if it still runs)."""
    global _wheel, _wheel_folder
    if _wheel is not None:
        _wheel.stop()
    if _wheel_folder is not None:
        shutil.rmtree(_wheel_folder, ignore_errors=True)
    _wheel, _wheel_folder = None, None


def _without_npm() -> bool:
    """Whether Pyodide cannot be had for docs/play.md: no npm to fetch it, none fetched yet."""
    cached = build_play.CACHE / f"pyodide-{build_play.PYODIDE_VERSION}"
    return shutil.which("npm") is None and not cached.is_dir()


def on_post_build(config: Any) -> None:
    """Pyodide and the wheels for docs/play.md (``scripts/build_play.py``). Without npm the
    site is built without them, saying so, and the page "Play a game" says it cannot start;
    under CI (``CI`` set) a missing npm fails the build."""
    if _without_npm() and not os.environ.get("CI"):
        _stop_wheel()
        log.info("docs/play.md: built without Pyodide, so the page \"Play a game\" cannot run "
                 "here: its build fetches Pyodide with npm (install Node 18 or later, with npm)")
        return
    try:
        build_play.build(Path(config["site_dir"]), _wheel)
    except (OSError, RuntimeError) as error:
        raise PluginError(f"docs/play.md: {error}") from error
    finally:
        _stop_wheel()


def on_build_error(error: Exception) -> None:
    _stop_wheel()

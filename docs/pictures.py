"""Pictures in the documentation, drawn by ``bottleimp.pictures`` from the very states that the
examples beside them build, so that a picture cannot drift from the rules.

Two markers, each alone on its line in a page (``docs/hooks.py`` calls ``expand``):

- ``<!-- example: NAME -->`` names the next ```` ```python ```` block of the page (it may sit
  inside a folded ``??? example`` box).
- ``<!-- picture: NAME | EXPRESSION | CAPTION -->`` becomes a figure: the SVG that EXPRESSION
  returns once the page's python blocks have run, in page order, up to and including the block
  NAME, in one namespace (as the test suite runs them: see ``conftest.py``), in a fresh
  temporary directory holding a link to ``spec/``. ``<!-- picture: EXPRESSION | CAPTION -->``
  (no NAME) evaluates EXPRESSION on its own. The CAPTION is optional.

EXPRESSION sees the names of ``bottleimp`` and the drawing functions of ``bottleimp.pictures``
(``card_svg``, ``trick_svg``, ``bottles_svg``, ``round_svg``, ``deck_svg``), then the names the
page's examples defined. An unknown NAME, an example that fails (other than by the exception its
doctest expects) or an expression that does not give an SVG fails the build.
"""

from __future__ import annotations

import contextlib
import html
import importlib.util
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

from mkdocs.exceptions import PluginError

import bottleimp
import bottleimp.pictures

REPO = Path(__file__).resolve().parents[1]


def _load_runner() -> Any:
    """``docs/live/examples.py``: how a page's blocks run (a file the browser loads, too)."""
    spec = importlib.util.spec_from_file_location(
        "bottleimp_docs_live_examples", Path(__file__).with_name("live") / "examples.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


examples = _load_runner()

PICTURE = re.compile(r"^<!-- picture: (?P<body>.+?) -->$", re.MULTILINE)
EXAMPLE = re.compile(r"^<!-- example: (?P<name>[A-Za-z0-9_-]+) -->$")
SKIP_NEXT = "<!-- skip: next -->"
FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^\s`]*)")
NAME = re.compile(r"^[A-Za-z0-9_-]+$")


class Block:
    """A python block of a page (or another kind): its name (or ``None``), its source, whether
    it is skipped, its kind (``python``, ``console``)."""

    def __init__(self, name: str | None, source: str, skipped: bool, kind: str = "python") -> None:
        self.name = name
        self.source = source
        self.skipped = skipped
        self.kind = kind


def python_blocks(markdown: str, kinds: tuple[str, ...] = ("python",)) -> list[Block]:
    """The ```` ```python ```` blocks of a page (or the blocks of ``kinds``) in order, dedented,
    with their names."""
    lines = markdown.splitlines()
    blocks: list[Block] = []
    name: str | None = None
    skip = False
    index = 0
    while index < len(lines):
        line = lines[index]
        named = EXAMPLE.match(line.strip())
        if named:
            name = named["name"]
        elif line.strip() == SKIP_NEXT:
            skip = True
        opening = FENCE.match(line)
        if opening:
            indent, fence = opening["indent"], opening["fence"]
            body: list[str] = []
            index += 1
            while index < len(lines):
                stripped = lines[index].strip()
                if stripped.startswith(fence) and not stripped.strip(fence[0]):
                    break
                text = lines[index]
                body.append(text[len(indent):] if text.startswith(indent) else text.lstrip())
                index += 1
            if opening["info"] in kinds:
                blocks.append(Block(name, "\n".join(body) + "\n", skip, opening["info"]))
                name = None
            skip = False
        index += 1
    return blocks


def _run(block: Block, namespace: dict[str, Any], where: str) -> None:
    """Run a block as the test suite does (``docs/live/examples.py``, which the pages' Run
    buttons use too): a doctest's examples one by one, else the code."""
    if block.skipped:
        return
    result = examples.run_block(block.source, namespace, where)
    for item in result["items"]:
        if item["error"] is not None and item["matches"] is not True:
            raise PluginError(
                f"{where}: an example failed while drawing a picture: "
                f"{item['source'].strip()!r}: {item['error']['line']}"
            )


def _base_namespace() -> dict[str, Any]:
    names = {name: getattr(bottleimp, name) for name in bottleimp.__all__}
    names.update({name: getattr(bottleimp.pictures, name) for name in bottleimp.pictures.__all__})
    return names


def _draw(expression: str, namespace: dict[str, Any], src: str) -> str:
    scope = _base_namespace()
    scope.update(namespace)
    try:
        svg = eval(compile(expression, f"{src} (picture)", "eval"), scope)
    except Exception as error:
        raise PluginError(f"{src}: the picture {expression!r} failed: {error!r}") from error
    if not isinstance(svg, str) or not svg.startswith("<svg"):
        raise PluginError(f"{src}: the picture {expression!r} gave no SVG")
    return svg


def _figure(svg: str, caption: str | None) -> str:
    text = f"<figcaption>{html.escape(caption)}</figcaption>" if caption else ""
    return f'<figure class="bottleimp-figure">{svg}{text}</figure>'


@contextlib.contextmanager
def _temporary_directory() -> Any:
    """A fresh working directory holding a link ``spec`` to the repository's ``spec/``."""
    directory = Path(tempfile.mkdtemp(prefix="bottleimp-docs-pictures-"))
    (directory / "spec").symlink_to(REPO / "spec", target_is_directory=True)
    previous = os.getcwd()
    os.chdir(directory)
    try:
        yield directory
    finally:
        os.chdir(previous)
        shutil.rmtree(directory, ignore_errors=True)


class _Marker:
    def __init__(self, match: re.Match[str], src: str) -> None:
        parts = [part.strip() for part in match["body"].split(" | ")]
        self.match = match
        self.name: str | None = None
        if len(parts) >= 2 and NAME.match(parts[0]):
            self.name = parts.pop(0)
        if not parts or len(parts) > 2:
            raise PluginError(f"{src}: a picture marker needs NAME | EXPRESSION | CAPTION: "
                              f"{match[0]}")
        self.expression = parts[0]
        self.caption = parts[1] if len(parts) > 1 else None
        self.svg: str | None = None


def pictures(markdown: str, src: str) -> list[str]:
    """The SVG of every picture marker of a page, in page order."""
    markers = [_Marker(match, src) for match in PICTURE.finditer(markdown)]
    if not markers:
        return []
    blocks = python_blocks(markdown)
    names = [block.name for block in blocks if block.name]
    for marker in markers:
        if marker.name is not None and marker.name not in names:
            raise PluginError(f"{src}: no python block is named {marker.name!r} "
                              "(<!-- example: NAME --> before the block)")
        if marker.name is None:
            marker.svg = _draw(marker.expression, {}, src)
    waiting = {marker.name for marker in markers if marker.name is not None}
    if waiting:
        namespace: dict[str, Any] = {"__name__": "__docs__"}
        with _temporary_directory():
            for number, block in enumerate(blocks):
                if not waiting:
                    break
                _run(block, namespace, f"{src}, python block {number + 1}")
                if block.name in waiting:
                    waiting.discard(block.name)
                    for marker in markers:
                        if marker.name == block.name:
                            marker.svg = _draw(marker.expression, namespace, src)
    return [marker.svg or "" for marker in markers]


def expand(markdown: str, src: str) -> str:
    """The page with every picture marker replaced by its figure."""
    drawn = iter(pictures(markdown, src))
    markers = {m.start(): _Marker(m, src) for m in PICTURE.finditer(markdown)}

    def replace(match: re.Match[str]) -> str:
        return _figure(next(drawn), markers[match.start()].caption)

    return PICTURE.sub(replace, markdown)

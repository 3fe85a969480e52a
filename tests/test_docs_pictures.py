"""The pictures of the documentation (``docs/pictures.py``): every rules and variant page opens
with prose and a picture, and each picture is drawn from the state its page's examples build."""

from __future__ import annotations

import importlib.util
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mkdocs")

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGES = sorted((DOCS / "rules").glob("*.md")) + sorted((DOCS / "variants").glob("*.md"))
SVG = "{http://www.w3.org/2000/svg}"


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("docs_pictures_under_test", DOCS / "pictures.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pictures = _load()


def _page_id(path: Path) -> str:
    return path.relative_to(DOCS).as_posix()


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_page_opens_with_prose_then_a_picture(path: Path) -> None:
    text = path.read_text("utf-8")
    lines = text.splitlines()
    assert lines[0].startswith("# ")
    body = [line for line in lines[1:] if line.strip()]
    assert body[0][0].isalpha() or body[0][0] in "*_[", f"{path.name} opens with {body[0]!r}"
    first_picture = text.index("<!-- picture: ")
    for later in ("```", "<!-- rule: ", "<!-- variant-rules: ", "\n## "):
        found = text.find(later)
        assert found == -1 or first_picture < found, f"{path.name}: {later!r} before the picture"


@pytest.mark.parametrize("path", PAGES, ids=_page_id)
def test_pictures_of_the_page_are_drawn(path: Path) -> None:
    drawn = pictures.pictures(path.read_text("utf-8"), _page_id(path))
    assert drawn
    for svg in drawn:
        root = ET.fromstring(svg)
        assert root.tag == f"{SVG}svg"
        assert any("card" in (g.get("class") or "") or g.get("class") == "score-row"
                   for g in root.iter(f"{SVG}g"))


def test_the_tricks_picture_is_the_worked_example() -> None:
    path = DOCS / "rules" / "tricks.md"
    first = ET.fromstring(pictures.pictures(path.read_text("utf-8"), "rules/tricks.md")[0])
    played = [g for g in first.iter(f"{SVG}g") if g.get("data-zone") == "trick"]
    assert [g.get("data-rank") for g in played] == ["24", "15", "17", "32"]
    winner = [g.get("data-rank") for g in played if "winner" in (g.get("class") or "")]
    assert winner == ["17"]
    labels = [t.text for t in first.iter(f"{SVG}text")]
    assert {"Adam", "Betty", "Christian", "Doris"} <= set(labels)


def test_folded_blocks_are_found_and_named() -> None:
    page = (
        "Text\n\n<!-- example: folded -->\n\n??? example \"A long one\"\n\n"
        "    ```python\n    >>> x = 16\n    >>> x + 1\n    17\n\n    ```\n\n"
        "<!-- skip: next -->\n\n```python\n>>> raise SystemExit\n```\n"
    )
    blocks = pictures.python_blocks(page)
    assert [(b.name, b.skipped) for b in blocks] == [("folded", False), (None, True)]
    assert blocks[0].source.startswith(">>> x = 16\n")
    svg = pictures.pictures(page + "\n<!-- picture: folded | card_svg(CLASSIC[x]) -->\n", "t.md")
    assert re.search(r'data-rank="17"', svg[0])  # CLASSIC[16], x from the folded block


def test_a_bad_marker_fails_the_build() -> None:
    from mkdocs.exceptions import PluginError

    with pytest.raises(PluginError, match="no python block is named"):
        pictures.pictures("<!-- picture: nowhere | card_svg(CLASSIC[0]) -->\n", "t.md")
    with pytest.raises(PluginError, match="gave no SVG"):
        pictures.pictures("<!-- picture: 1 + 1 -->\n", "t.md")

"""The READMEs stay short and course-first, their links and contents resolve, and a LICENSE sits beside them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
READMES = ["README.md", "README.zh.md"]
MAX_LINES = 150
LINK = re.compile(r"\]\(([^)\s]+)\)")


def github_anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, punctuation but '-' and '_' dropped, spaces to '-'."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


@pytest.mark.parametrize("name", READMES)
def test_readme_is_short(name):
    lines = (ROOT / name).read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_LINES, f"{name} has {len(lines)} lines (at most {MAX_LINES}): move detail elsewhere"


@pytest.mark.parametrize("name", READMES)
def test_links_and_contents_resolve(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    anchors = {github_anchor(h) for h in re.findall(r"^#+ (.+)$", text, flags=re.MULTILINE)}
    links = LINK.findall(text)
    assert any(link.startswith("#") for link in links), f"{name} has no table of contents"
    broken = [link for link in links if link.startswith("#") and link[1:] not in anchors]
    broken += [link for link in links if not re.match(r"[a-z]+:|#", link)
               and not (ROOT / link.split("#")[0]).exists()]
    assert not broken, f"{name}: links that resolve to nothing: {broken}"


def test_the_anchor_rule_matches_githubs():
    assert github_anchor("中文版 · The Chinese edition") == "中文版--the-chinese-edition"
    assert github_anchor("GPU 与托管环境") == "gpu-与托管环境"


def test_licence_names_code_text_and_data():
    licence = (ROOT / "LICENSE").read_text(encoding="utf-8")
    for needed in ("MIT License", "CC BY 4.0", "Tiny Shakespeare", "names.txt", "chinese-poetry"):
        assert needed in licence, f"LICENSE does not mention {needed}"


@pytest.mark.parametrize("name", READMES)
def test_readme_sends_students_to_the_student_edition(name):
    text = (ROOT / name).read_text(encoding="utf-8")
    table = [link for link in LINK.findall(text) if link.endswith(".ipynb")]
    assert table and all(link.startswith("student/") for link in table), (
        f"{name} links notebooks outside the student edition: {[l for l in table if not l.startswith('student/')]}")

"""The glossary: each term is found where its "first in" column says, and known mistranslations stay out."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
GLOSSARY = ROOT / "lessons" / "glossary.md"
ROW = re.compile(r"^\| (?P<en>[^|]+?) \| (?P<zh>[^|]+?) \| (?P<where>[^|]+?) \|$")
WRONG = {"对数几率": "logits are not log-odds (对数几率)", "变换器": "Transformer stays Transformer",
         "解嵌入": "unembedding is 输出投影"}  # the table's Chinese column; tests/test_terminology.py covers the rest


def rows() -> list[dict]:
    """The glossary's table rows: English, Chinese, where first."""
    found = [m.groupdict() for m in map(ROW.match, GLOSSARY.read_text(encoding="utf-8").splitlines()) if m]
    return [r for r in found if r["en"] not in ("English", "---")]


def forms(english: str) -> list[str]:
    """The spellings to look for: the term without parentheses, its ' / ' alternatives, an abbreviation."""
    abbreviations = re.findall(r"\(([A-Z][A-Za-z-]+)\)", english)
    base = re.sub(r"\s*\(.*?\)", "", english).strip()
    return [part.strip() for part in base.split(" / ")] + abbreviations


def pattern(form: str) -> re.Pattern:
    """A form as a case-insensitive pattern: space, hyphen or underscore between words, -s/-ies/-ed/-ing
    endings, British or American -ise/-ize."""
    words = [re.escape(word).replace("iz", "i[sz]") for word in re.split(r"[\s-]+", form.lower())]
    if words[-1].endswith("y"):
        words[-1] = words[-1][:-1] + "(?:y|ies)"
    return re.compile(r"(?<![a-z])" + r"[\s_-]+".join(words) + r"(?:s|es|ed|ing)?(?![a-z])")


def text_of(where: str) -> str:
    """All the text of the notebook ('07') or lesson plan ('lesson 07') named in the glossary."""
    if where.startswith("lesson "):
        return "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "lessons").glob(f"{where[7:]}_*.md")).lower()
    paths = list((ROOT / "notebooks").glob(f"{where}_*.ipynb"))
    assert paths, f"the glossary names notebook {where!r}, which does not exist"
    return "\n".join(c.source for c in nbformat.read(paths[0], as_version=4).cells).lower()


ROWS = rows()


def test_the_table_was_read():
    assert len(ROWS) > 100


@pytest.mark.parametrize("row", ROWS, ids=[r["en"] for r in ROWS])
def test_term_is_in_the_notebook_the_glossary_names(row):
    text = text_of(row["where"])
    assert any(pattern(form).search(text) for form in forms(row["en"])), (
        f"{row['en']!r} ({row['zh']}) is said to be first in {row['where']}, which never uses it "
        f"(looked for {forms(row['en'])})")


def test_no_known_mistranslation():
    for row in ROWS:
        for wrong, why in WRONG.items():
            assert wrong not in row["zh"], f"{row['en']}: {why}"


def test_pattern_matches_plurals_and_hyphens_but_not_inside_words():
    assert pattern("causal mask").search("the causal-masks")
    assert pattern("head").search("heads") and not pattern("head").search("ahead")
    assert pattern("length normalization").search("length normalisation")
    assert pattern("long-range dependency").search("long range dependencies")
    assert pattern("sliding window").search("sliding_windows(")

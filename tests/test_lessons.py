"""lessons/: one plan per notebook, links and section anchors that resolve, points that match the notebooks."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

import nbformat
import pytest

from utils.grading.notebook import exercises

ROOT = Path(__file__).resolve().parents[1]
LESSONS = ROOT / "lessons"
COURSE = ["01_autoregression", "02_ngram_models", "03_fixed_window_neural_lm", "04_recurrent_networks",
          "05_attention", "06_positional_encodings", "07_transformer_lm", "08_masks_copy_failure", "09_decoding",
          "10_generation_cost_kv_cache", "11_the_journey", "12_tang_poems"]
SECTIONS = ["## Learning objectives", "## Prerequisites", "## Lecture outline (90 minutes)", "## Live demos",
            "## Discussion questions", "## Common misconceptions", "## Exercises", "## Further reading"]
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
MARKDOWN_FILES = sorted(LESSONS.glob("*.md"))


def _headings(nb) -> set[str]:
    """Markdown headings of a notebook, normalised the way anchors are compared."""
    found = set()
    for cell in nb.cells:
        if cell.cell_type == "markdown":
            found |= {_normal(m.group(1)) for m in re.finditer(r"^#{1,6} (.+)$", cell.source, re.MULTILINE)}
    return found


def _normal(text: str) -> str:
    """Heading text or anchor with spaces and dashes made equal (JupyterLab anchors use '-' for spaces)."""
    return re.sub(r"[\s-]+", " ", unquote(text)).strip()


def _section(text: str, heading: str) -> str:
    """The body of one '## ' section of a lesson."""
    start = text.index(heading) + len(heading)
    end = text.find("\n## ", start)
    return text[start:] if end < 0 else text[start:end]


def test_one_lesson_per_course_notebook() -> None:
    plans = sorted(p.stem for p in LESSONS.glob("[0-9][0-9]_*.md"))
    assert plans == COURSE
    notebooks = sorted(p.stem for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb"))
    assert set(notebooks) <= set(COURSE), f"notebooks without a lesson plan: {set(notebooks) - set(COURSE)}"


@pytest.mark.parametrize("path", MARKDOWN_FILES, ids=lambda p: p.name)
def test_links_resolve(path: Path) -> None:
    """Every relative link points at a file that exists; anchors into notebooks name a real heading."""
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file_part, _, anchor = target.partition("#")
        resolved = (path.parent / unquote(file_part)).resolve()
        if not resolved.exists():
            broken.append(f"{target} (no such file)")
        elif anchor and resolved.suffix == ".ipynb":
            if _normal(anchor) not in _headings(nbformat.read(resolved, as_version=4)):
                broken.append(f"{target} (no heading '{_normal(anchor)}' in {resolved.name})")
    assert not broken, f"{path.name}: broken links: {broken}"


@pytest.mark.parametrize("stem", COURSE)
def test_lesson_plan_shape(stem: str) -> None:
    text = (LESSONS / f"{stem}.md").read_text(encoding="utf-8")
    assert text.startswith(f"# Lesson {stem[:2]} · ")
    assert f"(../notebooks/{stem}.ipynb)" in text, "the plan links its notebook"
    positions = [text.find(heading) for heading in SECTIONS]
    assert -1 not in positions and positions == sorted(positions), f"sections {SECTIONS} in this order"
    rows = re.findall(r"^\| (\d+):(\d\d) \| (\d+) \|", _section(text, SECTIONS[2]), re.MULTILINE)
    assert rows, "the outline is a table of start, minutes, section, activity"
    clock = 0
    for hours, minutes, length in rows:
        assert int(hours) * 60 + int(minutes) == clock, "start times follow from the durations"
        clock += int(length)
    assert clock == 90, f"the outline lasts {clock} minutes, not 90"
    assert re.search(r"\(\.\./notebooks/[^)]+#", _section(text, SECTIONS[2])), "the outline points at sections"
    questions = _section(text, SECTIONS[4])
    assert questions.count("*Answer:*") >= 3 and questions.count("**") >= 6, "questions with short answers"
    reading = _section(text, SECTIONS[7])
    assert len(re.findall(r"\((?:19|20)\d\d\)", reading)) >= 2, "original papers with their years"


@pytest.mark.parametrize("stem", COURSE)
def test_listed_points_match_the_notebook(stem: str) -> None:
    notebook = ROOT / "notebooks" / f"{stem}.ipynb"
    if not notebook.exists():
        pytest.fail(f"notebooks/{stem}.ipynb is missing: the lesson plan points at it")
    listed = re.findall(r"^\| \d+\. .* \| `([\w-]+)` \| (\d+(?:\.\d+)?) \|$",
                        _section((LESSONS / f"{stem}.md").read_text(encoding="utf-8"), "## Exercises"), re.MULTILINE)
    actual = [(e.test_id, e.points) for e in exercises(nbformat.read(notebook, as_version=4))]
    assert [(gid, float(points)) for gid, points in listed] == actual


def test_glossary_is_english_and_chinese() -> None:
    text = (LESSONS / "glossary.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \| ([^|]+?) \|$", text, re.MULTILINE)
    terms = {english.strip().lower(): chinese for english, chinese, _ in rows if english.strip() != "English"}
    assert len(terms) >= 40 and len(terms) == len([r for r in rows if r[0].strip() != "English"]), "unique terms"
    for english, chinese in terms.items():
        if english.startswith("---"):
            continue
        assert re.search(r"[\u4e00-\u9fff]", chinese), f"{english}: the Chinese column needs the Chinese term"
    for english, chinese in [("self-attention", "自注意力"), ("perplexity", "困惑度"), ("language model", "语言模型"),
                             ("positional encoding", "位置编码"), ("causal mask", "因果掩码")]:
        assert chinese in terms.get(english, ""), f"glossary needs {english} / {chinese}"


def test_instructors_guide_covers_the_course_operations() -> None:
    text = (LESSONS / "instructors_guide.md").read_text(encoding="utf-8")
    for needle in ["python -m utils.grading release", "python -m utils.grading grade", "LM_DATA_MIRROR", "LM_DEVICE",
                   "LM_FAST", "jupyter nbconvert --to slides", "--post serve", "jupyterlab-rise", "nbgrader",
                   "--network none", "grades.csv", "Remaining attack surface"]:
        assert needle in text, f"the instructor's guide should cover {needle!r}"


def test_lessons_index_lists_every_file() -> None:
    text = (LESSONS / "README.md").read_text(encoding="utf-8")
    for path in MARKDOWN_FILES:
        if path.name != "README.md":
            assert f"({path.name})" in text, f"lessons/README.md should link {path.name}"

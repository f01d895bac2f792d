"""The release and grade tools treat a Chinese notebook exactly like its English original."""

from pathlib import Path

import nbformat
import pytest

from utils.grading.grade import load_sources
from utils.grading.release import release_notebook
from utils.i18n.build import built_notebook
from utils.i18n.layout import sources

NOTEBOOKS = [s for s in sources() if s.kind == "notebook"]


@pytest.mark.parametrize("source", NOTEBOOKS, ids=[s.english.name for s in NOTEBOOKS])
def test_chinese_release_has_the_english_exercises(source, tmp_path):
    english = nbformat.read(source.english, as_version=4)
    chinese = built_notebook(source)
    released_en, released_zh = release_notebook(english), release_notebook(chinese)
    code = lambda nb: [(c.id, c.source, c.metadata) for c in nb.cells if c.cell_type == "code"]  # noqa: E731
    assert code(released_zh) == code(released_en), "the student versions differ in code"
    path = tmp_path / "zh" / source.english.name
    path.parent.mkdir()
    nbformat.write(chinese, path)
    (loaded,) = load_sources([path])
    (loaded_en,) = load_sources([source.english])
    assert loaded.exercises == loaded_en.exercises and loaded.name == loaded_en.name, (
        "the grader reads other exercises from the Chinese notebook")


def test_exercise_headings_in_both_languages():
    from utils.grading.notebook import exercise_heading

    assert exercise_heading("### Exercise 2 (3 points): top-k") == (2, 3.0)
    assert exercise_heading("### 练习 2（3 分）：top-k") == (2, 3.0)
    assert exercise_heading("### 练习2 (1.5 分)") == (2, 1.5)
    assert exercise_heading("## 练习\n\n本节的练习……") is None


def test_wrong_points_in_a_chinese_heading_are_caught():
    from utils.grading.notebook import SourceError, exercise_heading, validate_source

    chinese = built_notebook(NOTEBOOKS[0])
    headings = [c for c in chinese.cells if c.cell_type == "markdown" and (exercise_heading(c.source) or (0,))[0] == 1]
    assert headings, "notebook 01 has an exercise 1 heading"
    headings[0].source = "### 练习 1（99 分）"
    with pytest.raises(SourceError, match="Exercise 1: heading says 99 points"):
        validate_source(chinese, "zh")


def test_the_chinese_student_edition_stubs_speak_chinese():
    from utils.grading.release import stub_solution

    source = "def f(x):\n    ### BEGIN SOLUTION\n    return x\n    ### END SOLUTION"
    english, chinese = stub_solution(source, "code", 2, "en"), stub_solution(source, "code", 2, "zh")
    assert 'raise NotImplementedError("Exercise 2: replace this line with your solution")' in english
    assert 'raise NotImplementedError("练习 2：把这一行换成你的解答")' in chinese and "# 在这里写你的代码" in chinese
    assert stub_solution("### BEGIN SOLUTION\nan answer\n### END SOLUTION", "markdown", 2, "zh") == "在这里写你的回答"
    edition = Path(__file__).resolve().parents[1] / "student"
    for name in ("01_autoregression.ipynb", "10_generation_cost_kv_cache.ipynb"):
        zh_text, en_text = (edition / "zh" / name).read_text(encoding="utf-8"), (edition / name).read_text(encoding="utf-8")
        assert "把这一行换成你的解答" in zh_text and "replace this line" not in zh_text, name
        assert "replace this line with your solution" in en_text, name

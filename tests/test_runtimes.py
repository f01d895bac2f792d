"""Every notebook's header (both languages) and the READMEs' table state the run times of the recorded
benchmark (benchmarks/recorded/notebooks_{full,fast}.json, from benchmarks/bench_notebooks.py), as written by
`python -m utils.student runtimes`; a changed notebook is measured again and the lines follow."""

from __future__ import annotations

import json
import shutil

import pytest

from utils.student.runtimes import (
    EN_MARK,
    RECORDED_DIR,
    differences,
    duration,
    load_recorded,
    replace_run_time,
)


def test_headers_and_readmes_state_the_recorded_run_times():
    found = differences()
    assert not found, "\n".join(found) + "\nrun `python -m utils.student runtimes` (and `python -m utils.i18n all`)"


def test_the_recorded_runs_cover_every_notebook_and_say_where_they_ran():
    recorded = load_recorded()
    for mode, data in recorded.items():
        assert data["cpu_count"] and data["load_average_1min"], f"the {mode} run does not say where it ran"
        assert data["omp_num_threads"] is not None or data["threads"], mode


def test_the_check_can_fail(tmp_path):
    for path in RECORDED_DIR.glob("notebooks_*.json"):
        shutil.copy2(path, tmp_path / path.name)
    data = json.loads((tmp_path / "notebooks_full.json").read_text())
    data["notebooks"]["05_attention"]["seconds"] *= 3
    (tmp_path / "notebooks_full.json").write_text(json.dumps(data))
    found = differences(folder=tmp_path)
    assert any("05_attention" in line for line in found) and any("README.md" in line for line in found)
    data["notebooks"]["05_attention"]["ok"] = False
    (tmp_path / "notebooks_full.json").write_text(json.dumps(data))
    with pytest.raises(ValueError, match="failed in that run"):
        differences(folder=tmp_path)


def test_durations_read_at_a_glance():
    assert [duration(s) for s in (0.4, 42.4, 61, 72.6, 130)] == ["1 s", "42 s", "1 min", "1 min 15 s", "2 min 10 s"]
    assert duration(72.6, "zh") == "1 分 15 秒" and duration(120, "zh") == "2 分钟"


def test_the_run_time_passage_is_replaced_to_the_end_of_its_paragraph():
    text = "# T\n\n**Before:** 05. **Run time:** about\n30 seconds.\n\nNext paragraph."
    assert replace_run_time(text, EN_MARK, "**Run time:** 1 min.") == (
        "# T\n\n**Before:** 05. **Run time:** 1 min.\n\nNext paragraph.")
    with pytest.raises(ValueError, match="no '\\*\\*Run time:\\*\\*' passage"):
        replace_run_time("# T\n\nno time here", EN_MARK, "x")

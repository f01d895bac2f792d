"""Run times from the recorded benchmark, written into each notebook's header and the READMEs' tables.

The figures come from `benchmarks/bench_notebooks.py`'s last output line (one JSON object), recorded in
benchmarks/recorded/notebooks_full.json (the sizes students run) and notebooks_fast.json (LM_FAST=1, the
tests' sizes). Each notebook's time is also given as a multiple of notebook 01's, which a student has run on
their own machine: if 01 took them 40 s, a notebook at 3× takes about two minutes there.

    python -m utils.student runtimes          # rewrite the headers (both languages), the READMEs, student/
    python -m utils.student runtimes --check  # list what differs from the recorded benchmark; exit 1 if any
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import nbformat

from utils.student.layout import ROOT

RECORDED_DIR = ROOT / "benchmarks" / "recorded"
MODES = ("full", "fast")
YARDSTICK = "01_autoregression"
EN_MARK, ZH_MARK = "**Run time:**", "**运行时间：**"
READMES = {"en": ROOT / "README.md", "zh": ROOT / "README.zh.md"}
TABLE_BEGIN, TABLE_END = "<!-- run-times:begin", "<!-- run-times:end -->"


@dataclass(frozen=True)
class RunTime:
    """One notebook's recorded wall time at both sizes, and whether it trains into the model cache."""

    stem: str
    full_s: float
    fast_s: float
    full_over_yardstick: float
    uses_model_cache: bool


def load_recorded(folder: Path = RECORDED_DIR) -> dict[str, dict]:
    """The recorded benchmark output of each mode; a clear error when one is missing or failed."""
    recorded = {}
    for mode in MODES:
        path = folder / f"notebooks_{mode}.json"
        if not path.is_file():
            raise FileNotFoundError(f"{path} is missing: record it with `python benchmarks/bench_notebooks.py"
                                    f"{' --fast' if mode == 'fast' else ''} | tail -n 1 > {path}`")
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("mode") != mode:
            raise ValueError(f"{path} holds a {data.get('mode')!r} run, not {mode!r}")
        failed = [name for name, row in data["notebooks"].items() if not row.get("ok")]
        if failed:
            raise ValueError(f"{path}: {', '.join(failed)} failed in that run; a failed run gives no run time")
        recorded[mode] = data
    return recorded


def uses_model_cache(notebook: nbformat.NotebookNode) -> bool:
    """True when the notebook trains models into the checkpoint cache (utils.zoo) on its first run: a code line that
    calls `load_or_train` (a comment naming it, such as an exercise's deny-list, does not count)."""
    return any(c.cell_type == "code" and any("load_or_train" in line and not line.lstrip().startswith("#")
                                             for line in c.source.splitlines()) for c in notebook.cells)


def run_times(notebooks_dir: Path = ROOT / "notebooks", folder: Path = RECORDED_DIR) -> dict[str, RunTime]:
    """Each course notebook's recorded run times, by stem."""
    recorded = load_recorded(folder)
    full, fast = recorded["full"]["notebooks"], recorded["fast"]["notebooks"]
    stems = sorted(p.stem for p in notebooks_dir.glob("[0-9][0-9]_*.ipynb"))
    missing = [s for s in stems if s not in full or s not in fast]
    if missing:
        raise ValueError(f"the recorded benchmark has no run of {', '.join(missing)}: run it again for every notebook")
    yardstick = full[YARDSTICK]["seconds"]
    return {stem: RunTime(stem, full[stem]["seconds"], fast[stem]["seconds"], full[stem]["seconds"] / yardstick,
                          uses_model_cache(nbformat.read(notebooks_dir / f"{stem}.ipynb", as_version=4)))
            for stem in stems}


def duration(seconds: float, lang: str = "en") -> str:
    """A wall time a reader takes in at a glance: '40 s', '1 min 10 s' (to 5 s above a minute)."""
    if seconds < 60:
        value = max(1, round(seconds))
        return f"{value} s" if lang == "en" else f"{value} 秒"
    rounded = int(5 * round(seconds / 5))
    minutes, rest = divmod(rounded, 60)
    if lang == "en":
        return f"{minutes} min" + (f" {rest} s" if rest else "")
    return f"{minutes} 分" + (f" {rest} 秒" if rest else "钟")


def header_line(time: RunTime, machine: str, lang: str = "en") -> str:
    """The run-time sentence of a notebook's header cell."""
    full, fast = duration(time.full_s, lang), duration(time.fast_s, lang)
    if lang == "en":
        relation = ("the other notebooks give their time as a multiple of this one's, so note how long it takes you"
                    if time.stem == YARDSTICK else f"{time.full_over_yardstick:.1f}× notebook 01")
        cache = (" It trains models into the checkpoint cache on its first run (with progress bars); later runs load "
                 "them." if time.uses_model_cache else "")
        return (f"{EN_MARK} about {full} at the full sizes on {machine} ({relation}); {fast} at the fast sizes.{cache} "
                "Too slow? Restart JupyterLab with `LM_FAST=1 python -m utils.student open`, or lower the sizes in "
                "the parameters cell.")
    relation = ("其他笔记本的运行时间都写成它的倍数，所以请留意它在你的电脑上用了多久"
                if time.stem == YARDSTICK else f"是笔记本 01 的 {time.full_over_yardstick:.1f} 倍")
    cache = "第一次运行时会把模型训练好存入检查点缓存（带进度条），之后直接载入。" if time.uses_model_cache else ""
    return (f"{ZH_MARK} 在{machine}上，完整规模约 {full}（{relation}）；快速规模约 {fast}。{cache}"
            "太慢的话，用 `LM_FAST=1 python -m utils.student open --lang zh` 重新打开 JupyterLab，或在参数单元格里调小规模。")


def machine_words(recorded: dict, lang: str = "en") -> str:
    """Where the figures were measured, in a few words (busy: the load average at the start reached the cores)."""
    cores = recorded["full"].get("cpu_count") or 1
    busy = (recorded["full"].get("load_average_1min") or [0])[0] >= cores
    if lang == "en":
        return f"the course's {cores}-core machine" + (" while busy with other jobs" if busy else "")
    return f"课程的 {cores} 核机器" + ("（当时还在运行其他任务）" if busy else "")


def replace_run_time(text: str, mark: str, sentence: str) -> str:
    """`text` with its run-time passage (from `mark` to the end of that paragraph) replaced by `sentence`."""
    start = text.find(mark)
    if start < 0:
        raise ValueError(f"no {mark!r} passage in the header cell: add one (CONTRIBUTING: the shape of a notebook)")
    end = text.find("\n\n", start)
    end = len(text) if end < 0 else end
    return text[:start] + sentence + text[end:]


def readme_table(text: str, times: dict[str, RunTime], lang: str) -> str:
    """The README `text` with the two run-time columns of its notebooks table set from `times`."""
    begin, end = text.find(TABLE_BEGIN), text.find(TABLE_END)
    if begin < 0 or end < begin:
        raise ValueError(f"the README has no {TABLE_BEGIN} ... {TABLE_END} block for the run times")
    by_number = {stem[:2]: t for stem, t in times.items()}
    lines = text[begin:end].split("\n")
    for i, line in enumerate(lines):
        match = re.match(r"^\| (\d\d) \|", line)
        if match and match.group(1) in by_number:
            cells = line.split(" | ")
            t = by_number[match.group(1)]
            relation = "" if t.stem == YARDSTICK else (
                f" ({t.full_over_yardstick:.1f}×)" if lang == "en" else f"（{t.full_over_yardstick:.1f} 倍）")
            cells[-2] = duration(t.full_s, lang) + relation
            cells[-1] = duration(t.fast_s, lang) + " |"
            lines[i] = " | ".join(cells)
    return text[:begin] + "\n".join(lines) + text[end:]


def _header(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """The header cell: the first markdown cell."""
    return next(c for c in notebook.cells if c.cell_type == "markdown")


def expected_headers(times: dict[str, RunTime], recorded: dict, notebooks_dir: Path = ROOT / "notebooks"
                     ) -> dict[tuple[str, str], str]:
    """(lang, stem) -> the header cell's text with its run-time passage as the recorded benchmark gives it."""
    from utils.i18n.catalog import translation_table
    from utils.i18n.layout import notebook_source

    expected = {}
    for stem, time in times.items():
        english = nbformat.read(notebooks_dir / f"{stem}.ipynb", as_version=4)
        header = _header(english)
        expected[("en", stem)] = replace_run_time(header.source, EN_MARK, header_line(time, machine_words(recorded)))
        chinese = translation_table(notebook_source(notebooks_dir / f"{stem}.ipynb")).get(header.id)
        if chinese is not None and ZH_MARK in chinese[1]:
            expected[("zh", stem)] = replace_run_time(chinese[1], ZH_MARK,
                                                      header_line(time, machine_words(recorded, "zh"), "zh"))
    return expected


def differences(notebooks_dir: Path = ROOT / "notebooks", folder: Path = RECORDED_DIR) -> list[str]:
    """What differs from the recorded benchmark: header cells (both languages) and the READMEs' tables."""
    recorded, times = load_recorded(folder), run_times(notebooks_dir, folder)
    found = []
    for (lang, stem), text in expected_headers(times, recorded, notebooks_dir).items():
        path = notebooks_dir / ("" if lang == "en" else "zh") / f"{stem}.ipynb"
        if _header(nbformat.read(path, as_version=4)).source != text:
            found.append(f"{path.relative_to(ROOT)}: the header's run time is not the recorded one")
    for lang, readme in READMES.items():
        text = readme.read_text(encoding="utf-8")
        if readme_table(text, times, lang) != text:
            found.append(f"{readme.relative_to(ROOT)}: the notebooks table's run times are not the recorded ones")
    return found


def write_run_times(notebooks_dir: Path = ROOT / "notebooks", folder: Path = RECORDED_DIR) -> list[str]:
    """Write the recorded run times into the headers (English, then the Chinese translation files and
    notebooks), the READMEs and the student edition; returns what was changed."""
    from utils.grading.gradebook import write_atomically
    from utils.i18n.build import build
    from utils.i18n.catalog import status_of, translate
    from utils.i18n.layout import notebook_source
    from utils.student.edition import build_edition

    recorded, times = load_recorded(folder), run_times(notebooks_dir, folder)
    expected = expected_headers(times, recorded, notebooks_dir)  # the Chinese read before the English changes
    changed = []
    for stem in times:
        path = notebooks_dir / f"{stem}.ipynb"
        source = notebook_source(path)
        was_current = not status_of(source).lines()
        notebook = nbformat.read(path, as_version=4)
        header = _header(notebook)
        if header.source != expected[("en", stem)]:
            header.source = expected[("en", stem)]
            write_atomically(path, nbformat.writes(notebook) + "\n")
            changed.append(str(path.relative_to(ROOT)))
        if ("zh", stem) in expected and was_current:
            translate(source, {header.id: expected[("zh", stem)]})
            build(source)
        elif ("zh", stem) in expected:
            changed.append(f"{stem}: its Chinese translation was already stale; translate it, then run this again")
    for lang, readme in READMES.items():
        text = readme.read_text(encoding="utf-8")
        new = readme_table(text, times, lang)
        if new != text:
            write_atomically(readme, new)
            changed.append(str(readme.relative_to(ROOT)))
    written, _ = build_edition()
    changed += [str(p.relative_to(ROOT)) for p in written]
    return changed

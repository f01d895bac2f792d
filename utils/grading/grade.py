"""Grade a folder of submissions (one folder per student) against the source notebooks."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
import queue
from pathlib import Path
from typing import Any

from utils.grading.assemble import plan_submission, reference_imports
from utils.grading.gradebook import (
    Row,
    feedback_markdown,
    merge_rows,
    read_gradebook,
    safe_file_name,
    write_atomically,
    write_gradebook,
    write_student_totals,
)
from utils.grading.notebook import SourceError, exercises, read_notebook, validate_source
from utils.grading.rows import SUSPICIOUS, Source, lost_rows, rows_from_run, stop_reason, tampered
from utils.grading.sandbox import Zygote, preload_modules
from utils.i18n.text import LANGUAGES, in_language, tr

__all__ = ["SUSPICIOUS", "Source", "grade", "load_sources", "rows_from_run", "stop_reason", "submitted_sources",
           "tampered"]


def notebook_language(nb: Any, path: Path | None = None) -> str | None:
    """The course language a notebook declares (metadata lm_course.lang), else its folder's (`zh/`), else None."""
    declared = nb.get("metadata", {}).get("lm_course", {}).get("lang") if hasattr(nb, "get") else None
    if declared in LANGUAGES:
        return declared
    if path is not None and path.parent.name in LANGUAGES and path.parent.name != "en":
        return path.parent.name
    return None


def _twins(path: Path, lang: str) -> dict[str, Path]:
    """The same notebook in the course's other languages: notebooks/zh/X for notebooks/X, and back."""
    if lang == "en":
        return {other: path.parent / other / path.name for other in LANGUAGES if other != "en"}
    return {"en": path.parent.parent / path.name}


def _titles(nb: Any) -> dict[str, str]:
    """test_id -> exercise title of a notebook (unvalidated: a twin only lends its titles)."""
    try:
        return {e.test_id: e.title for e in exercises(nb) if e.title}
    except (KeyError, TypeError, ValueError):
        return {}


def load_sources(paths: list[Path]) -> list[Source]:
    """Read and validate the source notebooks (SourceError names the first malformed one); titles in each language."""
    sources = []
    for path in paths:
        nb = read_notebook(path)
        lang = notebook_language(nb, Path(path)) or "en"
        source = Source(Path(path).name, nb, validate_source(nb, str(path)), lang)
        source.titles[lang] = _titles(nb)
        for other, twin in _twins(Path(path), lang).items():
            if twin.is_file():
                try:
                    source.titles[other] = _titles(read_notebook(twin))
                except (SourceError, OSError):
                    pass
        sources.append(source)
    return sources


def find_submission(student_dir: Path, name: str) -> Path | None:
    """The student's copy of notebook `name`: directly in their folder, else anywhere below it."""
    direct = student_dir / name
    if direct.is_file():
        return direct
    found = sorted(p for p in student_dir.rglob(name) if p.is_file() and ".ipynb_checkpoints" not in p.parts)
    return found[0] if found else None


def grade_one(student_dir: Path, source: Source, zygote: Zygote, timeout_s: float, memory_bytes: int,
              lang: str | None = None) -> list[Row]:
    """Grade one student's copy of one notebook; every failure becomes 0 points with a reason.

    lang: the feedback's language; None: the submission's edition (its metadata), else the source's.
    """
    student = student_dir.name
    path = find_submission(student_dir, source.name)
    if path is None:
        with in_language(lang or source.lang):
            return lost_rows(student, source, tr("0 points: {notebook} was not submitted", notebook=source.name),
                             lang or source.lang)
    try:
        submission = read_notebook(path)
    except (SourceError, OSError) as err:
        reason = str(err).split(": ", 1)[-1]
        with in_language(lang or source.lang):
            return lost_rows(student, source, tr("0 points: the submitted {notebook} could not be read: {reason}",
                                                 notebook=source.name, reason=reason), lang or source.lang)
    lang = lang or notebook_language(submission, path) or source.lang
    plan = plan_submission(source.notebook, submission, source.exercises)
    result = zygote.run(plan.job(lang), timeout_s, memory_bytes)
    return rows_from_run(student, source, plan, result, timeout_s, lang)


def submitted_sources(sources: list[Source], submissions: Path) -> tuple[list[Source], list[str]]:
    """The sources some student handed in (every student's folder, searched as `grade` does), and the others' names."""
    folders = student_dirs(submissions)
    present = [s for s in sources if any(find_submission(folder, s.name) is not None for folder in folders)]
    if not present:
        raise FileNotFoundError(tr("{submissions}: no student folder holds any of the source notebooks ({names}); "
                                   "name them with --notebooks, or check --source", submissions=submissions,
                                   names=", ".join(s.name for s in sources[:6]) + (" ..." if len(sources) > 6 else "")))
    return present, [s.name for s in sources if s not in present]


def student_dirs(submissions: Path, only: list[str] | None = None,
                 shard: tuple[int, int] | None = None) -> list[Path]:
    """The students' folders (one per student), sorted; hidden folders are skipped; `shard` (i, N) keeps share i."""
    from utils.grading.shard import shard_of

    if not submissions.is_dir():
        raise FileNotFoundError(tr("{submissions}: no such folder of submissions (one folder per student)",
                                   submissions=submissions))
    found = sorted(p for p in submissions.iterdir() if p.is_dir() and not p.name.startswith("."))
    if only:
        unknown = sorted(set(only) - {p.name for p in found})
        if unknown:
            raise ValueError(tr("no submission folder for student(s) {students} in {submissions}", students=unknown,
                                submissions=submissions))
        found = [p for p in found if p.name in only]
    if shard is not None:
        mine = set(shard_of([p.name for p in found], *shard))
        found = [p for p in found if p.name in mine]
    return found


def grade(sources: list[Source], submissions: Path, out_dir: Path, timeout_s: float = 300.0,
          memory_bytes: int = 4 * 2**30, students: list[str] | None = None, jobs: int = 1,
          sandbox: str = "required", shard: tuple[int, int] | None = None,
          source_dirs: list[Path] | None = None, lang: str | None = None) -> list[Row]:
    """Grade every student's notebooks; write grades.csv, students.csv and feedback/<student>.md; return the new rows.

    sandbox: "required" (bubblewrap; SandboxUnavailable, before anything is graded, when it does not work
    here), "auto" (the same) or "off" (no sandbox, at the grader's own risk).
    shard: (i, N) grades share i of N of the students and writes shard.json for `merge`.
    source_dirs: folders of source notebooks to hide from the submissions (besides notebooks/).
    lang: the feedback's language for every student; None: each submission's edition.
    """
    from utils.grading.bwrap import SandboxSpec, choose_sandbox, git_folders
    from utils.grading.scrub import scrub_rows
    from utils.grading.shard import write_manifest

    folders = student_dirs(submissions, students, shard)
    tasks = [(folder, source) for folder in folders for source in sources]
    preload = ["torch"] + [m for s in sources for m in preload_modules(reference_imports(s.notebook)[0])]
    course_sources = Path(__file__).resolve().parents[2] / "notebooks"
    hidden = [submissions, out_dir, course_sources, *git_folders(course_sources.parent), *(source_dirs or [])]
    isolate = choose_sandbox(sandbox)
    zygotes: queue.Queue[Zygote] = queue.Queue()
    workers = max(1, min(jobs, len(tasks)))
    try:
        for _ in range(workers):
            spec = SandboxSpec(hidden=[Path(p).absolute() for p in hidden]) if isolate else None
            zygotes.put(Zygote(preload, sandbox=spec))

        def work(task: tuple[Path, Source]) -> list[Row]:
            zygote = zygotes.get()
            try:
                return scrub_rows(grade_one(task[0], task[1], zygote, timeout_s, memory_bytes, lang),
                                  task[1].exercises, task[1].notebook)
            except Exception as error:  # noqa: BLE001 - one submission must never stop the others
                with in_language(lang or task[1].lang):
                    reason = tr("0 points: the grader failed on this submission ({error}); grade it by hand",
                                error=f"{type(error).__name__}: {error}")
                return lost_rows(task[0].name, task[1], reason, lang or task[1].lang)
            finally:
                zygotes.put(zygote)

        with ThreadPoolExecutor(max_workers=workers) as pool:
            results = list(pool.map(work, tasks))
    finally:
        while not zygotes.empty():
            zygotes.get().close()
    rows = [row for part in results for row in part]
    book = out_dir / "grades.csv"
    all_rows = merge_rows(read_gradebook(book), rows)
    write_gradebook(book, all_rows)
    write_student_totals(out_dir / "students.csv", all_rows)
    for folder in folders:
        mine = [row for row in all_rows if row.student == folder.name]
        write_atomically(out_dir / "feedback" / f"{safe_file_name(folder.name)}.md",
                         feedback_markdown(folder.name, mine))
    if shard is not None:
        write_manifest(out_dir, shard[0], shard[1], [p.name for p in student_dirs(submissions, students)],
                       [f.name for f in folders], [s.name for s in sources])
    return rows

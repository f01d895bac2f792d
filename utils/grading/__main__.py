"""Command line: `python -m utils.grading release|grade|merge ...`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from utils.grading.bwrap import MODES, SandboxUnavailable
from utils.grading.grade import grade, load_sources, submitted_sources
from utils.grading.merge import merge
from utils.grading.notebook import SourceError
from utils.grading.release import release
from utils.grading.sandbox import HelperStartError
from utils.grading.shard import parse_shard
from utils.i18n.text import LANGUAGES, tr


def _source_paths(source_dir: Path, names: list[str]) -> list[Path]:
    """The source notebooks: the named ones, or every .ipynb in `source_dir`."""
    if not source_dir.is_dir():
        raise FileNotFoundError(tr("{folder}: no such folder of source notebooks (try --source notebooks)",
                                   folder=source_dir))
    paths = [source_dir / name for name in names] if names else sorted(source_dir.glob("*.ipynb"))
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(tr("no such source notebook(s): {names}", names=", ".join(missing)))
    if not paths:
        raise FileNotFoundError(tr("{folder}: contains no .ipynb notebooks", folder=source_dir))
    return paths


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with the three subcommands."""
    parser = argparse.ArgumentParser(prog="python -m utils.grading", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    rel = commands.add_parser("release", help="write student versions (solutions stubbed, hidden tests removed)")
    rel.add_argument("notebooks", nargs="*", help="notebook file names in --source (default: all)")
    rel.add_argument("--source", type=Path, default=Path("notebooks"), help="folder of source notebooks")
    rel.add_argument("--out", type=Path, default=Path("release"), help="folder for the student versions")
    gra = commands.add_parser("grade", help="grade a folder of submissions, one sub-folder per student")
    gra.add_argument("submissions", type=Path, help="folder with one sub-folder per student")
    gra.add_argument("--notebooks", nargs="*", default=[],
                     help="notebook file names to grade (default: the source notebooks some student handed in)")
    gra.add_argument("--source", type=Path, default=Path("notebooks"), help="folder of source notebooks")
    gra.add_argument("--out", type=Path, default=Path("grades"), help="folder for grades.csv and feedback/")
    gra.add_argument("--students", nargs="*", default=None, help="grade only these students (others kept)")
    gra.add_argument("--timeout", type=float, default=300.0, help="seconds per notebook (default 300)")
    gra.add_argument("--memory-gib", type=float, default=4.0, help="address-space limit per notebook (GiB)")
    gra.add_argument("--jobs", type=int, default=1, help="notebooks graded in parallel (default 1)")
    gra.add_argument("--sandbox", choices=MODES, default="required",
                     help="required (default): run submissions in bubblewrap, and stop before grading when it does "
                          "not work here; off: grade without a sandbox, at your own risk; auto: the same as required")
    gra.add_argument("--lang", choices=("auto", *LANGUAGES), default="auto",
                     help="language of the feedback: auto (default: each submission's edition, e.g. a notebook of "
                          "notebooks/zh/ gets Chinese feedback), or one language for everyone")
    gra.add_argument("--shard", default=None, metavar="i/N",
                     help="grade only share i of N (0 <= i < N) of the students; join the shards with `merge`")
    mer = commands.add_parser("merge", help="join the grade books of all N shards (refuses missing or overlapping)")
    mer.add_argument("shards", nargs="+", type=Path, help="the --out folders of the N `grade --shard i/N` runs")
    mer.add_argument("--out", type=Path, default=Path("grades"), help="folder for the joined grades.csv and feedback/")
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a subcommand; a bad input prints one clear line and returns 2."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "release":
            for path in release(_source_paths(args.source, args.notebooks), args.out):
                print(tr("released {path}", path=path))
            return 0
        if args.command == "merge":
            rows = merge(args.shards, args.out)
            print(tr("merged {shards} shard(s): {students} student(s), {rows} row(s); wrote {book}, {totals} and "
                     "{feedback}/", shards=len(args.shards), students=len({r.student for r in rows}), rows=len(rows),
                     book=args.out / "grades.csv", totals=args.out / "students.csv", feedback=args.out / "feedback"))
            return 0
        shard = parse_shard(args.shard) if args.shard is not None else None
        sources = load_sources(_source_paths(args.source, args.notebooks))
        if not args.notebooks:
            sources, absent = submitted_sources(sources, args.submissions)
            print(tr("grading {count} notebook(s) found in the submissions: {names}", count=len(sources),
                     names=", ".join(s.name for s in sources))
                  + (tr(" ({count} other source notebook(s) handed in by nobody; name them with --notebooks to "
                        "grade them anyway)", count=len(absent)) if absent else ""))
        rows = grade(sources, args.submissions, args.out, args.timeout, int(args.memory_gib * 2**30),
                     args.students, args.jobs, args.sandbox, shard, [args.source],
                     None if args.lang == "auto" else args.lang)
    except (SourceError, FileNotFoundError, ValueError, SandboxUnavailable, HelperStartError) as err:
        print(tr("error: {message}", message=err), file=sys.stderr)
        return 2
    got, total = sum(r.points for r in rows), sum(r.max_points for r in rows)
    print(tr("graded {students} student(s): {got} / {total} points in all; wrote {book}, {totals} and {feedback}/",
             students=len({r.student for r in rows}), got=f"{got:g}", total=f"{total:g}",
             book=args.out / "grades.csv", totals=args.out / "students.csv", feedback=args.out / "feedback"))
    return 0


if __name__ == "__main__":
    sys.exit(main())

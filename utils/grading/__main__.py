"""Command line: `python -m utils.grading release|grade|merge ...`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from utils.grading.bwrap import MODES, SandboxUnavailable
from utils.grading.grade import grade, load_sources
from utils.grading.merge import merge
from utils.grading.notebook import SourceError
from utils.grading.release import release
from utils.grading.shard import parse_shard


def _source_paths(source_dir: Path, names: list[str]) -> list[Path]:
    """The source notebooks: the named ones, or every .ipynb in `source_dir`."""
    if not source_dir.is_dir():
        raise FileNotFoundError(f"{source_dir}: no such folder of source notebooks (try --source notebooks)")
    paths = [source_dir / name for name in names] if names else sorted(source_dir.glob("*.ipynb"))
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise FileNotFoundError(f"no such source notebook(s): {', '.join(missing)}")
    if not paths:
        raise FileNotFoundError(f"{source_dir}: contains no .ipynb notebooks")
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
    gra.add_argument("--notebooks", nargs="*", default=[], help="notebook file names to grade (default: all)")
    gra.add_argument("--source", type=Path, default=Path("notebooks"), help="folder of source notebooks")
    gra.add_argument("--out", type=Path, default=Path("grades"), help="folder for grades.csv and feedback/")
    gra.add_argument("--students", nargs="*", default=None, help="grade only these students (others kept)")
    gra.add_argument("--timeout", type=float, default=300.0, help="seconds per notebook (default 300)")
    gra.add_argument("--memory-gib", type=float, default=4.0, help="address-space limit per notebook (GiB)")
    gra.add_argument("--jobs", type=int, default=1, help="notebooks graded in parallel (default 1)")
    gra.add_argument("--sandbox", choices=MODES, default="auto",
                     help="run submissions in bubblewrap: auto (when it works here; default), required, off")
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
                print(f"released {path}")
            return 0
        if args.command == "merge":
            rows = merge(args.shards, args.out)
            print(f"merged {len(args.shards)} shard(s): {len({r.student for r in rows})} student(s), "
                  f"{len(rows)} row(s); wrote {args.out / 'grades.csv'} and {args.out / 'feedback'}/")
            return 0
        shard = parse_shard(args.shard) if args.shard is not None else None
        sources = load_sources(_source_paths(args.source, args.notebooks))
        rows = grade(sources, args.submissions, args.out, args.timeout, int(args.memory_gib * 2**30),
                     args.students, args.jobs, args.sandbox, shard, [args.source])
    except (SourceError, FileNotFoundError, ValueError, SandboxUnavailable) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    got, total = sum(r.points for r in rows), sum(r.max_points for r in rows)
    print(f"graded {len({r.student for r in rows})} student(s): {got:g} / {total:g} points in all; "
          f"wrote {args.out / 'grades.csv'} and {args.out / 'feedback'}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())

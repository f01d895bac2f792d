"""Command line of the student edition.

    python -m utils.student open [NN] [--lang zh]   copy the edition into my-work/ (ignored by git) and start JupyterLab there
    python -m utils.student update NN [--lang zh]   put the course's newer version of NN in my-work/, keeping yours beside it
    python -m utils.student check my-work/NN_name.ipynb   grade your copy against the hidden tests (they stay hidden)
    python -m utils.student build [--check]         regenerate student/ from notebooks/ (instructors; --check: only list)
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

from utils.grading.notebook import SourceError
from utils.i18n.text import LANG_ENV_VAR, tr
from utils.student.layout import EDITION_DIR, LANGUAGES, ROOT, WORK_DIR, language_folder, resolve_name


@contextmanager
def speaking(lang: str):
    """Messages of this command in `lang` (the kernels JupyterLab starts later keep their own language)."""
    previous = os.environ.get(LANG_ENV_VAR)
    os.environ[LANG_ENV_VAR] = lang
    try:
        yield
    finally:
        if previous is None:
            os.environ.pop(LANG_ENV_VAR, None)
        else:
            os.environ[LANG_ENV_VAR] = previous


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with the four subcommands."""
    parser = argparse.ArgumentParser(prog="python -m utils.student", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    opening = commands.add_parser("open", help="copy the student edition into my-work/ and start JupyterLab there")
    opening.add_argument("notebook", nargs="?", help="number or name of the notebook to open (default: the folder)")
    opening.add_argument("--lang", choices=LANGUAGES, default="en", help="en (default) or zh")
    opening.add_argument("--no-lab", action="store_true", help="only copy, do not start JupyterLab")
    opening.add_argument("lab_args", nargs=argparse.REMAINDER, help="after --: arguments for jupyter lab")
    updating = commands.add_parser("update", help="replace your copy of a notebook by the course's newer version")
    updating.add_argument("notebook", help="number or name of the notebook")
    updating.add_argument("--lang", choices=LANGUAGES, default="en")
    checking = commands.add_parser("check", help="grade your copy of a notebook against the hidden tests")
    checking.add_argument("copy", type=Path, help="your notebook, e.g. my-work/06_positional_encodings.ipynb")
    checking.add_argument("--full", action="store_true", help="run at the full sizes (default: the fast ones)")
    checking.add_argument("--timeout", type=float, default=300.0, help="seconds for the whole notebook (default 300)")
    checking.add_argument("--sandbox", choices=("auto", "required", "off"), default="auto",
                          help="run it in bubblewrap: auto (when it works here; default), required, off")
    building = commands.add_parser("build", help="regenerate student/ from the instructors' notebooks")
    building.add_argument("--check", action="store_true", help="only list the out-of-date files; exit 1 if any")
    return parser


def open_command(args: argparse.Namespace) -> int:
    """Fill my-work/ from the edition, say what changed, start JupyterLab with my-work/ as its root."""
    from utils.student.workspace import Workspace

    with speaking(args.lang):
        for message in Workspace().sync(args.lang):
            print(message)
        target = WORK_DIR / language_folder(args.lang)
        if args.notebook:
            target = target / resolve_name(args.notebook, args.lang, EDITION_DIR)
        print(tr("your copies are in {folder} (git ignores it: `git pull` brings course updates)",
                 folder=_relative(WORK_DIR)))
    if args.no_lab:
        return 0
    lab_args = [a for a in args.lab_args if a != "--"]
    command = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={WORK_DIR}", *lab_args]
    if target != WORK_DIR:
        command.append(str(target.relative_to(WORK_DIR)))
    try:
        return subprocess.call(command, cwd=WORK_DIR)
    except KeyboardInterrupt:
        return 0


def check_command(args: argparse.Namespace) -> int:
    """Grade one copy and print each exercise's points and feedback; exit 1 unless every exercise passed."""
    from utils.student.check import check_copy, copy_language, exercise_numbers, source_of

    with speaking(copy_language(args.copy)):
        print(tr("checking {copy} against the hidden tests (the notebook runs from the top; this takes a while)",
                 copy=args.copy))
        rows = check_copy(args.copy, args.timeout, args.sandbox, fast=not args.full)
        numbers = exercise_numbers(source_of(args.copy))
        for row in rows:
            number = numbers.get(row.grade_id)
            label = row.grade_id if number is None else tr("Exercise {number}", number=number)
            print(f"{label}: {row.points:g} / {row.max_points:g}  {row.feedback}")
        got, total = sum(r.points for r in rows), sum(r.max_points for r in rows)
        print(tr("{got} of {total} points", got=f"{got:g}", total=f"{total:g}"))
    return 0 if rows and got == total else 1


def build_command(args: argparse.Namespace) -> int:
    """Regenerate student/ (or, with --check, list what is out of date)."""
    from utils.student.edition import build_edition, edition_files, orphans, stale

    if args.check:
        late = [_relative(f.target) for f in stale(edition_files())] + [_relative(p) for p in orphans()]
        for path in late:
            print(f"out of date: {path}")
        print(f"{len(late)} file(s) of student/ out of date" + (": run `python -m utils.student build`" if late else ""))
        return 1 if late else 0
    written, removed = build_edition()
    for path in written:
        print(f"wrote {_relative(path)}")
    for path in removed:
        print(f"removed {_relative(path)} (its source is gone)")
    print(f"student edition: {len(written)} written, {len(removed)} removed, the rest current")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; a bad input prints one clear line and returns 2."""
    args = build_parser().parse_args(argv)
    try:
        if args.command == "open":
            return open_command(args)
        if args.command == "update":
            from utils.student.workspace import Workspace

            name = resolve_name(args.notebook, args.lang, EDITION_DIR)
            kept = Workspace().update(name, args.lang)
            with speaking(args.lang):
                print(tr("{name}: the course's current version is in place", name=name)
                      + ("" if kept is None else tr("; yours is kept as {kept}", kept=_relative(kept))))
            return 0
        if args.command == "check":
            return check_command(args)
        return build_command(args)
    except (SourceError, FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

"""Command line: python -m utils.site build --out site/ [--fast] [notebook ...]."""

from __future__ import annotations

import argparse
from pathlib import Path

from utils.site.build import DEFAULT_NOTEBOOKS_DIR, build_site, course_notebooks
from utils.student.layout import resolve_name


def course_notebook(name: Path, folder: Path = DEFAULT_NOTEBOOKS_DIR) -> Path:
    """A notebook given on the command line: a path, or a bare name, stem or number ("01") in `folder`."""
    if name.exists() or name.parent != Path("."):
        return name  # a path (build_site says clearly when it does not exist)
    try:
        return folder / resolve_name(str(name), "en", folder)
    except ValueError:
        return name


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and build the site."""
    parser = argparse.ArgumentParser(prog="python -m utils.site", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="execute the notebooks and export them to an offline HTML site")
    build.add_argument("--out", type=Path, default=Path("site"), help="output folder (default: site/)")
    build.add_argument("--fast", action="store_true", help="run with the test sizes (LM_FAST=1) instead of full sizes")
    build.add_argument("--timeout", type=int, default=900, help="seconds a cell may run (default: 900)")
    build.add_argument("--notebooks-dir", type=Path, default=None, help="folder of NN_name.ipynb notebooks")
    build.add_argument("--no-chinese", action="store_true",
                       help="leave out the Chinese pages (site/zh/, built from notebooks/zh and lessons/zh)")
    build.add_argument("notebooks", nargs="*", type=Path, help="only these notebooks (default: all, in course order)")
    args = parser.parse_args(argv)
    if args.notebooks:
        folder = args.notebooks_dir or DEFAULT_NOTEBOOKS_DIR
        notebooks = [course_notebook(name, folder) for name in args.notebooks]
    elif args.notebooks_dir is not None:
        notebooks = course_notebooks(args.notebooks_dir)
    else:
        notebooks = None
    lessons = build_site(args.out, notebooks, fast=args.fast, timeout_s=args.timeout, chinese=not args.no_chinese)
    return 0 if lessons else 1


if __name__ == "__main__":
    raise SystemExit(main())

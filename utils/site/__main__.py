"""Command line: python -m utils.site build --out site/ [--fast] [notebook ...]."""

from __future__ import annotations

import argparse
from pathlib import Path

from utils.site.build import build_site, course_notebooks


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
        notebooks = args.notebooks
    elif args.notebooks_dir is not None:
        notebooks = course_notebooks(args.notebooks_dir)
    else:
        notebooks = None
    lessons = build_site(args.out, notebooks, fast=args.fast, timeout_s=args.timeout, chinese=not args.no_chinese)
    return 0 if lessons else 1


if __name__ == "__main__":
    raise SystemExit(main())

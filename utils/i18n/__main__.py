"""Command line of the Chinese edition: sync the translation files, build, and list what is stale.

    python -m utils.i18n sync [NAME ...]    add new English units, flag changed ones fuzzy
    python -m utils.i18n build [NAME ...]   write notebooks/zh/*.ipynb and lessons/zh/*.md
    python -m utils.i18n messages           collect the code's tr("...") strings into utils/i18n/messages/zh.po
    python -m utils.i18n status [NAME ...]  list untranslated and stale units and code messages; exit 1 if any
    python -m utils.i18n all                sync, messages, build and status for everything (the usual command)

NAME is an English notebook or lesson file name or stem (default: all of them). The code's
messages (what utils and the notebooks' code cells print and draw) are one catalog for the whole
course: `messages` and `status` always cover all of them.
"""

from __future__ import annotations

import argparse
import sys

from utils.i18n.build import build
from utils.i18n.catalog import status_of, sync_catalog
from utils.i18n.layout import find_source, sources
from utils.i18n.messages import messages_status, sync_messages


def main(argv: list[str] | None = None) -> int:
    """Run one command; return the exit status."""
    parser = argparse.ArgumentParser(prog="python -m utils.i18n", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", choices=["sync", "messages", "build", "status", "all"])
    parser.add_argument("names", nargs="*", help="English notebook or lesson names (default: all)")
    args = parser.parse_args(argv)
    try:
        chosen = [find_source(name) for name in args.names] if args.names else sources()
    except ValueError as error:
        parser.error(str(error))
    if args.command in ("sync", "all"):
        for source in chosen:
            sync_catalog(source)
    if args.command in ("messages", "all"):
        catalog, problems = sync_messages()
        for line in problems:
            print(line)
        print(f"{len(catalog)} code messages in the catalog ({catalog.percent_translated()}% translated)")
        if args.command == "messages" and problems:
            return 1
    if args.command in ("build", "all"):
        for source in chosen:
            build(source)
    if args.command in ("status", "all"):
        problems = [line for source in chosen for line in status_of(source).lines()]
        code = messages_status()
        for line in problems + code.lines():
            print(line)
        done = sum(status_of(source).complete for source in chosen)
        print(f"{done} of {len(chosen)} files fully translated; {len(problems)} units untranslated or stale")
        print(code.summary())
        return 1 if problems or code.lines() else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())

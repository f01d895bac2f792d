"""Build utils/corpora/tang5.txt (the embedded `tang5` corpus) from a mirror of the chinese-poetry dataset.

    python scripts/build_tang_corpus.py [--mirror ../shared/data] [--check]

The mirror folder must hold chinese-poetry/全唐诗/poet.tang.*.json of the commit named in
utils/tang.py (their SHA-256 are in utils/corpora/tang_sources.sha256). The corpus keeps the
five-character quatrains (五言绝句), converted to simplified characters with OpenCC 't2s',
exact duplicates dropped, in the files' order, one a line. --check compares instead of writing.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

from utils.tang import QUATRAIN_FILE, build_quatrain_text


def main(argv: list[str] | None = None) -> int:
    """Write (or with --check, compare) the embedded quatrain corpus; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mirror", default=os.environ.get("LM_DATA_MIRROR", "../shared/data"),
                        help="folder holding chinese-poetry/ (default: $LM_DATA_MIRROR or ../shared/data)")
    parser.add_argument("--check", action="store_true", help="only check that the committed file is up to date")
    args = parser.parse_args(argv)
    text = build_quatrain_text(args.mirror)
    poems = text.count("\n")
    if args.check:
        same = QUATRAIN_FILE.exists() and QUATRAIN_FILE.read_text(encoding="utf-8") == text
        print(f"{QUATRAIN_FILE}: {'up to date' if same else 'DIFFERS from the rebuild'} ({poems} quatrains)")
        return 0 if same else 1
    handle, temp = tempfile.mkstemp(dir=QUATRAIN_FILE.parent, suffix=".part")
    with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    os.chmod(temp, 0o644)  # mkstemp makes it private; the corpus is read by every user (the grader's sandbox too)
    os.replace(temp, QUATRAIN_FILE)
    print(f"wrote {QUATRAIN_FILE}: {poems} quatrains, {QUATRAIN_FILE.stat().st_size:,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Split a class into N deterministic shares (`--shard i/N`) and describe each share in a manifest.

Share i of N (0 <= i < N) is every N-th student of the sorted class list, starting at the i-th:
the same for every machine that sees the same submissions folder, sizes differing by at most one.
Each shard's output folder gets `shard.json`, which `merge` checks before joining the grade books.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from utils.grading.gradebook import write_atomically

MANIFEST = "shard.json"
_SHARD = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")


def parse_shard(text: str) -> tuple[int, int]:
    """'i/N' as (i, N); ValueError unless 0 <= i < N."""
    match = _SHARD.match(text)
    if not match:
        raise ValueError(f"--shard must look like i/N (e.g. 0/8, as $SLURM_ARRAY_TASK_ID/8), not {text!r}")
    index, count = int(match.group(1)), int(match.group(2))
    if count < 1 or not 0 <= index < count:
        raise ValueError(f"--shard {text}: need 0 <= i < N (shards are numbered 0 to N-1)")
    return index, count


def shard_of(names: list[str], index: int, count: int) -> list[str]:
    """The students of share `index` of `count`: every count-th name of the sorted list, from the index-th."""
    return sorted(names)[index::count]


def class_digest(names: list[str]) -> str:
    """A fingerprint of the whole class list (every shard must have seen the same one)."""
    return hashlib.sha256("\n".join(sorted(names)).encode()).hexdigest()


def write_manifest(out_dir: Path, index: int, count: int, class_names: list[str], students: list[str],
                   notebooks: list[str]) -> None:
    """Write `shard.json`: which share this folder holds, of which class and which notebooks."""
    manifest = {"shard": index, "of": count, "class_size": len(class_names), "class_digest": class_digest(class_names),
                "students": sorted(students), "notebooks": sorted(notebooks)}
    write_atomically(out_dir / MANIFEST, json.dumps(manifest, indent=1) + "\n")


def read_manifest(folder: Path) -> dict:
    """The manifest of a shard's output folder; ValueError when it is missing or malformed."""
    path = folder / MANIFEST
    if not path.is_file():
        raise ValueError(f"{folder}: no {MANIFEST} (not the output of `grade --shard i/N`)")
    try:
        manifest = json.loads(path.read_text())
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}: not valid JSON ({error})") from error
    keys = {"shard", "of", "class_size", "class_digest", "students", "notebooks"}
    if not isinstance(manifest, dict) or not keys <= set(manifest):
        raise ValueError(f"{path}: not a shard manifest (needs {sorted(keys)})")
    return manifest

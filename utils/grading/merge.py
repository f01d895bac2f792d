"""`python -m utils.grading merge`: join the grade books of all N shards into one, or refuse."""

from __future__ import annotations

from pathlib import Path

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
from utils.grading.shard import class_digest, read_manifest


def check_shards(folders: list[Path]) -> tuple[list[dict], list[list[Row]]]:
    """The manifests and rows of the shard folders; ValueError on a missing, repeated or foreign shard."""
    if not folders:
        raise ValueError("merge needs the output folders of the shards")
    manifests = [read_manifest(folder) for folder in folders]
    first = manifests[0]
    for folder, manifest in zip(folders, manifests):
        for key in ("of", "class_digest", "notebooks"):
            if manifest[key] != first[key]:
                raise ValueError(f"{folder}: shard of another run ({key} differs from {folders[0]}); "
                                 "grade every shard with the same submissions, notebooks and N")
    count = first["of"]
    seen: dict[int, Path] = {}
    for folder, manifest in zip(folders, manifests):
        if manifest["shard"] in seen:
            raise ValueError(f"shard {manifest['shard']}/{count} given twice: {seen[manifest['shard']]} and {folder}")
        seen[manifest["shard"]] = folder
    missing = sorted(set(range(count)) - set(seen))
    if missing:
        raise ValueError(f"missing shard(s) {', '.join(f'{i}/{count}' for i in missing)}: grade them, then merge all "
                         f"{count}")
    owner: dict[str, Path] = {}
    for folder, manifest in zip(folders, manifests):
        for student in manifest["students"]:
            if student in owner:
                raise ValueError(f"student {student!r} is in two shards: {owner[student]} and {folder}")
            owner[student] = folder
    if class_digest(list(owner)) != first["class_digest"] or len(owner) != first["class_size"]:
        raise ValueError("the shards' students do not add up to the class they were cut from")
    books = []
    for folder, manifest in zip(folders, manifests):
        rows = read_gradebook(folder / "grades.csv")
        strangers = sorted({row.student for row in rows} - set(manifest["students"]))
        if strangers:
            raise ValueError(f"{folder}/grades.csv has rows of students outside its shard: {strangers[:3]}")
        books.append(rows)
    return manifests, books


def merge(folders: list[Path], out_dir: Path) -> list[Row]:
    """Check the shards, then write out_dir/grades.csv and students.csv (atomically) and every student's feedback."""
    manifests, books = check_shards(folders)
    new = [row for rows in books for row in rows]
    book = out_dir / "grades.csv"
    all_rows = merge_rows(read_gradebook(book), new)
    write_gradebook(book, all_rows)
    write_student_totals(out_dir / "students.csv", all_rows)
    for student in sorted({s for manifest in manifests for s in manifest["students"]}):
        mine = [row for row in all_rows if row.student == student]
        write_atomically(out_dir / "feedback" / f"{safe_file_name(student)}.md", feedback_markdown(student, mine))
    return new

"""`grade --shard i/N` and `merge`: deterministic shares of a class, joined only when complete and disjoint."""

from __future__ import annotations

import copy
import csv
import json
from pathlib import Path

import nbformat
import pytest

from utils.grading import bwrap
from utils.grading.__main__ import main as cli
from utils.grading.gradebook import Row, write_gradebook
from utils.grading.merge import merge
from utils.grading.release import release_notebook
from utils.grading.shard import parse_shard, shard_of, write_manifest

SOURCE = Path(__file__).parent / "fixtures" / "grading" / "source" / "assignment.ipynb"
CLASS = ["ada", "bob", "cy", "dee", "eve"]
STUBBED = {"bob", "eve"}  # hand in the released notebook unchanged: 0 points
SANDBOX = "required" if bwrap.bwrap_works()[0] else "off"  # about shards, not the sandbox: in it where it works


def test_parse_shard() -> None:
    assert parse_shard("0/8") == (0, 8) and parse_shard(" 7 / 8 ") == (7, 8)
    for bad in ("8/8", "-1/2", "1", "a/b", "0/0"):
        with pytest.raises(ValueError, match="--shard"):
            parse_shard(bad)


def test_shares_are_deterministic_disjoint_complete_and_balanced() -> None:
    names = [f"student{k:03d}" for k in range(203)]
    shares = [shard_of(list(reversed(names)), i, 8) for i in range(8)]
    assert shares == [shard_of(names, i, 8) for i in range(8)], "the order of the listing does not matter"
    assert sorted(n for share in shares for n in share) == sorted(names)
    assert {len(share) for share in shares} == {25, 26}


@pytest.fixture(scope="module")
def class_folder(tmp_path_factory) -> Path:
    """Five students: three hand in the solutions, two the released stubs."""
    root = tmp_path_factory.mktemp("class") / "submissions"
    source = nbformat.read(SOURCE, as_version=4)
    for student in CLASS:
        (root / student).mkdir(parents=True)
        nb = release_notebook(copy.deepcopy(source)) if student in STUBBED else source
        nbformat.write(nb, root / student / SOURCE.name)
    return root


def _grade_args(submissions: Path, out: Path, *extra: str) -> list[str]:
    return ["grade", str(submissions), "--source", str(SOURCE.parent), "--out", str(out), "--timeout", "60",
            "--sandbox", SANDBOX, *extra]


def test_two_shards_graded_then_merged(class_folder, tmp_path) -> None:
    shards = [tmp_path / f"shard-{i}-of-2" for i in range(2)]
    for i, out in enumerate(shards):
        assert cli(_grade_args(class_folder, out, "--shard", f"{i}/2")) == 0
        manifest = json.loads((out / "shard.json").read_text())
        assert (manifest["shard"], manifest["of"], manifest["class_size"]) == (i, 2, 5)
        assert manifest["students"] == CLASS[i::2]
        assert sorted(p.stem for p in (out / "feedback").glob("*.md")) == CLASS[i::2]
    assert cli(["merge", str(shards[0]), "--out", str(tmp_path / "joined")]) == 2, "a missing shard is refused"
    assert not (tmp_path / "joined" / "grades.csv").exists()
    assert cli(["merge", *map(str, shards), "--out", str(tmp_path / "joined")]) == 0
    with open(tmp_path / "joined" / "grades.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    assert len(rows) == 3 * len(CLASS)
    for row in rows:
        expected = 0.0 if row["student"] in STUBBED else float(row["max_points"])
        assert float(row["points"]) == expected, row
    assert sorted(p.stem for p in (tmp_path / "joined" / "feedback").glob("*.md")) == CLASS
    with open(tmp_path / "joined" / "students.csv", newline="") as file:
        totals = list(csv.DictReader(file))
    assert totals == [{"student": s, "total": "0" if s in STUBBED else "6", "assignment.ipynb": "0" if s in STUBBED
                       else "6", "max_points": "6"} for s in CLASS], "one row per student of the whole class"


def _fake_shard(folder: Path, index: int, count: int, students: list[str], class_names: list[str] = CLASS) -> Path:
    rows = [Row(s, "assignment.ipynb", "ex1_test", 1.0, 2.0, "passed") for s in students]
    write_gradebook(folder / "grades.csv", rows)
    write_manifest(folder, index, count, class_names, students, ["assignment.ipynb"])
    return folder


@pytest.mark.parametrize("case, message", [
    ("missing", r"missing shard\(s\) 2/3"),
    ("twice", r"shard 1/3 given twice"),
    ("overlap", r"student 'cy' is in two shards"),
    ("other_class", r"shard of another run \(class_digest differs"),
    ("stranger_row", r"has rows of students outside its shard"),
    ("no_manifest", r"no shard.json"),
])
def test_merge_refuses(tmp_path, case: str, message: str) -> None:
    a = _fake_shard(tmp_path / "a", 0, 3, ["ada", "dee"])
    b = _fake_shard(tmp_path / "b", 1, 3, ["bob", "eve"])
    c = _fake_shard(tmp_path / "c", 2, 3, ["cy"])
    folders = {"missing": [a, b],
               "twice": [a, b, _fake_shard(tmp_path / "b2", 1, 3, ["bob", "eve"])],
               "overlap": [a, b, c, _fake_shard(tmp_path / "d", 2, 3, ["cy"])],
               "other_class": [a, b, _fake_shard(tmp_path / "c2", 2, 3, ["cy"], CLASS + ["zed"])],
               "stranger_row": [a, b, c],
               "no_manifest": [a, b, tmp_path / "empty"]}[case]
    if case == "overlap":
        folders = [a, _fake_shard(tmp_path / "b3", 1, 3, ["bob", "cy", "eve"]), c]
    if case == "stranger_row":
        write_gradebook(c / "grades.csv", [Row("ada", "assignment.ipynb", "ex1_test", 2.0, 2.0, "passed")])
    (tmp_path / "empty").mkdir(exist_ok=True)
    out = tmp_path / "joined"
    out.mkdir()
    (out / "grades.csv").write_text("student,notebook,grade_id,points,max_points,feedback\nold,x,y,1,1,kept\n")
    before = (out / "grades.csv").read_text()
    with pytest.raises(ValueError, match=message):
        merge(folders, out)
    assert (out / "grades.csv").read_text() == before, "a refused merge changes nothing"


def test_merge_keeps_other_rows_of_the_grade_book(tmp_path) -> None:
    shards = [_fake_shard(tmp_path / "a", 0, 2, ["ada", "cy", "eve"]),
              _fake_shard(tmp_path / "b", 1, 2, ["bob", "dee"])]
    out = tmp_path / "joined"
    out.mkdir()
    (out / "grades.csv").write_text("student,notebook,grade_id,points,max_points,feedback\n"
                                    "ada,other.ipynb,t,1,1,kept\n")
    merge(shards, out)
    text = (out / "grades.csv").read_text()
    assert "ada,other.ipynb,t,1,1,kept" in text and text.count("ex1_test") == 5
    assert not [p for p in out.iterdir() if p.name.endswith(".tmp")]

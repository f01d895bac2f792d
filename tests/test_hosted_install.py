"""On a machine that already has a newer PyTorch (a GPU server, a hosted notebook), the documented install keeps it.

docs/gpu_and_hosted.md says `pip install -r requirements-course.txt`. Checked with pip's own resolver, without
downloading: a fresh environment holds stub distributions of every package the course names, at the versions installed
here, and of torch 2.14.0 (newer than requirements.txt's cap). `pip install --dry-run --no-index --report` then must
install nothing for requirements-course.txt, torch left as it is; the control, requirements.txt, must ask for another
torch (offline, pip fails to find the torch <= 2.13.0 it wants).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from importlib import metadata
from pathlib import Path

import pytest

from tests.test_requirements import _canonical, named

ROOT = Path(__file__).resolve().parents[1]
NEWER_TORCH = "2.14.0"


def _stub(site: Path, name: str, version: str) -> None:
    """An installed-looking distribution `name` `version` with no files and no requirements."""
    info = site / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n", encoding="utf-8")
    (info / "INSTALLER").write_text("pip\n", encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")


def _without_editable(source: Path, target_dir: Path) -> Path:
    """A copy of a requirements file (and of the files it includes) without the editable `-e .` line of the course."""
    lines = []
    for line in source.read_text(encoding="utf-8").splitlines():
        if line.split("#", 1)[0].strip() == "-e .":
            continue
        if line.startswith("-r "):
            _without_editable(source.parent / line.split()[1].strip(), target_dir)
        lines.append(line)
    target = target_dir / source.name
    target.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def hosted(tmp_path_factory) -> tuple[Path, Path]:
    """(the python of an environment with a newer torch and the course's other packages as stubs, a requirements folder)."""
    root = tmp_path_factory.mktemp("hosted")
    venv.EnvBuilder(with_pip=False).create(root / "env")
    python = root / "env" / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               capture_output=True, text=True, check=True).stdout.strip())
    for name in sorted(named(ROOT / "requirements-course.txt")):
        _stub(site, name, metadata.version(name))
    _stub(site, "torch", NEWER_TORCH)
    folder = root / "requirements"
    folder.mkdir()
    for name in ("requirements.txt", "requirements-course.txt"):
        _without_editable(ROOT / name, folder)
    return python, folder


def _dry_run(python: Path, requirements: Path, report: Path) -> subprocess.CompletedProcess:
    """pip's resolver on `requirements` for the environment of `python`: no index, no find-links, no pip configuration
    of this machine (PIP_* variables, config files), nothing installed."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    return subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--dry-run", "--no-index",
                           "--quiet", "--report", str(report), "-r", str(requirements)],
                          capture_output=True, text=True, timeout=120, env=env)


def test_the_course_requirements_leave_a_newer_torch_in_place(hosted, tmp_path):
    python, folder = hosted
    done = _dry_run(python, folder / "requirements-course.txt", tmp_path / "report.json")
    assert done.returncode == 0, done.stderr[-2000:]
    installs = {_canonical(item["metadata"]["name"]): item["metadata"]["version"]
                for item in json.loads((tmp_path / "report.json").read_text())["install"]}
    assert installs == {}, f"requirements-course.txt would install or replace {installs} in a ready environment"
    assert "torch" not in named(ROOT / "requirements-course.txt"), "requirements-course.txt must not name torch"


def test_the_student_requirements_would_replace_it(hosted, tmp_path):
    python, folder = hosted
    done = _dry_run(python, folder / "requirements.txt", tmp_path / "report.json")
    assert done.returncode != 0 and "torch" in done.stderr and "2.13.0" in done.stderr, (
        "requirements.txt should want a torch <= 2.13.0 in place of 2.14.0 (the control of the test above): "
        f"{done.returncode} {done.stderr[-2000:]}")


def test_the_page_gives_the_command_in_both_languages():
    for page in ("docs/gpu_and_hosted.md", "docs/gpu_and_hosted.zh.md"):
        text = (ROOT / page).read_text(encoding="utf-8")
        assert "pip install -r requirements-course.txt" in text and "%pip install -r requirements-course.txt" in text, page
        assert "pip install -r requirements.txt" not in text, f"{page} must not send a GPU user to requirements.txt"

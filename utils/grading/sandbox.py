"""Run submissions in fresh processes, forked from a zygote that loaded the libraries once (in bwrap when asked)."""

from __future__ import annotations

import json
import os
import re
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from utils.grading.bwrap import SandboxSpec, course_root, helper_pythonpath, sandbox_command

HELPER_MODULE = "utils.grading.zygote"  # what the helper process runs (`python -m`)
LOG_TAIL = 2000
STARTUP_TIMEOUT_S = 600.0  # loading PyTorch on a busy machine can be slow
HELPER_GRACE_S = 60.0  # beyond the time limit, before a silent helper counts as dead


class HelperStartError(RuntimeError):
    """The helper process did not start; the message gives its own last lines, the likely cause and what to do."""


def diagnose_start_failure(stderr_tail: str, code: int | None, sandboxed: bool) -> str:
    """Why the helper process most likely failed to start, and what to do, from its stderr."""
    from utils.i18n.text import tr

    missing = re.search(r"No module named '([^']+)'", stderr_tail)
    if missing and missing.group(1) == "utils":
        return tr("the course package `utils` is not importable {where}: the grader imported it from {root}. A "
                  "second clone whose editable install (pip install -e) points to another folder, or a package folder "
                  "hidden by the sandbox, does this. Run the grader from the clone that holds the package, with "
                  "that clone's environment (`pip install -e .` in it), and check that "
                  "`python -c 'import utils; print(utils.__file__)'` names {root}.",
                  where=tr("inside the sandbox") if sandboxed else tr("in the helper process"), root=course_root())
    if missing:
        return tr("the helper process cannot import {module}: install the course's requirements "
                  "(`pip install -r requirements.txt`) into the environment that runs the grader ({python}).",
                  module=missing.group(1), python=sys.executable)
    if sandboxed and re.search(r"^bwrap:", stderr_tail, re.MULTILINE):
        return tr("bubblewrap could not build the sandbox (see its message above); check that this user may create "
                  "namespaces, or grade inside a container with `--sandbox off`.")
    if code is None:
        return tr("the helper did not answer within {seconds} s (a very slow or overloaded machine?); try again "
                  "with fewer --jobs.", seconds=f"{STARTUP_TIMEOUT_S:g}")
    return tr("see its last lines above; run `{python} -m {module}` by hand (it waits for a line of JSON on stdin) "
              "to see the same error.", python=sys.executable, module=HELPER_MODULE)


@dataclass
class RunResult:
    """What came back from one run: the verified records, how the process ended, the log's tail."""

    records: list[dict] = field(default_factory=list)
    timed_out: bool = False
    returncode: int | None = None
    seconds: float = 0.0
    log_tail: str = ""
    helper_died: bool = False


def _read_records(path: Path, token: str) -> list[dict]:
    """Records from the result file that carry this run's token (anything else is ignored)."""
    records = []
    for line in path.read_text(errors="replace").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        if isinstance(record, dict) and secrets.compare_digest(str(record.pop("token", "")), token):
            records.append(record)
    return records


class Zygote:
    """A trusted helper process: preloads modules, forks one limited child per job, reports how it ended."""

    def __init__(self, preload: list[str], grace_s: float = HELPER_GRACE_S, sandbox: SandboxSpec | None = None) -> None:
        self._preload, self._grace_s, self.sandbox = preload, grace_s, sandbox
        self._scratch: Path | None = None
        self._logs = Path(tempfile.mkdtemp(prefix="lm-grade-helper-"))  # the helper's own stderr, outside any sandbox
        if sandbox is not None:
            if sandbox.child_uid is None and os.geteuid() == 0:
                sandbox.child_uid = 200_000 + secrets.randbelow(800_000)  # its own uid: its own process count
            self._scratch = Path(tempfile.mkdtemp(prefix="lm-grade-sandbox-"))
            self._scratch.chmod(0o711)
        try:
            self._start()
        except BaseException:
            self.close()
            raise

    @property
    def sandboxed(self) -> bool:
        """True when the submissions run inside bubblewrap."""
        return self.sandbox is not None

    def _start(self) -> None:
        """Start the helper and wait until it has loaded the modules."""
        env = {key: value for key, value in os.environ.items() if key not in {"PYTHONOPTIMIZE", "PYTHONINSPECT"}}
        env.setdefault("MPLBACKEND", "Agg")
        env["PYTHONPATH"] = helper_pythonpath()  # the helper imports the very package this grader runs
        argv = [sys.executable, "-m", HELPER_MODULE]
        if self.sandbox is not None:
            argv = sandbox_command(argv, self.sandbox, self._scratch)
        stderr_path = self._logs / "helper-stderr.txt"
        with open(stderr_path, "ab") as stderr:
            self._process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                             env=env)
        self._buffer = b""
        self._send(self._preload)
        if self._receive(STARTUP_TIMEOUT_S) is None:
            self._process.kill()
            code = self._process.wait()
            tail = stderr_path.read_bytes()[-LOG_TAIL:].decode(errors="replace").strip()
            from utils.i18n.text import tr

            raise HelperStartError(tr("the grader's helper process failed to start (exit code {code}). Its last "
                                      "lines:\n{tail}\nLikely cause: {cause}", code=code,
                                      tail=tail or tr("(nothing on stderr)"),
                                      cause=diagnose_start_failure(tail, code, self.sandbox is not None)))

    def _send(self, message: object) -> bool:
        """Send one JSON line; False when the helper is gone."""
        try:
            self._process.stdin.write((json.dumps(message) + "\n").encode())
            self._process.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def _receive(self, timeout_s: float) -> dict | None:
        """Read one JSON line within `timeout_s`; None when the helper is gone, stopped or silent."""
        deadline = time.monotonic() + timeout_s
        descriptor = self._process.stdout.fileno()
        while b"\n" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([descriptor], [], [], remaining)[0]:
                return None
            chunk = os.read(descriptor, 65536)
            if not chunk:
                return None
            self._buffer += chunk
        line, self._buffer = self._buffer.split(b"\n", 1)
        return json.loads(line)

    def _replace_dead_helper(self, child_pid: int | None) -> None:
        """After the helper died (a submission can kill it): kill its orphaned child, start a new helper."""
        if child_pid and self.sandbox is None:  # a sandbox's pids are its own; killing bwrap ends them all
            for kill in (os.killpg, os.kill):
                try:
                    kill(child_pid, signal.SIGKILL)
                except (ProcessLookupError, PermissionError):
                    pass
        self._process.kill()
        self._process.wait()
        self._start()

    def run(self, job: dict, timeout_s: float, memory_bytes: int) -> RunResult:
        """Run `job` (cells, imports, solution_names) in a fresh forked child and collect its verified records."""
        with tempfile.TemporaryDirectory(prefix="lm-grade-", dir=self._scratch) as scratch:
            scratch_path = Path(scratch)
            result_path, log_path, cwd = scratch_path / "results.jsonl", scratch_path / "log.txt", scratch_path / "work"
            result_path.touch(mode=0o600)
            cwd.mkdir()
            sandbox = None
            if self.sandbox is not None:
                scratch_path.chmod(0o711)
                if self.sandbox.child_uid is not None:
                    os.chown(result_path, self.sandbox.child_uid, self.sandbox.child_uid)
                sandbox = {"uid": self.sandbox.child_uid, "nproc": self.sandbox.nproc,
                           "pidns": os.readlink("/proc/self/ns/pid")}
            token = secrets.token_hex(16)
            sent = self._send({"job": {**job, "token": token, "result_path": str(result_path)}, "timeout_s": timeout_s,
                               "memory_bytes": memory_bytes, "log_path": str(log_path), "cwd": str(cwd),
                               "sandbox": sandbox})
            started = self._receive(self._grace_s) if sent else None
            answer = self._receive(timeout_s + self._grace_s) if started else None
            if answer is None:
                self._replace_dead_helper(started["pid"] if started else None)
                answer = {"timed_out": False, "returncode": None, "seconds": 0.0, "helper_died": True}
            tail = log_path.read_bytes()[-LOG_TAIL:].decode(errors="replace") if log_path.exists() else ""
            return RunResult(_read_records(result_path, token), answer["timed_out"], answer["returncode"],
                             answer["seconds"], tail, answer.get("helper_died", False))

    def close(self) -> None:
        """Stop the helper (closing its stdin ends its loop; bwrap then ends everything in the sandbox)."""
        if getattr(self, "_process", None) is not None and self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
        shutil.rmtree(self._logs, ignore_errors=True)

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def preload_modules(import_lines: list[str]) -> list[str]:
    """Module names imported by the instructor's import statements (what a zygote should load once)."""
    modules = []
    for line in import_lines:
        words = line.split()
        if words[0] == "from":
            names = [words[1]]
        else:
            names = [part.split(" as ")[0].strip() for part in line[len("import "):].split(",")]
        modules += [name for name in names if name not in modules]
    return modules

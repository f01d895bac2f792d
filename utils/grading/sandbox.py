"""Run submissions in fresh processes, forked from a zygote that loaded the libraries once."""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

LOG_TAIL = 2000


@dataclass
class RunResult:
    """What came back from one run: the verified records, how the process ended, the log's tail."""

    records: list[dict] = field(default_factory=list)
    timed_out: bool = False
    returncode: int | None = None
    seconds: float = 0.0
    log_tail: str = ""


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

    def __init__(self, preload: list[str]) -> None:
        env = {key: value for key, value in os.environ.items() if key not in {"PYTHONOPTIMIZE", "PYTHONINSPECT"}}
        env.setdefault("MPLBACKEND", "Agg")
        self._process = subprocess.Popen(
            [sys.executable, "-m", "utils.grading.zygote"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            env=env, text=True, bufsize=1,
        )
        self._send(preload)
        self._receive()

    def _send(self, message: object) -> None:
        self._process.stdin.write(json.dumps(message) + "\n")
        self._process.stdin.flush()

    def _receive(self) -> dict:
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"the grader's zygote process died (exit code {self._process.poll()})")
        return json.loads(line)

    def run(self, job: dict, timeout_s: float, memory_bytes: int) -> RunResult:
        """Run `job` (cells, imports, solution_names) in a fresh forked child and collect its verified records."""
        with tempfile.TemporaryDirectory(prefix="lm-grade-") as scratch:
            scratch_path = Path(scratch)
            result_path, log_path, cwd = scratch_path / "results.jsonl", scratch_path / "log.txt", scratch_path / "work"
            result_path.touch(mode=0o600)
            cwd.mkdir()
            token = secrets.token_hex(16)
            self._send({"job": {**job, "token": token, "result_path": str(result_path)}, "timeout_s": timeout_s,
                        "memory_bytes": memory_bytes, "log_path": str(log_path), "cwd": str(cwd)})
            answer = self._receive()
            tail = log_path.read_bytes()[-LOG_TAIL:].decode(errors="replace") if log_path.exists() else ""
            return RunResult(_read_records(result_path, token), answer["timed_out"], answer["returncode"],
                             answer["seconds"], tail)

    def close(self) -> None:
        """Stop the zygote (closing its stdin ends its loop)."""
        if self._process.poll() is None:
            self._process.stdin.close()
            try:
                self._process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()

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

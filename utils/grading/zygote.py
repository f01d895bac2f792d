"""A process that imports the heavy libraries once, then forks one fresh child per submission.

Started by `sandbox.Zygote` as `python -m utils.grading.zygote`. Protocol on stdin/stdout, one JSON
object per line: first the list of modules to preload; then, per job, {"job", "timeout_s",
"memory_bytes", "log_path", "cwd"} answered by {"pid"} once the child is started, then
{"returncode", "timed_out", "seconds"}. No student
code ever runs in this process: each child starts a new session (process group), sets its limits,
runs `harness.run` and leaves with os._exit; the zygote kills the child's whole group when it is
done or past its time.
"""

from __future__ import annotations

import importlib
import json
import os
import resource
import signal
import sys
import time

FILE_SIZE_LIMIT = 256 * 2**20  # largest file a submission may write (bytes)
POLL_S = 0.02


def _child(request: dict) -> None:
    """In the forked child: isolate, limit, run the harness, never return."""
    code = 1
    try:
        os.setsid()
        memory = request["memory_bytes"]
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_SIZE_LIMIT, FILE_SIZE_LIMIT))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        log = os.open(request["log_path"], os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.chdir(request["cwd"])
        from utils.grading.harness import run

        run(request["job"])
        code = 0
    except BaseException as error:  # noqa: BLE001 - reported through the log and the exit code
        try:
            os.write(2, f"grader child failed: {type(error).__name__}: {error}\n".encode())
        except BaseException:  # noqa: BLE001
            pass
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except BaseException:  # noqa: BLE001
            pass
        os._exit(code)


def _kill_group(pid: int) -> None:
    """Kill the child and its process group (the child and whatever it started)."""
    for kill in (os.killpg, os.kill):
        try:
            kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def _serve(request: dict) -> dict:
    """Fork a child for one job, wait for it at most timeout_s, clean up its group."""
    sys.stdout.flush()
    started = time.monotonic()
    pid = os.fork()
    if pid == 0:
        _child(request)
    print(json.dumps({"pid": pid}), flush=True)  # lets the parent clean up if this process dies
    deadline, status, timed_out = started + request["timeout_s"], None, False
    while status is None:
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = raw
        elif time.monotonic() > deadline:
            timed_out = True
            _kill_group(pid)
            status = os.waitpid(pid, 0)[1]
        else:
            time.sleep(POLL_S)
    _kill_group(pid)
    return {"returncode": os.waitstatus_to_exitcode(status), "timed_out": timed_out,
            "seconds": time.monotonic() - started}


def main() -> None:
    """Preload the modules named on the first line, then serve jobs until stdin closes."""
    for name in json.loads(sys.stdin.readline()):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module the notebook cannot import fails in its own run
            pass
    for name in ("IPython.core.interactiveshell", "utils.grading.harness", "utils.grading.guard"):
        importlib.import_module(name)
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        print(json.dumps(_serve(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()

"""A process that imports the heavy libraries once, then forks one fresh child per submission.

Started by `sandbox.Zygote` as `python -m utils.grading.zygote`, directly or inside the bubblewrap
sandbox (`bwrap`). Protocol on stdin/stdout, one JSON object per line: first the list of modules to
preload; then, per job, {"job", "timeout_s", "memory_bytes", "log_path", "cwd", "sandbox"} answered
by {"pid"} once the child is started, then {"returncode", "timed_out", "seconds"}. No student code
ever runs in this process: each child starts a new session (process group), sets its limits, runs
`harness.run` and leaves with os._exit; the zygote kills the child's whole group when it is done or
past its time. In the sandbox ("sandbox": {"uid", "nproc", "pidns"}) the child also gets a fresh
private HOME (also its checkpoint cache and temp folder) on the sandbox's /tmp, drops to the
unprivileged uid (so the process limit holds and it cannot signal the zygote), and after each job
every other process in the sandbox's PID namespace is killed.
"""

from __future__ import annotations

import ctypes
import importlib
import json
import os
import resource
import shutil
import signal
import sys
import time

FILE_SIZE_LIMIT = 256 * 2**20  # largest file a submission may write (bytes)
POLL_S = 0.02
JOB_HOME = "/tmp/job"  # in the sandbox: the submission's private HOME, made anew for each job
PR_SET_NO_NEW_PRIVS = 38


def _job_home(uid: int | None) -> str:
    """A fresh, empty HOME for the next submission (sandbox only), owned by the submission's uid."""
    shutil.rmtree(JOB_HOME, ignore_errors=True)
    for sub in ("", "/work", "/tmp", "/checkpoints", "/.config"):
        os.mkdir(JOB_HOME + sub, 0o700)
        if uid is not None:
            os.chown(JOB_HOME + sub, uid, uid)
    return JOB_HOME


def _drop_privileges(sandbox: dict) -> None:
    """In the sandboxed child: its own HOME, the process limit, then the unprivileged uid (no way back)."""
    os.environ.update({"HOME": JOB_HOME, "TMPDIR": JOB_HOME + "/tmp", "LM_CHECKPOINT_DIR": JOB_HOME + "/checkpoints",
                       "MPLCONFIGDIR": JOB_HOME + "/.config", "XDG_CACHE_HOME": JOB_HOME + "/.cache"})
    resource.setrlimit(resource.RLIMIT_NPROC, (sandbox["nproc"], sandbox["nproc"]))
    if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_NO_NEW_PRIVS) failed")
    uid = sandbox.get("uid")
    if uid is not None:
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
        if os.getuid() != uid or os.geteuid() != uid:
            raise OSError("could not drop to the sandbox's uid")


def _in_own_pid_namespace(host_pidns: str) -> bool:
    """True only inside a PID namespace other than the grader's (where kill(-1) cannot reach the machine)."""
    try:
        return os.readlink("/proc/self/ns/pid") != host_pidns and os.getpid() < 1000
    except OSError:
        return False


def _kill_namespace(host_pidns: str) -> None:
    """Kill every process of the sandbox's PID namespace but this one and its init (setsid leftovers too)."""
    if not _in_own_pid_namespace(host_pidns):
        return
    for _ in range(1000):
        try:
            os.kill(-1, signal.SIGKILL)  # in our own PID namespace: everyone but us and init
        except ProcessLookupError:
            return
        time.sleep(0.005)


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
        os.closerange(3, 65536)  # nothing of the zygote's (its pipes to the grader) stays open
        sandbox = request.get("sandbox")
        if sandbox:
            _drop_privileges(sandbox)
        os.chdir(JOB_HOME + "/work" if sandbox else request["cwd"])
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
    sandbox = request.get("sandbox")
    if sandbox:
        _job_home(sandbox.get("uid"))
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
    if sandbox:
        _kill_namespace(sandbox["pidns"])
        _reap()
        shutil.rmtree(JOB_HOME, ignore_errors=True)
    return {"returncode": os.waitstatus_to_exitcode(status), "timed_out": timed_out,
            "seconds": time.monotonic() - started}


def _reap() -> None:
    """Collect any exited children of this process (none should be left)."""
    try:
        while os.waitpid(-1, os.WNOHANG)[0]:
            pass
    except ChildProcessError:
        pass


def main() -> None:
    """Preload the modules named on the first line, then serve jobs until stdin closes."""
    for name in json.loads(sys.stdin.readline()):
        try:
            importlib.import_module(name)
        except Exception:  # noqa: BLE001 - a module the notebook cannot import fails in its own run
            pass
    for name in ("IPython.core.interactiveshell", "utils.grading.harness", "utils.grading.guard",
                 "utils.grading.torch_watch", "utils.grading.parts"):
        importlib.import_module(name)
    if "torch" in sys.modules:
        from utils.grading.operations import operation_for

        operation_for(sys.modules["torch"].softmax)  # builds torch.overrides' name table once, for every child
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        print(json.dumps(_serve(json.loads(line))), flush=True)


if __name__ == "__main__":
    main()

"""The bubblewrap sandbox the grader's helper runs in: what it sees, what it may write, what it is not told.

`sandbox_command` builds the `bwrap` command line for `sandbox.Zygote`: no network (a network
namespace with only an unused loopback), its own PID, IPC and UTS namespaces (the grader and every
other process of the machine are invisible and cannot be signalled), the whole system read-only,
a size-limited private tmpfs on /tmp for scratch, a clean environment, and these folders hidden
behind empty read-only tmpfs mounts: the grader's home, the source notebooks, the submissions,
the output folder and the course's git history. The Python installation and the course package
stay visible read-only (re-bound when they live below a hidden or non-traversable folder).
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

MODES = ("required", "off", "auto")  # auto: the same as required (grading never falls back to no sandbox)
SCRATCH_BYTES = 1 * 2**30  # the private /tmp of one helper (a tmpfs: counts as memory while used)
NPROC_LIMIT = 256  # processes and threads one submission may have at once
ENV_KEEP = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "MPLBACKEND",
            "PYTHONHASHSEED", "PYTHONWARNINGS", "PYTHONDONTWRITEBYTECODE", "CUDA_VISIBLE_DEVICES", "VIRTUAL_ENV")
ENV_PREFIXES = ("LM_",)


class SandboxUnavailable(RuntimeError):
    """Grading in the sandbox was asked for (the default) and bubblewrap is missing or does not work here."""


@dataclass
class SandboxSpec:
    """What one sandbox hides and which unprivileged uid runs the submissions (None: the grader's own)."""

    hidden: list[Path] = field(default_factory=list)
    child_uid: int | None = None
    scratch_bytes: int = SCRATCH_BYTES
    nproc: int = NPROC_LIMIT


def bwrap_executable() -> str | None:
    """The path of `bwrap`, or None when it is not installed."""
    return shutil.which("bwrap")


def git_folders(course: Path) -> list[Path]:
    """The course's git history: `.git`, and for a worktree (where `.git` is a file) the repository it points to."""
    found = [course / ".git"]
    try:
        pointer = (course / ".git").read_text(encoding="utf-8").strip() if (course / ".git").is_file() else ""
    except OSError:
        pointer = ""
    if pointer.startswith("gitdir:"):
        gitdir = (course / pointer.removeprefix("gitdir:").strip()).resolve()
        found.append(gitdir.parent.parent if gitdir.parent.name == "worktrees" else gitdir)
    return found


def course_root() -> Path:
    """The folder that holds the `utils` package this grader runs (a clone of the course)."""
    import utils

    return Path(utils.__file__).resolve().parents[1]


def helper_pythonpath() -> str:
    """PYTHONPATH for the helper: this grader's own course folder first, then the grader's PYTHONPATH."""
    entries = [str(course_root())] + [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]
    return os.pathsep.join(dict.fromkeys(entries))


def needed_paths() -> list[Path]:
    """Folders the helper must read: the Python installation, its import path and the course package."""
    paths = [Path(sys.prefix), Path(sys.base_prefix), Path(sys.exec_prefix), course_root()]
    paths += [Path(entry) for entry in sys.path if entry and Path(entry).is_dir()]
    mirror = os.environ.get("LM_DATA_MIRROR")
    if mirror and Path(mirror).is_dir():
        paths.append(Path(mirror))
    resolved = []
    for path in paths:
        for variant in (path.absolute(), path.resolve()):
            if variant not in resolved:
                resolved.append(variant)
    return resolved


def _inside(path: Path, folder: Path) -> bool:
    """True when `path` is `folder` or below it."""
    return path == folder or folder in path.parents


def _untraversable_ancestors(path: Path) -> list[Path]:
    """Ancestors of `path` an unprivileged user cannot enter (not world-executable)."""
    found = []
    for ancestor in reversed(path.parents):
        try:
            if ancestor != Path("/") and not os.stat(ancestor).st_mode & stat.S_IXOTH:
                found.append(ancestor)
        except OSError:
            pass
    return found


def _visible_from(ops: list[tuple[str, Path]], path: Path) -> bool:
    """True when the deepest mount covering `path` so far is a bind (not a hiding tmpfs)."""
    covering = [(len(p.parts), kind) for kind, p in ops if _inside(path, p)]
    return not covering or max(covering)[1] == "bind"


def mount_plan(private: list[Path], needed: list[Path], home: Path | None) -> list[tuple[str, Path]]:
    """The mounts after `--ro-bind / /`: ("mask", folder) hides a folder, ("bind", folder) shows it again."""
    private = [p.absolute() for p in private]
    for secret in private:
        clash = [str(n) for n in needed if _inside(n, secret) or secret == Path("/")]
        if clash:
            raise ValueError(f"{secret} must be hidden from submissions but holds what the grader needs ({clash[0]})")
    masks = {Path("/tmp")}
    if home is not None and home != Path("/") and home.is_dir():
        masks.add(home.absolute())
    for path in needed:
        masks.update(_untraversable_ancestors(path))
    masks.update(p for p in private if p.exists())
    ops: list[tuple[str, Path]] = []
    events = [(len(m.parts), 0, "mask", m) for m in masks] + [(len(n.parts), 1, "bind", n) for n in needed]
    for _, _, kind, path in sorted(events):
        if kind == "mask" and _visible_from(ops, path):
            ops.append((kind, path))
        elif kind == "bind" and not _visible_from(ops, path):
            ops.append((kind, path))
    return ops


def sandbox_command(argv: list[str], spec: SandboxSpec, writable: Path) -> list[str]:
    """The bwrap command that runs `argv` in the sandbox; `writable` (a grader-owned folder) stays writable."""
    home = Path(os.environ["HOME"]) if os.environ.get("HOME") else None
    command = [bwrap_executable() or "bwrap", "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net",
               "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try", "--ro-bind", "/", "/", "--dev", "/dev",
               "--proc", "/proc"]
    if os.geteuid() != 0:
        command.insert(1, "--unshare-user")
    read_only, tmpfs_mounts = [], []
    hidden_files = [p.absolute() for p in spec.hidden if p.is_file()]  # a worktree's `.git` is a file
    for kind, path in mount_plan([p for p in spec.hidden if not p.is_file()], needed_paths(), home):
        if path == Path("/tmp"):
            command += ["--size", str(spec.scratch_bytes), "--tmpfs", "/tmp"]
            tmpfs_mounts.append(path)
        elif kind == "mask":
            command += ["--tmpfs", str(path)]
            read_only.append(path)
            tmpfs_mounts.append(path)
        else:
            # Folders bwrap makes inside a tmpfs for a bind below it must be traversable by the submission's
            # unprivileged uid (a course checked out under /tmp, say), as they are on the host.
            masked = max((m for m in tmpfs_mounts if _inside(path, m)), key=lambda m: len(m.parts), default=None)
            for folder in reversed(path.parents if masked else []):
                if masked in folder.parents:  # made in the hiding tmpfs: traversable, as on the host
                    command += ["--perms", "0755", "--dir", str(folder)]
            command += ["--ro-bind", str(path), str(path)]
    command += ["--size", str(64 * 2**20), "--tmpfs", "/dev/shm", "--bind", str(writable), str(writable)]
    for path in read_only:  # after the binds below them, whose mount points had to be made first
        command += ["--remount-ro", str(path)]
    for path in hidden_files:
        command += ["--ro-bind", "/dev/null", str(path)]
    command += ["--clearenv", "--setenv", "HOME", "/tmp/helper-home", "--setenv", "TMPDIR", "/tmp"]
    for key, value in sorted(os.environ.items()):
        if key in ENV_KEEP or key.startswith(ENV_PREFIXES):
            command += ["--setenv", key, _absolute_env(key, value)]
    command += ["--setenv", "PYTHONPATH", helper_pythonpath()]  # the package this grader runs, not another clone's
    command += ["--chdir", "/tmp", "--", *argv]
    return command


def _absolute_env(key: str, value: str) -> str:
    """Folder-valued course settings made absolute (the helper runs in another folder)."""
    if key == "LM_DATA_MIRROR" and value:
        return str(Path(value).absolute())
    return value


def bwrap_works() -> tuple[bool, str]:
    """Whether a trivial sandbox starts here, and bwrap's complaint when it does not."""
    executable = bwrap_executable()
    from utils.i18n.text import tr

    if executable is None:
        return False, tr("bubblewrap (bwrap) is not installed")
    probe = [executable, "--die-with-parent", "--unshare-pid", "--unshare-net", "--ro-bind", "/", "/",
             "--proc", "/proc", "--dev", "/dev", "true"]
    if os.geteuid() != 0:
        probe.insert(1, "--unshare-user")
    try:
        done = subprocess.run(probe, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as error:
        return False, tr("bwrap does not start: {error}", error=error)
    if done.returncode != 0:
        return False, tr("{bwrap} exits with code {code}: {stderr}", bwrap=executable, code=done.returncode,
                         stderr=done.stderr.strip()[:200] or tr("nothing on stderr"))
    return True, ""


def sandbox_unavailable_message(why: str) -> str:
    """What to do when no sandbox works here: how to get one, and what `--sandbox off` means."""
    from utils.i18n.text import tr

    return tr("no working sandbox here ({why}), so nothing was graded. To grade in one: install bubblewrap "
              "(Debian/Ubuntu: sudo apt-get install bubblewrap) and grade as root or as a user allowed to create "
              "user namespaces, or grade inside a container without network (see 'A container instead of bwrap' "
              "in lessons/instructors_guide.md). `--sandbox off` grades without a sandbox at your own risk: "
              "submissions can then use the network, read the hidden tests and the other students' work, and "
              "change your files.", why=why)


def choose_sandbox(mode: str) -> bool:
    """True to grade in the sandbox; False only for 'off' (one line on stderr); SandboxUnavailable otherwise."""
    from utils.i18n.text import tr

    if mode not in MODES:
        raise ValueError(tr("--sandbox must be one of {modes}, not {mode}", modes=", ".join(MODES), mode=repr(mode)))
    if mode == "off":
        print(tr("grading WITHOUT a sandbox (--sandbox off): submissions can use the network and read the "
                 "grader's files"), file=sys.stderr)
        return False
    works, why = bwrap_works()
    if works:
        return True
    raise SandboxUnavailable(sandbox_unavailable_message(why))

"""Test-suite settings shared by unit tests and the notebooks run by nbval.

Set before any kernel starts, so notebook kernels inherit them:
    LM_DATA_MIRROR   -> ../shared/data when that folder exists (offline corpora)
    LM_FAST=1        -> notebooks use their documented fast sizes (see utils.settings)
    LM_CHECKPOINT_DIR -> a fresh temporary folder for the run, removed at exit, so the notebooks'
                        model cache (utils.zoo) never reads or writes the user's ~/.cache and
                        every run trains its fast models from scratch (seconds in fast mode)
    OMP_NUM_THREADS=1 -> one intra-op thread per kernel. On a shared 2-core machine, threads
                        that wait for each other cost far more than they gain: 100 training
                        steps of the bigram model took 0.7 s with one thread and 12.5 s with two
                        on this machine under load. Override by setting it before `pytest`.
"""

import atexit
import os
import shutil
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
SHARED_DATA = ROOT.parent / "shared" / "data"

if "LM_DATA_MIRROR" not in os.environ and SHARED_DATA.is_dir():
    os.environ["LM_DATA_MIRROR"] = str(SHARED_DATA)
os.environ.setdefault("LM_FAST", "1")
os.environ.setdefault("OMP_NUM_THREADS", "1")
if "LM_CHECKPOINT_DIR" not in os.environ:
    _checkpoints = tempfile.mkdtemp(prefix="lm-test-checkpoints-")
    os.environ["LM_CHECKPOINT_DIR"] = _checkpoints
    atexit.register(shutil.rmtree, _checkpoints, ignore_errors=True)

# The Chinese notebooks (notebooks/zh/) have the English notebooks' code cells, unchanged
# (tests/test_i18n_sync.py proves it, and that no code depends on the folder it runs from), so nbval
# runs only the first of them, to show that a notebook runs from notebooks/zh/ too.
collect_ignore_glob = [str(p.relative_to(ROOT)) for p in sorted((ROOT / "notebooks" / "zh").glob("*.ipynb"))
                       if not p.name.startswith("01_")]


# Parallel runs: pyproject's addopts give pytest-xdist `-n 2 --dist loadfile --no-loadscope-reorder`, which
# sends every file whole to one worker. The cells of a notebook share one kernel and must run in order on one
# worker; a test module's fixtures are built once (tests/test_mutants.py runs its mutants two at a time itself;
# tests/test_wrong_answers.py grades each notebook once). (`--dist loadgroup` would allow finer groups, but
# pytest-xdist 3.8 cannot rename node ids under pytest 9, so its groups are silently ignored.)
#
# The browser tests (tests/browser/) are one unit, on one worker: they share one JupyterLab in which every widget
# notebook runs once (tests/browser/conftest.py's package fixture `lab_pages`), instead of one per test file.
#
# The two longest files start first, one on each worker, in this order (--no-loadscope-reorder keeps it): each
# took about 15 minutes of a 29-minute run on 2 busy cores (2026-12-01), and one started late in collection order.
START_FIRST = ("tests/test_mutants.py", "tests/test_wrong_answers.py")


SHARED_SCOPES = ("tests/browser/",)


def pytest_xdist_make_scheduler(config, log):
    """pytest-xdist's loadfile scheduling, except that each folder of SHARED_SCOPES goes whole to one worker."""
    if config.getoption("dist") != "loadfile":
        return None  # another --dist given on the command line: xdist's own scheduler
    from xdist.scheduler import LoadFileScheduling

    class SharedFolderScheduling(LoadFileScheduling):
        def _split_scope(self, nodeid: str) -> str:
            folder = next((f for f in SHARED_SCOPES if nodeid.startswith(f)), None)
            return folder if folder is not None else super()._split_scope(nodeid)

    return SharedFolderScheduling(config, log)


# nbval waits a hard-coded 5 s for a cell's output messages once the kernel has said the cell is done; on 2 cores with
# several kernels that wait ran out once (notebook 12's training cell, 2026-12-06, six kernels running), so every
# notebook cell gets this long. It does not lengthen the wait for a cell to finish (nbval's cell timeout).
NBVAL_OUTPUT_TIMEOUT_S = 60


def pytest_collection_modifyitems(config, items) -> None:
    """Move the items of START_FIRST to the front, in that order (every other item keeps its place); give nbval's cells
    NBVAL_OUTPUT_TIMEOUT_S to deliver their output."""
    def rank(item) -> int:
        path = Path(str(item.fspath))
        relative = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else ""
        return START_FIRST.index(relative) if relative in START_FIRST else len(START_FIRST)

    items.sort(key=rank)  # stable: the cells of a notebook keep their order
    for item in items:
        if type(item).__name__ == "IPyNbCell" and hasattr(item, "output_timeout"):
            item.output_timeout = NBVAL_OUTPUT_TIMEOUT_S


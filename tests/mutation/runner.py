"""Run a mutant: its notebook in a fresh kernel, cell by cell, edits and patches applied, up to its target cell."""

from __future__ import annotations

import json
import os
import re
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError, DeadKernelError
from traitlets.config import Config

from tests.mutation.spec import Mutant

# Asked of the kernel after a cell failed: IPython keeps the exception in sys.last_value.
_PROBE = (
    "import json as _j, sys as _s\n"
    "_e = getattr(_s, 'last_value', None)\n"
    "print('MUTANT-PROBE' + _j.dumps({'assertion': isinstance(_e, AssertionError), "
    "'type': type(_e).__qualname__, 'message': str(_e)}))"
)


@dataclass(frozen=True)
class Outcome:
    """What happened to one mutant: killed or not, why, and how long it took."""

    notebook: str
    mutant: str
    killed: bool
    reason: str
    seconds: float


@dataclass(frozen=True)
class _Step:
    """One cell to run: its label for reports, the cell id it belongs to, and its source."""

    label: str
    cell_id: str
    source: str
    is_target: bool = False


def _short(text: str, limit: int = 300) -> str:
    """One line, at most `limit` characters."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def plan(notebook_path: Path, mutant: Mutant) -> list[_Step]:
    """The cells the mutant runs, in order: edited sources, patches before their cells, skips left out, up to the target."""
    cells = nbformat.read(notebook_path, as_version=4).cells
    ids = [cell.id for cell in cells]
    if mutant.target not in ids:
        raise ValueError(f"target cell {mutant.target!r} is not in {notebook_path.name}")
    if cells[ids.index(mutant.target)].cell_type != "code" or mutant.target in mutant.skip:
        raise ValueError(f"target cell {mutant.target!r} is not a code cell that runs")
    sources = {cell.id: cell.source for cell in cells}
    for edit in mutant.edits:
        if edit.cell not in sources:
            raise ValueError(f"edited cell {edit.cell!r} is not in {notebook_path.name}")
        count = sources[edit.cell].count(edit.old) if edit.old else 0
        if count != 1:
            raise ValueError(f"edit of cell {edit.cell!r}: {edit.old!r} occurs {count} times (must be once)")
        sources[edit.cell] = sources[edit.cell].replace(edit.old, edit.new)
    steps: list[_Step] = []
    for cell in cells[: ids.index(mutant.target) + 1]:
        if cell.cell_type != "code" or cell.id in mutant.skip:
            continue
        for number, patch in enumerate(p for p in mutant.patches if p.before == cell.id):
            steps.append(_Step(f"patch {number + 1} before cell {cell.id}", cell.id, patch.code))
        steps.append(_Step(f"cell {cell.id}", cell.id, sources[cell.id], cell.id == mutant.target))
    return steps


def _probe(client: NotebookClient) -> dict:
    """Type and message of the exception the last cell raised, read from the kernel (the probe is the last cell)."""
    cell = client.nb.cells[-1]
    client.execute_cell(cell, len(client.nb.cells) - 1)
    for output in cell.outputs:
        for line in output.get("text", "").splitlines():
            if line.startswith("MUTANT-PROBE"):
                return json.loads(line[len("MUTANT-PROBE") :])
    return {"assertion": False, "type": "unknown", "message": ""}


def run_mutant(notebook_path: Path, mutant: Mutant, cell_timeout: int = 600) -> Outcome:
    """Run the mutant in a fresh kernel (this process's environment) and say whether its target cell killed it."""
    start = time.perf_counter()

    def outcome(killed: bool, reason: str) -> Outcome:
        return Outcome(notebook_path.name, mutant.name, killed, reason, time.perf_counter() - start)

    try:
        steps = plan(notebook_path, mutant)
    except ValueError as error:
        return outcome(False, f"invalid mutant: {error}")
    sources = [step.source for step in steps] + [_PROBE]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in sources])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    # Where it can (not on Windows), the kernel's sockets are files in a folder of its own, not TCP ports: a port
    # chosen free can be taken by a kernel starting beside it ("Address already in use", then "Kernel died before
    # replying to kernel_info").
    sockets = tempfile.TemporaryDirectory(prefix="mutant-kernel-")
    transport = {"transport": "ipc", "ip": str(Path(sockets.name) / "socket")} if os.name == "posix" else {}
    client = NotebookClient(
        notebook, timeout=cell_timeout, kernel_name="python3", resources={"metadata": {"path": str(notebook_path.parent)}},
        config=Config({"KernelManager": transport}),
    )
    try:
        with sockets, client.setup_kernel():
            for index, (step, cell) in enumerate(zip(steps, notebook.cells)):
                try:
                    client.execute_cell(cell, index)
                except CellExecutionError as error:
                    found = _probe(client)
                    kind, message = found["type"] or error.ename, found["message"]
                    if not step.is_target:
                        return outcome(False, f"failed earlier, at {step.label} with {kind}: {_short(message)!r}, "
                                              f"before reaching the target cell {mutant.target}")
                    if not found["assertion"]:
                        return outcome(False, f"the target cell {mutant.target} raised {kind}, not an AssertionError: "
                                              f"{_short(message)!r}")
                    if not re.search(mutant.message, message):
                        return outcome(False, f"the target cell {mutant.target} raised {kind} {_short(message)!r}, "
                                              f"whose message does not match {mutant.message!r}")
                    return outcome(True, f"killed at cell {mutant.target} by {kind}: {_short(message)!r}")
    except CellTimeoutError as error:
        return outcome(False, f"a cell ran past {cell_timeout} s: {_short(str(error))}")
    except DeadKernelError as error:
        return outcome(False, f"the kernel died: {_short(str(error))}")
    return outcome(False, f"survived: the target cell {mutant.target} ran without an AssertionError")


def run_mutants(jobs: list[tuple[Path, Mutant]], workers: int = 2) -> list[Outcome]:
    """run_mutant for every (notebook, mutant), at most `workers` kernels at a time, results in job order."""
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    with ThreadPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(lambda job: run_mutant(*job), jobs))

"""Closing the browser does not stop a training cell: the kernel finishes it (issue 32, notebook 09's first run).

A notebook whose one cell trains for 150 deliberately slow steps with the course's progress bar is run from
headless Chromium in JupyterLab; the browser is closed a few seconds in. The kernel must go on, finish every step
and write its result. (What lost 09's first training was the kernel being stopped before the end, with the cache
written only at the end: utils/resumable.py now saves on the way; tests/test_resumable.py.)
"""

from __future__ import annotations

import json
import time
import urllib.request

import nbformat
import pytest

from tests.browser.lab import LabServer, browser_unavailable_reason, offline_context, open_notebook, start_run_all

pytestmark = pytest.mark.slow

STEPS = 150
TRAINING_CELL = f"""import time, torch
open("started.txt", "w").write("")
from utils.baselines import BaselineConfig, BigramTableLM
from utils.training import TrainConfig, train
model = BigramTableLM(BaselineConfig(50))
def batches():
    time.sleep(0.2)  # a slow step, as on a busy machine
    x = torch.randint(0, 50, (4, 8))
    return x, x
try:
    history = train(model, batches, TrainConfig(steps={STEPS}, progress=True))
    open("done.txt", "w").write(str(len(history.train_loss)))
except BaseException as error:
    open("error.txt", "w").write(repr(error))
    raise"""


def _kernel_states(server: LabServer) -> list[str]:
    """The execution state of each kernel the server runs."""
    with urllib.request.urlopen(f"{server.base_url}/api/kernels?token={server.token}", timeout=30) as reply:
        return [kernel["execution_state"] for kernel in json.load(reply)]


def test_a_training_goes_on_after_the_browser_closes(tmp_path, browser):
    reason = browser_unavailable_reason()
    if reason is not None:
        pytest.skip(reason)
    root, state = tmp_path / "root", tmp_path / "state"
    root.mkdir()
    state.mkdir()
    notebook = nbformat.v4.new_notebook(metadata={"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                                 "language": "python"}})
    notebook.cells = [nbformat.v4.new_code_cell(TRAINING_CELL)]
    nbformat.write(notebook, root / "probe.ipynb")
    server = LabServer(root_dir=root, state_dir=state)
    server.start()
    try:
        # Its own context in the suite's one Chromium (a second sync Playwright would fail inside the first's loop);
        # closing the context closes every page of it and their connections to the server, as closing the browser does.
        context = offline_context(browser.browser)
        try:
            page = open_notebook(context, server, "probe.ipynb", timeout_s=300)
            start_run_all(page)
            deadline = time.monotonic() + 300
            while not (root / "started.txt").exists() and time.monotonic() < deadline:
                time.sleep(1)
            assert (root / "started.txt").exists(), f"the training cell did not start\n{server.log_tail()}"
            time.sleep(5)  # a few steps in
        finally:
            context.close()
        closed_at, done, error = time.monotonic(), root / "done.txt", root / "error.txt"
        assert not done.exists(), "the training ended before the browser closed: make it longer"
        while time.monotonic() - closed_at < 600 and not done.exists() and not error.exists():
            time.sleep(2)
        assert not error.exists(), f"the training stopped: {error.read_text()}"
        assert done.exists(), (f"no result 600 s after the browser closed; kernels: {_kernel_states(server)}\n"
                               f"{server.log_tail()}")
        assert done.read_text() == str(STEPS)
    finally:
        server.stop()

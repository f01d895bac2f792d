"""A notebook run from a `zh` folder prints and draws Chinese, the same notebook elsewhere English.

The notebook is built here and run with nbclient from two folders, as nbval, the grader and a
student's JupyterLab run notebooks/zh/ and notebooks/: its cells call utils (a printed Metrics, a
training-curve plot, the Transformer diagram) and print the figure's text artists. No cell names a
language. A second test starts a kernel the way JupyterLab does (jupyter_server's SessionManager)
and checks that the notebook's path in JPY_SESSION_NAME alone picks the language.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
HAN = re.compile(r"[\u4e00-\u9fff]")
CELLS = [
    "import json, warnings\nimport matplotlib\nmatplotlib.use('Agg')\nimport matplotlib.pyplot as plt\n"
    "from utils.block_diagram import draw_decoder_only\nfrom utils.evaluation import Metrics\n"
    "from utils.plotting import plot_history, use_lecture_style\nfrom utils.training import TrainHistory\n"
    "use_lecture_style()",
    "print(Metrics(nll=1.5, tokens=1000))",
    "history = TrainHistory(steps=list(range(50)), train_loss=[3 - i / 25 for i in range(50)],\n"
    "                       val_steps=[0, 25, 49], val_loss=[3.0, 2.1, 1.2])\n"
    "fig, (left, right) = plt.subplots(1, 2, figsize=(12, 6))\n"
    "plot_history(history, ax=left)\n"
    "draw_decoder_only(right, 2)\n"
    "with warnings.catch_warnings(record=True) as caught:\n"
    "    warnings.simplefilter('always')\n"
    "    fig.savefig('figure.png')\n"
    "texts = sorted({t.get_text() for t in fig.findobj(matplotlib.text.Text) if t.get_text().strip()})\n"
    "print(json.dumps({'texts': texts, 'missing_glyphs': [str(w.message) for w in caught if 'missing' in str(w.message)]}))",
]


def _run_from(folder: Path, monkeypatch) -> tuple[str, dict]:
    """Run the notebook with `folder` as the kernel's working folder; return the printed line and the figure's texts."""
    monkeypatch.delenv("LM_LANG", raising=False)
    monkeypatch.delenv("JPY_SESSION_NAME", raising=False)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))  # the kernel imports this checkout's utils
    monkeypatch.setenv("MPLBACKEND", "Agg")
    folder.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in CELLS])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    NotebookClient(notebook, timeout=300, kernel_name="python3", resources={"metadata": {"path": str(folder)}}).execute()
    printed = "".join(out.get("text", "") for out in notebook.cells[1].outputs)
    figure = json.loads("".join(out.get("text", "") for out in notebook.cells[2].outputs).strip().splitlines()[-1])
    return printed, figure


def test_zh_folder_prints_and_draws_chinese_english_folder_english(tmp_path, monkeypatch):
    chinese, zh_figure = _run_from(tmp_path / "course" / "zh", monkeypatch)
    english, en_figure = _run_from(tmp_path / "course" / "en", monkeypatch)

    assert "困惑度" in chinese and "奈特/词元" in chinese and "perplexity" not in chinese
    assert "perplexity" in english and not HAN.search(english)
    # the same numbers in both
    assert re.findall(r"\d+\.\d+", chinese) == re.findall(r"\d+\.\d+", english)

    assert {"训练集", "验证集", "步数", "损失（奈特/词元）", "残差"} <= set(zh_figure["texts"])
    assert {"train", "validation", "step", "loss (nats/token)", "residual"} <= set(en_figure["texts"])
    assert not any(HAN.search(text) for text in en_figure["texts"])
    assert zh_figure["missing_glyphs"] == [] and en_figure["missing_glyphs"] == []


def test_jupyterlab_kernel_sees_the_notebook_folder(tmp_path, monkeypatch):
    """jupyter_server (2.21.1 here; SessionManager.get_kernel_env) starts a notebook's kernel with
    JPY_SESSION_NAME = os.path.join(kernel_manager.cwd_for_path(path), name); JupyterLab (4.6.6 here; its
    docregistry context's SessionContext) sends path = the notebook's path and name = PathExt.basename of it,
    as this test does. So the variable is the notebook's full path, and the kernel knows a zh notebook even
    after leaving its folder."""
    from jupyter_server.services.contents.filemanager import AsyncFileContentsManager
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
    from jupyter_server.services.sessions.sessionmanager import SessionManager

    monkeypatch.delenv("LM_LANG", raising=False)
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    (tmp_path / "notebooks" / "zh").mkdir(parents=True)
    code = ("import os\nos.chdir('/')\nfrom utils.i18n.text import notebook_language, tr\n"
            "print(os.environ['JPY_SESSION_NAME'], notebook_language(), tr('train'))")

    async def run_in_lab_kernel(path: str) -> str:
        kernels = AsyncMappingKernelManager(root_dir=str(tmp_path))
        contents = AsyncFileContentsManager(root_dir=str(tmp_path))
        sessions = SessionManager(kernel_manager=kernels, contents_manager=contents)
        session = await sessions.create_session(path=path, name=Path(path).name, type="notebook",
                                                kernel_name="python3")
        client = kernels.get_kernel(session["kernel"]["id"]).client()
        client.start_channels()
        lines: list[str] = []
        try:
            await client.wait_for_ready(timeout=120)
            await client.execute_interactive(code, timeout=120, output_hook=lambda msg: lines.append(
                msg["content"].get("text", "")) if msg["msg_type"] == "stream" else None)
        finally:
            client.stop_channels()
            await kernels.shutdown_all()
            sessions.close()
        return "".join(lines).strip()

    zh = asyncio.run(run_in_lab_kernel("notebooks/zh/01_autoregression.ipynb"))
    en = asyncio.run(run_in_lab_kernel("notebooks/01_autoregression.ipynb"))
    assert zh == f"{tmp_path / 'notebooks' / 'zh' / '01_autoregression.ipynb'} zh 训练集"
    assert en == f"{tmp_path / 'notebooks' / '01_autoregression.ipynb'} en train"
    assert os.environ.get("JPY_SESSION_NAME") is None  # set for the kernel only

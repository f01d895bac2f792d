"""A throw-away JupyterLab driven by headless Chromium: start it, open a notebook, run it, move widgets.

Used by the browser tests (tests/browser/test_widgets_in_lab.py) and the latency benchmark
(benchmarks/bench_widget_latency.py). JupyterLab listens on 127.0.0.1 on a free port with a
random token, keeps its settings, workspaces and runtime files in a temporary folder, works on
a copy of the notebooks (it autosaves), never checks for news or updates, and its whole
process group is killed on exit. Chromium is Debian's (Playwright's own download is not used).
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
NOTEBOOKS_DIR = REPO_ROOT / "notebooks"
CHROMIUM_CANDIDATES = ("/usr/lib/chromium/chromium", "/usr/bin/chromium", "/usr/bin/chromium-browser")

# The widget of each notebook that has one: CSS class of the outer widget (CONTRIBUTING.md).
WIDGET_NOTEBOOKS = {
    "01_autoregression.ipynb": ["lm-autoregression-widget"],
    "02_ngram_models.ipynb": ["lm-ngram-widget"],
    "05_attention.ipynb": ["lm-attention-widget"],
    "06_positional_encodings.ipynb": ["lm-positional-widget"],
    "08_masks_copy_failure.ipynb": ["lm-mask-widget"],
    "09_decoding.ipynb": ["lm-temperature-widget"],
}
# The four widgets the course requires to work when moved (issue 8).
REQUIRED_WIDGETS = ("lm-attention-widget", "lm-positional-widget", "lm-mask-widget", "lm-temperature-widget")

# What a student must never see in an output area.
BROKEN_OUTPUT_MARKERS = ("Error displaying widget", "model not found", "Traceback (most recent call last)")
TEXT_FALLBACK_MARKERS = ("Box(children=", "VBox(children=", "HBox(children=", "Image(value=b'")


def chromium_path() -> str | None:
    """The Chromium binary to drive ($LM_CHROMIUM first), or None when none is installed."""
    candidates = [os.environ.get("LM_CHROMIUM", ""), *CHROMIUM_CANDIDATES]
    for candidate in candidates:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    return None


def browser_unavailable_reason() -> str | None:
    """Why the browser checks cannot run here (None when they can)."""
    if chromium_path() is None:
        return "Chromium is not installed (apt-get install -y chromium); the browser checks need it"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "Playwright is not installed (pip install -r requirements-test.txt)"
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def copy_notebooks(names: Iterable[str], destination: Path, source: Path = NOTEBOOKS_DIR) -> list[Path]:
    """Copy the named notebooks into `destination` (JupyterLab autosaves; the originals stay clean)."""
    destination.mkdir(parents=True, exist_ok=True)
    copies = []
    for name in names:
        original = source / name
        if not original.is_file():
            raise FileNotFoundError(f"notebook {original} does not exist; check the name against {source}")
        (destination / name).parent.mkdir(parents=True, exist_ok=True)  # a name may keep its folder (zh/...)
        copies.append(Path(shutil.copy2(original, destination / name)))
    return copies


_LAB_SETTINGS = {
    # Every cell stays in the page (no virtual scrolling), so widgets far down can be found and drawn.
    "@jupyterlab/notebook-extension/tracker.jupyterlab-settings": {"windowingMode": "none"},
    # No "get notified about news?" toast, no news fetch, no update check.
    "@jupyterlab/apputils-extension/notification.jupyterlab-settings": {"fetchNews": "false", "checkForUpdates": False},
    # Never ask before closing or on kernel choices; no autosave surprises in a short session.
    "@jupyterlab/docmanager-extension/plugin.jupyterlab-settings": {"autosave": False},
}


@dataclass
class LabServer:
    """A JupyterLab process serving `root_dir`; use as a context manager (see start_lab)."""

    root_dir: Path
    state_dir: Path
    env: dict[str, str] = field(default_factory=dict)
    port: int = 0
    token: str = ""
    process: subprocess.Popen | None = None
    log_path: Path | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def notebook_url(self, name: str) -> str:
        """URL that opens notebook `name` in a fresh workspace."""
        return f"{self.base_url}/lab/tree/{name}?reset&token={self.token}"

    def start(self, timeout_s: float = 60.0) -> None:
        """Start JupyterLab and wait until its API answers."""
        self.port = free_port()
        self.token = secrets.token_hex(16)
        settings_dir = self.state_dir / "user-settings"
        for relative, values in _LAB_SETTINGS.items():
            target = settings_dir / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(json.dumps(values))
        env = {
            **os.environ,
            # Settings, runtime files and IPython's profile stay inside the temporary folder; the data
            # path (sys-prefix share/jupyter, where the widgets' lab extension lives) stays visible.
            "JUPYTER_CONFIG_DIR": str(self.state_dir / "config"),
            "JUPYTER_RUNTIME_DIR": str(self.state_dir / "runtime"),
            "JUPYTERLAB_SETTINGS_DIR": str(settings_dir),
            "JUPYTERLAB_WORKSPACES_DIR": str(self.state_dir / "workspaces"),
            "IPYTHONDIR": str(self.state_dir / "ipython"),
            "LM_FAST": "1",
            "MPLBACKEND": "module://matplotlib_inline.backend_inline",  # figures inline, as students see them
            **self.env,
        }
        shared_data = REPO_ROOT.parent / "shared" / "data"
        if "LM_DATA_MIRROR" not in env and shared_data.is_dir():
            env["LM_DATA_MIRROR"] = str(shared_data)
        command = [
            sys.executable, "-m", "jupyterlab",
            f"--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={self.port}",
            "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={self.token}",
            "--ServerApp.open_browser=False",
            f"--ServerApp.root_dir={self.root_dir}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            f"--LabServerApp.user_settings_dir={settings_dir}",
            f"--LabServerApp.workspaces_dir={self.state_dir / 'workspaces'}",
            "--LabApp.expose_app_in_browser=True",
            "--ServerApp.terminals_enabled=False",
            "--MappingKernelManager.cull_idle_timeout=0",
        ]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            command.append("--allow-root")
        self.log_path = self.state_dir / "jupyterlab.log"
        log = open(self.log_path, "wb")
        self.process = subprocess.Popen(
            command, cwd=self.root_dir, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        log.close()
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"JupyterLab exited with code {self.process.returncode}:\n{self.log_tail()}")
            try:
                with urllib.request.urlopen(f"{self.base_url}/api/status?token={self.token}", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        self.stop()
        raise TimeoutError(f"JupyterLab did not answer within {timeout_s:.0f} s:\n{self.log_tail()}")

    def log_tail(self, n_chars: int = 3000) -> str:
        """The end of the server's log (for failure messages)."""
        if self.log_path is None or not self.log_path.exists():
            return ""
        return self.log_path.read_text(errors="replace")[-n_chars:]

    def stop(self) -> None:
        """Terminate the server and its kernels (the whole process group); SIGKILL after 10 s."""
        if self.process is None or self.process.poll() is not None:
            return
        pgid = os.getpgid(self.process.pid)
        os.killpg(pgid, signal.SIGTERM)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(pgid, signal.SIGKILL)
            self.process.wait(timeout=10)
        # Kernels are in the same group; make sure none outlives the server.
        try:
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass


@contextmanager
def start_lab(notebook_names: Iterable[str], source: Path = NOTEBOOKS_DIR, env: dict[str, str] | None = None) -> Iterator[LabServer]:
    """JupyterLab serving copies of `notebook_names` from `source` in a temporary folder."""
    with tempfile.TemporaryDirectory(prefix="lm-lab-") as tmp:
        tmp_path = Path(tmp)
        root = tmp_path / "notebooks"
        copy_notebooks(notebook_names, root, source)
        server = LabServer(root_dir=root, state_dir=tmp_path / "state", env=env or {})
        server.state_dir.mkdir()
        server.start()
        try:
            yield server
        finally:
            server.stop()


@contextmanager
def launch_chromium(viewport: tuple[int, int] = (1280, 1100)) -> Iterator[object]:
    """A headless Chromium browser context (Playwright) with no network beyond 127.0.0.1 and file://."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise FileNotFoundError("Chromium is not installed; run `apt-get install -y chromium`")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--no-first-run"],
        )
        try:
            yield offline_context(browser, viewport)
        finally:
            browser.close()


def offline_context(browser, viewport: tuple[int, int] = (1280, 1100)):
    """A new context of a Playwright `browser` that reaches only 127.0.0.1, file:// and data:/blob: URLs."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.route("**/*", _local_only)
    return context


def screenshot_widget(page, widget_class: str, path: Path) -> bytes:
    """PNG of the widget's visible part (no waiting for 'stable' elements: JupyterLab keeps laying out)."""
    page.bring_to_front()  # several notebooks share the browser: draw this one's frames now
    widget = page.locator(f".{widget_class}").first
    widget.scroll_into_view_if_needed()
    box = widget.bounding_box()
    viewport = page.viewport_size
    x, y = max(box["x"], 0), max(box["y"], 0)
    clip = {"x": x, "y": y, "width": min(box["width"], viewport["width"] - x), "height": min(box["height"], viewport["height"] - y)}
    return page.screenshot(path=str(path) if path else None, clip=clip, animations="disabled", timeout=90_000)


def _local_only(route) -> None:
    """Allow requests to 127.0.0.1, file:// and data:/blob: URLs; abort everything else (no network)."""
    url = route.request.url
    if url.startswith(("http://127.0.0.1", "file://", "data:", "blob:")):
        route.continue_()
    else:
        route.abort()


# ----------------------------------------------------------------------------- notebook driving

_KERNEL_IDLE_JS = """() => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  const kernel = panel && panel.sessionContext && panel.sessionContext.session && panel.sessionContext.session.kernel;
  return !!kernel && kernel.status === 'idle' && kernel.connectionStatus === 'connected';
}"""

_RUN_STATE_JS = """() => {
  const panel = window.jupyterapp.shell.currentWidget;
  const cells = panel.content.widgets.filter(c => c.model.type === 'code');
  const pending = cells.filter(c => c.promptNode && c.promptNode.textContent.includes('*')).length;
  const kernel = panel.sessionContext.session.kernel;
  return {pending, total: cells.length,
          executed: cells.filter(c => c.model.executionCount !== null).length,
          errors: cells.filter(c => c.model.outputs.toJSON().some(o => o.output_type === 'error')).length,
          idle: kernel.status === 'idle'};
}"""


def open_notebook(context, server: LabServer, name: str, timeout_s: float = 90.0):
    """Open notebook `name` in a new page and wait until its kernel is idle; returns the page."""
    page = context.new_page()
    page.goto(server.notebook_url(name), wait_until="domcontentloaded", timeout=timeout_s * 1000)
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget "
                           "&& window.jupyterapp.shell.currentWidget.content", timeout=timeout_s * 1000)
    page.wait_for_function(_KERNEL_IDLE_JS, timeout=timeout_s * 1000)
    return page


def start_run_all(page) -> None:
    """Ask JupyterLab to run every cell, once the kernel is idle (before that, Run All is silently lost)."""
    page.wait_for_function(_KERNEL_IDLE_JS, timeout=90_000)
    # execute() resolves only when every cell has run: do not wait for it here, so several notebooks
    # run side by side (wait_for_run follows each one).
    page.evaluate("() => { window.jupyterapp.commands.execute('notebook:run-all-cells'); return true; }")


def wait_for_run(page, timeout_s: float = 240.0, progress=None, every_s: float = 15.0) -> dict:
    """Wait until no cell is queued or running and every cell ran (or one failed); returns the counts.

    With `progress` (a callable), it is called every `every_s` seconds with the counts so far, so a
    long run shows where it is instead of going silent until the timeout.
    """
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    done = "() => { const s = (" + _RUN_STATE_JS + ")(); return s.pending === 0 && s.idle && (s.executed === s.total || s.errors > 0); }"
    deadline = time.monotonic() + timeout_s
    while True:
        left = deadline - time.monotonic()
        chunk = min(left, every_s) if progress is not None else left
        try:
            page.wait_for_function(done, timeout=max(chunk, 0.1) * 1000, polling=250)
            return page.evaluate(_RUN_STATE_JS)
        except PlaywrightTimeout:
            if time.monotonic() >= deadline or progress is None:
                raise
            progress(page.evaluate(_RUN_STATE_JS))


def run_all_cells(page, timeout_s: float = 240.0) -> dict:
    """Run every cell and wait for the end; returns {pending, total, executed, errors, idle}."""
    start_run_all(page)
    return wait_for_run(page, timeout_s)


def output_problems(page, settle_ms: int = 1500) -> list[str]:
    """What a student would see go wrong in the outputs: broken widgets, text fallbacks, tracebacks.

    Widget views render asynchronously ("model not found" shows up only once the page's widget
    manager gives up), so the outputs are read after `settle_ms`.
    """
    page.wait_for_timeout(settle_ms)
    problems = []
    outputs = page.eval_on_selector_all(
        ".jp-OutputArea-output",
        "nodes => nodes.map(n => ({mime: n.getAttribute('data-mime-type') || '', text: n.innerText || ''}))",
    )
    for index, output in enumerate(outputs):
        for marker in BROKEN_OUTPUT_MARKERS:
            if marker in output["text"]:
                problems.append(f"output {index} ({output['mime']}) shows {marker!r}: {output['text'][:300]!r}")
        if output["mime"] == "text/plain":
            for marker in TEXT_FALLBACK_MARKERS:
                if marker in output["text"]:
                    problems.append(f"output {index} shows a widget as text ({marker!r}): {output['text'][:200]!r}")
                    break
        if output["mime"] == "application/vnd.jupyter.stderr" and "Error" in output["text"] and "Warning" not in output["text"]:
            problems.append(f"output {index} has an error on stderr: {output['text'][:300]!r}")
    return problems


# A widget's figures: images (kernel-drawn PNG or SVG), or browser-drawn elements that count their
# redraws in a data-lm-frame attribute (the anywidget views). Their "source" changes on every redraw.
_FIGURES_JS = "'img.lm-figure, .lm-figure img, .lm-figure[data-lm-frame]'"
_SOURCE_JS = "(f => f.tagName === 'IMG' ? f.src : 'frame:' + f.getAttribute('data-lm-frame'))"
_DRAWN_JS = "(f => f.tagName !== 'IMG' || (f.complete && f.naturalWidth > 0))"


# Every visible piece of text in a widget, with the size it is drawn at on the screen: HTML text at its computed
# font size, SVG text at its font size times the SVG's scale on the screen (an SVG with a viewBox shrinks to fit).
_TEXT_SIZES_JS = """(cls) => {
  const out = [];
  for (const root of document.querySelectorAll('.' + cls)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement, text = node.textContent.trim();
      if (!text || !el) continue;
      const rect = el.getBoundingClientRect(), style = getComputedStyle(el);
      if (!rect.width || !rect.height || style.visibility === 'hidden' || style.display === 'none') continue;
      const svgText = el.closest('text');
      let px = parseFloat(style.fontSize);
      if (svgText && svgText.ownerSVGElement) {
        const ctm = svgText.getScreenCTM();
        px = parseFloat(getComputedStyle(svgText).fontSize) * Math.hypot(ctm.a, ctm.b);
      }
      out.push({text: text.slice(0, 40), px: Math.round(px * 10) / 10, element: el.getAttribute('class') || el.tagName});
    }
  }
  return out;
}"""


def text_sizes(page, widget_class: str) -> list[dict]:
    """Each visible text of the `widget_class` widgets: {text, px (as drawn on the screen), element (its class)}."""
    return page.evaluate(_TEXT_SIZES_JS, widget_class)


def widget_state(page, widget_class: str) -> dict:
    """The first `widget_class` widget: does it exist, its main control, its figure sources and its text."""
    return page.evaluate(
        """(cls) => {
          const root = document.querySelector('.' + cls);
          if (!root) return {found: false};
          const control = root.querySelector('.lm-main-control');
          const figures = Array.from(root.querySelectorAll(FIGURES));
          let value = '';
          if (control && control.tagName === 'INPUT') {
            value = control.value;
          } else if (control && control.tagName === 'SELECT') {
            value = control.value;
          } else if (control) {
            const handle = control.querySelector('.noUi-handle');
            const select = control.querySelector('select');
            const active = control.querySelector('button.mod-active');
            const box = control.querySelector('input[type=checkbox]');
            const readout = control.querySelector('.widget-readout');
            if (handle) value = (readout ? readout.innerText : '') + ' ' + handle.getAttribute('aria-valuenow');
            else if (select) value = select.value;
            else if (active) value = active.innerText;
            else if (box) value = String(box.checked);
            else value = control.innerText;
          }
          return {found: true,
                  has_control: !!control,
                  control_text: control ? control.innerText : '',
                  control_value: value,
                  n_figures: figures.length,
                  sources: figures.map(SOURCE),
                  complete: figures.every(DRAWN),
                  text: root.innerText};
        }""".replace("FIGURES", _FIGURES_JS).replace("SOURCE", _SOURCE_JS).replace("DRAWN", _DRAWN_JS),
        widget_class,
    )


_MOVE_JS = """(cls) => {
  // Pick the element a person would use and the key or click that moves it one step.
  const root = document.querySelector('.' + cls);
  const control = root.querySelector('.lm-main-control');
  if (control.tagName === 'INPUT' && control.type === 'range') {
    const now = parseFloat(control.value), max = parseFloat(control.max);
    return {kind: 'range', key: now >= max ? 'ArrowLeft' : 'ArrowRight'};
  }
  const handle = control.querySelector('.noUi-handle');
  if (handle) {
    const now = parseFloat(handle.getAttribute('aria-valuenow'));
    const max = parseFloat(handle.getAttribute('aria-valuemax'));
    return {kind: 'slider', key: now >= max ? 'ArrowLeft' : 'ArrowRight'};
  }
  const select = control.querySelector('select') || (control.tagName === 'SELECT' ? control : null);
  if (select) {
    return {kind: 'select', key: select.selectedIndex >= select.options.length - 1 ? 'ArrowUp' : 'ArrowDown'};
  }
  const toggles = control.querySelectorAll('button');
  if (toggles.length > 1) return {kind: 'toggles'};
  if (control.querySelector('input[type=checkbox]')) return {kind: 'checkbox'};
  if (control.tagName === 'BUTTON' || control.querySelector('button')) return {kind: 'button'};
  return {kind: 'unknown', html: control.outerHTML.slice(0, 300)};
}"""


def move_main_control(page, widget_class: str) -> str:
    """Move the widget's main control one step as a person would (key press or click); returns how."""
    page.bring_to_front()
    how = page.evaluate(_MOVE_JS, widget_class)
    control = page.locator(f".{widget_class} .lm-main-control").first
    if how["kind"] == "slider":
        control.locator(".noUi-handle").first.focus()
        page.keyboard.press(how["key"])
    elif how["kind"] == "range":
        control.focus()
        page.keyboard.press(how["key"])
    elif how["kind"] == "select":
        # A person picks the next option; in a notebook the arrow keys belong to JupyterLab's cell
        # navigation, so choose it as a pointer user does (Playwright dispatches input and change).
        select = control.locator("select").first if control.locator("select").count() else control
        current = select.evaluate("n => n.selectedIndex")
        select.select_option(index=current - 1 if how["key"] == "ArrowUp" else current + 1)
        return f"select option {current - 1 if how['key'] == 'ArrowUp' else current + 1}"
    elif how["kind"] == "toggles":
        buttons = control.locator("button")
        target = next(i for i in range(buttons.count()) if "mod-active" not in (buttons.nth(i).get_attribute("class") or ""))
        buttons.nth(target).click()
    elif how["kind"] == "checkbox":
        control.locator("input[type=checkbox]").first.click()
    elif how["kind"] == "button":
        (control if control.evaluate("n => n.tagName") == "BUTTON" else control.locator("button").first).click()
    else:
        raise ValueError(f"do not know how to move the main control of {widget_class}: {how.get('html')}")
    return f"{how['kind']} {how.get('key', 'click')}"


def wait_for_new_figure(page, widget_class: str, before: dict, timeout_s: float = 20.0) -> dict:
    """Wait until the widget's figure (or, without a figure, its text) differs from `before` and is drawn."""
    page.wait_for_function(
        """([cls, sources, text]) => {
          const root = document.querySelector('.' + cls);
          const figures = Array.from(root.querySelectorAll(FIGURES));
          if (figures.length === 0) return root.innerText !== text;
          const changed = figures.some((f, i) => SOURCE(f) !== sources[i]);
          return changed && figures.every(DRAWN);
        }""".replace("FIGURES", _FIGURES_JS).replace("SOURCE", _SOURCE_JS).replace("DRAWN", _DRAWN_JS),
        arg=[widget_class, before["sources"], before["text"]],
        timeout=timeout_s * 1000,
        polling="raf",
    )
    return widget_state(page, widget_class)


# Measured in the page: from the keydown event to the frame after the new figure has loaded.
_ARM_LATENCY_JS = """([cls, events]) => {
  const root = document.querySelector('.' + cls);
  const figures = Array.from(root.querySelectorAll(FIGURES));
  const result = {start: null, end: null};
  window.__lmLatency = result;
  const onInput = () => { if (result.start === null) result.start = performance.now(); };

  events.forEach(name => document.addEventListener(name, onInput, {capture: true, once: true}));
  const sources = figures.map(SOURCE);
  const onLoad = () => {
    const done = figures.some((f, i) => SOURCE(f) !== sources[i]) && figures.every(DRAWN);
    if (done && result.end === null) requestAnimationFrame(() => { if (result.end === null) result.end = performance.now(); });
  };
  figures.forEach(f => f.addEventListener('load', onLoad));
  // Browser-drawn figures: the redraw is done when data-lm-frame changes (set at the end of a redraw).
  const observer = new MutationObserver(onLoad);
  figures.forEach(f => observer.observe(f, {attributes: true, attributeFilter: ['data-lm-frame', 'src']}));
  window.__lmLatencyCleanup = () => {
    figures.forEach(f => f.removeEventListener('load', onLoad));
    observer.disconnect();
    events.forEach(name => document.removeEventListener(name, onInput, {capture: true}));
  };
}""".replace("FIGURES", _FIGURES_JS).replace("SOURCE", _SOURCE_JS).replace("DRAWN", _DRAWN_JS)


INPUT_EVENTS = ("keydown", "mousedown", "mouseover", "input")


def timed_action(page, widget_class: str, action, timeout_s: float = 60.0, events=INPUT_EVENTS) -> float:
    """Run `action()` (a key press, click or hover by Playwright); milliseconds, measured in the page, from
    its first input event (one of `events`) to the frame after the widget's figure changed (a new image
    loaded, or a browser-drawn figure's data-lm-frame moved on)."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.evaluate(_ARM_LATENCY_JS, [widget_class, list(events)])
    try:
        action()
        page.wait_for_function("() => window.__lmLatency.end !== null && window.__lmLatency.start !== null",
                               timeout=timeout_s * 1000, polling=10)
    except PlaywrightTimeout:
        seen = page.evaluate("() => window.__lmLatency")
        raise TimeoutError(f"{widget_class}: no redraw within {timeout_s:.0f} s of the action (in the page: {seen})") from None
    finally:
        latency = page.evaluate("() => { window.__lmLatencyCleanup(); return window.__lmLatency; }")
    return latency["end"] - latency["start"]


def timed_move(page, widget_class: str, timeout_s: float = 60.0) -> float:
    """Move the main control once; milliseconds from the key press to the new figure drawn."""
    return timed_action(page, widget_class, lambda: move_main_control(page, widget_class), timeout_s)


_KERNEL_EVAL_JS = """async (code) => {
  const kernel = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
  let out = '';
  const future = kernel.requestExecute({code, silent: false, store_history: false});
  future.onIOPub = (msg) => {
    const type = msg.header.msg_type;
    if (type === 'stream') out += msg.content.text;
    if (type === 'error') out += 'KERNEL ERROR ' + msg.content.ename + ': ' + msg.content.evalue;
  };
  await future.done;
  return out;
}"""


def kernel_eval(page, code: str) -> str:
    """Run `code` in the notebook's kernel (outside any cell, no output in the notebook); its stdout.

    Lets a browser test compare what the page shows with what the kernel's Python computes.
    """
    out = page.evaluate(_KERNEL_EVAL_JS, code)
    if "KERNEL ERROR" in out:
        raise RuntimeError(f"kernel code failed: {out[-600:]}\ncode:\n{code}")
    return out


def kernel_json(page, expression: str):
    """The value of a Python `expression` in the notebook's kernel, through JSON."""
    import json as _json

    out = kernel_eval(page, f"import json as _lm_json\nprint(_lm_json.dumps({expression}))")
    return _json.loads(out.strip().splitlines()[-1])


def wait_for_kernel_value(page, expression: str, expected, timeout_s: float = 30.0):
    """Poll the kernel until `expression` equals `expected` (a browser change has arrived); returns the last value."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = kernel_json(page, expression)
        if value == expected or time.monotonic() > deadline:
            return value
        page.wait_for_timeout(100)


def temperature_bars(page) -> list[dict]:
    """The temperature widget's bars as drawn: token, probabilities (data attributes), height, greyed, fill."""
    return page.eval_on_selector_all(
        ".lm-temperature-widget rect.lm-bar",
        "nodes => nodes.map(n => ({token: +n.dataset.token, prob: +n.dataset.prob, tempered: +n.dataset.tempered,"
        " shown: +n.dataset.shown, height: +n.getAttribute('height'), cut: n.classList.contains('lm-cut'), fill: n.getAttribute('fill')}))")


def css_rgb(css: str) -> tuple[int, ...]:
    """A CSS colour 'rgb(r, g, b)' or 'rgba(r, g, b, a)' as (r, g, b) integers."""
    return tuple(int(float(v)) for v in css[css.index("(") + 1 : css.index(")")].split(",")[:3])

"""The widgets as a student sees them: JupyterLab in headless Chromium runs each widget notebook,
every widget renders (no error, no text fallback, no traceback), and the required ones react
when a person moves their main control. Screenshots go to $LM_SCREENSHOT_DIR (else a tmp folder);
$LM_BROWSER_NOTEBOOKS=05_attention.ipynb,... limits the run to some notebooks. The JupyterLab and its
pages are the browser suite's shared ones (tests/browser/conftest.py: `lab_pages`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.demo_notebooks import DEMO_WIDGET_CLASS
from tests.browser.lab import (
    REQUIRED_WIDGETS,
    WIDGET_NOTEBOOKS,
    browser_unavailable_reason,
    css_rgb,
    kernel_eval,
    kernel_json,
    move_main_control,
    output_problems,
    screenshot_widget,
    temperature_bars,
    text_sizes,
    wait_for_kernel_value,
    wait_for_new_figure,
    widget_state,
)

_REASON = browser_unavailable_reason()
pytestmark = pytest.mark.skipif(_REASON is not None, reason=_REASON or "")


def test_harness_moves_a_widget_and_sees_the_new_figure(lab_pages):
    pages, runs = lab_pages
    page = pages["demo_widget.ipynb"]
    assert runs["demo_widget.ipynb"]["executed"] == runs["demo_widget.ipynb"]["total"] == 2
    assert output_problems(page) == []
    before = widget_state(page, DEMO_WIDGET_CLASS)
    assert before["found"] and before["has_control"] and before["n_figures"] == 1 and before["complete"]
    assert move_main_control(page, DEMO_WIDGET_CLASS) == "slider ArrowRight"
    after = wait_for_new_figure(page, DEMO_WIDGET_CLASS, before)
    assert after["sources"] != before["sources"]
    assert after["control_value"].split()[0] == "2", after["control_value"]


def test_harness_reports_broken_outputs(lab_pages):
    pages, runs = lab_pages
    page = pages["broken_outputs.ipynb"]
    assert runs["broken_outputs.ipynb"]["errors"] == 1
    problems = "\n".join(output_problems(page))
    assert "widget as text" in problems
    assert "model not found" in problems or "Error displaying widget" in problems
    assert "Traceback" in problems or "ValueError" in problems


@pytest.mark.parametrize("name", list(WIDGET_NOTEBOOKS))
def test_widget_notebook_renders_in_lab(name, lab_pages, screenshot_dir):
    if name not in lab_pages[0]:
        pytest.skip(f"notebooks/{name} is not in the repository yet (or not in $LM_BROWSER_NOTEBOOKS)")
    pages, runs = lab_pages
    page, run = pages[name], runs[name]
    assert run["errors"] == 0 and run["executed"] == run["total"], f"{name}: {run}"
    assert output_problems(page) == [], f"{name}: broken outputs"
    for widget_class in WIDGET_NOTEBOOKS[name]:
        page.wait_for_selector(f".{widget_class} .lm-figure", timeout=15_000)
        state = widget_state(page, widget_class)
        assert state["found"], f"{name}: no element with class {widget_class} (CONTRIBUTING.md, Widgets)"
        assert state["has_control"], f"{name}: {widget_class} has no .lm-main-control"
        assert state["n_figures"] > 0 and state["complete"], f"{name}: {widget_class} shows no drawn .lm-figure"
        screenshot_widget(page, widget_class, screenshot_dir / f"{Path(name).stem}.png")


def _page_with(widget_class: str, lab_pages) -> tuple[str, object]:
    """The notebook that shows `widget_class` and its page in the shared JupyterLab (skips if it is not in this run)."""
    pages, _ = lab_pages
    name = next(n for n, classes in WIDGET_NOTEBOOKS.items() if widget_class in classes)
    if name not in pages:
        pytest.skip(f"notebooks/{name} is not in the repository yet (or not in $LM_BROWSER_NOTEBOOKS)")
    return name, pages[name]


@pytest.mark.parametrize("widget_class", REQUIRED_WIDGETS)
def test_required_widget_reacts_to_its_control(widget_class, lab_pages):
    name, page = _page_with(widget_class, lab_pages)
    before = widget_state(page, widget_class)
    assert before["found"] and before["has_control"], f"{name}: {widget_class} or its .lm-main-control is missing"
    page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
    how = move_main_control(page, widget_class)
    after = wait_for_new_figure(page, widget_class, before)
    assert after["control_value"] != before["control_value"], (
        f"{name}: the control still shows {before['control_value']!r} after {how}"
    )
    assert after["sources"] != before["sources"], f"{name}: the figure did not change after {how}"
    assert output_problems(page) == [], f"{name}: moving the control broke an output"


# The smallest type of the course's figures: tick labels of 13 pt at 90 dpi (utils.plotting.LECTURE_STYLE) are
# 16.25 px on the screen. The required widgets draw no text smaller, at the notebook's width in JupyterLab.
MIN_TEXT_PX = 16.0


@pytest.mark.parametrize("widget_class", REQUIRED_WIDGETS)
def test_required_widget_text_is_readable_from_the_back_row(widget_class, lab_pages):
    name, page = _page_with(widget_class, lab_pages)
    page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
    sizes = text_sizes(page, widget_class)
    assert len(sizes) >= 10, f"{name}: only {len(sizes)} texts found in {widget_class}: {sizes}"
    small = sorted((s for s in sizes if s["px"] < MIN_TEXT_PX), key=lambda s: s["px"])
    assert not small, f"{name}: {len(small)} texts of {widget_class} drawn under {MIN_TEXT_PX} px, e.g. {small[:6]}"


def test_ngram_sample_follows_a_move_once_the_controls_rest(lab_pages):
    """The n-gram widget defers its sample until the controls rest (an asyncio timer in the kernel): it must still come."""
    pages, _ = lab_pages
    name, widget_class = "02_ngram_models.ipynb", "lm-ngram-widget"
    if name not in pages:
        pytest.skip(f"notebooks/{name} is not in the repository yet (or not in $LM_BROWSER_NOTEBOOKS)")
    page = pages[name]
    sample_selector = f".{widget_class} pre"
    page.wait_for_selector(sample_selector, timeout=15_000)
    old_sample = page.locator(sample_selector).first.inner_text()
    before = widget_state(page, widget_class)
    page.locator(f".{widget_class}").first.scroll_into_view_if_needed()
    move_main_control(page, widget_class)
    wait_for_new_figure(page, widget_class, before)
    page.wait_for_function(
        "([selector, old]) => { const e = document.querySelector(selector); return e !== null && e.innerText !== old; }",
        arg=[sample_selector, old_sample], timeout=10_000)
    assert output_problems(page) == [], f"{name}: the deferred sample broke an output"


# ----------------------------------------------------------------------------- the anywidget views
# Each interaction is checked against the kernel's Python (kernel_json): the page must show what the
# plain, tested functions compute, after a real hover, key press or click.

ATTENTION, TEMPERATURE = "05_attention.ipynb", "09_decoding.ipynb"


def _page(lab_pages, name):
    pages, runs = lab_pages
    if name not in pages:
        pytest.skip(f"notebooks/{name} is not in the repository yet (or not in $LM_BROWSER_NOTEBOOKS)")
    assert runs[name]["errors"] == 0, f"{name}: {runs[name]}"
    page = pages[name]
    page.bring_to_front()
    return page


def _viridis(w: float) -> tuple[int, int, int]:
    """matplotlib's viridis at w, as 0-255 integers (the reference for the page's colours)."""
    from matplotlib import colormaps

    return tuple(int(round(255 * c)) for c in colormaps["viridis"](float(w))[:3])


def _tokens(page) -> list[dict]:
    return page.locator(".lm-attention-widget").first.locator(".lm-attn-token").evaluate_all(  # the "can" view, not 05's word view
        "nodes => nodes.map(n => ({weight: parseFloat(n.dataset.weight), background: getComputedStyle(n).backgroundColor,"
        " future: n.classList.contains('lm-future'), query: n.classList.contains('lm-query')}))")


def test_attention_hover_shades_what_the_query_reads(lab_pages, screenshot_dir):
    page = _page(lab_pages, ATTENTION)
    widget = page.locator(".lm-attention-widget").first
    widget.scroll_into_view_if_needed()
    tokens = widget.locator(".lm-attn-token")
    n = tokens.count()
    assert n == kernel_json(page, "len(can_widget.tokens)") and n > 12
    query = 12
    tokens.nth(query).hover()
    page.wait_for_function("q => document.querySelector('.lm-attention-widget .lm-attn-tokens').dataset.query == q", arg=str(query))
    assert wait_for_kernel_value(page, "can_widget.query", query) == query, "the hovered query reached the kernel"
    expected = kernel_json(page, "can_widget.shown_row().tolist()")  # Python's row of weights for this query
    shown = _tokens(page)
    assert [t["query"] for t in shown].index(True) == query
    for j, (token, weight) in enumerate(zip(shown, expected)):
        if j > query:
            assert token["future"] and weight == 0, f"token {j} lies after the query: greyed, weight 0"
            continue
        assert abs(token["weight"] - weight) <= 1 / 510 + 1e-4, f"token {j}: page {token['weight']}, Python {weight}"
        assert max(abs(a - b) for a, b in zip(css_rgb(token["background"]), _viridis(weight))) <= 6, (
            f"token {j} is shaded {token['background']}, viridis({weight:.3f}) is {_viridis(weight)}")
    strongest = max(range(query + 1), key=lambda j: expected[j])
    assert shown[strongest]["weight"] == max(t["weight"] for t in shown), "the most-read token is the brightest"
    screenshot_widget(page, "lm-attention-widget", screenshot_dir / "05_attention_hover.png")


def test_attention_arrow_keys_move_the_query_and_jupyterlab_keeps_its_cell(lab_pages):
    page = _page(lab_pages, ATTENTION)
    strip = page.locator(".lm-attention-widget .lm-attn-tokens").first
    strip.click(position={"x": 5, "y": 5})  # focus without choosing a token
    strip.focus()
    active_before = page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex")
    start = int(strip.get_attribute("data-query"))
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    assert strip.get_attribute("data-query") == "2"
    page.keyboard.press("ArrowLeft")
    assert strip.get_attribute("data-query") == "1"
    page.keyboard.press("End")
    assert int(strip.get_attribute("data-query")) == strip.locator(".lm-attn-token").count() - 1
    assert page.evaluate("() => window.jupyterapp.shell.currentWidget.content.activeCellIndex") == active_before, (
        "the arrow keys moved JupyterLab's cell selection instead of the query")
    assert start >= 0


def test_attention_all_heads_thumbnails_enlarge_and_untrained_weights_differ(lab_pages, screenshot_dir):
    page = _page(lab_pages, ATTENTION)
    root = page.locator(".lm-attention-widget").first
    n_heads = kernel_json(page, "N_HEAD")
    root.locator("select.lm-attn-head").select_option("-1")
    thumbs = root.locator(".lm-attn-thumb")
    thumbs.first.wait_for()
    assert thumbs.count() == n_heads and root.locator(".lm-attn-big").count() == 0
    assert "mean of all heads" in root.locator(".lm-attn-hint").inner_text()
    screenshot_widget(page, "lm-attention-widget", screenshot_dir / "05_attention_all_heads.png")
    thumbs.nth(n_heads - 1).click()
    assert root.locator("select.lm-attn-head").input_value() == str(n_heads - 1)
    assert root.locator(".lm-attn-big").count() == 1 and thumbs.count() == 0
    assert wait_for_kernel_value(page, "can_widget.head", n_heads - 1) == n_heads - 1
    trained = [t["weight"] for t in _tokens(page)]
    root.locator("button[data-variant='1']").click()
    assert wait_for_kernel_value(page, "can_widget.variant", 1) == 1
    untrained = [t["weight"] for t in _tokens(page)]
    expected = kernel_json(page, "can_widget.shown_row().tolist()")
    assert max(abs(a - b) for a, b in zip(untrained, expected)) <= 1 / 510 + 1e-4
    assert trained != untrained, "trained and untrained weights of the same head should differ"
    root.locator("button[data-variant='0']").click()


def test_attention_new_text_runs_the_model_in_the_kernel(lab_pages):
    page = _page(lab_pages, ATTENTION)
    root = page.locator(".lm-attention-widget").first
    runs = kernel_json(page, "can_widget.model_runs")
    text = "a can can a can"
    box = root.locator("input.lm-attn-text")
    box.fill(text)
    box.press("Enter")
    page.wait_for_function("n => document.querySelector('.lm-attention-widget').querySelectorAll('.lm-attn-token').length === n",
                           arg=len(text), timeout=30_000)
    assert kernel_json(page, "can_widget.model_runs") == runs + 2, "one run of each model (trained, untrained)"
    assert root.locator(".lm-attn-token").all_inner_texts() == [("␣" if c == " " else c) for c in text]
    box.fill("a can\u00e9zzz")  # a character the corpus lacks: a message, the last maps stay
    box.press("Enter")
    page.wait_for_function("() => document.querySelector('.lm-attention-widget .lm-aw-message').innerText.includes('cannot read')",
                           timeout=30_000)
    assert root.locator(".lm-attn-token").count() == len(text)
    box.fill("a canéyyy")  # another text with the same fault: the same message must replace "running" again
    box.press("Enter")
    page.wait_for_function("() => document.querySelector('.lm-attention-widget .lm-aw-message').innerText.includes('cannot read')",
                           timeout=30_000)


_TEMPERATURE_CASES = [(1.0, 0, 1.0), (0.5, 5, 1.0), (2.0, 0, 0.9), (0.3, 10, 0.5), (5.0, 40, 0.95), (10.0, 0, 0.3),
                      (0.05, 3, 0.99)]


def test_temperature_js_distribution_equals_next_token_probs(lab_pages):
    """The browser's re-weighting and utils.sampling.next_token_probs agree on the same logits."""
    page = _page(lab_pages, TEMPERATURE)
    assert kernel_json(page, "bool(torch.allclose(torch.tensor(widget.logits), logits.float().cpu()))"), (
        "the widget holds the notebook's logits")
    python = kernel_json(page, "[next_token_probs(torch.tensor(widget.logits), t, k or None, p if p < 1 else None).tolist() "
                               f"for t, k, p in {_TEMPERATURE_CASES!r}]")
    browser = page.evaluate("cases => { const root = document.querySelector('.lm-temperature-widget .lm-temperature-view');"
                            " return cases.map(([t, k, p]) => root.__lmCompute(t, k, p)); }", _TEMPERATURE_CASES)
    for case, py, js in zip(_TEMPERATURE_CASES, python, browser):
        assert [x > 0 for x in py] == [x > 0 for x in js], f"{case}: different kept tokens"
        assert max(abs(a - b) for a, b in zip(py, js)) < 1e-6, f"{case}: probabilities differ"


def test_temperature_sliders_grey_removed_tokens_at_their_tempered_probability(lab_pages, screenshot_dir):
    page = _page(lab_pages, TEMPERATURE)
    root = page.locator(".lm-temperature-widget").first
    root.scroll_into_view_if_needed()
    k_slider = root.locator("input.lm-top-k")
    k_slider.focus()
    page.keyboard.press("Home")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    assert k_slider.input_value() == "3"
    assert wait_for_kernel_value(page, "widget.top_k", 3) == 3
    t_slider = root.locator("input.lm-temperature")
    t_slider.focus()
    before = temperature_bars(page)
    start = float(t_slider.input_value())
    for _ in range(6):
        page.keyboard.press("ArrowRight")  # six steps of 0.05 on the log10 T scale: T about twice as hot
    assert abs(float(t_slider.input_value()) - start - 0.3) < 1e-9
    after = temperature_bars(page)
    assert [b["height"] for b in after] != [b["height"] for b in before], "a hotter T redraws the bars"
    temperature = round(10 ** float(t_slider.input_value()), 6)
    assert wait_for_kernel_value(page, "round(widget.temperature, 6)", temperature) == temperature
    py = kernel_json(page, "(lambda v: {'order': v.order.tolist(), 'probs': v.probs.tolist(), 'tempered': v.tempered.tolist(),"
                           " 'n_kept': v.n_kept})(widget.last_view)")
    assert [b["token"] for b in after] == py["order"]
    assert [b["cut"] for b in after] == [i >= 3 for i in range(len(after))], "exactly the tokens past k = 3 are greyed"
    for bar, prob, tempered in zip(after, py["probs"], py["tempered"]):
        assert abs(bar["prob"] - prob) < 1e-6
        if bar["cut"]:
            assert bar["fill"] != after[0]["fill"] and abs(bar["shown"] - tempered) < 1e-6 and bar["shown"] > 0, (
                "a removed token is drawn grey at its tempered probability, not at 0")
            assert bar["height"] > 0 or tempered < 1e-3
    info = root.locator(".lm-aw-info").inner_text()
    assert "kept tokens: 3 " in info and "entropy" in info
    screenshot_widget(page, "lm-temperature-widget", screenshot_dir / "09_temperature_top_k.png")


def test_temperature_axis_toggle_changes_the_axis_and_marks_p(lab_pages, screenshot_dir):
    page = _page(lab_pages, TEMPERATURE)
    root = page.locator(".lm-temperature-widget").first
    ticks = lambda: root.locator(".lm-axis .lm-tick").evaluate_all("ns => ns.map(n => n.textContent)")  # noqa: E731
    root.locator("input.lm-top-k").focus()
    page.keyboard.press("Home")  # k off
    assert ticks() == ["0", "0.25", "0.5", "0.75", "1"]
    linear = temperature_bars(page)
    root.locator("button[data-view='log']").click()
    assert ticks() == ["1", "0.1", "0.01", "1e-3", "1e-4"]
    log = temperature_bars(page)
    small = [i for i, b in enumerate(linear) if 1e-3 < b["tempered"] < 0.02]
    assert small and all(log[i]["height"] > linear[i]["height"] + 20 for i in small), (
        "on the log axis the small probabilities stay readable")
    assert wait_for_kernel_value(page, "widget.view", "log") == "log"
    p_slider = root.locator("input.lm-top-p")
    p_slider.focus()
    page.keyboard.press("End")
    for _ in range(50):
        page.keyboard.press("ArrowLeft")  # p from 1.00 to 0.50
    assert abs(float(p_slider.input_value()) - 0.5) < 1e-9
    root.locator("button[data-view='cumulative']").click()
    assert root.locator(".lm-p-line").get_attribute("visibility") == "visible"
    assert root.locator(".lm-p-text").text_content() == "p = 0.50"
    bars = temperature_bars(page)
    kept = [b for b in bars if not b["cut"]]
    assert kept and all(b["shown"] < 0.5 + 1e-9 for b in kept[:-1]) and kept[-1]["shown"] >= 0.5 - 1e-9, (
        "the nucleus ends with the first token whose running sum reaches p")
    screenshot_widget(page, "lm-temperature-widget", screenshot_dir / "09_temperature_cumulative.png")
    root.locator("input.lm-top-k").focus()
    page.keyboard.press("Home")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")  # k = 2, p = 0.5: top-p cuts the mass renormalised after top-k
    bars = temperature_bars(page)
    assert all(abs(b["shown"] - 1) < 1e-6 for b in bars[1:]), (
        "with top-k on, the running sum is of the mass top-p reads: the two kept tokens' renormalised mass reaches 1")
    kept = [b for b in bars if not b["cut"]]
    assert kept and all(b["shown"] < 0.5 + 1e-9 for b in kept[:-1]) and kept[-1]["shown"] >= 0.5 - 1e-9
    page.keyboard.press("Home")  # k off again
    root.locator("button[data-view='linear']").click()


def test_temperature_set_from_python_between_slider_steps_is_drawn_exactly(lab_pages):
    """T = 0.73 and p = 0.905 lie between the sliders' steps: the view draws them, not the nearest steps."""
    page = _page(lab_pages, TEMPERATURE)
    root = page.locator(".lm-temperature-widget").first
    root.locator("input.lm-top-k").focus()
    page.keyboard.press("Home")  # k off
    assert wait_for_kernel_value(page, "widget.top_k", 0) == 0
    drawn_t = ("t => document.querySelector('.lm-temperature-widget svg.lm-temperature-figure')"
               ".getAttribute('data-temperature') {} t")
    kernel_eval(page, "widget.temperature, widget.top_p = 1.0, 1.0")
    page.wait_for_function(drawn_t.format("==="), arg="1", timeout=20000)
    kernel_eval(page, "widget.temperature, widget.top_p = 0.73, 0.905")
    page.wait_for_function(drawn_t.format("!=="), arg="1", timeout=20000)
    figure = root.locator("svg.lm-temperature-figure")
    assert figure.get_attribute("data-temperature") == "0.73", "drawn at T as set, not at the slider's nearest step"
    view = kernel_json(page, "(lambda v: {'order': v.order.tolist(), 'probs': v.probs.tolist(), 'n_kept': v.n_kept})"
                             "(widget.last_view)")
    snapped = kernel_json(page, "next_token_probs(torch.tensor(widget.logits), 10 ** -0.15, None, 0.91).tolist()")
    bars = temperature_bars(page)
    assert [b["token"] for b in bars] == view["order"]
    assert max(abs(b["prob"] - p) for b, p in zip(bars, view["probs"])) < 1e-6, "the bars are Python's last_view"
    assert max(abs(b["prob"] - snapped[b["token"]]) for b in bars) > 1e-4, "the nearest steps would draw other bars"
    assert f"kept tokens: {view['n_kept']} " in root.locator(".lm-aw-info").inner_text()
    shown = [int(i) for i in root.locator("code.lm-samples").get_attribute("data-ids").split(",")]
    assert shown == kernel_json(page, "widget.samples()"), "the samples are those of the exact T and p"
    kernel_eval(page, "widget.temperature, widget.top_p = 1.0, 1.0")


def test_temperature_samples_on_demand_match_the_python_sampler(lab_pages):
    page = _page(lab_pages, TEMPERATURE)
    root = page.locator(".lm-temperature-widget").first
    seed = kernel_json(page, "widget.seed")
    root.locator("button.lm-draw-samples").click()
    assert wait_for_kernel_value(page, "widget.seed", seed + 1) == seed + 1
    shown = [int(i) for i in root.locator("code.lm-samples").get_attribute("data-ids").split(",")]
    assert shown == kernel_json(page, "widget.samples()"), "the browser draws what seeded_samples draws for this seed"
    kept = kernel_json(page, "torch.nonzero(next_token_probs(torch.tensor(widget.logits), *widget.settings())).flatten().tolist()")
    assert set(shown) <= set(kept)


def test_a_zh_notebook_shows_its_widget_in_chinese(lab_pages):
    """JupyterLab runs a notebook of a zh folder with a Chinese kernel: the widget's browser labels are Chinese."""
    pages, runs = lab_pages
    name = "zh/temperature_zh.ipynb"
    assert runs[name]["errors"] == 0, runs[name]
    root = pages[name].locator(".lm-temperature-widget").first
    root.wait_for(timeout=30_000)
    assert root.locator(".lm-draw-samples").inner_text().strip() == "采样"
    assert "保留的词元：" in root.locator(".lm-aw-info").inner_text()
    assert kernel_eval(pages[name], "from utils.i18n.text import notebook_language; print(notebook_language())").strip() == "zh"

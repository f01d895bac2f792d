// Temperature, top-k, top-p explorer (anywidget view of utils/widgets/temperature.py).
// The logits arrive once; every move of T, k or p recomputes the distribution here, following
// utils.sampling.next_token_probs: scale (x - max) / T, then top-k, then top-p, then softmax.

const SVG = "http://www.w3.org/2000/svg";
const KEPT = "#31688e";  // viridis blue: kept tokens
const CUT = "#c4c4c4";  // grey: removed tokens, drawn at their tempered probability
const LOG_FLOOR = 1e-4;

export function softmax(values) {
  // Softmax of an array that may hold -Infinity (-> probability 0).
  let top = -Infinity;
  for (const v of values) if (v > top) top = v;
  const out = new Float64Array(values.length);
  let total = 0;
  for (let i = 0; i < values.length; i++) { out[i] = Math.exp(values[i] - top); total += out[i]; }
  for (let i = 0; i < values.length; i++) out[i] /= total;
  return out;
}

export function descendingOrder(values) {
  // Indices sorted by value, largest first (ties: lower index first).
  return Array.from(values.keys()).sort((a, b) => (values[b] - values[a]) || (a - b));
}

export function nextTokenProbs(logits, temperature, topK, topP) {
  // Same steps as utils.sampling.next_token_probs (topK 0 and topP >= 1 mean off).
  let top = -Infinity;
  for (const v of logits) if (v > top) top = v;
  let scaled = Float64Array.from(logits, (v) => (v - top) / temperature);
  if (topK > 0) {
    const k = Math.min(topK, scaled.length);
    const sorted = Float64Array.from(scaled).sort().reverse();
    const kth = sorted[k - 1];
    scaled = scaled.map((v) => (v < kth ? -Infinity : v));
  }
  if (topP < 1) {
    const order = descendingOrder(scaled);
    const sortedProbs = softmax(order.map((i) => scaled[i]));
    let before = 0;
    const removed = new Uint8Array(scaled.length);
    order.forEach((token, rank) => {
      removed[token] = before >= topP ? 1 : 0;  // the mass ranked above already reached p
      before += sortedProbs[rank];
    });
    scaled = scaled.map((v, i) => (removed[i] ? -Infinity : v));
  }
  return softmax(scaled);
}

export function mulberry32(seed) {
  // Uniforms in [0, 1); mirrored by utils.widgets.temperature.mulberry32.
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function seededSamples(probs, n, seed) {
  // Inverse-CDF draws, as utils.widgets.temperature.seeded_samples.
  const cumulative = new Float64Array(probs.length);
  let total = 0, last = 0;
  probs.forEach((p, i) => { total += p; cumulative[i] = total; if (p > 0) last = i; });
  const uniform = mulberry32(seed);
  const out = [];
  for (let s = 0; s < n; s++) {
    const x = uniform() * total;
    let lo = 0, hi = cumulative.length;  // first index with cumulative > x
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cumulative[mid] > x) hi = mid; else lo = mid + 1; }
    out.push(Math.min(lo, last));
  }
  return out;
}

function afterPaint(fn) {
  // Run fn after the next frame is drawn: syncing a change to the kernel stays off the redraw's path.
  requestAnimationFrame(() => setTimeout(fn, 0));
}

function element(tag, attrs = {}, parent = null, ns = null) {
  const node = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

export function keyStep(input, event) {
  // Arrow keys, Home / End, PageUp / PageDown move a range input here, not by the browser's default
  // action, which a notebook host may cancel (JupyterLab does); returns true when the key was used.
  const steps = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1, PageUp: 10, PageDown: -10 };
  const before = input.value;
  if (event.key in steps) {
    const n = Math.abs(steps[event.key]);
    for (let i = 0; i < n; i++) steps[event.key] > 0 ? input.stepUp() : input.stepDown();
  } else if (event.key === "Home") input.value = input.min;
  else if (event.key === "End") input.value = input.max;
  else return false;
  event.preventDefault();
  event.stopPropagation();
  if (input.value !== before) {
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }
  return true;
}

function slider(parent, label, attrs) {
  const wrap = element("label", { class: "lm-aw-slider" }, parent);
  element("span", { class: "lm-aw-slider-name" }, wrap).textContent = label;
  const input = element("input", { type: "range", ...attrs }, wrap);
  const readout = element("output", { class: "lm-aw-readout" }, wrap);
  return { input, readout };
}

function render({ model, el }) {
  const logits = model.get("logits");
  const labels = model.get("labels");
  const nBars = Math.min(model.get("n_bars"), logits.length);
  const order = descendingOrder(logits).slice(0, nBars);  // fixed: no temperature changes the ranking
  const root = element("div", { class: "lm-aw lm-temperature-view", "data-lm-suppress-shortcuts": "true" }, el);

  // Keys pressed inside the widget belong to it: the notebook host must not turn them into its shortcuts.
  root.addEventListener("keydown", (event) => event.stopPropagation());
  const controls = element("div", { class: "lm-aw-controls" }, root);
  const tSlider = slider(controls, "T", { min: "-2", max: "1", step: "0.05", "aria-label": lmSay(model, "temperature (log scale)") });
  tSlider.input.classList.add("lm-main-control", "lm-temperature");
  const kSlider = slider(controls, "top-k", { min: "0", max: String(logits.length), step: "1", "aria-label": lmSay(model, "top-k, 0 is off") });
  kSlider.input.classList.add("lm-top-k");
  const pSlider = slider(controls, "top-p", { min: "0.05", max: "1", step: "0.01", "aria-label": lmSay(model, "top-p, 1 is off") });
  pSlider.input.classList.add("lm-top-p");

  const axisBox = element("div", { class: "lm-aw-toggles", role: "radiogroup", "aria-label": lmSay(model, "probability axis") }, root);
  const axisButtons = {};
  for (const [value, text] of [["linear", "linear axis"], ["log", "log axis"], ["cumulative", "cumulative (p marked)"]]) {
    const button = element("button", { type: "button", class: "lm-aw-toggle", "data-view": value, role: "radio" }, axisBox);
    button.textContent = lmSay(model, text);
    button.addEventListener("click", () => { model.set("view", value); afterPaint(() => model.save_changes()); });
    axisButtons[value] = button;
  }
  const sampleButton = element("button", { type: "button", class: "lm-aw-button lm-draw-samples" }, axisBox);
  sampleButton.textContent = lmSay(model, "draw samples");

  const info = element("div", { class: "lm-aw-info", "aria-live": "polite" }, root);
  const context = model.get("context");
  const title = element("div", { class: "lm-aw-title" }, root);
  title.textContent = context ? lmSay(model, "next token after {context}", { context: JSON.stringify(context.slice(-30)) })
    : lmSay(model, "next-token distribution");

  // The figure: an SVG bar chart whose bars are created once and re-sized on every change.
  const W = 900, H = 330, left = 86, right = 12, top = 12, bottom = 56;
  const plotW = W - left - right, plotH = H - top - bottom, step = plotW / nBars;
  const svg = element("svg", { class: "lm-figure lm-temperature-figure", viewBox: `0 0 ${W} ${H}`, style: `width: 100%; max-width: ${W}px; height: auto;`,
                               role: "img", "data-lm-frame": "0" }, root, SVG);
  const axisGroup = element("g", { class: "lm-axis" }, svg, SVG);
  const bars = order.map((token, i) => {
    const rect = element("rect", { x: String(left + i * step + 2), width: String(step - 4), y: String(top + plotH), height: "0",
                                   class: "lm-bar", "data-token": String(token) }, svg, SVG);
    const text = element("text", { x: String(left + (i + 0.5) * step), y: String(top + plotH + 20), "text-anchor": "middle",
                                   class: "lm-bar-label" }, svg, SVG);
    text.textContent = labels[token];
    return rect;
  });
  const pLine = element("line", { x1: String(left), x2: String(left + plotW), class: "lm-p-line", visibility: "hidden" }, svg, SVG);
  const pText = element("text", { x: String(left + 6), "text-anchor": "start", class: "lm-p-text", visibility: "hidden" }, svg, SVG);
  const samplesBox = element("div", { class: "lm-aw-samples" }, root);
  let frame = 0;

  function yOf(value, view) {
    if (view === "log") {
      const v = Math.max(value, LOG_FLOOR);
      return top + plotH * (Math.log10(v) / Math.log10(LOG_FLOOR));
    }
    return top + plotH * (1 - value);
  }

  function drawAxis(view) {
    axisGroup.replaceChildren();
    const ticks = view === "log" ? [1, 0.1, 0.01, 0.001, 0.0001] : [0, 0.25, 0.5, 0.75, 1];
    for (const t of ticks) {
      const y = yOf(t, view);
      element("line", { x1: String(left), x2: String(left + plotW), y1: String(y), y2: String(y), class: "lm-grid" }, axisGroup, SVG);
      const label = element("text", { x: String(left - 8), y: String(y + 5), "text-anchor": "end", class: "lm-tick" }, axisGroup, SVG);
      label.textContent = view === "log" ? (t >= 0.01 ? String(t) : t.toExponential(0)) : String(t);
    }
    const name = element("text", { x: "20", y: String(top + plotH / 2), class: "lm-axis-name",
                                   transform: `rotate(-90 20 ${top + plotH / 2})`, "text-anchor": "middle" }, axisGroup, SVG);
    name.textContent = lmSay(model, view === "cumulative" ? "cumulative probability" : view === "log" ? "probability (log)" : "probability");
    axisGroup.setAttribute("data-view", view);
  }

  // The settings drawn: the model's own values (T or p set from Python can lie between the sliders'
  // steps: the thumb then sits at the nearest step, the view at the exact value), or a slider's once moved.
  let current = null;
  const fromSlider = {
    temperature: () => ({ temperature: Math.pow(10, parseFloat(tSlider.input.value)) }),
    top_k: () => ({ topK: parseInt(kSlider.input.value, 10) }),
    top_p: () => ({ topP: parseFloat(pSlider.input.value) }),
  };
  function state() {
    return current;
  }

  function draw() {
    const { temperature, topK, topP } = state();
    const view = model.get("view");
    const probs = nextTokenProbs(logits, temperature, topK, topP);
    const tempered = nextTokenProbs(logits, temperature, 0, 1);
    const beforeTopP = topK > 0 ? nextTokenProbs(logits, temperature, topK, 1) : tempered;  // the mass top-p cuts
    let nKept = 0, entropy = 0;
    for (const p of probs) if (p > 0) { nKept += 1; entropy -= p * Math.log(p); }
    if (axisGroup.getAttribute("data-view") !== view) drawAxis(view);
    let cumulative = 0;
    order.forEach((token, i) => {
      const kept = probs[token] > 0;
      cumulative += beforeTopP[token];  // top-p reads the mass renormalised after top-k, so the p line marks its cut
      const shown = view === "cumulative" ? cumulative : kept ? probs[token] : tempered[token];
      const y = yOf(shown, view);
      const rect = bars[i];
      rect.setAttribute("y", String(y));
      rect.setAttribute("height", String(Math.max(top + plotH - y, 0)));
      rect.setAttribute("fill", kept ? KEPT : CUT);
      rect.setAttribute("class", kept ? "lm-bar lm-kept" : "lm-bar lm-cut");
      rect.setAttribute("data-prob", String(probs[token]));
      rect.setAttribute("data-tempered", String(tempered[token]));
      rect.setAttribute("data-shown", String(shown));
    });
    const showP = view === "cumulative" && topP < 1;
    pLine.setAttribute("visibility", showP ? "visible" : "hidden");
    pText.setAttribute("visibility", showP ? "visible" : "hidden");
    if (showP) {
      const y = yOf(topP, view);
      pLine.setAttribute("y1", String(y)); pLine.setAttribute("y2", String(y));
      pText.setAttribute("y", String(y - 6)); pText.textContent = `p = ${topP.toFixed(2)}`;
    }
    tSlider.readout.textContent = temperature.toFixed(2);
    kSlider.readout.textContent = topK > 0 ? String(topK) : lmSay(model, "off");
    pSlider.readout.textContent = topP < 1 ? topP.toFixed(2) : lmSay(model, "off");
    for (const [value, button] of Object.entries(axisButtons)) {
      button.setAttribute("aria-checked", String(value === view));
      button.classList.toggle("lm-active", value === view);
    }
    info.textContent = lmSay(model,
      "T = {temperature} | kept tokens: {kept} of {total} | entropy {entropy} nats | grey bars: removed, drawn at their tempered probability",
      { temperature: temperature.toFixed(2), kept: nKept, total: logits.length, entropy: entropy.toFixed(2) });
    info.setAttribute("data-kept", String(nKept));
    info.setAttribute("data-entropy", String(entropy));
    svg.setAttribute("data-temperature", String(temperature));
    frame += 1;
    svg.setAttribute("data-lm-frame", String(frame));
    root.__lmProbs = probs;
    return probs;
  }

  function drawSamples() {
    const { temperature, topK, topP } = state();
    const probs = nextTokenProbs(logits, temperature, topK, topP);
    const ids = seededSamples(probs, model.get("n_samples"), model.get("seed"));
    samplesBox.replaceChildren();
    element("b", {}, samplesBox).textContent = lmSay(model, "samples (seed {seed}): ", { seed: model.get("seed") });
    const code = element("code", { class: "lm-samples", "data-ids": ids.join(",") }, samplesBox);
    code.textContent = ids.map((i) => labels[i]).join(" ");
  }

  function setFromModel() {
    tSlider.input.value = String(Math.log10(model.get("temperature")));
    kSlider.input.value = String(model.get("top_k"));
    pSlider.input.value = String(model.get("top_p"));
    current = { temperature: model.get("temperature"), topK: model.get("top_k"), topP: model.get("top_p") };
  }

  const sync = { temperature: () => state().temperature, top_k: () => state().topK, top_p: () => state().topP };
  for (const [name, input] of [["temperature", tSlider.input], ["top_k", kSlider.input], ["top_p", pSlider.input]]) {
    input.addEventListener("keydown", (event) => keyStep(input, event));
    input.addEventListener("input", () => { current = { ...current, ...fromSlider[name]() }; draw(); drawSamples(); });
    input.addEventListener("change", () => afterPaint(() => { model.set(name, sync[name]()); model.save_changes(); }));
  }
  sampleButton.addEventListener("click", () => { model.set("seed", model.get("seed") + 1); model.save_changes(); drawSamples(); });
  const onModel = () => { setFromModel(); draw(); drawSamples(); };
  for (const name of ["temperature", "top_k", "top_p", "view", "seed"]) model.on(`change:${name}`, onModel);
  root.__lmCompute = (t, k, p) => Array.from(nextTokenProbs(logits, t, k, p));
  root.__lmSeededSamples = (probs, n, seed) => seededSamples(probs, n, seed);
  setFromModel();
  draw();
  drawSamples();
  return () => { for (const name of ["temperature", "top_k", "top_p", "view", "seed"]) model.off(`change:${name}`, onModel); };
}

export default { render };

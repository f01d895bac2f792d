// Positional encodings (notebook 06): the encoding as a heatmap and as curves, and what attention sees of it,
// the score position alone contributes against the offset i - j. Everything is precomputed by the kernel on a
// grid of bases, so the encoding selector, the base slider and the curve dimensions redraw here, in the browser.
// Each encoding and base has its figure built once (an inline SVG over a canvas), moved into the view when chosen.

function parseDims(model, text, width) {
  const parts = text.replace(/,/g, " ").split(/\s+/).filter(Boolean);
  if (!parts.length || parts.some(p => !/^\d+$/.test(p))) {
    return {error: lmSay(model, "curves of dims: give whole numbers separated by commas, e.g. 0, 1, 6")};
  }
  const dims = parts.map(Number).filter(d => d < width).slice(0, 4);
  if (!dims.length) return {error: lmSay(model, "curves of dims: choose dimensions 0 .. {last}", {last: width - 1})};
  return {dims};
}

// `text` in lines at most `width` Latin characters wide: lines break between words, and between any two Chinese
// characters (each as wide as two Latin ones); a longer Latin word gets a line of its own.
const CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef";
function wrapWords(text, width) {
  const wide = new RegExp(`[${CJK}]`);
  const size = s => Array.from(s).reduce((n, c) => n + (wide.test(c) ? 2 : 1), 0);
  const pieces = [];  // [piece, whether a space joins it to the piece before]
  for (const word of text.split(" ")) {
    const parts = word.match(new RegExp(`[${CJK}]|[^${CJK}]+`, "g")) || [""];
    parts.forEach((part, i) => pieces.push([part, i === 0]));
  }
  const lines = [];
  for (const [piece, spaced] of pieces) {
    const last = lines.length ? lines[lines.length - 1] : null;
    const joined = last === null ? null : last + (spaced ? " " : "") + piece;
    if (joined !== null && size(joined) <= width) lines[lines.length - 1] = joined;
    else lines.push(piece);
  }
  return lines;
}

function viewOf(data, kind, baseIndex) {
  const view = data.views[kind];
  return view.by_base ? {...view, ...view.by_base[baseIndex]} : view;
}

function extent(rows) {
  let lo = Infinity, hi = -Infinity;
  for (const row of rows) for (const v of row) if (v !== null && Number.isFinite(v)) { lo = Math.min(lo, v); hi = Math.max(hi, v); }
  if (!(hi > lo)) { lo -= 1; hi += 1; }
  const pad = 0.06 * (hi - lo);
  return [lo - pad, hi + pad];
}

// Two rows, so that at the notebook's width (about 740 px in JupyterLab) the type is drawn at 16 px or more.
const FIGURE = {width: 740, height: 810, heat: {x: 72, y: 48, w: 240, h: 270}};

// The figure for one encoding and base, drawn at once (no picture to decode): the heatmap on a canvas, one pixel per
// value and scaled up crisp, under an inline SVG of the axes, the score panel and the caption, with the curves of the
// chosen dimensions in a group of their own (setCurves: new dimensions redraw only that group). SVG and canvas scale
// together (the canvas is placed in percentages of the SVG's box).
function buildFigure(model, data, kind, baseIndex) {
  const view = viewOf(data, kind, baseIndex);
  const lutName = view.heat_cmap || "diverging";
  const lut = data.colormaps[lutName];
  const {width: W, height: H, heat: hb} = FIGURE;
  const fs = 17;
  let body = "";
  // 1) heatmap of the encoding (rows: positions or heads): the frame, ticks and colour bar here, the pixels on the canvas
  const heat = view.heat;  // (rows, columns)
  const scale = Math.max(1e-9, ...heat.map(r => Math.max(...r.map(v => Math.abs(v)))));
  const heatAxes = lmAxes(hb, [-0.5, heat[0].length - 0.5], [heat.length - 0.5, -0.5],
    {fontSize: fs, xlabel: view.heat_xlabel, ylabel: view.heat_ylabel, title: view.heat_title, xticks: 4, yticks: 4, grid: false});
  body += heatAxes.body + lmColorbar(hb.x + hb.w + 8, hb.y, 12, hb.h, lut, -scale, scale, fs - 1);
  // 2) the frame of the curves of the chosen columns (the curves themselves: setCurves)
  const cb = {x: 450, y: 48, w: 270, h: 270};
  const n = heat.length;
  const curveAxes = lmAxes(cb, [0, n - 1], [-1.1, 1.1], {fontSize: fs, xlabel: view.heat_ylabel, ylabel: lmSay(model, "value / max |value|"),
    title: lmSay(model, "curves of chosen columns"), xticks: 4});
  body += curveAxes.body + `<g class="lm-curves"></g>`;
  // 3) what attention sees: score against the offset i - j
  const sb = {x: 100, y: 450, w: 600, h: 250};
  const offsets = Array.from({length: view.scores[0].length}, (_, o) => o);
  const scoreAxes = lmAxes(sb, [0, offsets.length - 1], extent(view.scores), {fontSize: fs, xlabel: lmSay(model, "offset i − j"),
    ylabel: view.scores_ylabel, title: view.scores_title, xticks: 4});
  body += scoreAxes.body + view.scores.map((row, i) =>
    lmPolyline(offsets, row, scoreAxes.px, scoreAxes.py, i, `data-role="score" data-curve="${i}"`)).join("");
  body += lmLegend(sb.x + 8, sb.y + 18, view.curve_labels, fs - 1);
  const baseText = view.by_base ? lmSay(model, ", base {base}", {base: data.bases[baseIndex]}) : "";
  const lines = wrapWords(view.caption + baseText, Math.floor(W / (0.56 * (fs + 1))));  // two lines fit below the scores
  body += lines.map((line, i, kept) => `<text x="${W / 2}" y="${H - 12 - (kept.length - 1 - i) * (fs + 6)}" ` +
    `font-size="${fs + 1}" text-anchor="middle">${lmEscape(line)}</text>`).join("");
  const pct = (v, of) => `${(100 * v / of).toFixed(3)}%`;
  const holder = document.createElement("div");
  holder.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" font-family="DejaVu Sans, Arial, sans-serif" ` +
    `aria-hidden="true"><rect width="${W}" height="${H}" fill="white"/>${body}</svg>` +
    `<canvas class="lm-heat-pixels" style="left:${pct(hb.x, W)};top:${pct(hb.y, H)};width:${pct(hb.w, W)};height:${pct(hb.h, H)}"></canvas>`;
  lmPaintHeatmap(holder.querySelector("canvas"), heat, lut, -scale, scale);
  return {model, nodes: Array.from(holder.childNodes), curves: holder.querySelector(".lm-curves"), dims: null, kind, baseText,
          base: String(data.bases[baseIndex]), heat, scale, column: view.column_name, px: curveAxes.px, py: curveAxes.py, cb};
}

// Draw the curves of columns `dims` of the figure's heatmap (value / max |value| against the row), with their legend.
function setCurves(built, dims) {
  const key = dims.join(",");
  if (built.dims === key) return;
  const xs = Array.from({length: built.heat.length}, (_, i) => i);
  built.curves.innerHTML = dims.map((d, i) => lmPolyline(xs, built.heat.map(r => r[d] / built.scale), built.px, built.py, i,
    `data-dim="${d}"`)).join("") + lmLegend(built.cb.x + 8, built.cb.y + 14, dims.map(d => `${built.column} ${d}`), 16);
  built.dims = key;
  built.label = lmSay(built.model, "{kind} positions{base}: heatmap, curves of dimensions {dims}, and the score against the offset",
                      {kind: built.kind, base: built.baseText, dims: dims.join(", ")});
}

// Put a built figure into the view (its nodes move in: nothing is parsed or decoded), then a frame counter ticks.
function showFigure(view, built) {
  if (view.firstChild !== built.nodes[0]) view.replaceChildren(...built.nodes);
  view.setAttribute("aria-label", built.label);
  view.dataset.kind = built.kind;
  view.dataset.base = built.base;
  view.dataset.lmFrame = String(Number(view.dataset.lmFrame || 0) + 1);  // a redraw is complete
}

function render({ model, el }) {
  el.classList.add("lm-positional-widget", "lm-anywidget");
  el.setAttribute("data-lm-suppress-shortcuts", "true");
  const data = model.get("data");
  el.innerHTML = `
    <div class="lm-controls">
      <label class="lm-main-control">${lmSayHtml(model, "encoding")}
        <select class="lm-kind" aria-label="${lmSayHtml(model, "positional encoding")}"></select></label>
      <label class="lm-base-label">${lmSayHtml(model, "base")} <input class="lm-base" type="range" min="0"
        max="${data.bases.length - 1}" step="1" aria-label="${lmSayHtml(model, "base of the rotation frequencies")}">
        <output class="lm-base-value"></output></label>
      <label>${lmSayHtml(model, "curves of dims")} <input class="lm-dims" type="text" spellcheck="false"></label>
    </div>
    <div class="lm-message" role="status" aria-live="polite"></div>
    <div class="lm-figure lm-positional-figure" role="img"></div>
    <div class="lm-note" aria-live="polite"></div>`;
  const select = el.querySelector(".lm-kind");
  const base = el.querySelector(".lm-base");
  const baseValue = el.querySelector(".lm-base-value");
  const dimsBox = el.querySelector(".lm-dims");
  const message = el.querySelector(".lm-message");
  const figure = el.querySelector(".lm-positional-figure");
  const note = el.querySelector(".lm-note");
  for (const kind of data.kinds) select.add(new Option(kind, kind));
  const built = new Map();  // encoding|base -> its figure (buildFigure); its nodes live in the view or here
  let lastDims = [0, 1];  // the last dimensions that parsed (replaced at the first draw)

  function figureFor(kind, baseIndex) {
    const key = `${kind}|${data.views[kind].by_base ? baseIndex : "-"}`;
    if (!built.has(key)) built.set(key, buildFigure(model, data, kind, baseIndex));
    return built.get(key);
  }

  function draw() {
    const kind = model.get("kind"), baseIndex = model.get("base_index");
    const view = viewOf(data, kind, baseIndex);
    select.value = kind;
    base.value = String(baseIndex);
    base.disabled = !data.views[kind].by_base;
    base.setAttribute("aria-valuetext", String(data.bases[baseIndex]));
    baseValue.textContent = data.views[kind].by_base ? String(data.bases[baseIndex])
      : lmSay(model, "{base} (not used by {kind})", {base: data.bases[baseIndex], kind});
    el.querySelector(".lm-base-label").classList.toggle("lm-disabled", base.disabled);
    if (dimsBox.value !== model.get("dims") && document.activeElement !== dimsBox) dimsBox.value = model.get("dims");
    const width = view.heat[0].length;
    const parsed = parseDims(model, model.get("dims"), width);
    message.textContent = parsed.error || "";  // bad dimensions: say so, and keep drawing the last good ones
    if (!parsed.error) lastDims = parsed.dims;
    const kept = lastDims.filter(d => d < width);
    const dims = parsed.error ? (kept.length ? kept : [0]) : parsed.dims;
    const chosen = figureFor(kind, baseIndex);
    const before = [chosen.dims, figure.firstChild === chosen.nodes[0]];
    setCurves(chosen, dims);
    if (before[0] !== chosen.dims || !before[1]) showFigure(figure, chosen);
    note.textContent = view.note;
  }

  function warm() {  // draw the other settings while the student reads, so that moving a control only swaps pictures
    const parsed = parseDims(model, model.get("dims"), 1e9);
    if (parsed.error) return;
    for (const kind of data.kinds) for (let b = 0; b < data.bases.length; b++) {
      const ahead = figureFor(kind, b);
      const dims = parsed.dims.filter(d => d < viewOf(data, kind, b).heat[0].length);
      if (dims.length && ahead.nodes[0] !== figure.firstChild) setCurves(ahead, dims);  // the one in view: draw's
    }
  }

  select.addEventListener("change", () => { model.set("kind", select.value); model.save_changes(); });
  base.addEventListener("input", () => { model.set("base_index", Number(base.value)); model.save_changes(); });
  dimsBox.addEventListener("change", () => { model.set("dims", dimsBox.value); model.save_changes(); });
  for (const control of [select, base, dimsBox]) control.addEventListener("keydown", event => event.stopPropagation());
  model.on("change:kind", draw);
  model.on("change:base_index", draw);
  model.on("change:dims", () => { draw(); setTimeout(warm, 50); });
  draw();
  setTimeout(warm, 50);
}

export default { render };

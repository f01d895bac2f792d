// Positional encodings (notebook 06): the encoding as a heatmap and as curves, and what attention sees of it,
// the score position alone contributes against the offset i - j. Everything is precomputed by the kernel on a
// grid of bases, so the encoding selector, the base slider and the curve dimensions redraw here, in the browser.

function parseDims(text, width) {
  const parts = text.replace(/,/g, " ").split(/\s+/).filter(Boolean);
  if (!parts.length || parts.some(p => !/^\d+$/.test(p))) return {error: "curves of dims: give whole numbers separated by commas, e.g. 0, 1, 6"};
  const dims = parts.map(Number).filter(d => d < width).slice(0, 4);
  if (!dims.length) return {error: `curves of dims: choose dimensions 0 .. ${width - 1}`};
  return {dims};
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

function figureUrl(data, kind, baseIndex, dims) {
  const view = viewOf(data, kind, baseIndex);
  const lutName = view.heat_cmap || "diverging";
  const lut = data.colormaps[lutName];
  const W = 980, H = 440, fs = 15;
  let body = "";
  // 1) heatmap of the encoding (rows: positions or heads)
  const heat = view.heat;
  const scale = Math.max(1e-9, ...heat.map(r => Math.max(...r.map(v => Math.abs(v)))));
  const hb = {x: 64, y: 46, w: 220, h: 300};
  body += `<image href="${lmHeatmapPng(heat, lut, -scale, scale)}" x="${hb.x}" y="${hb.y}" width="${hb.w}" height="${hb.h}" ` +
    `preserveAspectRatio="none" style="image-rendering:pixelated" image-rendering="pixelated"/>`;
  const heatAxes = lmAxes(hb, [-0.5, heat[0].length - 0.5], [heat.length - 0.5, -0.5],
    {fontSize: fs, xlabel: view.heat_xlabel, ylabel: view.heat_ylabel, title: view.heat_title, xticks: 4, yticks: 4, grid: false});
  body += heatAxes.body + lmColorbar(hb.x + hb.w + 8, hb.y, 12, hb.h, lut, -scale, scale, 13);
  // 2) curves of the chosen columns of the heatmap
  const cb = {x: 400, y: 46, w: 230, h: 300};
  const n = heat.length;
  const xs = Array.from({length: n}, (_, i) => i);
  const curves = dims.map(d => heat.map(r => r[d] / scale));
  const curveAxes = lmAxes(cb, [0, n - 1], [-1.1, 1.1], {fontSize: fs, xlabel: view.heat_ylabel, ylabel: "value / max |value|",
    title: "curves of chosen columns", xticks: 4});
  body += curveAxes.body + curves.map((c, i) => lmPolyline(xs, c, curveAxes.px, curveAxes.py, i, `data-dim="${dims[i]}"`)).join("");
  body += lmLegend(cb.x + 8, cb.y + 14, dims.map(d => `${view.column_name} ${d}`), 13);
  // 3) what attention sees: score against the offset i - j
  const sb = {x: 735, y: 46, w: 230, h: 300};
  const offsets = Array.from({length: view.scores[0].length}, (_, o) => o);
  const scoreAxes = lmAxes(sb, [0, offsets.length - 1], extent(view.scores), {fontSize: fs, xlabel: "offset i − j",
    ylabel: view.scores_ylabel, title: view.scores_title, xticks: 4});
  body += scoreAxes.body + view.scores.map((row, i) =>
    lmPolyline(offsets, row, scoreAxes.px, scoreAxes.py, i, `data-role="score" data-curve="${i}"`)).join("");
  body += lmLegend(sb.x + 8, sb.y + 14, view.curve_labels, 13);
  const baseText = view.by_base ? `, base ${data.bases[baseIndex]}` : "";
  body += `<text x="${W / 2}" y="${H - 12}" font-size="${fs + 1}" text-anchor="middle">${lmEscape(view.caption + baseText)}</text>`;
  return lmSvgUrl(W, H, body, `${kind} positions${baseText}: encoding heatmap, curves, and attention score against offset`);
}

function render({ model, el }) {
  el.classList.add("lm-positional-widget", "lm-anywidget");
  el.setAttribute("data-lm-suppress-shortcuts", "true");
  const data = model.get("data");
  el.innerHTML = `
    <div class="lm-controls">
      <label class="lm-main-control">encoding <select class="lm-kind" aria-label="positional encoding"></select></label>
      <label class="lm-base-label">base <input class="lm-base" type="range" min="0" max="${data.bases.length - 1}" step="1"
        aria-label="base of the rotation frequencies"> <output class="lm-base-value"></output></label>
      <label>curves of dims <input class="lm-dims" type="text" spellcheck="false"></label>
    </div>
    <div class="lm-message" role="status" aria-live="polite"></div>
    <div class="lm-figure"><img class="lm-positional-figure" alt=""></div>
    <div class="lm-note" aria-live="polite"></div>`;
  const select = el.querySelector(".lm-kind");
  const base = el.querySelector(".lm-base");
  const baseValue = el.querySelector(".lm-base-value");
  const dimsBox = el.querySelector(".lm-dims");
  const message = el.querySelector(".lm-message");
  const img = el.querySelector(".lm-positional-figure");
  const note = el.querySelector(".lm-note");
  for (const kind of data.kinds) select.add(new Option(kind, kind));
  const urls = new Map();
  let lastDims = [0, 1];  // the last dimensions that parsed (replaced at the first draw)

  function url(kind, baseIndex, dims) {
    const view = data.views[kind];
    const key = `${kind}|${view.by_base ? baseIndex : "-"}|${dims.join(",")}`;
    if (!urls.has(key)) urls.set(key, figureUrl(data, kind, baseIndex, dims));
    return urls.get(key);
  }

  function draw() {
    const kind = model.get("kind"), baseIndex = model.get("base_index");
    const view = viewOf(data, kind, baseIndex);
    select.value = kind;
    base.value = String(baseIndex);
    base.disabled = !data.views[kind].by_base;
    base.setAttribute("aria-valuetext", String(data.bases[baseIndex]));
    baseValue.textContent = data.views[kind].by_base ? String(data.bases[baseIndex]) : `${data.bases[baseIndex]} (not used by ${kind})`;
    el.querySelector(".lm-base-label").classList.toggle("lm-disabled", base.disabled);
    if (dimsBox.value !== model.get("dims") && document.activeElement !== dimsBox) dimsBox.value = model.get("dims");
    const width = view.heat[0].length;
    const parsed = parseDims(model.get("dims"), width);
    message.textContent = parsed.error || "";  // bad dimensions: say so, and keep drawing the last good ones
    if (!parsed.error) lastDims = parsed.dims;
    const kept = lastDims.filter(d => d < width);
    const dims = parsed.error ? (kept.length ? kept : [0]) : parsed.dims;
    lmShow(img, url(kind, baseIndex, dims));
    img.alt = `${kind} positions: heatmap, curves of dimensions ${dims.join(", ")}, and the score against the offset`;
    img.dataset.kind = kind;
    img.dataset.base = String(data.bases[baseIndex]);
    note.textContent = view.note;
  }

  function warm() {  // draw the other settings while the student reads, so that moving a control only swaps pictures
    const parsed = parseDims(model.get("dims"), 1e9);
    if (parsed.error) return;
    for (const kind of data.kinds) for (let b = 0; b < data.bases.length; b++) {
      const width = viewOf(data, kind, b).heat[0].length;
      url(kind, b, parsed.dims.filter(d => d < width));
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

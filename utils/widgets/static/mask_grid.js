// The 2 x 2 mask experiment (notebook 08): trained with or without the causal mask x run with or without it.
// Choosing a cell happens here, in the browser (all four cells' data are in the widget's state; the maps are painted
// on canvases, so nothing waits for a picture to decode); a new prefix
// goes to the kernel, which sends the four attention maps first (`cells`) and then the samples as they are
// written (`texts`, every 0.1 s: only the texts are redrawn, never the pictures).

const KEYS = [["masked", "masked"], ["masked", "unmasked"], ["unmasked", "masked"], ["unmasked", "unmasked"]];
const WORDS = {masked: "with the mask", unmasked: "without the mask"};

function cellTitle(model, cell) {
  return lmSay(model, "trained {trained}, run {run}",
               {trained: lmSay(model, WORDS[cell.trained]), run: lmSay(model, WORDS[cell.evaluated])});
}

// A cell's map, drawn at once (no picture to decode): the heatmap on a canvas, one pixel per weight and scaled up
// crisp, under an inline SVG with the token labels, the frame, the colour bar and the title. Built for the four cells
// when a prefix arrives; choosing a cell then only moves the chosen one's nodes into the view (showAttention).
function buildAttention(model, cell, lut, size) {
  const T = cell.tokens.length;
  const fs = 16, left = 56, top = 40, right = 70, bottom = 62;
  const side = size - Math.max(left + right, top + bottom);
  const cellPx = side / Math.max(T, 1);
  const width = size + 40;
  let body = `<rect x="${left}" y="${top}" width="${side}" height="${side}" fill="none" stroke="#444"/>`;
  const every = Math.max(1, Math.ceil(1.15 * fs / cellPx));  // labels no closer than 1.15 font sizes
  const label = s => (s === " " ? "␣" : s === "\n" ? "⏎" : s);
  for (let i = 0; i < T; i += every) {
    const c = (left + (i + 0.5) * cellPx).toFixed(1), r = (top + (i + 0.5) * cellPx).toFixed(1);
    body += `<text x="${left - 6}" y="${(Number(r) + fs * 0.35).toFixed(1)}" font-size="${fs}" text-anchor="end">${lmEscape(label(cell.tokens[i]))}</text>`;
    body += `<text x="${c}" y="${top + side + fs + 4}" font-size="${fs}" text-anchor="middle">${lmEscape(label(cell.tokens[i]))}</text>`;
  }
  body += `<text x="${left + side / 2}" y="${top + side + 2 * fs + 14}" font-size="${fs}" text-anchor="middle">${lmEscape(lmSay(model, "key (read) position j"))}</text>`;
  body += `<text transform="translate(16,${top + side / 2}) rotate(-90)" font-size="${fs}" text-anchor="middle">${lmEscape(lmSay(model, "query position i"))}</text>`;
  body += `<text x="${left + side / 2}" y="24" font-size="${fs + 1}" font-weight="bold" text-anchor="middle">` +
    `${lmEscape(lmSay(model, "{share}% of rows look one step ahead", {share: Math.round(100 * cell.next_share)}))}</text>`;
  body += lmColorbar(left + side + 10, top, 14, side, lut, 0, 1, fs);
  const holder = document.createElement("div");
  holder.innerHTML = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${size}" viewBox="0 0 ${width} ${size}" ` +
    `font-family="DejaVu Sans, Arial, sans-serif" aria-hidden="true"><rect width="${width}" height="${size}" fill="white"/>${body}</svg>` +
    `<canvas class="lm-map-pixels" style="left:${left}px;top:${top}px;width:${side}px;height:${side}px"></canvas>`;
  lmPaintHeatmap(holder.querySelector("canvas"), cell.attention, lut, 0, 1);
  return {nodes: Array.from(holder.childNodes), width, height: size, key: `${cell.trained}/${cell.evaluated}`, prefix: cell.prefix,
          label: lmSay(model, "attention map, {cell}; {share} percent of rows look one step ahead",
                       {cell: cellTitle(model, cell), share: Math.round(100 * cell.next_share)})};
}

function showAttention(view, built) {
  view.style.width = `${built.width}px`;
  view.style.height = `${built.height}px`;
  view.replaceChildren(...built.nodes);
  view.setAttribute("aria-label", built.label);
  view.dataset.key = built.key;
  view.dataset.prefix = built.prefix;
  view.dataset.lmFrame = String(Number(view.dataset.lmFrame || 0) + 1);  // a redraw is complete
}

function fmt(v) {
  return v === null || v === undefined ? "…" : Number(v).toFixed(2);
}

function render({ model, el }) {
  el.classList.add("lm-mask-widget", "lm-anywidget");
  el.setAttribute("data-lm-suppress-shortcuts", "true");  // arrow keys, Enter and Space belong to the widget
  el.innerHTML = `
    <div class="lm-toolbar">
      <label class="lm-prefix-label lm-needs-kernel">${lmSayHtml(model, "prefix")} <input class="lm-prefix" type="text"
        spellcheck="false" aria-label="${lmSayHtml(model, "prefix the models continue (Enter to run)")}"></label>
      <span class="lm-status" role="status" aria-live="polite"></span>
    </div>
    <div class="lm-mask-layout">
      <div class="lm-main-control lm-grid" role="group"
        aria-label="${lmSayHtml(model, "the four cells: trained with or without the mask, run with or without it; arrow keys move")}">
        <div></div><div class="lm-colhead">${lmSayHtml(model, "run with the mask")}</div>
        <div class="lm-colhead">${lmSayHtml(model, "run without the mask")}</div>
        <div class="lm-rowhead">${lmSayHtml(model, "trained with the mask")}</div><button class="lm-cell"></button><button class="lm-cell"></button>
        <div class="lm-rowhead">${lmSayHtml(model, "trained without the mask")}</div><button class="lm-cell"></button><button class="lm-cell"></button>
      </div>
      <div class="lm-detail">
        <div class="lm-figure lm-attention" role="img" aria-label="${lmSayHtml(model, "attention map of the chosen cell")}"></div>
        <div class="lm-numbers"></div>
      </div>
    </div>
    <div class="lm-samples" aria-live="polite"></div>
    <div class="lm-note"></div>`;
  const input = el.querySelector(".lm-prefix");
  const status = el.querySelector(".lm-status");
  const buttons = Array.from(el.querySelectorAll(".lm-cell"));
  const big = el.querySelector(".lm-attention");
  const numbers = el.querySelector(".lm-numbers");
  const samplesBox = el.querySelector(".lm-samples");
  const note = el.querySelector(".lm-note");
  let maps = new Map();  // key -> the cell's built map (buildAttention) for the current prefix

  // A cell's maps and losses (`cells`) with its samples so far (`texts`, once they belong to the same prefix).
  const byKey = () => {
    const texts = model.get("texts") || {};
    return new Map(model.get("cells").map(c => {
      const key = `${c.trained}/${c.evaluated}`;
      const written = texts.cells && texts.prefix === c.prefix ? texts.cells[key] : null;
      return [key, written ? {...c, samples: written.samples, sample_nll: written.sample_nll} : {...c, samples: null}];
    }));
  };
  const writing = () => {
    const texts = model.get("texts") || {};
    const cells = model.get("cells");
    return !cells.length || texts.prefix !== cells[0].prefix || !texts.done;
  };

  // The four buttons are built once per prefix (with their thumbnails painted); new samples change only their texts.
  function buildCells() {
    const cells = byKey();
    const lut = model.get("colormap");
    maps = new Map(Array.from(cells, ([key, cell]) => [key, buildAttention(model, cell, lut, 520)]));
    buttons.forEach((button, index) => {
      const key = KEYS[index].join("/");
      const cell = cells.get(key);
      button.dataset.key = key;
      if (!cell) { button.textContent = "…"; return; }
      button.innerHTML =
        `<span class="lm-cell-title">${lmEscape(cellTitle(model, cell))}</span>` +
        `<span class="lm-cell-body"><canvas class="lm-thumb" aria-hidden="true"></canvas>` +
        `<span class="lm-cell-numbers"></span></span><code class="lm-cell-text"></code>`;
      lmPaintHeatmap(button.querySelector(".lm-thumb"), cell.attention, lut, 0, 1);
    });
    drawCellTexts();
  }

  function drawCellTexts() {
    const cells = byKey();
    buttons.forEach(button => {
      const cell = cells.get(button.dataset.key);
      const numbersBox = button.querySelector(".lm-cell-numbers");
      if (!cell || !numbersBox) return;
      const first = cell.samples && cell.samples.length ? cell.samples[0].slice(0, 34) : "";
      const more = cell.samples && (writing() || cell.samples[0].length > 34) ? "…" : "";
      numbersBox.innerHTML = `${lmSayHtml(model, "teacher-forced")} <b>${fmt(cell.teacher_forced)}</b><br>` +
        `${lmSayHtml(model, "samples, judged")} <b>${fmt(cell.sample_nll)}</b><br>` +
        `<span class="lm-unit">${lmSayHtml(model, "nats/char")}</span>`;
      button.querySelector(".lm-cell-text").textContent = `${first.replace(/\n/g, "⏎")}${more}`;
      button.setAttribute("aria-label", lmSay(model, "{cell}: teacher-forced loss {loss}, samples judged {judged} nats per character",
                                              {cell: cellTitle(model, cell), loss: fmt(cell.teacher_forced), judged: fmt(cell.sample_nll)}));
    });
  }

  function drawSelection() {
    const key = model.get("selected");
    const cell = byKey().get(key);
    buttons.forEach(button => {
      const on = button.dataset.key === key;
      button.classList.toggle("mod-active", on);
      button.setAttribute("aria-pressed", String(on));
      button.tabIndex = on ? 0 : -1;
    });
    if (!cell) return;
    if (big.dataset.key !== key || big.dataset.prefix !== cell.prefix) showAttention(big, maps.get(key));  // new samples alone leave it
    numbers.innerHTML =
      `<div class="lm-big-title">${lmEscape(cellTitle(model, cell))}</div>` +
      `<div>${lmSayHtml(model, "teacher-forced loss on validation text: {loss} nats/char",
                        {loss: `<b>${fmt(cell.teacher_forced)}</b>`})}</div>` +
      `<div>${lmSayHtml(model, "its samples, scored by the judge ({judge}): {loss} nats/char",
                        {judge: lmEscape(model.get("judge_name")), loss: `<b>${fmt(cell.sample_nll)}</b>`})}</div>` +
      `<div>${lmSayHtml(model, "rows whose largest weight is one step ahead: {share}",
                        {share: `<b>${Math.round(100 * cell.next_share)}%</b>`})}</div>`;
    drawSamples(cell);
    note.textContent = model.get("note");
  }

  function drawSamples(cell) {
    const prefix = cell.prefix;
    const texts = model.get("texts") || {};
    const busy = writing();
    const progress = busy && cell.samples
      ? lmSay(model, " (writing: {written} of {length} characters)", {written: texts.written, length: texts.length}) : "";
    samplesBox.innerHTML = cell.samples
      ? `<div class="lm-big-title">${lmSayHtml(model, "what it writes after the prefix (temperature 1)")}${lmEscape(progress)}</div>` +
        cell.samples.slice(0, model.get("shown_samples")).map(s =>
          `<pre class="lm-sample"><b>${lmEscape(prefix.replace(/\n/g, "⏎"))}</b>${lmEscape(s.replace(/\n/g, "⏎"))}</pre>`).join("")
      : `<div class="lm-big-title">${lmSayHtml(model, "writing samples…")}</div>`;
    samplesBox.dataset.key = `${cell.trained}/${cell.evaluated}`;
    samplesBox.dataset.prefix = prefix;
    samplesBox.dataset.written = String(cell.samples ? texts.written : 0);
    samplesBox.dataset.done = String(!busy);
  }

  function choose(key, focus) {
    if (!byKey().has(key)) return;
    if (key !== model.get("selected")) {
      model.set("selected", key);
      model.save_changes();
    }
    if (focus) buttons.find(b => b.dataset.key === key).focus();
  }

  // The pointer chooses on press (no wait for the release); Enter and Space reach the same choice as a click.
  // The press's default action is replaced by a plain focus: in a JupyterLab page, the browser's own handling of a
  // press (placing a text selection and syncing it, 5-16 ms in a trace) came before the new map's first frame.
  buttons.forEach(button => {
    button.addEventListener("pointerdown", event => { if (event.button === 0) choose(button.dataset.key, false); });
    button.addEventListener("mousedown", event => {
      if (event.button !== 0) return;
      event.preventDefault();
      button.focus({preventScroll: true});
    });
    button.addEventListener("click", () => choose(button.dataset.key, false));
  });
  el.querySelector(".lm-grid").addEventListener("keydown", event => {
    const index = buttons.findIndex(b => b.dataset.key === model.get("selected"));
    const moves = {ArrowLeft: index % 2 ? -1 : 0, ArrowRight: index % 2 ? 0 : 1, ArrowUp: index >= 2 ? -2 : 0, ArrowDown: index >= 2 ? 0 : 2};
    if (event.key in moves) {
      event.preventDefault();
      event.stopPropagation();
      choose(buttons[index + moves[event.key]].dataset.key, true);
    } else if (event.key === "Enter" || event.key === " ") {
      event.stopPropagation();  // the button's own click follows; the notebook must not take the key
    }
  });
  input.addEventListener("keydown", event => event.stopPropagation());
  input.addEventListener("change", () => {
    if (input.value === model.get("prefix")) return;
    status.textContent = lmSay(model, "running the four models on the new prefix…");
    model.set("prefix", input.value);
    model.save_changes();
  });

  function redrawAll() {
    buildCells();
    drawSelection();
  }
  function redrawTexts() {  // new samples only: the pictures stay as they are
    drawCellTexts();
    drawSelection();
  }
  model.on("change:cells", redrawAll);
  model.on("change:texts", redrawTexts);
  model.on("change:selected", drawSelection);
  model.on("change:status", () => { status.textContent = model.get("status"); });
  // A prefix shown before comes from the kernel's cache with the status unchanged (""): no change:status to
  // replace the "running…" set above, so every prefix the kernel has shown resets the line too.
  model.on("change:updates", () => { status.textContent = model.get("status"); });
  model.on("change:prefix", () => { if (document.activeElement !== input) input.value = model.get("prefix"); });
  input.value = model.get("prefix");
  status.textContent = model.get("status");
  redrawAll();
}

export default { render };

// Attention head view (anywidget view of utils/widgets/attention_map.py).
// All weights (models x layers x heads x T x T, uint8) arrive once; pointing at a query token
// shades every token by how much that query reads it, with no kernel round trip. Only a new
// text goes to the kernel (the "text" trait), which sends back new tokens and weights.

const VIRIDIS = ["#440154", "#48186a", "#472d7b", "#424086", "#3b528b", "#33638d", "#2c728e", "#26828e", "#21918c",
                 "#1fa088", "#28ae80", "#3fbc73", "#5ec962", "#84d44b", "#addc30", "#d8e219", "#fde725"];
const VIRIDIS_RGB = VIRIDIS.map((h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16)));

export function viridis(w) {
  // [r, g, b] of the viridis colour map at w in [0, 1] (linear between 17 stops).
  const x = Math.min(Math.max(w, 0), 1) * (VIRIDIS_RGB.length - 1);
  const i = Math.min(Math.floor(x), VIRIDIS_RGB.length - 2), f = x - i;
  return VIRIDIS_RGB[i].map((c, k) => Math.round(c + f * (VIRIDIS_RGB[i + 1][k] - c)));
}

export function afterPaint(fn) {
  // Run fn after the next frame is drawn: syncing a change to the kernel stays off the redraw's path.
  requestAnimationFrame(() => setTimeout(fn, 0));
}

function css([r, g, b]) { return `rgb(${r}, ${g}, ${b})`; }
function textColour([r, g, b]) { return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000" : "#fff"; }

function bytesOf(value) {
  if (value instanceof DataView) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return Uint8Array.from(value || []);
}

function element(tag, attrs = {}, parent = null) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (parent) parent.appendChild(node);
  return node;
}

function render({ model, el }) {
  const root = element("div", { class: "lm-aw lm-attention-view", "data-lm-suppress-shortcuts": "true" }, el);
  // Keys pressed inside the widget belong to it: the notebook host must not turn them into its shortcuts.
  root.addEventListener("keydown", (event) => event.stopPropagation());
  const textRow = element("div", { class: "lm-aw-controls lm-needs-kernel" }, root);  // the static site disables it
  const textLabel = element("label", {}, textRow);
  textLabel.textContent = lmSay(model, "text") + " ";
  const textBox = element("input", { type: "text", class: "lm-attn-text", "aria-label": lmSay(model, "your text (Enter runs the model)") }, textLabel);
  const runButton = element("button", { type: "button", class: "lm-aw-button lm-attn-run" }, textRow);
  runButton.textContent = lmSay(model, "run the model");

  const controls = element("div", { class: "lm-aw-controls" }, root);
  const variantBox = element("div", { class: "lm-aw-toggles lm-attn-variants", role: "radiogroup", "aria-label": lmSay(model, "weights") }, controls);
  const layerLabel = element("label", {}, controls);
  layerLabel.textContent = lmSay(model, "layer") + " ";
  const layerSelect = element("select", { class: "lm-attn-layer", "aria-label": lmSay(model, "layer") }, layerLabel);
  const headLabel = element("label", {}, controls);
  headLabel.textContent = lmSay(model, "head") + " ";
  const headSelect = element("select", { class: "lm-main-control lm-attn-head", "aria-label": lmSay(model, "head") }, headLabel);
  const message = element("div", { class: "lm-aw-message", role: "status" }, root);
  const hint = element("div", { class: "lm-aw-info lm-attn-hint" }, root);
  const strip = element("div", { class: "lm-attn-tokens lm-figure", tabindex: "0", role: "listbox", "data-lm-frame": "0",
                                 "aria-label": lmSay(model, "tokens: point at one, or use the arrow keys, to see what it reads") }, root);
  const legend = element("div", { class: "lm-attn-legend" }, root);
  const legendCanvas = element("canvas", { width: "160", height: "14" }, null);
  legend.append(lmSay(model, "weight") + " 0", legendCanvas, "1");
  const ctx = legendCanvas.getContext("2d");
  for (let x = 0; x < 160; x++) { ctx.fillStyle = css(viridis(x / 159)); ctx.fillRect(x, 0, 1, 14); }
  const matrixBox = element("div", { class: "lm-attn-matrix" }, root);
  const thumbs = element("div", { class: "lm-attn-thumbs" }, root);

  let data = null, shape = [0, 0, 0, 0], tokenNodes = [], frame = 0, savePending = false;

  function save() {
    // One sync to the kernel per frame, after the view has been redrawn.
    if (savePending) return;
    savePending = true;
    afterPaint(() => { savePending = false; model.save_changes(); });
  }

  function weight(v, l, h, i, j) {
    const [, L, H, T] = shape;
    return data[((((v * L + l) * H + h) * T + i) * T) + j] / 255;
  }

  function row(v, l, h, i) {
    // (T,) weights of query i: one head, or the mean over heads when h < 0.
    const [, , H, T] = shape;
    const out = new Float64Array(T);
    const heads = h < 0 ? Array.from({ length: H }, (_, k) => k) : [h];
    for (const k of heads) for (let j = 0; j < T; j++) out[j] += weight(v, l, k, i, j) / heads.length;
    return out;
  }

  function current() {
    const T = shape[3];
    let q = model.get("query");
    if (q < 0 || q >= T) q = T - 1;
    return { v: model.get("variant"), l: model.get("layer"), h: model.get("head"), q };
  }

  function drawMatrix(canvas, v, l, h, q) {
    // The (T, T) map of one head, the query's row outlined.
    const T = shape[3], s = canvas.width / T;
    const c = canvas.getContext("2d");
    const image = c.createImageData(T, T);
    for (let i = 0; i < T; i++) for (let j = 0; j < T; j++) {
      const [r, g, b] = viridis(weight(v, l, h, i, j));
      const o = 4 * (i * T + j);
      image.data[o] = r; image.data[o + 1] = g; image.data[o + 2] = b; image.data[o + 3] = 255;
    }
    c.imageSmoothingEnabled = false;
    if (!canvas.__tmp || canvas.__tmp.width !== T) { canvas.__tmp = document.createElement("canvas"); canvas.__tmp.width = T; canvas.__tmp.height = T; }
    canvas.__tmp.getContext("2d").putImageData(image, 0, 0);
    c.drawImage(canvas.__tmp, 0, 0, canvas.width, canvas.height);
    c.strokeStyle = "#e66100"; c.lineWidth = Math.max(2, s / 3);
    c.strokeRect(1, q * s, canvas.width - 2, s);
  }

  function draw() {
    if (!data) return;
    const { v, l, h, q } = current();
    const weights = row(v, l, h, q);
    const causal = model.get("causal");
    tokenNodes.forEach((node, j) => {
      const future = causal && j > q;
      const colour = viridis(weights[j]);
      node.style.background = future ? "#f0f0f0" : css(colour);
      node.style.color = future ? "#999" : textColour(colour);
      node.classList.toggle("lm-query", j === q);
      node.classList.toggle("lm-future", future);
      node.setAttribute("aria-selected", String(j === q));
      node.setAttribute("data-weight", weights[j].toFixed(4));
    });
    const variants = model.get("variants");
    const label = JSON.stringify(model.get("tokens")[q]);
    const heads = h < 0 ? lmSay(model, "mean of all heads") : lmSay(model, "head {head}", { head: h });
    hint.textContent = lmSay(model, "{model} weights, layer {layer}, {heads}: what token {query} ({label}) reads",
                             { model: variants[v], layer: l, heads, query: q, label }) +
      (causal ? lmSay(model, " (grey: later tokens, which it cannot see)") : "");
    const size = Math.max(2, Math.floor(300 / shape[3])) * shape[3];
    if (h >= 0) {
      thumbs.replaceChildren();
      let big = matrixBox.querySelector("canvas");
      if (!big || big.width !== size) {
        matrixBox.replaceChildren();
        big = element("canvas", { width: String(size), height: String(size), class: "lm-attn-big", title: lmSay(model, "rows: queries, columns: keys") }, matrixBox);
        big.addEventListener("click", (event) => {
          const rect = big.getBoundingClientRect();
          setQuery(Math.floor(((event.clientY - rect.top) / rect.height) * shape[3]));
        });
      }
      drawMatrix(big, v, l, h, q);
    } else {
      matrixBox.replaceChildren();
      const H = shape[2], small = Math.max(1, Math.floor(150 / shape[3])) * shape[3];
      if (thumbs.children.length !== H || thumbs.firstChild.querySelector("canvas").width !== small) {
        thumbs.replaceChildren();
        for (let k = 0; k < H; k++) {
          const button = element("button", { type: "button", class: "lm-attn-thumb", "data-head": String(k),
                                             "aria-label": lmSay(model, "head {head}: show it large", { head: k }) }, thumbs);
          element("canvas", { width: String(small), height: String(small) }, button);
          element("span", {}, button).textContent = lmSay(model, "head {head}", { head: k });
          button.addEventListener("click", () => setHead(k));
        }
      }
      Array.from(thumbs.children).forEach((button, k) => drawMatrix(button.querySelector("canvas"), v, l, k, q));
    }
    frame += 1;
    strip.setAttribute("data-lm-frame", String(frame));
    strip.setAttribute("data-query", String(q));
  }

  function setQuery(q) {
    const T = shape[3];
    q = Math.min(Math.max(q, 0), T - 1);
    if (q === current().q) return;
    model.set("query", q);  // change:query redraws
    save();
  }

  function setHead(h) {
    headSelect.value = String(h);
    model.set("head", h);
    save();
  }

  function rebuild() {
    // New tokens or weights (a new text from the kernel): rebuild the strip and the selectors.
    shape = model.get("shape");
    data = bytesOf(model.get("weights"));
    const [M, L, H] = shape;
    strip.replaceChildren();
    tokenNodes = model.get("tokens").map((label, j) => {
      const node = element("span", { class: "lm-attn-token", role: "option", "data-index": String(j) }, strip);
      node.textContent = label;
      return node;
    });
    layerSelect.replaceChildren();
    for (let l = 0; l < L; l++) element("option", { value: String(l) }, layerSelect).textContent = lmSay(model, "layer {layer}", { layer: l });
    layerSelect.value = String(model.get("layer"));
    headSelect.replaceChildren();
    element("option", { value: "-1" }, headSelect).textContent = lmSay(model, "all heads");
    for (let h = 0; h < H; h++) element("option", { value: String(h) }, headSelect).textContent = lmSay(model, "head {head}", { head: h });
    headSelect.value = String(model.get("head"));
    variantBox.replaceChildren();
    model.get("variants").forEach((name, v) => {
      const button = element("button", { type: "button", class: "lm-aw-toggle", role: "radio", "data-variant": String(v) }, variantBox);
      button.textContent = lmSay(model, "{model} weights", { model: name });
      button.addEventListener("click", () => { model.set("variant", v); save(); });
    });
    variantBox.style.display = M > 1 ? "" : "none";
    textBox.value = model.get("text");
    syncControls();
    draw();
  }

  function syncControls() {
    layerSelect.value = String(model.get("layer"));
    headSelect.value = String(model.get("head"));
    Array.from(variantBox.children).forEach((button, v) => {
      const on = v === model.get("variant");
      button.classList.toggle("lm-active", on);
      button.setAttribute("aria-checked", String(on));
    });
    message.textContent = model.get("message");
  }

  strip.addEventListener("mouseover", (event) => {
    const node = event.target.closest(".lm-attn-token");
    if (node) setQuery(parseInt(node.dataset.index, 10));
  });
  strip.addEventListener("click", (event) => {
    const node = event.target.closest(".lm-attn-token");
    if (node) { strip.focus(); setQuery(parseInt(node.dataset.index, 10)); }
  });
  strip.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -1, ArrowDown: 1 };
    const q = current().q;
    let target = null;
    if (event.key in moves) target = q + moves[event.key];
    else if (event.key === "Home") target = 0;
    else if (event.key === "End") target = shape[3] - 1;
    if (target === null) return;
    event.preventDefault();
    event.stopPropagation();
    setQuery(target);
  });
  layerSelect.addEventListener("change", () => { model.set("layer", parseInt(layerSelect.value, 10)); save(); });
  headSelect.addEventListener("change", () => { model.set("head", parseInt(headSelect.value, 10)); save(); });
  const sendText = () => {
    if (textBox.value === model.get("text")) return;
    message.textContent = lmSay(model, "running the model ...");
    model.set("text", textBox.value);
    model.save_changes();  // the kernel runs the model: no reason to wait
  };
  textBox.addEventListener("keydown", (event) => { event.stopPropagation(); if (event.key === "Enter") sendText(); });
  runButton.addEventListener("click", sendText);

  const onData = () => rebuild();
  const onControl = () => { syncControls(); draw(); };
  model.on("change:weights", onData);
  model.on("change:tokens", onData);
  for (const name of ["variant", "layer", "head", "query", "message"]) model.on(`change:${name}`, onControl);
  root.__lmRow = (v, l, h, i) => Array.from(row(v, l, h, i));
  rebuild();
  return () => {
    model.off("change:weights", onData);
    model.off("change:tokens", onData);
    for (const name of ["variant", "layer", "head", "query", "message"]) model.off(`change:${name}`, onControl);
  };
}

export default { render };

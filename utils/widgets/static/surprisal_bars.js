// Site view of notebook 01's widget (utils/widgets/surprisal_view.py): the precomputed bits of the model
// at `index` (linked in the browser to the model picker's index) as SVG bars. It shows only on the static
// site (the page's <html> carries class lm-site); in JupyterLab the kernel's figure is shown instead.

const NS = "http://www.w3.org/2000/svg";
const W = 720, H = 260, LEFT = 44, BOTTOM = 30, TOP = 24;

function node(tag, attrs, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

const SUMMARY = "{count} predictions · total {total:.1f} bits · {mean:.2f} bits/token · perplexity {perplexity:.1f}";

function sayNumbers(model, english, fields) {
  // lmSay for messages with str.format fields such as {total:.1f} (fixed decimals), as utils.widgets.autoregression.summary.
  const table = model.get("view_text") || {};
  const text = Object.prototype.hasOwnProperty.call(table, english) ? table[english] : english;
  return text.replace(/\{(\w+)(?::\.(\d)f)?\}/g, (whole, name, digits) =>
    (name in fields ? (digits === undefined ? String(fields[name]) : fields[name].toFixed(Number(digits))) : whole));
}

function draw(model, el) {
  const p = model.get("payload") || {}, name = (p.models || [])[model.get("index")] || "";
  const bits = (p.scores || {})[name] || [], symbols = p.symbols || [], ymax = p.ymax || 8;
  const svg = node("svg", {viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "lm-surprisal-svg lm-figure", "data-model": name});
  svg.appendChild(node("text", {x: W / 2, y: 16, "text-anchor": "middle", "font-size": 14},
                       lmSay(model, "{model}: surprisal of each token given the ones before", {model: name})));
  svg.appendChild(node("text", {x: 12, y: H / 2, "font-size": 12, transform: `rotate(-90 12 ${H / 2})`, "text-anchor": "middle"},
                       lmSay(model, "surprisal (bits)")));
  const slot = (W - LEFT) / Math.max(1, symbols.length), plot = H - TOP - BOTTOM;
  bits.forEach((b, i) => {
    const h = plot * Math.min(b, ymax) / ymax, x = LEFT + i * slot;
    const bar = node("rect", {x: x + slot * 0.1, y: TOP + plot - h, width: slot * 0.8, height: h, fill: "#1f77b4",
                              class: "lm-surprisal-bar", "data-bits": b.toFixed(4)});
    bar.appendChild(node("title", {}, `${symbols[i]}: ${b.toFixed(2)} bits`));
    svg.appendChild(bar);
    svg.appendChild(node("text", {x: x + slot / 2, y: H - 10, "text-anchor": "middle", "font-size": 11}, symbols[i]));
  });
  const mean = bits.reduce((a, b) => a + b, 0) / Math.max(1, bits.length);
  const summary = document.createElement("div");
  summary.className = "lm-surprisal-summary";
  summary.textContent = sayNumbers(model, SUMMARY, {count: bits.length, total: mean * bits.length, mean, perplexity: 2 ** mean});
  el.replaceChildren(svg, summary);
}

function render({ model, el }) {
  if (!document.documentElement.classList.contains("lm-site")) { el.style.display = "none"; return; }
  draw(model, el);
  model.on("change:index", () => draw(model, el));
  model.on("change:payload", () => draw(model, el));
}

export default { render };

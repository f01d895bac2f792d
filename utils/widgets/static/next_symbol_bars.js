// Site view of notebook 02's widget (utils/widgets/next_symbol_view.py): the precomputed next-symbol probabilities at
// order `n` (linked in the browser to the n slider) as SVG bars on a fixed 0..1 axis, each bar with its symbol above.
// It shows only on the static site (the page's <html> carries class lm-site); in JupyterLab the kernel's figure shows.

const NS = "http://www.w3.org/2000/svg";
const W = 720, H = 260, LEFT = 44, BOTTOM = 12, TOP = 30;

function node(tag, attrs, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

function say(model, english, fields) {
  // the message in the page's language (view_text), its {name}, {name!r} and {name:.0%} fields filled in
  const table = model.get("view_text") || {};
  const text = Object.prototype.hasOwnProperty.call(table, english) ? table[english] : english;
  return text.replace(/\{(\w+)(!r|:\.0%)?\}/g, (whole, name, how) => {
    if (!(name in fields)) return whole;
    if (how === "!r") return `'${fields[name]}'`;
    if (how === ":.0%") return `${Math.round(100 * fields[name])}%`;
    return String(fields[name]);
  });
}

const VISIBLE = {" ": "␣", "\n": "⏎", "\t": "⇥"};

function draw(model, el) {
  const p = model.get("payload") || {}, n = model.get("n"), order = (p.orders || {})[String(n)] || {};
  const probs = order.probs || [], symbols = order.symbols || [];
  const svg = node("svg", {viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "lm-next-symbol-svg lm-figure",
                           "data-n": n});
  svg.appendChild(node("text", {x: W / 2, y: 16, "text-anchor": "middle", "font-size": 14},
                       say(model, "n = {n}, {smoothing}: next symbol after {context!r}",
                           {n, smoothing: p.smoothing || "", context: order.context || ""})));
  svg.appendChild(node("text", {x: 12, y: H / 2, "font-size": 12, transform: `rotate(-90 12 ${H / 2})`, "text-anchor": "middle"},
                       say(model, "p(next | prefix)", {})));
  const slot = (W - LEFT) / Math.max(1, probs.length), plot = H - TOP - BOTTOM;
  probs.forEach((q, i) => {
    const h = plot * Math.min(q, 1), x = LEFT + i * slot, shown = VISIBLE[symbols[i]] || symbols[i];
    const bar = node("rect", {x: x + slot * 0.1, y: TOP + plot - h, width: slot * 0.8, height: h, fill: "#1f77b4",
                              class: "lm-next-symbol-bar", "data-p": q.toFixed(6)});
    bar.appendChild(node("title", {}, `${shown}: ${q.toFixed(3)}`));
    svg.appendChild(bar);
    svg.appendChild(node("text", {x: x + slot / 2, y: TOP + plot - h - 3, "text-anchor": "middle", "font-size": 15}, shown));
  });
  const summary = document.createElement("div");
  summary.className = "lm-next-symbol-summary";
  summary.textContent = say(model, "top {count} symbols hold {share:.0%} of the probability",
                            {count: probs.length, share: probs.reduce((a, b) => a + b, 0)});
  el.replaceChildren(svg, summary);
}

function render({ model, el }) {
  if (!document.documentElement.classList.contains("lm-site")) { el.style.display = "none"; return; }
  draw(model, el);
  model.on("change:n", () => draw(model, el));
  model.on("change:payload", () => draw(model, el));
}

export default { render };

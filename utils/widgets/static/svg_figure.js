// Shared drawing helpers of the course's browser-side widgets: figures are inline SVG built from strings (text stays
// sharp), with heatmaps painted on a <canvas> beneath (one pixel per value); nothing is fetched from the network.

function lmEscape(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}

// Colour of v in [0, 1] from a lookup table of hex colours (a matplotlib colormap sampled by the kernel).
function lmColor(lut, v) {
  const x = Math.min(1, Math.max(0, Number.isFinite(v) ? v : 0));
  return lut[Math.min(lut.length - 1, Math.floor(x * lut.length))];
}

function lmHexToRgb(hex) {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

// Paint `rows` (array of arrays, values in [vmin, vmax]; null or non-finite: light grey) into `canvas`, one pixel
// per value: the canvas takes the heatmap's size, and CSS scales it up crisp (image-rendering: pixelated).
function lmPaintHeatmap(canvas, rows, lut, vmin, vmax) {
  const h = rows.length, w = h ? rows[0].length : 0;
  canvas.width = Math.max(w, 1);
  canvas.height = Math.max(h, 1);
  const ctx = canvas.getContext("2d");
  const image = ctx.createImageData(canvas.width, canvas.height);
  const rgb = lut.map(lmHexToRgb);
  const span = vmax - vmin || 1;
  for (let i = 0; i < h; i++) {
    for (let j = 0; j < w; j++) {
      const v = rows[i][j];
      const k = 4 * (i * w + j);
      if (v === null || !Number.isFinite(v)) {  // masked entries: light grey
        image.data[k] = image.data[k + 1] = image.data[k + 2] = 235;
      } else {
        const x = Math.min(1, Math.max(0, (v - vmin) / span));
        const c = rgb[Math.min(rgb.length - 1, Math.floor(x * rgb.length))];
        image.data[k] = c[0]; image.data[k + 1] = c[1]; image.data[k + 2] = c[2];
      }
      image.data[k + 3] = 255;
    }
  }
  ctx.putImageData(image, 0, 0);
  return canvas;
}

// A colorbar: vertical strip of the LUT with min/max labels.
function lmColorbar(x, y, w, h, lut, vmin, vmax, fontSize) {
  let out = "";
  const n = 32;
  for (let i = 0; i < n; i++) {
    const v = 1 - (i + 0.5) / n;
    out += `<rect x="${x}" y="${(y + i * h / n).toFixed(1)}" width="${w}" height="${(h / n + 0.6).toFixed(1)}" fill="${lmColor(lut, v)}"/>`;
  }
  out += `<text x="${x + w + 4}" y="${y + fontSize * 0.8}" font-size="${fontSize}">${lmFormat(vmax)}</text>`;
  out += `<text x="${x + w + 4}" y="${y + h}" font-size="${fontSize}">${lmFormat(vmin)}</text>`;
  return out;
}

function lmFormat(v) {
  const a = Math.abs(v);
  if (Number.isInteger(v) && a < 1e5) return String(v);
  if (a >= 1000) return v.toExponential(0);
  if (a >= 10) return v.toFixed(0);
  if (a >= 1) return v.toFixed(1);
  return v.toFixed(2);
}

// "Nice" tick values between lo and hi (about n of them).
function lmTicks(lo, hi, n) {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / Math.max(n, 1);
  const mag = Math.pow(10, Math.floor(Math.log10(raw)));
  const step = [1, 2, 5, 10].map(s => s * mag).find(s => s >= raw) || raw;
  const ticks = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) ticks.push(Math.abs(v) < 1e-12 ? 0 : v);
  return ticks;
}

// Axes frame with ticks and labels; returns {body, px, py} where px/py map data to pixels.
function lmAxes(box, xlim, ylim, opts) {
  const {x, y, w, h} = box;
  const fs = opts.fontSize || 15;
  const px = v => x + (v - xlim[0]) / (xlim[1] - xlim[0] || 1) * w;
  const py = v => y + h - (v - ylim[0]) / (ylim[1] - ylim[0] || 1) * h;
  let body = `<rect x="${x}" y="${y}" width="${w}" height="${h}" fill="none" stroke="#444" stroke-width="1"/>`;
  for (const t of lmTicks(Math.min(...xlim), Math.max(...xlim), opts.xticks || 5)) {
    body += `<line x1="${px(t).toFixed(1)}" x2="${px(t).toFixed(1)}" y1="${y + h}" y2="${y + h + 5}" stroke="#444"/>` +
      `<text x="${px(t).toFixed(1)}" y="${y + h + 7 + fs}" font-size="${fs}" text-anchor="middle">${lmFormat(t)}</text>`;
  }
  for (const t of lmTicks(Math.min(...ylim), Math.max(...ylim), opts.yticks || 5)) {
    body += `<line x1="${x - 5}" x2="${x}" y1="${py(t).toFixed(1)}" y2="${py(t).toFixed(1)}" stroke="#444"/>` +
      (opts.grid === false ? "" : `<line x1="${x}" x2="${x + w}" y1="${py(t).toFixed(1)}" y2="${py(t).toFixed(1)}" stroke="#ddd"/>`) +
      `<text x="${x - 8}" y="${(py(t) + fs * 0.35).toFixed(1)}" font-size="${fs}" text-anchor="end">${lmFormat(t)}</text>`;
  }
  if (opts.xlabel) body += `<text x="${x + w / 2}" y="${y + h + 2 * fs + 14}" font-size="${fs}" text-anchor="middle">${lmEscape(opts.xlabel)}</text>`;
  if (opts.ylabel) body += `<text transform="translate(${x - 3.2 * fs},${y + h / 2}) rotate(-90)" font-size="${fs}" text-anchor="middle">${lmEscape(opts.ylabel)}</text>`;
  if (opts.title) body += `<text x="${x + w / 2}" y="${y - 10}" font-size="${fs + 1}" text-anchor="middle" font-weight="bold">${lmEscape(opts.title)}</text>`;
  return {body, px, py};
}

// Okabe-Ito colours (distinguishable with every common colour-vision deficiency) and dash patterns, so that
// curves differ by more than hue.
const LM_LINE_COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"];
const LM_DASHES = ["", "8 4", "2 3", "10 3 2 3", "4 4", "1 2", "12 4", "6 2 2 2"];

function lmPolyline(xs, ys, px, py, index, extra) {
  const pts = [];
  for (let i = 0; i < xs.length; i++) {
    if (ys[i] === null || !Number.isFinite(ys[i])) continue;
    pts.push(`${px(xs[i]).toFixed(1)},${py(ys[i]).toFixed(1)}`);
  }
  const dash = LM_DASHES[index % LM_DASHES.length];
  return `<polyline points="${pts.join(" ")}" fill="none" stroke="${LM_LINE_COLORS[index % LM_LINE_COLORS.length]}" ` +
    `stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ""} ${extra || ""}/>`;
}

function lmLegend(x, y, labels, fontSize) {
  const longest = Math.max(0, ...labels.map(l => String(l).length));
  let out = `<rect x="${x - 4}" y="${y - fontSize}" width="${40 + 0.6 * fontSize * longest}" ` +
    `height="${labels.length * (fontSize + 6) + 6}" fill="white" fill-opacity="0.85" stroke="#bbb"/>`;
  labels.forEach((label, i) => {
    const yy = y + i * (fontSize + 6);
    const dash = LM_DASHES[i % LM_DASHES.length];
    out += `<line x1="${x}" x2="${x + 28}" y1="${yy}" y2="${yy}" stroke="${LM_LINE_COLORS[i % LM_LINE_COLORS.length]}" stroke-width="2.5"${dash ? ` stroke-dasharray="${dash}"` : ""}/>` +
      `<text x="${x + 34}" y="${yy + fontSize * 0.35}" font-size="${fontSize}">${lmEscape(label)}</text>`;
  });
  return out;
}

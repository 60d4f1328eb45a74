// The scale chart: build time and memory against history size, WASM and JS engines, as a
// hand-written SVG (two log-log panels, one polyline per engine). No dependency.

import type { ScalePoint } from "./report.js";

const W = 360; // one panel
const H = 260;
const PAD = { left: 58, right: 14, top: 48, bottom: 44 };
const COLORS: Record<ScalePoint["config"], string> = { wasm: "#6b4fbb", js: "#e07b1f" };
const LABELS: Record<ScalePoint["config"], string> = { wasm: "WASM engine", js: "JS engine" };
const PANELS: { series: ScalePoint["series"]; title: string; unit: string }[] = [
  { series: "build", title: "buildContext time (median)", unit: "ms" },
  { series: "memory", title: "memory per message (heap + WASM)", unit: "bytes" },
];

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;");
const decadeLabel = (e: number): string => {
  const v = 10 ** e;
  if (v >= 1e6) return `${v / 1e6}M`;
  if (v >= 1e3) return `${v / 1e3}k`;
  return v >= 1 ? String(v) : v.toPrecision(1);
};

function panel(points: ScalePoint[], spec: (typeof PANELS)[number], x0: number): string {
  const pts = points.filter((p) => p.series === spec.series && p.value > 0 && p.messages > 0);
  const out: string[] = [];
  const plotW = W - PAD.left - PAD.right;
  const plotH = H - PAD.top - PAD.bottom;
  out.push(`<text x="${x0 + PAD.left}" y="38" font-size="13" font-weight="bold">${esc(spec.title)}</text>`);
  if (pts.length === 0) {
    out.push(`<text x="${x0 + PAD.left}" y="${PAD.top + 20}" font-size="12">no data</text>`);
    return out.join("\n");
  }
  const lx = pts.map((p) => Math.log10(p.messages));
  const ly = pts.map((p) => Math.log10(p.value));
  const xMin = Math.floor(Math.min(...lx));
  const xMax = Math.max(Math.ceil(Math.max(...lx)), xMin + 1);
  const yMin = Math.floor(Math.min(...ly));
  const yMax = Math.max(Math.ceil(Math.max(...ly)), yMin + 1);
  const sx = (v: number): number => x0 + PAD.left + ((Math.log10(v) - xMin) / (xMax - xMin)) * plotW;
  const sy = (v: number): number => PAD.top + plotH - ((Math.log10(v) - yMin) / (yMax - yMin)) * plotH;
  const f = (n: number): string => n.toFixed(1);
  // Frame, decade grid lines and labels.
  out.push(`<rect x="${x0 + PAD.left}" y="${PAD.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#999"/>`);
  for (let e = xMin; e <= xMax; e++) {
    const x = sx(10 ** e);
    out.push(`<line x1="${f(x)}" y1="${PAD.top}" x2="${f(x)}" y2="${PAD.top + plotH}" stroke="#ddd"/>`);
    out.push(
      `<text x="${f(x)}" y="${PAD.top + plotH + 16}" font-size="11" text-anchor="middle">${decadeLabel(e)}</text>`,
    );
  }
  for (let e = yMin; e <= yMax; e++) {
    const y = sy(10 ** e);
    out.push(`<line x1="${x0 + PAD.left}" y1="${f(y)}" x2="${x0 + PAD.left + plotW}" y2="${f(y)}" stroke="#ddd"/>`);
    out.push(
      `<text x="${x0 + PAD.left - 6}" y="${f(y + 4)}" font-size="11" text-anchor="end">${decadeLabel(e)}</text>`,
    );
  }
  out.push(
    `<text x="${x0 + PAD.left + plotW / 2}" y="${H - 8}" font-size="11" text-anchor="middle">messages in the history (log)</text>`,
  );
  out.push(
    `<text transform="translate(${x0 + 14},${PAD.top + plotH / 2}) rotate(-90)" font-size="11" text-anchor="middle">${esc(spec.unit)} (log)</text>`,
  );
  // One polyline per engine, with a dot per measurement.
  for (const config of ["wasm", "js"] as const) {
    const series = pts.filter((p) => p.config === config).sort((a, b) => a.messages - b.messages);
    if (series.length === 0) continue;
    const coords = series.map((p) => `${f(sx(p.messages))},${f(sy(p.value))}`);
    out.push(`<polyline fill="none" stroke="${COLORS[config]}" stroke-width="2" points="${coords.join(" ")}"/>`);
    for (const c of coords) {
      const [x, y] = c.split(",");
      out.push(`<circle cx="${x}" cy="${y}" r="3" fill="${COLORS[config]}"/>`);
    }
  }
  return out.join("\n");
}

/** The whole chart as an SVG document. */
export function scaleChart(points: ScalePoint[]): string {
  const width = W * PANELS.length;
  const legend = (["wasm", "js"] as const)
    .map((c, i) => {
      const x = PAD.left + i * 112;
      return `<line x1="${x}" y1="14" x2="${x + 18}" y2="14" stroke="${COLORS[c]}" stroke-width="3"/><text x="${x + 22}" y="18" font-size="11">${LABELS[c]}</text>`;
    })
    .join("\n");
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${H + 10}" viewBox="0 0 ${width} ${H + 10}" font-family="sans-serif">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    ...PANELS.map((spec, i) => panel(points, spec, i * W)),
    legend,
    `</svg>`,
    "",
  ].join("\n");
}

/**
 * The workbench's picture, as standalone SVG: left, every round's throughput per contender as dots with the median
 * marked; right, each variant's ratio to the baseline as its median and 95 % interval over the shaded noise band.
 */
import type { Analysis } from './ab-analysis.js';

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const COLOURS: Record<string, string> = { faster: '#1a7f37', slower: '#cf222e', 'no change': '#57606a' };

/** Round numbers for an axis over [lo, hi]. */
function ticks(lo: number, hi: number, count = 5): number[] {
  const step0 = (hi - lo) / count || 1;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step0)!;
  const out: number[] = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(Number(v.toPrecision(10)));
  return out;
}

/** The SVG document of a run. */
export function renderSvg(
  title: string, a: Analysis, rates: Readonly<Record<string, readonly number[]>>, references: ReadonlySet<string> = new Set(),
): string {
  const names = Object.keys(rates);
  const row = 34;
  const top = 58;
  const label = 190;
  const panel = 330;
  const gap = 70;
  const width = label + panel + gap + 260 + 90;
  const height = top + names.length * row + 44;
  const all = Object.values(rates).flat();
  const pad = (Math.max(...all) - Math.min(...all)) * 0.08 || 1;
  const lo = Math.max(0, Math.min(...all) - pad);
  const hi = Math.max(...all) + pad;
  const x = (v: number): number => label + ((v - lo) / (hi - lo)) * panel;
  const rLo = Math.min(1 - a.threshold * 2, ...a.ratios.map((r) => r.interval.low)) - 0.01;
  const rHi = Math.max(1 + a.threshold * 2, ...a.ratios.map((r) => r.interval.high)) + 0.01;
  const rx0 = label + panel + gap;
  const rx = (v: number): number => rx0 + ((v - rLo) / (rHi - rLo)) * 260;
  const y = (i: number): number => top + i * row + row / 2;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="DejaVu Sans, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<text x="12" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`,
    `<text x="${label}" y="44" fill="#57606a">Throughput per round, M cell-h per CPU-s (bar: median)</text>`,
    `<text x="${rx0}" y="44" fill="#57606a">Ratio to ${esc(a.baseline)}, 95 % interval</text>`,
  ];
  const axisY = top + names.length * row + 4;
  for (const t of ticks(lo, hi)) {
    out.push(`<line x1="${x(t)}" x2="${x(t)}" y1="${top}" y2="${axisY}" stroke="#eaeef2"/>`,
      `<text x="${x(t)}" y="${axisY + 16}" text-anchor="middle" fill="#57606a">${t}</text>`);
  }
  out.push(`<rect x="${rx(1 - a.threshold)}" y="${top}" width="${rx(1 + a.threshold) - rx(1 - a.threshold)}" height="${axisY - top}" fill="#f6f8fa"/>`,
    `<line x1="${rx(1)}" x2="${rx(1)}" y1="${top}" y2="${axisY}" stroke="#8c959f" stroke-dasharray="3 3"/>`);
  for (const t of ticks(rLo, rHi, 4)) out.push(`<text x="${rx(t)}" y="${axisY + 16}" text-anchor="middle" fill="#57606a">${t}×</text>`);
  out.push(`<text x="${rx(1)}" y="${axisY + 32}" text-anchor="middle" fill="#8c959f">noise band ±${(a.threshold * 100).toFixed(1)} %</text>`);
  names.forEach((name, i) => {
    const cy = y(i);
    const s = a.throughput[name]!;
    out.push(`<text x="${label - 10}" y="${cy + 4}" text-anchor="end">${esc(name)}</text>`);
    rates[name]!.forEach((v, k) => {
      const jitter = (((k * 7919) % 13) / 13 - 0.5) * (row * 0.5);
      out.push(`<circle cx="${x(v).toFixed(1)}" cy="${(cy + jitter).toFixed(1)}" r="2.2" fill="#0969da" fill-opacity="0.45"/>`);
    });
    out.push(`<line x1="${x(s.median)}" x2="${x(s.median)}" y1="${cy - row * 0.38}" y2="${cy + row * 0.38}" stroke="#0a3069" stroke-width="2.5"/>`);
    const r = a.ratios.find((q) => q.variant === name);
    if (r === undefined) {
      out.push(`<text x="${rx(1) + 6}" y="${cy + 4}" fill="#57606a">baseline</text>`);
      return;
    }
    const c = COLOURS[r.verdict]!;
    out.push(`<line x1="${rx(r.interval.low)}" x2="${rx(r.interval.high)}" y1="${cy}" y2="${cy}" stroke="${c}" stroke-width="3"/>`,
      `<circle cx="${rx(r.median)}" cy="${cy}" r="4" fill="${c}"/>`,
      `<text x="${Math.min(rx(r.interval.high) + 6, width - 96)}" y="${cy - 6}" fill="${c}" font-size="11">${r.verdict}${references.has(r.variant) ? ' (ref.)' : ''}</text>`);
  });
  out.push('</svg>');
  return out.join('\n');
}

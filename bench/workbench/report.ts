/**
 * The workbench's table: one row per contender with its throughput (median, minimum, MAD), a small histogram sketch of
 * its rounds on a shared scale, and its ratio to the baseline with the 95 % interval and the verdict. As aligned text
 * for the terminal or as Markdown for docs/benchmarks.md.
 */
import type { Analysis } from './ab-analysis.js';

const BARS = ' ▁▂▃▄▅▆▇█';

/** A `width`-character histogram of `values` over [lo, hi]. */
function sketch(values: readonly number[], lo: number, hi: number, width = 16): string {
  const bins = new Array<number>(width).fill(0);
  const span = hi - lo || 1;
  for (const v of values) bins[Math.min(width - 1, Math.max(0, Math.floor(((v - lo) / span) * width)))]!++;
  const top = Math.max(...bins);
  return bins.map((b) => BARS[b === 0 ? 0 : Math.max(1, Math.round((b / top) * 8))]).join('');
}

const f1 = (v: number): string => v.toFixed(1);
const ratio = (v: number): string => `${v.toFixed(3)}×`;

/** Table rows (column → text) of an analysis; the verdicts of `references` say they are references (never a regression). */
export function tableRows(a: Analysis, rates: Readonly<Record<string, readonly number[]>>, references: ReadonlySet<string> = new Set()): Record<string, string>[] {
  const all = Object.values(rates).flat();
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  return Object.entries(a.throughput).map(([name, s]) => {
    const r = a.ratios.find((x) => x.variant === name);
    return {
      variant: name === a.baseline ? `${name} (baseline)` : name,
      'median M cell-h/s': f1(s.median),
      min: f1(s.min),
      MAD: f1(s.mad),
      [`rounds ${f1(lo)}…${f1(hi)}`]: sketch(rates[name]!, lo, hi),
      ratio: r ? ratio(r.median) : '1',
      '95 % interval': r ? `${ratio(r.interval.low)}–${ratio(r.interval.high)}` : '',
      verdict: r ? `${r.resolved || r.verdict !== 'no change' ? r.verdict : 'no change (unresolved)'}${references.has(name) ? ' (reference)' : ''}` : '',
    };
  });
}

/** Aligned text or Markdown table of `rows`. */
export function formatRows(rows: readonly Record<string, string>[], format: 'text' | 'md'): string {
  const columns = Object.keys(rows[0] ?? {});
  if (format === 'md') {
    return [
      `| ${columns.join(' | ')} |`,
      `|${columns.map((_, i) => (i === 0 ? ' --- ' : ' ---: ')).join('|')}|`,
      ...rows.map((r) => `| ${columns.map((c) => (r[c] ?? '').replace(/\|/g, '\\|')).join(' | ')} |`),
    ].join('\n');
  }
  const widths = columns.map((c) => Math.max(c.length, ...rows.map((r) => (r[c] ?? '').length)));
  const line = (v: string[]): string => v.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
  return [line(columns), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(columns.map((c) => r[c] ?? '')))].join('\n');
}

/**
 * The two chart shapes of a report, as pure functions from values to SVG: column charts (months, seasons; one or more
 * series, negative values hang below a zero line) and horizontal bar charts (shares per class, labels on the left).
 * Values arrive as published (already rounded); every bar's value is also written as `data-value` so tests can check
 * a chart against the statistics it shows.
 */
import { THEME } from '../theme.js';
import { esc, line, n, rect, svgDocument, text, type Svg } from './svg.js';

/** One bar of a column chart. */
export interface ColumnBar {
  /** null: no data (no bar drawn). */
  readonly value: number | null;
  readonly color: string;
}

/** One category (a month, a season) with one bar per series. */
export interface ColumnCategory {
  readonly label: string;
  readonly bars: readonly ColumnBar[];
}

/** A column chart. */
export interface ColumnChartSpec {
  readonly width: number;
  readonly height: number;
  readonly categories: readonly ColumnCategory[];
  /** Axis range; must contain every value and 0. */
  readonly min: number;
  readonly max: number;
  /** Distance between labelled gridlines. */
  readonly step: number;
  /** Writes an axis value (locale-aware). */
  readonly tick: (value: number) => string;
  /** Series legend drawn above the plot (omit for a single series). */
  readonly legend?: readonly { readonly label: string; readonly color: string }[];
  /** Accessible label of the chart. */
  readonly label: string;
}

const FONT = 6.5;

/** Nice axis bounds for values: a step of 1, 2 or 5 × 10^k giving about `ticks` intervals, bounds on the steps. */
export function niceAxis(values: readonly number[], ticks = 4, floorAtZero = true): { min: number; max: number; step: number } {
  const lo = Math.min(floorAtZero ? 0 : Infinity, ...values, 0);
  const hi = Math.max(...values, 0);
  // At least 1 unit: the axes of these charts (%, m/s, °C) need no finer steps than 0.25.
  const span = Math.max(hi - lo, 1);
  const raw = span / ticks;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? 10 * mag;
  return { min: Math.floor(lo / step) * step, max: Math.ceil(hi / step) * step || step, step };
}

/** Draws a column chart. */
export function columnChart(spec: ColumnChartSpec): Svg {
  const { width, height, categories, min, max, step } = spec;
  const legendH = spec.legend ? 12 : 0;
  const left = 26;
  const right = 4;
  const top = 6 + legendH;
  const bottom = 14;
  const plotW = width - left - right;
  const plotH = height - top - bottom;
  const y = (v: number) => top + ((max - v) / (max - min)) * plotH;
  const parts: string[] = [];
  for (let v = min; v <= max + step / 1e6; v += step) {
    const yy = y(v);
    parts.push(line(left, yy, width - right, yy, v === 0 ? THEME.muted : THEME.grid, v === 0 ? 0.6 : 0.4));
    parts.push(text(left - 3, yy + 2.2, spec.tick(v), { size: FONT, anchor: 'end', fill: THEME.muted }));
  }
  const slot = plotW / categories.length;
  const series = Math.max(1, ...categories.map((c) => c.bars.length));
  const barW = Math.min(16, (slot * 0.72) / series);
  categories.forEach((cat, i) => {
    const x0 = left + i * slot + (slot - barW * series) / 2;
    cat.bars.forEach((bar, k) => {
      if (bar.value === null) return;
      const y0 = y(Math.max(0, bar.value));
      const h = Math.abs(y(bar.value) - y(0));
      parts.push(
        `<rect x="${n(x0 + k * barW)}" y="${n(y0)}" width="${n(barW - 0.6)}" height="${n(Math.max(h, 0.01))}" fill="${bar.color}" ` +
        `stroke="${THEME.muted}" stroke-width="0.3" data-value="${bar.value}" data-category="${esc(cat.label)}" data-series="${k}"/>`,
      );
    });
    parts.push(text(left + i * slot + slot / 2, height - 4, cat.label, { size: FONT, anchor: 'middle', fill: THEME.ink }));
  });
  if (spec.legend) {
    let x = left;
    for (const item of spec.legend) {
      parts.push(rect(x, 2, 7, 7, item.color, THEME.muted, 0.3));
      parts.push(text(x + 10, 8, item.label, { size: FONT, fill: THEME.ink }));
      x += 16 + item.label.length * FONT * 0.6;
    }
  }
  return svgDocument(width, height, parts.join(''), spec.label);
}

/** One row of a horizontal bar chart. */
export interface BarRow {
  readonly label: string;
  readonly value: number;
  /** The value as printed at the end of the bar. */
  readonly valueText: string;
  readonly color: string;
}

/** Draws horizontal bars, one per row, on a 0..`max` scale (default 100: shares in percent). */
export function barChart(opts: { width: number; rows: readonly BarRow[]; max?: number; label: string; labelWidth?: number }): Svg {
  const rowH = 13;
  const top = 2;
  const height = top + opts.rows.length * rowH + 2;
  const labelW = opts.labelWidth ?? 84;
  const valueW = 30;
  const plotW = opts.width - labelW - valueW;
  const max = opts.max ?? 100;
  const parts: string[] = [line(labelW, top, labelW, height - 2, THEME.muted, 0.5)];
  opts.rows.forEach((row, i) => {
    const y0 = top + i * rowH;
    const w = Math.max(0, (row.value / max) * plotW);
    parts.push(text(labelW - 4, y0 + 9, row.label, { size: FONT + 0.5, anchor: 'end', fill: THEME.ink }));
    parts.push(
      `<rect x="${n(labelW)}" y="${n(y0 + 2)}" width="${n(Math.max(w, 0.01))}" height="9" fill="${row.color}" stroke="${THEME.muted}" ` +
      `stroke-width="0.3" data-value="${row.value}" data-category="${esc(row.label)}"/>`,
    );
    parts.push(text(labelW + w + 3, y0 + 9, row.valueText, { size: FONT + 0.5, fill: THEME.ink }));
  });
  return svgDocument(opts.width, height, parts.join(''), opts.label);
}

/**
 * Legends of the surroundings map as SVG: a list of swatches (classes, buildings, outside the model) and a colour bar
 * for the relative UTCI gradient, labelled with the map's own range.
 */
import { THEME } from '../theme.js';
import { relativeColor } from './scale-colors.js';
import { n, rect, svgDocument, text, type Svg } from './svg.js';

/** One swatch of a class legend. */
export interface LegendItem {
  readonly color: string;
  readonly label: string;
  /** A diagonal stroke of this colour across the swatch (a hatched map layer). */
  readonly hatch?: string;
}

/** A 7 × 7 swatch at (x, y). */
function swatch(x: number, y: number, item: LegendItem): string {
  const stroke = item.hatch ? `<path d="M${n(x)} ${n(y + 7)}L${n(x + 7)} ${n(y)}" stroke="${item.hatch}" stroke-width="1.6"/>` : '';
  return rect(x, y, 7, 7, item.color, THEME.muted, 0.3) + stroke;
}

const ROW = 9.5;

/** Swatches in `columns` columns, filled column by column. */
export function classLegend(items: readonly LegendItem[], width: number, label: string, columns = 1): Svg {
  const rows = Math.ceil(items.length / columns);
  const colW = width / columns;
  const parts = items.map((item, i) => {
    const x = Math.floor(i / rows) * colW;
    const y = (i % rows) * ROW + 1;
    return swatch(x + 0.5, y, item) + text(x + 10.5, y + 6.2, item.label, { size: 6, fill: THEME.ink });
  });
  return svgDocument(width, rows * ROW + 2, parts.join(''), label);
}

/** A horizontal colour bar of the relative UTCI gradient from `minText` to `maxText`, then extra swatches below. */
export function gradientLegend(opts: {
  width: number; minText: string; maxText: string; label: string; extra: readonly LegendItem[];
}): Svg {
  const steps = 48;
  const barW = opts.width - 2;
  const parts: string[] = [];
  for (let i = 0; i < steps; i++) {
    parts.push(`<rect x="${n(1 + (i * barW) / steps)}" y="1" width="${n(barW / steps + 0.1)}" height="7" fill="${relativeColor(i / (steps - 1))}"/>`);
  }
  parts.push(rect(1, 1, barW, 7, 'none', THEME.muted, 0.3));
  parts.push(text(1, 15.5, opts.minText, { size: 6, fill: THEME.ink }));
  parts.push(text(opts.width - 1, 15.5, opts.maxText, { size: 6, anchor: 'end', fill: THEME.ink }));
  opts.extra.forEach((item, i) => {
    const y = 19 + i * ROW;
    parts.push(swatch(1.5, y, item) + text(11.5, y + 6.2, item.label, { size: 6, fill: THEME.ink }));
  });
  return svgDocument(opts.width, 20 + opts.extra.length * ROW + 1, parts.join(''), opts.label);
}

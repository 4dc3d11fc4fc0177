/**
 * One panel of the surroundings map as SVG: the display grid coloured by one layer (runs of equal colour merged into
 * one rectangle per row, so a 61 × 61 grid stays a few hundred elements), buildings and areas outside the dataset in
 * the scales' building and no-data colours, the sampled cells outlined, the location crossed, the radius circled, a
 * scale bar, a north mark and, on regional maps, the national border.
 */
import type { SurroundingsGrid } from '../../../compute/compute-types.js';
import { THEME } from '../theme.js';
import { BUILDING, NO_DATA } from './scale-colors.js';
import { n, svgDocument, text, type Svg } from './svg.js';

/** What a panel shows. */
export interface MapPanelSpec {
  readonly grid: SurroundingsGrid;
  /** One value per display cell (null: no value). */
  readonly values: readonly (number | null)[];
  readonly colorOf: (value: number) => string;
  /** Side of the panel, points. */
  readonly size: number;
  readonly label: string;
  /** Writes a scale-bar length in metres ("100 m", "10 km"). */
  readonly distance: (metres: number) => string;
  readonly north: string;
  /** Cells (value 1) hatched with diagonal strokes of `color` over their fill (wind danger). */
  readonly hatch?: { readonly values: readonly (number | null)[]; readonly color: string };
  /** Lines (e.g. the national border) in display-cell units from the north-west corner. */
  readonly lines?: readonly (readonly (readonly [number, number])[])[];
}

/** The colour of display cell `i`. */
function cellColor(spec: MapPanelSpec, i: number): string {
  const cover = spec.grid.cover[i];
  if (cover === 0) return NO_DATA;
  if (cover === 1) return BUILDING;
  const v = spec.values[i];
  return v === null || v === undefined ? NO_DATA : spec.colorOf(v);
}

/** A length of about a quarter of `extent` metres, rounded to 1, 2 or 5 × 10^k. */
export function scaleBarMetres(extent: number): number {
  const target = extent / 4;
  const mag = 10 ** Math.floor(Math.log10(target));
  return [5, 2, 1].map((m) => m * mag).find((len) => len <= target) ?? mag;
}

/**
 * Path data of a polyline (display-cell units) clipped to the square [0, k]² and scaled by `px`: each segment is cut
 * to the square (Liang–Barsky), so nothing is drawn outside the panel without relying on SVG clip paths.
 */
export function clippedPath(points: readonly (readonly [number, number])[], k: number, px: number): string {
  let d = '';
  let penAt: string | undefined;
  for (let i = 1; i < points.length; i++) {
    const [x0, y0] = points[i - 1];
    const [x1, y1] = points[i];
    const dx = x1 - x0;
    const dy = y1 - y0;
    let t0 = 0;
    let t1 = 1;
    let inside = true;
    for (const [p, q] of [[-dx, x0], [dx, k - x0], [-dy, y0], [dy, k - y0]] as const) {
      if (p === 0) {
        if (q < 0) inside = false;
        continue;
      }
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
    }
    if (!inside || t0 > t1) {
      penAt = undefined;
      continue;
    }
    const a = `${n((x0 + t0 * dx) * px)} ${n((y0 + t0 * dy) * px)}`;
    const b = `${n((x0 + t1 * dx) * px)} ${n((y0 + t1 * dy) * px)}`;
    if (penAt !== a) d += `M${a}`;
    d += `L${b}`;
    penAt = t1 === 1 ? b : undefined;
  }
  return d;
}

/** Outline of the sampled cells: the edges between a sampled cell and a cell that is not. */
function sampledOutline(grid: SurroundingsGrid, px: number): string {
  const k = grid.cells;
  const sampled = new Set(grid.sampled);
  const segments: string[] = [];
  for (const i of sampled) {
    const r = Math.floor(i / k);
    const c = i % k;
    const x = c * px;
    const y = r * px;
    if (r === 0 || !sampled.has(i - k)) segments.push(`M${n(x)} ${n(y)}h${n(px)}`);
    if (r === k - 1 || !sampled.has(i + k)) segments.push(`M${n(x)} ${n(y + px)}h${n(px)}`);
    if (c === 0 || !sampled.has(i - 1)) segments.push(`M${n(x)} ${n(y)}v${n(px)}`);
    if (c === k - 1 || !sampled.has(i + 1)) segments.push(`M${n(x + px)} ${n(y)}v${n(px)}`);
  }
  if (segments.length === 0) return '';
  const d = segments.join('');
  return `<path d="${d}" fill="none" stroke="${THEME.white}" stroke-width="2.2" stroke-linecap="square"/>` +
    `<path d="${d}" fill="none" stroke="${THEME.ink}" stroke-width="1.1" stroke-linecap="square"/>`;
}

/** Draws one map panel. */
export function mapPanel(spec: MapPanelSpec): Svg {
  const { grid, size } = spec;
  const k = grid.cells;
  const px = size / k;
  // One path per colour, made of the row runs of that colour: a few dozen elements instead of one per cell (cheap for
  // svg-to-pdfkit), no seams between cells of one colour, and crisp edges in browsers (none between colours either).
  const runs = new Map<string, string[]>();
  for (let r = 0; r < k; r++) {
    let c = 0;
    while (c < k) {
      const color = cellColor(spec, r * k + c);
      let end = c + 1;
      while (end < k && cellColor(spec, r * k + end) === color) end++;
      let list = runs.get(color);
      if (list === undefined) runs.set(color, (list = []));
      list.push(`M${n(c * px)} ${n(r * px)}H${n(end * px)}V${n((r + 1) * px)}H${n(c * px)}Z`);
      c = end;
    }
  }
  const parts: string[] = [...runs].map(([color, d]) => `<path d="${d.join('')}" fill="${color}" shape-rendering="crispEdges"/>`);
  if (spec.hatch) {
    const d: string[] = [];
    spec.hatch.values.forEach((v, i) => {
      if (v !== 1 || grid.cover[i] !== 2) return;
      const x = (i % k) * px;
      const y = Math.floor(i / k) * px;
      d.push(`M${n(x)} ${n(y + px)}L${n(x + px)} ${n(y)}`);
    });
    if (d.length > 0) {
      parts.push(`<path d="${d.join('')}" stroke="${spec.hatch.color}" stroke-width="${n(Math.max(0.6, px * 0.22))}" fill="none"/>`);
    }
  }
  const border = (spec.lines ?? []).map((ring) => clippedPath(ring, k, px)).join('');
  if (border !== '') parts.push(`<path d="${border}" fill="none" stroke="${THEME.ink}" stroke-width="0.7"/>`);
  parts.push(sampledOutline(grid, px));
  if (grid.radius_m !== undefined && grid.kind === 'street') {
    const r = (grid.radius_m / grid.cell_m) * px;
    parts.push(`<circle cx="${n(grid.location.x * px)}" cy="${n(grid.location.y * px)}" r="${n(r)}" fill="none" ` +
      `stroke="${THEME.ink}" stroke-width="0.8" stroke-dasharray="2 1.5"/>`);
  }
  const lx = grid.location.x * px;
  const ly = grid.location.y * px;
  // A cross-hair with an open centre, so the outlined sampled cells stay visible under it.
  const cross = `M${n(lx - 7)} ${n(ly)}H${n(lx - 2.5)}M${n(lx + 2.5)} ${n(ly)}H${n(lx + 7)}` +
    `M${n(lx)} ${n(ly - 7)}V${n(ly - 2.5)}M${n(lx)} ${n(ly + 2.5)}V${n(ly + 7)}`;
  parts.push(`<path d="${cross}" stroke="${THEME.white}" stroke-width="2.6"/><path d="${cross}" stroke="${THEME.ink}" stroke-width="1.1"/>`);

  const extent = k * grid.cell_m;
  const barM = scaleBarMetres(extent);
  const barW = (barM / extent) * size;
  parts.push(`<rect x="3" y="${n(size - 15)}" width="${n(barW + 6)}" height="12" fill="${THEME.white}" fill-opacity="0.85"/>`);
  parts.push(`<path d="M6 ${n(size - 7)}h${n(barW)}" stroke="${THEME.ink}" stroke-width="1.4"/>`);
  parts.push(text(6 + barW / 2, size - 8.8, spec.distance(barM), { size: 5.5, anchor: 'middle', fill: THEME.ink }));
  parts.push(`<rect x="${n(size - 13)}" y="3" width="10" height="15" fill="${THEME.white}" fill-opacity="0.85"/>`);
  parts.push(`<path d="M${n(size - 8)} 5l-3 6h6z" fill="${THEME.ink}"/>`);
  parts.push(text(size - 8, 17, spec.north, { size: 5.5, anchor: 'middle', fill: THEME.ink, weight: 'bold' }));
  parts.push(`<rect x="0" y="0" width="${n(size)}" height="${n(size)}" fill="none" stroke="${THEME.muted}" stroke-width="0.6"/>`);
  return svgDocument(size, size, parts.join(''), spec.label);
}

/**
 * The surroundings section: one map panel per layer of the report's metrics (annual NO2, wind comfort class, summer
 * daytime UTCI), each with its legend, and a paragraph saying what the maps cover. Regional maps (the nationwide
 * dataset) also draw Belgium's border.
 */
import type { SurroundingsGrid } from '../../../compute/compute-types.js';
import { BELGIUM_BOUNDARY } from '../../../geo/belgium-boundary.js';
import { wgs84ToLambert72 } from '../../../geo/crs.js';
import type { Figure, Section } from '../document.js';
import { classLegend, gradientLegend, type LegendItem } from '../figures/legend.js';
import { mapPanel, type MapPanelSpec } from '../figures/map.js';
import { THEME } from '../theme.js';
import { BUILDING, NO_DATA, no2ClassOf, no2Classes, no2Color, relativeColor, windColor } from '../figures/scale-colors.js';
import { distance, LAYOUT, type ComposeContext } from './context.js';

/** Wind class value of Danger: drawn as a hatch over the comfort class, not as a class of its own. */
const DANGER_CLASS = 5;

/** Colour steps of the UTCI panel over its range. */
const UTCI_STEPS = 40;

/** Smallest span of the UTCI colour range, °C: a flatter map is not stretched into strong contrasts. */
export const UTCI_MIN_SPAN_C = 2;

/** The colour range of the UTCI panel: the map's lowest and highest value, widened to UTCI_MIN_SPAN_C about the middle. */
export function utciRange(values: readonly (number | null)[]): { min: number; max: number } | undefined {
  const present = values.filter((v): v is number => v !== null);
  if (present.length === 0) return undefined;
  let min = Math.min(...present);
  let max = Math.max(...present);
  if (max - min < UTCI_MIN_SPAN_C) {
    const mid = (min + max) / 2;
    min = mid - UTCI_MIN_SPAN_C / 2;
    max = mid + UTCI_MIN_SPAN_C / 2;
  }
  return { min, max };
}

/** Belgium's border in display-cell units of `grid`. */
function borderLines(grid: SurroundingsGrid): [number, number][][] {
  return BELGIUM_BOUNDARY.flatMap((polygon) => polygon.map((ring) => ring.map(([lon, lat]) => {
    const [x, y] = wgs84ToLambert72(lon, lat);
    return [(x - grid.x_min) / grid.cell_m, (grid.y_max - y) / grid.cell_m] as [number, number];
  })));
}

/** The surroundings section. */
export function surroundingsSection(ctx: ComposeContext): Section {
  const { c, t, f } = ctx;
  const grid = c.surroundings;
  const extra: LegendItem[] = [];
  if (grid.kind === 'street' && grid.cover.includes(1)) extra.push({ color: BUILDING, label: t.surroundings.building });
  if (grid.cover.includes(0)) extra.push({ color: NO_DATA, label: t.surroundings.outside });
  const lines = grid.kind === 'regional' ? borderLines(grid) : undefined;
  const panel = (title: string, values: readonly (number | null)[], colorOf: (v: number) => string, hatch?: MapPanelSpec['hatch']) =>
    mapPanel({
      grid, values, colorOf, size: LAYOUT.third, label: title, north: t.surroundings.north,
      distance: (m) => distance(f, m), ...(lines ? { lines } : {}), ...(hatch ? { hatch } : {}),
    });
  const figures: Figure[] = [];

  const no2 = grid.layers.no2_mean_ugm3;
  if (no2 !== undefined) {
    const classes = no2.filter((v): v is number => v !== null).map((v) => no2ClassOf(v) ?? 1);
    const lo = Math.min(...classes, 10);
    const hi = Math.max(...classes, 1);
    const items: LegendItem[] = no2Classes()
      .filter((k) => k.value !== undefined && k.value >= Math.min(lo, hi) && k.value <= hi)
      .map((k) => ({
        color: k.color,
        label: k.bounds?.to === null ? `> ${f.short(k.bounds.from, 1)}` : k.value === 1
          ? `≤ ${f.short(k.bounds?.to ?? 0, 1)}` : `${f.short(k.bounds?.from ?? 0, 1)}–${f.short(k.bounds?.to ?? 0, 1)}`,
      }));
    figures.push({
      title: t.surroundings.no2Title,
      svg: panel(t.surroundings.no2Title, no2, no2Color),
      caption: t.surroundings.no2Caption,
      legend: classLegend([...items, ...extra], LAYOUT.third, t.surroundings.no2Title, items.length + extra.length > 6 ? 2 : 1),
    });
  }
  const wind = grid.layers.wind_class;
  if (wind !== undefined) {
    const danger = { values: grid.layers.wind_danger ?? [], color: windColor(DANGER_CLASS) };
    const items: LegendItem[] = t.windClasses.slice(0, DANGER_CLASS - 1).map((label, i) => ({ color: windColor(i + 1), label }));
    items.push({ color: THEME.white, hatch: danger.color, label: t.windClasses[DANGER_CLASS - 1] });
    figures.push({
      title: t.surroundings.windTitle,
      svg: panel(t.surroundings.windTitle, wind, windColor, danger),
      caption: t.surroundings.windCaption,
      legend: classLegend([...items, ...extra], LAYOUT.third, t.surroundings.windTitle, 2),
    });
  }
  const utci = grid.layers.summer_day_utci_c;
  const range = utci === undefined ? undefined : utciRange(utci);
  if (utci !== undefined && range !== undefined) {
    // Colours in UTCI_STEPS steps over the range: indistinguishable from a continuous gradient, and a map of a few dozen
    // colours draws as a few dozen paths.
    const colorOf = (v: number) => relativeColor(Math.round(((v - range.min) / (range.max - range.min)) * UTCI_STEPS) / UTCI_STEPS);
    figures.push({
      title: t.surroundings.utciTitle,
      svg: panel(t.surroundings.utciTitle, utci, colorOf),
      caption: t.surroundings.utciCaption,
      legend: gradientLegend({
        width: LAYOUT.third, minText: f.unit(range.min, 1, '°C'), maxText: f.unit(range.max, 1, '°C'),
        label: t.surroundings.utciTitle, extra,
      }),
    });
  }

  const size = distance(f, grid.cells * grid.cell_m);
  const intro = grid.kind === 'street'
    ? t.surroundings.streetIntro(size, distance(f, grid.cell_m))
    : t.surroundings.regionalIntro(size, distance(f, grid.resolution_m));
  const aggregated = grid.factor > 1 ? ` ${t.surroundings.aggregated(f.int(grid.factor))}` : '';
  return {
    id: 'surroundings',
    title: t.surroundings.title,
    newPage: false,
    blocks: [
      { kind: 'paragraph', text: intro + aggregated, style: 'lead' },
      ...(figures.length > 0 ? [{ kind: 'figures' as const, figures }] : []),
    ],
  };
}

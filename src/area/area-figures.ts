/**
 * How each figure of the city atlas is aggregated over an area (docs/area.md keeps the table in words). A figure is
 * aggregated as what it is:
 * - `mean`: shares of hours and means of hourly values (good-air share, calm share, exceedance shares, comfortable
 *   shares, annual means). Every cell has the same hours, so the coverage-weighted mean of the cells' figures is the
 *   figure of the area's hours pooled; it is published with the distribution (min, max, weighted p10/p50/p90).
 * - `distribution`: percentiles, extremes, counts of days or nights, ratings and scores. A mean of percentiles, of
 *   maxima or of counts of days is no figure of anything, so none is given: only how the cells' values spread over
 *   the area (min, max, weighted p10/p50/p90, e.g. "90 % of the outdoor area has at most 3 tropical nights").
 * - `classes`: a coded figure (the limiting pollutant) or a class derived from figures (BelAQI class of the annual
 *   means, wind comfort class, UTCI stress category, the label band of each rating and score): m² and share of the
 *   outdoor area with a value in each class.
 */
import { BELAQI_LABELS, POLLUTANTS, pollutantClass } from '../classification/belaqi.js';
import { UTCI_LABELS, utciClass } from '../classification/utci.js';
import { WIND_CLASS_LABELS } from '../classification/wind.js';
import { ATLAS_FIGURES, LIMITING_POLLUTANT_CODES, type AtlasBlock, type AtlasFigure } from '../stats/atlas-figures.js';
import { placeWindClasses } from '../compute/surroundings/surroundings-grid.js';
import { scoreLabel, type ScoreLabel } from '../stats/scoring.js';

/** How a figure is aggregated over an area. */
export type AreaAggregation = 'mean' | 'distribution' | 'classes';

/** One class of a class figure. */
export interface AreaClass {
  readonly value: number;
  readonly name: string;
}

/** A figure as the area answer reports it: from one atlas grid, or a class derived from several. */
export interface AreaFigure {
  /** The name in the answer: the envelope field (`air.good_pct`), or a derived class's own name (`air.belaqi_class`). */
  readonly field: string;
  readonly block: AtlasBlock;
  readonly unit: string;
  readonly aggregation: AreaAggregation;
  /** The atlas grids it is read from (one, or several for a derived class). */
  readonly grids: readonly string[];
  /** Class figures: each cell's class from its grids' values (0: no class), and the classes. */
  readonly classify?: (values: readonly number[]) => number;
  readonly classes?: readonly AreaClass[];
  readonly meaning: string;
}

const LABELS: readonly ScoreLabel[] = ['Excellent', 'Very good', 'Good', 'Moderate', 'Poor', 'Bad'];

/** Figures whose mean is meaningful: shares of hours and means of hourly values (see above). */
function aggregationOf(f: AtlasFigure): AreaAggregation {
  if (f.categories !== undefined) return 'classes';
  if (f.unit === '%') return 'mean';
  if (/annual_mean|mean_ucomfort|mean_utci|summer_night_mean/.test(f.field)) return 'mean';
  return 'distribution';
}

const fromAtlas: AreaFigure[] = ATLAS_FIGURES.map((f) => ({
  field: f.field, block: f.block, unit: f.unit, aggregation: aggregationOf(f), grids: [f.grid], meaning: f.meaning,
  ...(f.categories !== undefined ? { classify: (v: readonly number[]) => (Number.isFinite(v[0]) ? v[0]! : 0), classes: f.categories } : {}),
}));

/** The label band (Excellent … Bad) of each rating and score, as atlas.json's summaries count them. */
const labelBands: AreaFigure[] = ATLAS_FIGURES.filter((f) => f.unit === 'out of 10').map((f) => ({
  field: `${f.field}_label`, block: f.block, unit: 'class', aggregation: 'classes' as const, grids: [f.grid],
  classify: (v: readonly number[]) => (Number.isFinite(v[0]) ? LABELS.indexOf(scoreLabel(v[0]!)) + 1 : 0),
  classes: LABELS.map((name, i) => ({ value: i + 1, name })),
  meaning: `The label band of ${f.field}: Excellent ≥ 9, Very good ≥ 7.5, Good ≥ 6, Moderate ≥ 4, Poor ≥ 2, else Bad.`,
}));

const grid = (field: string): string => ATLAS_FIGURES.find((f) => f.field === field)!.grid;

/** Derived class figures: BelAQI class of the annual means, wind comfort class, UTCI stress categories. */
const derived: AreaFigure[] = [
  {
    field: 'air.belaqi_class', block: 'air', unit: 'class', aggregation: 'classes',
    grids: POLLUTANTS.map((p) => grid(`air.annual_mean_ugm3.${p}`)),
    classify: (v) => Math.max(0, ...POLLUTANTS.map((p, i) => pollutantClass(p, v[i] ?? NaN))),
    classes: BELAQI_LABELS.map((name, i) => ({ value: i + 1, name })),
    meaning: 'BelAQI class of the annual mean concentrations: each pollutant\'s annual mean on the BelAQI bounds (as the map\'s air-no2, air-pm25 and air-pm10 scales colour it), the worst of the three.',
  },
  {
    field: 'wind.comfort_class', block: 'wind', unit: 'class', aggregation: 'classes',
    grids: ['slightly_windy_or_worse', 'windy_or_worse', 'very_windy_or_worse', 'danger'].map((k) => grid(`wind.exceedance_pct.${k}`)),
    classify: (v) => {
      if (v.some((x) => !Number.isFinite(x))) return 0;
      const place = placeWindClasses(v.map((x) => x / 100));
      return place.danger ? 5 : place.comfort;
    },
    classes: WIND_CLASS_LABELS.map((name, i) => ({ value: i + 1, name })),
    meaning: 'Wind comfort class of the place: the highest class whose share of hours (that class or worse) passes the wind score\'s 5 % allowance, else Calm; Danger where the Danger share passes 0.05 % (as the report\'s surroundings map).',
  },
  ...(['max_utci_c', 'mean_utci_c'] as const).map((name): AreaFigure => ({
    field: `thermal.utci_stress_of_${name.replace('_utci_c', '')}`, block: 'thermal', unit: 'class', aggregation: 'classes',
    grids: [grid(`thermal.${name}`)],
    classify: (v) => utciClass(v[0] ?? NaN),
    classes: UTCI_LABELS.map((label, i) => ({ value: i + 1, name: label })),
    meaning: `UTCI stress category (the thermal-utci scale's ten) of thermal.${name}, the ${name.startsWith('max') ? 'hottest hour of the year' : 'annual mean'}.`,
  })),
];

/** Every figure of an area answer, in answer order: the atlas's, then the label bands, then the derived classes. */
export const AREA_FIGURES: readonly AreaFigure[] = [...fromAtlas, ...labelBands, ...derived];


/**
 * What colours the figures of the annual map layers (the city atlas): scale-shaped legends, in the form
 * `GET /v1/scales/{scale}` publishes, published in each annual layer's TileJSON (`figures`) rather than under
 * /v1/scales, whose nine scales stay as the interface defines them. A figure that is the same quantity as a live
 * field (an annual mean concentration in µg/m3, a UTCI in °C, a wind speed in m/s) is coloured by that field's
 * existing scale, read from the figure's property instead (`based_on` names it). Ratings, shares, day counts and the
 * limiting pollutant get legends of their own, from ColorBrewer (colour-vision safe schemes) and Okabe–Ito. Every
 * band is lower-inclusive (`gradient` with flat bands), so a rating of exactly 7.5 is "Very good", as its label says.
 */
import { getScale } from './index.js';
import { NO_DATA_COLOR } from './palette.js';
import type { Scale, ScaleClass, ScaleMetric } from './scale-types.js';

/** A figure's legend: a scale read from the figure's property; `based_on` when it is an existing scale's copy. */
export interface FigureLegend extends Scale {
  readonly based_on?: string;
}

/** What a figure's legend is made for. */
export interface FigureTarget {
  /** The legend's id (`annual-<block>-<property>`). */
  readonly id: string;
  readonly metric: ScaleMetric;
  /** The tile property the legend reads. */
  readonly property: string;
  readonly name: string;
  readonly unit: string;
}

/** ColorBrewer RdYlBu, 6 classes: red (Bad) to blue (Excellent). */
const RATING_COLORS = ['#D73027', '#FC8D59', '#FEE090', '#E0F3F8', '#91BFDB', '#4575B4'] as const;
/** The label floors of ratings and scores (the statistics' score labels), lowest first. */
const RATING_BANDS = [[0, 'Bad'], [2, 'Poor'], [4, 'Moderate'], [6, 'Good'], [7.5, 'Very good'], [9, 'Excellent']] as const;

/** ColorBrewer RdYlBu, 10 classes: red (a low share of good hours) to blue (a high one). */
const GOOD_SHARE_COLORS = ['#A50026', '#D73027', '#F46D43', '#FDAE61', '#FEE090', '#E0F3F8', '#ABD9E9', '#74ADD1', '#4575B4', '#313695'] as const;

/** ColorBrewer YlOrRd, 8 classes: pale (hardly ever) to dark red (often). */
const EXCEEDANCE_COLORS = ['#FFFFCC', '#FFEDA0', '#FED976', '#FEB24C', '#FD8D3C', '#FC4E2A', '#E31A1C', '#B10026'] as const;
/** Lower band edges of exceedance shares, %: wind criteria are read at shares of a few per cent. */
const EXCEEDANCE_EDGES = [0, 0.1, 1, 2, 5, 10, 20, 50] as const;

/** ColorBrewer YlOrRd, 7 classes, for days and nights counted. */
const COUNT_COLORS = ['#FFFFB2', '#FED976', '#FEB24C', '#FD8D3C', '#FC4E2A', '#E31A1C', '#B10026'] as const;
const COUNT_EDGES = [0, 1, 3, 6, 11, 21, 31] as const;

/** Okabe–Ito colours of the limiting pollutant, coded 1 NO2, 2 PM2.5, 3 PM10. */
const POLLUTANT_CODES = [[1, 'NO2', '#0072B2'], [2, 'PM2.5', '#E69F00'], [3, 'PM10', '#009E73']] as const;

const fmt = (v: number) => String(v);

/** Flat lower-inclusive bands from `edges`, the last open-ended, labelled by `label(from, to)`. */
function bands(edges: readonly number[], colors: readonly string[], label: (from: number, to: number | null) => string): ScaleClass[] {
  return edges.map((from, i) => {
    const to = i + 1 < edges.length ? edges[i + 1] : null;
    return { label: label(from, to), color: colors[i], bounds: { from, to } };
  });
}

function legend(target: FigureTarget, parts: Pick<Scale, 'kind' | 'classes' | 'description'> & Partial<Scale>): FigureLegend {
  return {
    id: target.id, metric: target.metric, view: target.id, name: target.name, authority: 'svc-api',
    fields: [target.property], unit: target.unit, no_data_color: NO_DATA_COLOR, ...parts,
  };
}

/** Ratings and scores, 0 to 10, in the six label bands of the statistics. */
export function ratingLegend(target: FigureTarget): FigureLegend {
  return legend(target, {
    kind: 'gradient', interpolate: false, relative: false,
    description: 'Bands of the score labels: Bad below 2, Poor from 2, Moderate from 4, Good from 6, Very good from 7.5, Excellent from 9.',
    classes: RATING_BANDS.map(([from, label], i) => ({ label, color: RATING_COLORS[i], bounds: { from, to: RATING_BANDS[i + 1]?.[0] ?? 10 } })),
  });
}

/** Shares of good (or comfortable, or calm) hours, 0 to 100 %, in ten bands of 10 %; higher is better. */
export function goodShareLegend(target: FigureTarget): FigureLegend {
  return legend(target, {
    kind: 'gradient', interpolate: false, relative: false,
    description: 'Ten bands of 10 %, red (few such hours) to blue (most hours).',
    classes: bands([0, 10, 20, 30, 40, 50, 60, 70, 80, 90], GOOD_SHARE_COLORS, (from, to) => `${from}–${to ?? 100} %`),
  });
}

/** Shares of hours above a wind threshold, %; higher is worse, and a few per cent already matter. */
export function exceedanceLegend(target: FigureTarget): FigureLegend {
  return legend(target, {
    kind: 'gradient', interpolate: false, relative: false,
    description: 'Bands at 0.1, 1, 2, 5, 10, 20 and 50 % of the hours, pale (hardly ever) to dark red (often).',
    classes: bands(EXCEEDANCE_EDGES, EXCEEDANCE_COLORS, (from, to) => (to === null ? `${fmt(from)} % and more` : from === 0 ? `below ${fmt(to)} %` : `${fmt(from)}–${fmt(to)} %`)),
  });
}

/** Days or nights counted in the year. */
export function countLegend(target: FigureTarget): FigureLegend {
  return legend(target, {
    kind: 'gradient', interpolate: false, relative: false,
    description: `Bands of ${target.unit} in the year: none, 1–2, 3–5, 6–10, 11–20, 21–30, 31 and more.`,
    classes: bands(COUNT_EDGES, COUNT_COLORS, (from, to) => (from === 0 ? 'none' : to === null ? `${from} and more` : to - 1 === from ? `${from}` : `${from}–${to - 1}`)),
  });
}

/** The limiting pollutant, coded 1 NO2, 2 PM2.5, 3 PM10. */
export function limitingPollutantLegend(target: FigureTarget): FigureLegend {
  return legend(target, {
    kind: 'classes', unit: '',
    description: 'The pollutant that sets the air score: 1 NO2, 2 PM2.5, 3 PM10.',
    classes: POLLUTANT_CODES.map(([value, label, color]) => ({ value, label, color, bounds: { from: value - 1, to: value } })),
  });
}

/** The existing scale `scaleId`, reading the figure's property instead of its live field. */
export function existingScaleLegend(target: FigureTarget, scaleId: string): FigureLegend {
  const scale = getScale(scaleId);
  if (scale === undefined || scale.fields.length !== 1) throw new Error(`No single-field scale '${scaleId}'.`);
  const { default: _default, ...rest } = scale;
  return { ...rest, id: target.id, view: target.id, name: target.name, fields: [target.property], based_on: scale.id };
}

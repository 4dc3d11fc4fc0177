/**
 * Score ladders and labels of the three blocks. Each ladder is data (anchors or bands) plus one small
 * function, so the kernel can mirror the tables and the tests can check every anchor.
 */
import type { Pollutant } from '../classification/belaqi.js';
import type { Season } from './calendar.js';
import { interpolateAnchors, type Anchor } from './numeric.js';

/** Consumer labels of every block's score, best first. */
export type ScoreLabel = 'Excellent' | 'Very good' | 'Good' | 'Moderate' | 'Poor' | 'Bad';

/** Lowest score for each label, checked in order (docs/statistics.md): ≥ 9, ≥ 7.5, ≥ 6, ≥ 4, ≥ 2, else Bad. */
const LABEL_FLOORS: readonly (readonly [number, ScoreLabel])[] = [
  [9, 'Excellent'], [7.5, 'Very good'], [6, 'Good'], [4, 'Moderate'], [2, 'Poor'],
];

/** Label of a score, judged on the published (rounded to 1 decimal) score so label and number always agree. */
export function scoreLabel(publishedScore: number): ScoreLabel {
  for (const [floor, label] of LABEL_FLOORS) if (publishedScore >= floor) return label;
  return 'Bad';
}

/**
 * WHO 2021 annual-mean ladders (µg/m3 → score): AQG → 10, IT-4 → 8, IT-3 → 6, IT-2 → 4, IT-1 → 2, 2 × IT-1 → 0.
 * NO2 has no IT-4 (WHO 2021 defines IT-1 40, IT-2 30, IT-3 20, AQG 10), so its ladder goes 10 → 10 straight to 20 → 6.
 */
export const WHO_LADDERS: Readonly<Record<Pollutant, readonly Anchor[]>> = Object.freeze({
  no2: [[10, 10], [20, 6], [30, 4], [40, 2], [80, 0]],
  pm25: [[5, 10], [10, 8], [15, 6], [25, 4], [35, 2], [70, 0]],
  pm10: [[15, 10], [20, 8], [30, 6], [50, 4], [70, 2], [140, 0]],
});

/** Subscore 0–10 of one pollutant's annual mean on its WHO ladder: 10 below the AQG, 0 beyond 2 × IT-1. */
export function whoSubscore(pollutant: Pollutant, annualMean: number): number {
  return interpolateAnchors(WHO_LADDERS[pollutant], annualMean);
}

/** Exceedance keys of the wind block, in spec order; index k is threshold k + 1 of the score rule. */
export const WIND_EXCEEDANCE_KEYS = [
  'above_frequent_sitting', 'slightly_windy_or_worse', 'windy_or_worse', 'very_windy_or_worse', 'danger',
] as const;
/** A key of `exceedance_pct`. */
export type WindExceedanceKey = (typeof WIND_EXCEEDANCE_KEYS)[number];

/**
 * Annual allowance of each threshold in basis points of the valid hours (5 % = 500, 0.05 % = 5), so that "exceeds"
 * is an exact integer comparison: count · 10,000 > allowance · hours. Values from docs/statistics.md (Lawson-style 5 %
 * exceedance criteria; NEN 8100 danger at 0.05 %).
 */
export const WIND_ALLOWANCE_BP: readonly number[] = [500, 500, 500, 500, 5];

/** Score bands 10, 8, 6, 4, 2 from best; exceeding threshold k (1-based) excludes band k and every band above it. */
const WIND_BANDS: readonly number[] = [10, 8, 6, 4, 2];

/**
 * Wind score by the exceedance method from the number of hours beyond each threshold (in `WIND_EXCEEDANCE_KEYS`
 * order) out of `hours` valid hours. Exceeding means strictly more than the allowance; exceeding `danger` gives 0.
 */
export function windExceedanceScore(exceedCounts: readonly number[], hours: number): number {
  const exceeds = (k: number): boolean => exceedCounts[k] * 10_000 > WIND_ALLOWANCE_BP[k] * hours;
  if (exceeds(4)) return 0;
  let score = WIND_BANDS[0];
  for (let k = 0; k < 4; k++) if (exceeds(k)) score = Math.min(score, WIND_BANDS[k + 1]);
  return score;
}

/** Worst-moment ladder on the windiest hour's effective speed: `[limit, score]`, first `speed < limit` wins, else 0. */
export const WORST_MOMENT_LADDER: readonly (readonly [number, number])[] = [
  [10, 10], [12, 8], [15, 6], [18, 4], [22, 2],
];

/** Worst-moment score of the windiest hour's effective speed (m/s, full precision): < 10 → 10 … < 22 → 2, else 0. */
export function worstMomentScore(effectiveSpeed: number): number {
  for (const [limit, score] of WORST_MOMENT_LADDER) if (effectiveSpeed < limit) return score;
  return 0;
}

/**
 * Season anchors on the daytime acceptable share (percent → subscore, linear, clamped): winter 10 → 0, 60 → 10;
 * spring and autumn 40 → 0, 90 → 10; summer 60 → 0, 95 → 10.
 */
export const THERMAL_SEASON_ANCHORS: Readonly<Record<Season, readonly Anchor[]>> = Object.freeze({
  winter: [[10, 0], [60, 10]],
  spring: [[40, 0], [90, 10]],
  summer: [[60, 0], [95, 10]],
  autumn: [[40, 0], [90, 10]],
});

/** Subscore 0–10 of a season from its daytime acceptable share in percent (full precision). */
export function seasonSubscore(season: Season, acceptablePct: number): number {
  return interpolateAnchors(THERMAL_SEASON_ANCHORS[season], acceptablePct);
}

/**
 * The hourly pedestrian wind classification, defined once for the statistics, the published scales (their `when`
 * rules) and the kernel parameters: the hour class is the worse of the comfort class from the mean speed Ucomfort
 * (Lawson-style bands 4, 6, 8 m/s) and the gust class from Ugust (10 m/s very windy); 15 m/s, mean or gust, is the
 * safety threshold of NEN 8100 and the Lawson criteria. test/classification pins the limits to the spec's rules
 * (Calm U < 4 and G < 10; Very windy U > 8 or G ≥ 10; Danger U > 15 or G > 15).
 */

/** Speed limits (m/s) behind the wind classes. */
export const WIND_LIMITS_MS = Object.freeze({
  /** Calm below this mean speed (exclusive). */
  calm: 4,
  /** Slightly windy up to and including this mean speed. */
  slightlyWindy: 6,
  /** Windy up to and including this mean speed; above it very windy. */
  windy: 8,
  /** A gust at or above this speed makes the hour very windy. */
  gust: 10,
  /** A mean or gust speed above this is dangerous. */
  danger: 15,
});

/** English labels of the five wind classes, index 0 = class 1. */
export const WIND_CLASS_LABELS = Object.freeze(['Calm', 'Slightly windy', 'Windy', 'Very windy', 'Danger'] as const);
/** An English wind class label. */
export type WindClassLabel = (typeof WIND_CLASS_LABELS)[number];

const L = WIND_LIMITS_MS;

/** Comfort class from Ucomfort (m/s): 1 Calm U < 4; 2 Slightly windy 4 ≤ U ≤ 6; 3 Windy 6 < U ≤ 8; 4 > 8; 5 > 15. */
export function comfortClass(ucomfort: number): number {
  if (ucomfort > L.danger) return 5;
  if (ucomfort > L.windy) return 4;
  if (ucomfort > L.slightlyWindy) return 3;
  if (ucomfort >= L.calm) return 2;
  return 1;
}

/** Gust class from Ugust (m/s): 5 when G > 15, 4 when G ≥ 10, otherwise 1 (the gust raises nothing); NaN → 1. */
export function gustClass(ugust: number): number {
  if (ugust > L.danger) return 5;
  if (ugust >= L.gust) return 4;
  return 1;
}

/** Hourly wind class 1–5: the worse of the comfort class and the gust class; a missing gust (NaN) raises nothing. */
export function windClass(ucomfort: number, ugust: number): number {
  return Math.max(comfortClass(ucomfort), gustClass(ugust));
}

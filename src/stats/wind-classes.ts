/**
 * Hourly pedestrian wind classification (DESIGN §5; thresholds after Lawson / NEN 8100 practice, see
 * reference/domain.md). Applied to the cell-averaged Ucomfort and Ugust of an hour. A missing gust (NaN) contributes
 * nothing, as a missing pollutant does in BelAQI.
 */

/** Comfort class from Ucomfort (m/s): 1 Calm U < 4; 2 Slightly windy 4 ≤ U ≤ 6; 3 Windy 6 < U ≤ 8; 4 > 8; 5 > 15. */
export function comfortClass(ucomfort: number): number {
  if (ucomfort > 15) return 5;
  if (ucomfort > 8) return 4;
  if (ucomfort > 6) return 3;
  if (ucomfort >= 4) return 2;
  return 1;
}

/** Gust class from Ugust (m/s): 5 when G > 15, 4 when G ≥ 10, otherwise 1 (the gust raises nothing); NaN → 1. */
export function gustClass(ugust: number): number {
  if (ugust > 15) return 5;
  if (ugust >= 10) return 4;
  return 1;
}

/** Hourly wind class 1–5: the worse of the comfort class and the gust class (interface spec, wind block). */
export function windClass(ucomfort: number, ugust: number): number {
  return Math.max(comfortClass(ucomfort), gustClass(ugust));
}

/** Gust factor of the effective speed: 0.8 × 10 m/s puts a 10 m/s gust on the very-windy boundary (8 m/s). */
export const GUST_EQUIVALENT_FACTOR = 0.8;

/** Effective speed max(Ucomfort, 0.8 × Ugust), m/s; Ucomfort alone when the gust is missing. */
export function effectiveSpeed(ucomfort: number, ugust: number): number {
  return Number.isNaN(ugust) ? ucomfort : Math.max(ucomfort, GUST_EQUIVALENT_FACTOR * ugust);
}

/** Ucomfort above which an hour exceeds the frequent-sitting criterion, m/s (Lawson, City of London: 2.5 m/s). */
export const FREQUENT_SITTING_MS = 2.5;

/** Worst-moment tolerance: hours whose effective speed is within this of the windiest hour are counted, m/s. */
export const WORST_MOMENT_TOLERANCE_MS = 0.5;

/**
 * What the wind statistics add to the hourly wind classification (src/classification/wind.ts, shared with the scales
 * and the kernel): the effective speed of the worst moment, the frequent-sitting criterion and the worst-moment
 * tolerance (definitions after Lawson / NEN 8100 practice).
 */

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

/**
 * The UTCI classification, defined once for the statistics (comfortable and acceptable bands, strong heat stress), the
 * published `thermal-utci` scale and the kernel parameters: the ten categories of the UTCI assessment scale with
 * exclusive lower and inclusive upper bounds, the lowest starting at −50 °C (interface spec). The bands the scoring
 * uses are spans of these classes, so they cannot disagree with the scale. test/classification pins them to the
 * spec (lowest class from −50, Comfortable 9 to 26, acceptable 0 to 32) and to the published category bounds.
 */

/** Lower bound of the lowest UTCI class, °C (spec: "The lowest class starts at -50"). */
export const UTCI_FLOOR_C = -50;

/** Upper bounds (°C, inclusive) of UTCI classes 1 to 9; above the last is class 10 (extreme heat stress). */
export const UTCI_UPPER_BOUNDS_C = Object.freeze([-40, -27, -13, 0, 9, 26, 32, 38, 46] as const);

/** Labels of the ten classes, cold to hot; class 6 (9 to 26 °C, no thermal stress) is Comfortable. */
export const UTCI_LABELS = Object.freeze([
  'Extreme cold',
  'Very strong cold stress',
  'Strong cold stress',
  'Moderate cold stress',
  'Slight cold stress',
  'Comfortable',
  'Moderate heat stress',
  'Strong heat stress',
  'Very strong heat stress',
  'Extreme heat',
] as const);

/** A band of UTCI values, `above` < UTCI ≤ `upTo` (°C). */
export interface UtciBand {
  readonly above: number;
  readonly upTo: number;
}

/** The span of classes `first`..`last` (1-based, both included) as a band. */
function classSpan(first: number, last: number): UtciBand {
  return Object.freeze({ above: UTCI_UPPER_BOUNDS_C[first - 2], upTo: UTCI_UPPER_BOUNDS_C[last - 1] });
}

/** Comfortable band, class 6 (no thermal stress): 9 < UTCI ≤ 26 °C. */
export const COMFORTABLE_UTCI: UtciBand = classSpan(6, 6);
/** Acceptable band of the thermal score, classes 5–7 (slight cold to moderate heat stress): 0 < UTCI ≤ 32 °C. */
export const ACCEPTABLE_UTCI: UtciBand = classSpan(5, 7);
/** Strong heat stress (class 8 and above) starts above this, °C: 32. */
export const STRONG_HEAT_STRESS_ABOVE_C = UTCI_UPPER_BOUNDS_C[6];

/** Whether a UTCI value lies in a band (exclusive lower, inclusive upper bound). */
export function inBand(band: UtciBand, utci: number): boolean {
  return utci > band.above && utci <= band.upTo;
}

/**
 * UTCI class (1 extreme cold … 10 extreme heat) of a value in °C, exclusive lower and inclusive upper bounds; values at
 * or below the lowest bound (−50) take class 1. 0 for a non-finite value.
 */
export function utciClass(utci: number): number {
  if (!Number.isFinite(utci)) return 0;
  for (let i = 0; i < UTCI_UPPER_BOUNDS_C.length; i++) if (utci <= UTCI_UPPER_BOUNDS_C[i]) return i + 1;
  return UTCI_UPPER_BOUNDS_C.length + 1;
}

/**
 * The BelAQI hourly classification, defined once for the statistics, the published scales and the kernel thresholds:
 * IRCEL-CELINE's index in force since November 2022, restricted to the pollutants the street-level model produces
 * (NO2, PM2.5, PM10; ozone is not modelled). Bounds are inclusive upper bounds in µg/m3 of classes 1 to 9; above the
 * ninth bound is class 10 (interface spec, `air-belaqi` thresholds). test/classification pins them to the spec's table.
 */

/** Pollutant ids in the spec's order (NO2, PM2.5, PM10), also the tie order; per-pollutant arrays follow it. */
export const POLLUTANTS = Object.freeze(['no2', 'pm25', 'pm10'] as const);
/** A pollutant id: `no2`, `pm25` or `pm10`. */
export type Pollutant = (typeof POLLUTANTS)[number];

/** Inclusive upper bounds of classes 1–9 per pollutant, µg/m3 (IRCEL-CELINE BelAQI, Nov 2022). */
export const BELAQI_BOUNDS: Readonly<Record<Pollutant, readonly number[]>> = Object.freeze({
  no2: Object.freeze([10, 15, 20, 30, 40, 45, 50, 60, 75]),
  pm25: Object.freeze([3.5, 7.5, 10, 15, 20, 35, 50, 60, 75]),
  pm10: Object.freeze([10, 20, 35, 45, 60, 80, 95, 110, 140]),
});

/** English BelAQI class labels, index 0 = class 1 (IRCEL legend, BelAir app i18n). */
export const BELAQI_LABELS = Object.freeze([
  'Excellent', 'Very good', 'Good', 'Fairly good', 'Moderate',
  'Poor', 'Very poor', 'Bad', 'Very bad', 'Horrible',
] as const);
/** An English BelAQI class label. */
export type BelaqiLabel = (typeof BELAQI_LABELS)[number];

/**
 * BelAQI class 1–10 of one concentration, or 0 when the value counts as absent: NaN or infinite (missing), NO2 at or
 * below zero (zero means no reading, spec), or a negative particulate value (non-physical; zero is a valid particulate
 * reading). A value equal to a bound stays in the lower class.
 */
export function pollutantClass(pollutant: Pollutant, value: number): number {
  if (!Number.isFinite(value)) return 0;
  if (pollutant === 'no2' ? value <= 0 : value < 0) return 0;
  const bounds = BELAQI_BOUNDS[pollutant];
  let cls = 1;
  while (cls <= bounds.length && value > bounds[cls - 1]) cls++;
  return cls;
}

/**
 * Classification helpers for code that colours or counts values (tiles, reports). They are the shared classifications
 * of src/classification (the ones the statistics and kernels use) with "no reading" as `undefined`, and
 * test/scales/classify.test.ts checks them against the published scale data, so a value never gets one class here and
 * another on a client's map. Missing input is `undefined`, never an exception.
 */
import { POLLUTANTS, pollutantClass, type Pollutant } from '../classification/belaqi.js';
import { utciClass as sharedUtciClass } from '../classification/utci.js';
import { windClass as sharedWindClass } from '../classification/wind.js';
import { POLLUTANT_FIELDS } from './air.js';
import type { ScaleClass, When, WhenTest } from './scale-types.js';

/** A pollutant, named either by id (`no2`) or by its tile property (`C`). */
export type BelaqiField = Pollutant | 'C' | 'C_PM25' | 'C_PM10';

const FIELD_TO_POLLUTANT: ReadonlyMap<string, Pollutant> = new Map([
  ...POLLUTANTS.map((p) => [p, p] as const),
  ...POLLUTANTS.map((p) => [POLLUTANT_FIELDS[p], p] as const),
]);

/**
 * BelAQI class (1..10) of one hourly concentration (µg/m3). Undefined when there is no reading: a non-finite value,
 * NO2 at zero or below (spec: NO2 at zero counts as absent), or a negative particulate value (zero is valid).
 */
export function belaqiClass(field: BelaqiField, value: number): number | undefined {
  const pollutant = FIELD_TO_POLLUTANT.get(field);
  if (pollutant === undefined) return undefined;
  const cls = pollutantClass(pollutant, value);
  return cls === 0 ? undefined : cls;
}

/** Hourly BelAQI index: the worst class over the pollutants that have a reading; undefined when none has. */
export function belaqiIndex(values: Readonly<Partial<Record<Pollutant, number>>>): number | undefined {
  let worst: number | undefined;
  for (const p of POLLUTANTS) {
    const v = values[p];
    const c = v === undefined ? undefined : belaqiClass(p, v);
    if (c !== undefined && (worst === undefined || c > worst)) worst = c;
  }
  return worst;
}

/**
 * Wind comfort class (1 Calm … 5 Danger) of one hour: the worse of the comfort class from the mean speed `u` and the
 * gust class from `g`. Undefined when either speed is not a finite number.
 */
export function windClass(u: number, g: number): number | undefined {
  if (!Number.isFinite(u) || !Number.isFinite(g)) return undefined;
  return sharedWindClass(u, g);
}

/**
 * UTCI class (1 extreme cold … 10 extreme heat) of a value in °C, with exclusive lower and inclusive upper bounds;
 * values at or below the lowest bound (-50) take class 1. Undefined for a non-finite value.
 */
export function utciClass(value: number): number | undefined {
  const cls = sharedUtciClass(value);
  return cls === 0 ? undefined : cls;
}

/** Tile properties of one feature, by name; a missing property is undefined. */
export type FeatureProps = Readonly<Record<string, number | undefined>>;

function testHolds(test: WhenTest, props: FeatureProps): boolean {
  const v = props[test.field];
  if (v === undefined || !Number.isFinite(v)) return false;
  if ('lt' in test) return v < test.lt;
  if ('lte' in test) return v <= test.lte;
  if ('gt' in test) return v > test.gt;
  return v >= test.gte;
}

/** Whether a `when` rule holds for a feature; a test on a missing or non-finite property does not hold. */
export function evaluateWhen(when: When, props: FeatureProps): boolean {
  return 'all' in when ? when.all.every((t) => testHolds(t, props)) : when.any.some((t) => testHolds(t, props));
}

/**
 * The spec's reading of rule-based scales: the highest `value` whose `when` matches, independent of array order.
 * Undefined when no rule matches.
 */
export function classifyByWhen(classes: readonly ScaleClass[], props: FeatureProps): number | undefined {
  let best: number | undefined;
  for (const c of classes) {
    if (c.when === undefined || c.value === undefined || !evaluateWhen(c.when, props)) continue;
    if (best === undefined || c.value > best) best = c.value;
  }
  return best;
}

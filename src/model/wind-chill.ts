import { meanRadiantDelta } from './radiant.js';
import { utciOfHour } from './utci.js';

/**
 * Monthly wind-chill calibration of the coupled winter wind (wind-year.ts). Tying the winter wind to the temperature
 * anomaly calms the cold hours and stirs the mild ones; since wind cools most when it is cold (UTCI), that alone would
 * make every winter month feel milder on average. The calibration gives each month the coupling touches one wind
 * multiplier, so that the month's mean wind chill — UTCI at an open, shaded street cell — is the uncoupled year's:
 * the coupling reorders the weather inside a month without changing how the month feels as a whole.
 *
 * The multiplier of hour t is 1 + s(t) · c(t): s the coupling's seasonal weight, c interpolated linearly between the
 * months' mid-points (no jump at a month boundary). The month values are solved by bisection, sweeping the months
 * until their neighbours' shares settle. Deterministic: no random numbers.
 */

/** What the wind chill depends on, hour by hour. */
export interface ChillInputs {
  readonly hours: number;
  /** Start of hour 0, epoch milliseconds (to find each hour's UTC month). */
  readonly startUtcMs: number;
  readonly ta: Float32Array;
  readonly rh: Float32Array;
  readonly sunElevation: Float32Array;
  readonly directIrradiance: Float32Array;
  readonly diffuseIrradiance: Float32Array;
  readonly cloud: Float32Array;
}

/** 10 m wind of the reference street cell relative to the reference wind (about two thirds at 1.1 m, × 1.5 to 10 m). */
export const CHILL_EXPOSURE = 1;
const HOUR_MS = 3_600_000;
const SWEEPS = 6;
const BISECTIONS = 32;
/** Range of a month's c; the lower end keeps every multiplier positive. */
const C_RANGE: readonly [number, number] = [-0.9, 3];

/** One month the coupling touches: its hours, each hour's chill as a function of the 10 m wind, and its mid-point. */
interface Month {
  readonly hours: readonly number[];
  readonly chill: readonly ((wind10: number) => number)[];
  readonly middle: number;
}

/** The months with at least one hour of positive seasonal weight, in time order. */
function coupledMonths(inputs: ChillInputs, season: Float64Array): Month[] {
  const byMonth = new Map<number, number[]>();
  for (let t = 0; t < inputs.hours; t++) {
    const month = new Date(inputs.startUtcMs + (t + 0.5) * HOUR_MS).getUTCMonth();
    const list = byMonth.get(month);
    if (list) list.push(t);
    else byMonth.set(month, [t]);
  }
  const months: Month[] = [];
  for (const hours of byMonth.values()) {
    if (!hours.some((t) => season[t] > 0)) continue;
    const chill = hours.map((t) => {
      const utci = utciOfHour(inputs.ta[t], inputs.rh[t]);
      const shade = meanRadiantDelta(
        inputs.sunElevation[t], inputs.directIrradiance[t], inputs.diffuseIrradiance[t], 1, 1, inputs.cloud[t], inputs.ta[t],
      );
      return (wind10: number) => utci(CHILL_EXPOSURE * wind10, shade);
    });
    months.push({ hours, chill, middle: (hours[0] + hours[hours.length - 1]) / 2 });
  }
  return months.sort((a, b) => a.middle - b.middle);
}

/** c at hour t: linear between the months' mid-points, constant beyond the first and the last. */
function interpolate(months: readonly Month[], c: Float64Array, t: number): number {
  if (t <= months[0].middle) return c[0];
  for (let i = 1; i < months.length; i++) {
    if (t <= months[i].middle) {
      const f = (t - months[i - 1].middle) / (months[i].middle - months[i - 1].middle);
      return c[i - 1] + (c[i] - c[i - 1]) * f;
    }
  }
  return c[months.length - 1];
}

/**
 * Per-hour wind multipliers (1 outside the coupled season) that give every coupled month of `coupled` the mean wind
 * chill of `reference`. `season` is the coupling's weight per hour (0…1).
 */
export function monthlyChillMultipliers(
  inputs: ChillInputs, season: Float64Array, reference: ArrayLike<number>, coupled: ArrayLike<number>,
): Float64Array {
  const months = coupledMonths(inputs, season);
  const multipliers = new Float64Array(inputs.hours).fill(1);
  if (months.length === 0) return multipliers;
  const meanChill = (month: Month, wind: (t: number, i: number) => number): number =>
    month.hours.reduce((sum, t, i) => sum + month.chill[i](wind(t, i)), 0) / month.hours.length;
  const targets = months.map((month) => meanChill(month, (t) => reference[t]));
  const c = new Float64Array(months.length);
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    months.forEach((month, m) => {
      // c(t) is linear in this month's value: c(t) = base + slope · c[m] for the month's hours.
      const at = (value: number) => {
        const saved = c[m];
        c[m] = value;
        const cs = month.hours.map((t) => interpolate(months, c, t));
        c[m] = saved;
        return cs;
      };
      const c0 = at(0);
      const c1 = at(1);
      const chillAt = (value: number) => meanChill(month, (t, i) =>
        coupled[t] * (1 + season[t] * (c0[i] + (c1[i] - c0[i]) * value)));
      // More wind, colder: the month's chill falls as its c grows.
      let [lo, hi] = C_RANGE;
      for (let k = 0; k < BISECTIONS; k++) {
        const mid = (lo + hi) / 2;
        if (chillAt(mid) > targets[m]) lo = mid;
        else hi = mid;
      }
      c[m] = (lo + hi) / 2;
    });
  }
  for (let t = 0; t < inputs.hours; t++) if (season[t] > 0) multipliers[t] = 1 + season[t] * interpolate(months, c, t);
  return multipliers;
}

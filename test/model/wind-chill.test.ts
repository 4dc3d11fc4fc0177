import { describe, expect, it } from 'vitest';
import { meanRadiantDelta } from '../../src/model/radiant.js';
import { utciOfHour } from '../../src/model/utci.js';
import { CHILL_EXPOSURE, monthlyChillMultipliers, type ChillInputs } from '../../src/model/wind-chill.js';

const HOURS = 8760;
const START = Date.UTC(2023, 0, 1);
/** A plain year: cold winters, mild summers, a daily cycle, night and day. */
const inputs: ChillInputs = {
  hours: HOURS,
  startUtcMs: START,
  ta: Float32Array.from({ length: HOURS }, (_, t) => 10 - 8 * Math.cos((2 * Math.PI * (t / 24 - 20)) / 365) + 3 * Math.sin((2 * Math.PI * t) / 24)),
  rh: new Float32Array(HOURS).fill(80),
  sunElevation: Float32Array.from({ length: HOURS }, (_, t) => 30 * Math.sin((2 * Math.PI * (t - 6)) / 24)),
  directIrradiance: Float32Array.from({ length: HOURS }, (_, t) => Math.max(0, 500 * Math.sin((2 * Math.PI * (t - 6)) / 24))),
  diffuseIrradiance: Float32Array.from({ length: HOURS }, (_, t) => Math.max(0, 100 * Math.sin((2 * Math.PI * (t - 6)) / 24))),
  cloud: new Float32Array(HOURS).fill(0.7),
};
const season = Float64Array.from({ length: HOURS }, (_, t) => Math.max(0, Math.cos((2 * Math.PI * ((t + 0.5) / 24 - 17)) / 365.25)));
const reference = Float64Array.from({ length: HOURS }, (_, t) => 2 + 6 * (((t * 7919) % 97) / 97));
// The winds partly reordered and calmed, in proportion to the seasonal weight: what a coupling does to winter months.
const coupled = Float64Array.from(reference, (u, t) =>
  (1 - 0.25 * season[t]) * ((1 - season[t]) * u + season[t] * reference[(t * 13) % HOURS]));

/** Mean chill of each UTC month: UTCI at the reference shaded street cell. */
function monthlyChill(wind: ArrayLike<number>): number[] {
  const sum = new Array<number>(12).fill(0);
  const n = new Array<number>(12).fill(0);
  for (let t = 0; t < HOURS; t++) {
    const month = new Date(START + (t + 0.5) * 3_600_000).getUTCMonth();
    const shade = meanRadiantDelta(
      inputs.sunElevation[t], inputs.directIrradiance[t], inputs.diffuseIrradiance[t], 1, 1, inputs.cloud[t], inputs.ta[t],
    );
    sum[month] += utciOfHour(inputs.ta[t], inputs.rh[t])(CHILL_EXPOSURE * wind[t], shade);
    n[month]++;
  }
  return sum.map((s, m) => s / n[m]);
}

describe('monthly wind-chill calibration', () => {
  const multipliers = monthlyChillMultipliers(inputs, season, reference, coupled);
  const calibrated = Float64Array.from(coupled, (u, t) => u * multipliers[t]);

  it('gives every month the coupling touches the mean wind chill of the reference winds', () => {
    const before = monthlyChill(reference);
    const after = monthlyChill(calibrated);
    const uncalibrated = monthlyChill(coupled);
    for (const month of [11, 0, 1]) {
      expect(uncalibrated[month] - before[month], `month ${month + 1} differs before`).toBeGreaterThan(0.5);
    }
    for (const month of [0, 1, 2, 3, 9, 10, 11]) {
      expect(Math.abs(after[month] - before[month]), `month ${month + 1}`).toBeLessThan(0.02);
    }
    for (const month of [4, 5, 6, 7, 8]) expect(after[month]).toBe(before[month]);
  });

  it('leaves the hours outside the coupled season alone and changes smoothly from hour to hour', () => {
    for (let t = 0; t < HOURS; t++) {
      if (season[t] === 0) expect(multipliers[t]).toBe(1);
      expect(multipliers[t]).toBeGreaterThan(0);
      if (t > 0) expect(Math.abs(multipliers[t] - multipliers[t - 1])).toBeLessThan(0.01);
    }
  });

  it('changes nothing when the winds already have the reference chill, and is deterministic', () => {
    const same = monthlyChillMultipliers(inputs, season, reference, reference);
    for (const m of same) expect(Math.abs(m - 1)).toBeLessThan(1e-3);
    expect(monthlyChillMultipliers(inputs, season, reference, coupled)).toEqual(multipliers);
  });
});

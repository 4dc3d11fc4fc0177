import { describe, expect, it } from 'vitest';
import { datasetHash, noiseAt, perturbValue, spread, type NoiseKey } from '../../src/model-service/perturbation.js';

const KEY: NoiseKey = { seed: 1, dataset: datasetHash('brussels_extended'), group: 'no2', epochHour: 486_000, leadH: 0 };

function z(key: NoiseKey, x: number, y: number): number {
  return noiseAt(key, Float64Array.of(x), Float64Array.of(y), new Float32Array(1))[0];
}

/** A grid of points over the Brussels zone, 20 m apart. */
function points(): { xs: Float64Array; ys: Float64Array } {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let x = 148_080; x < 149_680; x += 20) for (let y = 169_920; y < 171_120; y += 20) (xs.push(x), ys.push(y));
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys) };
}

describe('perturbation', () => {
  it('is deterministic and depends on seed, dataset, group, hour and lead', () => {
    const base = z(KEY, 148_900, 170_500);
    expect(z(KEY, 148_900, 170_500)).toBe(base);
    for (const change of [{ seed: 2 }, { dataset: datasetHash('belgium_lowres') }, { group: 'pm' as const }, { epochHour: 486_001 }, { leadH: 3 }]) {
      expect(z({ ...KEY, ...change }, 148_900, 170_500)).not.toBe(base);
    }
  });

  it('gives a point the same value alone or within a whole grid (slices and records agree)', () => {
    const { xs, ys } = points();
    const all = noiseAt(KEY, xs, ys, new Float32Array(xs.length));
    for (const i of [0, 17, 1234, xs.length - 1]) expect(all[i]).toBeCloseTo(z(KEY, xs[i], ys[i]), 5);
  });

  it('is smooth in space and standard normal over many hours', () => {
    let sum = 0;
    let sumSq = 0;
    let n = 0;
    for (let h = 0; h < 400; h++) {
      const key = { ...KEY, epochHour: 486_000 + h };
      const a = z(key, 148_900, 170_500);
      expect(Math.abs(z(key, 148_910, 170_500) - a)).toBeLessThan(0.2);
      const { xs, ys } = { xs: Float64Array.of(148_100, 148_700, 149_300), ys: Float64Array.of(170_000, 170_600, 171_100) };
      for (const v of noiseAt(key, xs, ys, new Float32Array(3))) (sum += v, sumSq += v * v, n++);
    }
    const mean = sum / n;
    expect(Math.abs(mean)).toBeLessThan(0.1);
    expect(Math.sqrt(sumSq / n - mean * mean)).toBeGreaterThan(0.85);
    expect(Math.sqrt(sumSq / n - mean * mean)).toBeLessThan(1.15);
  });

  it('grows its spread with lead time', () => {
    for (const group of ['no2', 'pm', 'wind', 'utci'] as const) {
      expect(spread(group, 0)).toBeLessThan(spread(group, 1));
      expect(spread(group, 24)).toBeLessThan(spread(group, 48));
      expect(spread(group, -5)).toBe(spread(group, 0));
    }
  });

  it('scales concentrations and speeds by a mean-preserving factor and shifts UTCI', () => {
    expect(perturbValue('no2', Number.NaN, 1, 0)).toBeNaN();
    expect(perturbValue('no2', 30, 0, 48)).toBeLessThan(30);
    expect(perturbValue('utci', -5, 0, 48)).toBe(-5);
    expect(perturbValue('utci', 10, 1, 0)).toBeCloseTo(10 + spread('utci', 0), 10);
    expect(perturbValue('pm10', 0, 3, 48)).toBe(0);
    let total = 0;
    const draws = 20_000;
    for (let i = 0; i < draws; i++) {
      const u = (i + 0.5) / draws;
      // Evenly spaced quantiles of N(0, 1) (Tukey's lambda approximation): the average is an integral, not a sample.
      const probit = 4.91 * (u ** 0.14 - (1 - u) ** 0.14);
      total += perturbValue('no2', 1, probit, 48);
    }
    expect(total / draws).toBeCloseTo(1, 1);
  });
});

import { describe, expect, it } from 'vitest';
import { ar1, generateSpells, movingAverage, normalCdf, weibullQuantile } from '../../src/model/synoptic.js';
import { createRandom } from '../../src/util/random.js';

describe('distribution helpers', () => {
  it('normalCdf matches standard normal table values', () => {
    expect(normalCdf(0)).toBeCloseTo(0.5, 7);
    expect(normalCdf(1.96)).toBeCloseTo(0.975, 4);
    expect(normalCdf(-1)).toBeCloseTo(0.158655, 5);
    expect(normalCdf(3)).toBeCloseTo(0.99865, 5);
  });

  it('weibullQuantile has median λ (ln 2)^(1/k) and mean λ Γ(1 + 1/k) for k = 2', () => {
    expect(weibullQuantile(0.5, 2, 4)).toBeCloseTo(4 * Math.sqrt(Math.LN2), 10);
    let s = 0;
    const n = 100_000;
    for (let i = 0; i < n; i++) s += weibullQuantile((i + 0.5) / n, 2, 1);
    expect(s / n).toBeCloseTo(Math.sqrt(Math.PI) / 2, 3); // Γ(1.5)
    expect(Number.isFinite(weibullQuantile(1, 2, 1))).toBe(true);
  });
});

describe('ar1', () => {
  it('has unit variance and lag-τ autocorrelation e^−1', () => {
    const x = ar1(createRandom(5), 200_000, 24);
    let s = 0;
    let q = 0;
    let lag = 0;
    for (let i = 0; i < x.length; i++) {
      s += x[i];
      q += x[i] * x[i];
      if (i >= 24) lag += x[i] * x[i - 24];
    }
    expect(Math.abs(s / x.length)).toBeLessThan(0.05);
    expect(Math.abs(q / x.length - 1)).toBeLessThan(0.05);
    expect(lag / (x.length - 24) / (q / x.length)).toBeCloseTo(Math.exp(-1), 1);
  });
});

describe('movingAverage', () => {
  it('averages a centred window, shrinking at the ends', () => {
    expect(Array.from(movingAverage([1, 2, 3, 4, 5], 3))).toEqual([1.5, 2, 3, 4, 4.5]);
  });
});

describe('generateSpells', () => {
  it('places deterministic, bounded spells with winter cold, summer heat and PM build-up', () => {
    const a = generateSpells(createRandom(3), 8760);
    const b = generateSpells(createRandom(3), 8760);
    expect(a.taAnomaly).toEqual(b.taAnomaly);
    let inSpell = 0;
    for (let t = 0; t < 8760; t++) {
      expect(a.strength[t] >= 0 && a.strength[t] <= 1).toBe(true);
      expect(a.pmExcess[t]).toBeGreaterThanOrEqual(0);
      expect(Number.isNaN(a.windFrom[t])).toBe(a.strength[t] === 0);
      if (a.strength[t] === 1) inSpell++;
    }
    expect(inSpell / 24).toBeGreaterThan(15); // at least five spells of three days or more
    expect(Math.min(...a.taAnomaly.subarray(0, 60 * 24))).toBeLessThan(-5); // a January–February cold spell
    expect(Math.max(...a.taAnomaly.subarray(165 * 24, 245 * 24))).toBeGreaterThan(6); // a summer heat wave
    expect(Math.max(...a.pmExcess)).toBeGreaterThan(1.5);
  });
});

import { describe, expect, it } from 'vitest';
import { meanRadiantDelta, projectedAreaFactor } from '../../src/model/radiant.js';
import { irradiance, type Irradiance } from '../../src/model/solar.js';

/** Model irradiance at a sun elevation, day of year and cloud fraction. */
function sky(elevation: number, day: number, cloud: number): Irradiance {
  return irradiance(elevation, day, cloud, { direct: 0, diffuse: 0 });
}

describe('projectedAreaFactor (standing person, Fanger 1970 fit)', () => {
  it('falls from ~0.31 with the sun on the horizon to ~0.08 overhead', () => {
    expect(projectedAreaFactor(0.01)).toBeCloseTo(0.308, 3);
    expect(projectedAreaFactor(90)).toBeGreaterThan(0.07);
    expect(projectedAreaFactor(90)).toBeLessThan(0.09);
    expect(projectedAreaFactor(-5)).toBe(0);
    for (let b = 10; b <= 90; b += 5) expect(projectedAreaFactor(b)).toBeLessThan(projectedAreaFactor(b - 5));
  });
});

describe('meanRadiantDelta', () => {
  it('is 0 to −3 K on a clear night under an open sky and about 0 when overcast or enclosed', () => {
    const clearOpen = meanRadiantDelta(-20, 0, 0, 0, 1, 0, 10);
    expect(clearOpen).toBeLessThan(-1.5);
    expect(clearOpen).toBeGreaterThanOrEqual(-3.5);
    expect(Math.abs(meanRadiantDelta(-20, 0, 0, 0, 1, 1, 10))).toBeLessThan(1);
    expect(meanRadiantDelta(-20, 0, 0, 0, 0.2, 0, 10)).toBeGreaterThan(clearOpen);
    expect(Math.abs(meanRadiantDelta(-20, 0, 0, 0, 1))).toBeLessThan(2); // default night cloud
  });

  it('reaches +25…+35 K in full summer midday sun and stays a few K in shade', () => {
    const s = sky(62, 172, 0.05);
    const sunlit = meanRadiantDelta(62, s.direct, s.diffuse, 0, 1, 0.05, 28);
    expect(sunlit).toBeGreaterThan(25);
    expect(sunlit).toBeLessThan(35);
    const canyonSun = meanRadiantDelta(62, s.direct, s.diffuse, 0, 0.4, 0.05, 28);
    expect(canyonSun).toBeGreaterThan(25);
    const shade = meanRadiantDelta(62, s.direct, s.diffuse, 1, 0.4, 0.05, 28);
    expect(shade).toBeGreaterThan(0);
    expect(shade).toBeLessThan(10);
    expect(sunlit - shade).toBeGreaterThan(20);
  });

  it('infers the cloud from the beam by day when none is given', () => {
    const s = sky(50, 150, 0.3);
    expect(meanRadiantDelta(50, s.direct, s.diffuse, 0, 1, undefined, 20)).toBeCloseTo(
      meanRadiantDelta(50, s.direct, s.diffuse, 0, 1, 0.3, 20),
      0,
    );
  });

  it('grows with sun and beam, shrinks with shade, and treats shade fractions linearly in between', () => {
    const low = sky(20, 60, 0.2);
    const high = sky(55, 172, 0.2);
    expect(meanRadiantDelta(55, high.direct, high.diffuse, 0, 0.6)).toBeGreaterThan(
      meanRadiantDelta(20, low.direct * 0.5, low.diffuse, 0, 0.6),
    );
    const full = meanRadiantDelta(55, high.direct, high.diffuse, 0, 0.6);
    const half = meanRadiantDelta(55, high.direct, high.diffuse, 0.5, 0.6);
    const none = meanRadiantDelta(55, high.direct, high.diffuse, 1, 0.6);
    expect(full).toBeGreaterThan(half);
    expect(half).toBeGreaterThan(none);
    const clamped = meanRadiantDelta(55, high.direct, high.diffuse, 1, 0);
    expect(meanRadiantDelta(55, high.direct, high.diffuse, 2, -1)).toBe(clamped);
  });

  it('ignores irradiance given with the sun below the horizon', () => {
    expect(meanRadiantDelta(-1, 500, 100, 0, 1, 0.5, 10)).toBe(meanRadiantDelta(-1, 0, 0, 0, 1, 0.5, 10));
  });
});

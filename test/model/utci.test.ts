import { describe, expect, it } from 'vitest';
import {
  UTCI_DTMRT_AXIS,
  UTCI_VA_AXIS,
  createUtciTable,
  saturationVapourPressureHpa,
  utci,
} from '../../src/model/utci.js';
import { UTCI_COEFFICIENTS, evaluateReduced, reduceUtciPolynomial } from '../../src/model/utci-coefficients.js';

describe('UTCI polynomial (Bröde et al. 2012)', () => {
  it('has the 210 coefficients of UTCI_approx a0.002', () => {
    expect(UTCI_COEFFICIENTS.length).toBe(210);
  });

  it('matches the polynomial-only check of pythermalcomfort (tests/test_utci.py: _utci_optimized)', () => {
    // Ta 25 and 27 °C, va 1 m/s, Tmrt − Ta 1 K, Pa 1.5 kPa → 24.73 and 26.57 (rounded to 0.01).
    expect(evaluateReduced(reduceUtciPolynomial(25, 1.5), 1, 1)).toBeCloseTo(24.73, 2);
    expect(evaluateReduced(reduceUtciPolynomial(27, 1.5), 1, 1)).toBeCloseTo(26.57, 2);
  });

  it('gives the design check value utci(25, 25, 1.0, 50) ≈ 24.6', () => {
    expect(Math.abs(utci(25, 25, 1.0, 50) - 24.6)).toBeLessThan(0.1);
  });

  // ladybug-tools/ladybug-comfort tests/utci_test.py (unrounded; same ln(T) vapour pressure as the reference Fortran).
  it.each([
    [20, 20, 3, 50, 16.24224],
    [30, 30, 0.5, 90, 35.511294],
    [24, 24, 0.5, 50, 23.8110341], // UTCI collection default: Tmrt = Ta, va 0.5 m/s
  ])('ladybug-comfort: utci(%d, %d, %d, %d) = %d', (ta, tmrt, va, rh, expected) => {
    expect(Math.abs(utci(ta, tmrt, va, rh) - expected)).toBeLessThan(0.005);
  });

  // RUBclim/thermal-comfort tests (rows of the utci.org reference table, UTCI_polynomial column, 0.1 °C): extreme cold,
  // where the high powers of Ta dominate, so a wrong coefficient shows at once.
  it.each([
    [-49.9, -16.7, 8, 78, -75.7],
    [-49.8, -14.6, 4, 77, -63.5],
    [-49.2, -5.6, 8, 100, -73.9],
    [-49, -17.2, 5, 98, -66.1],
  ])('utci.org reference table: Ta %d, Tmrt − Ta %d, va %d, RH %d → %d', (ta, dt, va, rh, expected) => {
    expect(Math.abs(utci(ta, ta + dt, va, rh) - expected)).toBeLessThan(0.06);
  });

  // FedericoTartarini/jsthermalcomfort tests/models/utci.test.js (rounded to 0.1 °C, and computed with ln(T + 1)
  // vapour pressure, hence a 0.1 °C tolerance).
  it.each([
    [25, 27, 1, 50, 25.2],
    [19, 24, 1, 50, 20.0],
    [19, 14, 1, 50, 16.8],
    [27, 22, 1, 50, 25.5],
    [27, 22, 10, 50, 20.0],
    [27, 22, 16, 50, 15.8],
    [30, 27, 1, 50, 29.6],
    [9, 9, 1, 50, 8.7],
  ])('jsthermalcomfort: utci(%d, %d, %d, %d) ≈ %d', (ta, tmrt, va, rh, expected) => {
    expect(Math.abs(utci(ta, tmrt, va, rh) - expected)).toBeLessThanOrEqual(0.1);
  });

  it('uses the Hardy 1998 ITS-90 saturation vapour pressure (6.112 hPa at 0 °C, 23.39 hPa at 20 °C)', () => {
    expect(saturationVapourPressureHpa(0)).toBeCloseTo(6.112, 3);
    expect(saturationVapourPressureHpa(20)).toBeCloseTo(23.393, 2);
  });

  it('is monotone: more radiant load hotter, more wind in the cold colder, more humidity in heat hotter', () => {
    for (let dt = -20; dt < 60; dt += 5) expect(utci(20, 20 + dt + 5, 2, 60)).toBeGreaterThan(utci(20, 20 + dt, 2, 60));
    for (let va = 0.5; va < 16; va += 1) expect(utci(0, 0, va + 1, 80)).toBeLessThan(utci(0, 0, va, 80));
    expect(utci(32, 45, 1, 80)).toBeGreaterThan(utci(32, 45, 1, 30));
  });

  it('clamps inputs to the valid ranges instead of extrapolating', () => {
    expect(utci(20, 20, 0, 50)).toBe(utci(20, 20, 0.5, 50));
    expect(utci(20, 20, 30, 50)).toBe(utci(20, 20, 17, 50));
    expect(utci(20, 120, 2, 50)).toBe(utci(20, 90, 2, 50));
    expect(utci(20, -40, 2, 50)).toBe(utci(20, -10, 2, 50));
    expect(utci(60, 60, 2, 50)).toBe(utci(50, 50, 2, 50));
    expect(utci(20, 20, 2, 140)).toBe(utci(20, 20, 2, 100));
    expect(Number.isFinite(utci(49, 110, 0.5, 100))).toBe(true); // Pa capped at 5 kPa
    expect(Number.isNaN(utci(Number.NaN, 20, 2, 50))).toBe(true);
  });
});

describe('createUtciTable', () => {
  it('has default axes spanning the valid range', () => {
    expect(UTCI_VA_AXIS[0]).toBe(0.5);
    expect(UTCI_VA_AXIS[UTCI_VA_AXIS.length - 1]).toBe(17);
    expect(UTCI_DTMRT_AXIS[0]).toBe(-30);
    expect(UTCI_DTMRT_AXIS[UTCI_DTMRT_AXIS.length - 1]).toBe(70);
  });

  it('matches utci() exactly on grid nodes and within 0.2 °C between them', () => {
    let worst = 0;
    for (const [ta, rh] of [[-15, 90], [0, 85], [12, 70], [25, 50], [33, 35], [38, 60]]) {
      const table = createUtciTable(ta, rh, UTCI_VA_AXIS, UTCI_DTMRT_AXIS);
      expect(table.lookup(2, 10)).toBeCloseTo(utci(ta, ta + 10, 2, rh), 10);
      expect(table.exact(3.3, 17.2)).toBeCloseTo(utci(ta, ta + 17.2, 3.3, rh), 10);
      for (let va = 0.5; va <= 17; va += 0.137) {
        for (let dt = -30; dt <= 70; dt += 0.71) {
          worst = Math.max(worst, Math.abs(table.lookup(va, dt) - table.exact(va, dt)));
        }
      }
    }
    expect(worst).toBeLessThan(0.2);
    expect(worst).toBeLessThan(0.06); // the figure documented in utci.ts
  });

  it('clamps lookups to the axes and propagates NaN', () => {
    const table = createUtciTable(20, 60, UTCI_VA_AXIS, UTCI_DTMRT_AXIS);
    expect(table.lookup(0.1, 10)).toBe(table.lookup(0.5, 10));
    expect(table.lookup(25, 10)).toBe(table.lookup(17, 10));
    expect(table.lookup(3, 95)).toBe(table.lookup(3, 70));
    expect(Number.isNaN(table.lookup(Number.NaN, 0))).toBe(true);
  });

  it('accepts custom increasing axes and rejects others', () => {
    const va = Float64Array.from([0.5, 1, 2, 4, 8, 17]);
    const dt = Float64Array.from([-10, 0, 10, 30, 60]);
    const table = createUtciTable(10, 70, va, dt);
    expect(table.values.length).toBe(30);
    expect(table.lookup(4, 30)).toBeCloseTo(utci(10, 40, 4, 70), 10);
    expect(() => createUtciTable(10, 70, Float64Array.from([1, 1, 2]), dt)).toThrow(RangeError);
  });
});

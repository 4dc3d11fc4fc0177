import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SurroundingsGrid } from '../../../src/compute/compute-types.js';
import { utciRange, UTCI_MIN_SPAN_C } from '../../../src/reports/content/compose/surroundings.js';
import { columnChart, niceAxis } from '../../../src/reports/content/figures/charts.js';
import { clippedPath, mapPanel, scaleBarMetres } from '../../../src/reports/content/figures/map.js';
import { BUILDING, NO_DATA, relativeColor, relativeStops } from '../../../src/reports/content/figures/scale-colors.js';
import { unbreakableUnits } from '../../../src/reports/render/pdf/pdf-writer.js';
import { getScale } from '../../../src/scales/index.js';

describe('chart axes', () => {
  it('span every value and zero on steps of 1, 2, 2.5 or 5 × 10^k', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ min: -40, max: 60, noNaN: true }), { minLength: 1, maxLength: 12 }), (values) => {
        const { min, max, step } = niceAxis(values, 4, false);
        expect(min).toBeLessThanOrEqual(Math.min(0, ...values));
        expect(max).toBeGreaterThanOrEqual(Math.max(0, ...values));
        const mantissa = step / 10 ** Math.floor(Math.log10(step));
        expect([1, 2, 2.5, 5]).toContainEqual(Number(mantissa.toFixed(6)));
        expect((max - min) / step).toBeLessThanOrEqual(10);
      }),
      { seed: 23, numRuns: 300 },
    );
  });

  it('draws negative values below the zero line and leaves a missing value out', () => {
    const svg = columnChart({
      width: 200, height: 100, min: -10, max: 10, step: 5, tick: String, label: 'x',
      categories: [{ label: 'a', bars: [{ value: -5, color: '#000000' }] }, { label: 'b', bars: [{ value: null, color: '#000000' }] }],
    }).markup;
    expect(svg.match(/data-value=/g)).toHaveLength(1);
    const y = Number(/<rect x="[^"]+" y="([^"]+)"[^>]*data-value="-5"/.exec(svg)![1]);
    const zero = Number(/<line x1="26" y1="([^"]+)"[^>]*stroke="#52606D"/.exec(svg)![1]);
    expect(y).toBeCloseTo(zero, 5);
  });
});

describe('map drawing', () => {
  it('clips lines to the panel: every drawn point lies inside it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.double({ min: -30, max: 40, noNaN: true }), fc.double({ min: -30, max: 40, noNaN: true })), {
          minLength: 2, maxLength: 30,
        }),
        (points) => {
          const d = clippedPath(points, 11, 10);
          for (const [, x, y] of d.matchAll(/[ML](-?[\d.]+) (-?[\d.]+)/g)) {
            expect(Number(x)).toBeGreaterThanOrEqual(-0.01);
            expect(Number(x)).toBeLessThanOrEqual(110.01);
            expect(Number(y)).toBeGreaterThanOrEqual(-0.01);
            expect(Number(y)).toBeLessThanOrEqual(110.01);
          }
        },
      ),
      { seed: 5, numRuns: 300 },
    );
    expect(clippedPath([[-5, 5], [15, 5]], 10, 1)).toBe('M0 5L10 5');
    expect(clippedPath([[20, 20], [30, 30]], 10, 1)).toBe('');
  });

  it('picks a scale bar of 1, 2 or 5 × 10^k, at most a quarter of the extent', () => {
    expect(scaleBarMetres(310)).toBe(50);
    expect(scaleBarMetres(55_000)).toBe(10_000);
    expect(scaleBarMetres(74)).toBe(10);
  });

  it('colours buildings, missing values and areas outside the dataset with the scales’ colours', () => {
    const grid: SurroundingsGrid = {
      dataset: 'd', content_version: 'v', attribution: 'a', kind: 'street', resolution_m: 10, cell_m: 10, factor: 1, cells: 3,
      x_min: 0, y_max: 30, location: { x: 1.5, y: 1.5 }, cover: [0, 1, 2, 2, 2, 2, 2, 2, 2], sampled: [4], sampling: 'point',
      layers: {}, chunks_read: 1,
    };
    const svg = mapPanel({
      grid, values: [null, null, null, 1, 1, 1, 1, 1, 1], colorOf: () => '#123456', size: 90, label: 'm', north: 'N',
      distance: (m) => `${m} m`,
    }).markup;
    const pathOf = (color: string) => new RegExp(`<path d="([^"]+)" fill="${color}"`).exec(svg)?.[1];
    // Cells are 30 pt: outside the dataset (0, 0), a building (0, 1), an outdoor cell without a value (0, 2).
    expect(pathOf(NO_DATA)).toBe('M0 0H30V30H0ZM60 0H90V30H60Z');
    expect(pathOf(BUILDING)).toBe('M30 0H60V30H30Z');
    expect(pathOf('#123456')).toBe('M0 30H90V60H0ZM0 60H90V90H0Z');
  });
});

describe('relative UTCI colours', () => {
  it('are the published stop colours at the stops and stay within the gradient elsewhere', () => {
    const scale = getScale('thermal-utci-relative')!;
    for (const stop of relativeStops()) expect(relativeColor(stop.at)).toBe(scale.classes.find((c) => c.bounds?.from === stop.at)!.color);
    expect(relativeColor(-1)).toBe(scale.classes[0].color);
    expect(relativeColor(2)).toBe(scale.classes[scale.classes.length - 1].color);
  });

  it('span the map’s values, widened to the minimum span', () => {
    expect(utciRange([20, 25, null])).toEqual({ min: 20, max: 25 });
    expect(utciRange([22, 22.5])).toEqual({ min: 22.25 - UTCI_MIN_SPAN_C / 2, max: 22.25 + UTCI_MIN_SPAN_C / 2 });
    expect(utciRange([null])).toBeUndefined();
  });
});

describe('PDF text', () => {
  it('keeps units together without changing what is read', () => {
    expect(unbreakableUnits('2,66 m/s et 13 µg/m³, 6,7 / 10')).toBe('2,66 m/\u2060s et 13 µg/\u2060m³, 6,7 / 10');
  });
});

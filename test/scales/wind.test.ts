import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { classifyByWhen, windClass } from '../../src/scales/classify.js';
import { getScale } from '../../src/scales/index.js';
import type { Scale } from '../../src/scales/scale-types.js';

/** The wind rules of docs/statistics.md written out independently: hour class = max(comfort class from U, gust class from G). */
function referenceWindClass(u: number, g: number): number {
  const comfort = u > 15 ? 5 : u > 8 ? 4 : u > 6 ? 3 : u >= 4 ? 2 : 1;
  const gust = g > 15 ? 5 : g >= 10 ? 4 : 1;
  return Math.max(comfort, gust);
}

/** Speeds that hit every boundary exactly, plus ordinary doubles around the range of interest. */
const speed = fc.oneof(
  fc.constantFrom(0, 3.999, 4, 4.001, 6, 6.001, 8, 8.001, 9.999, 10, 10.001, 15, 15.001, 30),
  fc.double({ min: -1, max: 40, noNaN: true }),
  fc.integer({ min: 0, max: 40 }).map((n) => n / 2),
);

const comfortScales = [getScale('wind-nen8100')!, getScale('wind-cvd')!];

function byRules(scale: Scale, u: number, g: number): number | undefined {
  return classifyByWhen(scale.classes, { Ucomfort: u, Ugust: g });
}

describe('wind comfort scales', () => {
  it('publish the spec rules for classes 1, 4 and 5 and the documented rules for 2 and 3', () => {
    const s = getScale('wind-nen8100')!;
    expect(s.classes.map((c) => [c.value, c.label, c.condition])).toEqual([
      [1, 'Calm', 'Ucomfort < 4 and Ugust < 10'],
      [2, 'Slightly windy', '4 <= Ucomfort <= 6 and Ugust < 10'],
      [3, 'Windy', '6 < Ucomfort <= 8 and Ugust < 10'],
      [4, 'Very windy', 'Ucomfort > 8 or Ugust >= 10'],
      [5, 'Danger', 'Ucomfort > 15 or Ugust > 15'],
    ]);
    expect(s.classes[0].when).toEqual({ all: [{ field: 'Ucomfort', lt: 4 }, { field: 'Ugust', lt: 10 }] });
    expect(s.classes[4].when).toEqual({ any: [{ field: 'Ucomfort', gt: 15 }, { field: 'Ugust', gt: 15 }] });
    expect(s.unit).toBe('m/s');
    expect(s.fields).toEqual(['Ucomfort', 'Ugust']);
  });

  it('share classes and rules and differ only in colour', () => {
    const [nen, cvd] = comfortScales;
    const strip = (sc: Scale) => sc.classes.map(({ color: _c, ...rest }) => rest);
    expect(strip(cvd)).toEqual(strip(nen));
    expect(cvd.classes.map((c) => c.color)).not.toEqual(nen.classes.map((c) => c.color));
    expect(new Set(cvd.classes.map((c) => c.color)).size).toBe(5);
    const okabeIto = ['#E69F00', '#56B4E9', '#009E73', '#F0E442', '#0072B2', '#D55E00', '#CC79A7'];
    for (const c of cvd.classes) expect(okabeIto).toContain(c.color);
  });

  it('reproduce the direct classifier under "highest matching value" for any (U, G)', () => {
    fc.assert(
      fc.property(speed, speed, (u, g) => {
        const expected = referenceWindClass(u, g);
        for (const s of comfortScales) expect(byRules(s, u, g)).toBe(expected);
        expect(windClass(u, g)).toBe(expected);
      }),
      { numRuns: 5000, seed: 8100 },
    );
  });

  it('give the same answer whatever the order of the classes', () => {
    const s = comfortScales[0];
    const reversed = [...s.classes].reverse();
    fc.assert(
      fc.property(speed, speed, (u, g) => {
        expect(classifyByWhen(reversed, { Ucomfort: u, Ugust: g })).toBe(byRules(s, u, g));
      }),
      { numRuns: 1000, seed: 42 },
    );
  });

  it('match nothing when a field is missing, and windClass answers undefined for NaN', () => {
    expect(byRules(comfortScales[0], 3, Number.NaN)).toBeUndefined();
    expect(classifyByWhen(comfortScales[0].classes, { Ucomfort: 3 })).toBeUndefined();
    expect(windClass(Number.NaN, 3)).toBeUndefined();
    expect(windClass(3, Number.POSITIVE_INFINITY)).toBeUndefined();
  });
});

describe('wind rainbow scales', () => {
  for (const [id, field, other] of [
    ['wind-mean-rainbow', 'Ucomfort', 'Ugust'],
    ['wind-gust-rainbow', 'Ugust', 'Ucomfort'],
  ] as const) {
    it(`${id}: 30 flat bands of 0.5 m/s from 0, open-ended top, reading ${field} only`, () => {
      const s = getScale(id)!;
      expect(s.kind).toBe('gradient');
      expect(s.interpolate).toBe(false);
      expect(s.relative).toBe(false);
      expect(s.unit).toBe('m/s');
      expect(s.fields).toEqual([field]);
      expect(JSON.stringify(s)).not.toContain(other);
      expect(s.classes).toHaveLength(30);
      s.classes.forEach((c, i) => {
        expect(c.bounds!.from).toBe(i * 0.5);
        expect(c.bounds!.to).toBe(i === 29 ? null : (i + 1) * 0.5);
      });
      expect(s.classes[0].color).toBe('#0000FF');
      expect(s.classes[29].color).toBe('#FF0000');
      expect(new Set(s.classes.map((c) => c.color)).size).toBe(30);
      expect(s.description).toContain('above 15 m/s takes the top colour');
    });
  }

  it('use the same deterministic colours for both rainbows', () => {
    const mean = getScale('wind-mean-rainbow')!.classes.map((c) => c.color);
    const gust = getScale('wind-gust-rainbow')!.classes.map((c) => c.color);
    expect(gust).toEqual(mean);
  });
});

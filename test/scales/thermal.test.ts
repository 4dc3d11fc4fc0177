import { describe, expect, it } from 'vitest';
import { getScale } from '../../src/scales/index.js';

describe('thermal-utci', () => {
  const s = getScale('thermal-utci')!;

  it('has the ten UTCI classes with domain bounds and colours', () => {
    expect(s.unit).toBe('°C');
    expect(s.fields).toEqual(['UTCI']);
    expect(s.classes.map((c) => c.bounds)).toEqual([
      { from: -50, to: -40 },
      { from: -40, to: -27 },
      { from: -27, to: -13 },
      { from: -13, to: 0 },
      { from: 0, to: 9 },
      { from: 9, to: 26 },
      { from: 26, to: 32 },
      { from: 32, to: 38 },
      { from: 38, to: 46 },
      { from: 46, to: null },
    ]);
    expect(s.classes.map((c) => c.color)).toEqual([
      '#0D104B', '#262972', '#3452A4', '#3C65AF', '#37BCED', '#2EB349', '#F38322', '#C31F25', '#7F1416', '#580002',
    ]);
  });

  it('labels the lowest class Extreme cold and the 9 to 26 band Comfortable', () => {
    expect(s.classes[0].label).toBe('Extreme cold');
    const comfortable = s.classes.find((c) => c.label === 'Comfortable')!;
    expect(comfortable.bounds).toEqual({ from: 9, to: 26 });
    expect(comfortable.meaning).toContain('no thermal stress');
    expect(new Set(s.classes.map((c) => c.label)).size).toBe(10);
  });
});

describe('thermal-utci-relative', () => {
  const s = getScale('thermal-utci-relative')!;

  it('is an interpolated relative gradient with the documented fallback range', () => {
    expect(s.kind).toBe('gradient');
    expect(s.interpolate).toBe(true);
    expect(s.relative).toBe(true);
    expect(s.fallback_range).toEqual({ min: -10, max: 40 });
    expect(s.fields).toEqual(['UTCI']);
    expect(s.view).toBe('temperature');
  });

  it('places stops from 0 to 1 in increasing order', () => {
    const from = s.classes.map((c) => c.bounds!.from);
    expect(from[0]).toBe(0);
    expect(from[from.length - 1]).toBe(1);
    for (let i = 1; i < from.length; i++) expect(from[i]).toBeGreaterThan(from[i - 1]);
  });
});

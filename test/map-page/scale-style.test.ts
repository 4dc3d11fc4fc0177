/**
 * The map page's colouring (public/map/scale-style.js) against the service: for every published scale and random
 * feature properties (values on and beside every bound, fields missing, NO2 at zero), the MapLibre expression as
 * MapLibre's own evaluator computes it and the page's `classify` give the same colour, and that colour is the one of
 * the class the service's classification gives (BelAQI index and sub-indices, UTCI, the wind rules); gradient bands are
 * lower-inclusive and relative stops follow the hour's range.
 */
import { expression, latest, type StylePropertySpecification } from '@maplibre/maplibre-gl-style-spec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { belaqiClass, belaqiIndex, classifyByWhen, utciClass, windClass } from '../../src/scales/classify.js';
import { getScale, listScaleSummaries } from '../../src/scales/index.js';
import type { Scale } from '../../src/scales/scale-types.js';
// Plain JavaScript of the page: the test type-check reads its types from the source (allowJs).
import { classify, colorExpression, effectiveRange, legendEntries } from '../../public/map/scale-style.js';

/** The style specification of the property the page sets. */
const FILL_COLOR = latest.paint_fill['fill-color'] as StylePropertySpecification;

/** The colour MapLibre paints a feature with `props` under `expr`, as #RRGGBB. */
function painted(expr: unknown, props: Record<string, number>): string {
  const parsed = expression.createPropertyExpression(expr, 'fill-color', FILL_COLOR);
  if (parsed.result !== 'success') throw new Error(`invalid expression: ${JSON.stringify(parsed.value)}`);
  const c = parsed.value.evaluate({ zoom: 14 } as never, { type: 'Polygon', properties: props } as never) as { r: number; g: number; b: number };
  const hex = (x: number) => Math.round(x * 255).toString(16).padStart(2, '0');
  return `#${hex(c.r)}${hex(c.g)}${hex(c.b)}`.toUpperCase();
}

const SCALES = listScaleSummaries().map((s): Scale => JSON.parse(JSON.stringify(getScale(s.id))));
const scale = (id: string) => SCALES.find((s) => s.id === id)!;

/** Interesting values of a field: every bound of every scale reading it, a hair either side, zero, and anything. */
function fieldValue(scaleOf: Scale, field: string): fc.Arbitrary<number> {
  const bounds: number[] = [0];
  for (const c of scaleOf.classes) {
    if (c.bounds) bounds.push(c.bounds.from, ...(c.bounds.to === null ? [] : [c.bounds.to]));
    for (const t of c.when ? ('all' in c.when ? c.when.all : c.when.any) : []) if (t.field === field) bounds.push(...Object.values(t).filter((v): v is number => typeof v === 'number'));
  }
  for (const entry of Object.values(scaleOf.thresholds ?? {})) if (entry.field === field) bounds.push(...entry.bounds);
  const near = bounds.flatMap((b) => [b, Math.round((b - 0.1) * 10) / 10, Math.round((b + 0.1) * 10) / 10]);
  return fc.oneof(fc.constantFrom(...near), fc.integer({ min: -600, max: 2000 }).map((n) => n / 10));
}

/** Feature properties over the scale's fields, each possibly missing. */
function featureProps(scaleOf: Scale): fc.Arbitrary<Record<string, number>> {
  const entries = scaleOf.fields.map((f) => fc.option(fieldValue(scaleOf, f), { nil: undefined, freq: 5 }).map((v) => [f, v] as const));
  return fc.tuple(...entries).map((pairs) => Object.fromEntries(pairs.filter(([, v]) => v !== undefined)) as Record<string, number>);
}

/** The class value the service's own classification gives, for the class-valued scales. */
function serviceClass(id: string, props: Record<string, number>): number | undefined {
  switch (id) {
    case 'air-belaqi': return belaqiIndex({ no2: props.C, pm25: props.C_PM25, pm10: props.C_PM10 });
    case 'air-no2': return props.C === undefined ? undefined : belaqiClass('C', props.C);
    case 'air-pm25': return props.C_PM25 === undefined ? undefined : belaqiClass('C_PM25', props.C_PM25);
    case 'air-pm10': return props.C_PM10 === undefined ? undefined : belaqiClass('C_PM10', props.C_PM10);
    case 'thermal-utci': return props.UTCI === undefined ? undefined : utciClass(props.UTCI);
    default: {
      const byRules = classifyByWhen(scale(id).classes, props);
      if (props.Ucomfort !== undefined && props.Ugust !== undefined) expect(byRules).toBe(windClass(props.Ucomfort, props.Ugust));
      return byRules;
    }
  }
}

describe('the page colours features as the service classifies them', () => {
  it('covers every published scale', () => {
    expect(SCALES.map((s) => s.id).sort()).toEqual([
      'air-belaqi', 'air-no2', 'air-pm10', 'air-pm25', 'thermal-utci', 'thermal-utci-relative', 'wind-cvd', 'wind-gust-rainbow',
      'wind-mean-rainbow', 'wind-nen8100',
    ]);
  });

  for (const s of SCALES) {
    it(`${s.id}: MapLibre's colour = the page's class = the service's class`, () => {
      const range = s.relative ? { min: -3.2, max: 11.7 } : undefined;
      const expr = colorExpression(s, range);
      fc.assert(fc.property(featureProps(s), (props) => {
        const cls = classify(s, props, range);
        if (!s.interpolate) expect(painted(expr, props), JSON.stringify(props)).toBe(cls.color.toUpperCase());
        if (s.kind === 'classes') {
          const value = serviceClass(s.id, props);
          expect(cls.value, JSON.stringify(props)).toBe(value);
          if (value === undefined) expect(cls.color).toBe(s.no_data_color);
        }
      }), { seed: 20261124, numRuns: 400 });
    });
  }

  it('paints flat gradient bands lower-inclusive and above the top with the top colour', () => {
    const rainbow = scale('wind-mean-rainbow');
    const expr = colorExpression(rainbow);
    expect(painted(expr, { Ucomfort: 0 })).toBe(rainbow.classes[0].color);
    expect(painted(expr, { Ucomfort: 0.5 })).toBe(rainbow.classes[1].color);
    expect(painted(expr, { Ucomfort: 0.49 })).toBe(rainbow.classes[0].color);
    expect(painted(expr, { Ucomfort: 40 })).toBe(rainbow.classes.at(-1)!.color);
    expect(painted(expr, { Ugust: 3 })).toBe(rainbow.no_data_color);
  });

  it('maps relative stops onto the hour\'s range, or the fallback range without one', () => {
    const relative = scale('thermal-utci-relative');
    const range = { min: 2, max: 12 };
    expect(painted(colorExpression(relative, range), { UTCI: 2 })).toBe(relative.classes[0].color);
    expect(painted(colorExpression(relative, range), { UTCI: 12 })).toBe(relative.classes.at(-1)!.color);
    expect(painted(colorExpression(relative, range), { UTCI: 7 })).toBe(relative.classes.find((c) => c.bounds?.from === 0.5)!.color);
    expect(painted(colorExpression(relative, range), { UTCI: -30 })).toBe(relative.classes[0].color);
    expect(effectiveRange(relative, undefined)).toEqual(relative.fallback_range);
    expect(painted(colorExpression(relative, undefined), { UTCI: 40 })).toBe(relative.classes.at(-1)!.color);
    expect(classify(relative, { UTCI: 7 }, range).position).toBeCloseTo(0.5, 9);
  });

  it('lists the legend as the scale publishes it: classes in order, then the no-data colour', () => {
    for (const s of SCALES) {
      expect(legendEntries(s).map((e: { color: string }) => e.color)).toEqual([...s.classes.map((c) => c.color), s.no_data_color]);
    }
  });
});

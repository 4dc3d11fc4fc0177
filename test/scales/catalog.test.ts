import { describe, expect, it } from 'vitest';
import {
  SCALES,
  SCALE_IDS,
  VIEWS,
  getScale,
  listScaleSummaries,
  listViews,
} from '../../src/scales/index.js';
import { SCALE_METRICS, WHEN_OPS } from '../../src/scales/scale-types.js';

const SPEC_SCALE_IDS = [
  'wind-nen8100',
  'wind-cvd',
  'wind-mean-rainbow',
  'wind-gust-rainbow',
  'air-belaqi',
  'air-no2',
  'air-pm25',
  'air-pm10',
  'thermal-utci',
];

describe('scale catalogue', () => {
  it('holds the nine spec scales plus thermal-utci-relative, in SCALE_IDS order', () => {
    expect(SCALES.map((s) => s.id)).toEqual([...SCALE_IDS]);
    expect(SCALE_IDS.slice(0, 9)).toEqual(SPEC_SCALE_IDS);
    expect(SCALE_IDS[9]).toBe('thermal-utci-relative');
  });

  it('finds scales by id and answers undefined for unknown ids', () => {
    for (const id of SCALE_IDS) expect(getScale(id)?.id).toBe(id);
    expect(getScale('wind-lawson')).toBeUndefined();
    expect(getScale('')).toBeUndefined();
    expect(getScale('toString')).toBeUndefined();
  });

  it('is deeply frozen', () => {
    const scale = getScale('air-belaqi')!;
    expect(Object.isFrozen(SCALES)).toBe(true);
    expect(Object.isFrozen(scale.classes[0])).toBe(true);
    expect(Object.isFrozen(scale.thresholds!.no2.bounds)).toBe(true);
    expect(Object.isFrozen(VIEWS[0].field_labels)).toBe(true);
  });

  it('gives every scale the required fields and well-formed classes', () => {
    for (const s of SCALES) {
      expect(SCALE_METRICS).toContain(s.metric);
      expect(['classes', 'gradient']).toContain(s.kind);
      expect(s.name.length).toBeGreaterThan(0);
      expect(s.authority.length).toBeGreaterThan(0);
      expect(s.description.length).toBeGreaterThan(0);
      expect(s.fields.length).toBeGreaterThan(0);
      expect(s.classes.length).toBeGreaterThan(0);
      expect(s.no_data_color).toMatch(/^#[0-9A-F]{6}$/);
      for (const c of s.classes) {
        expect(c.color).toMatch(/^#[0-9A-F]{6}$/);
        expect(c.label.length).toBeGreaterThan(0);
        expect(c.color).not.toBe(s.no_data_color);
      }
      if (s.kind === 'classes') {
        expect(s.interpolate).toBeUndefined();
        expect(s.relative).toBeUndefined();
        expect(s.classes.map((c) => c.value)).toEqual(s.classes.map((_, i) => i + 1));
      } else {
        expect(typeof s.interpolate).toBe('boolean');
        expect(typeof s.relative).toBe('boolean');
        for (const c of s.classes) expect(c.value).toBeUndefined();
      }
      expect(s.fallback_range !== undefined).toBe(s.relative === true);
      expect(s.thresholds !== undefined).toBe(s.id === 'air-belaqi');
      expect(s.unit === undefined).toBe(s.id === 'air-belaqi');
    }
  });

  it('keeps every when rule to exactly one key and each test to exactly one operator', () => {
    for (const s of SCALES) {
      for (const c of s.classes) {
        if (c.when === undefined) continue;
        expect(Object.keys(c.when)).toHaveLength(1);
        const tests = 'all' in c.when ? c.when.all : c.when.any;
        for (const t of tests) {
          const ops = Object.keys(t).filter((k) => k !== 'field');
          expect(ops).toHaveLength(1);
          expect(WHEN_OPS).toContain(ops[0]);
          expect(s.fields).toContain(t.field);
        }
      }
    }
  });

  it('orders value-based bounds contiguously with only the last class open-ended', () => {
    for (const s of SCALES) {
      if (s.classes[0].bounds === undefined) continue;
      s.classes.forEach((c, i) => {
        const next = s.classes[i + 1];
        if (next === undefined) expect(c.bounds!.to).toBeNull();
        else expect(c.bounds!.to).toBe(next.bounds!.from);
      });
    }
  });
});

describe('views', () => {
  it('matches the spec table for wind and docs/scales.md for air and thermal', () => {
    const shape = VIEWS.map((v) => [v.metric, v.id, v.fields.join('+'), v.scales.join(','), v.default_scale]);
    expect(shape).toEqual([
      ['wind', 'comfort-safety', 'Ucomfort+Ugust', 'wind-nen8100,wind-cvd', 'wind-nen8100'],
      ['wind', 'mean', 'Ucomfort', 'wind-mean-rainbow', 'wind-mean-rainbow'],
      ['wind', 'gust', 'Ugust', 'wind-gust-rainbow', 'wind-gust-rainbow'],
      ['air', 'index', 'C+C_PM25+C_PM10', 'air-belaqi', 'air-belaqi'],
      ['air', 'no2', 'C', 'air-no2', 'air-no2'],
      ['air', 'pm25', 'C_PM25', 'air-pm25', 'air-pm25'],
      ['air', 'pm10', 'C_PM10', 'air-pm10', 'air-pm10'],
      ['thermal', 'stress', 'UTCI', 'thermal-utci', 'thermal-utci'],
      ['thermal', 'temperature', 'UTCI', 'thermal-utci-relative', 'thermal-utci-relative'],
    ]);
  });

  it('has exactly one default view per metric: comfort-safety, index, stress', () => {
    const defaults = VIEWS.filter((v) => v.default === true).map((v) => `${v.metric}/${v.id}`);
    expect(defaults).toEqual(['wind/comfort-safety', 'air/index', 'thermal/stress']);
    for (const v of VIEWS) if (v.default !== true) expect('default' in v).toBe(false);
  });

  it('links each view to scales that colour it, with default true only on the default scale', () => {
    for (const v of VIEWS) {
      expect(v.scales).toContain(v.default_scale);
      for (const id of v.scales) {
        const s = getScale(id)!;
        expect(s.view).toBe(v.id);
        expect(s.metric).toBe(v.metric);
        for (const f of s.fields) expect(v.fields).toContain(f);
        expect(s.default === true).toBe(id === v.default_scale);
        if (s.default !== true) expect('default' in s).toBe(false);
      }
    }
    const claimed = VIEWS.flatMap((v) => v.scales);
    expect([...claimed].sort()).toEqual([...SCALE_IDS].sort());
  });

  it('labels fields as the spec table "Map layers and tile fields" does', () => {
    const labels = Object.assign({}, ...VIEWS.map((v) => v.field_labels));
    expect(labels).toEqual({
      Ucomfort: 'Wind',
      Ugust: 'Gust',
      C: 'NO2',
      C_PM25: 'PM2.5',
      C_PM10: 'PM10',
      UTCI: 'Temperature UTCI',
    });
    for (const v of VIEWS) expect(Object.keys(v.field_labels!)).toEqual(v.fields);
  });

  it('filters by metric', () => {
    expect(listViews().length).toBe(9);
    expect(listViews('air').map((v) => v.id)).toEqual(['index', 'no2', 'pm25', 'pm10']);
    expect(listViews('thermal').map((v) => v.id)).toEqual(['stress', 'temperature']);
  });
});

describe('scale summaries', () => {
  it('carry only ScaleSummary fields', () => {
    const allowed = ['id', 'metric', 'view', 'name', 'authority', 'kind', 'default'];
    for (const s of listScaleSummaries()) for (const k of Object.keys(s)) expect(allowed).toContain(k);
    expect(listScaleSummaries('wind')[1]).toEqual({
      id: 'wind-cvd',
      metric: 'wind',
      view: 'comfort-safety',
      name: 'Wind comfort and safety (colour-vision safe)',
      authority: getScale('wind-cvd')!.authority,
      kind: 'classes',
    });
    expect(listScaleSummaries('wind')[0].default).toBe(true);
  });

  it('filter by metric and keep catalogue order', () => {
    expect(listScaleSummaries().map((s) => s.id)).toEqual([...SCALE_IDS]);
    expect(listScaleSummaries('air').map((s) => s.id)).toEqual(['air-belaqi', 'air-no2', 'air-pm25', 'air-pm10']);
    expect(listScaleSummaries('thermal').map((s) => s.kind)).toEqual(['classes', 'gradient']);
  });

  it('serialise to the same JSON on every call (stable ETag input)', () => {
    expect(JSON.stringify(listScaleSummaries())).toBe(JSON.stringify(listScaleSummaries()));
    expect(JSON.stringify(SCALES)).toBe(JSON.stringify(JSON.parse(JSON.stringify(SCALES))));
  });
});

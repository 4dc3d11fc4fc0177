/**
 * A dataset's provenance from its attributes: the stand-in labelled as synthetic with its model, version and seed; a
 * partial import still labelled stand-in, naming the import; every array imported over the whole grid no longer a
 * stand-in; another model labelled by its own words; a dataset recording no model said so; ill-typed attributes
 * refused.
 */
import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { checkAttrs, failValidation } from '../../src/store/spec-check.js';
import { checkProvenanceAttrs, provenanceOf, type DatasetImport } from '../../src/store/provenance.js';
import { smallSpec } from './helpers.js';

const STAND_IN = {
  model: 'svc-api stand-in city model', model_kind: 'stand-in', model_version: '4', model_seed: 42,
  source: 'svc-api stand-in city model: a deterministic seeded generator (synthetic data)',
};
const base = (extra: object) => ({ ...smallSpec().attrs, ...extra });
const imported = (array: string, whole_grid: boolean, source = `${array}.tif`): DatasetImport =>
  ({ array, source, imported_utc: '2026-11-28T10:00:00Z', whole_grid });

describe('provenanceOf', () => {
  it('labels the stand-in as synthetic data, with its model, version and seed', () => {
    const p = provenanceOf(base(STAND_IN));
    expect(p).toMatchObject({
      model: STAND_IN.model, model_kind: 'stand-in', model_version: '4', seed: 42, stand_in: true, imports: [],
      content_version: 'v1', generated_utc: '2024-01-01T00:00:00Z',
    });
    expect(p.label).toBe('Synthetic data, not a simulation or measurements of the city: svc-api stand-in city model (version 4, seed 42).');
  });

  it('keeps a partly imported stand-in a stand-in, naming what was imported', () => {
    const p = provenanceOf(base({ ...STAND_IN, imports: [imported('no2', true, 'VITO run 2024'), imported('outdoor', false)] }));
    expect(p.stand_in).toBe(true);
    expect(p.label).toMatch(/^Synthetic data, .*seed 42\); imported since: no2 \(whole grid, from 'VITO run 2024'\), outdoor \(part of the grid, from 'outdoor.tif'\)\.$/);
  });

  it('no longer calls a dataset a stand-in once every array it holds was imported over the whole grid', () => {
    const all = ['no2', 'ucomfort', 'outdoor', 'building_height'].map((a) => imported(a, true, 'PALM-4U 2024'));
    const p = provenanceOf(base({ ...STAND_IN, imports: all }));
    expect(p.stand_in).toBe(false);
    expect(p.label).not.toMatch(/Synthetic/);
    expect(p.label).toMatch(/^Imported data: no2 \(whole grid, from 'PALM-4U 2024'\), .*; grid laid out by svc-api stand-in city model/);
    // One array short of the whole: still partly the stand-in's.
    expect(provenanceOf(base({ ...STAND_IN, imports: all.slice(1) })).stand_in).toBe(true);
    expect(provenanceOf(base({ ...STAND_IN, imports: [...all.slice(1), imported('no2', false)] })).stand_in).toBe(true);
  });

  it('labels another model by its own attributes, never as a stand-in', () => {
    const p = provenanceOf(base({ model: 'PALM-4U', model_kind: 'simulation', model_version: '7.0' }));
    expect(p).toMatchObject({ stand_in: false, seed: null, source: null, label: 'Model: PALM-4U (version 7.0), simulation.' });
    expect(provenanceOf(base({ source: 'Urban climate run by VITO' })).label).toBe('Model: Urban climate run by VITO.');
  });

  it('says when a dataset records no model, keeping its attribution', () => {
    const p = provenanceOf(base({ attribution: 'Stand-in city model of svc-api (synthetic data)' }));
    expect(p).toMatchObject({ model: null, model_kind: null, stand_in: false });
    expect(p.label).toBe('Stand-in city model of svc-api (synthetic data) (no model, version or seed recorded in the dataset)');
  });
});

describe('provenance attributes', () => {
  it('pass through the attribute check, and nothing else is added', () => {
    const attrs = checkAttrs(base({ ...STAND_IN, imports: [imported('no2', false)] }), failValidation);
    expect(attrs).toMatchObject({ ...STAND_IN, imports: [imported('no2', false)] });
    expect(checkAttrs(base({}), failValidation)).not.toHaveProperty('model');
  });

  it.each([
    [{ model: 3 }, /'model' must be a string/],
    [{ model_seed: 1.5 }, /'model_seed' must be an integer/],
    [{ imports: [{ array: 'no2' }] }, /'imports' must be a list/],
    [{ imports: 'no2' }, /'imports' must be a list/],
  ])('refuses %j', (attrs, message) => {
    expect(() => checkProvenanceAttrs(attrs as Record<string, unknown>, failValidation, 'attrs')).toThrow(ValidationError);
    expect(() => checkProvenanceAttrs(attrs as Record<string, unknown>, failValidation, 'attrs')).toThrow(message);
  });
});

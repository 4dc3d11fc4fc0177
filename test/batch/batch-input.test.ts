import { describe, expect, it } from 'vitest';
import { readCsvBatch, readJsonBatch, readMetrics } from '../../src/batch/batch-input.js';
import { parseCsv } from '../../src/batch/csv-table.js';
import { ValidationError } from '../../src/errors.js';

const RULE = { maxLocations: 5, overAdvice: 'Use a job.' };
const read = (body: unknown) => readJsonBatch(body, RULE);
const refusal = (body: unknown) => {
  try {
    read(body);
  } catch (err) {
    expect(err).toBeInstanceOf(ValidationError);
    return (err as Error).message;
  }
  throw new Error('not refused');
};

describe('readJsonBatch', () => {
  it('checks each location on its own: bad ones carry their reason, good ones their fields', () => {
    const { entries } = read({
      locations: [
        { id: 'ok', lat: 50.85, lon: '4.35', radius: '25' },
        { id: 'nan', lat: Number.NaN, lon: 4 },
        { id: 'inf', lat: 'Infinity', lon: 4 },
        { id: 'hex', lat: '0x32', lon: 4 },
        { id: 'range', lat: 91, lon: 4 },
      ],
    });
    expect(entries[0]).toEqual({ id: 'ok', location: { id: 'ok', lat: 50.85, lon: 4.35, radius: 25 } });
    expect(entries.slice(1).map((e) => e.error?.message)).toEqual([
      "'lat' must be a finite number.",
      "'lat' must be a decimal number; got 'Infinity'.",
      "'lat' must be a decimal number; got '0x32'.",
      "'lat' must be between -90 and 90; got 91.",
    ]);
  });

  it('refuses per location: unknown fields, both forms, one coordinate, a control character, a wrong type', () => {
    const { entries } = read({
      locations: [
        { id: 'a', lat: 50, lon: 4, extra: 1 },
        { id: 'b', address: 'x', lat: 50, lon: 4 },
        { id: 'c', lat: 50 },
        { id: 'd', address: 'Rue\u0007 1' },
        { id: 'e', lat: [50], lon: 4 },
      ],
    });
    expect(entries.map((e) => e.error?.message.slice(0, 24))).toEqual([
      "Unknown field 'extra'; a",
      'Give either address or l',
      'Give lat and lon togethe',
      "'address' must be text o",
      "'lat' must be a decimal ",
    ]);
  });

  it('refuses the whole batch: not an object, no list, too many (with the advice), no id, duplicate ids named', () => {
    expect(refusal(null)).toContain("'locations' array");
    expect(refusal({ locations: {} })).toContain("'locations' array");
    expect(refusal({ locations: [], other: 1 })).toContain("Unknown field 'other'");
    expect(refusal({ locations: [] })).toContain('at least one');
    expect(refusal({ locations: Array.from({ length: 6 }, (_, i) => ({ id: i })) })).toBe('A batch holds at most 5 locations; this one has 6. Use a job.');
    expect(refusal({ locations: [{ id: 'a', lat: 1, lon: 1 }, { lat: 1, lon: 1 }, { id: '', lat: 1, lon: 1 }] })).toContain('#2, #3');
    expect(refusal({ locations: [{ id: 'x' }, { id: 'y' }, { id: 'x' }, { id: 'y' }] })).toContain("repeated: 'x', 'y'");
    expect(refusal({ locations: [{ id: 'a'.repeat(65) }] })).toContain('missing or malformed at #1');
  });

  it('reads metrics as text or a list, and refuses anything else', () => {
    expect(readMetrics('air,wind')).toEqual(['air', 'wind']);
    expect(readMetrics(['thermal'])).toEqual(['thermal']);
    expect(readMetrics(undefined)).toBeUndefined();
    for (const bad of ['', 'noise', ['air', 3], {}, ['air', 'wind', 'thermal', 'air']]) expect(() => readMetrics(bad)).toThrow(ValidationError);
  });
});

describe('readCsvBatch', () => {
  const table = (text: string) => parseCsv(text, { maxRows: 10, maxColumns: 8, maxRowChars: 200 });

  it('takes the columns in any order and letter case; an empty cell is an absent field', () => {
    const { entries } = readCsvBatch(table('Address,ID,LAT,lon\n,a,50.85,4.35\n"Grand-Place 1, Bruxelles",b,,\n'), ['air'], RULE);
    expect(entries).toEqual([
      { id: 'a', location: { id: 'a', lat: 50.85, lon: 4.35 } },
      { id: 'b', location: { id: 'b', address: 'Grand-Place 1, Bruxelles' } },
    ]);
  });

  it('refuses unknown or repeated columns and a header without id', () => {
    expect(() => readCsvBatch(table('id,lat,lon,colour\na,1,1,red\n'), undefined, RULE)).toThrow("Unknown CSV column 'colour'");
    expect(() => readCsvBatch(table('lat,lon\n1,1\n'), undefined, RULE)).toThrow("needs an 'id' column");
    expect(() => readCsvBatch(table('id,lat,LAT\na,1,1\n'), undefined, RULE)).toThrow('named twice');
  });
});

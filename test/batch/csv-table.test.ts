import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/batch/csv-table.js';
import { csvLine } from '../../src/batch/csv-write.js';
import { ValidationError } from '../../src/errors.js';

const LIMITS = { maxRows: 100, maxColumns: 8, maxRowChars: 200 };
const rows = (text: string) => parseCsv(text, LIMITS).rows.map((r) => r.fields);

describe('parseCsv', () => {
  it('reads a header and rows with CRLF, LF and CR line ends mixed, a BOM, and no final line end', () => {
    const table = parseCsv('\ufeffid,lat,lon\r\na,50.8,4.3\nb,50.9,4.4\rc,51,4.5', LIMITS);
    expect(table.header).toEqual(['id', 'lat', 'lon']);
    expect(table.rows).toEqual([
      { line: 2, fields: ['a', '50.8', '4.3'] },
      { line: 3, fields: ['b', '50.9', '4.4'] },
      { line: 4, fields: ['c', '51', '4.5'] },
    ]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks, and skips blank lines', () => {
    const text = 'id,address\r\n\r\n"x,1","Rue ""Neuve"" 1,\r\nBruxelles"\n\ny,""\n';
    const table = parseCsv(text, LIMITS);
    expect(table.rows.map((r) => r.fields)).toEqual([['x,1', 'Rue "Neuve" 1,\r\nBruxelles'], ['y', '']]);
    expect(table.rows[1]!.line).toBe(6);
  });

  it.each([
    ['id,lat\na,"50.8', 'line 2: a quoted field is not closed'],
    ['id,lat\na,5"0\n', 'line 2: a quote inside an unquoted field'],
    ['id,lat\na,"50"x\n', 'line 2: text follows a closing quote'],
    ['id,lat\na,1,2\n', 'line 2: 3 fields where the header has 2'],
    ['id,lat\n\n\nb\n', 'line 4: 1 fields where the header has 2'],
    ['', 'empty'],
    ['\ufeff\r\n\r\n', 'empty'],
  ])('refuses %j naming the fault', (text, message) => {
    expect(() => parseCsv(text, LIMITS)).toThrow(ValidationError);
    expect(() => parseCsv(text, LIMITS)).toThrow(message);
  });

  it('stops at the bounds: rows, columns and row length', () => {
    const many = `id\n${'a\n'.repeat(101)}`;
    expect(() => parseCsv(many, LIMITS)).toThrow('more than 100 data rows');
    expect(() => parseCsv(`${'c,'.repeat(20)}c\n`, LIMITS)).toThrow('more than 8 columns');
    expect(() => parseCsv(`id\n${'x'.repeat(300)}\n`, LIMITS)).toThrow('longer than 200 characters');
    // A quote never closed: refused at the row-length bound, not after reading the whole body.
    expect(() => parseCsv(`id\n"${'x'.repeat(10_000)}`, LIMITS)).toThrow('longer than 200 characters');
  });

  it('reads back whatever the writer writes (property)', () => {
    const field = fc.string({ maxLength: 12 }).filter((s) => !/^[=+@\t\r-]/.test(s));
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 2, maxLength: 2 }), { minLength: 1, maxLength: 5 }), (records) => {
        const text = csvLine(['a', 'b']) + records.map((r) => csvLine(r)).join('');
        expect(rows(text)).toEqual(records);
      }),
      { numRuns: 300, seed: 28 },
    );
  });
});

import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { decimalNumberCheck, isDecimalNumber } from '../../src/api/decimal-numbers.js';
import { HistoricalQuerySchema } from '../../src/api/schemas/historical.js';

describe('isDecimalNumber', () => {
  it('accepts decimal notation: sign, digits, a decimal point, an exponent', () => {
    for (const text of ['0', '-0', '12', '+12', '-0.5', '.5', '5.', '1e3', '2.5E-2', '007', '1e-400']) expect(isDecimalNumber(text), text).toBe(true);
  });

  it('refuses other bases, words, blanks, separators and values beyond the double range', () => {
    for (const text of ['', ' ', ' 1', '1 ', '0x32', '0b1', '0o7', 'Infinity', '-Infinity', 'NaN', '1e309', '1_0', '1,5', '١', '.', 'e5', '1e', '+-1', '5m']) {
      expect(isDecimalNumber(text), text).toBe(false);
    }
  });
});

describe('decimalNumberCheck', () => {
  it('checks every numeric parameter of a query schema and names it', () => {
    const check = decimalNumberCheck(HistoricalQuerySchema)!;
    expect(check({ lat: '50.8', lon: '4.3', radius: '25', address: '0x32', metrics: 'air' })).toBeUndefined();
    expect(check({ radius: '0x32' })).toMatchObject({ instancePath: '/radius', message: 'must be a decimal number' });
    expect(check({ lat: 'Infinity' })).toMatchObject({ instancePath: '/lat' });
    expect(check(null)).toBeUndefined();
  });

  it('reaches nested objects, arrays, records and one-element arrays', () => {
    const check = decimalNumberCheck(
      Type.Object({
        n: Type.Optional(Type.Integer()),
        inner: Type.Optional(Type.Object({ x: Type.Number() })),
        list: Type.Optional(Type.Array(Type.Number())),
        byName: Type.Optional(Type.Record(Type.String(), Type.Number())),
      }),
    )!;
    expect(check({ n: ['0x1'] })).toMatchObject({ instancePath: '/n', message: 'must be an integer in decimal notation' });
    expect(check({ inner: { x: '1e999' } })).toMatchObject({ instancePath: '/inner/x' });
    expect(check({ list: [1, 2, Infinity] })).toMatchObject({ instancePath: '/list/2', message: 'must be a finite number' });
    expect(check({ byName: { 'a/b': true } })).toMatchObject({ instancePath: '/byName/a~1b' });
    expect(check({ n: 3, inner: { x: 1.5 }, list: ['2', 3], byName: { a: '-1e3' } })).toBeUndefined();
  });

  it('lets through what the schema admits besides numbers: null, strings, booleans', () => {
    const check = decimalNumberCheck(
      Type.Object({ a: Type.Union([Type.Number(), Type.Null()]), b: Type.Union([Type.Number(), Type.String()]), c: Type.Number() }),
    )!;
    expect(check({ a: null, b: '0x10', c: 1 })).toBeUndefined();
    expect(check({ a: '0x10' })).toMatchObject({ instancePath: '/a' });
    expect(check({ c: null })).toMatchObject({ instancePath: '/c' });
    expect(check({ c: false })).toMatchObject({ instancePath: '/c' });
  });

  it('is absent for schemas that admit no number', () => {
    expect(decimalNumberCheck(Type.Object({ q: Type.String() }))).toBeUndefined();
    expect(decimalNumberCheck(undefined)).toBeUndefined();
  });
});

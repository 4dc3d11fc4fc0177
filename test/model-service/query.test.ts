import { describe, expect, it } from 'vitest';
import { parseRecordsQuery, QueryError } from '../../src/model-service/query.js';

describe('parseRecordsQuery', () => {
  it('refuses an unknown parameter, quoting its name escaped and shortened', () => {
    const name = `<script>${'x'.repeat(200)}`;
    const attempt = () => parseRecordsQuery(new URLSearchParams({ lat: '50', lon: '4', [name]: '1' }), true);
    expect(attempt).toThrow(QueryError);
    expect(attempt).toThrow(/^Query parameter '\\u003cscript\\u003ex+…' is not accepted/);
  });

  it('refuses numbers in any notation but decimal', () => {
    for (const lat of ['0x32', 'Infinity', '1e999', ' 50']) {
      expect(() => parseRecordsQuery(new URLSearchParams({ lat, lon: '4' }), false)).toThrow("'lat' must be a decimal number");
    }
  });
});

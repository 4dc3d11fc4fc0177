/**
 * The heap-size estimates against their arithmetic and against heap growth measured after garbage collection (within
 * a factor: V8's layout is counted, not timed).
 */
import { describe, expect, it } from 'vitest';
import { flatString, jsonValueBytes, stringBytes, typedArrayBytes, unpooledCopy } from '../../src/util/heap-size.js';
import { heapGrowth } from '../helpers/heap-growth.js';

const N = 2_000;

/** Text of about `chars` characters made of many pieces (a rope until flattened), distinct for each `i`. */
function builtInPieces(i: number, chars: number): string {
  let text = `${i}:`;
  while (text.length < chars) text += `"k${text.length % 97}":${(i * 31 + text.length) % 1000},`;
  return text;
}

describe('stringBytes', () => {
  it('is a 16-byte header and the characters, one byte each for Latin-1, two otherwise, rounded up to 8', () => {
    expect(stringBytes('')).toBe(16);
    expect(stringBytes('abcdefgh')).toBe(24);
    expect(stringBytes('abcdefghi')).toBe(32);
    expect(stringBytes('µg/m³ é')).toBe(24); // Latin-1 still
    expect(stringBytes('€')).toBe(24); // two bytes, rounded up
  });

  it('matches the heap flat strings take, and flatString makes a string built in pieces cost no more', () => {
    const kept: string[] = [];
    const flat = heapGrowth(() => {
      for (let i = 0; i < N; i++) kept.push(flatString(builtInPieces(i, 700)));
    });
    const counted = kept.reduce((sum, text) => sum + stringBytes(text), 0) + 8 * N; // + the array's slots
    expect(flat / counted).toBeGreaterThan(0.85);
    expect(flat / counted).toBeLessThan(1.15);
  });
});

describe('jsonValueBytes', () => {
  it('counts headers, slots, heap numbers and strings; small integers live in their slot', () => {
    expect(jsonValueBytes(7)).toBe(0);
    expect(jsonValueBytes(0.5)).toBe(16);
    expect(jsonValueBytes({ a: 1, b: 'x' })).toBe(24 + 8 + 8 + 24);
    expect(jsonValueBytes([0.5, 1.5])).toBe(32 + 16); // numbers only: unboxed
    expect(jsonValueBytes([{}, 'ab'])).toBe(32 + 16 + 24 + 24);
  });

  it('is within 25 % of the heap a parsed JSON answer takes', () => {
    const kept: unknown[] = [];
    const text = (i: number) => JSON.stringify({
      dataset: 'brussels_extended', issued: `2026-01-01T${String(i % 24).padStart(2, '0')}:00:00Z`,
      records: Array.from({ length: 6 }, (_, h) => ({
        hour: `2026-01-01T${String(h).padStart(2, '0')}:00`, c: (i + h) / 10 + 0.05, c_pm25: 3.25 + h, c_o3: null, utci: i % 40, extra: [h, 0.5],
      })),
    });
    const texts = Array.from({ length: N }, (_, i) => text(i));
    const grown = heapGrowth(() => {
      for (const t of texts) kept.push(JSON.parse(t));
    });
    const counted = kept.reduce<number>((sum, value) => sum + jsonValueBytes(value), 0) + 8 * N;
    expect(grown / counted).toBeGreaterThan(0.75);
    expect(grown / counted).toBeLessThan(1.25);
  });
});

describe('typedArrayBytes and unpooledCopy', () => {
  it('charge a view its whole buffer: a small Buffer from the pool holds a shared slab', () => {
    const pooled = Buffer.from('small');
    expect(typedArrayBytes(pooled)).toBe(pooled.buffer.byteLength + 200);
    expect(pooled.buffer.byteLength).toBeGreaterThan(pooled.byteLength);
    const own = unpooledCopy('small');
    expect(own.buffer.byteLength).toBe(5);
    expect(own.toString()).toBe('small');
    expect(unpooledCopy(new Uint8Array([1, 2, 3]))).toEqual(Buffer.from([1, 2, 3]));
  });

  it('match the memory that buffers of their own take, measured', () => {
    const kept: Buffer[] = [];
    const grown = heapGrowth(() => {
      for (let i = 0; i < N; i++) kept.push(unpooledCopy(builtInPieces(i, 2_000)));
    });
    const counted = kept.reduce((sum, b) => sum + typedArrayBytes(b), 0) + 8 * N;
    expect(grown / counted).toBeGreaterThan(0.75);
    expect(grown / counted).toBeLessThan(1.25);
  });
});

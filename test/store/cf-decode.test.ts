import { describe, expect, it } from 'vitest';
import { CfDecoder, cfDecode, cfDecodeReference, loadCfDecodeKernel } from '../../src/store/cf-decode.js';
import { shuffleBytes, unshuffleBytes } from '../../src/store/codec-shuffle.js';
import { FIELD_ENCODINGS, type CfEncoding } from '../../src/store/dataset-types.js';
import { reserveMemory, scratchBase } from '../../src/store/store-kernel.js';

function rawBlock(n: number, fill: number, seed: number): Int16Array {
  const out = new Int16Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    out[i] = i % 11 === 3 ? fill : (s >>> 16) - 32768;
  }
  out[0] = -32768;
  if (n > 1) out[n - 1] = 32767;
  return out;
}

/** Equality of float32 arrays, every NaN equal to every NaN; reports the first mismatch (one assertion, fast). */
function expectSameFloats(actual: Float32Array, expected: Float32Array): void {
  expect(actual.length).toBe(expected.length);
  let mismatch = -1;
  for (let i = 0; i < expected.length && mismatch < 0; i++) {
    const same = Number.isNaN(expected[i]) ? Number.isNaN(actual[i]) : actual[i] === expected[i];
    if (!same) mismatch = i;
  }
  expect(mismatch < 0 ? 'all equal' : `index ${mismatch}: ${actual[mismatch]} vs ${expected[mismatch]}`).toBe('all equal');
}

const ENCODINGS: CfEncoding[] = [
  FIELD_ENCODINGS.no2,
  FIELD_ENCODINGS.utci,
  { scale_factor: 0.05, add_offset: 273.15, _FillValue: -9999, units: 'K', long_name: 'offset and custom fill' },
  { scale_factor: 1, add_offset: 0, _FillValue: 32767, units: '1', long_name: 'identity' },
];

describe('CF decode kernel', () => {
  for (const variant of ['simd', 'scalar'] as const) {
    it(`${variant} variant matches the TypeScript reference for all lengths 0..40 and odd large lengths`, () => {
      const decoder = new CfDecoder(loadCfDecodeKernel(variant));
      for (const enc of ENCODINGS) {
        for (const n of [...Array.from({ length: 41 }, (_, i) => i), 1001, 65_537]) {
          const raw = rawBlock(n, enc._FillValue, n + 7);
          expectSameFloats(decoder.decode(raw, enc), cfDecodeReference(raw, enc));
        }
      }
    });
  }

  it('streams inputs longer than one memory block, and decodes subarray views', () => {
    const raw = rawBlock((1 << 20) * 2 + 13, -32768, 99);
    expectSameFloats(cfDecode(raw, FIELD_ENCODINGS.no2), cfDecodeReference(raw, FIELD_ENCODINGS.no2));
    const view = raw.subarray(5, 5 + 777);
    expectSameFloats(cfDecode(view, FIELD_ENCODINGS.ugust), cfDecodeReference(view, FIELD_ENCODINGS.ugust));
  });

  it('turns exactly the fill values into NaN', () => {
    const out = cfDecode(new Int16Array([-32768, 0, 10, -32768, 25, -32767, 7, 8, -32768]), FIELD_ENCODINGS.no2);
    expect(Array.from(out, Number.isNaN)).toEqual([true, false, false, true, false, false, false, false, true]);
    expect(out[2]).toBe(Math.fround(Math.fround(10 * Math.fround(0.1))));
  });

  it('writes into a caller buffer and checks its length and the encoding', () => {
    const out = new Float32Array(3);
    expect(cfDecode(new Int16Array([1, 2, 3]), FIELD_ENCODINGS.ucomfort, out)).toBe(out);
    expect(() => cfDecode(new Int16Array(4), FIELD_ENCODINGS.no2, out)).toThrow(/output length 3 differs/);
    expect(() => cfDecode(new Int16Array(2), { ...FIELD_ENCODINGS.no2, _FillValue: 40000 })).toThrow(/not an int16/);
    expect(() => cfDecode(new Int16Array(2), { ...FIELD_ENCODINGS.no2, scale_factor: Number.NaN })).toThrow(/finite/);
  });
});

describe('unshuffle kernel', () => {
  for (const variant of ['simd', 'scalar'] as const) {
    it(`${variant} variant matches the TypeScript unshuffle for lengths around its block sizes`, () => {
      const kernel = loadCfDecodeKernel(variant);
      for (const n of [0, 1, 3, 4, 5, 15, 16, 17, 31, 32, 33, 1000, 70_081]) {
        const values = Int16Array.from({ length: n }, (_, i) => ((i * 7919) % 65536) - 32768);
        const planes = shuffleBytes(new Uint8Array(values.buffer), 2);
        const src = scratchBase(kernel);
        const dst = src + 2 * n + 16;
        reserveMemory(kernel, dst + 2 * n);
        new Uint8Array(kernel.memory.buffer).set(planes, src);
        kernel.unshuffle_i16(src, dst, n);
        const out = new Uint8Array(kernel.memory.buffer, dst, 2 * n);
        expect(Buffer.from(out).equals(Buffer.from(unshuffleBytes(planes, 2)))).toBe(true);
        expect(Buffer.from(out).equals(Buffer.from(values.buffer))).toBe(true);
      }
    });
  }
});

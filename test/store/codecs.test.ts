import { describe, expect, it } from 'vitest';
import { shuffleBytes, unshuffleBytes } from '../../src/store/codec-shuffle.js';
import { zstdCompress, zstdDecompress } from '../../src/store/codec-zstd.js';
import { zstdUnshuffle, zstdUnshuffle16 } from '../../src/store/codec-zstd-shuffle.js';
import { createChunkCodec, directChunkCodec, loadCodec } from '../../src/store/codecs.js';
import { fusedChain } from '../../src/store/zarrita-codecs.js';
import { expectSameArray } from '../helpers/same-array.js';

/** Byte-loop reference of the numcodecs shuffle filter. */
function referenceShuffle(bytes: Uint8Array, size: number): Uint8Array {
  const count = Math.floor(bytes.length / size);
  const out = bytes.slice();
  for (let i = 0; i < count; i++) for (let b = 0; b < size; b++) out[b * count + i] = bytes[i * size + b];
  return out;
}

function pseudoBytes(n: number, seed: number): Uint8Array {
  const out = new Uint8Array(n);
  let s = seed;
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

describe('shuffle filter', () => {
  it('matches the numcodecs byte layout on the word path, the unaligned path and odd tails', () => {
    for (const [n, size] of [[4000, 2], [4002, 2], [4001, 2], [24, 2], [4004, 4], [999, 4], [7, 1], [0, 2]] as const) {
      const bytes = pseudoBytes(n, n + size);
      const shuffled = shuffleBytes(bytes, size);
      expect(shuffled).toEqual(referenceShuffle(bytes, size));
      expect(unshuffleBytes(shuffled, size)).toEqual(bytes);
    }
  });

  it('handles views at odd offsets', () => {
    const base = pseudoBytes(4010, 3);
    const view = base.subarray(2, 4002);
    const shuffled = shuffleBytes(view, 2);
    expect(shuffled).toEqual(referenceShuffle(view, 2));
    const shuffledView = new Uint8Array(4001);
    shuffledView.set(shuffled, 1);
    expect(unshuffleBytes(shuffledView.subarray(1), 2)).toEqual(view);
  });
});

describe('native zstd', () => {
  it('round-trips, and rejects truncated frames', () => {
    const bytes = pseudoBytes(100_000, 9).map((b) => b & 0x0f);
    const frame = zstdCompress(bytes, 3);
    expect(frame.length).toBeLessThan(bytes.length);
    expectSameArray(zstdDecompress(frame), bytes, 'decompressed');
    expect(() => zstdDecompress(frame.subarray(0, frame.length - 10))).toThrow();
  });

  it('decodes frames written by the numcodecs WebAssembly zstd and vice versa', async () => {
    const Zstd = (await import('numcodecs/zstd')).default;
    const wasm = Zstd.fromConfig({ id: 'zstd', level: 5 });
    const bytes = pseudoBytes(50_000, 1).map((b) => b & 0x07);
    expectSameArray(zstdDecompress(await wasm.encode(bytes)), bytes, 'native decode of a WebAssembly frame');
    expectSameArray(new Uint8Array(await wasm.decode(zstdCompress(bytes, 5))), bytes, 'WebAssembly decode of a native frame');
  });
});

describe('fused zstd + unshuffle decode', () => {
  it('equals decompress-then-unshuffle for every length around the SIMD block and odd sizes', () => {
    for (const n of [0, 2, 30, 32, 34, 62, 64, 66, 1000, 1001, 70_080, 1_121_280]) {
      const bytes = pseudoBytes(n, n).map((b) => b & 0x3f);
      const frame = zstdCompress(shuffleBytes(bytes, 2), 3);
      expectSameArray(zstdUnshuffle16(frame), unshuffleBytes(zstdDecompress(frame), 2), `fused, ${n} bytes`);
      expectSameArray(zstdUnshuffle16(frame), bytes, `fused against the original, ${n} bytes`);
    }
    expect(() => zstdUnshuffle16(zstdCompress(new Uint8Array(4096), 3).subarray(0, 8))).toThrow();
  });

  it('decodes other element sizes through reused scratch memory as decompress-then-unshuffle does', async () => {
    for (const size of [3, 4, 8]) {
      for (const n of [0, 5, 4096, 4099, 131_072, 131_075]) {
        const bytes = pseudoBytes(n, n + size).map((b) => b & 0x3f);
        const frame = zstdCompress(shuffleBytes(bytes, size), 3);
        // Twice: the second decode reuses the scratch the first one grew.
        for (let k = 0; k < 2; k++) expectSameArray(zstdUnshuffle(frame, size), bytes, `${size}-byte elements, ${n} bytes`);
      }
    }
    // Through the chunk codec of a float32 grid (shuffle of 4 feeding zstd), and into a buffer of its own.
    const codec = await createChunkCodec({ filters: [{ id: 'shuffle', elementsize: 4 }], compressor: { id: 'zstd', level: -3 } }, 4);
    const values = Float32Array.from({ length: 4096 }, (_, i) => (i % 7 === 0 ? Number.NaN : i / 10));
    const decoded = await codec.decode(await codec.encode(new Uint8Array(values.buffer)));
    expect(decoded.byteOffset).toBe(0);
    expect(decoded.buffer.byteLength).toBe(decoded.byteLength);
    expectSameArray(new Float32Array(decoded.buffer), values, 'float32 grid chunk');
    expect(() => zstdUnshuffle(frameOf(4096).subarray(0, 8), 4)).toThrow();
  });

  it('applies only where a 2-byte shuffle feeds zstd directly', () => {
    const shuffle = (configuration: Record<string, unknown>) => ({ name: 'numcodecs.shuffle', configuration });
    const zstd = { name: 'numcodecs.zstd', configuration: { level: 3 } };
    expect(fusedChain({ dataType: 'int16', codecs: [shuffle({ elementsize: 2 }), zstd] })).toBe(true);
    expect(fusedChain({ dataType: 'int16', codecs: [shuffle({}), zstd] })).toBe(true);
    expect(fusedChain({ dataType: 'float32', codecs: [shuffle({}), zstd] })).toBe(false);
    expect(fusedChain({ dataType: 'float32', codecs: [shuffle({ elementsize: 4 }), zstd] })).toBe(false);
    expect(fusedChain({ dataType: 'int16', codecs: [zstd] })).toBe(false);
    expect(fusedChain({ dataType: 'int16', codecs: [shuffle({}), { name: 'bytes', configuration: { endian: 'big' } }, zstd] })).toBe(false);
    expect(fusedChain({ dataType: 'int16', codecs: [zstd, shuffle({})] })).toBe(false);
    expect(fusedChain(undefined)).toBe(false);
  });
});

describe('codec registry', () => {
  it('applies filters before the compressor and undoes them in reverse', async () => {
    const codec = await createChunkCodec({ filters: [{ id: 'shuffle', elementsize: 2 }], compressor: { id: 'zstd', level: 1 } }, 2);
    const bytes = pseudoBytes(8192, 5);
    const encoded = await codec.encode(bytes);
    expect(zstdDecompress(encoded)).toEqual(shuffleBytes(bytes, 2));
    expect(await codec.decode(encoded)).toEqual(bytes);
  });

  it('round-trips blosc', async () => {
    const codec = await createChunkCodec({ filters: null, compressor: { id: 'blosc', cname: 'lz4', clevel: 5, shuffle: 1 } }, 2);
    const bytes = pseudoBytes(8192, 6);
    expect(new Uint8Array(await codec.decode(await codec.encode(bytes)))).toEqual(bytes);
  });

  it('rejects unknown ids and bad parameters', async () => {
    await expect(loadCodec({ id: 'lzma' }, 2)).rejects.toMatchObject({ code: 'validation_error' });
    await expect(loadCodec({ id: 'zstd', level: 99 }, 2)).rejects.toThrow(/level must be an integer in -50..22/);
    await expect(loadCodec({ id: 'blosc', cname: 'snappy' }, 2)).rejects.toThrow(/unsupported cname/);
  });
});

describe('int16 delta filter', () => {
  /** numpy's int16 `diff` with the first value kept, as numcodecs' Delta encodes. */
  function referenceDelta(values: Int16Array): Int16Array {
    return Int16Array.from(values, (v, i) => v - (i === 0 ? 0 : values[i - 1]));
  }

  it('encodes as numcodecs does (wrapping at 16 bits) and decodes back, in the generic chain and straight into kernel memory', async () => {
    const codec = await createChunkCodec({ filters: [{ id: 'delta', dtype: '<i2' }, { id: 'shuffle', elementsize: 2 }], compressor: { id: 'zstd', level: 3 } }, 2);
    const { loadStatsKernel } = await import('../../src/compute/kernels/stats-kernel.js');
    const { buildCalendar } = await import('../../src/stats/calendar.js');
    for (const hours of [1, 3, 24, 257]) {
      for (const cells of [1, 7, 16, 64]) {
        const values = Int16Array.from(pseudoBytes(hours * cells, hours * 100 + cells), (b, i) => (b * 257 + i * 9973) & 0xffff ? ((b << 8) | (i & 0xff)) - 32768 : 32767);
        const bytes = new Uint8Array(values.buffer);
        const encoded = await codec.encode(bytes);
        expect(new Int16Array(unshuffleBytes(zstdDecompress(encoded), 2).buffer)).toEqual(referenceDelta(values));
        expect(new Int16Array((await codec.decode(encoded)).buffer)).toEqual(values);
        for (const simd of [true, false]) {
          const kernel = await loadStatsKernel({ simd });
          kernel.begin(hours, ['no2'], { no2: { scale_factor: 0.1, add_offset: 0, _FillValue: -32768, units: '', long_name: '' } }, buildCalendar(2023, hours, 'UTC'));
          kernel.loadShuffledChunk('no2', cells, encoded, 'delta-shuffle');
          expect(Int16Array.from(kernel.chunkView('no2', cells))).toEqual(values);
        }
      }
    }
  });

  it('is accepted only over int16', async () => {
    await expect(loadCodec({ id: 'delta', dtype: '<i4' }, 4)).rejects.toThrow(/only dtype <i2/);
    await expect(loadCodec({ id: 'delta', dtype: '<i2' }, 4)).rejects.toThrow(/only dtype <i2/);
    expect(directChunkCodec({ filters: [{ id: 'delta', dtype: '<i2' }, { id: 'shuffle', elementsize: 2 }], compressor: { id: 'zstd', level: 3 } })).toBe('delta-shuffle');
    expect(directChunkCodec({ filters: [{ id: 'shuffle', elementsize: 2 }], compressor: { id: 'zstd', level: 3 } })).toBe('shuffle');
    expect(directChunkCodec({ filters: [{ id: 'delta', dtype: '<i2' }], compressor: { id: 'zstd', level: 3 } })).toBeUndefined();
  });
});

/** A zstd frame of `n` zero bytes. */
function frameOf(n: number): Uint8Array {
  return zstdCompress(new Uint8Array(n), 3);
}

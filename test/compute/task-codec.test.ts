import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { COMPRESS_ABOVE, decodeTaskData, encodeTaskData } from '../../src/compute/tasks/task-codec.js';
import { DatasetError } from '../../src/errors.js';

describe('task payload encoding', () => {
  it('round-trips JSON data with typed arrays and ArrayBuffers anywhere inside, bytes exact (NaN kept in arrays)', () => {
    const grid = new Float32Array([1.5, Number.NaN, -0, 3e38]);
    const shared = new Float32Array(new SharedArrayBuffer(8));
    shared[1] = 7;
    const value = {
      kind: 'finalize', dataset: 'x', n: null, list: [1, 'a', { deep: new Int16Array([-3, 4]) }],
      records: [new Uint32Array([1, 2, 3]).buffer, new ArrayBuffer(0)], grids: { g: grid }, shared,
      odd: new Uint8Array([9, 8, 7]).subarray(1),
    };
    const back = decodeTaskData<typeof value>(encodeTaskData(value));
    expect(back.kind).toBe('finalize');
    expect(back.n).toBeNull();
    expect(back.list[2]).toEqual({ deep: new Int16Array([-3, 4]) });
    expect(new Uint32Array(back.records[0]!)).toEqual(new Uint32Array([1, 2, 3]));
    expect(back.records[1]!.byteLength).toBe(0);
    expect(new Uint8Array(back.grids.g.buffer)).toEqual(new Uint8Array(grid.buffer));
    expect(back.shared).toBeInstanceOf(Float32Array);
    expect(back.shared.buffer).toBeInstanceOf(ArrayBuffer);
    expect(Array.from(back.shared)).toEqual([0, 7]);
    expect(back.odd).toEqual(new Uint8Array([8, 7]));
  });

  it('round-trips any JSON value and any set of typed arrays (property)', () => {
    const arrays = fc.oneof(
      fc.float32Array({ maxLength: 40 }), fc.int16Array({ maxLength: 40 }), fc.uint32Array({ maxLength: 40 }),
      fc.float64Array({ maxLength: 20 }), fc.uint8Array({ maxLength: 60 }),
    );
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(arrays, { maxLength: 5 }), (json, list) => {
        const back = decodeTaskData<{ json: unknown; list: ArrayBufferView[] }>(encodeTaskData({ json, list }));
        expect(back.json).toEqual(JSON.parse(JSON.stringify(json)));
        expect(back.list.length).toBe(list.length);
        list.forEach((a, i) => {
          expect(back.list[i]!.constructor).toBe(a.constructor);
          expect(new Uint8Array(back.list[i]!.buffer)).toEqual(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
        });
      }),
      { seed: 1201, numRuns: 200 },
    );
  });

  it('compresses large bodies of sparse counters below the size they have raw, and decodes them exactly', () => {
    const records = new Uint32Array(300_000); // 1.2 MB: an accumulation of about a year of hours
    for (let i = 0; i < records.length; i += 97) records[i] = i;
    const bytes = encodeTaskData({ records: records.buffer });
    expect(records.byteLength).toBeGreaterThan(COMPRESS_ABOVE);
    expect(bytes.byteLength).toBeLessThan(1024 * 1024 / 4);
    expect(new Uint32Array(decodeTaskData<{ records: ArrayBuffer }>(bytes).records)).toEqual(records);
  });

  it('sends a large body raw when told not to compress (parts compressed already), and decodes it exactly', () => {
    const records = new Uint32Array(300_000);
    for (let i = 0; i < records.length; i += 97) records[i] = i;
    const bytes = encodeTaskData({ records: records.buffer }, { compress: false });
    expect(bytes[4]).toBe(0);
    expect(bytes.byteLength).toBeGreaterThan(records.byteLength);
    expect(new Uint32Array(decodeTaskData<{ records: ArrayBuffer }>(bytes).records)).toEqual(records);
  });

  it('keeps incompressible bodies raw', () => {
    const noise = new Uint8Array(COMPRESS_ABOVE * 2);
    let x = 12345;
    for (let i = 0; i < noise.length; i++) noise[i] = (x = (Math.imul(x, 1103515245) + 12345) >>> 0) >>> 24;
    const bytes = encodeTaskData({ noise });
    expect(bytes[4]).toBe(0);
    expect(decodeTaskData<{ noise: Uint8Array }>(bytes).noise).toEqual(noise);
  });

  it('refuses what it did not make, truncated messages and other format versions with a clear error', () => {
    const good = encodeTaskData({ a: new Float32Array([1, 2, 3]) });
    expect(() => decodeTaskData(Buffer.from('{"kind":"stats"}'))).toThrow(DatasetError);
    expect(() => decodeTaskData(good.subarray(0, good.length - 8))).toThrow(/truncated/);
    const other = good.slice();
    other[3] = 9;
    expect(() => decodeTaskData(other)).toThrow(/format version 9/);
    const zipped = encodeTaskData({ r: new Uint32Array(100_000) });
    expect(zipped[4]).toBe(1);
    expect(() => decodeTaskData(zipped.subarray(0, 40))).toThrow(/corrupt compressed body/);
  });
});

describe('task payload decoding from a NATS message buffer', () => {
  it('copies arrays out of a Buffer view with an offset (NATS hands out views of its read buffer)', () => {
    const bytes = encodeTaskData({ g: new Float32Array([1, 2, 3]) });
    const frame = Buffer.concat([Buffer.from('HMSG svc.result.x 1 2\r\n'), bytes, Buffer.from('\r\n')]);
    const view = frame.subarray(23, 23 + bytes.byteLength);
    const back = decodeTaskData<{ g: Float32Array }>(view);
    expect(back.g.byteOffset).toBe(0);
    expect(back.g.buffer.byteLength).toBe(12);
    expect(Array.from(back.g)).toEqual([1, 2, 3]);
  });
});

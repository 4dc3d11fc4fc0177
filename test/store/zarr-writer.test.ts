import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { crc32 } from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifest } from '../../src/store/chunk-manifest.js';
import { openChunkSink } from '../../src/store/chunk-sink.js';
import { createDatasetWriter, writeDataset } from '../../src/store/zarr-writer.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { rawValue, smallSpec, syntheticChunk, syntheticStatics, tempDir, writeSynthetic } from './helpers.js';

describe('dataset writer', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  beforeEach(async () => { root = await tempDir('writer'); });
  afterEach(() => root.cleanup());

  it('leaves no store and no temporary directory when the build fails mid-write', async () => {
    const spec = smallSpec();
    const failing = writeDataset(join(root.dir, 'ds'), spec, async (writer) => {
      const { outdoor } = syntheticStatics(spec);
      await writer.writeStatic('outdoor', outdoor);
      await writer.writeChunk('no2', 0, 0, syntheticChunk(spec, 'no2', 0, 0));
      throw new Error('generator crashed');
    });
    await expect(failing).rejects.toThrow('generator crashed');
    expect(await readdir(root.dir)).toEqual([]);
  });

  it('refuses to finalize with a chunk or a static array missing, and cleans up', async () => {
    const spec = smallSpec();
    const writer = await createDatasetWriter(join(root.dir, 'ds'), spec);
    const { outdoor, height } = syntheticStatics(spec);
    await writer.writeStatic('outdoor', outdoor);
    await writer.writeStatic('building_height', height);
    for (const field of spec.attrs.fields) {
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) if (!(field === 'ucomfort' && r === 2 && c === 1)) await writer.writeChunk(field, r, c, syntheticChunk(spec, field, r, c));
    }
    await expect(writer.finalize()).rejects.toThrow("Field 'ucomfort': chunk (2, 1) was not written.");
    expect(await readdir(root.dir)).toEqual([]);

    const noStatic = await createDatasetWriter(join(root.dir, 'ds'), spec);
    await expect(noStatic.finalize()).rejects.toThrow("Static array 'outdoor' was not written.");
    expect(await readdir(root.dir)).toEqual([]);
  });

  it('stores a static array written chunk by chunk as written whole, and refuses to finalize with a static chunk missing', async () => {
    // 1,030 columns: three static chunks across (512, 512 and 6 columns).
    const base = smallSpec();
    const spec = { ...base, grid: { ...base.grid, nx: 1030, ny: 3 } };
    const { outdoor, height } = syntheticStatics(spec);
    const whole = await createDatasetWriter(join(root.dir, 'whole'), spec);
    await whole.writeStatic('outdoor', outdoor);
    await whole.writeStatic('building_height', height);
    const chunked = await createDatasetWriter(join(root.dir, 'chunked'), spec);
    for (const j of [2, 0, 1]) {
      const cols = Math.min(512, 1030 - j * 512);
      const part = <T extends Uint8Array | Float32Array>(a: T): T => {
        const out = new (a.constructor as new (n: number) => T)(3 * cols);
        for (let r = 0; r < 3; r++) out.set(a.subarray(r * 1030 + j * 512, r * 1030 + j * 512 + cols), r * cols);
        return out;
      };
      await chunked.writeStaticChunk('outdoor', 0, j, part(outdoor));
      if (j !== 1) await chunked.writeStaticChunk('building_height', 0, j, part(height));
    }
    for (const name of ['outdoor/0.0', 'outdoor/0.1', 'outdoor/0.2', 'building_height/0.0', 'building_height/0.2']) {
      const key = name.replace('.', '/');
      expect(Buffer.compare(await readFile(join(chunked.tmpDir, key)), await readFile(join(whole.tmpDir, key))), name).toBe(0);
    }
    await expect(chunked.writeStaticChunk('outdoor', 0, 3, new Uint8Array(3))).rejects.toThrow(/outside the 1 × 3 chunks/);
    await expect(chunked.finalize()).rejects.toThrow("Static array 'building_height': 2 of its 3 chunks were written.");
    await whole.abort();
    expect(await readdir(root.dir)).toEqual([]);
  });

  it('writes a chunk manifest listing every chunk file of every array with its size and CRC-32', async () => {
    const dir = join(root.dir, 'ds');
    await writeSynthetic(dir, smallSpec());
    const manifest = (await readManifest(dir, 'ds'))!;
    expect(manifest.contentVersion).toBe('v1');
    const files = (await readdir(dir, { recursive: true, withFileTypes: true }))
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => relative(dir, join(e.parentPath, e.name)))
      .sort();
    // 2 fields x 3 x 3 chunks, 2 static arrays of one chunk, 4 coordinate arrays of one chunk.
    expect(files.length).toBe(2 * 9 + 2 + 4);
    expect([...manifest.entries()].map(([key]) => key).sort()).toEqual(files);
    expect(manifest.size).toBe(files.length);
    for (const key of files) {
      const bytes = await readFile(join(dir, key));
      expect(manifest.entry(key), key).toEqual({ size: bytes.length, crc32: crc32(bytes) });
    }
    expect((await readdir(dir)).filter((n) => n.includes('parts') || n.includes('tmp'))).toEqual([]);
  });

  it('refuses to finalize a chunk file written past the chunk sinks (it would have no manifest entry)', async () => {
    const spec = smallSpec();
    const writer = await createDatasetWriter(join(root.dir, 'ds'), spec);
    const { outdoor, height } = syntheticStatics(spec);
    await writer.writeStatic('outdoor', outdoor);
    await writer.writeStatic('building_height', height);
    for (const field of spec.attrs.fields) {
      for (let r = 0; r < 3; r++) for (let c = 0; c < 3; c++) if (!(field === 'no2' && r === 1 && c === 1)) await writer.writeChunk(field, r, c, syntheticChunk(spec, field, r, c));
    }
    await writeFile(join(writer.tmpDir, 'no2/0/1/1'), new Uint8Array(10));
    await expect(writer.finalize()).rejects.toMatchObject({ code: 'dataset_error', message: /Chunk no2\/0\/1\/1 has no manifest entry/ });
    expect(await readdir(root.dir)).toEqual([]);
  });

  it('accepts chunks written through a separate sink on the temporary directory (as worker threads do)', async () => {
    const spec = smallSpec({ fields: ['ucomfort', 'no2'] });
    const writer = await createDatasetWriter(join(root.dir, 'ds'), spec);
    const { outdoor, height } = syntheticStatics(spec);
    await writer.writeStatic('outdoor', outdoor);
    await writer.writeStatic('building_height', height);
    const sinks = await Promise.all([openChunkSink(writer.tmpDir, spec), openChunkSink(writer.tmpDir, spec)]);
    await Promise.all(sinks.map(async (sink, s) => {
      for (const field of spec.attrs.fields) {
        for (let r = s; r < 3; r += 2) for (let c = 0; c < 3; c++) await sink.writeChunk(field, r, c, syntheticChunk(spec, field, r, c));
      }
    }));
    await writer.finalize();
    const reader = await openDataset(join(root.dir, 'ds'));
    expect(reader.fields).toEqual(['no2', 'ucomfort']);
    const chunk = await reader.readChunk('ucomfort', 1, 2);
    expect(chunk[5 * 12 + 1 * 3 + 0]).toBe(rawValue('ucomfort', 5, 5, 6));
    expect(await readdir(root.dir)).toEqual(['ds']);
  });

  it('validates chunk and static arguments with clear errors', async () => {
    const spec = smallSpec();
    const writer = await createDatasetWriter(join(root.dir, 'ds'), spec);
    const chunk = syntheticChunk(spec, 'no2', 0, 0);
    await expect(writer.writeChunk('no2', 3, 0, chunk)).rejects.toThrow('Chunk row 3 is outside 0..2.');
    await expect(writer.writeChunk('no2', 0, -1, chunk)).rejects.toThrow('Chunk column -1 is outside 0..2.');
    await expect(writer.writeChunk('no2', 0, 0, chunk.subarray(1))).rejects.toThrow(/has 359 values; expected 360/);
    await expect(writer.writeChunk('utci', 0, 0, chunk)).rejects.toMatchObject({ code: 'validation_error', message: /Unknown field 'utci'/ });
    await expect(writer.writeChunk('no2', 0, 0, new Float32Array(360) as unknown as Int16Array)).rejects.toThrow('must be an Int16Array');
    await expect(writer.writeStatic('outdoor', new Uint8Array(76))).rejects.toThrow(/has 76 values; expected 77/);
    await expect(writer.writeStatic('outdoor', new Uint8Array(77).fill(2))).rejects.toThrow(/outdoor\[0\] = 2 is invalid/);
    await expect(writer.writeStatic('building_height', new Float32Array(77).fill(Number.NaN))).rejects.toThrow(/building_height\[0\] = NaN/);
    await writer.abort();
    expect(await readdir(root.dir)).toEqual([]);
  });

  it('rejects bad specs before creating anything', async () => {
    const spec = smallSpec();
    const bad: [unknown, RegExp][] = [
      [{ ...spec, attrs: { ...spec.attrs, crs_epsg: 4326 } }, /CRS EPSG:4326 does not match dataset CRS EPSG:31370/],
      [{ ...spec, grid: { ...spec.grid, crs_epsg: 3857 } }, /Grid CRS EPSG:3857/],
      [{ ...spec, chunk: { ...spec.chunk, hours: 10 } }, /chunk.hours \(10\) must equal spec.hours \(30\)/],
      [{ ...spec, attrs: { ...spec.attrs, fields: ['no2', 'noise'] } }, /unknown hourly field 'noise'/],
      [{ ...spec, attrs: { ...spec.attrs, timezone: 'Mars/Olympus' } }, /not an IANA time zone/],
      [{ ...spec, hours: 9000, chunk: { ...spec.chunk, hours: 9000 } }, /1..8760 for 2023/],
      [{ ...spec, grid: { ...spec.grid, resolution_m: 5 } }, /differs from attrs.resolution_m/],
    ];
    for (const [s, message] of bad) {
      await expect(createDatasetWriter(join(root.dir, 'ds'), s as typeof spec)).rejects.toMatchObject({ code: 'validation_error', message });
    }
    await expect(createDatasetWriter(join(root.dir, 'ds'), spec, { codecs: { filters: null, compressor: { id: 'lzma' } } }))
      .rejects.toThrow(/Unknown codec 'lzma'/);
    expect(await readdir(root.dir)).toEqual([]);
  });

  it('replaces an existing dataset atomically, or refuses when overwrite is off', async () => {
    const dir = join(root.dir, 'ds');
    await writeSynthetic(dir, smallSpec());
    await writeSynthetic(dir, smallSpec({ content_version: 'v9' }));
    expect((await openDataset(dir)).attrs.content_version).toBe('v9');
    await expect(writeSynthetic(dir, smallSpec({ content_version: 'v10' }), { overwrite: false })).rejects.toThrow(/already exists/);
    expect((await openDataset(dir)).attrs.content_version).toBe('v9');
    expect(await readdir(root.dir)).toEqual(['ds']);
  });

  it('writes with any codec setting the reader can decode', async () => {
    const settings = [
      { filters: null, compressor: null },
      { filters: null, compressor: { id: 'zstd', level: 1 } },
      { filters: null, compressor: { id: 'blosc', cname: 'lz4', clevel: 5, shuffle: 1, blocksize: 0 } },
    ];
    for (const [i, codecs] of settings.entries()) {
      const dir = join(root.dir, `ds${i}`);
      await writeSynthetic(dir, smallSpec(), { codecs });
      const reader = await openDataset(dir);
      const chunk = await reader.readChunk('no2', 2, 1);
      expect(chunk[29 * 12 + 2 * 3 + 2]).toBe(rawValue('no2', 29, 10, 5));
      expect(await reader.readStatic('building_height')).toEqual(syntheticStatics(smallSpec()).height);
    }
  });
});

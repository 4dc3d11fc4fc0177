/**
 * The streaming PMTiles writer against the `pmtiles` reader: tiles added in any order come back at their addresses,
 * identical contents are stored once, a directory too large for the first 16 KiB goes to leaf directories, a tile
 * given twice is refused, contents larger than a write batch pass whole, and no temporary file is left beside the archive.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PMTiles } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPmtilesWriter, type ArchiveHeader } from '../../src/store/pmtiles-writer.js';
import { tempDir } from './helpers.js';

const HEADER: ArchiveHeader = { tileCompression: 1, tileType: 1, minZoom: 10, maxZoom: 14, bounds: [4.3, 50.8, 4.4, 50.9], center: [4.35, 50.85, 12] };

let root: { dir: string; cleanup: () => Promise<void> };
beforeAll(async () => {
  root = await tempDir('pmtiles');
});
afterAll(() => root.cleanup());

function reader(bytes: Buffer): PMTiles {
  return new PMTiles({
    getKey: () => 'a.pmtiles',
    // A copy of the range, in an ArrayBuffer of its own (as a fetch response body is).
    getBytes: async (offset: number, length: number) => ({ data: new Uint8Array(bytes.subarray(offset, offset + length)).buffer }),
  });
}

/** Contents of tile (z, x, y): every third tile shares one content, the others their own. */
const contentOf = (z: number, x: number, y: number) => new TextEncoder().encode((x + y) % 3 === 0 ? 'shared' : `tile ${z}/${x}/${y}`);

describe('createPmtilesWriter', () => {
  it('writes tiles added in any order, once per content, with leaf directories when the root is full', async () => {
    const tiles: [number, number, number][] = [];
    for (let z = 10; z <= 14; z++) {
      const n = 2 ** (z - 9);
      for (let x = 0; x < n * 4; x++) for (let y = 0; y < n * 4; y++) tiles.push([z, 520 * 2 ** (z - 10) + x, 340 * 2 ** (z - 10) + y]);
    }
    // A fixed shuffle: the writer must not rely on the order tiles arrive in.
    const order = tiles.map((t, i) => [(i * 7919) % 104729, t] as const).sort((a, b) => a[0] - b[0]).map(([, t]) => t);
    const path = join(root.dir, 'a.pmtiles');
    const writer = await createPmtilesWriter(path);
    for (const [z, x, y] of order) await writer.add({ z, x, y, data: contentOf(z, x, y) });
    const bytes = await writer.finish({ name: 'test' }, HEADER);
    await writer.close();
    const file = await readFile(path);
    expect(file.byteLength).toBe(bytes);
    expect((await readdir(root.dir)).filter((n) => n.startsWith('.'))).toEqual([]);
    const archive = reader(file);
    const header = await archive.getHeader();
    const shared = tiles.filter(([, x, y]) => (x + y) % 3 === 0).length;
    expect(header).toMatchObject({ numAddressedTiles: tiles.length, numTileContents: tiles.length - shared + 1, clustered: true });
    expect(header.leafDirectoryLength).toBeGreaterThan(0);
    expect(await archive.getMetadata()).toEqual({ name: 'test' });
    for (const [z, x, y] of tiles.filter((_, i) => i % 37 === 0)) {
      const tile = await archive.getZxy(z, x, y);
      expect(new TextDecoder().decode(new Uint8Array(tile!.data)), `${z}/${x}/${y}`).toBe(new TextDecoder().decode(contentOf(z, x, y)));
    }
    expect(await archive.getZxy(10, 0, 0)).toBeUndefined();
  });

  it('writes contents across write batches and larger than one (1 MiB) byte for byte', async () => {
    const sizes = [600_000, 700_000, 5, 1_600_000, 300_000, 1_048_576, 17];
    const content = (k: number) => Uint8Array.from({ length: sizes[k]! }, (_, i) => (i * 31 + k * 7) & 0xff);
    const path = join(root.dir, 'big.pmtiles');
    const writer = await createPmtilesWriter(path);
    for (const k of sizes.keys()) await writer.add({ z: 12, x: 2100 + k, y: 1300, data: content(k) });
    await writer.finish({}, HEADER);
    await writer.close();
    const archive = reader(await readFile(path));
    for (const k of sizes.keys()) {
      const tile = await archive.getZxy(12, 2100 + k, 1300);
      expect(Buffer.from(tile!.data).equals(Buffer.from(content(k))), `content ${k}`).toBe(true);
    }
  });

  it('refuses a tile given twice', async () => {
    const writer = await createPmtilesWriter(join(root.dir, 'twice.pmtiles'));
    try {
      await writer.add({ z: 3, x: 1, y: 2, data: new Uint8Array([1]) });
      await writer.add({ z: 3, x: 1, y: 2, data: new Uint8Array([2]) });
      await expect(writer.finish({}, HEADER)).rejects.toThrow(/given twice/);
    } finally {
      await writer.close();
    }
  });
});

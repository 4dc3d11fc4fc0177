import { cp, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeSpaces } from '../../src/store/chunk-index-format.js';
import { writeChunkIndex } from '../../src/store/chunk-index-writer.js';
import { manifestText } from '../../src/store/chunk-manifest-json.js';
import { readManifest, updateManifest, type ManifestEntry } from '../../src/store/chunk-manifest.js';
import { verifyStore } from '../../src/store/store-verify.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { smallSpec, tempDir, writeSynthetic } from './helpers.js';

/** Consolidated metadata of two small arrays: `a` of 5 × 7 chunks, `b` of 3 chunks. */
const METADATA = {
  'a/.zarray': { shape: [50, 70], chunks: [10, 10], dimension_separator: '/' },
  'b/.zarray': { shape: [25], chunks: [10], dimension_separator: '.' },
};

/** A deterministic entry for every key of METADATA (size and CRC-32 derived from the position). */
function syntheticEntries(): ManifestEntry[] {
  const out: ManifestEntry[] = [];
  for (let r = 0; r < 5; r++) for (let c = 0; c < 7; c++) out.push([`a/${r}/${c}`, 100 + r * 7 + c, (r * 7 + c) * 2654435761 >>> 0]);
  for (let i = 0; i < 3; i++) out.push([`b/${i}`, 7 + i, 99 + i]);
  return out;
}

describe('binary chunk index', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let n = 0;
  beforeAll(async () => { root = await tempDir('chunk-index'); });
  afterAll(() => root.cleanup());

  /** A directory with a synthetic index of 8 entries a block (so it spans several blocks). */
  async function synthetic(): Promise<string> {
    const dir = join(root.dir, `idx${n++}`);
    await mkdir(dir);
    await writeFile(join(dir, '.zmetadata'), JSON.stringify({ metadata: METADATA }));
    await writeChunkIndex(dir, { metadata: METADATA, contentVersion: 'v1', blockEntries: 8 }, syntheticEntries().reverse());
    return dir;
  }

  const entriesFile = async (dir: string) => (await readdir(dir)).find((f) => f.endsWith('.entries'))!;

  it('finds every entry by key, lists them in order, and knows no other key', async () => {
    const dir = await synthetic();
    const index = (await readManifest(dir, 'idx'))!;
    expect(index.size).toBe(38);
    for (const [key, size, crc] of syntheticEntries()) expect(index.entry(key), key).toEqual({ size, crc32: crc });
    expect([...index.entries()]).toEqual(syntheticEntries());
    for (const key of ['a/5/0', 'a/0/7', 'a/0.0', 'a/00/1', 'b/3', 'b/.zarray', 'c/0', 'a/0/0/0', 'a/-1/0']) {
      expect(index.entry(key), key).toBeUndefined();
    }
  });

  it('refuses to be written without every key, or with a key no array has', async () => {
    const dir = join(root.dir, 'incomplete');
    await mkdir(dir);
    const content = { metadata: METADATA, contentVersion: 'v1' };
    await expect(writeChunkIndex(dir, content, syntheticEntries().slice(1))).rejects.toMatchObject({ code: 'dataset_error', message: /Chunk a\/0\/0 has no manifest entry/ });
    await expect(writeChunkIndex(dir, content, [...syntheticEntries(), ['c/0', 1, 1]])).rejects.toThrow(/Chunk c\/0 belongs to no array/);
  });

  it('names a truncated, extended or altered root at open', async () => {
    const cases: [(bytes: Buffer) => Buffer, RegExp][] = [
      [(b) => b.subarray(0, b.length - 3), /chunk index \(.zmanifest\) is truncated \(\d+ bytes where its header records \d+\)/],
      [(b) => b.subarray(0, 10), /chunk index \(.zmanifest\) is truncated \(10 bytes\)/],
      [(b) => Buffer.concat([b, Buffer.from([0])]), /has 1 bytes past its end/],
      [(b) => { const c = Buffer.from(b); c[20] ^= 1; return c; }, /chunk index \(.zmanifest\) does not match its checksum/],
      [(b) => { const c = Buffer.from(b); c[c.length - 6] ^= 1; return c; }, /does not match its checksum/],
    ];
    for (const [damage, message] of cases) {
      const dir = await synthetic();
      await writeFile(join(dir, '.zmanifest'), damage(await readFile(join(dir, '.zmanifest'))));
      await expect(readManifest(dir, 'idx')).rejects.toMatchObject({ code: 'dataset_damaged', message });
    }
  });

  it('names a missing or truncated entries file at open, and an altered block at the lookup that reads it', async () => {
    const missing = await synthetic();
    await rm(join(missing, await entriesFile(missing)));
    await expect(readManifest(missing, 'idx')).rejects.toMatchObject({ code: 'dataset_damaged', message: /names entries file .* which is missing/ });
    const short = await synthetic();
    const file = join(short, await entriesFile(short));
    await truncate(file, (await stat(file)).size - 1);
    await expect(readManifest(short, 'idx')).rejects.toMatchObject({ code: 'dataset_damaged', message: /entries file .* where it needs \d+ \(truncated\)/ });
    const altered = await synthetic();
    const bytes = await readFile(join(altered, await entriesFile(altered)));
    bytes[64 + 5] ^= 0x10; // block 1 (64 bytes a block)
    await writeFile(join(altered, await entriesFile(altered)), bytes);
    const index = (await readManifest(altered, 'idx'))!;
    expect(index.entry('a/0/0')).toEqual({ size: 100, crc32: 0 });
    expect(() => index.entry('a/1/1')).toThrow(/does not match its checksum in block 1/);
  });

  it('rewrites only the blocks an update touches, and shares the rest with the old root', async () => {
    const dir = await synthetic();
    const base = (await readManifest(dir, 'idx'))!;
    const file = join(dir, await entriesFile(dir));
    const before = (await stat(file)).size;
    const oldRoot = await readFile(join(dir, '.zmanifest'));
    const cleanup = await updateManifest(dir, base, { contentVersion: 'v2', changed: [['a/4/6', 1, 2], ['b/0', 3, 4]] }, METADATA);
    await cleanup();
    expect((await stat(file)).size - before).toBe(2 * 64);
    const after = (await readManifest(dir, 'idx'))!;
    expect(after.contentVersion).toBe('v2');
    expect(after.entry('a/4/6')).toEqual({ size: 1, crc32: 2 });
    expect(after.entry('b/0')).toEqual({ size: 3, crc32: 4 });
    expect(after.entry('a/4/5')).toEqual(base.entry('a/4/5'));
    // Restoring the old root's bytes restores the old index (how an update rolls back).
    await writeFile(join(dir, '.zmanifest'), oldRoot);
    expect((await readManifest(dir, 'idx'))!.entry('a/4/6')).toEqual({ size: 134, crc32: base.entry('a/4/6')!.crc32 });
  });

  it('writes a compact entries file once unnamed blocks outnumber the live ones, and removes the old one on cleanup', async () => {
    const dir = await synthetic();
    const first = await entriesFile(dir);
    const blocks = Math.ceil(35 / 8) + 1; // a's 35 entries and b's 3, each space from a block boundary
    let rewrites = 0;
    for (let round = 0; (await entriesFile(dir)) === first; round++) {
      const base = (await readManifest(dir, 'idx'))!;
      // Every block changes: one entry in each.
      const changed: ManifestEntry[] = [0, 8, 16, 24, 32].map((o) => [`a/${Math.floor(o / 7)}/${o % 7}`, round, round]);
      changed.push(['b/0', round, round]);
      const cleanup = await updateManifest(dir, base, { contentVersion: `v${round + 2}`, changed }, METADATA);
      rewrites++;
      if ((await readdir(dir)).filter((f) => f.endsWith('.entries')).length > 1) {
        // Until cleanup, the old entries file stays (an update that rolls back restores the old root, which names it).
        await cleanup();
      }
      expect(rewrites).toBeLessThan(10);
    }
    expect((await readdir(dir)).filter((f) => f.endsWith('.entries'))).toHaveLength(1);
    expect((await stat(join(dir, await entriesFile(dir)))).size).toBe(blocks * 64);
    const index = (await readManifest(dir, 'idx'))!;
    expect(index.entry('a/1/1')).toEqual({ size: rewrites - 1, crc32: rewrites - 1 });
    expect(index.entry('a/4/5')).toEqual({ size: 133, crc32: (33 * 2654435761) >>> 0 });
  });

  it('adds and drops aggregate levels without rewriting the chunks', async () => {
    const meta = { ...METADATA, 'f/.zarray': { shape: [1, 40, 40], chunks: [1, 10, 10], dimension_separator: '/' } };
    const dir = join(root.dir, 'agg');
    await mkdir(dir);
    const chunkKeys: ManifestEntry[] = [...syntheticEntries()];
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) chunkKeys.push([`f/0/${r}/${c}`, 5, r * 4 + c]);
    await writeChunkIndex(dir, { metadata: meta, contentVersion: 'v1', blockEntries: 8 }, chunkKeys);
    const section = { format: 1 as const, generation: 'g1', levels: [2], records: 'r' };
    const aggs: ManifestEntry[] = [0, 1].flatMap((r) => [0, 1].map((c): ManifestEntry => [`.aggregates/g1/2/${r}/${c}`, 9, r * 2 + c]));
    const base = (await readManifest(dir, 'agg'))!;
    await updateManifest(dir, base, { contentVersion: 'v1', changed: [], aggregates: section, aggregateEntries: aggs }, meta);
    const withAggs = (await readManifest(dir, 'agg'))!;
    expect(withAggs.aggregates).toEqual(section);
    expect(withAggs.entry('.aggregates/g1/2/1/1')).toEqual({ size: 9, crc32: 3 });
    expect(withAggs.size).toBe(chunkKeys.length + 4);
    await expect(updateManifest(dir, withAggs, { contentVersion: 'v1', changed: [], aggregates: section, aggregateEntries: aggs.slice(1) }, meta))
      .rejects.toThrow(/Chunk .aggregates\/g1\/2\/0\/0 has no manifest entry/);
    await updateManifest(dir, withAggs, { contentVersion: 'v2', changed: [] }, meta);
    const dropped = (await readManifest(dir, 'agg'))!;
    expect(dropped.aggregates).toBeUndefined();
    expect(dropped.entry('.aggregates/g1/2/1/1')).toBeUndefined();
    expect([...dropped.entries()]).toEqual([...base.entries()]);
    expect(storeSpaces(meta).map((s) => s.prefix)).toEqual(['a/', 'b/', 'f/']);
  });

  it('reads a store with a JSON manifest, refuses one whose index does not fit its arrays, and converts on verify', async () => {
    const dir = join(root.dir, 'store');
    await writeSynthetic(dir, smallSpec());
    const manifest = (await readManifest(dir, 'store'))!;
    const json = manifestText(manifest.contentVersion, manifest.entries());
    const legacy = join(root.dir, 'legacy');
    await cp(dir, legacy, { recursive: true });
    await rm(join(legacy, await entriesFile(legacy)));
    await writeFile(join(legacy, '.zmanifest'), json);
    const reader = await openDataset(legacy);
    expect(await reader.readChunk('no2', 1, 1)).toEqual(await (await openDataset(dir)).readChunk('no2', 1, 1));
    expect(await verifyStore(legacy, { writeManifest: true })).toMatchObject({ problems: [], manifest: 'converted' });
    expect([...(await readManifest(legacy, 'legacy'))!.entries()]).toEqual([...manifest.entries()]);
    expect(await verifyStore(legacy, { writeManifest: true })).toMatchObject({ problems: [], manifest: 'checked' });

    const foreign = join(root.dir, 'foreign');
    await cp(dir, foreign, { recursive: true });
    await writeChunkIndex(foreign, { metadata: METADATA, contentVersion: 'v1' }, syntheticEntries());
    await expect(openDataset(foreign)).rejects.toMatchObject({ code: 'dataset_damaged', message: /chunk manifest \(.zmanifest\) lists chunks of a\/\[5x7\] b\/\[3\] but the arrays have/ });
  });
});

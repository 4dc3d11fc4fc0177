import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readManifest } from '../../src/store/chunk-manifest.js';
import { beginStoreUpdate, bumpContentVersion } from '../../src/store/store-update.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { smallSpec, tempDir, writeSynthetic } from './helpers.js';

describe('store updates', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let dir: string;
  beforeEach(async () => {
    root = await tempDir('update');
    dir = join(root.dir, 'ds');
    await writeSynthetic(dir, smallSpec());
  });
  afterEach(() => root.cleanup());

  it('bumps content versions', () => {
    expect(bumpContentVersion('v1')).toBe('v2');
    expect(bumpContentVersion('m1-3f09')).toBe('m1-3f10');
    expect(bumpContentVersion('r009')).toBe('r010');
    expect(bumpContentVersion('abc')).toBe('abc.1');
    expect(bumpContentVersion('abc.1')).toBe('abc.2');
  });

  it('replaces staged files, bumps the version and records history', async () => {
    const update = await beginStoreUpdate(dir);
    await update.stage('extra/file', new Uint8Array([1, 2, 3]));
    await update.stage('no2/0/0/0', await readFile(join(dir, 'no2/0/1/1')));
    expect(await update.commit('test change')).toBe('v2');
    expect(Array.from(await readFile(join(dir, 'extra/file')))).toEqual([1, 2, 3]);
    expect(await readFile(join(dir, 'no2/0/0/0'))).toEqual(await readFile(join(dir, 'no2/0/1/1')));
    const reader = await openDataset(dir);
    expect(reader.attrs.content_version).toBe('v2');
    const attrs = JSON.parse(await readFile(join(dir, '.zattrs'), 'utf8'));
    expect(attrs.history).toMatch(/^\d{4}-\d\d-\d\dT.*: test change$/);
    expect((await readdir(dir)).filter((n) => n.startsWith('.update'))).toEqual([]);
  });

  it('records the replaced chunks in the manifest, so the updated store reads back intact', async () => {
    const update = await beginStoreUpdate(dir);
    await update.stage('no2/0/0/0', await readFile(join(dir, 'no2/0/1/1')));
    await update.commit('copy a chunk');
    const manifest = (await readManifest(dir, 'ds'))!;
    expect(manifest.contentVersion).toBe('v2');
    expect(manifest.entry('no2/0/0/0')).toEqual(manifest.entry('no2/0/1/1'));
    const reader = await openDataset(dir);
    expect(await reader.readChunk('no2', 0, 0)).toEqual(await reader.readChunk('no2', 1, 1));
  });

  it('refuses a store without a chunk manifest', async () => {
    await rm(join(dir, '.zmanifest'));
    await expect(beginStoreUpdate(dir)).rejects.toMatchObject({ code: 'dataset_damaged', message: /has no chunk manifest/ });
  });

  it('restores replaced files and attributes when the metadata cannot be written', async () => {
    const before = await readFile(join(dir, 'no2/0/0/0'));
    const attrsBefore = await readFile(join(dir, '.zattrs'), 'utf8');
    const manifestBefore = await readFile(join(dir, '.zmanifest'), 'utf8');
    const update = await beginStoreUpdate(dir);
    await update.stage('no2/0/0/0', new Uint8Array([9, 9, 9]));
    await update.stage('new/file', new Uint8Array([1]));
    // A directory where .zmetadata should be makes the final rename fail.
    await rm(join(dir, '.zmetadata'));
    await mkdir(join(dir, '.zmetadata', 'blocker'), { recursive: true });
    await expect(update.commit('doomed')).rejects.toThrow();
    expect(await readFile(join(dir, 'no2/0/0/0'))).toEqual(before);
    expect(await readFile(join(dir, '.zattrs'), 'utf8')).toBe(attrsBefore);
    expect(await readFile(join(dir, '.zmanifest'), 'utf8')).toBe(manifestBefore);
    await expect(readFile(join(dir, 'new/file'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await readdir(dir)).filter((n) => n.startsWith('.update'))).toEqual([]);
  });
});

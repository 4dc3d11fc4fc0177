import { cp, mkdir, readFile, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkEntry, readManifest } from '../../src/store/chunk-manifest.js';
import { manifestText } from '../../src/store/chunk-manifest-json.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import { smallSpec, tempDir, writeSynthetic } from './helpers.js';

describe('reading corrupt or foreign stores', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  let pristine: string;
  let n = 0;

  beforeAll(async () => {
    root = await tempDir('corrupt');
    pristine = join(root.dir, 'pristine');
    await writeSynthetic(pristine, smallSpec());
  });
  afterAll(() => root.cleanup());

  /** A fresh copy of the good store to damage; the directory name is the dataset id errors name. */
  async function copy(): Promise<string> {
    const dir = join(root.dir, `copy${n++}`);
    await cp(pristine, dir, { recursive: true });
    return dir;
  }

  /** Rewrites the consolidated metadata through `edit`. */
  async function editMetadata(dir: string, edit: (metadata: Record<string, any>) => void): Promise<void> {
    const doc = JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8'));
    edit(doc.metadata);
    await writeFile(join(dir, '.zmetadata'), JSON.stringify(doc));
  }

  /** Rewrites the chunk manifest through `edit`, in the JSON form older stores have (still read). */
  async function editManifest(dir: string, edit: (manifest: Record<string, any>) => void): Promise<void> {
    const manifest = (await readManifest(dir, 'x'))!;
    const doc = JSON.parse(manifestText(manifest.contentVersion, manifest.entries(), manifest.aggregates));
    edit(doc);
    await writeFile(join(dir, '.zmanifest'), JSON.stringify(doc));
  }

  it('names a missing store (absence, not damage), and one that exists but cannot be examined (damage)', async () => {
    await expect(openDataset(join(root.dir, 'nope'))).rejects.toMatchObject({ code: 'dataset_error', message: /Dataset not found: .*nope does not exist/ });
    await writeFile(join(root.dir, 'plain-file'), 'x');
    await expect(openDataset(join(root.dir, 'plain-file', 'ds'))).rejects.toMatchObject({ code: 'dataset_error', message: /does not exist/ });
    await symlink('loop', join(root.dir, 'loop'));
    await expect(openDataset(join(root.dir, 'loop'))).rejects.toMatchObject({
      code: 'dataset_damaged', message: "Dataset 'loop' is damaged: its directory cannot be read (ELOOP).",
    });
  });

  it('names missing, unreadable and corrupt consolidated metadata as damage of the dataset', async () => {
    const a = await copy();
    await rm(join(a, '.zmetadata'));
    await expect(openDataset(a)).rejects.toMatchObject({
      code: 'dataset_damaged', message: /^Dataset 'copy\d+' is damaged: its consolidated metadata \(.zmetadata\) is missing\.$/,
    });
    const b = await copy();
    await writeFile(join(b, '.zmetadata'), '{"metadata": {');
    await expect(openDataset(b)).rejects.toMatchObject({ code: 'dataset_damaged', message: /.zmetadata\) is corrupt \(not JSON\)/ });
    // A directory where the file should be is not "missing": the error says what went wrong.
    const c = await copy();
    await rm(join(c, '.zmetadata'));
    await mkdir(join(c, '.zmetadata'));
    await expect(openDataset(c)).rejects.toMatchObject({ code: 'dataset_damaged', message: /.zmetadata\) cannot be read \(EISDIR\)/ });
  });

  it('refuses a CRS other than EPSG:31370', async () => {
    const dir = await copy();
    await editMetadata(dir, (m) => { m['.zattrs'].crs_epsg = 4326; });
    await expect(openDataset(dir)).rejects.toMatchObject({ code: 'dataset_damaged', message: /Dataset CRS EPSG:4326 does not match dataset CRS EPSG:31370/ });
  });

  it('refuses incomplete attributes, unknown fields and missing or mistyped arrays', async () => {
    const cases: [(m: Record<string, any>) => void, RegExp][] = [
      [(m) => { delete m['.zattrs'].content_version; }, /'content_version' must be a non-empty string/],
      [(m) => { m['.zattrs'].fields = ['no2', 'noise']; }, /unknown hourly field 'noise'/],
      [(m) => { m['.zattrs'].fields = ['no2', 'pm10']; }, /array 'pm10' is missing/],
      [(m) => { m['no2/.zarray'].dtype = '<f4'; }, /field 'no2' must be int16 with dims \(time, y, x\)/],
      [(m) => { m['no2/.zarray'].chunks = [10, 4, 3]; }, /does not list \d+ chunk\(s\) of the arrays|chunks must span the whole time axis/],
      [(m) => { m['ucomfort/.zarray'].chunks = [30, 2, 3]; }, /does not list|'ucomfort' differs in shape or chunks from 'no2'/],
      [(m) => { m['x/.zarray'].shape = [6]; }, /coordinate 'x' has 6 values, expected 7/],
      [(m) => { m['outdoor/.zarray'].dtype = '<i2'; }, /static arrays must be outdoor uint8/],
      [(m) => { m['no2/.zattrs'].scale_factor = 'ten'; }, /field 'no2' has an invalid CF encoding/],
    ];
    for (const [edit, message] of cases) {
      const dir = await copy();
      await editMetadata(dir, edit);
      await expect(openDataset(dir)).rejects.toMatchObject({ code: 'dataset_damaged', message });
    }
  });

  it('refuses a store without a chunk manifest, or with one that does not belong to its metadata', async () => {
    const none = await copy();
    await rm(join(none, '.zmanifest'));
    await expect(openDataset(none)).rejects.toMatchObject({ code: 'dataset_damaged', message: /has no chunk manifest \(.zmanifest\)/ });
    const cases: [(m: Record<string, any>) => void, RegExp][] = [
      [(m) => { m.content_version = 'v0'; }, /describes content version 'v0' but the metadata say 'v1'/],
      [(m) => { delete m.chunks['ucomfort/0/2/2']; }, /does not list 1 chunk\(s\) of the arrays, e.g. ucomfort\/0\/2\/2/],
      [(m) => { m.chunks['no2/0/9/9'] = [1, 2]; }, /lists chunk no2\/0\/9\/9 that no array has/],
      [(m) => { m.chunks['no2/0/0/0'] = [-1, 2]; }, /invalid entry for 'no2\/0\/0\/0'/],
      [(m) => { m.manifest_format = 2; }, /unknown format/],
    ];
    for (const [edit, message] of cases) {
      const dir = await copy();
      await editManifest(dir, edit);
      await expect(openDataset(dir)).rejects.toMatchObject({ code: 'dataset_damaged', message });
    }
    const corrupt = await copy();
    await writeFile(join(corrupt, '.zmanifest'), '{"chunks": ');
    await expect(openDataset(corrupt)).rejects.toMatchObject({ code: 'dataset_damaged', message: /\(.zmanifest\) is not valid JSON/ });
    const dirInPlace = await copy();
    await rm(join(dirInPlace, '.zmanifest'));
    await mkdir(join(dirInPlace, '.zmanifest'));
    await expect(openDataset(dirInPlace)).rejects.toMatchObject({ code: 'dataset_damaged', message: /\(.zmanifest\) cannot be read \(EISDIR\)/ });
  });

  it('reports a deleted chunk as missing instead of reading it as fill values', async () => {
    const dir = await copy();
    await rm(join(dir, 'no2/0/2/2'));
    await rm(join(dir, 'outdoor/0/0'));
    const reader = await openDataset(dir);
    const id = dir.split('/').pop();
    await expect(reader.readChunk('no2', 2, 2)).rejects.toMatchObject({
      code: 'dataset_damaged', message: `Dataset '${id}' is damaged: chunk no2/0/2/2 is missing.`, extra: { dataset: id, path: join(dir, 'no2/0/2/2') },
    });
    await expect(reader.readStoredChunk('no2', 2, 2)).rejects.toThrow(/chunk no2\/0\/2\/2 is missing/);
    await expect(reader.readCells(['no2'], new Int32Array([0, 10 * 7 + 6]))).rejects.toThrow(/chunk no2\/0\/2\/2 is missing/);
    await expect(reader.readStatic('outdoor')).rejects.toMatchObject({ code: 'dataset_damaged', message: /chunk outdoor\/0\/0 is missing/ });
    // The other chunks still read.
    expect((await reader.readChunk('no2', 1, 1)).length).toBe(30 * 4 * 3);
  });

  it('names a chunk that exists but cannot be read (a directory in its place), on both read paths', async () => {
    const dir = await copy();
    await rm(join(dir, 'no2/0/1/0'));
    await mkdir(join(dir, 'no2/0/1/0'));
    for (const syncReads of [false, true]) {
      const reader = await openDataset(dir, { syncReads });
      await expect(reader.readStoredChunk('no2', 1, 0)).rejects.toMatchObject({
        code: 'dataset_damaged', message: /chunk no2\/0\/1\/0 cannot be read \(EISDIR\)/,
      });
      await expect(reader.readChunk('no2', 1, 0)).rejects.toMatchObject({ code: 'dataset_damaged', message: /no2\/0\/1\/0 cannot be read/ });
    }
  });

  it('reports truncated, corrupted and swapped chunks', async () => {
    const dir = await copy();
    await truncate(join(dir, 'no2/0/1/1'), 40);
    const flipped = await readFile(join(dir, 'ucomfort/0/0/0'));
    flipped[flipped.length >> 1] ^= 0x55;
    await writeFile(join(dir, 'ucomfort/0/0/0'), flipped);
    // A valid frame of the same field in the wrong place decodes fine: only the manifest tells.
    await cp(join(dir, 'no2/0/0/1'), join(dir, 'no2/0/0/0'));
    const reader = await openDataset(dir);
    await expect(reader.readChunk('no2', 1, 1)).rejects.toMatchObject({
      code: 'dataset_damaged', message: /chunk no2\/0\/1\/1 has 40 bytes where the manifest records \d+ \(truncated or overwritten\)/,
    });
    await expect(reader.readChunk('ucomfort', 0, 0)).rejects.toThrow(/chunk ucomfort\/0\/0\/0 does not match its checksum/);
    await expect(reader.readChunk('no2', 0, 0)).rejects.toThrow(/chunk no2\/0\/0\/0 (does not match its checksum|has \d+ bytes)/);
  });

  it('reports a chunk that matches its manifest but decodes to the wrong size', async () => {
    const dir = await copy();
    const other = join(root.dir, `small${n++}`);
    await writeSynthetic(other, { ...smallSpec(), hours: 20, chunk: { ...smallSpec().chunk, hours: 20 } });
    const bytes = await readFile(join(other, 'no2/0/0/0'));
    await writeFile(join(dir, 'no2/0/0/0'), bytes);
    await editManifest(dir, (m) => { m.chunks['no2/0/0/0'] = chunkEntry('no2/0/0/0', bytes).slice(1); });
    const reader = await openDataset(dir);
    await expect(reader.readChunk('no2', 0, 0)).rejects.toMatchObject({
      code: 'dataset_damaged', message: /chunk no2\/0\/0\/0 (decodes to 240 values where 360 are expected|cannot be decoded)/,
    });
  });
});

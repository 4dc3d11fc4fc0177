import { cp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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

  /** A fresh copy of the good store to damage. */
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

  it('names a missing store', async () => {
    await expect(openDataset(join(root.dir, 'nope'))).rejects.toMatchObject({ code: 'dataset_error', message: /Dataset not found: .*nope does not exist/ });
  });

  it('names missing and corrupt consolidated metadata', async () => {
    const a = await copy();
    await rm(join(a, '.zmetadata'));
    await expect(openDataset(a)).rejects.toThrow(/consolidated metadata \(.zmetadata\) is missing/);
    const b = await copy();
    await writeFile(join(b, '.zmetadata'), '{"metadata": {');
    await expect(openDataset(b)).rejects.toThrow(/.zmetadata is corrupt \(not JSON\)/);
  });

  it('refuses a CRS other than EPSG:31370', async () => {
    const dir = await copy();
    await editMetadata(dir, (m) => { m['.zattrs'].crs_epsg = 4326; });
    await expect(openDataset(dir)).rejects.toMatchObject({ code: 'dataset_error', message: /Dataset CRS EPSG:4326 does not match dataset CRS EPSG:31370/ });
  });

  it('refuses incomplete attributes, unknown fields and missing or mistyped arrays', async () => {
    const cases: [(m: Record<string, any>) => void, RegExp][] = [
      [(m) => { delete m['.zattrs'].content_version; }, /'content_version' must be a non-empty string/],
      [(m) => { m['.zattrs'].fields = ['no2', 'noise']; }, /unknown hourly field 'noise'/],
      [(m) => { m['.zattrs'].fields = ['no2', 'pm10']; }, /array 'pm10' is missing/],
      [(m) => { m['no2/.zarray'].dtype = '<f4'; }, /field 'no2' must be int16 with dims \(time, y, x\)/],
      [(m) => { m['no2/.zarray'].chunks = [10, 4, 3]; }, /chunks must span the whole time axis/],
      [(m) => { m['ucomfort/.zarray'].chunks = [30, 2, 3]; }, /'ucomfort' differs in shape or chunks from 'no2'/],
      [(m) => { m['x/.zarray'].shape = [6]; }, /coordinate 'x' has 6 values, expected 7/],
      [(m) => { m['outdoor/.zarray'].dtype = '<i2'; }, /static arrays must be outdoor uint8/],
      [(m) => { m['no2/.zattrs'].scale_factor = 'ten'; }, /field 'no2' has an invalid CF encoding/],
    ];
    for (const [edit, message] of cases) {
      const dir = await copy();
      await editMetadata(dir, edit);
      await expect(openDataset(dir)).rejects.toMatchObject({ code: 'dataset_error', message });
    }
  });

  it('reports truncated and corrupt chunks, and serves a missing chunk as fill (Zarr semantics)', async () => {
    const dir = await copy();
    await truncate(join(dir, 'no2/0/1/1'), 40);
    await writeFile(join(dir, 'ucomfort/0/0/0'), new Uint8Array(64).fill(7));
    await rm(join(dir, 'no2/0/2/2'));
    const reader = await openDataset(dir);
    await expect(reader.readChunk('no2', 1, 1)).rejects.toMatchObject({ code: 'dataset_error', message: /chunk no2\/0\/1\/1 is corrupt or truncated/ });
    await expect(reader.readChunk('ucomfort', 0, 0)).rejects.toThrow(/chunk ucomfort\/0\/0\/0 is corrupt or truncated/);
    await expect(reader.readCells(['no2'], new Int32Array([0, 4 * 7 + 3]))).rejects.toThrow(/no2\/0\/1\/1/);
    expect(new Set(await reader.readChunk('no2', 2, 2))).toEqual(new Set([-32768]));
  });

  it('reports a chunk that decodes to the wrong size', async () => {
    const dir = await copy();
    const other = join(root.dir, `small${n++}`);
    await writeSynthetic(other, { ...smallSpec(), hours: 20, chunk: { ...smallSpec().chunk, hours: 20 } });
    await cp(join(other, 'no2/0/0/0'), join(dir, 'no2/0/0/0'));
    const reader = await openDataset(dir);
    await expect(reader.readChunk('no2', 0, 0)).rejects.toThrow(/no2\/0\/0\/0 is (truncated: 240 values, expected 360|corrupt or truncated)/);
  });
});

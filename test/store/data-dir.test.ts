import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listDatasets, openDatasets } from '../../src/store/data-dir.js';
import { smallSpec, tempDir, writeSynthetic } from './helpers.js';

describe('the datasets of a data directory', () => {
  let root: { dir: string; cleanup: () => Promise<void> };
  beforeAll(async () => {
    root = await tempDir('data-dir');
    const spec = smallSpec();
    await writeSynthetic(join(root.dir, 'alpha'), { ...spec, attrs: { ...spec.attrs, dataset: 'alpha' } });
    await writeSynthetic(join(root.dir, 'beta'), { ...spec, attrs: { ...spec.attrs, dataset: 'beta' } });
    await writeSynthetic(join(root.dir, 'gamma'), { ...spec, attrs: { ...spec.attrs, dataset: 'gamma' } });
    // beta: a directory where its consolidated metadata should be (not absence: an error naming the file).
    await rm(join(root.dir, 'beta', '.zmetadata'));
    await mkdir(join(root.dir, 'beta', '.zmetadata'));
    // gamma: a corrupt chunk manifest.
    await writeFile(join(root.dir, 'gamma', '.zmanifest'), '{"chunks": [');
    // Not datasets: a file named like one, a directory without a store, a sibling such as precomputed grids.
    await writeFile(join(root.dir, 'delta'), 'not a directory');
    await mkdir(join(root.dir, 'epsilon'));
    await mkdir(join(root.dir, 'alpha.precomputed'));
  });
  afterAll(() => root.cleanup());

  it('lists every directory holding a store, including damaged ones, and nothing else', async () => {
    expect(await listDatasets(root.dir)).toEqual(['alpha', 'beta', 'gamma']);
  });

  it('opens the intact datasets and returns the damaged ones with their problem instead of failing', async () => {
    const { readers, damaged } = await openDatasets(root.dir);
    expect(readers.map((r) => r.attrs.dataset)).toEqual(['alpha']);
    expect(damaged.map((e) => [e.dataset, e.message])).toEqual([
      ['beta', "Dataset 'beta' is damaged: its consolidated metadata (.zmetadata) cannot be read (EISDIR)."],
      ['gamma', "Dataset 'gamma' is damaged: its chunk manifest (.zmanifest) is not valid JSON."],
    ]);
  });

  it('names an unreadable data directory', async () => {
    await expect(listDatasets(join(root.dir, 'missing'))).rejects.toMatchObject({ code: 'dataset_error', message: /cannot be read \(ENOENT\)/ });
    await expect(listDatasets(join(root.dir, 'delta'))).rejects.toMatchObject({ code: 'dataset_error', message: /cannot be read \(ENOTDIR\)/ });
  });
});

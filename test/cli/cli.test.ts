import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { svc } from './support/run-svc.js';

describe('svc command line', () => {
  let root: string;
  let data: string;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-cli-'));
    data = await fixtureDataDir();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it('lists its commands and rejects unknown ones', async () => {
    const help = await svc('help');
    expect(help.code).toBe(0);
    for (const word of ['data generate', 'stats', 'precompute', 'keys create', 'serve', 'demo']) {
      expect(help.stdout).toContain(word);
    }
    const unknown = await svc('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain("unknown command 'frobnicate'");
  });

  it.each([
    [['data', 'generate'], 'Choose exactly one of --demo, --fixture, --bench'],
    [['data', 'generate', '--demo', '--bench'], 'Choose exactly one'],
    [['data', 'generate', '--fixture', '--seed=-3'], '--seed must be an integer'],
    [['data', 'generate', '--fixture', '--seed', 'abc'], '--seed must be an integer'],
    [['data', 'generate', '--fixture', '--frobnicate'], "Unknown option '--frobnicate'"],
    [['stats', '--lat', '50.8', '--lon', '4.3'], '--data DIR is required'],
    [['stats', '--data', 'x', '--lat', '95', '--lon', '4.3'], 'out of range'],
    [['stats', '--data', 'x', '--lat', 'north', '--lon', '4.3'], '--lat must be a number'],
    [['stats', '--data', 'x', '--lat', '50.8', '--lon', '4.3', '--radius', '51'], '--radius must be 5 to 50'],
    [['stats', '--data', 'x', '--lat', '50.8', '--lon', '4.3', '--metrics', 'air,noise'], '--metrics takes'],
    [['precompute', '--data', 'x', '--city', 'paris'], "Unknown city 'paris'"],
    [['precompute', '--data', 'x', '--city', 'ghent'], "City 'ghent' is answered by the nationwide dataset 'belgium_lowres'"],
  ])('rejects %j with a clear message and exit code 2', async (args, message) => {
    const result = await svc(...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(message);
  });

  it('answers outside coverage and a missing store with exit code 1', async () => {
    const paris = await svc('stats', '--data', data, '--lat', '48.8566', '--lon', '2.3522');
    expect(paris.code).toBe(1);
    expect(paris.stderr).toContain('outside every covered area');
    const missing = await svc('stats', '--data', join(root, 'nothing'), '--lat', '50.8467', '--lon', '4.3525');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/nothing/);
  });

  it('reports a corrupt store without crashing', async () => {
    const copy = join(root, 'corrupt');
    await cp(join(data, 'belgium_lowres'), join(copy, 'belgium_lowres'), { recursive: true });
    await writeFile(join(copy, 'belgium_lowres', '.zmetadata'), '{ not json');
    const result = await svc('stats', '--data', copy, '--lat', '51.0546', '--lon', '3.7215');
    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/at .*\.js:\d+/); // a message, not a stack trace
  });

  it('prints the statistics envelope of a location', async () => {
    const result = await svc('stats', '--data', data, '--lat', '50.8467', '--lon', '4.3525', '--radius', '30');
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.city).toEqual({ id: 'brussels', name: 'Brussels', country: 'BE' });
    expect(envelope.meta).toMatchObject({ dataset: 'brussels_extended', sampling: 'radius', radius_m: 30 });
    expect(envelope.meta.metrics).toEqual(['air', 'wind', 'thermal']);
    expect(envelope.air.rating).toBeGreaterThanOrEqual(0);
  });

  it('answers a Ghent point as the API does: belgium_lowres, city ghent, air only, radius ignored', async () => {
    const result = await svc('stats', '--data', data, '--lat', '51.0546', '--lon', '3.7215', '--radius', '30');
    expect(result.code).toBe(0);
    const envelope = JSON.parse(result.stdout);
    expect(envelope.city).toEqual({ id: 'ghent', name: 'Ghent', country: 'BE' });
    expect(envelope.meta).toMatchObject({ dataset: 'belgium_lowres', sampling: 'point', n_cells: 1, metrics: ['air'] });
    expect(envelope.meta).not.toHaveProperty('radius_m');
    expect(Object.keys(envelope)).toEqual(['city', 'location', 'meta', 'air']);
    const thermal = await svc('stats', '--data', data, '--lat', '51.0546', '--lon', '3.7215', '--metrics', 'thermal');
    expect(thermal.code).toBe(1);
    expect(thermal.stderr).toContain("The city 'ghent' does not model 'thermal'");
  });

  it('precomputes a city, resuming after an interruption', async () => {
    const copy = join(root, 'precompute');
    await cp(join(data, 'brussels_extended'), join(copy, 'brussels_extended'), { recursive: true });
    const first = await svc('precompute', '--data', copy, '--city', 'brussels', '--threads', '1');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/Precomputed \d+ cells \(\d+ chunk rows, 0 resumed\)/);
    const attrs = JSON.parse(await readFile(join(copy, 'brussels_extended.precomputed', '.zattrs'), 'utf8'));
    expect(attrs.references.air_benchmark.locations).toBe(5);
    const grid = await readFile(join(copy, 'brussels_extended.precomputed', 'air_rating', '.zarray'), 'utf8');
    expect(JSON.parse(grid).dtype).toBe('<f4');

    // Simulate an interrupted run: a partial directory holding the first chunk row only.
    const again = join(root, 'resume');
    await cp(join(data, 'brussels_extended'), join(again, 'brussels_extended'), { recursive: true });
    const partial = join(again, 'brussels_extended.precompute-partial');
    const { computeDataset } = await import('../../src/compute/datasets/dataset-cache.js');
    const { createLocalCompute } = await import('../../src/compute/local-compute.js');
    const { PRECOMPUTE_GRIDS } = await import('../../src/stats/atlas-figures.js');
    const ds = await computeDataset(again, 'brussels_extended');
    const compute = await createLocalCompute({ dataDir: again, threads: 1 });
    try {
      const row = await compute.precomputeRow('brussels_extended', 0);
      const { mkdir } = await import('node:fs/promises');
      await mkdir(partial, { recursive: true });
      await writeFile(join(partial, 'manifest.json'),
        JSON.stringify({ content_version: ds.reader.attrs.content_version, grids: PRECOMPUTE_GRIDS }));
      const parts = PRECOMPUTE_GRIDS.map((g) => row.grids[g]);
      const bytes = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
      let at = 0;
      for (const p of parts) { bytes.set(p, at); at += p.length; }
      await writeFile(join(partial, 'row-00000.bin'), new Uint8Array(bytes.buffer));
    } finally {
      await compute.close();
    }
    const resumed = await svc('precompute', '--data', again, '--city', 'brussels', '--threads', '1');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/1 resumed/);
    const a = await readFile(join(copy, 'brussels_extended.precomputed', 'air_rating', '0', '0'));
    const b = await readFile(join(again, 'brussels_extended.precomputed', 'air_rating', '0', '0'));
    expect(Buffer.compare(a, b)).toBe(0);
  });
});

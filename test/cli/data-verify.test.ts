/**
 * `svc data verify`: exit code 0 on intact data, 1 with every problem listed on damage, 2 on usage errors; a store
 * without a manifest gets one with --write-manifest only when every chunk is intact. Runs the compiled CLI on copies of
 * the fixture datasets (`brussels_extended`, `belgium_lowres`).
 */
import { cp, mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { readManifest } from '../../src/store/chunk-manifest.js';
import { svc } from './support/run-svc.js';

describe('svc data verify', () => {
  let root: string;
  let fixtures: string;
  let n = 0;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'svc-verify-'));
    fixtures = await fixtureDataDir();
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  /** A data directory holding copies of the two fixture datasets. */
  async function dataCopy(): Promise<string> {
    const dir = join(root, `data${n++}`);
    for (const id of ['brussels_extended', 'belgium_lowres']) await cp(join(fixtures, id), join(dir, id), { recursive: true });
    return dir;
  }

  it('passes intact data (a data directory or one dataset) with exit code 0', async () => {
    const data = await dataCopy();
    const all = await svc('data', 'verify', data, '--no-progress');
    expect(all.code, all.stdout + all.stderr).toBe(0);
    expect(all.stdout).toMatch(/^belgium_lowres: ok \(\d+ chunks, manifest checked\)$/m);
    expect(all.stdout).toMatch(/^brussels_extended: ok \(486 chunks, manifest checked\)$/m);
    const one = await svc('data', 'verify', join(data, 'brussels_extended'));
    expect(one.code).toBe(0);
    expect(one.stdout).not.toContain('belgium_lowres');
    expect(one.stderr).toMatch(/verify .*brussels_extended \[#+\] 100% 486\/486/);
  });

  it('lists every missing, truncated and corrupted chunk and exits 1', async () => {
    const data = await dataCopy();
    const street = join(data, 'brussels_extended');
    await rm(join(street, 'no2/0/1/2'));
    await truncate(join(street, 'pm25/0/0/0'), 100);
    const bytes = await readFile(join(street, 'pm10/0/2/1'));
    bytes[bytes.length >> 1] ^= 0xff;
    await writeFile(join(street, 'pm10/0/2/1'), bytes);
    const result = await svc('data', 'verify', data, '--no-progress');
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/^belgium_lowres: ok/m);
    expect(result.stdout).toContain('brussels_extended: DAMAGED (3 problem(s), 486 chunks checked, manifest checked)');
    expect(result.stdout).toContain("Dataset 'brussels_extended' is damaged: chunk no2/0/1/2 is missing.");
    expect(result.stdout).toMatch(/Dataset 'brussels_extended' is damaged: chunk pm25\/0\/0\/0 has 100 bytes where the manifest records \d+/);
    expect(result.stdout).toContain("Dataset 'brussels_extended' is damaged: chunk pm10/0/2/1 does not match its checksum");
    expect(result.stdout).toContain('1 of 2 dataset(s) damaged');
  });

  it('reports damaged metadata, a missing manifest and corrupt precomputed references', async () => {
    const data = await dataCopy();
    await writeFile(join(data, 'brussels_extended', '.zmetadata'), '{ not json');
    await rm(join(data, 'belgium_lowres', '.zmanifest'));
    await mkdir(join(data, 'belgium_lowres.precomputed'));
    await writeFile(join(data, 'belgium_lowres.precomputed', '.zattrs'), '{"references": ');
    const result = await svc('data', 'verify', data, '--no-progress');
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("Dataset 'brussels_extended' is damaged: its consolidated metadata (.zmetadata) is corrupt (not JSON).");
    expect(result.stdout).toContain("Dataset 'belgium_lowres' is damaged: it has no chunk manifest (.zmanifest)");
    expect(result.stdout).toContain("Dataset 'belgium_lowres' is damaged: its precomputed city references (belgium_lowres.precomputed/.zattrs) are not valid JSON.");
    expect(result.stdout).toContain('2 of 2 dataset(s) damaged');
  });

  it('writes a manifest for a store that predates manifests only when every chunk is intact', async () => {
    const data = await dataCopy();
    const street = join(data, 'brussels_extended');
    const original = (await readManifest(street, 'brussels_extended'))!;
    await rm(join(street, '.zmanifest'));
    const moved = join(root, `aside${n++}`);
    await cp(join(street, 'no2/0/0/1'), moved);
    await rm(join(street, 'no2/0/0/1'));
    const refused = await svc('data', 'verify', street, '--write-manifest', '--no-progress');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("Dataset 'brussels_extended' is damaged: chunk no2/0/0/1 is missing.");
    await expect(readFile(join(street, '.zmanifest'))).rejects.toMatchObject({ code: 'ENOENT' });

    await cp(moved, join(street, 'no2/0/0/1'));
    const written = await svc('data', 'verify', street, '--write-manifest', '--no-progress');
    expect(written.code, written.stdout).toBe(0);
    expect(written.stdout).toContain('brussels_extended: ok (486 chunks, manifest written)');
    // The same manifest the writer wrote: same keys, sizes, checksums and content version.
    const rewritten = (await readManifest(street, 'brussels_extended'))!;
    expect(rewritten.contentVersion).toBe(original.contentVersion);
    expect([...rewritten.entries()]).toEqual([...original.entries()]);
    expect((await svc('data', 'verify', street, '--no-progress')).code).toBe(0);
  });

  it('rejects bad usage with exit code 2 and a missing directory with exit code 1', async () => {
    expect((await svc('data', 'verify')).code).toBe(2);
    expect((await svc('data', 'verify', 'a', 'b')).code).toBe(2);
    expect((await svc('data', 'verify', root, '--frobnicate')).code).toBe(2);
    const missing = await svc('data', 'verify', join(root, 'nowhere'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/cannot be read \(ENOENT\)/);
    const empty = join(root, `empty${n++}`);
    await mkdir(empty);
    const none = await svc('data', 'verify', empty);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('No dataset found');
  });
});

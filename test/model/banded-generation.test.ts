/**
 * Generation by windows stores exactly what whole-grid generation stored: the fixture preset (street-level model at
 * 20 m, nationwide at 20 km), generated with windows of one chunk (so every chunk row is its own task and every
 * surroundings crosses windows) and with the default windows (the shared fixture), has the digests recorded from
 * the whole-grid generator (seed 7). The static arrays written chunk by chunk equal those written whole.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePreset } from '../../src/model/generate.js';
import { FIXTURE_SEED, fixtureDataDir } from '../helpers/fixtures.js';
import { storeDigest } from './store-digest.js';

/** `storeDigest` of each fixture dataset as the whole-grid generator wrote it. */
const RECORDED = {
  belgium_lowres: '90cdb7fe0a5386974bd2031f4cc93c8de77c5984d89b283316b7c2a1b965e37d',
  brussels_extended: 'cd4b3a79f5f775ae7772cc4b2f6e41674f80a867ba9a91437203805ec84434e7',
};

describe('generation by windows', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'svc-banded-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores the fixture as the whole-grid generator did, with the default windows', async () => {
    const fixture = await fixtureDataDir();
    for (const [id, digest] of Object.entries(RECORDED)) expect(await storeDigest(join(fixture, id)), id).toBe(digest);
  });

  it('stores the same bytes with windows of one chunk', async () => {
    await generatePreset({ preset: 'fixture', outDir: dir, seed: FIXTURE_SEED, progress: false, threads: 2, windowChunks: 1 });
    for (const [id, digest] of Object.entries(RECORDED)) expect(await storeDigest(join(dir, id)), id).toBe(digest);
  });
});

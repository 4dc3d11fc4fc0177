/**
 * Generation refuses, before writing anything, a dataset that would not fit the free disk, naming the size it needs
 * and the free space (the free space faked through the injectable `freeBytes`).
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../../src/errors.js';
import { checkDiskRoom, estimateStoredBytes, statfsFreeBytes } from '../../src/model/disk-estimate.js';
import { generatePreset } from '../../src/model/generate.js';
import { scaledPlan } from '../../src/model/scaled-plans.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-disk-room-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('estimateStoredBytes', () => {
  it('grows linearly with the scale', () => {
    const one = estimateStoredBytes([scaledPlan('demo', 1)], 8760);
    expect(estimateStoredBytes([scaledPlan('demo', 16)], 8760) / one).toBeCloseTo(16, 6);
    // The demo zone at 10 m: 19,200 cells x 8,760 hours x 6 fields, about 1 byte a value.
    expect(one).toBeGreaterThan(0.8e9);
    expect(one).toBeLessThan(1.2e9);
  });
});

describe('checkDiskRoom', () => {
  it('passes when the estimate fits and names both sizes when it does not', async () => {
    await expect(checkDiskRoom(root, 1000, async () => 2000)).resolves.toBeUndefined();
    const refused = checkDiskRoom(root, 24.5e9, async () => 3.25e9);
    await expect(refused).rejects.toBeInstanceOf(ValidationError);
    await expect(refused).rejects.toThrow(/needs about 24\.50 GB of disk; its filesystem has 3\.25 GB free/);
  });

  it('reads the free space of the nearest existing ancestor of a directory not made yet', async () => {
    expect(await statfsFreeBytes(join(root, 'not', 'yet'))).toBeGreaterThan(0);
  });
});

describe('generatePreset with too little room', () => {
  it('refuses before writing anything', async () => {
    const outDir = join(root, 'full');
    const run = generatePreset({ preset: 'demo', scale: 16, outDir, seed: 1, progress: false, freeBytes: async () => 1e9 });
    await expect(run).rejects.toThrow(/needs about 1[0-9]\.\d\d GB of disk; its filesystem has 1\.00 GB free/);
    expect(await readdir(root)).not.toContain('full');
  });
});

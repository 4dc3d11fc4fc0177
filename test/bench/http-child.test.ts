/**
 * The HTTP benchmark's service child (a real forked process over the fixture data): every keyed slice gets a key of
 * its own with the highest limit an operator may give, so no machine is fast enough to use one up within a slice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, startChild, type ServerChild } from '../../bench/http-load.js';
import { fixtureDataDir } from '../helpers/fixtures.js';

let service: ServerChild;
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-bench-child-'));
  service = await startChild(['service', await fixtureDataDir(), join(dir, 'svc.sqlite')]);
});
afterAll(async () => {
  await service?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the benchmark service child', () => {
  it('issues a fresh key per request, each with a limit of 1,000,000 per minute', async () => {
    const keys = [await service.newKey(), await service.newKey(), await service.newKey()];
    expect(new Set(keys).size).toBe(3);
    for (const key of keys) {
      const res = await fetch(`${service.url}/v1/key`, { headers: { authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { limits: { rate_per_min: number } }).limits.rate_per_min).toBe(1_000_000);
    }
  });

  it('carries a short keyed load run through, checking every status', async () => {
    const key = await service.newKey();
    const result = await load({ url: `${service.url}/v1/key`, headers: { authorization: `Bearer ${key}` }, status: 200, connections: 4, seconds: 1 });
    expect(result.requests).toBeGreaterThan(0);
    await expect(load({ url: `${service.url}/v1/key`, status: 200, connections: 1, seconds: 1 })).rejects.toThrow('expected only 200s');
  });
});

/**
 * The bound on open jobs per key over HTTP (`SVC_JOBS_PER_KEY`, 2 here): an API node in cluster mode with no worker
 * keeps every job it accepts queued, so the key's jobs stay open without any timing; the third is refused with 429
 * `rate_limited`, a Retry-After and a detail naming the bound, while another key may still submit. The OpenAPI
 * document lists the 429 (with its Retry-After header) on the route.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, startE2eServer, type E2eServer } from '../e2e/support/e2e-server.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';

const JOBS_PER_KEY = 2;
const batch = { locations: [{ id: 'a', lat: 50.8466, lon: 4.3529 }], metrics: 'air' };

let nats: TestNatsServer;
let node: E2eServer;

beforeAll(async () => {
  nats = await startNatsServer();
  node = await startE2eServer({ config: { nats: { url: nats.url, ackWaitMs: 2_000, maxDeliver: 3 }, jobsPerKey: JOBS_PER_KEY } });
  // The node answers 502 until its link to NATS is up (it starts without waiting for it).
  await node.server.cluster!.link.ready();
}, 60_000);
afterAll(async () => {
  await node?.close();
  await nats?.dispose();
});

describe('POST /v1/historical/jobs with SVC_JOBS_PER_KEY=2', () => {
  it('refuses the third open job of a key with 429 rate_limited, Retry-After and the bound named', async () => {
    const key = node.issue({ label: 'jobs-per-key', ratePerMin: 1_000 });
    for (let n = 0; n < JOBS_PER_KEY; n++) {
      const accepted = await node.post('/v1/historical/jobs', batch, key);
      expect(accepted.status, accepted.text).toBe(202);
      expect((await node.get(accepted.headers.get('location')!, key)).json).toMatchObject({ status: 'processing', stage: 'queued' });
    }
    const refused = await node.post('/v1/historical/jobs', batch, key);
    const problem = expectProblem(refused, 429, 'rate_limited');
    expect(problem.detail).toMatch(/already has 2 batch or area jobs queued or running, the most it may have open at once \(2\)/);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // The bound is per key: another key is not refused.
    const other = node.issue({ label: 'another', ratePerMin: 1_000 });
    expect((await node.post('/v1/historical/jobs', batch, other)).status).toBe(202);
  });

  it('is listed in the OpenAPI document: 429 with Retry-After on the route', async () => {
    const doc = (await node.get('/v1/openapi.json')).json as { paths: Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>> };
    const refusal = doc.paths['/v1/historical/jobs']!.post!.responses['429'];
    expect(refusal).toBeDefined();
    expect(refusal!.headers).toHaveProperty('Retry-After');
  });
});

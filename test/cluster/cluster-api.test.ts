/**
 * Two API nodes acting as one over a real nats-server, driven over real HTTP: the per-minute limit, the daily report
 * quota and idempotency keys are exact across the nodes under concurrent requests; a report accepted by one node is
 * run by a worker (the report runtime of `svc worker`, its own compute pool and rendering threads) and polled and
 * downloaded on the other; while NATS is down the nodes answer problem documents at
 * once (never hang) and recover by themselves when it returns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem, type E2eResponse, type E2eServer } from '../e2e/support/e2e-server.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';
import { startClusterNodes, startRuntimeWorker, type ClusterNodes, type RuntimeWorker } from './support/cluster-nodes.js';
import { until } from './support/links.js';

let nats: TestNatsServer;
let nodes: ClusterNodes;
let worker: RuntimeWorker;

beforeAll(async () => {
  nats = await startNatsServer();
  nodes = await startClusterNodes(nats.url);
  worker = await startRuntimeWorker(nats.url, nodes.a, 'test-worker');
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await nodes?.close();
  await nats?.dispose();
});

/** Grand-Place, inside the fixture's Brussels zone. */
const HERE = { lat: 50.8467, lon: 4.3525 };

async function finished(node: E2eServer, id: string, key: string): Promise<E2eResponse> {
  for (;;) {
    const res = await node.get(`/v1/reports/${id}`, key);
    if (res.json?.status !== 'processing') return res;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('two API nodes over NATS', () => {
  it('count requests of one key exactly once across both nodes (per-minute window)', async () => {
    const key = nodes.issue({ label: 'rate', ratePerMin: 20 });
    const answers = await Promise.all([
      ...Array.from({ length: 15 }, () => nodes.a.get('/v1/key', key)),
      ...Array.from({ length: 15 }, () => nodes.b.get('/v1/key', key)),
    ]);
    // Requests may straddle a minute boundary: each window admits exactly min(limit, requests in it).
    const windows = new Map<string, E2eResponse[]>();
    for (const res of answers) {
      const reset = res.headers.get('x-ratelimit-reset')!;
      windows.set(reset, [...(windows.get(reset) ?? []), res]);
    }
    for (const inWindow of windows.values()) {
      const ok = inWindow.filter((r) => r.status === 200);
      expect(ok.length).toBe(Math.min(20, inWindow.length));
      for (const r of inWindow.filter((x) => x.status !== 200)) expectProblem(r, 429, 'rate_limited');
      expect(ok.map((r) => Number(r.headers.get('x-ratelimit-remaining'))).sort((x, y) => y - x)).toEqual(ok.map((_, i) => 19 - i));
    }
  });

  it('charge the daily report quota exactly once across both nodes; refused requests cost nothing', async () => {
    const key = nodes.issue({ label: 'quota', reportsPerDay: 3, products: ['reports'] });
    const body = (i: number) => ({ lat: HERE.lat + i * 0.0001, lon: HERE.lon, radius: 50 });
    const outside = await nodes.a.post('/v1/reports', { lat: 48.85, lon: 2.35 }, key);
    expectProblem(outside, 422, 'outside_coverage');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 === 0 ? nodes.a : nodes.b).post('/v1/reports', body(i), key)));
    expect(answers.filter((r) => r.status === 202)).toHaveLength(3);
    for (const r of answers.filter((x) => x.status !== 202)) expectProblem(r, 429, 'quota_exceeded');
    const seen = await nodes.b.get('/v1/key', key);
    expect(seen.status).toBe(200);
    // Finish them, so later tests find the worker idle.
    for (const r of answers.filter((x) => x.status === 202)) expect((await finished(nodes.b, r.json.job_id, key)).json.status).toBe('completed');
  });

  it('make one job of concurrent requests under one Idempotency-Key on both nodes, counted once', async () => {
    const key = nodes.issue({ label: 'idem', reportsPerDay: 2, products: ['reports'] });
    const headers = { 'idempotency-key': 'order-4711' };
    const req = { lat: HERE.lat + 0.001, lon: HERE.lon, radius: 50, lang: 'nl' };
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? nodes.a : nodes.b).post('/v1/reports', req, key, headers)));
    for (const r of answers) expect(r.status, r.text).toBe(202);
    const ids = new Set(answers.map((r) => r.json.job_id));
    expect(ids.size).toBe(1);
    expect(answers.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(5);
    const other = await nodes.b.post('/v1/reports', { ...req, lang: 'fr' }, key, headers);
    expectProblem(other, 400, 'validation_error');
    // One of two reports charged: one more is accepted, the next is refused.
    expect((await nodes.b.post('/v1/reports', { ...req, lang: 'fr' }, key)).status).toBe(202);
    expectProblem(await nodes.a.post('/v1/reports', { ...req, lang: 'en' }, key), 429, 'quota_exceeded');
    // A replay is still answered when the quota is used up.
    expect((await nodes.a.post('/v1/reports', req, key, headers)).json.job_id).toBe([...ids][0]);
  });

  it('run a job accepted on one node and serve its status and files on the other', async () => {
    const key = nodes.issue({ label: 'files', products: ['reports'] });
    const accepted = await nodes.a.post('/v1/reports', { lat: HERE.lat - 0.001, lon: HERE.lon, radius: 25, lang: 'fr' }, key);
    expect(accepted.status, accepted.text).toBe(202);
    const id = accepted.json.job_id as string;
    const done = await finished(nodes.b, id, key);
    expect(done.json).toMatchObject({ job_id: id, status: 'completed', lang: 'fr', files: { pdf: { url: `/v1/reports/${id}/download?format=pdf` } } });
    const html = await nodes.b.get(`/v1/reports/${id}/download?format=html`, key);
    expect(html.status).toBe(200);
    expect(html.text).toMatch(/^<!doctype html>/i);
    expect((await nodes.a.get(`/v1/reports/${id}/download?format=html`, key)).text).toBe(html.text);
    // The PDF rendered on B's poll is served by A.
    const pdf = await fetch(`${nodes.a.base}/v1/reports/${id}/download?format=pdf`, { headers: { authorization: `Bearer ${key}` } });
    expect(pdf.status).toBe(200);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    expect(Number(pdf.headers.get('content-length'))).toBe(bytes.length);
    // Another key does not see it on either node.
    const stranger = nodes.issue({ label: 'stranger', products: ['reports'] });
    expectProblem(await nodes.a.get(`/v1/reports/${id}`, stranger), 404, 'not_found');
  }, 60_000);

  it('share the statistics cache: a location computed on one node is a cache hit on the other', async () => {
    const key = nodes.issue({ label: 'stats' });
    const path = `/v1/historical/stats?lat=${HERE.lat}&lon=${HERE.lon + 0.0007}&radius=30`;
    const first = await nodes.a.get(path, key);
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get('x-cache')).toBe('miss');
    const other = await nodes.b.get(path, key);
    expect(other.headers.get('x-cache')).toBe('hit');
    expect(other.json.air).toEqual(first.json.air);
    expect(other.json.meta.generated_utc).toBe(first.json.meta.generated_utc);
  });

  it('answer problem documents while NATS is down, never hang, and recover when it returns', async () => {
    const key = nodes.issue({ label: 'outage', products: ['*'] });
    const before = await nodes.a.post('/v1/reports', { lat: HERE.lat, lon: HERE.lon - 0.001, radius: 50 }, key);
    expect(before.status).toBe(202);
    await finished(nodes.a, before.json.job_id, key);
    await nats.stop();
    await until(() => nodes.a.server.cluster!.link.current() === undefined && nodes.b.server.cluster!.link.current() === undefined);
    expectProblem(await nodes.a.get('/v1/key', key), 502, 'upstream_error');
    expectProblem(await nodes.b.post('/v1/reports', { lat: HERE.lat, lon: HERE.lon }, key), 502, 'upstream_error');
    // A request refused before the limit is checked keeps its own status (without X-RateLimit-* headers then).
    const reportsOnly = nodes.issue({ label: 'reports only', products: ['reports'] });
    const refused = await nodes.b.get(`/v1/historical/stats?lat=${HERE.lat}&lon=${HERE.lon}`, reportsOnly);
    expectProblem(refused, 403, 'forbidden');
    expect(refused.headers.get('x-ratelimit-limit')).toBeNull();
    expectProblem(await nodes.b.get('/v1/key', 'svc_sk_00000000000000000000000000000000'), 401, 'unauthorized');
    await nats.start();
    await until(async () => (await nodes.a.get('/v1/key', key)).status === 200, 100);
    await until(async () => (await nodes.b.get(`/v1/reports/${before.json.job_id}`, key)).status === 200, 100);
    const after = await nodes.b.get(`/v1/reports/${before.json.job_id}`, key);
    expect(after.json.status).toBe('completed');
  }, 60_000);
});

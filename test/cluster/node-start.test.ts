/**
 * An API node started while NATS is unreachable starts at once, answers keyed requests with 502 problem documents
 * (never hangs), and serves normally once NATS listens.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectProblem, startE2eServer, type E2eServer } from '../e2e/support/e2e-server.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';
import { TEST_LINK_OPTIONS, until } from './support/links.js';
import { startComputeWorker } from './support/cluster-nodes.js';
import type { WorkerNode } from '../../src/cluster/worker-process.js';

let nats: TestNatsServer;
let node: E2eServer;
let worker: WorkerNode;
beforeAll(async () => {
  nats = await startNatsServer();
  await nats.stop();
  node = await startE2eServer({ config: { nats: { url: nats.url, ackWaitMs: TEST_LINK_OPTIONS.ackWaitMs, maxDeliver: TEST_LINK_OPTIONS.maxDeliver }, computeThreads: 1 } });
  // Its compute worker starts while NATS is down too.
  worker = await startComputeWorker(nats.url, node.server.config.dataDir);
}, 60_000);
afterAll(async () => {
  await node?.close();
  await worker?.stop();
  await nats?.dispose();
});

it('starts without NATS, answers 502 while it is away, and serves once it listens', async () => {
  const key = node.issue({ label: 'start' });
  expectProblem(await node.get('/v1/key', key), 502, 'upstream_error');
  expectProblem(await node.get('/v1/historical/stats?lat=50.8467&lon=4.3525&radius=30', key), 502, 'upstream_error');
  expect((await node.get('/v1/health')).status).toBe(200);
  await nats.start();
  await until(async () => (await node.get('/v1/key', key)).status === 200, 100);
  const stats = await node.get('/v1/historical/stats?lat=50.8467&lon=4.3525&radius=30', key);
  expect(stats.status, stats.text).toBe(200);
});

/**
 * End to end with a real nats-server, real `svc worker` processes and API nodes serving HTTP: a cluster node answers
 * exactly as the embedded default; a worker killed with SIGKILL mid-task has its task redone once by another worker,
 * with the right answer; a worker that cannot read its data answers with a clear error, not a loop; NATS unreachable
 * at the start or stopped later gives 502 problem documents at once, and the node recovers when NATS returns.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { createNatsCompute } from '../../src/cluster/nats-compute.js';
import { RESULT_STREAM } from '../../src/cluster/names.js';
import { DELIVERY_HEADER, NatsTaskQueue } from '../../src/cluster/task-queue.js';
import { DatasetError } from '../../src/errors.js';
import { WEB_MERCATOR_HALF_WORLD_M, wgs84ToWebMercator } from '../../src/geo/crs.js';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import { hourlyChunkKey } from '../../src/store/zarr-metadata.js';
import { expectProblem, startE2eServer, type E2eResponse, type E2eServer } from '../e2e/support/e2e-server.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';

const ACK_WAIT_MS = 2_000;
const WORKER_ENV = { SVC_NATS_ACK_WAIT_MS: String(ACK_WAIT_MS), SVC_NATS_MAX_DELIVER: '3' };

/** The answer without what differs between two computations of it (the time it was computed, cache headers). */
function answer(res: E2eResponse): unknown {
  expect(res.status, res.text).toBe(200);
  const body = structuredClone(res.json) as { meta: Record<string, unknown> };
  delete body.meta.generated_utc;
  delete body.meta.computed_utc;
  return body;
}

let nats: TestNatsServer;
let dataDir: string;
let embedded: E2eServer;
let cluster: E2eServer;
let embeddedKey: string;
let clusterKey: string;
let root: string;
let inspector: ClusterLink;
const workers: WorkerProcess[] = [];
/** Every worker process a test started, killed at the end whatever happened. */
const started: WorkerProcess[] = [];
/** Starts a worker process that is cleaned up after the tests. */
async function startWorker(data: string): Promise<WorkerProcess> {
  const w = await startWorkerProcess(nats.url, data, { env: WORKER_ENV });
  started.push(w);
  return w;
}

/** The Web Mercator tile holding the Grand-Place at zoom `z`. */
function tileAt(z: number): [number, number] {
  const [mx, my] = wgs84ToWebMercator(4.35224, 50.84675);
  const span = (2 * WEB_MERCATOR_HALF_WORLD_M) / 2 ** z;
  return [Math.floor((mx + WEB_MERCATOR_HALF_WORLD_M) / span), Math.floor((WEB_MERCATOR_HALF_WORLD_M - my) / span)];
}

/** A pause between retries while a node reconnects (not a timing assertion: it only spares the rate limit). */
const pause = () => new Promise((r) => setTimeout(r, 100));

/** The `Svc-Delivery` header of the last result stored in SVC_RESULTS. */
async function lastResultDelivery(): Promise<string | undefined> {
  const { jsm } = await inspector.ready();
  const { state } = await jsm.streams.info(RESULT_STREAM);
  const msg = await jsm.streams.getMessage(RESULT_STREAM, { seq: state.last_seq });
  return msg?.header?.get(DELIVERY_HEADER);
}

const clusterConfig = () => ({ nats: { url: nats.url, ackWaitMs: ACK_WAIT_MS, maxDeliver: 3 } });
const stats = (server: E2eServer, key: string, query: string) => server.get(`/v1/historical/stats?${query}`, key);

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-cluster-e2e-'));
  nats = await startNatsServer();
  dataDir = await fixtureDataDir();
  embedded = await startE2eServer();
  embeddedKey = embedded.issue({ label: 'embedded', ratePerMin: 1000 });
  cluster = await startE2eServer({ config: clusterConfig() });
  await cluster.server.cluster!.link.ready();
  clusterKey = cluster.issue({ label: 'cluster', ratePerMin: 1000 });
  inspector = ClusterLink.start({ url: nats.url, name: 'test-inspector', ackWaitMs: ACK_WAIT_MS, maxDeliver: 3, retryMs: 100 });
  for (let i = 0; i < 2; i++) workers.push(await startWorker(dataDir));
}, 120_000);
afterAll(async () => {
  for (const w of started) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await inspector?.close();
  await cluster?.close();
  await embedded?.close();
  await nats?.dispose();
  await rm(root, { recursive: true, force: true });
});

describe('an API node in cluster mode with two worker processes', () => {
  for (const [name, query] of [
    ['a point', 'lat=50.8467&lon=4.3525'],
    ['a 50 m radius', 'lat=50.8462&lon=4.3540&radius_m=50'],
    ['a nationwide point', 'lat=50.6326&lon=5.5797'],
  ]) {
    it(`answers ${name} exactly as the embedded default`, async () => {
      expect(answer(await stats(cluster, clusterKey, query))).toEqual(answer(await stats(embedded, embeddedKey, query)));
    });
  }

  it('answers an area (its pooled statistics and atlas task on the workers) exactly as the embedded default', async () => {
    const body = { type: 'Feature', id: 'site', geometry: { type: 'Polygon', coordinates: [[[4.3500, 50.8450], [4.3530, 50.8450], [4.3530, 50.8470], [4.3500, 50.8470], [4.3500, 50.8450]]] } };
    const [fromCluster, fromEmbedded] = await Promise.all([[cluster, clusterKey], [embedded, embeddedKey]].map(async ([node, key]) => {
      const res = await (node as E2eServer).post('/v1/historical/area', body, key as string);
      expect(res.status, res.text).toBe(200);
      delete res.json.features[0].statistics.meta.generated_utc;
      return res.json;
    }));
    expect(fromCluster.features[0].statistics.meta.n_cells).toBeGreaterThan(10);
    expect(fromCluster).toEqual(fromEmbedded);
  });

  it('draws map tiles on the workers byte for byte as the embedded pool draws them', async () => {
    const catalog = (await cluster.get('/v1/map/brussels', clusterKey)).json;
    const [x, y] = tileAt(14);
    for (const tilejson of [catalog.static.buildings.tilejson, catalog.live.layers.thermal.tilejson]) {
      const doc = await cluster.get(tilejson);
      expect(doc.status, doc.text).toBe(200);
      // The same signed path on both nodes (they share the data directory's tile secret).
      const path = new URL(doc.json.tiles[0].replace('{z}', '14').replace('{x}', String(x)).replace('{y}', String(y)));
      const [fromCluster, fromEmbedded] = await Promise.all([cluster, embedded].map(async (node) => {
        const res = await fetch(`${node.base}${path.pathname}${path.search}`);
        expect(res.status).toBe(200);
        return new Uint8Array(await res.arrayBuffer());
      }));
      expect(fromCluster!.byteLength).toBeGreaterThan(0);
      expect(fromCluster).toEqual(fromEmbedded);
    }
  });

  it('runs a report job on a worker process (svc worker serves the report kind) and serves its files', async () => {
    const key = cluster.issue({ label: 'reports', products: ['reports'] });
    const accepted = await cluster.post('/v1/reports', { lat: 50.8466, lon: 4.3527, radius: 25 }, key);
    expect(accepted.status, accepted.text).toBe(202);
    const id = accepted.json.job_id as string;
    let status = await cluster.get(`/v1/reports/${id}`, key);
    while (status.json?.status === 'processing') {
      await pause();
      status = await cluster.get(`/v1/reports/${id}`, key);
    }
    expect(status.json).toMatchObject({ job_id: id, status: 'completed' });
    const html = await cluster.get(`/v1/reports/${id}/download?format=html`, key);
    expect(html.status).toBe(200);
    expect(html.text).toMatch(/<html/i);
  }, 60_000);

  it('runs a batch job on a worker process beside reports, its answers those of the embedded default', async () => {
    const key = cluster.issue({ label: 'batch' });
    const locations = [{ id: 'a', lat: 50.8466, lon: 4.3529 }, { id: 'b', lat: 50.8468, lon: 4.3529, radius: 20 }, { id: 'out', lat: 48.85, lon: 2.35 }];
    const accepted = await cluster.post('/v1/historical/jobs', { locations, metrics: 'air,wind' }, key);
    expect(accepted.status, accepted.text).toBe(202);
    const url = accepted.headers.get('location')!;
    let status = await cluster.get(url, key);
    while (status.json?.status === 'processing') {
      await pause();
      status = await cluster.get(url, key);
    }
    expect(status.json).toMatchObject({ status: 'completed', progress: { total: 3, done: 3 } });
    const features = JSON.parse((await cluster.get(status.json.files.geojson.url, key)).text).features;
    expect(features.map((f: { properties: { ok: boolean } }) => f.properties.ok)).toEqual([true, true, false]);
    const local = await embedded.post('/v1/historical/batch?metrics=air,wind', { locations }, embeddedKey);
    expect(features[1].properties['air.rating']).toBe(local.json.results[1].result.air.rating);
    expect(features[1].properties['meta.n_cells']).toBe(local.json.results[1].result.meta.n_cells);
    expect(features[2].properties.error_code).toBe('outside_coverage');
  }, 60_000);

  it('stops its workers gracefully on SIGTERM (exit code 0)', async () => {
    for (const w of workers.splice(0)) {
      w.child.kill('SIGTERM');
      expect(await w.exited).toBe(0);
      expect(w.lines.some((l) => l.msg === 'stopped')).toBe(true);
    }
  });

  it('redoes once, on another worker, the task of a worker killed with SIGKILL mid-task; the answer is right', async () => {
    const [lat, lon] = [50.8471, 4.3519];
    // The first worker's copy of the data holds, in place of the chunk this query reads, a named pipe: reading it
    // blocks until the test writes, and the test's open() returns exactly when the worker opened it — mid-task.
    const slowData = join(root, 'slow-data');
    await cp(dataDir, slowData, { recursive: true });
    const { chunks } = await planSample(await computeDataset(dataDir, 'brussels_extended'), { dataset: 'brussels_extended', lat, lon });
    const chunk = join(slowData, 'brussels_extended', hourlyChunkKey('no2', chunks[0]!.chunkRow, chunks[0]!.chunkCol));
    await rm(chunk);
    execFileSync('mkfifo', [chunk]);
    const doomed = await startWorker(slowData);
    const pending = stats(cluster, clusterKey, `lat=${lat}&lon=${lon}`);
    const pipe = await open(chunk, 'w');
    doomed.child.kill('SIGKILL');
    await doomed.exited;
    await pipe.close();
    workers.push(await startWorker(dataDir));
    expect(answer(await pending)).toEqual(answer(await stats(embedded, embeddedKey, `lat=${lat}&lon=${lon}`)));
    // The last result the workers published is this task's, from its second delivery.
    expect(await lastResultDelivery()).toBe('2');
  }, 60_000);

  it('answers with a clear error, once, when the only worker cannot read its data', async () => {
    for (const w of workers.splice(0)) {
      w.child.kill('SIGTERM');
      await w.exited;
    }
    const blind = await startWorker(join(root, 'no-such-data'));
    // Over HTTP: a 502 whose detail names no server path (the worker's error goes to the node's log).
    const res = await stats(cluster, clusterKey, 'lat=50.8473&lon=4.3531');
    expect(expectProblem(res, 502, 'upstream_error').detail).not.toMatch(/no-such-data/);
    // The error itself, as the API node receives it: it names the worker and what it cannot read, from one delivery.
    const queue = new NatsTaskQueue({ link: inspector, defaultTimeoutMs: 30_000 });
    const err = await createNatsCompute({ queue, dataDir }).computeStats({ dataset: 'brussels_extended', lat: 50.8473, lon: 4.3531 })
      .catch((e: unknown) => e);
    queue.close();
    expect(err).toBeInstanceOf(DatasetError);
    expect((err as Error).message).toMatch(/^Compute worker \S+ cannot use its data: Dataset not found: .*no-such-data\/brussels_extended does not exist/);
    expect(await lastResultDelivery()).toBe('1');
    blind.child.kill('SIGTERM');
    await blind.exited;
    workers.push(await startWorker(dataDir));
  }, 60_000);
});

describe('NATS unreachable', () => {
  it('answers 502 at once while NATS is stopped, and recovers when it returns', async () => {
    await nats.stop();
    const res = await stats(cluster, clusterKey, 'lat=50.8475&lon=4.3529');
    const body = expectProblem(res, 502, 'upstream_error');
    expect(String(body.detail)).toMatch(/retrying is reasonable/);
    await nats.start();
    await inspector.ready();
    await cluster.server.compute.datasetVersion('brussels_extended');
    let again = await stats(cluster, clusterKey, 'lat=50.8475&lon=4.3529');
    // The node may not have reconnected yet when the test's own link did: it answers 502 until then, never hangs.
    while (again.status === 502) {
      await pause();
      again = await stats(cluster, clusterKey, 'lat=50.8475&lon=4.3529');
    }
    expect(answer(again)).toEqual(answer(await stats(embedded, embeddedKey, 'lat=50.8475&lon=4.3529')));
  }, 60_000);

  it('starts an API node while NATS is down; it answers 502 until NATS is up, then answers', async () => {
    await nats.stop();
    const late = await startE2eServer({ config: clusterConfig() });
    try {
      const key = late.issue({ label: 'late', ratePerMin: 1000 });
      expectProblem(await stats(late, key, 'lat=50.8477&lon=4.3527'), 502, 'upstream_error');
      const health = await late.get('/v1/health');
      expect(health.status).toBe(200);
      await nats.start();
      let res = await stats(late, key, 'lat=50.8477&lon=4.3527');
      while (res.status === 502) {
        await pause();
        res = await stats(late, key, 'lat=50.8477&lon=4.3527');
      }
      expect(answer(res)).toEqual(answer(await stats(embedded, embeddedKey, 'lat=50.8477&lon=4.3527')));
    } finally {
      await late.close();
    }
  }, 60_000);
});

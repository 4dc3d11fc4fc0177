/**
 * The compute facade over NATS against the local pool, with a real nats-server and two workers (one thread each):
 * the same planning and the same tasks give the same answers (statistics of a point, of a 50 m radius whole and split
 * into accumulate/finalize tasks, a surroundings grid, a precompute row), and errors come back as the same errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNatsCompute } from '../../src/cluster/nats-compute.js';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { NatsTaskQueue } from '../../src/cluster/task-queue.js';
import { startWorkerNode, type WorkerNode } from '../../src/cluster/worker-process.js';
import type { StatsComputation, StatsRequest } from '../../src/compute/compute-types.js';
import { createLocalCompute } from '../../src/compute/local-compute.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';
import { encodeTaskData } from '../../src/compute/tasks/task-codec.js';
import { OutsideCoverageError, UpstreamError, ValidationError } from '../../src/errors.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';

const LIMITS = { ackWaitMs: 5_000, maxDeliver: 3 };

/** A computation without its time stamp (the only field that differs between two runs). */
function timeless(c: StatsComputation): Omit<StatsComputation, 'generated_utc'> {
  const { generated_utc: _t, ...rest } = c;
  return rest;
}

describe('compute over NATS with two workers', () => {
  let nats: TestNatsServer;
  let dataDir: string;
  let local: PlannedCompute;
  let workers: WorkerNode[];
  let link: ClusterLink;
  let queue: NatsTaskQueue;
  let cluster: PlannedCompute;
  let clusterSplit: PlannedCompute;

  beforeAll(async () => {
    nats = await startNatsServer();
    dataDir = await fixtureDataDir();
    local = await createLocalCompute({ dataDir, threads: 1 });
    workers = await Promise.all([0, 1].map(() => startWorkerNode({ natsUrl: nats.url, dataDir, threads: 1, ...LIMITS })));
    link = ClusterLink.start({ url: nats.url, name: 'test-api', ...LIMITS });
    await link.ready();
    queue = new NatsTaskQueue({ link, defaultTimeoutMs: 60_000 });
    cluster = createNatsCompute({ queue, dataDir });
    clusterSplit = createNatsCompute({ queue, dataDir, split: 3, splitMinChunks: 2 });
  }, 60_000);
  afterAll(async () => {
    queue?.close();
    await link?.close();
    await Promise.all((workers ?? []).map((w) => w.stop()));
    await local?.close();
    await nats?.dispose();
  });

  const cases: [string, StatsRequest][] = [
    ['a point in Brussels', { dataset: 'brussels_extended', lat: 50.8467, lon: 4.3525 }],
    ['a 50 m radius in Brussels', { dataset: 'brussels_extended', lat: 50.8462, lon: 4.354, radius_m: 50 }],
    ['a nationwide point', { dataset: 'belgium_lowres', lat: 50.6326, lon: 5.5797 }],
  ];
  for (const [name, request] of cases) {
    it(`answers ${name} exactly as the local pool, whole and split into accumulate/finalize tasks`, async () => {
      const expected = timeless(await local.computeStats(request));
      expect(timeless(await cluster.computeStats(request))).toEqual(expected);
      expect(timeless(await clusterSplit.computeStats(request))).toEqual(expected);
    });
  }

  it('spreads the tasks of a split query over both workers', async () => {
    const before = workers.map((w) => w.loop.completed);
    await Promise.all([1, 2, 3, 4].map((k) =>
      clusterSplit.computeStats({ dataset: 'brussels_extended', lat: 50.8462 + k * 1e-4, lon: 4.354, radius_m: 50 })));
    workers.forEach((w, i) => expect(w.loop.completed).toBeGreaterThan(before[i]!));
  });

  it('computes the surroundings grid exactly as the local pool', async () => {
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8462, lon: 4.354, radius_m: 30 };
    expect(await cluster.surroundings(request)).toEqual(await local.surroundings(request));
  });

  it('computes a precompute row exactly as the local pool (float bits included)', async () => {
    const [a, b] = await Promise.all([local.precomputeRow('brussels_extended', 1), cluster.precomputeRow('brussels_extended', 1)]);
    expect(b.row0).toBe(a.row0);
    expect(b.cellsComputed).toBe(a.cellsComputed);
    expect(Object.keys(b.grids).sort()).toEqual(Object.keys(a.grids).sort());
    for (const [name, grid] of Object.entries(a.grids)) {
      expect(new Uint8Array(b.grids[name]!.buffer), name).toEqual(new Uint8Array(grid.buffer, grid.byteOffset, grid.byteLength));
    }
  });

  it('rebuilds the error a worker sends as data', async () => {
    const far: StatsRequest = { dataset: 'brussels_extended', lat: 50.8467, lon: 4.3525, radius_m: 5 };
    const localError = await local.computeStats({ ...far, lat: 51.5 }).catch((e: unknown) => e);
    const clusterError = await cluster.surroundings({ ...far, lat: 51.5 }).catch((e: unknown) => e);
    expect(localError).toBeInstanceOf(OutsideCoverageError);
    expect(clusterError).toBeInstanceOf(OutsideCoverageError);
  });

  it('answers bytes that do not decode with UpstreamError, and a task of another kind than its subject with ValidationError', async () => {
    const garbage = await queue.request('stats', new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8, 9])).catch((e: unknown) => e);
    expect(garbage).toBeInstanceOf(UpstreamError);
    expect((garbage as Error).message).toMatch(/^A task message could not be decoded \(not a task message\)/);
    const misfiled = encodeTaskData({ kind: 'surroundings', request: { dataset: 'brussels_extended', lat: 50.8467, lon: 4.3525 } });
    const wrongKind = await queue.request('stats', misfiled).catch((e: unknown) => e);
    expect(wrongKind).toBeInstanceOf(ValidationError);
    expect((wrongKind as Error).message).toBe('A task on svc.task.stats does not hold a stats task.');
    // Neither is handed back for another delivery: both workers stay free for the next task.
    const request: StatsRequest = { dataset: 'brussels_extended', lat: 50.8467, lon: 4.3525 };
    expect(timeless(await cluster.computeStats(request))).toEqual(timeless(await local.computeStats(request)));
  });
});

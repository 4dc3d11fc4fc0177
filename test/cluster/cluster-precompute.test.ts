/**
 * Distributed precompute against the local run, with a real nats-server and two in-process workers: the same output
 * files byte for byte (time stamps aside) and the same values read back with xarray; a coordinator interrupted with
 * row tasks still queued resumes without queuing any row twice (each row computed once in all).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { clusterPrecompute } from '../../src/nodes/cluster-precompute.js';
import { computeTaskHandlers } from '../../src/cluster/compute-handlers.js';
import { TASK_STREAM } from '../../src/cluster/names.js';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import type { TaskHandler } from '../../src/cluster/task-types.js';
import { startWorkerNode, type WorkerNode } from '../../src/cluster/worker-process.js';
import { PRECOMPUTE_GRIDS } from '../../src/stats/atlas-figures.js';
import { precomputeCity, type PrecomputeSummary } from '../../src/services/precompute.js';
import { tempDir } from '../store/helpers.js';
import { expectSamePrecompute, precomputeDirs } from './support/precompute-dirs.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';

const DATASET = 'brussels_extended';
const PYTHON = '/usr/bin/python3';
const hasXarray = spawnSync(PYTHON, ['-c', 'import xarray, zarr'], { encoding: 'utf8' }).status === 0;
const LIMITS = { ackWaitMs: 10_000, maxDeliver: 3 };

let nats: TestNatsServer;
let root: { dir: string; cleanup: () => Promise<void> };
let local: { dir: string; summary: PrecomputeSummary };
let cluster: { dir: string; summary: PrecomputeSummary };
let firstAttempt: unknown;
const rowsComputed = new Map<number, number>();
const workers: WorkerNode[] = [];

/** The compute kinds, counting the precompute rows each worker computes. */
function countingKinds(parts: Parameters<typeof computeTaskHandlers>) {
  const handlers = computeTaskHandlers(...parts);
  const row = handlers.get('precompute-row')!;
  const counted: TaskHandler = async (payload, context) => {
    const out = await row(payload, context);
    const n = Number(context.taskId.slice(context.taskId.lastIndexOf('-') + 1));
    rowsComputed.set(n, (rowsComputed.get(n) ?? 0) + 1);
    return out;
  };
  return handlers.set('precompute-row', counted);
}

/** Waits until `check` holds, polling (the hook's time-out bounds it; no timing assertion). */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((r) => setTimeout(r, 20));
}

/** The task stream's state, through a link of the test's own. */
async function inspect() {
  const link = ClusterLink.start({ url: nats.url, name: 'test-inspect', ...LIMITS });
  try {
    return await (await link.ready()).jsm.streams.info(TASK_STREAM);
  } finally {
    await link.close();
  }
}

beforeAll(async () => {
  nats = await startNatsServer();
  root = await tempDir('cluster-precompute');
  const city = getCity('brussels')!;
  const dirs = await precomputeDirs(root.dir, DATASET);
  local = dirs.local;
  const clusterDir = dirs.clusterDir;

  // A coordinator with no worker running: its row tasks are queued; then it is interrupted (its link closes).
  const first = await clusterPrecompute(nats.url, clusterDir, DATASET);
  const attempt = precomputeCity(first.compute, clusterDir, city, undefined, first.options).catch((e: unknown) => e);
  await until(async () => (await inspect()).state.messages > 0);
  await first.close();
  firstAttempt = await attempt;

  // The workers start and work off the queue; a new coordinator resumes.
  for (let i = 0; i < 2; i++) {
    workers.push(await startWorkerNode({
      natsUrl: nats.url, dataDir: clusterDir, threads: 1, ...LIMITS,
      kinds: [(p) => countingKinds([p.executor, p.dataDir, p.workerId])],
    }));
  }
  const second = await clusterPrecompute(nats.url, clusterDir, DATASET);
  try {
    cluster = { dir: join(clusterDir, `${DATASET}.precomputed`), summary: await precomputeCity(second.compute, clusterDir, city, undefined, second.options) };
  } finally {
    await second.close();
  }
}, 180_000);
afterAll(async () => {
  for (const w of workers) await w.stop();
  await nats?.dispose();
  await root?.cleanup();
});

describe('svc precompute over NATS', () => {
  it('was interrupted the first time, and resumed without computing any row twice', () => {
    expect(firstAttempt).toBeInstanceOf(Error);
    const rows = local.summary.rowsComputed;
    expect(rows).toBeGreaterThan(1);
    expect([...rowsComputed.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: rows }, (_, r) => r));
    expect([...rowsComputed.values()].every((n) => n === 1)).toBe(true);
  });

  it('writes the same files as the local run, byte for byte apart from time stamps, and the same references', async () => {
    expect(cluster.summary.references).toEqual(local.summary.references);
    expect(cluster.summary.cells).toBe(local.summary.cells);
    await expectSamePrecompute(local.dir, cluster.dir);
  });

  it.skipIf(!hasXarray)('writes a group xarray reads with the same values as the local run', () => {
    const script = [
      'import json, math, sys, xarray as xr',
      'ds = xr.open_zarr(sys.argv[1])',
      'print(json.dumps({n: [None if math.isnan(v) else v for v in ds[n].values.astype("float64").ravel().tolist()] for n in sys.argv[2:]}))',
    ].join('\n');
    const read = (dir: string) => JSON.parse(execFileSync(PYTHON, ['-c', script, dir, ...PRECOMPUTE_GRIDS], { encoding: 'utf8', maxBuffer: 1 << 28 }));
    expect(read(cluster.dir)).toEqual(read(local.dir));
  });
});

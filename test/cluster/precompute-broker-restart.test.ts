/**
 * A distributed precompute through a broker crash: the test's nats-server is killed with SIGKILL once the first row is
 * in, and started again a few seconds later on the same port and store, while two `svc worker` processes and the
 * coordinator keep running. The run goes on by itself and ends as a local run does, byte for byte; every row has one
 * result in `SVC_RESULTS` (computed and delivered once: a row run twice would publish a result per delivery). And a
 * coordinator whose cluster stays away longer than its bound stops with an error that says how to resume.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { RESULT_STREAM, RESULT_SUBJECT_PREFIX, TASK_STREAM } from '../../src/cluster/names.js';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { UpstreamError } from '../../src/errors.js';
import { clusterPrecompute } from '../../src/nodes/cluster-precompute.js';
import { precomputeCity, type PrecomputeSummary } from '../../src/services/precompute.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { tempDir } from '../store/helpers.js';
import { expectSamePrecompute, precomputeDirs } from './support/precompute-dirs.js';
import { until } from './support/links.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';

const DATASET = 'brussels_extended';
const LIMITS = { ackWaitMs: 10_000, maxDeliver: 3, outageMs: 60_000 };
/** How long the broker stays dead: a few seconds, well within the bound and the ack wait. */
const OUTAGE_MS = 3_000;

let nats: TestNatsServer;
let root: { dir: string; cleanup: () => Promise<void> };
let local: { dir: string; summary: PrecomputeSummary };
let cluster: { dir: string; summary: PrecomputeSummary };
const workers: WorkerProcess[] = [];
/** Rows in when the broker was killed, of how many. */
let killedAt: { rows: number; total: number } | undefined;
/** Whether the coordinator saw the cluster unreachable (what its progress bar shows). */
let outageSeen = false;

/** Every result message stored in `SVC_RESULTS`, as [subject, delivery header]. */
async function storedResults(url: string): Promise<Array<[string, string | undefined]>> {
  const link = ClusterLink.start({ url, name: 'test-inspect', ...LIMITS });
  try {
    const { jsm } = await link.ready();
    const { state } = await jsm.streams.info(RESULT_STREAM);
    const out: Array<[string, string | undefined]> = [];
    for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
      const msg = await jsm.streams.getMessage(RESULT_STREAM, { seq });
      if (msg !== null) out.push([msg.subject, msg.header?.get('Svc-Delivery')]);
    }
    return out;
  } finally {
    await link.close();
  }
}

beforeAll(async () => {
  nats = await startNatsServer();
  root = await tempDir('precompute-broker-restart');
  const city = getCity('brussels')!;
  const dirs = await precomputeDirs(root.dir, DATASET);
  local = dirs.local;
  const clusterDir = dirs.clusterDir;

  const env = { SVC_NATS_ACK_WAIT_MS: String(LIMITS.ackWaitMs), SVC_NATS_MAX_DELIVER: String(LIMITS.maxDeliver) };
  for (let i = 0; i < 2; i++) workers.push(await startWorkerProcess(nats.url, clusterDir, { threads: 1, env }));
  const coordinator = await clusterPrecompute(nats.url, clusterDir, DATASET, LIMITS);
  let crash: Promise<void> | undefined;
  let rows = 0;
  let total = 0;
  const progress = {
    start: (n: number) => (total = n),
    row: () => {
      rows++;
      // The first row is in: the broker dies now, mid-run, and comes back on the same port and store.
      if (crash !== undefined) return;
      killedAt = { rows, total };
      crash = (async () => {
        await nats.stop('SIGKILL');
        await until(() => coordinator.downSince() !== undefined);
        outageSeen = true;
        await new Promise((r) => setTimeout(r, OUTAGE_MS));
        await nats.start();
      })();
    },
  };
  try {
    const summary = await precomputeCity(coordinator.compute, clusterDir, city, progress, coordinator.options);
    cluster = { dir: join(clusterDir, `${DATASET}.precomputed`), summary };
    await crash;
  } finally {
    await coordinator.close();
  }
}, 240_000);

afterAll(async () => {
  for (const w of workers) {
    w.child.kill('SIGTERM');
    await w.exited;
  }
  await nats?.dispose();
  await root?.cleanup();
});

describe('svc precompute --nats through a broker killed with SIGKILL and restarted', () => {
  it('was cut off mid-run, showed the outage, and went on by itself to the end', () => {
    expect(killedAt).toBeDefined();
    expect(killedAt!.rows).toBeLessThan(killedAt!.total);
    expect(outageSeen).toBe(true);
    expect(cluster.summary.rowsComputed).toBe(local.summary.rowsComputed);
    expect(cluster.summary.rowsResumed).toBe(0);
    for (const w of workers) expect(w.lines.some((l) => l.msg === 'reconnected to NATS')).toBe(true);
  });

  it('computed and delivered every row once: one stored result per row, no result lost or held back', async () => {
    const results = await storedResults(nats.url);
    // Row tasks only (the city references' statistics tasks go through the same requester, with random ids).
    const prefix = `${RESULT_SUBJECT_PREFIX}.precompute-${DATASET}.pre-${DATASET}-`;
    const rows = results.filter(([subject]) => subject.startsWith(prefix)).map(([subject]) => Number(subject.slice(subject.lastIndexOf('-') + 1)));
    expect(rows.sort((a, b) => a - b)).toEqual(Array.from({ length: local.summary.rowsComputed }, (_, r) => r));
    for (const w of workers) expect(w.lines.filter((l) => /not delivered|not confirmed/.test(String(l.msg)))).toEqual([]);
  });

  it('writes the same files as the local run, byte for byte apart from time stamps, and the same references', async () => {
    expect(cluster.summary.references).toEqual(local.summary.references);
    expect(cluster.summary.cells).toBe(local.summary.cells);
    await expectSamePrecompute(local.dir, cluster.dir);
  });

  it('stops with an error saying how to resume once the cluster stays away longer than its bound', async () => {
    // A broker of its own with no worker: the rows wait in its queue when it dies, and it does not come back in time.
    const lone = await startNatsServer();
    const dir = join(root.dir, 'bounded');
    await cp(join(await fixtureDataDir(), DATASET), join(dir, DATASET), { recursive: true });
    const coordinator = await clusterPrecompute(lone.url, dir, DATASET, { ...LIMITS, outageMs: 1_000 });
    try {
      const run = precomputeCity(coordinator.compute, dir, getCity('brussels')!, undefined, coordinator.options).catch((e: unknown) => e);
      const inspector = ClusterLink.start({ url: lone.url, name: 'test-inspect', ...LIMITS });
      const { jsm } = await inspector.ready();
      await until(async () => (await jsm.streams.info(TASK_STREAM)).state.messages > 0);
      await inspector.close();
      await lone.stop('SIGKILL');
      const err = await run;
      expect(err).toBeInstanceOf(UpstreamError);
      expect((err as Error).message).toMatch(/unreachable for 1 s.*Rerun the same command once NATS is back to resume.*SVC_NATS_OUTAGE_MS/);
    } finally {
      await coordinator.close();
      await lone.dispose();
    }
  }, 60_000);
});

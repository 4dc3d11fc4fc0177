/**
 * A batch job of a few hundred locations on a cluster (a real nats-server, an API node, two `svc worker` processes)
 * whose worker is killed with SIGKILL partway through: the job is claimed again by the other worker and completes
 * once — its second attempt, one move into `delivering` and one into `completed`, each file stored once, whole (every
 * location in each file exactly once, every answer a result), and nothing else left in the object store.
 *
 * The worker that took the job (the job's lease names it) is frozen with SIGSTOP once the shared statistics cache holds
 * some of the job's answers, checked to be mid-job (running, first attempt, not every location answered), then killed.
 * Every wait polls a state with a bounded deadline; nothing asserts on time.
 */
import { KvWatchInclude } from '@nats-io/kv';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../../src/batch/csv-table.js';
import { JOBS_BUCKET, REPORTS_OBJECT_BUCKET, STATS_BUCKET } from '../../src/cluster/names.js';
import { ClusterLink } from '../../src/cluster/nats-connection.js';
import { computeDataset } from '../../src/compute/datasets/dataset-cache.js';
import { planSample } from '../../src/compute/planning/sample-plan.js';
import type { ReportJob } from '../../src/reports/jobs/job-types.js';
import type { StoredJob } from '../../src/reports/jobs/kv-job-entries.js';
import { startE2eServer, type E2eServer } from '../e2e/support/e2e-server.js';
import { fixtureDataDir } from '../helpers/fixtures.js';
import { startNatsServer, type TestNatsServer } from './support/nats-server.js';
import { startWorkerProcess, type WorkerProcess } from './support/worker-process.js';

const ACK_WAIT_MS = 2_000;
const WORKER_ENV = { SVC_NATS_ACK_WAIT_MS: String(ACK_WAIT_MS), SVC_NATS_MAX_DELIVER: '3' };
/** Locations of the job. */
const COUNT = 300;
/** Statistics the first worker has stored (locations answered) when it is frozen, then killed. */
const ANSWERED_BEFORE_KILL = 20;

/** Polls `check` until it yields a value, at most `deadlineMs` (a bound against hanging, not a timing assertion). */
async function poll<T>(what: string, check: () => Promise<T | undefined>, deadlineMs = 120_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

let nats: TestNatsServer;
let root: string;
let dataDir: string;
let node: E2eServer;
let inspector: ClusterLink;
const started: WorkerProcess[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'svc-batch-lost-worker-'));
  nats = await startNatsServer();
  dataDir = await fixtureDataDir();
  node = await startE2eServer({ config: { nats: { url: nats.url, ackWaitMs: ACK_WAIT_MS, maxDeliver: 3 } } });
  await node.server.cluster!.link.ready();
  inspector = ClusterLink.start({ url: nats.url, name: 'test-inspector', ackWaitMs: ACK_WAIT_MS, maxDeliver: 3, retryMs: 100 });
  await inspector.ready();
}, 120_000);
afterAll(async () => {
  for (const w of started) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
  await inspector?.close();
  await node?.close();
  await nats?.dispose();
  await rm(root, { recursive: true, force: true });
});

/** `COUNT` locations on a lattice inside the fixture's grid. */
async function latticeLocations(): Promise<{ id: string; lat: number; lon: number }[]> {
  const dataset = await computeDataset(dataDir, 'brussels_extended');
  const points: { id: string; lat: number; lon: number }[] = [];
  for (let i = 0; i < 60 && points.length < COUNT; i++) {
    for (let j = 0; j < 60 && points.length < COUNT; j++) {
      const [lat, lon] = [Number((50.8400 + i * 0.0002).toFixed(5)), Number((4.3400 + j * 0.0003).toFixed(5))];
      try {
        await planSample(dataset, { dataset: 'brussels_extended', lat, lon });
      } catch {
        continue; // outside the fixture's grid
      }
      points.push({ id: `loc-${points.length}`, lat, lon });
    }
  }
  expect(points).toHaveLength(COUNT);
  return points;
}

describe('a batch job whose worker is killed partway through', () => {
  it('completes once on the other worker: attempts 2, one delivery, whole files, nothing left over', async () => {
    const locations = await latticeLocations();
    const workers = [
      await startWorkerProcess(nats.url, dataDir, { env: WORKER_ENV }),
      await startWorkerProcess(nats.url, dataDir, { env: WORKER_ENV }),
    ];
    started.push(...workers);
    const workerIds = await Promise.all(workers.map(async (w) => String((await w.waitFor((l) => l.msg === 'worker started')).worker)));

    // Every change of the job's entry, every statistics result and every file stored, as they happen.
    const { kvm, objm } = await inspector.ready();
    const states: string[] = [];
    const jobs = await kvm.open(JOBS_BUCKET);
    const jobWatch = await jobs.watch();
    void (async () => {
      // Job entries are named by the job's id; the index entries beside them (`open.…`) hold no job. A lease renewed
      // while delivering writes the entry again in the same state: only changes of state count.
      const last = new Map<string, string>();
      for await (const e of jobWatch) {
        if (e.operation !== 'PUT' || e.key.includes('.')) continue;
        const state = e.json<ReportJob>().state;
        if (last.get(e.key) !== state) states.push(`${e.key}:${state}`);
        last.set(e.key, state);
      }
    })();
    let answered = 0;
    const statsWatch = await (await kvm.create(STATS_BUCKET)).watch({ include: KvWatchInclude.UpdatesOnly });
    void (async () => {
      for await (const e of statsWatch) if (e.operation === 'PUT') answered++;
    })();
    const puts: string[] = [];
    const objects = await objm.create(REPORTS_OBJECT_BUCKET);
    const fileWatch = await objects.watch({ includeHistory: false });
    void (async () => {
      for await (const info of fileWatch) if (info !== null && !info.deleted) puts.push(info.name);
    })();

    const key = node.issue({ label: 'batch-lost-worker', ratePerMin: 100_000 });
    const accepted = await node.post('/v1/historical/jobs', { locations, metrics: 'air' }, key);
    expect(accepted.status, accepted.text).toBe(202);
    const id = accepted.json.job_id as string;

    // The worker holding the job is frozen once it has answered some locations, then killed: it is mid-job.
    await poll('the first locations answered', async () => (answered >= ANSWERED_BEFORE_KILL ? true : undefined));
    const owner = await poll('the job held', async () => (await jobs.get(id))?.json<StoredJob>().lease?.owner);
    const doomed = workers[workerIds.indexOf(owner.split(':')[0]!)]!;
    doomed.child.kill('SIGSTOP');
    expect((await jobs.get(id))!.json<ReportJob>()).toMatchObject({ state: 'running', attempts: 1 });
    expect(answered).toBeLessThan(COUNT);
    doomed.child.kill('SIGKILL');
    await doomed.exited;

    const url = accepted.headers.get('location')!;
    const status = await poll('the job to finish', async () => {
      const res = await node.get(url, key);
      return res.json?.status === 'processing' ? undefined : res;
    });
    expect(status.json, status.text).toMatchObject({ status: 'completed', progress: { total: locations.length, done: locations.length } });
    const job = (await jobs.get(id))!.json<ReportJob>();
    expect(job.attempts).toBe(2);
    const mine = (s: string) => states.filter((x) => x === `${id}:${s}`).length;
    expect({ delivering: mine('delivering'), completed: mine('completed'), failed: mine('failed') }).toEqual({ delivering: 1, completed: 1, failed: 0 });
    expect(puts.sort()).toEqual([`${id}.csv`, `${id}.geojson`]);

    // Whole files: every location exactly once, each with its answer.
    const geojson = JSON.parse((await node.get(status.json.files.geojson.url, key)).text) as { features: { properties: { id: string; ok: boolean } }[] };
    expect(geojson.features.map((f) => f.properties.id)).toEqual(locations.map((l) => l.id));
    expect(geojson.features.filter((f) => !f.properties.ok).map((f) => f.properties)).toEqual([]);
    const csv = parseCsv((await node.get(status.json.files.csv.url, key)).text, { maxRows: 10_000, maxColumns: 1_000, maxRowChars: 100_000 });
    const idColumn = csv.header.indexOf('id');
    expect(csv.rows.map((r) => r.fields[idColumn])).toEqual(locations.map((l) => l.id));

    // No partial objects: the store's stream holds the two files' chunks and descriptions, nothing more.
    const infos = await (await objects.list()).filter((o) => !o.deleted);
    expect(infos.map((o) => o.name).sort()).toEqual([`${id}.csv`, `${id}.geojson`]);
    const stream = await (await inspector.ready()).jsm.streams.info(`OBJ_${REPORTS_OBJECT_BUCKET}`);
    expect(stream.state.messages).toBe(infos.reduce((n, o) => n + o.chunks + 1, 0));
    jobWatch.stop();
    statsWatch.stop();
    fileWatch.stop();
  }, 240_000);
});

/**
 * Report jobs survive a restart of nats-server: jobs accepted on two API nodes are running on a worker when the
 * server stops; once it is back every job completes, exactly once (one completion each, one file each, no job made
 * twice, each charged once), and none is lost.
 */
import { reportRequestOf } from '../../../src/reports/jobs/job-types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KvJobStore } from '../../../src/reports/jobs/kv-job-store.js';
import { ObjectReportFiles } from '../../../src/reports/jobs/object-report-files.js';
import { utcDay } from '../../../src/reports/delivery/report-admission.js';
import { startNatsServer, type TestNatsServer } from '../../cluster/support/nats-server.js';
import { startClusterNodes, startReportWorker, type ClusterNodes, type ReportWorker } from '../../cluster/support/cluster-nodes.js';
import { until } from '../../cluster/support/links.js';

let nats: TestNatsServer;
let nodes: ClusterNodes;
let worker: ReportWorker;

beforeAll(async () => {
  nats = await startNatsServer();
  nodes = await startClusterNodes(nats.url);
  worker = await startReportWorker(nats.url, nodes.b, { workerId: 'restart-worker', leaseMs: 2_000, concurrency: 2 });
}, 60_000);
afterAll(async () => {
  await worker?.stop();
  await nodes?.close();
  await nats?.dispose();
});

const JOBS = 12;

describe('a nats-server restart during report jobs', () => {
  it('loses none and duplicates none', async () => {
    const key = nodes.issue({ label: 'restart', products: ['reports'], reportsPerDay: 100 });
    const accepted = await Promise.all(Array.from({ length: JOBS }, (_, i) =>
      (i % 2 === 0 ? nodes.a : nodes.b).post('/v1/reports', { lat: 50.8467 + i * 0.0002, lon: 4.3525, radius: 50 }, key)));
    for (const r of accepted) expect(r.status, r.text).toBe(202);
    const ids = accepted.map((r) => r.json.job_id as string);
    const store = new KvJobStore(worker.link);
    const states = async () => Promise.all(ids.map(async (id) => (await store.get(id))!.state));

    // Stop the server while some jobs are done and others are still waiting or running.
    await until(async () => (await states()).filter((s) => s === 'completed').length >= 2, 20);
    const snapshot = await states();
    await nats.stop();
    expect(snapshot.filter((s) => s !== 'completed').length).toBeGreaterThan(0);
    await until(() => worker.link.current() === undefined);
    await nats.start();
    await worker.link.ready();

    // Every job completes (the dispatcher and redelivery bring back what was in hand).
    await until(async () => (await states()).every((s) => s === 'completed'), 100);
    const jobs = await Promise.all(ids.map(async (id) => (await store.get(id))!));
    for (const job of jobs) {
      expect(job.completedMs).toBeDefined();
      expect(job.finishedMs).toBe(job.completedMs);
    }
    // One file per job, no job made twice, each charged once, nothing left open.
    const files = new ObjectReportFiles(worker.link);
    for (const id of ids) expect(await files.open(id, 'html')).toBeDefined();
    expect(await store.quotaUsed(jobs[0]!.keyId, utcDay(jobs[0]!.createdMs))).toBe(JOBS);
    expect((await store.openJobs()).filter((j) => j.keyId === jobs[0]!.keyId)).toEqual([]);
    expect(new Set(ids).size).toBe(JOBS);
    // Each job's content was gathered at least once; a second gathering only for a job taken over after the outage.
    for (const job of jobs) {
      const times = worker.gathered.get(`${reportRequestOf(job).lat},${reportRequestOf(job).lon},${reportRequestOf(job).lang}`) ?? 0;
      expect(times).toBeGreaterThanOrEqual(1);
      expect(times).toBeLessThanOrEqual(job.attempts);
    }
    // Polls on either node agree.
    for (const id of ids) expect((await nodes.a.get(`/v1/reports/${id}`, key)).json.status).toBe('completed');
  }, 120_000);
});

/**
 * Report tasks on the real durable consumer: a task runs its job once, duplicates of it do nothing; a transient
 * failure queues the job again and the dispatcher queues its next attempt once the back-off ends; a permanent one
 * fails it with a safe detail; a job whose key is gone fails; a malformed task is refused. Content and rendering are
 * the reports seam's doubles (the real ones run in cluster-api.test.ts and report-restart.test.ts).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KvJobStore } from '../../../src/reports/jobs/kv-job-store.js';
import type { ClusterLink } from '../../../src/cluster/nats-connection.js';
import { ObjectReportFiles } from '../../../src/reports/jobs/object-report-files.js';
import { ReportDispatcher } from '../../../src/reports/jobs/report-dispatch.js';
import { createReportTaskHandler, decodeReportTask, encodeReportTask, REPORT_TASK_KIND, reportTaskId } from '../../../src/reports/jobs/report-tasks.js';
import { JetStreamTaskSubmitter } from '../../../src/cluster/task-submit.js';
import { OutsideCoverageError, UpstreamError, ValidationError } from '../../../src/errors.js';
import type { Entitlement } from '../../../src/keys/entitlement.js';
import type { ApiKeyRecord } from '../../../src/keys/key-types.js';
import { systemClock } from '../../../src/util/clock.js';
import { FakeContentSource, FakeRenderer } from '../support/fake-report.js';
import { startNatsServer, type TestNatsServer } from '../../cluster/support/nats-server.js';
import { startLinks, until } from '../../cluster/support/links.js';
import { startTestConsumer, type TestConsumer } from '../../cluster/support/task-consumer.js';

let nats: TestNatsServer;
let links: ClusterLink[];
let store: KvJobStore;
let content: FakeContentSource;
let consumer: TestConsumer;
let dispatcher: ReportDispatcher;
const keys = new Map<number, ApiKeyRecord>();

beforeAll(async () => {
  nats = await startNatsServer();
  links = await startLinks(nats.url, 2);
  store = new KvJobStore(links[0]!);
});
afterAll(async () => {
  await Promise.all(links.map((l) => l.close()));
  await nats.dispose();
});
beforeEach(() => {
  content = new FakeContentSource();
  const handler = createReportTaskHandler({
    store: new KvJobStore(links[1]!), files: new ObjectReportFiles(links[1]!), content, renderer: new FakeRenderer(), clock: systemClock,
    policy: { maxAttempts: 3, backoffMs: 100, maxBackoffMs: 400 }, leaseMs: 3_000,
  });
  consumer = startTestConsumer(links[1]!, { [REPORT_TASK_KIND]: handler }, { workerId: 'w' });
  dispatcher = new ReportDispatcher({ store, tasks: new JetStreamTaskSubmitter(links[0]!), keyById: (id) => keys.get(id), clock: systemClock, intervalMs: 100 });
});
afterEach(async () => {
  await dispatcher.stop();
  await consumer.stop();
});

let seq = 0;
function keyRecord(id: number): ApiKeyRecord {
  return {
    id, type: 'sk', label: 'k', cities: ['*'], products: ['*'], metrics: ['*'], origins: [], ratePerMin: undefined,
    reportsPerDay: undefined, createdUtc: '2026-01-01T00:00:00Z', expiresAt: undefined, active: true, deactivatedUtc: undefined,
  };
}
async function newJob(withKey = true) {
  const keyId = 5_000 + ++seq;
  if (withKey) keys.set(keyId, keyRecord(keyId));
  const id = `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
  const outcome = await store.accept({
    id, keyId, nowMs: Date.now(), quota: { day: '2026-01-01', limit: 5 },
    request: { address: `Rue ${seq}`, lat: 50.85, lon: 4.35, radiusM: 10, lang: 'en', keyId },
  });
  if (outcome.kind !== 'created') throw new Error(outcome.kind);
  return outcome.job;
}
const settled = async (id: string) => until(async () => ['completed', 'failed'].includes((await store.get(id))!.state));

describe('report tasks', () => {
  it('run a job once; duplicates of its task do nothing', async () => {
    const job = await newJob();
    for (let i = 0; i < 3; i++) await dispatcher.submit(job); // one message: same task id within the duplicate window
    await dispatcher.submit({ ...job }); // and once more, under the same id
    await settled(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'completed', attempts: 1 });
    // A task published again beyond the window (a new id) finds the job finished and does nothing.
    await new JetStreamTaskSubmitter(links[0]!).submit(REPORT_TASK_KIND, encodeReportTask({ jobId: job.id, scope: { cities: ['*'], metrics: ['*'] } }), { id: 'late-duplicate' });
    await until(() => (consumer.acked.get(REPORT_TASK_KIND) ?? 0) >= 2);
    expect(content.calls).toHaveLength(1);
    expect(await store.get(job.id)).toMatchObject({ state: 'completed', attempts: 1 });
    const html = await new ObjectReportFiles(links[0]!).open(job.id, 'html');
    expect(html).toBeDefined();
  });

  it('queue a job again after a transient failure; the dispatcher queues its next attempt once due', async () => {
    const job = await newJob();
    content.failures.push(new UpstreamError('compute back end down'));
    dispatcher.start();
    await dispatcher.submit(job);
    await settled(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'completed', attempts: 2, lastError: 'compute back end down' });
    expect(content.calls).toHaveLength(2);
  });

  it('fail a job for good on a permanent failure, and after its attempts on transient ones', async () => {
    const permanent = await newJob();
    content.failures.push(new OutsideCoverageError('No outdoor grid cell lies within 10 m.'));
    await dispatcher.submit(permanent);
    await settled(permanent.id);
    expect(await store.get(permanent.id)).toMatchObject({ state: 'failed', attempts: 1, detail: 'No outdoor grid cell lies within 10 m.' });

    const exhausted = await newJob();
    content.failures.push(new UpstreamError('down'), new UpstreamError('down'), new UpstreamError('down'));
    dispatcher.start();
    await dispatcher.submit(exhausted);
    await settled(exhausted.id);
    expect(await store.get(exhausted.id)).toMatchObject({ state: 'failed', attempts: 3 });
    expect((await store.get(exhausted.id))!.detail).toMatch(/after 3 attempts/);
  });

  it('fail a job whose key no longer exists', async () => {
    const job = await newJob(false);
    await dispatcher.submit(job);
    await settled(job.id);
    expect(await store.get(job.id)).toMatchObject({ state: 'failed', detail: 'The API key that requested this report no longer exists.' });
  });

  it("run a job with the entitlement its request carries, never reading the key", async () => {
    const keyId = 5_000 + ++seq;
    const scope: Entitlement = { cities: ['brussels'], metrics: ['air', 'thermal'] };
    const id = `00000000-0000-4000-8000-${String(seq).padStart(12, '0')}`;
    const outcome = await store.accept({
      id, keyId, nowMs: Date.now(), quota: { day: '2026-01-01', limit: 5 },
      request: { address: 'Rue 1', lat: 50.85, lon: 4.35, radiusM: 10, lang: 'en', keyId, scope },
    });
    if (outcome.kind !== 'created') throw new Error(outcome.kind);
    const blind = new ReportDispatcher({
      store, tasks: new JetStreamTaskSubmitter(links[0]!), clock: systemClock,
      keyById: () => { throw new Error('the key record must not be read'); },
    });
    await blind.submit(outcome.job);
    await settled(id);
    expect(await store.get(id)).toMatchObject({ state: 'completed' });
    expect(content.calls.map((c) => c.scope)).toEqual([scope]);
  });

  it('name their task by job and attempt, and refuse a malformed payload', () => {
    expect(reportTaskId('j', 0)).not.toBe(reportTaskId('j', 1));
    expect(decodeReportTask(encodeReportTask({ jobId: 'j' }))).toEqual({ jobId: 'j' });
    expect(decodeReportTask(encodeReportTask({ jobId: 'j', scope: null }))).toEqual({ jobId: 'j', scope: null });
    const scope: Entitlement = { cities: ['ghent'], metrics: ['air'] };
    expect(decodeReportTask(encodeReportTask({ jobId: 'j', scope }))).toEqual({ jobId: 'j', scope });
    // As nodes of earlier versions queued it: the whole key record, of which only the scope is kept.
    const legacy = new TextEncoder().encode(JSON.stringify({ jobId: 'j', key: { ...keyRecord(1), ...scope } }));
    expect(decodeReportTask(legacy)).toEqual({ jobId: 'j', scope });
    expect(decodeReportTask(new TextEncoder().encode('{"jobId":"j","key":null}'))).toEqual({ jobId: 'j', scope: null });
    expect(() => decodeReportTask(new TextEncoder().encode('{"jobId":"j","scope":{"cities":"*"}}'))).toThrow(ValidationError);
    expect(() => decodeReportTask(new TextEncoder().encode('{"key":null}'))).toThrow(ValidationError);
    expect(() => decodeReportTask(new TextEncoder().encode('null'))).toThrow(/job id/);
    expect(() => decodeReportTask(new TextEncoder().encode('not json'))).toThrow(ValidationError);
  });
});

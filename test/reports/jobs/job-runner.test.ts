/**
 * The job runner over the real SQLite queue and a manual clock: bounded concurrency, transient failures retried with a
 * doubling back-off up to the attempt limit, permanent failures at once, a job in hand queued again when the runner
 * stops, and jobs left in hand by a stopped process resumed at start.
 */
import { reportRequestOf } from '../../../src/reports/jobs/job-types.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/database.js';
import { DamagedDataError, DatasetError, NotFoundError, UpstreamError } from '../../../src/errors.js';
import { backoffDelay, JobRunner, type JobWork } from '../../../src/reports/jobs/job-runner.js';
import { SqliteJobStore } from '../../../src/reports/jobs/sqlite-job-store.js';
import { SqliteKeyStore } from '../../../src/keys/key-store.js';
import { ManualClock } from '../../services/support/manual-clock.js';
import { Gate } from '../support/fake-report.js';

const T = 1_700_000_000_000;
let db: Database;
let store: SqliteJobStore;
let clock: ManualClock;
let keyId: number;
let runner: JobRunner | undefined;
beforeEach(() => {
  db = openDatabase(':memory:');
  store = new SqliteJobStore(db);
  clock = new ManualClock(T);
  keyId = new SqliteKeyStore(db).create({ type: 'sk', label: 'jobs' }, new Date(0)).record.id;
});
afterEach(async () => {
  await runner?.stop();
  db.close();
});

let n = 0;
function queue(count: number): string[] {
  return Array.from({ length: count }, () => {
    const id = `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
    store.accept({ id, keyId, request: { address: 'x', lat: 50, lon: 4, radiusM: 10, lang: 'en', keyId }, nowMs: clock.now(), quota: { day: 'd', limit: 1e9 } });
    return id;
  });
}

function start(work: JobWork, concurrency = 2, maxAttempts = 3): JobRunner {
  runner = new JobRunner({ queue: store, work, clock, concurrency, maxAttempts, backoffMs: 1_000, maxBackoffMs: 4_000 });
  runner.start();
  return runner;
}

/** Work that completes the job (through delivering), optionally held by a gate. */
const complete = (gate?: Gate): JobWork => async (job) => {
  await gate?.wait();
  store.advance(job.id, 'running', 'delivering', clock.now());
  return store.advance(job.id, 'delivering', 'completed', clock.now());
};

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error('condition never held');
}

const states = (ids: string[]) => ids.map((id) => store.get(id)!.state);

describe('JobRunner', () => {
  it('works on at most `concurrency` jobs at a time and takes the next as one finishes', async () => {
    const ids = queue(5);
    const gate = new Gate();
    let running = 0;
    let peak = 0;
    const r = start(async (job) => {
      running++;
      peak = Math.max(peak, running);
      const done = await complete(gate)(job, new AbortController().signal);
      running--;
      return done;
    });
    await until(() => running === 2);
    expect(states(ids)).toEqual(['running', 'running', 'queued', 'queued', 'queued']);
    gate.open();
    await until(() => states(ids).every((s) => s === 'completed'));
    expect(peak).toBe(2);
    expect(r.active).toBe(0);
  });

  it('claims a job queued later as soon as it is told', async () => {
    const r = start(complete());
    const [id] = queue(1);
    expect(store.get(id)!.state).toBe('queued');
    r.notify();
    await until(() => store.get(id)!.state === 'completed');
  });

  it('retries a transient failure after 1 s, 2 s, …, then fails with the reason', async () => {
    const [id] = queue(1);
    const attempts: number[] = [];
    start(async (job) => {
      attempts.push(clock.now() - T);
      throw new UpstreamError('The geocoder failed; retrying is reasonable.');
    });
    await until(() => attempts.length === 1 && store.get(id)!.state === 'queued');
    clock.advance(1_000);
    await until(() => attempts.length === 2 && store.get(id)!.state === 'queued');
    clock.advance(1_999);
    await runner!.settled();
    expect(attempts).toHaveLength(2);
    clock.advance(1);
    await until(() => store.get(id)!.state === 'failed');
    expect(attempts).toEqual([0, 1_000, 3_000]);
    expect(store.get(id)!.detail).toBe('The report could not be generated after 3 attempts. The geocoder failed; retrying is reasonable.');
  });

  it('fails a permanent failure at once', async () => {
    const [id] = queue(1);
    let calls = 0;
    start(async () => {
      calls++;
      throw new NotFoundError('The API key that requested this report no longer exists.');
    });
    await until(() => store.get(id)!.state === 'failed');
    expect(calls).toBe(1);
    expect(store.get(id)!.detail).toBe('The API key that requested this report no longer exists.');
  });

  it('fails damaged data at once with advice, and an internal dataset error without its text', async () => {
    const [damaged, broken] = queue(2);
    start(async (job) => {
      if (job.id === damaged) throw new DamagedDataError("Dataset 'brussels_extended' is damaged: chunk no2/0/1/2 is missing.", { dataset: 'brussels_extended' });
      throw new DatasetError('Cannot open /srv/secret/data.zarr');
    });
    await until(() => store.get(damaged)!.state === 'failed' && store.get(broken)!.state === 'failed');
    expect(store.get(damaged)!.detail).toBe(
      "Dataset 'brussels_extended' is damaged: chunk no2/0/1/2 is missing. The stored data must be repaired by the operator; retrying will not help until then.",
    );
    expect(store.get(broken)!.detail).toBe('The report could not be generated because of an internal error.');
    expect(store.get(broken)!.attempts).toBe(1);
  });

  it('keeps failure details short', async () => {
    const [id] = queue(1);
    start(async () => {
      throw new NotFoundError('x'.repeat(1_000));
    });
    await until(() => store.get(id)!.state === 'failed');
    expect(Array.from(store.get(id)!.detail!)).toHaveLength(300);
  });

  it('stop() aborts the jobs in hand and queues them again, due at once', async () => {
    const ids = queue(3);
    let aborted = 0;
    const r = start(async (_job, signal) => {
      await new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true }));
      aborted++;
      return true;
    }, 2);
    await until(() => r.active === 2);
    clock.advance(5);
    await r.stop();
    expect(states(ids)).toEqual(['queued', 'queued', 'queued']);
    expect(ids.map((id) => store.get(id)!.notBeforeMs)).toEqual([T + 5, T + 5, T]);
    expect(aborted).toBe(0);
    r.notify();
    expect(r.active).toBe(0);
  });

  it('resumes at start the jobs a killed process left running or delivering', async () => {
    const ids = queue(3);
    store.claim(T);
    store.claim(T);
    store.advance(ids[1], 'running', 'delivering', T, { content: { version: 1, request: reportRequestOf(store.get(ids[1])!), generatedUtc: 'x' } });
    const seen: { id: string; hasContent: boolean }[] = [];
    const r = new JobRunner({
      queue: store, clock, concurrency: 1, maxAttempts: 5, backoffMs: 1, maxBackoffMs: 1,
      work: async (job, signal) => {
        seen.push({ id: job.id, hasContent: job.hasContent });
        return complete()(job, signal);
      },
    });
    runner = r;
    expect(r.start()).toBe(2);
    await until(() => states(ids).every((s) => s === 'completed'));
    expect(seen.map((s) => s.id).sort()).toEqual([...ids].sort());
    expect(seen.find((s) => s.id === ids[1])!.hasContent).toBe(true);
  });

  it('back-off doubles from the base up to the cap', () => {
    expect([1, 2, 3, 4, 5, 6].map((a) => backoffDelay(a, 2_000, 60_000))).toEqual([2_000, 4_000, 8_000, 16_000, 32_000, 60_000]);
  });

  it('refuses a concurrency or attempt count below 1', () => {
    const options = { queue: store, work: complete(), clock, backoffMs: 1, maxBackoffMs: 1 };
    expect(() => new JobRunner({ ...options, concurrency: 0, maxAttempts: 1 })).toThrow(RangeError);
    expect(() => new JobRunner({ ...options, concurrency: 1, maxAttempts: 0 })).toThrow(RangeError);
  });
});

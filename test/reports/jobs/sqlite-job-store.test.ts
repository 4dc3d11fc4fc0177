/**
 * The SQLite job store: admission is atomic (quota, idempotency and the new job in one step), claims take due jobs
 * oldest first and count attempts, moves are compare-and-set on the state, recovery requeues what a stopped process
 * left in hand, and retention finds finished jobs and frees what they held.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/database.js';
import type { AcceptInput } from '../../../src/reports/jobs/job-types.js';
import { SqliteJobStore } from '../../../src/reports/jobs/sqlite-job-store.js';
import { SqliteKeyStore } from '../../../src/keys/key-store.js';
import type { ReportRequest } from '../../../src/reports/report-types.js';

let db: Database;
let store: SqliteJobStore;
let keyId: number;
beforeEach(() => {
  db = openDatabase(':memory:');
  store = new SqliteJobStore(db);
  keyId = new SqliteKeyStore(db).create({ type: 'sk', label: 'jobs' }, new Date(0)).record.id;
});
afterEach(() => db.close());

const T = 1_700_000_000_000;
let n = 0;
const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
const request = (address = 'Grand-Place 1, 1000 Bruxelles'): ReportRequest => ({ address, lat: 50.84658, lon: 4.35194, radiusM: 10, lang: 'en', keyId });
function input(overrides: Partial<AcceptInput> = {}): AcceptInput {
  return { id: newId(), keyId, request: request(), nowMs: T, quota: { day: '2023-11-14', limit: 10 }, ...overrides };
}

describe('accept', () => {
  it('creates a queued job, due at once, and charges the day', () => {
    const outcome = store.accept(input());
    expect(outcome.kind).toBe('created');
    const job = outcome.kind === 'created' ? outcome.job : undefined!;
    expect(job).toMatchObject({ keyId, state: 'queued', attempts: 0, notBeforeMs: T, hasContent: false, createdMs: T });
    expect(job.request).toEqual(request());
    expect(store.quotaUsed(keyId, '2023-11-14')).toBe(1);
    expect(store.quotaUsed(keyId, '2023-11-15')).toBe(0);
  });

  it('refuses past the limit without charging or creating', () => {
    store.accept(input({ quota: { day: 'd', limit: 2 } }));
    store.accept(input({ quota: { day: 'd', limit: 2 } }));
    expect(store.accept(input({ quota: { day: 'd', limit: 2 } }))).toEqual({ kind: 'quota_exceeded', used: 2 });
    expect(store.quotaUsed(keyId, 'd')).toBe(2);
    expect((db.prepare('SELECT COUNT(*) AS n FROM report_jobs').get() as { n: number }).n).toBe(2);
  });

  it('replays the job of an idempotency key with the same fingerprint, refuses another fingerprint', () => {
    const first = store.accept(input({ idempotency: { key: 'k', fingerprint: 'f1' } }));
    const again = store.accept(input({ idempotency: { key: 'k', fingerprint: 'f1' }, quota: { day: '2023-11-14', limit: 1 } }));
    expect(again.kind).toBe('replayed');
    expect(again.kind === 'replayed' && first.kind === 'created' && again.job.id === first.job.id).toBe(true);
    expect(store.accept(input({ idempotency: { key: 'k', fingerprint: 'f2' } }))).toEqual({ kind: 'idempotency_conflict' });
    expect(store.quotaUsed(keyId, '2023-11-14')).toBe(1);
    expect(store.idempotent(keyId, 'k')).toEqual({ fingerprint: 'f1', jobId: first.kind === 'created' ? first.job.id : '' });
    expect(store.idempotent(keyId, 'other')).toBeUndefined();
  });

  it('is all or nothing: a failing insert charges nothing', () => {
    const id = newId();
    store.accept(input({ id }));
    expect(() => store.accept(input({ id }))).toThrow(/UNIQUE/);
    expect(store.quotaUsed(keyId, '2023-11-14')).toBe(1);
  });
});

describe('claim and moves', () => {
  it('claims due jobs oldest first, counting attempts, and says when to look again', () => {
    const a = newId();
    const b = newId();
    store.accept(input({ id: b, nowMs: T + 5 }));
    store.accept(input({ id: a, nowMs: T }));
    expect(store.claim(T - 1)).toEqual({ wakeAtMs: T });
    const first = store.claim(T + 5);
    expect(first.job).toMatchObject({ id: a, state: 'running', attempts: 1 });
    expect(store.claim(T + 5).job?.id).toBe(b);
    expect(store.claim(T + 5)).toEqual({ wakeAtMs: undefined });
  });

  it('moves only from the expected state, with content and detail', () => {
    const id = newId();
    store.accept(input({ id }));
    store.claim(T);
    const content = { version: 1 as const, request: request(), generatedUtc: '2023-11-14T22:13:20.000Z', n: 1 };
    expect(store.advance(id, 'delivering', 'completed', T + 1)).toBe(false);
    expect(store.advance(id, 'running', 'delivering', T + 1, { content })).toBe(true);
    expect(store.get(id)).toMatchObject({ state: 'delivering', hasContent: true, updatedMs: T + 1 });
    expect(store.content(id)).toEqual(content);
    expect(store.advance(id, 'delivering', 'completed', T + 2)).toBe(true);
    expect(store.get(id)).toMatchObject({ state: 'completed', completedMs: T + 2, finishedMs: T + 2, pdfMs: undefined });
    store.markPdfReady(id, T + 3);
    expect(store.get(id)!.pdfMs).toBe(T + 3);
  });

  it('a failure keeps its detail and finishes the job', () => {
    const id = newId();
    store.accept(input({ id }));
    store.claim(T);
    expect(store.advance(id, 'running', 'failed', T + 1, { detail: 'nothing here' })).toBe(true);
    expect(store.get(id)).toMatchObject({ state: 'failed', detail: 'nothing here', finishedMs: T + 1, completedMs: undefined });
  });

  it('requeues a job in hand with a back-off and the error; not a finished one', () => {
    const id = newId();
    store.accept(input({ id }));
    store.claim(T);
    store.requeue(id, T + 2_000, T + 1, 'upstream down');
    expect(store.get(id)).toMatchObject({ state: 'queued', notBeforeMs: T + 2_000, lastError: 'upstream down', attempts: 1 });
    expect(store.claim(T + 1_999)).toEqual({ wakeAtMs: T + 2_000 });
    expect(store.claim(T + 2_000).job).toMatchObject({ id, attempts: 2 });
    store.advance(id, 'running', 'failed', T + 3, { detail: 'x' });
    store.requeue(id, T, T);
    expect(store.get(id)!.state).toBe('failed');
  });

  it('recovers jobs left running or delivering, keeping their content and attempts', () => {
    const [a, b, c] = [newId(), newId(), newId()];
    for (const id of [a, b, c]) store.accept(input({ id }));
    store.claim(T);
    store.claim(T);
    store.advance(b, 'running', 'delivering', T, { content: { version: 1, request: request(), generatedUtc: 'x' } });
    expect(store.recover(T + 10)).toBe(2);
    expect(store.get(a)).toMatchObject({ state: 'queued', attempts: 1, notBeforeMs: T + 10, hasContent: false });
    expect(store.get(b)).toMatchObject({ state: 'queued', attempts: 1, hasContent: true });
    expect(store.get(c)).toMatchObject({ state: 'queued', attempts: 0 });
    expect(store.recover(T + 11)).toBe(0);
  });
});

describe('retention', () => {
  it('finds finished jobs up to an instant, expires them and frees their idempotency keys and content', () => {
    const [done, failed, busy] = [newId(), newId(), newId()];
    store.accept(input({ id: done, idempotency: { key: 'k', fingerprint: 'f' } }));
    store.accept(input({ id: failed }));
    store.accept(input({ id: busy }));
    for (let i = 0; i < 3; i++) store.claim(T);
    store.advance(done, 'running', 'delivering', T, { content: { version: 1, request: request(), generatedUtc: 'x' } });
    store.advance(done, 'delivering', 'completed', T + 10);
    store.advance(failed, 'running', 'failed', T + 20, { detail: 'no' });
    expect(store.due(T + 9, 10)).toEqual([]);
    expect(store.due(T + 20, 10)).toEqual([done, failed]);
    expect(store.due(T + 20, 1)).toEqual([done]);
    store.markExpired(done, T + 30);
    expect(store.get(done)).toMatchObject({ expiredMs: T + 30, hasContent: false, state: 'completed' });
    expect(store.idempotent(keyId, 'k')).toBeUndefined();
    expect(store.due(T + 20, 10)).toEqual([failed]);
  });

  it('forgets quota counts of earlier days', () => {
    store.accept(input({ quota: { day: '2023-11-13', limit: 5 } }));
    store.accept(input({ quota: { day: '2023-11-14', limit: 5 } }));
    store.forgetQuotaBefore('2023-11-14');
    expect(store.quotaUsed(keyId, '2023-11-13')).toBe(0);
    expect(store.quotaUsed(keyId, '2023-11-14')).toBe(1);
  });
});

/**
 * The contract of a report job back end (`ReportJobBackend`: admission, the job store, transitions, retention), run
 * against each implementation: SQLite (test/reports/jobs/sqlite-job-store.test.ts) and JetStream KV
 * (test/reports/jobs/kv-job-store.test.ts). What only one of them does (the polling runner's claim order and recovery,
 * leases, concurrency across nodes) stays in its own test file.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { jobKind, type AcceptInput, type AcceptOutcome, type ReportJob, type ReportJobBackend } from '../../src/reports/jobs/job-types.js';
import type { ReportContent, ReportRequest } from '../../src/reports/report-types.js';

/** One back end under test, made fresh for each case. */
export interface JobStoreHarness {
  readonly store: ReportJobBackend;
  /** Claims the job at `nowMs` as this back end's runner does; undefined when it is not claimable. */
  claim(id: string, nowMs: number): Promise<ReportJob | undefined>;
  /** The id of an API key no other case uses (a row where the back end needs one). */
  newKey(): number;
  close?(): void | Promise<void>;
}

const T = 1_700_000_000_000;
const DAY = '2023-11-14';
let seq = 0;
// Ids of their own, apart from those the implementation's own cases make in the same store.
const newId = () => `c0c0c0c0-0000-4000-8000-${String(++seq).padStart(12, '0')}`;
const request = (keyId: number): ReportRequest => ({ address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84658, lon: 4.35194, radiusM: 10, lang: 'en', keyId });
const content = (keyId: number): ReportContent => ({ version: 1, request: request(keyId), generatedUtc: '2023-11-14T22:13:20.000Z' }) as unknown as ReportContent;

function created(outcome: AcceptOutcome): ReportJob {
  if (outcome.kind !== 'created') throw new Error(`expected a new job, got ${outcome.kind}`);
  return outcome.job;
}

/** Runs the job back end contract against the implementation `make` builds. */
export function describeJobStore(name: string, make: () => JobStoreHarness | Promise<JobStoreHarness>): void {
  describe(`${name} (job store contract)`, () => {
    let h: JobStoreHarness;
    let store: ReportJobBackend;
    let keyId: number;
    beforeEach(async () => {
      h = await make();
      store = h.store;
      keyId = h.newKey();
    });
    afterEach(async () => h.close?.());

    const input = (overrides: Partial<AcceptInput> = {}): AcceptInput =>
      ({ id: newId(), keyId, request: request(keyId), nowMs: T, quota: { day: DAY, limit: 10 }, ...overrides });
    /** A job accepted and claimed: running, attempt 1. */
    async function running(overrides: Partial<AcceptInput> = {}): Promise<string> {
      const { id } = created(await store.accept(input(overrides)));
      expect(await h.claim(id, T)).toMatchObject({ id, state: 'running', attempts: 1 });
      return id;
    }

    it('bounds the open jobs of a key by kind: queued and running count, finished and other kinds and keys do not', async () => {
      const batchOf = (owner: number) => ({ kind: 'batch', keyId: owner });
      const bound = { kinds: ['batch', 'area'], limit: 2 };
      const first = await running({ request: batchOf(keyId), quota: undefined, openLimit: bound });
      created(await store.accept(input({ request: { kind: 'area', keyId }, quota: undefined, openLimit: bound })));
      // A report of the same key is not of the bounded kinds; another key has its own bound.
      created(await store.accept(input()));
      const other = h.newKey();
      created(await store.accept(input({ keyId: other, request: batchOf(other), quota: undefined, openLimit: bound })));
      const refused = await store.accept(input({ request: batchOf(keyId), quota: undefined, openLimit: bound }));
      expect(refused).toEqual({ kind: 'open_limit', open: 2 });
      // A job that finished frees its place.
      expect(await store.advance(first, 'running', 'failed', T + 1, { detail: 'gone' })).toBe(true);
      created(await store.accept(input({ request: batchOf(keyId), quota: undefined, openLimit: bound })));
      expect(await store.accept(input({ request: batchOf(keyId), quota: undefined, openLimit: bound }))).toMatchObject({ kind: 'open_limit' });
    });

    it('accepts a job queued, due at once, and charges the day', async () => {
      const job = created(await store.accept(input()));
      expect(job).toMatchObject({ keyId, state: 'queued', attempts: 0, notBeforeMs: T, hasContent: false, createdMs: T, updatedMs: T });
      expect(job.request).toEqual(request(keyId));
      expect(await store.get(job.id)).toEqual(job);
      expect(await store.get(newId())).toBeUndefined();
      expect(await store.quotaUsed(keyId, DAY)).toBe(1);
      expect(await store.quotaUsed(keyId, '2023-11-15')).toBe(0);
    });

    it('accepts a job of another kind (a batch job) without a quota, keeping its request, claimed like any job', async () => {
      const batch = { kind: 'batch', keyId, scope: { cities: ['*'], metrics: ['*'] }, locations: [{ id: 'a', lat: 50.8466, lon: 4.3519 }] };
      const used = await store.quotaUsed(keyId, DAY);
      const { quota: _none, ...unquoted } = input({ request: batch });
      const job = created(await store.accept(unquoted));
      expect(jobKind(job.request)).toBe('batch');
      expect((await store.get(job.id))?.request).toEqual(batch);
      expect(await store.quotaUsed(keyId, DAY)).toBe(used);
      expect(await h.claim(job.id, T)).toMatchObject({ id: job.id, state: 'running', attempts: 1 });
    });

    it('refuses past the day\'s limit without charging or creating', async () => {
      const quota = { day: DAY, limit: 2 };
      created(await store.accept(input({ quota })));
      created(await store.accept(input({ quota })));
      const refused = input({ quota });
      expect(await store.accept(refused)).toEqual({ kind: 'quota_exceeded', used: 2 });
      expect(await store.quotaUsed(keyId, DAY)).toBe(2);
      expect(await store.get(refused.id)).toBeUndefined();
    });

    it('replays the job of an idempotency key with the same fingerprint, refuses another, per API key', async () => {
      const first = created(await store.accept(input({ idempotency: { key: 'order 4711 ✓', fingerprint: 'f1' } })));
      // A replay costs nothing, even on a full day.
      const again = await store.accept(input({ idempotency: { key: 'order 4711 ✓', fingerprint: 'f1' }, quota: { day: DAY, limit: 1 } }));
      expect(again).toEqual({ kind: 'replayed', job: first });
      expect(await store.accept(input({ idempotency: { key: 'order 4711 ✓', fingerprint: 'f2' } }))).toEqual({ kind: 'idempotency_conflict' });
      expect(await store.quotaUsed(keyId, DAY)).toBe(1);
      expect(await store.idempotent(keyId, 'order 4711 ✓')).toEqual({ fingerprint: 'f1', jobId: first.id });
      expect(await store.idempotent(keyId, 'other')).toBeUndefined();
      const otherKey = h.newKey();
      const theirs = input({ keyId: otherKey, request: request(otherKey), idempotency: { key: 'order 4711 ✓', fingerprint: 'f2' } });
      expect((await store.accept(theirs)).kind).toBe('created');
    });

    it('frees the idempotency key of a refused request', async () => {
      created(await store.accept(input({ quota: { day: DAY, limit: 1 } })));
      const idempotency = { key: 'again', fingerprint: 'f' };
      expect((await store.accept(input({ idempotency, quota: { day: DAY, limit: 1 } }))).kind).toBe('quota_exceeded');
      expect(await store.idempotent(keyId, 'again')).toBeUndefined();
      expect((await store.accept(input({ idempotency, quota: { day: DAY, limit: 2 } }))).kind).toBe('created');
    });

    it('claims a job once it is due, once', async () => {
      const { id } = created(await store.accept(input({ nowMs: T + 5 })));
      expect(await h.claim(id, T + 4)).toBeUndefined();
      expect(await h.claim(id, T + 5)).toMatchObject({ id, state: 'running', attempts: 1, updatedMs: T + 5 });
      expect(await h.claim(id, T + 6)).toBeUndefined();
    });

    it('moves only from the expected state; stores the content; completion stamps generation and finish; then the PDF', async () => {
      const id = await running();
      expect(await store.content(id)).toBeUndefined();
      await store.markPdfReady(id, T + 1);
      expect((await store.get(id))!.pdfMs).toBeUndefined();
      expect(await store.advance(id, 'delivering', 'completed', T + 1)).toBe(false);
      expect(await store.advance(id, 'running', 'delivering', T + 1, { content: content(keyId) })).toBe(true);
      expect(await store.advance(id, 'running', 'delivering', T + 1, { content: content(keyId) })).toBe(false);
      expect(await store.get(id)).toMatchObject({ state: 'delivering', hasContent: true, updatedMs: T + 1, completedMs: undefined, finishedMs: undefined });
      expect(await store.content(id)).toEqual(content(keyId));
      expect(await store.advance(id, 'delivering', 'completed', T + 2)).toBe(true);
      expect(await store.get(id)).toMatchObject({ state: 'completed', completedMs: T + 2, finishedMs: T + 2, pdfMs: undefined });
      await store.markPdfReady(id, T + 3);
      expect(await store.get(id)).toMatchObject({ pdfMs: T + 3, updatedMs: T + 3 });
    });

    it('a failure keeps its detail and finishes the job', async () => {
      const id = await running();
      expect(await store.advance(id, 'running', 'failed', T + 1, { detail: 'nothing here' })).toBe(true);
      expect(await store.get(id)).toMatchObject({ state: 'failed', detail: 'nothing here', finishedMs: T + 1, completedMs: undefined });
      expect(await store.advance(id, 'delivering', 'failed', T + 2, { detail: 'again' })).toBe(false);
    });

    it('refuses a move the state machine does not have', async () => {
      const id = await running();
      await expect(Promise.resolve().then(() => store.advance(id, 'queued', 'completed', T + 1))).rejects.toThrow('cannot move from queued to completed');
      expect((await store.get(id))!.state).toBe('running');
    });

    it('requeues a job in hand with its back-off and error, claimed again only when due; never a finished one', async () => {
      const id = await running();
      await store.requeue(id, T + 2_000, T + 1, 'upstream down');
      expect(await store.get(id)).toMatchObject({ state: 'queued', notBeforeMs: T + 2_000, updatedMs: T + 1, lastError: 'upstream down', attempts: 1 });
      expect(await h.claim(id, T + 1_999)).toBeUndefined();
      expect(await h.claim(id, T + 2_000)).toMatchObject({ id, state: 'running', attempts: 2 });
      await store.advance(id, 'running', 'failed', T + 3, { detail: 'x' });
      await store.requeue(id, T, T + 4);
      expect(await store.get(id)).toMatchObject({ state: 'failed', updatedMs: T + 3 });
    });

    it('lists finished jobs up to an instant; expiry drops the content, frees the idempotency key and happens once', async () => {
      const done = await running({ idempotency: { key: 'ret', fingerprint: 'f' } });
      const failed = await running();
      const busy = await running();
      await store.advance(done, 'running', 'delivering', T + 5, { content: content(keyId) });
      await store.advance(done, 'delivering', 'completed', T + 10);
      await store.advance(failed, 'running', 'failed', T + 20, { detail: 'no' });
      const mine = async (beforeMs: number) => (await store.due(beforeMs, 1_000)).filter((id) => [done, failed, busy].includes(id)).sort();
      expect(await mine(T + 9)).toEqual([]);
      expect(await mine(T + 10)).toEqual([done]);
      expect(await mine(T + 20)).toEqual([done, failed].sort());
      await store.markExpired(done, T + 30);
      expect(await store.get(done)).toMatchObject({ state: 'completed', expiredMs: T + 30, updatedMs: T + 30, hasContent: false });
      expect(await store.content(done)).toBeUndefined();
      expect(await store.idempotent(keyId, 'ret')).toBeUndefined();
      expect(await mine(T + 1_000_000)).toEqual([failed]);
      await store.markPdfReady(done, T + 40);
      await store.markExpired(done, T + 50);
      expect(await store.get(done)).toMatchObject({ expiredMs: T + 30, updatedMs: T + 30, pdfMs: undefined });
    });
  });
}

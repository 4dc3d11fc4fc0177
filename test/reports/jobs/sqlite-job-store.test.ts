/**
 * The SQLite job store: the job store contract (test/contracts/job-store-contract.ts), and what only it does: admission
 * in one transaction, the polling runner's claims (oldest due job first, and when to look again), recovery of what a
 * stopped process left in hand, retention's limit in finishing order, and forgetting past quota days.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/db/database.js';
import type { AcceptInput } from '../../../src/reports/jobs/job-types.js';
import { SqliteJobStore } from '../../../src/reports/jobs/sqlite-job-store.js';
import { SqliteKeyStore } from '../../../src/keys/key-store.js';
import type { ReportRequest } from '../../../src/reports/report-types.js';
import { describeJobStore } from '../../contracts/job-store-contract.js';

describeJobStore('SqliteJobStore', () => {
  const database = openDatabase(':memory:');
  const jobs = new SqliteJobStore(database);
  const keys = new SqliteKeyStore(database);
  return {
    store: jobs,
    claim: async (id, nowMs) => {
      const claim = jobs.claim(nowMs);
      if (claim.job !== undefined && claim.job.id !== id) throw new Error(`claimed ${claim.job.id}, not ${id}`);
      return claim.job;
    },
    newKey: () => keys.create({ type: 'sk', label: 'contract' }, new Date(0)).record.id,
    close: () => database.close(),
  };
});

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
  it('lists finished jobs in the order they finished, at most `limit`, leaving expired ones out', () => {
    const [late, early, busy] = [newId(), newId(), newId()];
    for (const id of [late, early, busy]) store.accept(input({ id }));
    for (let i = 0; i < 3; i++) store.claim(T);
    store.advance(late, 'running', 'failed', T + 20, { detail: 'no' });
    store.advance(early, 'running', 'failed', T + 10, { detail: 'no' });
    expect(store.due(T + 20, 10)).toEqual([early, late]);
    expect(store.due(T + 20, 1)).toEqual([early]);
    store.markExpired(early, T + 30);
    expect(store.due(T + 20, 10)).toEqual([late]);
  });

  it('forgets quota counts of earlier days', () => {
    store.accept(input({ quota: { day: '2023-11-13', limit: 5 } }));
    store.accept(input({ quota: { day: '2023-11-14', limit: 5 } }));
    store.forgetQuotaBefore('2023-11-14');
    expect(store.quotaUsed(keyId, '2023-11-13')).toBe(0);
    expect(store.quotaUsed(keyId, '2023-11-14')).toBe(1);
  });
});

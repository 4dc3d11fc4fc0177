/**
 * The KV job store over a real nats-server: the job store contract (test/contracts/job-store-contract.ts), and what
 * only it does: admission exact under concurrent requests from two nodes, an idempotency key freed when its request
 * died, claims under leases (taken over once a lease ran out; a runner that lost its lease can no longer move the
 * job), and the list of open jobs.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KvJobStore } from '../../../src/reports/jobs/kv-job-store.js';
import type { ClusterLink } from '../../../src/cluster/nats-connection.js';
import { idempotencyKvKey } from '../../../src/reports/jobs/kv-quota.js';
import { IDEMPOTENCY_BUCKET } from '../../../src/cluster/names.js';
import type { AcceptInput } from '../../../src/reports/jobs/job-types.js';
import type { ReportContent, ReportRequest } from '../../../src/reports/report-types.js';
import { describeJobStore } from '../../contracts/job-store-contract.js';
import { startNatsServer, type TestNatsServer } from '../../cluster/support/nats-server.js';
import { startLinks } from '../../cluster/support/links.js';

let nats: TestNatsServer;
let links: ClusterLink[];
let a: KvJobStore;
let b: KvJobStore;

beforeAll(async () => {
  nats = await startNatsServer();
  links = await startLinks(nats.url, 2);
  a = new KvJobStore(links[0]!);
  b = new KvJobStore(links[1]!);
});
afterAll(async () => {
  await Promise.all(links.map((l) => l.close()));
  await nats.dispose();
});

const T = 1_700_000_000_000;
const DAY = '2023-11-14';
let n = 0;
const newId = () => `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`;
let keySeq = 100;
const request = (keyId: number): ReportRequest => ({ address: 'Grand-Place 1', lat: 50.84658, lon: 4.35194, radiusM: 10, lang: 'en', keyId });
function input(keyId: number, overrides: Partial<AcceptInput> = {}): AcceptInput {
  return { id: newId(), keyId, request: request(keyId), nowMs: T, quota: { day: DAY, limit: 10 }, ...overrides };
}

describeJobStore('KvJobStore', () => {
  const store = new KvJobStore(links[0]!);
  return { store, claim: (id, nowMs) => store.claim(id, nowMs, 'contract runner', nowMs + 60_000), newKey: () => ++keySeq };
});

describe('admission', () => {

  it('is exact under concurrent admissions on two nodes', async () => {
    const keyId = ++keySeq;
    const outcomes = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? a : b).accept(input(keyId, { quota: { day: DAY, limit: 5 } }))));
    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(5);
    expect(outcomes.filter((o) => o.kind === 'quota_exceeded')).toHaveLength(11);
    expect(await a.quotaUsed(keyId, DAY)).toBe(5);
  });

  it('makes one job of concurrent requests under one idempotency key, refuses another fingerprint', async () => {
    const keyId = ++keySeq;
    const idem = { key: 'order 4711 ✓', fingerprint: 'f1' };
    const outcomes = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).accept(input(keyId, { idempotency: idem }))));
    expect(outcomes.filter((o) => o.kind === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'replayed')).toHaveLength(7);
    expect(new Set(outcomes.map((o) => (o.kind === 'created' || o.kind === 'replayed' ? o.job.id : '')).values()).size).toBe(1);
    expect(await a.quotaUsed(keyId, DAY)).toBe(1);
    expect(await b.accept(input(keyId, { idempotency: { ...idem, fingerprint: 'f2' } }))).toEqual({ kind: 'idempotency_conflict' });
    // Keys are per API key.
    expect((await a.accept(input(keyId + 1000, { idempotency: idem }))).kind).toBe('created');
  });

  it('frees an idempotency key whose request died before making its job, then makes the job', async () => {
    const keyId = ++keySeq;
    const idem = await links[0]!.require().kvm.open(IDEMPOTENCY_BUCKET);
    await idem.create(idempotencyKvKey(keyId, 'orphan'), JSON.stringify({ fingerprint: 'f', jobId: newId(), claimedMs: Date.now() - 60_000 }));
    const outcome = await a.accept(input(keyId, { idempotency: { key: 'orphan', fingerprint: 'f' } }));
    expect(outcome.kind).toBe('created');
    expect(await a.quotaUsed(keyId, DAY)).toBe(1);
    expect((await b.idempotent(keyId, 'orphan'))?.jobId).toBe(outcome.kind === 'created' ? outcome.job.id : '');
  });

});

describe('claims, leases and moves', () => {
  async function queued(): Promise<string> {
    const outcome = await a.accept(input(++keySeq));
    if (outcome.kind !== 'created') throw new Error(outcome.kind);
    return outcome.job.id;
  }

  it('a job is claimed once; a claim whose lease ran out is taken over, and the old runner can no longer move it', async () => {
    const id = await queued();
    const claims = await Promise.all([a.claim(id, T, 'r1', T + 1_000), b.claim(id, T, 'r2', T + 1_000)]);
    expect(claims.filter((c) => c !== undefined)).toHaveLength(1);
    const first = claims[0] !== undefined ? 'r1' : 'r2';
    expect(claims.find((c) => c !== undefined)).toMatchObject({ state: 'running', attempts: 1 });
    // Held: nobody else claims before the lease ends; renewing extends it.
    expect(await b.claim(id, T + 500, 'r3', T + 2_000)).toBeUndefined();
    expect(await a.renew(id, first, T + 1_500)).toBe(true);
    expect(await b.claim(id, T + 1_200, 'r3', T + 3_000)).toBeUndefined();
    // Lapsed: taken over, attempts counted.
    expect(await b.claim(id, T + 1_600, 'r3', T + 3_000)).toMatchObject({ state: 'running', attempts: 2 });
    expect(await a.renew(id, first, T + 4_000)).toBe(false);
    const old = a.ownedBy(first);
    expect(await old.advance(id, 'running', 'delivering', T + 1_700)).toBe(false);
    await old.requeue(id, T, T + 1_700);
    expect((await a.get(id))!.state).toBe('running');
    const owner = b.ownedBy('r3');
    const content = { location: { dataset: 'brussels_extended' } } as unknown as ReportContent;
    expect(await owner.advance(id, 'running', 'delivering', T + 1_800, { content })).toBe(true);
    expect(await a.content(id)).toEqual(content);
    expect(await owner.advance(id, 'delivering', 'completed', T + 1_900)).toBe(true);
    expect(await a.get(id)).toMatchObject({ state: 'completed', hasContent: true, completedMs: T + 1_900, finishedMs: T + 1_900 });
    expect(await a.claim(id, T + 10_000, 'r4', T + 20_000)).toBeUndefined();
    expect((await a.openJobs()).map((j) => j.id)).not.toContain(id);
  });

});

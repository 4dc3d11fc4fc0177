/**
 * The KV job store over a real nats-server: admission charges, replays and refuses as the SQLite store does and is
 * exact under concurrent admissions from two nodes; claims take due jobs once and take over a job whose lease ran out;
 * a runner that lost its lease can no longer move the job; retention lists finished jobs by the day they finished and
 * frees their content and idempotency key; files and content live in the object store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KvJobStore } from '../../../src/reports/jobs/kv-job-store.js';
import type { ClusterLink } from '../../../src/cluster/nats-connection.js';
import { ObjectReportFiles } from '../../../src/reports/jobs/object-report-files.js';
import { idempotencyKvKey } from '../../../src/reports/jobs/kv-quota.js';
import { IDEMPOTENCY_BUCKET } from '../../../src/cluster/names.js';
import type { AcceptInput } from '../../../src/reports/jobs/job-types.js';
import type { ReportContent, ReportRequest } from '../../../src/reports/report-types.js';
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

describe('admission', () => {
  it('creates a queued job and charges the day; refuses past the limit without charging', async () => {
    const keyId = ++keySeq;
    const created = await a.accept(input(keyId, { quota: { day: DAY, limit: 2 } }));
    expect(created.kind).toBe('created');
    if (created.kind !== 'created') return;
    expect(created.job).toMatchObject({ keyId, state: 'queued', attempts: 0, notBeforeMs: T, hasContent: false, createdMs: T });
    expect(await b.get(created.job.id)).toEqual(created.job);
    await b.accept(input(keyId, { quota: { day: DAY, limit: 2 } }));
    expect(await a.accept(input(keyId, { quota: { day: DAY, limit: 2 } }))).toEqual({ kind: 'quota_exceeded', used: 2 });
    expect(await b.quotaUsed(keyId, DAY)).toBe(2);
    expect(await b.quotaUsed(keyId, '2023-11-15')).toBe(0);
  });

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

  it('frees the idempotency key of a refused request', async () => {
    const keyId = ++keySeq;
    await a.accept(input(keyId, { quota: { day: DAY, limit: 1 } }));
    const idem = { key: 'again', fingerprint: 'f' };
    expect((await a.accept(input(keyId, { idempotency: idem, quota: { day: DAY, limit: 1 } }))).kind).toBe('quota_exceeded');
    expect(await a.idempotent(keyId, 'again')).toBeUndefined();
    expect((await b.accept(input(keyId, { idempotency: idem, quota: { day: DAY, limit: 2 } }))).kind).toBe('created');
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

  it('a requeued job is claimed again only once its back-off ended', async () => {
    const id = await queued();
    await a.claim(id, T, 'r1', T + 1_000);
    await a.ownedBy('r1').requeue(id, T + 5_000, T + 100, 'upstream down');
    expect(await a.get(id)).toMatchObject({ state: 'queued', notBeforeMs: T + 5_000, lastError: 'upstream down' });
    expect(await b.claim(id, T + 4_999, 'r2', T + 9_000)).toBeUndefined();
    expect(await b.claim(id, T + 5_000, 'r2', T + 9_000)).toMatchObject({ attempts: 2 });
  });
});

describe('retention and files', () => {
  it('lists finished jobs by their finishing instant, then expires them: content, key and files go', async () => {
    const keyId = ++keySeq;
    const made = await a.accept(input(keyId, { idempotency: { key: 'ret', fingerprint: 'f' } }));
    if (made.kind !== 'created') throw new Error(made.kind);
    const id = made.job.id;
    await a.claim(id, T, 'r', T + 60_000);
    await a.advance(id, 'running', 'delivering', T + 10, { content: { x: 1 } as unknown as ReportContent });
    await a.advance(id, 'delivering', 'completed', T + 20);
    const files = new ObjectReportFiles(links[1]!);
    await files.write(id, 'html', new TextEncoder().encode('<!doctype html>'));
    await a.markPdfReady(id, T + 30);
    expect((await b.get(id))!.pdfMs).toBe(T + 30);
    expect(await b.due(T + 19, 100)).not.toContain(id);
    expect(await b.due(T + 20, 100)).toContain(id);
    await files.remove(id);
    await b.markExpired(id, T + 40);
    expect(await files.open(id, 'html')).toBeUndefined();
    expect(await a.get(id)).toMatchObject({ expiredMs: T + 40, hasContent: false });
    expect(await a.content(id)).toBeUndefined();
    expect(await a.idempotent(keyId, 'ret')).toBeUndefined();
    expect(await b.due(T + 1_000_000, 100)).not.toContain(id);
    await b.markExpired(id, T + 50); // again: nothing changes
    expect((await a.get(id))!.expiredMs).toBe(T + 40);
  });

  it('stores a file whole and serves it to another node; a file not written is absent', async () => {
    const id = newId().replace(/^0{8}/, 'abcdef01');
    const bytes = new Uint8Array(300_000).map((_, i) => (i * 7) % 256); // several object-store chunks
    await new ObjectReportFiles(links[0]!).write(id, 'pdf', bytes);
    const opened = await new ObjectReportFiles(links[1]!).open(id, 'pdf');
    expect(opened!.size).toBe(bytes.length);
    const chunks: Buffer[] = [];
    for await (const chunk of opened!.stream) chunks.push(chunk as Buffer);
    expect(new Uint8Array(Buffer.concat(chunks))).toEqual(bytes);
    expect(await new ObjectReportFiles(links[1]!).open(id, 'html')).toBeUndefined();
    await expect(new ObjectReportFiles(links[1]!).open('../etc/passwd', 'pdf')).rejects.toThrow(/Not a job id/);
  });
});

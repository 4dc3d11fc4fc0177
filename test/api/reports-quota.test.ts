/**
 * The daily report quota (exact, per key, reset at midnight UTC, refusals cost nothing) and `Idempotency-Key`
 * (a retried POST with the same key and body returns the same job and is counted once; another body under the same
 * key is a 400), driven by the harness's manual clock.
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { T0 } from './support/harness.js';
import { expectProblem } from './support/problem.js';
import { reportsHarness, type ReportsHarness } from './support/reports-harness.js';

let h: ReportsHarness;
beforeEach(async () => {
  // The runner is not started: jobs stay queued, so nothing but admission runs.
  h = await reportsHarness({ start: false });
});
afterEach(async () => h.close());

function post(key: string, body: unknown, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST', url: '/v1/reports',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, ...headers },
    payload: JSON.stringify(body),
  });
}

const jobCount = () => (h.db.prepare('SELECT COUNT(*) AS n FROM report_jobs').get() as { n: number }).n;
const AT = { lat: 50.84658, lon: 4.35194 };
const OUTSIDE = { lat: 48.85661, lon: 2.35222 };
/** Seconds from T0 (2025-03-10T12:00:30Z) to the next midnight UTC. */
const TO_MIDNIGHT_S = 11 * 3600 + 59 * 60 + 30;

describe('daily report quota', () => {
  it('accepts exactly the quota, then answers 429 quota_exceeded with Retry-After until midnight UTC', async () => {
    const key = h.issue({ reportsPerDay: 3 });
    for (let i = 0; i < 3; i++) expect((await post(key, AT)).statusCode).toBe(202);
    const res = await post(key, AT);
    const body = expectProblem(res, 'quota_exceeded');
    expect(body.title).toBe('Daily report quota exceeded');
    expect(res.headers['retry-after']).toBe(String(TO_MIDNIGHT_S));
    expect(body.detail).toContain('3 reports');
    expect(jobCount()).toBe(3);
    // The per-minute headers still describe the window.
    expect(res.headers['x-ratelimit-remaining']).toBe('596');
  });

  it('charges nothing for refused requests (400, 403, 422, 429)', async () => {
    const key = h.issue({ reportsPerDay: 2, cities: ['ghent'] });
    await post(key, { radius: 1 });
    await post(key, OUTSIDE);
    await post(key, { address: 'Grand-Place 1, 1000 Bruxelles' }); // 403: Brussels is outside the city scope
    expect(h.store.quotaUsed(Number(h.keys.list().at(-1)!.id), '2025-03-10')).toBe(0);
    expect((await post(key, { lat: 50.465, lon: 4.866 })).statusCode).toBe(202);
    expect((await post(key, { lat: 50.465, lon: 4.866 })).statusCode).toBe(202);
    expectProblem(await post(key, { lat: 50.465, lon: 4.866 }), 'quota_exceeded');
    expectProblem(await post(key, { lat: 50.465, lon: 4.866 }), 'quota_exceeded');
    expect(jobCount()).toBe(2);
  });

  it('resets at midnight UTC, not a moment before', async () => {
    const key = h.issue({ reportsPerDay: 1 });
    expect((await post(key, AT)).statusCode).toBe(202);
    h.clock.set(Date.parse('2025-03-10T23:59:59.999Z'));
    const late = await post(key, AT);
    expectProblem(late, 'quota_exceeded');
    expect(late.headers['retry-after']).toBe('1');
    h.clock.set(Date.parse('2025-03-11T00:00:00.000Z'));
    expect((await post(key, AT)).statusCode).toBe(202);
    expectProblem(await post(key, AT), 'quota_exceeded');
  });

  it('is per key, from the key\'s own limit or the configured default', async () => {
    await h.close();
    h = await reportsHarness({ start: false, config: { limits: { reportsPerDay: 2 } } });
    const a = h.issue();
    const b = h.issue({ reportsPerDay: 1 });
    expect((await post(a, AT)).statusCode).toBe(202);
    expect((await post(a, AT)).statusCode).toBe(202);
    expectProblem(await post(a, AT), 'quota_exceeded');
    expect((await post(b, AT)).statusCode).toBe(202);
    expectProblem(await post(b, AT), 'quota_exceeded');
  });

  it('a quota of 0 refuses every request', async () => {
    expectProblem(await post(h.issue({ reportsPerDay: 0 }), AT), 'quota_exceeded');
    expect(jobCount()).toBe(0);
  });

  it('refuses when the quota fills while the request is being located (checked again atomically)', async () => {
    const key = h.issue({ reportsPerDay: 1 });
    // Two requests geocode concurrently; both passed the first quota check, only one may be accepted.
    const [a, b] = await Promise.all([post(key, { address: 'Grand-Place 1, 1000 Bruxelles' }), post(key, { address: 'Grand-Place 2, 1000 Bruxelles' })]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([202, 429]);
    expect(jobCount()).toBe(1);
  });
});

describe('Idempotency-Key', () => {
  it('a retried POST returns the same job, marked replayed, counted once', async () => {
    const key = h.issue({ reportsPerDay: 5 });
    const first = await post(key, AT, { 'idempotency-key': 'order-4711' });
    const again = await post(key, AT, { 'idempotency-key': 'order-4711' });
    expect(first.statusCode).toBe(202);
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual(first.json());
    expect(again.headers.location).toBe(first.headers.location);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(jobCount()).toBe(1);
    expect(h.store.quotaUsed(h.store.get(first.json().job_id)!.keyId, '2025-03-10')).toBe(1);
  });

  it('the same request written differently is the same request', async () => {
    const key = h.issue();
    const first = await post(key, { lat: 50.84658, lon: 4.35194 }, { 'idempotency-key': 'k1' });
    const same = await post(key, { radius: 10, lon: '4.35194', lang: 'en', lat: 50.84658 }, { 'idempotency-key': 'k1' });
    expect(same.statusCode, same.body).toBe(202);
    expect(same.json().job_id).toBe(first.json().job_id);
  });

  it('another body under the same key is a 400, creating nothing', async () => {
    const key = h.issue();
    await post(key, AT, { 'idempotency-key': 'k1' });
    const other = await post(key, { ...AT, lang: 'nl' }, { 'idempotency-key': 'k1' });
    expect(expectProblem(other, 'validation_error').detail).toContain("Idempotency-Key 'k1' was already used with a different request body");
    expect(jobCount()).toBe(1);
  });

  it('replays even once the quota is used up (the request was already counted)', async () => {
    const key = h.issue({ reportsPerDay: 1 });
    const first = await post(key, AT, { 'idempotency-key': 'k1' });
    const again = await post(key, AT, { 'idempotency-key': 'k1' });
    expect(again.statusCode).toBe(202);
    expect(again.json().job_id).toBe(first.json().job_id);
    expectProblem(await post(key, AT, { 'idempotency-key': 'k2' }), 'quota_exceeded');
  });

  it('concurrent retries with the same key create one job', async () => {
    const key = h.issue();
    const body = { address: 'Grand-Place 1, 1000 Bruxelles' };
    const answers = await Promise.all([1, 2, 3].map(() => post(key, body, { 'idempotency-key': 'burst' })));
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((a) => a.json().job_id)).size).toBe(1);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(2);
    expect(jobCount()).toBe(1);
  });

  it('is scoped to the API key: another key with the same Idempotency-Key gets its own job', async () => {
    const a = await post(h.issue(), AT, { 'idempotency-key': 'shared' });
    const b = await post(h.issue(), AT, { 'idempotency-key': 'shared' });
    expect(b.json().job_id).not.toBe(a.json().job_id);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
  });

  it('a refused request is not remembered: the same key may be retried', async () => {
    const key = h.issue();
    expectProblem(await post(key, OUTSIDE, { 'idempotency-key': 'k1' }), 'outside_coverage');
    expect((await post(key, AT, { 'idempotency-key': 'k1' })).statusCode).toBe(202);
  });

  it.each([
    ['empty', ''],
    ['too long (256 characters)', 'k'.repeat(256)],
    ['with a space inside', 'order 4711'],
    ['not ASCII', 'commande-é'],
  ])('an Idempotency-Key %s is a 400', async (_, value) => {
    const res = await h.app.inject({
      method: 'POST', url: '/v1/reports',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${h.issue()}`, 'idempotency-key': value },
      payload: JSON.stringify(AT),
    });
    expect(expectProblem(res, 'validation_error').detail).toContain("Header 'idempotency-key'");
    expect(jobCount()).toBe(0);
  });

  it('255 characters are accepted', async () => {
    expect((await post(h.issue(), AT, { 'idempotency-key': 'k'.repeat(255) })).statusCode).toBe(202);
  });

  it('is forgotten once the job has expired: the same key then makes a new job', async () => {
    const key = h.issue();
    const first = (await post(key, AT, { 'idempotency-key': 'k1' })).json().job_id;
    h.runner.start();
    await h.settle();
    h.clock.set(T0 + 30 * 86_400_000);
    expect(await h.sweeper.sweep()).toBe(1);
    const again = await post(key, AT, { 'idempotency-key': 'k1' });
    expect(again.statusCode).toBe(202);
    expect(again.json().job_id).not.toBe(first);
  });
});

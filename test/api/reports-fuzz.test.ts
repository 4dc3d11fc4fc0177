/**
 * Property test of `POST /v1/reports` bodies (fixed seed): whatever the body (any JSON value, the request's fields
 * with values of every type and edge, unknown fields, raw text, odd media types), the answer is a 202 or a complete
 * problem document, never a 5xx; a refused request creates no job and charges no quota; an accepted one holds a
 * valid, rounded request. Input echoed in a problem detail is quoted.
 */
import { reportRequestOf } from '../../src/reports/jobs/job-types.js';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_LANGS } from '../../src/reports/report-types.js';
import { UUID_V4 } from './support/problem.js';
import { reportsHarness, type ReportsHarness } from './support/reports-harness.js';

let h: ReportsHarness;
let key: string;
beforeAll(async () => {
  h = await reportsHarness({ start: false });
  key = h.issue({ ratePerMin: 1_000_000, reportsPerDay: 1_000_000 });
});
afterAll(async () => h.close());

const counts = () => ({
  jobs: (h.db.prepare('SELECT COUNT(*) AS n FROM report_jobs').get() as { n: number }).n,
  quota: (h.db.prepare('SELECT COALESCE(SUM(used), 0) AS n FROM report_quota').get() as { n: number }).n,
});

/** Values of every JSON type, with the edges numbers and strings have. */
const anyValue = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(0, -0, 4.999, 5, 50, 50.0001, 90, -90, 180, 1e308, -1e-320, 50.846581, 4.351944),
  fc.constantFrom('', ' ', '10', '0x10', '1e309', 'NaN', 'Infinity', '١٠', '1_0', ' 10', 'en', 'fr', 'nl', 'EN', 'de'),
  fc.string({ unit: 'binary', maxLength: 220 }),
  fc.constantFrom('Grand-Place 1, 1000 Bruxelles', 'Grand-Place 1, 1000 Bruxelles'.padEnd(200, ' '), 'a'.repeat(201), 'Rue\u0000 1', '\u202eevil'),
);

/** An object over the request's fields (and some others), each maybe present with any value. */
const fields = fc.record(
  {
    address: anyValue,
    lat: fc.oneof(anyValue, fc.double({ min: 49.4, max: 51.6, noNaN: true })),
    lon: fc.oneof(anyValue, fc.double({ min: 2.5, max: 6.4, noNaN: true })),
    radius: fc.oneof(anyValue, fc.double({ min: 0, max: 60, noNaN: true })),
    lang: anyValue,
    extra: anyValue,
  },
  { requiredKeys: [] },
).map((o) => {
  const out: Record<string, unknown> = { ...o };
  if ('extra' in out) {
    out[['langue', '__proto__x', 'constructor', 'Radius'][Object.keys(out).length % 4]!] = out.extra;
    delete out.extra;
  }
  return out;
});

/** Well-formed requests at places in and around Belgium, numbers sometimes as decimal strings. */
const plausible = fc
  .record(
    {
      lat: fc.double({ min: 49.4, max: 51.6, noNaN: true }),
      lon: fc.double({ min: 2.5, max: 6.4, noNaN: true }),
      radius: fc.double({ min: 5, max: 50, noNaN: true }),
      lang: fc.constantFrom(...REPORT_LANGS),
    },
    { requiredKeys: ['lat', 'lon'] },
  )
  .chain((o) => fc.boolean().map((asText) => (asText ? { ...o, lat: String(o.lat), lon: String(o.lon) } : o)));

/** A body as sent: JSON of the fields, JSON of anything, or raw text; with a content type. */
const request = fc.record({
  body: fc.oneof(
    plausible.map((o) => JSON.stringify(o)),
    fields.map((o) => JSON.stringify(o)),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.constantFrom('{"lat": 1e309, "lon": 4}', '{"lat": -1e400, "lon": 4}', '{"address": "a", "address": 1}', '{', '[]', 'null', ''),
  ),
  type: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/json-patch+json', undefined),
});

describe('POST /v1/reports, any body (property)', () => {
  it('answers 202 with a valid job or a problem document that changed nothing', async () => {
    const tally = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(request, async ({ body, type }) => {
        const before = counts();
        const res = await h.app.inject({
          method: 'POST', url: '/v1/reports', payload: body,
          headers: { authorization: `Bearer ${key}`, ...(type === undefined ? {} : { 'content-type': type }) },
        });
        tally.set(res.statusCode, (tally.get(res.statusCode) ?? 0) + 1);
        expect(res.statusCode, res.body).toBeLessThan(500);
        const after = counts();
        if (res.statusCode === 202) {
          const job = h.store.get(res.json().job_id)!;
          expect(job.id).toMatch(UUID_V4);
          const r = reportRequestOf(job);
          expect(r.radiusM).toBeGreaterThanOrEqual(5);
          expect(r.radiusM).toBeLessThanOrEqual(50);
          expect(REPORT_LANGS).toContain(r.lang);
          expect(Number(r.lat.toFixed(5))).toBe(r.lat);
          expect(Number(r.lon.toFixed(5))).toBe(r.lon);
          expect(r.address.length).toBeGreaterThan(0);
          expect(after).toEqual({ jobs: before.jobs + 1, quota: before.quota + 1 });
          return;
        }
        expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
        const problem = res.json();
        expect(problem.status).toBe(res.statusCode);
        expect(problem.request_id).toBe(res.headers['x-request-id']);
        expect(problem.detail).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202e]/);
        expect(after).toEqual(before);
      }),
      { numRuns: 400, seed: 1111 },
    );
    // The generators reach acceptance and every kind of refusal.
    for (const status of [202, 400, 415, 422]) expect(tally.get(status) ?? 0, `status ${status}`).toBeGreaterThan(0);
  });
});

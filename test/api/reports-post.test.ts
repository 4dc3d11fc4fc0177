/**
 * `POST /v1/reports`: the accepted answer, the job it creates, and every refusal in the promised order (key → per-minute
 * limit → validation → daily quota → coverage → accept), each a problem document with no job created and nothing
 * charged. Bodies are JSON only, without type coercion, unknown fields refused.
 */
import { reportRequestOf } from '../../src/reports/jobs/job-types.js';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import type { Geocoder } from '../../src/geocode/geocoder.js';
import { embeddedGeocoder, T0 } from './support/harness.js';
import { expectProblem, UUID_V4 } from './support/problem.js';
import { reportsHarness, type ReportsHarness } from './support/reports-harness.js';

let h: ReportsHarness;
let sk: string;
beforeEach(async () => {
  h = await reportsHarness();
  sk = h.issue({ products: ['reports'] });
});
afterEach(async () => h.close());

/** POSTs `body` (an object is sent as JSON; a string as is) with the key (null: none) and extra headers. */
function post(body: unknown, key: string | null = sk, headers: Record<string, string> = {}): Promise<LightMyRequestResponse> {
  return h.app.inject({
    method: 'POST',
    url: '/v1/reports',
    headers: { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const jobCount = () => (h.db.prepare('SELECT COUNT(*) AS n FROM report_jobs').get() as { n: number }).n;
const quotaSum = () => (h.db.prepare('SELECT COALESCE(SUM(used), 0) AS n FROM report_quota').get() as { n: number }).n;

/** The refusal is a problem document of `code`, and nothing was created or charged. */
function refused(res: LightMyRequestResponse, code: Parameters<typeof expectProblem>[1]) {
  const body = expectProblem(res, code);
  expect(jobCount()).toBe(0);
  expect(quotaSum()).toBe(0);
  return body;
}

const GRAND_PLACE = { address: 'Grand-Place 1, 1000 Bruxelles' };

describe('POST /v1/reports accepts', () => {
  it('an address: 202 with the job to poll, queued, charged once', async () => {
    const res = await post({ ...GRAND_PLACE, lang: 'fr', radius: 25 });
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json();
    expect(Object.keys(body)).toEqual(['job_id', 'status', 'stage', 'links']);
    expect(body.job_id).toMatch(UUID_V4);
    expect(body).toMatchObject({ status: 'processing', stage: 'queued', links: { status: `/v1/reports/${body.job_id}` } });
    expect(res.headers.location).toBe(`/v1/reports/${body.job_id}`);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(res.headers['x-ratelimit-limit']).toBe('600');
    expect(res.headers['cache-control']).toBe('no-store');
    const job = h.store.get(body.job_id)!;
    expect(job.request).toEqual({ address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84658, lon: 4.35194, radiusM: 25, lang: 'fr', keyId: job.keyId,
      // The key's entitlement travels with the job: nothing downstream reads the key record again.
      scope: { cities: ['*'], metrics: ['*'] },
    });
    expect(job.createdMs).toBe(T0);
    expect(quotaSum()).toBe(1);
  });

  it('coordinates: rounded to 5 decimals, labelled by reverse geocoding, radius 10 and English by default', async () => {
    const res = await post({ lat: 50.846581, lon: 4.351944 });
    expect(res.statusCode, res.body).toBe(202);
    const request = reportRequestOf(h.store.get(res.json().job_id)!);
    expect(request).toMatchObject({ lat: 50.84658, lon: 4.35194, radiusM: 10, lang: 'en' });
    expect(request.address).toBe(await embeddedGeocoder().reverse(50.84658, 4.35194));
    expect(request.address).toMatch(/1000 Bruxelles$/);
  });

  it('numbers given as decimal strings, like every numeric field of the API', async () => {
    const res = await post({ lat: '50.84658', lon: '4.35194', radius: '12.5' });
    expect(res.statusCode, res.body).toBe(202);
    expect(h.store.get(res.json().job_id)!.request).toMatchObject({ lat: 50.84658, lon: 4.35194, radiusM: 12.5 });
  });

  it('anywhere in Belgium: a nationwide location is accepted', async () => {
    expect((await post({ lat: 50.465, lon: 4.866 })).statusCode).toBe(202);
  });

  it('a job that the runner then completes', async () => {
    const id = (await post(GRAND_PLACE)).json().job_id;
    await h.settle();
    expect(h.store.get(id)!.state).toBe('completed');
    expect(h.content.calls).toHaveLength(1);
  });
});

describe('POST /v1/reports from a browser page', () => {
  it('a preflight allows the JSON body and Idempotency-Key; the answer lets the page read Location and the replay mark', async () => {
    const origin = 'https://app.example.org';
    const preflight = await h.app.inject({
      method: 'OPTIONS', url: '/v1/reports',
      headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'x-api-key, content-type, idempotency-key' },
    });
    expect(preflight.statusCode).toBe(204);
    const allowed = String(preflight.headers['access-control-allow-headers']).toLowerCase();
    for (const name of ['x-api-key', 'content-type', 'idempotency-key']) expect(allowed).toContain(name);
    expect(String(preflight.headers['access-control-allow-methods'])).toContain('POST');

    const pk = h.issue({ type: 'pk', origins: [origin] });
    const res = await post(GRAND_PLACE, null, { 'x-api-key': pk, origin, 'idempotency-key': 'page-1' });
    expect(res.statusCode, res.body).toBe(202);
    const exposed = String(res.headers['access-control-expose-headers']);
    for (const name of ['Location', 'Idempotent-Replayed', 'X-RateLimit-Remaining']) expect(exposed).toContain(name);
    expectProblem(await post(GRAND_PLACE, null, { 'x-api-key': pk, origin: 'https://evil.example' }), 'forbidden');
    expect(jobCount()).toBe(1);
  });
});

describe('POST /v1/reports labels coordinates', () => {
  async function labelWith(reverse: Geocoder['reverse']): Promise<string> {
    await h.close();
    const geocoder: Geocoder = { ...embeddedGeocoder(), search: (q, n) => embeddedGeocoder().search(q, n), reverse };
    h = await reportsHarness({ geocoder });
    sk = h.issue();
    const res = await post({ lat: 50.5, lon: 4.7 });
    expect(res.statusCode, res.body).toBe(202);
    return reportRequestOf(h.store.get(res.json().job_id)!).address;
  }

  it('with "lat, lon" at 5 decimals when no address is near', async () => {
    expect(await labelWith(async () => undefined)).toBe('50.50000, 4.70000');
  });

  it('with "lat, lon" when reverse geocoding fails (a label is no reason to refuse)', async () => {
    expect(await labelWith(async () => Promise.reject(new UpstreamError('down')))).toBe('50.50000, 4.70000');
  });
});

describe('POST /v1/reports refuses, creating nothing and charging nothing', () => {
  it('401 without a key or with an unknown one', async () => {
    refused(await post(GRAND_PLACE, null), 'unauthorized');
    refused(await post(GRAND_PLACE, `svc_sk_${'A'.repeat(32)}`), 'unauthorized');
  });

  it('403 for a key without the reports product, before the body is even read', async () => {
    refused(await post('{not json', h.issue({ products: ['historical'] })), 'forbidden');
  });

  it('403 for a key holding no statistic metric', async () => {
    expect(refused(await post(GRAND_PLACE, h.issue({ metrics: ['noise'] })), 'forbidden').detail).toContain('none of the metrics');
  });

  it('403 for a location in a city outside the key\'s city scope; nationwide needs no city scope', async () => {
    const ghentOnly = h.issue({ cities: ['ghent'] });
    refused(await post(GRAND_PLACE, ghentOnly), 'forbidden');
    expect((await post({ lat: 50.465, lon: 4.866 }, ghentOnly)).statusCode).toBe(202);
  });

  it('429 rate_limited once the per-minute window is full, before validation', async () => {
    const one = h.issue({ ratePerMin: 1 });
    expectProblem(await post('{', one), 'validation_error');
    const res = await post(GRAND_PLACE, one);
    refused(res, 'rate_limited');
    expect(res.headers['retry-after']).toBe('30');
  });

  it.each([
    ['address and coordinates together', { ...GRAND_PLACE, lat: 50.8, lon: 4.3 }, 'not both'],
    ['only lat', { lat: 50.8 }, "'lon' is required"],
    ['no location', { lang: 'fr' }, 'A location is required'],
    ['a blank address', { address: '   ' }, 'must not be blank'],
    ['an empty address', { address: '' }, "'address' must not be empty"],
    ['a 201-character address', { address: 'a'.repeat(201) }, "'address' must NOT have more than 200 characters"],
    ['an address with a control character', { address: 'Grand-Place 1\u0000' }, "'address' must match"],
    ['an address with a C1 control character', { address: 'Grand-Place\u0085 1' }, "'address' must match"],
    ['a radius below 5', { ...GRAND_PLACE, radius: 4.99 }, "'radius' must be >= 5"],
    ['a radius above 50', { ...GRAND_PLACE, radius: 51 }, "'radius' must be <= 50"],
    ['a latitude out of range', { lat: 91, lon: 4 }, "'lat' must be <= 90"],
    ['an unknown language', { ...GRAND_PLACE, lang: 'de' }, "'lang' must be one of 'en', 'fr', 'nl'"],
    ['a language in upper case', { ...GRAND_PLACE, lang: 'FR' }, "'lang' must be one of"],
    ['an unknown field', { ...GRAND_PLACE, langue: 'fr' }, "Body field 'langue' is not accepted"],
    ['a number as the address', { address: 12 }, "'address' must be string"],
    ['an array as the address', { address: ['Grand-Place 1'] }, "'address' must be string"],
    ['an object as the address', { address: { street: 'Grand-Place' } }, "'address' must be string"],
    ['a boolean radius', { ...GRAND_PLACE, radius: true }, "'radius' must be a decimal number"],
    ['a null radius', { ...GRAND_PLACE, radius: null }, "'radius' must be a decimal number"],
    ['a radius in an array', { ...GRAND_PLACE, radius: [10] }, "'radius' must be number"],
    ['a hexadecimal string radius', { ...GRAND_PLACE, radius: '0x10' }, "'radius' must be a decimal number"],
    ['a string Infinity', { lat: 'Infinity', lon: 4 }, "'lat' must be a decimal number"],
    ['a language in an array', { ...GRAND_PLACE, lang: ['fr'] }, "'lang' must be string"],
  ])('400 for %s', async (_, body, detail) => {
    expect(refused(await post(body), 'validation_error').detail).toContain(detail);
  });

  it.each([
    ['malformed JSON', '{"address": "Grand-Place 1"', 'not valid JSON'],
    ['a non-finite number (1e309 parses as Infinity)', '{"lat": 1e309, "lon": 4.35}', "'lat' must be a finite number"],
    ['a JSON array', '[{"address": "Grand-Place 1"}]', 'must be object'],
    ['a JSON string', '"Grand-Place 1"', 'must be object'],
    ['JSON null', 'null', 'must be object'],
    ['an empty body', '', 'empty'],
    ['a prototype-poisoning key', '{"__proto__": {"x": 1}, "address": "Grand-Place 1"}', 'not valid JSON'],
  ])('400 for %s', async (_, body, detail) => {
    expect(refused(await post(body), 'validation_error').detail).toContain(detail);
  });

  it('200 characters of address are accepted, 201 are not', async () => {
    const address = GRAND_PLACE.address.padEnd(200, ' ');
    refused(await post({ address: `${address} ` }), 'validation_error');
    const res = await post({ address });
    expect(res.statusCode, res.body).toBe(202);
    expect(reportRequestOf(h.store.get(res.json().job_id)!).address).toBe('Grand-Place 1, 1000 Bruxelles');
  });

  it('415 for a body that is not JSON', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await h.app.inject({
        method: 'POST', url: '/v1/reports', headers: { 'content-type': type, authorization: `Bearer ${sk}` }, payload: 'address=Grand-Place',
      });
      refused(res, 'unsupported_media_type');
    }
  });

  it('413 for a body over the limit', async () => {
    refused(await post({ address: 'x'.repeat(70_000) }), 'payload_too_large');
  });

  it('422 outside_coverage outside Belgium and for an unresolvable address', async () => {
    expect(refused(await post({ lat: 48.85661, lon: 2.35222 }), 'outside_coverage').detail).toContain('outside every covered area');
    expect(refused(await post({ address: 'Qwzrtx Plmnb 99999' }), 'outside_coverage').detail).toContain('not recognised');
  });

  it('422 product_unavailable in a city that models none of the key\'s metrics', async () => {
    // Ghent models air only (of the statistic metrics); a wind-only key gets nothing there.
    const windOnly = h.issue({ metrics: ['wind'] });
    expect(refused(await post({ lat: 51.0543, lon: 3.7174 }, windOnly), 'product_unavailable').detail).toContain('ghent');
  });

  it('502 upstream_error when the geocoder fails', async () => {
    await h.close();
    const failing: Geocoder = { stable: false, search: async () => Promise.reject(new Error('connect ECONNREFUSED')), reverse: async () => undefined };
    h = await reportsHarness({ geocoder: failing });
    const body = refused(await post(GRAND_PLACE, h.issue()), 'upstream_error');
    expect(body.detail).not.toContain('ECONNREFUSED');
  });

  it('checks validation before the quota, and the quota before coverage', async () => {
    const none = h.issue({ reportsPerDay: 0 });
    expectProblem(await post({ radius: 3 }, none), 'validation_error');
    // Outside coverage, but the quota is checked first: no geocoding, no work.
    refused(await post({ lat: 48.85661, lon: 2.35222 }, none), 'quota_exceeded');
  });
});

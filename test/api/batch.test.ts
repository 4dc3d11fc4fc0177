import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './support/harness.js';
import { expectProblem } from './support/problem.js';

let h: Harness;
let sk: string;
beforeEach(async () => {
  h = await harness();
  sk = h.issue({ products: ['historical'] });
});
afterEach(async () => h.close());

const auth = (key = sk) => ({ authorization: `Bearer ${key}` });
const batch = (payload: unknown, headers: Record<string, string> = {}, query = '') =>
  h.app.inject({
    method: 'POST', url: `/v1/historical/batch${query}`, headers: { ...auth(), ...headers },
    ...(typeof payload === 'string' ? { payload } : { payload: JSON.stringify(payload), headers: { ...auth(), 'content-type': 'application/json', ...headers } }),
  });
const stats = (query: string) => h.app.inject({ url: `/v1/historical/stats${query}`, headers: auth() });

const GRAND_PLACE = { lat: 50.8466, lon: 4.3519 };

describe('POST /v1/historical/batch', () => {
  it('answers good and bad locations side by side, each with its own result or problem, in order', async () => {
    const res = await batch({
      locations: [
        { id: 'a', ...GRAND_PLACE },
        { id: 7, lat: '50.8467', lon: '4.3520', radius: 12.5 },
        { id: 'nan', lat: 'NaN', lon: 4.35 },
        { id: 'far', lat: 48.85, lon: 2.35 },
        { id: 'both', address: 'Grand-Place 1', lat: 50, lon: 4 },
        { id: 'addr', address: 'Grand-Place 1, Bruxelles' },
      ],
      metrics: 'air,wind',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = res.json();
    expect(body).toMatchObject({ locations: 6, answered: 3, failed: 3 });
    expect(body.results.map((r: { id: string; ok: boolean }) => [r.id, r.ok])).toEqual([
      ['a', true], ['7', true], ['nan', false], ['far', false], ['both', false], ['addr', true],
    ]);
    expect(body.results[0].result.meta.metrics).toEqual(['air', 'wind']);
    expect(body.results[1].result.meta).toMatchObject({ sampling: 'radius', radius_m: 12.5 });
    expect(body.results[2].problem).toMatchObject({ code: 'validation_error', status: 400 });
    expect(body.results[2].problem.detail).toContain("'lat'");
    expect(body.results[3].problem).toMatchObject({ code: 'outside_coverage', status: 422 });
    expect(body.results[3].problem.request_id).toBe(res.headers['x-request-id']);
    expect(body.results[4].problem.detail).toContain('not both');
    expect(body.results[5].result.location.address).toBe('Grand-Place 1, 1000 Bruxelles');
  });

  it('shares the statistics cache with GET /historical/stats, both ways', async () => {
    const first = (await batch({ locations: [{ id: 'a', ...GRAND_PLACE }] })).json();
    expect(first.results[0].cache).toBe('miss');
    const single = await stats('?lat=50.8466&lon=4.3519');
    expect(single.headers['x-cache']).toBe('hit');
    expect(single.json()).toEqual(first.results[0].result);
    expect((await stats('?lat=50.85&lon=4.35')).headers['x-cache']).toBe('miss');
    const second = (await batch({ locations: [{ id: 'b', lat: 50.85, lon: 4.35 }] })).json();
    expect(second.results[0].cache).toBe('hit');
    expect(h.compute.calls.length).toBe(2);
  });

  it('replays stored answers to repeated locations: the same text, never to a key the full path refuses', async () => {
    const locations = [{ id: 'a', ...GRAND_PLACE }, { id: 'r', ...GRAND_PLACE, radius: 20 }];
    const first = await batch({ locations, metrics: 'air' });
    const query = { ...GRAND_PLACE, metrics: ['air' as const] };
    const record = h.keys.findByKey(sk)!;
    expect(h.historical.storedAnswer(query, record)?.cache).toBe('hit');
    expect(h.historical.storedAnswer({ ...query, metrics: ['wind'] }, record)).toBeUndefined();
    const second = await batch({ locations, metrics: 'air' });
    expect(second.body.replace(/"cache":"(hit|miss)"/g, '')).toBe(first.body.replace(/"cache":"(hit|miss)"/g, ''));
    expect(second.json().results.map((r: { cache: string }) => r.cache)).toEqual(['hit', 'hit']);
    expect(h.compute.calls.length).toBe(2);
    // A key without Brussels in its scope: refused as the full path refuses it, not served the stored text.
    const ghent = h.issue({ products: ['historical'], cities: ['ghent'] });
    const refused = (await batch({ locations, metrics: 'air' }, auth(ghent))).json();
    expect(refused.results.map((r: { problem?: { code: string } }) => r.problem?.code)).toEqual(['forbidden', 'forbidden']);
  });

  it('reads CSV with a BOM, quotes and mixed line ends, and answers CSV when asked', async () => {
    const csv = '\ufeffid,lat,lon,address\r\n"p,1",50.8466,4.3519,\nbad,91,4.35,\r"q ""2""",,,"Grand-Place 1, Bruxelles"\r\n';
    const res = await batch(csv, { 'content-type': 'text/csv', accept: 'text/csv' }, '?metrics=wind');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = res.body.split('\r\n');
    const header = lines[0]!.split(',');
    expect(header.slice(0, 4)).toEqual(['id', 'ok', 'error_code', 'error_detail']);
    expect(header).toContain('wind.rating');
    expect(header).not.toContain('air.rating');
    expect(lines[1]).toMatch(/^"p,1",true,,,/);
    expect(lines[2]).toMatch(/^bad,false,validation_error,'lat' must be between -90 and 90; got 91\.,/);
    expect(lines[3]).toMatch(/^"q ""2""",true,,,/);
    expect(lines[4]).toBe('');
  });

  it('refuses the whole batch for duplicate ids (naming them), missing ids and too many locations', async () => {
    const dup = expectProblem(await batch({ locations: [{ id: 'x', ...GRAND_PLACE }, { id: 'y', ...GRAND_PLACE }, { id: 'x', ...GRAND_PLACE }] }), 'validation_error');
    expect(dup.detail).toContain("repeated: 'x'");
    expect(expectProblem(await batch({ locations: [{ ...GRAND_PLACE }] }), 'validation_error').detail).toContain('#1');
    const many = Array.from({ length: 1001 }, (_, i) => ({ id: i, ...GRAND_PLACE }));
    const over = expectProblem(await batch({ locations: many }), 'validation_error');
    expect(over.detail).toContain('at most 1000 locations; this one has 1001');
    expect(over.detail).toContain('POST /v1/historical/jobs');
    expect(expectProblem(await batch({ locations: [] }), 'validation_error').detail).toContain('at least one');
    expect(expectProblem(await batch({ places: [] }), 'validation_error').detail).toContain("'locations'");
    expect(h.compute.calls.length).toBe(0);
  });

  it('refuses hostile bodies with problems: deep nesting, bad JSON, oversize, an unknown media type', async () => {
    const deep = `{"locations":${'['.repeat(50_000)}${']'.repeat(50_000)}}`;
    expectProblem(await batch(deep, { 'content-type': 'application/json' }), 'validation_error');
    expectProblem(await batch('{"locations": [', { 'content-type': 'application/json' }), 'validation_error');
    expectProblem(await batch(`{"locations":[{"id":"a","address":"${'x'.repeat(1_100_000)}"}]}`, { 'content-type': 'application/json' }), 'payload_too_large');
    expectProblem(await batch('id,lat', { 'content-type': 'text/plain' }), 'unsupported_media_type');
    expectProblem(await batch('id,lat,lon\na,"50', { 'content-type': 'text/csv' }), 'validation_error');
  });

  it('counts each location against the rate limit, all or nothing, before any work', async () => {
    const small = h.issue({ products: ['historical'], ratePerMin: 5 });
    const three = Array.from({ length: 3 }, (_, i) => ({ id: i, lat: 50.8466 + i / 1e4, lon: 4.3519 }));
    const ok = await batch({ locations: three }, auth(small));
    expect(ok.statusCode).toBe(200);
    expect(ok.headers['x-ratelimit-remaining']).toBe('2');
    const refused = await batch({ locations: three }, auth(small));
    const problem = expectProblem(refused, 'rate_limited');
    expect(problem.detail).toContain('counts 3 requests');
    expect(refused.headers['retry-after']).toBeDefined();
    expect(h.compute.calls.length).toBe(3);
    // The refused batch cost its one request, not three: one more single request still fits.
    expect((await stats('?lat=50.8466&lon=4.3519')).statusCode).toBe(200);
  });

  it('refuses a metric the key does not hold for the whole batch (403)', async () => {
    const airOnly = h.issue({ products: ['historical'], metrics: ['air'] });
    expectProblem(await batch({ locations: [{ id: 'a', ...GRAND_PLACE }], metrics: ['wind'] }, auth(airOnly)), 'forbidden');
    expectProblem(await batch({ locations: [{ id: 'a', ...GRAND_PLACE }], metrics: 'wind' }, {}, '?metrics=air'), 'validation_error');
  });
});

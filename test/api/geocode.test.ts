import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UpstreamError } from '../../src/errors.js';
import type { Geocoder } from '../../src/geocode/geocoder.js';
import { harness, type Harness } from './support/harness.js';
import { expectProblem } from './support/problem.js';

let h: Harness;
let sk: string;
beforeAll(async () => {
  h = await harness();
  sk = h.issue({ products: ['geocode'] });
});
afterAll(async () => h.close());

const geocode = (query: string, app = h.app, key = sk) => app.inject({ url: `/v1/geocode${query}`, headers: { 'x-api-key': key } });

describe('GET /v1/geocode', () => {
  it('returns the query as received and results with covered and city', async () => {
    const res = await geocode('?q=Grand-Place%207%2C%20Bruxelles');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json();
    expect(body.query).toBe('Grand-Place 7, Bruxelles');
    expect(body.results.length).toBeGreaterThan(0);
    expect(body.results.length).toBeLessThanOrEqual(5);
    expect(body.results[0]).toEqual({ address: 'Grand-Place 7, 1000 Bruxelles', lat: 50.84683, lon: 4.35213, relevance: expect.any(Number), covered: true, city: 'brussels' });
    for (const r of body.results) {
      expect(r.relevance).toBeGreaterThanOrEqual(0);
      expect(r.relevance).toBeLessThanOrEqual(1);
      expect(r.covered ? typeof r.city : r.city).toBe(r.covered ? 'string' : undefined);
    }
  });

  it('marks places outside every zone as not covered, without city', async () => {
    const body = (await geocode('?q=Namur&limit=1')).json();
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ address: '5000 Namur', covered: false });
    expect(body.results[0]).not.toHaveProperty('city');
  });

  it('never returns a result that contradicts the query', async () => {
    expect((await geocode(`?q=${encodeURIComponent('Place Saint-Lambert 1, 4000 Liège')}`)).json().results).toEqual([
      { address: '4000 Liège', lat: 50.6455, lon: 5.5735, relevance: 0.65, covered: false },
    ]);
    expect((await geocode(`?q=${encodeURIComponent('Rue Neuve 1, 1000 Bruxelles')}`)).json().results).toEqual([
      { address: '1000 Bruxelles', lat: 50.8467, lon: 4.3525, relevance: 0.65, covered: true, city: 'brussels' },
    ]);
    expect((await geocode(`?q=${encodeURIComponent('Kerkstraat 1, 9000 Gent')}`)).json().results.map((r: { address: string }) => r.address)).toEqual(['9000 Gent']);
    expect((await geocode('?q=xyzzy')).json().results).toEqual([]);
  });

  it('honours limit 1 to 5 and may return no results', async () => {
    expect((await geocode('?q=Grand-Place&limit=2')).json().results).toHaveLength(2);
    expect((await geocode('?q=99999999')).json()).toEqual({ query: '99999999', results: [] });
  });

  it.each([
    ['', "'q' is required"],
    ['?q=', "'q' must not be empty"],
    ['?q=a&limit=0', "'limit' must be >= 1"],
    ['?q=a&limit=6', "'limit' must be <= 5"],
    ['?q=a&limit=two', "'limit' must be an integer in decimal notation"],
    ['?q=a&limit=0x3', "'limit' must be an integer in decimal notation"],
    ['?q=a&limit=1e400', "'limit' must be an integer in decimal notation"],
    ['?q=a&limit=2.5', "'limit' must be integer"],
  ])('400 for %j', async (query, detail) => {
    expect(expectProblem(await geocode(query), 'validation_error').detail).toContain(detail);
  });

  it('502 when the geocoder fails', async () => {
    const failing: Geocoder = { stable: false, search: async () => Promise.reject(new UpstreamError('geocoder said 500')), reverse: async () => undefined };
    const broken = await harness({ geocoder: failing });
    try {
      expectProblem(await geocode('?q=x', broken.app, broken.issue()), 'upstream_error');
    } finally {
      await broken.close();
    }
  });
});

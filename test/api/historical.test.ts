import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCoverage } from '../../src/cities/coverage.js';
import { acceptsStreetOrAreaResults } from '../../src/services/locate.js';
import { deferred } from '../services/support/fake-compute.js';
import { harness, type Harness } from './support/harness.js';
import { expectProblem } from './support/problem.js';

let h: Harness;
let sk: string;
beforeEach(async () => {
  h = await harness({ timeoutMs: 20_000 });
  sk = h.issue({ products: ['historical'] });
});
afterEach(async () => h.close());

const stats = (query: string, key = sk) => h.app.inject({ url: `/v1/historical/stats${query}`, headers: { authorization: `Bearer ${key}` } });

async function until(done: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !done(); i++) await new Promise((r) => setImmediate(r));
  if (!done()) throw new Error('condition never held');
}

describe('GET /v1/historical/stats', () => {
  it('answers the envelope as JSON with X-Cache miss, then hit', async () => {
    const first = await stats('?lat=50.846601&lon=4.35190&metrics=wind,air');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(first.headers['x-cache']).toBe('miss');
    expect(first.headers['x-ratelimit-limit']).toBe('600');
    const body = first.json();
    expect(Object.keys(body)).toEqual(['city', 'location', 'meta', 'air', 'wind']);
    expect(body.location).toEqual({ address: null, lat: 50.8466, lon: 4.3519 });
    expect(body.meta).toEqual({
      dataset: 'brussels_extended', reference_year: 2023, sampling: 'point', n_cells: 1, hours: 8760,
      generated_utc: '2025-01-01T00:00:00.000Z', metrics: ['air', 'wind'],
    });
    const second = await stats('?lat=50.8466&lon=4.3519');
    expect(second.headers['x-cache']).toBe('hit');
    expect(second.json().meta.metrics).toEqual(['air', 'wind', 'thermal']);
  });

  it('answers an address with the geocoded address and a radius with radius_m', async () => {
    const res = await stats('?address=Grand-Place%201%2C%20Bruxelles&radius=12.5');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.location).toEqual({ address: 'Grand-Place 1, 1000 Bruxelles', lat: 50.84658, lon: 4.35194 });
    expect(body.meta).toMatchObject({ sampling: 'radius', radius_m: 12.5 });
  });

  it('answers elsewhere in Belgium from the nationwide dataset, radius ignored', async () => {
    const body = (await stats('?lat=50.465&lon=4.866&radius=25')).json();
    expect(body).not.toHaveProperty('city');
    expect(body.meta.dataset).toBe('belgium_lowres');
    expect(body.meta).not.toHaveProperty('radius_m');
  });

  it('answers 504 after the upstream time-out, then the retry hits the cache', async () => {
    const gate = deferred();
    h.compute.gate = gate.promise;
    const pending = stats('?lat=50.8466&lon=4.3519');
    await until(() => h.compute.calls.length === 1);
    h.clock.advance(20_000);
    const timedOut = await pending;
    expect(expectProblem(timedOut, 'upstream_timeout').detail).toContain('20 s');
    expect(timedOut.headers['x-ratelimit-limit']).toBe('600');
    gate.resolve();
    await h.historical.drain();
    const retry = await stats('?lat=50.8466&lon=4.3519');
    expect(retry.statusCode).toBe(200);
    expect(retry.headers['x-cache']).toBe('hit');
  });

  it('answers 502 without internals when the back end fails', async () => {
    h.compute.failure = new Error('SQLITE_CORRUPT at /var/lib/secret.zarr');
    const body = expectProblem(await stats('?lat=50.8466&lon=4.3519'), 'upstream_error');
    expect(body.detail).not.toContain('secret');
  });

  it('answers 422 when the radius holds no outdoor cell', async () => {
    expect(expectProblem(await stats('?lat=50.8466&lon=4.3519&radius=5'), 'outside_coverage').detail).toContain('outdoor');
  });
});

describe('GET /v1/historical/stats by address: the right place, or nothing', () => {
  const byAddress = (address: string) => stats(`?address=${encodeURIComponent(address)}`);

  it('answers Place Saint-Lambert 1, 4000 Liège (a street the gazetteer does not hold) for the Liège municipality, nationwide', async () => {
    const res = await byAddress('Place Saint-Lambert 1, 4000 Liège');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).not.toHaveProperty('city');
    expect(body.location).toEqual({ address: '4000 Liège', lat: 50.6455, lon: 5.5735 });
    expect(body.meta.dataset).toBe('belgium_lowres');
  });

  it.each(['Grote Markt Brussel', 'Grand-Place 3, 1000 Bruxelles', 'Rue Haute 100, 1000 Bruxelles'])('answers %s with 422: only the street was found, no house', async (address) => {
    const before = h.compute.calls.length;
    const body = expectProblem(await byAddress(address), 'outside_coverage');
    expect(body.detail).toContain('was not found at house level: only the street');
    expect(h.compute.calls.length).toBe(before);
  });

  it.each(['Rue Neuve 1, 1000 Bruxelles', 'xyzzy', 'Bruxelles'])('answers %s with 422: the address was not recognised', async (address) => {
    const before = h.compute.calls.length;
    const body = expectProblem(await byAddress(address), 'outside_coverage');
    expect(body.detail).toContain('was not recognised');
    expect(body.detail).toContain(`'${address}'`);
    expect(h.compute.calls.length).toBe(before);
  });

  it('answers Kerkstraat 1, 9000 Gent from the nationwide dataset where it answers in Ghent, else 422', async () => {
    const res = await byAddress('Kerkstraat 1, 9000 Gent');
    const coverage = resolveCoverage(51.0538, 3.725);
    if (coverage.kind !== 'outside' && acceptsStreetOrAreaResults(coverage)) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ location: { address: '9000 Gent' }, meta: { dataset: 'belgium_lowres' } });
    } else {
      expect(expectProblem(res, 'outside_coverage').detail).toContain("was not recognised at street level: only the area '9000 Gent'");
    }
  });

  it('still answers the addresses it holds, in any language and misspelt', async () => {
    for (const address of ['Grand-Place 1, 1000 Bruxelles', 'Grote Markt 1 Brussel', 'Marche aux herbes 10', 'Grasmarkt 10 Brussel', 'Grand-Place 1 bus 3 Brussel']) {
      const res = await byAddress(address);
      expect(res.statusCode, address).toBe(200);
      expect(res.json().meta.dataset).toBe('brussels_extended');
    }
  });
});

/**
 * Differential property test of the tile fast path: two listening applications over the same map service, key store
 * and clock, one answering drawn tiles before routing and one without that path, get the same random sequences of
 * tile requests (good and bad addresses and signatures, a revoked key's URL, percent-encoded and repeated parameters,
 * every Accept-Encoding form, browser Origin, HEAD). Every answer must be the same byte for byte: status, body
 * (problem documents up to their request id) and headers up to the request id and the date.
 */
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/nodes/http-app.js';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { tilesCovering } from '../../src/map/web-mercator-tiles.js';
import { HistoricalService } from '../../src/services/historical-service.js';
import { SqliteStatsCache } from '../../src/services/stats-cache.js';
import { embeddedGeocoder } from '../api/support/harness.js';
import { LIVE_T0, liveHarness, startRealModelService, type LiveHarness, type RealModelService } from '../api/live-harness.js';
import { SYNTH_SPEC } from '../model-service/synthetic-city.js';
import { FakeCompute } from '../services/support/fake-compute.js';
import { ManualClock } from '../services/support/manual-clock.js';

let model: RealModelService;
let h: LiveHarness;
let plain: FastifyInstance;
let fastBase: string;
let plainBase: string;
let catalog: any;
let revoked: any;
const clock = new ManualClock(LIVE_T0);
const compute = new FakeCompute();
const RANGE = tilesCovering(gridFootprint(SYNTH_SPEC.grid).box, 16);

beforeAll(async () => {
  model = await startRealModelService(clock);
  h = await liveHarness(model.url, clock);
  const geocoder = embeddedGeocoder();
  const historical = new HistoricalService({
    backend: compute, geocoder, cache: new SqliteStatsCache(h.db, () => clock.now()), clock, timeoutMs: 30_000, computeVersion: 'test',
  });
  plain = await buildApp({ config: h.config, keys: h.keys, geocoder, historical, map: h.map, clock, tileFastPath: false });
  fastBase = await h.app.listen({ host: '127.0.0.1', port: 0 });
  plainBase = await plain.listen({ host: '127.0.0.1', port: 0 });
  const key = h.issue();
  const gone = h.issue();
  catalog = (await h.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${key}` } })).json();
  revoked = (await h.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${gone}` } })).json();
  await h.map.settled();
  h.keys.deactivate(h.keys.findByKey(gone)!.id, new Date(clock.now()));
});
afterAll(async () => {
  await plain?.close();
  await h?.close();
  await model?.close();
});

/** GET or HEAD `base + path` over a plain socket: status, raw body bytes and headers, nothing decoded. */
function raw(base: string, path: string, method: string, headers: Record<string, string>): Promise<{ status: number; body: Buffer; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks), headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** The tile (z, x, y) of the tileset whose TileJSON URL is `tilejson`: its path and signed query. */
const tileUrl = (tilejson: string, z: number, x: number, y: number) => {
  const [path, query] = tilejson.split('?');
  return { path: `${path.replace(/\.json$/, '')}/${z}/${x}/${y}.mvt`, query };
};

const call = fc.record({
  set: fc.constantFrom('live-thermal', 'live-air', 'forecast-wind', 'static', 'revoked'),
  z: fc.constantFrom(16, 16, 16, 15, 14),
  dx: fc.integer({ min: -1, max: 2 }),
  dy: fc.integer({ min: -1, max: 2 }),
  query: fc.constantFrom('as-is', 'as-is', 'as-is', 'encoded-dot', 'twice', 'no-sig', 'mangled', 'extra'),
  encoding: fc.constantFrom(undefined, 'gzip', 'gzip, deflate, br', 'br', 'gzip;q=0', '*', 'identity;q=1, *;q=0'),
  origin: fc.constantFrom(undefined, undefined, 'https://maps.example'),
  method: fc.constantFrom('GET', 'GET', 'GET', 'HEAD'),
  repeat: fc.boolean(),
});

describe('the tile fast path', () => {
  it('answers exactly as the full application does', async () => {
    const sets: Record<string, string> = {
      'live-thermal': catalog.live.layers.thermal.tilejson,
      'live-air': catalog.live.layers.air.tilejson,
      'forecast-wind': catalog.forecast[4].layers.wind.tilejson,
      static: catalog.static.buildings.tilejson,
      revoked: revoked.live.layers.thermal.tilejson,
    };
    await fc.assert(fc.asyncProperty(call, async (c) => {
      const { path, query } = tileUrl(sets[c.set], c.z, (RANGE.x0 >> (16 - c.z)) + c.dx, (RANGE.y0 >> (16 - c.z)) + c.dy);
      const q = {
        'as-is': query, 'encoded-dot': query.replace('.', '%2E'), twice: `${query}&${query}`, 'no-sig': query.split('&')[0],
        mangled: query.replace(/.$/, (ch: string) => (ch === 'A' ? 'B' : 'A')), extra: `${query}&z=1`,
      }[c.query]!;
      const headers: Record<string, string> = {};
      if (c.encoding !== undefined) headers['accept-encoding'] = c.encoding;
      if (c.origin !== undefined) headers.origin = c.origin;
      // Asking the full application first draws the tile, so the fast path then has it.
      const slow = await raw(plainBase, `${path}?${q}`, c.method, headers);
      const fast = await raw(fastBase, `${path}?${q}`, c.method, headers);
      if (c.repeat) {
        const again = await raw(fastBase, `${path}?${q}`, c.method, headers);
        expect(again.status).toBe(fast.status);
        if (fast.status < 400) expect(again.body.equals(fast.body)).toBe(true);
      }
      expect(fast.status, `${path}?${q}`).toBe(slow.status);
      const strip = (hs: Record<string, unknown>) => ({ ...hs, 'x-request-id': undefined, date: undefined });
      expect(strip(fast.headers)).toEqual(strip(slow.headers));
      if (slow.status >= 400 && c.method === 'GET') {
        expect({ ...JSON.parse(fast.body.toString()), request_id: 0, type: 0 }).toEqual({ ...JSON.parse(slow.body.toString()), request_id: 0, type: 0 });
      } else {
        expect(fast.body.equals(slow.body)).toBe(true);
      }
    }), { seed: 4207, numRuns: 250 });
    expect(h.app.tileFastPath().served).toBeGreaterThan(20);
    expect(plain.tileFastPath().served).toBe(0);
  });
});

/**
 * Property test over every map path: random cities, layers, timestamps, zooms, tile columns and rows, format
 * suffixes, keys and exp/sig pairs (genuine, for another layer, of a deactivated key, missing, repeated, mangled,
 * random). An oracle that follows the documented order of checks gives the status each request must get; the service
 * must answer exactly that, never a 5xx, every error a complete problem document and every 200 tile decodable.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { inRange, tilesCovering } from '../../src/map/web-mercator-tiles.js';
import { expectProblem } from '../api/support/problem.js';
import { LIVE_T0, liveHarness, startRealModelService, type LiveHarness, type RealModelService } from '../api/live-harness.js';
import { SYNTH_SPEC } from '../model-service/synthetic-city.js';
import { ManualClock } from '../services/support/manual-clock.js';
import { decodeLayer } from './support/tile-check.js';

let model: RealModelService;
let h: LiveHarness;
let active: string;
let noMap: string;
let catalog: any;
let revoked: any;
const clock = new ManualClock(LIVE_T0);
const FOOTPRINT = gridFootprint(SYNTH_SPEC.grid);
const TIMED = ['thermal', 'wind', 'air'];
const HOUR = 3_600_000;

beforeAll(async () => {
  model = await startRealModelService(clock);
  h = await liveHarness(model.url, clock);
  active = h.issue();
  noMap = h.issue({ products: ['realtime'] });
  const revokedKey = h.issue();
  catalog = (await h.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${active}` } })).json();
  revoked = (await h.app.inject({ url: '/v1/map/brussels', headers: { authorization: `Bearer ${revokedKey}` } })).json();
  h.keys.deactivate(h.keys.findByKey(revokedKey)!.id, new Date(clock.now()));
  await h.map.settled();
});
afterAll(async () => {
  await h?.close();
  await model?.close();
});

/** `exp=…&sig=…` of a layer's URLs in a catalog. */
const pairOf = (cat: any, layer: string) =>
  (layer === 'buildings' ? cat.static.buildings.tilejson : cat.live.layers[layer].tilejson).split('?')[1] as string;

const tally = new Map<number, number>();
const junk = fc.string({ maxLength: 14 }).map(encodeURIComponent);
/** Good values three times out of four, so requests get past each check often enough. */
const mostly = <T>(good: fc.Arbitrary<T>, bad: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 3 }, { arbitrary: bad, weight: 1 });

const request = fc.record({
  path: fc.constantFrom('catalog', 'live.json', 'live.mvt', 'forecast.json', 'forecast.mvt', 'static.json', 'static.mvt'),
  suffixOk: fc.nat(9).map((n) => n > 0),
  city: mostly(fc.constant('brussels'), fc.oneof(fc.constantFrom('ghent', 'atlantis', 'Brussels', '', 'b'.repeat(120)), junk)),
  layer: mostly(fc.constantFrom(...TIMED, 'buildings'), fc.oneof(fc.constantFrom('noise', 'forecast', ''), junk)),
  timestamp: mostly(fc.constantFrom('live', 'live-5h', 'fc0', 'fc31'), fc.constantFrom('live-24h', 'off', '0', '', '-1', 'abc', 'lead0', '1e12')),
  z: mostly(fc.constantFrom('15', '16'), fc.constantFrom('14', '17', '016', '', 'x', '-1', '1.5')),
  x: fc.integer({ min: -1, max: 2 }),
  y: fc.integer({ min: -1, max: 2 }),
  xyRaw: mostly(fc.constant(undefined), fc.constantFrom('', 'a', '+1', '00')),
  signature: mostly(fc.constant('own'), fc.constantFrom('other-layer', 'revoked', 'no-exp', 'no-sig', 'twice', 'mangled', 'none', 'junk')),
  key: mostly(fc.constant('active'), fc.constantFrom('none', 'no-map')),
});

type Req = typeof request extends fc.Arbitrary<infer T> ? T : never;

/** The path, query and key of a generated request, and the status the documented checks give it. */
function build(r: Req): { url: string; key?: string; status: number } {
  const live = catalog.live.timestamp_ms as number;
  const ts: Record<string, string> = {
    live: String(live), 'live-5h': String(live - 5 * HOUR), 'live-24h': String(live - 24 * HOUR),
    fc0: String(catalog.forecast[0].timestamp_ms), fc31: String(catalog.forecast[31].timestamp_ms), off: String(live + 1),
    lead0: `0${live}`, '0': '0', '': '', '-1': '-1', abc: 'abc', '1e12': '1e12',
  };
  const timestamp = ts[r.timestamp];
  if (r.path === 'catalog') {
    const key = r.key === 'active' ? active : r.key === 'no-map' ? noMap : undefined;
    // A path segment over 100 characters never reaches the route (404 before the key is read).
    const routed = decodeURIComponent(r.city).length <= 100;
    const status = !routed ? 404 : key === undefined ? 401 : key === noMap ? 403 : r.city === 'brussels' ? 200 : 404;
    return { url: `/v1/map/${r.city}`, ...(key ? { key } : {}), status };
  }
  const [kind, format] = r.path.split('.') as ['live' | 'forecast' | 'static', 'json' | 'mvt'];
  const isStatic = kind === 'static';
  const layerOk = isStatic ? r.layer === 'buildings' : TIMED.includes(r.layer);
  const zoom = Number(r.z);
  const range = ['15', '16'].includes(r.z) ? tilesCovering(FOOTPRINT.box, zoom) : tilesCovering(FOOTPRINT.box, 16);
  const x = r.xyRaw ?? String(range.x0 + r.x);
  const y = r.xyRaw ?? String(range.y0 + r.y);
  const segments = [`/v1/map/${r.city}/tiles`, kind === 'forecast' ? 'forecast' : undefined, r.layer, isStatic ? undefined : timestamp].filter((s) => s !== undefined);
  const suffix = r.suffixOk ? format : format === 'json' ? 'mvt' : 'pbf';
  const base = format === 'json' ? `${segments.join('/')}.${suffix}` : `${segments.join('/')}/${r.z}/${x}/${y}.${suffix}`;
  const signedLayer = layerOk ? r.layer : 'thermal';
  const own = pairOf(catalog, signedLayer);
  const queries: Record<string, string> = {
    own, 'other-layer': pairOf(catalog, signedLayer === 'wind' ? 'air' : 'wind'), revoked: pairOf(revoked, signedLayer),
    'no-exp': own.split('&')[1], 'no-sig': own.split('&')[0], twice: `${own}&${own}`, mangled: own.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
    none: '', junk: 'exp=12&sig=1.abc',
  };
  const url = `${base}${queries[r.signature] ? `?${queries[r.signature]}` : ''}`;
  // Route shape (a segment over 100 characters is refused by the router), then city and layer (404) → signature (401) → key (403) → timestep, zoom, tile (404) → 200 or 204.
  const tooLong = [r.city, r.layer, timestamp].some((s) => decodeURIComponent(s).length > 100);
  const routed = r.suffixOk && !tooLong;
  if (!routed || r.city !== 'brussels' || !layerOk) return { url, status: 404 };
  if (!['own', 'revoked'].includes(r.signature)) return { url, status: 401 };
  if (r.signature === 'revoked') return { url, status: 403 };
  const stepOk = isStatic || (kind === 'live' ? ['live', 'live-5h'].includes(r.timestamp) : ['fc0', 'fc31'].includes(r.timestamp));
  if (!stepOk) return { url, status: 404 };
  if (format === 'json') return { url, status: 200 };
  const tileOk = ['15', '16'].includes(r.z) && r.xyRaw === undefined && inRange(range, Number(x), Number(y));
  return { url, status: tileOk ? 200 : 404 };
}

describe('every map path under random input', () => {
  it('answers exactly what the documented checks say, never a 5xx, with complete problem documents', async () => {
    await fc.assert(fc.asyncProperty(request, async (r) => {
      const { url, key, status } = build(r);
      const res = await h.app.inject({ url, headers: key ? { authorization: `Bearer ${key}` } : {} });
      expect(res.statusCode, `${url} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
      if (status === 200 && res.statusCode === 204) {
        expect(url).toMatch(/\.mvt/);
        expect(res.rawPayload).toHaveLength(0);
        return;
      }
      expect(res.statusCode, `${url} → ${res.body.slice(0, 300)}`).toBe(status);
      tally.set(res.statusCode, (tally.get(res.statusCode) ?? 0) + 1);
      if (status >= 400) {
        expectProblem(res, status === 404 ? 'not_found' : status === 403 ? 'forbidden' : url.includes('/tiles/') ? 'url_expired' : 'unauthorized');
      } else if (url.includes('.mvt')) {
        expect(res.headers['content-type']).toBe('application/vnd.mapbox-vector-tile');
        const layer = url.includes('/buildings/') ? 'buildings' : url.includes('/thermal/') ? 'UTCI' : url.includes('/wind/') ? 'wind' : 'air';
        expect(decodeLayer(res.rawPayload, layer).features.length).toBeGreaterThan(0);
      }
    }), { seed: 4205, numRuns: 800 });
    // Every outcome was met, each more than a few times (an empty tile, 204, where a tile is due, is rare on this grid).
    for (const status of [200, 401, 403, 404]) expect(tally.get(status) ?? 0, `answers ${status}`).toBeGreaterThan(5);
  });
});

/**
 * End to end: the map product over real HTTP on the real service (fixture datasets, embedded model service, tiles drawn
 * in the compute pool): catalog → TileJSON → tiles at the lowest, middle and highest zoom of every layer, decoded with
 * @mapbox/vector-tile and opened by Debian GDAL (`ogrinfo` georeferences a bare tile from its Z/X/Y), which must find
 * features inside the city's bounding box.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getCity } from '../../src/cities/catalog.js';
import { wgs84ToWebMercator } from '../../src/geo/crs.js';
import { WEB_MERCATOR_HALF_WORLD_M } from '../../src/geo/crs.js';
import { decodeLayer } from '../map/support/tile-check.js';
import { expectProblem, readResponse, startE2eServer, type E2eServer } from './support/e2e-server.js';

const run = promisify(execFile);
let e2e: E2eServer;
let key: string;
let dir: string;

beforeAll(async () => {
  e2e = await startE2eServer();
  key = e2e.issue({ label: 'e2e map', ratePerMin: 1000 });
  dir = await mkdtemp(join(tmpdir(), 'svc-e2e-map-'));
});
afterAll(async () => {
  await e2e?.server.map.settled();
  await e2e?.close();
  await rm(dir, { recursive: true, force: true });
});

/** Grand-Place in EPSG:3857, and the city's bounding box there. */
const GRAND_PLACE = wgs84ToWebMercator(4.35224, 50.84675);
const [west, south, east, north] = getCity('brussels')!.bbox;
const [bx0, by0] = wgs84ToWebMercator(west, south);
const [bx1, by1] = wgs84ToWebMercator(east, north);

/** The tile at zoom `z` holding Grand-Place. */
function tileAt(z: number): [number, number] {
  const span = (2 * WEB_MERCATOR_HALF_WORLD_M) / 2 ** z;
  return [Math.floor((GRAND_PLACE[0] + WEB_MERCATOR_HALF_WORLD_M) / span), Math.floor((WEB_MERCATOR_HALF_WORLD_M - GRAND_PLACE[1]) / span)];
}

/** Features GDAL finds in the tile file within the city's bounding box. */
async function gdalCount(file: string, z: number, x: number, y: number): Promise<number> {
  const { stdout } = await run('ogrinfo', ['-ro', '-al', '-so', '-spat', String(bx0), String(by0), String(bx1), String(by1),
    '-oo', `Z=${z}`, '-oo', `X=${x}`, '-oo', `Y=${y}`, file]);
  const counts = [...stdout.matchAll(/Feature Count: (\d+)/g)].map((m) => Number(m[1]));
  expect(stdout).toContain('EPSG",3857');
  return counts.reduce((a, b) => a + b, 0);
}

describe('the map over HTTP', () => {
  it('serves a catalog whose TileJSON and tiles every client can read, GDAL included', async () => {
    const res = await e2e.get('/v1/map/brussels', key);
    expect(res.status, res.text).toBe(200);
    expect(['miss', 'hit']).toContain(res.headers.get('x-cache'));
    const catalog = res.json;
    expect(catalog.meta).toMatchObject({ crs: 'EPSG:3857', tile_format: 'mvt', catalog_ttl_s: 60, resolution_m: 20 });
    const sets = [
      { url: catalog.static.buildings.tilejson, layer: 'buildings', fields: ['Height'] },
      { url: catalog.live.layers.thermal.tilejson, layer: 'UTCI', fields: ['UTCI'] },
      { url: catalog.live.layers.wind.tilejson, layer: 'wind', fields: ['Ucomfort', 'Ugust'] },
      { url: catalog.forecast[0].layers.air.tilejson, layer: 'air', fields: ['C', 'C_PM25', 'C_PM10'] },
    ];
    for (const set of sets) {
      const doc = await e2e.get(set.url);
      expect(doc.status, doc.text).toBe(200);
      expect(doc.json.tiles[0].startsWith(e2e.base)).toBe(true);
      const { minzoom, maxzoom } = doc.json;
      expect([minzoom, maxzoom]).toEqual([12, 15]);
      for (const z of [minzoom, Math.round((minzoom + maxzoom) / 2), maxzoom]) {
        const [x, y] = tileAt(z);
        const tile = await fetch(doc.json.tiles[0].replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)));
        const bytes = new Uint8Array(await tile.arrayBuffer());
        expect(tile.status, `${set.layer} ${z}/${x}/${y}`).toBe(200);
        expect(tile.headers.get('cache-control')).toBe('public, max-age=86400');
        expect(tile.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
        expect(bytes.byteLength).toBeLessThanOrEqual(500 * 1024);
        const { features, names } = decodeLayer(bytes, set.layer);
        expect(names).toEqual([set.layer]);
        expect(features.length).toBeGreaterThan(0);
        for (const f of features) for (const name of Object.keys(f.properties)) expect(set.fields).toContain(name);
        const file = join(dir, `${set.layer}-${z}.mvt`);
        await writeFile(file, bytes);
        expect(await gdalCount(file, z, x, y), `${set.layer} ${z}`).toBeGreaterThan(0);
      }
    }
  });

  it('lets a page on another origin read tiles (CORS), and refuses forged URLs over the wire', async () => {
    const catalog = (await e2e.get('/v1/map/brussels', key)).json;
    const doc = (await e2e.get(catalog.live.layers.thermal.tilejson)).json;
    const [x, y] = tileAt(14);
    const url = doc.tiles[0].replace('{z}', '14').replace('{x}', String(x)).replace('{y}', String(y));
    const tile = await fetch(url, { headers: { origin: 'https://maps.example.org' } });
    expect(tile.status).toBe(200);
    expect(tile.headers.get('access-control-allow-origin')).toBe('*');
    const forged = await readResponse(await fetch(url.replace(/sig=(\d+)\.(.)/, (_m: string, id: string, c: string) => `sig=${id}.${c === 'A' ? 'B' : 'A'}`)));
    expectProblem(forged, 401, 'url_expired');
    const unsigned = await e2e.get(new URL(url).pathname);
    expectProblem(unsigned, 401, 'url_expired');
  });
});

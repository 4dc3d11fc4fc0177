/**
 * The annual map layers of the city atlas over real HTTP (the service as `svc serve` builds it, over a copy of the
 * fixture after `svc precompute`): listed in the catalog's `static` beside buildings (and nowhere in `/cities`),
 * signed, gated by metric scope, TileJSON with the figures and their published legends, tiles whose features at every
 * outdoor cell equal the precomputed grids (at the highest zoom) and the block means or modes below it; a city
 * without a precompute or with a stale one offers none (catalog, TileJSON and tiles 404, the reason logged once).
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { precomputedDir } from '../../src/compute/datasets/dataset-cache.js';
import { ATLAS_FIGURES, figureDecimals, figureProperty } from '../../src/stats/atlas-figures.js';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles, TileType } from 'pmtiles';
import { exportAtlas } from '../../src/atlas/atlas-export.js';
import { getCity } from '../../src/cities/catalog.js';
import { AnnualGrids } from '../../src/map/annual-grids.js';
import { gridFootprint } from '../../src/map/grid-projection.js';
import { roundAway } from '../../src/map/tile-frame.js';
import { loadTileSecret } from '../../src/map/tile-secret.js';
import { signedQuery, urlExpiry } from '../../src/map/url-signing.js';
import { tilesCovering } from '../../src/map/web-mercator-tiles.js';
import { openGridGroup } from '../../src/store/grid-group-reader.js';
import { openDataset } from '../../src/store/zarr-reader.js';
import type { GridGeometry } from '../../src/store/dataset-types.js';
import { FIXTURE_SEED } from '../helpers/fixture-paths.js';
import { fixtureDataDir, precomputedFixture } from '../helpers/fixtures.js';
import { expectProblem, startE2eServer, type E2eServer } from '../e2e/support/e2e-server.js';
import { tempDir } from '../store/helpers.js';
import { cellCentre, decodeLayer, featuresAt, lambertToTile } from './support/tile-check.js';

const DATASET = 'brussels_extended';
let root: { dir: string; cleanup: () => Promise<void> };
let dataDir: string;
let plainDir: string;
let svc: E2eServer;
let grid: GridGeometry;
let grids: Map<string, Float32Array>;

/** A copy of the fixture's dataset under `dir`. */
async function fixtureCopy(dir: string): Promise<string> {
  await cp(join(await fixtureDataDir(), DATASET), join(dir, DATASET), { recursive: true });
  return dir;
}

beforeAll(async () => {
  root = await tempDir('annual-layers');
  dataDir = await precomputedFixture(join(root.dir, 'data'));
  plainDir = await fixtureCopy(join(root.dir, 'plain'));
  grid = (await openDataset(join(dataDir, DATASET))).grid;
  const group = (await openGridGroup(precomputedDir(dataDir, DATASET), grid.ny, grid.nx))!;
  grids = new Map(await Promise.all(ATLAS_FIGURES.map(async (f) => [f.grid, await group.read(f.grid)] as const)));
  svc = await startE2eServer({ dataDir });
}, 120_000);
afterAll(async () => {
  await svc?.close();
  await root?.cleanup();
});

const ANNUAL = ['annual_air', 'annual_wind', 'annual_thermal'] as const;
const path = (url: string) => url.replace(/^https?:\/\/[^/]+/, '');
const tileUrl = (template: string, z: number, x: number, y: number) =>
  path(template.replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)));

async function catalogOf(server: E2eServer, key: string) {
  const res = await server.get('/v1/map/brussels', key);
  expect(res.status, res.text).toBe(200);
  await server.server.map.settled(); // the slices the catalog asks for in the background, before any server closes
  return res.json;
}

/** The raw bytes of a tile (204: empty). */
async function tileBytes(server: E2eServer, url: string): Promise<Uint8Array> {
  const res = await fetch(`${server.base}${url}`, { headers: { 'accept-encoding': 'identity' } });
  expect([200, 204], url).toContain(res.status);
  return new Uint8Array(await res.arrayBuffer());
}

describe('annual layers where a current precompute exists', () => {
  it('are listed in static beside buildings, signed, and /cities is unchanged', async () => {
    const catalog = await catalogOf(svc, svc.issue());
    expect(Object.keys(catalog.static)).toEqual(['buildings', ...ANNUAL]);
    for (const id of ANNUAL) expect(catalog.static[id].tilejson).toMatch(new RegExp(`^/v1/map/brussels/tiles/${id}\\.json\\?exp=\\d+&sig=`));
    const cityDoc = (await svc.get('/v1/cities/brussels')).json;
    expect(cityDoc.map.layers).toEqual(['thermal', 'wind', 'air', 'buildings']);
  });

  it('follow the key\'s metric scope: a key without air gets no annual_air and its signed URL is 403', async () => {
    const key = svc.issue({ metrics: ['wind', 'thermal'] });
    const catalog = await catalogOf(svc, key);
    expect(Object.keys(catalog.static)).toEqual(['buildings', 'annual_wind', 'annual_thermal']);
    const keyId = Number(new URL(`http://x${catalog.static.buildings.tilejson}`).searchParams.get('sig')!.split('.')[0]);
    const secret = await loadTileSecret(undefined, dataDir);
    const forged = `/v1/map/brussels/tiles/annual_air.json?${signedQuery(secret, { keyId, city: 'brussels', layer: 'annual_air', exp: urlExpiry(Date.now()) })}`;
    expectProblem(await svc.get(forged), 403, 'forbidden');
  });

  it('describe every figure in TileJSON: field, unit, decimals, meaning and the legend that colours it', async () => {
    const catalog = await catalogOf(svc, svc.issue());
    const doc = (await svc.get(catalog.static.annual_air.tilejson)).json;
    expect(doc.vector_layers[0]).toMatchObject({ id: 'annual_air', fields: expect.objectContaining({ rating: expect.stringMatching(/^Air rating \(out of 10\): /) }) });
    expect(doc.tiles[0]).toMatch(/\/v1\/map\/brussels\/tiles\/annual_air\/\{z\}\/\{x\}\/\{y\}\.mvt\?exp=/);
    const airFigures = ATLAS_FIGURES.filter((f) => f.block === 'air');
    expect(Object.keys(doc.figures)).toEqual(airFigures.map(figureProperty));
    expect(doc.figures.annual_mean_ugm3_no2).toMatchObject({
      field: 'air.annual_mean_ugm3.no2', unit: 'µg/m³', decimals: 1,
      legend: { based_on: 'air-no2', fields: ['annual_mean_ugm3_no2'], kind: 'classes' },
    });
    const scale = (await svc.get('/v1/scales/air-no2')).json;
    expect(doc.figures.annual_mean_ugm3_no2.legend.classes).toEqual(scale.classes);
    expect(doc.figures.rating.legend).toMatchObject({ kind: 'gradient', fields: ['rating'], classes: expect.arrayContaining([expect.objectContaining({ label: 'Excellent' })]) });
    expect(doc.figures.limiting_pollutant.legend.classes.map((c: { label: string }) => c.label)).toEqual(['NO2', 'PM2.5', 'PM10']);
    expect(doc.figures.limiting_pollutant).toMatchObject({ unit: 'code', decimals: 0 });
    // What made the data: the fixture is the stand-in's, and the attribution says so first.
    expect(doc.provenance).toMatchObject({ stand_in: true, model_kind: 'stand-in', seed: FIXTURE_SEED });
    expect(doc.attribution).toMatch(/^Synthetic data, not a simulation or measurements of the city: svc-api stand-in city model \(version \d+, seed 7\)\. Street-level model/);
    const thermal = (await svc.get(catalog.static.annual_thermal.tilejson)).json;
    expect(thermal.figures.min_utci_c.legend.based_on).toBe('thermal-utci');
    const wind = (await svc.get(catalog.static.annual_wind.tilejson)).json;
    expect(wind.figures.max_gust_ms).toMatchObject({ decimals: 2, legend: { based_on: 'wind-gust-rainbow' } });
    expect(wind.figures.exceedance_pct_danger.legend.kind).toBe('gradient');
  });

  it('draw every outdoor cell at the highest zoom with every figure equal to the precomputed grid', async () => {
    const catalog = await catalogOf(svc, svc.issue());
    const { zooms, box } = gridFootprint(grid);
    const z = zooms.maxzoom;
    const range = tilesCovering(box, z);
    let checked = 0;
    for (const id of ANNUAL) {
      const block = id.slice('annual_'.length);
      const figures = ATLAS_FIGURES.filter((f) => f.block === block);
      const doc = (await svc.get(catalog.static[id].tilejson)).json;
      const tiles = new Map<string, ReturnType<typeof decodeLayer>['features']>();
      for (let x = range.x0; x <= range.x1; x++) {
        for (let y = range.y0; y <= range.y1; y++) {
          const bytes = await tileBytes(svc, tileUrl(doc.tiles[0], z, x, y));
          tiles.set(`${x}/${y}`, bytes.byteLength === 0 ? [] : decodeLayer(bytes, id).features);
        }
      }
      for (let row = 0; row < grid.ny; row++) {
        for (let col = 0; col < grid.nx; col++) {
          const at = row * grid.nx + col;
          const values = figures.map((f) => grids.get(f.grid)![at]);
          if (values.every(Number.isNaN)) continue;
          const [lx, ly] = cellCentre(grid, row, col);
          const hits = [...tiles].flatMap(([xy, features]) => {
            const [x, y] = xy.split('/').map(Number);
            const [tx, ty] = lambertToTile(z, x, y, lx, ly);
            return tx >= 0 && ty >= 0 && tx < 4096 && ty < 4096 ? featuresAt(features, tx, ty) : [];
          });
          expect(hits.length, `cell ${row},${col}`).toBeGreaterThan(0);
          figures.forEach((f, k) => {
            const v = values[k];
            const expected = Number.isNaN(v) ? undefined : roundAway(v, 10 ** figureDecimals(f));
            expect(hits[0].properties[figureProperty(f)], `${f.field} at ${row},${col}`).toBe(expected);
          });
          checked++;
        }
      }
    }
    expect(checked).toBeGreaterThan(grid.nx * grid.ny);
  }, 60_000);

  it('publish coarser blocks below the highest zoom: means, and the most frequent limiting pollutant', async () => {
    const catalog = await catalogOf(svc, svc.issue());
    const doc = (await svc.get(catalog.static.annual_air.tilejson)).json;
    const { zooms, box } = gridFootprint(grid);
    const range = tilesCovering(box, zooms.minzoom);
    const codes = new Set<unknown>();
    for (let x = range.x0; x <= range.x1; x++) {
      for (let y = range.y0; y <= range.y1; y++) {
        const bytes = await tileBytes(svc, tileUrl(doc.tiles[0], zooms.minzoom, x, y));
        if (bytes.byteLength === 0) continue;
        for (const feature of decodeLayer(bytes, 'annual_air').features) {
          codes.add(feature.properties.limiting_pollutant);
          expect(feature.properties.rating).toBeGreaterThanOrEqual(0);
          expect(feature.properties.rating).toBeLessThanOrEqual(10);
        }
      }
    }
    expect([...codes].every((c) => c === 1 || c === 2 || c === 3)).toBe(true);
  });
});

describe('the atlas export\'s PMTiles archive', () => {
  it('opens with the pmtiles reader, and every tile holds the three layers exactly as the service serves them', async () => {
    const out = join(root.dir, 'atlas');
    await exportAtlas(dataDir, getCity('brussels')!, out);
    const bytes = await readFile(join(out, 'brussels-annual.pmtiles'));
    const archive = new PMTiles({
      getKey: () => 'brussels-annual.pmtiles',
      getBytes: async (offset: number, length: number) => ({ data: bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length) }),
    });
    const header = await archive.getHeader();
    const { zooms, box } = gridFootprint(grid);
    expect(header).toMatchObject({ specVersion: 3, tileType: TileType.Mvt, minZoom: zooms.minzoom, maxZoom: zooms.maxzoom, clustered: true });
    const metadata = (await archive.getMetadata()) as any;
    expect(metadata.vector_layers.map((l: { id: string }) => l.id)).toEqual([...ANNUAL]);
    const catalog = await catalogOf(svc, svc.issue());
    const templates = Object.fromEntries(await Promise.all(ANNUAL.map(async (id) => [id, (await svc.get(catalog.static[id].tilejson)).json.tiles[0]] as const)));
    expect(metadata.figures.annual_air).toEqual((await svc.get(catalog.static.annual_air.tilejson)).json.figures);
    let tiles = 0;
    for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
      const range = tilesCovering(box, z);
      for (let x = range.x0; x <= range.x1; x++) {
        for (let y = range.y0; y <= range.y1; y++) {
          const stored = await archive.getZxy(z, x, y);
          for (const id of ANNUAL) {
            const served = await tileBytes(svc, tileUrl(templates[id], z, x, y));
            const features = (tile: Uint8Array | undefined) => {
              if (tile === undefined || tile.byteLength === 0) return [];
              const tree = new VectorTile(new PbfReader(tile));
              const layer = tree.layers[id];
              return layer === undefined ? [] : Array.from({ length: layer.length }, (_, i) => {
                const f = layer.feature(i);
                return { properties: f.properties, geometry: f.loadGeometry() };
              });
            };
            expect(features(stored && new Uint8Array(stored.data)), `${id} ${z}/${x}/${y}`).toEqual(features(served));
          }
          if (stored !== undefined) tiles++;
        }
      }
    }
    expect(tiles).toBeGreaterThan(0);
    expect(tiles).toBe(header.numAddressedTiles);
  }, 60_000);
});

describe('annual layers without a current precompute', () => {
  it('a city without a precompute lists none, and their TileJSON and tiles are 404', async () => {
    const plain = await startE2eServer({ dataDir: plainDir });
    try {
      const key = plain.issue();
      const catalog = await catalogOf(plain, key);
      expect(Object.keys(catalog.static)).toEqual(['buildings']);
      const keyId = Number(new URL(`http://x${catalog.static.buildings.tilejson}`).searchParams.get('sig')!.split('.')[0]);
      const query = signedQuery(await loadTileSecret(undefined, plainDir), { keyId, city: 'brussels', layer: 'annual_air', exp: urlExpiry(Date.now()) });
      const doc = expectProblem(await plain.get(`/v1/map/brussels/tiles/annual_air.json?${query}`), 404, 'not_found');
      expect(doc.detail).toMatch(/no current precompute/);
      expectProblem(await plain.get(`/v1/map/brussels/tiles/annual_air/15/16764/11009.mvt?${query}`), 404, 'not_found');
      // A layer that does not exist at all is 404 before any signature is checked.
      expectProblem(await plain.get('/v1/map/brussels/tiles/annual_noise.json?exp=1&sig=x'), 404, 'not_found');
    } finally {
      await plain.close();
    }
  });

  it('a precompute of another content version is not served, and the log says why once', async () => {
    const stale = join(root.dir, 'stale');
    await fixtureCopy(stale);
    await cp(precomputedDir(dataDir, DATASET), precomputedDir(stale, DATASET), { recursive: true });
    for (const file of ['.zattrs', '.zmetadata']) {
      const p = join(precomputedDir(stale, DATASET), file);
      await writeFile(p, (await readFile(p, 'utf8')).replace(/"content_version": ?"[^"]+"/g, '"content_version": "m4-000000000000"'));
    }
    const info = (await openDataset(join(stale, DATASET))).attrs;
    const warnings: string[] = [];
    const annual = new AnnualGrids({ dataDir: stale, now: () => 0, ttlMs: 0, warn: (m) => warnings.push(m) });
    const state = { info: { dataset: DATASET, content_version: info.content_version, grid } } as never;
    for (let i = 0; i < 2; i++) expect(await annual.status(state, 'brussels')).toMatchObject({ served: false, reason: /content version m4-000000000000/ });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/Annual map layers left out: .*svc precompute --data .* --city brussels/);
    const server = await startE2eServer({ dataDir: stale });
    try {
      expect(Object.keys((await catalogOf(server, server.issue())).static)).toEqual(['buildings']);
    } finally {
      await server.close();
    }
  });
});

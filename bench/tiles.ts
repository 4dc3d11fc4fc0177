/**
 * `npm run bench -- tiles`: the map product of the real service (a child process built as `svc serve` builds it, tiles
 * drawn in its compute pool), driven over HTTP on 127.0.0.1:
 *
 * - catalog: the first request of a fresh server (cold: the model service reads the UTCI chunks, every timestep's slice
 *   is fetched and its range computed) and repeated requests within the cache lifetime (cached);
 * - tiles of every layer at the lowest, middle and highest zoom: cold (never drawn before; the slices of its hour
 *   already fetched by an earlier tile, whose latency is reported apart as "first tile of an hour") and cached (drawn
 *   before, from the encoded-tile cache), p50 and p99 over up to SAMPLES distinct tiles (every tile over the grid at
 *   that zoom, over as many timesteps as needed), and the largest tile;
 * - tiles per second of one cached tile under autocannon (50 connections), against the bare Fastify yardstick in the
 *   same run: interleaved rounds, ratio = median of the per-round ratios (as `npm run bench -- http`), and requests
 *   per CPU-second of each server process, which other load on a shared machine changes far less. Cold requests
 *   ask for the raw tile (its size is what is reported), cached ones and the load accept gzip, as browsers do.
 *
 * Data: `BENCH_TILES_DATA` (a data directory), else the demo datasets in data/demo when present (10 m), else the test
 * fixture (20 m, generated into data/bench-http if missing). Targets: cold p50 ≤ 20 ms and p99 ≤ 100 ms at every zoom,
 * every tile ≤ 500 KB, cached tiles/s ≥ 0.5 × the yardstick.
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { wgs84ToWebMercator } from '../src/geo/crs.js';
import { tilesCovering } from '../src/map/web-mercator-tiles.js';
import { generatePreset } from '../src/model/generate.js';
import { presetPlans } from '../src/model/presets.js';
import { MANIFEST_FILE } from '../src/store/chunk-manifest.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { load, startChild, type ServerChild } from './http-load.js';
import type { BenchResult } from './registry.js';

const SAMPLES = 40;
const CATALOG_REPEATS = 200;
const CONNECTIONS = 50;
const ROUNDS = 5;
const SLICE_SECONDS = 3;
const TARGETS = { coldP50Ms: 20, coldP99Ms: 100, maxTileBytes: 500 * 1024, cachedRatio: 0.5 };

/** The data directory the benchmark runs on (see the top of this file). */
async function tilesData(): Promise<string> {
  const has = (dir: string, preset: 'demo' | 'fixture') =>
    Promise.all(presetPlans(preset).map((p) => access(join(dir, p.id, MANIFEST_FILE)))).then(() => true, () => false);
  if (process.env.BENCH_TILES_DATA) return resolve(process.env.BENCH_TILES_DATA);
  const demo = join(PROJECT_ROOT, 'data', 'demo');
  if (await has(demo, 'demo')) return demo;
  const fixtures = join(PROJECT_ROOT, '.fixtures', 'data');
  if (await has(fixtures, 'fixture')) return fixtures;
  const own = join(PROJECT_ROOT, 'data', 'bench-http');
  if (!(await has(own, 'fixture'))) await generatePreset({ preset: 'fixture', outDir: own, seed: 1, progress: false });
  return own;
}

/** GET `url`, timed; throws on an unexpected status. */
async function timed(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; status: number; bytes: number; wireBytes: number; json?: any; xCache: string | null }> {
  const t0 = performance.now();
  // Cold requests ask for the raw tile (its size is the tile's), cached ones for gzip as browsers do.
  const res = await fetch(url, { headers: { 'accept-encoding': 'identity', ...headers } });
  const body = new Uint8Array(await res.arrayBuffer());
  const ms = performance.now() - t0;
  if (res.status !== 200 && res.status !== 204) throw new Error(`GET ${url}: ${res.status} ${new TextDecoder().decode(body).slice(0, 200)}`);
  const json = res.headers.get('content-type')?.startsWith('application/json') ? JSON.parse(new TextDecoder().decode(body)) : undefined;
  const wireBytes = Number(res.headers.get('content-length') ?? body.byteLength);
  return { ms, status: res.status, bytes: body.byteLength, wireBytes, json, xCache: res.headers.get('x-cache') };
}

const pct = (values: readonly number[], p: number) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))];
};
const round = (v: number, digits = 1) => Number(v.toFixed(digits));
const median = (values: readonly number[]) => pct(values, 0.5);

/** One tileset (a layer at a timestep) and its TileJSON. */
interface Tileset {
  readonly layer: string;
  readonly tilejson: any;
}

/** The tile URLs of `set` at zoom `z` over the grid's bounds. */
function tileUrls(set: Tileset, z: number): string[] {
  const [w, s, e, n] = set.tilejson.bounds as number[];
  const [x0, y0] = wgs84ToWebMercator(w, s);
  const [x1, y1] = wgs84ToWebMercator(e, n);
  const range = tilesCovering({ minX: x0, minY: y0, maxX: x1, maxY: y1 }, z);
  const urls: string[] = [];
  for (let x = range.x0; x <= range.x1; x++) {
    for (let y = range.y0; y <= range.y1; y++) urls.push(set.tilejson.tiles[0].replace('{z}', String(z)).replace('{x}', String(x)).replace('{y}', String(y)));
  }
  return urls;
}

/** Runs the tiles benchmark. */
export async function run(): Promise<BenchResult> {
  const dataDir = await tilesData();
  const tmp = await mkdtemp(join(tmpdir(), 'svc-bench-tiles-'));
  const children: ServerChild[] = [];
  try {
    const service = await startChild(['service', dataDir, join(tmp, 'svc.sqlite')]);
    children.push(service);
    const auth = { authorization: `Bearer ${await service.newKey()}` };
    const cold = await timed(`${service.url}/v1/map/brussels`, auth);
    if (cold.xCache !== 'miss') throw new Error(`The first catalog answered X-Cache ${cold.xCache}, not miss.`);
    const catalog = cold.json;
    const cachedCatalog: number[] = [];
    for (let i = 0; i < CATALOG_REPEATS; i++) {
      const res = await timed(`${service.url}/v1/map/brussels`, auth);
      if (res.xCache !== 'hit') throw new Error('A repeated catalog was not served from the cache.');
      cachedCatalog.push(res.ms);
    }

    const steps = [catalog.live, ...catalog.forecast];
    const tileset = async (layer: string, url: string): Promise<Tileset> => ({ layer, tilejson: (await timed(`${service.url}${url}`)).json });
    const layers: Record<string, Tileset[]> = {
      buildings: [await tileset('buildings', catalog.static.buildings.tilejson)],
      thermal: await Promise.all(steps.map((s) => tileset('thermal', s.layers.thermal.tilejson))),
      wind: await Promise.all(steps.map((s) => tileset('wind', s.layers.wind.tilejson))),
      air: await Promise.all(steps.map((s) => tileset('air', s.layers.air.tilejson))),
    };
    const { minzoom, maxzoom } = layers.thermal[0].tilejson;
    const zooms = [minzoom, Math.round((minzoom + maxzoom) / 2), maxzoom];
    // The first tile of an hour is drawn at a zoom the samples do not use, so no sample is that tile.
    const warmZoom = Array.from({ length: maxzoom - minzoom + 1 }, (_, i) => minzoom + i).find((z) => !zooms.includes(z)) ?? minzoom;

    // First the first tile of every hour of every layer (it waits for the slices of its hour), at a zoom the samples
    // do not use; the cold samples then measure drawing alone, with the model service idle.
    const firstOfHour: number[] = [];
    const warm = new Map<Tileset, string>();
    for (const sets of Object.values(layers)) {
      for (const set of sets) {
        const url = tileUrls(set, warmZoom)[0];
        warm.set(set, url);
        firstOfHour.push((await timed(url)).ms);
      }
    }
    const rows: Record<string, string | number>[] = [];
    let largest = 0;
    let largestGzip = 0;
    let coldWorst = { p50: 0, p99: 0 };
    let busiest = '';
    for (const [layer, sets] of Object.entries(layers)) {
      for (const z of zooms) {
        const picked: string[] = [];
        for (const set of sets) {
          if (picked.length >= SAMPLES) break;
          picked.push(...tileUrls(set, z).filter((url) => url !== warm.get(set)).slice(0, SAMPLES - picked.length));
        }
        type Run = Awaited<ReturnType<typeof timed>>;
        const coldRuns: Run[] = [];
        for (const url of picked) coldRuns.push(await timed(url));
        const cachedRuns: Run[] = [];
        for (const url of picked) cachedRuns.push(await timed(url, { 'accept-encoding': 'gzip' }));
        const bytes = coldRuns.map((r) => r.bytes);
        largest = Math.max(largest, ...bytes);
        largestGzip = Math.max(largestGzip, ...cachedRuns.map((r) => r.wireBytes));
        const c50 = pct(coldRuns.map((r) => r.ms), 0.5);
        const c99 = pct(coldRuns.map((r) => r.ms), 0.99);
        coldWorst = { p50: Math.max(coldWorst.p50, c50), p99: Math.max(coldWorst.p99, c99) };
        if (layer === 'thermal' && z === zooms[1]) busiest = picked.find((_, i) => coldRuns[i].status === 200) ?? picked[0];
        rows.push({
          layer, zoom: z, tiles: picked.length, empty: coldRuns.filter((r) => r.status === 204).length,
          'cold p50 ms': round(c50), 'cold p99 ms': round(c99),
          'cached p50 ms': round(pct(cachedRuns.map((r) => r.ms), 0.5)), 'cached p99 ms': round(pct(cachedRuns.map((r) => r.ms), 0.99)),
          'median KB': round(median(bytes) / 1024), 'max KB': round(Math.max(...bytes) / 1024),
          'max gzip KB': round(Math.max(...cachedRuns.map((r) => r.wireBytes)) / 1024),
        });
      }
    }

    // Throughput of one cached tile against the yardstick.
    const hello = await startChild(['hello']);
    children.push(hello);
    const gzip = { 'accept-encoding': 'gzip' };
    const targets = {
      hello: { spec: { url: `${hello.url}/hello`, status: 200, headers: {} }, server: hello },
      tile: { spec: { url: busiest, status: 200, headers: gzip }, server: service },
    };
    for (const t of Object.values(targets)) await load({ ...t.spec, connections: CONNECTIONS, seconds: 2 });
    const rps: Record<'hello' | 'tile', number[]> = { hello: [], tile: [] };
    const p99: Record<'hello' | 'tile', number[]> = { hello: [], tile: [] };
    const perCpu: Record<'hello' | 'tile', { requests: number; cpuS: number }> = { hello: { requests: 0, cpuS: 0 }, tile: { requests: 0, cpuS: 0 } };
    for (let r = 0; r < ROUNDS; r++) {
      for (const [name, t] of Object.entries(targets) as ['hello' | 'tile', typeof targets.hello][]) {
        const cpu0 = await t.server.cpuSeconds();
        const result = await load({ ...t.spec, connections: CONNECTIONS, seconds: SLICE_SECONDS });
        perCpu[name].cpuS += (await t.server.cpuSeconds()) - cpu0;
        perCpu[name].requests += result.requests;
        rps[name].push(result.rps);
        p99[name].push(result.p99Ms);
      }
    }
    const ratio = median(rps.tile.map((v, i) => v / rps.hello[i]));
    const cpuRatio = (perCpu.tile.requests / perCpu.tile.cpuS) / (perCpu.hello.requests / perCpu.hello.cpuS);
    const figures = {
      data: dataDir,
      zooms,
      catalog_cold_ms: round(cold.ms),
      catalog_cached_p50_ms: round(pct(cachedCatalog, 0.5), 2),
      catalog_cached_p99_ms: round(pct(cachedCatalog, 0.99), 2),
      first_tile_of_hour_p50_ms: round(pct(firstOfHour, 0.5)),
      first_tile_of_hour_p99_ms: round(pct(firstOfHour, 0.99)),
      cold_worst_p50_ms: round(coldWorst.p50),
      cold_worst_p99_ms: round(coldWorst.p99),
      largest_tile_bytes: largest,
      largest_tile_gzip_bytes: largestGzip,
      throughput_tile: busiest.replace(/\?.*$/, ''),
      hello_rps: Math.round(median(rps.hello)),
      cached_tile_rps: Math.round(median(rps.tile)),
      cached_tile_p99_ms: Math.max(...p99.tile),
      ratio_cached_tile_to_hello: round(ratio, 2),
      ratio_by_round: rps.tile.map((v, i) => round(v / rps.hello[i], 2)),
      ratio_cached_tile_to_hello_per_cpu: round(cpuRatio, 2),
      targets: TARGETS,
      target_cold_met: coldWorst.p50 <= TARGETS.coldP50Ms && coldWorst.p99 <= TARGETS.coldP99Ms,
      target_size_met: largest <= TARGETS.maxTileBytes,
      target_ratio_met: ratio >= TARGETS.cachedRatio,
    };
    return {
      name: 'tiles',
      title: `Map tiles over HTTP on 127.0.0.1 (service in a child process, tiles drawn in its compute pool; data ${dataDir})`,
      columns: ['layer', 'zoom', 'tiles', 'empty', 'cold p50 ms', 'cold p99 ms', 'cached p50 ms', 'cached p99 ms', 'median KB', 'max KB', 'max gzip KB'],
      rows,
      notes: [
        `catalog: cold ${figures.catalog_cold_ms} ms (first request of a fresh server), cached p50 ${figures.catalog_cached_p50_ms} ms, p99 ${figures.catalog_cached_p99_ms} ms (${CATALOG_REPEATS} requests).`,
        `first tile of an hour (waits for the slices of its hour): p50 ${figures.first_tile_of_hour_p50_ms} ms, p99 ${figures.first_tile_of_hour_p99_ms} ms over ${firstOfHour.length} hours and layers.`,
        `cold tiles, worst zoom and layer: p50 ${figures.cold_worst_p50_ms} ms (target <= ${TARGETS.coldP50Ms}), p99 ${figures.cold_worst_p99_ms} ms (target <= ${TARGETS.coldP99Ms}): ${figures.target_cold_met ? 'met' : 'missed'}.`,
        `largest tile ${round(largest / 1024)} KB (target <= 500 KB): ${figures.target_size_met ? 'met' : 'missed'}.`,
        `cached tile under load (${figures.throughput_tile}, gzip accepted as browsers do): ${figures.cached_tile_rps} tiles/s against ${figures.hello_rps} req/s of the yardstick, ratio ${figures.ratio_cached_tile_to_hello} ` +
          `(per round ${figures.ratio_by_round.join(', ')}; target >= ${TARGETS.cachedRatio}): ${figures.target_ratio_met ? 'met' : 'missed'}; ` +
          `${figures.ratio_cached_tile_to_hello_per_cpu} per server CPU-second.`,
        'Latencies are sequential requests (one at a time); p99 over at most 40 tiles is close to their maximum.',
      ],
      figures,
    };
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(tmp, { recursive: true, force: true });
  }
}

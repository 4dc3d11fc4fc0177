/**
 * The import directions of the house, as a table of allowed arrows between rooms (folders under src/, plus the
 * `workers/` entries). Requests come down: the entry points (CLI, thread entries) and the composition root (`nodes`)
 * over the HTTP layer (`api`, with the documentation site `reference` reading its contract), over the products
 * (`services` for statistics and live records, `map`, `reports`, `atlas`), over the back ends (`cluster` for NATS,
 * `compute` for the kernels, `model-service`, `upstream`), over the data (`store`, `sampling`, `stats`) and the
 * foundations (`geo`, `wasm`, `util`, `errors`). Products meet only through the seams listed here. Any import not in the table, type-only
 * or dynamic included, fails with its file and line; a new folder must be given its place.
 */
import { readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/util/paths.js';
import { cyclicRooms, importsIn, roomImports, roomOf, typeScriptFiles, type RoomImport } from './import-graph.js';

/** Every room and the rooms it may import from. */
export const ALLOWED: Readonly<Record<string, readonly string[]>> = {
  // Foundations: import nothing of the project, or only each other.
  errors: [],
  util: [],
  classification: [],
  geo: ['errors'],
  db: ['errors'],
  // Loading the WebAssembly kernels and laying out their linear memory, shared by the store's decode kernel and the
  // compute kernels.
  wasm: ['util'],
  // Data: the dataset store and what is read from it.
  store: ['errors', 'geo', 'util', 'wasm'],
  stats: ['classification', 'errors', 'store'],
  sampling: ['errors', 'stats', 'store'],
  cities: ['geo'],
  scales: ['classification'],
  // Seams to the services the API calls (the model service's contract and client, the HTTP upstream stack).
  upstream: ['errors', 'store'],
  geocode: ['errors', 'util'],
  // The official address register: its import and its index (a SQLite file through db/'s typed handle), searched
  // with the geocoder's address check.
  addresses: ['db', 'errors', 'geocode', 'util'],
  // Back ends: the kernels and their thread pool, the stand-in city model (it aggregates what it writes with the
  // kernels), the stand-in model service, and the NATS cluster (the link, names, buckets, KV operations and the task
  // queue). The cluster imports no product: each product's KV implementation of its own seam sits beside the seam
  // (keys/kv-rate-limiter.ts, services/kv-stats-cache.ts, reports/jobs/kv-*.ts) and uses the cluster from above.
  compute: ['cities', 'classification', 'errors', 'geo', 'sampling', 'stats', 'store', 'util', 'wasm'],
  model: ['cities', 'compute', 'errors', 'geo', 'store', 'util'],
  'model-service': ['cities', 'errors', 'geo', 'model', 'sampling', 'store', 'upstream', 'util'],
  cluster: ['compute', 'errors', 'store', 'util'],
  // API keys: entitlement, origins and the rate limiter (in memory, or shared through the cluster's KV).
  keys: ['cities', 'cluster', 'db', 'errors', 'util'],
  // Products below HTTP.
  // The precompute writes the map's overviews beside its grids (map/annual-overviews.ts).
  services: ['cities', 'cluster', 'compute', 'db', 'errors', 'geo', 'geocode', 'keys', 'map', 'stats', 'store', 'upstream', 'util'],
  map: ['cities', 'compute', 'errors', 'geo', 'keys', 'scales', 'stats', 'store', 'upstream', 'util'],
  // Statistics for areas: geometry (geo), the kernels over a cell mask and the atlas grids (compute), the historical
  // answer's metric rules (services); its asynchronous jobs ride on the batch jobs' service and files (batch) and the
  // job machinery (reports).
  area: ['batch', 'cities', 'classification', 'compute', 'errors', 'geo', 'keys', 'reports', 'sampling', 'services', 'stats', 'store', 'util'],
  // The city atlas reads what the precompute service wrote (its figures, the precomputed grid group) and draws the
  // annual map layers' tiles as the map does.
  atlas: ['cities', 'compute', 'errors', 'map', 'services', 'stats', 'store', 'util'],
  // Batches of locations, answered location by location by the statistics service.
  batch: ['cities', 'errors', 'keys', 'reports', 'services', 'util'],
  reports: ['cities', 'classification', 'cluster', 'compute', 'db', 'errors', 'geo', 'geocode', 'keys', 'scales', 'services', 'stats', 'util'],
  // HTTP, and the documentation site that renders its contract.
  api: ['area', 'batch', 'cities', 'errors', 'geocode', 'keys', 'map', 'reports', 'scales', 'services', 'store', 'util'],
  reference: ['api'],
  // Settings: the table of SVC_* variables, read by the entry points and handed down as plain options.
  config: ['errors', 'keys'],
  // The composition root: builds API and worker nodes from one record of back ends.
  nodes: ['addresses', 'api', 'area', 'batch', 'cluster', 'compute', 'config', 'db', 'errors', 'geocode', 'keys', 'map', 'model-service', 'reference', 'reports', 'services', 'store', 'util'],
  // Entry points.
  cli: ['addresses', 'api', 'atlas', 'cities', 'compute', 'config', 'db', 'errors', 'geo', 'keys', 'model', 'model-service', 'nodes', 'services', 'store', 'util'],
  workers: ['area', 'atlas', 'cities', 'compute', 'errors', 'map', 'model', 'reports', 'store'],
};

/**
 * Rooms within a room, where an arrow between them matters: the JavaScript side of the kernels (compute/kernels/)
 * imports nothing else of compute/, so the kernels, their workbench (bench/workbench) and their tests stand on the
 * data rooms alone. Each entry: the sub-room and the other sub-rooms of its room it may import.
 */
export const SUB_ROOMS: Readonly<Record<string, readonly string[]>> = {
  'compute/kernels': [],
};

/** The sub-room (`room/folder`) of a path under src/, or the room itself for a file directly in it. */
function subRoomOf(path: string): string | undefined {
  const parts = path.split('/');
  if (parts[0] !== 'src' || parts.length < 3) return undefined;
  return parts.length === 3 ? parts[1] : `${parts[1]}/${parts[2]}`;
}

/** The arrows of `edges` the table does not allow, as `from → to  path:line`. */
export function wrongWay(edges: readonly RoomImport[], allowed: Readonly<Record<string, readonly string[]>>): string[] {
  return edges
    .filter((e) => !(allowed[e.from] ?? []).includes(e.to))
    .map((e) => `${e.from} → ${e.to}  ${e.at}${e.typeOnly ? ' (type)' : ''}`);
}

const files = [...typeScriptFiles(join(PROJECT_ROOT, 'src')), ...typeScriptFiles(join(PROJECT_ROOT, 'workers'))];

describe('layers', () => {
  it('has no import against the table of allowed arrows', () => {
    expect(wrongWay(roomImports(PROJECT_ROOT, files), ALLOWED)).toEqual([]);
  });

  it('places every room of the source tree', () => {
    const rooms = new Set(files.map((f) => roomOf(f.slice(PROJECT_ROOT.length + 1).split('\\').join('/'))));
    expect([...rooms].filter((r) => r !== undefined && !(r in ALLOWED))).toEqual([]);
  });

  it('is a table without cycles, so every arrow points down', () => {
    expect(cyclicRooms(ALLOWED)).toEqual([]);
  });

  it('keeps the sub-rooms of a room to their arrows (the kernels import nothing else of compute)', () => {
    const wrong: string[] = [];
    for (const file of files) {
      const path = file.slice(PROJECT_ROOT.length + 1).split('\\').join('/');
      const from = subRoomOf(path);
      const allowed = from === undefined ? undefined : SUB_ROOMS[from];
      if (allowed === undefined) continue;
      for (const { specifier, line } of importsIn(readFileSync(file, 'utf8'))) {
        const to = subRoomOf(posix.normalize(posix.join(posix.dirname(path), specifier)));
        if (to !== undefined && to !== from && to.split('/')[0] === from!.split('/')[0] && !allowed.includes(to)) {
          wrong.push(`${from} → ${to}  ${path}:${line}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('keeps no arrow that nothing uses (the table stays the drawing of the house)', () => {
    const used = new Set(roomImports(PROJECT_ROOT, files).map((e) => `${e.from}→${e.to}`));
    const unused = Object.entries(ALLOWED).flatMap(([from, tos]) => tos.filter((to) => !used.has(`${from}→${to}`)).map((to) => `${from}→${to}`));
    expect(unused).toEqual([]);
  });
});

describe('the import reader', () => {
  it('finds static, multi-line, type-only, re-exported and dynamic imports with their lines', () => {
    const text = [
      "import { a } from './a.js';",
      'import {',
      '  b,',
      "} from '../b/b.js';",
      "import type { C } from '../c/c.js';",
      "export { d } from './d.js';",
      "const e = await import('../e/e.js');",
      "import 'node:fs';",
    ].join('\n');
    expect(importsIn(text)).toEqual([
      { specifier: './a.js', line: 1, typeOnly: false },
      { specifier: '../b/b.js', line: 2, typeOnly: false },
      { specifier: '../c/c.js', line: 5, typeOnly: true },
      { specifier: './d.js', line: 6, typeOnly: false },
      { specifier: '../e/e.js', line: 7, typeOnly: false },
    ]);
  });

  it('reports a wrong-way import with its file and line', () => {
    const edges: RoomImport[] = [
      { from: 'compute', to: 'store', at: 'src/compute/x.ts:3', typeOnly: false },
      { from: 'store', to: 'compute', at: 'src/store/y.ts:7', typeOnly: true },
    ];
    expect(wrongWay(edges, { compute: ['store'], store: [] })).toEqual(['store → compute  src/store/y.ts:7 (type)']);
  });

  it('finds the rooms of a cycle', () => {
    expect(cyclicRooms({ a: ['b'], b: ['c'], c: ['a'], d: ['a'] })).toEqual(['a', 'b', 'c']);
  });
});

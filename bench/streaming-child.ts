/**
 * One measurement of the streaming benchmark (bench/streaming.ts runs each in a fresh process, so its peak resident
 * memory is its own): `node dist/bench/streaming-child.js <step> <width> <height> <dir>`. Grids are generated band by
 * band (a smooth pattern, a scattering of buildings as NaN, values rounded as the precompute publishes them), never
 * materialised whole. Steps:
 * - `cog`: one Cloud-Optimized GeoTIFF of a width × height float32 grid;
 * - `group`: the precompute's output, every precomputed grid at width × height (1 m, over Brussels), written band by
 *   band into `<dir>/group`;
 * - `export`: the atlas of that group (every figure's COG, the annual PMTiles archive, atlas.json) into `<dir>/atlas`;
 * - `annual`, `annual-whole`: the annual map tiles of that group, by windows or from whole grids
 *   (bench/streaming-area.ts);
 * - `generate`: `node dist/bench/streaming-child.js generate <K> <hours> <dir>`, the bench block at K times its area,
 *   `hours` hours of the year, written under `<dir>` (bench/streaming-area.ts); width and height reported are its grid's.
 * Prints one JSON line: the step's wall and CPU seconds, the resident memory before it started and the peak (MB), and
 * the bytes written. Started with --expose-gc, it also collects garbage every 50 ms and reports the highest live
 * memory seen after a collection (JS heap and array buffers, MB): what the step really holds, without the garbage a
 * peak RSS includes depending on when V8 happens to collect.
 */
import { provenanceOf } from '../src/store/provenance.js';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { writeAtlas } from '../src/atlas/atlas-export.js';
import { getCity } from '../src/cities/catalog.js';
import { PRECOMPUTE_GRIDS } from '../src/stats/atlas-figures.js';
import { writeCog } from '../src/store/cog-writer.js';
import type { GridGeometry } from '../src/store/dataset-types.js';
import { openGridGroup } from '../src/store/grid-group-reader.js';
import { writeGridGroup } from '../src/store/grid-group-writer.js';
import { annualOverviews } from '../src/map/annual-overviews.js';
import { annualStep, generateStep } from './streaming-area.js';

/** Rows r0 … r1 − 1 of synthetic grid `k`: smooth values in 0 … 10 (one decimal; 1 … 3 for coded grids), NaN in buildings. */
function band(k: number, width: number, r0: number, r1: number, coded: boolean): Float32Array {
  const out = new Float32Array((r1 - r0) * width);
  for (let r = r0; r < r1; r++) {
    for (let c = 0; c < width; c++) {
      const building = ((r >> 4) + (c >> 4)) % 5 === 0 && (r & 15) > 2 && (c & 15) > 2;
      const smooth = 5 + 3 * Math.sin((c + 7 * k) / 37) * Math.cos((r - 3 * k) / 53) + ((r * 31 + c * 17 + k) % 7) / 10;
      out[(r - r0) * width + c] = building ? Number.NaN : coded ? 1 + ((r + c + k) % 3) : Math.round(smooth * 10) / 10;
    }
  }
  return out;
}

/** A 1 m grid of `width` × `height` cells over central Brussels. */
function gridOf(width: number, height: number): GridGeometry {
  return { crs_epsg: 31370, resolution_m: 1, nx: width, ny: height, x0: 148_000.5, y0: 172_000 - 0.5 };
}

async function step(name: string, width: number, height: number, dir: string): Promise<number> {
  const grid = gridOf(width, height);
  if (name === 'cog') {
    return writeCog(join(dir, 'grid.tif'), {
      epsg: 31370, originX: 148_000, originY: 172_000, cellSize: 1, nodata: -9999, resampling: 'average',
      description: 'synthetic', unit: '',
    }, { width, height, readRows: (r0, r1) => band(0, width, r0, r1, false) });
  }
  if (name === 'group') {
    // As the precompute writes its group: 64 × 64 chunks and the map's overviews.
    await writeGridGroup(join(dir, 'group'), grid, PRECOMPUTE_GRIDS.map((g) => ({ name: g })), {
      bandRows: 64,
      chunkCols: 64,
      read: async (r0, r1, k) => band(k, width, r0, r1, PRECOMPUTE_GRIDS[k] === 'air_limiting_pollutant'),
    }, () => ({ content_version: 'synthetic', generated_utc: '2026-01-01T00:00:00Z' }), annualOverviews(grid, PRECOMPUTE_GRIDS));
    return 0;
  }
  if (name === 'export') {
    const group = await openGridGroup(join(dir, 'group'), height, width);
    if (group === undefined) throw new Error(`No group in ${dir}: run the group step first.`);
    await mkdir(join(dir, 'atlas'), { recursive: true });
    const provenance = provenanceOf({ content_version: 'synthetic', generated_utc: '2026-01-01T00:00:00Z', attribution: 'synthetic bench grid', fields: [], model_kind: 'stand-in' });
    const written = await writeAtlas({ city: getCity('brussels')!, grid, group, referenceYear: 2025, contentVersion: 'synthetic', provenance }, join(dir, 'atlas'));
    return written.files.reduce((n, f) => n + f.bytes, 0);
  }
  if (name === 'annual' || name === 'annual-whole') return annualStep(grid, dir, name === 'annual-whole');
  throw new Error(`Unknown step '${name}' (cog, group, export, annual, annual-whole, generate).`);
}

const [name, width, height, dir] = process.argv.slice(2);
const before = process.memoryUsage().rss;
const collect = (globalThis as { gc?: () => void }).gc;
let liveMax = 0;
const sampler = collect && setInterval(() => {
  collect();
  const m = process.memoryUsage();
  liveMax = Math.max(liveMax, m.heapUsed + m.arrayBuffers);
}, 50);
const t0 = performance.now();
const cpu0 = process.cpuUsage();
let size = { width: Number(width), height: Number(height) };
let bytes = 0;
if (name === 'generate') ({ bytes, ...size } = await generateStep(Number(width), Number(height), dir!));
else bytes = await step(name!, size.width, size.height, dir!);
const wallS = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
if (sampler) clearInterval(sampler);
const mb = (b: number) => Math.round(b / 2 ** 20);
process.stdout.write(`${JSON.stringify({
  step: name, width: size.width, height: size.height, wall_s: Math.round(wallS * 100) / 100,
  cpu_s: Math.round((cpu.user + cpu.system) / 1e4) / 100, rss_before_mb: mb(before),
  peak_rss_mb: mb(process.resourceUsage().maxRSS * 1024), ...(collect ? { peak_live_mb: mb(liveMax) } : {}), bytes,
})}\n`);

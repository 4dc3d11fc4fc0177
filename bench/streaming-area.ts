/**
 * Steps of the streaming benchmark (bench/streaming.ts) whose memory used to grow with the area, run by
 * bench/streaming-child.ts in a fresh process each:
 * - `generate`: `svc data generate --bench --scale K` (the benchmark block at 1 m, K times its area) cut to its
 *   first `hours` hours, without the stored aggregates: generation goes window by window, so its peak should not
 *   follow the area; the cut year keeps a step within a minute (a cell's features, what grew with the area, are a
 *   whole year's);
 * - `annual` and `annual-whole`: the annual map layers served from a precompute's grid group (written by the
 *   `group` step) as `svc serve` draws them, every tile of the lower zooms and a sample spread over the extent at the
 *   others, each tile drawn and gzipped in this process: `annual` reads what the server reads (map/annual-tables.ts:
 *   each tile's block tables, or its window of cells at the deepest zoom, from bands in the server's bounded cache),
 *   `annual-whole` holds every grid drawn whole, as the server did before windows.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { generatePreset } from '../src/model/generate.js';
import { FEATURE_BYTES_PER_CELL } from '../src/model/feature-arrays.js';
import { planGrid } from '../src/model/plan-grid.js';
import { scaledPlan } from '../src/model/scaled-plans.js';
import { ANNUAL_LAYERS } from '../src/map/annual-layers.js';
import { annualTileJob } from '../src/map/annual-tables.js';
import { AnnualWindows, DEFAULT_ANNUAL_BAND_CACHE_BYTES } from '../src/map/annual-windows.js';
import type { FieldSlice } from '../src/map/cell-features.js';
import { gridFootprint } from '../src/map/grid-projection.js';
import { renderEncodedTile, type TileJob } from '../src/map/tile-drawing.js';
import { tilesCovering } from '../src/map/web-mercator-tiles.js';
import type { GridGeometry } from '../src/store/dataset-types.js';
import { openGridGroup } from '../src/store/grid-group-reader.js';

/** Tiles drawn per layer at a zoom with more: spread evenly over the zoom's tiles, in row order. */
const TILES_PER_ZOOM = 24;

/** Generates the bench block at `k` times its area, `hours` hours, into `dir`; returns its grid's size and stored bytes. */
export async function generateStep(k: number, hours: number, dir: string): Promise<{ width: number; height: number; bytes: number }> {
  const [written] = await generatePreset({ preset: 'bench', scale: k, hours, outDir: dir, seed: 1, threads: 2, aggregate: false, progress: false, notice: () => {} });
  let bytes = 0;
  for (const entry of await readdir(written!, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) bytes += (await stat(join(entry.parentPath, entry.name))).size;
  }
  const grid = planGrid(scaledPlan('bench', k));
  return { width: grid.nx, height: grid.ny, bytes };
}

/** Bytes of cell features a cell holds (what the whole-grid generator kept for every cell of the grid). */
export function featureBytesPerCell(): number {
  return FEATURE_BYTES_PER_CELL;
}

/** Draws the annual tiles of the group in `dir` (see the top of this file); returns the bytes of the tiles drawn. */
export async function annualStep(grid: GridGeometry, dir: string, whole: boolean): Promise<number> {
  const group = await openGridGroup(join(dir, 'group'), grid.ny, grid.nx);
  if (group === undefined) throw new Error(`No group in ${dir}: run the group step first.`);
  const windows = new AnnualWindows(DEFAULT_ANNUAL_BAND_CACHE_BYTES);
  // The server before windows: each grid read whole once, kept in a SharedArrayBuffer.
  const grids = new Map<string, Float32Array>();
  const wholeGrid = async (name: string): Promise<Float32Array> => {
    let values = grids.get(name);
    if (values === undefined) {
      const read = await group.read(name);
      values = new Float32Array(new SharedArrayBuffer(read.byteLength));
      values.set(read);
      grids.set(name, values);
    }
    return values;
  };
  const { box, zooms } = gridFootprint(grid);
  let bytes = 0;
  for (let z = zooms.minzoom; z <= zooms.maxzoom; z++) {
    const range = tilesCovering(box, z);
    const all: [number, number][] = [];
    for (let y = range.y0; y <= range.y1; y++) for (let x = range.x0; x <= range.x1; x++) all.push([x, y]);
    const step = Math.max(1, all.length / TILES_PER_ZOOM);
    for (let i = 0; i < all.length; i += step) {
      const [x, y] = all[Math.floor(i)]!;
      for (const layer of Object.values(ANNUAL_LAYERS)) {
        const base = { layer: layer.id, grid, maxzoom: zooms.maxzoom, z, x, y } as const;
        let job: TileJob;
        if (whole) {
          const fields: FieldSlice[] = [];
          for (const f of layer.fields) fields.push({ name: f.name, decimals: f.decimals, aggregate: f.aggregate ?? 'mean', values: await wholeGrid(f.source) });
          job = { ...base, fields };
        } else {
          job = await annualTileJob({ windows, group, version: 'bench' }, base, layer.fields);
        }
        const tile = renderEncodedTile(job);
        bytes += tile.gzip?.byteLength ?? tile.raw.byteLength;
      }
    }
  }
  return bytes;
}

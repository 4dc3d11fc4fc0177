/**
 * The `area-figures` compute task: the distribution over an area of every figure of the city atlas, read from the
 * whole-city precompute's grids (`<dataset>.precomputed`) at the area's outdoor cells, weighted by the area of each
 * cell the polygon covers. It runs in a compute thread (reads and decoding stay off the event loop; a cluster worker
 * runs it alike). Decoded bands of 64 grid rows are kept per thread in a byte-bounded LRU, so a hot area reads no
 * file. A precompute that is missing, made from other data or lacking figures is answered as unavailable, with why.
 */
import { computeDataset, precomputedDir } from '../compute/datasets/dataset-cache.js';
import { describePrecomputeProblem, precomputeProblem } from '../compute/precompute/precompute-problem.js';
import { defineTask } from '../compute/tasks/task-definition.js';
import type { TaskFamily } from '../compute/tasks/task-registry.js';
import { figureDecimals, ATLAS_FIGURES } from '../stats/atlas-figures.js';
import { openGridGroup, type GridGroup } from '../store/grid-group-reader.js';
import { ByteLru } from '../util/byte-lru.js';
import { AREA_FIGURES, type AreaFigure } from './area-figures.js';
import { classSummary, weightedSummary, type ClassSummary, type WeightedSummary } from './weighted-distribution.js';

/** Asks for the atlas distribution over some outdoor cells of a dataset. */
export interface AreaFiguresTask {
  readonly kind: 'area-figures';
  readonly dataDir: string;
  readonly dataset: string;
  /** Flat cell indices, ascending: the outdoor cells the polygon touches. */
  readonly cells: Int32Array;
  /** Covered area of each cell, m². */
  readonly weights: Float64Array;
  /** The blocks to summarise. */
  readonly blocks: readonly string[];
}

/** The figures over the area, or why there are none. */
export type AreaFiguresValue =
  | { readonly available: true; readonly precompute_generated_utc: string | null; readonly figures: Readonly<Record<string, WeightedSummary | ClassSummary | null>> }
  | { readonly available: false; readonly reason: string };

/** Rows per cached band. */
const BAND_ROWS = 64;
/** Decoded bands kept per thread, bytes. */
const BAND_CACHE_BYTES = 128 * 1024 * 1024;

const bands = new ByteLru<Float32Array>(BAND_CACHE_BYTES, (v) => v.byteLength);
const groups = new Map<string, Promise<GridGroup | undefined>>();

function groupOf(dir: string, version: string, ny: number, nx: number): Promise<GridGroup | undefined> {
  const key = `${dir}\u0000${version}`;
  let found = groups.get(key);
  if (found === undefined) {
    found = openGridGroup(dir, ny, nx);
    found.catch(() => groups.delete(key));
    groups.set(key, found);
  }
  return found;
}

/** Values of grid `name` at `cells` (ascending), read band by band through the cache. */
async function valuesAt(group: GridGroup, stamp: string, name: string, cells: Int32Array, nx: number, ny: number): Promise<Float32Array> {
  const out = new Float32Array(cells.length);
  let band = -1;
  let values: Float32Array | undefined;
  for (let i = 0; i < cells.length; i++) {
    const row = Math.floor(cells[i]! / nx);
    const b = Math.floor(row / BAND_ROWS);
    if (b !== band) {
      band = b;
      const r0 = b * BAND_ROWS;
      values = await bands.load(`${stamp}|${name}|${b}`, () => group.readRows(name, r0, Math.min(ny, r0 + BAND_ROWS)));
    }
    out[i] = values![(row - band * BAND_ROWS) * nx + (cells[i]! % nx)]!;
  }
  return out;
}

function summarise(figure: AreaFigure, columns: readonly Float32Array[], weights: Float64Array): WeightedSummary | ClassSummary | undefined {
  if (figure.aggregation === 'classes') {
    const codes = new Int32Array(weights.length);
    for (let i = 0; i < codes.length; i++) codes[i] = figure.classify!(columns.map((c) => c[i]!));
    return classSummary(codes, weights, figure.classes!);
  }
  const atlas = ATLAS_FIGURES.find((f) => f.grid === figure.grids[0])!;
  return weightedSummary(columns[0]!, weights, figure.aggregation === 'mean', figureDecimals(atlas));
}

/** Runs an `area-figures` task in this thread. */
export async function areaFigures(task: AreaFiguresTask): Promise<AreaFiguresValue> {
  const ds = await computeDataset(task.dataDir, task.dataset);
  const { nx, ny } = ds.reader.grid;
  const contentVersion = ds.reader.attrs.content_version;
  const group = await groupOf(precomputedDir(task.dataDir, task.dataset), contentVersion, ny, nx);
  if (group === undefined) return { available: false, reason: `dataset '${task.dataset}' has no whole-city precompute (svc precompute makes it)` };
  const problem = precomputeProblem(group, contentVersion);
  if (problem !== undefined) return { available: false, reason: `the precompute of '${task.dataset}' ${describePrecomputeProblem(problem, contentVersion)}` };
  const generated = typeof group.attrs.generated_utc === 'string' ? group.attrs.generated_utc : null;
  const stamp = `${group.dir}|${contentVersion}|${generated}`;
  const columns = new Map<string, Float32Array>();
  const figures: Record<string, WeightedSummary | ClassSummary | null> = {};
  for (const figure of AREA_FIGURES.filter((f) => task.blocks.includes(f.block))) {
    for (const name of figure.grids) {
      if (!columns.has(name)) columns.set(name, await valuesAt(group, stamp, name, task.cells, nx, ny));
    }
    figures[figure.field] = summarise(figure, figure.grids.map((g) => columns.get(g)!), task.weights) ?? null;
  }
  return { available: true, precompute_generated_utc: generated, figures };
}

/** The atlas distribution over an area, in a compute thread (or a cluster worker's). */
export const AREA_FIGURES_TASK = defineTask('area-figures', areaFigures, { readsData: true });

/** The area family of compute-thread tasks. */
export const AREA_TASKS: TaskFamily = [AREA_FIGURES_TASK];

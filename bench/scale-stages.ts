/**
 * The stages of the scale ladder (bench/scale.ts) that run inside one child process each (bench/scale-stage.ts), so
 * that the peak resident memory a stage reports is its own: generation, aggregation, store open, precompute, atlas
 * export, the truly cold queries and the index open. Each returns its figures; the child adds wall, CPU and peak RSS.
 */
import { join } from 'node:path';
import { exportAtlasInThread } from '../src/atlas/atlas-thread.js';
import { getCity } from '../src/cities/catalog.js';
import { aggregateDataset, aggregationRefused } from '../src/compute/aggregates/dataset-aggregation.js';
import { openComputeDataset, precomputedDir } from '../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import { generatePreset } from '../src/model/generate.js';
import { SCALED_DATASET, type ScalablePreset } from '../src/model/scaled-plans.js';
import { removeTree } from '../src/store/remove-tree.js';
import { precomputeCity } from '../src/services/precompute.js';
import { dropPageCache } from './page-cache.js';
import { measureIndexOpen } from './scale-index.js';
import { residentMb } from './scale-memory.js';
import { baseCentre } from './scale-steps.js';
import { median } from './timing.js';

/** What every stage is given. */
export interface StageParams {
  readonly preset: ScalablePreset;
  readonly scale: number;
  /** The step's data directory (holds `brussels_extended`). */
  readonly dataDir: string;
  readonly threads: number;
  readonly seed: number;
}

/** A stage's own figures (the child adds wall_s, cpu_s, peak_rss_mb). */
export type StageFigures = Record<string, number | string | boolean | null | object>;

const CITY = getCity('brussels')!;
/**
 * Rounds of each truly cold query (the median is reported): a query of 12–35 ms moves by a few milliseconds with the
 * shared machine's load, so three rounds left the steps' ratio at 0.78–1.53 from run to run.
 */
const COLD_ROUNDS = 9;

async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const t0 = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - t0 };
}

/** The stages by name. */
export const STAGES: Readonly<Record<string, (p: StageParams) => Promise<StageFigures>>> = {
  async generate(p) {
    await generatePreset({ preset: p.preset, scale: p.scale, outDir: p.dataDir, seed: p.seed, threads: p.threads, progress: false, aggregate: false });
    return {};
  },

  async aggregate(p) {
    const compute = await createLocalCompute({ dataDir: p.dataDir, threads: p.threads });
    try {
      const result = await aggregateDataset(compute, p.dataDir, SCALED_DATASET);
      if (result.damaged.length > 0) throw aggregationRefused(result);
      return { files: result.files, bytes: result.bytes, levels: result.levels.join(',') };
    } finally {
      await compute.close();
    }
  },

  /** Opening the store in this process, then in every thread of a compute pool (each answers a first point query). */
  async open(p) {
    const before = residentMb();
    const cpu0 = process.cpuUsage();
    const opened = await timed(() => openComputeDataset(p.dataDir, SCALED_DATASET, { syncReads: true }));
    const cpu = process.cpuUsage(cpu0);
    const processMb = residentMb() - before;
    const compute = await createLocalCompute({ dataDir: p.dataDir, threads: p.threads });
    try {
      const idle = residentMb();
      const centre = baseCentre(p.preset);
      await Promise.all(Array.from({ length: p.threads * 2 }, () => compute.computeStats({ dataset: SCALED_DATASET, ...centre })));
      return {
        open_ms: opened.ms, open_cpu_s: (cpu.user + cpu.system) / 1e6, open_rss_mb: processMb, thread_rss_mb: (residentMb() - idle) / p.threads,
        cells: opened.value.reader.grid.nx * opened.value.reader.grid.ny,
      };
    } finally {
      await compute.close();
    }
  },

  /** The whole-grid precompute from nothing (any earlier result removed), `svc precompute` as it runs. */
  async precompute(p) {
    await removeTree(precomputedDir(p.dataDir, SCALED_DATASET));
    await removeTree(join(p.dataDir, `${SCALED_DATASET}.precompute-partial`));
    const compute = await createLocalCompute({ dataDir: p.dataDir, threads: p.threads });
    try {
      const summary = await precomputeCity(compute, p.dataDir, CITY);
      return { outdoor_cells: summary.cells, rows: summary.rowsComputed };
    } finally {
      await compute.close();
    }
  },

  /** `svc atlas export` into a sibling of the data directory, removed afterwards; the size of every file. */
  async export(p) {
    const out = `${p.dataDir}.atlas`;
    await removeTree(out);
    try {
      const result = await exportAtlasInThread(p.dataDir, CITY.id, out);
      const files = Object.fromEntries(result.files.map((f) => [f.file, f.bytes]));
      const tifs = result.files.filter((f) => f.file.endsWith('.tif'));
      return {
        files, total_bytes: result.files.reduce((n, f) => n + f.bytes, 0),
        largest_geotiff_bytes: Math.max(...tifs.map((f) => f.bytes)),
        pmtiles_bytes: result.files.find((f) => f.file.endsWith('.pmtiles'))?.bytes ?? 0,
      };
    } finally {
      await removeTree(out);
    }
  },

  /** The point and 50 m radius queries at the base tile's centre with the page cache dropped before each. */
  async queries(p) {
    const compute = await createLocalCompute({ dataDir: p.dataDir, threads: p.threads });
    try {
      const centre = baseCentre(p.preset);
      const point = { dataset: SCALED_DATASET, ...centre };
      const radius = { ...point, radius_m: 50 };
      // A running service has opened the dataset in every thread and loaded its kernels.
      await Promise.all(Array.from({ length: p.threads * 2 }, () => compute.computeStats(point)));
      await compute.computeStats(radius);
      const store = join(p.dataDir, SCALED_DATASET);
      const pointMs: number[] = [];
      const radiusMs: number[] = [];
      let how = '';
      for (let i = 0; i < COLD_ROUNDS; i++) {
        how = dropPageCache(store);
        pointMs.push((await timed(() => compute.computeStats(point))).ms);
        dropPageCache(store);
        radiusMs.push((await timed(() => compute.computeStats(radius))).ms);
      }
      return { truly_cold_point_ms: median(pointMs), truly_cold_radius50_ms: median(radiusMs), page_cache: how };
    } finally {
      await compute.close();
    }
  },

  /** Opening the store's chunk index alone (bench/scale-index.ts). */
  async index(p) {
    return { ...(await measureIndexOpen(join(p.dataDir, SCALED_DATASET))) };
  },
};

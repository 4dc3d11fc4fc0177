/**
 * The measured passes of the precompute benchmark (bench/precompute.ts). Every pass covers every chunk row of a
 * dataset and reports wall and CPU seconds of this process (user + system, all threads, `process.cpuUsage`), so the
 * figures per CPU-second change little when other processes load the shared machine.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type { CityConfig } from '../src/cities/city-types.js';
import type { ComputeDataset } from '../src/compute/datasets/dataset-cache.js';
import { chunkRowRect } from '../src/sampling/outdoor-window.js';
import { datasetEncodings } from '../src/compute/datasets/kernel-run.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import { CELL_ROW } from '../src/compute/kernels/precompute-layout.js';
import { loadPrecomputeKernel } from '../src/compute/kernels/precompute-kernel.js';
import { emptyGrids, publishCell } from '../src/compute/precompute/precompute-publish.js';
import { precomputeRow } from '../src/compute/precompute/precompute-row.js';
import { precomputeRowPerCell } from '../src/compute/precompute/precompute-row-per-cell.js';
import type { PrecomputeRowValue } from '../src/compute/tasks/protocol.js';
import { PRECOMPUTE_ROW_TASK } from '../src/compute/tasks/statistics-tasks.js';
import { loadStatsKernel } from '../src/compute/kernels/stats-kernel.js';
import { precomputeCity } from '../src/services/precompute.js';
import { hourlyChunkKey } from '../src/store/zarr-metadata.js';
import type { PlannedCompute } from '../src/compute/planned-compute.js';

/** Which implementation computes the rows. */
export type PrecomputeMethod = 'per-cell' | 'kernel';

/** What one pass measured. */
export interface PassResult {
  readonly cells: number;
  readonly wallS: number;
  readonly cpuS: number;
}

/** CPU seconds used by this process so far (all threads). */
function cpuSeconds(): number {
  const c = process.cpuUsage();
  return (c.user + c.system) / 1e6;
}

/** Runs `fn` and returns its result with wall and CPU seconds. */
export async function measured<T>(fn: () => Promise<T>): Promise<{ value: T; wallS: number; cpuS: number }> {
  const cpu0 = cpuSeconds();
  const t0 = performance.now();
  const value = await fn();
  return { value, wallS: (performance.now() - t0) / 1e3, cpuS: cpuSeconds() - cpu0 };
}

/** Chunk rows of a dataset. */
export function chunkRows(ds: ComputeDataset): number[] {
  return Array.from({ length: Math.ceil(ds.reader.grid.ny / ds.reader.chunk.rows) }, (_, r) => r);
}

/** Every row on this thread, as a compute thread runs a `precompute-row` task. */
export async function inThread(ds: ComputeDataset, method: PrecomputeMethod): Promise<PassResult> {
  const stats = await loadStatsKernel();
  const kernel = await loadPrecomputeKernel();
  const { value: rows, wallS, cpuS } = await measured(async () => {
    const out: PrecomputeRowValue[] = [];
    for (const r of chunkRows(ds)) {
      out.push(method === 'kernel' ? await precomputeRow(ds, kernel, r) : await precomputeRowPerCell(ds, stats, r));
    }
    return out;
  });
  return { cells: rows.reduce((n, v) => n + v.cellsComputed, 0), wallS, cpuS };
}

/** CPU seconds per stage of the precompute kernel's path. */
export interface StageSplit {
  read: number;
  decode: number;
  kernel: number;
  publish: number;
}

/**
 * The precompute kernel's path replayed stage by stage on this thread, as precompute-row.ts runs it: blocking read of
 * each stored frame into a reused buffer (with its check against the chunk manifest), zstd + unshuffle into kernel
 * memory, the kernel, and publishing the grid values. Needs every field stored with a direct decode path.
 */
export async function kernelStages(ds: ComputeDataset): Promise<StageSplit> {
  const kernel = await loadPrecomputeKernel();
  const { reader } = ds;
  const { grid, chunk, hours, fields } = reader;
  const split: StageSplit = { read: 0, decode: 0, kernel: 0, publish: 0 };
  const grids = emptyGrids(chunk.rows * chunk.cols);
  const mask = new Uint8Array(chunk.rows * chunk.cols);
  // One read buffer reused for every frame, as compute threads reuse theirs (kernel-run.ts).
  let reused = new Uint8Array(0);
  const buffer = (size: number) => (reused.length >= size ? reused : (reused = new Uint8Array(size)));
  kernel.begin(hours, fields, datasetEncodings(ds), ds.calendar);
  let t = cpuSeconds();
  const lap = (stage: keyof StageSplit): void => {
    const now = cpuSeconds();
    split[stage] += now - t;
    t = now;
  };
  for (const chunkRow of chunkRows(ds)) {
    const outdoor = await ds.outdoor.window(chunkRowRect(grid, chunk, chunkRow));
    for (let chunkCol = 0; chunkCol < Math.ceil(grid.nx / chunk.cols); chunkCol++) {
      mask.fill(0);
      for (let r = 0; r < chunk.rows && chunkRow * chunk.rows + r < grid.ny; r++) {
        for (let c = 0; c < chunk.cols && chunkCol * chunk.cols + c < grid.nx; c++) {
          mask[r * chunk.cols + c] = outdoor.at((chunkRow * chunk.rows + r) * grid.nx + chunkCol * chunk.cols + c) === 1 ? 1 : 0;
        }
      }
      if (!mask.includes(1)) continue;
      t = cpuSeconds();
      for (const field of fields) {
        if (!ds.directFields.has(field)) throw new Error(`Field ${field} is not stored with the default codecs.`);
        const frame = await reader.readStoredChunk(field, chunkRow, chunkCol, { buffer });
        lap('read');
        kernel.loadShuffledChunk(field, mask.length, frame, ds.directFields.get(field));
        lap('decode');
      }
      const results = kernel.run(mask);
      lap('kernel');
      for (let cell = 0; cell < mask.length; cell++) {
        if (mask[cell] === 1) publishCell(results, cell * CELL_ROW.COUNT, grids, cell);
      }
      lap('publish');
    }
  }
  return split;
}

/** CPU seconds of decoding every chunk the per-cell path decodes (`readChunk` of every field: read, zstd, unshuffle). */
export async function perCellDecode(ds: ComputeDataset): Promise<number> {
  const { reader } = ds;
  const cols = Math.ceil(reader.grid.nx / reader.chunk.cols);
  const { cpuS } = await measured(async () => {
    for (const chunkRow of chunkRows(ds)) {
      for (let chunkCol = 0; chunkCol < cols; chunkCol++) {
        await Promise.all(reader.fields.map((f) => reader.readChunk(f, chunkRow, chunkCol)));
      }
    }
  });
  return cpuS;
}

/** Reads every stored frame once, so every pass finds the files in the page cache. */
export function warmFiles(ds: ComputeDataset): void {
  const cols = Math.ceil(ds.reader.grid.nx / ds.reader.chunk.cols);
  for (const chunkRow of chunkRows(ds)) {
    for (let chunkCol = 0; chunkCol < cols; chunkCol++) {
      for (const f of ds.reader.fields) readFileSync(join(ds.reader.dir, hourlyChunkKey(f, chunkRow, chunkCol)));
    }
  }
}

/** The per-cell path through a pool: `precompute-row` tasks asking for the statistics kernel cell by cell. */
function perCellCompute(pool: PlannedCompute, dataDir: string): PlannedCompute {
  return {
    ...pool,
    precomputeRow: (dataset, chunkRow, signal) =>
      pool.runTask(PRECOMPUTE_ROW_TASK, { kind: 'precompute-row', dataDir, dataset, chunkRow, method: 'per-cell' }, signal),
  };
}

/**
 * `svc precompute` as the command runs it — a pool of `threads` compute threads started, the city's every row
 * computed, the grid group and references written, the pool closed — into a scratch data directory that links to the
 * dataset (the real one is never written to).
 */
export async function svcPrecompute(
  dataDir: string, city: CityConfig, method: PrecomputeMethod, threads: number,
): Promise<PassResult> {
  const scratch = await mkdtemp(join(tmpdir(), 'bench-precompute-'));
  try {
    await symlink(join(dataDir, city.dataset), join(scratch, city.dataset), 'dir');
    const { value, wallS, cpuS } = await measured(async () => {
      const pool = await createLocalCompute({ dataDir: scratch, threads });
      try {
        return await precomputeCity(method === 'kernel' ? pool : perCellCompute(pool, scratch), scratch, city);
      } finally {
        await pool.close();
      }
    });
    return { cells: value.cells, wallS, cpuS };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** Every row of a dataset through a pool of `threads` threads (no city: datasets such as bench_1m). */
export async function poolRows(dataDir: string, ds: ComputeDataset, method: PrecomputeMethod, threads: number): Promise<PassResult> {
  const { value, wallS, cpuS } = await measured(async () => {
    const pool = await createLocalCompute({ dataDir, threads });
    try {
      const compute = method === 'kernel' ? pool : perCellCompute(pool, dataDir);
      return await Promise.all(chunkRows(ds).map((r) => compute.precomputeRow(ds.id, r)));
    } finally {
      await pool.close();
    }
  });
  return { cells: value.reduce((n, v) => n + v.cellsComputed, 0), wallS, cpuS };
}

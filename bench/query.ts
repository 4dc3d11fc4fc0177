/**
 * `npm run bench -- query`: end-to-end statistics queries on the 1 m benchmark block (generated on first run).
 *
 * - cold: a location computed from the Zarr chunks with the running pool (threads started, kernels loaded, dataset
 *   metadata open; nothing of the location cached: every chunk is read and decoded, the kernel runs, blocks are built);
 * - warm: the same location answered from the statistics cache (SQLite lookup + envelope assembly from stored JSON);
 * - split: one cold 50 m query replayed stage by stage on this thread (file read, verification against the chunk
 *   manifest's CRC-32, decode, kernel, assemble).
 */
import { readFileSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { access } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { CITIES } from '../src/cities/catalog.js';
import { computeDataset } from '../src/compute/dataset-cache.js';
import { datasetEncodings } from '../src/compute/kernel-run.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import { planSample } from '../src/compute/sample-plan.js';
import { loadStatsKernel } from '../src/compute/stats-kernel.js';
import type { StatsRequest } from '../src/compute/compute-types.js';
import { openDatabase } from '../src/db/database.js';
import { lambert72ToWgs84 } from '../src/geo/crs.js';
import { roundCoord } from '../src/geo/round.js';
import { generatePreset } from '../src/model/generate.js';
import { BENCH_RECT } from '../src/model/presets.js';
import { statsCacheKey } from '../src/services/cache-keys.js';
import { SqliteStatsCache, toCachedStats } from '../src/services/stats-cache.js';
import { statsEnvelope } from '../src/services/stats-envelope.js';
import { MANIFEST_FILE } from '../src/store/chunk-manifest.js';
import { hourlyChunkKey } from '../src/store/zarr-metadata.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import type { BenchResult } from './registry.js';
import { median } from './timing.js';

const DATASET = 'bench_1m';

async function ensureBenchData(dataDir: string): Promise<void> {
  try {
    await access(join(dataDir, DATASET, MANIFEST_FILE));
  } catch {
    console.log('Generating the 1 m benchmark block (once)…');
    await generatePreset({ preset: 'bench', outDir: dataDir, seed: 1 });
  }
}

async function timeRuns(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

/**
 * Replays one cold query stage by stage on this thread, the way a compute thread runs it (kernel-run.ts): blocking
 * read of each stored frame, zstd + unshuffle straight into kernel memory, phase A, then phase B and the envelope.
 */
async function splitStages(dataDir: string, request: StatsRequest): Promise<Record<string, number>> {
  const ds = await computeDataset(dataDir, DATASET);
  const { chunks } = planSample(ds, request);
  const kernel = await loadStatsKernel();
  const stage = { read_ms: 0, verify_ms: 0, decode_ms: 0, kernel_ms: 0, assemble_ms: 0 };
  kernel.begin(ds.reader.hours, ds.reader.fields, datasetEncodings(ds), ds.calendar);
  for (const sel of chunks) {
    for (const f of ds.reader.fields) {
      let t = performance.now();
      const frame = readFileSync(join(dataDir, DATASET, hourlyChunkKey(f, sel.chunkRow, sel.chunkCol)));
      stage.read_ms += performance.now() - t;
      t = performance.now();
      crc32(frame);
      stage.verify_ms += performance.now() - t;
      t = performance.now();
      kernel.loadShuffledChunk(f, sel.mask.length, frame);
      stage.decode_ms += performance.now() - t;
    }
    const t = performance.now();
    kernel.addChunkViews(sel.mask);
    stage.kernel_ms += performance.now() - t;
  }
  const t = performance.now();
  const blocks = kernel.finish();
  statsEnvelope({
    city: undefined, address: null, lat: request.lat, lon: request.lon, metrics: ['air', 'wind', 'thermal'],
    stats: toCachedStats({
      dataset: DATASET, reference_year: 2023, content_version: ds.version, sampling: 'radius', n_cells: 1, hours: 8760,
      generated_utc: new Date().toISOString(), blocks,
    }),
  });
  stage.assemble_ms += performance.now() - t;
  return { ...stage, chunks: chunks.length };
}

/** Runs the query benchmark. */
export async function run(): Promise<BenchResult> {
  const dataDir = join(PROJECT_ROOT, 'data', 'bench');
  await ensureBenchData(dataDir);
  const [lon, lat] = lambert72ToWgs84((BENCH_RECT.xmin + BENCH_RECT.xmax) / 2, (BENCH_RECT.ymin + BENCH_RECT.ymax) / 2);
  const centre = { dataset: DATASET, lat: roundCoord(lat), lon: roundCoord(lon) };
  const threads = availableParallelism();
  const compute = await createLocalCompute({ dataDir, threads });
  try {
    // Start-up work a running service has already done: threads, kernels, dataset metadata in every thread.
    await Promise.all(Array.from({ length: threads * 2 }, () => compute.computeStats(centre)));
    const point = await timeRuns(9, () => compute.computeStats(centre));
    const radiusRequest = { ...centre, radius_m: 50 };
    const radiusResult = await compute.computeStats(radiusRequest);
    const radius = await timeRuns(5, () => compute.computeStats(radiusRequest));

    const db = openDatabase(':memory:');
    const cache = new SqliteStatsCache(db);
    const key = statsCacheKey({
      dataset: DATASET, contentVersion: radiusResult.content_version, computeVersion: 'bench',
      lat: centre.lat, lon: centre.lon, radiusM: 50,
    });
    cache.put(key, toCachedStats(radiusResult));
    const city = CITIES[0];
    const warm = await timeRuns(200, async () => {
      const stats = cache.get(key)!;
      statsEnvelope({ city, address: null, lat: centre.lat, lon: centre.lon, stats, metrics: ['air', 'wind', 'thermal'] });
    });
    db.close();
    const split = await splitStages(dataDir, radiusRequest);
    const figures = {
      cold_point_ms: Number(median(point).toFixed(1)),
      cold_radius50_1m_ms: Number(median(radius).toFixed(1)),
      warm_ms: Number(median(warm).toFixed(3)),
      radius50_cells: radiusResult.n_cells,
      radius50_cell_hours: radiusResult.n_cells * radiusResult.hours,
      threads,
      cold_radius50_split_single_thread_ms: Object.fromEntries(
        Object.entries(split).map(([k, v]) => [k, Number(v.toFixed(1))]),
      ),
    };
    return {
      name: 'query',
      title: `Statistics queries on the 1 m benchmark block (${threads} threads, medians)`,
      columns: ['query', 'cells', 'ms'],
      rows: [
        { query: 'cold point', cells: 1, ms: figures.cold_point_ms },
        { query: 'cold 50 m radius at 1 m', cells: radiusResult.n_cells, ms: figures.cold_radius50_1m_ms },
        { query: 'warm (cache hit)', cells: radiusResult.n_cells, ms: figures.warm_ms },
        ...Object.entries(figures.cold_radius50_split_single_thread_ms).map(([k, v]) => ({
          query: `  split, one thread: ${k}`, cells: '', ms: v,
        })),
      ],
      notes: [
        'Targets: cold 50 m radius at 1 m <= 1500 ms wall on 2 cores; cold point <= 100 ms.',
        'Cold = nothing of the location cached in the service; warm = answered from the statistics cache.',
      ],
      figures,
    };
  } finally {
    await compute.close();
  }
}

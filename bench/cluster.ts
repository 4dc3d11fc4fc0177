/**
 * `npm run bench -- cluster`: the compute cluster on NATS JetStream against the local pool, in one run (a local
 * nats-server with JetStream, `svc worker --threads 1` child processes; the 1 m benchmark block of data/bench with its
 * stored aggregates, generated when missing, shared with the query benchmark).
 *
 * - precompute throughput: every chunk row of bench_1m as `precompute-row` tasks, in cell-hours per wall second: a
 *   local pool of 1 and of 2 threads, then 1, 2, … worker processes (`BENCH_CLUSTER_WORKERS`, default `1,2`; a
 *   machine with more cores: `1,2,4,8`), workers added one configuration after the other, each warmed up by a pass;
 * - where the CPU goes: CPU seconds per precompute task and per cold 50 m radius query in the API node (this
 *   process), in nats-server and in the workers (/proc), and from them the scaling ceiling — how many single-thread
 *   workers one API node and one nats-server keep busy before either needs a whole core. On 2 cores this is what the
 *   machine can show: the ceiling does not depend on having the cores to reach it;
 * - per-task overhead: cold point and cold 50 m radius queries (nothing cached by the service) through the local pool
 *   of 2 threads and through NATS with 2 workers, in pairs, local then NATS; the overhead is the median of the pairs'
 *   differences (with its quartiles), so drift of a shared machine cancels.
 */
import type { ChildProcess } from 'node:child_process';
import { access } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { createNatsCompute } from '../src/cluster/nats-compute.js';
import { ClusterLink } from '../src/cluster/nats-connection.js';
import { NatsTaskQueue } from '../src/cluster/task-queue.js';
import { computeDataset } from '../src/compute/datasets/dataset-cache.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import type { PlannedCompute } from '../src/compute/planned-compute.js';
import { lambert72ToWgs84 } from '../src/geo/crs.js';
import { roundCoord } from '../src/geo/round.js';
import { generatePreset } from '../src/model/generate.js';
import { BENCH_RECT } from '../src/model/presets.js';
import { MANIFEST_FILE } from '../src/store/chunk-manifest.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { cpuOf, cpuSplit, scalingCeiling, startWorker, stopWorker, type CpuSplit } from './cluster-processes.js';
import { startBenchNats } from './loopback-nats.js';
import type { BenchResult } from './registry.js';
import { median, percentile } from './timing.js';

const DATASET = 'bench_1m';
const LIMITS = { ackWaitMs: 30_000, maxDeliver: 3 };
/** Target: one API node and one nats-server keep at least this many single-thread workers busy. */
const TARGET_CEILING = 32;
/** Passes over every row per configuration; the median pass is reported. */
const PASSES = Number(process.env.BENCH_CLUSTER_PASSES ?? 3);
/** Pairs of cold queries (local, then NATS) for a point and for a 50 m radius; radius queries for CPU accounting. */
const POINT_PAIRS = 51;
const RADIUS_PAIRS = 9;
const RADIUS_CPU_QUERIES = 8;

/** One measured pass over every row: wall seconds, CPU seconds of the computing processes, cells computed. */
interface Pass {
  readonly wallS: number;
  readonly cpuS: number;
  readonly cells: number;
  readonly split?: CpuSplit;
}

/** One pass over every row of the dataset through `compute`, every row queued at once. */
async function onePass(compute: PlannedCompute, rows: number): Promise<{ wallS: number; cells: number }> {
  const t0 = performance.now();
  const values = await Promise.all(Array.from({ length: rows }, (_, r) => compute.precomputeRow(DATASET, r)));
  return { wallS: (performance.now() - t0) / 1e3, cells: values.reduce((n, v) => n + v.cellsComputed, 0) };
}

/** A full pass: kernels loaded, the dataset open and the code compiled in every thread and process. */
async function warmUp(compute: PlannedCompute, rows: number): Promise<void> {
  await Promise.all(Array.from({ length: rows }, (_, r) => compute.precomputeRow(DATASET, r)));
}

/** The median pass (each figure taken separately) of `passes`. */
function medianPass(passes: readonly Pass[]): Pass {
  const m = (f: (p: Pass) => number) => median(passes.map(f));
  const split = passes[0]!.split
    ? { apiNode: m((p) => p.split!.apiNode), nats: m((p) => p.split!.nats), workers: m((p) => p.split!.workers) }
    : undefined;
  return { wallS: m((p) => p.wallS), cpuS: m((p) => p.cpuS), cells: passes[0]!.cells, ...(split ? { split } : {}) };
}

/** Milliseconds of `a` and of `b` run in `n` pairs, `a` first in each. */
async function timePairs(n: number, a: () => Promise<unknown>, b: () => Promise<unknown>): Promise<{ a: number[]; b: number[] }> {
  const out = { a: [] as number[], b: [] as number[] };
  for (let i = 0; i < n; i++) {
    let t0 = performance.now();
    await a();
    out.a.push(performance.now() - t0);
    t0 = performance.now();
    await b();
    out.b.push(performance.now() - t0);
  }
  return out;
}

/** Medians of both sides of paired runs, and the median and quartiles of the pairs' differences (b − a). */
function pairedFigures(runs: { a: number[]; b: number[] }) {
  const diffs = runs.a.map((a, i) => runs.b[i]! - a);
  const round = (v: number) => Number(v.toFixed(2));
  return {
    local: round(median(runs.a)), nats: round(median(runs.b)),
    added: round(median(diffs)), added_q1: round(percentile(diffs, 0.25)), added_q3: round(percentile(diffs, 0.75)),
  };
}

/** Worker counts to measure (`BENCH_CLUSTER_WORKERS`, ascending, 2 always among them for the query pairs). */
function workerCounts(): number[] {
  const asked = (process.env.BENCH_CLUSTER_WORKERS ?? '1,2').split(',').map(Number).filter((n) => Number.isInteger(n) && n > 0);
  return [...new Set([...asked, 2])].sort((a, b) => a - b);
}

const ms = (s: number) => Number((s * 1e3).toFixed(2));

/** Runs the cluster benchmark. */
export async function run(): Promise<BenchResult> {
  const dataDir = join(PROJECT_ROOT, 'data', 'bench');
  try {
    await access(join(dataDir, DATASET, MANIFEST_FILE));
  } catch {
    console.log('Generating the 1 m benchmark block and its aggregates (once)…');
    await generatePreset({ preset: 'bench', outDir: dataDir, seed: 1 });
  }
  const ds = await computeDataset(dataDir, DATASET);
  const rows = Math.ceil(ds.reader.grid.ny / ds.reader.chunk.rows);
  const hours = ds.reader.hours;
  const [lon, lat] = lambert72ToWgs84((BENCH_RECT.xmin + BENCH_RECT.xmax) / 2, (BENCH_RECT.ymin + BENCH_RECT.ymax) / 2);
  const pointQuery = { dataset: DATASET, lat: roundCoord(lat), lon: roundCoord(lon) };
  const radiusQuery = { ...pointQuery, radius_m: 50 };
  const loadBefore = loadavg().map((v) => Number(v.toFixed(2)));
  const counts = workerCounts();

  const throughput: Record<string, Pass> = {};
  for (const threads of [1, 2]) {
    const local = await createLocalCompute({ dataDir, threads });
    try {
      await warmUp(local, rows);
      const passes: Pass[] = [];
      for (let i = 0; i < PASSES; i++) {
        const cpu0 = cpuOf([process.pid]);
        const pass = await onePass(local, rows);
        passes.push({ ...pass, cpuS: cpuOf([process.pid]) - cpu0 });
      }
      throughput[`local pool, ${threads} thread${threads > 1 ? 's' : ''}`] = medianPass(passes);
    } finally {
      await local.close();
    }
  }

  const nats = await startBenchNats(LIMITS);
  const link = ClusterLink.start({ url: nats.url, name: 'bench-coordinator', ...LIMITS });
  await link.ready();
  const queue = new NatsTaskQueue({ link, defaultTimeoutMs: 600_000 });
  const workers: ChildProcess[] = [];
  const pids = () => workers.map((w) => w.pid!);
  let local: PlannedCompute | undefined;
  let point: ReturnType<typeof pairedFigures>;
  let radius50: ReturnType<typeof pairedFigures>;
  let radiusCpu: CpuSplit;
  try {
    for (const n of counts) {
      while (workers.length < n) workers.push(await startWorker(nats.url, dataDir, LIMITS.ackWaitMs));
      const compute = createNatsCompute({ queue, dataDir, split: n });
      await warmUp(compute, rows);
      const passes: Pass[] = [];
      for (let i = 0; i < PASSES; i++) {
        let pass = { wallS: 0, cells: 0 };
        const split = await cpuSplit(nats.pid, pids(), async () => { pass = await onePass(compute, rows); });
        passes.push({ ...pass, cpuS: split.workers, split });
      }
      throughput[`${n} worker process${n > 1 ? 'es' : ''} (--threads 1)`] = medianPass(passes);
    }
    while (workers.length > 2) await stopWorker(workers.pop()!);
    const two = createNatsCompute({ queue, dataDir, split: 2 });
    for (const query of [pointQuery, radiusQuery, pointQuery, radiusQuery]) await two.computeStats(query);
    // Before this process starts a local pool: an API node of a cluster computes nothing itself.
    radiusCpu = await cpuSplit(nats.pid, pids(), async () => {
      for (let i = 0; i < RADIUS_CPU_QUERIES; i++) await two.computeStats(radiusQuery);
    });
    local = await createLocalCompute({ dataDir, threads: 2 });
    for (const query of [pointQuery, radiusQuery, pointQuery, radiusQuery]) await local.computeStats(query);
    const pool = local;
    point = pairedFigures(await timePairs(POINT_PAIRS, () => pool.computeStats(pointQuery), () => two.computeStats(pointQuery)));
    radius50 = pairedFigures(await timePairs(RADIUS_PAIRS, () => pool.computeStats(radiusQuery), () => two.computeStats(radiusQuery)));
  } finally {
    for (const w of workers) await stopWorker(w);
    queue.close();
    await link.close();
    await nats.stop();
    await local?.close();
  }
  const loadAfter = loadavg().map((v) => Number(v.toFixed(2)));

  const names = Object.keys(throughput);
  const rate = (t: Pass) => (t.cells * hours) / t.wallS;
  const perCpu = (t: Pass) => (t.cpuS > 0 ? Number(((t.cells * hours) / t.cpuS / 1e6).toFixed(1)) : '');
  const single = throughput[names.find((k) => k.startsWith('1 worker'))!]!;
  const perTask = (t: Pass): CpuSplit => ({ apiNode: t.split!.apiNode / rows, nats: t.split!.nats / rows, workers: t.split!.workers / rows });
  const clusterNames = names.filter((k) => throughput[k]!.split);
  const taskCpu = perTask(single);
  const taskCeiling = scalingCeiling(taskCpu);
  const queryCpu: CpuSplit = { apiNode: radiusCpu!.apiNode / RADIUS_CPU_QUERIES, nats: radiusCpu!.nats / RADIUS_CPU_QUERIES, workers: radiusCpu!.workers / RADIUS_CPU_QUERIES };
  const queryCeiling = scalingCeiling(queryCpu);
  const pct = (v: number) => Number(((v / radius50!.local) * 100).toFixed(1));
  const cores = availableParallelism();
  const figures = {
    cores,
    cells: single.cells,
    chunk_rows: rows,
    precompute_mcell_hours_per_s: Object.fromEntries(names.map((k) => [k, Number((rate(throughput[k]!) / 1e6).toFixed(1))])),
    precompute_mcell_hours_per_cpu_s: Object.fromEntries(names.map((k) => [k, perCpu(throughput[k]!)])),
    /** Wall-time speed-up of n workers over 1 worker, per configuration. */
    workers_speedup: Object.fromEntries(clusterNames.map((k) => [k, Number((single.wallS / throughput[k]!.wallS).toFixed(2))])),
    precompute_task_cpu_ms: { api_node: ms(taskCpu.apiNode), nats_server: ms(taskCpu.nats), worker: ms(taskCpu.workers) },
    precompute_scaling_ceiling: Math.floor(taskCeiling.ceiling),
    precompute_ceiling_by: { api_node: Math.floor(taskCeiling.apiNode), nats_server: Math.floor(taskCeiling.nats) },
    radius50_query_cpu_ms: { api_node: ms(queryCpu.apiNode), nats_server: ms(queryCpu.nats), workers: ms(queryCpu.workers) },
    radius50_scaling_ceiling: Math.floor(queryCeiling.ceiling),
    radius50_ceiling_by: { api_node: Math.floor(queryCeiling.apiNode), nats_server: Math.floor(queryCeiling.nats) },
    cold_point_ms: { local: point!.local, nats: point!.nats, pairs: POINT_PAIRS },
    cold_radius50_ms: { local: radius50!.local, nats: radius50!.nats, pairs: RADIUS_PAIRS },
    nats_added_point_ms: point!.added,
    nats_added_point_ms_quartiles: [point!.added_q1, point!.added_q3],
    nats_added_radius50_pct: pct(radius50!.added),
    nats_added_radius50_pct_quartiles: [pct(radius50!.added_q1), pct(radius50!.added_q3)],
    load_average_before: loadBefore,
    load_average_after: loadAfter,
  };
  const row = (k: string) => ({
    case: `precompute: ${k}`, 'wall s': Number(throughput[k]!.wallS.toFixed(2)),
    'M cell-hours/s': Number((rate(throughput[k]!) / 1e6).toFixed(1)), 'M cell-hours/CPU-s': perCpu(throughput[k]!),
    'speed-up': figures.workers_speedup[k] ?? '',
  });
  return {
    name: 'cluster',
    title: `Compute over NATS JetStream against the local pool (${DATASET}, ${figures.cells} cells, ${rows} chunk rows, ${cores} cores)`,
    columns: ['case', 'wall s', 'M cell-hours/s', 'M cell-hours/CPU-s', 'speed-up'],
    rows: names.map(row),
    notes: [
      `CPU per precompute task (a chunk row): API node ${figures.precompute_task_cpu_ms.api_node} ms, nats-server ` +
        `${figures.precompute_task_cpu_ms.nats_server} ms, worker ${figures.precompute_task_cpu_ms.worker} ms -> scaling ceiling ` +
        `${figures.precompute_scaling_ceiling} workers (target >= ${TARGET_CEILING}).`,
      `CPU per cold 50 m radius query (2 accumulate tasks + finalize): API node ${figures.radius50_query_cpu_ms.api_node} ms, ` +
        `nats-server ${figures.radius50_query_cpu_ms.nats_server} ms, workers ${figures.radius50_query_cpu_ms.workers} ms -> ` +
        `scaling ceiling ${figures.radius50_scaling_ceiling} workers (target >= ${TARGET_CEILING}).`,
      `Cold point: local ${point!.local} ms, NATS ${point!.nats} ms (adds ${point!.added} ms, quartiles ` +
        `${figures.nats_added_point_ms_quartiles.join('–')}); cold 50 m radius: local ${radius50!.local} ms, NATS ` +
        `${radius50!.nats} ms (adds ${figures.nats_added_radius50_pct} %, quartiles ${figures.nats_added_radius50_pct_quartiles.join('–')} %).`,
      `Load average (1, 5, 15 min) before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}; ${cores} cores.`,
    ],
    figures,
  };
}

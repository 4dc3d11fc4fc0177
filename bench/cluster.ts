/**
 * `npm run bench -- cluster`: the compute cluster on NATS JetStream against the local pool, on one machine, in one run
 * (a local nats-server with JetStream, `svc worker` child processes with `--threads 1` each; the 1 m benchmark block of
 * data/bench, generated when missing, shared with the query benchmark).
 *
 * - precompute throughput: every chunk row of bench_1m as `precompute-row` tasks, in cell-hours per wall second: a
 *   local pool of 1 and of 2 threads, 1 worker process, 2 worker processes (median of 5 passes after a warm-up pass);
 * - per-task overhead: a cold point and a cold 50 m radius query (nothing cached by the service; the statistics
 *   computed from the chunks) through the local pool of 2 threads and through the NATS facade with 2 workers, split
 *   into as many accumulate tasks as there are threads on both sides.
 * The machine has 2 cores shared with other work: the load average before and after is recorded with the figures,
 * and CPU seconds of the computing processes (this one for the local pool, the workers' from /proc) beside wall time.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { access } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { createNatsCompute } from '../src/cluster/nats-compute.js';
import { ClusterLink } from '../src/cluster/nats-connection.js';
import { NatsTaskQueue } from '../src/cluster/task-queue.js';
import { computeDataset } from '../src/compute/dataset-cache.js';
import { createLocalCompute } from '../src/compute/local-compute.js';
import type { PlannedCompute } from '../src/compute/planned-compute.js';
import { lambert72ToWgs84 } from '../src/geo/crs.js';
import { roundCoord } from '../src/geo/round.js';
import { generatePreset } from '../src/model/generate.js';
import { BENCH_RECT } from '../src/model/presets.js';
import { MANIFEST_FILE } from '../src/store/chunk-manifest.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import type { BenchResult } from './registry.js';
import { startBenchNats } from './loopback-nats.js';
import { median } from './timing.js';

const DATASET = 'bench_1m';
const LIMITS = { ackWaitMs: 30_000, maxDeliver: 3 };
/** Targets: 2 workers ≥ 1.8 × 1 worker; NATS adds ≤ 10 % to a cold 50 m radius query and ≤ 2 ms to a cold point. */
const TARGET_SCALING = 1.8;

/** Starts `svc worker --threads 1`; resolves once it is connected to NATS. */
async function startWorker(url: string, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'svc.js'), 'worker', '--nats', url, '--data', dataDir, '--threads', '1'], {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, SVC_NATS_ACK_WAIT_MS: String(LIMITS.ackWaitMs) },
  });
  await new Promise<void>((resolve, reject) => {
    let seen = '';
    child.stderr!.on('data', (d: Buffer) => {
      seen += d.toString();
      if (seen.includes('"msg":"connected to NATS"')) resolve();
    });
    child.once('exit', (code) => reject(new Error(`svc worker exited (${code}): ${seen}`)));
  });
  return child;
}

async function stopWorker(child: ChildProcess): Promise<void> {
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** CPU seconds used so far by the processes `pids` (user + system, from /proc; 0 where it is not readable). */
function cpuOf(pids: readonly number[]): number {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // Not on Linux: CPU figures of workers stay 0.
    }
  }
  return ticks / 100;
}

/** Passes over every row; the median pass is reported. */
const PASSES = 5;

/**
 * Wall seconds (median of PASSES) and cells of a pass over every row of the dataset through `compute`, each pass
 * queuing every row at once, after a warm-up pass over `warm` rows (kernels loaded, dataset open in every thread).
 */
async function allRows(compute: PlannedCompute, rows: number, warm: number, pids: readonly number[] = [process.pid]): Promise<Pass> {
  await Promise.all(Array.from({ length: warm }, (_, r) => compute.precomputeRow(DATASET, r % rows)));
  const walls: number[] = [];
  const cpus: number[] = [];
  let cells = 0;
  for (let pass = 0; pass < PASSES; pass++) {
    const cpu0 = cpuOf(pids);
    const t0 = performance.now();
    const values = await Promise.all(Array.from({ length: rows }, (_, r) => compute.precomputeRow(DATASET, r)));
    walls.push((performance.now() - t0) / 1e3);
    cpus.push(cpuOf(pids) - cpu0);
    cells = values.reduce((n, v) => n + v.cellsComputed, 0);
  }
  return { wallS: median(walls), cpuS: median(cpus), cells };
}

/** One measured configuration: median wall and CPU seconds of a pass (CPU of the computing processes). */
interface Pass {
  readonly wallS: number;
  readonly cpuS: number;
  readonly cells: number;
}

async function timeRuns(n: number, fn: () => Promise<unknown>): Promise<number> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return median(out);
}

/** Runs the cluster benchmark. */
export async function run(): Promise<BenchResult> {
  const dataDir = join(PROJECT_ROOT, 'data', 'bench');
  try {
    await access(join(dataDir, DATASET, MANIFEST_FILE));
  } catch {
    console.log('Generating the 1 m benchmark block (once)…');
    await generatePreset({ preset: 'bench', outDir: dataDir, seed: 1 });
  }
  const ds = await computeDataset(dataDir, DATASET);
  const rows = Math.ceil(ds.reader.grid.ny / ds.reader.chunk.rows);
  const hours = ds.reader.hours;
  const [lon, lat] = lambert72ToWgs84((BENCH_RECT.xmin + BENCH_RECT.xmax) / 2, (BENCH_RECT.ymin + BENCH_RECT.ymax) / 2);
  const point = { dataset: DATASET, lat: roundCoord(lat), lon: roundCoord(lon) };
  const radius = { ...point, radius_m: 50 };
  const loadBefore = loadavg().map((v) => Number(v.toFixed(2)));

  const throughput: Record<string, Pass> = {};
  const query: Record<string, { point: number; radius: number }> = {};
  for (const threads of [1, 2]) {
    const local = await createLocalCompute({ dataDir, threads });
    try {
      throughput[`local pool, ${threads} thread${threads > 1 ? 's' : ''}`] = await allRows(local, rows, threads);
      if (threads === 2) {
        await Promise.all([local.computeStats(point), local.computeStats(radius)]);
        query.local = { point: await timeRuns(41, () => local.computeStats(point)), radius: await timeRuns(9, () => local.computeStats(radius)) };
      }
    } finally {
      await local.close();
    }
  }

  const nats = await startBenchNats(LIMITS);
  const link = ClusterLink.start({ url: nats.url, name: 'bench-coordinator', ...LIMITS });
  await link.ready();
  const queue = new NatsTaskQueue({ link, defaultTimeoutMs: 600_000 });
  const workers: ChildProcess[] = [];
  try {
    for (const n of [1, 2]) {
      while (workers.length < n) workers.push(await startWorker(nats.url, dataDir));
      const cluster = createNatsCompute({ queue, dataDir, split: n });
      const pids = workers.map((w) => w.pid!);
      throughput[`${n} worker process${n > 1 ? 'es' : ''} (--threads 1)`] = await allRows(cluster, rows, n * 2, pids);
      if (n === 2) {
        await Promise.all([cluster.computeStats(point), cluster.computeStats(radius), cluster.computeStats(radius)]);
        query.nats = { point: await timeRuns(41, () => cluster.computeStats(point)), radius: await timeRuns(9, () => cluster.computeStats(radius)) };
      }
    }
  } finally {
    for (const w of workers) await stopWorker(w);
    queue.close();
    await link.close();
    await nats.stop();
  }
  const loadAfter = loadavg().map((v) => Number(v.toFixed(2)));

  const rate = (t: Pass) => (t.cells * hours) / t.wallS;
  const perCpu = (t: Pass) => (t.cpuS > 0 ? Number(((t.cells * hours) / t.cpuS / 1e6).toFixed(1)) : '');
  const names = Object.keys(throughput);
  const one = rate(throughput[names[2]!]!);
  const two = rate(throughput[names[3]!]!);
  const figures = {
    cells: throughput[names[0]!]!.cells,
    chunk_rows: rows,
    precompute_mcell_hours_per_s: Object.fromEntries(names.map((k) => [k, Number((rate(throughput[k]!) / 1e6).toFixed(1))])),
    precompute_mcell_hours_per_cpu_s: Object.fromEntries(names.map((k) => [k, perCpu(throughput[k]!)])),
    two_workers_vs_one: Number((two / one).toFixed(2)),
    cold_point_ms: { local: Number(query.local!.point.toFixed(1)), nats: Number(query.nats!.point.toFixed(1)) },
    cold_radius50_ms: { local: Number(query.local!.radius.toFixed(1)), nats: Number(query.nats!.radius.toFixed(1)) },
    nats_added_point_ms: Number((query.nats!.point - query.local!.point).toFixed(1)),
    nats_added_radius50_pct: Number((((query.nats!.radius - query.local!.radius) / query.local!.radius) * 100).toFixed(1)),
    load_average_before: loadBefore,
    load_average_after: loadAfter,
  };
  return {
    name: 'cluster',
    title: `Compute over NATS JetStream against the local pool (${DATASET}, ${figures.cells} cells, ${rows} chunk rows)`,
    columns: ['case', 'wall s', 'M cell-hours/s', 'M cell-hours/CPU-s', 'cold point ms', 'cold 50 m ms'],
    rows: [
      ...names.map((k) => ({
        case: `precompute: ${k}`, 'wall s': Number(throughput[k]!.wallS.toFixed(2)),
        'M cell-hours/s': Number((rate(throughput[k]!) / 1e6).toFixed(1)), 'M cell-hours/CPU-s': perCpu(throughput[k]!),
        'cold point ms': '', 'cold 50 m ms': '',
      })),
      { case: 'queries: local pool, 2 threads', 'wall s': '', 'M cell-hours/s': '', 'M cell-hours/CPU-s': '', 'cold point ms': figures.cold_point_ms.local, 'cold 50 m ms': figures.cold_radius50_ms.local },
      { case: 'queries: NATS, 2 workers × 1 thread', 'wall s': '', 'M cell-hours/s': '', 'M cell-hours/CPU-s': '', 'cold point ms': figures.cold_point_ms.nats, 'cold 50 m ms': figures.cold_radius50_ms.nats },
    ],
    notes: [
      `2 workers vs 1: ${figures.two_workers_vs_one}× (target ≥ ${TARGET_SCALING}×).`,
      `NATS adds ${figures.nats_added_point_ms} ms to a cold point (target ≤ 2 ms) and ${figures.nats_added_radius50_pct} % to a cold 50 m radius (target ≤ 10 %).`,
      `Load average (1, 5, 15 min) before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}: the 2 cores are shared, so scaling is bounded by what other processes leave.`,
    ],
    figures,
  };
}

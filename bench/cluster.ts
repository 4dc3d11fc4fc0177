/**
 * `npm run bench -- cluster`: the compute cluster on NATS JetStream against the local pool, on one machine, in one run
 * (a local nats-server with JetStream, `svc worker` child processes with `--threads 1` each; the 1 m benchmark block of
 * data/bench, generated when missing, shared with the query benchmark).
 *
 * - precompute throughput: every chunk row of bench_1m as `precompute-row` tasks, in cell-hours per wall second: a
 *   local pool of 1 and of 2 threads, then 1 worker process and 2 worker processes in alternating rounds (the second
 *   worker started and stopped each round), so a burst of load from elsewhere falls on both sides of the ratio;
 * - per-task overhead: a cold point and a cold 50 m radius query (nothing cached by the service; the statistics
 *   computed from the chunks) through the local pool of 2 threads and through the NATS facade with 2 workers, split
 *   into as many accumulate tasks as there are threads on both sides. The two run in pairs, local then NATS, and the
 *   overhead is the median of the pairs' differences (with its quartiles), so drift of the shared machine cancels.
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
import { median, percentile } from './timing.js';

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

/** Passes over every row per configuration; the median pass is reported. */
const PASSES = 5;
/** Pairs of cold queries (local, then NATS) for a point and for a 50 m radius. */
const POINT_PAIRS = 101;
const RADIUS_PAIRS = 15;

/** One pass over every row of the dataset through `compute`, every row queued at once. */
async function onePass(compute: PlannedCompute, rows: number, pids: readonly number[]): Promise<Pass> {
  const cpu0 = cpuOf(pids);
  const t0 = performance.now();
  const values = await Promise.all(Array.from({ length: rows }, (_, r) => compute.precomputeRow(DATASET, r)));
  return { wallS: (performance.now() - t0) / 1e3, cpuS: cpuOf(pids) - cpu0, cells: values.reduce((n, v) => n + v.cellsComputed, 0) };
}

/**
 * A warm-up over `warm` rows (rows repeat): kernels loaded, the dataset open and the code compiled in every thread and
 * process. A full pass at least: a worker measured after a few rows only is still slower per task, which inflates the
 * speed-up of the configuration measured after it.
 */
async function warmUp(compute: PlannedCompute, rows: number, warm: number): Promise<void> {
  await Promise.all(Array.from({ length: warm }, (_, r) => compute.precomputeRow(DATASET, r % rows)));
}

/** The median pass (wall and CPU seconds taken separately) of `passes`. */
function medianPass(passes: readonly Pass[]): Pass {
  return { wallS: median(passes.map((p) => p.wallS)), cpuS: median(passes.map((p) => p.cpuS)), cells: passes[0]!.cells };
}

/** One measured configuration: wall and CPU seconds of a pass (CPU of the computing processes). */
interface Pass {
  readonly wallS: number;
  readonly cpuS: number;
  readonly cells: number;
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
  const pointQuery = { dataset: DATASET, lat: roundCoord(lat), lon: roundCoord(lon) };
  const radiusQuery = { ...pointQuery, radius_m: 50 };
  const loadBefore = loadavg().map((v) => Number(v.toFixed(2)));

  const throughput: Record<string, Pass> = {};
  const local1 = await createLocalCompute({ dataDir, threads: 1 });
  try {
    await warmUp(local1, rows, rows);
    const passes: Pass[] = [];
    for (let i = 0; i < PASSES; i++) passes.push(await onePass(local1, rows, [process.pid]));
    throughput['local pool, 1 thread'] = medianPass(passes);
  } finally {
    await local1.close();
  }
  const local = await createLocalCompute({ dataDir, threads: 2 });
  const nats = await startBenchNats(LIMITS);
  const link = ClusterLink.start({ url: nats.url, name: 'bench-coordinator', ...LIMITS });
  await link.ready();
  const queue = new NatsTaskQueue({ link, defaultTimeoutMs: 600_000 });
  const first = await startWorker(nats.url, dataDir);
  let second: ChildProcess | undefined;
  let point: ReturnType<typeof pairedFigures>;
  let radius50: ReturnType<typeof pairedFigures>;
  const ratios: number[] = [];
  try {
    await warmUp(local, rows, rows);
    const passes: Pass[] = [];
    for (let i = 0; i < PASSES; i++) passes.push(await onePass(local, rows, [process.pid]));
    throughput['local pool, 2 threads'] = medianPass(passes);

    // 1 worker and 2 workers in alternating rounds: the second worker is started and stopped each round.
    const one = createNatsCompute({ queue, dataDir, split: 1 });
    const two = createNatsCompute({ queue, dataDir, split: 2 });
    await warmUp(one, rows, 2 * rows);
    const onePasses: Pass[] = [];
    const twoPasses: Pass[] = [];
    for (let round = 0; round < PASSES; round++) {
      onePasses.push(await onePass(one, rows, [first.pid!]));
      second = await startWorker(nats.url, dataDir);
      await warmUp(two, rows, rows);
      twoPasses.push(await onePass(two, rows, [first.pid!, second.pid!]));
      ratios.push(onePasses[round]!.wallS / twoPasses[round]!.wallS);
      if (round < PASSES - 1) {
        await stopWorker(second);
        second = undefined;
      }
    }
    throughput['1 worker process (--threads 1)'] = medianPass(onePasses);
    throughput['2 worker processes (--threads 1)'] = medianPass(twoPasses);

    // Cold queries in pairs, local pool then NATS with 2 workers.
    for (const query of [pointQuery, radiusQuery, pointQuery, radiusQuery]) await Promise.all([local.computeStats(query), two.computeStats(query)]);
    point = pairedFigures(await timePairs(POINT_PAIRS, () => local.computeStats(pointQuery), () => two.computeStats(pointQuery)));
    radius50 = pairedFigures(await timePairs(RADIUS_PAIRS, () => local.computeStats(radiusQuery), () => two.computeStats(radiusQuery)));
  } finally {
    if (second) await stopWorker(second);
    await stopWorker(first);
    queue.close();
    await link.close();
    await nats.stop();
    await local.close();
  }
  const loadAfter = loadavg().map((v) => Number(v.toFixed(2)));

  const rate = (t: Pass) => (t.cells * hours) / t.wallS;
  const perCpu = (t: Pass) => (t.cpuS > 0 ? Number(((t.cells * hours) / t.cpuS / 1e6).toFixed(1)) : '');
  const names = Object.keys(throughput);
  const pct = (ms: number) => Number(((ms / radius50!.local) * 100).toFixed(1));
  const figures = {
    cells: throughput[names[0]!]!.cells,
    chunk_rows: rows,
    precompute_mcell_hours_per_s: Object.fromEntries(names.map((k) => [k, Number((rate(throughput[k]!) / 1e6).toFixed(1))])),
    precompute_mcell_hours_per_cpu_s: Object.fromEntries(names.map((k) => [k, perCpu(throughput[k]!)])),
    /** Median over the alternating rounds of (1-worker pass wall time / 2-worker pass wall time). */
    two_workers_vs_one: Number(median(ratios).toFixed(2)),
    two_workers_vs_one_rounds: ratios.map((r) => Number(r.toFixed(2))),
    cold_point_ms: { local: point!.local, nats: point!.nats, pairs: POINT_PAIRS },
    cold_radius50_ms: { local: radius50!.local, nats: radius50!.nats, pairs: RADIUS_PAIRS },
    /** Median of the paired differences (NATS − local), with their quartiles. */
    nats_added_point_ms: point!.added,
    nats_added_point_ms_quartiles: [point!.added_q1, point!.added_q3],
    nats_added_radius50_pct: pct(radius50!.added),
    nats_added_radius50_pct_quartiles: [pct(radius50!.added_q1), pct(radius50!.added_q3)],
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
      `2 workers vs 1 per round: ${figures.two_workers_vs_one_rounds.join(', ')}.`,
      `NATS adds ${figures.nats_added_point_ms} ms to a cold point (median of ${POINT_PAIRS} paired differences, quartiles ` +
        `${figures.nats_added_point_ms_quartiles.join('–')} ms; target ≤ 2 ms) and ${figures.nats_added_radius50_pct} % to a ` +
        `cold 50 m radius (${RADIUS_PAIRS} pairs, quartiles ${figures.nats_added_radius50_pct_quartiles.join('–')} %; target ≤ 10 %).`,
      `Load average (1, 5, 15 min) before ${loadBefore.join(' ')}, after ${loadAfter.join(' ')}: the 2 cores are shared, so scaling is bounded by what other processes leave.`,
    ],
    figures,
  };
}

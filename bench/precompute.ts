/**
 * `npm run bench -- precompute`: the whole-city precompute with the precompute kernel against the path it replaced
 * (the statistics kernel run cell by cell), in one run, in cell-hours per CPU-second (a cell-hour: one outdoor cell at
 * one hour, all six fields, 12 bytes of int16 decoded).
 *
 * - 10 m: brussels_extended of the demo preset, from BENCH_PRECOMPUTE_DATA (default data/demo; generated there when
 *   missing): every row on one thread with either path, the kernel path's stages (read, decode, kernel, publish), and
 *   `svc precompute` as the command runs it (pool of 2 threads, grid group and city references written) with either.
 * - 1 m: bench_1m of the bench preset, from BENCH_PRECOMPUTE_1M_DATA (default data/bench, shared with the query
 *   benchmark; generated when missing): the same on one thread, and every row through a pool of 2 threads (bench_1m
 *   answers no city, so there is no `svc precompute` for it).
 */
import { access } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { getCity } from '../src/cities/catalog.js';
import { openComputeDataset, type ComputeDataset } from '../src/compute/datasets/dataset-cache.js';
import { generatePreset } from '../src/model/generate.js';
import type { Preset } from '../src/model/presets.js';
import { MANIFEST_FILE } from '../src/store/chunk-manifest.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import {
  inThread, kernelStages, perCellDecode, poolRows, svcPrecompute, warmFiles, type PassResult, type PrecomputeMethod,
  type StageSplit,
} from './precompute-passes.js';
import type { BenchResult } from './registry.js';
import { median } from './timing.js';

/** Rounds of the kernel path on one thread (the per-cell path, 8× slower, runs once). */
const KERNEL_ROUNDS = 3;
const THREADS = 2;
/** Target: cell-hours per CPU-second of the whole precompute, decoding included. */
const TARGET = 30e6;

/** The data directory of a case: its environment variable, else the default under the project. */
function dataDir(variable: string, fallback: string): string {
  const raw = process.env[variable];
  return resolve(raw === undefined || raw === '' ? join(PROJECT_ROOT, fallback) : raw);
}

/** Opens `dataset` under `dir`, generating it from `preset` (seed 1) when it is missing. */
async function openOrGenerate(dir: string, dataset: string, preset: Preset): Promise<ComputeDataset> {
  try {
    await access(join(dir, dataset, MANIFEST_FILE));
  } catch {
    console.log(`Generating ${dataset} into ${dir} (once)…`);
    await generatePreset({ preset, outDir: dir, seed: 1, datasets: [dataset] });
  }
  // Blocking reads, as in a compute thread: the one-thread passes replay a compute thread's work on this thread.
  return openComputeDataset(dir, dataset, { syncReads: true });
}

const mch = (cells: number, hours: number, cpuS: number): number => (cells * hours) / cpuS / 1e6;
const r2 = (v: number): number => Math.round(v * 100) / 100;
const r1 = (v: number): number => Math.round(v * 10) / 10;

/** One table row. */
function row(dataset: string, path: string, where: string, p: PassResult, hours: number, split?: Record<string, number>) {
  return {
    dataset, path, where, cells: p.cells, 'M cell-hours': r1((p.cells * hours) / 1e6), 'wall s': r2(p.wallS),
    'CPU s': r2(p.cpuS), 'M cell-hours/CPU-s': r1(mch(p.cells, hours, p.cpuS)),
    'decode CPU s': split ? r2(split.decode) : '', 'kernel CPU s': split ? r2(split.kernel) : '',
  };
}

/** The one-thread passes of a dataset: the per-cell path once, the kernel path (and its stages) KERNEL_ROUNDS times. */
async function oneThread(ds: ComputeDataset) {
  warmFiles(ds);
  const kernelRuns: PassResult[] = [];
  const stageRuns: StageSplit[] = [];
  for (let i = 0; i <= KERNEL_ROUNDS; i++) {
    const run = await inThread(ds, 'kernel');
    const stages = await kernelStages(ds);
    if (i === 0) continue; // warm-up: kernels instantiated and tiered up
    kernelRuns.push(run);
    stageRuns.push(stages);
  }
  const pick = <T>(runs: T[], by: (t: T) => number): T => runs.find((x) => by(x) === median(runs.map(by))) ?? runs[0];
  const kernel = pick(kernelRuns, (p) => p.cpuS);
  const stages = pick(stageRuns, (s) => s.read + s.decode + s.kernel + s.publish);
  const perCell = await inThread(ds, 'per-cell');
  const perCellDecodeS = await perCellDecode(ds);
  return { kernel, stages, perCell, perCellDecodeS };
}

export async function run(): Promise<BenchResult> {
  const city = getCity('brussels')!;
  const demoDir = dataDir('BENCH_PRECOMPUTE_DATA', 'data/demo');
  const oneMDir = dataDir('BENCH_PRECOMPUTE_1M_DATA', 'data/bench');
  const demo = await openOrGenerate(demoDir, city.dataset, 'demo');
  const oneM = await openOrGenerate(oneMDir, 'bench_1m', 'bench');
  const rows = [];
  const figures: Record<string, unknown> = {};
  const notes: string[] = [];
  for (const ds of [demo, oneM]) {
    const hours = ds.reader.hours;
    const t = await oneThread(ds);
    const decode = t.stages.read + t.stages.decode;
    const after = t.stages.kernel + t.stages.publish;
    rows.push(row(ds.id, 'per-cell', '1 thread', t.perCell, hours, { decode: t.perCellDecodeS, kernel: t.perCell.cpuS - t.perCellDecodeS }));
    rows.push(row(ds.id, 'kernel', '1 thread', t.kernel, hours, { decode, kernel: after }));
    const pool: [PrecomputeMethod, PassResult][] = ds === demo
      ? [['per-cell', await svcPrecompute(demoDir, city, 'per-cell', THREADS)], ['kernel', await svcPrecompute(demoDir, city, 'kernel', THREADS)]]
      : [['kernel', await poolRows(oneMDir, ds, 'kernel', THREADS)]];
    const where = ds === demo ? `svc precompute, ${THREADS} threads` : `pool rows, ${THREADS} threads`;
    for (const [method, p] of pool) rows.push(row(ds.id, method, where, p, hours));
    const cellHours = t.kernel.cells * hours;
    figures[ds.id] = {
      cells: t.kernel.cells, hours,
      one_thread: {
        per_cell_cell_hours_per_cpu_s: mch(t.perCell.cells, hours, t.perCell.cpuS),
        kernel_cell_hours_per_cpu_s: mch(t.kernel.cells, hours, t.kernel.cpuS),
        speedup: t.perCell.cpuS / t.kernel.cpuS,
        kernel_stages_cpu_s: t.stages,
        kernel_stages_cell_hours_per_cpu_s: Object.fromEntries(Object.entries(t.stages).map(([k, v]) => [k, cellHours / v])),
        per_cell_decode_cpu_s: t.perCellDecodeS,
      },
      pool: Object.fromEntries(pool.map(([method, p]) => [method, { ...p, where, cell_hours_per_cpu_s: mch(p.cells, hours, p.cpuS) }])),
    };
    const s = t.stages;
    const total = s.read + s.decode + s.kernel + s.publish;
    const pct = (v: number): string => `${Math.round((v / total) * 100)} %`;
    notes.push(
      `${ds.id}: kernel path on one thread ${r1(mch(t.kernel.cells, hours, t.kernel.cpuS))} M cell-hours/CPU-s against ` +
        `${r1(mch(t.perCell.cells, hours, t.perCell.cpuS))} M per cell (${r1(t.perCell.cpuS / t.kernel.cpuS)}×; target ` +
        `${TARGET / 1e6} M: ${mch(t.kernel.cells, hours, t.kernel.cpuS) * 1e6 >= TARGET ? 'met' : 'NOT met'}). Stages (CPU s): ` +
        `read ${r2(s.read)} (${pct(s.read)}), zstd + unshuffle ${r2(s.decode)} (${pct(s.decode)}), kernel ${r2(s.kernel)} ` +
        `(${pct(s.kernel)}, ${r1(cellHours / s.kernel / 1e6)} M cell-hours/s), publish ${r2(s.publish)} (${pct(s.publish)}).`,
    );
  }
  notes.push(
    'Cell-hours count outdoor cells only (the cells that get a result); a chunk is decoded whole when any of its cells ' +
      'is outdoor. "decode CPU s": per-cell path, a separate pass of `readChunk` over every chunk; kernel path, read + ' +
      'zstd + unshuffle of the staged replay. "kernel CPU s": the rest (per-cell: copying each cell out and the ' +
      'statistics kernel per cell; kernel path: the precompute kernel and publishing).',
  );
  return {
    name: 'precompute',
    title: 'Whole-city precompute: precompute kernel vs the statistics kernel per cell (CPU = this process, all threads)',
    columns: ['dataset', 'path', 'where', 'cells', 'M cell-hours', 'wall s', 'CPU s', 'M cell-hours/CPU-s', 'decode CPU s', 'kernel CPU s'],
    rows,
    notes,
    figures: { target_cell_hours_per_cpu_s: TARGET, ...figures },
  };
}

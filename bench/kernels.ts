/**
 * `npm run bench -- kernels`: phase-A throughput of the statistics kernel (fused air + wind + thermal `accumulate`) in
 * cell-hours per CPU-second, for the SIMD build, the scalar build, the TypeScript reference phase A and a C baseline
 * (bench/native/stats_kernel.c: the same algorithm with SSE4.1 intrinsics, compiled with the system `cc -O3`, no AVX),
 * against a memory-bandwidth ceiling (12 bytes per cell-hour: six int16 fields). Without a working C compiler the C
 * rows, the bandwidth ceiling and the C target are reported as not measured, and the cross-check claims only what ran. Data are realistic year chunks: all six fields, 64 cells × 8760
 * hours, fully selected. Variants run interleaved so they share the machine's conditions; each figure is the median over
 * rounds of CPU time (per core, robust to other processes on the machine). Phase B is timed separately.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { rawThresholds } from '../src/compute/kernel-thresholds.js';
import { loadStatsKernel, type StatsKernel } from '../src/compute/stats-kernel.js';
import { aggregateHours } from '../src/stats/aggregate.js';
import { buildCalendar } from '../src/stats/calendar.js';
import { computeStatistics } from '../src/stats/statistics.js';
import { cfDecodeReference } from '../src/store/cf-decode.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type HourlyField } from '../src/store/dataset-types.js';
import { PROJECT_ROOT } from '../src/util/paths.js';
import { kernelChunks, KERNEL_CHUNK, type FieldChunks } from './kernels-data.js';
import { crossCheckNote, cTarget, targetWord, type CrossCheck } from './kernels-claim.js';
import type { BenchResult } from './registry.js';

/** Distinct chunks per round, interleaved cycles, rounds per cycle (TypeScript: first cycles only), phase-B repeats. */
const CHUNKS = 4;
const CYCLES = 5;
const ROUNDS = { simd: 4, scalar: 1, ts: 1, c: 4 } as const;
const TS_CYCLES = 3;
const PHASE_B_RUNS = 31;
/** Targets: per-core SIMD throughput, SIMD over the TypeScript reference, C over SIMD at most. */
const TARGET = { simd: 250e6, simdOverTs: 10, cOverSimd: 1.6 } as const;
const BYTES_PER_CELL_HOUR = 12;

const median = (v: readonly number[]): number => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
/** CPU milliseconds of `run()` (user + system of this process). */
const cpuMs = (run: () => void): number => {
  const start = process.cpuUsage();
  run();
  const d = process.cpuUsage(start);
  return (d.user + d.system) / 1e3;
};
/** 64-bit polynomial checksum of 32-bit words, as the C program computes it. */
const checksum = (words: Uint32Array): string => {
  let sum = 0n;
  for (const w of words) sum = (sum * 31n + BigInt(w)) & 0xffff_ffff_ffff_ffffn;
  return sum.toString();
};

/** Per-chunk CPU milliseconds of one kernel round over every chunk (chunks copied into the views untimed). */
function kernelRound(kernel: StatsKernel, chunks: readonly FieldChunks[], mask: Uint8Array): number {
  let total = 0;
  for (const chunk of chunks) {
    for (const f of HOURLY_FIELDS) kernel.chunkView(f, KERNEL_CHUNK.cells).set(chunk[f]);
    total += cpuMs(() => kernel.addChunkViews(mask));
  }
  return total / chunks.length;
}

/** Per-chunk CPU milliseconds of the reference phase A over pre-decoded chunks. */
function referenceRound(decoded: readonly Record<HourlyField, Float32Array>[]): number {
  let total = 0;
  for (const fields of decoded) total += cpuMs(() => aggregateHours(fields, KERNEL_CHUNK.hours, KERNEL_CHUNK.cells));
  return total / decoded.length;
}

/** Compiles the C baseline when its binary is missing or older than the source; returns the binary or an error text. */
function nativeBinary(): { bin?: string; error?: string } {
  const src = join(PROJECT_ROOT, 'bench', 'native', 'stats_kernel.c');
  const dir = join(PROJECT_ROOT, 'build', 'native');
  const bin = join(dir, 'stats_kernel');
  if (existsSync(bin) && statSync(bin).mtimeMs >= statSync(src).mtimeMs) return { bin };
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync('cc', ['-O3', '-msse4.1', '-mno-avx', '-std=c11', '-Wall', '-o', bin, src], { stdio: 'pipe' });
    return { bin };
  } catch (err) {
    return { error: `cc failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}` };
  }
}

/** The C program's input: header, thresholds, mask, then every chunk's six fields. */
function nativeInput(chunks: readonly FieldChunks[], mask: Uint8Array): Buffer {
  const head = new Int32Array(3 + 36);
  head.set([KERNEL_CHUNK.hours, KERNEL_CHUNK.cells, chunks.length]);
  head.set(rawThresholds(HOURLY_FIELDS, FIELD_ENCODINGS).table, 3);
  const padded = new Uint8Array((mask.length + 3) & ~3);
  padded.set(mask);
  const parts: Uint8Array[] = [new Uint8Array(head.buffer), padded];
  for (const chunk of chunks) for (const f of HOURLY_FIELDS) parts.push(new Uint8Array(chunk[f].buffer, chunk[f].byteOffset, chunk[f].byteLength));
  return Buffer.concat(parts);
}

interface NativeRun {
  readonly checksum: string;
  readonly cpu_ms_per_chunk: number[];
  readonly bandwidth_gb_s: number;
}

/** Runs the benchmark. */
export async function run(): Promise<BenchResult & Record<string, unknown>> {
  const chunks = kernelChunks(CHUNKS, 20_230_101);
  const mask = new Uint8Array(KERNEL_CHUNK.cells).fill(1);
  const calendar = buildCalendar(2023, KERNEL_CHUNK.hours, 'Europe/Brussels');
  const decoded = chunks.map((c) => Object.fromEntries(HOURLY_FIELDS.map((f) => [f, cfDecodeReference(c[f], FIELD_ENCODINGS[f])])) as Record<HourlyField, Float32Array>);
  const simd = await loadStatsKernel();
  const scalar = await loadStatsKernel({ simd: false });
  const notes: string[] = [];

  // Cross-check before timing: one chunk, fresh accumulators, SIMD = scalar = C.
  const records = (kernel: StatsKernel): string => {
    kernel.begin(KERNEL_CHUNK.hours, HOURLY_FIELDS, FIELD_ENCODINGS, calendar);
    kernel.addChunk(chunks[0], mask);
    return checksum(kernel.records());
  };
  const simdSum = records(simd);
  if (records(scalar) !== simdSum) throw new Error('SIMD and scalar kernels disagree on the benchmark chunk.');
  const native = nativeBinary();
  const dir = await mkdtemp(join(tmpdir(), 'bench-kernels-'));
  const input = join(dir, 'input.bin');
  await writeFile(input, nativeInput(chunks, mask));

  const samples = { simd: [] as number[], scalar: [] as number[], ts: [] as number[], c: [] as number[] };
  let cRuns = 0;
  let cUnavailable = native.error;
  const wall = { simd: [] as number[] };
  const bandwidth: number[] = [];
  try {
    for (const kernel of [simd, scalar]) kernel.begin(KERNEL_CHUNK.hours, HOURLY_FIELDS, FIELD_ENCODINGS, calendar);
    kernelRound(simd, chunks, mask);
    kernelRound(scalar, chunks, mask);
    referenceRound(decoded.slice(0, 1));
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      for (let r = 0; r < ROUNDS.simd; r++) {
        const t0 = performance.now();
        samples.simd.push(kernelRound(simd, chunks, mask));
        wall.simd.push((performance.now() - t0) / CHUNKS);
      }
      for (let r = 0; r < ROUNDS.scalar; r++) samples.scalar.push(kernelRound(scalar, chunks, mask));
      if (cycle < TS_CYCLES) for (let r = 0; r < ROUNDS.ts; r++) samples.ts.push(referenceRound(decoded));
      if (native.bin && cUnavailable === undefined) {
        let out: NativeRun;
        try {
          out = JSON.parse(execFileSync(native.bin, [input, String(ROUNDS.c)], { encoding: 'utf8' })) as NativeRun;
        } catch (err) {
          cUnavailable = `its binary failed: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`;
          continue;
        }
        if (out.checksum !== simdSum) throw new Error(`C baseline checksum ${out.checksum} differs from the kernel's ${simdSum}.`);
        cRuns++;
        samples.c.push(...out.cpu_ms_per_chunk);
        bandwidth.push(out.bandwidth_gb_s);
      }
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const check: CrossCheck = { checksum: simdSum, cRuns, ...(cUnavailable !== undefined ? { cUnavailable } : {}) };
  if (cUnavailable !== undefined) notes.push(`C baseline unavailable: ${cUnavailable}`);

  // Phase B over a year of accumulators from all chunks (256 cells).
  const phaseB = (kernel: StatsKernel): number => {
    kernel.begin(KERNEL_CHUNK.hours, HOURLY_FIELDS, FIELD_ENCODINGS, calendar);
    for (const chunk of chunks) kernel.addChunk(chunk, mask);
    for (let i = 0; i < 5; i++) kernel.finish();
    return median(Array.from({ length: PHASE_B_RUNS }, () => cpuMs(() => kernel.finish())));
  };
  const phaseBSimd = phaseB(simd);
  const phaseBScalar = phaseB(scalar);
  const aggregates = simd.aggregates();
  const phaseBTs = median(Array.from({ length: 11 }, () => cpuMs(() => computeStatistics(aggregates, calendar))));

  const cellHours = KERNEL_CHUNK.hours * KERNEL_CHUNK.cells;
  const rate = (ms: readonly number[]): number | null => (ms.length ? cellHours / (median(ms) / 1e3) : null);
  const perCore = {
    wasm_simd: rate(samples.simd),
    wasm_scalar: rate(samples.scalar),
    ts_reference: rate(samples.ts),
    c_baseline: rate(samples.c),
    bandwidth_ceiling: bandwidth.length ? (median(bandwidth) * 1e9) / BYTES_PER_CELL_HOUR : null,
  };
  const s = perCore.wasm_simd as number;
  const ratios = {
    simd_over_ts: perCore.ts_reference ? s / perCore.ts_reference : null,
    c_over_simd: perCore.c_baseline ? perCore.c_baseline / s : null,
    simd_over_scalar: perCore.wasm_scalar ? s / perCore.wasm_scalar : null,
  };
  const targets = {
    simd_at_least_250M: s >= TARGET.simd,
    simd_over_ts_at_least_10: ratios.simd_over_ts !== null && ratios.simd_over_ts >= TARGET.simdOverTs,
    c_over_simd_at_most_1_6: cTarget(check, ratios.c_over_simd !== null && ratios.c_over_simd <= TARGET.cOverSimd),
  };
  const m = (v: number | null): number | string => (v === null ? 'n/a' : Number((v / 1e6).toFixed(1)));
  const ms = (v: readonly number[]): number | string => (v.length ? Number(median(v).toFixed(3)) : 'n/a');
  const rows = [
    { variant: 'wasm_simd', 'M cell-h/s/core': m(perCore.wasm_simd), 'ms/chunk (CPU)': ms(samples.simd), samples: samples.simd.length },
    { variant: 'wasm_scalar', 'M cell-h/s/core': m(perCore.wasm_scalar), 'ms/chunk (CPU)': ms(samples.scalar), samples: samples.scalar.length },
    { variant: 'ts_reference', 'M cell-h/s/core': m(perCore.ts_reference), 'ms/chunk (CPU)': ms(samples.ts), samples: samples.ts.length },
    { variant: 'c_baseline', 'M cell-h/s/core': m(perCore.c_baseline), 'ms/chunk (CPU)': ms(samples.c), samples: samples.c.length },
    { variant: 'bandwidth_ceiling', 'M cell-h/s/core': m(perCore.bandwidth_ceiling), 'ms/chunk (CPU)': '', samples: bandwidth.length },
  ];
  notes.push(
    `Ratios: simd/ts ${ratios.simd_over_ts?.toFixed(1) ?? 'n/a'} (target ≥ ${TARGET.simdOverTs}), ` +
      `c/simd ${ratios.c_over_simd?.toFixed(2) ?? 'n/a'} (target ≤ ${TARGET.cOverSimd}), simd/scalar ${ratios.simd_over_scalar?.toFixed(1) ?? 'n/a'}.`,
    `Targets met: ${Object.entries(targets).map(([k, v]) => `${k} ${targetWord(v)}`).join(', ')}.`,
    `Wall clock, SIMD: ${m(rate(wall.simd))} M cell-h/s (shared machine; CPU time is the per-core figure).`,
    `Memory bandwidth ${bandwidth.length ? median(bandwidth).toFixed(1) : 'n/a'} GB/s (C, streaming 512 MiB), / ${BYTES_PER_CELL_HOUR} bytes per cell-hour.`,
    `Phase B (finish, full year, all blocks): SIMD build ${phaseBSimd.toFixed(2)} ms, scalar build ${phaseBScalar.toFixed(2)} ms, ` +
      `TypeScript reference ${phaseBTs.toFixed(2)} ms.`,
    'ts_reference is the reference phase A on already decoded float32 fields (the CF decode is not counted).',
    crossCheckNote(check),
  );
  return {
    name: 'kernels',
    title: `Statistics kernel phase A: ${CHUNKS} chunks of ${KERNEL_CHUNK.hours} h × ${KERNEL_CHUNK.cells} cells × 6 fields, ` +
      `median over interleaved rounds, cell-hours per CPU-second`,
    columns: ['variant', 'M cell-h/s/core', 'ms/chunk (CPU)', 'samples'],
    rows,
    notes,
    cell_hours_per_s_per_core: perCore,
    ratios,
    targets,
    cross_check: { simd_scalar: true, c_runs: cRuns, ...(cUnavailable !== undefined ? { c_unavailable: cUnavailable } : {}) },
    phase_b_ms: { wasm_simd: phaseBSimd, wasm_scalar: phaseBScalar, ts_reference: phaseBTs },
  };
}

/**
 * What a unit of work times, per kernel, on the same inputs for every variant: realistic year chunks (bench/kernels-data.ts,
 * 4 chunks of 64 cells × 8760 hours × 6 fields). `stats`: phase A over chunks already in memory; `precompute`: one
 * thread's work per chunk, decode included (zstd + unshuffle of every field, then the kernel); `decode`: zstd and the
 * unshuffle alone, fields alternating between the `shuffle` and `delta-shuffle` paths. CPU time is this process's.
 */
import { PrecomputeKernel } from '../../src/compute/kernels/precompute-kernel.js';
import { StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { buildCalendar } from '../../src/stats/calendar.js';
import type { DirectChunkCodec } from '../../src/store/codecs.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type HourlyField } from '../../src/store/dataset-types.js';
import { KERNEL_CHUNK, kernelChunks } from '../kernels-data.js';
import { encodeChunk, FRAME_LEVEL } from './chunk-frames.js';
import { asPrecompute, asStats, type LoadedModule } from './modules.js';
import type { KernelName } from './variant-spec.js';

/** Chunks per unit of work. */
const CHUNKS_PER_ROUND = 4;
/**
 * Phase A passes over each chunk per unit of work: one pass is about a millisecond; two keep each timed stretch
 * around 2 ms while a unit stays short enough for the runner to balance rounds against a slow contender.
 */
const STATS_PASSES = 2;

/** A kernel's timed work: `bind` makes a fresh instance of a module and returns one unit of work (CPU milliseconds). */
export interface Workload {
  readonly kernel: KernelName;
  /** Cell-hours one unit of work processes. */
  readonly cellHours: number;
  /** Bytes one cell-hour reads from memory (for the bandwidth ceiling); undefined where no ceiling applies. */
  readonly bytesPerCellHour?: number;
  readonly description: string;
  bind(module: LoadedModule): () => number;
}

/**
 * CPU milliseconds of this process. Not the thread clock: Linux reports a thread's own CPU time (RUSAGE_THREAD) only
 * to the scheduler tick (4 ms steps for a 1 ms stretch, measured), while the process clock brings the running thread's
 * time up to date and is exact to the microsecond. The process's other threads (V8's compiler and GC helpers) are
 * idle in the steady state the rounds measure.
 */
export const cpuNow = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e3;
};

/** The workload of `kernel`, its inputs generated once from a fixed seed. */
export function workload(kernel: KernelName): Workload {
  const { hours, cells } = KERNEL_CHUNK;
  const chunks = kernelChunks(CHUNKS_PER_ROUND, 20_230_101);
  const mask = new Uint8Array(cells).fill(1);
  const calendar = buildCalendar(2023, hours, 'Europe/Brussels');
  const cellHours = CHUNKS_PER_ROUND * hours * cells;
  if (kernel === 'stats') {
    return {
      kernel, cellHours: cellHours * STATS_PASSES, bytesPerCellHour: 12, description: 'phase A (accumulate) over chunks in memory',
      bind(module) {
        const k = new StatsKernel(asStats(module.instantiate()), module.name);
        k.begin(hours, HOURLY_FIELDS, FIELD_ENCODINGS, calendar);
        return () => {
          let cpu = 0;
          for (const chunk of chunks) {
            for (const f of HOURLY_FIELDS) k.chunkView(f, cells).set(chunk[f]);
            const t0 = cpuNow();
            for (let p = 0; p < STATS_PASSES; p++) k.addChunkViews(mask);
            cpu += cpuNow() - t0;
          }
          return cpu;
        };
      },
    };
  }
  const codecOf = (i: number): DirectChunkCodec => (kernel === 'decode' && i % 2 ? 'delta-shuffle' : 'shuffle');
  const frames = chunks.map((c) => HOURLY_FIELDS.map((f, i) => encodeChunk(c[f], codecOf(i))));
  return {
    kernel, cellHours,
    description: kernel === 'precompute'
      ? `one thread per chunk: zstd (level ${FRAME_LEVEL}, as the datasets) + unshuffle of six fields, then precompute_cells`
      : `zstd (level ${FRAME_LEVEL}) + unshuffle of six fields per chunk, shuffle and delta-shuffle paths`,
    bind(module) {
      // Decode times the interleaving too: its kernel never keeps a chunk as byte planes.
      const k = new PrecomputeKernel(asPrecompute(module.instantiate()), module.name, { planes: kernel === 'precompute' });
      k.begin(hours, HOURLY_FIELDS, FIELD_ENCODINGS, calendar);
      const fields: readonly HourlyField[] = HOURLY_FIELDS;
      return () => {
        const t0 = cpuNow();
        for (const chunkFrames of frames) {
          fields.forEach((f, i) => k.loadShuffledChunk(f, cells, chunkFrames[i]!, codecOf(i)));
          if (kernel === 'precompute') k.run(mask);
        }
        return cpuNow() - t0;
      };
    },
  };
}

/**
 * The statistics kernel's reference figures, measured after the interleaved A/B rounds (not paired with them, as the
 * benchmark before the workbench measured them): the TypeScript reference phase A on already decoded float32 fields
 * (decoding not counted), phase B (`finish`, a full year, all three blocks) of every built variant and of the
 * TypeScript reference, and the C baseline in a child process with the memory-bandwidth ceiling it measures. The C
 * program's checksum of the hour records must equal the release build's.
 */
import { StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { buildCalendar } from '../../src/stats/calendar.js';
import { computeStatistics } from '../../src/stats/statistics.js';
import { cfDecodeReference } from '../../src/store/cf-decode.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type HourlyField } from '../../src/store/dataset-types.js';
import { KERNEL_CHUNK, kernelChunks } from '../kernels-data.js';
import { asStats, type LoadedModule } from './modules.js';
import { recordsChecksum, runNative, type NativeOutcome } from './native-baseline.js';
import { WorkbenchRefusal } from './refusal.js';
import { cpuNow } from './workloads.js';
import { median } from './statistics.js';

/** Chunks (the workload's), TypeScript phase A rounds over all of them, C runs, phase B repeats. */
const CHUNKS = 4;
const TS_ROUNDS = 3;
const C_RUNS = 3;
const PHASE_B_RUNS = 31;
const PHASE_B_TS_RUNS = 11;

/** What the reference measurements found. */
export interface StatsReferences {
  /** TypeScript reference phase A, M cell-hours per CPU-second, one figure per chunk timed. */
  readonly tsRates: number[];
  /** Phase B CPU milliseconds (median) per variant, and `TypeScript reference`. */
  readonly phaseBMs: Record<string, number>;
  readonly native: NativeOutcome;
  /** Runs of the C program whose checksum was compared with the release build's (0 when it did not run). */
  readonly cRuns: number;
  /** Checksum of the release build's hour records on the first chunk (the C program's must equal it). */
  readonly checksum: string;
}

/** CPU milliseconds of `run()` (the process clock, exact where the thread clock has the tick's grain). */
function cpuMs(run: () => void): number {
  const t0 = cpuNow();
  run();
  return cpuNow() - t0;
}

/** Measures the reference figures; `modules` are the built variants by name (`release` among them). */
export function statsReferences(modules: ReadonlyMap<string, LoadedModule>): StatsReferences {
  const { hours, cells } = KERNEL_CHUNK;
  const chunks = kernelChunks(CHUNKS, 20_230_101);
  const mask = new Uint8Array(cells).fill(1);
  const calendar = buildCalendar(2023, hours, 'Europe/Brussels');
  const cellHours = hours * cells;

  const decoded = chunks.map((c) => Object.fromEntries(HOURLY_FIELDS.map((f) => [f, cfDecodeReference(c[f], FIELD_ENCODINGS[f])])) as Record<HourlyField, Float32Array>);
  aggregateHours(decoded[0]!, hours, cells);
  const tsRates: number[] = [];
  for (let r = 0; r < TS_ROUNDS; r++) {
    for (const fields of decoded) tsRates.push(cellHours / 1e6 / (Math.max(cpuMs(() => aggregateHours(fields, hours, cells)), 1e-3) / 1e3));
  }

  const phaseBMs: Record<string, number> = {};
  let checksum = '';
  let aggregates: ReturnType<StatsKernel['aggregates']> | undefined;
  for (const [name, module] of modules) {
    const k = new StatsKernel(asStats(module.instantiate()), name);
    if (name === 'release') {
      k.begin(hours, HOURLY_FIELDS, FIELD_ENCODINGS, calendar);
      k.addChunk(chunks[0]!, mask);
      checksum = recordsChecksum(k.records());
    }
    k.begin(hours, HOURLY_FIELDS, FIELD_ENCODINGS, calendar);
    for (const chunk of chunks) k.addChunk(chunk, mask);
    for (let i = 0; i < 5; i++) k.finish();
    phaseBMs[name] = median(Array.from({ length: PHASE_B_RUNS }, () => cpuMs(() => k.finish())));
    if (name === 'release') aggregates = k.aggregates();
  }
  if (aggregates === undefined) throw new RangeError('statsReferences needs the release module');
  const agg = aggregates;
  computeStatistics(agg, calendar);
  phaseBMs['TypeScript reference'] = median(Array.from({ length: PHASE_B_TS_RUNS }, () => cpuMs(() => computeStatistics(agg, calendar))));

  const native = runNative(chunks, mask, C_RUNS);
  if (native.checksum !== undefined && native.checksum !== checksum) {
    throw new WorkbenchRefusal(`C baseline checksum ${native.checksum} differs from the release build's ${checksum}.`);
  }
  return { tsRates, phaseBMs, native, cRuns: native.rates.length ? C_RUNS : 0, checksum };
}

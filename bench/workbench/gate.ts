/**
 * The correctness gate: before any timing, a variant's outputs are compared bit for bit with the release build's over
 * the gate set (gate-cases.ts). Statistics kernel: the per-hour records after phase A and the phase B results;
 * precompute: the whole result row of every cell; decode: the int16 chunk after each codec path. The first differing
 * word is named (field or figure, cell, hour) and the variant is refused with exit 2.
 */
import { HOUR_RECORD, RESULTS, AIR_RESULT, WIND_RESULT, THERMAL_RESULT } from '../../src/compute/kernels/kernel-layout.js';
import { PrecomputeKernel } from '../../src/compute/kernels/precompute-kernel.js';
import { CELL_ROW } from '../../src/compute/kernels/precompute-layout.js';
import { StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { buildCalendar, type Calendar } from '../../src/stats/calendar.js';
import type { DirectChunkCodec } from '../../src/store/codecs.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS } from '../../src/store/dataset-types.js';
import { KERNEL_CHUNK } from '../kernels-data.js';
import { encodeChunk } from './chunk-frames.js';
import { gateCases, type GateCase } from './gate-cases.js';
import { asPrecompute, asStats, type LoadedModule } from './modules.js';
import { WorkbenchRefusal } from './refusal.js';
import type { KernelName } from './variant-spec.js';

/** Name of the layout slot holding `offset`: the key with the largest value ≤ offset (`COUNT`/`BYTES` excluded). */
function slotName(layout: Readonly<Record<string, number>>, offset: number): string {
  let best = '';
  let at = -1;
  for (const [k, v] of Object.entries(layout)) {
    if (k === 'COUNT' || k === 'BYTES' || v > offset || v <= at) continue;
    best = k;
    at = v;
  }
  return offset === at ? best : `${best}+${offset - at}`;
}

/** Index of the first differing 32-bit word of two equal-length byte views, or −1. */
function firstDifference(a: ArrayBufferView, b: ArrayBufferView): number {
  const x = new Uint32Array(a.buffer, a.byteOffset, a.byteLength >> 2);
  const y = new Uint32Array(b.buffer, b.byteOffset, b.byteLength >> 2);
  for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return i;
  return a.byteLength === b.byteLength ? -1 : x.length;
}

/** Where an output of one case differs, as words for the refusal. */
type Outcome = string | undefined;

/** Statistics kernel: hour records (summed over cells, so no cell), then phase B results. */
function statsCase(make: (m: LoadedModule) => StatsKernel, ref: LoadedModule, v: LoadedModule, k: GateCase, cal: Calendar): Outcome {
  const run = (m: LoadedModule): { records: Uint32Array; results: Float64Array } => {
    const kernel = make(m);
    kernel.begin(KERNEL_CHUNK.hours, HOURLY_FIELDS, FIELD_ENCODINGS, cal);
    kernel.addChunk(k.fields, k.mask);
    const records = Uint32Array.from(kernel.records());
    kernel.finish();
    return { records, results: Float64Array.from(kernel.results()) };
  };
  const a = run(ref);
  const b = run(v);
  const w = firstDifference(a.records, b.records);
  if (w >= 0) {
    const byte = w * 4;
    return `hour record ${slotName(HOUR_RECORD, byte % HOUR_RECORD.BYTES)} (byte ${byte % HOUR_RECORD.BYTES}), all cells, hour ${Math.floor(byte / HOUR_RECORD.BYTES)}`;
  }
  const r = firstDifference(a.results, b.results);
  if (r < 0) return undefined;
  const slot = r >> 1;
  const [block, names] = slot >= RESULTS.THERMAL ? ['thermal', THERMAL_RESULT] : slot >= RESULTS.WIND ? ['wind', WIND_RESULT] : ['air', AIR_RESULT];
  const base = slot >= RESULTS.THERMAL ? RESULTS.THERMAL : slot >= RESULTS.WIND ? RESULTS.WIND : 0;
  return `phase B result ${block}.${slotName(names, slot - base)} (${a.results[slot]} vs ${b.results[slot]}), all cells, all hours`;
}

/**
 * Precompute kernel: the whole result row of every cell, the chunk written into the views and loaded from stored
 * frames (which a build that reads byte planes keeps as planes).
 */
function precomputeCase(ref: LoadedModule, v: LoadedModule, k: GateCase, cal: Calendar): Outcome {
  for (const load of ['views', 'frames'] as const) {
    const run = (m: LoadedModule): Float64Array => {
      const kernel = new PrecomputeKernel(asPrecompute(m.instantiate()), m.name);
      kernel.begin(KERNEL_CHUNK.hours, HOURLY_FIELDS, FIELD_ENCODINGS, cal);
      for (const f of HOURLY_FIELDS) {
        if (load === 'views') kernel.chunkView(f, k.cells).set(k.fields[f]);
        else kernel.loadShuffledChunk(f, k.cells, encodeChunk(k.fields[f], 'shuffle'), 'shuffle');
      }
      return Float64Array.from(kernel.run(k.mask));
    };
    const a = run(ref);
    const b = run(v);
    const w = firstDifference(a, b);
    if (w < 0) continue;
    const slot = w >> 1;
    const cell = Math.floor(slot / CELL_ROW.COUNT);
    return `figure ${slotName(CELL_ROW, slot % CELL_ROW.COUNT)} (${a[slot]} vs ${b[slot]}), cell ${cell}, all hours, chunk from ${load}`;
  }
  return undefined;
}

/** Decode: the chunk each codec path leaves in memory. */
function decodeCase(ref: LoadedModule, v: LoadedModule, k: GateCase, cal: Calendar): Outcome {
  for (const codec of ['shuffle', 'delta-shuffle'] as DirectChunkCodec[]) {
    for (const f of HOURLY_FIELDS) {
      const frame = encodeChunk(k.fields[f], codec);
      const run = (m: LoadedModule): Int16Array => {
        const kernel = new PrecomputeKernel(asPrecompute(m.instantiate()), m.name, { planes: false });
        kernel.begin(KERNEL_CHUNK.hours, [f], FIELD_ENCODINGS, cal);
        kernel.loadShuffledChunk(f, k.cells, frame, codec);
        return Int16Array.from(kernel.chunkView(f, k.cells));
      };
      const a = run(ref);
      const b = run(v);
      const i = a.findIndex((x, j) => x !== b[j]);
      if (i >= 0) return `${codec} ${f} (${a[i]} vs ${b[i]}), cell ${i % k.cells}, hour ${Math.floor(i / k.cells)}`;
    }
  }
  return undefined;
}

/**
 * Compares `variant` with `release` over the gate set for `kernel`; throws `WorkbenchRefusal` naming the case and the
 * first difference. Returns the number of cases compared.
 */
export function runGate(kernel: KernelName, release: LoadedModule, variant: LoadedModule): number {
  const cal = buildCalendar(2023, KERNEL_CHUNK.hours, 'Europe/Brussels');
  const stats = (m: LoadedModule): StatsKernel => new StatsKernel(asStats(m.instantiate()), m.name);
  const cases = gateCases();
  for (const k of cases) {
    const where = kernel === 'stats' ? statsCase(stats, release, variant, k, cal)
      : kernel === 'precompute' ? precomputeCase(release, variant, k, cal) : decodeCase(release, variant, k, cal);
    if (where !== undefined) {
      throw new WorkbenchRefusal(`Variant ${variant.name} refused by the ${kernel} gate: case "${k.name}" differs from release at ${where}.`);
    }
  }
  return cases.length;
}

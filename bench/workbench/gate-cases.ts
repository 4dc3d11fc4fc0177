/**
 * The gate set: chunks that reach the edges of the kernels' input space. Every case is a year of hourly int16 for all
 * six fields under the datasets' CF encodings, with its cell mask: all cells, a sparse and an odd mask, a cell count
 * that is not a multiple of any vector width, missing values (scattered, whole hours, a whole cell) and extreme values
 * (the int16 range and every raw threshold ± 1).
 */
import { rawThresholds } from '../../src/compute/kernels/kernel-thresholds.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type HourlyField } from '../../src/store/dataset-types.js';
import { createRandom } from '../../src/util/random.js';
import { KERNEL_CHUNK, kernelChunks, type FieldChunks } from '../kernels-data.js';

/** One gate case. */
export interface GateCase {
  readonly name: string;
  readonly cells: number;
  readonly fields: FieldChunks;
  readonly mask: Uint8Array;
}

/** The first `cells` columns of an hour-major chunk. */
function narrow(chunk: FieldChunks, cells: number): FieldChunks {
  const { hours, cells: from } = KERNEL_CHUNK;
  const out = {} as Record<HourlyField, Int16Array>;
  for (const f of HOURLY_FIELDS) {
    const a = new Int16Array(hours * cells);
    for (let t = 0; t < hours; t++) a.set(chunk[f].subarray(t * from, t * from + cells), t * cells);
    out[f] = a;
  }
  return out;
}

/** A copy of every field of a chunk with `edit` applied to each field's array. */
function edited(chunk: FieldChunks, edit: (field: HourlyField, a: Int16Array) => void): FieldChunks {
  const out = {} as Record<HourlyField, Int16Array>;
  for (const f of HOURLY_FIELDS) {
    out[f] = Int16Array.from(chunk[f]);
    edit(f, out[f]);
  }
  return out;
}

/** The gate cases, the same for every run (seeded). */
export function gateCases(): GateCase[] {
  const { hours, cells } = KERNEL_CHUNK;
  const [a, b] = kernelChunks(2, 20_240_229);
  const rng = createRandom(27);
  const all = new Uint8Array(cells).fill(1);
  const sparse = Uint8Array.from({ length: cells }, (_, c) => (c % 9 === 4 ? 1 : 0));
  const odd = Uint8Array.from({ length: cells }, (_, c) => (c === 0 || c === cells - 1 || rng.next() < 0.45 ? 1 : 0));
  const missing = edited(b!, (f, v) => {
    const fill = FIELD_ENCODINGS[f]._FillValue;
    for (let i = 0; i < v.length; i++) if (rng.next() < 0.05) v[i] = fill;
    for (let t = 100; t < 130; t++) v.fill(fill, t * cells, (t + 1) * cells); // whole hours missing
    for (let t = 0; t < hours; t++) v[t * cells + 5] = fill; // one cell missing all year
  });
  const thresholds = rawThresholds(HOURLY_FIELDS, FIELD_ENCODINGS).table;
  const extremes = [-32767, -32766, -1, 0, 1, 32766, 32767, ...Array.from(thresholds).flatMap((t) => [t - 1, t, t + 1])]
    .filter((v) => v > -32768 && v <= 32767);
  const extreme = edited(a!, (_f, v) => {
    for (let i = 0; i < v.length; i++) if (rng.next() < 0.2) v[i] = extremes[rng.int(extremes.length)]!;
  });
  const n61 = 61;
  return [
    { name: 'all cells', cells, fields: a!, mask: all },
    { name: 'sparse mask', cells, fields: b!, mask: sparse },
    { name: 'odd mask', cells, fields: a!, mask: odd },
    { name: `${n61} cells`, cells: n61, fields: narrow(b!, n61), mask: new Uint8Array(n61).fill(1) },
    { name: 'missing values', cells, fields: missing, mask: odd },
    { name: 'extreme values', cells, fields: extreme, mask: all },
  ];
}

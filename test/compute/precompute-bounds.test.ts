/**
 * The precompute kernel's boundary: every wrong length, mask, field set, calendar or call order is refused with a
 * `ValidationError` or `DatasetError` before any call into WebAssembly, so the kernel never touches memory outside the
 * regions it was given. The exports are wrapped to count calls.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { CELL_ROW, flagBytes, selectBytes, stateBytes } from '../../src/compute/kernels/precompute-layout.js';
import { PrecomputeKernel } from '../../src/compute/kernels/precompute-kernel.js';
import { freshPrecomputeExports } from '../../src/compute/kernels/precompute-wasm.js';
import { DatasetError, ValidationError } from '../../src/errors.js';
import type { Calendar } from '../../src/stats/calendar.js';
import { FIELD_ENCODINGS, type HourlyField } from '../../src/store/dataset-types.js';
import { zstdCompress, zstdDecompress } from '../../src/store/codec-zstd.js';
import { KernelCallCounter } from './kernel-call-counter.js';
import { calendarFor } from './kernel-fixtures.js';

const HOURS = 48;
const CELLS = 8;
const FIELDS: readonly HourlyField[] = ['no2', 'ucomfort'];
const calendar = calendarFor(2023, HOURS, 'UTC');
/** Exports that only read constants. */
const CONSTANT_EXPORTS = new Set(['heap_base', 'layout_signature', 'cells_layout_signature', 'state_bytes', 'flag_bytes',
  'select_bytes', 'shuffled_planes']);

const counter = new KernelCallCounter();
const { refused } = counter;
let kernel: PrecomputeKernel;

const mask = (cells = CELLS) => new Uint8Array(cells).fill(1);

beforeEach(async () => {
  kernel = new PrecomputeKernel(counter.wrap(await freshPrecomputeExports('simd'), CONSTANT_EXPORTS), 'simd');
});

describe('precompute kernel boundary', () => {
  it('refuses views, loads and runs before begin', () => {
    refused(() => kernel.chunkView('no2', CELLS), ValidationError);
    refused(() => kernel.loadShuffledChunk('no2', CELLS, new Uint8Array(8)), ValidationError);
    refused(() => kernel.run(mask()), ValidationError);
  });

  it('refuses a begin whose hours, fields, encodings or calendar do not fit', () => {
    refused(() => kernel.begin(HOURS + 1, FIELDS, FIELD_ENCODINGS, calendar), DatasetError);
    refused(() => kernel.begin(-1, FIELDS, FIELD_ENCODINGS, calendar), DatasetError);
    refused(() => kernel.begin(1.5, FIELDS, FIELD_ENCODINGS, calendar), DatasetError);
    refused(() => kernel.begin(HOURS, ['no2', 'no2'], FIELD_ENCODINGS, calendar), ValidationError);
    refused(() => kernel.begin(HOURS, ['ozone' as HourlyField], FIELD_ENCODINGS, calendar), ValidationError);
    refused(() => kernel.begin(HOURS, FIELDS, { no2: FIELD_ENCODINGS.no2 }, calendar), DatasetError);
    const negativeScale = { ...FIELD_ENCODINGS, ucomfort: { ...FIELD_ENCODINGS.ucomfort, scale_factor: -0.01 } };
    refused(() => kernel.begin(HOURS, FIELDS, negativeScale, calendar), DatasetError);
    const shortSeason: Calendar = { ...calendar, season: calendar.season.subarray(1) };
    refused(() => kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, shortSeason), DatasetError);
    const badSeason: Calendar = { ...calendar, season: Uint8Array.from(calendar.season, (v, h) => (h === 9 ? 4 : v)) };
    refused(() => kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, badSeason), DatasetError);
    const badDay: Calendar = { ...calendar, isDay: Uint8Array.from(calendar.isDay, (v, h) => (h === 3 ? 2 : v)) };
    refused(() => kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, badDay), DatasetError);
  });

  it('refuses views of unknown fields or cell counts, and masks that do not match the views', () => {
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    refused(() => kernel.chunkView('utci', CELLS), ValidationError);
    refused(() => kernel.chunkView('no2', 0), ValidationError);
    refused(() => kernel.chunkView('no2', 2.5), ValidationError);
    refused(() => kernel.run(mask()), ValidationError);
    expect(kernel.chunkView('no2', CELLS)).toHaveLength(HOURS * CELLS);
    refused(() => kernel.run(mask(CELLS + 1)), ValidationError);
    refused(() => kernel.run(mask(CELLS - 1)), ValidationError);
    refused(() => kernel.run(new Uint8Array(0)), ValidationError);
    refused(() => kernel.run([1, 1, 1, 1, 1, 1, 1, 1] as unknown as Uint8Array), ValidationError);
  });

  it('refuses a chunk too large for 32-bit memory before laying it out', () => {
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    refused(() => kernel.chunkView('no2', 30_000_000), ValidationError);
  });

  it('refuses a stored frame that does not decode to hours × cells values, before unshuffling', () => {
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    for (const field of FIELDS) {
      refused(() => kernel.loadShuffledChunk(field, CELLS, new Uint8Array([1, 2, 3, 4])), DatasetError);
      refused(() => kernel.loadShuffledChunk(field, CELLS, zstdCompress(new Uint8Array(HOURS * CELLS * 2 - 2), 3)), DatasetError);
    }
    // Ucomfort is interleaved as it loads (one kernel call); NO2 stays as the byte planes zstd wrote (none).
    const frame = zstdCompress(Uint8Array.from({ length: HOURS * CELLS * 2 }, (_, i) => i % 251), 3);
    let before = counter.calls;
    kernel.loadShuffledChunk('ucomfort', CELLS, frame);
    expect(counter.calls).toBe(before + 1);
    before = counter.calls;
    kernel.loadShuffledChunk('no2', CELLS, frame);
    expect(counter.calls).toBe(before);
    const planes = kernel.chunkView('no2', CELLS);
    expect(new Uint8Array(planes.buffer, planes.byteOffset, planes.byteLength)).toEqual(zstdDecompress(frame));
  });

  it('rejects a chunk whose −32768 cannot be told from a fill value inside the valid range', () => {
    const encodings = { ...FIELD_ENCODINGS, ucomfort: { ...FIELD_ENCODINGS.ucomfort, _FillValue: -9999 } };
    kernel.begin(HOURS, FIELDS, encodings, calendar);
    kernel.chunkView('no2', CELLS).fill(100);
    const wind = kernel.chunkView('ucomfort', CELLS).fill(300);
    wind[3] = -32768;
    expect(() => kernel.run(mask())).toThrow(DatasetError);
    wind[3] = -9999;
    expect(() => kernel.run(mask())).not.toThrow();
    // Only cells that get a result count: the same value in a cell without one is not an error.
    wind[3] = -32768;
    expect(() => kernel.run(Uint8Array.from(mask(), (v, c) => (c === 3 ? 0 : v)))).not.toThrow();
  });

  it('accepts well-formed input of any cell count, with state sized as the kernel says', async () => {
    const x = await freshPrecomputeExports('scalar');
    for (const cells of [1, 7, 8, 9, 64, 65]) expect(x.state_bytes(cells)).toBe(stateBytes(cells));
    for (const cells of [1, 9, 65]) expect(x.flag_bytes(cells, 366)).toBe(flagBytes(cells, 366));
    for (const cells of [1, 9, 65]) expect(x.select_bytes(cells)).toBe(selectBytes(cells));
    // The scan's block slots for byte planes and the finishing's date counts live in the selection's scratch.
    const simd = await freshPrecomputeExports('simd');
    for (let cells = 1; cells <= 4_100; cells += cells < 80 ? 1 : 37) {
      expect(simd.plane_scratch_bytes!(cells)).toBeLessThanOrEqual(simd.select_bytes(cells));
      expect(4 * Math.ceil(cells / 8) * 8).toBeLessThanOrEqual(simd.select_bytes(cells));
    }
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    for (const cells of [1, 7, 8, 9, 64, 65]) {
      kernel.chunkView('no2', cells).fill(100);
      kernel.chunkView('ucomfort', cells).fill(300);
      const results = kernel.run(mask(cells));
      expect(results).toHaveLength(cells * CELL_ROW.COUNT);
      expect(results[CELL_ROW.AIR]).toBe(1);
      expect(results[CELL_ROW.AIR_GOOD_PCT]).toBe(100);
      expect(results[CELL_ROW.WIND_SCORE]).toBe(8);
    }
    expect(counter.calls).toBeGreaterThan(0);
  });
});

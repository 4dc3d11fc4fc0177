/**
 * The statistics kernel's boundary: every wrong length, mask, field set, calendar or call order is refused with a
 * `ValidationError` or `DatasetError` before any call into WebAssembly, so the kernel never touches memory outside the
 * regions it was given. The exports are wrapped to count calls.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { freshStatsExports } from '../../src/compute/kernels/stats-wasm.js';
import { StatsKernel } from '../../src/compute/kernels/stats-kernel.js';
import { DatasetError, ValidationError } from '../../src/errors.js';
import type { Calendar } from '../../src/stats/calendar.js';
import { FIELD_ENCODINGS, type HourlyField } from '../../src/store/dataset-types.js';
import { KernelCallCounter } from './kernel-call-counter.js';
import { calendarFor } from './kernel-fixtures.js';

const HOURS = 48;
const CELLS = 8;
const FIELDS: readonly HourlyField[] = ['no2', 'ucomfort'];
const calendar = calendarFor(2023, HOURS, 'UTC');

/** Exports that only read constants. */
const CONSTANT_EXPORTS = new Set(['heap_base', 'layout_signature']);

const counter = new KernelCallCounter();
const { refused } = counter;
let kernel: StatsKernel;

const chunk = (cells = CELLS, hours = HOURS) => ({ no2: new Int16Array(hours * cells), ucomfort: new Int16Array(hours * cells) });
const mask = (cells = CELLS) => new Uint8Array(cells).fill(1);

beforeEach(async () => {
  kernel = new StatsKernel(counter.wrap(await freshStatsExports('simd'), CONSTANT_EXPORTS), 'simd');
});

describe('statistics kernel boundary', () => {
  it('refuses chunks, views, merges and results before begin', () => {
    refused(() => kernel.addChunk(chunk(), mask()), ValidationError);
    refused(() => kernel.chunkView('no2', CELLS), ValidationError);
    refused(() => kernel.addChunkViews(mask()), ValidationError);
    refused(() => kernel.finish(), ValidationError);
    refused(() => kernel.mergeRecords(new Uint32Array(HOURS * 32)), ValidationError);
  });

  it('refuses a begin whose hours, fields, encodings or calendar do not fit', () => {
    refused(() => kernel.begin(HOURS + 1, FIELDS, FIELD_ENCODINGS, calendar), DatasetError);
    refused(() => kernel.begin(-1, FIELDS, FIELD_ENCODINGS, calendar), DatasetError);
    refused(() => kernel.begin(HOURS, ['no2', 'no2'], FIELD_ENCODINGS, calendar), ValidationError);
    refused(() => kernel.begin(HOURS, ['ozone' as HourlyField], FIELD_ENCODINGS, calendar), ValidationError);
    refused(() => kernel.begin(HOURS, FIELDS, { no2: FIELD_ENCODINGS.no2 }, calendar), DatasetError);
    const shortMonth: Calendar = { ...calendar, month: calendar.month.subarray(1) };
    refused(() => kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, shortMonth), DatasetError);
    const badNight: Calendar = { ...calendar, nightIndex: Int16Array.from(calendar.nightIndex, (v, h) => (h === 5 ? calendar.days : v)) };
    refused(() => kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, badNight), DatasetError);
    const badMonth: Calendar = { ...calendar, month: Uint8Array.from(calendar.month, (v, h) => (h === 7 ? 13 : v)) };
    refused(() => kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, badMonth), DatasetError);
  });

  it('refuses chunks of the wrong length, field set or mask before accumulating', () => {
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    refused(() => kernel.addChunk({ ...chunk(), no2: new Int16Array(HOURS * CELLS - 1) }, mask()), DatasetError);
    refused(() => kernel.addChunk(chunk(CELLS + 1), mask()), DatasetError);
    refused(() => kernel.addChunk(chunk(), mask(CELLS - 1)), DatasetError);
    refused(() => kernel.addChunk({ no2: chunk().no2 }, mask()), ValidationError);
    refused(() => kernel.addChunk({ ...chunk(), utci: new Int16Array(HOURS * CELLS) }, mask()), ValidationError);
    refused(() => kernel.addChunk({ ...chunk(), no2: new Float32Array(HOURS * CELLS) as unknown as Int16Array }, mask()), ValidationError);
    refused(() => kernel.addChunk(chunk(), new Uint8Array(0)), ValidationError);
    refused(() => kernel.addChunk(chunk(), [1, 1, 1, 1, 1, 1, 1, 1] as unknown as Uint8Array), ValidationError);
    refused(() => kernel.mergeRecords(new Uint32Array(HOURS * 32 - 1)), ValidationError);
  });

  it('refuses views of unknown fields or cell counts and masks that do not match the views', () => {
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    refused(() => kernel.chunkView('utci', CELLS), ValidationError);
    refused(() => kernel.chunkView('no2', 0), ValidationError);
    refused(() => kernel.chunkView('no2', 2.5), ValidationError);
    refused(() => kernel.addChunkViews(mask()), ValidationError);
    expect(kernel.chunkView('no2', CELLS)).toHaveLength(HOURS * CELLS);
    refused(() => kernel.addChunkViews(mask(CELLS + 1)), ValidationError);
  });

  it('refuses a chunk too large for 32-bit memory before laying it out', () => {
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    refused(() => kernel.chunkView('no2', 30_000_000), ValidationError);
  });

  it('rejects a chunk whose −32768 cannot be told from a fill value inside the valid range', () => {
    const encodings = { ...FIELD_ENCODINGS, ucomfort: { ...FIELD_ENCODINGS.ucomfort, _FillValue: -9999 } };
    kernel.begin(HOURS, FIELDS, encodings, calendar);
    const data = chunk();
    data.ucomfort[3] = -32768;
    expect(() => kernel.addChunk(data, mask())).toThrow(DatasetError);
    data.ucomfort[3] = -9999;
    expect(() => kernel.addChunk(data, mask())).not.toThrow();
  });

  it('accepts well-formed input of any cell count after the refusals', () => {
    kernel.begin(HOURS, FIELDS, FIELD_ENCODINGS, calendar);
    for (const cells of [1, 7, 8, 9, 64, 65]) kernel.addChunk(chunk(cells), mask(cells));
    expect(counter.calls).toBeGreaterThan(0);
    expect(kernel.aggregates().nCells).toBe(1 + 7 + 8 + 9 + 64 + 65);
  });
});

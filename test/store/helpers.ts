/**
 * Test helpers: a small synthetic spec (edge chunks on both axes) and deterministic chunk contents, so any test can
 * compute the value the store must hold at (field, hour, row, col) without reading it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIELD_ENCODINGS, type DatasetSpec, type HourlyField } from '../../src/store/dataset-types.js';
import { LAMBERT72_PROJ4 } from '../../src/geo/lambert72.js';
import { writeDataset, type DatasetWriterOptions } from '../../src/store/zarr-writer.js';

/** 11 x 7 cells in 4 x 3 chunks (edge chunks on both axes), 30 hours, two fields. */
export function smallSpec(overrides: Partial<DatasetSpec['attrs']> = {}): DatasetSpec {
  const hours = 30;
  return {
    attrs: {
      dataset: 'test_city', title: 'Test city', crs_epsg: 31370, crs_proj4: LAMBERT72_PROJ4, resolution_m: 2,
      reference_year: 2023, timezone: 'Europe/Brussels', generated_utc: '2024-01-01T00:00:00Z',
      content_version: 'v1', fields: ['no2', 'ucomfort'], attribution: 'test', ...overrides,
    },
    grid: { crs_epsg: 31370, resolution_m: 2, nx: 7, ny: 11, x0: 148001, y0: 171999 },
    hours,
    chunk: { hours, rows: 4, cols: 3 },
  };
}

/** The raw value of a synthetic field at (t, row, col); every 13th cell-hour is missing (fill). */
export function rawValue(field: HourlyField, t: number, row: number, col: number): number {
  if ((t * 31 + row * 7 + col * 3) % 13 === 0) return FIELD_ENCODINGS[field]._FillValue;
  const base = field === 'no2' ? 200 : 300;
  return base + t * 5 + row * 17 - col * 11 + (field === 'no2' ? 0 : 1000);
}

/** A full-size chunk of synthetic values; cells outside the grid hold garbage (the sink must store fill there). */
export function syntheticChunk(spec: DatasetSpec, field: HourlyField, chunkRow: number, chunkCol: number): Int16Array {
  const { rows, cols, hours } = spec.chunk;
  const data = new Int16Array(hours * rows * cols);
  for (let t = 0; t < hours; t++) {
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < cols; c++) {
        const row = chunkRow * rows + r;
        const col = chunkCol * cols + c;
        const inside = row < spec.grid.ny && col < spec.grid.nx;
        data[t * rows * cols + r * cols + c] = inside ? rawValue(field, t, row, col) : 12345;
      }
    }
  }
  return data;
}

/** Synthetic statics: a checkerboard-ish outdoor mask and heights that encode the cell index. */
export function syntheticStatics(spec: DatasetSpec): { outdoor: Uint8Array; height: Float32Array } {
  const n = spec.grid.nx * spec.grid.ny;
  const outdoor = Uint8Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 0 : 1));
  const height = Float32Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 8 + (i % 32) : 0));
  return { outdoor, height };
}

/** Writes the synthetic dataset of `spec` to `dir`. */
export async function writeSynthetic(dir: string, spec: DatasetSpec, options: DatasetWriterOptions = {}): Promise<void> {
  await writeDataset(dir, spec, async (writer) => {
    const { outdoor, height } = syntheticStatics(spec);
    await writer.writeStatic('outdoor', outdoor);
    await writer.writeStatic('building_height', height);
    const chunkRows = Math.ceil(spec.grid.ny / spec.chunk.rows);
    const chunkCols = Math.ceil(spec.grid.nx / spec.chunk.cols);
    for (const field of spec.attrs.fields) {
      for (let r = 0; r < chunkRows; r++) {
        for (let c = 0; c < chunkCols; c++) await writer.writeChunk(field, r, c, syntheticChunk(spec, field, r, c));
      }
    }
  }, options);
}

/** A fresh temporary directory and its cleanup. */
export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

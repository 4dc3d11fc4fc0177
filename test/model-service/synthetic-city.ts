/**
 * A small real dataset for model-service and live API tests: `brussels_extended` over a 200 m × 200 m block around
 * Grand-Place in the Brussels zone at 10 m, a whole reference year (2023), every hourly field, with raw values that are
 * simple functions of (field, hour, row, col), so a test can compute what any record must hold. A 4 × 4 building sits
 * at rows and cols 4–7 (interior cells hold the fill value).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lambert72ToWgs84 } from '../../src/geo/crs.js';
import { LAMBERT72_PROJ4 } from '../../src/geo/lambert72.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type DatasetSpec, type HourlyField } from '../../src/store/dataset-types.js';
import { writeDataset } from '../../src/store/zarr-writer.js';

/** Hours of the 2023 reference year. */
export const YEAR_HOURS = 8760;

/** The grid: 20 × 20 cells of 10 m; cell (row, col) centred at (148725 + 10·col, 170795 − 10·row). Grand-Place 1 is in cell (11, 9). */
export const SYNTH_SPEC: DatasetSpec = {
  attrs: {
    dataset: 'brussels_extended', title: 'Synthetic test block', crs_epsg: 31370, crs_proj4: LAMBERT72_PROJ4,
    resolution_m: 10, reference_year: 2023, timezone: 'Europe/Brussels', generated_utc: '2024-01-01T00:00:00Z',
    content_version: 'synthetic-1', fields: [...HOURLY_FIELDS], attribution: 'test',
  },
  grid: { crs_epsg: 31370, resolution_m: 10, nx: 20, ny: 20, x0: 148725, y0: 170795 },
  hours: YEAR_HOURS,
  chunk: { hours: YEAR_HOURS, rows: 10, cols: 10 },
};

/** Whether cell (row, col) is a building interior. */
export function isBuilding(row: number, col: number): boolean {
  return row >= 4 && row <= 7 && col >= 4 && col <= 7;
}

/** The raw int16 value of `field` at reference hour `t`, cell (row, col). */
export function synthRaw(field: HourlyField, t: number, row: number, col: number): number {
  if (isBuilding(row, col)) return FIELD_ENCODINGS[field]._FillValue;
  switch (field) {
    case 'no2': return 150 + (t % 24) * 10 + row * 2 + col;
    case 'pm25': return 80 + (t % 7) * 5 + col;
    case 'pm10': return 140 + (t % 7) * 5 + col;
    case 'ucomfort': return 200 + (t % 11) * 20 + row;
    case 'ugust': return 500 + (t % 11) * 20 + row;
    case 'utci': return 1000 + (t % 100) * 10 + col * 5;
  }
}

/** The physical value (CF-decoded) of `field` at (t, row, col); NaN inside the building. */
export function synthValue(field: HourlyField, t: number, row: number, col: number): number {
  const raw = synthRaw(field, t, row, col);
  const enc = FIELD_ENCODINGS[field];
  return raw === enc._FillValue ? Number.NaN : raw * enc.scale_factor + enc.add_offset;
}

/** Centre of cell (row, col) in Lambert 72 metres. */
export function cellXY(row: number, col: number): [number, number] {
  return [SYNTH_SPEC.grid.x0 + col * 10, SYNTH_SPEC.grid.y0 - row * 10];
}

/** WGS 84 of the centre of cell (row, col), as `{lat, lon}` (not rounded). */
export function cellLatLon(row: number, col: number): { lat: number; lon: number } {
  const [lon, lat] = lambert72ToWgs84(...cellXY(row, col));
  return { lat, lon };
}

/** Writes the dataset under `<dataDir>/brussels_extended`. */
export async function writeSyntheticCity(dataDir: string): Promise<string> {
  const dir = join(dataDir, SYNTH_SPEC.attrs.dataset);
  const { nx, ny } = SYNTH_SPEC.grid;
  await writeDataset(dir, SYNTH_SPEC, async (writer) => {
    const outdoor = Uint8Array.from({ length: nx * ny }, (_, i) => (isBuilding(Math.floor(i / nx), i % nx) ? 0 : 1));
    const height = Float32Array.from({ length: nx * ny }, (_, i) => (outdoor[i] === 1 ? 0 : 20));
    await writer.writeStatic('outdoor', outdoor);
    await writer.writeStatic('building_height', height);
    const { rows, cols, hours } = SYNTH_SPEC.chunk;
    for (const field of HOURLY_FIELDS) {
      for (let cr = 0; cr < ny / rows; cr++) {
        for (let cc = 0; cc < nx / cols; cc++) {
          const data = new Int16Array(hours * rows * cols);
          for (let t = 0; t < hours; t++) {
            for (let r = 0; r < rows; r++) {
              for (let c = 0; c < cols; c++) data[(t * rows + r) * cols + c] = synthRaw(field, t, cr * rows + r, cc * cols + c);
            }
          }
          await writer.writeChunk(field, cr, cc, data);
        }
      }
    }
  });
  return dir;
}

/** A temporary data directory holding the synthetic city, and its cleanup. */
export async function syntheticDataDir(): Promise<{ dataDir: string; cleanup: () => Promise<void> }> {
  const dataDir = await mkdtemp(join(tmpdir(), 'svc-model-'));
  await writeSyntheticCity(dataDir);
  return { dataDir, cleanup: () => rm(dataDir, { recursive: true, force: true }) };
}

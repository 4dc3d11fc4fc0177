/**
 * A small street-level dataset for the stored-aggregate tests: 40 × 40 cells at 1 m in chunks of 4 × 4 (a 10 × 10
 * chunk grid, so 50 m circles cover whole 1 × 1, 2 × 2 and 4 × 4 blocks), 1,500 hours from January into March, all six
 * fields. Buildings form blocks (whole chunks and parts of chunks), values cross every class bound, fill values and
 * NO2 ≤ 0 occur in outdoor cells, so whole-chunk detection, masks and validity all matter.
 */
import { aggregateDataset } from '../../src/compute/aggregates/dataset-aggregation.js';
import { lambert72ToWgs84 } from '../../src/geo/crs.js';
import { roundCoord } from '../../src/geo/round.js';
import { LAMBERT72_PROJ4 } from '../../src/geo/lambert72.js';
import { FIELD_ENCODINGS, HOURLY_FIELDS, type DatasetSpec, type HourlyField } from '../../src/store/dataset-types.js';
import { writeDataset } from '../../src/store/zarr-writer.js';
import { createRandom } from '../../src/util/random.js';
import type { PlannedCompute } from '../../src/compute/planned-compute.js';

/** The dataset id. */
export const AGG_DATASET = 'agg_city';
const N = 40;
const CHUNK = 4;
const HOURS = 1500;
const X0 = 148500.5;
const Y0 = 170600.5;

/** The spec of the aggregate test dataset. */
export function aggregateSpec(): DatasetSpec {
  return {
    attrs: {
      dataset: AGG_DATASET, title: 'Aggregate test block', crs_epsg: 31370, crs_proj4: LAMBERT72_PROJ4, resolution_m: 1,
      reference_year: 2023, timezone: 'Europe/Brussels', generated_utc: '2024-01-01T00:00:00Z',
      content_version: 'agg-v1', fields: [...HOURLY_FIELDS], attribution: 'test',
    },
    grid: { crs_epsg: 31370, resolution_m: 1, nx: N, ny: N, x0: X0, y0: Y0 },
    hours: HOURS,
    chunk: { hours: HOURS, rows: CHUNK, cols: CHUNK },
  };
}

/** Buildings: a solid block (whole chunks), an L-shaped wing crossing chunk borders, scattered single cells. */
export function aggregateOutdoor(): Uint8Array {
  const out = new Uint8Array(N * N).fill(1);
  for (let r = 0; r < N; r++) {
    for (let c = 0; c < N; c++) {
      const solid = r >= 28 && r < 36 && c >= 28 && c < 36;
      const wing = (r >= 5 && r < 7 && c >= 2 && c < 15) || (c >= 13 && c < 15 && r >= 5 && r < 19);
      const scattered = (r * 7 + c * 13) % 97 === 0;
      if (solid || wing || scattered) out[r * N + c] = 0;
    }
  }
  return out;
}

/** Raw values around the classification bounds of each field, with fill values and NO2 ≤ 0 among them. */
function rawChunk(field: HourlyField, chunkRow: number, chunkCol: number, outdoor: Uint8Array): Int16Array {
  const rnd = createRandom(1000 + chunkRow * 37 + chunkCol).fork(field);
  const data = new Int16Array(HOURS * CHUNK * CHUNK);
  const fill = FIELD_ENCODINGS[field]._FillValue;
  const centre = { no2: 300, pm25: 120, pm10: 250, ucomfort: 500, ugust: 900, utci: 1200 }[field];
  const spread = { no2: 400, pm25: 150, pm10: 300, ucomfort: 700, ugust: 1200, utci: 2500 }[field];
  for (let t = 0; t < HOURS; t++) {
    const drift = Math.sin((t / 24) * Math.PI * 2) * spread * 0.4;
    for (let k = 0; k < CHUNK * CHUNK; k++) {
      const r = chunkRow * CHUNK + Math.floor(k / CHUNK);
      const c = chunkCol * CHUNK + (k % CHUNK);
      const at = t * CHUNK * CHUNK + k;
      if (!outdoor[r * N + c] || rnd.next() < 0.01) {
        data[at] = fill;
        continue;
      }
      data[at] = Math.round(centre + drift + (rnd.next() - 0.5) * spread);
    }
  }
  return data;
}

/** Writes the dataset under `dataDir/agg_city` (without aggregates). */
export async function writeAggregateDataset(dataDir: string): Promise<void> {
  const spec = aggregateSpec();
  const outdoor = aggregateOutdoor();
  await writeDataset(`${dataDir}/${AGG_DATASET}`, spec, async (writer) => {
    await writer.writeStatic('outdoor', outdoor);
    await writer.writeStatic('building_height', Float32Array.from(outdoor, (o) => (o ? 0 : 20)));
    for (const field of spec.attrs.fields) {
      for (let r = 0; r < N / CHUNK; r++) {
        for (let c = 0; c < N / CHUNK; c++) await writer.writeChunk(field, r, c, rawChunk(field, r, c, outdoor));
      }
    }
  });
}

/** Writes the dataset's aggregates of `levels` with `compute` (over the same data directory). */
export async function aggregate(compute: PlannedCompute, dataDir: string, levels: readonly number[] = [1, 2, 4]) {
  return aggregateDataset(compute, dataDir, AGG_DATASET, { levels });
}

/** WGS 84 of a point (col, row in cells, fractional) of the grid, rounded as requests are. */
export function at(col: number, row: number): { lat: number; lon: number } {
  const [lon, lat] = lambert72ToWgs84(X0 - 0.5 + col, Y0 + 0.5 - row);
  return { lat: roundCoord(lat), lon: roundCoord(lon) };
}

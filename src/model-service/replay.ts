/**
 * Hourly records of a sampled location: for each step, the reference-year hour it replays is read from the cached
 * chunks, each cell is decoded and perturbed (perturbation.ts), ozone is synthesised per cell from its NO2 (ozone.ts),
 * and the cells are averaged (missing cells skipped). Values are per cell before averaging so that a one-cell record
 * equals the map slice value of that cell.
 */
import { groupCellsByChunk, type ChunkCells } from '../store/cell-gather.js';
import { HOURLY_FIELDS, type HourlyField } from '../store/dataset-types.js';
import type { HourlyRecord } from '../upstream/model-service-contract.js';
import { oxidantAt, ozoneFromNo2 } from './ozone.js';
import { FIELD_GROUP, noiseAt, perturbValue, type PerturbGroup } from './perturbation.js';
import type { ChunkCache, ServedDataset } from './served-dataset.js';
import { HOUR_MS, isoHour, type Step } from './timeline.js';

/** The cells behind a record and where they are. */
export interface SampledCells {
  /** Flat cell indices. */
  readonly cells: Int32Array;
  /** Cell centres, grid CRS metres (perturbation coordinates). */
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  /** The requested location, WGS 84 degrees (sun position for ozone). */
  readonly lat: number;
  readonly lon: number;
}

/** Decimal places per record field: µg/m3 and °C to 1, m/s to 2. */
const DECIMALS: Readonly<Record<string, number>> = { c: 1, c_pm25: 1, c_pm10: 1, c_o3: 1, ucomfort: 2, ugust: 2, utci: 1 };

/** Record name of each dataset field. */
const RECORD_NAME: Readonly<Record<HourlyField, string>> = {
  no2: 'c', pm25: 'c_pm25', pm10: 'c_pm10', ucomfort: 'ucomfort', ugust: 'ugust', utci: 'utci',
};

function rounded(name: string, sum: number, count: number): number | null {
  if (count === 0) return null;
  const scale = 10 ** DECIMALS[name];
  const value = Math.round((sum / count) * scale) / scale;
  return value === 0 ? 0 : value; // never -0
}

/** Decodes the cells of one hour of `field` out of whole chunks into `out` (NaN for the fill value). */
function gatherHour(
  dataset: ServedDataset, field: HourlyField, groups: readonly ChunkCells[], chunks: readonly Int16Array[], hour: number, out: Float64Array,
): void {
  const { scale_factor: scale, add_offset: offset, _FillValue: fill } = dataset.reader.encoding(field);
  const plane = dataset.reader.chunk.rows * dataset.reader.chunk.cols;
  groups.forEach((group, g) => {
    const data = chunks[g];
    const base = hour * plane;
    for (let j = 0; j < group.positions.length; j++) {
      const raw = data[base + group.offsets[j]];
      out[group.positions[j]] = raw === fill ? Number.NaN : raw * scale + offset;
    }
  });
}

/** Builds one record per step, in the order given. */
export async function replayRecords(
  dataset: ServedDataset, chunkCache: ChunkCache, seed: number, where: SampledCells, steps: readonly Step[],
): Promise<HourlyRecord[]> {
  const { reader } = dataset;
  const fields = HOURLY_FIELDS.filter((f) => reader.fields.includes(f));
  const groups = groupCellsByChunk(where.cells, reader.grid, reader.chunk);
  // Every chunk of every field is requested at once: reads overlap, and the cache shares any already under way.
  const loaded = await Promise.all(
    fields.map((field) => Promise.all(groups.map((g) => chunkCache.chunk(dataset, field, g.chunkRow, g.chunkCol)))),
  );
  const chunks = new Map<HourlyField, Int16Array[]>(fields.map((field, i) => [field, loaded[i]]));

  const n = where.cells.length;
  const values = new Float64Array(n);
  const no2 = new Float64Array(n).fill(Number.NaN);
  const z = new Map<PerturbGroup, Float32Array>();
  return steps.map((step) => {
    const hour = dataset.calendar.hourIndex(step.targetMs);
    const epochHour = Math.floor(step.targetMs / HOUR_MS);
    z.clear();
    // Keys in the spec's order; a field the dataset lacks stays null.
    const record: Record<string, unknown> = {
      hour: isoHour(step.targetMs), timestamp: String(step.targetMs),
      c: null, c_pm25: null, c_pm10: null, c_o3: null, ucomfort: null, ugust: null, utci: null,
    };
    for (const field of fields) {
      const group = FIELD_GROUP[field];
      let noise = z.get(group);
      if (noise === undefined) {
        const key = { seed, dataset: dataset.idHash, group, epochHour, leadH: step.leadH };
        noise = noiseAt(key, where.xs, where.ys, new Float32Array(n));
        z.set(group, noise);
      }
      gatherHour(dataset, field, groups, chunks.get(field)!, hour, values);
      let sum = 0;
      let count = 0;
      for (let i = 0; i < n; i++) {
        const v = perturbValue(field, values[i], noise[i], step.leadH);
        if (field === 'no2') no2[i] = v;
        if (!Number.isNaN(v)) {
          sum += v;
          count++;
        }
      }
      record[RECORD_NAME[field]] = rounded(RECORD_NAME[field], sum, count);
    }
    if (fields.includes('no2')) {
      // The sun at mid-hour stands for the hour.
      const oxidant = oxidantAt(step.targetMs + HOUR_MS / 2, where.lat, where.lon);
      let sum = 0;
      let count = 0;
      for (let i = 0; i < n; i++) {
        const o3 = ozoneFromNo2(no2[i], oxidant);
        if (!Number.isNaN(o3)) {
          sum += o3;
          count++;
        }
      }
      record.c_o3 = rounded('c_o3', sum, count);
    }
    record.lead_h = step.leadH;
    record.reference_hour = isoHour(dataset.calendar.instantOf(hour));
    return record as HourlyRecord;
  });
}

/**
 * Reference phase A: reduces decoded hourly values of the N sampled cells to `HourlyAggregates`, hour by hour, exactly
 * as docs/statistics.md defines the averaging ("averaging over cells happens per hour"). Written for clarity; the WASM kernel
 * mirrors it and is differentially tested against it.
 */
import { DatasetError } from '../errors.js';
import type { HourlyField } from '../store/dataset-types.js';
import { POLLUTANTS, pollutantClass } from '../classification/belaqi.js';
import { roundedMeanClass } from './belaqi.js';
import { allocateHourlyAggregates, type AirHourly, type HourlyAggregates } from './hourly-aggregates.js';

/**
 * Decoded (CF-unpacked) values per field, `Float32Array` of length hours × N, hour-major (value of cell c at hour h at
 * index h·N + c), NaN = missing. A field the dataset does not hold is absent.
 */
export type DecodedFields = Readonly<Partial<Record<HourlyField, Float32Array>>>;

/** Reduces decoded fields over `nCells` cells to per-hour aggregates; throws `DatasetError` on inconsistent lengths. */
export function aggregateHours(fields: DecodedFields, hours: number, nCells: number): HourlyAggregates {
  if (!Number.isInteger(hours) || hours < 0) throw new DatasetError(`Invalid number of hours: ${hours}.`);
  if (!Number.isInteger(nCells) || nCells < 0) throw new DatasetError(`Invalid number of cells: ${nCells}.`);
  for (const [name, values] of Object.entries(fields)) {
    if (values !== undefined && values.length !== hours * nCells) {
      throw new DatasetError(`Field ${name} holds ${values.length} values, expected ${hours} hours × ${nCells} cells.`);
    }
  }
  const out = allocateHourlyAggregates(hours, nCells, {
    air: POLLUTANTS.some((p) => fields[p] !== undefined),
    wind: fields.ucomfort !== undefined || fields.ugust !== undefined,
    thermal: fields.utci !== undefined,
  });
  for (let h = 0; h < hours; h++) {
    if (out.air) aggregateAirHour(out.air, fields, h, nCells);
    if (out.wind) {
      out.wind.ucomfort[h] = cellMean(fields.ucomfort, h, nCells);
      out.wind.ugust[h] = cellMean(fields.ugust, h, nCells);
    }
    if (out.thermal) out.thermal.utci[h] = cellMean(fields.utci, h, nCells);
  }
  return out;
}

/**
 * One hour of air: each cell's class is the worst class among its pollutants with data (BelAQI: the worst pollutant
 * wins; a missing pollutant contributes nothing); a cell with no pollutant is not graded. The hourly class is the mean
 * over graded cells rounded half up. Per pollutant, the mean sub-index, concentration sum and count are over the cells
 * where that pollutant has data (NO2 ≤ 0 counts as no data, so it enters neither the class nor the annual mean).
 */
function aggregateAirHour(air: AirHourly, fields: DecodedFields, h: number, nCells: number): void {
  const classSum = [0, 0, 0];
  let gradedClassSum = 0;
  let gradedCells = 0;
  for (let c = 0; c < nCells; c++) {
    let cellClass = 0;
    for (let p = 0; p < POLLUTANTS.length; p++) {
      const id = POLLUTANTS[p];
      const values = fields[id];
      if (values === undefined) continue;
      const value = values[h * nCells + c];
      const cls = pollutantClass(id, value);
      if (cls === 0) continue;
      classSum[p] += cls;
      air.pollutants[id].concSum[h] += value;
      air.pollutants[id].count[h] += 1;
      cellClass = Math.max(cellClass, cls);
    }
    if (cellClass > 0) {
      gradedClassSum += cellClass;
      gradedCells += 1;
    }
  }
  air.cls[h] = roundedMeanClass(gradedClassSum, gradedCells);
  for (let p = 0; p < POLLUTANTS.length; p++) {
    const hourly = air.pollutants[POLLUTANTS[p]];
    hourly.meanClass[h] = hourly.count[h] > 0 ? classSum[p] / hourly.count[h] : Number.NaN;
  }
}

/** Mean of one field at hour `h` over cells with a finite value; NaN when the field is absent or no cell has one. */
function cellMean(values: Float32Array | undefined, h: number, nCells: number): number {
  if (values === undefined) return Number.NaN;
  let sum = 0;
  let count = 0;
  for (let c = 0; c < nCells; c++) {
    const v = values[h * nCells + c];
    if (!Number.isFinite(v)) continue;
    sum += v;
    count += 1;
  }
  return count > 0 ? sum / count : Number.NaN;
}

/**
 * The range a relative scale (`thermal-utci-relative`) maps onto for one hour: robust percentiles of that hour's UTCI
 * slice over every cell with a value (building interiors and missing cells have none). The catalog publishes it on
 * each thermal layer entry (docs/map.md, the relative range).
 *
 * min = the 2nd percentile rounded down to 0.1 °C, max = the 98th percentile rounded up to 0.1 °C (percentiles by
 * linear interpolation between closest ranks, as every percentile of the service); a range narrower than
 * MIN_RANGE_C is widened about its middle to that width, so a nearly uniform hour is not painted in full contrast.
 */
import { percentileSorted } from '../stats/numeric.js';

/** Percentiles of the published range. */
const RANGE_PERCENTILES = Object.freeze({ low: 0.02, high: 0.98 });

/** Narrowest published range, °C. */
const MIN_RANGE_C = 1;

/** A published range. */
export interface ValueRange {
  readonly min: number;
  readonly max: number;
}

/** The range of `values` (NaN = no value); undefined when no cell has a value. */
export function thermalRange(values: Float32Array): ValueRange | undefined {
  const finite = new Float64Array(values.length);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (Number.isFinite(v)) finite[n++] = v;
  }
  if (n === 0) return undefined;
  const sorted = finite.subarray(0, n).sort();
  let min = Math.floor(Math.round(percentileSorted(sorted, RANGE_PERCENTILES.low)! * 1e6) / 1e5) / 10;
  let max = Math.ceil(Math.round(percentileSorted(sorted, RANGE_PERCENTILES.high)! * 1e6) / 1e5) / 10;
  if (max - min < MIN_RANGE_C) {
    const mid = (min + max) / 2;
    min = Math.floor(Math.round((mid - MIN_RANGE_C / 2) * 1e6) / 1e5) / 10;
    max = Math.ceil(Math.round((mid + MIN_RANGE_C / 2) * 1e6) / 1e5) / 10;
  }
  return { min, max };
}

/**
 * Reads the statistics kernel's per-hour accumulator records into the reference's phase-A interface
 * (src/stats/hourly-aggregates.ts), so the kernel's phase A can be compared with, or fed to, the reference phase B.
 * Means are formed exactly as the kernel's phase B forms them: (scale · raw sum + offset · count) / count.
 */
import { POLLUTANTS, type Pollutant } from '../../classification/belaqi.js';
import { roundedMeanClass } from '../../stats/belaqi.js';
import type { HourlyAggregates, PollutantHourly } from '../../stats/hourly-aggregates.js';
import type { CfEncoding, HourlyField } from '../../store/dataset-types.js';
import { HOUR_RECORD, METRIC } from './kernel-layout.js';

/** What the reader needs to know about the computation. */
export interface AggregateSource {
  readonly hours: number;
  readonly nCells: number;
  readonly metrics: number;
  readonly encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>;
}

const W32 = HOUR_RECORD.BYTES / 4;
const W64 = HOUR_RECORD.BYTES / 8;

/** Builds `HourlyAggregates` from the records at byte offset `acc` of `buffer`. */
export function readAggregates(buffer: ArrayBuffer, acc: number, source: AggregateSource): HourlyAggregates {
  const { hours, metrics } = source;
  const i32 = new Int32Array(buffer, acc, hours * W32);
  const i64 = new BigInt64Array(buffer, acc, hours * W64);
  const encoding = (field: HourlyField): { s: number; o: number } => {
    const e = source.encodings[field];
    return { s: e?.scale_factor ?? 0, o: e?.add_offset ?? 0 };
  };
  const mean = (field: HourlyField, countAt: number, sumAt: number): Float64Array => {
    const { s, o } = encoding(field);
    const out = new Float64Array(hours);
    for (let h = 0; h < hours; h++) {
      const n = i32[h * W32 + countAt / 4];
      out[h] = n > 0 ? (s * Number(i64[h * W64 + sumAt / 8]) + o * n) / n : Number.NaN;
    }
    return out;
  };
  const pollutant = (p: number, id: Pollutant): PollutantHourly => {
    const { s, o } = encoding(id);
    const meanClass = new Float64Array(hours);
    const concSum = new Float64Array(hours);
    const count = new Uint32Array(hours);
    for (let h = 0; h < hours; h++) {
      const n = i32[h * W32 + HOUR_RECORD.CNT / 4 + p];
      count[h] = n;
      meanClass[h] = n > 0 ? i32[h * W32 + HOUR_RECORD.CLS / 4 + p] / n : Number.NaN;
      concSum[h] = n > 0 ? s * Number(i64[h * W64 + HOUR_RECORD.AIR_RAW / 8 + p]) + o * n : 0;
    }
    return { meanClass, concSum, count };
  };
  const air = (): HourlyAggregates['air'] => {
    const cls = new Uint8Array(hours);
    for (let h = 0; h < hours; h++) {
      cls[h] = roundedMeanClass(i32[h * W32 + HOUR_RECORD.CLS / 4 + 3], i32[h * W32 + HOUR_RECORD.CNT / 4 + 3]);
    }
    const pollutants = Object.fromEntries(POLLUTANTS.map((id, p) => [id, pollutant(p, id)])) as Record<Pollutant, PollutantHourly>;
    return { cls, pollutants };
  };
  return {
    hours,
    nCells: source.nCells,
    ...(metrics & METRIC.AIR ? { air: air() } : {}),
    ...(metrics & METRIC.WIND
      ? {
          wind: {
            ucomfort: mean('ucomfort', HOUR_RECORD.MET_CNT, HOUR_RECORD.WIND_RAW),
            ugust: mean('ugust', HOUR_RECORD.MET_CNT + 4, HOUR_RECORD.WIND_RAW + 8),
          },
        }
      : {}),
    ...(metrics & METRIC.THERMAL
      ? { thermal: { utci: mean('utci', HOUR_RECORD.MET_CNT + 8, HOUR_RECORD.UTCI_RAW) } }
      : {}),
  };
}

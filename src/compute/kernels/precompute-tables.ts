/**
 * What the precompute kernel reads besides the data: its raw threshold table and one calendar bucket per hour. Every
 * test the kernel makes is "raw > t" on an int16, exact because each definition is upward-closed in a value that
 * increases with the raw value:
 * - air thresholds are the statistics kernel's own (kernel-thresholds.ts: float32 decoding, as the reference
 *   classifies): "has data" and "class above the good maximum";
 * - wind and UTCI are classified by the statistics kernel's phase B on f64 hourly means, which for one cell are
 *   scale × raw + offset in f64; their thresholds are found by bisection with that very f64 decoding. A class test
 *   that is an OR of several bounds ("Slightly windy or worse": U ≥ 4 or U > 6 or …) is one threshold, the lowest.
 * Every threshold is clamped to at least the field's "has data" threshold, so only hours with data pass.
 */
import { DatasetError } from '../../errors.js';
import { POLLUTANTS } from '../../classification/belaqi.js';
import { SEASONS, type Calendar } from '../../stats/calendar.js';
import type { CfEncoding, HourlyField } from '../../store/dataset-types.js';
import { PARAMS, THRESHOLD_TABLE } from './kernel-layout.js';
import { rawThresholds, type RawThresholds } from './kernel-thresholds.js';
import { CELL_COUNTERS, CELL_THRESHOLDS } from './precompute-layout.js';

const INT16_MIN = -32768;
const INT16_MAX = 32767;

/**
 * The threshold table (`CELL_THRESHOLDS.COUNT` entries, unsplatted) and the per-field validity rules for fill
 * remapping.
 */
export interface PrecomputeThresholds {
  readonly table: Int32Array;
  readonly validity: RawThresholds['validity'];
}

/** A one-cell hourly value of the statistics kernel's phase B: (scale × raw + offset × 1) / 1 in f64. */
function decode64(raw: number, encoding: CfEncoding): number {
  return (encoding.scale_factor * raw + encoding.add_offset * 1) / 1;
}

/** Smallest raw value that satisfies the upward-closed `test`; INT16_MAX + 1 when none does. */
function firstRaw(test: (raw: number) => boolean): number {
  let lo = INT16_MIN;
  let hi = INT16_MAX + 1;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (test(mid)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Threshold t with "raw > t" ⇔ `test(decode64(raw))`, clamped to [t0, INT16_MAX]. */
function bound(encoding: CfEncoding, t0: number, test: (value: number) => boolean): number {
  const t = firstRaw((raw) => test(decode64(raw, encoding))) - 1;
  return Math.min(INT16_MAX, Math.max(t0, t));
}

/**
 * Builds the table for the fields of a computation from its CF encodings and the statistics parameter block
 * (`kernelParams`, which holds the wind class limits, the thermal bands and the good-air class). Absent fields get
 * INT16_MAX everywhere (nothing passes).
 */
export function precomputeThresholds(
  fields: readonly HourlyField[], encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>, params: Float64Array,
): PrecomputeThresholds {
  const stats = rawThresholds(fields, encodings);
  const table = new Int32Array(CELL_THRESHOLDS.COUNT).fill(INT16_MAX);
  const goodMax = params[PARAMS.GOOD_MAX];
  POLLUTANTS.forEach((pollutant, p) => {
    if (!fields.includes(pollutant)) return;
    const own = Array.from(stats.table.subarray(THRESHOLD_TABLE.AIR + 10 * p, THRESHOLD_TABLE.AIR + 10 * p + 10));
    table[CELL_THRESHOLDS.AIR + 2 * p] = own[0];
    // class > goodMax ⇔ more than goodMax − 1 of the nine bounds exceeded ⇔ raw above the goodMax-th lowest bound.
    table[CELL_THRESHOLDS.AIR + 2 * p + 1] = own.slice(1).sort((a, b) => a - b)[goodMax - 1];
  });
  const has = (field: HourlyField): CfEncoding | undefined => (fields.includes(field) ? encodings[field] : undefined);
  const u = has('ucomfort');
  const g = has('ugust');
  const tu = stats.table[THRESHOLD_TABLE.MET];
  const tg = stats.table[THRESHOLD_TABLE.MET + 1];
  table[CELL_THRESHOLDS.WIND] = tu;
  table[CELL_THRESHOLDS.WIND + 1] = tg;
  const [danger, windy, slightly, calm, gustDanger, gust] = params.subarray(PARAMS.WIND_CLASS, PARAMS.WIND_CLASS + 6);
  // Comfort class ≥ k and gust class ≥ k as value tests, for k = 2…5 (wind-classes.ts; the kernel's windClass).
  const comfortAtLeast = [
    (v: number) => v > danger || v > windy || v > slightly || v >= calm,
    (v: number) => v > danger || v > windy || v > slightly,
    (v: number) => v > danger || v > windy,
    (v: number) => v > danger,
  ];
  const gustAtLeast = [
    (v: number) => v > gustDanger || v >= gust, (v: number) => v > gustDanger || v >= gust,
    (v: number) => v > gustDanger || v >= gust, (v: number) => v > gustDanger,
  ];
  const sitting = params[PARAMS.WIND_MISC];
  if (u) table[CELL_THRESHOLDS.WIND + 2] = bound(u, tu, (v) => v > sitting);
  for (let k = 1; k < 5; k++) {
    if (u) table[CELL_THRESHOLDS.WIND + 2 + 2 * k] = bound(u, tu, comfortAtLeast[k - 1]);
    if (g) table[CELL_THRESHOLDS.WIND + 3 + 2 * k] = bound(g, tg, gustAtLeast[k - 1]);
  }
  const t = has('utci');
  if (t) {
    const t0 = stats.table[THRESHOLD_TABLE.MET + 2];
    const [comfortLo, comfortHi, acceptLo, acceptHi] = params.subarray(PARAMS.THERMAL, PARAMS.THERMAL + 4);
    table[CELL_THRESHOLDS.THERMAL] = t0;
    [comfortLo, comfortHi, acceptLo, acceptHi].forEach((limit, j) => {
      table[CELL_THRESHOLDS.THERMAL + 1 + j] = bound(t, t0, (v) => v > limit);
    });
    // A strong heat-stress day: some hour above the bound; a tropical night: every hour with data above its bound.
    const [heat, tropical] = params.subarray(PARAMS.THERMAL + 4, PARAMS.THERMAL + 6);
    table[CELL_THRESHOLDS.HEAT] = bound(t, t0, (v) => v > heat);
    table[CELL_THRESHOLDS.TROPICAL] = bound(t, t0, (v) => v > tropical);
  }
  return { table, validity: stats.validity };
}

const bucketCache = new WeakMap<Calendar, Uint8Array>();

/**
 * One bucket per hour (`CELL_COUNTERS.BUCKETS` kinds): the season code for daytime hours,
 * `CELL_COUNTERS.B_SUMMER_NIGHT` for night hours of the summer season (the summer night mean), the last bucket for every
 * other night hour. Cached per calendar object.
 */
export function calendarBuckets(calendar: Calendar): Uint8Array {
  let buckets = bucketCache.get(calendar);
  if (buckets === undefined) {
    const summer = SEASONS.indexOf('summer');
    buckets = new Uint8Array(calendar.hours);
    for (let h = 0; h < calendar.hours; h++) {
      const season = calendar.season[h];
      if (season > 3) throw new DatasetError(`Calendar hour ${h} holds out-of-range attributes.`);
      const night = season === summer ? CELL_COUNTERS.B_SUMMER_NIGHT : CELL_COUNTERS.BUCKETS - 1;
      buckets[h] = calendar.isDay[h] === 1 ? season : night;
    }
    bucketCache.set(calendar, buckets);
  }
  return buckets;
}

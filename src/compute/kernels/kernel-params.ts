/**
 * The phase-B parameter block of the statistics kernel, filled from the reference's own tables (src/stats) and the
 * shared classifications (src/classification) so the kernel cannot drift from them: WHO ladders, season anchors, wind
 * allowances and worst-moment ladder, wind class limits, thermal bands, the good-air class. The two values the
 * reference states only inside functions (score bands, the percentile) are written here with the function they mirror.
 */
import { DatasetError } from '../../errors.js';
import { POLLUTANTS } from '../../classification/belaqi.js';
import { ACCEPTABLE_UTCI, COMFORTABLE_UTCI } from '../../classification/utci.js';
import { WIND_LIMITS_MS } from '../../classification/wind.js';
import { GOOD_MAX_CLASS } from '../../stats/belaqi.js';
import { SEASONS } from '../../stats/calendar.js';
import type { Anchor } from '../../stats/numeric.js';
import { THERMAL_SEASON_ANCHORS, WHO_LADDERS, WIND_ALLOWANCE_BP, WORST_MOMENT_LADDER } from '../../stats/scoring.js';
import { OUTDOOR_SEASONS, STRONG_HEAT_STRESS_C, TROPICAL_NIGHT_MIN_C } from '../../stats/thermal.js';
import { FREQUENT_SITTING_MS, GUST_EQUIVALENT_FACTOR, WORST_MOMENT_TOLERANCE_MS } from '../../stats/wind-classes.js';
import { HOURLY_FIELDS, type CfEncoding, type HourlyField } from '../../store/dataset-types.js';
import { PARAMS } from './kernel-layout.js';

/** Wind score bands from best (scoring.ts `WIND_BANDS`, not exported there). */
const WIND_BANDS = [10, 8, 6, 4, 2];
/** Comfort class bounds U > 15, U > 8, U > 6, U ≥ 4 and gust bounds G > 15, G ≥ 10, as the kernel reads them. */
const WIND_CLASS_BOUNDS = [
  WIND_LIMITS_MS.danger, WIND_LIMITS_MS.windy, WIND_LIMITS_MS.slightlyWindy, WIND_LIMITS_MS.calm,
  WIND_LIMITS_MS.danger, WIND_LIMITS_MS.gust,
];
/** Percentile of `p95_ucomfort_ms` (wind.ts `P95`). */
const P95 = 0.95;
/** Comfortable (9, 26], acceptable (0, 32], as the kernel reads them. */
const THERMAL_BANDS = [COMFORTABLE_UTCI.above, COMFORTABLE_UTCI.upTo, ACCEPTABLE_UTCI.above, ACCEPTABLE_UTCI.upTo];

/** Writes a ladder as count, x0, y0, x1, y1, … into `slots` slots from `at`. */
function putLadder(out: Float64Array, at: number, slots: number, anchors: readonly Anchor[], what: string): void {
  if (anchors.length < 1 || 1 + 2 * anchors.length > slots) {
    throw new DatasetError(`Kernel parameter ${what}: ${anchors.length} anchors do not fit.`);
  }
  out[at] = anchors.length;
  anchors.forEach(([x, y], i) => {
    out[at + 1 + 2 * i] = x;
    out[at + 2 + 2 * i] = y;
  });
}

/** The parameter block for a computation over fields with the given CF encodings (absent fields get scale 0). */
export function kernelParams(encodings: Readonly<Partial<Record<HourlyField, CfEncoding>>>, fields: readonly HourlyField[]): Float64Array {
  const out = new Float64Array(PARAMS.COUNT);
  HOURLY_FIELDS.forEach((field, i) => {
    const encoding = fields.includes(field) ? encodings[field] : undefined;
    out[PARAMS.SCALE + i] = encoding?.scale_factor ?? 0;
    out[PARAMS.OFFSET + i] = encoding?.add_offset ?? 0;
  });
  POLLUTANTS.forEach((p, i) =>
    putLadder(out, PARAMS.WHO + i * PARAMS.LADDER_SLOTS, PARAMS.LADDER_SLOTS, WHO_LADDERS[p], `WHO ${p}`),
  );
  SEASONS.forEach((s, i) => {
    const at = PARAMS.SEASON + i * PARAMS.SEASON_SLOTS;
    putLadder(out, at, PARAMS.SEASON_SLOTS, THERMAL_SEASON_ANCHORS[s], `season ${s}`);
  });
  out.set(WIND_ALLOWANCE_BP, PARAMS.WIND_ALLOW);
  out.set(WIND_BANDS, PARAMS.WIND_BANDS);
  putLadder(out, PARAMS.WORST, PARAMS.WIND_CLASS - PARAMS.WORST, WORST_MOMENT_LADDER, 'worst moment');
  out.set(WIND_CLASS_BOUNDS, PARAMS.WIND_CLASS);
  out.set([FREQUENT_SITTING_MS, GUST_EQUIVALENT_FACTOR, WORST_MOMENT_TOLERANCE_MS, P95], PARAMS.WIND_MISC);
  out.set([...THERMAL_BANDS, STRONG_HEAT_STRESS_C, TROPICAL_NIGHT_MIN_C], PARAMS.THERMAL);
  out[PARAMS.GOOD_MAX] = GOOD_MAX_CLASS;
  out[PARAMS.OUTDOOR] = OUTDOOR_SEASONS.reduce((mask, s) => mask | (1 << SEASONS.indexOf(s)), 0);
  out[PARAMS.SUMMER] = SEASONS.indexOf('summer');
  return out;
}

// Phase B of thermal comfort: the numeric content of the thermal block from the hour records and the calendar,
// mirroring src/stats/thermal.ts step for step. Bands are exclusive below and inclusive above; seasonal shares use
// daytime hours; per-date maxima and per-night minima live in scratch arrays indexed by the calendar.
import {
  P_OFFSET, P_OUTDOOR, P_SCALE, P_SEASON, P_SEASON_SLOTS, P_SUMMER, P_THERMAL, REC_BYTES, REC_MET_CNT, REC_UTCI_RAW,
  RT_ACCEPT, RT_COMFORT, RT_COMFORT_PCT, RT_HEAT_DAYS, RT_HOURS, RT_MAX, RT_MEAN, RT_MIN, RT_MONTH_MEAN, RT_NIGHT_MEAN,
  RT_PRESENT, RT_RATING, RT_SUBSCORE, RT_TROPICAL,
} from './_layout';
import { cfMean, interpolate, meanOr, param, put, sharePct } from './_numeric';

/** Scratch layout (bytes): i32 tallies, monthly f64 sums, then per-date maxima and per-night minima (f64 × days). */
const S_MONTH_HOURS: usize = 0; // i32 × 12
const S_DAY_HOURS: usize = 48; // i32 × 4 seasons
const S_DAY_COMFORT: usize = 64; // i32 × 4
const S_DAY_ACCEPT: usize = 80; // i32 × 4
const S_MONTH_SUM: usize = 96; // f64 × 12
/** Start of the two f64 arrays of length `days`. */
export const THERMAL_DAYS: usize = 192;

/** The i32 at `p` plus `v`, stored back. */
@inline function add(p: usize, v: i32): void {
  store<i32>(p, load<i32>(p) + v);
}

/** i32 tally at byte offset `at` + 4 × `i`, as f64. */
@inline function tally(scratch: usize, at: usize, i: i32): f64 {
  return <f64>load<i32>(scratch + at + (<usize>i << 2));
}

/** Writes the thermal results at `out`; `scratch` needs THERMAL_DAYS + 16 × days bytes. */
export function finalizeThermal(
  hours: i32, days: i32, acc: usize, month: usize, season: usize, isDay: usize, dayIndex: usize, nightIndex: usize,
  params: usize, scratch: usize, out: usize,
): void {
  memory.fill(scratch, 0, THERMAL_DAYS);
  const dayMax = scratch + THERMAL_DAYS;
  const nightMin = dayMax + (<usize>days << 3);
  for (let d = 0; d < days; d++) {
    store<f64>(dayMax + (<usize>d << 3), -Infinity);
    store<f64>(nightMin + (<usize>d << 3), Infinity);
  }
  const scale = param(params, P_SCALE + 5), offset = param(params, P_OFFSET + 5);
  const comfortLo = param(params, P_THERMAL), comfortHi = param(params, P_THERMAL + 1);
  const acceptLo = param(params, P_THERMAL + 2), acceptHi = param(params, P_THERMAL + 3);
  const summer = <i32>param(params, P_SUMMER);
  let valid = 0, comfortable = 0, nightHours = 0;
  let sum: f64 = 0, nightSum: f64 = 0, lowest = Infinity, highest = -Infinity;
  for (let h = 0; h < hours; h++) {
    const rec = acc + <usize>h * REC_BYTES;
    const u = cfMean(load<i64>(rec + REC_UTCI_RAW), load<i32>(rec + REC_MET_CNT + 8), scale, offset);
    if (isNaN(u)) continue;
    const s = <i32>load<u8>(season + <usize>h);
    const comfy = <i32>(u > comfortLo && u <= comfortHi);
    valid++;
    sum += u;
    lowest = min(lowest, u);
    highest = max(highest, u);
    comfortable += comfy;
    const m = <usize>(load<u8>(month + <usize>h) - 1);
    add(scratch + S_MONTH_HOURS + (m << 2), 1);
    store<f64>(scratch + S_MONTH_SUM + (m << 3), load<f64>(scratch + S_MONTH_SUM + (m << 3)) + u);
    if (load<u8>(isDay + <usize>h) == 1) {
      add(scratch + S_DAY_HOURS + (<usize>s << 2), 1);
      add(scratch + S_DAY_COMFORT + (<usize>s << 2), comfy);
      add(scratch + S_DAY_ACCEPT + (<usize>s << 2), <i32>(u > acceptLo && u <= acceptHi));
    } else if (s == summer) {
      nightSum += u;
      nightHours++;
    }
    const dp = dayMax + (<usize>load<i16>(dayIndex + (<usize>h << 1)) << 3);
    store<f64>(dp, max(load<f64>(dp), u));
    const night = <i32>load<i16>(nightIndex + (<usize>h << 1));
    if (night >= 0) {
      const np = nightMin + (<usize>night << 3);
      store<f64>(np, min(load<f64>(np), u));
    }
  }
  // The block needs an hour with data and a daytime hour in some outdoor (rated) season.
  const outdoor = <i32>param(params, P_OUTDOOR);
  let weakest = Infinity;
  let rated = false;
  for (let s = 0; s < 4; s++) {
    const dayHours = tally(scratch, S_DAY_HOURS, s);
    const comfort = sharePct(tally(scratch, S_DAY_COMFORT, s), dayHours);
    const accept = sharePct(tally(scratch, S_DAY_ACCEPT, s), dayHours);
    put(out, RT_COMFORT + s, comfort);
    put(out, RT_ACCEPT + s, accept);
    const ladder = params + (<usize>(P_SEASON + s * P_SEASON_SLOTS) << 3);
    put(out, RT_SUBSCORE + s, isNaN(accept) ? NaN : interpolate(ladder, accept));
    if ((outdoor >> s) & 1 && !isNaN(comfort)) {
      weakest = min(weakest, comfort);
      rated = true;
    }
  }
  put(out, RT_PRESENT, valid > 0 && rated ? 1 : 0);
  put(out, RT_HOURS, valid);
  if (valid == 0 || !rated) return;
  const total = <f64>valid;
  const heat = param(params, P_THERMAL + 4), tropical = param(params, P_THERMAL + 5);
  let heatDays = 0, tropicalNights = 0;
  for (let d = 0; d < days; d++) {
    heatDays += <i32>(load<f64>(dayMax + (<usize>d << 3)) > heat);
    const low = load<f64>(nightMin + (<usize>d << 3));
    tropicalNights += <i32>(isFinite(low) && low > tropical);
  }
  put(out, RT_RATING, weakest / 10);
  put(out, RT_HEAT_DAYS, heatDays);
  put(out, RT_TROPICAL, tropicalNights);
  put(out, RT_NIGHT_MEAN, meanOr(nightSum, nightHours));
  put(out, RT_COMFORT_PCT, (<f64>comfortable * 100) / total);
  put(out, RT_MEAN, sum / total);
  put(out, RT_MIN, lowest);
  put(out, RT_MAX, highest);
  for (let m = 0; m < 12; m++) {
    put(out, RT_MONTH_MEAN + m, meanOr(load<f64>(scratch + S_MONTH_SUM + (<usize>m << 3)), tally(scratch, S_MONTH_HOURS, m)));
  }
}

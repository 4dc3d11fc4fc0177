/**
 * Reference phase B of thermal comfort: the thermal block from `ThermalHourly` and the calendar (interface spec
 * "thermal block", docs/statistics.md). Bands on hourly UTCI (°C, exclusive lower, inclusive upper bound as in the UTCI scale):
 * comfortable 9 < UTCI ≤ 26 ("no thermal stress"), acceptable 0 < UTCI ≤ 32. Seasonal shares use daytime hours
 * (local 08–20) with data; annual figures use every hour with data.
 */
import { ACCEPTABLE_UTCI, COMFORTABLE_UTCI, inBand, STRONG_HEAT_STRESS_ABOVE_C } from '../classification/utci.js';
import { DatasetError } from '../errors.js';
import { monthlyValues, type PerSeason, type ThermalBlock } from './blocks.js';
import { SEASONS, type Calendar, type Season } from './calendar.js';
import { checkHours, type ThermalHourly } from './hourly-aggregates.js';
import { meanOrNull, roundHalfUp, roundOrNull, sharePct } from './numeric.js';
import { scoreLabel, seasonSubscore } from './scoring.js';

/** Comfortable band (UTCI class "no thermal stress", src/classification/utci.ts): 9 < UTCI ≤ 26 °C. */
export const isComfortable = (utci: number): boolean => inBand(COMFORTABLE_UTCI, utci);
/** Acceptable band used by the score (UTCI classes slight cold to moderate heat stress): 0 < UTCI ≤ 32 °C. */
export const isAcceptable = (utci: number): boolean => inBand(ACCEPTABLE_UTCI, utci);
/** Strong heat stress starts above 32 °C (UTCI category "strong heat stress", 32 to 38). */
export const STRONG_HEAT_STRESS_C = STRONG_HEAT_STRESS_ABOVE_C;
/** A tropical night's minimum UTCI stays above 20 °C. */
export const TROPICAL_NIGHT_MIN_C = 20;
/** Seasons that are rated (winter is reported, never rated). */
export const OUTDOOR_SEASONS: readonly Season[] = ['spring', 'summer', 'autumn'];

const SUMMER = SEASONS.indexOf('summer');

/**
 * The thermal block, or `undefined` when there is no hour with data or no daytime hour with data in spring, summer or
 * autumn (no rating can be formed; the caller reports that as an error). `citySummerNightMeanC` is the coverage-wide
 * summer night mean UTCI; when given, `summer_night_vs_city_c` is this location's mean minus it.
 */
export function computeThermalBlock(
  thermal: ThermalHourly, calendar: Calendar, citySummerNightMeanC?: number,
): ThermalBlock | undefined {
  checkHours(calendar, thermal.utci.length, 'Thermal aggregates');
  const t = tallyThermal(thermal, calendar);
  if (t.valid === 0) return undefined;

  const comfort = SEASONS.map((_, s) => sharePct(t.dayComfort[s], t.dayHours[s]));
  const acceptable = SEASONS.map((_, s) => sharePct(t.dayAcceptable[s], t.dayHours[s]));
  const outdoor = OUTDOOR_SEASONS.map((season) => comfort[SEASONS.indexOf(season)]).filter((v) => v !== null);
  return publishThermalBlock({
    comfort,
    acceptable,
    subscores: SEASONS.map((season, s) => (acceptable[s] === null ? null : seasonSubscore(season, acceptable[s]))),
    rating: Math.min(...(outdoor as number[])) / 10,
    strongHeatStressDays: t.dayMax.filter((v) => v > STRONG_HEAT_STRESS_C).length,
    tropicalNights: t.nightMin.filter((v) => Number.isFinite(v) && v > TROPICAL_NIGHT_MIN_C).length,
    summerNightMean: meanOrNull(t.summerNightSum, t.summerNightHours),
    comfortPct: (t.comfortable * 100) / t.valid,
    mean: t.sum / t.valid,
    min: t.min,
    max: t.max,
    monthlyMean: t.monthSum.map((sum, m) => meanOrNull(sum, t.monthHours[m])),
  }, citySummerNightMeanC);
}

/** The thermal figures of a year at full precision (per season in `SEASONS` order; null = no daytime data). */
export interface ThermalValues {
  readonly comfort: readonly (number | null)[];
  readonly acceptable: readonly (number | null)[];
  /** Season subscores before rounding. */
  readonly subscores: readonly (number | null)[];
  /** Weakest outdoor-season comfortable share / 10, before rounding. */
  readonly rating: number;
  readonly strongHeatStressDays: number;
  readonly tropicalNights: number;
  readonly summerNightMean: number | null;
  readonly comfortPct: number;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly monthlyMean: readonly (number | null)[];
}

/**
 * Publishes the thermal block from full-precision figures: rounding, and the choices the definitions make on published
 * values (rating-limiting seasons on rounded comfortable shares, limiting seasons on rounded subscores, the label from
 * the rounded score). Shared by the reference and the kernel, so both publish identically. `undefined` when no outdoor
 * season has daytime data (no rating can be formed).
 */
export function publishThermalBlock(v: ThermalValues, citySummerNightMeanC?: number): ThermalBlock | undefined {
  const outdoor = SEASONS.filter((season, s) => OUTDOOR_SEASONS.includes(season) && v.comfort[s] !== null);
  if (outdoor.length === 0) return undefined;
  const published = (s: Season): number => roundHalfUp(v.comfort[SEASONS.indexOf(s)] as number, 1);
  const weakest = Math.min(...outdoor.map(published));
  const ratingLimiting = outdoor.filter((s) => published(s) === weakest);
  const subscores = v.subscores.map((x) => (x === null ? null : roundHalfUp(x, 1)));
  const score = Math.min(...subscores.filter((x): x is number => x !== null));
  const limiting = SEASONS.filter((_, s) => subscores[s] === score);
  const vsCity = summerNightVsCity(v.summerNightMean, citySummerNightMeanC);
  return {
    rating: roundHalfUp(v.rating, 1),
    score,
    label: scoreLabel(score),
    seasonal_comfort_pct: perSeason(v.comfort),
    rating_limiting_seasons: ratingLimiting,
    rating_limiting_season: ratingLimiting[0],
    seasonal_acceptable_pct: perSeason(v.acceptable),
    limiting_seasons: limiting,
    limiting_season: limiting[0],
    summer_day_comfort_pct: roundOrNull(v.comfort[SUMMER], 1),
    strong_heat_stress_days: v.strongHeatStressDays,
    tropical_nights: v.tropicalNights,
    summer_night_mean_utci_c: roundOrNull(v.summerNightMean, 1),
    ...(vsCity === undefined ? {} : { summer_night_vs_city_c: roundHalfUp(vsCity, 1) }),
    comfort_pct: roundHalfUp(v.comfortPct, 1),
    mean_utci_c: roundHalfUp(v.mean, 1),
    min_utci_c: roundHalfUp(v.min, 1),
    max_utci_c: roundHalfUp(v.max, 1),
    monthly_mean_utci_c: monthlyValues(v.monthlyMean, 1),
  };
}

/** Year totals at full precision; per-date maxima start at −∞ and per-night minima at +∞ (untouched = no data). */
interface ThermalTally {
  valid: number; sum: number; min: number; max: number; comfortable: number;
  monthSum: number[]; monthHours: number[];
  dayHours: number[]; dayComfort: number[]; dayAcceptable: number[];
  summerNightSum: number; summerNightHours: number;
  dayMax: Float64Array; nightMin: Float64Array;
}

/** One pass over the hours with data. */
function tallyThermal(thermal: ThermalHourly, calendar: Calendar): ThermalTally {
  const t: ThermalTally = {
    valid: 0, sum: 0, min: Infinity, max: -Infinity, comfortable: 0,
    monthSum: new Array<number>(12).fill(0), monthHours: new Array<number>(12).fill(0),
    dayHours: [0, 0, 0, 0], dayComfort: [0, 0, 0, 0], dayAcceptable: [0, 0, 0, 0],
    summerNightSum: 0, summerNightHours: 0,
    dayMax: new Float64Array(calendar.days).fill(-Infinity), nightMin: new Float64Array(calendar.days).fill(Infinity),
  };
  for (let h = 0; h < calendar.hours; h++) {
    const u = thermal.utci[h];
    if (Number.isNaN(u)) continue;
    const season = calendar.season[h];
    t.valid += 1;
    t.sum += u;
    t.min = Math.min(t.min, u);
    t.max = Math.max(t.max, u);
    t.comfortable += isComfortable(u) ? 1 : 0;
    t.monthSum[calendar.month[h] - 1] += u;
    t.monthHours[calendar.month[h] - 1] += 1;
    if (calendar.isDay[h] === 1) {
      t.dayHours[season] += 1;
      t.dayComfort[season] += isComfortable(u) ? 1 : 0;
      t.dayAcceptable[season] += isAcceptable(u) ? 1 : 0;
    } else if (season === SUMMER) {
      t.summerNightSum += u;
      t.summerNightHours += 1;
    }
    const day = calendar.dayIndex[h];
    t.dayMax[day] = Math.max(t.dayMax[day], u);
    const night = calendar.nightIndex[h];
    if (night >= 0) t.nightMin[night] = Math.min(t.nightMin[night], u);
  }
  return t;
}

/** Location minus the coverage-wide reference, or `undefined` when either is missing. */
function summerNightVsCity(mean: number | null, reference: number | undefined): number | undefined {
  if (reference === undefined || mean === null) return undefined;
  if (!Number.isFinite(reference)) {
    throw new DatasetError(`City summer night reference must be finite, got ${reference}.`);
  }
  return mean - reference;
}

/** A per-season object (winter, spring, summer, autumn) of rounded percentages, `null` for a season without hours. */
function perSeason(values: readonly (number | null)[]): PerSeason {
  return { winter: roundOrNull(values[0], 1), spring: roundOrNull(values[1], 1), summer: roundOrNull(values[2], 1),
    autumn: roundOrNull(values[3], 1) };
}

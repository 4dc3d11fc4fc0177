/**
 * Shapes of the three statistics blocks of `GET /historical/stats` (interface spec, "air block", "wind block",
 * "thermal block"). Field order here is the spec's table order and the order the builders emit. Values are already
 * rounded (docs/statistics.md): percentages and °C to 1 decimal, m/s to 2, scores and ratings to 1, µg/m3 to 1.
 */
import type { BelaqiLabel, Pollutant } from '../classification/belaqi.js';
import type { WindClassLabel } from '../classification/wind.js';
import type { Season } from './calendar.js';
import { roundHalfUp } from './numeric.js';
import type { ScoreLabel, WindExceedanceKey } from './scoring.js';

/** Month keys "1" … "12" of every monthly object. */
export const MONTH_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12'] as const;
/** A month key "1" … "12". */
export type MonthKey = (typeof MONTH_KEYS)[number];

/** One value per month; `null` for a month without valid hours. */
export type MonthlyValues = Readonly<Record<MonthKey, number | null>>;

/** One value per pollutant; `null` for a pollutant without data. */
export type PerPollutant<T> = Readonly<Record<Pollutant, T>>;

/** One value per season (winter, spring, summer, autumn); `null` for a season absent from the data. */
export type PerSeason = Readonly<Record<Season, number | null>>;

/** Grouped BelAQI bands. */
export interface GroupedPct {
  readonly g12: number;
  readonly g34: number;
  readonly g56: number;
  readonly g710: number;
}

/** Optional city-centre reference of the air block (structure decided here, see docs/statistics.md). */
export interface AirBenchmark {
  /** Mean good-air share over the reference locations, percent. */
  readonly city_good_pct: number;
  /** This location's good_pct minus city_good_pct, percentage points (positive = better air than the reference). */
  readonly difference_pct: number;
  /** Number of reference locations averaged. */
  readonly locations: number;
}

/** The air block. */
export interface AirBlock {
  readonly rating: number;
  readonly score: number;
  readonly label: ScoreLabel;
  readonly hours_graded: number;
  readonly annual_mean_ugm3: PerPollutant<number | null>;
  readonly pollutant_scores: PerPollutant<number | null>;
  readonly limiting_pollutants: readonly Pollutant[];
  readonly limiting_pollutant: Pollutant;
  readonly distribution_pct: Readonly<Record<BelaqiLabel, number>>;
  readonly grouped_pct: GroupedPct;
  readonly good_pct: number;
  readonly day_good_pct: number | null;
  readonly night_good_pct: number | null;
  readonly monthly_good_pct: MonthlyValues;
  readonly best_month: number;
  readonly worst_month: number;
  readonly dominant_pollutant: Pollutant;
  readonly pollutant_share_pct: PerPollutant<number>;
  readonly benchmark?: AirBenchmark | undefined;
}


/** The wind block. */
export interface WindBlock {
  readonly rating: number;
  readonly score: number;
  readonly label: ScoreLabel;
  readonly distribution_pct: Readonly<Record<WindClassLabel, number>>;
  readonly calm_pct: number;
  readonly eff_mean_ms: number;
  readonly worst_moment_ms: number;
  readonly worst_moment_hours: number;
  readonly exceedance_pct: Readonly<Record<WindExceedanceKey, number>>;
  readonly mean_ucomfort_ms: number;
  readonly p95_ucomfort_ms: number;
  /** `null` when no hour carries a gust value (dataset without Ugust). */
  readonly max_gust_ms: number | null;
  readonly monthly_mean_ucomfort_ms: MonthlyValues;
}

/** The thermal block. */
export interface ThermalBlock {
  readonly rating: number;
  readonly score: number;
  readonly label: ScoreLabel;
  readonly seasonal_comfort_pct: PerSeason;
  readonly rating_limiting_seasons: readonly Season[];
  readonly rating_limiting_season: Season;
  readonly seasonal_acceptable_pct: PerSeason;
  readonly limiting_seasons: readonly Season[];
  readonly limiting_season: Season;
  readonly summer_day_comfort_pct: number | null;
  readonly strong_heat_stress_days: number;
  readonly tropical_nights: number;
  readonly summer_night_mean_utci_c: number | null;
  /** Present only when the coverage-wide reference was passed in and summer night hours exist. */
  readonly summer_night_vs_city_c?: number;
  readonly comfort_pct: number;
  readonly mean_utci_c: number;
  readonly min_utci_c: number;
  readonly max_utci_c: number;
  readonly monthly_mean_utci_c: MonthlyValues;
}

/** The blocks a computation produced; a block is absent when its metric has no data or zero valid hours. */
export interface StatBlocks {
  readonly air?: AirBlock;
  readonly wind?: WindBlock;
  readonly thermal?: ThermalBlock;
}

/** Builds a monthly object from 12 full-precision values (index 0 = January), rounding each to `decimals`. */
export function monthlyValues(values: readonly (number | null)[], decimals: number): MonthlyValues {
  const out = {} as Record<MonthKey, number | null>;
  MONTH_KEYS.forEach((key, i) => {
    const v = values[i];
    out[key] = v === null ? null : roundHalfUp(v, decimals);
  });
  return out;
}

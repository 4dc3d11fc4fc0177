/**
 * Reference phase B entry point: every block a dataset's aggregates support, from `HourlyAggregates` and the calendar.
 * Each block is computed independently; a metric without aggregates or without a valid hour yields no block.
 */
import { computeAirBlock, type AirBenchmarkRef } from './air.js';
import type { StatBlocks } from './blocks.js';
import type { Calendar } from './calendar.js';
import { checkHours, type HourlyAggregates } from './hourly-aggregates.js';
import { computeThermalBlock } from './thermal.js';
import { computeWindBlock } from './wind.js';

/** Optional references that some block fields compare against. */
export interface StatisticsOptions {
  /** City-centre good-air reference; adds `air.benchmark` when given. */
  readonly airBenchmark?: AirBenchmarkRef;
  /** Coverage-wide summer night mean UTCI, °C; adds `thermal.summer_night_vs_city_c` when given. */
  readonly citySummerNightMeanUtciC?: number;
}

/** Computes the air, wind and thermal blocks the aggregates support; absent metrics and empty metrics are left out. */
export function computeStatistics(
  aggregates: HourlyAggregates, calendar: Calendar, options: StatisticsOptions = {},
): StatBlocks {
  checkHours(calendar, aggregates.hours, 'Hourly aggregates');
  const air = aggregates.air && computeAirBlock(aggregates.air, calendar, options.airBenchmark);
  const wind = aggregates.wind && computeWindBlock(aggregates.wind, calendar);
  const thermal = aggregates.thermal
    && computeThermalBlock(aggregates.thermal, calendar, options.citySummerNightMeanUtciC);
  return {
    ...(air ? { air } : {}),
    ...(wind ? { wind } : {}),
    ...(thermal ? { thermal } : {}),
  };
}

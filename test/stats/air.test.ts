import { describe, expect, it } from 'vitest';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { computeAirBlock } from '../../src/stats/air.js';
import { field, utcCalendar } from './helpers.js';

const YEAR = utcCalendar(8760);
const NaN32 = Number.NaN;

/** One cell over the UTC year 2023; `no2(h)` per hour. */
function yearOfNo2(no2: (month: number, isDay: boolean, h: number) => number) {
  const values = field(8760, 1, (h) => no2(YEAR.month[h], YEAR.isDay[h] === 1, h));
  return aggregateHours({ no2: values }, 8760, 1).air!;
}

describe('computeAirBlock: a hand-computed year', () => {
  // January: NO2 12 (class 2) all hours. February: daytime 35 (class 5), night 12. March–December: missing.
  const air = yearOfNo2((m, day) => (m === 1 ? 12 : m === 2 ? (day ? 35 : 12) : NaN32));
  const block = computeAirBlock(air, YEAR)!;

  it('counts graded hours only and shares them', () => {
    expect(block.hours_graded).toBe(744 + 672);
    expect(block.good_pct).toBe(76.3); // 1080 / 1416
    expect(block.rating).toBe(7.6);
    expect(block.distribution_pct).toEqual({
      Excellent: 0, 'Very good': 76.3, Good: 0, 'Fairly good': 0, Moderate: 23.7,
      Poor: 0, 'Very poor': 0, Bad: 0, 'Very bad': 0, Horrible: 0,
    });
    expect(block.grouped_pct).toEqual({ g12: 76.3, g34: 0, g56: 23.7, g710: 0 });
    expect(block.day_good_pct).toBe(52.5); // 372 / 708
    expect(block.night_good_pct).toBe(100);
  });

  it('reports months without graded hours as null', () => {
    expect(block.monthly_good_pct).toEqual({
      1: 100, 2: 50, 3: null, 4: null, 5: null, 6: null, 7: null, 8: null, 9: null, 10: null, 11: null, 12: null,
    });
    expect([block.best_month, block.worst_month]).toEqual([1, 2]);
  });

  it('scores the annual mean on the WHO ladder', () => {
    expect(block.annual_mean_ugm3).toEqual({ no2: 17.5, pm25: null, pm10: null }); // 24720 / 1416 = 17.46
    expect(block.pollutant_scores).toEqual({ no2: 7, pm25: null, pm10: null }); // 10 − 0.4 × 7.46 = 7.02
    expect([block.score, block.label]).toEqual([7, 'Good']);
    expect(block.limiting_pollutants).toEqual(['no2']);
    expect(block.limiting_pollutant).toBe('no2');
    expect(block.dominant_pollutant).toBe('no2');
    expect(block.pollutant_share_pct).toEqual({ no2: 100, pm25: 0, pm10: 0 });
  });

  it('emits the spec keys in the spec order, benchmark only when given', () => {
    expect(Object.keys(block)).toEqual([
      'rating', 'score', 'label', 'hours_graded', 'annual_mean_ugm3', 'pollutant_scores', 'limiting_pollutants',
      'limiting_pollutant', 'distribution_pct', 'grouped_pct', 'good_pct', 'day_good_pct', 'night_good_pct',
      'monthly_good_pct', 'best_month', 'worst_month', 'dominant_pollutant', 'pollutant_share_pct',
    ]);
    const withBenchmark = computeAirBlock(air, YEAR, { good_pct: 70, locations: 12 })!;
    expect(withBenchmark.benchmark).toEqual({ city_good_pct: 70, difference_pct: 6.3, locations: 12 });
    expect(Object.keys(withBenchmark).at(-1)).toBe('benchmark');
  });
});

describe('computeAirBlock: ties', () => {
  it('gives best and worst month ties to the earlier month', () => {
    const air = yearOfNo2((m, day) => ([1, 3].includes(m) ? 12 : [2, 4].includes(m) ? (day ? 35 : 12) : NaN32));
    const block = computeAirBlock(air, YEAR)!;
    expect([block.best_month, block.worst_month]).toEqual([1, 2]);
  });

  it('decides month ties on the published one-decimal shares', () => {
    // January 2 good of 3 graded (66.67 %); February 447 of 670 (66.72 %): both publish 66.7. March 0 of 1.
    const air = yearOfNo2((m, _day, h) => {
      const hourOfMonth = h - YEAR.month.indexOf(m);
      if (m === 1) return hourOfMonth < 2 ? 12 : hourOfMonth < 3 ? 35 : NaN32;
      if (m === 2) return hourOfMonth < 447 ? 12 : hourOfMonth < 670 ? 35 : NaN32;
      if (m === 3) return hourOfMonth < 1 ? 35 : NaN32;
      return NaN32;
    });
    const block = computeAirBlock(air, YEAR)!;
    expect(block.monthly_good_pct['1']).toBe(66.7);
    expect(block.monthly_good_pct['2']).toBe(66.7);
    expect([block.best_month, block.worst_month]).toEqual([1, 3]);
  });

  it('lists every pollutant on the lowest subscore, in NO2, PM2.5, PM10 order', () => {
    const hours = 24;
    const agg = aggregateHours({
      no2: field(hours, 1, () => 20), pm25: field(hours, 1, () => 15), pm10: field(hours, 1, () => 20),
    }, hours, 1);
    const block = computeAirBlock(agg.air!, utcCalendar(hours))!;
    expect(block.pollutant_scores).toEqual({ no2: 6, pm25: 6, pm10: 8 });
    expect(block.limiting_pollutants).toEqual(['no2', 'pm25']);
    expect([block.limiting_pollutant, block.score, block.label]).toEqual(['no2', 6, 'Good']);
  });

  it('picks the hourly dominant pollutant by mean sub-index with ties in NO2, PM2.5, PM10 order', () => {
    // Hours 0–23: cell 0 NO2 18 (3), PM2.5 9 (3); cell 1 PM10 40 (4) → PM10 dominates; class (3 + 4) / 2 → 4.
    // Hours 24–47: both cells NO2 18 (3) and PM2.5 9 (3) → tie, NO2 dominates; class 3.
    const hours = 48;
    const agg = aggregateHours({
      no2: field(hours, 2, (h, c) => (c === 0 || h >= 24 ? 18 : NaN32)),
      pm25: field(hours, 2, (h, c) => (c === 0 || h >= 24 ? 9 : NaN32)),
      pm10: field(hours, 2, (h, c) => (c === 1 && h < 24 ? 40 : NaN32)),
    }, hours, 2);
    const block = computeAirBlock(agg.air!, utcCalendar(hours))!;
    expect(block.pollutant_share_pct).toEqual({ no2: 50, pm25: 0, pm10: 50 });
    expect(block.dominant_pollutant).toBe('no2');
    expect(block.distribution_pct.Good).toBe(50);
    expect(block.distribution_pct['Fairly good']).toBe(50);
    expect(block.annual_mean_ugm3).toEqual({ no2: 18, pm25: 9, pm10: 40 });
    expect(block.pollutant_scores).toEqual({ no2: 6.8, pm25: 8.4, pm10: 5 });
    expect([block.score, block.label, block.limiting_pollutant]).toEqual([5, 'Moderate', 'pm10']);
    expect(block.night_good_pct).toBe(100);
  });
});

describe('computeAirBlock: missing data', () => {
  it('returns undefined when no hour is graded', () => {
    const agg = aggregateHours({ no2: field(24, 2, () => 0), pm25: field(24, 2, () => NaN32) }, 24, 2);
    expect(computeAirBlock(agg.air!, utcCalendar(24))).toBeUndefined();
  });

  it('excludes a fully missing hour from every denominator', () => {
    const agg = aggregateHours({ pm10: field(24, 1, (h) => (h === 9 ? NaN32 : h < 8 ? 5 : 70)) }, 24, 1);
    const block = computeAirBlock(agg.air!, utcCalendar(24))!;
    expect(block.hours_graded).toBe(23);
    expect(block.day_good_pct).toBe(0); // 11 daytime hours graded, all class 6
    expect(block.night_good_pct).toBe(66.7); // 8 of 12
    expect(block.good_pct).toBe(34.8); // 8 / 23
  });
});

import { describe, expect, it } from 'vitest';
import { aggregateHours } from '../../src/stats/aggregate.js';
import { buildCalendar, type Calendar } from '../../src/stats/calendar.js';
import { computeThermalBlock } from '../../src/stats/thermal.js';
import { field, utcCalendar, utcHour } from './helpers.js';

const YEAR = utcCalendar(8760);
const NaN32 = Number.NaN;

/** One cell of UTCI over a calendar from `utci(h)`. */
function thermalOf(cal: Calendar, utci: (h: number) => number) {
  return aggregateHours({ utci: field(cal.hours, 1, (h) => utci(h)) }, cal.hours, 1).thermal!;
}

describe('computeThermalBlock: one value per season', () => {
  const bySeason = [5, 15, 30, 15]; // winter, spring, summer, autumn
  const block = computeThermalBlock(thermalOf(YEAR, (h) => bySeason[YEAR.season[h]]), YEAR)!;

  it('rates the weakest outdoor season and scores the acceptable shares', () => {
    expect(block.seasonal_comfort_pct).toEqual({ winter: 0, spring: 100, summer: 0, autumn: 100 });
    expect(block.rating).toBe(0);
    expect([block.rating_limiting_seasons, block.rating_limiting_season]).toEqual([['summer'], 'summer']);
    expect(block.seasonal_acceptable_pct).toEqual({ winter: 100, spring: 100, summer: 100, autumn: 100 });
    expect([block.score, block.label]).toEqual([10, 'Excellent']);
    expect(block.limiting_seasons).toEqual(['winter', 'spring', 'summer', 'autumn']);
    expect(block.limiting_season).toBe('winter');
  });

  it('reports annual and night figures', () => {
    expect(block.summer_day_comfort_pct).toBe(0);
    expect(block.strong_heat_stress_days).toBe(0);
    expect(block.tropical_nights).toBe(91); // nights starting 1 June … 30 August
    expect(block.summer_night_mean_utci_c).toBe(30);
    expect(block.summer_night_vs_city_c).toBeUndefined();
    expect(block.comfort_pct).toBe(50.1); // 183 × 24 / 8760
    expect([block.mean_utci_c, block.min_utci_c, block.max_utci_c]).toEqual([16.3, 5, 30]); // 5955 / 365
    expect(block.monthly_mean_utci_c).toEqual({
      1: 5, 2: 5, 3: 15, 4: 15, 5: 15, 6: 30, 7: 30, 8: 30, 9: 15, 10: 15, 11: 15, 12: 5,
    });
  });

  it('emits the spec keys in the spec order', () => {
    expect(Object.keys(block)).toEqual([
      'rating', 'score', 'label', 'seasonal_comfort_pct', 'rating_limiting_seasons', 'rating_limiting_season',
      'seasonal_acceptable_pct', 'limiting_seasons', 'limiting_season', 'summer_day_comfort_pct',
      'strong_heat_stress_days', 'tropical_nights', 'summer_night_mean_utci_c', 'comfort_pct', 'mean_utci_c',
      'min_utci_c', 'max_utci_c', 'monthly_mean_utci_c',
    ]);
  });
});

describe('computeThermalBlock: ties between seasons', () => {
  it('lists tied outdoor seasons for the rating and a lone winter for the score', () => {
    // Winter −5 (not acceptable); spring and autumn daytime alternate 15 / 5 (50 % comfortable); summer 20.
    const utci = (h: number): number => {
      const s = YEAR.season[h];
      if (s === 0) return -5;
      if (s === 2) return 20;
      return h % 2 === 0 ? 15 : 5;
    };
    const block = computeThermalBlock(thermalOf(YEAR, utci), YEAR)!;
    expect(block.seasonal_comfort_pct).toEqual({ winter: 0, spring: 50, summer: 100, autumn: 50 });
    expect(block.rating).toBe(5);
    expect(block.rating_limiting_seasons).toEqual(['spring', 'autumn']);
    expect(block.rating_limiting_season).toBe('spring');
    expect(block.seasonal_acceptable_pct.winter).toBe(0);
    expect([block.score, block.label]).toEqual([0, 'Bad']);
    expect([block.limiting_seasons, block.limiting_season]).toEqual([['winter'], 'winter']);
  });
});

describe('computeThermalBlock: heat days and tropical nights (July only)', () => {
  const july = (h: number): boolean => YEAR.month[h] === 7;
  const special = new Map<number, number>([
    [utcHour(2023, 7, 10, 13), 33], // strong heat stress day
    [utcHour(2023, 7, 11, 13), 32], // exactly 32: not above
    [utcHour(2023, 7, 6, 3), 20], // night of 5 July: minimum exactly 20, not tropical
  ]);
  const thermal = thermalOf(YEAR, (h) => (july(h) ? (special.get(h) ?? 22) : NaN32));
  const block = computeThermalBlock(thermal, YEAR, 21.5)!;

  it('counts days above 32 °C and nights whose minimum stays above 20 °C', () => {
    expect(block.strong_heat_stress_days).toBe(1);
    // Nights of 30 June (morning only) through 31 July (evening only) have data: 32 nights, one not tropical.
    expect(block.tropical_nights).toBe(31);
  });

  it('reports seasons without hours as null and rates the seasons present', () => {
    expect(block.seasonal_comfort_pct).toEqual({ winter: null, spring: null, summer: 99.5, autumn: null }); // 370 / 372
    // 371 of 372 summer daytime hours acceptable
    expect(block.seasonal_acceptable_pct).toEqual({ winter: null, spring: null, summer: 99.7, autumn: null });
    expect([block.rating, block.rating_limiting_seasons]).toEqual([9.9, ['summer']]);
    expect([block.score, block.limiting_seasons]).toEqual([10, ['summer']]);
    expect(block.summer_day_comfort_pct).toBe(99.5);
    expect(block.monthly_mean_utci_c['6']).toBeNull();
  });

  it('compares summer nights with the city reference only when it is given', () => {
    expect(block.summer_night_mean_utci_c).toBe(22); // (372 × 22 − 2) / 372 = 21.995
    expect(block.summer_night_vs_city_c).toBe(0.5);
    const keys = Object.keys(block);
    expect(keys.indexOf('summer_night_vs_city_c')).toBe(keys.indexOf('summer_night_mean_utci_c') + 1);
    expect(computeThermalBlock(thermal, YEAR)!.summer_night_vs_city_c).toBeUndefined();
  });
});

describe('computeThermalBlock: local calendar and missing data', () => {
  it('counts every night of a Brussels year', () => {
    const cal = buildCalendar(2023, 8760, 'Europe/Brussels');
    const block = computeThermalBlock(thermalOf(cal, () => 21), cal)!;
    expect(block.tropical_nights).toBe(365); // nights of 1 January … 31 December
    expect(block.strong_heat_stress_days).toBe(0);
  });

  it('returns undefined without data or without a daytime hour in spring, summer or autumn', () => {
    expect(computeThermalBlock(thermalOf(YEAR, () => NaN32), YEAR)).toBeUndefined();
    expect(computeThermalBlock(thermalOf(YEAR, (h) => (YEAR.season[h] === 0 ? 5 : NaN32)), YEAR)).toBeUndefined();
    expect(computeThermalBlock(thermalOf(YEAR, (h) => (YEAR.isDay[h] ? NaN32 : 15)), YEAR)).toBeUndefined();
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { aggregateHours, type DecodedFields } from '../../src/stats/aggregate.js';
import { POLLUTANTS, pollutantClass } from '../../src/classification/belaqi.js';
import { buildCalendar } from '../../src/stats/calendar.js';
import { scoreLabel } from '../../src/stats/scoring.js';
import { computeStatistics } from '../../src/stats/statistics.js';
import { sumValues } from './helpers.js';

const HOURS = 8760;
const CAL = buildCalendar(2023, HOURS, 'Europe/Brussels');
/** Fixed seed: the properties explore many inputs but every run is the same run. */
const RUNS = { numRuns: 25, seed: 20_230_101 };

/** Deterministic PRNG (mulberry32), so one small fast-check value describes a whole year of fields. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

interface Recipe { seed: number; nCells: number; missing: number; level: number; withGust: boolean }

const recipe = fc.record({
  seed: fc.integer(), nCells: fc.integer({ min: 1, max: 3 }), missing: fc.double({ min: 0, max: 1, noNaN: true }),
  level: fc.double({ min: 0.1, max: 3, noNaN: true }), withGust: fc.boolean(),
});

/** A year of fields over `nCells` cells: skewed random values, a share `missing` of them NaN. */
function fieldsOf(r: Recipe): DecodedFields {
  const rand = mulberry32(r.seed);
  const make = (scale: number, offset = 0): Float32Array => {
    const out = new Float32Array(HOURS * r.nCells);
    for (let i = 0; i < out.length; i++) {
      out[i] = rand() < r.missing ? Number.NaN : offset + scale * r.level * rand() * rand() * 2;
    }
    return out;
  };
  return {
    no2: make(40), pm25: make(15), pm10: make(30), ucomfort: make(5),
    ...(r.withGust ? { ugust: make(9) } : {}), utci: make(25, -5),
  };
}

const isPct = (v: number | null): boolean => v === null || (v >= 0 && v <= 100);
const isScore = (v: number): boolean => v >= 0 && v <= 10;

describe('statistics properties', () => {
  it('keep percentages in 0..100, distributions near 100 and scores in 0..10', () => {
    fc.assert(fc.property(recipe, (r) => {
      const fields = fieldsOf(r);
      const { air, wind, thermal } = computeStatistics(aggregateHours(fields, HOURS, r.nCells), CAL);
      if (air) {
        const pcts = [air.good_pct, air.day_good_pct, air.night_good_pct, ...Object.values(air.monthly_good_pct),
          ...Object.values(air.distribution_pct), ...Object.values(air.grouped_pct),
          ...Object.values(air.pollutant_share_pct)];
        expect(pcts.every(isPct)).toBe(true);
        expect(Math.abs(sumValues(air.distribution_pct) - 100)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(sumValues(air.grouped_pct) - 100)).toBeLessThanOrEqual(0.2);
        expect(Math.abs(sumValues(air.pollutant_share_pct) - 100)).toBeLessThanOrEqual(0.15);
        expect(isScore(air.score) && isScore(air.rating)).toBe(true);
        expect(air.label).toBe(scoreLabel(air.score));
        expect(air.limiting_pollutant).toBe(air.limiting_pollutants[0]);
        expect(air.pollutant_scores[air.limiting_pollutant]).toBe(air.score);
      }
      if (wind) {
        const e = wind.exceedance_pct;
        expect([wind.calm_pct, ...Object.values(wind.distribution_pct), ...Object.values(e)].every(isPct)).toBe(true);
        expect(Math.abs(sumValues(wind.distribution_pct) - 100)).toBeLessThanOrEqual(0.25);
        expect(isScore(wind.score) && isScore(wind.rating)).toBe(true);
        expect(wind.rating).toBeLessThanOrEqual(wind.score);
        expect(e.slightly_windy_or_worse >= e.windy_or_worse && e.windy_or_worse >= e.very_windy_or_worse).toBe(true);
        expect(e.very_windy_or_worse).toBeGreaterThanOrEqual(e.danger);
        expect(wind.worst_moment_hours).toBeGreaterThanOrEqual(1);
        expect(wind.p95_ucomfort_ms).toBeGreaterThanOrEqual(0);
      }
      if (thermal) {
        const pcts = [thermal.comfort_pct, thermal.summer_day_comfort_pct,
          ...Object.values(thermal.seasonal_comfort_pct), ...Object.values(thermal.seasonal_acceptable_pct)];
        expect(pcts.every(isPct)).toBe(true);
        expect(isScore(thermal.score) && isScore(thermal.rating)).toBe(true);
        expect(thermal.min_utci_c <= thermal.mean_utci_c && thermal.mean_utci_c <= thermal.max_utci_c).toBe(true);
        expect(thermal.rating_limiting_seasons).not.toContain('winter');
      }
    }), RUNS);
  });

  it('are deterministic', () => {
    fc.assert(fc.property(recipe, (r) => {
      const once = computeStatistics(aggregateHours(fieldsOf(r), HOURS, r.nCells), CAL);
      const twice = computeStatistics(aggregateHours(fieldsOf(r), HOURS, r.nCells), CAL);
      expect(twice).toEqual(once);
    }), { ...RUNS, numRuns: 5 });
  });

  it('grade each hour between its best and worst cell, whatever the cell order', () => {
    const cells = fc.array(fc.record({
      no2: fc.oneof(fc.constant(Number.NaN), fc.constant(0), fc.double({ min: 0, max: 120, noNaN: true })),
      pm25: fc.oneof(fc.constant(Number.NaN), fc.double({ min: 0, max: 90, noNaN: true })),
    }), { minLength: 1, maxLength: 8 });
    fc.assert(fc.property(cells, (list) => {
      const no2 = Float32Array.from(list.map((c) => c.no2));
      const pm25 = Float32Array.from(list.map((c) => c.pm25));
      const cls = list.map((_, i) => Math.max(pollutantClass('no2', no2[i]), pollutantClass('pm25', pm25[i])));
      const graded = cls.filter((c) => c > 0);
      const agg = aggregateHours({ no2, pm25 }, 1, list.length).air!;
      const flipped = { no2: no2.slice().reverse(), pm25: pm25.slice().reverse() };
      const reversed = aggregateHours(flipped, 1, list.length).air!;
      expect(reversed.cls[0]).toBe(agg.cls[0]);
      for (const p of POLLUTANTS) expect(reversed.pollutants[p].meanClass[0]).toEqual(agg.pollutants[p].meanClass[0]);
      if (graded.length === 0) expect(agg.cls[0]).toBe(0);
      else {
        expect(agg.cls[0]).toBeGreaterThanOrEqual(Math.min(...graded));
        expect(agg.cls[0]).toBeLessThanOrEqual(Math.max(...graded));
      }
    }), { numRuns: 200, seed: 42 });
  });
});

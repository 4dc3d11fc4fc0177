import { describe, expect, it } from 'vitest';
import {
  scoreLabel, seasonSubscore, whoSubscore, windExceedanceScore, worstMomentScore,
} from '../../src/stats/scoring.js';

describe('WHO 2021 ladders', () => {
  it('PM2.5: AQG 5 → 10, IT-4 10 → 8, IT-3 15 → 6, IT-2 25 → 4, IT-1 35 → 2, 70 → 0', () => {
    expect([0, 5, 10, 15, 25, 35, 70, 100].map((v) => whoSubscore('pm25', v))).toEqual([10, 10, 8, 6, 4, 2, 0, 0]);
    expect(whoSubscore('pm25', 7.5)).toBe(9);
    expect(whoSubscore('pm25', 30)).toBe(3);
    expect(whoSubscore('pm25', 52.5)).toBe(1);
  });
  it('PM10: AQG 15 → 10, IT-4 20 → 8, IT-3 30 → 6, IT-2 50 → 4, IT-1 70 → 2, 140 → 0', () => {
    expect([3, 15, 20, 30, 50, 70, 140, 200].map((v) => whoSubscore('pm10', v))).toEqual([10, 10, 8, 6, 4, 2, 0, 0]);
    expect(whoSubscore('pm10', 40)).toBe(5);
    expect(whoSubscore('pm10', 105)).toBe(1);
  });
  it('NO2 has no IT-4: 10 → 10, 20 → 6, 30 → 4, 40 → 2, 80 → 0', () => {
    expect([5, 10, 20, 30, 40, 80, 120].map((v) => whoSubscore('no2', v))).toEqual([10, 10, 6, 4, 2, 0, 0]);
    expect(whoSubscore('no2', 15)).toBe(8);
    expect(whoSubscore('no2', 60)).toBe(1);
  });
});

describe('scoreLabel', () => {
  it('uses the floors 9, 7.5, 6, 4, 2', () => {
    const cases: [number, string][] = [
      [10, 'Excellent'], [9, 'Excellent'], [8.9, 'Very good'], [7.5, 'Very good'], [7.4, 'Good'], [6, 'Good'],
      [5.9, 'Moderate'], [4, 'Moderate'], [3.9, 'Poor'], [2, 'Poor'], [1.9, 'Bad'], [0, 'Bad'],
    ];
    for (const [score, label] of cases) expect(scoreLabel(score), String(score)).toBe(label);
  });
});

describe('windExceedanceScore (allowances 5 %, 5 %, 5 %, 5 %, 0.05 %)', () => {
  const hours = 2000; // 5 % = 100 hours, 0.05 % = 1 hour
  it('gives 10 when no allowance is exceeded, at the allowance exactly too', () => {
    expect(windExceedanceScore([0, 0, 0, 0, 0], hours)).toBe(10);
    expect(windExceedanceScore([100, 100, 100, 100, 1], hours)).toBe(10);
  });
  it('excludes band k and every band above when threshold k is exceeded', () => {
    expect(windExceedanceScore([101, 0, 0, 0, 0], hours)).toBe(8);
    expect(windExceedanceScore([101, 101, 0, 0, 0], hours)).toBe(6);
    expect(windExceedanceScore([0, 101, 0, 0, 0], hours)).toBe(6);
    expect(windExceedanceScore([101, 101, 101, 0, 0], hours)).toBe(4);
    expect(windExceedanceScore([0, 0, 0, 101, 0], hours)).toBe(2);
    expect(windExceedanceScore([101, 101, 101, 101, 1], hours)).toBe(2);
  });
  it('gives 0 when danger exceeds 0.05 %', () => {
    expect(windExceedanceScore([0, 0, 0, 0, 2], hours)).toBe(0);
    expect(windExceedanceScore([1, 1, 1, 1, 1], 1)).toBe(0);
  });
});

describe('worstMomentScore', () => {
  it('steps at 10, 12, 15, 18 and 22 m/s (a speed on a step falls to the lower score)', () => {
    const cases: [number, number][] = [
      [0, 10], [9.99, 10], [10, 8], [11.99, 8], [12, 6], [14.99, 6], [15, 4], [17.99, 4], [18, 2], [21.99, 2],
      [22, 0], [40, 0],
    ];
    for (const [speed, score] of cases) expect(worstMomentScore(speed), String(speed)).toBe(score);
  });
});

describe('seasonSubscore anchors on the acceptable share', () => {
  it('winter 10 % → 0, 60 % → 10', () => {
    expect([0, 10, 35, 60, 100].map((v) => seasonSubscore('winter', v))).toEqual([0, 0, 5, 10, 10]);
  });
  it('spring and autumn 40 % → 0, 90 % → 10', () => {
    expect([20, 40, 65, 90, 95].map((v) => seasonSubscore('spring', v))).toEqual([0, 0, 5, 10, 10]);
    expect([20, 40, 65, 90, 95].map((v) => seasonSubscore('autumn', v))).toEqual([0, 0, 5, 10, 10]);
  });
  it('summer 60 % → 0, 95 % → 10', () => {
    expect([50, 60, 77.5, 95, 100].map((v) => seasonSubscore('summer', v))).toEqual([0, 0, 5, 10, 10]);
  });
});

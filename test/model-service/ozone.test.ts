import { describe, expect, it } from 'vitest';
import { dayOfYear, O3_UG_PER_PPB, oxidantAt, ozoneFromNo2, regionalOxidantPpb } from '../../src/model-service/ozone.js';

const BRUSSELS = { lat: 50.846, lon: 4.352 };

describe('synthesised ozone', () => {
  it('falls as NO2 rises (titration), never below 1 ppb', () => {
    const ox = regionalOxidantPpb(172, 60);
    let previous = Infinity;
    for (let no2 = 0; no2 <= 200; no2 += 5) {
      const o3 = ozoneFromNo2(no2, ox);
      expect(o3).toBeLessThanOrEqual(previous);
      expect(o3).toBeGreaterThanOrEqual(O3_UG_PER_PPB);
      previous = o3;
    }
    expect(ozoneFromNo2(Number.NaN, ox)).toBeNaN();
  });

  it('is highest on sunlit summer afternoons and lowest on winter nights', () => {
    const summerAfternoon = ozoneFromNo2(20, oxidantAt(Date.parse('2025-06-21T13:30:00Z'), BRUSSELS.lat, BRUSSELS.lon));
    const winterNight = ozoneFromNo2(20, oxidantAt(Date.parse('2025-12-21T02:30:00Z'), BRUSSELS.lat, BRUSSELS.lon));
    expect(summerAfternoon).toBeGreaterThan(80);
    expect(summerAfternoon).toBeLessThan(120);
    expect(winterNight).toBeGreaterThan(20);
    expect(winterNight).toBeLessThan(45);
    // A winter rush hour in a street canyon titrates almost all ozone away.
    expect(ozoneFromNo2(60, oxidantAt(Date.parse('2025-01-15T17:30:00Z'), BRUSSELS.lat, BRUSSELS.lon))).toBeLessThan(10);
  });

  it('counts days of the year from January 1', () => {
    expect(dayOfYear(Date.parse('2025-01-01T00:00:00Z'))).toBe(1);
    expect(dayOfYear(Date.parse('2024-12-31T23:00:00Z'))).toBe(366);
  });
});

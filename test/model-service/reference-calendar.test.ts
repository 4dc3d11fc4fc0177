import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ReferenceCalendar } from '../../src/model-service/reference-calendar.js';

const HOUR = 3_600_000;
const calendar = new ReferenceCalendar(2023, 8760, 'Europe/Brussels');
/** Dataset hour index of a 2023 UTC instant. */
const index2023 = (iso: string) => (Date.parse(iso) - Date.UTC(2023, 0, 1)) / HOUR;

const local = new Intl.DateTimeFormat('en-US', {
  timeZone: 'Europe/Brussels', hourCycle: 'h23', month: 'numeric', day: 'numeric', hour: 'numeric',
});
function localParts(ms: number): { month: number; day: number; hour: number } {
  const parts = Object.fromEntries(local.formatToParts(ms).map((p) => [p.type, p.value]));
  return { month: Number(parts.month), day: Number(parts.day), hour: Number(parts.hour) };
}

describe('ReferenceCalendar', () => {
  it('replays the same local month, day and hour of the reference year', () => {
    // 14:30 local summer time → 2023-07-15 14:00 local = 12:00 UTC.
    expect(calendar.hourIndex(Date.parse('2025-07-15T12:30:00Z'))).toBe(index2023('2023-07-15T12:00:00Z'));
    // 09:30 local winter time → 2023-01-10 09:00 local = 08:00 UTC.
    expect(calendar.hourIndex(Date.parse('2025-01-10T08:30:00Z'))).toBe(index2023('2023-01-10T08:00:00Z'));
  });

  it('replays February 29 as February 28', () => {
    expect(calendar.hourIndex(Date.parse('2024-02-29T09:00:00Z'))).toBe(index2023('2023-02-28T09:00:00Z'));
  });

  it('replays an hour missing from the reference year (spring-forward gap) as the next hour', () => {
    // 2025-03-26 02:30 local (still winter time in 2025); 2023-03-26 02:00 local did not exist → 03:00 local = 01:00 UTC.
    expect(calendar.hourIndex(Date.parse('2025-03-26T01:30:00Z'))).toBe(index2023('2023-03-26T01:00:00Z'));
  });

  it('replays an hour that occurred twice in the reference year (fall-back) as its first occurrence', () => {
    // 2025-10-29 02:00 local; 2023-10-29 02:00 local was 00:00 UTC (summer time) and again 01:00 UTC.
    expect(calendar.hourIndex(Date.parse('2025-10-29T01:00:00Z'))).toBe(index2023('2023-10-29T00:00:00Z'));
  });

  it('finds local January 1, 00:00 in the last UTC hour of the reference year', () => {
    expect(calendar.hourIndex(Date.parse('2025-12-31T23:30:00Z'))).toBe(8759);
    expect(calendar.instantOf(8759)).toBe(Date.parse('2023-12-31T23:00:00Z'));
  });

  it('falls back to the epoch hour modulo the length for a dataset shorter than a year', () => {
    const short = new ReferenceCalendar(2023, 48, 'Europe/Brussels');
    const t = Date.parse('2025-07-15T12:00:00Z');
    expect(short.hourIndex(t)).toBe(Math.floor(t / HOUR) % 48);
  });

  it('maps every instant to a reference hour with the same local date and hour (or the documented exceptions)', () => {
    fc.assert(
      fc.property(fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2040, 0, 1) }), (t) => {
        const i = calendar.hourIndex(t);
        expect(i).toBeGreaterThanOrEqual(0);
        expect(i).toBeLessThan(8760);
        const real = localParts(t);
        const replayed = localParts(calendar.instantOf(i));
        const day = real.month === 2 && real.day === 29 ? 28 : real.day;
        expect([replayed.month, replayed.day]).toEqual([real.month, day]);
        // Equal hours except in the reference year's spring-forward gap, which replays the next hour.
        expect([0, 1]).toContain(replayed.hour - real.hour);
      }),
      { numRuns: 2_000, seed: 20_230_101 },
    );
  });
});

import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../src/errors.js';
import { buildCalendar, seasonOfMonth, type Calendar } from '../../src/stats/calendar.js';
import { utcHour } from './helpers.js';

/** Hours per local date index. */
function hoursPerDay(cal: Calendar): number[] {
  const out = new Array<number>(cal.days).fill(0);
  for (let i = 0; i < cal.hours; i++) out[cal.dayIndex[i]] += 1;
  return out;
}

/** Straightforward oracle: one Intl call per hour, local wall clock read directly. */
function naiveLocal(year: number, hours: number, timezone: string) {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric',
  });
  const month: number[] = [];
  const hour: number[] = [];
  const date: number[] = [];
  for (let i = 0; i < hours; i++) {
    const p = Object.fromEntries(
      format.formatToParts(Date.UTC(year, 0, 1) + i * 3_600_000).map((x) => [x.type, Number(x.value)]),
    );
    month.push(p.month);
    hour.push(p.hour);
    date.push(Date.UTC(p.year, p.month - 1, p.day) / 86_400_000);
  }
  return { month, hour, date };
}

describe('buildCalendar, Europe/Brussels', () => {
  const cal = buildCalendar(2023, 8760, 'Europe/Brussels');

  it('starts at 01:00 local on 1 January (UTC+1)', () => {
    expect([cal.month[0], cal.dayIndex[0], cal.isDay[0], cal.nightIndex[0]]).toEqual([1, 0, 0, -1]);
    expect(cal.isDay[6]).toBe(0); // 07:00 local
    expect(cal.isDay[7]).toBe(1); // 08:00 local
    expect(cal.isDay[18]).toBe(1); // 19:00 local
    expect(cal.isDay[19]).toBe(0); // 20:00 local, night 0 begins
    expect(cal.nightIndex[19]).toBe(0);
    expect(cal.nightIndex[22]).toBe(0); // 23:00 local
    expect([cal.dayIndex[23], cal.nightIndex[23]]).toEqual([1, 0]); // 00:00 local, 2 January
    expect(cal.nightIndex[30]).toBe(0); // 07:00 local, 2 January
    expect(cal.nightIndex[31]).toBe(-1); // 08:00 local
  });

  it('has a 23-hour date on the last Sunday of March and a 25-hour date on the last Sunday of October', () => {
    const perDay = hoursPerDay(cal);
    const march26 = cal.dayIndex[utcHour(2023, 3, 26, 12)];
    const october29 = cal.dayIndex[utcHour(2023, 10, 29, 12)];
    expect(perDay[march26]).toBe(23);
    expect(perDay[october29]).toBe(25);
    const regular = perDay.filter((_, d) => d !== march26 && d !== october29 && d !== 0 && d !== cal.days - 1);
    expect(new Set(regular)).toEqual(new Set([24]));
    expect(perDay[0]).toBe(23); // 01:00–23:00 on 1 January
    expect(perDay[cal.days - 1]).toBe(1); // 00:00 on 1 January of the next year
    expect(cal.days).toBe(366);
  });

  it('keeps 12 daytime hours on both DST dates and shifts the clock at 01:00 UTC', () => {
    const dayHours = (d: number): number => {
      let n = 0;
      for (let i = 0; i < cal.hours; i++) if (cal.dayIndex[i] === d && cal.isDay[i] === 1) n++;
      return n;
    };
    expect(dayHours(cal.dayIndex[utcHour(2023, 3, 26, 12)])).toBe(12);
    expect(dayHours(cal.dayIndex[utcHour(2023, 10, 29, 12)])).toBe(12);
    expect(cal.isDay[utcHour(2023, 3, 26, 6)]).toBe(1); // 08:00 CEST
    expect(cal.isDay[utcHour(2023, 3, 25, 6)]).toBe(0); // 07:00 CET
    expect(cal.isDay[utcHour(2023, 10, 29, 6)]).toBe(0); // 07:00 CET
    expect(cal.isDay[utcHour(2023, 10, 28, 6)]).toBe(1); // 08:00 CEST
  });

  it('ends with the last hour on 1 January of the next year, local month 1', () => {
    expect(cal.month[8759]).toBe(1);
    expect(cal.nightIndex[8759]).toBe(cal.dayIndex[8758]); // the night of 31 December
  });
});

describe('buildCalendar matches a one-call-per-hour oracle', () => {
  const cases: [number, number, string][] = [
    [2023, 8760, 'Europe/Brussels'], [2024, 8784, 'Europe/Brussels'], [2023, 8760, 'America/New_York'],
    [2023, 8760, 'Asia/Kolkata'], [2023, 8760, 'Australia/Lord_Howe'],
  ];
  it.each(cases)('%i %i %s', (year, hours, tz) => {
    const cal = buildCalendar(year, hours, tz);
    const oracle = naiveLocal(year, hours, tz);
    const first = oracle.date[0];
    for (let i = 0; i < hours; i++) {
      const hour = oracle.hour[i];
      const day = oracle.date[i] - first;
      const expected = [oracle.month[i], seasonOfMonth(oracle.month[i]), hour >= 8 && hour < 20 ? 1 : 0, day,
        hour >= 20 ? day : hour < 8 ? day - 1 : -1];
      const actual = [cal.month[i], cal.season[i], cal.isDay[i], cal.dayIndex[i], cal.nightIndex[i]];
      expect(actual, `hour ${i}`).toEqual(expected);
    }
  });
});

describe('buildCalendar, leap year and UTC', () => {
  it('covers 29 February in a leap year', () => {
    const cal = buildCalendar(2024, 8784, 'UTC');
    expect(cal.days).toBe(366);
    expect(cal.month.filter((m) => m === 2).length).toBe(29 * 24);
    expect(cal.month[utcHour(2024, 2, 29, 23)]).toBe(2);
    expect(cal.month[utcHour(2024, 3, 1, 0)]).toBe(3);
    expect(cal.month[8783]).toBe(12);
  });

  it('is the UTC clock in UTC', () => {
    const cal = buildCalendar(2023, 8760, 'UTC');
    expect(cal.days).toBe(365);
    for (let i = 0; i < 8760; i++) {
      const hour = i % 24;
      expect(cal.dayIndex[i]).toBe(Math.floor(i / 24));
      expect(cal.isDay[i]).toBe(hour >= 8 && hour < 20 ? 1 : 0);
    }
    expect(cal.nightIndex[0]).toBe(-1); // belongs to the night of 31 December 2022
    expect(cal.nightIndex[20]).toBe(0);
    expect(cal.nightIndex[24 + 7]).toBe(0);
  });

  it('maps months to meteorological seasons', () => {
    expect([12, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11].map(seasonOfMonth)).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3]);
  });

  it('accepts an empty calendar and rejects a bad zone or size', () => {
    expect(buildCalendar(2023, 0, 'UTC').days).toBe(0);
    expect(() => buildCalendar(2023, 24, 'Mars/Olympus')).toThrow(DatasetError);
    expect(() => buildCalendar(2023, -1, 'UTC')).toThrow(DatasetError);
    expect(() => buildCalendar(2023.5, 24, 'UTC')).toThrow(DatasetError);
  });
});

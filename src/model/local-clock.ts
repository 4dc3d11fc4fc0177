/**
 * Local wall-clock hour and weekday for every UTC hour of a year, in an IANA time zone (DST included). The offset is
 * looked up once per UTC hour through Intl, which is fast enough for 8,784 hours and exact at transitions.
 */
export interface LocalClock {
  /** Local hour of day 0..23, per UTC hour. */
  readonly hour: Uint8Array;
  /** Local weekday 0 Sunday .. 6 Saturday, per UTC hour. */
  readonly weekday: Uint8Array;
  /** Local month 1..12, per UTC hour. */
  readonly month: Uint8Array;
}

const WEEKDAYS: Record<string, number> = { Sun: 0, Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6 };

/** Builds the local clock for `hours` UTC hours starting at `startUtcMs`. */
export function buildLocalClock(startUtcMs: number, hours: number, timeZone: string): LocalClock {
  const format = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    hour: '2-digit',
    weekday: 'short',
    month: 'numeric',
  });
  const hour = new Uint8Array(hours);
  const weekday = new Uint8Array(hours);
  const month = new Uint8Array(hours);
  for (let i = 0; i < hours; i++) {
    for (const part of format.formatToParts(startUtcMs + i * 3_600_000)) {
      if (part.type === 'hour') hour[i] = Number(part.value);
      else if (part.type === 'weekday') weekday[i] = WEEKDAYS[part.value] ?? 0;
      else if (part.type === 'month') month[i] = Number(part.value);
    }
  }
  return { hour, weekday, month };
}

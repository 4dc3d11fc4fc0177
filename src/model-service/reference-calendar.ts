/**
 * Which hour of the reference year is replayed for a real instant: the one with the same local month, day and hour
 * in the dataset's time zone, so a July afternoon replays a July afternoon and rush hour replays rush hour.
 *
 * Rules (docs/model-service.md, "Reference hour"):
 * - February 29 replays February 28 (the reference year 2023 has no leap day);
 * - a local hour that does not exist in the reference year (its spring-forward gap falls on another date than the
 *   real year's) replays the next local hour that does;
 * - a local hour that occurs twice in the reference year (autumn fall-back) replays its first occurrence;
 * - dataset hour i is the UTC hour `reference_year-01-01T00:00Z + i h`; its local key may belong to January 1 of
 *   the following year (the last UTC hour is local midnight on January 1), which is how local January 1, 00:00 is
 *   found at all;
 * - a dataset shorter than a year, or any key still missing, falls back to the epoch hour modulo the dataset length.
 */

const HOUR_MS = 3_600_000;

/** Local month, day and hour of an instant, packed as month·10,000 + day·100 + hour. */
type LocalKey = number;

/** Maps real instants to reference-year hours of one dataset. */
export class ReferenceCalendar {
  readonly referenceYear: number;
  readonly hours: number;
  readonly timeZone: string;
  readonly #startMs: number;
  readonly #format: Intl.DateTimeFormat;
  readonly #byKey = new Map<LocalKey, number>();

  constructor(referenceYear: number, hours: number, timeZone: string) {
    if (!Number.isInteger(hours) || hours < 1) throw new RangeError(`ReferenceCalendar: hours must be a positive integer, got ${hours}.`);
    this.referenceYear = referenceYear;
    this.hours = hours;
    this.timeZone = timeZone;
    this.#startMs = Date.UTC(referenceYear, 0, 1);
    this.#format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
    });
    for (let i = 0; i < hours; i++) {
      const key = this.#localKey(this.#startMs + i * HOUR_MS);
      if (!this.#byKey.has(key)) this.#byKey.set(key, i);
    }
  }

  #localKey(utcMs: number): LocalKey {
    let month = 0;
    let day = 0;
    let hour = 0;
    for (const part of this.#format.formatToParts(utcMs)) {
      if (part.type === 'month') month = Number(part.value);
      else if (part.type === 'day') day = Number(part.value);
      else if (part.type === 'hour') hour = Number(part.value);
    }
    return month * 10_000 + day * 100 + hour;
  }

  /** Index (0 … hours − 1) of the dataset hour replayed at `utcMs`. */
  hourIndex(utcMs: number): number {
    let key = this.#localKey(utcMs);
    if (Math.floor(key / 100) === 229) key = 22_800 + (key % 100);
    for (let step = 0; step < 3; step++) {
      const hour = (key % 100) + step;
      if (hour > 23) break;
      const found = this.#byKey.get(key - (key % 100) + hour);
      if (found !== undefined) return found;
    }
    const epochHour = Math.floor(utcMs / HOUR_MS);
    return ((epochHour % this.hours) + this.hours) % this.hours;
  }

  /** The UTC instant (epoch ms) of dataset hour `index`. */
  instantOf(index: number): number {
    return this.#startMs + index * HOUR_MS;
  }
}

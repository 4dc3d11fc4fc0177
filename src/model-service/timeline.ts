/**
 * The model's clock: which hour is live now and which hours a forecast issued now covers.
 *
 * Like an operational model whose hourly run lands a few minutes after the hour, the live hour turns over at
 * `LIVE_TURNOVER_MIN` minutes past each hour: from 10:07:00.000 UTC the live hour is 10:00, before it 09:00. A
 * forecast is issued at the live hour and runs hourly to +24 h, then 3-hourly to +48 h (32 steps), so the spacing of
 * its records is irregular and clients must read each timestamp.
 */

/** One hour, milliseconds. */
export const HOUR_MS = 3_600_000;

/** Minutes past the hour at which a new live hour becomes available. */
export const LIVE_TURNOVER_MIN = 7;

/** Lead times of a forecast, hours after the live hour: 1 … 24, then 27, 30, … 48. */
export const FORECAST_LEADS_H: readonly number[] = Object.freeze([
  ...Array.from({ length: 24 }, (_, i) => i + 1),
  ...Array.from({ length: 8 }, (_, i) => 27 + 3 * i),
]);

/** One hour the model produces: its start (epoch ms) and how far ahead of the live hour it lies. */
export interface Step {
  readonly targetMs: number;
  /** Hours after the live hour it was produced at; 0 for live (observed) hours. */
  readonly leadH: number;
}

/** Start of the live hour at `nowMs` (epoch ms, a whole UTC hour). */
export function liveHourMs(nowMs: number): number {
  return Math.floor((nowMs - LIVE_TURNOVER_MIN * 60_000) / HOUR_MS) * HOUR_MS;
}

/** The last `count` live hours ending at the live hour, oldest first, each at lead 0. */
export function liveSteps(nowMs: number, count: number): Step[] {
  const live = liveHourMs(nowMs);
  return Array.from({ length: count }, (_, i) => ({ targetMs: live - (count - 1 - i) * HOUR_MS, leadH: 0 }));
}

/** The forecast issued at the live hour, in time order. */
export function forecastSteps(nowMs: number): Step[] {
  const live = liveHourMs(nowMs);
  return FORECAST_LEADS_H.map((leadH) => ({ targetMs: live + leadH * HOUR_MS, leadH }));
}

/**
 * The step a grid slice at `targetMs` is produced as: a live or past hour is observed (lead 0); a future hour is the
 * current forecast's value for it (lead = hours after the live hour). Undefined when `targetMs` is not a whole hour
 * or lies outside [live − `historyH`, live + the last forecast lead].
 */
export function sliceStep(nowMs: number, targetMs: number, historyH: number): Step | undefined {
  if (!Number.isSafeInteger(targetMs) || targetMs % HOUR_MS !== 0) return undefined;
  const leadH = (targetMs - liveHourMs(nowMs)) / HOUR_MS;
  const lastLead = FORECAST_LEADS_H[FORECAST_LEADS_H.length - 1];
  if (leadH < -historyH || leadH > lastLead) return undefined;
  return { targetMs, leadH: Math.max(0, leadH) };
}

/** ISO 8601 UTC of an instant without milliseconds (`2025-06-01T14:00:00Z`). */
export function isoHour(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

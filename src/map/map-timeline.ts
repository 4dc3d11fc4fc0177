/**
 * Which timestamps have tiles. Live tiles exist for each of the 24 hours ending at the model's live hour (the hours
 * `/realtime` answers), so the live URLs of a catalog fetched just before the hourly turnover keep working after it.
 * Forecast tiles exist for the steps of the current forecast and of every earlier forecast that a catalog served in
 * the last URL_MAX_LIFETIME_S listed (remembered in memory, per process), so no URL handed out stops resolving before
 * it expires; such a tile shows what the model says about that hour now. Any other timestamp is not a step (404).
 */
import type { Timesteps } from '../upstream/model-service-contract.js';
import { URL_MAX_LIFETIME_S } from './url-signing.js';

/** One hour, ms. */
const HOUR_MS = 3_600_000;

/** Hours of live history that have tiles, the live hour included. */
const LIVE_WINDOW_H = 24;

/** Whether `timestampMs` is one of the live hours with tiles under `timesteps`. */
export function isLiveStep(timesteps: Timesteps, timestampMs: number): boolean {
  const back = (timesteps.live.timestamp_ms - timestampMs) / HOUR_MS;
  return Number.isInteger(back) && back >= 0 && back < LIVE_WINDOW_H;
}

/** Hours after the live hour of `timesteps` at which the model now produces `timestampMs` (0 for past hours). */
export function leadOf(timesteps: Timesteps, timestampMs: number): number {
  return Math.max(0, Math.round((timestampMs - timesteps.live.timestamp_ms) / HOUR_MS));
}

/** Forecast steps of the catalogs served lately, per issue (the live hour they were issued at). */
export class ForecastMemory {
  readonly #issues = new Map<number, { readonly steps: ReadonlySet<number>; servedMs: number }>();

  /** Records that a catalog listing the forecast of `timesteps` was served at `nowMs`. */
  served(timesteps: Timesteps, nowMs: number): void {
    const issue = timesteps.live.timestamp_ms;
    const known = this.#issues.get(issue);
    if (known !== undefined) known.servedMs = Math.max(known.servedMs, nowMs);
    else this.#issues.set(issue, { steps: new Set(timesteps.forecast.map((s) => s.timestamp_ms)), servedMs: nowMs });
    for (const [key, entry] of this.#issues) if (nowMs >= entry.servedMs + URL_MAX_LIFETIME_S * 1000) this.#issues.delete(key);
  }

  /** Whether `timestampMs` is a step of the current forecast or of one served within the URL lifetime. */
  isForecastStep(current: Timesteps, timestampMs: number, nowMs: number): boolean {
    if (current.forecast.some((s) => s.timestamp_ms === timestampMs)) return true;
    for (const entry of this.#issues.values()) {
      if (nowMs < entry.servedMs + URL_MAX_LIFETIME_S * 1000 && entry.steps.has(timestampMs)) return true;
    }
    return false;
  }
}

/**
 * Time as a dependency: everything that reads the time or waits goes through a `Clock`, so tests can drive time by
 * hand (a manual clock lives in test/) instead of sleeping.
 */

/** Reads the time and schedules one-shot timers. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Runs `fn` once after `ms` milliseconds; the returned function cancels it. */
  setTimer(ms: number, fn: () => void): () => void;
}

/** The real clock. Timers are unref'd: a pending time-out never keeps the process alive on its own. */
export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimer(ms: number, fn: () => void): () => void {
    const handle = setTimeout(fn, ms);
    handle.unref();
    return () => clearTimeout(handle);
  },
});

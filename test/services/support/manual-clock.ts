/** Test double of `Clock`: time moves only when the test says so; due timers fire on `advance`. */
import type { Clock } from '../../../src/util/clock.js';

/** A clock driven by hand. */
export class ManualClock implements Clock {
  #now: number;
  #timers: { at: number; fn: () => void; live: boolean }[] = [];

  constructor(startMs: number) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(ms: number, fn: () => void): () => void {
    const timer = { at: this.#now + ms, fn, live: true };
    this.#timers.push(timer);
    return () => {
      timer.live = false;
    };
  }

  /** Pending (not cancelled, not fired) timers. */
  get pendingTimers(): number {
    return this.#timers.filter((t) => t.live).length;
  }

  /** Moves time forward and fires every timer that has come due, in order. */
  advance(ms: number): void {
    this.#now += ms;
    const due = this.#timers.filter((t) => t.live && t.at <= this.#now).sort((a, b) => a.at - b.at);
    for (const timer of due) {
      timer.live = false;
      timer.fn();
    }
    this.#timers = this.#timers.filter((t) => t.live);
  }

  /** Sets the time (forward only) and fires due timers. */
  set(ms: number): void {
    this.advance(Math.max(0, ms - this.#now));
  }
}

/**
 * A periodic background run (the report retention sweep, the report dispatcher's look at open jobs): once at `start`,
 * then `intervalMs` after each run ends, on the `Clock`, so tests drive it by hand. At most one run is in progress:
 * a call while one runs joins it. A failed run is reported to `onError` and the timer goes on, so the next run
 * retries; `stop` cancels the timer and waits for a run in progress.
 */
import type { Clock } from './clock.js';

/** What a periodic run does and when. */
export interface PeriodicRunOptions<Result> {
  readonly clock: Clock;
  /** Time from the end of one run to the start of the next, ms. */
  readonly intervalMs: number;
  /** One run. */
  readonly run: () => Promise<Result>;
  /** Told of a run that failed on the timer (a run called directly rejects instead). */
  readonly onError: (err: unknown) => void;
}

/** Runs a task now and then on a timer, one run at a time. */
export class PeriodicRun<Result> {
  readonly #o: PeriodicRunOptions<Result>;
  #cancel: (() => void) | undefined;
  #running: Promise<Result> | undefined;
  #stopped = false;

  constructor(options: PeriodicRunOptions<Result>) {
    this.#o = options;
  }

  /** Whether `stop` was called (and `start` not since): a long run may end early. */
  get stopped(): boolean {
    return this.#stopped;
  }

  /** Runs now, then every `intervalMs`. */
  start(): void {
    this.#stopped = false;
    void this.#tick();
  }

  /** Stops the timer and waits for a run in progress. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#cancel?.();
    this.#cancel = undefined;
    await this.#running?.catch(() => undefined);
  }

  /** One run now, or the one in progress. */
  runOnce(): Promise<Result> {
    this.#running ??= this.#o.run().finally(() => (this.#running = undefined));
    return this.#running;
  }

  async #tick(): Promise<void> {
    try {
      await this.runOnce();
    } catch (err) {
      this.#o.onError(err);
    }
    if (!this.#stopped) this.#cancel = this.#o.clock.setTimer(this.#o.intervalMs, () => void this.#tick());
  }
}

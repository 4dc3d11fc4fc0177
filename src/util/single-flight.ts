/** Concurrent callers asking for the same key share one in-flight computation instead of starting their own. */

/** Sharing of computations by key: within this process (`SingleFlight`) or across processes (a cluster's claim). */
export interface FlightGroup<T> {
  /** Joins the computation running under `key`, or starts `work` when there is none. */
  run(key: string, work: () => Promise<T>): Promise<T>;
  /** Resolves once every computation this process runs or waits for has settled. */
  settled(): Promise<void>;
}

/** A map of in-flight promises; an entry lives from the first call until its promise settles. */
export class SingleFlight<T> implements FlightGroup<T> {
  readonly #inFlight = new Map<string, Promise<T>>();

  /** Joins the computation running under `key`, or starts `work` when there is none. */
  run(key: string, work: () => Promise<T>): Promise<T> {
    const running = this.#inFlight.get(key);
    if (running) return running;
    const started = Promise.resolve()
      .then(work)
      .finally(() => this.#inFlight.delete(key));
    this.#inFlight.set(key, started);
    return started;
  }

  /** How many computations are running. */
  get size(): number {
    return this.#inFlight.size;
  }

  /** Resolves once every computation running now has settled (successfully or not). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#inFlight.values()]);
  }
}

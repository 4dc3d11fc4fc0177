/**
 * A counting semaphore: at most `slots` pieces of work run at once, the rest wait in arrival order. Batch work passes
 * through one gate per process, so however many batches and jobs run, they hold at most that many computations in
 * the compute queue and single requests are never stuck behind thousands of batch locations.
 */

/** Runs work with at most `slots` at a time. */
export class WorkGate {
  readonly #slots: number;
  #busy = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(slots: number) {
    if (!Number.isInteger(slots) || slots < 1) throw new RangeError('slots must be a positive integer');
    this.#slots = slots;
  }

  /** Runs `work` once a slot is free; the slot is released however it settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#busy >= this.#slots) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#busy++;
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      if (next !== undefined) next();
      else this.#busy--;
    }
  }
}

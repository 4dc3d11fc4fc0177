/**
 * One shutdown order for a node: what its start acquires is registered on one `AsyncDisposableStack` as it is
 * acquired, and the same stack is released — in reverse order — whether the start fails part-way or the node is shut
 * down normally. A node's start is written once, in acquisition order, and its shutdown order follows from it.
 *
 * Every release runs even when an earlier one throws: each failure is logged with the name of what failed to be
 * released, and the stack's own aggregation (`SuppressedError`) carries them all to the caller of `close()`. A failed
 * start rethrows the start's own error (what the caller must see); the release failures are in the log.
 */
import { SILENT_LOGGER, type Logger } from './logger.js';

/** What a node acquired, released in reverse order once. */
export class Lifecycle {
  readonly #stack = new AsyncDisposableStack();
  readonly #log: Pick<Logger, 'error'>;
  #closing: Promise<void> | undefined;

  constructor(log: Pick<Logger, 'error'> = SILENT_LOGGER) {
    this.#log = log;
  }

  /**
   * Registers the release of something just acquired (`what` names it in the log): it runs after the releases of
   * everything registered later, before those registered earlier. Refused once the lifecycle has closed.
   */
  defer(what: string, release: () => unknown): void {
    this.#stack.defer(async () => {
      try {
        await release();
      } catch (err) {
        this.#log.error({ release: what, err: (err as Error)?.message ?? String(err) }, 'release failed; releasing the rest');
        throw err;
      }
    });
  }

  /**
   * Runs a start that acquires through `defer`; when it throws, everything it had acquired is released (in reverse
   * order) and the start's error is rethrown.
   */
  async start<T>(start: () => Promise<T>): Promise<T> {
    try {
      return await start();
    } catch (err) {
      await this.close().catch(() => {});
      throw err;
    }
  }

  /**
   * Releases everything, last acquired first, once: later calls return the first call's promise. Resolves when all
   * releases have run; rejects after all have run if any failed (one failure as it was thrown, several nested in
   * `SuppressedError`s, the last to fail outermost).
   */
  close(): Promise<void> {
    return (this.#closing ??= this.#stack.disposeAsync());
  }

  /** Whether `close()` has been called (by a failed start or a shutdown). */
  get closed(): boolean {
    return this.#closing !== undefined;
  }
}

/** Every error a failed `close()` carries, in the order the releases ran (first released first). */
export function releaseErrors(err: unknown): unknown[] {
  if (!(err instanceof SuppressedError)) return [err];
  // The stack nests an earlier failure as `suppressed` under each later one.
  return [...releaseErrors(err.suppressed), err.error];
}

/**
 * Answers the locations of a batch, each exactly as `GET /historical/stats` would (HistoricalService: the same
 * location rules, scope checks, statistics cache and shared computations), at most `parallelism` at a time per batch
 * and through one process-wide gate for all batches and jobs together; a location whose complete answer is stored
 * (HistoricalService.storedAnswer) is answered from it at once, outside the gate. A location's failure is its own outcome;
 * the batch goes on. Below the HTTP layer: outcomes carry the error, the route turns it into a problem document.
 */
import { STAT_METRICS } from '../cities/city-types.js';
import { ForbiddenError } from '../errors.js';
import { holdsMetric, type Entitlement } from '../keys/entitlement.js';
import type { HistoricalService } from '../services/historical-service.js';
import type { WorkGate } from '../util/work-gate.js';
import type { BatchInput } from './batch-input.js';

/** What one location came to: the envelope as JSON text, or the error it met. */
export type BatchOutcome =
  | { readonly id: string; readonly ok: true; readonly body: string; readonly cache: 'hit' | 'miss' }
  | { readonly id: string; readonly ok: false; readonly error: unknown };

/** What the service needs. */
export interface BatchServiceDeps {
  readonly historical: HistoricalService;
  /** Shared by every batch and job of the process. */
  readonly gate: WorkGate;
  /** Locations of one batch in flight at once. */
  readonly parallelism: number;
}

/** Runs batches; one per process. */
export class BatchService {
  readonly #deps: BatchServiceDeps;

  constructor(deps: BatchServiceDeps) {
    this.#deps = deps;
  }

  /**
   * Refuses, for the whole batch, metrics the key does not hold (the single route's 403, asked once rather than per
   * location).
   */
  checkScope(input: BatchInput, key: Entitlement): void {
    const missing = (input.metrics ?? []).filter((m) => !holdsMetric(key, m));
    if (missing.length > 0) {
      throw new ForbiddenError(`This API key does not hold the metric${missing.length > 1 ? 's' : ''} ${missing.map((m) => `'${m}'`).join(', ')}.`);
    }
    if (input.metrics === undefined && !STAT_METRICS.some((m) => holdsMetric(key, m))) {
      throw new ForbiddenError('This API key holds none of the metrics air, wind and thermal.');
    }
  }

  /**
   * The outcome of each entry, in input order. `onOutcome` sees each as it lands (a job records its progress);
   * an aborted signal stops starting new locations and rejects with its reason once those in flight settle.
   */
  async run(
    input: BatchInput,
    key: Entitlement,
    options: { readonly signal?: AbortSignal; readonly onOutcome?: (index: number, outcome: BatchOutcome) => void | Promise<void> } = {},
  ): Promise<BatchOutcome[]> {
    this.checkScope(input, key);
    const { entries, metrics } = input;
    const outcomes = new Array<BatchOutcome>(entries.length);
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < entries.length) {
        options.signal?.throwIfAborted();
        const index = next++;
        const entry = entries[index]!;
        let outcome: BatchOutcome;
        if (entry.error !== undefined) outcome = { id: entry.id, ok: false, error: entry.error };
        else {
          const { id, ...where } = entry.location;
          const query = { ...where, ...(metrics ? { metrics } : {}) };
          try {
            // A stored answer is text to copy, not work: it takes no place in the gate.
            const result = this.#deps.historical.storedAnswer(query, key) ?? (await this.#deps.gate.run(() => this.#deps.historical.stats(query, key)));
            outcome = { id, ok: true, body: result.body, cache: result.cache };
          } catch (err) {
            outcome = { id, ok: false, error: err };
          }
        }
        outcomes[index] = outcome;
        await options.onOutcome?.(index, outcome);
      }
    };
    const lanes = Math.max(1, Math.min(this.#deps.parallelism, entries.length));
    await Promise.all(Array.from({ length: lanes }, lane));
    return outcomes;
  }
}

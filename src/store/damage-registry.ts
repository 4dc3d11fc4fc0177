/**
 * The damage a running service has found in its datasets. Every distinct problem (a `DamagedDataError` message: the
 * dataset and the part) is logged once at error level, however many requests run into it, and is summarised per
 * dataset for health answers. Nothing here is a cache of answers: requests that meet damage fail each time, and a
 * repaired chunk serves again at once.
 */
import type { DamagedDataError } from '../errors.js';
import type { Logger } from '../util/logger.js';

/** What health answers say about one damaged dataset. */
export interface DamagedDatasetSummary {
  readonly dataset: string;
  /** Distinct problems found so far. */
  readonly problems: number;
  /** The first problem found (names the dataset and the part, never a path). */
  readonly detail: string;
  /** When it was found, ISO 8601 UTC. */
  readonly since: string;
}

/** Damage found while serving, per process; shared by the API and an embedded model service. */
export class DamageRegistry {
  readonly #now: () => number;
  readonly #seen = new Set<string>();
  readonly #datasets = new Map<string, { problems: number; detail: string; since: string }>();
  #logger: Pick<Logger, 'error'> | undefined;
  /** Reports made before a logger was attached, logged when it is. */
  #unlogged: DamagedDataError[] = [];

  constructor(options: { now?: (() => number) | undefined; logger?: Pick<Logger, 'error'> | undefined } = {}) {
    this.#now = options.now ?? Date.now;
    this.#logger = options.logger;
  }

  /** Records a problem; logs it if it is new. Returns whether it was new. */
  report(err: DamagedDataError): boolean {
    if (this.#seen.has(err.message)) return false;
    this.#seen.add(err.message);
    const entry = this.#datasets.get(err.dataset);
    if (entry) entry.problems++;
    else this.#datasets.set(err.dataset, { problems: 1, detail: err.message, since: new Date(this.#now()).toISOString() });
    if (this.#logger) this.#log(this.#logger, err);
    else this.#unlogged.push(err);
    return true;
  }

  /** Logs to `logger` from now on, starting with the problems reported before. */
  attachLogger(logger: Pick<Logger, 'error'>): void {
    this.#logger = logger;
    for (const err of this.#unlogged) this.#log(logger, err);
    this.#unlogged = [];
  }

  /** The damaged datasets, by id. */
  damaged(): DamagedDatasetSummary[] {
    return [...this.#datasets].sort(([a], [b]) => (a < b ? -1 : 1)).map(([dataset, e]) => ({ dataset, ...e }));
  }

  #log(logger: Pick<Logger, 'error'>, err: DamagedDataError): void {
    const cause = err.cause instanceof Error ? err.cause.message : undefined;
    logger.error(
      { dataset: err.dataset, path: err.extra.path, ...(cause ? { cause } : {}) },
      `${err.message} Repair or regenerate the dataset, then restart: \`svc data verify\` lists the damage, and gives a store `
        + 'written before chunk manifests existed its manifest with --write-manifest. Logged once per problem.',
    );
  }
}

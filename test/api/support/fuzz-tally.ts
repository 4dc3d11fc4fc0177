/**
 * Counts the requests a fuzz test file sends and the 5xx answers it sees, and prints the figures once the file is
 * done (`[fuzz] <file>: N requests, M 5xx`), so a run reports how much was fuzzed; the properties themselves fail on
 * the first 5xx.
 */
import { afterAll } from 'vitest';

/** The counters of the current test file. */
export const fuzzTally = {
  requests: 0,
  serverErrors: 0,
  /** Counts one answered request by its status. */
  count(status: number): void {
    this.requests++;
    if (status >= 500) this.serverErrors++;
  },
};

/** Prints the file's figures after its tests (call once, at the top level of the file). */
export function reportFuzzTally(file: string): void {
  afterAll(() => {
    console.info(`[fuzz] ${file}: ${fuzzTally.requests} requests, ${fuzzTally.serverErrors} 5xx`);
  });
}

/** Settles a promise into a code a test can compare: a service error's `code`, or `ok`. */
import { ServiceError } from '../../../src/errors.js';

/** `ok` when `promise` resolves, the `ServiceError` code when it rejects with one, and `unexpected …` otherwise. */
export async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'ok';
  } catch (err) {
    return err instanceof ServiceError ? err.code : `unexpected ${String(err)}`;
  }
}

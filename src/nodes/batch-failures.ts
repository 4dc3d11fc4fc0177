/**
 * What a batch job's files say of a location that was not answered: the problem code and detail the API would answer
 * for it (src/api/problems.ts maps errors to problems in one place), a fault of ours logged and shown as the fixed
 * sentence of `internal_error`.
 */
import { problemFromError } from '../api/problems.js';
import type { RowProblem } from '../batch/batch-table.js';
import type { Logger } from '../util/logger.js';

/** The code and detail of a location's failure. */
export function describeFailure(err: unknown, logger: Pick<Logger, 'error'>): RowProblem {
  const outcome = problemFromError(err);
  if (outcome.internal) logger.error({ err }, 'unexpected fault in a batch job location');
  return { code: outcome.code, detail: outcome.detail };
}

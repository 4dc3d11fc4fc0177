/**
 * The worker-side handlers of the compute task kinds: the task's bytes go to the worker's own Piscina pool as they
 * came (the same worker code as a local pool decodes them, runs the task over this worker's data directory and encodes
 * the value), and the value's bytes come back. A `ServiceError` from the task (outside coverage, damaged data, an
 * unreadable data directory, bytes that do not decode) is its answer; a compute thread that died is an unexpected
 * failure, so the task is handed back for another delivery.
 */
import { ComputeThreadLostError } from '../compute/local-compute.js';
import type { TaskExecutor } from '../compute/planned-compute.js';
import { ENCODED_TASK } from '../compute/tasks/thread-tasks.js';
import { DatasetError } from '../errors.js';
import type { TaskHandler } from './task-types.js';

/** A task this worker could not run through no fault of the task (its compute thread died): not a `ServiceError`, so the worker loop hands the task back for another delivery. */
class HandBackError extends Error {}

/**
 * Handlers of every kind the worker's compute threads serve and may take from other machines (their families say
 * which: `executor.servedKinds`), running tasks in `executor` over `dataDir`.
 */
export function computeTaskHandlers(executor: TaskExecutor, dataDir: string, workerId: string): Map<string, TaskHandler> {
  const handlers = new Map<string, TaskHandler>();
  if (executor.servedKinds === undefined) throw new Error('The executor does not say which task kinds its threads serve.');
  for (const { kind, readsData } of executor.servedKinds.filter((k) => k.remote)) {
    const data = readsData ? { dataDir } : {};
    handlers.set(kind, async (payload, context) => {
      try {
        return await executor.run(ENCODED_TASK, { kind: 'encoded', payload, expect: kind, ...data }, context.signal);
      } catch (err) {
        if (context.signal.aborted) throw err;
        if (err instanceof ComputeThreadLostError) throw new HandBackError(err.message, { cause: err });
        // A dataset this worker cannot open (missing or unreadable data directory, wrong metadata): the operator needs
        // to know which worker; the API node logs it.
        if (err instanceof DatasetError) throw new DatasetError(`Compute worker ${workerId} cannot use its data: ${err.message}`, { cause: err });
        throw err;
      }
    });
  }
  return handlers;
}

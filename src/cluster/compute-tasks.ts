/**
 * The worker-side handlers of the compute task kinds: the task's bytes go to the worker's own Piscina pool as they
 * came (the same worker code as a local pool decodes them, runs the task over this worker's data directory and encodes
 * the value), and the value's bytes come back. A `ServiceError` from the task (outside coverage, damaged data, an
 * unreadable data directory, bytes that do not decode) is its answer; a compute thread that died is an unexpected
 * failure, so the task is handed back for another delivery.
 */
import { ComputeThreadLostError } from '../compute/local-compute.js';
import type { TaskExecutor } from '../compute/planned-compute.js';
import { DatasetError } from '../errors.js';
import { COMPUTE_TASK_KINDS } from './nats-compute.js';
import type { TaskHandler } from './task-types.js';

/** Kinds that read a dataset: they run over the worker's own data directory. */
const DATA_KINDS: ReadonlySet<string> = new Set(['stats', 'accumulate', 'finalize', 'finalize-parts', 'surroundings', 'precompute-row']);

/** Thrown for a compute thread that died: not a `ServiceError`, so the worker loop hands the task back. */
export class ComputeThreadLost extends Error {}

/** Handlers of every compute kind, running tasks in `executor` over `dataDir`. */
export function computeTaskHandlers(executor: TaskExecutor, dataDir: string, workerId: string): Map<string, TaskHandler> {
  const handlers = new Map<string, TaskHandler>();
  for (const kind of COMPUTE_TASK_KINDS) {
    const data = DATA_KINDS.has(kind) ? { dataDir } : {};
    handlers.set(kind, async (payload, context) => {
      try {
        return await executor.run<Uint8Array>({ kind: 'encoded', payload, expect: kind, ...data }, context.signal);
      } catch (err) {
        if (context.signal.aborted) throw err;
        if (err instanceof ComputeThreadLostError) throw new ComputeThreadLost(err.message, { cause: err });
        // A dataset this worker cannot open (missing or unreadable data directory, wrong metadata): the operator needs
        // to know which worker; the API node logs it.
        if (err instanceof DatasetError) throw new DatasetError(`Compute worker ${workerId} cannot use its data: ${err.message}`, { cause: err });
        throw err;
      }
    });
  }
  return handlers;
}

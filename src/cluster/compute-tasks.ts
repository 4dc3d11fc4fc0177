/**
 * The worker-side handlers of the compute task kinds: decode the task, give it this worker's data directory, run it
 * in the worker's own Piscina pool (the same worker code as a local pool), encode the value. A `ServiceError` from the
 * task (outside coverage, damaged data, an unreadable data directory) is its answer; a compute thread that died is an
 * unexpected failure, so the task is handed back for another delivery.
 */
import { ComputeThreadLostError } from '../compute/local-compute.js';
import type { TaskExecutor } from '../compute/planned-compute.js';
import type { ComputeTask } from '../compute/protocol.js';
import { DatasetError, ValidationError } from '../errors.js';
import { COMPUTE_TASK_KINDS } from './nats-compute.js';
import { decodeTaskData, encodeTaskData } from './task-codec.js';
import type { TaskHandler } from './task-types.js';

/** Kinds that read a dataset: they run over the worker's own data directory. */
const DATA_KINDS: ReadonlySet<string> = new Set(['stats', 'accumulate', 'finalize', 'surroundings', 'precompute-row']);

/** Thrown for a compute thread that died: not a `ServiceError`, so the worker loop hands the task back. */
export class ComputeThreadLost extends Error {}

/** Handlers of every compute kind, running tasks in `executor` over `dataDir`. */
export function computeTaskHandlers(executor: TaskExecutor, dataDir: string, workerId: string): Map<string, TaskHandler> {
  const handlers = new Map<string, TaskHandler>();
  for (const kind of COMPUTE_TASK_KINDS) {
    handlers.set(kind, async (payload, context) => {
      const task = decodeTaskData<ComputeTask>(payload);
      if (task === null || typeof task !== 'object' || task.kind !== kind) {
        throw new ValidationError(`A task on svc.task.${kind} does not hold a ${kind} task.`);
      }
      const local = (DATA_KINDS.has(kind) ? { ...task, dataDir } : task) as ComputeTask;
      try {
        return encodeTaskData(await executor.run(local, context.signal));
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

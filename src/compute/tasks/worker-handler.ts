/**
 * What a compute thread does with each task (workers/compute-worker.ts is the Piscina entry): the task's kind names a
 * registered family's definition (task-registry.ts) or one of the thread's own kinds (thread-tasks.ts), which runs it.
 * Every failure is returned as data (`ComputeReply`), never thrown across the thread boundary; a failure that is not a
 * `ServiceError` (a kind this thread does not serve, a bug) arrives as `internal_error`.
 */
import { errorToData } from '../../errors.js';
import type { ComputeReply } from './protocol.js';
import { STATISTICS_TASKS } from './statistics-tasks.js';
import type { TaskShape } from './task-definition.js';
import { registerTaskFamily } from './task-registry.js';
import { runTaskHere } from './thread-tasks.js';

export { allowFaults } from './statistics-tasks.js';

registerTaskFamily(STATISTICS_TASKS);

/** Runs one task and wraps its outcome; the entry point of every compute thread. */
export async function handleComputeTask(task: TaskShape): Promise<ComputeReply<unknown>> {
  try {
    return { ok: true, value: await runTaskHere(task) };
  } catch (err) {
    return { ok: false, error: errorToData(err) };
  }
}

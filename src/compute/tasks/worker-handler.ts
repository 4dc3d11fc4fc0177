/**
 * What a compute thread does with each task (workers/compute-worker.ts is the Piscina entry): the task's kind names a
 * registered family's definition (task-registry.ts) or one of the thread's own kinds (thread-tasks.ts), which runs it.
 * Every failure is returned as data (`ComputeReply`), never thrown across the thread boundary; a failure that is not a
 * `ServiceError` (a kind this thread does not serve, a bug) arrives as `internal_error`.
 */
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { errorToData } from '../../errors.js';
import type { ComputeReply } from './protocol.js';
import { STATISTICS_TASKS } from './statistics-tasks.js';
import type { TaskShape } from './task-definition.js';
import { registerTaskFamily } from './task-registry.js';
import { runTaskForCaller } from './thread-tasks.js';

export { allowFaults } from './statistics-tasks.js';

registerTaskFamily(STATISTICS_TASKS);

/**
 * Runs one task and wraps its outcome; the entry point of every compute thread. A value whose definition names
 * buffers to move is returned as a Piscina movable: the reply is posted with those buffers transferred, not copied.
 */
export async function handleComputeTask(task: TaskShape): Promise<ComputeReply<unknown>> {
  try {
    const { value, moved } = await runTaskForCaller(task);
    const reply: ComputeReply<unknown> = { ok: true, value };
    if (moved.length === 0) return reply;
    // Piscina posts a movable's value with its transfer list (the value stays a plain reply on the caller's side).
    return move({ [transferableSymbol]: moved, [valueSymbol]: reply }) as unknown as ComputeReply<unknown>;
  } catch (err) {
    return { ok: false, error: errorToData(err) };
  }
}

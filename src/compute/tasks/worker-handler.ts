/**
 * What a compute thread does with each task (workers/compute-worker.ts is the Piscina entry): the task's kind names a
 * registered family entry (task-registry.ts), which runs it. Every failure is returned as data (`ComputeReply`), never
 * thrown across the thread boundary. Two kinds are the thread's own: `encoded` (a task as the bytes it crossed NATS
 * in) and `task-kinds` (which kinds this thread serves).
 */
import { errorToData, ValidationError } from '../../errors.js';
import { COMPUTE_TASKS } from './statistics-tasks.js';
import type { ComputeReply, ComputeTask, EncodedTask } from './protocol.js';
import { decodeSentBytes, encodeTaskData } from './task-codec.js';
import { registerTaskFamily, servedKinds, taskKindOf, type TaskShape } from './task-registry.js';

export { allowFaults } from './statistics-tasks.js';

registerTaskFamily(COMPUTE_TASKS);

/** A task whose kind no family of this thread serves (a newer requester's): the caller hands it back. */
class UnknownTaskKindError extends Error {}

/**
 * The task inside an `EncodedTask`, with the worker's data directory where the kind reads data. Bytes that do not
 * decode are the sender's problem: `UpstreamError`; a task of another kind than its subject: `ValidationError`.
 */
function decodedTask(task: EncodedTask): TaskShape {
  const inner = decodeSentBytes<TaskShape>(task.payload);
  if (inner === null || typeof inner !== 'object' || inner.kind !== task.expect) {
    throw new ValidationError(`A task on svc.task.${task.expect} does not hold a ${task.expect} task.`);
  }
  const readsData = taskKindOf(inner.kind)?.readsData === true;
  return task.dataDir === undefined || !readsData ? inner : ({ ...inner, dataDir: task.dataDir } as TaskShape);
}

async function run(task: ComputeTask): Promise<unknown> {
  if (task.kind === 'encoded') return encodeTaskData(await run(decodedTask(task as EncodedTask)));
  if (task.kind === 'task-kinds') return servedKinds();
  const entry = taskKindOf(task.kind);
  if (entry === undefined) throw new UnknownTaskKindError(`This compute thread serves no task kind '${task.kind}'.`);
  return entry.run(task);
}

/** Runs one task and wraps its outcome; the entry point of every compute thread. */
export async function handleComputeTask(task: ComputeTask): Promise<ComputeReply<unknown>> {
  try {
    return { ok: true, value: await run(task) };
  } catch (err) {
    return { ok: false, error: errorToData(err) };
  }
}

/**
 * The two kinds every compute thread serves itself, beside the registered families: `encoded` (a task as the bytes it
 * crossed NATS in) and `task-kinds` (which kinds this thread serves), and the dispatch of a task by its kind.
 */
import { ValidationError } from '../../errors.js';
import type { EncodedTask, TaskKindsTask } from './protocol.js';
import { decodeSentBytes, encodeTaskData } from './task-codec.js';
import { defineTask, type AnyTaskDefinition, type TaskShape } from './task-definition.js';
import { servedKinds, taskKindOf, type ServedKind } from './task-registry.js';

/**
 * A task whose kind no family of this thread serves: the caller's mistake, answered as `internal_error`. A cluster
 * worker never receives one from another machine, since it takes only the kinds its threads serve (`task-kinds`).
 */
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
  if (task.dataDir === undefined || !readsData) return inner;
  const withDataDir: TaskShape & { readonly dataDir: string } = { ...inner, dataDir: task.dataDir };
  return withDataDir;
}

/** Runs the task `encoded` holds and replies with its value encoded the same way (task-codec.ts). */
export const ENCODED_TASK = defineTask('encoded', async (task: EncodedTask): Promise<Uint8Array> => encodeTaskData(await runTaskHere(decodedTask(task))));

/** Every kind this thread serves (task-registry.ts), asked once by a cluster worker before it takes tasks. */
export const TASK_KINDS_TASK = defineTask('task-kinds', (_task: TaskKindsTask): ServedKind[] => servedKinds());

const THREAD_KINDS = new Map<string, AnyTaskDefinition>([[ENCODED_TASK.kind, ENCODED_TASK], [TASK_KINDS_TASK.kind, TASK_KINDS_TASK]]);

/** The definition of a kind this thread serves. */
function definitionOf(kind: string): AnyTaskDefinition {
  const definition = THREAD_KINDS.get(kind) ?? taskKindOf(kind);
  if (definition === undefined) throw new UnknownTaskKindError(`This compute thread serves no task kind '${kind}'.`);
  return definition;
}

/** Runs `task` in this thread by its kind: one of the thread's own kinds, or a registered family's. */
async function runTaskHere(task: TaskShape): Promise<unknown> {
  return definitionOf(task.kind).run(task);
}

/**
 * Runs `task` like `runTaskHere`, and names the buffers of its value the thread may move to the caller rather than
 * copy (the definition's `movedBuffers`: distinct, unshared, not yet detached).
 */
export async function runTaskForCaller(task: TaskShape): Promise<{ readonly value: unknown; readonly moved: readonly ArrayBuffer[] }> {
  const definition = definitionOf(task.kind);
  const value = await definition.run(task);
  const moved = [...new Set(definition.movedBuffers(value))].filter((b) => b instanceof ArrayBuffer && !b.detached);
  return { value, moved };
}

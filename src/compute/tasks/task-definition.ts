/**
 * A compute task kind, defined once: `defineTask(kind, run)` gives a handle that carries the task's type and its
 * value's type, so every boundary a task crosses is typed from the one definition — a compute thread runs it
 * (`run`, looked up by kind in task-registry.ts), the Piscina pool (local-compute.ts) and the NATS executor
 * (cluster/nats-compute.ts) return its value, and NATS carries it through the binary task codec (task-codec.ts) — and
 * callers write `compute.runTask(STATS_TASK, task)` with no type assertion. The handle adds nothing to the task: what
 * crosses a thread or NATS is the task object itself, `{ kind, …fields }`, as before.
 */
import { decodeTaskData, encodeTaskData } from './task-codec.js';

/** What every task is: a value with its kind. */
export interface TaskShape {
  readonly kind: string;
}

/** Where a task kind may run and what it needs. */
export interface TaskOptions {
  /** The task reads a dataset (it carries `dataDir`; a cluster worker gives it its own). */
  readonly readsData?: boolean;
  /** The task may be sent to a cluster worker (default true); local-only kinds (writing files, faults) are not. */
  readonly remote?: boolean;
  /** Compress the task's bytes on NATS when large (default true; false for payloads already compressed). */
  readonly compress?: boolean;
}

/**
 * The buffers of a value that a compute thread may move to its caller instead of copying them: buffers made for this
 * value alone (never a view of memory the thread keeps, such as a kernel's or a pooled `Buffer`), detached in the
 * thread once moved.
 */
export type MovedBuffers<Value> = (value: Value) => readonly ArrayBuffer[];

/** One task kind: its kind, how a compute thread runs it, and how it crosses NATS. */
export interface TaskDefinition<Task extends TaskShape = TaskShape, Value = unknown> {
  readonly kind: Task['kind'];
  readonly readsData: boolean;
  readonly remote: boolean;
  /** Runs the task in the calling thread (a compute thread); a `ServiceError` is its answer. */
  run(task: Task): Promise<Value>;
  /** The buffers of `run`'s value a compute thread moves to its caller (none: all of it is copied). */
  movedBuffers(value: Value): readonly ArrayBuffer[];
  /** The task as the bytes it crosses NATS in. */
  encodeTask(task: Task | Omit<Task, 'dataDir'>): Uint8Array;
  /** The value from the bytes a worker replied with (`DatasetError` when they do not decode). */
  decodeValue(bytes: Uint8Array): Value;
  /** The value a compute thread replied with: what `run` returned, structured-cloned across the thread boundary. */
  valueOf(reply: unknown): Value;
}

/** Any task kind, whatever its types (what a registry holds; `run` and `encodeTask` are methods, so any definition fits). */
export type AnyTaskDefinition = TaskDefinition<TaskShape, unknown>;

/** The task type of a definition. */
export type TaskOf<D> = D extends TaskDefinition<infer Task, unknown> ? Task : never;
/** The value type of a definition. */
export type ValueOf<D> = D extends TaskDefinition<TaskShape, infer Value> ? Value : never;

/**
 * Defines the task kind `kind`, run in a compute thread by `run`; its types are those of `run`. `moves` names the
 * buffers of a value that cross back to the caller moved rather than copied (large values made fresh per task).
 */
export function defineTask<Task extends TaskShape, Value>(
  kind: Task['kind'], run: (task: Task) => Value | Promise<Value>, options: TaskOptions = {}, moves?: MovedBuffers<Awaited<Value>>,
): TaskDefinition<Task, Awaited<Value>> {
  const compress = options.compress !== false;
  return Object.freeze({
    kind,
    readsData: options.readsData === true,
    remote: options.remote !== false,
    run: async (task: Task): Promise<Awaited<Value>> => await run(task),
    movedBuffers: (value: Awaited<Value>) => moves?.(value) ?? [],
    encodeTask: (task: Task | Omit<Task, 'dataDir'>) => encodeTaskData(task, { compress }),
    // The one place the untyped boundary meets the definition's type: what crossed is what `run` returned.
    decodeValue: (bytes: Uint8Array) => decodeTaskData<Awaited<Value>>(bytes),
    valueOf: (reply: unknown) => reply as Awaited<Value>,
  });
}

/**
 * The compute facade of a cluster node: the shared planning of compute/planned-compute.ts over the NATS work queue
 * instead of a local pool. Each compute task goes to `svc.task.<kind>` (the kinds of the compute threads' task
 * families that may travel: `stats`, `accumulate`, `finalize`, `surroundings`, `precompute-row`, `map-tile`,
 * `map-range`; a split query finalizes with `finalize-parts`)
 * without its data directory — the worker that runs it substitutes its own `--data` — and comes back as the same value
 * a local thread returns. The node still reads
 * its own data directory for planning: metadata, chunk layout and the outdoor mask, and content versions.
 */
import type { AccumulateTask, BlocksValue, FinalizePartsTask } from '../compute/tasks/protocol.js';
import { plannedCompute, type PlannedCompute, type RunOptions, type TaskExecutor } from '../compute/planned-compute.js';
import { ACCUMULATE_TASK, FINALIZE_PARTS_TASK } from '../compute/tasks/statistics-tasks.js';
import type { TaskDefinition, TaskShape } from '../compute/tasks/task-definition.js';
import type { TaskQueue } from './task-types.js';

/** Accumulate tasks one split query sends at once when not configured: enough to keep two two-thread workers busy. */
const DEFAULT_CLUSTER_SPLIT = 4;

/** Options of `createNatsCompute`. */
export interface NatsComputeOptions {
  readonly queue: TaskQueue;
  /** This node's data directory, for planning only. */
  readonly dataDir: string;
  /** Accumulate tasks of one split query (default DEFAULT_CLUSTER_SPLIT). */
  readonly split?: number;
  /** Queries spanning at least this many chunks are split (default as the local pool). */
  readonly splitMinChunks?: number;
  /** Deadline of each task, ms (default: the queue's). */
  readonly timeoutMs?: number;
}

/** A task as it crosses NATS: without the requester's data directory. */
function withoutDataDir<Task extends TaskShape>(task: Task): Task | Omit<Task, 'dataDir'> {
  if (!('dataDir' in task)) return task;
  const { dataDir: _local, ...rest } = task;
  return rest;
}

/** The queue as a task executor. */
function queueExecutor(queue: TaskQueue, parallelism: number, timeoutMs?: number): TaskExecutor {
  const request = (kind: string, payload: Uint8Array, signal?: AbortSignal, options?: RunOptions) =>
    queue.request(kind, payload, {
      ...(signal ? { signal } : {}),
      ...(options?.id !== undefined ? { id: options.id } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
    });
  return {
    parallelism,
    async run<Task extends TaskShape, Value>(definition: TaskDefinition<Task, Value>, task: Task, signal?: AbortSignal, options?: RunOptions): Promise<Value> {
      return definition.decodeValue(await request(definition.kind, definition.encodeTask(withoutDataDir(task)), signal, options));
    },
    async runSplit(parts: readonly AccumulateTask[], signal?: AbortSignal): Promise<BlocksValue> {
      // Each part's reply goes into the finalize task as it came: compressed by the worker's thread, decoded by the
      // finalizing worker's thread, never decoded and re-encoded here (about 2 ms per part of a year of hours).
      const encodedParts = await Promise.all(parts.map((task) => request(ACCUMULATE_TASK.kind, ACCUMULATE_TASK.encodeTask(withoutDataDir(task)), signal)));
      const finalize: Omit<FinalizePartsTask, 'dataDir'> = { kind: 'finalize-parts', dataset: parts[0]!.dataset, parts: encodedParts };
      return FINALIZE_PARTS_TASK.decodeValue(await request(FINALIZE_PARTS_TASK.kind, FINALIZE_PARTS_TASK.encodeTask(finalize), signal));
    },
    async close() {},
  };
}

/** The compute facade over `queue`; `close()` leaves the queue and its link to their owner. */
export function createNatsCompute(options: NatsComputeOptions): PlannedCompute {
  const executor = queueExecutor(options.queue, options.split ?? DEFAULT_CLUSTER_SPLIT, options.timeoutMs);
  return plannedCompute(executor, { dataDir: options.dataDir, splitMinChunks: options.splitMinChunks });
}

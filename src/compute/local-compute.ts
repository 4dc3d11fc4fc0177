/**
 * The compute back end on one machine: a fixed-size Piscina pool of compute threads (workers/compute-worker.ts), each
 * with its own WASM kernel and dataset handles, under the shared planning of planned-compute.ts (small samples run as
 * one task; samples spanning many chunks are split across every thread, then merged and finalised in one more task).
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { errorFromData, UpstreamError, ValidationError } from '../errors.js';
import { dataLocation } from '../store/data-location.js';
import { workerPath } from '../util/paths.js';
import { plannedCompute, type PlannedCompute, type TaskExecutor } from './planned-compute.js';
import type { ComputeReply } from './tasks/protocol.js';
import type { TaskDefinition, TaskShape } from './tasks/task-definition.js';


/** Options of `createLocalCompute`. */
export interface LocalComputeOptions {
  /** A data directory, or a base URL serving the same files (read-only). */
  readonly dataDir: string;
  /** Compute threads; default: the number of cores. */
  readonly threads?: number | undefined;
  /** Queries spanning at least this many chunks are split across threads (default SPLIT_MIN_CHUNKS). */
  readonly splitMinChunks?: number | undefined;
  /** Merge stored aggregates where they cover a sample (default true; false: the naive path, for comparison). */
  readonly aggregates?: boolean | undefined;
  /** Accept fault-injection tasks (tests of crash handling only). */
  readonly allowFaultInjection?: boolean | undefined;
}

/** A compute thread died while running a task (crash, out of memory); Piscina replaces the thread. */
export class ComputeThreadLostError extends UpstreamError {}

/** A Piscina pool of `threads` compute threads as a task executor (also the executor of a cluster worker). */
export function createPoolExecutor(threads: number, options: { allowFaultInjection?: boolean | undefined } = {}): TaskExecutor {
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new ValidationError(`Compute threads must be an integer from 1 to 256, got ${threads}.`);
  }
  const pool = new Piscina({
    filename: workerPath('compute-worker'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 24 * 3_600_000,
    workerData: { allowFaultInjection: options.allowFaultInjection === true },
  });
  // Every task handed to the pool, settled or not, so that `close` can wait for them (see there).
  const inFlight = new Set<Promise<unknown>>();
  return {
    parallelism: threads,
    async run<Task extends TaskShape, Value>(definition: TaskDefinition<Task, Value>, task: Task, signal?: AbortSignal): Promise<Value> {
      let reply: ComputeReply<unknown>;
      try {
        // The thread's entry is worker-handler.ts `handleComputeTask`: it always replies with a `ComputeReply`.
        const pending = pool.run(task, signal ? { signal } : undefined);
        const settled = pending.then(() => undefined, () => undefined);
        inFlight.add(settled);
        void settled.then(() => inFlight.delete(settled));
        reply = (await pending) as ComputeReply<unknown>;
      } catch (err) {
        if (signal?.aborted) throw err;
        // The thread died (crash, out of memory): only this task fails; Piscina starts a replacement thread.
        throw new ComputeThreadLostError('A compute thread failed while working on this request; retrying is reasonable.', {
          cause: err,
        });
      }
      if (!reply.ok) throw errorFromData(reply.error);
      return definition.valueOf(reply.value);
    },
    /**
     * Waits for every task already handed to the pool (queued or running), then ends the threads, all idle by then:
     * closing never terminates a thread inside a task, where it calls native zstd (zstd-napi). Such a termination is
     * survivable only with the addon built at Node-API 8 (.npmrc, docs/operations.md); an aborted running task still
     * ends its thread (Piscina), so that build matters there.
     */
    async close() {
      while (inFlight.size > 0) await Promise.all(inFlight);
      await pool.destroy();
    },
  };
}

/** Creates the pool (threads start at once, so the first query does not pay for them). */
export async function createLocalCompute(options: LocalComputeOptions): Promise<PlannedCompute> {
  const executor = createPoolExecutor(options.threads ?? availableParallelism(), { allowFaultInjection: options.allowFaultInjection });
  const dataDir = dataLocation(options.dataDir).absolute().href;
  return plannedCompute(executor, { dataDir, splitMinChunks: options.splitMinChunks, aggregates: options.aggregates });
}

/**
 * The compute back end on one machine: a fixed-size Piscina pool of compute threads (workers/compute-worker.ts), each
 * with its own WASM kernel and dataset handles. Small samples run as one task; samples spanning many chunks are split
 * across every thread (phase A on disjoint chunks), then merged and finalised in one more task.
 */
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import { Piscina } from 'piscina';
import { errorFromData, UpstreamError, ValidationError } from '../errors.js';
import { workerPath } from '../util/paths.js';
import type { ComputeBackend, StatsComputation, StatsRequest, SurroundingsBackend, SurroundingsGrid } from './compute-types.js';
import { computeDataset } from './dataset-cache.js';
import type { BlocksValue, ChunkSelection, ComputeReply, ComputeTask, PrecomputeRowValue } from './protocol.js';
import { computationOf, planSample } from './sample-plan.js';

/** Below this many chunks a query runs in one thread: splitting would cost more than it saves. */
export const SPLIT_MIN_CHUNKS = 12;

/** Options of `createLocalCompute`. */
export interface LocalComputeOptions {
  readonly dataDir: string;
  /** Compute threads; default: the number of cores. */
  readonly threads?: number;
  /** Queries spanning at least this many chunks are split across threads (default SPLIT_MIN_CHUNKS). */
  readonly splitMinChunks?: number;
  /** Accept fault-injection tasks (tests of crash handling only). */
  readonly allowFaultInjection?: boolean;
}

/** A compute back end backed by a local thread pool; it also computes reports' surroundings grids. */
export interface LocalCompute extends ComputeBackend, SurroundingsBackend {
  readonly threads: number;
  /** Runs a raw task (precompute, fault injection); errors are rebuilt `ServiceError`s. */
  runTask<T>(task: ComputeTask, signal?: AbortSignal): Promise<T>;
  /** Point statistics of every outdoor cell of one chunk row (the precompute's unit of work). */
  precomputeRow(dataset: string, chunkRow: number, signal?: AbortSignal): Promise<PrecomputeRowValue>;
}

/** Splits `items` into at most `parts` contiguous, nearly equal slices. */
function split<T>(items: readonly T[], parts: number): T[][] {
  const out: T[][] = [];
  const size = Math.ceil(items.length / parts);
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Creates the pool (threads start at once, so the first query does not pay for them). */
export async function createLocalCompute(options: LocalComputeOptions): Promise<LocalCompute> {
  const threads = options.threads ?? availableParallelism();
  if (!Number.isInteger(threads) || threads < 1 || threads > 256) {
    throw new ValidationError(`Compute threads must be an integer from 1 to 256, got ${threads}.`);
  }
  const dataDir = resolve(options.dataDir);
  const splitMin = Math.max(2, options.splitMinChunks ?? SPLIT_MIN_CHUNKS);
  const pool = new Piscina({
    filename: workerPath('compute-worker'),
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: 24 * 3_600_000,
    workerData: { allowFaultInjection: options.allowFaultInjection === true },
  });

  async function runTask<T>(task: ComputeTask, signal?: AbortSignal): Promise<T> {
    let reply: ComputeReply<T>;
    try {
      reply = (await pool.run(task, signal ? { signal } : undefined)) as ComputeReply<T>;
    } catch (err) {
      if (signal?.aborted) throw err;
      // The thread died (crash, out of memory): only this task fails; Piscina starts a replacement thread.
      throw new UpstreamError('A compute thread failed while working on this request; retrying is reasonable.', {
        cause: err,
      });
    }
    if (!reply.ok) throw errorFromData(reply.error);
    return reply.value;
  }

  async function splitStats(request: StatsRequest, chunks: ChunkSelection[], signal?: AbortSignal): Promise<BlocksValue> {
    const parts = split(chunks, threads);
    const records = await Promise.all(
      parts.map((part) => runTask<ArrayBuffer>({ kind: 'accumulate', dataDir, dataset: request.dataset, chunks: part }, signal)),
    );
    return runTask<BlocksValue>({ kind: 'finalize', dataDir, dataset: request.dataset, records }, signal);
  }

  return {
    threads,
    runTask,
    async computeStats(request, signal) {
      const ds = await computeDataset(dataDir, request.dataset);
      const { sample, chunks } = planSample(ds, request);
      if (threads === 1 || chunks.length < splitMin) {
        return runTask<StatsComputation>({ kind: 'stats', dataDir, request }, signal);
      }
      return computationOf(ds, sample, await splitStats(request, chunks, signal));
    },
    surroundings(request, signal) {
      return runTask<SurroundingsGrid>({ kind: 'surroundings', dataDir, request }, signal);
    },
    precomputeRow(dataset, chunkRow, signal) {
      return runTask<PrecomputeRowValue>({ kind: 'precompute-row', dataDir, dataset, chunkRow }, signal);
    },
    async datasetVersion(dataset) {
      return (await computeDataset(dataDir, dataset)).version;
    },
    async close() {
      await pool.destroy();
    },
  };
}

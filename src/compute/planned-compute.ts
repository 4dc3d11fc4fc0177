/**
 * The compute facade over any task executor. Sample planning happens here, on the caller's side, for every back end:
 * small samples run as one `stats` task; samples spanning many chunks are split into `accumulate` tasks over disjoint
 * chunk sets (run in parallel), merged and finalised by one `finalize` task. Only the executor differs — a local
 * Piscina pool (local-compute.ts) or the NATS work queue (cluster/nats-compute.ts) — and both run the same tasks with
 * the same worker code (worker-handler.ts), so their answers are identical by construction.
 */
import type { ComputeBackend, StatsComputation, StatsRequest, SurroundingsBackend, SurroundingsGrid } from './compute-types.js';
import { computeDataset } from './dataset-cache.js';
import type { AccumulateTask, BlocksValue, ChunkSelection, ComputeTask, PrecomputeRowValue } from './protocol.js';
import { computationOf, planSample } from './sample-plan.js';

/** Below this many chunks a query runs as one task: splitting would cost more than it saves. */
export const SPLIT_MIN_CHUNKS = 12;

/** Options of one task. */
export interface RunOptions {
  /** A stable task id: a queue that deduplicates by id runs a task published twice once (the precompute's rows). */
  readonly id?: string;
}

/** Runs compute tasks somewhere; errors are rebuilt `ServiceError`s. */
export interface TaskExecutor {
  /** Tasks one split query runs at once (a pool's threads; a cluster's expected workers × threads). */
  readonly parallelism: number;
  run<T>(task: ComputeTask, signal?: AbortSignal, options?: RunOptions): Promise<T>;
  /**
   * Runs the `accumulate` tasks of a split query in parallel and the `finalize` task that merges them, where the
   * executor can do better than `run` for each (the NATS executor passes the parts on as the bytes they came in).
   */
  runSplit?(parts: readonly AccumulateTask[], signal?: AbortSignal): Promise<BlocksValue>;
  close(): Promise<void>;
}

/** The compute back end the service, the CLI and batch jobs use, whatever runs its tasks. */
export interface PlannedCompute extends ComputeBackend, SurroundingsBackend {
  /** Tasks one split query runs at once. */
  readonly threads: number;
  /** Runs a raw task (map tiles, precompute, fault injection); errors are rebuilt `ServiceError`s. */
  runTask<T>(task: ComputeTask, signal?: AbortSignal, options?: RunOptions): Promise<T>;
  /** Point statistics of every outdoor cell of one chunk row (the precompute's unit of work). */
  precomputeRow(dataset: string, chunkRow: number, signal?: AbortSignal, options?: RunOptions): Promise<PrecomputeRowValue>;
}

/** Options of `plannedCompute`. */
export interface PlannedComputeOptions {
  /** Where this process reads metadata and outdoor masks for planning (and what local tasks name as their data). */
  readonly dataDir: string;
  /** Queries spanning at least this many chunks are split (default SPLIT_MIN_CHUNKS, at least 2). */
  readonly splitMinChunks?: number;
}

/** Splits `items` into at most `parts` contiguous, nearly equal slices. */
export function splitEvenly<T>(items: readonly T[], parts: number): T[][] {
  const out: T[][] = [];
  const size = Math.ceil(items.length / parts);
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The compute facade over `executor`. */
export function plannedCompute(executor: TaskExecutor, options: PlannedComputeOptions): PlannedCompute {
  const { dataDir } = options;
  const splitMin = Math.max(2, options.splitMinChunks ?? SPLIT_MIN_CHUNKS);
  const parts = executor.parallelism;
  const run = <T>(task: ComputeTask, signal?: AbortSignal, options?: RunOptions) => executor.run<T>(task, signal, options);

  async function splitStats(request: StatsRequest, chunks: ChunkSelection[], signal?: AbortSignal): Promise<BlocksValue> {
    const tasks = splitEvenly(chunks, parts).map(
      (part): AccumulateTask => ({ kind: 'accumulate', dataDir, dataset: request.dataset, chunks: part }),
    );
    if (executor.runSplit) return executor.runSplit(tasks, signal);
    const records = await Promise.all(tasks.map((task) => run<ArrayBuffer>(task, signal)));
    return run<BlocksValue>({ kind: 'finalize', dataDir, dataset: request.dataset, records }, signal);
  }

  return {
    threads: parts,
    runTask: run,
    async computeStats(request, signal) {
      const ds = await computeDataset(dataDir, request.dataset);
      const { sample, chunks } = planSample(ds, request);
      if (parts === 1 || chunks.length < splitMin) {
        return run<StatsComputation>({ kind: 'stats', dataDir, request }, signal);
      }
      return computationOf(ds, sample, await splitStats(request, chunks, signal));
    },
    surroundings(request, signal) {
      return run<SurroundingsGrid>({ kind: 'surroundings', dataDir, request }, signal);
    },
    precomputeRow(dataset, chunkRow, signal, options) {
      return run<PrecomputeRowValue>({ kind: 'precompute-row', dataDir, dataset, chunkRow }, signal, options);
    },
    async datasetVersion(dataset) {
      return (await computeDataset(dataDir, dataset)).version;
    },
    close: () => executor.close(),
  };
}

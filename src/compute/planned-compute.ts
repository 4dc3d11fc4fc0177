/**
 * The compute facade over any task executor. Sample planning happens here, on the caller's side, for every back end:
 * small samples run as one `stats` task; samples spanning many chunks are split into `accumulate` tasks over disjoint
 * chunk sets (run in parallel), merged and finalised by one `finalize` task. Only the executor differs — a local
 * Piscina pool (local-compute.ts) or the NATS work queue (cluster/nats-compute.ts) — and both run the same tasks with
 * the same worker code (tasks/worker-handler.ts), so their answers are identical by construction.
 */
import type { ComputeBackend, StatsRequest, SurroundingsBackend } from './compute-types.js';
import { computeDataset, type ComputeDataset } from './datasets/dataset-cache.js';
import type { AggregateRef } from '../store/aggregate-files.js';
import type { ServedKind } from './tasks/task-registry.js';
import type { AccumulateTask, BlocksValue, ChunkSelection, PrecomputeRowValue } from './tasks/protocol.js';
import {
  ACCUMULATE_TASK, FINALIZE_TASK, PRECOMPUTE_ROW_TASK, STATS_TASK, SURROUNDINGS_TASK,
} from './tasks/statistics-tasks.js';
import type { TaskDefinition, TaskShape } from './tasks/task-definition.js';
import { computationOf, planCells, planSample } from './planning/sample-plan.js';

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
  /** The task kinds its threads serve (task-registry.ts), where the executor has asked them (a cluster worker's pool). */
  readonly servedKinds?: readonly ServedKind[];
  /** Runs `task` of the kind `definition` defines; resolves with its value. */
  run<Task extends TaskShape, Value>(definition: TaskDefinition<Task, Value>, task: Task, signal?: AbortSignal, options?: RunOptions): Promise<Value>;
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
  /** Runs a task of any defined kind (map tiles, precompute, fault injection); errors are rebuilt `ServiceError`s. */
  runTask<Task extends TaskShape, Value>(definition: TaskDefinition<Task, Value>, task: Task, signal?: AbortSignal, options?: RunOptions): Promise<Value>;
  /**
   * The blocks of any set of outdoor cells of a dataset (flat indices, ascending), pooled per hour as a radius sample
   * is: the cells an area's mask selects. Planned and split like `computeStats`, so the same cells give the same blocks.
   */
  computeCells(dataset: string, cells: Int32Array, signal?: AbortSignal): Promise<BlocksValue>;
  /** Point statistics of every outdoor cell of one chunk row (the precompute's unit of work). */
  precomputeRow(dataset: string, chunkRow: number, signal?: AbortSignal, options?: RunOptions): Promise<PrecomputeRowValue>;
}

/** Options of `plannedCompute`. */
export interface PlannedComputeOptions {
  /** Where this process reads metadata and outdoor masks for planning (and what local tasks name as their data). */
  readonly dataDir: string;
  /** Queries spanning at least this many chunks are split (default SPLIT_MIN_CHUNKS, at least 2). */
  readonly splitMinChunks?: number | undefined;
  /**
   * Merge stored aggregates where they cover whole blocks of a sample (default true). false decodes every chunk the
   * sample touches: the naive path the query benchmark compares with; answers are identical either way.
   */
  readonly aggregates?: boolean | undefined;
}

/** The reads of one part of a split query. */
export interface SplitPart {
  readonly chunks: ChunkSelection[];
  readonly aggregates: AggregateRef[];
}

/**
 * Splits a sample's reads into at most `parts` parts of nearly equal work, keeping chunk order: a chunk decodes every
 * one of `fields` fields, an aggregate decodes one record set, about as much as one field's chunk.
 */
function splitReads(chunks: readonly ChunkSelection[], aggregates: readonly AggregateRef[], parts: number, fields: number): SplitPart[] {
  const items = [...aggregates.map((a) => ({ a, w: 1 })), ...chunks.map((c) => ({ c, w: fields }))];
  const total = items.reduce((n, i) => n + i.w, 0);
  const out: SplitPart[] = [];
  let part: SplitPart = { chunks: [], aggregates: [] };
  let done = 0;
  for (const item of items) {
    if ('a' in item) part.aggregates.push(item.a!);
    else part.chunks.push(item.c!);
    done += item.w;
    if (done >= (total * (out.length + 1)) / parts && out.length < parts - 1) {
      out.push(part);
      part = { chunks: [], aggregates: [] };
    }
  }
  if (part.chunks.length + part.aggregates.length > 0) out.push(part);
  return out;
}

/** The compute facade over `executor`. */
export function plannedCompute(executor: TaskExecutor, options: PlannedComputeOptions): PlannedCompute {
  const { dataDir } = options;
  const splitMin = Math.max(2, options.splitMinChunks ?? SPLIT_MIN_CHUNKS);
  const parts = executor.parallelism;
  const useAggregates = options.aggregates !== false;

  async function splitStats(request: Pick<StatsRequest, 'dataset'>, reads: SplitPart, ds: ComputeDataset, signal?: AbortSignal, into = parts): Promise<BlocksValue> {
    const generation = ds.aggregates?.generation ?? '';
    const tasks = splitReads(reads.chunks, reads.aggregates, into, ds.reader.fields.length).map(
      (part): AccumulateTask => ({
        kind: 'accumulate', dataDir, dataset: request.dataset, chunks: part.chunks,
        ...(part.aggregates.length > 0 ? { aggregates: { generation, refs: part.aggregates } } : {}),
      }),
    );
    if (executor.runSplit) return executor.runSplit(tasks, signal);
    const records = await Promise.all(tasks.map((task) => executor.run(ACCUMULATE_TASK, task, signal)));
    return executor.run(FINALIZE_TASK, { kind: 'finalize', dataDir, dataset: request.dataset, records }, signal);
  }

  return {
    threads: parts,
    runTask: (definition, task, signal, options) => executor.run(definition, task, signal, options),
    async computeStats(request, signal) {
      const ds = await computeDataset(dataDir, request.dataset);
      const { sample, chunks, aggregates } = await planSample(ds, request, { aggregates: useAggregates });
      if (parts === 1 || chunks.length + aggregates.length < splitMin) {
        return executor.run(STATS_TASK, { kind: 'stats', dataDir, request, ...(useAggregates ? {} : { aggregates: false }) }, signal);
      }
      return computationOf(ds, sample, await splitStats(request, { chunks, aggregates }, ds, signal));
    },
    async computeCells(dataset, cells, signal) {
      const ds = await computeDataset(dataDir, dataset);
      const reads = await planCells(ds, cells, { aggregates: useAggregates });
      // Small sets: one accumulating task (and the finalizing one); large ones across every thread.
      const into = parts === 1 || reads.chunks.length + reads.aggregates.length < splitMin ? 1 : parts;
      return splitStats({ dataset }, reads, ds, signal, into);
    },
    surroundings(request, signal) {
      return executor.run(SURROUNDINGS_TASK, { kind: 'surroundings', dataDir, request }, signal);
    },
    precomputeRow(dataset, chunkRow, signal, options) {
      return executor.run(PRECOMPUTE_ROW_TASK, { kind: 'precompute-row', dataDir, dataset, chunkRow }, signal, options);
    },
    async datasetVersion(dataset) {
      return (await computeDataset(dataDir, dataset)).version;
    },
    close: () => executor.close(),
  };
}

/**
 * The statistics family of compute-thread tasks (task-registry.ts): whole queries, split queries' parts and their
 * merge, precompute rows, report surroundings, writing stored aggregates, and fault injection for tests.
 */
import { ValidationError } from '../../errors.js';
import { aggregateBlock, type AggregateBlockTask } from '../aggregates/aggregate-block.js';
import { computeDataset, datasetWithGeneration, referenceOptions } from '../datasets/dataset-cache.js';
import { accumulateSelections } from '../datasets/kernel-run.js';
import { loadPrecomputeKernel } from '../kernels/precompute-kernel.js';
import { precomputeRow } from '../precompute/precompute-row.js';
import { precomputeRowPerCell } from '../precompute/precompute-row-per-cell.js';
import type {
  AccumulateTask, FaultTask, FinalizePartsTask, FinalizeTask, PrecomputeRowTask, StatsTask, SurroundingsTask,
} from './protocol.js';
import { computationOf, planSample } from '../planning/sample-plan.js';
import { computeSurroundings } from '../surroundings/surroundings-grid.js';
import { loadStatsKernel } from '../kernels/stats-kernel.js';
import { defineTask } from './task-definition.js';
import type { TaskFamily } from './task-registry.js';
import { decodeSentBytes } from './task-codec.js';

/** Whether this thread accepts fault-injection tasks (set from the pool's workerData). */
let faultsAllowed = false;

/** Enables fault-injection tasks in this thread (tests only). */
export function allowFaults(allowed: boolean): void {
  faultsAllowed = allowed;
}

/** Merges the parts' records and finalizes the blocks (`finalize`, `finalize-parts`). */
async function finalize(task: FinalizeTask | FinalizePartsTask) {
  const ds = await computeDataset(task.dataDir, task.dataset);
  const kernel = await loadStatsKernel();
  await accumulateSelections(ds, kernel, { chunks: [] });
  const parts = task.kind === 'finalize' ? task.records : task.parts.map((part) => decodeSentBytes<ArrayBuffer>(part));
  for (const records of parts) kernel.mergeRecords(new Uint32Array(records));
  return kernel.finish(referenceOptions(ds));
}

const reading = { readsData: true } as const;

/** A whole statistics request in one thread: sampling, reads, kernel, blocks. */
export const STATS_TASK = defineTask('stats', async (task: StatsTask) => {
  const ds = await computeDataset(task.dataDir, task.request.dataset);
  const { sample, chunks, aggregates } = await planSample(ds, task.request, { aggregates: task.aggregates });
  const kernel = await loadStatsKernel();
  const planned = aggregates.length > 0 ? { generation: ds.aggregates!.generation, refs: aggregates } : undefined;
  await accumulateSelections(ds, kernel, { chunks, aggregates: planned });
  return computationOf(ds, sample, kernel.finish(referenceOptions(ds)));
}, reading);

/** One part of a split query: its raw per-hour accumulator records (mergeable by addition), a fresh copy moved to the caller. */
export const ACCUMULATE_TASK = defineTask('accumulate', async (task: AccumulateTask): Promise<ArrayBuffer> => {
  const ds = await datasetWithGeneration(task.dataDir, task.dataset, task.aggregates?.generation);
  const kernel = await loadStatsKernel();
  await accumulateSelections(ds, kernel, { chunks: task.chunks, aggregates: task.aggregates });
  return kernel.records().buffer as ArrayBuffer;
}, reading, (records) => [records]);

/** Merges the parts' records and runs phase B. */
export const FINALIZE_TASK = defineTask('finalize', (task: FinalizeTask) => finalize(task), reading);

/** `finalize` with each part as the bytes a cluster worker replied with (already compressed: sent as they are). */
export const FINALIZE_PARTS_TASK = defineTask('finalize-parts', (task: FinalizePartsTask) => finalize(task), { ...reading, compress: false });

/**
 * Point statistics of every outdoor cell of one chunk row (the whole-city precompute's unit of work); the row's grids,
 * fresh per row, are moved to the caller, not copied.
 */
export const PRECOMPUTE_ROW_TASK = defineTask('precompute-row', async (task: PrecomputeRowTask) => {
  const ds = await computeDataset(task.dataDir, task.dataset);
  return task.method === 'per-cell'
    ? precomputeRowPerCell(ds, await loadStatsKernel(), task.chunkRow)
    : precomputeRow(ds, await loadPrecomputeKernel(), task.chunkRow);
}, reading, (value) => Object.values(value.grids).map((grid) => grid.buffer as ArrayBuffer));

/** The surroundings grid of a report. */
export const SURROUNDINGS_TASK = defineTask(
  'surroundings', async (task: SurroundingsTask) => computeSurroundings(await computeDataset(task.dataDir, task.request.dataset), task.request), reading,
);

/** Writes one top-level block's stored aggregates into the worker's own data directory: never sent to another machine. */
export const AGGREGATE_BLOCK_TASK = defineTask(
  'aggregate-block', async (task: AggregateBlockTask) => aggregateBlock(await computeDataset(task.dataDir, task.dataset), await loadStatsKernel(), task),
  { ...reading, remote: false },
);

/** Makes the thread fail on purpose (exit or throw), in pools that allow fault injection. */
export const FAULT_TASK = defineTask('fault', (task: FaultTask): never => {
  if (!faultsAllowed) throw new ValidationError('Fault injection is not enabled in this pool.');
  if (task.action === 'exit') process.exit(70);
  throw new Error('Injected fault.');
}, { remote: false });

/** The statistics family, as the compute thread registers it. */
export const STATISTICS_TASKS: TaskFamily = [
  STATS_TASK, ACCUMULATE_TASK, FINALIZE_TASK, FINALIZE_PARTS_TASK, PRECOMPUTE_ROW_TASK, SURROUNDINGS_TASK,
  AGGREGATE_BLOCK_TASK, FAULT_TASK,
];

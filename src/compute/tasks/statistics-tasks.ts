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
import type { TaskFamily, TaskKind } from './task-registry.js';
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

const reading = <T extends { readonly kind: string }>(run: (task: T) => unknown, remote = true): TaskKind<T> => ({ run, readsData: true, remote });

export const COMPUTE_TASKS: TaskFamily = {
  stats: reading<StatsTask>(async (task) => {
    const ds = await computeDataset(task.dataDir, task.request.dataset);
    const { sample, chunks, aggregates } = planSample(ds, task.request, { aggregates: task.aggregates });
    const kernel = await loadStatsKernel();
    const planned = aggregates.length > 0 ? { generation: ds.aggregates!.generation, refs: aggregates } : undefined;
    await accumulateSelections(ds, kernel, { chunks, aggregates: planned });
    return computationOf(ds, sample, kernel.finish(referenceOptions(ds)));
  }),
  accumulate: reading<AccumulateTask>(async (task) => {
    const ds = await datasetWithGeneration(task.dataDir, task.dataset, task.aggregates?.generation);
    const kernel = await loadStatsKernel();
    await accumulateSelections(ds, kernel, { chunks: task.chunks, aggregates: task.aggregates });
    return kernel.records().buffer;
  }),
  finalize: reading<FinalizeTask>(finalize),
  'finalize-parts': reading<FinalizePartsTask>(finalize),
  'precompute-row': reading<PrecomputeRowTask>(async (task) => {
    const ds = await computeDataset(task.dataDir, task.dataset);
    return task.method === 'per-cell'
      ? precomputeRowPerCell(ds, await loadStatsKernel(), task.chunkRow)
      : precomputeRow(ds, await loadPrecomputeKernel(), task.chunkRow);
  }),
  surroundings: reading<SurroundingsTask>(async (task) => computeSurroundings(await computeDataset(task.dataDir, task.request.dataset), task.request)),
  // Writes files into the worker's own data directory: never sent to another machine.
  'aggregate-block': reading<AggregateBlockTask>(async (task) => aggregateBlock(await computeDataset(task.dataDir, task.dataset), await loadStatsKernel(), task), false),
  fault: {
    remote: false,
    run(task: FaultTask) {
      if (!faultsAllowed) throw new ValidationError('Fault injection is not enabled in this pool.');
      if (task.action === 'exit') process.exit(70);
      throw new Error('Injected fault.');
    },
  },
};

/**
 * What a compute thread does with each task (workers/compute-worker.ts is the Piscina entry). Every failure is
 * returned as data (`ComputeReply`), never thrown across the thread boundary.
 */
import { DatasetError, errorToData, UpstreamError, ValidationError } from '../errors.js';
import { renderEncodedTile } from '../map/tile-render.js';
import { thermalRange } from '../map/thermal-range.js';
import { aggregateBlock } from './aggregate-block.js';
import { computeDataset, datasetWithGeneration, referenceOptions } from './dataset-cache.js';
import { accumulateSelections } from './kernel-run.js';
import { loadPrecomputeKernel } from './precompute-kernel.js';
import { precomputeRow } from './precompute-row.js';
import { precomputeRowPerCell } from './precompute-row-per-cell.js';
import type { ComputeReply, ComputeTask, DecodedTask, EncodedTask } from './protocol.js';
import { computationOf, planSample } from './sample-plan.js';
import { computeSurroundings } from './surroundings-grid.js';
import { loadStatsKernel } from './stats-kernel.js';
import { decodeTaskData, encodeTaskData } from './task-codec.js';

/** Whether this thread accepts fault-injection tasks (set from the pool's workerData). */
let faultsAllowed = false;

/** Enables fault-injection tasks in this thread (tests only). */
export function allowFaults(allowed: boolean): void {
  faultsAllowed = allowed;
}

/** Decodes bytes another process sent; bytes that do not decode are the sender's problem: `UpstreamError`. */
function decodeSent<T>(bytes: Uint8Array): T {
  try {
    return decodeTaskData<T>(bytes);
  } catch (err) {
    if (err instanceof DatasetError) throw new UpstreamError(err.message, { cause: err });
    throw err;
  }
}

/**
 * The task inside an `EncodedTask`, with the worker's data directory. Bytes that do not decode are the sender's
 * problem, not this worker's data: `UpstreamError`; a task of another kind than its subject: `ValidationError`.
 */
function decodedTask(task: EncodedTask): DecodedTask {
  const inner = decodeSent<DecodedTask>(task.payload);
  if (inner === null || typeof inner !== 'object' || inner.kind !== task.expect) {
    throw new ValidationError(`A task on svc.task.${task.expect} does not hold a ${task.expect} task.`);
  }
  return task.dataDir === undefined ? inner : ({ ...inner, dataDir: task.dataDir } as DecodedTask);
}

async function run(task: ComputeTask): Promise<unknown> {
  switch (task.kind) {
    case 'encoded':
      return encodeTaskData(await run(decodedTask(task)));
    case 'stats': {
      const ds = await computeDataset(task.dataDir, task.request.dataset);
      const { sample, chunks, aggregates } = planSample(ds, task.request, { aggregates: task.aggregates });
      const kernel = await loadStatsKernel();
      const planned = aggregates.length > 0 ? { generation: ds.aggregates!.generation, refs: aggregates } : undefined;
      await accumulateSelections(ds, kernel, { chunks, aggregates: planned });
      return computationOf(ds, sample, kernel.finish(referenceOptions(ds)));
    }
    case 'accumulate': {
      const ds = await datasetWithGeneration(task.dataDir, task.dataset, task.aggregates?.generation);
      const kernel = await loadStatsKernel();
      await accumulateSelections(ds, kernel, { chunks: task.chunks, aggregates: task.aggregates });
      return kernel.records().buffer;
    }
    case 'finalize':
    case 'finalize-parts': {
      const ds = await computeDataset(task.dataDir, task.dataset);
      const kernel = await loadStatsKernel();
      await accumulateSelections(ds, kernel, { chunks: [] });
      const parts = task.kind === 'finalize' ? task.records : task.parts.map((part) => decodeSent<ArrayBuffer>(part));
      for (const records of parts) kernel.mergeRecords(new Uint32Array(records));
      return kernel.finish(referenceOptions(ds));
    }
    case 'precompute-row': {
      const ds = await computeDataset(task.dataDir, task.dataset);
      return task.method === 'per-cell'
        ? precomputeRowPerCell(ds, await loadStatsKernel(), task.chunkRow)
        : precomputeRow(ds, await loadPrecomputeKernel(), task.chunkRow);
    }
    case 'aggregate-block':
      return aggregateBlock(await computeDataset(task.dataDir, task.dataset), await loadStatsKernel(), task);
    case 'surroundings':
      return computeSurroundings(await computeDataset(task.dataDir, task.request.dataset), task.request);
    case 'map-tile':
      return renderEncodedTile(task.job);
    case 'map-range':
      return thermalRange(task.values) ?? null;
    case 'fault': {
      if (!faultsAllowed) throw new ValidationError('Fault injection is not enabled in this pool.');
      if (task.action === 'exit') process.exit(70);
      throw new Error('Injected fault.');
    }
  }
}

/** Runs one task and wraps its outcome; the entry point of every compute thread. */
export async function handleComputeTask(task: ComputeTask): Promise<ComputeReply<unknown>> {
  try {
    return { ok: true, value: await run(task) };
  } catch (err) {
    return { ok: false, error: errorToData(err) };
  }
}

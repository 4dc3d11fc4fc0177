/**
 * `svc data aggregate` (and the last step of `svc data generate` and `svc data import-geotiff`): writes a dataset's
 * stored aggregates as a new generation and makes the chunk manifest name it, in this order:
 *
 * 1. every top-level block is aggregated by the compute pool into `.aggregates/<new generation>/` (a directory no
 *    manifest names, so readers ignore it); any damaged chunk stops the run, the new directory is removed and the
 *    damage listed — nothing is written;
 * 2. the manifest names the new files and section: their index blocks are appended and its root replaced atomically
 *    (readers see the old set or the new one);
 * 3. older generations are removed.
 *
 * Interrupted anywhere, the store stays as it was, plus at most an unnamed directory the next run removes: the run is
 * redone, never half applied. Which block sizes are worth storing depends on the grid (`defaultAggregateLevels`).
 */
import { randomBytes } from 'node:crypto';
import { readdir, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DamagedDataError, DatasetError } from '../../errors.js';
import { RADIUS_MAX_M } from '../../sampling/sampling.js';
import { AGGREGATE_DIR, AGGREGATE_LEVELS, aggregateBlocks, type AggregateSection } from '../../store/aggregate-files.js';
import { readManifest, updateManifest, type ManifestEntry } from '../../store/chunk-manifest.js';
import type { ChunkShape } from '../../store/dataset-types.js';
import { openDataset } from '../../store/zarr-reader.js';
import { readerEncodings, recordsDigest } from './aggregate-records.js';
import type { AggregateBlockTask } from './aggregate-block.js';
import { AGGREGATE_BLOCK_TASK } from '../tasks/statistics-tasks.js';
import type { PlannedCompute } from '../planned-compute.js';
import { removeTree } from '../../store/remove-tree.js';

/**
 * Block sizes worth storing for a grid: those whose blocks fit inside the largest sampling radius with room to
 * spare (block side × √2 ≤ the radius), so that a radius query can cover some. At 1 m with 8 × 8 chunks: 1, 2 and 4
 * (8, 16 and 32 m); at 10 m none, since no 50 m radius ever takes a whole 80 m chunk.
 */
export function defaultAggregateLevels(resolutionM: number, chunk: ChunkShape): number[] {
  const side = Math.max(chunk.rows, chunk.cols) * resolutionM;
  return AGGREGATE_LEVELS.filter((level) => level * side * Math.SQRT2 <= RADIUS_MAX_M);
}

/** Options of `aggregateDataset`. */
export interface AggregateOptions {
  /** Block sizes to store (powers of two up to 16); default `defaultAggregateLevels`; empty removes stored aggregates. */
  readonly levels?: readonly number[];
  /** Called once with the number of top-level blocks to aggregate, then once after each block. */
  readonly onStart?: (blocks: number) => void;
  readonly onBlock?: () => void;
}

/** What `aggregateDataset` did. */
export interface AggregateResult {
  readonly dataset: string;
  readonly levels: readonly number[];
  readonly files: number;
  readonly bytes: number;
  /** Damaged chunks found (then nothing was written). */
  readonly damaged: readonly string[];
}

/** Removes every generation directory under the store's `.aggregates/` except `keep`. */
async function removeGenerations(storeDir: string, keep?: string): Promise<void> {
  const root = join(storeDir, AGGREGATE_DIR);
  const names = await readdir(root).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  for (const name of names) if (name !== keep) await removeTree(join(root, name));
  if (keep === undefined) await removeTree(root);
}

/** Removes one generation directory, and `.aggregates/` itself when nothing else is left in it. */
async function removeGeneration(storeDir: string, generation: string): Promise<void> {
  await removeTree(join(storeDir, AGGREGATE_DIR, generation));
  await rmdir(join(storeDir, AGGREGATE_DIR)).catch(() => undefined);
}

/** Checks requested levels: distinct powers of two the format knows. */
function checkLevels(levels: readonly number[]): number[] {
  const known = AGGREGATE_LEVELS as readonly number[];
  const bad = levels.find((l) => !known.includes(l));
  if (bad !== undefined) throw new DatasetError(`Aggregate levels must be among ${known.join(', ')} (got ${bad}).`);
  return [...new Set(levels)].sort((a, b) => a - b);
}

/** Writes (or, with no levels, removes) the stored aggregates of dataset `id` under `dataDir`, computed by `compute`. */
export async function aggregateDataset(
  compute: PlannedCompute, dataDir: string, id: string, options: AggregateOptions = {},
): Promise<AggregateResult> {
  const storeDir = join(dataDir, id);
  const reader = await openDataset(storeDir);
  const manifest = (await readManifest(storeDir, id))!;
  const levels = checkLevels(options.levels ?? defaultAggregateLevels(reader.grid.resolution_m, reader.chunk));
  if (levels.length === 0) {
    if (manifest.aggregates) await (await updateManifest(storeDir, manifest, { contentVersion: manifest.contentVersion, changed: [] }))();
    await removeGenerations(storeDir);
    return { dataset: id, levels, files: 0, bytes: 0, damaged: [] };
  }
  const generation = `g${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  const chunkRows = Math.ceil(reader.grid.ny / reader.chunk.rows);
  const chunkCols = Math.ceil(reader.grid.nx / reader.chunk.cols);
  const blocks = aggregateBlocks(levels[levels.length - 1], chunkRows, chunkCols);
  const entries: ManifestEntry[] = [];
  const damaged: string[] = [];
  options.onStart?.(blocks.length);
  try {
    await Promise.all(blocks.map(async (block) => {
      const task: AggregateBlockTask = { kind: 'aggregate-block', dataDir, dataset: id, levels, ...block, generation };
      const value = await compute.runTask(AGGREGATE_BLOCK_TASK, task);
      entries.push(...value.entries);
      damaged.push(...value.damaged);
      options.onBlock?.();
    }));
    if (damaged.length > 0) {
      await removeGeneration(storeDir, generation);
      return { dataset: id, levels, files: 0, bytes: 0, damaged: damaged.sort() };
    }
    const now = await readManifest(storeDir, id);
    if (now?.contentVersion !== manifest.contentVersion || now.size !== manifest.size) {
      throw new DatasetError(`Dataset '${id}' changed while its aggregates were computed; run svc data aggregate again.`);
    }
    const section: AggregateSection = { format: 1, generation, levels, records: recordsDigest(reader.fields, readerEncodings(reader)) };
    // Only the aggregates' blocks of the index are written; the chunks' blocks are shared with the old index.
    const cleanup = await updateManifest(storeDir, now, { contentVersion: manifest.contentVersion, changed: [], aggregates: section, aggregateEntries: entries });
    await cleanup();
  } catch (err) {
    await removeGeneration(storeDir, generation);
    throw err;
  }
  await removeGenerations(storeDir, generation);
  return { dataset: id, levels, files: entries.length, bytes: entries.reduce((n, [, size]) => n + size, 0), damaged: [] };
}

/** The damage `aggregateDataset` found, as one error naming every damaged chunk. */
export function aggregationRefused(result: AggregateResult): DamagedDataError {
  return new DamagedDataError(
    `Dataset '${result.dataset}' is damaged; no aggregates were written:\n  ${result.damaged.join('\n  ')}`, { dataset: result.dataset },
  );
}

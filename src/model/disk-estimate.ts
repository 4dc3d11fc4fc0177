/**
 * The disk room a generation needs, estimated from its plan before anything is written, and the check that refuses a
 * generation (`--scale K` above all) that would not fit the free space of the output's filesystem.
 *
 * Stored bytes = hourly values (cells × hours × fields) × the stored bytes per value measured on generated data, plus
 * the stored aggregates where the resolution gets them, plus the static arrays. The figures below are the largest
 * measured on the scale ladder's steps (docs/scaling.md) with a margin, so the estimate errs high.
 */
import { statfs } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ValidationError } from '../errors.js';
import { defaultAggregateLevels } from '../compute/aggregates/dataset-aggregation.js';
import type { DatasetPlan } from './presets.js';

/**
 * Stored bytes per hourly int16 value after zstd + shuffle, measured on the scale ladder's steps (the same at 1×, 4×
 * and 16×): 0.88 on the demo zone at 10 m (statics included), 0.70 on the bench block at 1 m (its hourly chunks); 0.95
 * keeps a margin of about 8 % over the larger.
 */
const STORED_BYTES_PER_VALUE = 0.95;
/** Stored aggregates (levels 1, 2 and 4 at 1 m) relative to the hourly chunks' bytes: measured 0.083; 0.1 with a margin. */
const AGGREGATE_SHARE = 0.1;
/** Bytes per cell of the static arrays (outdoor uint8, building height float32), before compression. */
const STATIC_BYTES_PER_CELL = 5;

/** Bytes the datasets of `plans` will hold on disk, `hours` hours each (an upper estimate). */
export function estimateStoredBytes(plans: readonly DatasetPlan[], hours: number): number {
  let total = 0;
  for (const plan of plans) {
    const cells = Math.round((plan.rect.xmax - plan.rect.xmin) / plan.resolution_m) * Math.round((plan.rect.ymax - plan.rect.ymin) / plan.resolution_m);
    const hourly = cells * hours * plan.fields.length * STORED_BYTES_PER_VALUE;
    const aggregated = defaultAggregateLevels(plan.resolution_m, { hours, rows: plan.chunkCells, cols: plan.chunkCells }).length > 0;
    total += hourly * (aggregated ? 1 + AGGREGATE_SHARE : 1) + cells * STATIC_BYTES_PER_CELL;
  }
  return Math.ceil(total);
}

/** Free bytes of the filesystem holding `path` (the nearest existing ancestor when `path` does not exist yet). */
export type FreeBytes = (path: string) => Promise<number>;

/** `statfs` of the nearest existing ancestor: blocks available to this user × block size. */
export const statfsFreeBytes: FreeBytes = async (path) => {
  let dir = resolve(path);
  for (;;) {
    try {
      const fs = await statfs(dir);
      return fs.bavail * fs.bsize;
    } catch (err) {
      const parent = dirname(dir);
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || parent === dir) throw err;
      dir = parent;
    }
  }
};

const gb = (bytes: number): string => `${(bytes / 1e9).toFixed(2)} GB`;

/** Throws ValidationError, before anything is written, when `needed` bytes would not fit under `outDir`. */
export async function checkDiskRoom(outDir: string, needed: number, freeBytes: FreeBytes = statfsFreeBytes): Promise<void> {
  const free = await freeBytes(outDir);
  if (needed <= free) return;
  throw new ValidationError(
    `Generating into ${resolve(outDir)} needs about ${gb(needed)} of disk; its filesystem has ${gb(free)} free. ` +
      'Free some space, choose a smaller --scale, or another --out.',
  );
}

/**
 * Writing stored aggregates, one top-level block per compute-thread task (`aggregate-block`): every chunk of the
 * block is read and checked like a query reads it, its outdoor cells accumulated into per-chunk records by the
 * statistics kernel, and the records of each smaller level summed from those of the level below — exact integer sums,
 * the very records a query over those cells accumulates. Each block's file goes into the generation's directory,
 * which no manifest names until the whole set is written (dataset-aggregation.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DamagedDataError } from '../../errors.js';
import {
  aggregateKey, aggregateSources, blockChunks, encodeAggregate, type AggregateRef,
} from '../../store/aggregate-files.js';
import { chunkEntry, type ManifestEntry } from '../../store/chunk-manifest.js';
import { zstdCompress } from '../../store/codec-zstd.js';
import { recordsDigest, readerEncodings } from './aggregate-records.js';
import type { ComputeDataset } from '../datasets/dataset-cache.js';
import { blockSelections, chunkKeys, datasetEncodings, loadChunk, readFrames } from '../datasets/kernel-run.js';
import { HOUR_RECORD } from '../kernels/kernel-layout.js';
import type { StatsKernel } from '../kernels/stats-kernel.js';

/** zstd level of stored records: they are written once and read by every covered query. */
const RECORDS_LEVEL = 9;

/** Writes the aggregates of every level inside one top-level block. */
export interface AggregateBlockTask {
  readonly kind: 'aggregate-block';
  readonly dataDir: string;
  readonly dataset: string;
  /** Levels written, ascending; the block is one of the largest level's. */
  readonly levels: readonly number[];
  readonly blockRow: number;
  readonly blockCol: number;
  /** The generation being written (its directory is `<store>/.aggregates/<generation>`). */
  readonly generation: string;
}

/** The files written, or the damage that stopped the block (then nothing usable was written). */
export interface AggregateBlockValue {
  readonly entries: ManifestEntry[];
  readonly damaged: string[];
  /** Chunks read. */
  readonly chunks: number;
}

/** Runs one `aggregate-block` task in a compute thread. */
export async function aggregateBlock(ds: ComputeDataset, kernel: StatsKernel, task: AggregateBlockTask): Promise<AggregateBlockValue> {
  const { reader } = ds;
  const top: AggregateRef = { level: task.levels[task.levels.length - 1], blockRow: task.blockRow, blockCol: task.blockCol };
  const selections = await blockSelections(ds, [top], true);
  const begin = () => kernel.begin(reader.hours, reader.fields, datasetEncodings(ds), ds.calendar);
  const frames = readFrames(ds, chunkKeys(ds, selections), 0);
  const perChunk = new Map<string, { records: Uint32Array; cells: number }>();
  const damaged: string[] = [];
  for (const sel of selections) {
    begin();
    try {
      await loadChunk(ds, kernel, sel, frames);
    } catch (err) {
      if (!(err instanceof DamagedDataError)) throw err;
      damaged.push(err.message);
      continue;
    }
    const cells = sel.mask.reduce((n, m) => n + m, 0);
    if (cells > 0) kernel.addChunkViews(sel.mask);
    perChunk.set(`${sel.chunkRow}/${sel.chunkCol}`, { records: kernel.records(), cells });
  }
  if (damaged.length > 0) return { entries: [], damaged, chunks: selections.length };
  const digest = recordsDigest(reader.fields, readerEncodings(reader));
  const storeDir = reader.dir;
  const entries: ManifestEntry[] = [];
  for (const level of task.levels) {
    for (let br = top.blockRow * (top.level / level); br < (top.blockRow + 1) * (top.level / level); br++) {
      for (let bc = top.blockCol * (top.level / level); bc < (top.blockCol + 1) * (top.level / level); bc++) {
        const ref: AggregateRef = { level, blockRow: br, blockCol: bc };
        const members = blockChunks(reader, ref).map(([r, c]) => perChunk.get(`${r}/${c}`)!);
        if (members.length === 0) continue; // a block beyond the chunk grid's edge
        begin();
        for (const m of members) kernel.mergeRecords(m.records);
        const records = kernel.records();
        const bytes = encodeAggregate({
          dataset: reader.attrs.dataset, level, block: [br, bc], hours: reader.hours, record_bytes: HOUR_RECORD.BYTES,
          records: digest, cells: members.reduce((n, m) => n + m.cells, 0),
          sources: Object.fromEntries(aggregateSources(reader, ref, (k) => reader.storedChecksum(k))),
        }, zstdCompress(new Uint8Array(records.buffer, records.byteOffset, records.byteLength), RECORDS_LEVEL));
        const key = aggregateKey(task.generation, ref);
        const path = join(storeDir, key);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, bytes);
        entries.push(chunkEntry(key, bytes));
      }
    }
  }
  kernel.discard();
  return { entries, damaged, chunks: selections.length };
}

/**
 * The query benchmark's accounting: what a radius query reads and decodes with and without the stored aggregates
 * (from its plan and the chunk manifest), and the same query replayed stage by stage on this thread, the way a compute
 * thread runs it (kernel-run.ts): blocking read of each stored file, CRC-32 check, aggregates merged, chunks decoded
 * straight into kernel memory, phase A, then phase B and the envelope.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { mergeAggregate } from '../src/compute/aggregates/aggregate-records.js';
import type { StatsRequest } from '../src/compute/compute-types.js';
import { computeDataset, type ComputeDataset } from '../src/compute/datasets/dataset-cache.js';
import { HOUR_RECORD } from '../src/compute/kernels/kernel-layout.js';
import { datasetEncodings } from '../src/compute/datasets/kernel-run.js';
import { planSample } from '../src/compute/planning/sample-plan.js';
import { loadStatsKernel } from '../src/compute/kernels/stats-kernel.js';
import { toCachedStats } from '../src/services/stats-cache.js';
import { statsEnvelope } from '../src/services/stats-envelope.js';
import { aggregateKey } from '../src/store/aggregate-files.js';
import { hourlyChunkKey } from '../src/store/zarr-metadata.js';

/** What one query reads and decodes. */
export interface QueryVolume {
  readonly chunks: number;
  readonly aggregates: number;
  /** Stored bytes of every file read (the manifest's sizes). */
  readonly storedBytes: number;
  /** Bytes decompressed: int16 chunks of every field, and the aggregates' records. */
  readonly decodedBytes: number;
}

/** The stored files of a query's plan, aggregates first. */
async function plannedKeys(ds: ComputeDataset, request: StatsRequest, aggregates: boolean): Promise<{ keys: string[]; chunks: number; aggregates: number }> {
  const plan = await planSample(ds, request, { aggregates });
  const generation = ds.aggregates?.generation ?? '';
  const keys = [
    ...plan.aggregates.map((ref) => aggregateKey(generation, ref)),
    ...plan.chunks.flatMap((sel) => ds.reader.fields.map((f) => hourlyChunkKey(f, sel.chunkRow, sel.chunkCol))),
  ];
  return { keys, chunks: plan.chunks.length, aggregates: plan.aggregates.length };
}

/** What `request` reads and decodes in `dataset` under `dataDir`, with or without the stored aggregates. */
export async function queryVolume(dataDir: string, dataset: string, request: StatsRequest, aggregates: boolean): Promise<QueryVolume> {
  const ds = await computeDataset(dataDir, dataset);
  const planned = await plannedKeys(ds, request, aggregates);
  const { hours, chunk, fields } = ds.reader;
  return {
    chunks: planned.chunks,
    aggregates: planned.aggregates,
    storedBytes: planned.keys.reduce((n, key) => n + statSync(join(ds.reader.dir, key)).size, 0),
    decodedBytes:
      planned.chunks * fields.length * hours * chunk.rows * chunk.cols * 2 +
      planned.aggregates * hours * HOUR_RECORD.BYTES,
  };
}

/** Replays `request` stage by stage on this thread; milliseconds per stage, plus the files read. */
export async function queryStages(dataDir: string, dataset: string, request: StatsRequest, aggregates: boolean): Promise<Record<string, number>> {
  const ds = await computeDataset(dataDir, dataset);
  const plan = await planSample(ds, request, { aggregates });
  const kernel = await loadStatsKernel();
  const stage = { read_ms: 0, verify_ms: 0, merge_ms: 0, decode_ms: 0, kernel_ms: 0, assemble_ms: 0 };
  const read = (key: string): Uint8Array => {
    let t = performance.now();
    const bytes = readFileSync(join(ds.reader.dir, key));
    stage.read_ms += performance.now() - t;
    t = performance.now();
    crc32(bytes);
    stage.verify_ms += performance.now() - t;
    return bytes;
  };
  kernel.begin(ds.reader.hours, ds.reader.fields, datasetEncodings(ds), ds.calendar);
  for (const ref of plan.aggregates) {
    const bytes = read(aggregateKey(ds.aggregates!.generation, ref));
    const t = performance.now();
    await mergeAggregate(ds.reader, ds.aggregates!, kernel, ref, bytes);
    stage.merge_ms += performance.now() - t;
  }
  for (const sel of plan.chunks) {
    for (const f of ds.reader.fields) {
      const frame = read(hourlyChunkKey(f, sel.chunkRow, sel.chunkCol));
      const t = performance.now();
      kernel.loadShuffledChunk(f, sel.mask.length, frame, ds.directFields.get(f));
      stage.decode_ms += performance.now() - t;
    }
    const t = performance.now();
    kernel.addChunkViews(sel.mask);
    stage.kernel_ms += performance.now() - t;
  }
  const t = performance.now();
  const blocks = kernel.finish();
  statsEnvelope({
    city: undefined, address: null, lat: request.lat, lon: request.lon, metrics: ['air', 'wind', 'thermal'],
    stats: toCachedStats({
      dataset, reference_year: 2023, content_version: ds.version, sampling: 'radius', n_cells: plan.sample.cells.length,
      hours: ds.reader.hours, generated_utc: new Date().toISOString(), blocks,
    }),
  });
  stage.assemble_ms += performance.now() - t;
  return { ...stage, aggregates: plan.aggregates.length, chunks: plan.chunks.length };
}
